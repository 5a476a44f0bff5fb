# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generic designs: upstream's `aie.iron.algorithms`, written with this
package's ObjectFifo, Worker, Runtime and Program as a user would write
them.  Each returns the Module of `Program(...).resolve_program()`.

The operation is a Python function applied per element (`lambda a: a +
1`, traced into the worker's core body as `for j in range_(tile): out[j]
= func(a[j])`) or a kernel (an ExternalFunction, e.g. from iron.kernels)
called once per tile.  The data is described in either of upstream's two
spellings:

    # newest: a tensor type, inside an @iron.jit design function
    @iron.jit
    def plus_one(x: In, y: Out, *, n: CompileTime[int]):
        return transform(lambda a: a + 1, np.ndarray[(n,), np.dtype[np.int32]])

    # 2026-04: the tensors themselves, the algorithm jitted directly
    iron.jit(transform)(lambda a: a + 1, x, y, tile_size=16)

In both, the runtime sequence takes the inputs, then the output, then the
kernel's tensor parameters; tensors are seen flat.
"""
from __future__ import annotations

import inspect

import numpy as np

from . import _trace
from .controlflow import range_
from .dataflow import ObjectFifo
from .device import get_current_device
from .kernel import ExternalFunction, Kernel
from .program import Program
from .runtime import Runtime, TaskGroup
from .worker import Worker

__all__ = ["transform", "transform_binary", "transform_parallel",
           "transform_parallel_binary", "for_each", "reduce",
           "make_param_descriptor", "row_at_a_time", "row_at_a_time_tiled",
           "row_at_a_time_with_skip", "sliding_3row"]


# --- what the algorithms are given --------------------------------------------

class _Desc:
    """The shape and dtype of a tensor, from a tensor or a tensor type."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    def flat_type(self):
        return np.ndarray[(self.size,), np.dtype[self.dtype]]

    def type(self):
        return np.ndarray[self.shape, np.dtype[self.dtype]]


def _np_dtype(dt) -> np.dtype:
    try:
        return np.dtype(dt)
    except TypeError:
        from ._dtype import to_numpy_dtype   # library names ("bfloat16", "i32")
        return np.dtype(to_numpy_dtype(dt))


def _is_type(x) -> bool:
    return _trace.is_array_type(x)


def _is_tensor(x) -> bool:
    return (not _is_type(x) and not isinstance(x, type)
            and hasattr(x, "shape") and hasattr(x, "dtype"))


def _desc(x, algo: str, what: str) -> _Desc:
    """A tensor type np.ndarray[(N,), np.dtype[T]] or anything with a shape
    and a dtype (a tensor, a numpy array)."""
    if _is_type(x):
        try:
            shape, dt = _trace.array_type(x)
        except TypeError:
            shape = None
        if shape is not None:
            return _Desc(shape, dt)
    elif _is_tensor(x):
        return _Desc(tuple(x.shape), _np_dtype(x.dtype))
    raise TypeError(f"{algo}: {what} must be a tensor type such as "
                    f"np.ndarray[(N,), np.dtype[np.int32]] or a tensor, got {x!r}")


def make_param_descriptor(tensor_ty):
    """The shape, size and dtype of a tensor type, for a kernel parameter
    that is not tiled (upstream's helper of the same name)."""
    return _desc(tensor_ty, "make_param_descriptor", "tensor_ty")


def _tile_size(v, algo: str, what: str = "tile_size") -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{algo}: {what} must be an int, got {type(v).__name__}")
    if v < 1:
        raise ValueError(f"{algo}: {what} must be at least 1, got {int(v)}")
    return int(v)


def _is_kernel(func) -> bool:
    return isinstance(func, (ExternalFunction, Kernel))


def _check_func(func, algo: str):
    if not callable(func):
        raise TypeError(f"{algo}: func must be a function applied per element "
                        f"or an ExternalFunction, got {type(func).__name__}")


def _bind_extra(algo: str, extra, names, kwargs: dict) -> dict:
    """Positional arguments after the tensor type bound to the newest
    signature's parameters that follow it (`transform_binary(f, ty, 32)`
    is tile_size 32), as Python would bind them."""
    if len(extra) > len(names):
        raise TypeError(f"{algo}() takes at most {2 + len(names)} positional "
                        f"arguments with a tensor type, got {2 + len(extra)}")
    out = dict(kwargs)
    for name, v in zip(names, extra):
        if name in out and out[name] is not _UNSET:
            raise TypeError(f"{algo}() got multiple values for argument {name!r}")
        out[name] = v
    return out


class _Unset:
    def __repr__(self):
        return "<default>"


_UNSET = _Unset()


def _or(v, default):
    return default if v is _UNSET else v


def _same_tensors(algo: str, descs) -> None:
    ref = descs[0]
    for i, d in enumerate(descs):
        if d.shape != ref.shape:
            raise ValueError(f"{algo}: tensor {i} has shape {list(d.shape)}; tensor 0 "
                             f"has {list(ref.shape)} and all must have one shape")
        if d.dtype != ref.dtype:
            raise ValueError(f"{algo}: tensor {i} has dtype {d.dtype.name}; tensor 0 "
                             f"has {ref.dtype.name} and all must have one dtype")


def _split_params(algo: str, func, n_tiles_args: int, params, size_passed=True):
    """The kernel's extra parameters: ("scalar", value) passed as a constant
    where the kernel declares a scalar type, ("tensor", _Desc) streamed
    through a FIFO of its own otherwise.  They come after the tiles and
    before the tile size (when the algorithm passes it)."""
    if not params:
        return []
    if not _is_kernel(func):
        raise TypeError(f"{algo}: {len(params)} extra parameter(s) given with a "
                        f"per-element function; extra parameters are passed to an "
                        f"ExternalFunction's calls only")
    declared = func.arg_types()[n_tiles_args:]
    room = len(declared) - (1 if size_passed else 0)
    if len(params) > max(room, 0):
        raise TypeError(f"{algo}: {len(params)} extra parameter(s) for kernel "
                        f"'{func.name}', which has room for {max(room, 0)} between its "
                        f"{n_tiles_args} tiles and "
                        f"{'the tile size' if size_passed else 'its end'} "
                        f"({len(declared)} declared after the tiles)")
    out = []
    for i, (p, t) in enumerate(zip(params, declared)):
        if isinstance(t, type) and issubclass(t, np.generic):
            out.append(("scalar", p))
        else:
            out.append(("tensor", _desc(p, algo, f"parameter {i}")))
    return out


def _check_kernel_tile(algo: str, func, tile: int):
    if _is_kernel(func) and func.tile_size() != tile:
        raise ValueError(f"{algo}: tile_size is {tile} but kernel '{func.name}' "
                         f"declares tiles of {func.tile_size()} elements (its first "
                         f"argument type); pass tile_size={func.tile_size()}")


def _device(algo: str):
    dev = get_current_device()
    if dev is None:   # pragma: no cover - the library always has one
        raise RuntimeError(f"{algo}: no current device; call "
                           f"iron.set_current_device(...) first")
    return dev


def _named(fn, names):
    """fn with a signature naming its parameters: the runtime sequence's
    arguments take their names from it (in messages and MLIR)."""
    fn.__signature__ = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in names])
    return fn


def _trace_flag(trace_size) -> int | None:
    return 1 if trace_size and trace_size > 0 else None


def _finish(dev, rt, workers, trace_size):
    prog = Program(dev, rt, workers=workers)
    if trace_size and trace_size > 0:
        prog.enable_trace(trace_size)
    return prog.resolve_program()


# --- the worker's core body ------------------------------------------------------

def _core_body(num_inputs: int, params, n_tiles: int, tile: int, is_kernel: bool,
               pass_size: bool):
    """core_body(*in_cons, *param_cons, out_prod, func): per call, take the
    tensor parameters once, then n_tiles times an object of every input
    and of the output, apply func to them and release them."""
    n_tensor_params = sum(1 for kind, _ in params if kind == "tensor")

    def core_body(*args):
        ins = args[:num_inputs]
        param_hs = args[num_inputs:num_inputs + n_tensor_params]
        out, func = args[-2], args[-1]
        held = iter([h.acquire(1) for h in param_hs])
        call_params = [next(held) if kind == "tensor" else v for kind, v in params]
        for _ in range_(n_tiles):
            xs = [h.acquire(1) for h in ins]
            y = out.acquire(1)
            if is_kernel:
                func(*xs, y, *call_params, *([tile] if pass_size else []))
            else:
                for j in range_(tile):
                    y[j] = func(*[x[j] for x in xs])
            for h in ins:
                h.release(1)
            out.release(1)
        for h in param_hs:
            h.release(1)

    return core_body


def _param_fifos(params):
    return [ObjectFifo(d.type(), name=f"param{i}")
            for i, (kind, d) in enumerate(params) if kind == "tensor"]


# --- one worker -------------------------------------------------------------------

def _transform(algo, func, inputs, output, params, tile_size, trace_size):
    _check_func(func, algo)
    tile = _tile_size(tile_size, algo)
    _check_kernel_tile(algo, func, tile)
    _same_tensors(algo, inputs + [output])
    n = output.size
    if n % tile:
        raise ValueError(f"{algo}: the tensors have {n} elements, not a multiple of "
                         f"tile_size {tile}")
    num_inputs = len(inputs)
    params = _split_params(algo, func, num_inputs + 1, params)
    tile_ty = np.ndarray[(tile,), np.dtype[output.dtype]]
    tensor_ty = output.flat_type()

    of_ins = [ObjectFifo(tile_ty, name=f"in{i}") for i in range(num_inputs)]
    of_out = ObjectFifo(tile_ty, name="out")
    of_params = _param_fifos(params)
    worker = Worker(
        _core_body(num_inputs, params, n // tile, tile, _is_kernel(func), True),
        fn_args=[of.cons() for of in of_ins] + [of.cons() for of in of_params]
        + [of_out.prod(), func],
        trace=_trace_flag(trace_size))

    n_params = len(of_params)

    def sequence(*args):
        data_ins = args[:num_inputs]
        data_out = args[num_inputs]
        data_params = args[num_inputs + 1:num_inputs + 1 + n_params]
        hs = args[num_inputs + 1 + n_params:]
        in_prods, out_cons, param_prods = hs[:num_inputs], hs[num_inputs], hs[num_inputs + 1:]
        for h, a in zip(in_prods, data_ins):
            h.fill(a)
        for h, a in zip(param_prods, data_params):
            h.fill(a)
        out_cons.drain(data_out, wait=True)

    names = ([f"in{i}" for i in range(num_inputs)] + ["out"]
             + [f"param{i}" for i in range(n_params)])
    _named(sequence, names + [f"{x}_h" for x in names[:num_inputs]] + ["out_h"]
           + [f"{x}_h" for x in names[num_inputs + 1:]])
    rt = Runtime(sequence,
                 [tensor_ty] * (num_inputs + 1) + [of.obj_type for of in of_params]
                 + [of.prod() for of in of_ins] + [of_out.cons()]
                 + [of.prod() for of in of_params])
    return _finish(_device(algo), rt, [worker], trace_size)


# --- one worker per column (and channel) -----------------------------------------

def _transform_parallel(algo, func, inputs, output, params, tile_size, trace_size,
                        num_channels, pass_size_to_kernel):
    _check_func(func, algo)
    if isinstance(num_channels, bool) or num_channels not in (1, 2):
        raise ValueError(f"{algo}: num_channels must be 1 or 2 (a shim tile has two "
                         f"DMA channels each way), got {num_channels!r}")
    if num_channels > 1 and params:
        raise ValueError(f"{algo}: num_channels=2 cannot share the kernel's extra "
                         f"parameters between the workers; use num_channels=1")
    tile = _tile_size(tile_size, algo)
    _check_kernel_tile(algo, func, tile)
    _same_tensors(algo, inputs + [output])
    dev = _device(algo)
    cols = dev.cols
    n = output.size
    per_call = tile * cols * num_channels
    if n % per_call:
        raise ValueError(f"{algo}: the tensors have {n} elements, not a multiple of "
                         f"tile_size x columns x num_channels = {tile} x {cols} x "
                         f"{num_channels} = {per_call} (device {dev.name})")
    num_inputs = len(inputs)
    params = _split_params(algo, func, num_inputs + 1, params, pass_size_to_kernel)
    tile_ty = np.ndarray[(tile,), np.dtype[output.dtype]]
    tensor_ty = output.flat_type()
    lanes = [(c, k) for c in range(cols) for k in range(num_channels)]

    def lane_name(base, c, k):
        return f"{base}_{c}" if num_channels == 1 else f"{base}_{c}_{k}"

    of_ins = [[ObjectFifo(tile_ty, name=lane_name(f"in{i}", c, k)) for c, k in lanes]
              for i in range(num_inputs)]
    of_outs = [ObjectFifo(tile_ty, name=lane_name("out", c, k)) for c, k in lanes]
    of_params = _param_fifos(params)
    body = _core_body(num_inputs, params, n // per_call, tile, _is_kernel(func),
                      pass_size_to_kernel)
    workers = [Worker(body,
                      [of_ins[i][w].cons() for i in range(num_inputs)]
                      + [of.cons() for of in of_params] + [of_outs[w].prod(), func],
                      trace=_trace_flag(trace_size))
               for w in range(len(lanes))]

    # Lane w moves the w-th contiguous slice of every tensor.
    per_lane = n // len(lanes)
    taps = [(per_lane * w, [per_lane], [1]) for w in range(len(lanes))]
    in_prods = [[of.prod() for of in row] for row in of_ins]
    out_conses = [of.cons() for of in of_outs]
    param_prods = [of.prod() for of in of_params]
    n_params = len(of_params)

    def sequence(*args):
        data_ins = args[:num_inputs]
        data_out = args[num_inputs]
        data_params = args[num_inputs + 1:num_inputs + 1 + n_params]
        fills = TaskGroup()
        for w, tap in enumerate(taps):
            for i in range(num_inputs):
                in_prods[i][w].fill(data_ins[i], tap, group=fills)
        for h, a in zip(param_prods, data_params):
            h.fill(a, group=fills)
        fills.finish()
        drains = TaskGroup()
        for w, tap in enumerate(taps):
            out_conses[w].drain(data_out, tap, wait=True, group=drains)
        drains.finish()

    _named(sequence, [f"in{i}" for i in range(num_inputs)] + ["out"]
           + [f"param{i}" for i in range(n_params)])
    rt = Runtime(sequence,
                 [tensor_ty] * (num_inputs + 1) + [of.obj_type for of in of_params])
    return _finish(dev, rt, workers, trace_size)


# --- the public algorithms -----------------------------------------------------------

def _one_tensor_form(algo, func, tensor_ty, rest, num_inputs, newest_names, kwargs):
    """(inputs, output, params, options) from either spelling: a tensor type
    (newest: every tensor has that type; `rest` binds to newest_names, or
    is the kernel's parameters when newest_names is None) or tensors
    (2026-04: the inputs, the output, then the kernel's parameters)."""
    if _is_type(tensor_ty):
        d = _desc(tensor_ty, algo, "tensor_ty")
        if newest_names is None:
            return [d] * num_inputs, d, list(rest), kwargs
        return [d] * num_inputs, d, [], _bind_extra(algo, rest, newest_names, kwargs)
    if not _is_tensor(tensor_ty):
        raise TypeError(f"{algo}: expected a tensor type such as np.ndarray[(N,), "
                        f"np.dtype[np.int32]] or the tensors, got {tensor_ty!r}")
    tensors = [tensor_ty] + list(rest)
    if len(tensors) < num_inputs + 1:
        raise TypeError(f"{algo}: given tensors, it takes {num_inputs} input(s) and "
                        f"an output; got {len(tensors)} tensor(s)")
    descs = [_desc(t, algo, f"tensor {i}") for i, t in enumerate(tensors[:num_inputs + 1])]
    params = tensors[num_inputs + 1:]
    return descs[:num_inputs], descs[num_inputs], params, kwargs


def transform(func, tensor_ty, *params, tile_size=16, trace_size=0):
    """out = func(in) element by element, through one worker, in tiles of
    tile_size elements.  func is a per-element function (traced) or an
    ExternalFunction called as func(in_tile, out_tile, *params, tile_size)
    on every tile.  `transform(func, tensor_ty, *params)` or
    `transform(func, input, output, *params)`."""
    ins, out, ps, kw = _one_tensor_form("transform", func, tensor_ty, params, 1, None,
                                        {})
    return _transform("transform", func, ins, out, ps, tile_size, trace_size)


def transform_binary(func, tensor_ty, *args, tile_size=_UNSET, trace_size=_UNSET):
    """out = func(a, b) element by element, through one worker.
    `transform_binary(func, tensor_ty, tile_size=16, trace_size=0)` or
    `transform_binary(func, first, second, output, *params, tile_size=16)`."""
    ins, out, ps, kw = _one_tensor_form(
        "transform_binary", func, tensor_ty, args, 2, ("tile_size", "trace_size"),
        {"tile_size": tile_size, "trace_size": trace_size})
    return _transform("transform_binary", func, ins, out, ps, _or(kw["tile_size"], 16),
                      _or(kw["trace_size"], 0))


def transform_parallel(func, tensor_ty, *params, tile_size=16, trace_size=0,
                       num_channels=1, pass_size_to_kernel=True):
    """transform with one worker per column of the current device (two with
    num_channels=2), each taking a contiguous slice of the tensors.  A
    kernel gets tile_size as its last argument unless
    pass_size_to_kernel=False."""
    ins, out, ps, kw = _one_tensor_form("transform_parallel", func, tensor_ty, params,
                                        1, None, {})
    return _transform_parallel("transform_parallel", func, ins, out, ps, tile_size,
                               trace_size, num_channels, pass_size_to_kernel)


def transform_parallel_binary(func, tensor_ty, *args, tile_size=_UNSET,
                              trace_size=_UNSET, num_channels=_UNSET,
                              pass_size_to_kernel=_UNSET):
    """transform_binary with one worker per column (see transform_parallel)."""
    ins, out, ps, kw = _one_tensor_form(
        "transform_parallel_binary", func, tensor_ty, args, 2,
        ("tile_size", "trace_size", "num_channels", "pass_size_to_kernel"),
        {"tile_size": tile_size, "trace_size": trace_size,
         "num_channels": num_channels, "pass_size_to_kernel": pass_size_to_kernel})
    return _transform_parallel(
        "transform_parallel_binary", func, ins, out, ps, _or(kw["tile_size"], 16),
        _or(kw["trace_size"], 0), _or(kw["num_channels"], 1),
        _or(kw["pass_size_to_kernel"], True))


def for_each(func, tensor_ty, *args, tile_size=_UNSET):
    """x = func(x) in place, through one worker: the tensor is read through
    one FIFO and written back through another, so a kernel sees separate
    input and output tiles.  `for_each(func, tensor_ty, tile_size=16)` or
    `for_each(func, tensor, *params, tile_size=16)`."""
    algo = "for_each"
    if _is_type(tensor_ty):
        d = _desc(tensor_ty, algo, "tensor_ty")
        kw = _bind_extra(algo, args, ("tile_size",), {"tile_size": tile_size})
        params = []
    elif _is_tensor(tensor_ty):
        d = _desc(tensor_ty, algo, "tensor")
        kw, params = {"tile_size": tile_size}, list(args)
    else:
        raise TypeError(f"{algo}: expected a tensor type such as np.ndarray[(N,), "
                        f"np.dtype[np.int32]] or a tensor, got {tensor_ty!r}")
    _check_func(func, algo)
    tile = _tile_size(_or(kw["tile_size"], 16), algo)
    _check_kernel_tile(algo, func, tile)
    n = d.size
    if n % tile:
        raise ValueError(f"{algo}: the tensor has {n} elements, not a multiple of "
                         f"tile_size {tile}")
    params = _split_params(algo, func, 2, params)
    tile_ty = np.ndarray[(tile,), np.dtype[d.dtype]]
    of_in = ObjectFifo(tile_ty, name="in")
    of_out = ObjectFifo(tile_ty, name="out")
    of_params = _param_fifos(params)
    worker = Worker(_core_body(1, params, n // tile, tile, _is_kernel(func), True),
                    fn_args=[of_in.cons()] + [of.cons() for of in of_params]
                    + [of_out.prod(), func])
    n_params = len(of_params)

    def sequence(data, *args):
        data_params = args[:n_params]
        in_h, out_h = args[n_params], args[n_params + 1]
        param_prods = args[n_params + 2:]
        in_h.fill(data)
        for h, a in zip(param_prods, data_params):
            h.fill(a)
        out_h.drain(data, wait=True)

    pnames = [f"param{i}" for i in range(n_params)]
    _named(sequence, ["x"] + pnames + ["in_h", "out_h"] + [f"{p}_h" for p in pnames])
    rt = Runtime(sequence, [d.flat_type()] + [of.obj_type for of in of_params]
                 + [of_in.prod(), of_out.cons()] + [of.prod() for of in of_params])
    return _finish(_device(algo), rt, [worker], 0)


def reduce(func, input_ty, output_ty, *, trace_size=0):
    """output = func(input) over the whole input in one kernel call:
    func(in, out, numel(in)) with an ExternalFunction, since a reduction
    keeps state across elements that a per-element function cannot.
    input_ty and output_ty are tensor types (or tensors)."""
    algo = "reduce"
    if not _is_kernel(func):
        raise TypeError(f"{algo}: func must be an ExternalFunction called as "
                        f"func(in, out, n) on the whole input, got "
                        f"{type(func).__name__}; a reduction keeps state across "
                        f"elements, which a per-element function cannot")
    din = _desc(input_ty, algo, "input_ty")
    dout = _desc(output_ty, algo, "output_ty")
    in_ty, out_ty = din.type(), dout.type()
    of_in = ObjectFifo(in_ty, name="in")
    of_out = ObjectFifo(out_ty, name="out")
    numel = din.size

    def core_body(of_in, of_out, kernel):
        y = of_out.acquire(1)
        x = of_in.acquire(1)
        kernel(x, y, numel)
        of_in.release(1)
        of_out.release(1)

    worker = Worker(core_body, fn_args=[of_in.cons(), of_out.prod(), func],
                    trace=_trace_flag(trace_size))

    def sequence(x, y, in_h, out_h):
        in_h.fill(x)
        out_h.drain(y, wait=True)

    rt = Runtime(sequence, [in_ty, out_ty, of_in.prod(), of_out.cons()])
    return _finish(_device(algo), rt, [worker], trace_size)


def _not_ported(name):
    def f(*args, **kwargs):
        raise NotImplementedError(
            f"iron.algorithms.{name}: upstream's convolution pipeline templates are "
            f"not provided yet; write the design with ObjectFifo, Worker and "
            f"Runtime")
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Upstream's {name} (not provided yet: NotImplementedError)."
    return f


row_at_a_time = _not_ported("row_at_a_time")
row_at_a_time_tiled = _not_ported("row_at_a_time_tiled")
row_at_a_time_with_skip = _not_ported("row_at_a_time_with_skip")
sliding_3row = _not_ported("sliding_3row")
