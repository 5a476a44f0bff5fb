# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""02_vector_add.py - tutorial step 2 in Python: a worker running a C kernel.

Three ObjectFifos (a, b in; c out), one worker on a compute tile that adds
one object of a and one of b into one of c per iteration.  The program
shows what the first call does and what later calls skip (the jit's
counters), and a design that refuses a shape with its own exception.
The same program in C is examples/tutorial/02_vector_add.c.
"""
import sys

import numpy as np

import iron
from iron import ExternalFunction, In, ObjectFifo, Out, Program, Runtime, Worker

TILE = 256  # elements per object

# The kernel: plain C, compiled by the system compiler on the first call.
ADD_SRC = """\
#include <stdint.h>
void add(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
"""


@iron.jit
def vector_add(a: In, b: In, c: Out):
    n = a.numel()
    if n % TILE != 0:
        raise iron.ShapeError(f"vector_add: {n} elements are not a multiple of {TILE}")
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_a = ObjectFifo(tile_ty, name="a")
    of_b = ObjectFifo(tile_ty, name="b")
    of_c = ObjectFifo(tile_ty, name="c")
    add = ExternalFunction("add", source_string=ADD_SRC,
                           arg_types=[tile_ty, tile_ty, tile_ty, np.int32])

    # One iteration of the worker's endless loop: acquire one object per
    # fifo, call add(a, b, c, TILE), release them.
    def core_fn(of_a, of_b, of_c, add):
        x, y, z = of_a.acquire(1), of_b.acquire(1), of_c.acquire(1)
        add(x, y, z, TILE)
        of_a.release(1)
        of_b.release(1)
        of_c.release(1)

    w = Worker(core_fn, [of_a.cons(), of_b.cons(), of_c.prod(), add], name="adder")

    def sequence(a, b, c, a_in, b_in, c_out):
        a_in.fill(a)
        b_in.fill(b)
        c_out.drain(c, wait=True)

    rt = Runtime(sequence, [tensor_ty, tensor_ty, tensor_ty,
                            of_a.prod(), of_b.prod(), of_c.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def check_sum(a, b, c):
    want = a.numpy() + b.numpy()
    if not np.array_equal(c.numpy(), want):
        i = int(np.flatnonzero(c.numpy() != want)[0])
        sys.exit(f"c[{i}] = {c.numpy()[i]}, expected {want[i]}")


def main():
    a = iron.randint(-100, 100, 4096, dtype=np.int32, seed=1)
    b = iron.randint(-100, 100, 4096, dtype=np.int32, seed=2)
    c = iron.zeros(4096, dtype=np.int32)

    # The first call builds; the next two find the specialization.
    for _ in range(3):
        vector_add(a, b, c)
    check_sum(a, b, c)

    # Another length is another specialization: one more build, and the
    # kernel, unchanged, is not compiled again.
    a2 = iron.randint(-100, 100, 1024, dtype=np.int32, seed=3)
    b2 = iron.randint(-100, 100, 1024, dtype=np.int32, seed=4)
    c2 = iron.zeros(1024, dtype=np.int32)
    vector_add(a2, b2, c2)
    check_sum(a2, b2, c2)

    st = vector_add.stats()
    print(f"vector_add: {st['calls']} calls, {st['builds']} builds, "
          f"{st['memory_hits']} found in memory, {st['design_runs']} design runs")

    # A length the design does not accept: its own exception, as raised.
    z = [iron.zeros(1000, dtype=np.int32) for _ in range(3)]
    try:
        vector_add(*z)
    except iron.ShapeError as e:
        print(f"1000 elements: {type(e).__name__}: {e}")
    else:
        sys.exit("1000 elements: the call was not refused")


if __name__ == "__main__":
    main()
