# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# sliding_window -- classic era (2025), prints its module.
#
# Constructs: acquire(n > 1) sliding windows as upstream's filter2d core
# writes them: acquire(2) for the top border, then in a `range_` loop
# acquire(3) (cumulative: one new line) and release(1), then acquire(2)
# for the bottom border and release(2); indexing the list of objects an
# acquire(n) returns; an input FIFO of depth 4 for the window; a kernel of
# four objects and an int (ExternalFunction, sum3.c).
#
# out line r = in[r-1] + in[r] + in[r+1], border lines replicated.
#
# usage: sliding_window.py [-d npu|npu2] [--width W] [--height H]
import argparse
import os

import numpy as np

from aie.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import NPU1Col1, NPU2
from aie.iron.placers import SequentialPlacer

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")


def sliding(dev, width, height):
    tensor_ty = np.ndarray[(height, width), np.dtype[np.int32]]
    line_ty = np.ndarray[(width,), np.dtype[np.int32]]
    of_in = ObjectFifo(line_ty, name="lines_in", depth=4)
    of_out = ObjectFifo(line_ty, name="lines_out", depth=2)
    sum3 = ExternalFunction("sum3_line", source_file=os.path.join(KERNELS, "sum3.c"),
                            arg_types=[line_ty, line_ty, line_ty, line_ty, np.int32])

    def core_fn(of_in, of_out, sum3):
        # top border: line 0 twice
        lines = of_in.acquire(2)
        out = of_out.acquire(1)
        sum3(lines[0], lines[0], lines[1], out, width)
        of_out.release(1)
        for _ in range_(1, height - 1):
            lines = of_in.acquire(3)
            out = of_out.acquire(1)
            sum3(lines[0], lines[1], lines[2], out, width)
            of_in.release(1)
            of_out.release(1)
        # bottom border: the last line twice
        lines = of_in.acquire(2)
        out = of_out.acquire(1)
        sum3(lines[0], lines[1], lines[1], out, width)
        of_in.release(2)
        of_out.release(1)

    w = Worker(core_fn, [of_in.cons(), of_out.prod(), sum3])
    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (a, b):
        rt.start(w)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), b, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("--width", type=int, default=32)
p.add_argument("--height", type=int, default=8)
opts = p.parse_args()
print(sliding(NPU1Col1() if opts.dev == "npu" else NPU2(), opts.width, opts.height))
