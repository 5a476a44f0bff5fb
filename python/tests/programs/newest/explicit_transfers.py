# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# explicit_transfers -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: the newest handle.fill / handle.drain keywords `sizes=`,
# `strides=`, `offset=` in place of a tap (the second half of the input is
# read first, and the output is written back strided: every other
# element, then the ones between); handles taken with `prod(tile=Tile(0,
# 0))` / `cons(tile=Tile(0, 0))`, pinning the transfers to a shim; two
# fills and two drains of one FIFO each in the same sequence.
#
# y[2k] = 2 * x[n/2 + k], y[2k + 1] = 2 * x[k]  (k < n/2)
#
# usage: explicit_transfers.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import Tile

TILE = 16


@iron.jit
def shuffle(x: In, y: Out):
    n = x.numel()
    h = n // 2
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_x, of_y = ObjectFifo(o_ty, name="x"), ObjectFifo(o_ty, name="y")

    def core_fn(fx, fy):
        ex = fx.acquire(1)
        ey = fy.acquire(1)
        for i in range_(TILE):
            ey[i] = ex[i] * 2
        fx.release(1)
        fy.release(1)

    w = Worker(core_fn, [of_x.cons(), of_y.prod()])

    def sequence(X, Y, hx, hy):
        hx.fill(X, sizes=[h], strides=[1], offset=h)
        hx.fill(X, sizes=[h], strides=[1], offset=0)
        hy.drain(Y, sizes=[h], strides=[2], offset=0)
        hy.drain(Y, sizes=[h], strides=[2], offset=1, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, of_x.prod(tile=Tile(0, 0)),
                            of_y.cons(tile=Tile(0, 0))])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=128)
    args = p.parse_args()
    x = np.arange(args.n, dtype=np.int32) * 5 - 100
    y = np.zeros_like(x)
    shuffle(x, y)
    h = args.n // 2
    want = np.empty_like(x)
    want[0::2] = 2 * x[h:]
    want[1::2] = 2 * x[:h]
    if not np.array_equal(y, want):
        print("FAIL\ngot     ", y[:12], "\nexpected", want[:12])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
