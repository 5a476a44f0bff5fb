# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# matmul_single -- newest era (2026), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: `.forward(name=, depth=, dims_to_stream=[(size, stride), ...])`
# re-laying A and B into r x s / s x t blocks on a memtile; 2-D object
# types; two kernels of one source built with compile_flags defines;
# TaskGroup() per row of C tiles, each fill/drain given `group=tg`, then
# `tg.finish()`; Python `for` loops unrolled in the sequence function (one
# task group per row, one drain per C tile) with TensorTiler2D
# (group_tiler with pattern_repeat) and TensorAccessPattern taps; a worker
# body with nested `range_` loops; `CompileTime[int]` tile sizes.
#
# Mirrors the C design `matmul_single` (int16, r, s, t = 8, 2, 8).
#
# usage: matmul_single.py [--M M] [--K K] [--N N] [--tile T] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern, TensorTiler2D
from aie.iron import (CompileTime, ExternalFunction, In, ObjectFifo, Out, Program, Runtime,
                      TaskGroup, Worker)
from aie.iron.controlflow import range_

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")
R, S, T = 8, 2, 8


@iron.jit
def matmul(A: In, B: In, C: Out, *, m: CompileTime[int], k: CompileTime[int],
           n: CompileTime[int]):
    M, K = A.shape
    N = B.shape[1]
    a_ty = np.ndarray[(M, K), np.dtype[np.int16]]
    b_ty = np.ndarray[(K, N), np.dtype[np.int16]]
    c_ty = np.ndarray[(M, N), np.dtype[np.int16]]
    a_tile = np.ndarray[(m, k), np.dtype[np.int16]]
    b_tile = np.ndarray[(k, n), np.dtype[np.int16]]
    c_tile = np.ndarray[(m, n), np.dtype[np.int16]]

    a_l3 = ObjectFifo(a_tile, name="a_l3")
    a_l2 = a_l3.cons().forward(name="a_l2", depth=2, dims_to_stream=[
        (m // R, R * k), (k // S, S), (R, k), (S, 1)])
    b_l3 = ObjectFifo(b_tile, name="b_l3")
    b_l2 = b_l3.cons().forward(name="b_l2", depth=2, dims_to_stream=[
        (k // S, S * n), (n // T, T), (S, n), (T, 1)])
    c = ObjectFifo(c_tile, name="c")

    flags = [f"-DM_={m}", f"-DK_={k}", f"-DN_={n}", f"-DR={R}", f"-DS={S}", f"-DT={T}"]
    src = os.path.join(KERNELS, "mm_i16.c")
    zero = ExternalFunction("zero_i16", source_file=src, arg_types=[c_tile],
                            compile_flags=flags)
    mm = ExternalFunction("matmul_i16_i16", source_file=src,
                          arg_types=[a_tile, b_tile, c_tile], compile_flags=flags)

    def core_fn(of_a, of_b, of_c, zero, mm):
        elem_c = of_c.acquire(1)
        zero(elem_c)
        for _ in range_(K // k):
            elem_a = of_a.acquire(1)
            elem_b = of_b.acquire(1)
            mm(elem_a, elem_b, elem_c)
            of_a.release(1)
            of_b.release(1)
        of_c.release(1)

    w = Worker(core_fn, [a_l2.cons(), b_l2.cons(), c.prod(), zero, mm])

    a_taps = TensorTiler2D.group_tiler((M, K), (m, k), (1, K // k), pattern_repeat=N // n)
    b_tap = TensorTiler2D.group_tiler((K, N), (k, n), (K // k, N // n),
                                      tile_group_col_major=True)[0]

    def sequence(a, b, cc, a_h, b_h, c_h):
        for mt in range(M // m):
            tg = TaskGroup()
            a_h.fill(a, a_taps[mt], group=tg)
            b_h.fill(b, b_tap, group=tg)
            for nt in range(N // n):
                tap = TensorAccessPattern((M, N), mt * m * N + nt * n,
                                          [m // R, n // T, R, T], [R * N, T, N, 1])
                c_h.drain(cc, tap, wait=True, group=tg)
            tg.finish()

    rt = Runtime(sequence, [a_ty, b_ty, c_ty, a_l3.prod(), b_l3.prod(), c.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--M", type=int, default=32)
    p.add_argument("--K", type=int, default=32)
    p.add_argument("--N", type=int, default=32)
    p.add_argument("--tile", type=int, default=16)
    p.add_argument("--save")
    args = p.parse_args()
    rng = np.random.default_rng(7)
    a_np = rng.integers(-20, 20, (args.M, args.K), dtype=np.int16)
    b_np = rng.integers(-20, 20, (args.K, args.N), dtype=np.int16)
    A, B = iron.tensor(a_np), iron.tensor(b_np)
    C = iron.zeros((args.M, args.N), dtype=np.int16)
    matmul(A, B, C, m=args.tile, k=args.tile, n=args.tile)
    expected = (a_np.astype(np.int64) @ b_np.astype(np.int64)).astype(np.int16)
    if args.save:
        for name, t in (("a", A), ("b", B), ("c", C)):
            np.save(os.path.join(args.save, name + ".npy"), t.numpy())
    if not np.array_equal(C.numpy(), expected):
        bad = np.argwhere(C.numpy() != expected)
        print(f"FAIL: {len(bad)} wrong, first at {tuple(bad[0])}: got "
              f"{C.numpy()[tuple(bad[0])]} expected {expected[tuple(bad[0])]}")
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
