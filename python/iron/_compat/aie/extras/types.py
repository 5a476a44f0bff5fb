# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.extras.types: T (iron.types)."""
from aie._forward import forward

forward(globals(), "iron.types")
