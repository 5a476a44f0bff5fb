# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# counter_while_false_jit -- classic era (2025), jit-driven: runs itself
# and checks its result with numpy.
#
# Constructs: `Worker(..., while_true=False)` whose core function writes
# its own endless loop, `for _ in range_(sys.maxsize)` (upstream's
# tiling_exploration/per_tile); a LocalBuffer counter with an initial
# value that lives as long as the loaded design (a second call continues
# where the first stopped); an output-only design; a drain pinned to a
# shim with `placement=Tile(0, 0)`; `with rt.sequence(t)` yielding one
# RuntimeData for one type.
#
# usage: counter_while_false_jit.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import LocalBuffer, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import Tile
from aie.iron.placers import SequentialPlacer

TILE = 16


@iron.jit(is_placed=False)
def count(out):
    n = out.numel()
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_out = ObjectFifo(o_ty, name="out")

    def core_fn(of_out):
        counter = LocalBuffer(np.ndarray[(1,), np.dtype[np.int32]],
                              initial_value=np.array([7], np.int32))
        for _ in range_(sys.maxsize):
            elem = of_out.acquire(1)
            for i in range_(TILE):
                elem[i] = counter[0]
                counter[0] += 1
            of_out.release(1)

    w = Worker(core_fn, [of_out.prod()], while_true=False)
    rt = Runtime()
    with rt.sequence(t_ty) as c:
        rt.start(w)
        rt.drain(of_out.cons(), c, wait=True, placement=Tile(0, 0))
    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    args = p.parse_args()
    first = iron.zeros(args.n, dtype=np.int32)
    second = iron.zeros(args.n, dtype=np.int32)
    count(first)
    count(second)
    want = np.arange(7, 7 + 2 * args.n, dtype=np.int32)
    got = np.concatenate([first.numpy(), second.numpy()])
    if not np.array_equal(got, want):
        print("FAIL\ngot     ", got[args.n - 4:args.n + 4], "\nexpected",
              want[args.n - 4:args.n + 4])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
