# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Element types: numpy's dtypes and the library's names, both ways.

The binding speaks the library's names ("int32", "bfloat16"); programs
speak numpy (np.int32, np.dtype("float32"), "i32", ml_dtypes.bfloat16).
This module is the one place the two meet.  ``bfloat16`` is the numpy
scalar type the binding registers (iron._iron.bfloat16); a bfloat16 of
another library (ml_dtypes') maps to it, since both hold the same bits.
"""
import numpy as np

from . import _iron

bfloat16 = _iron.bfloat16

# The library's names in its order, and numpy's dtype for each.
_NAMES = tuple(_iron.dtype_names())
_TO_NUMPY = {name: np.dtype(bfloat16 if name == "bfloat16" else name)
             for name in _NAMES}
_FROM_NUMPY = {dt: name for name, dt in _TO_NUMPY.items()}

# Upstream IRON's short names (str_to_dtype / dtype_to_str), the ones its
# programs write; every other library name or alias is accepted too.
_SHORT = {"bf16": "bfloat16", "i8": "int8", "i16": "int16", "i32": "int32",
          "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32",
          "u64": "uint64", "f32": "float32", "f64": "float64"}
_SHORT_OF = {name: short for short, name in _SHORT.items()}


def _is_foreign_bfloat16(x):
    """True for another library's bfloat16 (ml_dtypes'): a type or dtype
    named bfloat16 that is not ours."""
    name = getattr(x, "__name__", None) if isinstance(x, type) else None
    if name is None and isinstance(x, np.dtype):
        name = x.name
    return name == "bfloat16" and x is not bfloat16 and \
        x != _TO_NUMPY["bfloat16"]


def to_numpy_dtype(x):
    """numpy's dtype for x: a np.dtype, a numpy scalar type (np.int32,
    bfloat16, ml_dtypes.bfloat16), a library name or alias ("int32",
    "i32", "bf16"), or any string numpy reads ("<f4").  TypeError when x
    has no dtype the library holds (the message names it)."""
    if isinstance(x, str):
        try:
            return _TO_NUMPY[_iron.dtype_name(x)]
        except _iron.DtypeError:
            pass
    if _is_foreign_bfloat16(x):
        return _TO_NUMPY["bfloat16"]
    try:
        dt = np.dtype(x)
    except TypeError:
        raise TypeError(f"dtype {x!r}: not a dtype (expected a numpy dtype "
                        f"or scalar type, or a name such as 'int32' or "
                        f"'bf16')") from None
    if _is_foreign_bfloat16(dt):
        return _TO_NUMPY["bfloat16"]
    if not dt.isnative:   # the name, not the layout: ">i4" is int32
        dt = dt.newbyteorder("=")
    if dt not in _FROM_NUMPY:
        raise TypeError(f"dtype {x!r} ({dt}): iron holds "
                        f"{', '.join(_NAMES)}")
    return dt


def to_iron_name(x):
    """The library's name ("int32") for anything to_numpy_dtype takes."""
    return _FROM_NUMPY[to_numpy_dtype(x)]


def str_to_dtype(dtype_str):
    """Upstream's str_to_dtype: "i32" -> np.int32, "bf16" -> bfloat16 (a
    numpy scalar type); every library name and alias is taken.
    ValueError for other strings."""
    try:
        return to_numpy_dtype(_iron.dtype_name(dtype_str)).type
    except (_iron.DtypeError, TypeError):
        raise ValueError(f"Unrecognized dtype: {dtype_str}") from None


def dtype_to_str(dtype):
    """Upstream's dtype_to_str: np.int32 -> "i32", bfloat16 -> "bf16"."""
    try:
        return _SHORT_OF[to_iron_name(dtype)]
    except TypeError:
        raise ValueError(f"Unrecognized dtype: {dtype}") from None
