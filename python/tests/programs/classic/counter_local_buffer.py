# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# counter_local_buffer -- classic era (2025), prints its module.
#
# Constructs: LocalBuffer(type, initial_value=np.array(...), name=) made
# inside the core function (it belongs to the worker being traced); a
# running counter kept in it across objects with `counter[0] += 1`
# (element load, traced add, element store); out[i] = in[i] + counter;
# `range_(start, stop)` with a non-zero start; `placement=Tile(0, 2)`.
#
# usage: counter_local_buffer.py [-d npu|npu2] [-n N] [--start S]
import argparse

import numpy as np

from aie.iron import LocalBuffer, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import NPU1Col1, NPU2, Tile
from aie.iron.placers import SequentialPlacer

TILE = 16


def counter_design(dev, n, start):
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_in = ObjectFifo(tile_ty, name="in")
    of_out = ObjectFifo(tile_ty, name="out")

    def core_fn(of_in, of_out):
        counter = LocalBuffer(np.ndarray[(1,), np.dtype[np.int32]],
                              initial_value=np.array([start], dtype=np.int32),
                              name="counter")
        for _ in range_(1, n // TILE + 1):
            ei = of_in.acquire(1)
            eo = of_out.acquire(1)
            for i in range_(TILE):
                eo[i] = ei[i] + counter[0]
                counter[0] += 1
            of_in.release(1)
            of_out.release(1)

    w = Worker(core_fn, [of_in.cons(), of_out.prod()], placement=Tile(0, 2))
    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (a, b):
        rt.start(w)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), b, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=128)
p.add_argument("--start", type=int, default=100)
opts = p.parse_args()
print(counter_design(NPU1Col1() if opts.dev == "npu" else NPU2(), opts.n, opts.start))
