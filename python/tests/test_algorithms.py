# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iron.algorithms: every algorithm with a per-element function (unary,
binary, parallel over the columns) and with kernels, in both of
upstream's spellings, on npu1 and npu2, bit for bit against numpy; and
the errors the algorithms promise."""
import numpy as np
import pytest

import iron
from iron import CompileTime, ExternalFunction, In, InOut, Out, algorithms, kernels
from iron.program import Module

DEVICES = ["npu1", "npu2"]
bfloat16 = iron._iron.bfloat16


def assert_bits(got, want):
    """The same bytes; on a difference, both arrays and the first indices
    that differ."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"shape: got {got.shape}, want {want.shape}"
    g = got.view(np.uint8).reshape(got.size, -1) if got.size else got
    w = want.view(np.uint8).reshape(want.size, -1) if want.size else want
    bad = np.nonzero((g != w).any(axis=1))[0] if got.size else []
    assert len(bad) == 0, (f"{len(bad)} element(s) differ, first at {bad[:8].tolist()}: "
                           f"got {got.ravel()[bad[:8]].tolist()}, "
                           f"want {want.ravel()[bad[:8]].tolist()}\n"
                           f"got  {got!r}\nwant {want!r}")


@pytest.fixture(params=DEVICES)
def dev(request):
    with iron.device(request.param):
        yield request.param


def cols(dev):
    return iron._iron.device_info(dev)["columns"]


def int_data(n, dtype=np.int32, lo=-1000, hi=1000, seed=0):
    return np.random.default_rng(seed).integers(lo, hi, n).astype(dtype)


# --------------------------------------------------------------- transform

def test_transform_lambda_classic_spelling(dev):
    x = int_data(256)
    y = np.zeros_like(x)
    iron.jit(algorithms.transform)(lambda a: a + 1, x, y, tile_size=16)
    assert_bits(y, x + 1)


