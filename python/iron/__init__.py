# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iron: IRON designs for AMD NPUs, run on an emulated NPU (see docs/python.md)."""
from . import _iron
from ._iron import Error

__version__ = _iron.version()
