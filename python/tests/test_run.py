# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""python3 -m iron.run: the import hook, kernel search, printed designs
run with --execute, test.py hosts, and upstream-style programs."""
import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import iron
from iron import kernel_search
from iron import run as iron_run

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "tests", "fixtures",
                                         "mlir", "import"))
KERNELS = os.path.join(FIXTURES, "kernels")


def run(*args, cwd=None, env=None, check=True):
    """python3 -m iron.run ARGS in a child; (returncode, stdout, stderr)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([sys.executable, "-m", "iron.run", *args], cwd=cwd,
                       env=e, capture_output=True, text=True, timeout=300)
    if check and p.returncode != 0:
        raise AssertionError(f"exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.returncode, p.stdout, p.stderr


def python(code, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], env=e,
                          capture_output=True, text=True, timeout=120)


def has_cli():
    try:
        iron_run.find_cli()
        return True
    except FileNotFoundError:
        return False


needs_cli = pytest.mark.skipif(not has_cli(), reason="the iron command is not built")
no_real_aie = pytest.mark.skipif(importlib.util.find_spec("aie") is not None,
                                 reason="a real mlir-aie is installed")


def lead_layer(*names):
    """Skips until the iron package provides every name."""
    missing = [n for n in names if not hasattr(iron, n)]
    return pytest.mark.skipif(bool(missing),
                              reason=f"iron does not provide {missing} yet")


# ------------------------------------------------------------- the hook

@no_real_aie
def test_import_aie_fails_outside_iron_run():
    p = python("import iron, iron.run, iron.taplib\nimport aie")
    assert p.returncode != 0
    assert "No module named 'aie'" in p.stderr


def test_every_upstream_module_imports_under_iron_run():
    _, out, _ = run(os.path.join(PROGRAMS, "run_imports.py"))
    lines = dict(line.split() for line in out.splitlines())
    assert len(lines) == 38
    if importlib.util.find_spec("aie") is None:
        assert all(v == "True" for k, v in lines.items() if k.startswith("aie")), out
    if importlib.util.find_spec("ml_dtypes") is None:
        assert lines["ml_dtypes"] == "True"


def test_a_real_aie_is_never_shadowed(tmp_path):
    real = tmp_path / "aie"
    real.mkdir()
    (real / "__init__.py").write_text("REAL = True\n")
    (real / "iron.py").write_text("WHO = 'real'\n")
    (tmp_path / "ml_dtypes.py").write_text("REAL = True\n")
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""\
        import aie, aie.iron, ml_dtypes
        print(aie.REAL, aie.iron.WHO, ml_dtypes.REAL)
        try:
            import aie.helpers.taplib
        except ImportError as e:
            print("not served:", e.name)
        """))
    env = {"PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    _, out, _ = run(str(prog), env=env)
    assert out.splitlines() == ["True real True", "not served: aie.helpers"]


@pytest.mark.skipif(importlib.util.find_spec("ml_dtypes") is not None,
                    reason="the real ml_dtypes is installed")
def test_ml_dtypes_stands_in_only_for_bfloat16(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""\
        import ml_dtypes
        try:
            ml_dtypes.float8_e4m3
        except AttributeError as e:
            print(e)
        """))
    _, out, _ = run(str(prog))
    assert "iron serves only bfloat16" in out


@pytest.mark.skipif(importlib.util.find_spec("ml_dtypes") is not None,
                    reason="the real ml_dtypes is installed")
@pytest.mark.skipif(not any(hasattr(m, "bfloat16") for m in (iron._iron,)),
                    reason="iron's bfloat16 dtype is not built yet")
