# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Workers: a core function on a compute tile, and the barriers the
runtime sequence sets for them.

`Worker(core_fn, fn_args, ...)` records what to run; the function is
traced when the program is built (program.Emitter), with `fn_args`
passed as given: FIFO handles, kernels, buffers and barriers are used
by the traced code, anything else is the program's own (upstream's
metaprogramming).  `while_true=True` (the default) wraps the function in
the endless loop a core runs.
"""
from __future__ import annotations

import itertools

from . import _trace
from ._trace import BodyTrace, user_frame
from .dataflow import ObjectFifo, ObjectFifoHandle
from .kernel import _KernelBase
from .device import AnyComputeTile, Tile, _AnyTile

__all__ = ["Worker", "WorkerRuntimeBarrier"]


def _flatten(args):
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from _flatten(a)
        else:
            yield a


class Worker:
    def __init__(self, core_fn=None, fn_args=(), placement=None, while_true=True,
                 stack_size=None, allocation_scheme=None, trace=None,
                 trace_events=None, tile=None, name=None, **unsupported):
        self._where = user_frame()
        if unsupported:
            raise NotImplementedError(
                f"Worker: {', '.join(sorted(unsupported))} not supported by this "
                f"emulator (at {self._where})")
        self.core_fn = core_fn
        self.fn_args = list(fn_args)
        where = tile if tile is not None else placement
        if where is None:
            where = AnyComputeTile
        if not isinstance(where, (Tile, _AnyTile)):
            raise ValueError(f"Worker: placement must be a Tile or AnyComputeTile, "
                             f"got {where!r} (at {self._where})")
        self.tile = where
        self.while_true = while_true
        if stack_size is not None and (not isinstance(stack_size, int) or stack_size <= 0):
            raise ValueError(f"Worker: stack_size must be a positive int, got "
                             f"{stack_size!r} (at {self._where})")
        self.stack_size = stack_size
        self.allocation_scheme = allocation_scheme
        self.trace = trace
        self.trace_events = trace_events
        if trace or trace_events:
            from ._notes import note_trace_request
            note_trace_request("Worker(trace=...)")
        # The name is the body's, and the body's compiled code (cached on
        # disk) depends on it: a default name is given when the program is
        # built, from the function's name and the worker's place in the
        # program, so that it is the same in every run.
        self.name = name
        kernels = []
        for a in _flatten(self.fn_args):
            if isinstance(a, ObjectFifo):
                raise ValueError(
                    f"Worker: fn_args holds the ObjectFifo '{a.name}' itself; pass "
                    f"one of its handles (.prod() or .cons()) (at {self._where})")
            if isinstance(a, ObjectFifoHandle):
                a._set_user(self)
            if isinstance(a, _KernelBase):
                kernels.append(a)
        self.kernels = kernels

    @staticmethod
    def grid(rows: int, cols: int, factory) -> list:
        """rows x cols workers, factory(r, c) making each (upstream's newest
        Worker.grid): a nested list, ws[r][c]."""
        return [[factory(r, c) for c in range(cols)] for r in range(rows)]

    def default_name(self, index: int) -> str:
        fn = getattr(self.core_fn, "__name__", None) or "core"
        if not fn.isidentifier() or fn.startswith("_") or fn.startswith("iron") \
                or fn == "<lambda>":
            fn = "core"
        return f"{fn}_{index}"

    # -- building (program.Emitter)
    def _emit(self, d, emitter, index=0):
        name = self.name or self.default_name(index)
        body = d.body(name)
        tr = BodyTrace(body, emitter, name)
        with _trace.activate(tr):
            # Every handle given to the worker is its endpoint, used or not,
            # as upstream's Worker makes it.
            for a in _flatten(self.fn_args):
                if isinstance(a, ObjectFifoHandle):
                    tr.fifo_value(a)
            if self.while_true:
                iv, _ = body.for_(tr.const(0, "index").id,
                                  tr.const((1 << 63) - 1, "index").id,
                                  tr.const(1, "index").id)
            if self.core_fn is not None:
                self.core_fn(*self.fn_args)
            tr.flush()
            if self.while_true:
                body.end_for()
        w = d.worker_body(name, body)
        if isinstance(self.tile, Tile):
            col = -1 if self.tile.col is None else self.tile.col
            row = -1 if self.tile.row is None else self.tile.row
            if col < 0:
                raise NotImplementedError(
                    f"Worker '{name}': a Tile with a row but no column "
                    f"(at {self._where})")
            w.place(col, row)
        if self.stack_size is not None:
            w.set_stack(self.stack_size)
        return w

    def __repr__(self):
        return f"Worker({self.name or getattr(self.core_fn, '__name__', None)!r})"


class WorkerRuntimeBarrier:
    """A lock the runtime sequence sets (`rt.set_barrier(b, v)`) and a core
    function waits on (`b.wait_for_value(v)`) or adds to
    (`b.release_with_value(v)`)."""

    _index = itertools.count()

    def __init__(self, initial_value: int = 0, name: str | None = None):
        if not isinstance(initial_value, int) or not 0 <= initial_value <= 63:
            raise ValueError(f"WorkerRuntimeBarrier: initial_value must be an int in "
                             f"0..63, got {initial_value!r}")
        self.initial_value = initial_value
        self.name = name or f"barrier{next(WorkerRuntimeBarrier._index)}"

    def _emit(self, d):
        b = d.barrier(self.name)
        if self.initial_value:
            b.set_initial(self.initial_value)
        return b

    def _tracer(self, what):
        tr = _trace.current()
        if not isinstance(tr, BodyTrace):
            raise TypeError(f"barrier '{self.name}': {what} only inside a core "
                            f"function (at {user_frame()})")
        return tr

    def set(self, value: int):
        """The newest era's spelling of rt.set_barrier(barrier, value), inside
        the Runtime's sequence function."""
        from .runtime import _active_runtime
        _active_runtime(f"barrier '{self.name}'.set").set_barrier(self, value)

    def wait_for_value(self, value: int):
        tr = self._tracer("wait_for_value")
        v = tr.barrier_value(self)
        tr.flush()
        tr.body.barrier_wait(v, int(value))

    def release_with_value(self, value: int):
        tr = self._tracer("release_with_value")
        v = tr.barrier_value(self)
        tr.flush()
        tr.body.barrier_release(v, int(value))

    def __repr__(self):
        return f"WorkerRuntimeBarrier({self.name!r})"
