# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# color_threshold -- classic era (2025), prints its module.
#
# Constructs: GlobalBuffer(type, name=, use_write_rtp=True) per worker,
# written by the runtime sequence through rt.inline_ops(fn, [rtps]) with
# `rtp[i] = v`, and read in the core function (`my_rtp[0]`);
# WorkerRuntimeBarrier() set by rt.set_barrier(b, 1) and waited on with
# b.wait_for_value(1); arith.trunci(T.i16(), v) / trunci(T.i8(), v) (the
# classic `aie.extras.dialects.ext` path); a kernel taking int16 / int8
# scalars; a 4-way split and join with names; int8 host tensors carried
# by uint8 FIFOs.
#
# Mirrors the C design `color_threshold` (width=64, height=16).
#
# usage: color_threshold.py [-d npu|npu2] [--width W] [--height H]
import argparse

import numpy as np

from aie.extras import types as T
from aie.extras.dialects.ext.arith import trunci
from aie.iron import (GlobalBuffer, Kernel, ObjectFifo, Program, Runtime, Worker,
                      WorkerRuntimeBarrier)
from aie.iron.device import NPU1Col1, NPU2
from aie.iron.placers import SequentialPlacer

CHANNELS = 4


def color_threshold(dev, width, height):
    line_w = width
    line_wc = width * CHANNELS
    tensor_size = width * height
    tensor_ty = np.ndarray[(tensor_size,), np.dtype[np.int8]]
    unused_ty = np.ndarray[(32,), np.dtype[np.int32]]
    line_ty = np.ndarray[(line_w,), np.dtype[np.uint8]]
    line_c_ty = np.ndarray[(line_wc,), np.dtype[np.uint8]]

    threshold_line = Kernel("thresholdLine", "threshold.cc.o",
                            [line_ty, line_ty, np.int32, np.int16, np.int16, np.int8])

    in_l3l2 = ObjectFifo(line_c_ty, name="inOOB_L3L2")
    offsets = [line_w * i for i in range(CHANNELS)]
    in_l2l1 = in_l3l2.cons().split(offsets, obj_types=[line_ty] * CHANNELS,
                                   names=[f"inOOB_L2L1_{i}" for i in range(CHANNELS)])
    out_l2l3 = ObjectFifo(line_c_ty, name="outOOB_L2L3")
    out_l1l2 = out_l2l3.prod().join(offsets, obj_types=[line_ty] * CHANNELS,
                                    names=[f"outOOB_L1L2_{i}" for i in range(CHANNELS)])

    rtps = [GlobalBuffer(np.ndarray[(16,), np.dtype[np.int32]], name=f"rtp{i}",
                         use_write_rtp=True) for i in range(CHANNELS)]
    barriers = [WorkerRuntimeBarrier() for _ in range(CHANNELS)]

    def core_fn(of_in, of_out, my_rtp, threshold_fn, barrier):
        barrier.wait_for_value(1)
        threshold_value = trunci(T.i16(), my_rtp[0])
        max_value = trunci(T.i16(), my_rtp[1])
        threshold_type = trunci(T.i8(), my_rtp[2])
        elem_in = of_in.acquire(1)
        elem_out = of_out.acquire(1)
        threshold_fn(elem_in, elem_out, line_w, threshold_value, max_value, threshold_type)
        of_in.release(1)
        of_out.release(1)

    workers = [Worker(core_fn, [in_l2l1[i].cons(), out_l1l2[i].prod(), rtps[i],
                                threshold_line, barriers[i]])
               for i in range(CHANNELS)]

    def set_rtps(*args):
        for rtp in args:
            rtp[0] = 50
            rtp[1] = 255
            rtp[2] = 0

    rt = Runtime()
    with rt.sequence(tensor_ty, unused_ty, tensor_ty) as (inp, _, out):
        rt.inline_ops(set_rtps, rtps)
        for b in barriers:
            rt.set_barrier(b, 1)
        rt.start(*workers)
        rt.fill(in_l3l2.prod(), inp)
        rt.drain(out_l2l3.cons(), out, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("--width", type=int, default=64)
p.add_argument("--height", type=int, default=16)
opts = p.parse_args()
print(color_threshold(NPU1Col1() if opts.dev == "npu" else NPU2(), opts.width, opts.height))
