# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The Design a design function receives (iron._iron.Design) and the objects
it builds: real designs run on the emulator, what the design learns about its
call, links, buffers and barriers, and every error the binding promises
(StateError after the design function returned, TypeError naming the
argument, library failures as their status's class with the library's
message)."""
import numpy as np
import pytest

from iron import _iron as I

# Every test runs designs on tensors: until python/src/tensor.c is bound
# (its own branch), there is nothing to call them with.
pytestmark = pytest.mark.skipif(
    not hasattr(getattr(I, "Tensor", None), "zeros"),
    reason="iron._iron.Tensor is not bound yet")

COPY = r"""
#include <stdint.h>
#include <string.h>
void copy_bytes(const uint8_t *in, uint8_t *out, int32_t n)
{
    memcpy(out, in, (size_t)n);
}
"""

ADD = r"""
#include <stdint.h>
void add(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
"""

PT_ARGS = "in input: uint8[N], out output: uint8[N]"


def jit(design, name="t", args=PT_ARGS, **kw):
    """A jit without the disk cache: the tests leave the user's alone."""
    kw.setdefault("disk_cache", -1)
    return I.Jit(design, name, args, **kw)


def u8(n, start=0):
    return I.Tensor.arange("uint8", start, start + n, 1)


def passthrough(d):
    n = d.arg_numel(0)
    obj = d.param_int("obj") if d.nargs > 2 else n // 4
    fi = d.fifo("in", "uint8", (obj,), 2)
    fo = d.fifo("out", "uint8", (obj,), 2)
    k = d.kernel("copy_bytes", COPY, "uint8*, uint8*, int32")
    w = d.worker("copy", k, n // obj, [fi.cons(), fo.prod(), obj])
    d.rt_start(w)
    d.rt_fill(fi.prod(), 0)
    d.rt_drain(fo.cons(), 1, wait=True)
    return fi, fo


def test_passthrough_with_a_c_kernel_runs():
    j = jit(passthrough, "passthrough")
    a, b = u8(256, 3), I.Tensor.zeros("uint8", (256,))
    j.launch([a, b])
    np.testing.assert_array_equal(np.asarray(b), np.asarray(a))
    st = j.stats()
    assert (st["builds"], st["design_runs"], st["calls"]) == (1, 1, 1)
    j.launch((a, b))   # a tuple too; the specialization is found
    assert j.stats()["memory_hits"] == 1


def test_what_the_design_learns():
    seen = {}

    def design(d):
        seen.update(nargs=d.nargs, cols=d.cols, jit=d.jit_name,
                    dt=[d.arg_dtype(i) for i in range(d.nargs)],
                    shape=d.arg_shape(0), numel=d.arg_numel(1),
                    tile=d.param_int("tile"), scale=d.param_float("scale"),
                    relu=d.param_bool("relu"), op=d.param_str("op"),
                    ot=d.param_dtype("OT"), k=d.scalar_index("k"),
                    dev=d.device_info())
        passthrough(d)

    j = jit(design, "learn", "in a: uint8[R, C], out b: uint8[N]",
            params="tile: int = 16, scale: float = 1.5, relu: bool = false, "
                   "op: str = '+', OT: dtype = int32",
            scalars="k = 0")
    a, b = I.Tensor.zeros("uint8", (4, 8)), I.Tensor.zeros("uint8", (32,))
    j.launch([a, b], params={"tile": 8, "op": "*", "relu": True,
                             "OT": ("dtype", "bf16")},
             config={"cols": 2})
    assert seen["nargs"] == 2 and seen["cols"] == 2
    assert seen["jit"] == "learn"
    assert seen["dt"] == ["uint8", "uint8"]
    assert seen["shape"] == (4, 8) and seen["numel"] == 32
    assert (seen["tile"], seen["scale"], seen["relu"]) == (8, 1.5, True)
    assert (seen["op"], seen["ot"], seen["k"]) == ("*", "bfloat16", 0)
    assert seen["dev"]["name"] == I.current_device()
    assert seen["dev"]["columns"] >= 2


def test_links_rtp_barrier_and_dump():
    """forward / split / join, a buffer with initial values and a barrier,
    all through the binding, checked by placement (Jit.check)."""
    dumped = {}

    def design(d):
        n = d.arg_numel(0)
        fi = d.fifo("in", "uint8", (n // 4,), 2)
        fwd = d.forward(fi.cons())
        assert fwd.name == "in_fwd"
        parts = d.split(fwd.cons(), [0, n // 8], [(n // 8,), (n // 8,)],
                        names=["lo", None], depths=[2, 0])
        assert [p.name for p in parts] == ["lo", "in_fwd_split1"]
        fo = d.fifo("out", "uint8", (n // 4,), 2)
        ins = d.join(fo.prod(), [0, n // 8], [(n // 8,), (n // 8,)],
                     place="memtile")
        k = d.kernel("copy_bytes", COPY, "uint8*, uint8*, int32")
        for i in range(2):
            d.worker(f"w{i}", k, 1, [parts[i].cons(), ins[i].prod(), n // 8])
        r = d.rtp("coef", "int32", 4)
        r.set_initial(np.arange(4, dtype=np.int32))
        assert (r.name, r.dtype, r.count) == ("coef", "int32", 4)
        bar = d.barrier("go")
        bar.set_initial(1)
        d.rt_fill(fi.prod(), 0)
        d.rt_drain(fo.cons(), 1, tap=(0, [n], [1]), wait=True)
        dumped["text"] = d.dump()
        assert repr(fi) == "<Fifo 'in'>"

    j = jit(design, "links")
    summary = j.check([u8(256), I.Tensor.zeros("uint8", (256,))])
    assert "ok:" in summary and "2 workers" in summary
    assert "in_fwd" in dumped["text"]


def test_use_after_the_design_function_returned_is_a_state_error():
    kept = {}

    def design(d):
        kept["d"] = d
        kept["f"], fo = passthrough(d)
        kept["h"] = fo.prod()

    j = jit(design, "kept")
    j.check([u8(64), I.Tensor.zeros("uint8", (64,))])
    d, f, h = kept["d"], kept["f"], kept["h"]
    for call in (lambda: d.fifo("y", "uint8", (4,)), lambda: d.nargs,
                 lambda: d.arg_numel(0), lambda: f.prod(),
                 lambda: h.set_depth(1), lambda: d.dump()):
        with pytest.raises(I.StateError) as e:
            call()
        assert "used after its design function returned" in str(e.value)
        assert "'kept'" in str(e.value)
    assert "ended" in repr(d)


def test_objects_of_an_ended_design_are_refused_by_a_new_one():
    kept = {}

    def first(d):
        kept["f"], _ = passthrough(d)

    def second(d):
        d.forward(kept["f"].cons())

    jit(first, "first").check([u8(64), I.Tensor.zeros("uint8", (64,))])
    with pytest.raises(I.StateError, match="'first'"):
        jit(second, "second").check([u8(64), I.Tensor.zeros("uint8", (64,))])


@pytest.mark.parametrize("call, message", [
    (lambda d: d.fifo(1, "uint8", (16,)),
     "Design.fifo(): argument 'name' must be str, not int"),
    (lambda d: d.fifo("a", 3, (16,)),
     "Design.fifo(): argument 'dtype' must be a dtype name"),
    (lambda d: d.fifo("a", "uint8", "16"),
     "Design.fifo(): argument 'shape' must be a shape"),
    (lambda d: d.fifo("a", "uint8", (16,), 2.0),
     "Design.fifo(): argument 'depth' must be int, not float"),
    (lambda d: d.worker("w", d.kernel("copy_bytes", COPY, "uint8*, uint8*, int32"), 1, [1, "x"]),
     "Design.worker(): argument 'args[1]' must be a Handle, HandleArg, int, "
     "float, Rtp, Barrier or Kernel, not str"),
    (lambda d: d.worker("w", None, 1, []),
     "Design.worker(): argument 'kernel' must be Kernel, not NoneType"),
    (lambda d: d.rt_fill(d.fifo("a", "uint8", (16,)), 0),
     "Design.rt_fill(): argument 'prod' must be Handle, not iron._iron.Fifo"),
    (lambda d: d.rt_fill(d.fifo("a", "uint8", (16,)).prod(), 0, tap=5),
     "Design.rt_fill(): argument 'tap' must be None or (offset, sizes, "
     "strides), not int"),
    (lambda d: d.fifo("a", "uint8", (16,)).cons().set_dims([2, 8], "x"),
     "Handle.set_dims(): argument 'strides' must be a sequence of ints"),
    (lambda d: d.rtp("r", "int32", 2).set_initial(5),
     "Rtp.set_initial(): argument 'values' must be a C-contiguous "
     "bytes-like object, not int"),
])
def test_wrong_argument_types_name_the_argument(call, message):
    def design(d):
        call(d)

    j = jit(design, "types")
    with pytest.raises(TypeError) as e:
        j.check([u8(64), I.Tensor.zeros("uint8", (64,))])
    assert message in str(e.value)


@pytest.mark.parametrize("call, cls, message", [
    (lambda d: d.fifo("a", "nope", (16,)), I.DtypeError, "nope"),
    (lambda d: d.fifo("a", "uint8", (1, 2, 3, 4, 5, 6, 7)), I.ShapeError,
     "7 dimensions"),
    (lambda d: d.fifo("a", "uint8", (16,), 0), I.InvalidArgumentError,
     "depth"),
    (lambda d: d.arg_numel(5), I.ArgumentError,
     "design asked for argument 5; the jit declares 2 arguments"),
    (lambda d: d.param_int("tile"), I.ParamError,
     "design asked for parameter 'tile', which the jit does not declare"),
    (lambda d: d.rtp("r", "int32", 2).set_initial(b"123"), I.ShapeError,
     "got 3 bytes"),
    (lambda d: d.barrier("b").set_initial(99), I.InvalidArgumentError,
     "barrier 'b'"),
    (lambda d: d.forward(d.fifo("a", "uint8", (16,)).cons(), place="dram"),
     I.InvalidArgumentError, "argument 'place' is \"dram\""),
])
def test_library_errors_raise_at_once_with_the_library_s_message(
        call, cls, message):
    lines = {}

    def design(d):
        call(d)
        lines["after"] = True   # never reached: the failing call raised

    j = jit(design, "errors")
    with pytest.raises(cls) as e:
        j.check([u8(64), I.Tensor.zeros("uint8", (64,))])
    assert message in str(e.value)
    assert isinstance(e.value, I.Error)
    assert "after" not in lines


def test_a_failed_design_raises_its_first_failure_at_later_calls():
    seen = {}

    def design(d):
        try:
            d.fifo("a", "uint8", (16,), 0)
        except I.InvalidArgumentError as e:
            seen["first"] = str(e)
        with pytest.raises(I.InvalidArgumentError) as e:
            d.fifo("b", "uint8", (16,), 2)
        seen["later"] = str(e.value)

    j = jit(design, "sticky")
    with pytest.raises(I.InvalidArgumentError):
        j.check([u8(64), I.Tensor.zeros("uint8", (64,))])
    assert seen["later"] == "the design failed at an earlier call: " + \
        seen["first"]


def test_fail_records_a_design_error():
    def design(d):
        d.fail("the tile does not divide 64")

    j = jit(design, "fails")
    with pytest.raises(I.DesignError, match="the tile does not divide 64"):
        j.check([u8(64), I.Tensor.zeros("uint8", (64,))])


def test_a_design_that_fails_verification():
    """Built without complaint, refused as a whole: a fifo nobody consumes."""
    def design(d):
        passthrough(d)
        d.fifo("orphan", "uint8", (16,), 2).prod()

    j = jit(design, "unverified")
    with pytest.raises(I.DesignError) as e:
        j.launch([u8(64), I.Tensor.zeros("uint8", (64,))])
    assert "verify" in str(e.value) and "orphan" in str(e.value)


def test_handles_and_args():
    seen = {}

    def design(d):
        f, _ = passthrough(d)
        seen["same_prod"] = f.prod() is f.prod()
        c1, c2 = f.cons(), f.cons()
        seen["cons"] = (c1 is not c2, c1.fifo is f, c1.is_producer,
                        f.prod().is_producer)
        ha = c1.acquiring(2)
        seen["ha"] = (ha.handle is c1, ha.max_acquire)

    # The two consumers made here have no user: verification says so.
    with pytest.raises(I.DesignError, match="consumer 1"):
        jit(design, "handles").check([u8(64),
                                      I.Tensor.zeros("uint8", (64,))])
    assert seen["same_prod"]
    assert seen["cons"] == (True, True, False, True)
    assert seen["ha"] == (True, 2)


def test_vector_add_with_pinned_worker_and_task_groups():
    def design(d):
        n = d.arg_numel(0)
        tile = 64
        fa = d.fifo("a", "int32", (tile,))
        fb = d.fifo("b", "int32", (tile,))
        fc = d.fifo("c", "int32", (tile,))
        k = d.kernel("add", ADD, "int32*, int32*, int32*, int32")
        w = d.worker("add", k, n // tile, [fa.cons(), fb.cons(), fc.prod(),
                                           tile])
        w.place(0, 2)
        w.set_stack(2048)
        assert w.name == "add"
        g = d.task_group()
        d.rt_fill(fa.prod(), 0)
        d.task_group_use(None)     # b's fill belongs to the sequence
        d.rt_fill(fb.prod(), 1)
        d.task_group_use(g)
        d.rt_drain(fc.cons(), 2, wait=True)
        d.task_group_finish(g)

    j = jit(design, "vadd", "in a: int32[N], in b: int32[N], out c: int32[N]")
    a = I.Tensor.arange("int32", 0, 256, 1)
    b = I.Tensor.full("int32", (256,), 100)
    c = I.Tensor.zeros("int32", (256,))
    j.launch([a, b, c])
    np.testing.assert_array_equal(np.asarray(c), np.arange(256) + 100)


def test_task_group_use_of_a_finished_group():
    def design(d):
        fi, _ = passthrough(d)
        g = d.task_group()
        d.task_group_finish(g)
        d.task_group_use(g)

    with pytest.raises(I.DesignError) as e:
        jit(design, "groups").check([u8(64), I.Tensor.zeros("uint8", (64,))])
    assert "finished" in str(e.value)
