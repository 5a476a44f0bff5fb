# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# joined_layout -- newest era (2026), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: an ObjectFifo with `dims_to_stream=[(8, 1), (3, 8)]` whose
# producer handle is `.join(...)`ed from three workers' FIFOs (the memtile
# reads the joined object column-wise); core functions that produce data
# from nothing: `arith.index_cast(j, to=T.i32())` of a loop's induction
# variable plus a Python int, stored into every element; the newest
# `aie.extras.dialects.arith` / `aie.extras.types` import paths; a design
# with an output only (`Out`) and a sequence that only drains.
#
# Mirrors the C design `joined_layout`
# (out[i] = i % 3 + 1 + (i // 24) % 2).
#
# usage: joined_layout.py [--n N] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.extras import types as T
from aie.extras.dialects import arith
from aie.iron import ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

PARTS, PART = 3, 8


@iron.jit
def joined_layout(output: Out):
    n = output.numel()
    obj = PARTS * PART
    out_ty = np.ndarray[(n,), np.dtype[np.int32]]
    obj_ty = np.ndarray[(obj,), np.dtype[np.int32]]
    part_ty = np.ndarray[(PART,), np.dtype[np.int32]]

    of_out = ObjectFifo(obj_ty, name="out", dims_to_stream=[(PART, 1), (PARTS, PART)])
    parts = of_out.prod().join([PART * p for p in range(PARTS)],
                               obj_types=[part_ty] * PARTS,
                               names=[f"part{p}" for p in range(PARTS)])

    def fill_pair(of, base):
        for j in range_(2):
            o = of.acquire(1)
            v = arith.index_cast(j, to=T.i32()) + base
            for i in range_(PART):
                o[i] = v
            of.release(1)

    workers = [Worker(fill_pair, [parts[p].prod(), 1 + p]) for p in range(PARTS)]

    def sequence(out, out_h):
        out_h.drain(out, wait=True)

    rt = Runtime(sequence, [out_ty, of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=96)
    p.add_argument("--save")
    args = p.parse_args()
    out = iron.zeros(args.n, dtype=np.int32)
    joined_layout(out)
    i = np.arange(args.n)
    expected = (i % 3 + 1 + (i // 24) % 2).astype(np.int32)
    if args.save:
        np.save(os.path.join(args.save, "output.npy"), out.numpy())
    if not np.array_equal(out.numpy(), expected):
        print("FAIL\ngot     ", out.numpy()[:30], "\nexpected", expected[:30])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
