# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.placers: SequentialPlacer (iron.placers)."""
from aie._forward import forward

forward(globals(), "iron.placers")
