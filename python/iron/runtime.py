# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The runtime sequence: what the host does at each call -- start the
workers, fill FIFOs from the call's tensors and drain them back, write
run-time parameters, set barriers -- in both of upstream's spellings.

Classic era (2025):
    rt = Runtime()
    with rt.sequence(a_ty, b_ty, c_ty) as (a, b, c):
        rt.start(worker)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), c, wait=True)

Newest era (2026):
    def seq(a, b, c, in_h, out_h):
        in_h.fill(a)
        out_h.drain(c, wait=True)
    rt = Runtime(seq, [a_ty, b_ty, c_ty, of_in.prod(), of_out.cons()])

Both are recorded here as one list of tasks, in order, that
program.Emitter replays into the library.  The tensors are the call's
arguments in the order the sequence declares them.

Task groups.  A fill or drain names its group (task_group= / group=), or
belongs to the default group, which the end of the sequence finishes: its
transfers run and the waited ones are awaited there.  Upstream's two
eras agree on this (both gather ungrouped tasks into a default group
finished at the end), and both refuse a sequence that mixes the default
group with explicit ones unless strict_task_groups=False.
"""
from __future__ import annotations

import contextlib
import inspect
import itertools

import numpy as np

from . import _trace
from ._trace import SequenceTrace, user_frame
from .dataflow import ObjectFifoHandle
from .worker import Worker, WorkerRuntimeBarrier
from .device import Tile, _AnyTile

__all__ = ["Runtime", "RuntimeData", "RuntimeTaskGroup", "TaskGroup", "DispatchValue"]


class RuntimeData:
    """One tensor argument of the call, as the sequence sees it."""

    def __init__(self, arr_type, index: int, name: str | None = None):
        self.arr_type = arr_type
        self.shape, self.dtype = _trace.array_type(arr_type)
        self.index = index
        self.name = name or f"arg{index}"
        self.reads = self.writes = False

    @property
    def numel(self) -> int:
        return int(np.prod(self.shape))

    def default_tap(self):
        return None

    def __repr__(self):
        return f"RuntimeData({self.name}: {self.dtype.name}{list(self.shape)})"


class DispatchValue:
    """A dispatch-time scalar: its value is given at each call and changes
    what the compiled design does without recompiling it.  The sequence
    may write it into a run-time parameter buffer (`rtp[0] = n`) or add
    it to a transfer's offset (`tap` offset via fill(..., offset=n))."""

    def __init__(self, name: str, dtype=np.int32):
        self.name = name
        self.dtype = np.dtype(dtype)

    def __repr__(self):
        return f"DispatchValue({self.name!r})"

    def _unsupported(self, *a):
        raise NotImplementedError(
            f"dispatch-time scalar '{self.name}': only writing it into a run-time "
            f"parameter buffer or using it as a transfer's offset is supported "
            f"(at {user_frame()})")

    __add__ = __radd__ = __sub__ = __mul__ = __rmul__ = __bool__ = __index__ = _unsupported


class RuntimeTaskGroup:
    """A group of transfers finished together (`rt.finish_task_group(tg)`
    or the newest era's `tg.finish()`)."""

    def __init__(self, index: int, runtime: "Runtime"):
        self.index = index
        self._rt = runtime
        self.finished = False

    def finish(self):
        self._rt.finish_task_group(self)

    def __repr__(self):
        return f"TaskGroup({self.index})"


def TaskGroup(id=None):
    """The newest era's TaskGroup(): made inside the sequence function."""
    return _active_runtime("TaskGroup()").task_group()


_recording = []   # the runtimes whose sequence function is running


def _active_runtime(what) -> "Runtime":
    if not _recording:
        raise RuntimeError(f"{what} must be called within the function passed to "
                           f"Runtime(seq_fn, fn_args) (at {user_frame()})")
    return _recording[-1]


class _Recorder(SequenceTrace):
    """The active trace while a sequence is recorded: buffer writes become
    tasks."""

    def __init__(self, rt):
        super().__init__(self)
        self.rt = rt

    def set_buffer(self, buf, idx, value):
        self.rt._tasks.append(("rtp", buf, buf.flat_index(idx), value, user_frame()))


