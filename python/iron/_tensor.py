# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Tensors as upstream IRON's programs use them.

``Tensor`` is the binding's tensor (iron._iron.Tensor, one library tensor
each) with numpy's conventions on top: ``.dtype`` is a numpy dtype,
``.numpy()`` and ``np.asarray(t)`` are views of its memory (no copy),
indexing goes through that view.  The functions are upstream's
(``iron.tensor``, ``zeros``, ``ones``, ``full``, ``arange``, ``randint``,
``rand``, ``zeros_like``): they allocate library tensors on the current
device, or on ``device=`` when it names one.  ``as_tensor`` is what the jit
does with its arguments: a Tensor as it is, anything else wrapped where it
lies, never copied.
"""
import contextlib
import operator

import numpy as np

from . import _iron
from ._dtype import bfloat16, to_iron_name, to_numpy_dtype

__all__ = ["Tensor", "tensor", "zeros", "ones", "full", "arange", "randint",
           "rand", "zeros_like", "from_dlpack", "as_tensor", "bfloat16"]

# Upstream's default element type when none is given (its Tensor class's).
DEFAULT_DTYPE = np.uint32

# Device names upstream's programs pass; on the emulator both are the
# current device.
_HOST_NAMES = ("npu", "cpu")


def _device_name(device):
    """None for the current device, else a library device name."""
    if device is None or device in _HOST_NAMES:
        return None
    name = getattr(device, "name", device)
    if not isinstance(name, str):
        raise TypeError(f"device must be a device name (str) such as "
                        f"'npu2', not {type(device).__name__}")
    return name


@contextlib.contextmanager
def _on(device):
    """Runs the block with `device` (a name) as the thread's device."""
    name = _device_name(device)
    if name is None:
        yield
        return
    try:
        # push_device always pushes, even when it raises: pop either way.
        _iron.push_device(name)
        yield
    finally:
        _iron.pop_device()


