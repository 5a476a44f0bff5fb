# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# dma_transpose -- classic era (2025), prints its module.
#
# Constructs: TensorTiler2D.simple_tiler((M, K), tile_col_major=True)[0] as
# a fill's tap (the shim reads the matrix column by column); a 2-D object
# type; `.forward(AnyComputeTile)` through a compute tile no worker uses;
# sizes from sys.argv.
#
# Mirrors the C design `dma_transpose` (C[j * M + i] = A[i * K + j]).
#
# usage: dma_transpose.py npu|npu2 [M K]
import sys

import numpy as np

from aie.helpers.taplib import TensorTiler2D
from aie.iron import ObjectFifo, Program, Runtime
from aie.iron.device import AnyComputeTile, NPU1Col1, NPU2Col1
from aie.iron.placers import SequentialPlacer


def my_dma_transpose(dev, M, K):
    matrix_ty = np.ndarray[(M, K), np.dtype[np.int32]]
    tap_in = TensorTiler2D.simple_tiler((M, K), tile_col_major=True)[0]

    of_in = ObjectFifo(matrix_ty, name="in")
    of_out = of_in.cons().forward(AnyComputeTile)

    rt = Runtime()
    with rt.sequence(matrix_ty, matrix_ty, matrix_ty) as (a_in, _, c_out):
        rt.fill(of_in.prod(), a_in, tap_in)
        rt.drain(of_out.cons(), c_out, wait=True)
    return Program(dev, rt).resolve_program(SequentialPlacer())


dev = NPU1Col1() if len(sys.argv) > 1 and sys.argv[1] == "npu" else NPU2Col1()
M = int(sys.argv[2]) if len(sys.argv) > 2 else 16
K = int(sys.argv[3]) if len(sys.argv) > 3 else 8
print(my_dma_transpose(dev, M, K))
