# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# vector_add_aieapi -- classic era (2025), prints its module.
#
# Constructs: ExternalFunction("eltwise_add_int32_vector",
# source_file=<the AIE API kernel examples/kernels/aie/add.cc>, arg_types=
# [tile, tile, tile, np.int32]): a C++ kernel written with
# <aie_api/aie.hpp> (16-lane int32 vectors, load_v / aie::add / store_v),
# compiled for the host against the emulator's AIE API; a core function
# that loops with `range_` over the objects of a call; argparse options as
# upstream's designs take them (-d npu|npu2, -n N).
#
# Mirrors the C design `vector_op` (op '+', tile=64) and its C kernel.
#
# usage: vector_add_aieapi.py [-d npu|npu2] [-n N]
import argparse
import os

import numpy as np

from aie.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import NPU1Col1, NPU2Col1
from aie.iron.placers import SequentialPlacer

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..")
AIE_KERNELS = os.path.join(REPO, "examples", "kernels", "aie")


def vector_add(dev, n, tile=64):
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(tile,), np.dtype[np.int32]]

    of_a = ObjectFifo(tile_ty, name="a", depth=2)
    of_b = ObjectFifo(tile_ty, name="b", depth=2)
    of_c = ObjectFifo(tile_ty, name="c", depth=2)

    add = ExternalFunction(
        "eltwise_add_int32_vector",
        source_file=os.path.join(AIE_KERNELS, "add.cc"),
        arg_types=[tile_ty, tile_ty, tile_ty, np.int32],
    )

    def core_fn(of_a, of_b, of_c, add):
        for _ in range_(n // tile):
            ea = of_a.acquire(1)
            eb = of_b.acquire(1)
            ec = of_c.acquire(1)
            add(ea, eb, ec, tile)
            of_a.release(1)
            of_b.release(1)
            of_c.release(1)

    worker = Worker(core_fn, [of_a.cons(), of_b.cons(), of_c.prod(), add])

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty, tensor_ty) as (a, b, c):
        rt.start(worker)
        rt.fill(of_a.prod(), a)
        rt.fill(of_b.prod(), b)
        rt.drain(of_c.cons(), c, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=1024)
opts = p.parse_args()
print(vector_add(NPU1Col1() if opts.dev == "npu" else NPU2Col1(), opts.n))
