# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.globalbuffer: GlobalBuffer (iron.buffer)."""
from aie._forward import forward

forward(globals(), "iron.buffer")
