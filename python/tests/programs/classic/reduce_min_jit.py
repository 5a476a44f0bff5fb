# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# reduce_min_jit -- classic era (2025), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: as upstream's vector_reduce_min_jit -- a LocalBuffer holding
# the running minimum, initialised in the core function's body (a store
# before the loop) rather than with initial_value; a traced `with if_(x <
# m):` with no else_ updating it; an output object written from the
# buffer after the loop; `range_(n // tile)` over whole objects nested in
# the Worker's loop; int32 data with negative values (signed compare);
# iron.device("npu1") / ("npu2") as a `with` scope around the call.
#
# usage: reduce_min_jit.py [--n N]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.dialects.ext.scf import if_
from aie.iron import LocalBuffer, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.placers import SequentialPlacer

TILE = 64


@iron.jit(is_placed=False)
def reduce_min(inp, out):
    n = inp.numel()
    in_ty = np.ndarray[(n,), np.dtype[np.int32]]
    out_ty = np.ndarray[(1,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_in = ObjectFifo(tile_ty, name="in")
    of_out = ObjectFifo(out_ty, name="out")

    def core_fn(of_in, of_out):
        running = LocalBuffer(out_ty, name="running_min")
        eo = of_out.acquire(1)
        running[0] = np.iinfo(np.int32).max
        for _ in range_(n // TILE):
            ei = of_in.acquire(1)
            for i in range_(TILE):
                x = ei[i]
                with if_(x < running[0]):
                    running[0] = x
            of_in.release(1)
        eo[0] = running[0]
        of_out.release(1)

    w = Worker(core_fn, [of_in.cons(), of_out.prod()])
    rt = Runtime()
    with rt.sequence(in_ty, out_ty) as (a, c):
        rt.start(w)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), c, wait=True)
    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=512)
    args = p.parse_args()
    dev = os.environ.get("IRON_DEVICE", "npu2")
    with iron.device(dev):
        x = iron.randint(-100000, 100000, (args.n,), dtype=np.int32)
        y = iron.zeros(1, dtype=np.int32)
        reduce_min(x, y)
    if y.numpy()[0] != x.numpy().min():
        print(f"FAIL: got {y.numpy()[0]}, expected {x.numpy().min()}")
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
