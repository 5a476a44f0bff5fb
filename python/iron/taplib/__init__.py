# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Upstream IRON's aie.helpers.taplib over the library's access patterns:
TensorAccessPattern, TensorAccessSequence and TensorTiler2D.  Patterns are
checked, counted, numbered and pictured by the library, and the tiler is
the library's, so what these classes show is what a runtime fill or drain
does."""
from .tap import TensorAccessPattern
from .tas import TensorAccessSequence
from .tensortiler2d import TensorTiler2D

__all__ = ["TensorAccessPattern", "TensorAccessSequence", "TensorTiler2D"]
