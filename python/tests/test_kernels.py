# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iron.kernels: every factory with a C port used in a small design and
checked bit for bit against numpy; the factories' errors; the unported
kernels' NotImplementedError."""
import numpy as np
import pytest

import iron
from iron import Buffer, ObjectFifo, Program, Runtime, Worker, algorithms, kernels
from iron.controlflow import range_

from test_algorithms import assert_bits, int_data

bfloat16 = iron._iron.bfloat16


def bf16_data(n, seed):
    return np.random.default_rng(seed).standard_normal(n).astype(np.float32).astype(bfloat16)


def one_call(kernel, inputs, outputs, call):
    """Runs a design whose one worker acquires one object of each input
    (the whole tensor) and of each output, calls `call(kernel, *objects)`
    and releases them.  The outputs are written in place."""
    def design(*tensors):
        ins = [ObjectFifo(np.ndarray[t.shape, np.dtype[t.dtype]]) for t in inputs]
        outs = [ObjectFifo(np.ndarray[t.shape, np.dtype[t.dtype]]) for t in outputs]
        ni, no = len(ins), len(outs)

        def core(*args):
            xs = [h.acquire(1) for h in args[:ni]]
            ys = [h.acquire(1) for h in args[ni:ni + no]]
            call(args[ni + no], *xs, *ys)
            for h in args[:ni + no]:
                h.release(1)

        w = Worker(core, [f.cons() for f in ins] + [f.prod() for f in outs] + [kernel])

        def seq(*args):
            for h, t in zip(args[ni + no:ni + no + ni], args[:ni]):
                h.fill(t)
            for h, t in zip(args[2 * ni + no:], args[ni:ni + no]):
                h.drain(t, wait=True)

        rt = Runtime(seq, [f.obj_type for f in ins + outs] + [f.prod() for f in ins]
                     + [f.cons() for f in outs])
        return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()

    iron.jit(design)(*inputs, *outputs)


# --------------------------------------------------------------- element-wise

@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32],
                         ids=lambda d: np.dtype(d).name)
def test_passthrough(dtype):
    x = int_data(256, dtype, 0, 100)
    y = np.zeros_like(x)
    with iron.device("npu1"):
        iron.jit(algorithms.transform)(kernels.passthrough(tile_size=64, dtype=dtype),
                                       x, y, tile_size=64)
    assert_bits(y, x)


