# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""`@iron.jit`: a design function called like a function.

    @iron.jit
    def vadd(a: In, b: In, c: Out, *, n: CompileTime[int], dtype: CompileTime[type]):
        ...
        return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()

    vadd(a, b, c, n=1024, dtype=np.int32)   # builds once per specialization
    vadd[2](a, b, c, n=1024, dtype=np.int32)   # launch configuration: 2 columns

- Tensors are the call's positional arguments, in the order of the
  runtime sequence.  A numpy array (or anything with __dlpack__ or the
  buffer protocol) is used in place, without a copy.
- Compile-time attributes are decorator keywords (`@iron.jit(n=1024)`) or
  `CompileTime[T]` parameters given by keyword (call values win); a
  non-tensor positional argument (the classic era's `transform(lambda a:
  a + 1, x, y)`) is compile-time too.  Each distinct set of them, with the
  tensors' shapes and dtypes, the device and the launch configuration, is
  one specialization, built on its first call and reused after.
- Dispatch-time scalars (`DispatchTime[int]` parameters, and the newest
  Runtime's scalar fn_args) are given by keyword at each call and never
  rebuild.
- Run-time attributes -- the device, caching -- are set outside the call:
  `iron.set_current_device`, `with iron.device(...)`, IRON_CACHE.

The library does the rest: this module runs the design function in
Python once per specialization (the program it returns is recorded) and
asks the library for the specialization, whose design function replays
the recording (program.Emitter).  Warm calls go from the key straight to
the library's specialization.
"""
from __future__ import annotations

import functools
import inspect
import os
import types as _pytypes
import typing

import numpy as np

from . import _iron
from ._tensor import as_tensor
from ._trace import dtype_name
from .program import Module, Program

_current_device = _iron.current_device
# The library's dtype name of a tensor (iron.Tensor's .dtype is numpy's).
_lib_dtype = _iron.Tensor.dtype.__get__

__all__ = ["jit", "CompileTime", "DispatchTime", "In", "Out", "InOut",
           "LaunchConfig", "JitFunction"]


class _Tag:
    __slots__ = ("kind",)

    def __init__(self, kind):
        self.kind = kind

    def __repr__(self):
        return self.kind


_COMPILE = _Tag("CompileTime")
_DISPATCH = _Tag("DispatchTime")
_T = typing.TypeVar("_T")
CompileTime = typing.Annotated[_T, _COMPILE]
DispatchTime = typing.Annotated[_T, _DISPATCH]


class In:
    """A tensor the call reads (host to device)."""


class Out:
    """A tensor the call writes (device to host)."""


class InOut:
    """A tensor the call reads and writes."""


_TENSOR_MARKS = (In, Out, InOut)
# Upstream's decorator configuration keys this package accepts and has no
# use for (compile_flags, include_paths, use_cache and cache_dir it reads).
_CONFIG_IGNORED = {"is_placed", "aiecc_flags", "object_files", "trace_config",
                   "full_elf", "source_files"}


class LaunchConfig:
    """How a call runs, apart from its tensors: columns, time limit,
    checked mode, trace file, profiling, host threads, and the timing
    model (timing: True models the NPU's time, reported in the jit's
    counters()["timing"]; clock_mhz: the clock its seconds are at)."""

    __slots__ = ("cols", "timeout_ms", "check", "trace", "profile", "threads",
                 "timing", "clock_mhz")

    def __init__(self, cols=0, timeout_ms=0, check=0, trace=None, profile=0, threads=0,
                 timing=0, clock_mhz=0.0):
        self.cols, self.timeout_ms, self.check = cols, timeout_ms, check
        self.trace, self.profile, self.threads = trace, profile, threads
        self.timing, self.clock_mhz = timing, clock_mhz

    def as_dict(self) -> dict:
        d = {k: getattr(self, k) for k in self.__slots__}
        if isinstance(d["check"], bool):
            d["check"] = 1 if d["check"] else -1
        for k in ("profile", "timing"):
            if isinstance(d[k], bool):
                d[k] = 1 if d[k] else -1
        if d["trace"] is None:
            del d["trace"]
        return d

    def key(self):
        return tuple(getattr(self, k) for k in self.__slots__)


def _config_of(config) -> LaunchConfig | None:
    if config is None or isinstance(config, LaunchConfig):
        return config
    if isinstance(config, bool):
        raise TypeError("launch configuration: expected a column count, a dict or "
                        "a LaunchConfig, got a bool")
    if isinstance(config, (int, np.integer)):
        return LaunchConfig(cols=int(config))
    if isinstance(config, dict):
        return LaunchConfig(**config)
    raise TypeError(f"launch configuration: expected a column count, a dict or a "
                    f"LaunchConfig, got {type(config).__name__}")


def _is_tensor(x) -> bool:
    if isinstance(x, (_iron.Tensor, np.ndarray)):
        return True
    return hasattr(x, "__dlpack__") or (hasattr(x, "shape") and hasattr(x, "dtype")
                                        and hasattr(x, "__array__"))


def _value_key(v):
    """A hashable stand-in for a compile-time value: equal values, equal
    keys; a function by its code and captured values (two lambdas with
    the same text and captures are one specialization)."""
    if isinstance(v, (int, float, str, bool, type(None), bytes)):
        return (type(v).__name__, v)
    if isinstance(v, np.dtype):
        return ("dtype", v.str, v.name)
    if isinstance(v, type):
        try:
            return ("dtype", np.dtype(v).name)
        except TypeError:
            return ("type", v.__module__, v.__qualname__)
    if isinstance(v, (np.integer, np.floating)):
        return (type(v).__name__, v.item())
    if isinstance(v, _pytypes.FunctionType):
        cells = tuple(_value_key(c.cell_contents) for c in (v.__closure__ or ()))
        return ("fn", v.__code__, tuple(_value_key(x) for x in (v.__defaults__ or ())),
                cells)
    if isinstance(v, (list, tuple)):
        return (type(v).__name__,) + tuple(_value_key(x) for x in v)
    if isinstance(v, dict):
        return ("dict",) + tuple(sorted((k, _value_key(x)) for k, x in v.items()))
    key = getattr(v, "_cache_key", None)
    if key is not None:
        return key()
    try:
        hash(v)
        return ("obj", type(v).__qualname__, v)
    except TypeError:
        return ("id", id(v))


class _Param:
    __slots__ = ("name", "kind", "default", "keyword_only")

    def __init__(self, name, kind, default, keyword_only):
        self.name, self.kind = name, kind
        self.default, self.keyword_only = default, keyword_only


@functools.lru_cache(maxsize=256)
def _classify(fn):
    """The design function's parameters: tensor (In/Out/InOut), compile
    (CompileTime), dispatch (DispatchTime), or None (decided per call:
    a tensor or a compile-time value)."""
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:
        hints = getattr(fn, "__annotations__", {})
    params = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            params.append(_Param(p.name, "varkw" if p.kind == p.VAR_KEYWORD else "var",
                                 None, False))
            continue
        h = hints.get(p.name, p.annotation)
        # In / Out / InOut mark tensors; their direction is the runtime
        # sequence's (fill / drain), which the library is told.
        kind = None
        if h in _TENSOR_MARKS:
            kind = "tensor"
        elif typing.get_origin(h) is typing.Annotated:
            meta = typing.get_args(h)[1:]
            if _COMPILE in meta:
                kind = "compile"
            elif _DISPATCH in meta:
                kind = "dispatch"
        params.append(_Param(p.name, kind, p.default, p.kind == p.KEYWORD_ONLY))
    return tuple(params)


class _Built:
    """One specialization: the library's, and what a warm call needs."""

    __slots__ = ("spec", "scalar_names", "jit", "params", "written", "module")

    def __init__(self, spec, scalar_names, cjit, params, written, module):
        self.spec, self.scalar_names, self.jit, self.params = spec, scalar_names, cjit, params
        self.written, self.module = written, module


class _Shared:
    """What a jit and the jits its specialize() made share: the program
    being built, which the library's design function (emit) replays.  The
    library's jits hold this object, not the Python jit, so that no cycle
    keeps a jit object (and its loaded kernels) alive after its last use."""

    __slots__ = ("pending", "name")

    def __init__(self, name):
        self.pending = None
        self.name = name

    def emit(self, d):
        module = self.pending
        if module is None:
            raise RuntimeError(f"{self.name}: the library asked for a design "
                               f"outside a build")
        module.emit(d)


class JitFunction:
    """What `@iron.jit` makes of a design function."""

    def __init__(self, fn, options: dict):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._params = _classify(fn)
        self._by_name = {p.name: p for p in self._params}
        self._positional = [p for p in self._params
                            if p.kind not in ("var", "varkw") and not p.keyword_only]
        self._varkw = any(p.kind == "varkw" for p in self._params)
        self._positional_rest = any(p.kind == "var" for p in self._params)
        self._bound = {}
        self._cflags = None
        self._include_paths = []
        self._disk_cache = 0
        self._cache_dir = None
        for k, v in options.items():
            if k == "compile_flags":
                self._cflags = " ".join(str(f) for f in v) if not isinstance(v, str) else v
            elif k == "include_paths":
                self._include_paths = [str(p) for p in v]
            elif k == "use_cache":
                self._disk_cache = 0 if v else -1
            elif k == "cache_dir":
                self._cache_dir = str(v)
            elif k in _CONFIG_IGNORED:
                pass
            else:
                p = self._by_name.get(k)
                if p is None and not any(q.kind == "varkw" for q in self._params):
                    raise TypeError(f"iron.jit: {k!r} is neither a parameter of "
                                    f"{fn.__name__}() nor a jit option")
                if p is not None and p.kind in ("tensor", "dispatch"):
                    raise TypeError(f"iron.jit: {k!r} is a {p.kind} parameter of "
                                    f"{fn.__name__}(); only compile-time values are "
                                    f"bound on the decorator")
                self._bound[k] = v
        self._bound_key = tuple(sorted((k, _value_key(v)) for k, v in self._bound.items()))
        self._built: dict = {}
        self._cjits: dict = {}
        self._artifacts: list = []
        self._shared = _Shared(fn.__name__)   # shared with specialize()'s jits
        # Upstream's in-memory table of compiled kernels, which programs
        # clear between variants; here clearing it drops nothing (the
        # specializations are the library's and the design is rebuilt
        # only when its key changes).
        self._kernel_cache: dict = {}
        self._last_jit = None
        self._renders: dict = {}
        self._calls = self._hits = 0

    def __repr__(self):
        return f"<iron.jit {self._fn.__name__}>"

    # -- calls
    def __getitem__(self, config):
        cfg = _config_of(config)
        return functools.partial(self._call, cfg)

    def __call__(self, *args, **kwargs):
        if not kwargs and self._all_tensor_params(args):
            # The warm path: tensors only -- one key, one lookup, one launch.
            key = (_current_device(), None,
                   tuple([(a.shape, _lib_dtype(a)) for a in args]), self._bound_key)
            built = self._built.get(key)
            if built is not None:
                self._hits += 1
                built.spec.launch(args, None)
                return None
        return self._call(None, *args, **kwargs)

    def _all_tensor_params(self, args) -> bool:
        if len(args) > len(self._positional) and not self._positional_rest:
            return False
        for a in args:
            if not isinstance(a, _iron.Tensor):
                return False
        return True

    def specialize(self, **compile_values) -> "JitFunction":
        """A jit with these compile-time values bound (upstream's
        specialize); call values still win."""
        other = JitFunction.__new__(JitFunction)
        other.__dict__.update(self.__dict__)
        other._bound = {**self._bound, **compile_values}
        other._bound_key = tuple(sorted((k, _value_key(v)) for k, v in other._bound.items()))
        # The tables are shared: their keys hold every bound value.
        return other

    def _placeholder_module(self, extra=None) -> Module:
        """The design built from compile-time values alone (bound, and
        `extra`), its tensor parameters placeholders."""
        from .device import granted_columns
        from .runtime import DispatchValue
        kwargs = {**self._bound, **(extra or {})}
        args = []
        for p in self._params:
            if p.kind in ("var", "varkw"):
                continue
            if p.kind == "dispatch":
                kwargs[p.name] = DispatchValue(p.name)
            elif p.kind == "tensor" and p.name not in kwargs:
                if p.keyword_only:
                    kwargs[p.name] = _TensorPlaceholder(p.name)
                else:
                    args.append(_TensorPlaceholder(p.name))
        with granted_columns(0):
            result = self._fn(*args, **kwargs)
        return _module_of(result, self._fn.__name__)

    def _declared_tensors(self, values):
        from ._tensor import Tensor
        module = self._placeholder_module(values)
        return [Tensor.empty(dtype_name(r.dtype), r.shape) for r in module.runtime_data]

    def as_mlir(self, generic: bool = False) -> str:
        """The design as MLIR-AIE, built from the compile-time values bound
        (specialize) alone -- upstream's as_mlir(), for designs whose
        shapes come from CompileTime values; a tensor parameter is a
        placeholder that knows its name and nothing else."""
        return self._placeholder_module().to_mlir(generic)

    def compile(self, *args, config=None, **kwargs) -> "Specialization":
        """Builds the specialization these arguments select, ahead of the
        first call (no run), and returns it.  Without tensors (upstream's
        `design.specialize(**values).compile()`), the tensors are the ones
        the design's runtime sequence declares, made empty; upstream's
        path keywords (xclbin_path=, inst_path=, ...) are accepted and
        unused: the emulator writes no xclbin."""
        for k in ("xclbin_path", "inst_path", "pdi_path", "elf_path", "full_elf_path"):
            kwargs.pop(k, None)
        cfg = _config_of(config)
        if not args and not any(_is_tensor(v) for v in kwargs.values()):
            args = tuple(self._declared_tensors(kwargs))
        tensors, key, values, scalars = self._split(args, kwargs, cfg)
        built = self._built.get(key) or self._build(key, tensors, values, cfg)
        return Specialization(self, built, tensors, cfg)

    def _split(self, args, kwargs, cfg):
        """(tensors, key, (positional values, keyword values), dispatch
        scalars) of a call.  Positional arguments are passed to the design
        function as given (tensors as library tensors); keywords are
        compile-time values, except dispatch-time scalars (DispatchTime
        parameters, or names that are no parameter of the function: the
        runtime sequence's scalars)."""
        positional = self._positional
        tensors, pos, keyparts = [], [], []
        for i, a in enumerate(args):
            p = positional[i] if i < len(positional) else None
            if p is not None and p.kind in ("compile", "dispatch"):
                raise TypeError(f"{self._fn.__name__}(): {p.kind}-time parameter "
                                f"{p.name!r} must be given by keyword")
            if (p is not None and p.kind == "tensor") or _is_tensor(a):
                # Read-only memory is taken for inputs; a call that writes it
                # is refused once the design says which arguments it writes.
                t = a if isinstance(a, _iron.Tensor) else as_tensor(
                    a, f"argument {len(tensors)}" + (f" ({p.name!r})" if p is not None else ""),
                    writable=False)
                tensors.append(t)
                pos.append(t)
                keyparts.append((t.shape, _lib_dtype(t)))
            else:
                pos.append(a)
                keyparts.append(_value_key(a))
        ct = dict(self._bound) if self._bound else {}
        scalars = None
        bound_only = True
        for k, v in kwargs.items():
            p = self._by_name.get(k)
            if (p is None and not self._varkw) or (p is not None and p.kind == "dispatch"):
                if scalars is None:
                    scalars = {}
                scalars[k] = v
            elif p is not None and p.kind == "tensor":
                raise TypeError(f"{self._fn.__name__}(): tensor parameter {k!r} must be "
                                f"given by position, in the order of the runtime "
                                f"sequence")
            else:
                ct[k] = v
                bound_only = False
        key = (_current_device(), cfg.key() if cfg else None, tuple(keyparts),
               self._bound_key if bound_only else
               tuple(sorted((k, _value_key(v)) for k, v in ct.items())))
        return tensors, key, (pos, ct), scalars

    def _call(self, cfg, *args, **kwargs):
        tensors, key, values, scalars = self._split(args, kwargs, cfg)
        built = self._built.get(key)
        if built is None:
            self._calls += 1
            built = self._build(key, tensors, values, cfg)
        else:
            self._hits += 1
        for i in built.written:
            if tensors[i].readonly:
                raise _iron.ArgumentError(
                    f"{self._fn.__name__}(): argument {i} is read-only memory, and the "
                    f"call writes it (the runtime sequence drains into it)")
        if scalars:
            unknown = [k for k in scalars if k not in built.scalar_names]
            if unknown:
                raise TypeError(
                    f"{self._fn.__name__}(): unexpected keyword argument(s) "
                    f"{', '.join(unknown)}: not a parameter of the design function, "
                    f"nor a dispatch-time scalar of its runtime sequence "
                    f"({', '.join(sorted(built.scalar_names)) or 'none'})")
            scalars = {k: int(v) for k, v in scalars.items()}
        built.spec.launch(tensors, scalars)

    # -- building a specialization
    def _build(self, key, tensors, values, cfg) -> _Built:
        from .device import device as scope, granted_columns
        from .runtime import DispatchValue
        pos, ct = values
        kwargs = dict(ct)
        for p in self._params:
            if p.kind == "dispatch":
                kwargs[p.name] = DispatchValue(p.name)
        # The design function sees the device the call will run on: with a
        # launch configuration granting fewer columns, that many (upstream's
        # designs size themselves by device.cols).
        if cfg and cfg.cols:
            dev = _iron.current_device()
            from .device import device_info
            full = device_info(dev)["columns"]
            if cfg.cols > full:
                raise _iron.ResourceError(
                    f"{self._fn.__name__}: the launch configuration asks for "
                    f"{cfg.cols} columns; device '{dev}' has {full}")
        with granted_columns(cfg.cols if cfg else 0):
            result = self._fn(*pos, **kwargs)
        module = _module_of(result, self._fn.__name__)
        _check_args(module, tensors, self._fn.__name__)
        names = [p.name for p in self._params if p.kind == "tensor"]
        decl = module.arg_decl(names if len(names) == len(tensors) else None)
        scalars = {s.name: None for s in module.dispatch_scalars}
        for p in self._params:
            if p.kind == "dispatch":
                scalars[p.name] = None if p.default is inspect.Parameter.empty else p.default
        sdecl = ", ".join(k if v is None else f"{k} = {int(v)}" for k, v in scalars.items())
        ckey = (decl, sdecl, module.device_name)
        cj = self._cjits.get(ckey)
        if cj is None:
            cj = _iron.Jit(self._shared.emit, name=self._fn.__name__, args=decl,
                           params="compile_time: str", scalars=sdecl or None,
                           cflags=self._cflags, disk_cache=self._disk_cache,
                           cache_dir=self._cache_dir)
            for path, sha in self._artifacts:
                cj.load_artifact(path, sha)
            self._cjits[ckey] = cj
        params = {"compile_time": self._render(pos, ct, tensors)}
        if module.program.trace_requested and not (cfg and cfg.trace) \
                and not os.environ.get("IRON_TRACE"):
            # A hardware trace request is answered with the emulator's trace.
            from ._notes import TRACE_FILE
            cfg = LaunchConfig(**{**(cfg.as_dict() if cfg else {}),
                                  "trace": os.path.abspath(TRACE_FILE)})
        self._shared.pending = module
        try:
            with scope(module.device_name):
                spec = cj.specialize(tensors, params,
                                     cfg.as_dict() if cfg else None)
        except _iron.Error as e:
            module.add_origins(e)
            raise
        finally:
            self._shared.pending = None
        written = tuple(r.index for r in module.runtime_data if r.writes)
        built = _Built(spec, frozenset(scalars), cj, params, written, module)
        self._built[key] = built
        self._last_jit = cj
        return built

    def _render(self, pos, ct, tensors) -> str:
        """The compile-time values as the library shows them in signatures
        and messages ("factor=5, dtype=int32"); one text per distinct set
        of values (a second set that reads the same gets "#2")."""
        ids = {id(t) for t in tensors}
        items = [(f"arg{i}", v) for i, v in enumerate(pos) if id(v) not in ids]
        items += sorted(ct.items())
        text = ", ".join(f"{k}={_show(v)}" for k, v in items)
        values = tuple((k, _value_key(v)) for k, v in items)
        seen = self._renders.setdefault(text, [])
        if values not in seen:
            seen.append(values)
        n = seen.index(values)
        return text if n == 0 else f"{text} #{n + 1}"

    # -- artifacts, counters
    def load_artifact(self, path, sha256=None):
        """Kernels compiled ahead of time (Specialization.save_artifact), used
        by later builds instead of the compiler."""
        path = str(path)
        # Checked now (a probe jit of the same name reads it), so that a bad
        # file fails here and not at some later build.
        _iron.Jit(_no_design, name=self._fn.__name__, args="in a").load_artifact(
            path, sha256)
        self._artifacts.append((path, sha256))
        for cj in self._cjits.values():
            cj.load_artifact(str(path), sha256)

    def counters(self) -> dict:
        if self._last_jit is None:
            raise _iron.StateError(f"{self._fn.__name__}: no call has run yet")
        return self._last_jit.counters()

    def stats(self) -> dict:
        """The library's counters (iron_jit_stats) summed over this jit's
        library jits; `calls` and `memory_hits` count the Python calls,
        which a warm call answers from the jit's own table."""
        total: dict = {}
        for cj in self._cjits.values():
            for k, v in cj.stats().items():
                if isinstance(v, (int, float)) and k != "last_build_ms":
                    total[k] = total.get(k, 0) + v
                else:
                    total[k] = v
        total["calls"] = self._calls + self._hits
        total["memory_hits"] = self._hits
        return total


class Specialization:
    """A built specialization (`design.compile(...)`): call it, save its
    kernels as an artifact, look at its design."""

    def __init__(self, jitfn, built, tensors, cfg):
        self._jitfn, self._built, self._tensors, self._cfg = jitfn, built, tensors, cfg

    @property
    def signature(self) -> str:
        return self._built.spec.signature

    def __call__(self, *tensors, **scalars):
        ts = [as_tensor(t, f"argument {i}") for i, t in enumerate(tensors)]
        self._built.spec.launch(ts, {k: int(v) for k, v in scalars.items()} or None)

    def _call_jit(self, method, *args, **kwargs):
        """A library jit call about this specialization, which may run the
        design function again (dumps and exports stop after placement and
        keep nothing): the recorded program is at hand for it."""
        from .device import device as scope
        shared = self._jitfn._shared
        built = self._built
        shared.pending = built.module
        try:
            with scope(built.module.device_name):
                return method(*args, self._tensors, built.params,
                              self._cfg.as_dict() if self._cfg else None, **kwargs)
        finally:
            shared.pending = None

    def save_artifact(self, path):
        self._call_jit(self._built.jit.save_artifact, str(path))

    def dump(self, format="text") -> str:
        return self._call_jit(self._built.jit.dump, format=format)

    def __iter__(self):
        """Unpacks as upstream's compile() result, (xclbin, insts): here the
        specialization itself and None -- the emulator writes neither file."""
        return iter((self, None))

    def __repr__(self):
        return f"<iron specialization {self.signature}>"

    def export_mlir(self, directory, upstream=None, generic=False):
        """Writes the specialization as an MLIR-AIE project into directory,
        in the syntax of upstream version `upstream` ("2025-04" ...
        "latest", the default)."""
        self._call_jit(self._built.jit.export_mlir, str(directory),
                       upstream=upstream, generic=generic)


class _TensorPlaceholder:
    """A tensor parameter of a design built without tensors (as_mlir)."""

    def __init__(self, name):
        self.name = name

    def __getattr__(self, attr):
        raise TypeError(f"tensor parameter {self.name!r}: as_mlir() builds the "
                        f"design without tensors, so .{attr} is unknown; read "
                        f"shapes from CompileTime values, or call the design "
                        f"with tensors")

    def __repr__(self):
        return f"<tensor parameter {self.name!r}>"


def _show(v) -> str:
    """A compile-time value as signatures show it."""
    if isinstance(v, (bool, int, float, str, type(None))):
        return repr(v)
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, type):
        try:
            return np.dtype(v).name
        except TypeError:
            return v.__qualname__
    if isinstance(v, _pytypes.FunctionType):
        code = v.__code__
        return f"<{v.__qualname__} at {code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}>"
    name = getattr(v, "name", None)
    if isinstance(name, str):
        return f"{type(v).__name__}({name!r})"
    return f"<{type(v).__name__}>"


def _no_design(d):
    raise AssertionError("a probe jit builds nothing")


def _module_of(result, name) -> Module:
    if isinstance(result, Module):
        return result
    if isinstance(result, Program):
        return result.resolve_program()
    raise TypeError(f"{name}(): a jit design function returns its program "
                    f"(`return Program(device, rt).resolve_program()`), got "
                    f"{type(result).__name__}")


def _check_args(module: Module, tensors, name):
    data = module.runtime_data
    if len(data) != len(tensors):
        raise _iron.ArgumentError(
            f"{name}(): the runtime sequence takes {len(data)} tensor(s) "
            f"({', '.join(f'{r.dtype.name}{list(r.shape)}' for r in data)}); the call "
            f"gave {len(tensors)}")
    for i, (r, t) in enumerate(zip(data, tensors)):
        got = _lib_dtype(t)
        want = dtype_name(r.dtype)
        if want != got or tuple(r.shape) != t.shape:
            if want == got and r.numel == t.size:
                continue   # the same elements seen with another shape
            raise _iron.ArgumentError(
                f"{name}(): argument {i}: the runtime sequence declares "
                f"{want}{list(r.shape)}, got {got}{list(t.shape)}")


def jit(function=None, /, **options):
    """`@iron.jit` or `@iron.jit(name=value, ...)` (compile-time values and
    options: compile_flags, include_paths, use_cache, cache_dir; upstream's
    is_placed, aiecc_flags, object_files, trace_config and source_files are
    accepted and have no use here)."""
    if function is None:
        return lambda f: JitFunction(f, options)
    if not callable(function):
        raise TypeError(f"iron.jit: expected a design function, got "
                        f"{type(function).__name__}")
    return JitFunction(function, options)
