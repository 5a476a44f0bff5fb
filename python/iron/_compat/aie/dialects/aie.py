# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.dialects.aie: upstream's low-level MLIR-AIE dialect API (tiles, flows, locks, buffer descriptors) -- not modelled by iron (see aie._unmodelled)."""
from aie._unmodelled import unmodelled

unmodelled(globals(), "upstream's low-level MLIR-AIE dialect API (tiles, flows, locks, buffer descriptors)")
