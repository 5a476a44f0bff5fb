# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# saxpy_bf16 -- newest era (2026), jit-driven: runs itself and checks its
# result with numpy.
#
# Constructs: `@iron.jit` with `In`/`Out` and `CompileTime[float]` (a) /
# `CompileTime[int]` (tile); a kernel taking a float32 scalar by value
# (ExternalFunction, arg_types [..., np.float32, np.int32]) called with a
# Python float; bfloat16 tensors (ml_dtypes.bfloat16); the Worker's core
# function without an explicit loop (one object per iteration of the
# endless loop); handle.fill/drain in `Runtime(sequence, fn_args)`.
#
# Mirrors the C design `saxpy_bf16` (a=3.0, tile=64).
#
# usage: saxpy_bf16.py [--n N] [--tile T] [--save DIR]
import argparse
import os
import sys

import numpy as np
from ml_dtypes import bfloat16

import aie.iron as iron
from aie.iron import CompileTime, ExternalFunction, In, ObjectFifo, Out, Program, Runtime, Worker

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")


@iron.jit
def saxpy(x: In, y: In, z: Out, *, a: CompileTime[float], tile: CompileTime[int]):
    n = x.numel()
    tensor_ty = np.ndarray[(n,), np.dtype[bfloat16]]
    tile_ty = np.ndarray[(tile,), np.dtype[bfloat16]]
    of_x = ObjectFifo(tile_ty, name="x")
    of_y = ObjectFifo(tile_ty, name="y")
    of_z = ObjectFifo(tile_ty, name="z")
    kernel = ExternalFunction("saxpy_bf16", source_file=os.path.join(KERNELS, "saxpy.c"),
                              arg_types=[tile_ty, tile_ty, tile_ty, np.float32, np.int32],
                              compile_flags=["-ffp-contract=off"])

    def core_fn(of_x, of_y, of_z, saxpy_fn):
        ex = of_x.acquire(1)
        ey = of_y.acquire(1)
        ez = of_z.acquire(1)
        saxpy_fn(ex, ey, ez, a, tile)
        of_x.release(1)
        of_y.release(1)
        of_z.release(1)

    w = Worker(core_fn, [of_x.cons(), of_y.cons(), of_z.prod(), kernel])

    def sequence(X, Y, Z, hx, hy, hz):
        hx.fill(X)
        hy.fill(Y)
        hz.drain(Z, wait=True)

    rt = Runtime(sequence, [tensor_ty, tensor_ty, tensor_ty,
                            of_x.prod(), of_y.prod(), of_z.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--tile", type=int, default=64)
    p.add_argument("--save")
    args = p.parse_args()
    rng = np.random.default_rng(3)
    xs = rng.uniform(-4, 4, args.n).astype(np.float32).astype(bfloat16)
    ys = rng.uniform(-4, 4, args.n).astype(np.float32).astype(bfloat16)
    x, y = iron.tensor(xs, dtype=bfloat16), iron.tensor(ys, dtype=bfloat16)
    z = iron.zeros(args.n, dtype=bfloat16)
    saxpy(x, y, z, a=3.0, tile=args.tile)
    ax = np.float32(3.0) * xs.astype(np.float32)
    expected = (ax + ys.astype(np.float32)).astype(bfloat16)
    if args.save:
        for name, t in (("x", x), ("y", y), ("z", z)):
            np.save(os.path.join(args.save, name + ".npy"), t.numpy())
    got = z.numpy()
    if not np.array_equal(got.view(np.uint16), expected.view(np.uint16)):
        print("FAIL\ngot     ", got[:8].astype(np.float32), "\nexpected",
              expected[:8].astype(np.float32))
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
