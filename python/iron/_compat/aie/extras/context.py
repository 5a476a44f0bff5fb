# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.extras.context: mlir_mod_ctx.

Upstream's mlir_mod_ctx opens an MLIR context and module that the code
inside builds into.  Here it records the design that Program.resolve_program
resolves inside it: `ctx.module` is that design, which prints as the
program's resolve_program result prints.  Designs written with upstream's
low-level (placed) API, which builds ops straight into the module, are not
supported."""
import contextlib

_open = []        # the contexts open, innermost last


class _Context:
    """What mlir_mod_ctx yields: .module is the last design resolved
    inside it."""

    def __init__(self):
        self._module = None

    @property
    def module(self):
        if self._module is None:
            raise NotImplementedError(
                "aie.extras.context.mlir_mod_ctx: no design was resolved "
                "inside this context; iron builds IRON designs "
                "(Program(...).resolve_program()), not upstream's low-level "
                "placed API (@device, aie.dialects.aie ops)")
        return self._module


@contextlib.contextmanager
def mlir_mod_ctx():
    """Yields an object whose .module is the design resolved inside."""
    ctx = _Context()
    _open.append(ctx)
    try:
        yield ctx
    finally:
        _open.remove(ctx)


_program = None


def _program_class():
    # iron's Program, with resolve_program also recording its result in
    # the innermost open mlir_mod_ctx; made at first use so that this
    # module imports before iron.program exists.
    global _program
    if _program is None:
        from iron import Program as base

        class Program(base):
            def resolve_program(self, *args, **kwargs):
                module = super().resolve_program(*args, **kwargs)
                if _open:
                    _open[-1]._module = module
                return module

        Program.__name__ = base.__name__
        Program.__qualname__ = base.__qualname__
        Program.__doc__ = base.__doc__
        Program.__module__ = "aie.iron"
        _program = Program
    return _program


def __getattr__(name):
    if name == "Program":
        return _program_class()
    raise AttributeError(f"module 'aie.extras.context' has no attribute {name!r}")
