# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where an upstream program's kernels are found.

Upstream programs name their kernels by the object file their build makes
(`Kernel("f", "passThrough.cc.o", ...)`) or by a C++ source
(`ExternalFunction("f", source_file="kernel.cc", ...)`).  iron runs C
kernels, so the name is looked up as a source file in the kernel folders
(`python3 -m iron.run --kernels DIR`, searched in order, then the
program's own folder, then the current folder, then the C ports of
upstream's library kernels this package carries; a name with a folder in
it is first looked for where it points).  In each folder, for "x.cc.o" or
"x.cc" a C port "x.c" beside it is taken (one you wrote on purpose), else
"x.cc" itself, compiled as C++ (with the AIE API): so a folder of
upstream's kernels runs its C++ sources, and the bundled C ports serve
only kernels found nowhere else.  A source named explicitly
(`--kernel-source x.cc.o=path/x.c`) is taken as is.

kernel.py calls find_kernel_source(name) for every kernel it makes; the
answers are kept (resolved()) so that iron.run can give a printed design's
external functions their sources.
"""
import os
import re

_C_SOURCES = (".c",)
_CXX_SOURCES = (".cc", ".cpp", ".cxx", ".C", ".c++")

_folders = []     # searched in order
_sources = {}     # name -> source path, from --kernel-source
_flags = {}       # name -> extra compiler flags, from --kernel-flags
_resolved = {}    # name or entry -> the path found, in lookup order


def configure(folders=(), sources=None, flags=None):
    """Sets the kernel folders (searched in order), the explicit sources
    and the per-kernel flags; forgets earlier lookups.  iron.run calls it
    before running a program."""
    _folders[:] = [os.path.abspath(f) for f in folders]
    _sources.clear()
    _sources.update({k: os.path.abspath(v) for k, v in (sources or {}).items()})
    _flags.clear()
    _flags.update(flags or {})
    _resolved.clear()


def folders():
    """The folders searched, in order."""
    return list(_folders)


def _stem(name):
    """The source a name stands for: "x.cc.o" -> "x.cc", "x.o" -> "x"."""
    return name[:-2] if name.endswith(".o") else name


def _lookup(table, name):
    """table[name], else table[basename(name)], else None."""
    if name in table:
        return table[name]
    return table.get(os.path.basename(name))


def kernel_flags(name):
    """The extra compiler flags given for kernel `name` with
    --kernel-flags NAME=FLAGS (object or source name), or ""."""
    return _lookup(_flags, name) or ""


def _candidates(stem):
    """Source names for a stem, C ports first: "x.cc" -> x.c, x.cc."""
    root, ext = os.path.splitext(stem)
    if ext in _CXX_SOURCES:
        return [root + ".c", stem]
    if ext in _C_SOURCES:
        return [stem]
    return [stem + ".c"] + [stem + e for e in _CXX_SOURCES]


def _accept(path, name):
    """The path found (C or C++: the library compiles a .cc/.cpp/.cxx/.C/
    .c++ file as C++)."""
    del name
    return path


def find_kernel_source(name, entry=None):
    """The path of the source (C, or C++) of kernel `name`: an object name as
    upstream's Kernel takes ("x.cc.o") or a source name or path as
    ExternalFunction's source_file takes.

    `entry`, the kernel's function, is remembered with the answer.  Raises
    FileNotFoundError naming every folder searched when nothing is found,
    NotImplementedError when only a C++ source is.
    """
    if not isinstance(name, (str, os.PathLike)):
        raise TypeError(f"kernel name: expected a str, got {type(name).__name__}")
    name = os.fspath(name)
    path = _lookup(_sources, name)
    if path is None:
        path = _search(name, entry)
    _resolved[name] = path
    if entry is not None:
        _resolved[entry] = path
    return path


def _search(name, entry=None):
    stem = _stem(name)
    tried = []
    # A name with a folder in it (an absolute or relative source_file)
    # is first taken where it points.
    if os.path.dirname(stem):
        base = os.path.abspath(stem)
        for cand in _candidates(base):
            if os.path.isfile(cand):
                return _accept(cand, name)
        tried.append(os.path.dirname(base))
    leaf = os.path.basename(stem)
    # Last, the C ports of upstream's kernels the package carries
    # (iron.kernels), under upstream's file names.
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_src")
    for folder in _folders + [os.getcwd(), bundled]:
        if folder in tried:
            continue
        for cand in _candidates(leaf):
            path = os.path.join(folder, cand)
            if os.path.isfile(path) and (folder != bundled or _defines(path, entry)):
                return _accept(path, name)
        tried.append(folder)
    wanted = " or ".join(_candidates(leaf))
    where = ", ".join(tried) if tried else "(no folder: none was given)"
    raise FileNotFoundError(
        f"kernel '{name}': no source {wanted} in {where}; give the folder "
        f"with --kernels DIR or the file with --kernel-source {name}=FILE")


def defines(path, func):
    """Whether the C file at path defines function `func` (a definition:
    the name, its parameters, then a body)."""
    definition = re.compile(r"\b" + re.escape(func) + r"\s*\([^;{}]*\)\s*\{")
    with open(path, encoding="utf-8", errors="replace") as f:
        return definition.search(f.read()) is not None


def _defines(path, entry):
    """Whether a bundled port defines `entry` (a program's own kernel may
    share a library kernel's file name and not its functions)."""
    return entry is None or defines(path, entry)


def resolved():
    """The lookups made since configure(): {name or entry: path}."""
    return dict(_resolved)
