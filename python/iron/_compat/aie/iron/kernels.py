# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.kernels: the kernel library (iron.kernels, when iron has it)."""
from aie._forward import forward

forward(globals(), "iron.kernels")
