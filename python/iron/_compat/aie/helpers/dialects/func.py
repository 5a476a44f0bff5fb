# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.helpers.dialects.func: a kernel written in Python (@func) -- not modelled by iron (see aie._unmodelled)."""
from aie._unmodelled import unmodelled

unmodelled(globals(), "a kernel written in Python (@func)")
