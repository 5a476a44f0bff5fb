# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Traced control flow: `range_` loops and `if_` / `else_` conditions.

Inside a core function (a body being traced) `range_` records one scf.for
and runs the loop's Python body once, with the induction variable as a
traced index; `with if_(cond):` records an scf.if.  In the runtime
sequence and in plain Python, `range_` over Python ints is Python's
range: the sequence has no loops, so its loops unroll (as upstream's do
when their bounds are constants).
"""
from __future__ import annotations

from . import _trace
from ._trace import BodyTrace, Value, user_frame

__all__ = ["range_", "for_", "if_", "else_", "yield_"]


def range_(start, stop=None, step=None, iter_args=None, insert_yield=True):
    """`for i in range_(n)`, `range_(start, stop[, step])`."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if iter_args:
        raise NotImplementedError(
            f"range_(..., iter_args=...): loop-carried values are not supported "
            f"from Python yet; keep the value in a LocalBuffer (at {user_frame()})")
    tr = _trace.current()
    if isinstance(tr, BodyTrace):
        return _traced_range(tr, start, stop, step)
    for what, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, Value):
            raise TypeError(f"range_: a traced {what} outside a core function "
                            f"(at {user_frame()})")
        if isinstance(v, float):
            raise TypeError(f"range_: {what} must be an integer, got the float "
                            f"{v!r} (at {user_frame()})")
    return iter(range(int(start), int(stop), int(step)))


def _traced_range(tr: BodyTrace, start, stop, step):
    lb = tr.to_index(start, "range_ start")
    ub = tr.to_index(stop, "range_ stop")
    st = tr.to_index(step, "range_ step")
    if not isinstance(step, Value) and int(step) <= 0:
        raise ValueError(f"range_: step must be > 0, got {step} (at {user_frame()})")
    tr.flush()
    iv, _ = tr.body.for_(lb.id, ub.id, st.id)
    try:
        yield Value(tr, iv, "index")
    finally:
        tr.flush()
        tr.body.end_for()


for_ = range_


class _If:
    """The `with if_(cond) as op:` block; `with else_(op):` follows it."""

    def __init__(self, tr: BodyTrace, cond):
        self.tr = tr
        self.cond = tr.coerce_to(cond, "i1", "if_ condition")
        self.has_else = False

    def __enter__(self):
        self.tr.flush()
        self.tr.body.if_(self.cond.id)
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            # The then region stays open in the body until we know whether
            # an else_ follows: the next op closes it (BodyTrace.flush).
            self.tr.flush()
            self.tr._pending_if = self
        return False


class _Else:
    def __init__(self, op: _If):
        self.op = op

    def __enter__(self):
        tr = self.op.tr
        if tr._pending_if is not self.op:
            raise ValueError(f"else_: it must follow its if_ block directly, with "
                             f"no op between them (at {user_frame()})")
        tr._pending_if = None
        tr.body.else_()
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            tr = self.op.tr
            tr.flush()
            tr.body.end_if()
        return False


def if_(cond, results=None, *, hasElse=False):
    """`with if_(cond) as op:` records an scf.if on an i1 condition."""
    if results:
        raise NotImplementedError(f"if_ with results is not supported from Python "
                                  f"yet (at {user_frame()})")
    tr = _trace.current()
    if not isinstance(tr, BodyTrace):
        raise NotImplementedError(
            f"if_ outside a core function: the runtime sequence has no "
            f"conditions here; decide in Python (a plain `if`) "
            f"(at {user_frame()})")
    return _If(tr, cond)


def else_(if_op):
    if not isinstance(if_op, _If):
        raise TypeError(f"else_: expected the object `with if_(...) as op` gave, "
                        f"got {type(if_op).__name__} (at {user_frame()})")
    return _Else(if_op)


def yield_(*values):
    """Upstream's explicit scf.yield: loops here yield on their own."""
    if values:
        raise NotImplementedError("yield_ with values: loop-carried values are "
                                  "not supported from Python yet")
