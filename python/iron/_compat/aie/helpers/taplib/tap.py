# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.helpers.taplib.tap: TensorAccessPattern (iron.taplib)."""
from aie._forward import forward

forward(globals(), "iron.taplib.tap")