def test_transform_lambda_newest_spelling(dev):
    @iron.jit
    def plus(x: In, y: Out, *, n: CompileTime[int], dtype: CompileTime[type],
             tile_size: CompileTime[int] = 16):
        return algorithms.transform(lambda a: a // 3 - 2,
                                    np.ndarray[(n,), np.dtype[dtype]], tile_size=tile_size)

    x = int_data(128, np.int16)
    y = np.zeros_like(x)
    plus(x, y, n=128, dtype=np.int16)
    assert_bits(y, x // 3 - 2)
    plus(x, y, n=128, dtype=np.int16, tile_size=64)     # another specialization
    assert_bits(y, x // 3 - 2)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                   np.uint32, np.float32, bfloat16],
                         ids=lambda d: np.dtype(d).name)
def test_transform_lambda_each_dtype(dtype):
    x = (np.arange(64) - 20).astype(np.float32).astype(dtype)
    y = np.zeros_like(x)
    with iron.device("npu2"):
        iron.jit(algorithms.transform)(lambda a: a * 3 + 1, x, y, tile_size=16)
    assert_bits(y, x * dtype(3) + dtype(1))


def test_transform_two_dimensional_tensors_are_seen_flat(dev):
    x = int_data(64 * 4).reshape(4, 64)
    y = np.zeros_like(x)
    iron.jit(algorithms.transform)(lambda a: a - 7, x, y, tile_size=32)
    assert_bits(y, x - 7)


def test_transform_binary_classic_spelling(dev):
    # upstream's own example expression, on positive values so that its
    # truncating `/` is numpy's `//`
    a = int_data(256, lo=1, hi=50, seed=1)
    b = int_data(256, lo=1, hi=50, seed=2)
    c = np.zeros_like(a)
    iron.jit(algorithms.transform_binary)(lambda a, b: a + b / a % b / a * b, a, b, c,
                                          tile_size=16)
    assert_bits(c, a + (b // a % b // a) * b)


def test_transform_binary_newest_spelling(dev):
    @iron.jit
    def mix(a: In, b: In, c: Out, *, n: CompileTime[int]):
        return algorithms.transform_binary(lambda x, y: x * y - x,
                                           np.ndarray[(n,), np.dtype[np.float32]], 32)

    a = np.linspace(-4, 4, 256, dtype=np.float32)
    b = np.linspace(3, -1, 256, dtype=np.float32)
    c = np.zeros_like(a)
    mix(a, b, c, n=256)
    assert_bits(c, a * b - a)


def test_transform_calls_a_kernel_per_tile_with_a_scalar_parameter(dev):
    add_c = ExternalFunction(
        "add_c", source_string=(
            "void add_c(const int32_t *in, int32_t *out, int32_t c, int32_t n)\n"
            "{ for (int32_t i = 0; i < n; i++) out[i] = in[i] + c; }\n"),
        arg_types=[np.ndarray[(32,), np.dtype[np.int32]]] * 2 + [np.int32, np.int32])
    x = int_data(128)
    y = np.zeros_like(x)
    iron.jit(algorithms.transform)(add_c, x, y, 40, tile_size=32)
    assert_bits(y, x + 40)


def test_transform_streams_a_tensor_parameter_to_the_kernel(dev):
    x = int_data(256)
    y = np.zeros_like(x)
    factor = np.array([-3], dtype=np.int32)
    iron.jit(algorithms.transform)(kernels.scale(tile_size=64), x, y, factor, tile_size=64)
    assert_bits(y, x * -3)


def test_transform_tensor_parameter_by_its_type_in_a_jit_design(dev):
    @iron.jit
    def scaled(x: In, y: Out, f: In, *, n: CompileTime[int]):
        ty = np.ndarray[(n,), np.dtype[np.int16]]
        return algorithms.transform(kernels.scale(tile_size=32, dtype=np.int16), ty,
                                    np.ndarray[(1,), np.dtype[np.int32]], tile_size=32)

    x = int_data(128, np.int16)
    y = np.zeros_like(x)
    scaled(x, y, np.array([7], dtype=np.int32), n=128)
    assert_bits(y, (x.astype(np.int32) * 7).astype(np.int16))


def test_an_algorithm_returns_the_module_of_its_program():
    with iron.device("npu1"):
        m = algorithms.transform(lambda a: a + 1, np.ndarray[(64,), np.dtype[np.int32]])
        assert isinstance(m, Module)
        text = str(m)
    assert "aie.device(npu1)" in text and "@in0" in text and "@out" in text, text


# --------------------------------------------------------------- parallel

def test_transform_parallel_uses_every_column(dev):
    n = 16 * cols(dev) * 3
    x = int_data(n, seed=3)
    y = np.zeros_like(x)
    iron.jit(algorithms.transform_parallel)(lambda a: a * 3 - 1, x, y, tile_size=16)
    assert_bits(y, x * 3 - 1)
    m = algorithms.transform_parallel(lambda a: a, np.ndarray[(n,), np.dtype[np.int32]])
    assert len(m.program.workers) == cols(dev)


def test_transform_parallel_two_channels(dev):
    n = 16 * cols(dev) * 2 * 2
    x = int_data(n, np.int16, seed=4)
    y = np.zeros_like(x)
    iron.jit(algorithms.transform_parallel)(lambda a: a + 7, x, y, tile_size=16,
                                            num_channels=2)
    assert_bits(y, x + 7)
    m = algorithms.transform_parallel(lambda a: a, np.ndarray[(n,), np.dtype[np.int16]],
                                      num_channels=2)
    assert len(m.program.workers) == 2 * cols(dev)


def test_transform_parallel_binary(dev):
    n = 32 * cols(dev)
    a, b = int_data(n, seed=5), int_data(n, seed=6)
    c = np.zeros_like(a)
    iron.jit(algorithms.transform_parallel_binary)(lambda x, y: x * y + (x & y), a, b, c,
                                                   tile_size=16)
    assert_bits(c, a * b + (a & b))


def test_transform_parallel_binary_newest_spelling(dev):
    @iron.jit
    def add(a: In, b: In, c: Out, *, n: CompileTime[int]):
        return algorithms.transform_parallel_binary(
            lambda x, y: x + y, np.ndarray[(n,), np.dtype[np.int32]], tile_size=8)

    n = 8 * cols(dev) * 2
    a, b = int_data(n, seed=7), int_data(n, seed=8)
    c = np.zeros_like(a)
    add(a, b, c, n=n)
    assert_bits(c, a + b)


def test_transform_parallel_kernel_without_the_size(dev):
    n = 1024 * 2
    a = np.random.default_rng(9).standard_normal(n).astype(np.float32).astype(bfloat16)
    b = np.random.default_rng(10).standard_normal(n).astype(np.float32).astype(bfloat16)
    c = np.zeros_like(a)
    with iron.device(dev + "_2col"):
        iron.jit(algorithms.transform_parallel_binary)(kernels.add(), a, b, c, tile_size=1024,
                                                       pass_size_to_kernel=False)
    assert_bits(c, a + b)


# --------------------------------------------------------------- for_each, reduce

def test_for_each_classic_spelling(dev):
    x = int_data(128)
    want = x + 5
    iron.jit(algorithms.for_each)(lambda a: a + 5, x, tile_size=32)
    assert_bits(x, want)


def test_for_each_newest_spelling(dev):
    @iron.jit
    def twice(x: InOut, *, n: CompileTime[int]):
        return algorithms.for_each(lambda a: a * 2, np.ndarray[(n,), np.dtype[np.float32]],
                                   tile_size=8)

    x = np.linspace(-3, 3, 64, dtype=np.float32)
    want = x * 2
    twice(x, n=64)
    assert_bits(x, want)


def test_for_each_with_a_kernel(dev):
    x = int_data(256, np.int16)
    want = x.copy()
    iron.jit(algorithms.for_each)(kernels.passthrough(tile_size=64, dtype=np.int16), x,
                                  tile_size=64)
    assert_bits(x, want)


def test_reduce_hands_the_whole_input_to_one_call(dev):
    @iron.jit
    def total(x: In, y: Out, *, n: CompileTime[int]):
        return algorithms.reduce(kernels.reduce_add(tile_size=n),
                                 np.ndarray[(n,), np.dtype[np.int32]],
                                 np.ndarray[(1,), np.dtype[np.int32]])

    x = int_data(512, seed=11)
    y = np.zeros(1, dtype=np.int32)
    total(x, y, n=512)
    assert_bits(y, np.array([x.sum()], dtype=np.int32))


# --------------------------------------------------------------- errors

I32_64 = np.ndarray[(64,), np.dtype[np.int32]]


def test_shapes_that_differ_are_refused():
    with pytest.raises(ValueError, match=r"tensor 1 has shape \[128\]; tensor 0 has \[64\]"):
        algorithms.transform(lambda a: a, np.zeros(64, np.int32), np.zeros(128, np.int32))
    with pytest.raises(ValueError, match=r"transform_binary: tensor 2 has shape"):
        algorithms.transform_binary(lambda a, b: a, np.zeros(64, np.int32),
                                    np.zeros(64, np.int32), np.zeros(32, np.int32))


def test_dtypes_that_differ_are_refused():
    with pytest.raises(ValueError, match=r"tensor 1 has dtype int16; tensor 0 has int32"):
        algorithms.transform(lambda a: a, np.zeros(64, np.int32), np.zeros(64, np.int16))


def test_the_design_s_error_reaches_the_jit_caller_as_raised():
    with pytest.raises(ValueError, match="tensor 1 has dtype float32"):
        iron.jit(algorithms.transform_parallel)(lambda a: a, np.zeros(64, np.int32),
                                                np.zeros(64, np.float32))


def test_a_tile_size_that_does_not_divide_is_refused():
    with pytest.raises(ValueError, match=r"transform: the tensors have 64 elements, not a "
                                         r"multiple of tile_size 24"):
        algorithms.transform(lambda a: a, I32_64, tile_size=24)
    with pytest.raises(ValueError, match="for_each: the tensor has 64 elements"):
        algorithms.for_each(lambda a: a, I32_64, 48)


def test_parallel_needs_tile_times_columns_times_channels():
    with iron.device("npu2"):
        with pytest.raises(ValueError, match=r"tile_size x columns x num_channels = "
                                             r"16 x 8 x 1 = 128 \(device npu2\)"):
            algorithms.transform_parallel(lambda a: a, I32_64)
    with iron.device("npu1"):
        algorithms.transform_parallel(lambda a: a, I32_64)       # 16 x 4 divides 64
        with pytest.raises(ValueError, match=r"16 x 4 x 2 = 128 \(device npu1\)"):
            algorithms.transform_parallel(lambda a: a, I32_64, num_channels=2)


@pytest.mark.parametrize("tile, exc, words", [
    (0, ValueError, "tile_size must be at least 1, got 0"),
    (16.0, TypeError, "tile_size must be an int, got float"),
    (True, TypeError, "tile_size must be an int, got bool"),
])
def test_a_bad_tile_size_is_refused(tile, exc, words):
    with pytest.raises(exc, match=words):
        algorithms.transform(lambda a: a, I32_64, tile_size=tile)


def test_a_kernel_s_tile_must_be_the_tile_size():
    with pytest.raises(ValueError, match=r"tile_size is 16 but kernel 'passThroughLine' "
                                         r"declares tiles of 64 elements"):
        algorithms.transform(kernels.passthrough(tile_size=64), I32_64)


def test_num_channels_is_one_or_two():
    with pytest.raises(ValueError, match="num_channels must be 1 or 2.*got 3"):
        algorithms.transform_parallel(lambda a: a, I32_64, num_channels=3)
    with pytest.raises(ValueError, match="num_channels=2 cannot share"):
        algorithms.transform_parallel(kernels.scale(tile_size=16), I32_64,
                                      np.ndarray[(1,), np.dtype[np.int32]], num_channels=2)


def test_extra_parameters_are_for_kernels_only():
    with pytest.raises(TypeError, match="extra parameter.*per-element function"):
        algorithms.transform(lambda a: a, I32_64, 3)
    with pytest.raises(TypeError, match=r"2 extra parameter\(s\) for kernel "
                                        r"'vector_scalar_mul_vector', which has room "
                                        r"for 1 between its 2 tiles and the tile size"):
        algorithms.transform(kernels.scale(tile_size=16), I32_64,
                             np.ndarray[(1,), np.dtype[np.int32]], 1)


def test_what_is_not_a_tensor_or_a_type_is_refused():
    with pytest.raises(TypeError, match="transform: expected a tensor type"):
        algorithms.transform(lambda a: a, 64)
    with pytest.raises(TypeError, match="for_each: expected a tensor type"):
        algorithms.for_each(lambda a: a, [1, 2, 3])
    with pytest.raises(TypeError, match="func must be a function"):
        algorithms.transform(3, I32_64)
    with pytest.raises(TypeError, match="takes 1 input.*got 1 tensor"):
        algorithms.transform(lambda a: a, np.zeros(64, np.int32))


def test_newest_positional_arguments_bind_as_upstream_s():
    with pytest.raises(TypeError, match="takes at most 4 positional arguments"):
        algorithms.transform_binary(lambda a, b: a, I32_64, 16, 0, 9)
    with pytest.raises(TypeError, match="multiple values for argument 'tile_size'"):
        algorithms.transform_binary(lambda a, b: a, I32_64, 16, tile_size=16)


def test_reduce_needs_a_kernel():
    with pytest.raises(TypeError, match="reduce: func must be an ExternalFunction"):
        algorithms.reduce(lambda a: a, I32_64, np.ndarray[(1,), np.dtype[np.int32]])


def test_the_convolution_pipelines_are_not_provided_yet():
    for f in (algorithms.row_at_a_time, algorithms.sliding_3row):
        with pytest.raises(NotImplementedError, match=f"iron.algorithms.{f.__name__}"):
            f(lambda a: a, I32_64)
