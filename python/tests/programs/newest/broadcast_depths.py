# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# broadcast_depths -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: an ObjectFifo broadcast to two consumers with a depth list
# (`depth=[2, 2, 3]`: producer, then each consumer in `.cons()` order);
# `.cons(dims_from_stream=[(4, 1), (4, 4)])` on one consumer (it stores
# each 4 x 4 object transposed); `dims_from_stream_per_cons=` on another
# FIFO; `.cons(depth=4)` overriding the FIFO's depth; acquire(2) /
# release(2) on a consumer and a producer handle (two objects per
# iteration); three Workers.
#
# out_a = in + 1; out_b = out_c = each 16-element object transposed as 4 x 4.
#
# usage: broadcast_depths.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

OBJ = 16
TRANSPOSE = [(4, 1), (4, 4)]


@iron.jit
def fanout(inp: In, out_a: Out, out_b: Out, out_c: Out):
    n = inp.numel()
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(OBJ,), np.dtype[np.int32]]

    of_in = ObjectFifo(o_ty, name="in", depth=[2, 2, 3])
    of_in2 = ObjectFifo(o_ty, name="in2", dims_from_stream_per_cons=TRANSPOSE)
    of_a = ObjectFifo(o_ty, name="a")
    of_b = ObjectFifo(o_ty, name="b")
    of_c = ObjectFifo(o_ty, name="c")

    def add_one(src, dst):
        x = src.acquire(1)
        y = dst.acquire(1)
        for i in range_(OBJ):
            y[i] = x[i] + 1
        src.release(1)
        dst.release(1)

    def copy_two(src, dst):
        xs = src.acquire(2)
        ys = dst.acquire(2)
        for k in range(2):                    # unrolled at trace time
            for i in range_(OBJ):
                ys[k][i] = xs[k][i]
        src.release(2)
        dst.release(2)

    def copy_one(src, dst):
        x = src.acquire(1)
        y = dst.acquire(1)
        for i in range_(OBJ):
            y[i] = x[i]
        src.release(1)
        dst.release(1)

    workers = [
        Worker(add_one, [of_in.cons(), of_a.prod()]),
        Worker(copy_two, [of_in.cons(dims_from_stream=TRANSPOSE), of_b.prod()]),
        Worker(copy_one, [of_in2.cons(depth=4), of_c.prod()]),
    ]

    def sequence(x, a, b, c, hin, hin2, ha, hb, hc):
        hin.fill(x)
        hin2.fill(x)
        ha.drain(a)
        hb.drain(b)
        hc.drain(c, wait=True)

    rt = Runtime(sequence, [t_ty] * 4 + [of_in.prod(), of_in2.prod(), of_a.cons(),
                                         of_b.cons(), of_c.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    args = p.parse_args()
    x = np.arange(args.n, dtype=np.int32) * 3 - 50
    a, b, c = (np.zeros(args.n, np.int32) for _ in range(3))
    fanout(x, a, b, c)
    transposed = x.reshape(-1, 4, 4).transpose(0, 2, 1).reshape(-1)
    ok = True
    for name, got, want in (("a", a, x + 1), ("b", b, transposed), ("c", c, transposed)):
        if not np.array_equal(got, want):
            print(f"FAIL out_{name}\ngot     ", got[:16], "\nexpected", want[:16])
            ok = False
    if not ok:
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
