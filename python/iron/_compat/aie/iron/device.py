# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.device: devices and tiles -- iron.device itself, so that the
name stays callable (`with iron.device("npu2"):`) after a program imports
the submodule (`from aie.iron.device import Tile` sets the package's
attribute to whatever module this name is)."""
import sys

import iron.device as _device

sys.modules[__name__] = _device
