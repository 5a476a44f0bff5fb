# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""python3 -m iron.run: runs an upstream IRON program file unchanged.

    python3 -m iron.run [--kernels DIR]... [--kernel-source OBJ=SRC]...
                        [--kernel-flags OBJ=FLAGS]... [--device NAME]
                        [--execute] FILE [ARGS...]

For this process only, an import hook makes upstream's modules importable
-- `aie.iron`, `aie.helpers.taplib`, `aie.utils`, ... and `ml_dtypes` --
as thin re-exports of the iron package (the tree under iron/_compat).  The
hook comes after every other importer, so an installed mlir-aie (or
ml_dtypes) is used as it is, never shadowed; `import iron` alone never
installs it.  FILE then runs as `python3 FILE ARGS` would run it.

Kernels named by upstream's object names (`Kernel("f", "x.cc.o", ...)`)
or C++ sources are found in the --kernels folders, then FILE's folder (see
iron.kernel_search): a C port x.c of x.cc is taken; a C++ source alone is
refused.  --kernel-source names a kernel's C source outright and
--kernel-flags adds compiler flags to one kernel.  --device sets the
default device ($IRON_DEVICE) for the program and everything it starts
(upstream's "npu" is npu1).

--execute also runs the design the program prints (an upstream program's
`print(module)`), as `iron run-mlir` does: its arguments are named arg0,
arg1, ... in the runtime sequence's order; --in FILE.npy (in argument
order) or --in argN=FILE.npy gives inputs (the others get seeded random
data), --out FILE.npy (in order of the outputs) or --out argN=FILE.npy or
--out DIR saves outputs, and --ref, --seed, --rtol, --atol, --repeat and
--cols are iron run's.  These options may stand anywhere among ARGS and
are taken out before the program sees them.
"""
import argparse
import atexit
import contextlib
import glob
import importlib
import importlib.abc
import importlib.util
import io
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile

from . import kernel_search

_COMPAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_compat")
_SERVED = ("aie", "ml_dtypes")


# ----------------------------------------------------------- the hook

class _CompatFinder(importlib.abc.MetaPathFinder):
    """Serves iron/_compat/aie/... as `aie...` and _compat/ml_dtypes.py as
    `ml_dtypes`.  Placed last on sys.meta_path: asked only for what no
    other finder has, and for a submodule only when its top package is
    this tree's (a real aie package keeps its own submodules)."""

    def find_spec(self, fullname, path=None, target=None):
        parts = fullname.split(".")
        if parts[0] not in _SERVED:
            return None
        if len(parts) > 1:
            top = sys.modules.get(parts[0])
            if not getattr(top, "__iron_compat__", False):
                return None
        base = os.path.join(_COMPAT, *parts)
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            return importlib.util.spec_from_file_location(
                fullname, init, submodule_search_locations=[base])
        if os.path.isfile(base + ".py"):
            return importlib.util.spec_from_file_location(fullname, base + ".py")
        return None


_finder = _CompatFinder()


def install_hook():
    """Makes upstream's module names importable (see the module)."""
    if _finder not in sys.meta_path:
        sys.meta_path.append(_finder)


def uninstall_hook():
    """Removes the hook; modules already imported stay imported."""
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)


# --------------------------------------------- a printed design's kernels

def _core_links(text):
    """{function: link_with object} from the aie.core blocks that call it
    (the 2024 form: link_with on the core)."""
    links = {}
    for m in re.finditer(r"\baie\.core\(", text):
        start = text.find("{", m.end())
        if start < 0:
            break
        depth, i = 0, start
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        attrs = re.match(r"\s*\{([^{}]*)\}", text[i + 1:])
        link = attrs and re.search(r'link_with\s*=\s*"([^"]+)"', attrs.group(1))
        if link:
            for f in re.findall(r"func\.call\s+@([\w$.]+)", text[start:i]):
                links.setdefault(f, link.group(1))
    return links


def _source_defining(func, folders):
    """The first C file in folders that defines function `func`."""
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.c"))):
            if kernel_search.defines(path, func):
                return path
    return None


