# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iron._iron.Tensor (python/src/tensor.c) and the Python layer over it
(iron/_tensor.py, iron/_dtype.py): factories, zero-copy wrapping and its
lifetime, DLPack both ways, the buffer protocol and numpy views, copies,
views, text, files, comparison -- and every error they promise."""
import gc
import threading
import weakref

import numpy as np
import pytest

from iron import _iron
from iron import _dtype
from iron import _tensor as it
from iron._dtype import bfloat16

T = _iron.Tensor


def is_locked(buf):
    """Whether a bytearray has live buffer exports (it then refuses to
    change size)."""
    try:
        buf.append(0)
    except BufferError:
        return True
    buf.pop()
    return False


# --- factories ---------------------------------------------------------------

def test_factories_make_what_they_say():
    assert T.zeros("int32", (2, 3)).numpy().tolist() == [[0] * 3] * 2
    assert T.ones("u8", 4).numpy().tolist() == [1] * 4
    assert T.empty("float64", [5]).shape == (5,)
    assert T.full("int16", (2,), -7.9).numpy().tolist() == [-7, -7]
    assert T.full("uint8", 1, 300).numpy()[0] == 255
    assert T.arange("int32", 5, 0, -2).numpy().tolist() == [5, 3, 1]
    r = T.rand("float32", (100,), seed=7)
    assert r.dtype == "float32" and 0 <= r.numpy().min() < 1
    assert np.array_equal(r.numpy(), T.rand("float32", 100, 7).numpy())
    ri = T.randint("int8", 1000, -3, 3, seed=1).numpy()
    assert ri.min() == -3 and ri.max() == 2


def test_factories_return_the_class_they_are_called_on():
    assert type(it.Tensor.zeros("int32", 2)) is it.Tensor
    assert type(T.zeros("int32", 2)) is T


def test_properties():
    t = T.zeros("bf16", (3, 4))
    assert t.dtype == "bfloat16" and t.shape == (3, 4) and t.ndim == 2
    assert t.strides == (4, 1) and t.size == 12 and t.numel() == 12
    assert t.nbytes == 24 and t.is_contiguous and not t.is_wrapped
    assert t.device in _iron.device_names() and not t.readonly
    assert t.base is None


@pytest.mark.parametrize("call,exc,text", [
    (lambda: T.zeros("int33", 4), _iron.DtypeError, "unknown dtype 'int33'"),
    (lambda: T.zeros(np.int32, 4), TypeError, "dtype must be a dtype name"),
    (lambda: T.zeros("int32", (1,) * 7), _iron.ShapeError,
     "has 7 dims; at most 6"),
    (lambda: T.zeros("int32", (2, 0)), _iron.ShapeError, "0"),
    (lambda: T.zeros("int32", "4"), TypeError, "shape must be an int or a "
     "tuple of ints"),
    (lambda: T.zeros("int32", (2, 1.5)), TypeError, r"shape\[1\] must be an "
     "int"),
    (lambda: T.arange("int32", 0, 4, 0), _iron.InvalidArgumentError,
     "step"),
    (lambda: T.arange("int32", 4, 4), _iron.ShapeError, ""),
    (lambda: T.rand("int32", 4), _iron.DtypeError, ""),
    (lambda: T.randint("uint8", 4, 0, 257), _iron.InvalidArgumentError,
     "257"),
    (lambda: T.rand("float32", 4, seed=-1), _iron.InvalidArgumentError,
     "seed must be in 0"),
    (lambda: T.rand("float32", 4, seed=1.0), TypeError, "seed must be an "
     "int"),
    (lambda: T.load_npy("/nonexistent/x.npy"), _iron.IOFailure,
     "/nonexistent/x.npy"),
])
def test_factory_errors(call, exc, text):
    with pytest.raises(exc, match=text):
        call()


# --- wrap: zero-copy, errors, lifetime ----------------------------------------

def test_wrap_is_zero_copy_both_ways():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    t = T.wrap(a, "a")
    assert t.shape == (3, 4) and t.dtype == "int32" and t.is_wrapped
    assert t.base is a
    a[1, 2] = 99
    assert t.numpy()[1, 2] == 99
    t.numpy()[0, 0] = -5
    assert a[0, 0] == -5
    m = memoryview(t)
    m[2, 3] = 77  # writes through the buffer export
    assert a[2, 3] == 77


@pytest.mark.parametrize("fmt_type,name", [
    (np.int8, "int8"), (np.uint8, "uint8"), (np.int16, "int16"),
    (np.uint16, "uint16"), (np.int32, "int32"), (np.uint32, "uint32"),
    (np.int64, "int64"), (np.uint64, "uint64"), (np.float32, "float32"),
    (np.float64, "float64"), (np.longlong, "int64"), (np.ulonglong, "uint64"),
])
def test_wrap_dtype_from_the_format(fmt_type, name):
    assert T.wrap(np.zeros(3, dtype=fmt_type)).dtype == name


def test_wrap_other_buffer_exporters_and_0d():
    b = bytearray(8)
    t = T.wrap(b)
    assert t.dtype == "uint8" and t.shape == (8,)
    t.numpy()[3] = 9
    assert b[3] == 9
    import array
    arr = array.array("f", [1.5, 2.5])
    assert T.wrap(arr).numpy().tolist() == [1.5, 2.5]
    assert T.wrap(np.array(5, dtype=np.int16)).shape == (1,)


def test_wrap_dtype_override_and_bfloat16_arrays():
    bits = np.array([0x3FC0, 0x4000], dtype=np.uint16)
    t = T.wrap(bits, dtype="bfloat16")
    assert t.dtype == "bfloat16"
    assert t.numpy().astype(np.float32).tolist() == [1.5, 2.0]
    a = np.array([1, 2, 3], dtype=np.float32).astype(bfloat16)
    w = T.wrap(a)
    assert w.dtype == "bfloat16"
    w.numpy()[0] = 8
    assert float(a[0]) == 8.0


def test_wrap_noncontiguous_names_the_argument_and_never_copies():
    a = np.arange(16, dtype=np.int32).reshape(4, 4)
    with pytest.raises(_iron.InvalidArgumentError) as e:
        T.wrap(a[:, ::2], "argument 2 ('b')")
    msg = str(e.value)
    assert msg.startswith("argument 2 ('b'): the memory is not "
                          "C-contiguous"), msg
    assert "(4, 2)" in msg and "(16, 8)" in msg, msg
    with pytest.raises(_iron.InvalidArgumentError, match="C-contiguous"):
        T.wrap(a.T, "x")


def test_wrap_misaligned_names_the_argument():
    raw = bytearray(64)
    a = np.frombuffer(raw, dtype=np.int32, offset=2, count=4)
    with pytest.raises(_iron.InvalidArgumentError) as e:
        T.wrap(a, "argument 1 ('a')")
    msg = str(e.value)
    assert msg.startswith("argument 1 ('a'): iron_tensor_wrap: data "), msg
    assert "not aligned to 4 bytes" in msg, msg
    assert e.value.status_name == "IRON_EINVAL"


def test_wrap_read_only():
    a = np.frombuffer(bytes(16), dtype=np.int32)
    with pytest.raises(_iron.InvalidArgumentError,
                       match="^out: the memory is read-only"):
        T.wrap(a, "out")
    t = T.wrap(a, "in", writable=False)
    assert t.readonly and not t.numpy().flags.writeable
    assert memoryview(t).readonly
    with pytest.raises(_iron.InvalidArgumentError, match="read-only"):
        t.copy_from(np.zeros(4, dtype=np.int32))
    with pytest.raises(_iron.InvalidArgumentError, match="read-only"):
        T.wrap(t, "again")
    assert T.wrap(t, "again", writable=False).readonly
    assert t.reshape((2, 2)).readonly
    with pytest.raises(_iron.InvalidArgumentError, match="read-only"):
        t.__dlpack__()


@pytest.mark.parametrize("obj,dtype,exc,text", [
    ([1, 2, 3], None, TypeError, "^x must be a Tensor, a numpy array or "
     "another object with the buffer protocol, not list"),
    (np.zeros(2, dtype=np.float16), None, _iron.DtypeError,
     "^x: the memory's format 'e'"),
    (np.zeros(2, dtype=">i4"), None, _iron.DtypeError, "format '>i'"),
    (np.zeros(2, dtype=bool), None, _iron.DtypeError, "format '\\?'"),
    (np.zeros(2, dtype=np.int32), "int16", _iron.DtypeError,
     "^x: dtype int16 has 2-byte elements but the memory's are 4 bytes"),
    (np.zeros(2, dtype=np.int32), "nope", _iron.DtypeError, "'nope'"),
    (np.zeros((1,) * 7, dtype=np.int32), None, _iron.ShapeError,
     "^x has 7 dims; at most 6"),
    (np.zeros((2, 0), dtype=np.int32), None, _iron.ShapeError, "^x: "),
])
def test_wrap_errors(obj, dtype, exc, text):
    with pytest.raises(exc, match=text):
        T.wrap(obj, "x", dtype=dtype)


def test_wrap_of_a_tensor_shares_it():
    t = T.arange("int32", 0, 6)
    w = T.wrap(t)
    w.numpy()[0] = 42
    assert t.numpy()[0] == 42
    with pytest.raises(_iron.InvalidArgumentError, match="^v: the tensor "
                       "is a strided view"):
        T.wrap(t.view(0, (3,), (2,)), "v")
    with pytest.raises(_iron.DtypeError, match="^w: the tensor is int32, "
                       "not float32"):
        T.wrap(t, "w", dtype="float32")


def test_wrap_keeps_the_exporter_until_the_last_tensor_goes():
    buf = bytearray(range(16))
    t = T.wrap(buf)
    ref = weakref.ref(t)
    assert is_locked(buf)
    view = t.reshape((4, 4))    # shares the memory
    del t
    gc.collect()
    assert ref() is None
    assert is_locked(buf) and view.numpy()[3, 3] == 15
    del view
    gc.collect()
    assert not is_locked(buf)


def test_wrap_holds_the_array_after_the_caller_drops_it():
    a = np.arange(1000, dtype=np.float64)
    ref = weakref.ref(a)
    t = T.wrap(a)
    del a
    gc.collect()
    assert ref() is not None
    assert t.numpy()[999] == 999.0
    del t
    gc.collect()
    assert ref() is None


def test_release_runs_on_another_thread_under_the_gil():
    bufs = [bytearray(64) for _ in range(8)]
    tensors = [T.wrap(b) for b in bufs]
    assert all(is_locked(b) for b in bufs)

    def drop(ts):
        while ts:
            ts.pop()

    th = threading.Thread(target=drop, args=(tensors,))
    th.start()
    th.join()
    gc.collect()
    assert not any(is_locked(b) for b in bufs)


# --- DLPack ---------------------------------------------------------------------

def test_numpy_from_dlpack_of_a_tensor_is_zero_copy():
    t = T.arange("float32", 0, 6)
    a = np.from_dlpack(t)
    assert a.dtype == np.float32 and a.shape == (6,)
    t.numpy()[2] = 42          # write through the tensor ...
    assert a[2] == 42          # ... read through the DLPack import
    del t
    gc.collect()
    assert a.tolist() == [0, 1, 42, 3, 4, 5]   # the export keeps it alive
    assert T.zeros("int8", 1).__dlpack_device__() == (1, 0)


def test_numpy_from_dlpack_of_a_strided_view():
    t = T.arange("int64", 0, 12).reshape((3, 4))
    v = t.view(1, (3, 2), (4, 2))
    a = np.from_dlpack(v)
    assert a.tolist() == [[1, 3], [5, 7], [9, 11]]
    t.numpy()[2, 3] = -1
    assert a[2, 1] == -1


def test_tensor_from_dlpack_of_numpy_is_zero_copy_and_releases():
    a = np.arange(8, dtype=np.int16)
    ref = weakref.ref(a)
    t = it.from_dlpack(a)
    assert type(t) is it.Tensor and t.is_wrapped
    a[5] = 500                 # write through numpy ...
    assert t.numpy()[5] == 500  # ... read through the tensor
    t.numpy()[0] = -1
    assert a[0] == -1
    del a
    gc.collect()
    assert ref() is not None    # the producer's deleter has not run
    del t
    gc.collect()
    assert ref() is None        # now it has, under the GIL


def test_tensor_from_dlpack_strided_arrives_as_a_view():
    a = np.arange(20, dtype=np.float64).reshape(4, 5)[:, 1::2]
    t = T.from_dlpack(a)
    assert not t.is_contiguous and t.shape == (4, 2)
    assert t.strides == (5, 2)
    assert np.array_equal(t.numpy(), a)


def test_from_dlpack_errors():
    with pytest.raises(TypeError, match="expected an object with "
                       "__dlpack__"):
        T.from_dlpack([1, 2])
    a = np.arange(3, dtype=np.int32)
    capsule = a.__dlpack__()
    T.from_dlpack(capsule)
    with pytest.raises(_iron.InvalidArgumentError, match="not an unused "
                       "DLPack tensor"):
        T.from_dlpack(capsule)
    c = np.zeros(2, dtype=np.complex64)
    ref = weakref.ref(c)
    with pytest.raises(_iron.DtypeError, match="kDLComplex"):
        T.from_dlpack(c)
    del c
    gc.collect()
    assert ref() is None        # the failed import left the capsule's


def test_dlpack_export_errors_and_unconsumed_capsules():
    t = T.zeros("int32", 4)
    with pytest.raises(_iron.InvalidArgumentError, match="stream must be "
                       "None"):
        t.__dlpack__(stream=1)
    for _ in range(3):
        t.__dlpack__()          # dropped unconsumed: deleted with it
    back = T.from_dlpack(t)     # a tensor of ours, through DLPack
    back.numpy()[1] = 3
    assert t.numpy()[1] == 3


def test_bfloat16_through_dlpack():
    t = T.full("bfloat16", 3, 1.5)
    back = T.from_dlpack(t)
    assert back.dtype == "bfloat16"
    assert back.numpy().astype(np.float32).tolist() == [1.5] * 3


# --- buffer protocol and numpy --------------------------------------------------

def test_buffer_export_layout():
    t = T.arange("uint16", 0, 6).reshape((2, 3))
    m = memoryview(t)
    assert (m.format, m.itemsize, m.shape, m.strides) == \
        ("H", 2, (2, 3), (6, 2))
    assert not m.readonly and m.tolist() == [[0, 1, 2], [3, 4, 5]]
    v = t.view(0, (2, 2), (3, 2))
    mv = memoryview(v)
    assert mv.strides == (6, 4) and mv.tolist() == [[0, 2], [3, 5]]
    assert np.asarray(v).tolist() == [[0, 2], [3, 5]]
    with pytest.raises(BufferError, match="C-contiguous"):
        np.frombuffer(v, dtype=np.uint16)
    assert bytes(T.arange("uint8", 1, 4)) == b"\x01\x02\x03"


def test_bfloat16_buffer_has_no_format_but_numpy_views_it():
    t = T.full("bfloat16", (2, 2), 2.5)
    with pytest.raises(BufferError, match="no buffer format"):
        memoryview(t)
    a = np.asarray(t)
    assert a.dtype == np.dtype(bfloat16)
    a[0, 1] = 7
    assert t.numpy()[0, 1] == 7
    assert t.allclose(np.array([[2.5, 7], [2.5, 2.5]]))[0]
    assert t.numpy().view(np.uint16).ravel().tolist() == \
        [0x4020, 0x40E0, 0x4020, 0x4020]


def test_numpy_view_and_array_protocol():
    t = T.arange("int32", 0, 4)
    a = t.numpy()
    assert a.base is t and a.flags.writeable
    assert np.asarray(t).__array_interface__["data"][0] == \
        a.__array_interface__["data"][0]
    f = np.asarray(t, dtype=np.float64)
    assert f.dtype == np.float64 and f.tolist() == [0, 1, 2, 3]
    same = t.__array__(np.int32)
    same[3] = 30                      # an equal dtype: still the view
    assert t.numpy()[3] == 30
    assert t.__array__(copy=True).base is None
    c = np.array(t)          # a copy
    c[0] = 9
    assert t.numpy()[0] == 0
    assert (np.add(t, 1)).tolist() == [1, 2, 3, 31]


# --- copies, views, text, files, comparison ------------------------------------

def test_copy_from_and_to():
    t = T.zeros("float32", (2, 2))
    t.copy_from(np.array([[1, 2], [3, 4]], dtype=np.float32))
    assert t.numpy().tolist() == [[1, 2], [3, 4]]
    out = np.zeros(4, dtype=np.float32)
    t.copy_to(out)
    assert out.tolist() == [1, 2, 3, 4]
    t.copy_from(np.arange(4, dtype=np.float32).tobytes())
    assert t.numpy().ravel().tolist() == [0, 1, 2, 3]
    u = T.zeros("float32", (2, 2))
    u.copy_from(t)
    assert u.numpy().tolist() == t.numpy().tolist()
    w = T.zeros("float32", (2, 2))
    t.copy_to(w)
    assert w.numpy().tolist() == t.numpy().tolist()
    b = T.zeros("bfloat16", 2)
    b.copy_from(np.array([1.5, 3], dtype=np.float32).astype(bfloat16))
    b.copy_from(np.array([0x3FC0, 0x4040], dtype=np.uint16))
    assert b.numpy().astype(np.float32).tolist() == [1.5, 3.0]


@pytest.mark.parametrize("call,exc,text", [
    (lambda t: t.copy_from(np.zeros(4, dtype=np.float64)), _iron.DtypeError,
     "^copy_from: the source: the memory's elements are float64 "
     "\\(format 'd'\\), the tensor's are int32"),
    (lambda t: t.copy_from(np.zeros(5, dtype=np.int32)), _iron.ShapeError,
     "20"),
    (lambda t: t.copy_from(np.zeros(8, dtype=np.int32)[::2]),
     _iron.InvalidArgumentError, "^copy_from: the source: the memory is "
     "not C-contiguous"),
    (lambda t: t.copy_to(np.frombuffer(bytes(16), dtype=np.int32)),
     _iron.InvalidArgumentError, "^copy_to: the destination: the memory is "
     "read-only"),
    (lambda t: t.copy_from([1, 2, 3, 4]), TypeError, "^copy_from: the "
     "source must be a Tensor"),
    (lambda t: t.copy_from(T.zeros("int64", 4)), _iron.DtypeError, ""),
    (lambda t: t.copy_to(T.zeros("int32", 5)), _iron.ShapeError, ""),
    (lambda t: t.copy_from(np.zeros(4, dtype=np.uint32)), _iron.DtypeError,
     "uint32"),
])
def test_copy_errors(call, exc, text):
    with pytest.raises(exc, match=text):
        call(T.zeros("int32", 4))


def test_reshape_view_copy():
    t = T.arange("int32", 0, 12)
    r = t.reshape((3, -1))
    assert r.shape == (3, 4) and type(r) is T
    r.numpy()[1, 1] = 55
    assert t.numpy()[5] == 55
    v = t.view(2, (2, 2), (4, 1))
    assert v.numpy().tolist() == [[2, 3], [6, 7]] and not v.is_contiguous
    c = v.copy()
    assert c.is_contiguous and c.numpy().tolist() == [[2, 3], [6, 7]]
    c.numpy()[0, 0] = -1
    assert t.numpy()[2] == 2
    assert type(it.arange(4).reshape((2, 2))) is it.Tensor
    with pytest.raises(_iron.ShapeError):
        t.reshape((5, 5))
    with pytest.raises(_iron.ShapeError):
        v.reshape(4)
    with pytest.raises(_iron.BoundsError):
        t.view(10, (2, 2))
    with pytest.raises(_iron.ShapeError, match="1 strides for 2 dims"):
        t.view(0, (2, 2), (1,))


def test_format_is_numpy_s_text():
    for a in (np.arange(12, dtype=np.int32).reshape(3, 4),
              np.array([0.5, 1.25, -3], dtype=np.float32),
              np.arange(2000, dtype=np.int64)):
        t = T.wrap(a)
        assert t.format() == repr(a), (t.format(), repr(a))
        assert t.format(plain=True) == str(a)
    t = T.arange("int32", 0, 10)
    assert t.format(threshold=4, edgeitems=1) == \
        "array([0, ..., 9], dtype=int32)"
    with pytest.raises(_iron.InvalidArgumentError):
        t.format(linewidth=-1)
    assert repr(t) == "Tensor([0 1 2 3 4 5 6 7 8 9], dtype=int32, " \
        f"device='{t.device}')"
    two = repr(T.zeros("int8", (2, 2)))
    assert two.splitlines()[1] == "        [0 0]]" + two.split("]]")[1]


def test_npy_round_trip(tmp_path):
    t = T.arange("float64", 0, 6).reshape((2, 3))
    path = tmp_path / "t.npy"
    t.save_npy(path)
    assert np.array_equal(np.load(path), t.numpy())
    back = it.Tensor.load_npy(str(path))
    assert type(back) is it.Tensor and back.shape == (2, 3)
    with pytest.raises(_iron.IOFailure):
        t.save_npy(tmp_path / "no" / "such" / "dir.npy")


def test_sync():
    t = T.zeros("int32", 2)
    t.sync("to_device")
    t.sync("to_host")
    with pytest.raises(_iron.InvalidArgumentError, match="\"to_device\" or "
                       "\"to_host\", got 'up'"):
        t.sync("up")


def test_allclose():
    t = T.wrap(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    assert t.allclose(np.array([1, 2, 3], dtype=np.float64)) == (True, "")
    ok, report = t.allclose(np.array([1, 2, 3.5]))
    assert not ok and "1 of 3 elements differs" in report, report
    assert t.allclose(np.array([1, 2, 3.5]), atol=0.6)[0]
    assert t.allclose(T.full("float32", 1, 2.0))[0] is False
    assert T.full("bfloat16", 4, 0.1).allclose(0.1, rtol=1e-2)[0]
    assert T.full("int32", 4, 3).allclose(3) == (True, "")
    n = T.full("float32", 2, float("nan"))
    assert not n.allclose(n)[0] and n.allclose(n, equal_nan=True)[0]
    with pytest.raises(_iron.DtypeError):
        t.allclose(np.array([1, 2, 3], dtype=np.int32))
    with pytest.raises(_iron.ShapeError):
        t.allclose(np.zeros(2))
    with pytest.raises(_iron.InvalidArgumentError):
        t.allclose(t, rtol=-1)
    with pytest.raises(TypeError, match="^allclose: expected must be"):
        t.allclose("x")


# --- the Python layer -------------------------------------------------------------

def test_python_tensor_conventions():
    t = it.tensor([[1, 2], [3, 4]], dtype=np.int32)
    assert isinstance(t, T) and t.dtype == np.dtype(np.int32)
    assert t.shape == (2, 2) and t.numel() == 4 and len(t) == 2
    assert t[1, 0] == 3 and t[0].tolist() == [1, 2]
    t[0, 0] = 10
    assert np.asarray(t)[0, 0] == 10 and t.data[0, 0] == 10
    assert t.to("npu") is t and t.to("cpu") is t and t.to("npu1") is t
    with pytest.raises(ValueError, match="Unknown device 'gpu'"):
        t.to("gpu")
    assert t.buffer_object() is t
    t.fill(7)
    assert t.numpy().tolist() == [[7, 7], [7, 7]]
    assert it.zeros(2, dtype=bfloat16).dtype == np.dtype(bfloat16)
    assert repr(t).startswith("Tensor([[7 7]")


def test_python_factories():
    assert it.zeros(2, 3, dtype=np.int16).shape == (2, 3)
    assert it.zeros((2, 3), dtype="i16").dtype == np.int16
    assert it.zeros([4]).dtype == np.uint32          # upstream's default
    assert it.ones(3, dtype=np.float32).numpy().tolist() == [1, 1, 1]
    assert it.full((2,), 2.5).dtype == np.float32
    assert it.full(2, 3, dtype=np.int8).numpy().tolist() == [3, 3]
    assert it.arange(4).dtype == np.int64
    assert it.arange(1, 2, 0.5).numpy().tolist() == [1.0, 1.5]
    assert it.arange(4, dtype=np.int32).numpy().tolist() == [0, 1, 2, 3]
    r = it.randint(0, 5, (100,), dtype=np.int32, seed=3)
    assert r.shape == (100,) and r.numpy().max() < 5
    assert np.array_equal(r.numpy(), it.randint(0, 5, 100, dtype=np.int32,
                                                 seed=3).numpy())
    np.random.seed(1)
    a = it.rand(8).numpy()
    np.random.seed(1)
    assert np.array_equal(a, it.rand(8).numpy())   # numpy's seed drives it
    assert it.rand(2, 2, dtype=np.float64).dtype == np.float64
    z = it.zeros_like(it.ones(3, dtype=np.int8))
    assert z.dtype == np.int8 and z.numpy().tolist() == [0, 0, 0]
    assert it.zeros_like(np.ones((2, 2)), dtype=np.int32).shape == (2, 2)
    assert it.tensor((2, 3)).numpy().tolist() == [[0] * 3] * 2
    assert it.tensor(np.arange(3.0)).dtype == np.float64
    assert it.tensor([1, 2]).dtype == np.uint32
    assert it.tensor(5, dtype=np.int8).shape == (1,)
    src = np.arange(3, dtype=np.int32)
    copied = it.tensor(src)
    copied[0] = 9
    assert src[0] == 0
    shared = it.tensor(src, copy=False)
    shared[0] = 9
    assert src[0] == 9
    assert it.tensor(it.ones(2, dtype=np.int8)).dtype == np.int8
    assert it.Tensor((2, 2), dtype=np.int16).numpy().tolist() == [[0, 0]] * 2
    assert it.Tensor([1.5], dtype=np.float32)[0] == 1.5
    with pytest.raises(TypeError, match="cannot create"):
        T()
    assert it.zeros(2, dtype=np.int8, device="npu1_1col").device == \
        "npu1_1col"
    with pytest.raises(_iron.DeviceError):
        it.zeros(2, device="npu9")
    assert _iron.current_device() in _iron.device_names()   # popped
    with pytest.raises(TypeError, match="size must be ints"):
        it.zeros(2.5)
    with pytest.raises(TypeError, match="device must be a device name"):
        it.zeros(2, device=3)


def test_as_tensor():
    t = it.zeros(2, dtype=np.int32)
    assert it.as_tensor(t) is t
    a = np.zeros(4, dtype=np.float32)
    w = it.as_tensor(a, "argument 0 ('a')")
    a[3] = 1
    assert type(w) is it.Tensor and w[3] == 1
    with pytest.raises(_iron.InvalidArgumentError,
                       match="^argument 1 \\('b'\\): the memory is not "
                       "C-contiguous"):
        it.as_tensor(np.zeros((4, 4))[:, 1], "argument 1 ('b')")
    with pytest.raises(TypeError, match="^argument 2 \\('c'\\) must be a "
                       "Tensor, a numpy array or an object with __dlpack__"):
        it.as_tensor([1, 2], "argument 2 ('c')")
    ro = it.as_tensor(np.frombuffer(bytes(8), dtype=np.int32), "in",
                      writable=False)
    assert ro.readonly
    assert it.as_tensor(bytearray(4)).dtype == np.uint8

    class OnlyDlpack:
        def __init__(self, arr):
            self.arr = arr

        def __dlpack__(self, stream=None):
            return self.arr.__dlpack__()

        def __dlpack_device__(self):
            return self.arr.__dlpack_device__()

    src = np.arange(3, dtype=np.int64)
    d = it.as_tensor(OnlyDlpack(src))
    src[1] = 8
    assert d[1] == 8


def test_dtype_mapping():
    assert _dtype.to_numpy_dtype("i32") == np.int32
    assert _dtype.to_numpy_dtype("bf16") == np.dtype(bfloat16)
    assert _dtype.to_numpy_dtype(np.float64) == np.float64
    assert _dtype.to_numpy_dtype(np.dtype("<u2")) == np.uint16
    assert _dtype.to_numpy_dtype(bfloat16) == np.dtype(bfloat16)
    assert _dtype.to_iron_name(np.uint8) == "uint8"
    assert _dtype.to_iron_name("float") == "float32"   # the library's alias
    assert _dtype.str_to_dtype("i32") is np.int32
    assert _dtype.str_to_dtype("bf16") is bfloat16
    assert _dtype.str_to_dtype("uint64") is np.uint64
    assert _dtype.dtype_to_str(np.int16) == "i16"
    assert _dtype.dtype_to_str(bfloat16) == "bf16"
    with pytest.raises(ValueError, match="Unrecognized dtype: i33"):
        _dtype.str_to_dtype("i33")
    with pytest.raises(ValueError, match="Unrecognized dtype"):
        _dtype.dtype_to_str(np.complex64)
    with pytest.raises(TypeError, match="iron holds int8, uint8"):
        _dtype.to_numpy_dtype(np.float16)
    with pytest.raises(TypeError, match="not a dtype"):
        _dtype.to_numpy_dtype(object())
    assert _iron.dtype_name("u16") == "uint16"
    assert _iron.dtype_names()[0] == "int8" and "bfloat16" in \
        _iron.dtype_names()
    with pytest.raises(_iron.DtypeError):
        _iron.dtype_name("x")


def test_ml_dtypes_bfloat16_maps_to_ours():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert _dtype.to_numpy_dtype(ml_dtypes.bfloat16) == np.dtype(bfloat16)
    a = np.array([1.5, 2], dtype=ml_dtypes.bfloat16)
    t = it.as_tensor(a)
    assert t.dtype == np.dtype(bfloat16)
    assert t.numpy().astype(np.float32).tolist() == [1.5, 2.0]
