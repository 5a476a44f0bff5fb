# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.dataflow: ObjectFifo and its handles (iron.dataflow)."""
from aie._forward import forward

forward(globals(), "iron.dataflow")
