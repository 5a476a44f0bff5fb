# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.helpers.util: reading upstream's array types,
np.ndarray[(shape...), np.dtype[T]]."""
import numpy as np


def _args(array_type, what):
    args = getattr(array_type, "__args__", None)
    if not args or len(args) != 2:
        raise TypeError(
            f"{what}: expected an array type np.ndarray[(shape...), "
            f"np.dtype[T]], got {array_type!r}")
    return args


def np_ndarray_type_get_shape(array_type):
    """The shape of np.ndarray[(shape...), np.dtype[T]], a tuple."""
    shape = _args(array_type, "np_ndarray_type_get_shape")[0]
    return tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)


def np_ndarray_type_get_dtype(array_type):
    """The element type T of np.ndarray[(shape...), np.dtype[T]]."""
    dtype = _args(array_type, "np_ndarray_type_get_dtype")[1]
    inner = getattr(dtype, "__args__", None)
    return inner[0] if inner else dtype


_MLIR_NAMES = {
    "int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16",
    "int32": "i32", "uint32": "i32", "int64": "i64", "uint64": "i64",
    "bfloat16": "bf16", "float32": "f32", "float64": "f64", "bool": "i1",
}


def np_dtype_to_mlir_type(dtype):
    """The traced type (iron.types) of a numpy element type, as
    arith.index_cast(i, to=...) takes it."""
    import iron.types as T
    name = np.dtype(dtype).name
    if name not in _MLIR_NAMES:
        raise TypeError(
            f"np_dtype_to_mlir_type: no MLIR type for {name}; expected one of "
            f"{', '.join(sorted(_MLIR_NAMES))}")
    return getattr(T, _MLIR_NAMES[name])()
