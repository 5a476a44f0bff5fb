# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A classic design whose core function uses the dialect helpers older
# upstream programs import from aie.helpers / aie.extras: _for from the
# scf helpers, arith.index_cast to a type from np_dtype_to_mlir_type,
# if_ / else_, and the module built inside mlir_mod_ctx.
#   out[i] = min(in[i] + (i % 16), 100), in tiles of 16 int32
import sys

import numpy as np

from aie.extras.context import mlir_mod_ctx
from aie.extras.dialects.ext import arith
from aie.extras import types as T
from aie.helpers.dialects.ext.scf import _for as range_, if_, else_
from aie.helpers.util import np_dtype_to_mlir_type, np_ndarray_type_get_shape
from aie.iron import ObjectFifo, Program, Runtime, Worker
from aie.iron.device import NPU1Col1
from aie.iron.placers import SequentialPlacer


def design(size):
    tensor_ty = np.ndarray[(size,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(16,), np.dtype[np.int32]]
    (n,) = np_ndarray_type_get_shape(tile_ty)
    assert T.i32() == np_dtype_to_mlir_type(np.int32)

    of_in = ObjectFifo(tile_ty, name="in")
    of_out = ObjectFifo(tile_ty, name="out")

    def core_fn(of_in, of_out):
        for _ in range_(size // n):
            x = of_in.acquire(1)
            y = of_out.acquire(1)
            for i in range_(n):
                v = x[i] + arith.index_cast(i, to=np_dtype_to_mlir_type(np.int32))
                with if_(v > 100) as op:
                    y[i] = 100
                with else_(op):
                    y[i] = v
            of_in.release(1)
            of_out.release(1)

    worker = Worker(core_fn, [of_in.cons(), of_out.prod()])
    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (a, c):
        rt.start(worker)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), c, wait=True)
    Program(NPU1Col1(), rt).resolve_program(SequentialPlacer())


with mlir_mod_ctx() as ctx:
    design(int(sys.argv[1]) if len(sys.argv) > 1 else 256)
    print(ctx.module)
