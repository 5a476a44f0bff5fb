# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Tracing Python core functions into the library's core-body IR.

As upstream traces a Worker's core_fn into MLIR, a core function here
runs once, at build time, with a body open in the library (an
`iron._iron.Body`): `range_` opens a loop, `acquire` / `release` become
FIFO ops, `buf[i]` loads and `buf[i] = v` stores, arithmetic on traced
values becomes arith ops, kernel calls become calls.  Python-level
`for` / `if` on Python values run at trace time: they unroll and
specialise.  The body, not this module, checks the ops and runs them.

Typing follows upstream's (mlir-python-extras) operators: a Python number
beside a traced value becomes a constant of the value's type; two traced
values must have one type, except that an index beside an integer is cast
to the integer's type; signedness comes from the element type the value
was loaded from (uint32 loads compare and divide unsigned); `//` is
floor division (integers only), `/` truncating division on integers.
Where upstream's operators have a known slip (`1 - x` traced as
`x - 1`), the arithmetic here is the written one; docs/python.md says so.
"""
from __future__ import annotations

import sys
import threading

import numpy as np

from . import _dtype

# --- the active trace ---------------------------------------------------------
# A stack per thread: the body being traced (BodyTrace), the runtime
# sequence being recorded (SequenceTrace), or nothing (plain Python).
_local = threading.local()


def current():
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


class _Active:
    """Context manager making a trace the active one on this thread."""

    def __init__(self, trace):
        self.trace = trace

    def __enter__(self):
        if not hasattr(_local, "stack"):
            _local.stack = []
        _local.stack.append(self.trace)
        return self.trace

    def __exit__(self, *exc):
        _local.stack.pop()
        return False


_HERE = __file__[: -len("_trace.py")]


def user_frame() -> str:
    """'file:line' of the innermost frame outside this package: where the
    user's program is, for messages about traced code.  (The package's
    own frames carry the absolute path it was imported from.)"""
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        if not name.startswith(_HERE):
            return f"{name}:{f.f_lineno}"
        f = f.f_back
    return "<unknown>"


# --- element types --------------------------------------------------------------

_INT_TYPES = ("i1", "i8", "i16", "i32", "i64", "index")
_FLOAT_TYPES = ("bf16", "f32", "f64")
_BODY_TYPE_OF_NAME = {
    "int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16",
    "int32": "i32", "uint32": "i32", "int64": "i64", "uint64": "i64",
    "float32": "f32", "float64": "f64", "bfloat16": "bf16", "bool": "i1",
}


_NAME_OF: dict = {}


def dtype_name(dt) -> str:
    """The library's name of a numpy dtype (or anything np.dtype accepts,
    or a library name such as "i32" / "bf16"): iron._dtype's mapping,
    remembered per value (a design names a few dtypes often)."""
    try:
        return _NAME_OF[dt]
    except (KeyError, TypeError):
        pass
    unsupported = getattr(dt, "__iron_unsupported__", None)
    if unsupported:
        raise NotImplementedError(f"{unsupported} (at {user_frame()})")
    name = _dtype.to_iron_name(dt)
    try:
        _NAME_OF[dt] = name
    except TypeError:
        pass
    return name


def body_type_of(dt) -> tuple[str, bool]:
    """(body type, unsigned) of an element dtype."""
    name = dtype_name(dt)
    try:
        return _BODY_TYPE_OF_NAME[name], name.startswith("uint")
    except KeyError:
        raise TypeError(f"element type {name} has no core-body type "
                        f"(expected one of {', '.join(_BODY_TYPE_OF_NAME)})") from None


_ARRAY_TYPES: dict = {}


def array_type(t) -> tuple[tuple[int, ...], np.dtype]:
    """(shape, dtype) of an upstream tensor type `np.ndarray[(N, M),
    np.dtype[np.int32]]` (remembered: a design names a few types often)."""
    try:
        return _ARRAY_TYPES[t]
    except (KeyError, TypeError):
        pass
    r = _parse_array_type(t)
    try:
        if len(_ARRAY_TYPES) < 4096:
            _ARRAY_TYPES[t] = r
    except TypeError:
        pass
    return r


def _parse_array_type(t):
    args = getattr(t, "__args__", None)
    if getattr(t, "__origin__", None) is not np.ndarray or not args or len(args) != 2:
        raise TypeError(f"expected a tensor type np.ndarray[(shape,), "
                        f"np.dtype[T]], got {t!r}")
    shape, dt = args
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    shape = tuple(int(s) for s in shape)
    inner = getattr(dt, "__args__", None)
    elem = inner[0] if inner else dt
    unsupported = getattr(elem, "__iron_unsupported__", None)
    if unsupported:
        raise NotImplementedError(f"{unsupported} (at {user_frame()})")
    return shape, np.dtype(elem)


def is_array_type(t) -> bool:
    return getattr(t, "__origin__", None) is np.ndarray


# --- traced values -------------------------------------------------------------

def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) \
        or isinstance(x, (bool, np.bool_))


class Value:
    """A scalar value of a body being traced (an SSA value)."""

    __slots__ = ("tr", "id", "type", "unsigned")

    def __init__(self, tr, vid: int, vtype: str, unsigned: bool = False):
        self.tr, self.id, self.type, self.unsigned = tr, vid, vtype, unsigned

    def __repr__(self) -> str:
        return f"<traced {'u' if self.unsigned else ''}{self.type} value %{self.id}>"

    # A traced value has no Python truth value or integer value: the
    # condition is only known when the body runs.
    def __bool__(self):
        raise TypeError(
            f"a traced value ({self.type}) has no truth value while the design "
            f"is traced: a Python `if`/`while`/`and`/`or` on it cannot be "
            f"recorded; use `with if_(cond):` (and `else_`) from "
            f"aie.iron.controlflow / aie.helpers.dialects.scf instead "
            f"(at {user_frame()})")

    def __index__(self):
        raise TypeError(
            f"a traced value ({self.type}) is not a Python int while the design "
            f"is traced; use it in traced arithmetic, as an index, or as a "
            f"`range_` bound (at {user_frame()})")

    __int__ = __index__

    def __float__(self):
        raise TypeError(f"a traced value ({self.type}) is not a Python float "
                        f"while the design is traced (at {user_frame()})")

    __hash__ = object.__hash__

    # arithmetic
    def __add__(self, o): return self.tr.binary("add", self, o)
    def __radd__(self, o): return self.tr.binary("add", o, self)
    def __sub__(self, o): return self.tr.binary("sub", self, o)
    def __rsub__(self, o): return self.tr.binary("sub", o, self)
    def __mul__(self, o): return self.tr.binary("mul", self, o)
    def __rmul__(self, o): return self.tr.binary("mul", o, self)
    def __truediv__(self, o): return self.tr.binary("div", self, o)
    def __rtruediv__(self, o): return self.tr.binary("div", o, self)
    def __floordiv__(self, o): return self.tr.binary("floordiv", self, o)
    def __rfloordiv__(self, o): return self.tr.binary("floordiv", o, self)
    def __mod__(self, o): return self.tr.binary("mod", self, o)
    def __rmod__(self, o): return self.tr.binary("mod", o, self)
    def __and__(self, o): return self.tr.binary("and", self, o)
    def __rand__(self, o): return self.tr.binary("and", o, self)
    def __or__(self, o): return self.tr.binary("or", self, o)
    def __ror__(self, o): return self.tr.binary("or", o, self)
    def __xor__(self, o): return self.tr.binary("xor", self, o)
    def __rxor__(self, o): return self.tr.binary("xor", o, self)
    def __lshift__(self, o): return self.tr.binary("shl", self, o)
    def __rshift__(self, o): return self.tr.binary("shr", self, o)
    def __neg__(self): return self.tr.negate(self)
    def __pos__(self): return self

    # comparisons (i1 results)
    def __eq__(self, o): return self.tr.compare("eq", self, o)
    def __ne__(self, o): return self.tr.compare("ne", self, o)
    def __lt__(self, o): return self.tr.compare("lt", self, o)
    def __le__(self, o): return self.tr.compare("le", self, o)
    def __gt__(self, o): return self.tr.compare("gt", self, o)
    def __ge__(self, o): return self.tr.compare("ge", self, o)


class MemRef:
    """An object, acquired from a FIFO, or a buffer, inside a traced body:
    `m[i]` loads an element, `m[i] = v` stores one; tuples index N-D.
    `flat_shape` is set when the library sees the memory as 1-D (buffers)
    while the program indexes it N-D."""

    __slots__ = ("tr", "id", "shape", "dtype", "elem_type", "unsigned", "flat", "what")

    def __init__(self, tr, vid, shape, dtype, what, flat=False):
        self.tr, self.id, self.shape, self.dtype = tr, vid, tuple(shape), np.dtype(dtype)
        self.elem_type, self.unsigned = body_type_of(self.dtype)
        self.flat, self.what = flat, what

    def __repr__(self):
        return f"<traced {self.what}: {self.dtype.name}{list(self.shape)}>"

    def __len__(self):
        return self.shape[0]

    def numel(self) -> int:
        return int(np.prod(self.shape))

    def __bool__(self):
        return True

    def _indices(self, idx) -> list[int]:
        if not isinstance(idx, tuple):
            idx = (idx,)
        if len(idx) != len(self.shape):
            raise IndexError(f"{self.what}: {len(idx)} indices for a "
                             f"{len(self.shape)}-D {self.dtype.name}{list(self.shape)} "
                             f"(at {user_frame()})")
        for k, (i, n) in enumerate(zip(idx, self.shape)):
            if isinstance(i, slice):
                raise NotImplementedError(
                    f"{self.what}: slices of a traced object are not supported; "
                    f"index one element at a time (at {user_frame()})")
            if _is_number(i) and not isinstance(i, (float, np.floating)) and not 0 <= int(i) < n:
                raise IndexError(f"{self.what}: index {int(i)} of dimension {k} is "
                                 f"outside 0..{n - 1} (at {user_frame()})")
        tr = self.tr
        vals = [tr.to_index(i, f"{self.what} index") for i in idx]
        if self.flat and len(vals) > 1:
            strides = [int(np.prod(self.shape[k + 1:])) for k in range(len(self.shape))]
            lin = None
            for v, s in zip(vals, strides):
                term = v if s == 1 else tr.arith("muli", v, tr.const(s, "index"))
                lin = term if lin is None else tr.arith("addi", lin, term)
            vals = [lin]
        return [v.id for v in vals]

    def __getitem__(self, idx):
        ids = self._indices(idx)
        tr = self.tr
        tr.flush()
        return Value(tr, tr.body.load(self.id, ids), self.elem_type, self.unsigned)

    def __setitem__(self, idx, v):
        ids = self._indices(idx)
        tr = self.tr
        val = tr.coerce_to(v, self.elem_type, f"the value stored into {self.what}",
                           unsigned=self.unsigned)
        tr.flush()
        tr.body.store(val.id, self.id, ids)


# --- a body being traced -----------------------------------------------------------

_BINARY_INT = {"add": "addi", "sub": "subi", "mul": "muli", "and": "andi",
               "or": "ori", "xor": "xori", "shl": "shli"}
_BINARY_FLOAT = {"add": "addf", "sub": "subf", "mul": "mulf", "div": "divf"}
_CMP_INT = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
_CMP_UINT = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}
_CMP_FLOAT = {"eq": "oeq", "ne": "one", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
_PY_OP = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//",
          "mod": "%", "and": "&", "or": "|", "xor": "^", "shl": "<<", "shr": ">>"}


class BodyTrace:
    """The body of one worker while its core function is traced.

    `emitter` (program.Emitter) maps the program's objects (FIFO handles,
    kernels, buffers, barriers) to the library's; this class maps them
    to the body's values, each once."""

    def __init__(self, body, emitter, worker_name: str):
        self.body = body
        self.emitter = emitter
        self.worker = worker_name
        self._names: dict[int, int] = {}     # id(object) -> body value
        self._keep = []                      # objects whose id() is used
        self._pending_if = None              # an if whose `with` ended

    # -- values of the design's objects
    def _named(self, obj, make):
        key = id(obj)
        v = self._names.get(key)
        if v is None:
            v = make()
            self._names[key] = v
            self._keep.append(obj)
        return v

    def fifo_value(self, handle) -> int:
        return self._named(handle, lambda: self.body.fifo(self.emitter.c_handle(handle)))

    def kernel_value(self, kernel) -> int:
        return self._named(kernel, lambda: self.body.kernel(self.emitter.c_kernel(kernel)))

    def buffer_value(self, buf) -> int:
        return self._named(buf, lambda: self.body.rtp(self.emitter.c_buffer(buf)))

    def barrier_value(self, barrier) -> int:
        return self._named(barrier, lambda: self.body.barrier(self.emitter.c_barrier(barrier)))

    # -- scf.if closing (see controlflow.if_)
    def flush(self):
        """Closes an if whose `with` block ended and no `else_` followed."""
        if self._pending_if is not None:
            self._pending_if = None
            self.body.end_if()

    # -- constants and conversions
    def const(self, v, vtype: str, unsigned=False) -> Value:
        self.flush()
        if vtype in _FLOAT_TYPES:
            return Value(self, self.body.const_float(vtype, float(v)), vtype)
        iv = int(v)
        if vtype == "i1":
            iv = 1 if iv else 0
        return Value(self, self.body.const_int(vtype, iv), vtype, unsigned)

    def coerce_to(self, x, vtype: str, what: str, unsigned=False) -> Value:
        if isinstance(x, Value):
            if x.tr is not self:
                raise ValueError(f"{what}: a value traced in another body")
            if x.type == vtype:
                return x
            if x.type == "index" and vtype in _INT_TYPES:
                return self.cast("index_cast", x, vtype)
            if vtype == "index" and x.type in _INT_TYPES:
                return self.cast("index_cast", x, "index")
            raise TypeError(f"{what}: expected a {vtype} value, got {x.type}; "
                            f"convert it explicitly (arith.extsi / trunci / "
                            f"sitofp / index_cast) (at {user_frame()})")
        if isinstance(x, (bool, np.bool_)):
            return self.const(int(x), vtype, unsigned)
        if isinstance(x, (int, np.integer)):
            return self.const(int(x), vtype, unsigned)
        if isinstance(x, (float, np.floating)):
            if vtype not in _FLOAT_TYPES:
                raise TypeError(f"{what}: a Python float ({x!r}) where a {vtype} "
                                f"integer is expected (at {user_frame()})")
            return self.const(float(x), vtype)
        raise TypeError(f"{what}: expected a number or a traced value, got "
                        f"{type(x).__name__} (at {user_frame()})")

    def to_index(self, x, what: str) -> Value:
        if isinstance(x, (float, np.floating)):
            raise TypeError(f"{what}: expected an integer, got the float {x!r} "
                            f"(at {user_frame()})")
        if isinstance(x, Value) and x.type in _FLOAT_TYPES:
            raise TypeError(f"{what}: expected an integer or index value, got a "
                            f"{x.type} value (at {user_frame()})")
        return self.coerce_to(x, "index", what)

    def cast(self, op: str, x: Value, to: str, unsigned=None) -> Value:
        self.flush()
        return Value(self, self.body.cast(op, x.id, to), to,
                     x.unsigned if unsigned is None else unsigned)

    def arith(self, op: str, x: Value, y: Value | None = None) -> Value:
        self.flush()
        v = self.body.arith(op, x.id, None if y is None else y.id)
        return Value(self, v, x.type, x.unsigned)

    # -- Python operators
    def _operands(self, op: str, a, b):
        if isinstance(a, Value) and isinstance(b, Value):
            if a.type != b.type:
                if a.type == "index" and b.type in _INT_TYPES:
                    a = self.cast("index_cast", a, b.type, b.unsigned)
                elif b.type == "index" and a.type in _INT_TYPES:
                    b = self.cast("index_cast", b, a.type, a.unsigned)
                else:
                    raise TypeError(
                        f"`{_PY_OP.get(op, op)}` on a {a.type} and a {b.type} value: "
                        f"the operands must have one type; convert one "
                        f"(arith.extsi / trunci / sitofp / index_cast) "
                        f"(at {user_frame()})")
            return a, b
        if isinstance(a, Value):
            return a, self.coerce_to(b, a.type, f"`{_PY_OP.get(op, op)}` operand", a.unsigned)
        return self.coerce_to(a, b.type, f"`{_PY_OP.get(op, op)}` operand", b.unsigned), b

    def binary(self, op: str, a, b) -> Value:
        a, b = self._operands(op, a, b)
        t, unsigned = a.type, a.unsigned or b.unsigned
        if t in _FLOAT_TYPES:
            name = _BINARY_FLOAT.get(op)
            if name is None:
                if op == "floordiv":
                    raise TypeError(f"`//` on {t} values: floor division is for "
                                    f"integers (upstream raises too); use `/` "
                                    f"(at {user_frame()})")
                raise NotImplementedError(f"`{_PY_OP[op]}` on {t} values is not "
                                          f"supported (at {user_frame()})")
        elif op == "div":
            name = "divui" if unsigned else "divsi"
        elif op == "floordiv":
            name = "divui" if unsigned else "floordivsi"
        elif op == "mod":
            name = "remui" if unsigned else "remsi"
        elif op == "shr":
            name = "shrui" if unsigned else "shrsi"
        else:
            name = _BINARY_INT[op]
        r = self.arith(name, a, b)
        r.unsigned = unsigned
        return r

    def negate(self, a: Value) -> Value:
        if a.type in _FLOAT_TYPES:
            return self.arith("negf", a)
        return self.binary("sub", self.const(0, a.type, a.unsigned), a)

    def compare(self, op: str, a, b) -> Value:
        a, b = self._operands(op, a, b)
        if a.type in _FLOAT_TYPES:
            pred = _CMP_FLOAT[op]
        else:
            pred = (_CMP_UINT if (a.unsigned or b.unsigned) else _CMP_INT)[op]
        self.flush()
        return Value(self, self.body.cmp(pred, a.id, b.id), "i1")

    def select(self, c, x, y) -> Value:
        c = self.coerce_to(c, "i1", "select condition")
        x, y = self._operands("select", x, y)
        self.flush()
        return Value(self, self.body.select(c.id, x.id, y.id), x.type, x.unsigned)

    # -- FIFO ops
    def acquire(self, handle, n: int):
        fv = self.fifo_value(handle)
        self.flush()
        acq = self.body.acquire(fv, n)
        shape, dt = handle.shape, handle.dtype
        objs = [MemRef(self, self.body.object(acq, i), shape, dt,
                       f"object {i} of fifo '{handle.name}'") for i in range(n)]
        return objs[0] if n == 1 else objs

    def release(self, handle, n: int):
        fv = self.fifo_value(handle)
        self.flush()
        self.body.release(fv, n)

    def call(self, kernel, args):
        kv = self.kernel_value(kernel)
        types = kernel.arg_type_names()
        if len(args) != len(types):
            raise TypeError(f"kernel '{kernel.name}' takes {len(types)} arguments "
                            f"({', '.join(types)}), got {len(args)} (at {user_frame()})")
        ids = []
        for k, (a, t) in enumerate(zip(args, types)):
            what = f"kernel '{kernel.name}' argument {k}"
            if t.endswith("*"):
                if isinstance(a, MemRef):
                    ids.append(a.id)
                    continue
                from .buffer import Buffer
                if isinstance(a, Buffer):
                    ids.append(self.buffer_value(a))
                    continue
                raise TypeError(f"{what}: expected an acquired object or a buffer "
                                f"({t}), got {type(a).__name__} (at {user_frame()})")
            vt, uns = body_type_of(t)
            ids.append(self.coerce_to(a, vt, what, uns).id)
        self.flush()
        self.body.call(kv, ids)


class SequenceTrace:
    """The runtime sequence being recorded: buffer writes (`rtp[i] = v` in
    `inline_ops`) and barrier sets go to the sequence, in order."""

    def __init__(self, emitter):
        self.emitter = emitter


def activate(trace):
    return _Active(trace)
