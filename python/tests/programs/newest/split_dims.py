# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# split_dims -- newest era (2026), jit-driven: runs itself and checks its
# result with numpy.
#
# Constructs: `.split(offsets, obj_types=, names=, depths=[3, 2],
# dims_to_stream=[pattern, None])` -- a split whose first output is read
# out of the memtile transposed (4 x 4) and whose outputs have their own
# depths; `.join(offsets, obj_types=, names=, placement=AnyMemTile)`; two
# Workers running one core function with different Python constants (add
# 10 / add 20); `Program(dev, rt, workers=...)` with the workers started
# by the program, not by the sequence.
#
# Each 32-element object: first half transposed (4 x 4) + 10, second half
# + 20.
#
# usage: split_dims.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import AnyMemTile

OBJ, HALF = 32, 16


@iron.jit
def halves(x: In, y: Out):
    n = x.numel()
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(OBJ,), np.dtype[np.int32]]
    h_ty = np.ndarray[(HALF,), np.dtype[np.int32]]
    of_in = ObjectFifo(o_ty, name="whole_in")
    of_out = ObjectFifo(o_ty, name="whole_out")
    ins = of_in.cons().split([0, HALF], obj_types=[h_ty, h_ty], names=["lo_in", "hi_in"],
                             depths=[3, 2], dims_to_stream=[[(4, 1), (4, 4)], None])
    outs = of_out.prod().join([0, HALF], obj_types=[h_ty, h_ty],
                              names=["lo_out", "hi_out"], placement=AnyMemTile)

    def add(src, dst, k):
        a = src.acquire(1)
        b = dst.acquire(1)
        for i in range_(HALF):
            b[i] = a[i] + k
        src.release(1)
        dst.release(1)

    workers = [Worker(add, [ins[0].cons(), outs[0].prod(), 10]),
               Worker(add, [ins[1].cons(), outs[1].prod(), 20])]

    def sequence(X, Y, hx, hy):
        hx.fill(X)
        hy.drain(Y, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=128)
    args = p.parse_args()
    x = np.arange(args.n, dtype=np.int32) * 7
    y = np.zeros_like(x)
    halves(x, y)
    objs = x.reshape(-1, OBJ)
    lo = objs[:, :HALF].reshape(-1, 4, 4).transpose(0, 2, 1).reshape(-1, HALF) + 10
    hi = objs[:, HALF:] + 20
    want = np.concatenate([lo, hi], axis=1).reshape(-1)
    if not np.array_equal(y, want):
        print("FAIL\ngot     ", y[:32], "\nexpected", want[:32])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
