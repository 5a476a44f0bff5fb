# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# vector_scalar_mul_jit -- classic era (2025), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: `@iron.jit(is_placed=False)` with positional tensors of two
# dtypes (int16 data, an int32[1] factor); Kernel("vector_scalar_mul_int16",
# "scale.o", ...) found under the kernels folder (scale.c); an ObjectFifo of
# depth 1 whose object is held across a `range_` loop of other FIFOs'
# objects (acquire before the loop, release after); iron.tensor from a
# numpy array; iron.set_current_device from the command line.
#
# Mirrors the C design `vector_scalar` (objects of N/4, factor held per call).
#
# usage: vector_scalar_mul_jit.py [--device npu1|npu2] [--n N] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.iron import Kernel, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.placers import SequentialPlacer


@iron.jit(is_placed=False)
def vector_scalar_mul(input0, factor, output):
    n = input0.numel()
    objs = 4
    obj = n // objs
    tensor_ty = np.ndarray[(n,), np.dtype[np.int16]]
    obj_ty = np.ndarray[(obj,), np.dtype[np.int16]]
    scalar_ty = np.ndarray[(1,), np.dtype[np.int32]]

    of_in = ObjectFifo(obj_ty, name="in")
    of_factor = ObjectFifo(scalar_ty, name="factor", depth=1)
    of_out = ObjectFifo(obj_ty, name="out")

    scale = Kernel("vector_scalar_mul_int16", "scale.o",
                   [obj_ty, obj_ty, scalar_ty, np.int32])

    def core_body(of_in, of_factor, of_out, scale_fn):
        elem_factor = of_factor.acquire(1)
        for _ in range_(objs):
            elem_in = of_in.acquire(1)
            elem_out = of_out.acquire(1)
            scale_fn(elem_in, elem_out, elem_factor, obj)
            of_in.release(1)
            of_out.release(1)
        of_factor.release(1)

    worker = Worker(core_body, [of_in.cons(), of_factor.cons(), of_out.prod(), scale])

    rt = Runtime()
    with rt.sequence(tensor_ty, scalar_ty, tensor_ty) as (a, f, c):
        rt.start(worker)
        rt.fill(of_factor.prod(), f)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), c, wait=True)
    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default=None)
    p.add_argument("--n", type=int, default=512)
    p.add_argument("--save")
    args = p.parse_args()
    if args.device:
        iron.set_current_device(args.device)

    rng = np.random.default_rng(5)
    data = rng.integers(-3000, 3000, size=args.n, dtype=np.int16)
    a = iron.tensor(data, dtype=np.int16)
    f = iron.tensor(np.array([13], dtype=np.int32), dtype=np.int32)
    c = iron.zeros(args.n, dtype=np.int16)
    vector_scalar_mul(a, f, c)

    expected = (data.astype(np.int32) * 13).astype(np.int16)
    if args.save:
        for name, t in (("input", a), ("factor", f), ("output", c)):
            np.save(os.path.join(args.save, name + ".npy"), t.numpy())
    if not np.array_equal(c.numpy(), expected):
        print("FAIL\ngot     ", c.numpy()[:16], "\nexpected", expected[:16])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
