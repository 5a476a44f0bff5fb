# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""03_params.py - tutorial step 3 in Python: one design, several programs.

A compile-time value `op` makes the same design add or subtract (each
value is its own specialization, built once), `tile` sets the object
size, and a dispatch-time scalar `bias` changes what the compiled design
does per call without a rebuild: the runtime sequence writes it into a
run-time parameter buffer the kernel reads.  The same program in C is
examples/tutorial/03_params.c.
"""
import sys

import numpy as np

import iron
from iron import (Buffer, CompileTime, DispatchTime, ExternalFunction, In, ObjectFifo,
                  Out, Program, Runtime, Worker)

# OP comes from the design (-DOP=+); bias from a run-time parameter.
ELTWISE_SRC = """\
#include <stdint.h>
void eltwise(const int32_t *a, const int32_t *b, int32_t *c,
             const int32_t *bias, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        c[i] = (a[i] OP b[i]) + bias[0];
}
"""


@iron.jit
def vector_op(a: In, b: In, c: Out, *, tile: CompileTime[int] = 64,
              op: CompileTime[str] = "+", bias: DispatchTime[int]):
    n = a.numel()
    if tile < 1 or n % tile != 0:
        raise iron.ShapeError(f"{n} elements are not a multiple of tile={tile}")
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(tile,), np.dtype[np.int32]]
    bias_ty = np.ndarray[(1,), np.dtype[np.int32]]
    of_a = ObjectFifo(tile_ty, name="a")
    of_b = ObjectFifo(tile_ty, name="b")
    of_c = ObjectFifo(tile_ty, name="c")
    eltwise = ExternalFunction("eltwise", source_string=ELTWISE_SRC,
                               arg_types=[tile_ty, tile_ty, tile_ty, bias_ty, np.int32],
                               compile_flags=[f"-DOP={op}"])
    rtp = Buffer(bias_ty, name="bias", use_write_rtp=True)

    def core_fn(of_a, of_b, of_c, rtp, eltwise):
        x, y, z = of_a.acquire(1), of_b.acquire(1), of_c.acquire(1)
        eltwise(x, y, z, rtp, tile)
        of_a.release(1)
        of_b.release(1)
        of_c.release(1)

    w = Worker(core_fn, [of_a.cons(), of_b.cons(), of_c.prod(), rtp, eltwise],
               name="eltwise")

    def sequence(a, b, c, a_in, b_in, c_out, rtp):
        # Before any data moves, this call's value of the scalar `bias`.
        rtp[0] = bias
        a_in.fill(a)
        b_in.fill(b)
        c_out.drain(c, wait=True)

    rt = Runtime(sequence, [tensor_ty, tensor_ty, tensor_ty,
                            of_a.prod(), of_b.prod(), of_c.cons(), rtp])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def check(a, b, c, op, bias):
    x, y = a.numpy(), b.numpy()
    want = (x + y if op == "+" else x - y) + bias
    if not np.array_equal(c.numpy(), want):
        i = int(np.flatnonzero(c.numpy() != want)[0])
        sys.exit(f"op {op} bias {bias}: c[{i}] = {c.numpy()[i]}, expected {want[i]}")


def builds(jit):
    """Specializations built so far (the library's counters)."""
    return jit.stats()["builds"]


def main():
    a = iron.randint(-50, 50, 8192, dtype=np.int32, seed=1)
    b = iron.randint(-50, 50, 8192, dtype=np.int32, seed=2)
    c = iron.zeros(8192, dtype=np.int32)

    # Defaults: op '+'; a dispatch-time scalar is given at every call.
    vector_op(a, b, c, bias=0)
    check(a, b, c, "+", 0)
    print(f"add:           builds so far {builds(vector_op)}")

    # A compile-time value: a second specialization.
    vector_op(a, b, c, op="-", bias=0)
    check(a, b, c, "-", 0)
    print(f"sub:           builds so far {builds(vector_op)}")

    # A dispatch-time scalar: the compiled add runs again, no build.
    vector_op(a, b, c, bias=1000)
    check(a, b, c, "+", 1000)
    print(f"add, bias 1000: builds so far {builds(vector_op)}")

    # Values bound with specialize() apply to every call of the new jit
    # that does not give its own; it shares the jit's specializations, so
    # the subtraction built above is found.
    sub = vector_op.specialize(op="-")
    sub(a, b, c, bias=0)
    check(a, b, c, "-", 0)
    print(f"bound sub:     builds so far {builds(sub)}")

    # Mistake 1: a misspelt keyword, refused as Python refuses one.
    try:
        sub(a, b, c, tlie=32, bias=0)
    except TypeError as e:
        print(f"misspelt: {type(e).__name__}: {e}")
    else:
        sys.exit("misspelt: the call was not refused")

    # Mistake 2: objects too big for a compute tile's 64 KiB.
    try:
        sub(a, b, c, tile=4096, bias=0)
    except iron.ResourceError as e:
        print(f"too big: {type(e).__name__}: {e}")
    else:
        sys.exit("too big: the call was not refused")


if __name__ == "__main__":
    main()
