# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# rtp_trip_count -- newest era (2026), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: a `range_` whose bound is a traced value read from a
# run-time parameter Buffer (`range_(params[0])`: an i32 bound cast to
# index, the loop's trip count set at each call); the count given as a
# `DispatchTime[int]` and written by the sequence function; a loop that
# runs zero times; element stores of a Python int (`ey[i] = 0`).
#
# Each 16-element object: its first `count` elements copied, the rest 0.
#
# usage: rtp_trip_count.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import Buffer, DispatchTime, In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

TILE = 16


@iron.jit
def head(x: In, y: Out, *, count: DispatchTime[int]):
    n = x.numel()
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_x, of_y = ObjectFifo(o_ty, name="x"), ObjectFifo(o_ty, name="y")
    params = Buffer(np.ndarray[(1,), np.dtype[np.int32]], name="params", use_write_rtp=True)

    def core_fn(fx, fy, params):
        ex = fx.acquire(1)
        ey = fy.acquire(1)
        for i in range_(TILE):
            ey[i] = 0
        for i in range_(params[0]):
            ey[i] = ex[i]
        fx.release(1)
        fy.release(1)

    w = Worker(core_fn, [of_x.cons(), of_y.prod(), params])

    def sequence(X, Y, hx, hy, p, c):
        p[0] = c
        hx.fill(X)
        hy.drain(Y, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, of_x.prod(), of_y.cons(), params, count])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    args = p.parse_args()
    x = np.arange(1, args.n + 1, dtype=np.int32)
    for count in (3, TILE, 0, 9):
        y = np.full_like(x, -1)
        head(x, y, count=count)
        want = np.where(np.arange(args.n) % TILE < count, x, 0)
        if not np.array_equal(y, want):
            print(f"FAIL (count={count})\ngot     ", y[:TILE], "\nexpected", want[:TILE])
            sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
