# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron: the iron package's public namespace (upstream's newest aie.iron plus the jit)."""
from aie._forward import forward

forward(globals(), "iron", {"Program": "aie.extras.context:Program"})
