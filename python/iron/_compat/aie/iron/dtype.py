# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.dtype: str_to_dtype (iron._dtype)."""
from aie._forward import forward

forward(globals(), "iron._dtype")
