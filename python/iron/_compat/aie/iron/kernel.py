# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.kernel: Kernel, ExternalFunction (iron.kernel)."""
from aie._forward import forward

forward(globals(), "iron.kernel")
