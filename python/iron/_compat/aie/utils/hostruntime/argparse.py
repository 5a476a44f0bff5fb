# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.hostruntime.argparse: the command-line flags upstream's
example designs share, added to a program's own argparse parser, and
device_from_args, which turns the -d/--dev flag into a device."""
from __future__ import annotations

import argparse  # the standard module: absolute imports skip this file
import importlib

DEFAULT_DEV_CHOICES = ("npu", "npu2")


def add_compile_args(parser, *, with_dev=True, dev_choices=DEFAULT_DEV_CHOICES,
                     default_dev=None, short_dev="-d", with_elf=False,
                     with_full_elf=False, with_pdi=False, with_emit_mlir=False):
    """-d/--dev, --xclbin-path, --insts-path (and --elf-path,
    --emit-mlir when asked).  iron writes no xclbin: run_design_cli refuses
    --xclbin-path.  Without -d and without a default_dev the device is
    the one in force (upstream: the NPU attached; here `iron.run
    --device`, $IRON_DEVICE or the library's default), as upstream's
    newest helpers do; a program that passes default_dev keeps it."""
    if with_dev:
        names = ("--dev",) if short_dev is None else (short_dev, "--dev")
        parser.add_argument(*names, type=str, choices=list(dev_choices),
                            default=default_dev,
                            help="device family (default: %s)" %
                            (default_dev or "the device in force"))
    if with_emit_mlir:
        parser.add_argument("--emit-mlir", action="store_true",
                            help="print the design's MLIR and stop")
    parser.add_argument("--xclbin-path", type=str, default=None,
                        help="compile-only output (not supported by iron)")
    parser.add_argument("--insts-path", type=str, default=None,
                        help="compile-only output (not supported by iron)")
    for flag, wanted in (("--elf-path", with_elf), ("--full-elf-path", with_full_elf),
                         ("--pdi-path", with_pdi)):
        if wanted:
            parser.add_argument(flag, type=str, default=None,
                                help="compile-only output (not supported by iron)")


def add_benchmark_args(parser, *, default_warmup=2, default_iters=5):
    """-w/--warmup and -i/--iters."""
    parser.add_argument("-w", "--warmup", type=int, default=default_warmup,
                        help="warmup iterations (default: %(default)s)")
    parser.add_argument("-i", "--iters", type=int, default=default_iters,
                        help="timed iterations (default: %(default)s)")


def add_trace_arg(parser, *, with_short=True, default=0):
    """-t/--trace_size (bytes; 0: no trace)."""
    names = ("-t", "--trace_size") if with_short else ("--trace_size",)
    parser.add_argument(*names, type=int, default=default,
                        help="trace buffer size in bytes (default: %(default)s)")


def add_runtime_args(parser, *, with_io_sizes=False, with_benchmark=False):
    """The flags of a host that loads a built design: --xclbin, --instr,
    -k/--kernel, -v/--verbosity, --verify/--no-verify, -t/--trace_size,
    --trace-file, --ddr-id, --enable-ctrl-pkts (and the buffer sizes and
    benchmark flags when asked)."""
    parser.add_argument("--xclbin", type=str, required=True,
                        help="the design (FILE.mlir, or a file beside aie.mlir)")
    parser.add_argument("--instr", type=str, default="instr.txt",
                        help="instruction file (accepted, unused)")
    parser.add_argument("-k", "--kernel", type=str, default="MLIR_AIE",
                        help="kernel name (accepted, unused)")
    parser.add_argument("-v", "--verbosity", type=int, default=0,
                        help="verbosity (default: %(default)s)")
    parser.add_argument("--verify", action=argparse.BooleanOptionalAction,
                        default=True, help="verify the output")
    add_trace_arg(parser)
    parser.add_argument("--trace-file", type=str, default="trace.txt",
                        help="where trace output would go")
    parser.add_argument("--ddr-id", type=int, default=4,
                        help="trace buffer index (accepted, unused)")
    parser.add_argument("--enable-ctrl-pkts", action="store_true",
                        help="control packets (accepted, unused)")
    if with_io_sizes:
        for name in ("--in1-size", "--in2-size", "--out-size"):
            parser.add_argument(name, type=int, default=0,
                                help="buffer size in bytes")
    if with_benchmark:
        add_benchmark_args(parser)


def device_from_name(name, n_cols=1):
    """The device of family `name` ("npu" or "npu1", "npu2") with n_cols
    columns (None: the whole device), as upstream's from_name(name,
    n_cols=); an unknown name or column count is the library's
    DeviceError listing the devices there are."""
    # By module name: the iron package's attribute `device` is upstream's
    # device() context manager, not this module.
    devices = importlib.import_module("iron.device")
    lib = devices.device_name(name)
    if n_cols is not None:
        lib = f"{lib}_{n_cols}col"
    return devices.from_name(lib)


def device_from_args(args, *, dev_attr="dev", n_cols="auto"):
    """The device args.<dev_attr> names; n_cols "auto" is args.n_cols if
    present, else one column.  None when no device is named: the caller
    keeps the device in force."""
    if getattr(args, dev_attr) is None:
        return None
    if n_cols == "auto":
        n_cols = getattr(args, "n_cols", None) or 1
    elif isinstance(n_cols, str):
        raise ValueError(f"n_cols: expected an int, None or 'auto', got {n_cols!r}")
    return device_from_name(getattr(args, dev_attr), n_cols=n_cols)
