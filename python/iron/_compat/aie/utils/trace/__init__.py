# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.trace: upstream's hardware trace helpers.  TraceConfig is
accepted (a design that asks for a trace gets the emulator's, see
docs/python.md); the helpers that parse hardware trace buffers refuse,
naming themselves."""
from aie._unmodelled import unmodelled
from aie.utils import TraceConfig  # noqa: F401

unmodelled(globals(), "parsing hardware trace buffers (the emulator writes a "
           "Perfetto trace instead: IRON_TRACE=FILE.json)")
