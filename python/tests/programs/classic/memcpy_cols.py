# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# memcpy_cols -- classic era (2025), prints its module.
#
# Constructs: Workers pinned with `placement=Tile(col, row)` across several
# columns; one task group holding every fill (given `task_group=tg`, each
# a TensorAccessPattern over its chunk) and then every drain (wait=True),
# closed by rt.finish_task_group; ExternalFunction with a source_file path
# built from __file__; a Python for over columns and rows unrolled at
# build time.
#
# Mirrors the C design `memcpy_cols` (launched on `cols` columns, line=L).
#
# usage: memcpy_cols.py [-d npu|npu2] [-n N] [--cols C] [--line L]
import argparse
import os

import numpy as np

from aie.helpers.taplib import TensorAccessPattern
from aie.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker
from aie.iron.device import NPU1, NPU2, Tile
from aie.iron.placers import SequentialPlacer

PER_COL = 2
HERE = os.path.dirname(os.path.abspath(__file__))


def memcpy_cols(dev, n, cols, line):
    workers_n = cols * PER_COL
    chunk = n // workers_n
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    line_ty = np.ndarray[(line,), np.dtype[np.int32]]

    copy_line = ExternalFunction(
        "copy_line",
        source_file=os.path.join(HERE, "..", "..", "kernels", "copy_line.c"),
        arg_types=[line_ty, line_ty, np.int32])

    def core_fn(of_in, of_out, copy):
        elem_in = of_in.acquire(1)
        elem_out = of_out.acquire(1)
        copy(elem_in, elem_out, line)
        of_in.release(1)
        of_out.release(1)

    fills, drains, workers = [], [], []
    for i in range(cols):
        for j in range(PER_COL):
            of_in = ObjectFifo(line_ty, name=f"in{i}_{j}")
            of_out = ObjectFifo(line_ty, name=f"out{i}_{j}")
            workers.append(Worker(core_fn, [of_in.cons(), of_out.prod(), copy_line],
                                  placement=Tile(i, 2 + j)))
            fills.append(of_in.prod())
            drains.append(of_out.cons())

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (inp, out):
        rt.start(*workers)
        tg = rt.task_group()
        for w in range(workers_n):
            tap = TensorAccessPattern((n,), chunk * w, [chunk], [1])
            rt.fill(fills[w], inp, tap, task_group=tg)
        for w in range(workers_n):
            tap = TensorAccessPattern((n,), chunk * w, [chunk], [1])
            rt.drain(drains[w], out, tap, wait=True, task_group=tg)
        rt.finish_task_group(tg)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=512)
p.add_argument("--cols", type=int, default=2)
p.add_argument("--line", type=int, default=64)
opts = p.parse_args()
print(memcpy_cols(NPU1() if opts.dev == "npu" else NPU2(), opts.n, opts.cols, opts.line))
