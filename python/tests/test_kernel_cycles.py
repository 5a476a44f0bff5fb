# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A kernel's declared cost (iron_kernel_set_cycles): the binding's
Kernel.set_cycles with a count or a formula, the library's errors raised
at once with its message, and the Python classes' set_cycles with names
for the arguments.  A declared cost never changes what a design
computes."""
import numpy as np
import pytest

import iron
from iron import _iron as I
from iron import ExternalFunction

from test_kernels import one_call

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


def run(declare):
    """A passthrough whose kernel gets declare(kernel) before its worker
    is made; returns the output (the input, whatever the cost)."""
    def design(d):
        fi = d.fifo("in", "uint8", (64,), 2)
        fo = d.fifo("out", "uint8", (64,), 2)
        k = d.kernel("copy_bytes", COPY, "uint8* in, uint8* out, int32 n")
        declare(k)
        w = d.worker("copy", k, 4, [fi.cons(), fo.prod(), 64])
        d.rt_start(w)
        d.rt_fill(fi.prod(), 0)
        d.rt_drain(fo.cons(), 1, wait=True)

    j = I.Jit(design, "cycles", "in input: uint8[N], out output: uint8[N]",
              disk_cache=-1)
    a = I.Tensor.arange("uint8", 0, 256, 1)
    b = I.Tensor.zeros("uint8", (256,))
    j.launch([a, b])
    return np.asarray(a), np.asarray(b)


@pytest.mark.parametrize("cycles", [5000, "5000", "64 + n / 32 * 9",
                                    "max($2, 16) % 7 + min(n, 3)"])
def test_a_declared_cost_is_accepted_and_changes_no_result(cycles):
    a, b = run(lambda k: k.set_cycles(cycles))
    np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("cycles, message", [
    ("", "kernel 'copy_bytes': cycles \"\": empty"),
    (-5, "cycles \"-5\" is -5; a declared cost is at least 0 cycles"),
    ("2 * m", "column 5: 'm' is not an argument of kernel 'copy_bytes' (its "
              "named arguments: in, out, n; did you mean 'n'?)"),
    ("in + 1", "column 1: argument 'in' ($0) is declared 'uint8*', not a "
               "scalar"),
    ("n * (2 +", "column 9: expected a number"),
    ("n / 0", "column 3: division by a constant zero"),
    ("99999999999999999999", "column 1: the number overflows 64 bits"),
])
def test_a_bad_cost_raises_the_library_s_error_at_once(cycles, message):
    after = {}

    def declare(k):
        k.set_cycles(cycles)
        after["reached"] = True

    with pytest.raises(I.InvalidArgumentError) as e:
        run(declare)
    assert message in str(e.value)
    assert "reached" not in after


@pytest.mark.parametrize("cycles, cls, message", [
    (1.5, TypeError, "argument 'cycles' must be str or int, not float"),
    (True, TypeError, "not bool"),
    (None, TypeError, "not NoneType"),
])
def test_set_cycles_argument_types(cycles, cls, message):
    with pytest.raises(cls) as e:
        run(lambda k: k.set_cycles(cycles))
    assert message in str(e.value)


ADD_C = ("void add_c(const int32_t *in, int32_t *out, int32_t c, int32_t n)\n"
         "{ for (int32_t i = 0; i < n; i++) out[i] = in[i] + c; }\n")
TILE = np.ndarray[(32,), np.dtype[np.int32]]


def add_c():
    return ExternalFunction("add_c", source_string=ADD_C,
                            arg_types=[TILE, TILE, np.int32, np.int32])


def test_python_kernels_declare_a_cost_with_names_or_positions():
    x = np.arange(128, dtype=np.int32)
    for k in (add_c().set_cycles("100 + n * 2", names=[None, None, "c", "n"]),
              add_c().set_cycles("$3 * 2"), add_c().set_cycles(640)):
        y = np.zeros_like(x)
        with iron.device("npu1"):
            iron.jit(iron.algorithms.transform)(k, x, y, 40, tile_size=32)
        np.testing.assert_array_equal(y, x + 40)


def test_python_kernels_bad_cost_and_names():
    with pytest.raises(TypeError, match="cycles must be an int or a str, got "
                                        "float"):
        add_c().set_cycles(2.0)
    with pytest.raises(ValueError, match="3 names for 4 arguments"):
        add_c().set_cycles("1", names=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"names\[1\] must be an identifier "
                                         r"or None, got 'b-1'"):
        add_c().set_cycles("1", names=["a", "b-1", None, None])
    # The formula is the library's to check, when the design is built.
    # (A worker calling the kernel once: no range_ open when it raises.)
    k = add_c().set_cycles("count * 2", names=[None, None, "c", "n"])
    x = np.arange(32, dtype=np.int32)
    with pytest.raises(I.InvalidArgumentError,
                       match="'count' is not an argument of kernel 'add_c' "
                             r"\(its named arguments: c, n\)"):
        with iron.device("npu1"):
            one_call(k, [x], [np.zeros_like(x)],
                     lambda kern, a, b: kern(a, b, 1, 32))
