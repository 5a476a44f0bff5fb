# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# clamp_if_else_jit -- classic era (2025), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: `with if_(cond) as op:` / `with else_(op):` nested inside
# each other (the classic `aie.helpers.dialects.ext.scf` import path);
# signed int32 comparisons (`<`, `>`) on traced element loads against
# Python ints; element stores in both branches; `range_` loops;
# `@iron.jit(is_placed=False)` with a compile-time Python value bound by
# closure (lo / hi).
#
# usage: clamp_if_else_jit.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.dialects.ext.scf import else_, if_
from aie.iron import ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.placers import SequentialPlacer

LO, HI, TILE = -50, 75, 32


@iron.jit(is_placed=False)
def clamp(inp, out):
    n = inp.numel()
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_in = ObjectFifo(tile_ty)
    of_out = ObjectFifo(tile_ty)

    def core_fn(of_in, of_out):
        for _ in range_(n // TILE):
            ei = of_in.acquire(1)
            eo = of_out.acquire(1)
            for i in range_(TILE):
                v = ei[i]
                with if_(v < LO) as low:
                    eo[i] = LO
                with else_(low):
                    with if_(v > HI) as high:
                        eo[i] = HI
                    with else_(high):
                        eo[i] = v
            of_in.release(1)
            of_out.release(1)

    w = Worker(core_fn, [of_in.cons(), of_out.prod()])
    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (a, b):
        rt.start(w)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), b, wait=True)
    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=256)
    args = p.parse_args()
    x = iron.randint(-200, 200, (args.n,), dtype=np.int32)
    y = iron.zeros(args.n, dtype=np.int32)
    clamp(x, y)
    expected = np.clip(x.numpy(), LO, HI)
    if not np.array_equal(y.numpy(), expected):
        bad = np.nonzero(y.numpy() != expected)[0]
        print(f"FAIL: {len(bad)} wrong, first at {bad[0]}: in {x.numpy()[bad[0]]} "
              f"got {y.numpy()[bad[0]]} expected {expected[bad[0]]}")
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
