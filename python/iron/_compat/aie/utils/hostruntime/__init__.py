# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.hostruntime: set_current_device and get_current_device
(iron.device); the argparse and cli helpers are its submodules."""
from aie._forward import forward

forward(globals(), "iron.device")
