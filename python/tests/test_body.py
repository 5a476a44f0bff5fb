# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Body, the core-body IR builder (iron._iron.Body): described bodies that
run on the emulator (out[i] = a[i] + b[i] in a for loop; a while loop and
an if), the names of types, ops and predicates (the library's, read back
from it), and the errors: op typing failures with the library's message,
unknown names, wrong argument types, use after the design returned."""
import numpy as np
import pytest

from iron import _iron as I

# Every test runs designs on tensors: until python/src/tensor.c is bound
# (its own branch), there is nothing to call them with.
pytestmark = pytest.mark.skipif(
    not hasattr(getattr(I, "Tensor", None), "zeros"),
    reason="iron._iron.Tensor is not bound yet")

ARGS = "in a: int32[N], in b: int32[N], out c: int32[N]"
INT64_MAX = 2**63 - 1


def jit(design, name, args=ARGS):
    return I.Jit(design, name, args, disk_cache=-1)


def tensors(n=256):
    a = I.Tensor.arange("int32", 0, n, 1)
    b = I.Tensor.arange("int32", 1000, 1000 + 3 * n, 3)
    return a, b, I.Tensor.zeros("int32", (n,))


def add_design(tile=16, keep=None):
    """c = a + b, each object added element by element by a described body
    looping forever (upstream's Worker(while_true=True))."""
    def design(d):
        fa = d.fifo("a", "int32", (tile,))
        fb = d.fifo("b", "int32", (tile,))
        fc = d.fifo("c", "int32", (tile,))
        b = d.body("vadd")
        ia, ib, oc = b.fifo(fa.cons()), b.fifo(fb.cons()), b.fifo(fc.prod())
        c0, c1 = b.const_int("index", 0), b.const_int("index", 1)
        forever = b.const_int("index", INT64_MAX)
        ntile = b.const_int("index", tile)
        b.for_(c0, forever, c1)
        xa = b.object(b.acquire(ia, 1), 0)
        xb = b.object(b.acquire(ib, 1), 0)
        xc = b.object(b.acquire(oc, 1), 0)
        i, carried = b.for_(c0, ntile, c1)
        assert carried == []
        s = b.arith("addi", b.load(xa, [i]), b.load(xb, [i]))
        b.store(s, xc, [i])
        assert b.end_for() == []
        b.release(ia, 1)
        b.release(ib, 1)
        b.release(oc, 1)
        b.end_for()
        if keep is not None:
            keep["body"], keep["text"] = b, b.dump()
            keep["types"] = (b.type_of(s), b.type_of(xa), b.type_of(ia),
                             b.type_of(i))
        w = d.worker_body("vadd", b)
        d.rt_start(w)
        d.rt_fill(fa.prod(), 0)
        d.rt_fill(fb.prod(), 1)
        d.rt_drain(fc.cons(), 2, wait=True)
    return design


def test_described_body_adds_two_vectors():
    keep = {}
    j = jit(add_design(keep=keep), "vadd_body")
    a, b, c = tensors()
    j.launch([a, b, c])
    np.testing.assert_array_equal(np.asarray(c),
                                  np.asarray(a) + np.asarray(b))
    assert "arith.addi" in keep["text"] and "scf.for" in keep["text"]
    assert keep["types"] == ("i32", "memref", "handle", "index")
    assert keep["body"].name == "vadd"


def test_body_used_after_the_design_returned_is_a_state_error():
    keep = {}
    jit(add_design(keep=keep), "kept_body").check(list(tensors()))
    with pytest.raises(I.StateError, match="used after its design function "
                                           "returned \\(Body.const_int\\)"):
        keep["body"].const_int("i32", 1)


def test_loop_carried_values_while_and_if():
    """Each object's running sum (a loop-carried value), clamped with an if
    to 1000 and a while that halves it, checked against numpy."""
    tile = 8

    def design(d):
        fa = d.fifo("a", "int32", (tile,))
        fc = d.fifo("c", "int32", (tile,))
        b = d.body("scan")
        ia, oc = b.fifo(fa.cons()), b.fifo(fc.prod())
        c0, c1 = b.const_int("index", 0), b.const_int("index", 1)
        b.for_(c0, b.const_int("index", INT64_MAX), c1)
        xa = b.object(b.acquire(ia, 1), 0)
        xc = b.object(b.acquire(oc, 1), 0)
        zero = b.const_int("i32", 0)
        i, (acc,) = b.for_(c0, b.const_int("index", tile), c1, [zero])
        acc2 = b.arith("addi", acc, b.load(xa, [i]))
        big = b.cmp("sgt", acc2, b.const_int("i32", 1000))
        b.if_(big, 1)
        b.else_([b.const_int("i32", 1000)])   # the then region's yield
        (clamped,) = b.end_if([acc2])          # the else region's
        # while v > 100: v = v / 2
        (v,) = b.while_([clamped])
        more = b.cmp("sgt", v, b.const_int("i32", 100))
        (w,) = b.while_do(more, [v])
        half = b.arith("divsi", w, b.const_int("i32", 2))
        (res,) = b.end_while([half])
        b.store(res, xc, [i])
        (total,) = b.end_for([acc2])
        assert b.type_of(total) == "i32"
        b.release(ia, 1)
        b.release(oc, 1)
        b.end_for()
        d.worker_body("scan", b)
        d.rt_fill(fa.prod(), 0)
        d.rt_drain(fc.cons(), 1, wait=True)

    j = jit(design, "scan", "in a: int32[N], out c: int32[N]")
    a = I.Tensor.arange("int32", 0, 64 * 5, 5)
    c = I.Tensor.zeros("int32", (64,))
    j.launch([a, c])
    av = np.asarray(a).reshape(-1, tile)
    want = []
    for row in av:
        acc = 0
        for x in row:
            acc += int(x)
            v = 1000 if acc > 1000 else acc   # then yields 1000, else acc
            while v > 100:
                v //= 2
            want.append(v)
    np.testing.assert_array_equal(np.asarray(c), want)


def test_names_come_from_the_library():
    names = I.body_names()
    assert names["types"] == ["i1", "i8", "i16", "i32", "i64", "index",
                              "bf16", "f32", "f64", "memref", "handle"]
    assert names["arith"][0] == "addi" and "index_cast" in names["arith"]
    assert "floordivsi" in names["arith"] and "negf" in names["arith"]
    cmp = names["cmp"]
    assert cmp[:10] == ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                        "ugt", "uge"]
    # the float unordered ones whose MLIR names are the integer ones'
    assert ["ugtf", "ugef", "ultf", "ulef"] == [n for n in cmp
                                                if n.endswith("f")
                                                and n[:-1] in cmp]


