# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.algorithms: transform, for_each, ... (iron.algorithms, when iron has it)."""
from aie._forward import forward

forward(globals(), "iron.algorithms")
