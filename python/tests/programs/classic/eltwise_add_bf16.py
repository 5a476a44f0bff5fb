# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# eltwise_add_bf16 -- classic era (2025), prints its module.
#
# Constructs: bfloat16 tensors (ml_dtypes.bfloat16, as upstream imports
# it); split and join at default placement (AnyMemTile) with default names
# and `obj_types`; Kernel("eltwise_add_bf16_vector", "add.cc.o", ...) of
# three bfloat16[1024] objects (add.c); two Workers built in a Python loop,
# each running `range_(tiles)` inside its endless loop; rt.start(*workers).
#
# Mirrors the C design `upstream_eltwise_add` (ml/eltwise_add, 2 cores).
#
# usage: eltwise_add_bf16.py [-d npu|npu2] [-n N]
import argparse

import numpy as np
from ml_dtypes import bfloat16

from aie.iron import Kernel, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import NPU1Col1, NPU2
from aie.iron.placers import SequentialPlacer

TILE, CORES = 1024, 2


def my_eltwise_add(dev, N):
    tiles = N // TILE // CORES
    tensor_ty = np.ndarray[(N,), np.dtype[bfloat16]]
    mem_ty = np.ndarray[(TILE * CORES,), np.dtype[bfloat16]]
    tile_ty = np.ndarray[(TILE,), np.dtype[bfloat16]]
    offsets = [TILE * i for i in range(CORES)]

    inA = ObjectFifo(mem_ty, name="inA")
    inB = ObjectFifo(mem_ty, name="inB")
    outC = ObjectFifo(mem_ty, name="outC")
    a_fifos = inA.cons().split(offsets, obj_types=[tile_ty] * CORES)
    b_fifos = inB.cons().split(offsets, obj_types=[tile_ty] * CORES)
    c_fifos = outC.prod().join(offsets, obj_types=[tile_ty] * CORES)

    add = Kernel("eltwise_add_bf16_vector", "add.cc.o", [tile_ty, tile_ty, tile_ty])

    def core_fn(of_a, of_b, of_c, eltwise_add):
        for _ in range_(tiles):
            elem_out = of_c.acquire(1)
            elem_in_a = of_a.acquire(1)
            elem_in_b = of_b.acquire(1)
            eltwise_add(elem_in_a, elem_in_b, elem_out)
            of_a.release(1)
            of_b.release(1)
            of_c.release(1)

    workers = [Worker(core_fn, [a_fifos[i].cons(), b_fifos[i].cons(), c_fifos[i].prod(), add])
               for i in range(CORES)]

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty, tensor_ty) as (A, B, C):
        rt.start(*workers)
        rt.fill(inA.prod(), A)
        rt.fill(inB.prod(), B)
        rt.drain(outC.cons(), C, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=4096)
opts = p.parse_args()
print(my_eltwise_add(NPU1Col1() if opts.dev == "npu" else NPU2(), opts.n))
