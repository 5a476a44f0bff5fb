# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.extras.dialects.arith: trunci, index_cast, constant, ... (iron.arith)."""
from aie._forward import forward

forward(globals(), "iron.arith")
