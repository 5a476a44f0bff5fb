# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ObjectFifos and their handles, as upstream IRON writes them.

An ObjectFifo carries objects of one tensor type from its producer to its
consumers.  `prod()` is its one producer handle, `cons()` a new consumer
handle on every call (several consumers all see every object).  A handle
is given to a Worker (whose core function acquires and releases objects
through it) or used by the runtime sequence (fill / drain), or moved
through a memtile by a link: `forward`, `split` (a consumer's objects cut
into several FIFOs) and `join` (several FIFOs assembled into one
producer's objects).  These classes only record the program; the library
builds it (program.Emitter), checks it and places it.
"""
from __future__ import annotations

import itertools

import numpy as np

from . import _trace
from ._trace import BodyTrace, user_frame
from .device import AnyComputeTile, AnyMemTile, Tile

__all__ = ["ObjectFifo", "ObjectFifoHandle", "ObjectFifoLink", "StreamDims"]

# A data layout transform as upstream writes it: (size, stride) pairs,
# outermost first.
StreamDims = list[tuple[int, int]]


def _dims(dims, what):
    """upstream's [(size, stride), ...] outermost first -> (sizes, strides)."""
    if dims is None:
        return None
    try:
        pairs = [(int(s), int(t)) for s, t in dims]
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected a list of (size, stride) pairs, got "
                        f"{dims!r}") from None
    return [p[0] for p in pairs], [p[1] for p in pairs]


def _place(placement, what):
    """A link's place as the binding takes it."""
    if placement is None or placement is AnyMemTile:
        return None
    if placement is AnyComputeTile:
        return "compute"
    if isinstance(placement, Tile):
        if placement.col is None or placement.row is None:
            raise NotImplementedError(f"{what}: a link placed by column or row only")
        return (placement.col, placement.row)
    raise ValueError(f"{what}: placement must be a Tile, AnyMemTile or "
                     f"AnyComputeTile, got {placement!r}")


def _refuse(unsupported: dict, what: str) -> None:
    """Upstream keywords this emulator does not model: a NotImplementedError
    naming the first given (unset ones are accepted)."""
    given = sorted(k for k, v in unsupported.items() if v not in (None, False, 0))
    if given:
        raise NotImplementedError(f"{what}: {', '.join(given)}= is not modelled by "
                                  f"this emulator (at {user_frame()})")


_UNSUPPORTED_FIFO = ("pad_dimensions", "disable_synchronization", "repeat_count",
                     "delegate_tile", "via_DMA", "init_values", "consumer_obj_type",
                     "aie_stream")


class ObjectFifo:
    _of_index = itertools.count()

    def __init__(self, obj_type, depth=2, name=None, dims_to_stream=None,
                 dims_from_stream_per_cons=None, plio=False, **kw):
        self._where = user_frame()
        for k, v in kw.items():
            if k not in _UNSUPPORTED_FIFO:
                raise TypeError(f"ObjectFifo() got an unexpected keyword argument {k!r}")
            if v not in (None, False, 0):
                raise NotImplementedError(f"ObjectFifo: {k}= is not supported by this "
                                          f"emulator (at {self._where})")
        if plio:
            raise NotImplementedError(f"ObjectFifo: plio=True (PL I/O) is not "
                                      f"modelled by this emulator (at {self._where})")
        self._shape, self._dtype = _trace.array_type(obj_type)
        self._obj_type = obj_type
        if isinstance(depth, (list, tuple)):
            self._depths = [int(x) for x in depth]
            if not self._depths or min(self._depths) < 1:
                raise ValueError(f"ObjectFifo: depths must be >= 1, got {depth}")
            self._depth = max(self._depths)
        else:
            self._depths = None
            if depth is not None and (not isinstance(depth, (int, np.integer)) or depth < 1):
                raise ValueError(f"Default ObjectFifo depth must be > 0, but got {depth}")
            self._depth = None if depth is None else int(depth)
        self.name = name if name is not None else f"of{next(ObjectFifo._of_index)}"
        self._dims_to_stream = _dims(dims_to_stream, f"ObjectFifo '{self.name}' dims_to_stream")
        self._dims_from_stream_per_cons = _dims(
            dims_from_stream_per_cons, f"ObjectFifo '{self.name}' dims_from_stream_per_cons")
        self._prod = None
        self._cons = []
        self._link = None        # set when a link makes or consumes this fifo

    # -- upstream's properties
    @property
    def obj_type(self):
        return self._obj_type

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def depth(self):
        return self._depth

    @property
    def dims_to_stream(self):
        return self._dims_to_stream

    def set_iter_count(self, n):
        raise NotImplementedError(f"ObjectFifo '{self.name}': set_iter_count is not "
                                  f"supported by this emulator")

    def __repr__(self):
        return f"ObjectFifo({self.name!r}, {self._dtype.name}{list(self._shape)})"

    def _handle_depth(self, depth, index):
        if depth is not None:
            if depth < 1:
                raise ValueError(f"Depth must be > 0, but got {depth}")
            return int(depth)
        if self._depths is not None:
            return self._depths[min(index, len(self._depths) - 1)]
        if self._depth is None:
            raise ValueError("If depth is None, then depth must be specified.")
        return self._depth

    def prod(self, depth=None, channel=None, tile=None):
        if channel is not None:
            raise NotImplementedError(f"ObjectFifo '{self.name}'.prod(channel=...): DMA "
                                      f"channels are assigned by the placer")
        if self._prod is None:
            self._prod = ObjectFifoHandle(self, True, self._handle_depth(depth, 0),
                                          shim=tile)
        return self._prod

    def cons(self, depth=None, dims_from_stream=None, channel=None, tile=None):
        if channel is not None:
            raise NotImplementedError(f"ObjectFifo '{self.name}'.cons(channel=...): DMA "
                                      f"channels are assigned by the placer")
        dims = _dims(dims_from_stream, f"ObjectFifo '{self.name}' dims_from_stream") \
            if dims_from_stream is not None else self._dims_from_stream_per_cons
        h = ObjectFifoHandle(self, False, self._handle_depth(depth, 1 + len(self._cons)),
                             dims=dims, shim=tile)
        self._cons.append(h)
        return h


