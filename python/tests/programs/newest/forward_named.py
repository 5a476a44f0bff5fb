# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# forward_named -- newest era (2026), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: `.forward(name="staged", depth=4, tile=Tile(0, 1),
# dims_to_stream=[(4, 1), (4, 4)])` -- a named forward pinned on a memtile
# with its own depth that reads each 4 x 4 object out transposed; a Worker
# pinned with `tile=Tile(0, 3)`; acquire of the forwarded FIFO through a
# consumer handle taken from the forward's result; the newest
# `ObjectFifo(..., depth=)` keyword.
#
# out = each 16-element object transposed as 4 x 4, plus 1.
#
# usage: forward_named.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import Tile

OBJ = 16


@iron.jit
def staged(x: In, y: Out):
    n = x.numel()
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(OBJ,), np.dtype[np.int32]]
    of_in = ObjectFifo(o_ty, name="in", depth=2)
    of_staged = of_in.cons().forward(name="staged", depth=4, tile=Tile(0, 1),
                                     dims_to_stream=[(4, 1), (4, 4)])
    of_out = ObjectFifo(o_ty, name="out", depth=2)

    def core_fn(src, dst):
        a = src.acquire(1)
        b = dst.acquire(1)
        for i in range_(OBJ):
            b[i] = a[i] + 1
        src.release(1)
        dst.release(1)

    w = Worker(core_fn, [of_staged.cons(), of_out.prod()], tile=Tile(0, 3))

    def sequence(X, Y, hx, hy):
        hx.fill(X)
        hy.drain(Y, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    args = p.parse_args()
    x = np.arange(args.n, dtype=np.int32)
    y = np.zeros_like(x)
    staged(x, y)
    want = x.reshape(-1, 4, 4).transpose(0, 2, 1).reshape(-1) + 1
    if not np.array_equal(y, want):
        print("FAIL\ngot     ", y[:16], "\nexpected", want[:16])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
