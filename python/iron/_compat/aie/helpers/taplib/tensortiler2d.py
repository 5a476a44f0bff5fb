# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.helpers.taplib.tensortiler2d: TensorTiler2D (iron.taplib)."""
from aie._forward import forward

forward(globals(), "iron.taplib.tensortiler2d")
