# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# eltwise_parallel -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: the launch configuration `design[cols](a, b, ...)` (the call
# granted `cols` columns); one Worker per column pinned with
# `tile=Tile(c, 2)`; TaskGroup() / tg.finish() holding every column's
# fill and drain (`group=tg`), with `offset=`-free TensorAccessPattern
# taps; Kernel("axpb", "axpb.o", ...) found under the kernels folder with
# three scalar int32 arguments from `CompileTime[int]` values.
#
# Mirrors the C design `eltwise_parallel` (scale=3, bias=1; run with the
# same column count).
#
# usage: eltwise_parallel.py [--n N] [--cols C] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.iron import (CompileTime, In, Kernel, ObjectFifo, Out, Program, Runtime, TaskGroup,
                      Worker)
from aie.iron.device import Tile

TILE = 16


@iron.jit
def axpb(inp: In, out: Out, *, cols: CompileTime[int], scale: CompileTime[int] = 3,
         bias: CompileTime[int] = 1):
    n = inp.numel()
    per = n // cols
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    kernel = Kernel("axpb", "axpb.o", [tile_ty, tile_ty, np.int32, np.int32, np.int32])

    def core_fn(of_in, of_out, k):
        ei = of_in.acquire(1)
        eo = of_out.acquire(1)
        k(ei, eo, TILE, scale, bias)
        of_in.release(1)
        of_out.release(1)

    ins = [ObjectFifo(tile_ty, name=f"in{c}") for c in range(cols)]
    outs = [ObjectFifo(tile_ty, name=f"out{c}") for c in range(cols)]
    workers = [Worker(core_fn, [ins[c].cons(), outs[c].prod(), kernel], tile=Tile(c, 2))
               for c in range(cols)]

    def sequence(a, b, *handles):
        tg = TaskGroup()
        for c in range(cols):
            tap = TensorAccessPattern((n,), per * c, [per], [1])
            handles[2 * c].fill(a, tap, group=tg)
            handles[2 * c + 1].drain(b, tap, wait=True, group=tg)
        tg.finish()

    fn_args = [tensor_ty, tensor_ty]
    for c in range(cols):
        fn_args += [ins[c].prod(), outs[c].cons()]
    rt = Runtime(sequence, fn_args)
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--cols", type=int, default=2)
    p.add_argument("--save")
    args = p.parse_args()
    x = iron.arange(-100, args.n - 100, dtype=np.int32)
    y = iron.zeros_like(x)
    axpb[args.cols](x, y, cols=args.cols)
    expected = x.numpy() * 3 + 1
    if args.save:
        np.save(os.path.join(args.save, "input.npy"), x.numpy())
        np.save(os.path.join(args.save, "output.npy"), y.numpy())
    if not np.array_equal(y.numpy(), expected):
        print("FAIL\ngot     ", y.numpy()[:8], "\nexpected", expected[:8])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
