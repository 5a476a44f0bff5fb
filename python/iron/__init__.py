# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iron: IRON designs for AMD NPUs, run on the emulated NPU.

The names here are upstream's `aie.iron` (both its 2025 classic API and
its newest), plus the jit.  The C library does the work: this package
records programs and hands them to it (docs/python.md).
"""
from . import _iron
from ._iron import *  # noqa: F401,F403  -- the exception classes
from ._iron import Error
from .buffer import Buffer, GlobalBuffer, LocalBuffer
from .dataflow import ObjectFifo, ObjectFifoHandle, StreamDims
from . import device   # the module of devices, callable as a device scope
from .device import (AnyComputeTile, AnyMemTile, AnyShimTile, Device, NPU1, NPU1Col1,
                     NPU1Col2, NPU1Col3, NPU2, NPU2Col1, NPU2Col2, NPU2Col3, NPU2Col4,
                     NPU2Col5, NPU2Col6, NPU2Col7, Tile, ensure_current_device,
                     get_current_device, set_current_device)
from .jit import CompileTime, DispatchTime, In, InOut, LaunchConfig, Out, jit
from .kernel import ExternalFunction, Kernel
from .placers import SequentialPlacer
from .program import Program
from .runtime import Runtime, TaskGroup
from .worker import Worker, WorkerRuntimeBarrier
from . import algorithms, controlflow, kernels
from ._unmodelled import (Acquire, Bd, CascadeFlow, DmaChannel, Flow, Lock, PacketFlow,
                          Release, TileDma)


def ceildiv(a: int, b: int) -> int:
    """a / b rounded up, for ints (upstream's iron.ceildiv)."""
    return -(a // -b)

try:   # the tensor layer (iron.tensor)
    from ._tensor import (Tensor, arange, from_dlpack, full, ones, rand, randint,
                         tensor, zeros, zeros_like)
    from ._dtype import bfloat16, str_to_dtype
except ImportError:  # pragma: no cover - while the package is assembled
    pass

__version__ = _iron.version()
