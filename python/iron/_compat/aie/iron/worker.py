# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.iron.worker: Worker, WorkerRuntimeBarrier (iron.worker)."""
from aie._forward import forward

forward(globals(), "iron.worker")
