# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# split_join -- classic era (2025), prints its module.
#
# Constructs: `.split(offsets, obj_types=, names=, placement=Tile(0, 1))`
# on a consumer handle and `.join(...)` on a producer handle, both on a
# pinned memtile with explicit names; three Workers pinned with
# `placement=Tile(0, row)`; a Python `for` over the parts unrolled at
# build time (one Worker each); ExternalFunction(source_file="add_one.c")
# found by name in the kernels folder; rt.start(*workers).
#
# Mirrors the C design `split_join` (out = in + 1 through a 3-way split
# and join of 24-element objects).
#
# usage: split_join.py [-d npu|npu2] [-n N]
import argparse

import numpy as np

from aie.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker
from aie.iron.device import NPU1Col1, NPU2Col1, Tile
from aie.iron.placers import SequentialPlacer

OBJ, PARTS = 24, 3


def split_join(dev, n):
    part = OBJ // PARTS
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    obj_ty = np.ndarray[(OBJ,), np.dtype[np.int32]]
    part_ty = np.ndarray[(part,), np.dtype[np.int32]]
    offsets = [part * i for i in range(PARTS)]

    of_in = ObjectFifo(obj_ty, name="in")
    of_out = ObjectFifo(obj_ty, name="out")
    parts_in = of_in.cons().split(offsets, obj_types=[part_ty] * PARTS,
                                  names=[f"in{i}" for i in range(PARTS)],
                                  placement=Tile(0, 1))
    parts_out = of_out.prod().join(offsets, obj_types=[part_ty] * PARTS,
                                   names=[f"out{i}" for i in range(PARTS)],
                                   placement=Tile(0, 1))

    add_one = ExternalFunction("add_one", source_file="add_one.c",
                               arg_types=[part_ty, part_ty, np.int32])

    def core_fn(of_in, of_out, add):
        elem_in = of_in.acquire(1)
        elem_out = of_out.acquire(1)
        add(elem_in, elem_out, part)
        of_in.release(1)
        of_out.release(1)

    workers = []
    for i in range(PARTS):
        workers.append(Worker(core_fn, [parts_in[i].cons(), parts_out[i].prod(), add_one],
                              placement=Tile(0, 2 + i)))

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (inp, out):
        rt.start(*workers)
        rt.fill(of_in.prod(), inp)
        rt.drain(of_out.cons(), out, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=96)
opts = p.parse_args()
print(split_join(NPU1Col1() if opts.dev == "npu" else NPU2Col1(), opts.n))
