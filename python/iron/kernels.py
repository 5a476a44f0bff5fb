# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kernel factories: upstream's `aie.iron.kernels`, each returning an
ExternalFunction for one of upstream's AIE kernels.

    relu = kernels.relu()                         # bf16_relu on 1024 bf16
    copy = kernels.passthrough(tile_size=256, dtype=np.uint8)
    algorithms.transform(copy, np.ndarray[(4096,), np.dtype[np.uint8]], tile_size=256)

Upstream's kernels are C++ on the AIE API; the ones here are C ports of
them (the files under kernels_src/, named as upstream's sources), with the
same entry names and argument types and the results upstream's scalar
arithmetic gives.  A factory whose kernel has no C port raises
NotImplementedError (upstream's C++ source itself compiles with
ExternalFunction(source_file=...)).  The same factory call twice gives the same object,
so a design that asks twice compiles the kernel once.
"""
from __future__ import annotations

import os

import numpy as np

from . import _iron
from .kernel import ExternalFunction

__all__ = [
    "passthrough", "scale", "add", "mul", "relu",
    "reduce_add", "reduce_min", "reduce_max", "compute_max",
    "mm", "mv", "cascade_mm",
    "rgba2hue", "threshold", "bitwise_or", "bitwise_and", "gray2rgba",
    "rgba2gray", "filter2d", "add_weighted",
    "softmax", "gelu", "silu", "swiglu", "bf16_exp",
    "relu_ref", "silu_ref", "gelu_ref", "bf16_exp_ref", "softmax_ref",
    "conv2dk1", "conv2dk3", "conv2dk1_skip", "conv2dk1_i8", "conv2dk14",
    "conv2dk1_skip_init", "bn_conv2dk1_relu", "bn_conv2dk3", "bn_conv2dk1_i8",
    "bn_conv2dk1_skip", "bn_conv2dk3_dw", "bn_conv2dk1_relu_xy_pool_padded",
    "bn_fc_relu_ui16_pad", "bn_conv2dk1_partial_put_i8",
    "bn_conv2dk1_partial_get_relu_i8", "bn_conv2dk3_dw_out_split",
    "bn_conv2dk1_input_split_partial_put_ui8",
    "bn_conv2dk1_input_split_partial_skip_get",
    "source_dir",
]

bfloat16 = _iron.bfloat16

_SRC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_src")


def source_dir() -> str:
    """The folder of the kernels' C sources (usable as a `--kernels` folder)."""
    return _SRC_DIR


# --- helpers ----------------------------------------------------------------------

def _dt(dtype, factory: str, what: str = "dtype") -> np.dtype:
    try:
        return np.dtype(dtype)
    except TypeError:
        pass
    try:
        from ._dtype import to_numpy_dtype
        return np.dtype(to_numpy_dtype(dtype))
    except (ImportError, TypeError, ValueError):
        raise TypeError(f"{factory}(): {what} must be a numpy dtype or scalar type, "
                        f"got {dtype!r}") from None


_BF16 = np.dtype(bfloat16)
_BIT_WIDTH = {np.dtype(np.uint8): 8, np.dtype(np.int16): 16, np.dtype(np.int32): 32}


def _size(v, factory: str, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"{factory}(): {what} must be a positive int, got {v!r}")
    return int(v)


def _fixed(factory: str, tile_size, expected: int = 1024) -> int:
    n = _size(tile_size, factory, "tile_size")
    if n != expected:
        raise ValueError(f"{factory}(): tile_size must be {expected}, the size the "
                         f"kernel is written for; got {n}")
    return n


def _bit_width(dtype, factory: str) -> int:
    bw = _BIT_WIDTH.get(_dt(dtype, factory))
    if bw is None:
        raise ValueError(f"{factory}(): dtype must be np.uint8, np.int16 or np.int32, "
                         f"got {_dt(dtype, factory).name}")
    return bw


def _tile(n: int, dtype):
    return np.ndarray[(n,), np.dtype[dtype]]


def _key(t):
    args = getattr(t, "__args__", None)
    if args and len(args) == 2:
        inner = getattr(args[1], "__args__", None)
        return ("tensor", tuple(args[0]) if isinstance(args[0], tuple) else args[0],
                np.dtype(inner[0] if inner else args[1]).name)
    return ("scalar", np.dtype(t).name)


_CACHE: dict = {}


def _extern(entry: str, source: str, arg_types, flags=()) -> ExternalFunction:
    """The ExternalFunction of `entry` in kernels_src/`source`, one per
    distinct (entry, source, argument types, flags)."""
    key = (entry, source, tuple(_key(t) for t in arg_types), tuple(flags))
    ef = _CACHE.get(key)
    if ef is None:
        ef = ExternalFunction(entry, source_file=os.path.join(_SRC_DIR, source),
                              arg_types=list(arg_types), compile_flags=list(flags))
        _CACHE[key] = ef
    return ef


def _arch() -> str:
    """"aie2" (npu1 devices) or "aie2p" (npu2): the current device's."""
    from .device import get_current_device
    return get_current_device().arch


def _min_dma_elems(dtype) -> int:
    """The fewest elements of dtype making whole 4-byte words, which the
    shim's DMA moves: a one-value output of bfloat16 is 2 elements."""
    size = np.dtype(dtype).itemsize
    return max(1, (4 + size - 1) // size)


# --- element-wise -----------------------------------------------------------------

def passthrough(tile_size: int = 4096, dtype=np.int32) -> ExternalFunction:
    """passThroughLine(in, out, n): copies a line of tile_size elements of
    uint8, int16 or int32."""
    bw = _bit_width(dtype, "passthrough")
    t = _tile(_size(tile_size, "passthrough", "tile_size"), _dt(dtype, "passthrough"))
    return _extern("passThroughLine", "passThrough.c", [t, t, np.int32],
                   [f"-DBIT_WIDTH={bw}"])


def scale(tile_size: int = 1024, dtype=np.int32, vectorized: bool = True,
          use_chess: bool = False) -> ExternalFunction:
    """vector_scalar_mul_vector / _scalar(in, out, factor, n): out = in *
    factor[0] on int16 or int32, the factor a one-element int32 tensor.
    use_chess (the AIE compiler to use) has no meaning here."""
    d = _dt(dtype, "scale")
    if d not in (np.dtype(np.int16), np.dtype(np.int32)):
        raise ValueError(f"scale(): dtype must be np.int16 or np.int32, got {d.name}")
    t = _tile(_size(tile_size, "scale", "tile_size"), d)
    return _extern(f"vector_scalar_mul_{'vector' if vectorized else 'scalar'}",
                   "scale.c", [t, t, _tile(1, np.int32), np.int32],
                   [f"-DBIT_WIDTH={d.itemsize * 8}"])


def _eltwise_bf16(op: str, tile_size, dtype, vectorized) -> ExternalFunction:
    n = _fixed(op, tile_size)
    if _dt(dtype, op) != _BF16:
        raise ValueError(f"{op}(): dtype must be bfloat16 (the kernel's only "
                         f"variant), got {_dt(dtype, op).name}")
    t = _tile(n, bfloat16)
    return _extern(f"eltwise_{op}_bf16_{'vector' if vectorized else 'scalar'}",
                   f"{op}.c", [t, t, t])


def add(tile_size: int = 1024, dtype=bfloat16, vectorized: bool = True) -> ExternalFunction:
    """eltwise_add_bf16_vector / _scalar(a, b, c): c = a + b on 1024 bfloat16."""
    return _eltwise_bf16("add", tile_size, dtype, vectorized)


def mul(tile_size: int = 1024, dtype=bfloat16, vectorized: bool = True) -> ExternalFunction:
    """eltwise_mul_bf16_vector / _scalar(a, b, c): c = a * b on 1024 bfloat16."""
    return _eltwise_bf16("mul", tile_size, dtype, vectorized)


def relu(tile_size: int = 1024) -> ExternalFunction:
    """bf16_relu(in, out): out = max(in, 0) on 1024 bfloat16."""
    t = _tile(_fixed("relu", tile_size), bfloat16)
    return _extern("bf16_relu", "relu.c", [t, t])


# --- reductions -------------------------------------------------------------------

def _reduce(op: str, tile_size, dtype, vectorized) -> ExternalFunction:
    factory = f"reduce_{op}"
    if _dt(dtype, factory) != np.dtype(np.int32):
        raise ValueError(f"{factory}(): dtype must be np.int32 (the kernel's only "
                         f"variant), got {_dt(dtype, factory).name}")
    n = _size(tile_size, factory, "tile_size")
    return _extern(f"{factory}_{'vector' if vectorized else 'scalar'}", f"{factory}.c",
                   [_tile(n, np.int32), _tile(_min_dma_elems(np.int32), np.int32),
                    np.int32])


def reduce_add(tile_size: int = 1024, dtype=np.int32,
               vectorized: bool = True) -> ExternalFunction:
    """reduce_add_vector / _scalar(in, out, n): out[0] = sum(in[:n]) (int32,
    wrapping)."""
    return _reduce("add", tile_size, dtype, vectorized)


def reduce_min(tile_size: int = 1024, dtype=np.int32,
               vectorized: bool = True) -> ExternalFunction:
    """reduce_min_vector / _scalar(in, out, n): out[0] = min(in[:n]) (int32)."""
    return _reduce("min", tile_size, dtype, vectorized)


def _max_dtype(dtype, factory: str) -> np.dtype:
    d = _dt(dtype, factory)
    if d not in (np.dtype(np.int32), _BF16):
        raise ValueError(f"{factory}(): dtype must be np.int32 or bfloat16, got {d.name}")
    return d


def reduce_max(tile_size: int = 1024, dtype=np.int32,
               vectorized: bool = True) -> ExternalFunction:
    """reduce_max_vector / _scalar[_bfloat16](in, out, n): out[0] =
    max(in[:n]) on int32 or bfloat16 (whose output tile has 2 elements,
    one 4-byte word)."""
    d = _max_dtype(dtype, "reduce_max")
    n = _size(tile_size, "reduce_max", "tile_size")
    suffix = "_bfloat16" if d == _BF16 else ""
    return _extern(f"reduce_max_{'vector' if vectorized else 'scalar'}{suffix}",
                   "reduce_max.c",
                   [_tile(n, d), _tile(_min_dma_elems(d), d), np.int32])


def compute_max(dtype=np.int32) -> ExternalFunction:
    """compute_max[_bfloat16](a, b, c): c[0] = max(a[0], b[0]), to combine
    partial maxima."""
    d = _max_dtype(dtype, "compute_max")
    t = _tile(_min_dma_elems(d), d)
    return _extern(f"compute_max{'_bfloat16' if d == _BF16 else ''}", "reduce_max.c",
                   [t, t, t])


# --- linear algebra -------------------------------------------------------------------

_MM_NAMES = {np.dtype(np.int8): "i8", np.dtype(np.int16): "i16",
             np.dtype(np.int32): "i32", np.dtype(np.float32): "f32", _BF16: "bf16"}
_MM_COMBOS = [("i8", "i8"), ("i8", "i16"), ("i8", "i32"), ("i16", "i16"),
              ("i16", "i32"), ("bf16", "bf16"), ("bf16", "f32")]
# The micro-tile (r, s, t) of the blocked layouts per architecture and input
# type, as upstream's kernels are built (its mac_dims).
_MM_MAC_DIMS = {
    "aie2": {"i8": (4, 8, 8), "i16": (4, 4, 4), "bf16": (4, 8, 4)},
    "aie2p": {"i8": (8, 8, 8), "i16": (4, 4, 8), "bf16": (4, 8, 8)},
}


def mm(dim_m: int = 64, dim_k: int = 64, dim_n: int = 64, input_dtype=np.int16,
       output_dtype=np.int16, vectorized: bool = True, b_col_maj: bool = False,
       c_col_maj: bool = False, use_chess: bool = False,
       emulate_bf16_mmul_with_bfp16: bool = False) -> ExternalFunction:
    """matmul_<in>_<out>(A, B, C): C += A * B on a dim_m x dim_k by dim_k x
    dim_n tile.  Vectorized, the tiles are in the blocked layout of the
    micro-tile `.mac_dims` (r, s, t); scalar (matmul_scalar_...), they are
    row-major (B, C column-major with b_col_maj / c_col_maj).  `.zero` is
    the kernel that zeroes C.  Integer types (int8, int16 in; int8, int16,
    int32 out) are ported; the bfloat16 ones are not."""
    i_name = _MM_NAMES.get(_dt(input_dtype, "mm", "input_dtype"))
    o_name = _MM_NAMES.get(_dt(output_dtype, "mm", "output_dtype"))
    if (i_name, o_name) not in _MM_COMBOS:
        raise ValueError(f"mm(): (input_dtype, output_dtype) = "
                         f"({_dt(input_dtype, 'mm').name}, {_dt(output_dtype, 'mm').name}) "
                         f"is not one of the kernel's: "
                         f"{', '.join(f'({a}, {b})' for a, b in _MM_COMBOS)}")
    if i_name == "bf16":
        _not_ported("mm", "mm.cc's bfloat16 variants (the AIE's bfloat16 matrix unit)")
    m, k, n = (_size(v, "mm", w) for v, w in ((dim_m, "dim_m"), (dim_k, "dim_k"),
                                              (dim_n, "dim_n")))
    r, s, t = _MM_MAC_DIMS[_arch()][i_name]
    flags = [f"-DDIM_M={m}", f"-DDIM_K={k}", f"-DDIM_N={n}"]
    if vectorized:
        if b_col_maj or c_col_maj:
            _not_ported("mm", "the vectorized kernel with b_col_maj or c_col_maj "
                        "(use vectorized=False for column-major B or C)")
        if m % r or k % s or n % t:
            raise ValueError(f"mm(): the tile {m} x {k} x {n} is not made of "
                             f"{r} x {s} x {t} micro-tiles ({_arch()})")
        flags += [f"-DDIM_R={r}", f"-DDIM_S={s}", f"-DDIM_T={t}"]
    else:
        flags += (["-DB_COL_MAJ"] if b_col_maj else []) + \
                 (["-DC_COL_MAJ"] if c_col_maj else [])
    in_d, out_d = _dt(input_dtype, "mm"), _dt(output_dtype, "mm")
    a_ty, b_ty, c_ty = _tile(m * k, in_d), _tile(k * n, in_d), _tile(m * n, out_d)
    prefix = "matmul" if vectorized else "matmul_scalar"
    ef = _extern(f"{prefix}_{i_name}_{o_name}", "mm.c", [a_ty, b_ty, c_ty], flags)
    ef.mac_dims = (r, s, t)
    ef.zero = _extern(f"{'zero' if vectorized else 'zero_scalar'}_{o_name}", "mm.c",
                      [c_ty], flags)
    return ef


# --- vision -------------------------------------------------------------------------

def _u8_only(factory: str, dtype):
    bw = _bit_width(dtype, factory)
    if bw != 8:
        _not_ported(factory, f"its {bw}-bit variant (the uint8 one is ported)")


def rgba2gray(line_width: int = 1920, use_chess: bool = False) -> ExternalFunction:
    """rgba2grayLine(in, out, width): RGBA (4 x width uint8) to gray."""
    w = _size(line_width, "rgba2gray", "line_width")
    return _extern("rgba2grayLine", "rgba2gray.c",
                   [_tile(4 * w, np.uint8), _tile(w, np.uint8), np.int32])


def gray2rgba(line_width: int = 1920, use_chess: bool = False) -> ExternalFunction:
    """gray2rgbaLine(in, out, width): gray to RGBA (Y, Y, Y, 255)."""
    w = _size(line_width, "gray2rgba", "line_width")
    return _extern("gray2rgbaLine", "gray2rgba.c",
                   [_tile(w, np.uint8), _tile(4 * w, np.uint8), np.int32])


def filter2d(line_width: int = 1920, use_chess: bool = False) -> ExternalFunction:
    """filter2dLine(l0, l1, l2, out, width, coeffs): a 3 x 3 filter (int16
    coefficients in units of 2^-12) over three uint8 lines."""
    w = _size(line_width, "filter2d", "line_width")
    line = _tile(w, np.uint8)
    return _extern("filter2dLine", "filter2d.c",
                   [line, line, line, line, np.int32,
                    np.ndarray[(3, 3), np.dtype[np.int16]]])


def threshold(line_width: int = 1920, dtype=np.uint8,
              use_chess: bool = False) -> ExternalFunction:
    """thresholdLine(in, out, width, thresh, max, type) on uint8 lines."""
    _u8_only("threshold", dtype)
    line = _tile(_size(line_width, "threshold", "line_width"), np.uint8)
    return _extern("thresholdLine", "threshold.c",
                   [line, line, np.int32, np.int16, np.int16, np.int8],
                   ["-DBIT_WIDTH=8"])


def add_weighted(line_width: int = 1920, dtype=np.uint8,
                 use_chess: bool = False) -> ExternalFunction:
    """addWeightedLine(a, b, out, width, alpha, beta, gamma) on uint8 lines:
    out = (gamma + alpha a + beta b) >> 14, saturated."""
    _u8_only("add_weighted", dtype)
    line = _tile(_size(line_width, "add_weighted", "line_width"), np.uint8)
    return _extern("addWeightedLine", "addWeighted.c",
                   [line, line, line, np.int32, np.int16, np.int16, np.int8],
                   ["-DBIT_WIDTH=8"])


# --- kernels with no C port ----------------------------------------------------------

def _not_ported(name: str, what: str | None = None):
    raise NotImplementedError(
        f"iron.kernels.{name}: {what or 'the kernel'} has no C port in this "
        f"package; upstream's kernel is C++ on the AIE API: compile upstream's "
        f"source with ExternalFunction(name, source_file='....cc', "
        f"arg_types=...), or point python3 -m iron.run --kernels at upstream's "
        f"kernel folder")


def _unported(name: str):
    def factory(*args, **kwargs):
        _not_ported(name)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (f"Upstream's {name} kernel: no C port here, so calling it "
                       f"raises NotImplementedError (compile upstream's C++ "
                       f"source with ExternalFunction).")
    return factory


mv = _unported("mv")
cascade_mm = _unported("cascade_mm")
rgba2hue = _unported("rgba2hue")
bitwise_or = _unported("bitwise_or")
bitwise_and = _unported("bitwise_and")
softmax = _unported("softmax")
gelu = _unported("gelu")
silu = _unported("silu")
swiglu = _unported("swiglu")
bf16_exp = _unported("bf16_exp")
conv2dk1 = _unported("conv2dk1")
conv2dk3 = _unported("conv2dk3")
conv2dk1_skip = _unported("conv2dk1_skip")
conv2dk1_i8 = _unported("conv2dk1_i8")
conv2dk14 = _unported("conv2dk14")
conv2dk1_skip_init = _unported("conv2dk1_skip_init")
bn_conv2dk1_relu = _unported("bn_conv2dk1_relu")
bn_conv2dk3 = _unported("bn_conv2dk3")
bn_conv2dk1_i8 = _unported("bn_conv2dk1_i8")
bn_conv2dk1_skip = _unported("bn_conv2dk1_skip")
bn_conv2dk3_dw = _unported("bn_conv2dk3_dw")
bn_conv2dk1_relu_xy_pool_padded = _unported("bn_conv2dk1_relu_xy_pool_padded")
bn_fc_relu_ui16_pad = _unported("bn_fc_relu_ui16_pad")
bn_conv2dk1_partial_put_i8 = _unported("bn_conv2dk1_partial_put_i8")
bn_conv2dk1_partial_get_relu_i8 = _unported("bn_conv2dk1_partial_get_relu_i8")
bn_conv2dk3_dw_out_split = _unported("bn_conv2dk3_dw_out_split")
bn_conv2dk1_input_split_partial_put_ui8 = _unported(
    "bn_conv2dk1_input_split_partial_put_ui8")
bn_conv2dk1_input_split_partial_skip_get = _unported(
    "bn_conv2dk1_input_split_partial_skip_get")


# --- numpy references for checking results on the host --------------------------

def relu_ref(x):
    """max(x, 0) element by element, in x's dtype (exact)."""
    x = np.asarray(x)
    return np.maximum(x.astype(np.float32), np.float32(0)).astype(x.dtype)


def silu_ref(x):
    """x * sigmoid(x), computed in float32, in x's dtype."""
    x = np.asarray(x)
    f = x.astype(np.float32)
    return (f / (np.float32(1) + np.exp(-f))).astype(x.dtype)


def gelu_ref(x):
    """GELU by its tanh approximation, computed in float32, in x's dtype."""
    x = np.asarray(x)
    f = x.astype(np.float32)
    c = np.float32(np.sqrt(2.0 / np.pi))
    inner = c * (f + np.float32(0.044715) * f * f * f)
    return (np.float32(0.5) * f * (np.float32(1) + np.tanh(inner))).astype(x.dtype)


def bf16_exp_ref(x):
    """exp(x), computed in float32, in x's dtype."""
    x = np.asarray(x)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(x.astype(np.float32)).astype(x.dtype)


def softmax_ref(x, *, tile_size: int = 1024):
    """softmax over each tile of tile_size elements on its own (as the
    kernel sees one tile per call), computed in float32, in x's dtype."""
    x = np.asarray(x)
    if x.size % tile_size:
        raise ValueError(f"softmax_ref: x has {x.size} elements, not a multiple of "
                         f"tile_size {tile_size}")
    f = x.astype(np.float32).reshape(-1, tile_size)
    e = np.exp(f - f.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(x.shape).astype(x.dtype)
