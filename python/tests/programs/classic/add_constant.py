# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# add_constant -- classic era (2025), prints its module.
#
# Constructs: metaprogramming -- a Python int passed through Worker's
# fn_args becomes a constant of the traced body; `range_` loops nested in
# the Worker's endless loop; element loads and stores with traced `+`
# (i32 wrap-around); the device object passed in from argparse.
#
# Mirrors the C design `add_constant` (n=N, c=C; objects of 16).
#
# usage: add_constant.py [-d npu|npu2] [-n N] [-c C]
import argparse

import numpy as np

from aie.iron import ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import NPU1Col1, NPU2
from aie.iron.placers import SequentialPlacer

OBJ = 16


def add_constant(dev, n, c):
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    obj_ty = np.ndarray[(OBJ,), np.dtype[np.int32]]
    of_in = ObjectFifo(obj_ty, name="in")
    of_out = ObjectFifo(obj_ty, name="out")

    def core_fn(of_in, of_out, constant):
        for _ in range_(n // OBJ):
            elem_in = of_in.acquire(1)
            elem_out = of_out.acquire(1)
            for i in range_(OBJ):
                elem_out[i] = elem_in[i] + constant
            of_in.release(1)
            of_out.release(1)

    worker = Worker(core_fn, [of_in.cons(), of_out.prod(), c])
    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (inp, out):
        rt.start(worker)
        rt.fill(of_in.prod(), inp)
        rt.drain(of_out.cons(), out, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


p = argparse.ArgumentParser()
p.add_argument("-d", "--dev", default="npu2", choices=["npu", "npu2"])
p.add_argument("-n", type=int, default=256)
p.add_argument("-c", type=int, default=7)
opts = p.parse_args()
print(add_constant(NPU1Col1() if opts.dev == "npu" else NPU2(), opts.n, opts.c))
