# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.helpers.dialects.scf: range_ (also as _for), if_, else_ (iron.controlflow)."""
from aie._forward import forward

forward(globals(), "iron.controlflow", {"_for": "iron.controlflow:range_"})
