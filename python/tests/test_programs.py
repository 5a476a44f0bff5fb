# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the upstream-style IRON programs of python/tests/programs (issue 21,
"Done when") on npu1 and npu2, each in a subprocess as a user runs it:
`python3 -m iron.run --kernels python/tests/kernels FILE ARGS`.

- jit programs (`@iron.jit`) run themselves and check their result with
  numpy: they must exit 0.
- print-the-module programs must print their design, and run with
  `--execute` on .npy inputs must write outputs equal to numpy's
  expectation (PROGRAMS below says what each computes).
- the programs that mirror a C reference design (examples/designs/*.c)
  must agree with it bit for bit: the C design runs through the CLI
  (`iron run LIB NAME --in NAME=FILE ... -o DIR`) on the same inputs, and
  the outputs' bytes are compared.  jit programs write their tensors with
  `--save DIR` for this.

The table PROGRAMS is the one place that says what each program takes and
computes; python/tests/programs/README.md describes the programs.
"""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from typing import Callable

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS_DIR = os.path.join(HERE, "programs")
KERNELS = os.path.join(HERE, "kernels")
REPO = os.path.dirname(os.path.dirname(HERE))
CLI = os.environ.get("IRON_CLI") or os.path.join(REPO, "build", "iron")
EXLIB = os.environ.get("IRON_EXLIB") or os.path.join(os.path.dirname(CLI),
                                                     "libiron-examples.so")
DEVICES = ("npu1", "npu2")
TIMEOUT = 120

# --- bfloat16 on the host side, as bit patterns (uint16) -----------------------


def bf16_to_f32(bits):
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(x):
    """Round to nearest even, as the library's iron_bf16_from_float (NaNs
    stay quiet NaNs)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, np.float32))
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), rounded).astype(np.uint16)


BF16 = "bfloat16"   # a bfloat16 argument: generated and compared as uint16 bits


def save_npy(path, arr, dtype):
    """.npy as the library reads it: bfloat16 as a 2-byte void ('<V2'),
    what np.save writes for ml_dtypes' bfloat16."""
    if dtype == BF16:
        np.save(path, np.ascontiguousarray(arr, np.uint16).view("V2"))
    else:
        np.save(path, np.ascontiguousarray(arr, dtype))


def load_bits(path):
    """An .npy's elements as a numpy array; bfloat16 (any 2-byte non-integer
    descr) as its uint16 bits."""
    a = np.load(path, allow_pickle=False)
    if a.dtype.kind not in "iuf" and a.dtype.itemsize == 2:
        a = a.view(np.uint16)
    return a


# --- the table -------------------------------------------------------------------


@dataclasses.dataclass
class Arg:
    name: str                       # the C design's argument name
    role: str                       # "in" or "out"
    dtype: object                   # numpy dtype, or BF16
    shape: tuple
    gen: Callable | None = None     # rng -> array, for inputs


@dataclasses.dataclass
class CMirror:
    design: str                     # NAME of NAME_design in libiron-examples.so
    params: str = ""
    cols: int | None = None


@dataclasses.dataclass
class Program:
    path: str                       # under programs/
    kind: str                       # "jit" or "module"
    dev_argv: Callable = lambda dev: []     # the program's own device argument
    argv: tuple = ()
    args: tuple = ()                # module: the sequence's tensors; jit: what --save writes
    expect: Callable | None = None  # module: {in name: array} -> {out name: array}
    c: CMirror | None = None

    @property
    def id(self):
        return self.path[:-3]


def _ints(lo, hi, dtype):
    return lambda shape: lambda rng: rng.integers(lo, hi, size=shape, dtype=dtype)


def _bf16_uniform(lo, hi):
    return lambda shape: lambda rng: f32_to_bf16(rng.uniform(lo, hi, size=shape).astype(np.float32))


def _zeros(dtype):
    return lambda shape: lambda rng: np.zeros(shape, dtype)


def inp(name, dtype, shape, gen):
    return Arg(name, "in", dtype, tuple(shape), gen(tuple(shape)))


def out(name, dtype, shape):
    return Arg(name, "out", dtype, tuple(shape))


def short_dev(dev):           # upstream's command-line device names
    return "npu" if dev == "npu1" else "npu2"


def dash_d(dev):
    return ["-d", short_dev(dev)]


def positional_dev(dev):
    return [short_dev(dev)]


def _sliding(x):
    up = np.vstack([x[:1], x[:-1]])
    down = np.vstack([x[1:], x[-1:]])
    return up + x + down


def _threshold(x):
    u = x.view(np.uint8)
    return np.where(u > 50, 255, 0).astype(np.uint8).view(np.int8)


def _bf16_add(a, b):
    return f32_to_bf16(bf16_to_f32(a) + bf16_to_f32(b))


def _bf16_relu(a):
    return np.where(bf16_to_f32(a) > 0, a, 0).astype(np.uint16)


I32 = np.int32
PROGRAMS = [
    # -- classic era, print-the-module programs (run with --execute)
    Program("classic/passthrough_kernel.py", "module", positional_dev, ("1024",),
            (inp("input", np.uint8, [1024], _ints(0, 256, np.uint8)),
             out("output", np.uint8, [1024])),
            lambda i: {"output": i["input"]}, CMirror("passthrough")),
    Program("classic/vector_sub_external.py", "module", dash_d, ("-n", "512"),
            (inp("a", I32, [512], _ints(-1000, 1000, I32)),
             inp("b", I32, [512], _ints(-1000, 1000, I32)), out("c", I32, [512])),
            lambda i: {"c": i["a"] - i["b"]}, CMirror("vector_op", "op='-'")),
    Program("classic/vector_add_aieapi.py", "module", dash_d, ("-n", "1024"),
            (inp("a", I32, [1024], _ints(-(1 << 31), 1 << 31, I32)),
             inp("b", I32, [1024], _ints(-(1 << 31), 1 << 31, I32)),
             out("c", I32, [1024])),
            lambda i: {"c": i["a"] + i["b"]}, CMirror("vector_op", "tile=64")),
    Program("classic/add_constant.py", "module", dash_d, ("-n", "256", "-c", "7"),
            (inp("input", I32, [256], _ints(-(1 << 20), 1 << 20, I32)),
             out("output", I32, [256])),
            lambda i: {"output": i["input"] + 7}, CMirror("add_constant", "n=256, c=7")),
    Program("classic/passthrough_dmas.py", "module", dash_d, ("-n", "2048"),
            (inp("a_in", I32, [2048], _ints(-(1 << 30), 1 << 30, I32)),
             inp("b_unused", I32, [2048], _zeros(I32)), out("c_out", I32, [2048])),
            lambda i: {"c_out": i["a_in"]}, CMirror("passthrough_dmas")),
    Program("classic/dma_transpose.py", "module", positional_dev, ("16", "8"),
            (inp("a_in", I32, [16, 8], _ints(-1000, 1000, I32)),
             inp("b_unused", I32, [16, 8], _zeros(I32)), out("c_out", I32, [16, 8])),
            lambda i: {"c_out": i["a_in"].T.reshape(16, 8)}, CMirror("dma_transpose")),
    Program("classic/split_join.py", "module", dash_d, ("-n", "96"),
            (inp("input", I32, [96], _ints(-1000, 1000, I32)), out("output", I32, [96])),
            lambda i: {"output": i["input"] + 1}, CMirror("split_join")),
    Program("classic/eltwise_add_bf16.py", "module", dash_d, ("-n", "4096"),
            (inp("A", BF16, [4096], _bf16_uniform(-8, 8)),
             inp("B", BF16, [4096], _bf16_uniform(-8, 8)), out("C", BF16, [4096])),
            lambda i: {"C": _bf16_add(i["A"], i["B"])}, CMirror("upstream_eltwise_add")),
    Program("classic/relu_task_group.py", "module", dash_d, ("-n", "4096"),
            (inp("a_in", BF16, [4096], _bf16_uniform(-4, 4)), out("b_out", BF16, [4096])),
            lambda i: {"b_out": _bf16_relu(i["a_in"])},
            CMirror("upstream_relu", "cols=2, chans=2")),
    Program("classic/color_threshold.py", "module", dash_d, ("--width", "64", "--height", "16"),
            (inp("in_tensor", np.int8, [1024], _ints(-128, 128, np.int8)),
             inp("b_unused", I32, [32], _zeros(I32)), out("out_tensor", np.int8, [1024])),
            lambda i: {"out_tensor": _threshold(i["in_tensor"])},
            CMirror("color_threshold", "width=64, height=16")),
    Program("classic/memcpy_cols.py", "module", dash_d,
            ("-n", "512", "--cols", "2", "--line", "64"),
            (inp("input", I32, [512], _ints(-(1 << 30), 1 << 30, I32)),
             out("output", I32, [512])),
            lambda i: {"output": i["input"]}, CMirror("memcpy_cols", "line=64", cols=2)),
    Program("classic/counter_local_buffer.py", "module", dash_d, ("-n", "128", "--start", "100"),
            (inp("a", I32, [128], _ints(-1000, 1000, I32)), out("b", I32, [128])),
            lambda i: {"b": i["a"] + 100 + np.arange(128, dtype=I32)}),
    Program("classic/sliding_window.py", "module", dash_d, ("--width", "32", "--height", "8"),
            (inp("a", I32, [8, 32], _ints(-1000, 1000, I32)), out("b", I32, [8, 32])),
            lambda i: {"b": _sliding(i["a"])}),
    # -- classic era, jit programs
    Program("classic/vector_add_jit.py", "jit", argv=("--n", "256"),
            args=(Arg("a", "in", I32, (256,)), Arg("b", "in", I32, (256,)),
                  Arg("c", "out", I32, (256,))), c=CMirror("vector_op")),
    Program("classic/vector_scalar_mul_jit.py", "jit", lambda dev: ["--device", dev],
            ("--n", "512"),
            (Arg("input", "in", np.int16, (512,)), Arg("factor", "in", I32, (1,)),
             Arg("output", "out", np.int16, (512,))), c=CMirror("vector_scalar")),
    Program("classic/clamp_if_else_jit.py", "jit"),
    Program("classic/rtp_barrier_jit.py", "jit"),
    Program("classic/reduce_min_jit.py", "jit"),
    Program("classic/ping_pong_groups_jit.py", "jit"),
    Program("classic/counter_while_false_jit.py", "jit"),
    # -- newest era, all jit programs
    Program("newest/row_wise_bias_add.py", "jit",
            args=(Arg("inp", "in", np.float32, (16, 64)), Arg("bias", "in", np.float32, (64,)),
                  Arg("out", "out", np.float32, (16, 64))),
            c=CMirror("upstream_row_wise_bias_add", "m=8, n=32")),
    Program("newest/saxpy_bf16.py", "jit", argv=("--n", "256", "--tile", "64"),
            args=(Arg("x", "in", BF16, (256,)), Arg("y", "in", BF16, (256,)),
                  Arg("z", "out", BF16, (256,))),
            c=CMirror("saxpy_bf16", "a=3.0, tile=64")),
    Program("newest/vector_reduce_max.py", "jit", argv=("--n", "4096"),
            args=(Arg("a_in", "in", I32, (4096,)), Arg("c_out", "out", I32, (1,))),
            c=CMirror("vector_reduce_max")),
    Program("newest/matmul_single.py", "jit",
            args=(Arg("a", "in", np.int16, (32, 32)), Arg("b", "in", np.int16, (32, 32)),
                  Arg("c", "out", np.int16, (32, 32))),
            c=CMirror("matmul_single", "m=16, k=16, n=16")),
    Program("newest/joined_layout.py", "jit", argv=("--n", "96"),
            args=(Arg("output", "out", I32, (96,)),), c=CMirror("joined_layout")),
    Program("newest/eltwise_parallel.py", "jit", argv=("--n", "256", "--cols", "2"),
            args=(Arg("input", "in", I32, (256,)), Arg("output", "out", I32, (256,))),
            c=CMirror("eltwise_parallel", cols=2)),
    Program("newest/vision_passthrough.py", "jit", argv=("--width", "64", "--height", "8"),
            args=(Arg("in_tensor", "in", np.int8, (512,)), Arg("unused", "in", np.int8, (512,)),
                  Arg("out_tensor", "out", np.int8, (512,))),
            c=CMirror("vision_passthrough", "width=64, height=8")),
    Program("newest/dispatch_rtp.py", "jit"),
    Program("newest/signed_int_ops.py", "jit"),
    Program("newest/unsigned_int_ops.py", "jit"),
    Program("newest/broadcast_depths.py", "jit"),
    Program("newest/unrolled_specialize.py", "jit"),
    Program("newest/device_scope.py", "jit"),
    Program("newest/forward_named.py", "jit"),
    Program("newest/trunci_index_cast.py", "jit"),
    Program("newest/split_dims.py", "jit"),
    Program("newest/float_ops.py", "jit"),
    Program("newest/rtp_trip_count.py", "jit"),
    Program("newest/explicit_transfers.py", "jit"),
]

# Known failures: (program id, device or None for both) -> the reason, with
# the cause's file:line.  Each is a strict xfail: it must fail, so that a
# fix shows up as an unexpected pass.
KNOWN: dict = {}


def _cases(select):
    out = []
    for p in PROGRAMS:
        if not select(p):
            continue
        for dev in DEVICES:
            marks = []
            for key in ((p.id, dev), (p.id, None)):
                if key in KNOWN:
                    marks.append(pytest.mark.xfail(reason=KNOWN[key], strict=True))
            out.append(pytest.param(p, dev, id=f"{dev}-{p.id}", marks=marks))
    return out


# --- running ----------------------------------------------------------------------


def iron_run(prog: Program, dev: str, run_opts=(), prog_args=()):
    """`python3 -m iron.run --kernels KERNELS [run_opts] FILE ARGS` with
    $IRON_DEVICE = dev; the CompletedProcess."""
    cmd = [sys.executable, "-m", "iron.run", "--kernels", KERNELS, *run_opts,
           os.path.join(PROGRAMS_DIR, prog.path), *prog.dev_argv(dev), *prog.argv,
           *prog_args]
    env = dict(os.environ, IRON_DEVICE=dev)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=TIMEOUT)


def _describe(r):
    return (f"command: {' '.join(r.args)}\nexit status {r.returncode}\n"
            f"--- stdout\n{r.stdout[-4000:]}\n--- stderr\n{r.stderr[-4000:]}")


def _inputs(prog: Program, folder):
    """Writes the program's inputs (seeded by the program's name) into
    folder; {name: (path, array)}."""
    rng = np.random.default_rng(sum(map(ord, prog.id)))
    made = {}
    for a in prog.args:
        if a.role != "in":
            continue
        arr = a.gen(rng)
        path = os.path.join(folder, f"{a.name}.npy")
        save_npy(path, arr, a.dtype)
        made[a.name] = (path, arr)
    return made


def execute_module(prog: Program, dev: str, folder):
    """Runs a print-the-module program with --execute on seeded inputs
    (`--in argN=FILE` / `--out argN=FILE` among the program's arguments,
    which iron.run takes out: the printed module names the sequence's
    tensors arg0, arg1, ...); ({in name: array}, {out name: output path},
    CompletedProcess)."""
    ins = _inputs(prog, folder)
    files = []           # iron.run's, among the program's ARGS: argN=FILE
    outs = {}
    for k, a in enumerate(prog.args):
        if a.role == "in":
            files += ["--in", f"arg{k}={ins[a.name][0]}"]
        else:
            outs[a.name] = os.path.join(folder, f"py_{a.name}.npy")
            files += ["--out", f"arg{k}={outs[a.name]}"]
    r = iron_run(prog, dev, run_opts=["--execute"], prog_args=files)
    return {k: v[1] for k, v in ins.items()}, outs, r


def run_c(prog: Program, dev: str, inputs: dict, folder):
    """Runs the C design the program mirrors on the given input files;
    {out name: path of the C's output}."""
    c = prog.c
    for what, path in (("the iron CLI ($IRON_CLI)", CLI),
                       ("the examples' library ($IRON_EXLIB)", EXLIB)):
        assert os.path.isfile(path), f"{what} {path} is missing: build it with make all"
    outdir = os.path.join(folder, "c_out")
    cmd = [CLI, "run", EXLIB, c.design, "--device", dev, "-o", outdir]
    for a in prog.args:
        if a.role == "in":
            cmd += ["--in", f"{a.name}={inputs[a.name]}"]
        else:
            cmd += ["--shape", f"{a.name}={'x'.join(str(s) for s in a.shape)}"]
    if c.params:
        cmd += ["--params", c.params]
    if c.cols:
        cmd += ["--cols", str(c.cols)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, f"the C design {c.design} failed\n" + _describe(r)
    return {a.name: os.path.join(outdir, f"{a.name}.npy") for a in prog.args
            if a.role == "out"}


def _same_bytes(what, py_path, c_path):
    py = load_bits(py_path)
    cc = load_bits(c_path)
    assert py.nbytes == cc.nbytes, (f"{what}: Python wrote {py.nbytes} bytes "
                                    f"({py.dtype}{list(py.shape)}), C {cc.nbytes} "
                                    f"({cc.dtype}{list(cc.shape)})")
    pb = np.frombuffer(py.tobytes(), np.uint8)
    cb = np.frombuffer(cc.tobytes(), np.uint8)
    if not np.array_equal(pb, cb):
        k = int(np.nonzero(pb != cb)[0][0])
        pe = py.reshape(-1)
        ce = cc.reshape(-1)
        e = k // py.itemsize
        raise AssertionError(
            f"{what}: Python and C differ from byte {k} (element {e}: Python "
            f"{pe[e]!r}, C {ce[e]!r}); Python {pe[:8]!r}..., C {ce[:8]!r}...")


# --- the tests ---------------------------------------------------------------------

MODULES = [p for p in PROGRAMS if p.kind == "module"]
JITS = [p for p in PROGRAMS if p.kind == "jit"]


def test_the_table_covers_every_program():
    """Every program file is in PROGRAMS, so none goes untested."""
    on_disk = set()
    for era in ("classic", "newest"):
        for f in os.listdir(os.path.join(PROGRAMS_DIR, era)):
            if f.endswith(".py"):
                on_disk.add(f"{era}/{f}")
    listed = {p.path for p in PROGRAMS}
    assert on_disk == listed, (f"not in PROGRAMS: {sorted(on_disk - listed)}; "
                               f"missing files: {sorted(listed - on_disk)}")


def test_enough_programs_of_each_kind():
    """The issue's bar: at least 25 programs over both eras, at least 10 of
    them mirroring a C reference design."""
    eras = {p.path.split("/")[0] for p in PROGRAMS}
    assert len(PROGRAMS) >= 25 and eras == {"classic", "newest"}
    assert sum(1 for p in PROGRAMS if p.c) >= 10


def test_aie_iron_device_stays_the_scope_after_importing_its_submodule(tmp_path):
    """Upstream programs import `aie.iron.device` (Tile, NPU2, ...); the
    scope `iron.device(name)` must survive that."""
    prog = tmp_path / "scope.py"
    prog.write_text(
        "import aie.iron as iron\n"
        "from aie.iron.device import Tile\n"
        "with iron.device('npu1'):\n"
        "    assert type(iron.get_current_device()).__name__ == 'NPU1'\n")
    r = subprocess.run([sys.executable, "-m", "iron.run", str(prog)], capture_output=True,
                       text=True, timeout=TIMEOUT)
    assert r.returncode == 0, _describe(r)


@pytest.mark.parametrize("prog, dev", _cases(lambda p: p.kind == "jit"))
def test_jit_program_passes_its_own_check(prog, dev, tmp_path):
    r = iron_run(prog, dev)
    assert r.returncode == 0, _describe(r)


@pytest.mark.parametrize("prog, dev", _cases(lambda p: p.kind == "module"))
def test_module_program_prints_its_design(prog, dev):
    r = iron_run(prog, dev)
    assert r.returncode == 0, _describe(r)
    assert "aie.device" in r.stdout, "no MLIR-AIE device in the output\n" + _describe(r)


@pytest.mark.parametrize("prog, dev", _cases(lambda p: p.kind == "module"))
def test_module_program_executes_as_numpy_expects(prog, dev, tmp_path):
    ins, outs, r = execute_module(prog, dev, str(tmp_path))
    assert r.returncode == 0, _describe(r)
    want = prog.expect(ins)
    for a in prog.args:
        if a.role != "out":
            continue
        got = load_bits(outs[a.name])
        exp = np.asarray(want[a.name])
        if a.dtype == BF16:
            exp = exp.astype(np.uint16)
        else:
            exp = exp.astype(a.dtype)
        assert got.shape == tuple(a.shape) or got.size == exp.size, (
            f"{a.name}: shape {got.shape}, expected {a.shape}")
        got = got.reshape(exp.shape)
        if not np.array_equal(got, exp):
            k = int(np.nonzero(got.reshape(-1) != exp.reshape(-1))[0][0])
            raise AssertionError(f"{a.name}: element {k}: got {got.reshape(-1)[k]!r}, "
                                 f"expected {exp.reshape(-1)[k]!r}\n{_describe(r)}")


@pytest.mark.parametrize("prog, dev", _cases(lambda p: p.c is not None))
def test_program_agrees_with_its_c_design_bit_for_bit(prog, dev, tmp_path):
    folder = str(tmp_path)
    if prog.kind == "module":
        ins, outs, r = execute_module(prog, dev, folder)
        assert r.returncode == 0, _describe(r)
        in_paths = {a.name: os.path.join(folder, f"{a.name}.npy") for a in prog.args
                    if a.role == "in"}
    else:
        r = iron_run(prog, dev, prog_args=("--save", folder))
        assert r.returncode == 0, _describe(r)
        in_paths = {a.name: os.path.join(folder, f"{a.name}.npy") for a in prog.args
                    if a.role == "in"}
        outs = {a.name: os.path.join(folder, f"{a.name}.npy") for a in prog.args
                if a.role == "out"}
        for name, path in list(in_paths.items()) + list(outs.items()):
            assert os.path.isfile(path), f"the program did not save {name} ({path})"
    c_outs = run_c(prog, dev, in_paths, folder)
    for name in outs:
        _same_bytes(f"{prog.id} output {name!r} vs C {prog.c.design}", outs[name], c_outs[name])