class Runtime:
    _group_ids = itertools.count(1)

    def __init__(self, seq_fn=None, fn_args=None, *, strict_task_groups=True):
        if isinstance(seq_fn, bool):           # classic Runtime(strict_task_groups)
            strict_task_groups, seq_fn = seq_fn, None
        self._strict = strict_task_groups
        self._tasks: list = []
        self._rt_data: list[RuntimeData] = []
        self._scalars: list[DispatchValue] = []
        self._groups: list[RuntimeTaskGroup] = []
        self._open_groups: list[RuntimeTaskGroup] = []
        self._seq_fn = seq_fn
        self._fn_args = list(fn_args or [])
        self._recorded = False
        self._trace_request = None
        if seq_fn is not None and not callable(seq_fn):
            raise TypeError(f"Runtime: seq_fn must be callable, got "
                            f"{type(seq_fn).__name__}")

    # -- the classic era
    @contextlib.contextmanager
    def sequence(self, *input_types):
        if self._seq_fn is not None:
            raise ValueError("Runtime: this runtime has a sequence function already")
        if self._recorded:
            raise ValueError("Runtime: sequence() may be used once")
        self._rt_data = [RuntimeData(t, i) for i, t in enumerate(input_types)]
        self._recorded = True
        rec = _Recorder(self)
        with _trace.activate(rec):
            if len(self._rt_data) == 1:
                yield self._rt_data[0]
            else:
                yield tuple(self._rt_data)
        self._close()

    def _check_data(self, data, what):
        if not isinstance(data, RuntimeData) or data not in self._rt_data:
            raise ValueError(f"{what}: {data!r} is not a RuntimeData object "
                             f"generated by sequence() (at {user_frame()})")

    def _check_group(self, group, what):
        if group is not None and (not isinstance(group, RuntimeTaskGroup)
                                  or group._rt is not self):
            raise ValueError(f"{what}: task_group must be a group of this runtime, "
                             f"got {group!r}")
        if group is not None and group.finished:
            raise ValueError(f"{what}: {group!r} is finished already")

    def _transfer(self, kind, handle, data, tap, task_group, wait, placement, extra):
        what = f"rt.{kind}"
        if not isinstance(handle, ObjectFifoHandle):
            raise ValueError(f"{what}: expected an ObjectFifoHandle, got "
                             f"{type(handle).__name__} (at {user_frame()})")
        if handle._is_prod != (kind == "fill"):
            raise ValueError(f"{what}: needs the fifo's "
                             f"{'producer' if kind == 'fill' else 'consumer'} handle "
                             f"('{handle.name}': {handle.handle_type}) (at {user_frame()})")
        self._check_data(data, what)
        self._check_group(task_group, what)
        offset_scalar = None
        if extra is not None:
            packet, offset_parameter, sizes, strides, offset, transfer_len, managed = extra
            if packet is not None:
                raise NotImplementedError(f"{what}(packet=...): packet-switched "
                                          f"transfers are not modelled (at {user_frame()})")
            if not managed:
                raise NotImplementedError(f"{what}(managed=False): unmanaged tasks are "
                                          f"not supported (at {user_frame()})")
            if offset_parameter is not None:
                raise NotImplementedError(f"{what}(offset_parameter=...) is not "
                                          f"supported; use a DispatchTime scalar as "
                                          f"offset= (at {user_frame()})")
            if isinstance(offset, DispatchValue):
                offset_scalar, offset = offset, None
            if any(v is not None for v in (sizes, strides, offset, transfer_len)):
                if tap is not None:
                    raise ValueError(f"{what}: pass either tap or "
                                     f"sizes/strides/offset, not both")
                if isinstance(sizes, DispatchValue) or isinstance(strides, DispatchValue):
                    raise NotImplementedError(f"{what}: dispatch-time sizes or strides")
                tap = _explicit_tap(data, sizes, strides, offset, transfer_len)
        if isinstance(placement, Tile):
            if placement.row not in (None, 0) or placement.col is None:
                raise ValueError(f"{what}: placement must be a shim tile Tile(col, 0), "
                                 f"got {placement!r}")
            shim = placement.col
        elif placement is None or isinstance(placement, _AnyTile):
            shim = None
        else:
            raise ValueError(f"{what}: placement must be a Tile or AnyShimTile")
        if handle._user not in (None, "runtime"):
            raise ValueError(f"{what}: the handle of '{handle.name}' is already used by "
                             f"{handle._user!r}; take another with .cons() / .prod()")
        handle._user = "runtime"
        if kind == "fill":
            data.reads = True
        else:
            data.writes = True
        self._tasks.append((kind, handle, data, _tap_tuple(tap, data, what), task_group,
                            bool(wait), shim, offset_scalar, user_frame()))

    def fill(self, in_fifo, source, tap=None, task_group=None, wait=False,
             placement=None, *, _extra=None):
        self._transfer("fill", in_fifo, source, tap, task_group, wait, placement, _extra)

    def drain(self, out_fifo, dest, tap=None, task_group=None, wait=False,
              placement=None, *, _extra=None):
        self._transfer("drain", out_fifo, dest, tap, task_group, wait, placement, _extra)

    def start(self, *workers):
        for w in workers:
            if not isinstance(w, Worker):
                raise ValueError("Runtime can only start Worker objects")
            self._tasks.append(("start", w))

    def task_group(self) -> RuntimeTaskGroup:
        g = RuntimeTaskGroup(next(Runtime._group_ids), self)
        self._groups.append(g)
        self._open_groups.append(g)
        self._tasks.append(("group", g))
        return g

    def finish_task_group(self, task_group: RuntimeTaskGroup):
        self._check_group(task_group, "finish_task_group")
        if task_group is None:
            raise ValueError("finish_task_group: expected a task group, got None")
        task_group.finished = True
        self._open_groups.remove(task_group)
        self._tasks.append(("finish", task_group))

    def inline_ops(self, inline_func, inline_args):
        """Runs `inline_func(*inline_args)` as part of the sequence: its buffer
        writes (`rtp[i] = v`) become run-time parameter writes here."""
        rec = _Recorder(self)
        with _trace.activate(rec):
            inline_func(*inline_args)

    def set_barrier(self, barrier, value: int):
        if not isinstance(barrier, WorkerRuntimeBarrier):
            raise ValueError(f"set_barrier: expected a WorkerRuntimeBarrier, got "
                             f"{type(barrier).__name__}")
        if not isinstance(value, int) or not 0 <= value <= 63:
            raise ValueError(f"set_barrier: value must be an int in 0..63, got {value!r}")
        self._tasks.append(("barrier", barrier, value))

    def enable_trace(self, *args, **kwargs):
        from ._notes import note_trace_request
        note_trace_request("rt.enable_trace(...)")
        self._trace_request = (args, kwargs)

    # -- the newest era: the sequence function runs when the program is built
    def _record(self, param_names=None):
        """Runs the sequence function (newest era) once, recording its tasks;
        the classic era recorded them as the program ran."""
        if self._recorded:
            return
        self._recorded = True
        if self._seq_fn is None:
            raise ValueError("Runtime: no sequence was given (use rt.sequence(...) "
                             "or Runtime(seq_fn, fn_args))")
        code = getattr(self._seq_fn, "__code__", None)
        if code is not None:    # a plain function: its parameter names, cheaply
            names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
        else:
            try:
                names = list(inspect.signature(self._seq_fn).parameters)
            except (TypeError, ValueError):
                names = []
        args = []
        for i, a in enumerate(self._fn_args):
            name = names[i] if i < len(names) else f"arg{i}"
            if _trace.is_array_type(a):
                d = RuntimeData(a, len(self._rt_data), name)
                self._rt_data.append(d)
                args.append(d)
            elif isinstance(a, type) and issubclass(a, (np.integer, np.floating)):
                v = DispatchValue(name, a)
                self._scalars.append(v)
                args.append(v)
            else:
                args.append(a)
        _recording.append(self)
        rec = _Recorder(self)
        try:
            with _trace.activate(rec):
                self._seq_fn(*args)
        finally:
            _recording.pop()
        self._close()

    def _close(self):
        if self._open_groups:
            names = ", ".join(str(g) for g in self._open_groups)
            raise ValueError(f"Failed to close task groups: {names}")
        grouped = any(t[0] in ("fill", "drain") and t[4] is not None for t in self._tasks)
        ungrouped = any(t[0] in ("fill", "drain") and t[4] is None for t in self._tasks)
        if self._strict and grouped and ungrouped:
            raise ValueError(
                "Mixing explicit task groups and the default task group is "
                "prohibited. Please assign all tasks to a task group (or make the "
                "Runtime with strict_task_groups=False).")

    # -- what the program reads
    @property
    def workers(self):
        return [t[1] for t in self._tasks if t[0] == "start"]

    @property
    def fifos(self):
        return [t[1] for t in self._tasks if t[0] in ("fill", "drain")]

    def arg_decl(self) -> str:
        """The library's argument declaration: roles from the transfers."""
        parts = []
        for d in self._rt_data:
            role = "inout" if d.reads and d.writes else "out" if d.writes else "in"
            parts.append(f"{role} {d.name}")
        return ", ".join(parts)


def _tap_tuple(tap, data: RuntimeData, what):
    """(offset, sizes, strides) of an upstream TensorAccessPattern, or None
    for the whole tensor in order."""
    if tap is None:
        return None
    if isinstance(tap, tuple) and len(tap) == 3:
        return tap
    try:
        offset, sizes, strides = tap.offset, tap.sizes, tap.strides
    except AttributeError:
        raise TypeError(f"{what}: tap must be a TensorAccessPattern, got "
                        f"{type(tap).__name__}") from None
    return int(offset), [int(s) for s in sizes], [int(s) for s in strides]


def _explicit_tap(data, sizes, strides, offset, transfer_len):
    offset = int(offset or 0)
    if sizes is None:
        n = int(transfer_len) if transfer_len is not None else data.numel
        return (offset, [n], [1])
    strides = strides or [int(np.prod(sizes[k + 1:])) for k in range(len(sizes))]
    return (offset, [int(s) for s in sizes], [int(s) for s in strides])
