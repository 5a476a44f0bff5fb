# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.extras.dialects.memref: the memref dialect API -- not modelled by iron (see aie._unmodelled)."""
from aie._unmodelled import unmodelled

unmodelled(globals(), "the memref dialect API")
