# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A classic (2025) upstream design in the style of basic/passthrough_kernel:
# a Kernel named by its object file, a line-by-line worker, a runtime
# sequence with a tiler's pattern, and print(module) at the end.
import argparse
import sys

import numpy as np

from aie.iron import Kernel, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import NPU1Col1, NPU2Col1
from aie.iron.placers import SequentialPlacer
from aie.helpers.taplib import TensorTiler2D


def my_passthrough(dev, size, line_size):
    vector_ty = np.ndarray[(size,), np.dtype[np.uint8]]
    line_ty = np.ndarray[(line_size,), np.dtype[np.uint8]]

    of_in = ObjectFifo(line_ty, name="in")
    of_out = ObjectFifo(line_ty, name="out")

    passthrough_fn = Kernel("passThroughLine", "passThrough.cc.o",
                            [line_ty, line_ty, np.int32])

    def core_fn(of_in, of_out, passThroughLine):
        for _ in range_(size // line_size):
            elem_out = of_out.acquire(1)
            elem_in = of_in.acquire(1)
            passThroughLine(elem_in, elem_out, line_size)
            of_in.release(1)
            of_out.release(1)

    my_worker = Worker(core_fn, [of_in.cons(), of_out.prod(), passthrough_fn])

    tap = TensorTiler2D.simple_tiler((1, size))[0]
    rt = Runtime()
    with rt.sequence(vector_ty, vector_ty, vector_ty) as (a_in, b_out, _):
        rt.start(my_worker)
        rt.fill(of_in.prod(), a_in, tap)
        rt.drain(of_out.cons(), b_out, tap, wait=True)

    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("device", choices=["npu", "npu2"])
p.add_argument("size", type=int)
opts = p.parse_args(sys.argv[1:])
dev = NPU1Col1() if opts.device == "npu" else NPU2Col1()
print(my_passthrough(dev, opts.size, 256))
