# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A module of upstream's hardware trace helpers (see aie.utils.trace)."""
from aie._unmodelled import unmodelled

unmodelled(globals(), "parsing hardware trace buffers (the emulator writes a "
           "Perfetto trace instead: IRON_TRACE=FILE.json)")
