# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.hostruntime.cli: run_design_cli, the main() of upstream's
@iron.jit example designs.

It validates, then: with --emit-mlir calls the design's emit_mlir(opts);
with --xclbin-path stops (iron builds for its emulator and writes no
xclbin); otherwise calls run_and_verify(opts), which runs the design on
the emulator.  Unlike upstream, the device (`device`, else the whole
device of the -d/--dev family) is made current in every branch, so that `-d npu` runs on an
emulated NPU1 rather than on the default device; without -d the device in
force (`iron.run --device`, $IRON_DEVICE) names the family in opts.dev,
as upstream names the NPU it finds."""
import sys


def _resolve(value, opts):
    return value(opts) if callable(value) else value


def run_design_cli(design, opts, *, compile_kwargs, run_and_verify=None,
                   device=None, emit_mlir=None, validate=None):
    """Dispatches a design's command line; see the module."""
    from iron import set_current_device
    from iron._iron import current_device as current_device_name
    from aie.utils.hostruntime.argparse import device_from_name

    # No -d: upstream names the NPU it finds ("npu" or "npu2") in opts.dev,
    # which designs read as a string; here the device in force stands in.
    if getattr(opts, "dev", "") is None:
        opts.dev = "npu2" if current_device_name().startswith("npu2") else "npu"
    if validate is not None:
        validate(opts)
    if device is None:
        if not hasattr(opts, "dev"):
            raise ValueError(
                "run_design_cli: device=None needs opts.dev (the -d/--dev flag "
                "of add_compile_args); pass device= otherwise")
        device = lambda o: device_from_name(o.dev, n_cols=None)  # noqa: E731
    chosen = _resolve(device, opts)
    if chosen is None:
        raise ValueError("run_design_cli: the device selector returned None")
    set_current_device(chosen)
    if getattr(opts, "emit_mlir", False):
        if emit_mlir is None:
            # Upstream's default: the design built from its compile-time
            # values alone.
            print(design.specialize(**_resolve(compile_kwargs, opts)).as_mlir())
        else:
            emit_mlir(opts)
        return
    if getattr(opts, "xclbin_path", None):
        sys.exit("--xclbin-path: iron runs designs on its emulator and writes "
                 "no xclbin; run the program without --xclbin-path")
    if run_and_verify is None:
        sys.exit("run_design_cli: this design has no Python run path (its "
                 "host is C++); print it with --emit-mlir, or run it through "
                 "its test program")
    run_and_verify(opts)
