# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Programs: a device, a runtime sequence and its workers, resolved into
a design the library builds.

`Program(device, rt[, workers]).resolve_program([placer])` returns a
Module.  Printing it prints the design as MLIR-AIE (the library exports
it); `iron.jit` runs it.  Either way the library builds the design
through Emitter, which replays the recorded program -- FIFOs, links,
kernels, buffers, barriers, workers (tracing their core functions),
the runtime sequence -- into the library's design builder.  Placement,
verification, compilation and emulation are the library's.
"""
from __future__ import annotations

import re

from . import _iron
from ._trace import dtype_name, user_frame
from .device import Device, device_name, get_current_device

__all__ = ["Program", "Module", "Emitter"]


class Program:
    def __init__(self, device, rt, workers=None):
        from .runtime import Runtime
        if not isinstance(rt, Runtime):
            raise TypeError(f"Program: rt must be a Runtime, got {type(rt).__name__}")
        if device is None:
            device = get_current_device()
        elif isinstance(device, type) and issubclass(device, Device):
            device = device()
        elif not isinstance(device, Device):
            from .device import from_name
            device = from_name(device_name(device))
        self.device = device
        self.rt = rt
        self._workers = list(workers) if workers is not None else None
        self._where = user_frame()

    def enable_trace(self, *args, **kwargs):
        from ._notes import note_trace_request
        note_trace_request("Program.enable_trace(...)")
        self._trace_request = (args, kwargs)

    @property
    def trace_requested(self) -> bool:
        """Whether the program asks for a hardware trace anywhere."""
        return (getattr(self, "_trace_request", None) is not None
                or self.rt._trace_request is not None
                or any(w.trace or w.trace_events for w in self.workers))

    def resolve_program(self, placer=None, device_name="main"):
        """The program as a Module (placement is the library's: a placer
        given, as the classic era's SequentialPlacer(), is accepted)."""
        if placer is not None and not hasattr(placer, "make_placement"):
            raise TypeError(f"resolve_program: placer must be a Placer, got "
                            f"{type(placer).__name__}")
        self.rt._record()
        return Module(self, device_name)

    @property
    def workers(self):
        started = self.rt.workers
        if self._workers is None:
            return started
        extra = [w for w in started if w not in self._workers]
        return list(self._workers) + extra


class _Operation:
    def __init__(self, module):
        self._module = module

    def verify(self) -> bool:
        return True

    def __str__(self):
        return str(self._module)


class Module:
    """A resolved program: printable as MLIR-AIE, runnable by the jit."""

    def __init__(self, program: Program, device_symbol: str = "main"):
        self.program = program
        self.device_symbol = device_symbol
        self.operation = _Operation(self)

    @property
    def device_name(self) -> str:
        return self.program.device.name

    @property
    def runtime_data(self):
        return self.program.rt._rt_data

    @property
    def dispatch_scalars(self):
        return self.program.rt._scalars

    def arg_decl(self, names=None) -> str:
        decl = self.program.rt.arg_decl()
        if names and len(names) == len(self.runtime_data):
            parts = [p.split(" ")[0] + " " + n for p, n in zip(decl.split(", "), names)]
            decl = ", ".join(parts)
        return decl

    def emit(self, d, sources_optional=False):
        em = Emitter(d, self.program, sources_optional)
        self._emitter = em
        em.run()

    def add_origins(self, exc: BaseException) -> None:
        """Notes on a library error naming the program's objects: where in
        the program each named FIFO, worker, kernel or buffer was made (the
        library checks the design after the program ran, so its message
        alone cannot point there)."""
        em = getattr(self, "_emitter", None)
        origins = em.origins if em is not None else None
        if not origins or not hasattr(exc, "add_note"):
            return
        said = set()
        for name in re.findall(r"'([A-Za-z_][\w.]*)'", str(exc)):
            where = origins.get(name)
            if where and name not in said:
                said.add(name)
                exc.add_note(f"'{name}' was made at {where}")

    def empty_args(self):
        return [_iron.Tensor.empty(dtype_name(r.dtype), r.shape) for r in self.runtime_data]

    def to_mlir(self, generic: bool = False) -> str:
        jit = _iron.Jit(lambda d: self.emit(d, sources_optional=True),
                        name=self.device_symbol, args=self.arg_decl(),
                        scalars=_scalar_decl(self.dispatch_scalars) or None,
                        disk_cache=-1)
        from .device import device as scope
        try:
            with scope(self.device_name):
                return jit.dump(self.empty_args(),
                                format="mlir-generic" if generic else "mlir")
        except _iron.Error as e:
            self.add_origins(e)
            raise

    def __str__(self):
        return self.to_mlir()


def _scalar_decl(scalars) -> str:
    return ", ".join(s.name for s in scalars)


def _link_dims(f, of):
    """A link's output: its producer is the link, whose layout on the way
    out is the output fifo's dims_to_stream."""
    dims = of.dims_to_stream
    if dims:
        f.prod().set_dims(dims[0], dims[1])


class Emitter:
    """Replays a recorded program into the library's design builder `d`
    (an iron._iron.Design), each object once."""

    def __init__(self, d, program: Program, sources_optional=False):
        self.d = d
        self.program = program
        self.sources_optional = sources_optional
        self._fifos = {}
        self._handles = {}
        self._kernels = {}
        self._buffers = {}
        self._barriers = {}
        self._workers = {}
        self._groups = {}
        self._runtime_cons = {}    # fifo id -> the first runtime consumer handle
        self._keep = []
        self._made = []            # (library object, where the program made it)

    def _memo(self, table, obj, make):
        key = id(obj)
        v = table.get(key)
        if v is None:
            where = getattr(obj, "_where", None)
            try:
                v = make()
            except (_iron.Error, FileNotFoundError, NotImplementedError) as e:
                if where and hasattr(e, "add_note"):
                    e.add_note(f"{obj!r} was made at {where}")
                raise
            table[key] = v
            self._keep.append(obj)
            if where:
                self._made.append((v, where))
        return v

    @property
    def origins(self) -> dict:
        """name -> where the program made it, for the objects the library
        names in its messages (asked for only when a message comes)."""
        out: dict = {}
        for v, where in self._made:
            name = getattr(v, "name", None)
            if isinstance(name, str):
                out.setdefault(name, where)
        return out

    # -- FIFOs and links
    def c_fifo(self, of):
        return self._memo(self._fifos, of, lambda: self._make_fifo(of))

    @staticmethod
    def _fifo_depth(of):
        if of.depth is not None:
            return of.depth
        depths = [h.depth for h in ([of._prod] if of._prod else []) + of._cons]
        return max(depths) if depths else 2

    def _make_fifo(self, of):
        link = of._link
        d = self.d
        if link is None or link.kind == "join" and link.handle._object_fifo is of:
            return d.fifo(of.name, dtype_name(of.dtype), list(of.shape), self._fifo_depth(of))
        src = self.c_handle(link.handle)
        if link.kind == "forward":
            src_of = link.handle._object_fifo
            same = (src_of.dtype == of.dtype and tuple(src_of.shape) == tuple(of.shape))
            f = d.forward(src, name=of.name, depth=link.depths[0] or 0, place=link.place,
                          dtype=None if same else dtype_name(of.dtype),
                          shape=None if same else list(of.shape))
            _link_dims(f, of)
            return f
        make = d.split if link.kind == "split" else d.join
        made = make(src, link.offsets, [list(o.shape) for o in link.outs],
                    names=[o.name for o in link.outs], depths=link.depths,
                    place=link.place)
        for o, f in zip(link.outs, made):
            if link.kind == "split":
                _link_dims(f, o)
            if o is not of:
                self._fifos[id(o)] = f
                self._keep.append(o)
        return made[link.outs.index(of)]

    def c_handle(self, h):
        of = h._object_fifo
        if not h._is_prod and h._user == "runtime":
            first = self._runtime_cons.setdefault(id(of), h)
            if first is not h:
                if first.depth != h.depth or first._dims != h._dims:
                    raise ValueError(
                        f"ObjectFifo '{of.name}': two different runtime consumers "
                        f"(depth {first.depth} and {h.depth}); drain it through one "
                        f"consumer handle")
                h = first
        return self._memo(self._handles, h, lambda: self._make_handle(h))

    def _make_handle(self, h):
        of = h._object_fifo
        f = self.c_fifo(of)
        ch = f.prod() if h._is_prod else f.cons()
        if h.depth != self._fifo_depth(of) and not (of._link is not None and h._is_prod
                                                    and of._link.kind != "join"):
            ch.set_depth(h.depth)
        dims = of.dims_to_stream if h._is_prod else h._dims
        if dims:
            ch.set_dims(dims[0], dims[1])
        return ch

    # -- kernels, buffers, barriers
    def c_kernel(self, k):
        return self._memo(self._kernels, k,
                          lambda: k._emit(self.d, self.sources_optional))

    def c_buffer(self, b):
        return self._memo(self._buffers, b, lambda: b._emit(self.d))

    def c_barrier(self, b):
        return self._memo(self._barriers, b, lambda: b._emit(self.d))

    def c_worker(self, w):
        return self._memo(self._workers, w,
                          lambda: w._emit(self.d, self, len(self._workers)))

    # -- the whole program
    def run(self):
        prog = self.program
        rt = prog.rt
        for w in prog.workers:
            self.c_worker(w)
        explicit_start = any(t[0] == "start" for t in rt._tasks)
        d = self.d
        for t in rt._tasks:
            kind = t[0]
            if kind == "start":
                d.rt_start(self.c_worker(t[1]))
            elif kind == "group":
                self._groups[id(t[1])] = d.task_group()
                self._keep.append(t[1])
            elif kind == "finish":
                d.task_group_finish(self._groups[id(t[1])])
            elif kind in ("fill", "drain"):
                self._transfer(*t)
            elif kind == "rtp":
                _, buf, index, value, where = t
                from .runtime import DispatchValue
                r = self.c_buffer(buf)
                if isinstance(value, DispatchValue):
                    d.rt_set_rtp_scalar(r, index, d.scalar_index(value.name))
                else:
                    d.rt_set_rtp(r, index, float(value))
            elif kind == "barrier":
                d.rt_set_barrier(self.c_barrier(t[1]), t[2])
        if not explicit_start and prog._workers is not None:
            for w in prog._workers:
                d.rt_start(self.c_worker(w))

    def _transfer(self, kind, handle, data, tap, group, wait, shim, offset_scalar, where):
        d = self.d
        if self._groups:   # with no group opened, every transfer is the sequence's
            d.task_group_use(self._groups[id(group)] if group is not None else None)
        ch = self.c_handle(handle)
        if shim is not None:
            ch.set_shim(shim)
        if offset_scalar is not None:
            idx = d.scalar_index(offset_scalar.name)
            tap = tap or (0, [data.numel], [1])
            if kind == "fill":
                d.rt_fill_offset_scalar(ch, data.index, tap, idx)
            else:
                d.rt_drain_offset_scalar(ch, data.index, tap, idx, wait)
        elif kind == "fill":
            d.rt_fill(ch, data.index, tap)
        else:
            d.rt_drain(ch, data.index, tap, wait)