@pytest.mark.parametrize("dtype", [np.int16, np.int32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("vectorized", [True, False])
def test_scale_multiplies_by_the_factor_tensor(dtype, vectorized):
    x = int_data(256, dtype, -30000, 30000)
    y = np.zeros_like(x)
    factor = np.array([37], dtype=np.int32)
    with iron.device("npu2"):
        iron.jit(algorithms.transform)(
            kernels.scale(tile_size=64, dtype=dtype, vectorized=vectorized),
            x, y, factor, tile_size=64)
    assert_bits(y, (x.astype(np.int64) * 37).astype(dtype))   # wraps as the kernel


@pytest.mark.parametrize("op", ["add", "mul"])
@pytest.mark.parametrize("vectorized", [True, False])
def test_add_and_mul_on_bfloat16(op, vectorized):
    a, b = bf16_data(2048, 1), bf16_data(2048, 2)
    c = np.zeros_like(a)
    k = getattr(kernels, op)(vectorized=vectorized)
    with iron.device("npu1_2col"):
        iron.jit(algorithms.transform_parallel_binary)(k, a, b, c, tile_size=1024,
                                                       pass_size_to_kernel=False)
    assert_bits(c, a + b if op == "add" else a * b)


def test_relu_is_relu_ref():
    x = bf16_data(1024, 3)
    y = np.zeros_like(x)
    with iron.device("npu2_1col"):
        iron.jit(algorithms.transform_parallel)(kernels.relu(), x, y, tile_size=1024,
                                                pass_size_to_kernel=False)
    assert_bits(y, kernels.relu_ref(x))
    assert (np.asarray(y, np.float32) >= 0).all()


# --------------------------------------------------------------- reductions

@pytest.mark.parametrize("op", ["add", "min", "max"])
@pytest.mark.parametrize("vectorized", [True, False])
def test_int32_reductions(op, vectorized):
    x = int_data(512, np.int32, -2**31, 2**31 - 1, seed=4)
    y = np.zeros(1, dtype=np.int32)
    k = getattr(kernels, f"reduce_{op}")(tile_size=512, vectorized=vectorized)
    with iron.device("npu1"):
        iron.jit(algorithms.reduce)(k, x, y)
    want = {"add": x.sum(dtype=np.int64).astype(np.int32), "min": x.min(),
            "max": x.max()}[op]
    assert_bits(y, np.array([want], dtype=np.int32))


def test_bfloat16_reduce_max():
    x = bf16_data(256, 5)
    y = np.zeros(2, dtype=bfloat16)
    k = kernels.reduce_max(tile_size=256, dtype=bfloat16)
    assert k.arg_types()[1].__args__[0] == (2,)      # one 4-byte word
    with iron.device("npu2"):
        iron.jit(algorithms.reduce)(k, x, y)
    assert_bits(y[:1], np.array([x.astype(np.float32).max()]).astype(bfloat16))


@pytest.mark.parametrize("dtype", [np.int32, bfloat16], ids=["int32", "bfloat16"])
def test_compute_max_combines_two_partial_maxima(dtype):
    n = 1 if dtype is np.int32 else 2
    a = np.array([5, 0][:n], dtype=np.float32).astype(dtype)
    b = np.array([-7, 0][:n], dtype=np.float32).astype(dtype)
    c = np.zeros(n, dtype=dtype)
    with iron.device("npu1"):
        one_call(kernels.compute_max(dtype), [a, b], [c], lambda k, a, b, c: k(a, b, c))
        assert_bits(c[:1], a[:1])
        one_call(kernels.compute_max(dtype), [b, a], [c], lambda k, a, b, c: k(a, b, c))
        assert_bits(c[:1], a[:1])


# --------------------------------------------------------------- matrix multiply

def blocked(x, r, c):
    """A row-major matrix as [rows/r][cols/c][r][c] blocks."""
    m, n = x.shape
    return x.reshape(m // r, r, n // c, c).transpose(0, 2, 1, 3).ravel()


def unblocked(x, m, n, r, c):
    return x.reshape(m // r, n // c, r, c).transpose(0, 2, 1, 3).reshape(m, n)


def run_mm(k, a_tiles, b_tiles, c, ktiles):
    """A worker that zeroes C, then adds ktiles products of A and B tiles."""
    def design(a_all, b_all, c_out):
        fa = ObjectFifo(np.ndarray[(a_tiles.size // ktiles,), np.dtype[a_tiles.dtype]])
        fb = ObjectFifo(np.ndarray[(b_tiles.size // ktiles,), np.dtype[b_tiles.dtype]])
        fc = ObjectFifo(np.ndarray[(c.size,), np.dtype[c.dtype]])

        def core(ha, hb, hc, matmul, zero):
            cc = hc.acquire(1)
            zero(cc)
            for _ in range_(ktiles):
                aa, bb = ha.acquire(1), hb.acquire(1)
                matmul(aa, bb, cc)
                ha.release(1)
                hb.release(1)
            hc.release(1)

        w = Worker(core, [fa.cons(), fb.cons(), fc.prod(), k, k.zero])

        def seq(a, b, c, pa, pb, cc):
            pa.fill(a)
            pb.fill(b)
            cc.drain(c, wait=True)

        rt = Runtime(seq, [np.ndarray[(a_tiles.size,), np.dtype[a_tiles.dtype]],
                           np.ndarray[(b_tiles.size,), np.dtype[b_tiles.dtype]],
                           fc.obj_type, fa.prod(), fb.prod(), fc.cons()])
        return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()

    iron.jit(design)(a_tiles, b_tiles, c)


@pytest.mark.parametrize("dev", ["npu1", "npu2"])
@pytest.mark.parametrize("tin, tout", [(np.int16, np.int16), (np.int16, np.int32),
                                       (np.int8, np.int32), (np.int8, np.int8)],
                         ids=lambda d: np.dtype(d).name)
def test_mm_blocked_accumulates_over_k(dev, tin, tout):
    m, k, n, kt = 16, 16, 32, 2
    rng = np.random.default_rng(6)
    lim = 20 if tout is np.int8 else 300
    A = rng.integers(-lim, lim, (m, k * kt)).astype(tin)
    B = rng.integers(-lim, lim, (k * kt, n)).astype(tin)
    with iron.device(dev):
        ker = kernels.mm(m, k, n, tin, tout)
        r, s, t = ker.mac_dims
        assert (r, s, t) == {"npu1": {1: (4, 8, 8), 2: (4, 4, 4)},
                             "npu2": {1: (8, 8, 8), 2: (4, 4, 8)}}[dev][np.dtype(tin).itemsize]
        a_tiles = np.concatenate([blocked(A[:, j * k:(j + 1) * k], r, s) for j in range(kt)])
        b_tiles = np.concatenate([blocked(B[j * k:(j + 1) * k], s, t) for j in range(kt)])
        c = np.full(m * n, 99, dtype=tout)               # zero() clears it
        run_mm(ker, a_tiles, b_tiles, c, kt)
    want = (A.astype(np.int64) @ B.astype(np.int64)).astype(tout)
    assert_bits(unblocked(c, m, n, r, t), want)


@pytest.mark.parametrize("b_col_maj", [False, True])
@pytest.mark.parametrize("c_col_maj", [False, True])
def test_mm_scalar_row_and_column_major(b_col_maj, c_col_maj):
    m, k, n = 8, 12, 4
    rng = np.random.default_rng(7)
    A = rng.integers(-300, 300, (m, k)).astype(np.int16)
    B = rng.integers(-300, 300, (k, n)).astype(np.int16)
    with iron.device("npu2"):
        ker = kernels.mm(m, k, n, np.int16, np.int32, vectorized=False,
                         b_col_maj=b_col_maj, c_col_maj=c_col_maj)
        assert ker.name == "matmul_scalar_i16_i32" and ker.zero.name == "zero_scalar_i32"
        c = np.zeros(m * n, dtype=np.int32)
        run_mm(ker, A.ravel(), (B.T if b_col_maj else B).ravel(), c, 1)
    want = A.astype(np.int32) @ B.astype(np.int32)
    assert_bits(c, (want.T if c_col_maj else want).ravel())


# --------------------------------------------------------------- vision

W = 64


def test_rgba2gray_and_gray2rgba():
    rgba = int_data(4 * W, np.uint8, 0, 256, seed=8)
    gray = np.zeros(W, dtype=np.uint8)
    with iron.device("npu1"):
        one_call(kernels.rgba2gray(W), [rgba], [gray], lambda k, i, o: k(i, o, W))
        px = rgba.reshape(W, 4).astype(np.int32)
        want = (9798 * px[:, 0] + 19235 * px[:, 1] + 3736 * px[:, 2] + (1 << 14)) >> 15
        assert_bits(gray, np.minimum(want, 255).astype(np.uint8))
        back = np.zeros(4 * W, dtype=np.uint8)
        one_call(kernels.gray2rgba(W), [gray], [back], lambda k, i, o: k(i, o, W))
    want = np.stack([gray, gray, gray, np.full(W, 255, np.uint8)], axis=1).ravel()
    assert_bits(back, want)


@pytest.mark.parametrize("kind", range(5))
def test_threshold(kind):
    x = int_data(W, np.uint8, 0, 256, seed=9)
    y = np.zeros_like(x)
    with iron.device("npu2"):
        one_call(kernels.threshold(W), [x], [y],
                 lambda k, i, o: k(i, o, W, 100, 200, kind))
    above = x > 100
    want = [np.where(above, 200, 0), np.where(above, 0, 200), np.where(above, 100, x),
            np.where(above, x, 0), np.where(above, 0, x)][kind]
    assert_bits(y, want.astype(np.uint8))


def test_add_weighted():
    a = int_data(W, np.uint8, 0, 256, seed=10)
    b = int_data(W, np.uint8, 0, 256, seed=11)
    y = np.zeros_like(a)
    with iron.device("npu1"):
        one_call(kernels.add_weighted(W), [a, b], [y],
                 lambda k, a, b, o: k(a, b, o, W, 9000, -3000, 5))
    acc = 5 + 9000 * a.astype(np.int64) - 3000 * b.astype(np.int64)
    assert_bits(y, np.clip(acc >> 14, 0, 255).astype(np.uint8))


def test_filter2d():
    # Three lines through one FIFO (a tile has two input channels), taken
    # together with acquire(3); the coefficients are a buffer on the tile.
    lines = int_data(3 * W, np.uint8, 0, 256, seed=12)
    y = np.zeros(W, dtype=np.uint8)
    coeffs = np.array([[0, 4096, 0], [4096, -16384, 4096], [0, 4096, 0]], np.int16)

    def design(x, out):
        line = np.ndarray[(W,), np.dtype[np.uint8]]
        f_in, f_out = ObjectFifo(line, depth=3), ObjectFifo(line)
        buf = Buffer(np.ndarray[(3, 3), np.dtype[np.int16]], initial_value=coeffs,
                     name="coeffs")

        def core(h_in, h_out, filt, c):
            l0, l1, l2 = h_in.acquire(3)
            o = h_out.acquire(1)
            filt(l0, l1, l2, o, W, c)
            h_in.release(3)
            h_out.release(1)

        w = Worker(core, [f_in.cons(), f_out.prod(), kernels.filter2d(W), buf])

        def seq(x, out, p, c):
            p.fill(x)
            c.drain(out, wait=True)

        rt = Runtime(seq, [np.ndarray[(3 * W,), np.dtype[np.uint8]], line, f_in.prod(),
                           f_out.cons()])
        return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()

    with iron.device("npu2"):
        iron.jit(design)(lines, y)
    pad = [np.concatenate([ln[:1], ln, ln[-1:]]).astype(np.int64)
           for ln in lines.reshape(3, W)]
    k8 = coeffs.astype(np.int64) >> 8
    acc = sum(k8[r, c] * pad[r][c:c + W] for r in range(3) for c in range(3))
    assert_bits(y, np.clip(acc >> 4, 0, 255).astype(np.uint8))


# --------------------------------------------------------------- factories

def test_a_factory_called_twice_gives_one_kernel():
    assert kernels.passthrough(64, np.int16) is kernels.passthrough(64, np.int16)
    assert kernels.passthrough(64, np.int16) is not kernels.passthrough(64, np.int32)
    k = kernels.passthrough()
    assert (k.name, k.tile_size(), k.arg_type_names()) == \
        ("passThroughLine", 4096, ["int32*", "int32*", "int32"])


@pytest.mark.parametrize("call, words", [
    (lambda: kernels.passthrough(dtype=np.float32),
     "passthrough\\(\\): dtype must be np.uint8, np.int16 or np.int32, got float32"),
    (lambda: kernels.scale(dtype=np.uint8), "scale\\(\\): dtype must be np.int16 or np.int32"),
    (lambda: kernels.add(tile_size=512), "add\\(\\): tile_size must be 1024"),
    (lambda: kernels.mul(dtype=np.float32), "mul\\(\\): dtype must be bfloat16"),
    (lambda: kernels.relu(2048), "relu\\(\\): tile_size must be 1024"),
    (lambda: kernels.reduce_add(dtype=np.int16), "reduce_add\\(\\): dtype must be np.int32"),
    (lambda: kernels.reduce_max(dtype=np.float32),
     "reduce_max\\(\\): dtype must be np.int32 or bfloat16"),
    (lambda: kernels.compute_max(np.int8), "compute_max\\(\\): dtype must be"),
    (lambda: kernels.mm(input_dtype=np.int32, output_dtype=np.int32),
     "mm\\(\\): \\(input_dtype, output_dtype\\) = \\(int32, int32\\)"),
    (lambda: kernels.mm(dim_m=6), "the tile 6 x 64 x 64 is not made of 4 x 4"),
    (lambda: kernels.passthrough(tile_size=0), "tile_size must be a positive int"),
    (lambda: kernels.threshold(dtype=np.float32), "threshold\\(\\): dtype must be"),
])
def test_factory_errors(call, words):
    with iron.device("npu1"):
        with pytest.raises(ValueError, match=words):
            call()


@pytest.mark.parametrize("name", ["gelu", "silu", "swiglu", "softmax", "bf16_exp", "mv",
                                  "cascade_mm", "rgba2hue", "bitwise_and", "bitwise_or",
                                  "conv2dk1", "conv2dk3", "bn_conv2dk3_dw"])
def test_a_kernel_without_a_c_port_is_not_implemented(name):
    with pytest.raises(NotImplementedError,
                       match=f"iron.kernels.{name}: .*no C port.*source_file"):
        getattr(kernels, name)()


@pytest.mark.parametrize("call, words", [
    (lambda: kernels.mm(input_dtype=bfloat16, output_dtype=np.float32),
     "bfloat16 variants"),
    (lambda: kernels.mm(b_col_maj=True), "vectorized kernel with b_col_maj"),
    (lambda: kernels.threshold(dtype=np.int16), "its 16-bit variant"),
    (lambda: kernels.add_weighted(dtype=np.int32), "its 32-bit variant"),
])
def test_unported_variants_are_not_implemented(call, words):
    with iron.device("npu2"):
        with pytest.raises(NotImplementedError, match=words):
            call()


def test_an_unknown_kernel_is_no_attribute():
    with pytest.raises(AttributeError):
        kernels.no_such_kernel()


def test_the_sources_are_installed_with_the_package():
    import os
    names = sorted(os.listdir(kernels.source_dir()))
    assert "passThrough.c" in names and "mm.c" in names, names


# --------------------------------------------------------------- references

def test_references():
    x = np.array([-2, -0.5, 0, 0.5, 2], dtype=np.float32)
    assert_bits(kernels.relu_ref(x), np.array([0, 0, 0, 0.5, 2], np.float32))
    assert np.allclose(kernels.silu_ref(x), x / (1 + np.exp(-x)))
    assert np.allclose(kernels.gelu_ref(np.float32([0, 1])), [0, 0.8411920], atol=1e-5)
    assert np.allclose(kernels.bf16_exp_ref(x), np.exp(x))
    s = kernels.softmax_ref(np.arange(8, dtype=np.float32), tile_size=4)
    assert np.allclose(s.reshape(2, 4).sum(axis=1), 1) and np.allclose(s[:4], s[4:])
    with pytest.raises(ValueError, match="softmax_ref: x has 8 elements, not a multiple "
                                         "of tile_size 3"):
        kernels.softmax_ref(np.zeros(8, np.float32), tile_size=3)
    b = bf16_data(16, 13)
    assert kernels.relu_ref(b).dtype == b.dtype
