# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Buffers in a tile's memory: upstream's Buffer (newest), GlobalBuffer
and LocalBuffer (classic).

A buffer given to a worker lives on that worker's tile; each worker that
takes it has its own copy (the library's run-time parameter buffers).  A
core function indexes it (`buf[i]`, `buf[i] = v`); the runtime sequence
writes it (`rt.inline_ops` / the sequence function: `buf[i] = v`) when
it is a run-time parameter buffer (use_write_rtp).  A LocalBuffer made
inside a core function belongs to the worker being traced.
"""
from __future__ import annotations

import itertools

import numpy as np

from . import _trace
from ._trace import BodyTrace, SequenceTrace, user_frame

__all__ = ["Buffer", "GlobalBuffer", "LocalBuffer"]


class Buffer:
    _index = itertools.count()

    def __init__(self, type=None, initial_value=None, name=None, tile=None,
                 use_write_rtp=False, placement=None, **unsupported):
        if unsupported:
            raise NotImplementedError(
                f"{self.__class__.__name__}: {', '.join(sorted(unsupported))} not "
                f"supported by this emulator (at {user_frame()})")
        if type is None and initial_value is None:
            raise ValueError(f"{self.__class__.__name__}: give a type or an "
                             f"initial_value (at {user_frame()})")
        if type is not None:
            self._shape, self._dtype = _trace.array_type(type)
        else:
            arr = np.asarray(initial_value)
            self._shape, self._dtype = arr.shape, arr.dtype
        if initial_value is not None:
            init = np.ascontiguousarray(np.asarray(initial_value, dtype=self._dtype))
            if init.size == 1 and self.numel > 1:
                # One value fills the buffer (MLIR's splat, as upstream's
                # initial value becomes).
                init = np.full(self.numel, init.reshape(-1)[0], dtype=self._dtype)
            if init.size != self.numel:
                raise ValueError(f"{self.__class__.__name__}: initial_value has "
                                 f"{init.size} elements; the type has {self.numel}")
            self._initial = init.reshape(-1)
        else:
            self._initial = None
        self.name = name or f"buf{next(Buffer._index)}"
        self.tile = tile if tile is not None else placement
        self.use_write_rtp = use_write_rtp
        self._where = user_frame()

    @property
    def shape(self):
        return tuple(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def numel(self) -> int:
        return int(np.prod(self._shape)) if len(self._shape) else 1

    def _emit(self, d):
        from ._trace import dtype_name
        r = d.rtp(self.name, dtype_name(self._dtype), self.numel)
        if self._initial is not None:
            r.set_initial(self._initial.tobytes())
        return r

    def _memref(self, tr):
        return _trace.MemRef(tr, tr.buffer_value(self), self._shape or (1,),
                             self._dtype, f"buffer '{self.name}'", flat=True)

    def __getitem__(self, idx):
        tr = _trace.current()
        if isinstance(tr, BodyTrace):
            return self._memref(tr)[idx]
        raise TypeError(f"buffer '{self.name}': reading it is only possible inside "
                        f"a core function (at {user_frame()})")

    def __setitem__(self, idx, value):
        tr = _trace.current()
        if isinstance(tr, BodyTrace):
            self._memref(tr)[idx] = value
            return
        if isinstance(tr, SequenceTrace):
            tr.emitter.set_buffer(self, idx, value)
            return
        raise TypeError(f"buffer '{self.name}': writing it is only possible inside "
                        f"a core function or the runtime sequence (at {user_frame()})")

    def flat_index(self, idx) -> int:
        if not isinstance(idx, tuple):
            idx = (idx,)
        shape = self._shape or (1,)
        if len(idx) != len(shape) and len(idx) != 1:
            raise IndexError(f"buffer '{self.name}': {len(idx)} indices for shape "
                             f"{list(shape)}")
        if len(idx) == 1:
            (i,) = idx
            return int(i)
        return int(np.ravel_multi_index(tuple(int(i) for i in idx), shape))

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self._dtype.name}{list(self._shape)})"


class GlobalBuffer(Buffer):
    """The classic era's name of a Buffer declared outside core functions."""


class LocalBuffer(Buffer):
    """A buffer made inside a core function: it belongs to the worker being
    traced (classic era; the newest era's Buffer does both)."""

    def __init__(self, type=None, initial_value=None, name=None, **kw):
        tr = _trace.current()
        if not isinstance(tr, BodyTrace):
            raise ValueError(f"LocalBuffer: only inside a core function (a "
                             f"Worker's core_fn) (at {user_frame()})")
        super().__init__(type, initial_value, name or f"{tr.worker}_buf{next(Buffer._index)}", **kw)
