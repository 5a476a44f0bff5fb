# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils: the tensor factories (tensor, zeros, ones, full, arange,
rand, randint, zeros_like; iron._tensor) and ceildiv."""
from aie._forward import forward
from iron import ceildiv  # noqa: F401


forward(globals(), "iron._tensor")


class TraceConfig:
    """Upstream's hardware trace settings, accepted as a compile-time value;
    the emulator answers trace requests with its own trace (docs/python.md)."""

    DEFAULT_TRACE_FILE = "trace.txt"

    def __init__(self, trace_size, trace_file=DEFAULT_TRACE_FILE, **kwargs):
        if trace_size <= 0:
            raise ValueError(f"Invalid trace size: {trace_size}")
        self.trace_size = trace_size
        self.trace_file = trace_file
        self.options = kwargs

    def __repr__(self):
        return f"TraceConfig(trace_size={self.trace_size})"


class _Unavailable:
    """Upstream's XRT-side runtime objects: the emulator runs designs
    through iron.jit, so constructing or calling these is refused."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        from iron._trace import user_frame
        raise NotImplementedError(
            f"aie.utils.{self._name}: running prebuilt xclbin / instruction "
            f"files needs an NPU; call the @iron.jit design instead "
            f"(at {user_frame()})")

    def __getattr__(self, attr):
        return self.__call__()


NPUKernel = _Unavailable("NPUKernel")
HostRuntime = _Unavailable("HostRuntime")
DefaultNPURuntime = None


def cleanup_npu_runtime():
    """Nothing to clean up on the emulator."""
