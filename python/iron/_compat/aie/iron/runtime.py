# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.runtime: Runtime (iron.runtime)."""
from aie._forward import forward

forward(globals(), "iron.runtime")
