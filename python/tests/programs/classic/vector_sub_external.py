# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# vector_sub_external -- classic era (2025), prints its module.
#
# Constructs: ExternalFunction("eltwise_sub", source_file=<a C kernel under
# python/tests/kernels>, arg_types=[tile, tile, tile, np.int32]); a core
# function that loops with `range_` over the objects of a call and calls
# the kernel on each; three ObjectFifos with explicit `depth=`;
# argparse options as upstream's designs take them (-d npu|npu2, -n N).
#
# Mirrors the C design `vector_op` with op='-' (tile=16).
#
# usage: vector_sub_external.py [-d npu|npu2] [-n N]
import argparse
import os

import numpy as np

from aie.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import NPU1Col1, NPU2Col1
from aie.iron.placers import SequentialPlacer

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")


def vector_sub(dev, n, tile=16):
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(tile,), np.dtype[np.int32]]

    of_a = ObjectFifo(tile_ty, name="a", depth=2)
    of_b = ObjectFifo(tile_ty, name="b", depth=2)
    of_c = ObjectFifo(tile_ty, name="c", depth=2)

    sub = ExternalFunction(
        "eltwise_sub",
        source_file=os.path.join(KERNELS, "vector_sub.c"),
        arg_types=[tile_ty, tile_ty, tile_ty, np.int32],
    )

    def core_fn(of_a, of_b, of_c, sub):
        for _ in range_(n // tile):
            ea = of_a.acquire(1)
            eb = of_b.acquire(1)
            ec = of_c.acquire(1)
            sub(ea, eb, ec, tile)
            of_a.release(1)
            of_b.release(1)
            of_c.release(1)

    worker = Worker(core_fn, [of_a.cons(), of_b.cons(), of_c.prod(), sub])

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty, tensor_ty) as (a, b, c):
        rt.start(worker)
        rt.fill(of_a.prod(), a)
        rt.fill(of_b.prod(), b)
        rt.drain(of_c.cons(), c, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=512)
opts = p.parse_args()
print(vector_sub(NPU1Col1() if opts.dev == "npu" else NPU2Col1(), opts.n))
