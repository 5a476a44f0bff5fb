# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.device: devices and tiles (iron.device)."""
from aie._forward import forward

forward(globals(), "iron.device")