def build(steps):
    """A design that runs steps(body, design) then fails the test if it gets
    further; the exception steps raise comes out of Jit.check."""
    def design(d):
        fa = d.fifo("a", "int32", (16,))
        b = d.body("b")
        steps(b, d, b.fifo(fa.cons()))

    return jit(design, "errors", "in a: int32[N], out c: int32[N]")


def check(steps):
    build(steps).check([I.Tensor.zeros("int32", (64,)),
                        I.Tensor.zeros("int32", (64,))])


@pytest.mark.parametrize("steps, cls, message", [
    (lambda b, d, f: b.arith("addi", b.const_int("i32", 1),
                             b.const_float("f32", 1.0)),
     I.DtypeError, "body 'b': arith.addi: operands of two types, i32 and "
                   "f32"),
    (lambda b, d, f: b.const_int("f32", 1), I.DtypeError,
     "body 'b': arith.constant: type f32 is not an integer or index type"),
    (lambda b, d, f: b.arith("plus", 1, 2), I.InvalidArgumentError,
     "argument 'op' is \"plus\", not a arith op; expected one of: addi, "),
    (lambda b, d, f: b.cmp("gt", 1, 2), I.InvalidArgumentError,
     "expected one of: eq, ne, slt"),
    (lambda b, d, f: b.const_int("int32", 1), I.InvalidArgumentError,
     "not a body value type; expected one of: i1, i8"),
    (lambda b, d, f: b.end_for(), I.DesignError,
     "iron_body_end_for closes a for's body, but the innermost open region "
     "is the body's top level"),
    (lambda b, d, f: b.acquire(f, 5), I.InvalidArgumentError,
     "acquires 5 objects of fifo 'a' (consumer); expected 1 to 2"),
    (lambda b, d, f: b.type_of(999), I.InvalidArgumentError,
     "999 is not a value of body 'b'"),
])
def test_op_failures_raise_at_once(steps, cls, message):
    with pytest.raises(cls) as e:
        check(steps)
    assert message in str(e.value)


@pytest.mark.parametrize("steps, message", [
    (lambda b, d, f: b.arith("addi", "x", 1),
     "Body.arith(): argument 'x' must be int, not str"),
    (lambda b, d, f: b.load(1, 2),
     "Body.load(): argument 'idx' must be a sequence of values"),
    (lambda b, d, f: b.store(1, 2, [3, None]),
     "Body.store(): argument 'idx[1]' must be int, not NoneType"),
    (lambda b, d, f: b.fifo(d.fifo("x", "int32", (4,))),
     "Body.fifo(): argument 'handle' must be Handle, not iron._iron.Fifo"),
    (lambda b, d, f: b.const_int(3, 1),
     "Body.const_int(): argument 'type' must be str, not int"),
    (lambda b, d, f: d.worker_body("w", 5),
     "Design.worker_body(): argument 'body' must be Body, not int"),
])
def test_wrong_argument_types_name_the_argument(steps, message):
    with pytest.raises(TypeError) as e:
        check(steps)
    assert message in str(e.value)


def test_cast_cmp_select_and_float_predicates():
    seen = {}

    def steps(b, d, f):
        x = b.const_int("i32", -3)
        y = b.cast("sitofp", x, "f32")
        z = b.cast("arith.extsi", x, "i64")   # the prefix is accepted
        c = b.cmp("ugtf", y, b.const_float("f32", 0.0))
        s = b.select(c, y, b.arith("negf", y))
        seen["types"] = [b.type_of(v) for v in (y, z, c, s)]
        seen["text"] = b.dump()
        raise RuntimeError("done")   # stop: the body has no worker

    with pytest.raises(RuntimeError, match="done"):
        check(steps)
    assert seen["types"] == ["f32", "i64", "i1", "f32"]
    assert "arith.cmpf ugt" in seen["text"]
    assert "arith.sitofp" in seen["text"]
