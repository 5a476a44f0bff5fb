# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.helpers.taplib.tas: TensorAccessSequence (iron.taplib)."""
from aie._forward import forward

forward(globals(), "iron.taplib.tas")
