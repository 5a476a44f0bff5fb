# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.xrt: upstream's test.py hosts' way of running a built design
(setup_aie, execute, AIE_Application), running it on the emulator.

Upstream loads an xclbin; here the design is the MLIR module the program
printed: setup_aie's xclbin_path names that .mlir file, or any file beside
which it was saved as aie.mlir (upstream's Makefiles write build/aie.mlir
beside build/final.xclbin, so `-x build/final.xclbin` finds it).  Its
kernels are found as iron.run finds them (--kernels folders); it runs on
the device it names.  Buffers are the runtime sequence's arguments in
group-id order (group 3 is arg0), their memory used in place; arguments
past the last buffer get zeros.  Trace buffers are not supported."""
import os

import numpy as np


def _design_file(xclbin_path):
    path = os.fspath(xclbin_path)
    if path.endswith(".mlir") and os.path.isfile(path):
        return path
    beside = os.path.join(os.path.dirname(os.path.abspath(path)), "aie.mlir")
    if os.path.isfile(beside):
        return beside
    raise FileNotFoundError(
        f"aie.utils.xrt: no design for '{path}': expected an .mlir file, or "
        f"{beside} (save the program's printed design there: python3 -m "
        "iron.run design.py > aie.mlir)")


def _declared(decl):
    """[(numpy dtype, shape)] from the library's argument declaration
    ("in arg0: int32[1024], out arg1: int32[16, 4]")."""
    from iron._dtype import to_numpy_dtype
    out = []
    for item in filter(None, (x.strip() for x in decl.split("],"))):
        _, _, ty = item.partition(":")
        name, _, dims = ty.strip().rstrip("]").partition("[")
        shape = tuple(int(d) for d in dims.split(",") if d.strip())
        out.append((to_numpy_dtype(name.strip()), shape))
    return out


class _Buffer:
    """A registered buffer: numpy memory of its shape and dtype."""

    def __init__(self, shape, dtype):
        self.array = np.zeros(shape, dtype=dtype)

    def read(self):
        return self.array.copy()

    def write(self, v, offset=0):
        src = np.ascontiguousarray(v).reshape(-1).view(np.uint8)
        dst = self.array.reshape(-1).view(np.uint8)
        if offset < 0 or offset + src.size > dst.size:
            raise ValueError(
                f"write: {src.size} bytes at offset {offset} do not fit the "
                f"buffer's {dst.size}")
        dst[offset:offset + src.size] = src

    def sync_to_device(self):
        pass

    def sync_from_device(self):
        pass


class AIE_Application:  # noqa: N801 (upstream's name)
    """A design to run, with its buffers by group id (see the module)."""

    def __init__(self, xclbin_path, insts_path=None, kernel_name="MLIR_AIE"):
        self.design = _design_file(xclbin_path)
        with open(self.design, encoding="utf-8") as f:
            self.text = f.read()
        self.buffers = {}
        self._built = None

    def register_buffer(self, group_id, shape, dtype):
        """A buffer of shape and dtype for group id group_id."""
        self.buffers[group_id] = _Buffer(shape, dtype)

    def _jit(self):
        # Imported once per application (kernels found as iron.run finds
        # them) and kept, so that a benchmark loop builds once.
        if self._built is None:
            from iron import _iron
            from iron.run import module_kernels
            kernels = {}
            for func, path in module_kernels(self.text).items():
                with open(path, encoding="utf-8") as f:
                    kernels[func] = f.read()
            jit, decl, device = _iron.mlir_jit(self.text, file=self.design,
                                               kernels=kernels)
            self._built = jit, _declared(decl), device
        return self._built

    def run(self):
        """Runs the design on the emulator (the device its module names):
        the runtime sequence's arguments are the buffers in group-id
        order; their memory is used in place."""
        from iron._tensor import as_tensor
        from iron.device import device as on
        jit, types, device = self._jit()
        groups = sorted(self.buffers)
        tensors = []
        for k, (dtype, shape) in enumerate(types):
            if k >= len(groups):
                # An argument no buffer stands for (upstream's hosts leave
                # a sequence's unused trailing ones out): zeros.
                tensors.append(as_tensor(np.zeros(shape, dtype), f"arg{k}"))
                continue
            gid = groups[k]
            buf = self.buffers[gid].array
            if buf.nbytes != dtype.itemsize * int(np.prod(shape)):
                raise ValueError(
                    f"aie.utils.xrt: buffer {gid} (arg{k}) holds {buf.nbytes} "
                    f"bytes; the design's arg{k} is {dtype.name}"
                    f"{list(shape)} ({dtype.itemsize * int(np.prod(shape))} bytes)")
            view = buf.reshape(-1).view(np.uint8).view(dtype).reshape(shape)
            tensors.append(as_tensor(view, f"buffer {gid} (arg{k})"))
        with on(device):
            jit.launch(tensors)


def setup_aie(xclbin_path, insts_path, in_0_shape, in_0_dtype, in_1_shape,
              in_1_dtype, out_buf_shape, out_buf_dtype, enable_trace=False,
              kernel_name="MLIR_AIE", trace_size=16384, verbosity=0,
              trace_after_output=False):
    """The application with its input buffers (groups 3 and 4) and output
    buffer (the next group), as upstream's test.py hosts set it up."""
    if enable_trace:
        raise NotImplementedError(
            "aie.utils.xrt.setup_aie: trace buffers are not supported; "
            "iron's emulator traces with IRON_TRACE (docs/emulator.md)")
    app = AIE_Application(xclbin_path, insts_path, kernel_name)
    group = 3
    for shape, dtype in ((in_0_shape, in_0_dtype), (in_1_shape, in_1_dtype)):
        if shape and dtype:
            if verbosity >= 1:
                print(f"register input to group_id {group}")
            app.register_buffer(group, shape=shape, dtype=dtype)
            group += 1
    app.register_buffer(group, shape=out_buf_shape, dtype=out_buf_dtype)
    return app


def execute(app, input_one=None, input_two=None, enable_trace=False,
            trace_after_output=False):
    """Writes the inputs, runs the design and returns the output buffer."""
    groups = sorted(app.buffers)
    inputs = [v for v in (input_one, input_two) if v is not None]
    for gid, value in zip(groups, inputs):
        app.buffers[gid].write(value)
    app.run()
    return app.buffers[groups[len(inputs)]].read()
