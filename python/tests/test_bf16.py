# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The bfloat16 numpy dtype (python/src/bf16.c): its conversions give the
library's bits exactly (iron_bf16_from_float, iron_bf16_from_double,
called through ctypes on libiron.so when $IRON_LIB names it, and through
the library's tensors otherwise), its casts, ufunc loops, scalars and
printing behave as programs written for ml_dtypes.bfloat16 expect."""
import ctypes
import os

import numpy as np
import pytest

from iron import _iron
from iron._dtype import bfloat16

BF16 = np.dtype(bfloat16)


def _lib():
    path = os.environ.get("IRON_LIB")
    if not path:
        return None
    lib = ctypes.CDLL(path)
    lib.iron_bf16_from_float.argtypes = [ctypes.c_float]
    lib.iron_bf16_from_float.restype = ctypes.c_uint16
    lib.iron_bf16_from_double.argtypes = [ctypes.c_double]
    lib.iron_bf16_from_double.restype = ctypes.c_uint16
    return lib


LIB = _lib()
needs_lib = pytest.mark.skipif(LIB is None, reason="IRON_LIB (the path of "
                               "libiron.so) is not set: make python-test "
                               "sets it")


def bits(a):
    return np.asarray(a).view(np.uint16)


def f32_of_bits(b):
    return np.asarray(b, dtype=np.uint32).__lshift__(16).view(np.float32)


def show_mismatch(inputs, got, want):
    bad = np.flatnonzero(got != want)
    return "; ".join(f"{inputs[i]!r}: got 0x{got[i]:04x}, library "
                     f"0x{want[i]:04x}" for i in bad[:8]) + \
        f" ({len(bad)} of {len(got)})"


def float32_cases():
    """Every bfloat16 as a float32, every upper half with the lower
    halves around the tie (0x8000 exactly, one below, one above, the
    ends), and random bit patterns: NaNs with payloads only in the
    dropped half, infinities, the overflow to infinity, subnormals."""
    upper = np.arange(65536, dtype=np.uint32) << 16
    lows = np.array([0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF], dtype=np.uint32)
    rng = np.random.default_rng(21)
    random = rng.integers(0, 2**32, size=100_000, dtype=np.uint64)
    pattern = np.concatenate([(upper[:, None] | lows[None, :]).ravel(),
                              random.astype(np.uint32)])
    return pattern.view(np.float32)


@needs_lib
def test_float32_to_bfloat16_is_iron_bf16_from_float_bit_for_bit():
    x = float32_cases()
    got = bits(x.astype(bfloat16))
    want = np.fromiter((LIB.iron_bf16_from_float(float(v)) for v in x),
                       dtype=np.uint16, count=len(x))
    assert np.array_equal(got, want), show_mismatch(x, got, want)


def test_float32_to_bfloat16_matches_the_library_s_tensors():
    # Without ctypes: Tensor.full stores a double (exact for a float32)
    # with one rounding, iron_bf16_from_float's.  NaNs are left out (the
    # double conversion may change a payload).
    x = float32_cases()[::97]
    x = x[~np.isnan(x)]
    got = bits(x.astype(bfloat16))
    want = np.array([_iron.Tensor.full("bfloat16", 1, float(v)).numpy()
                     .view(np.uint16)[0] for v in x], dtype=np.uint16)
    assert np.array_equal(got, want), show_mismatch(x, got, want)


def test_ties_go_to_even_and_nan_stays_nan():
    tie_down = np.array([0x3F808000], dtype=np.uint32).view(np.float32)
    tie_up = np.array([0x3F818000], dtype=np.uint32).view(np.float32)
    assert bits(tie_down.astype(bfloat16))[0] == 0x3F80
    assert bits(tie_up.astype(bfloat16))[0] == 0x3F82
    nan_low = np.array([0x7F800001, 0xFF800001], dtype=np.uint32)
    out = nan_low.view(np.float32).astype(bfloat16).astype(np.float32)
    assert np.isnan(out).all(), out
    big = np.array([np.finfo(np.float32).max], dtype=np.float32)
    assert bits(big.astype(bfloat16))[0] == 0x7F80
    inf = np.array([np.inf, -np.inf], dtype=np.float32)
    assert list(bits(inf.astype(bfloat16))) == [0x7F80, 0xFF80]


def test_every_bfloat16_round_trips_through_float32():
    b = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    f = b.view(bfloat16).astype(np.float32)
    assert np.array_equal(f.view(np.uint32), b.astype(np.uint32) << 16)
    back = bits(f.astype(bfloat16))
    finite = ~np.isnan(f)
    assert np.array_equal(back[finite], b[finite])
    assert np.isnan(back.view(bfloat16).astype(np.float32)[~finite]).all()


def double_cases():
    eps = [2.0**-8, 2.0**-8 + 2.0**-30, 2.0**-8 - 2.0**-30]
    near = [s * (1.0 + e) for e in eps for s in (1.0, -1.0)]
    rng = np.random.default_rng(5)
    return np.array(near + [float.fromhex("0x1.fep127"),
                            float.fromhex("0x1.ffp127"), 1e300, -1e300, 1e-300,
                            0.1, 1 / 3, np.pi, 65504.0, 3.0, -0.0,
                            np.inf, -np.inf] +
                    list(rng.standard_normal(2000) * 10.0 **
                         rng.integers(-40, 40, 2000)))


def test_float64_to_bfloat16_rounds_once_as_tensors_do():
    x = double_cases()
    got = bits(x.astype(bfloat16))
    want = np.array([_iron.Tensor.full("bfloat16", 1, float(v)).numpy()
                     .view(np.uint16)[0] for v in x], dtype=np.uint16)
    assert np.array_equal(got, want), show_mismatch(x, got, want)
    # Just above a tie the double rounds up; through float32 it would not.
    assert bits(np.array([1.0 + 2.0**-8 + 2.0**-30]).astype(bfloat16))[0] \
        == 0x3F81
    assert bits(np.float32(1.0 + 2.0**-8 + 2.0**-30).astype(bfloat16)) \
        == 0x3F80


@needs_lib
def test_float64_to_bfloat16_is_iron_bf16_from_double():
    x = double_cases()
    got = bits(x.astype(bfloat16))
    want = np.array([LIB.iron_bf16_from_double(float(v)) for v in x],
                    dtype=np.uint16)
    assert np.array_equal(got, want), show_mismatch(x, got, want)


@pytest.mark.parametrize("np_type", [np.int8, np.uint8, np.int16, np.uint16,
                                     np.int32, np.uint32, np.int64,
                                     np.uint64])
def test_integers_to_bfloat16_and_back_as_the_library_converts(np_type):
    info = np.iinfo(np_type)
    vals = np.array([info.min, info.max, 0, 1, 7, 255, 257, 259, 1000,
                     info.max // 3], dtype=object)
    vals = np.array([v for v in vals if info.min <= v <= info.max],
                    dtype=np_type)
    got = bits(vals.astype(bfloat16))
    want = np.array([_iron.Tensor.full("bfloat16", 1, float(v)).numpy()
                     .view(np.uint16)[0] for v in vals], dtype=np.uint16)
    assert np.array_equal(got, want), show_mismatch(vals, got, want)
    # Back: truncation toward zero, saturated, NaN to 0 -- the library's
    # conversion of a double into an integer tensor.
    name = np.dtype(np_type).name
    src = np.array([2.75, -2.75, 1e30, -1e30, np.nan, np.inf, -np.inf, 300,
                    -1], dtype=np.float32).astype(bfloat16)
    got_int = src.astype(np_type)
    want_int = np.array([_iron.Tensor.full(name, 1, float(v)).numpy()[0]
                         for v in src.astype(np.float64)], dtype=np_type)
    assert np.array_equal(got_int, want_int), (src, got_int, want_int)


def test_bool_and_float16_casts():
    b = np.array([True, False]).astype(bfloat16)
    assert bits(b).tolist() == [0x3F80, 0]
    assert np.array([0, 0.5, np.nan], dtype=np.float32).astype(bfloat16) \
        .astype(bool).tolist() == [False, True, True]
    h = np.array([1.5, 65504, -0.25], dtype=np.float16)
    assert h.astype(bfloat16).astype(np.float32).tolist() == \
        [1.5, 65536.0, -0.25]
    assert np.array([1.5], dtype=bfloat16).astype(np.float16)[0] == 1.5


def test_dtype_is_what_ml_dtypes_programs_expect():
    assert np.dtype("bfloat16") == BF16
    assert BF16.name == "bfloat16" and str(BF16) == "bfloat16"
    assert BF16.kind == "V" and BF16.itemsize == 2 and BF16.char == "E"
    assert repr(BF16) == "dtype(bfloat16)"
    a = np.zeros(4, dtype=bfloat16)
    assert repr(a) == "array([0, 0, 0, 0], dtype=bfloat16)"
    assert _iron.bfloat16 is bfloat16


def test_printing_uses_the_fewest_digits_that_read_back():
    vals = [0.1, 1.5, 256, 3.140625, -2.5, 1e10, 1e-5, 0.0]
    strs = [str(bfloat16(v)) for v in vals]
    assert strs == ["0.1", "1.5", "256", "3.14", "-2.5", "1e+10", "1e-05",
                    "0"], strs
    assert str(np.array([1, 2.5], dtype=np.float32).astype(bfloat16)) == \
        "[1 2.5]"
    assert [str(bfloat16(v)) for v in (np.nan, np.inf, -np.inf)] == \
        ["nan", "inf", "-inf"]


def test_astype_both_ways_and_array_construction():
    a = np.array([1.5, 2.25, -3], dtype=bfloat16)
    assert a.dtype == BF16
    assert a.astype(np.float32).tolist() == [1.5, 2.25, -3.0]
    assert a.astype(np.float64).dtype == np.float64
    assert np.array([bfloat16(1), bfloat16(2)]).dtype == BF16
    assert np.arange(0, 2, 0.5, dtype=bfloat16).astype(np.float32).tolist() \
        == [0, 0.5, 1, 1.5]
    assert np.full(3, 7, dtype=bfloat16).astype(np.int32).tolist() == [7] * 3
    with pytest.raises(TypeError, match="takes a real number"):
        np.array(["x"], dtype=object).astype(bfloat16)


def rounded(f):
    return np.asarray(f, dtype=np.float32).astype(bfloat16)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply",
                                  "true_divide", "maximum", "minimum",
                                  "power", "fmax", "fmin"])
def test_binary_ufuncs_compute_in_float32_and_round(name):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(500) * 8).astype(np.float32).astype(bfloat16)
    y = (rng.standard_normal(500) * 8).astype(np.float32).astype(bfloat16)
    if name == "power":
        x = np.abs(x)
    fn = getattr(np, name)
    got = fn(x, y)
    assert got.dtype == BF16
    want = rounded(fn(x.astype(np.float32), y.astype(np.float32)))
    assert np.array_equal(bits(got), bits(want), equal_nan=False) or \
        np.array_equal(got.astype(np.float32), want.astype(np.float32),
                       equal_nan=True)


@pytest.mark.parametrize("name", ["negative", "absolute", "sqrt", "square",
                                  "floor", "ceil", "exp", "log", "tanh"])
def test_unary_ufuncs_compute_in_float32_and_round(name):
    x = np.linspace(0.01, 20, 300, dtype=np.float32).astype(bfloat16)
    fn = getattr(np, name)
    got = fn(x)
    assert got.dtype == BF16
    want = rounded(fn(x.astype(np.float32)))
    diff = np.abs(bits(got).astype(np.int32) - bits(want).astype(np.int32))
    # Correctly rounded in float32, the same bits; libm's exp, log and tanh
    # may differ from numpy's by a float32 ulp: a bfloat16 one at most.
    exact = name not in ("exp", "log", "tanh")
    assert diff.max() <= (0 if exact else 1), (x[diff > 0], got[diff > 0],
                                               want[diff > 0])


def test_comparisons_and_predicates():
    x = np.array([1, 2, np.nan, -np.inf], dtype=np.float32).astype(bfloat16)
    y = np.array([2, 2, 0, 0], dtype=np.float32).astype(bfloat16)
    f, g = x.astype(np.float32), y.astype(np.float32)
    for name in ("equal", "not_equal", "less", "less_equal", "greater",
                 "greater_equal"):
        got = getattr(np, name)(x, y)
        assert got.dtype == np.bool_
        assert got.tolist() == getattr(np, name)(f, g).tolist(), name
    assert np.isnan(x).tolist() == [False, False, True, False]
    assert np.isinf(x).tolist() == [False, False, False, True]
    assert np.isfinite(x).tolist() == [True, True, False, False]
    assert (x == 2).tolist() == [False, True, False, False]


def test_promotion_with_numpy_types():
    x = np.ones(3, dtype=bfloat16)
    assert (x + np.ones(3, dtype=np.float32)).dtype == np.float32
    assert (x + np.ones(3, dtype=np.float64)).dtype == np.float64
    assert (x + 1).dtype == BF16
    assert (x * np.ones(3, dtype=np.int8)).dtype == BF16


def test_reductions_sort_argmax_dot():
    # ml_dtypes' own example: a bfloat16 sum stalls at 256.
    vals = np.random.default_rng(0).uniform(size=10000).astype(bfloat16)
    assert vals.sum() == 256
    assert vals.sum(dtype="float32").astype(bfloat16) > 4900
    a = np.array([3, np.nan, 1, 2], dtype=np.float32).astype(bfloat16)
    s = np.sort(a).astype(np.float32)
    assert s[:3].tolist() == [1, 2, 3] and np.isnan(s[3])
    assert np.argmax(a) == 1 and np.argmin(a) == 1
    b = np.array([3, 1, 2], dtype=bfloat16)
    assert np.argmax(b) == 0 and np.argmin(b) == 1
    assert b.max() == 3 and b.min() == 1
    assert float(np.dot(b, b)) == 14.0


def test_scalars():
    x = bfloat16(1.5)
    assert isinstance(x, np.generic)
    assert float(x) == 1.5 and int(bfloat16(-2.75)) == -2
    assert isinstance(x + x, bfloat16) and float(x + x) == 3.0
    assert isinstance(x + 1, bfloat16) and isinstance(2.0 * x, bfloat16)
    assert float(x - 1) == 0.5 and float(x / 2) == 0.75
    assert float(-x) == -1.5 and float(abs(-x)) == 1.5
    assert x == 1.5 and x < 2 and x >= bfloat16(1.5) and x != 1
    assert hash(x) == hash(1.5)
    assert bool(bfloat16(0)) is False and bool(x) is True
    assert float(bfloat16("0.1")) == float(np.float32(0.1).astype(bfloat16))
    assert bits(np.array([bfloat16(0.1)]))[0] == 0x3DCD
    assert bfloat16() == 0
    assert isinstance(x + np.float32(1), np.float32)
    assert bfloat16(np.array([1.0, 2.0])).dtype == BF16
    assert x.dtype == BF16
    with pytest.raises(TypeError, match="expected a real number"):
        bfloat16(object())
    with pytest.raises(ValueError):
        int(bfloat16(np.nan))


def test_npy_files_carry_bfloat16_as_V2(tmp_path):
    a = np.array([1.5, -2, 0.1], dtype=np.float32).astype(bfloat16)
    path = str(tmp_path / "a.npy")
    np.save(path, a)
    t = _iron.Tensor.load_npy(path)
    assert t.dtype == "bfloat16"
    assert np.array_equal(bits(t.numpy()), bits(a))
    out = str(tmp_path / "b.npy")
    t.save_npy(out)
    back = np.load(out)
    assert back.dtype == np.dtype("V2")
    assert np.array_equal(back.view(np.uint16), bits(a))
    assert np.array_equal(back.view(bfloat16).astype(np.float32),
                          a.astype(np.float32))
