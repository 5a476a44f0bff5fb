# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Modules of upstream's low-level API that iron does not model (the MLIR
dialects themselves, Python-written kernels): they import, so that a
program's imports succeed, and any name used from them is a
NotImplementedError naming it and the program's line."""


def unmodelled(module_globals, what):
    name = module_globals["__name__"]

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        from iron._trace import user_frame
        raise NotImplementedError(
            f"{name}.{attr}: {what} is not modelled by iron; write the design "
            f"with aie.iron's ObjectFifo, Worker and Runtime (at {user_frame()})")

    module_globals["__getattr__"] = __getattr__
