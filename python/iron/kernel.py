# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kernels: compiled functions a worker's core function calls.

`Kernel(name, bin_name, arg_types)` names a precompiled object as
upstream's does ("add.cc.o"); here its source is found and compiled by
the library (the `--kernels` folders of `python3 -m iron.run`, or the
program's own folder).  `ExternalFunction(name, source_file=... |
source_string=..., arg_types, include_dirs, compile_flags)` gives the
source directly.  Argument types are upstream's: a tensor type
`np.ndarray[(N,), np.dtype[T]]` passes a pointer to an object, a scalar
type (np.int32) a value.
"""
from __future__ import annotations

import os
import weakref

import numpy as np

from . import _trace
from ._trace import BodyTrace, dtype_name, is_array_type, user_frame
from .kernel_search import find_kernel_source, kernel_flags

__all__ = ["Kernel", "ExternalFunction", "arg_type_name"]

_CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".C", ".c++")
_C_TYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
            "uint16": "uint16_t", "int32": "int32_t", "uint32": "uint32_t",
            "int64": "int64_t", "uint64": "uint64_t", "float32": "float",
            "float64": "double", "bfloat16": "uint16_t"}


def arg_type_name(t, what: str) -> str:
    """The library's declaration of one kernel parameter: "int32*" for a
    tensor type, "int32" for a scalar type."""
    if is_array_type(t):
        return dtype_name(_trace.array_type(t)[1]) + "*"
    try:
        return dtype_name(t)
    except TypeError:
        raise TypeError(f"{what}: expected a tensor type np.ndarray[(N,), "
                        f"np.dtype[T]] or a scalar type such as np.int32, got "
                        f"{t!r}") from None


def _source_for(path: str) -> str:
    """The source compiled for `path`: a C port beside a C++ source (same
    name, .c: one written on purpose) is taken instead, else the file
    itself, which the library compiles as C or C++ by its name."""
    root, ext = os.path.splitext(path)
    if ext in _CXX_SUFFIXES and os.path.isfile(root + ".c"):
        return root + ".c"
    return path


def _is_cxx_text(text: str) -> bool:
    """Whether a source string is C++: upstream's are (their entries in
    extern "C", the AIE API included), a C one never says extern "C"
    outside a __cplusplus guard."""
    return ('extern "C"' in text and "__cplusplus" not in text) or \
        "#include <aie_api/" in text or '#include "aie_api/' in text


class _KernelBase:
    def __init__(self, name: str, arg_types, where: str):
        if not isinstance(name, str) or not name:
            raise ValueError(f"{type(self).__name__}: name must be a non-empty str")
        self._name = name
        self._arg_types = list(arg_types or [])
        self._where = where
        self._decl = [arg_type_name(t, f"{type(self).__name__} '{name}' argument {i}")
                      for i, t in enumerate(self._arg_types)]
        self._cycles = None
        self._arg_names = [None] * len(self._decl)

    def set_cycles(self, cycles, names=None):
        """Declares what one call of this kernel costs the timing model,
        in place of its own estimate: an int, or a formula (str) of the
        kernel's integer scalar arguments, evaluated for each call with
        that call's values in C's integer arithmetic (+ - * / % with
        truncating /, min(a, b), max(a, b)).  "$2" is the third argument;
        `names` (one str or None per argument type) gives the arguments
        names the formula may use instead:
        k.set_cycles("64 + n / 32 * 9", names=[None, None, "n"]).
        The library checks the formula when the design is built and
        raises its error then (naming the column, or the unknown name and
        the known ones).  Returns the kernel."""
        if isinstance(cycles, bool) or not isinstance(cycles, (int, str)):
            raise TypeError(f"{type(self).__name__} '{self._name}'.set_cycles(): "
                            f"cycles must be an int or a str, got "
                            f"{type(cycles).__name__}")
        if names is not None:
            names = list(names)
            if len(names) != len(self._decl):
                raise ValueError(f"{type(self).__name__} '{self._name}'.set_cycles(): "
                                 f"{len(names)} names for {len(self._decl)} "
                                 f"arguments; expected one per argument type "
                                 f"(None for one left unnamed)")
            for i, n in enumerate(names):
                if n is not None and not (isinstance(n, str) and n.isidentifier()):
                    raise ValueError(f"{type(self).__name__} '{self._name}'.set_cycles(): "
                                     f"names[{i}] must be an identifier or None, "
                                     f"got {n!r}")
            self._arg_names = names
        self._cycles = str(cycles)
        return self

    @property
    def name(self) -> str:
        return self._name

    def arg_types(self):
        return list(self._arg_types)

    def arg_type_names(self) -> list[str]:
        return self._decl

    def tile_size(self, arg_index: int = 0) -> int:
        shape, _ = _trace.array_type(self._arg_types[arg_index])
        return int(np.prod(shape)) if len(shape) > 1 else shape[0]

    def __call__(self, *args):
        tr = _trace.current()
        if not isinstance(tr, BodyTrace):
            raise TypeError(f"kernel '{self._name}' called outside a core function: "
                            f"kernels run on a worker's tile (at {user_frame()})")
        tr.call(self, args)

    # -- building (program.Emitter)
    def _source(self) -> tuple[str | None, str | None]:
        """(path, text): one of them."""
        raise NotImplementedError

    def _emit(self, d, sources_optional=False):
        """The library's kernel: C, or C++ for a .cc/.cpp/.cxx/.C/.c++ file
        or a source string that reads as C++ (_is_cxx_text).  With
        sources_optional (a module printed as MLIR, which names kernels by
        symbol and object file and runs nothing), a kernel whose source is
        not found stands in as a declaration only."""
        try:
            path, text = self._source()
        except (FileNotFoundError, NotImplementedError):
            if not sources_optional:
                raise
            path, text = None, self._stub()
        types = ", ".join(t if n is None else f"{t} {n}"
                          for t, n in zip(self._decl, self._arg_names))
        if text is not None:
            k = d.kernel(self._name, text, types)
            if _is_cxx_text(text):
                k.set_lang("c++")
        else:
            k = d.kernel_file(self._name, path, types, list(self._include_dirs()))
        flags = self._all_flags()
        if flags:
            k.add_cflags(" ".join(flags))
        if self._cycles is not None:
            k.set_cycles(self._cycles)
        return k

    def _stub(self) -> str:
        """A C definition of the entry with the declared parameters and an
        empty body: what a printed module needs of a kernel not at hand."""
        params = ", ".join(f"{_C_TYPES[t.rstrip('*')]}{' *' if t.endswith('*') else ''} a{i}"
                           for i, t in enumerate(self._decl)) or "void"
        return f"#include <stdint.h>\nvoid {self._name}({params}) {{}}\n"

    def _include_dirs(self):
        return []

    def _flags(self):
        return []

    def _all_flags(self):
        """The kernel's own flags, then those `python3 -m iron.run
        --kernel-flags` gives its name or object."""
        extra = kernel_flags(self._name) or kernel_flags(self.bin_name)
        return list(self._flags()) + ([extra] if extra else [])

    def _cache_key(self):
        """What makes two kernels the same compile-time value."""
        return (type(self).__name__, self._name, tuple(self._decl), self.bin_name,
                getattr(self, "_source_file", None), getattr(self, "_source_string", None),
                tuple(self._flags()), self._cycles, tuple(self._arg_names))


class Kernel(_KernelBase):
    """A kernel upstream links from a precompiled object `bin_name`; here
    its source is found by that name and compiled."""

    def __init__(self, name: str, bin_name: str, arg_types=()):
        super().__init__(name, arg_types, user_frame())
        if not isinstance(bin_name, str) or not bin_name:
            raise ValueError(f"Kernel '{name}': bin_name must be a file name")
        self._bin_name = bin_name

    @property
    def bin_name(self) -> str:
        return self._bin_name

    def _source(self):
        return _source_for(find_kernel_source(self._bin_name, entry=self._name)), None

    def __repr__(self):
        return f"Kernel({self._name!r}, {self._bin_name!r})"


class ExternalFunction(_KernelBase):
    """A kernel given by its source: a file or a string."""

    # Upstream's registry of the instances made (`python3 -m iron.run
    # --execute` reads it for the sources of the kernels a printed module
    # names); weak, so that it holds no kernel alive.
    _instances = weakref.WeakSet()

    def __init__(self, name: str, object_file_name: str | None = None,
                 source_file: str | None = None, source_string: str | None = None,
                 arg_types=(), include_dirs=(), compile_flags=(), **unsupported):
        super().__init__(name, arg_types, user_frame())
        if unsupported:
            raise NotImplementedError(
                f"ExternalFunction '{name}': {', '.join(sorted(unsupported))} "
                f"not supported by this emulator ({self._where})")
        if (source_file is None) == (source_string is None):
            if source_file is None and object_file_name is not None:
                source_file = None   # found by object name, as Kernel
            else:
                raise ValueError(f"ExternalFunction '{name}': give exactly one of "
                                 f"source_file and source_string ({self._where})")
        self._object_file_name = object_file_name or f"{name}.o"
        self._source_file = source_file
        self._source_string = source_string
        self._include = [os.fspath(p) for p in include_dirs]
        self._compile_flags = [str(f) for f in compile_flags]
        ExternalFunction._instances.add(self)

    @property
    def bin_name(self) -> str:
        return self._object_file_name

    @property
    def source_file(self):
        return self._source_file

    def _source(self):
        if self._source_string is not None:
            return None, self._source_string
        if self._source_file is None:
            return _source_for(find_kernel_source(self._object_file_name,
                                                  entry=self._name)), None
        path = os.fspath(self._source_file)
        if not os.path.isfile(path):
            path = find_kernel_source(path, entry=self._name)
        return _source_for(os.path.abspath(path)), None

    def _include_dirs(self):
        return [d for d in self._include if os.path.isdir(d)]

    def _flags(self):
        return self._compile_flags

    __hash__ = object.__hash__

    def __repr__(self):
        return f"ExternalFunction({self._name!r})"
