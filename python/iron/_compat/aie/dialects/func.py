# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.dialects.func: the func dialect API -- not modelled by iron (see aie._unmodelled)."""
from aie._unmodelled import unmodelled

unmodelled(globals(), "the func dialect API")
