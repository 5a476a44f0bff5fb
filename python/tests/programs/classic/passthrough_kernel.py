# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# passthrough_kernel -- classic era (2025), prints its module.
#
# Constructs: Kernel("copy_bytes", "passthrough.cc.o", arg_types) found
# under the kernels folder (its C port passthrough.c); ObjectFifo with
# names and the default depth; a Worker calling the kernel with a Python
# int argument; `with rt.sequence(*types) as (a, b)`, rt.start / rt.fill /
# rt.drain(wait=True); SequentialPlacer() and resolve_program(placer); the
# device from sys.argv as upstream's Makefiles pass it ("npu" / "npu2").
#
# Mirrors the C design `passthrough` (uint8[N] copied through one worker
# in N/4-element objects).
#
# usage: passthrough_kernel.py npu|npu2 [N]
import sys

import numpy as np

from aie.iron import Kernel, ObjectFifo, Program, Runtime, Worker
from aie.iron.device import NPU1Col1, NPU2
from aie.iron.placers import SequentialPlacer


def my_passthrough(dev, n):
    line = n // 4
    vector_ty = np.ndarray[(n,), np.dtype[np.uint8]]
    line_ty = np.ndarray[(line,), np.dtype[np.uint8]]

    of_in = ObjectFifo(line_ty, name="in")
    of_out = ObjectFifo(line_ty, name="out")

    copy_bytes = Kernel("copy_bytes", "passthrough.cc.o", [line_ty, line_ty, np.int32])

    def core_fn(of_in, of_out, copy):
        elem_out = of_out.acquire(1)
        elem_in = of_in.acquire(1)
        copy(elem_in, elem_out, line)
        of_in.release(1)
        of_out.release(1)

    worker = Worker(core_fn, [of_in.cons(), of_out.prod(), copy_bytes])

    rt = Runtime()
    with rt.sequence(vector_ty, vector_ty) as (a_in, b_out):
        rt.start(worker)
        rt.fill(of_in.prod(), a_in)
        rt.drain(of_out.cons(), b_out, wait=True)

    return Program(dev, rt).resolve_program(SequentialPlacer())


if len(sys.argv) < 2:
    sys.exit("usage: passthrough_kernel.py npu|npu2 [N]")
if sys.argv[1] == "npu":
    dev = NPU1Col1()
elif sys.argv[1] == "npu2":
    dev = NPU2()
else:
    raise ValueError(f"[ERROR] Device name {sys.argv[1]} is unknown")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
print(my_passthrough(dev, n))
