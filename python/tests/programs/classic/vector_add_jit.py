# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# vector_add_jit -- classic era (2025), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: `@iron.jit(is_placed=False)` on a generator taking the call's
# tensors positionally and reading their numel() / dtype; iron.randint and
# iron.zeros_like; a core function with no kernel: `range_` loops, element
# loads and stores (`c[i] = a[i] + b[i]`) traced into the core body;
# `with rt.sequence(...)`, rt.start/fill/drain; resolve_program(
# SequentialPlacer()); the device from iron.get_current_device() (set by
# $IRON_DEVICE).
#
# Mirrors the C design `vector_op` (tile=16, op='+').
#
# usage: vector_add_jit.py [--n N] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.iron import ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.placers import SequentialPlacer

TILE = 16


@iron.jit(is_placed=False)
def vector_add(input0, input1, output):
    n = input0.numel()
    dtype = input0.dtype
    tensor_ty = np.ndarray[(n,), np.dtype[dtype]]
    tile_ty = np.ndarray[(TILE,), np.dtype[dtype]]

    of_a = ObjectFifo(tile_ty, name="a")
    of_b = ObjectFifo(tile_ty, name="b")
    of_c = ObjectFifo(tile_ty, name="c")

    def core_body(of_a, of_b, of_c):
        for _ in range_(n // TILE):
            elem_a = of_a.acquire(1)
            elem_b = of_b.acquire(1)
            elem_c = of_c.acquire(1)
            for i in range_(TILE):
                elem_c[i] = elem_a[i] + elem_b[i]
            of_a.release(1)
            of_b.release(1)
            of_c.release(1)

    worker = Worker(core_body, fn_args=[of_a.cons(), of_b.cons(), of_c.prod()])

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty, tensor_ty) as (a, b, c):
        rt.start(worker)
        rt.fill(of_a.prod(), a)
        rt.fill(of_b.prod(), b)
        rt.drain(of_c.cons(), c, wait=True)

    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--save", help="write a.npy, b.npy, c.npy here")
    args = p.parse_args()

    a = iron.randint(-1000, 1000, (args.n,), dtype=np.int32, device="npu")
    b = iron.randint(-1000, 1000, (args.n,), dtype=np.int32, device="npu")
    c = iron.zeros_like(a)
    vector_add(a, b, c)

    expected = a.numpy() + b.numpy()
    errors = int(np.count_nonzero(c.numpy() != expected))
    if args.save:
        for name, t in (("a", a), ("b", b), ("c", c)):
            np.save(os.path.join(args.save, name + ".npy"), t.numpy())
    if errors:
        print(f"FAIL: {errors} of {args.n} elements differ")
        print("got     ", c.numpy()[:16])
        print("expected", expected[:16])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
