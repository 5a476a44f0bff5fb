# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Builds the Python package `iron` from a checkout of the repository:

    pip install --no-build-isolation ./python

The extension iron._iron is python/src/*.c linked with the static library,
whose symbols it keeps private, as `make python` links it
(python/python.mk); the library is built first by the repository's own
`make lib` (in its build folder, `build` or $IRON_BUILD), so the package
needs no libiron.so at run time.  Offline: setuptools, wheel and numpy
come from the system (Debian's python3-setuptools, python3-wheel,
python3-numpy; a venv made with --system-site-packages sees them).
"""
import glob
import os
import re
import shlex
import subprocess

import numpy
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BUILD = os.environ.get("IRON_BUILD", "build")


def version():
    """MAJOR.MINOR.PATCH from include/iron/iron.h, where it is written."""
    with open(os.path.join(REPO, "include", "iron", "iron.h")) as f:
        text = f.read()
    parts = [re.search(rf"#define IRON_VERSION_{p}\s+(\d+)", text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def build_dir():
    return os.path.join(REPO, BUILD)


def system_libs():
    """The static library's system libraries, as the Makefile gives them
    (IRON_LIBS, written into the iron-static.pc it makes)."""
    with open(os.path.join(build_dir(), "pkgconfig", "iron-static.pc")) as f:
        for line in f:
            if line.startswith("Libs:"):
                return [w[2:] for w in shlex.split(line[5:])
                        if w.startswith("-l")]
    raise RuntimeError("iron-static.pc has no Libs line")


class BuildWithLibrary(build_ext):
    """Runs the repository's `make lib` before compiling the extension."""

    def run(self):
        if not os.path.isfile(os.path.join(REPO, "Makefile")):
            raise RuntimeError(f"{REPO} is not a checkout of iron: build "
                               f"the package from the repository's python/ "
                               f"folder")
        jobs = str(os.cpu_count() or 1)
        subprocess.check_call(["make", "-C", REPO, f"-j{jobs}",
                               f"BUILD={BUILD}", "lib"])
        for ext in self.extensions:
            ext.extra_objects = [os.path.join(build_dir(), "libiron.a")]
            ext.libraries += system_libs()
        super().run()


NUMPY_INC = numpy.get_include()

extension = Extension(
    "iron._iron",
    sources=sorted(os.path.relpath(p, HERE)
                   for p in glob.glob(os.path.join(HERE, "src", "*.c"))),
    depends=glob.glob(os.path.join(HERE, "src", "*.h")),
    include_dirs=[os.path.join(REPO, "include"), NUMPY_INC],
    define_macros=[("_GNU_SOURCE", None)],
    extra_compile_args=["-std=c11", "-fvisibility=hidden"],
    # numpy's math library (float16 conversions), static, beside its
    # headers; --exclude-libs keeps the libraries' symbols private.
    library_dirs=[os.path.join(NUMPY_INC, "..", "lib")],
    libraries=["npymath"],
    extra_link_args=["-Wl,--exclude-libs,ALL"],
)

setup(
    name="iron",
    version=version(),
    description="IRON designs for AMD NPUs, jit-compiled and run on an "
                "emulated NPU",
    license="Apache-2.0 WITH LLVM-exception",
    python_requires=">=3.9",
    install_requires=["numpy"],
    packages=find_packages(HERE, include=["iron", "iron.*"]),
    # iron.kernels compiles these C sources when a design uses a factory.
    package_data={"iron": ["kernels_src/*.c"]},
    ext_modules=[extension],
    cmdclass={"build_ext": BuildWithLibrary},
    zip_safe=False,
)
