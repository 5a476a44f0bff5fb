# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.program: Program (iron.program; resolve_program is recorded for aie.extras.context)."""
from aie._forward import forward

forward(globals(), "iron.program", {"Program": "aie.extras.context:Program"})