def test_ml_dtypes_bfloat16_is_iron_s(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("from ml_dtypes import bfloat16\nimport iron._iron as i\n"
                    "import numpy as np\nprint(np.dtype(bfloat16).itemsize)\n")
    _, out, _ = run(str(prog))
    assert out.strip() == "2"


def test_program_gets_its_argv_and_folder_first_on_the_path(tmp_path):
    (tmp_path / "helper_mod.py").write_text("X = 42\n")
    prog = tmp_path / "prog.py"
    prog.write_text("import sys, helper_mod\nprint(sys.argv[1:], helper_mod.X, "
                    "__name__)\n")
    _, out, _ = run(str(prog), "-d", "npu", "--in", "x")
    assert out.strip() == "['-d', 'npu', '--in', 'x'] 42 __main__"


def test_program_exit_status_and_errors_pass_through(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("import sys\nsys.exit(3)\n")
    assert run(str(prog), check=False)[0] == 3
    prog.write_text("raise ValueError('from the program')\n")
    rc, _, err = run(str(prog), check=False)
    assert rc == 1 and "ValueError: from the program" in err
    rc, _, err = run(str(tmp_path / "missing.py"), check=False)
    assert rc != 0 and "missing.py: no such file" in err
    rc, _, err = run("--kernel-source", "x.o", str(prog), check=False)
    assert rc != 0 and "--kernel-source 'x.o': expected NAME=VALUE" in err


def test_device_sets_iron_device(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("import os\nprint(os.environ['IRON_DEVICE'])\n")
    _, out, _ = run("--device", "npu1", str(prog))
    assert out.strip() == "npu1"
    _, out, _ = run("--device", "npu", str(prog))     # upstream's name
    assert out.strip() == "npu1"
    rc, _, err = run("--device", "npu9", str(prog), check=False)
    assert rc != 0 and "--device 'npu9': expected one of npu1, npu1_1col" in err


def test_taplib_program(tmp_path):
    _, out, _ = run(os.path.join(PROGRAMS, "run_taplib.py"), "--rows", "8")
    lines = out.splitlines()
    assert lines[0] == ("8 TensorAccessPattern([8, 8] offset=0, sizes=[1, 1, 4, 2], "
                        "strides=[0, 0, 8, 1])")
    assert lines[1] == "first group"
    assert lines[2].startswith("8 x 8 tensor, tap offset 0")


def test_unsupported_names_fail_when_used(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""\
        import numpy as np
        from aie.dialects.aiex import v8bfp16ebs8
        t = np.ndarray[(32,), np.dtype[v8bfp16ebs8]]   # naming it is fine
        print(v8bfp16ebs8.__iron_unsupported__.split(" (")[0])
        try:
            v8bfp16ebs8.dtype
        except NotImplementedError as e:
            print("used:", "v8bfp16ebs8" in str(e))
        from aie.extras.context import mlir_mod_ctx
        with mlir_mod_ctx() as ctx:
            pass
        try:
            ctx.module
        except NotImplementedError as e:
            print("placed:", "placed API" in str(e))
        """))
    _, out, _ = run(str(prog))
    assert out.splitlines() == ["the block floating point type v8bfp16ebs8",
                                "used: True", "placed: True"]


def test_missing_iron_names_say_where_they_come_from(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""\
        import aie.iron as iron
        try:
            iron.NoSuchThing
        except AttributeError as e:
            print(e)
        from aie.helpers.dialects.ext import scf
        print(callable(getattr(scf, "_for", None)) or "no controlflow yet")
        """))
    _, out, _ = run(str(prog))
    assert out.splitlines()[0] == ("module 'aie.iron' has no attribute "
                                   "'NoSuchThing': iron does not provide "
                                   "'NoSuchThing'")


def test_verify_assert_pass(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""\
        import sys
        import numpy as np
        from aie.utils.verify import assert_pass, count_mismatches
        assert_pass(np.arange(4), [0, 1, 2, 3])
        assert_pass(np.float32([1.0, 2.0]), [1.1, 2.1], rtol=0.1)
        print(count_mismatches([1.0, 2.0, np.inf, 5.0], [1.0, 3.0, 1.0, 9.0]))
        assert_pass(np.arange(4), [0, 1, 2, 4], fail_msg="off by one")
        """))
    rc, out, err = run(str(prog), check=False)
    assert rc == 1
    assert out.splitlines() == ["PASS!", "PASS!", "(1, 2)"]
    assert err.strip() == "FAIL! off by one"


def test_hostruntime_argparse_flags():
    import argparse
    spec = importlib.util.spec_from_file_location(
        "compat_argparse", os.path.join(os.path.dirname(iron.__file__), "_compat",
                                        "aie", "utils", "hostruntime", "argparse.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    p = argparse.ArgumentParser()
    mod.add_compile_args(p, with_emit_mlir=True)
    mod.add_benchmark_args(p)
    mod.add_trace_arg(p)
    o = p.parse_args(["-d", "npu2", "--emit-mlir", "-i", "7"])
    assert (o.dev, o.emit_mlir, o.iters, o.warmup, o.trace_size,
            o.xclbin_path) == ("npu2", True, 7, 2, 0, None)
    with pytest.raises(ValueError):
        mod.device_from_args(o, n_cols="all")
    assert mod.device_from_args(o).name == "npu2_1col"
    assert mod.device_from_args(o, n_cols=None).name == "npu2"
    o.n_cols = 3
    assert mod.device_from_args(o).name == "npu2_3col"
    # No -d: the device in force stays (upstream's newest default).
    assert p.parse_args([]).dev is None
    assert mod.device_from_args(p.parse_args([])) is None
    q = argparse.ArgumentParser()
    mod.add_compile_args(q, default_dev="npu")
    assert q.parse_args([]).dev == "npu"
    assert mod.device_from_name("npu", n_cols=2).name == "npu1_2col"
    with pytest.raises(iron.DeviceError):
        mod.device_from_name("npu", n_cols=9)


# --------------------------------------------------------- kernel search

@pytest.fixture
def kernel_dirs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "only_cc.cc").write_text("// C++\n")
    (b / "ported.cc").write_text("// C++\n")
    (b / "ported.c").write_text("/* C */\n")
    (b / "plain.c").write_text("/* C */\n")
    kernel_search.configure([str(a), str(b)])
    yield a, b
    kernel_search.configure()


def test_kernel_search_prefers_a_c_port(kernel_dirs):
    _, b = kernel_dirs
    assert kernel_search.find_kernel_source("ported.cc.o") == str(b / "ported.c")
    assert kernel_search.find_kernel_source("ported.cc") == str(b / "ported.c")
    assert kernel_search.find_kernel_source("plain.o") == str(b / "plain.c")
    assert kernel_search.find_kernel_source(str(b / "ported.cc"), entry="f") == str(b / "ported.c")
    assert kernel_search.resolved()["f"] == str(b / "ported.c")


def test_kernel_search_takes_cxx_alone(kernel_dirs):
    a, _ = kernel_dirs
    assert kernel_search.find_kernel_source("only_cc.cc.o") == str(a / "only_cc.cc")
    assert kernel_search.find_kernel_source("only_cc.cc") == str(a / "only_cc.cc")


def test_kernel_search_cxx_in_a_folder_wins_over_a_bundled_port(tmp_path):
    """A folder of upstream's kernels runs its C++ sources; the package's C
    ports serve only kernels found nowhere else."""
    (tmp_path / "passThrough.cc").write_text("// C++\n")
    kernel_search.configure([str(tmp_path)])
    try:
        assert kernel_search.find_kernel_source("passThrough.cc.o") == \
            str(tmp_path / "passThrough.cc")
        kernel_search.configure([])
        assert kernel_search.find_kernel_source(
            "passThrough.cc.o", entry="passThroughLine").endswith("kernels_src/passThrough.c")
    finally:
        kernel_search.configure()


@pytest.fixture
def arch_layout(tmp_path):
    """A folder laid out as upstream's aie_kernels/: one subfolder per
    architecture and one for all."""
    for sub, names in {"aie2": ["both.cc", "aie2_only.cc"], "aie2p": ["both.cc"],
                       "generic": ["common.cc", "both.cc"]}.items():
        (tmp_path / sub).mkdir()
        for n in names:
            (tmp_path / sub / n).write_text("// C++\n")
    kernel_search.configure([str(tmp_path)])
    yield tmp_path
    kernel_search.configure()


@pytest.mark.parametrize("dev, name, sub", [
    ("npu1", "both.cc.o", "aie2"), ("npu2", "both.cc.o", "aie2p"),
    ("npu2", "aie2_only.cc", "aie2"),          # aie2p falls back to aie2
    ("npu1", "common.cc.o", "generic"), ("npu2", "common.cc", "generic"),
])
def test_kernel_search_takes_the_devices_architecture_folder(arch_layout, dev, name, sub):
    """As upstream's factories do: <arch>, then aie2, then generic, for the
    device current when the kernel is looked up."""
    with iron.device(dev):
        got = kernel_search.find_kernel_source(name)
    stem = name[:-2] if name.endswith(".o") else name
    assert got == str(arch_layout / sub / stem), (dev, name, got)


def test_kernel_search_names_the_architecture_folders(arch_layout):
    with iron.device("npu1"):
        with pytest.raises(FileNotFoundError) as e:
            kernel_search.find_kernel_source("nowhere.cc.o")
    msg = str(e.value)
    assert str(arch_layout / "aie2") in msg and str(arch_layout / "generic") in msg, msg
    assert str(arch_layout / "aie2p") not in msg, msg


def test_kernel_search_names_every_folder(kernel_dirs, tmp_path):
    a, b = kernel_dirs
    with pytest.raises(FileNotFoundError) as e:
        kernel_search.find_kernel_source("nowhere.cc.o")
    msg = str(e.value)
    assert "kernel 'nowhere.cc.o': no source nowhere.c or nowhere.cc in " in msg
    for folder in (a, b, os.getcwd()):
        assert str(folder) in msg
    assert "--kernels DIR" in msg


def test_kernel_search_explicit_sources_and_flags(kernel_dirs, tmp_path):
    src = tmp_path / "mine.c"
    src.write_text("/* C */\n")
    kernel_search.configure([], sources={"x.cc.o": str(src)},
                            flags={"x.cc.o": "-DN=4"})
    assert kernel_search.find_kernel_source("x.cc.o") == str(src)
    assert kernel_search.find_kernel_source("sub/x.cc.o") == str(src)
    assert kernel_search.kernel_flags("x.cc.o") == "-DN=4"
    assert kernel_search.kernel_flags("y.o") == ""
    with pytest.raises(TypeError):
        kernel_search.find_kernel_source(3)


def test_module_kernels_from_func_and_core_link_with():
    kernel_search.configure([KERNELS])
    try:
        with open(os.path.join(FIXTURES, "scale_func_link_2025.mlir")) as f:
            assert iron_run.module_kernels(f.read()) == {
                "scale_int32": os.path.join(KERNELS, "scale.c")}
        with open(os.path.join(FIXTURES, "add_two_core_link_2024.mlir")) as f:
            assert iron_run.module_kernels(f.read()) == {
                "add_two": os.path.join(KERNELS, "add_two.c")}
        # Linked under another name: the C file that defines the function.
        text = 'func.func private @scale_int32(i32) attributes {link_with = "k.cc.o"}'
        assert iron_run.module_kernels(text) == {
            "scale_int32": os.path.join(KERNELS, "scale.c")}
        with pytest.raises(FileNotFoundError) as e:
            iron_run.module_kernels('func.func private @nope(i32)')
        assert "external function @nope: no C source for it in " + KERNELS in str(e.value)
    finally:
        kernel_search.configure()


# ------------------------------------------------- running printed designs

@needs_cli
def test_execute_runs_the_printed_design(tmp_path):
    x = np.arange(1024, dtype=np.int32) - 300
    np.save(tmp_path / "x.npy", x)
    rc, out, err = run("--kernels", KERNELS, "--execute",
                       os.path.join(PROGRAMS, "run_print_module.py"),
                       os.path.join(FIXTURES, "scale_func_link_2025.mlir"),
                       "--in", "x.npy", "--out", "y.npy", "npu", cwd=tmp_path)
    assert "arg1 saved to 'y.npy'" in out
    assert (np.load(tmp_path / "y.npy") == x * 3).all()
    # Named outputs and a reference go to the runner as they are.
    np.save(tmp_path / "ref.npy", x * 3)
    rc, out, err = run("--kernels", KERNELS, "--execute",
                       os.path.join(PROGRAMS, "run_print_module.py"),
                       os.path.join(FIXTURES, "scale_func_link_2025.mlir"),
                       "--in=arg0=x.npy", "--ref", "arg1=ref.npy", cwd=tmp_path)
    assert "arg1: matches" in out


@needs_cli
def test_execute_errors(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("print('no module here')\n")
    rc, out, err = run("--execute", str(prog), check=False)
    assert rc != 0 and "printed no MLIR module" in err
    rc, out, err = run("--execute", os.path.join(PROGRAMS, "run_print_module.py"),
                       os.path.join(FIXTURES, "scale_func_link_2025.mlir"),
                       cwd=tmp_path, check=False)
    assert rc != 0 and "external function @scale_int32" in err


@needs_cli
def test_xrt_host_runs_the_saved_design(tmp_path):
    build = tmp_path / "build"
    build.mkdir()
    shutil.copy(os.path.join(FIXTURES, "scale_func_link_2025.mlir"),
                build / "aie.mlir")
    _, out, _ = run("--kernels", KERNELS, os.path.join(PROGRAMS, "run_xrt_host.py"),
                    "-x", str(build / "final.xclbin"), "-i", "insts.txt",
                    "-k", "MLIR_AIE", cwd=tmp_path)
    assert out.strip() == "PASS!"
    rc, _, err = run("--kernels", KERNELS, os.path.join(PROGRAMS, "run_xrt_host.py"),
                     "-x", str(tmp_path / "final.xclbin"), cwd=tmp_path, check=False)
    assert rc != 0 and "no design for" in err


# ------------------------------------------- upstream programs end to end

needs_binding = pytest.mark.skipif(
    not all(hasattr(iron._iron, n) for n in ("Jit", "Tensor")),
    reason="the binding's Jit and Tensor are not built yet")
PROGRAM_KERNELS = os.path.join(PROGRAMS, "kernels")


@needs_binding
def test_classic_program_prints_its_module():
    _, out, _ = run("--kernels", PROGRAM_KERNELS,
                    os.path.join(PROGRAMS, "run_passthrough_kernel.py"), "npu", "1024")
    assert out.startswith("module")
    assert "aie.device(npu1_1col)" in out
    assert "func.func private @passThroughLine" in out


@needs_binding
@needs_cli
def test_classic_program_execute_runs_its_module(tmp_path):
    x = (np.arange(4096) % 253).astype(np.uint8)
    np.save(tmp_path / "x.npy", x)
    run("--kernels", PROGRAM_KERNELS, "--execute",
        os.path.join(PROGRAMS, "run_passthrough_kernel.py"), "npu2", "4096",
        "--in", "x.npy", "--out", "y.npy", cwd=tmp_path)
    assert (np.load(tmp_path / "y.npy") == x).all()


@needs_binding
@needs_cli
def test_classic_program_then_its_test_py_host(tmp_path):
    """The Makefile flow: the printed design saved as build/aie.mlir, then
    the host run with -x build/final.xclbin."""
    build = tmp_path / "build"
    build.mkdir()
    _, out, _ = run("--kernels", PROGRAM_KERNELS,
                    os.path.join(PROGRAMS, "run_passthrough_kernel.py"), "npu", "1024")
    (build / "aie.mlir").write_text(out)
    _, out, _ = run("--kernels", PROGRAM_KERNELS,
                    os.path.join(PROGRAMS, "run_xrt_host.py"), "--op", "copy",
                    "-x", str(build / "final.xclbin"), "-i", "build/insts.txt",
                    "-k", "MLIR_AIE", cwd=tmp_path)
    assert out.strip() == "PASS!"


@needs_binding
@needs_cli
def test_cxx_kernel_without_port_runs(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(open(os.path.join(PROGRAMS, "run_passthrough_kernel.py")).read()
                    .replace('"passThrough.cc.o"', '"scale_only.cc.o"'))
    # The C++ source alone is compiled as C++ and runs.
    x = (np.arange(4096) % 251).astype(np.uint8)
    np.save(tmp_path / "x.npy", x)
    run("--kernels", PROGRAM_KERNELS, "--execute", str(prog), "npu2", "4096",
        "--in", "x.npy", "--out", "y.npy", cwd=tmp_path)
    assert (np.load(tmp_path / "y.npy") == x).all()
    assert kernel_search.find_kernel_source(
        os.path.join(PROGRAM_KERNELS, "scale_only.cc")).endswith("scale_only.cc")


@needs_binding
def test_classic_jit_program():
    _, out, _ = run(os.path.join(PROGRAMS, "run_vector_add_jit.py"), "256")
    assert "PASS!" in out


@needs_binding
def test_newest_design_cli_program():
    _, out, _ = run("--device", "npu1",
                    os.path.join(PROGRAMS, "run_scale_design_cli.py"), "-d", "npu",
                    "-n", "128")
    assert out.strip() == "PASS!"
    # Without -d the family of the device iron.run names is opts.dev.
    _, out, _ = run("--device", "npu2_1col",
                    os.path.join(PROGRAMS, "run_scale_design_cli.py"), "-n", "64")
    assert out.strip() == "PASS!"
    rc, _, err = run(os.path.join(PROGRAMS, "run_scale_design_cli.py"),
                     "--xclbin-path", "x.xclbin", "--insts-path", "i.bin",
                     check=False)
    assert rc == 1 and "writes no xclbin" in err


@needs_binding
@needs_cli
def test_dialect_helpers_and_mlir_mod_ctx(tmp_path):
    a = (np.arange(256, dtype=np.int32) * 7) % 120
    np.save(tmp_path / "a.npy", a)
    run("--execute", os.path.join(PROGRAMS, "run_dialect_helpers.py"), "256",
        "--in", "a.npy", "--out", "c.npy", cwd=tmp_path)
    want = np.minimum(a + np.arange(256) % 16, 100)
    got = np.load(tmp_path / "c.npy")
    assert (got == want).all(), (got[:20], want[:20])


@needs_binding
def test_algorithm_program():
    _, out, _ = run(os.path.join(PROGRAMS, "run_transform.py"))
    assert out.strip() == "PASS!"


@needs_binding
def test_newest_era_helpers():
    _, out, _ = run(os.path.join(PROGRAMS, "run_newest_helpers.py"))
    assert "PASS!" in out and "NPU time" in out and "refused: CascadeFlow" in out