class ObjectFifoLink:
    """A link through a memtile (or a free compute tile): what made or
    consumes a FIFO.  kind: "forward", "split" or "join"."""

    def __init__(self, kind, handle, outs, offsets, place, depths):
        self.kind, self.handle, self.outs = kind, handle, outs
        self.offsets, self.place, self.depths = offsets, place, depths


class ObjectFifoHandle:
    """One endpoint of an ObjectFifo: its producer or one of its consumers."""

    def __init__(self, of, is_prod, depth, dims=None, shim=None):
        self._object_fifo = of
        self._is_prod = is_prod
        self._depth = depth
        self._dims = dims
        self._user = None            # a Worker, "runtime" or a link
        self._shim = shim            # S3 prod(tile=)/cons(tile=)

    # -- upstream's properties
    @property
    def name(self):
        return self._object_fifo.name

    @property
    def obj_type(self):
        return self._object_fifo.obj_type

    @property
    def shape(self):
        return self._object_fifo.shape

    @property
    def dtype(self):
        return self._object_fifo.dtype

    @property
    def depth(self):
        return self._depth

    @property
    def handle_type(self):
        return "prod" if self._is_prod else "cons"

    @property
    def dims_from_stream(self):
        return self._dims

    def __repr__(self):
        return f"ObjectFifoHandle({self.name!r}, {self.handle_type})"

    def _set_user(self, user):
        if self._user is not None and self._user is not user:
            raise ValueError(f"the {self.handle_type} handle of ObjectFifo '{self.name}' "
                             f"already has a user ({self._user!r}); take another "
                             f"handle with .cons() (at {user_frame()})")
        self._user = user

    # -- inside a core function
    def _tracer(self, what):
        tr = _trace.current()
        if not isinstance(tr, BodyTrace):
            raise TypeError(f"ObjectFifo '{self.name}': {what} only inside a core "
                            f"function (a Worker's core_fn) (at {user_frame()})")
        return tr

    def acquire(self, num_elem: int = 1):
        if not isinstance(num_elem, (int, np.integer)) or num_elem < 1:
            raise ValueError(f"ObjectFifo '{self.name}': acquire needs a count >= 1, "
                             f"got {num_elem!r} (at {user_frame()})")
        if num_elem > self._depth:
            raise ValueError(
                f"ObjectFifo '{self.name}': cannot acquire {num_elem} objects through "
                f"a {self.handle_type} handle of depth {self._depth}; acquire at most "
                f"{self._depth} or give the handle a larger depth (at {user_frame()})")
        return self._tracer("acquire").acquire(self, int(num_elem))

    def release(self, num_elem: int = 1):
        if not isinstance(num_elem, (int, np.integer)) or num_elem < 1:
            raise ValueError(f"ObjectFifo '{self.name}': release needs a count >= 1, "
                             f"got {num_elem!r} (at {user_frame()})")
        if num_elem > self._depth:
            raise ValueError(
                f"ObjectFifo '{self.name}': cannot release {num_elem} objects through "
                f"a {self.handle_type} handle of depth {self._depth} (at {user_frame()})")
        self._tracer("release").release(self, int(num_elem))

    # -- links
    def _check(self, want_prod, what):
        if self._is_prod != want_prod:
            raise ValueError(f"ObjectFifo '{self.name}': {what} is for "
                             f"{'producer' if want_prod else 'consumer'} handles")

    def forward(self, placement=AnyMemTile, obj_type=None, depth=None, name=None,
                dims_to_stream=None, dims_from_stream=None, plio=False, tile=None,
                **unsupported):
        _refuse(unsupported, f"forward of '{self.name}'")
        self._check(False, "forward")
        if plio:
            raise NotImplementedError("forward(plio=True): PL I/O is not modelled")
        place = _place(tile if tile is not None else placement, f"forward of '{self.name}'")
        of = self._object_fifo
        out = ObjectFifo(obj_type or of.obj_type, depth=depth or of.depth or self._depth,
                         name=name or f"{of.name}_fwd", dims_to_stream=dims_to_stream)
        if dims_from_stream is not None:
            self._dims = _dims(dims_from_stream, f"forward of '{self.name}' dims_from_stream")
        link = ObjectFifoLink("forward", self, [out], None, place, [depth or 0])
        self._set_user(link)
        out._link = link
        return out

    def split(self, offsets, placement=AnyMemTile, depths=None, obj_types=None,
              names=None, dims_to_stream=None, dims_from_stream=None, plio=False,
              tile=None, **unsupported):
        _refuse(unsupported, f"split of '{self.name}'")
        self._check(False, "split")
        return self._link_many("split", offsets, tile if tile is not None else placement,
                               depths, obj_types, names, dims_to_stream,
                               dims_from_stream, plio)

    def join(self, offsets, placement=AnyMemTile, depths=None, obj_types=None,
             names=None, dims_to_stream=None, dims_from_stream=None, plio=False,
             tile=None, **unsupported):
        _refuse(unsupported, f"join of '{self.name}'")
        self._check(True, "join")
        return self._link_many("join", offsets, tile if tile is not None else placement,
                               depths, obj_types, names, dims_to_stream,
                               dims_from_stream, plio)

    def _link_many(self, kind, offsets, placement, depths, obj_types, names,
                   dims_to_stream, dims_from_stream, plio):
        of = self._object_fifo
        if plio:
            raise NotImplementedError(f"{kind}(plio=True): PL I/O is not modelled")
        n = len(offsets)
        if n < 1:
            raise ValueError(f"{kind} of '{of.name}': offsets is empty")
        for what, lst in (("depths", depths), ("obj_types", obj_types), ("names", names),
                          ("dims_to_stream", dims_to_stream),
                          ("dims_from_stream", dims_from_stream)):
            if lst is not None and len(lst) != n:
                raise ValueError(f"{kind} of '{of.name}': {what} has {len(lst)} items "
                                 f"for {n} offsets")
        if kind == "join" and dims_from_stream is not None and any(dims_from_stream):
            raise NotImplementedError(f"join of '{of.name}': dims_from_stream on the "
                                      f"memtile side is not supported")
        place = _place(placement, f"{kind} of '{of.name}'")
        outs = []
        for i in range(n):
            t = obj_types[i] if obj_types is not None else of.obj_type
            d = depths[i] if depths is not None else (of.depth or self._depth)
            nm = names[i] if names is not None else f"{of.name}_{kind}{i}"
            outs.append(ObjectFifo(
                t, depth=d, name=nm,
                dims_to_stream=dims_to_stream[i] if dims_to_stream is not None and kind == "join" else None,
                dims_from_stream_per_cons=dims_from_stream[i]
                if dims_from_stream is not None and kind == "split" else None))
        if kind == "split" and dims_to_stream is not None and any(dims_to_stream):
            for o, dims in zip(outs, dims_to_stream):
                o._dims_to_stream = _dims(dims, f"split output '{o.name}' dims_to_stream")
        link = ObjectFifoLink(kind, self, outs, [int(x) for x in offsets], place,
                              [int(x) if x else 0 for x in depths] if depths else None)
        self._set_user(link)
        for o in outs:
            o._link = link
        return outs

    # -- the newest era's runtime verbs (inside Runtime's sequence function)
    def fill(self, source, tap=None, wait=False, packet=None, offset_parameter=None,
             group=None, sizes=None, strides=None, offset=None, transfer_len=None,
             managed=True, task_group=None):
        _runtime._active_runtime("fill").fill(self, source, tap, task_group=group or task_group,
                                     wait=wait, placement=self._shim,
                                     _extra=(packet, offset_parameter, sizes, strides,
                                             offset, transfer_len, managed))

    def drain(self, dest, tap=None, wait=False, packet=None, offset_parameter=None,
              group=None, sizes=None, strides=None, offset=None, transfer_len=None,
              managed=True, task_group=None):
        _runtime._active_runtime("drain").drain(self, dest, tap, task_group=group or task_group,
                                       wait=wait, placement=self._shim,
                                       _extra=(packet, offset_parameter, sizes, strides,
                                               offset, transfer_len, managed))


# Last: runtime imports this module's classes (handle.fill / drain use it).
from . import runtime as _runtime  # noqa: E402