def _made_kernels():
    """{entry: source path} of the ExternalFunctions this process made
    (iron.kernel keeps them), a source string written to a file that
    lives as long as the process."""
    kernel = sys.modules.get("iron.kernel")
    made = {}
    for k in list(getattr(getattr(kernel, "ExternalFunction", None),
                          "_instances", ())):
        try:
            path, text = k._source()
        except (OSError, NotImplementedError):
            continue
        if text is not None:
            fd, path = tempfile.mkstemp(prefix=f"iron-{k.name}-", suffix=".c")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            atexit.register(os.unlink, path)
        made[k.name] = path
    return made


def module_kernels(text):
    """{function: C source path} for the external functions
    (`func.func private @f`) of an MLIR module: the source of the kernel
    of that name this process made, else its link_with object's source
    (kernel_search), else the C file that defines it in the kernel folders
    or the folders of the sources found so far.  FileNotFoundError names
    the function and where it was looked for."""
    funcs = re.findall(r"func\.func\s+private\s+@([\w$.]+)\s*\(([^)]*)\)([^\n]*)",
                       text)
    links = _core_links(text)
    found = kernel_search.resolved()
    made = {**{k: v for k, v in found.items() if not os.path.splitext(k)[1]},
            **_made_kernels()}
    folders = kernel_search.folders() + [os.getcwd()]
    for path in list(found.values()) + list(made.values()):
        if os.path.dirname(path) not in folders:
            folders.append(os.path.dirname(path))
    out = {}
    for name, _, rest in funcs:
        if name in made:
            out[name] = made[name]
            continue
        link = re.search(r'link_with\s*=\s*"([^"]+)"', rest)
        link = link.group(1) if link else links.get(name)
        refused = None
        if link:
            try:
                out[name] = kernel_search.find_kernel_source(link, entry=name)
                continue
            except FileNotFoundError:
                pass
            except NotImplementedError as e:
                refused = e
        path = _source_defining(name, folders)
        if path:
            out[name] = path
        elif refused:
            raise refused
        else:
            raise FileNotFoundError(
                f"external function @{name}"
                + (f" (link_with \"{link}\")" if link else "")
                + ": no C source for it in " + ", ".join(folders)
                + "; give the folder with --kernels DIR or the file with "
                f"--kernel-source {link or name}=FILE.c")
    return out


def _module_text(output):
    """The MLIR module in a program's output: from the line that opens
    `module` to the line that closes it."""
    lines = output.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("module"):
            for j in range(len(lines) - 1, i - 1, -1):
                if lines[j].startswith("}"):
                    return "".join(lines[i:j + 1])
    return None


# ---------------------------------------------------- running a module

