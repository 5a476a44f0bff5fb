# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# passthrough_dmas -- classic era (2025), prints its module.
#
# Constructs: a design with no Worker at all: ObjectFifo consumer
# `.forward()` through a memtile (placement=AnyMemTile, default depth and
# name); a runtime sequence of three tensors, one of them unused; no
# rt.start; `Program(dev, rt).resolve_program(SequentialPlacer())`.
#
# Mirrors the C design `passthrough_dmas`.
#
# usage: passthrough_dmas.py [-d npu|npu2] [-n N]
import argparse

import numpy as np

from aie.iron import ObjectFifo, Program, Runtime
from aie.iron.device import AnyMemTile, NPU1Col1, NPU2
from aie.iron.placers import SequentialPlacer

LINE = 1024


def passthrough_dmas(dev, n):
    vector_ty = np.ndarray[(n,), np.dtype[np.int32]]
    line_ty = np.ndarray[(LINE,), np.dtype[np.int32]]

    of_in = ObjectFifo(line_ty, name="in")
    of_out = of_in.cons().forward(placement=AnyMemTile)

    rt = Runtime()
    with rt.sequence(vector_ty, vector_ty, vector_ty) as (a_in, _, c_out):
        rt.fill(of_in.prod(), a_in)
        rt.drain(of_out.cons(), c_out, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=2048)
opts = p.parse_args()
print(passthrough_dmas(NPU1Col1() if opts.dev == "npu" else NPU2(), opts.n))
