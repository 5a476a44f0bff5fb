# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# row_wise_bias_add -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: `@iron.jit` on a function with `In`/`Out` tensor parameters
# and keyword-only `CompileTime[int]` values (M, N, m, n);
# ExternalFunction(source_file=..., compile_flags=[-DDIM_m=.., -DDIM_n=..]);
# TensorTiler2D.group_tiler(..., tile_group_col_major=True) taps for the
# fill and the drain; `Runtime(sequence, [types..., handles...])` with the
# sequence calling `handle.fill(...)` / `handle.drain(..., wait=True)`;
# `Program(dev, rt, workers=[w])` starting the worker; a strip loop
# holding the bias object across an inner loop (nested `range_`).
#
# Mirrors the C design `upstream_row_wise_bias_add` (m=8, n=32).
#
# usage: row_wise_bias_add.py [--M M] [--N N] [--m m] [--n n] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorTiler2D
from aie.iron import ExternalFunction, In, Out, CompileTime, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")


@iron.jit
def row_wise_bias_add(inp: In, bias: In, out: Out, *, M: CompileTime[int],
                      N: CompileTime[int], m: CompileTime[int], n: CompileTime[int]):
    tensor_ty = np.ndarray[(M, N), np.dtype[np.float32]]
    bias_ty = np.ndarray[(N,), np.dtype[np.float32]]
    tile_ty = np.ndarray[(m * n,), np.dtype[np.float32]]
    bias_tile_ty = np.ndarray[(n,), np.dtype[np.float32]]

    in_fifo = ObjectFifo(tile_ty, name="in_fifo")
    bias_fifo = ObjectFifo(bias_tile_ty, name="bias_fifo")
    out_fifo = ObjectFifo(tile_ty, name="out_fifo")

    kernel_func = ExternalFunction(
        "row_wise_bias_add_f32_f32",
        source_file=os.path.join(KERNELS, "bias_add.c"),
        arg_types=[tile_ty, bias_tile_ty, tile_ty],
        compile_flags=[f"-DDIM_m={m}", f"-DDIM_n={n}", "-ffp-contract=off"],
    )

    def core_fn(in_fifo, bias_fifo, out_fifo, kernel_func):
        for _ in range_(N // n):
            elem_bias = bias_fifo.acquire(1)
            for _ in range_(M // m):
                elem_in = in_fifo.acquire(1)
                elem_out = out_fifo.acquire(1)
                kernel_func(elem_in, elem_bias, elem_out)
                out_fifo.release(1)
                in_fifo.release(1)
            bias_fifo.release(1)

    worker = Worker(core_fn, [in_fifo.cons(), bias_fifo.cons(), out_fifo.prod(), kernel_func])

    tap = TensorTiler2D.group_tiler((M, N), (m, n), (M // m, N // n),
                                    tile_group_col_major=True)[0]
    bias_tap = TensorTiler2D.group_tiler((1, N), (1, n), (1, N // n))[0]

    def sequence(a, b, c, in_h, bias_h, out_h):
        in_h.fill(a, tap)
        bias_h.fill(b, bias_tap)
        out_h.drain(c, tap, wait=True)

    rt = Runtime(sequence, [tensor_ty, bias_ty, tensor_ty,
                            in_fifo.prod(), bias_fifo.prod(), out_fifo.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--M", type=int, default=16)
    p.add_argument("--N", type=int, default=64)
    p.add_argument("--m", type=int, default=8)
    p.add_argument("--n", type=int, default=32)
    p.add_argument("--save")
    args = p.parse_args()
    rng = np.random.default_rng(11)
    inp = iron.tensor(rng.standard_normal((args.M, args.N), dtype=np.float32))
    bias = iron.tensor(rng.standard_normal(args.N, dtype=np.float32))
    out = iron.zeros((args.M, args.N), dtype=np.float32)
    row_wise_bias_add(inp, bias, out, M=args.M, N=args.N, m=args.m, n=args.n)
    expected = inp.numpy() + bias.numpy()[None, :]
    if args.save:
        for name, t in (("inp", inp), ("bias", bias), ("out", out)):
            np.save(os.path.join(args.save, name + ".npy"), t.numpy())
    if not np.array_equal(out.numpy(), expected):
        print("FAIL\ngot     ", out.numpy()[0, :6], "\nexpected", expected[0, :6])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