def _shape_of(size, what="size"):
    """A shape tuple from upstream's spellings: zeros(4, 5), zeros((4, 5)),
    zeros([4, 5]), zeros(4)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    try:
        return tuple(operator.index(s) for s in size)
    except TypeError:
        raise TypeError(f"{what} must be ints or one tuple of ints, "
                        f"got {size!r}") from None


class Tensor(_iron.Tensor):
    """A tensor of the iron library, with numpy's conventions.

    Made by the module's functions (``iron.tensor``, ``iron.zeros``, ...)
    or the class methods of ``iron._iron.Tensor`` (``Tensor.wrap``,
    ``Tensor.from_dlpack``, ...), which return this class when called on
    it.  Its memory is host memory: ``.numpy()`` is a view of it, writes
    through either side show in the other.
    """

    __slots__ = ()

    def __new__(cls, shape_or_data, dtype=None, device=None, copy=True):
        """Upstream's constructor: Tensor(shape_or_data, dtype=None,
        device=None), as iron.tensor()."""
        return tensor(shape_or_data, dtype=dtype, device=device, copy=copy)

    @property
    def dtype(self):
        """The element type as a numpy dtype (bfloat16 as iron.bfloat16)."""
        return to_numpy_dtype(_iron.Tensor.dtype.__get__(self))

    @property
    def data(self):
        """The elements as an ndarray view (upstream's attribute)."""
        return self.numpy()

    def to(self, device):
        """Upstream's move between devices: the emulator's memory is host
        memory, so the tensor itself is returned.  ValueError for a name
        that is no device."""
        name = _device_name(device)
        if name is not None and name not in _iron.device_names():
            raise ValueError(f"Unknown device '{device}'; known: npu, cpu, "
                             f"{', '.join(_iron.device_names())}")
        return self

    def buffer_object(self):
        """What upstream's runtimes take as the device buffer: the tensor."""
        return self

    def fill(self, value):
        """Every element set to value (numpy's conversion)."""
        self.numpy().fill(value)

    def __getitem__(self, index):
        return self.numpy()[index]

    def __setitem__(self, index, value):
        self.numpy()[index] = value

    def __len__(self):
        return self.shape[0]

    def __iter__(self):
        return iter(self.numpy())


def _from_data(data, dtype):
    """A new tensor holding a copy of data (array-like) as dtype."""
    arr = np.asarray(data, dtype=dtype)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    t = Tensor.empty(to_iron_name(arr.dtype), arr.shape)
    np.copyto(t.numpy(), arr)
    return t


def tensor(data_or_shape, dtype=None, device=None, copy=True):
    """Upstream's iron.tensor: a tuple is a shape (a tensor of zeros),
    anything else data copied into a new tensor.  dtype defaults to the
    data's own (an ndarray's or a Tensor's), else np.uint32 (upstream's
    default).  With copy=False an array or Tensor is used where it lies
    (as_tensor) when its dtype is the one asked for."""
    if dtype is not None:
        dtype = to_numpy_dtype(dtype)
    with _on(device):
        if isinstance(data_or_shape, tuple):
            return zeros(data_or_shape, dtype=dtype or DEFAULT_DTYPE)
        own = getattr(data_or_shape, "dtype", None)
        if dtype is None:
            dtype = to_numpy_dtype(own) if own is not None else DEFAULT_DTYPE
        if not copy and own is not None and to_numpy_dtype(own) == dtype:
            return as_tensor(data_or_shape, "data")
        if isinstance(data_or_shape, _iron.Tensor):
            data_or_shape = data_or_shape.numpy()
        return _from_data(data_or_shape, dtype)


def _factory(method, size, dtype, device, *args):
    with _on(device):
        return method(to_iron_name(dtype), _shape_of(size), *args)


def zeros(*size, dtype=None, device=None):
    """A tensor of zeros: zeros(4, 5) or zeros((4, 5)); dtype defaults to
    np.uint32 (upstream's)."""
    return _factory(Tensor.zeros, size, dtype or DEFAULT_DTYPE, device)


def ones(*size, dtype=None, device=None):
    """A tensor of ones: ones(4, 5) or ones((4, 5))."""
    return _factory(Tensor.ones, size, dtype or DEFAULT_DTYPE, device)


def full(size, fill_value, dtype=None, device=None):
    """Every element fill_value converted to dtype as the library converts
    (integers truncate and saturate, floats round to nearest even).  dtype
    defaults to np.float32 for a float fill_value, else np.uint32."""
    if dtype is None:
        dtype = np.float32 if isinstance(fill_value, float) else \
            DEFAULT_DTYPE
    return _factory(Tensor.full, (size,), dtype, device, float(fill_value))


def arange(start=0, stop=None, step=1, dtype=None, device=None, *, shape=None):
    """numpy's arange as a tensor: arange(n) or arange(start, stop, step),
    reshaped to `shape` when given (its elements must be the range's).
    dtype defaults to np.float32 when any bound is a float, else np.int64
    (upstream's rule)."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = np.float32 if any(isinstance(x, float)
                                  for x in (start, stop, step)) else np.int64
    with _on(device):
        t = Tensor.arange(to_iron_name(dtype), float(start), float(stop),
                          float(step))
    if shape is not None:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if int(np.prod(shape)) != t.size:
            raise ValueError(f"arange: shape {shape} holds {int(np.prod(shape))} "
                             f"elements; the range has {t.size}")
        t = t.reshape(shape)
    return t


def _seed(seed):
    """The seed given, else one drawn from numpy's global generator, so
    that np.random.seed() makes a program's data reproducible."""
    if seed is not None:
        return int(seed)
    return int(np.random.randint(0, 2**63 - 1, dtype=np.int64))


def randint(low, high, size, dtype=None, device=None, seed=None):
    """Uniform integers in [low, high) (the library's generator: the same
    seed gives the same data everywhere); size an int or a tuple."""
    if not isinstance(size, (tuple, list)):
        size = (size,)
    return _factory(Tensor.randint, (size,), dtype or DEFAULT_DTYPE, device,
                    int(low), int(high), _seed(seed))


def rand(*size, dtype=None, device=None, seed=None):
    """Uniform floats in [0, 1): rand(4, 5) or rand((4, 5)); dtype
    defaults to np.float32."""
    return _factory(Tensor.rand, size, dtype or np.float32, device,
                    _seed(seed))


def zeros_like(other, dtype=None, device=None):
    """A tensor of zeros with other's shape (a Tensor or an array) and its
    dtype unless dtype is given."""
    dtype = dtype if dtype is not None else other.dtype
    return zeros(tuple(other.shape), dtype=dtype, device=device)


def from_dlpack(obj):
    """A Tensor on the memory of obj (anything with __dlpack__), without
    copying; a strided producer gives a strided view."""
    return Tensor.from_dlpack(obj)


def as_tensor(obj, what="argument", writable=True):
    """The jit's argument conversion: a Tensor as it is; a numpy array, an
    object with __dlpack__ or any buffer-protocol object wrapped where it
    lies (C-contiguous and aligned, else InvalidArgumentError naming
    `what`; writable unless writable=False); TypeError naming `what` for
    anything else.  Never copies."""
    if isinstance(obj, _iron.Tensor):
        return obj
    if isinstance(obj, np.ndarray):
        if obj.dtype.name == "bfloat16" and obj.dtype != bfloat16:
            # Another library's bfloat16 (ml_dtypes'): the same bits.
            return Tensor.wrap(obj.view(np.uint16), what, writable=writable,
                               dtype="bfloat16")
        return Tensor.wrap(obj, what, writable=writable)
    try:
        memoryview(obj).release()
        has_buffer = True
    except TypeError:
        has_buffer = False
    if has_buffer:
        return Tensor.wrap(obj, what, writable=writable)
    if hasattr(obj, "__dlpack__"):
        return Tensor.from_dlpack(obj)
    raise TypeError(f"{what} must be a Tensor, a numpy array or an object "
                    f"with __dlpack__ or the buffer protocol, not "
                    f"{type(obj).__name__}")
