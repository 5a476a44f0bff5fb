# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.controlflow: range_, if_, else_ (iron.controlflow)."""
from aie._forward import forward

forward(globals(), "iron.controlflow")
