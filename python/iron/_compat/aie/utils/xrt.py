# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.xrt: upstream's test.py hosts' way of running a built design
(setup_aie, execute, AIE_Application), running it on the emulator.

Upstream loads an xclbin; here the design is the MLIR module the program
printed: setup_aie's xclbin_path names that .mlir file, or any file beside
which it was saved as aie.mlir (upstream's Makefiles write build/aie.mlir
beside build/final.xclbin, so `-x build/final.xclbin` finds it).  Its
kernels are found as iron.run finds them (--kernels folders).  Buffers
are the runtime sequence's arguments in group-id order (group 3 is arg0);
the buffers written before run() are its inputs.  Trace buffers are not
supported."""
import os
import tempfile

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


def _nargs(text):
    """How many arguments the runtime sequence takes (None: unknown)."""
    at = text.find("runtime_sequence")
    if at < 0:
        return None
    open_ = text.find("(", at)
    close = text.find(")", open_)
    return text[open_:close].count("memref<") if open_ >= 0 else None


class _Buffer:
    """A registered buffer: numpy memory of its shape and dtype."""

    def __init__(self, shape, dtype):
        self.array = np.zeros(shape, dtype=dtype)
        self.written = False

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
        self.written = True

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

    def register_buffer(self, group_id, shape, dtype):
        """A buffer of shape and dtype for group id group_id."""
        self.buffers[group_id] = _Buffer(shape, dtype)

    def run(self):
        """Runs the design on the emulator: the written buffers are its
        inputs; every argument's result lands in its buffer."""
        from iron.run import run_module
        order = sorted(self.buffers)
        n = _nargs(self.text)
        args = order if n is None else order[:n]
        with tempfile.TemporaryDirectory(prefix="iron-xrt-") as tmp:
            cli = ["-o", os.path.join(tmp, "out")]
            for k, gid in enumerate(args):
                if self.buffers[gid].written:
                    path = os.path.join(tmp, f"arg{k}.npy")
                    np.save(path, self.buffers[gid].array.reshape(-1))
                    cli += ["--in", f"arg{k}={path}"]
            done = run_module(self.design, cli, module_text=self.text,
                              capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(
                    f"aie.utils.xrt: running {self.design} failed:\n"
                    + done.stderr + done.stdout)
            for k, gid in enumerate(args):
                path = os.path.join(tmp, "out", f"arg{k}.npy")
                if os.path.isfile(path):
                    self.buffers[gid].write(np.load(path))


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
