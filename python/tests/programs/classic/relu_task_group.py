# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# relu_task_group -- classic era (2025), prints its module.
#
# Constructs: cols x chans Workers with their own FIFOs, built in nested
# Python loops; TensorAccessPattern(tensor_dims, offset, sizes, strides)
# taps for each worker's chunk; rt.task_group() with every fill and drain
# given `task_group=tg` and rt.finish_task_group(tg); bfloat16 data;
# Kernel("bf16_relu", "relu.o", ...); a whole-device NPU1 / NPU2.
#
# Mirrors the C design `upstream_relu` (ml/relu) with cols=2, chans=2.
#
# usage: relu_task_group.py [-d npu|npu2] [-n N] [--cols C] [--chans H]
import argparse

import numpy as np
from ml_dtypes import bfloat16

from aie.helpers.taplib import TensorAccessPattern
from aie.iron import Kernel, ObjectFifo, Program, Runtime, Worker
from aie.iron.device import NPU1, NPU2
from aie.iron.placers import SequentialPlacer

LINE = 1024


def my_relu(dev, size, cols, chans):
    chunk = size // cols // chans
    tensor_ty = np.ndarray[(size,), np.dtype[bfloat16]]
    line_ty = np.ndarray[(LINE,), np.dtype[bfloat16]]

    relu = Kernel("bf16_relu", "relu.o", [line_ty, line_ty])

    def core_fn(of_in, of_out, relu_line):
        elem_out = of_out.acquire(1)
        elem_in = of_in.acquire(1)
        relu_line(elem_in, elem_out)
        of_in.release(1)
        of_out.release(1)

    of_ins, of_outs, workers, taps = [], [], [], []
    for i in range(cols):
        for j in range(chans):
            of_ins.append(ObjectFifo(line_ty, name=f"in{i}_{j}"))
            of_outs.append(ObjectFifo(line_ty, name=f"out{i}_{j}"))
            workers.append(Worker(core_fn, [of_ins[-1].cons(), of_outs[-1].prod(), relu]))
            taps.append(TensorAccessPattern((1, size), chunk * (i * chans + j),
                                            [1, 1, 1, chunk], [0, 0, 0, 1]))

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (a_in, b_out):
        rt.start(*workers)
        tg = rt.task_group()
        for w in range(cols * chans):
            rt.fill(of_ins[w].prod(), a_in, taps[w], task_group=tg)
        for w in range(cols * chans):
            rt.drain(of_outs[w].cons(), b_out, taps[w], wait=True, task_group=tg)
        rt.finish_task_group(tg)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=4096)
p.add_argument("--cols", type=int, default=2)
p.add_argument("--chans", type=int, default=2)
opts = p.parse_args()
print(my_relu(NPU1() if opts.dev == "npu" else NPU2(), opts.n, opts.cols, opts.chans))