def find_cli():
    """The `iron` command: the one built beside this package (build/iron
    for build/python/iron), else the one on PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.normpath(os.path.join(here, "..", "..", "iron"))
    if os.path.isfile(built) and os.access(built, os.X_OK):
        return built
    found = shutil.which("iron")
    if found:
        return found
    raise FileNotFoundError(
        f"the iron command is neither at {built} nor on PATH; running a "
        "printed design needs it (make builds it)")


def run_module(path, args=(), module_text=None, **popen):
    """Runs the MLIR module in file `path` (module_text: its contents, read
    if None) with `iron run-mlir`, its kernels found by module_kernels; args
    are run-mlir's other options.  Returns the CompletedProcess; popen
    goes to subprocess.run."""
    if module_text is None:
        with open(path, encoding="utf-8") as f:
            module_text = f.read()
    cmd = [find_cli(), "run-mlir", path]
    for func, source in module_kernels(module_text).items():
        cmd += ["--kernel", f"{func}={source}"]
    return subprocess.run(cmd + list(args), check=False, **popen)


# -------------------------------------------------------------- main

_RUNNER_OPTS = ("--in", "--out", "--ref", "--seed", "--rtol", "--atol",
                "--repeat", "--cols")


def _split_runner_args(args):
    """(program args, {option: [values]}) for --execute."""
    prog, opts, i = [], {o: [] for o in _RUNNER_OPTS}, 0
    while i < len(args):
        a = args[i]
        opt, eq, value = a.partition("=")
        if opt in _RUNNER_OPTS and eq:
            opts[opt].append(value)
        elif a in _RUNNER_OPTS:
            if i + 1 == len(args):
                raise SystemExit(f"iron.run: {a} needs a value")
            opts[a].append(args[i + 1])
            i += 1
        else:
            prog.append(a)
        i += 1
    return prog, opts


def _pairs(items, what):
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key or not value:
            raise SystemExit(f"iron.run: {what} '{item}': expected NAME=VALUE")
        out[key] = value
    return out


def _parser():
    p = argparse.ArgumentParser(
        prog="python3 -m iron.run",
        description="Runs an upstream IRON program file unchanged (see "
                    "the iron.run module's documentation).")
    p.add_argument("--kernels", action="append", default=[], metavar="DIR",
                   help="a folder of kernel sources (repeatable; searched in order)")
    p.add_argument("--kernel-source", action="append", default=[],
                   metavar="OBJ=SRC", help="the C source of kernel OBJ")
    p.add_argument("--kernel-flags", action="append", default=[],
                   metavar="OBJ=FLAGS", help="extra compiler flags for kernel OBJ")
    p.add_argument("--device", metavar="NAME",
                   help="the default device ($IRON_DEVICE)")
    p.add_argument("--execute", action="store_true",
                   help="also run the design the program prints")
    p.add_argument("file", metavar="FILE", help="the program")
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                   help="the program's arguments")
    return p


def _run_program(path, args):
    """Runs the program as `python3 path args` would (its folder first on
    sys.path, sys.argv its own)."""
    sys.argv = [path] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    runpy.run_path(path, run_name="__main__")


def _execute(opts, path, args):
    """--execute: runs the program, then the module it printed."""
    prog_args, runner = _split_runner_args(args)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        _run_program(path, prog_args)
    text = _module_text(printed.getvalue())
    if text is None:
        sys.stdout.write(printed.getvalue())
        raise SystemExit(f"iron.run --execute: {path} printed no MLIR module "
                         "(a line starting 'module' ... a line starting '}')")
    outs = [v for v in runner["--out"]
            if "=" not in v and v.endswith(".npy")]
    with tempfile.TemporaryDirectory(prefix="iron-run-") as tmp:
        module = os.path.join(tmp, os.path.splitext(os.path.basename(path))[0]
                              + ".mlir")
        with open(module, "w", encoding="utf-8") as f:
            f.write(text)
        cli = []
        for v in runner["--in"]:
            cli += ["--in", v] if "=" in v else [v]
        for v in runner["--out"]:
            if v not in outs:
                cli += ["--out", v]
        for o in _RUNNER_OPTS[2:]:
            for v in runner[o]:
                cli += [o, v]
        saved = os.path.join(tmp, "out")
        if outs:
            cli += ["-o", saved]
        if opts.device:
            cli += ["--device", opts.device]
        sys.stdout.flush()
        done = run_module(module, cli, module_text=text)
        if done.returncode == 0 and outs:
            files = sorted(glob.glob(os.path.join(saved, "arg*.npy")),
                           key=lambda p: int(re.sub(r"\D", "", os.path.basename(p))))
            if len(files) < len(outs):
                raise SystemExit(
                    f"iron.run --execute: {len(outs)} --out files for "
                    f"{len(files)} output arguments")
            for src, dst in zip(files, outs):
                shutil.copyfile(src, dst)
                print(f"iron.run: {os.path.basename(src)[:-4]} saved to '{dst}'")
        return done.returncode


def _device(name):
    """The library's name of --device NAME (upstream's "npu" is npu1);
    exits naming the devices there are when it names none."""
    from . import _iron
    lib = importlib.import_module("iron.device").device_name(name)
    known = _iron.device_names()
    if lib not in known:
        raise SystemExit(f"iron.run: --device '{name}': expected one of "
                         f"{', '.join(known)}")
    return lib


def main(argv=None):
    opts = _parser().parse_args(argv)
    path = opts.file
    if not os.path.isfile(path):
        raise SystemExit(f"iron.run: {path}: no such file")
    kernel_search.configure(
        folders=opts.kernels + [os.path.dirname(os.path.abspath(path))],
        sources=_pairs(opts.kernel_source, "--kernel-source"),
        flags=_pairs(opts.kernel_flags, "--kernel-flags"))
    if opts.device:
        opts.device = _device(opts.device)
        os.environ["IRON_DEVICE"] = opts.device
    install_hook()
    if opts.execute:
        return _execute(opts, path, opts.args)
    _run_program(path, opts.args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
