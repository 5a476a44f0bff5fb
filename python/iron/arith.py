# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Explicit arith ops on traced values (upstream's
`aie.extras.dialects.arith`): casts, constants, select, min / max.

A type is a core-body type name ("i16", from `T.i16()`), a numpy dtype
or scalar type (np.int16), or upstream's np_dtype_to_mlir_type of one."""
from __future__ import annotations

import numpy as np

from . import _trace
from ._trace import BodyTrace, Value, body_type_of, user_frame

__all__ = ["constant", "index_cast", "trunci", "extsi", "extui", "sitofp",
           "uitofp", "fptosi", "fptoui", "extf", "truncf", "bitcast", "select",
           "maxsi", "minsi", "maximumf", "minimumf"]

_NAMES = ("i1", "i8", "i16", "i32", "i64", "index", "bf16", "f32", "f64")


def body_type(t) -> str:
    if isinstance(t, str) and t in _NAMES:
        return t
    return body_type_of(t)[0]


def _tracer(what) -> BodyTrace:
    tr = _trace.current()
    if not isinstance(tr, BodyTrace):
        raise TypeError(f"arith.{what}: only inside a core function being traced "
                        f"(at {user_frame()})")
    return tr


def _value(tr, x, what) -> Value:
    if not isinstance(x, Value):
        raise TypeError(f"arith.{what}: expected a traced value, got "
                        f"{type(x).__name__} (at {user_frame()})")
    return x


def constant(value, type=None, *, index=False):
    tr = _tracer("constant")
    if index:
        t = "index"
    elif type is not None:
        t = body_type(type)
    else:
        t = "f32" if isinstance(value, float) else "i32"
    return tr.const(value, t)


def _cast(op):
    def cast(a, b=None, *, to=None):
        # Both upstream spellings: trunci(T.i16(), v) and index_cast(v, to=T).
        tr = _tracer(op)
        if to is not None:
            value, t = a, to
        elif isinstance(a, Value):
            value, t = a, b
        else:
            t, value = a, b
        if t is None:
            if op != "index_cast":
                raise TypeError(f"arith.{op}: no result type given")
            t = "index"
        v = _value(tr, value, op)
        rt = body_type(t)
        unsigned = rt != "index" and (isinstance(t, str) is False and
                                      np.dtype(t).kind == "u")
        return tr.cast(op, v, rt, unsigned)
    cast.__name__ = op
    cast.__doc__ = f"arith.{op}: the value converted to the given type."
    return cast


index_cast = _cast("index_cast")
trunci = _cast("trunci")
extsi = _cast("extsi")
extui = _cast("extui")
sitofp = _cast("sitofp")
uitofp = _cast("uitofp")
fptosi = _cast("fptosi")
fptoui = _cast("fptoui")
extf = _cast("extf")
truncf = _cast("truncf")
bitcast = _cast("bitcast")


def select(cond, a, b):
    return _tracer("select").select(cond, a, b)


def _binop(op):
    def f(a, b):
        tr = _tracer(op)
        a, b = tr._operands(op, a, b)
        return tr.arith(op, a, b)
    f.__name__ = op
    return f


maxsi = _binop("maxsi")
minsi = _binop("minsi")
maximumf = _binop("maximumf")
minimumf = _binop("minimumf")
