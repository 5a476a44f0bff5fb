# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.config: where kernels find their headers.

Upstream's cxx_header_path() is the folder holding the AIE API headers;
iron's kernels are C, and the header they may include is
<iron/iron_kernel.h>, so this is the folder holding that."""
import os
import sys


def _candidates():
    import iron
    pkg = os.path.dirname(os.path.abspath(iron.__file__))
    return [
        os.path.normpath(os.path.join(pkg, "..", "..", "include")),        # source tree
        os.path.normpath(os.path.join(pkg, "..", "..", "..", "include")),  # build tree
        os.path.join(sys.prefix, "include"),                               # installed
    ]


def cxx_header_path():
    """The folder holding iron/iron_kernel.h, for a kernel's include_dirs."""
    tried = _candidates()
    for folder in tried:
        if os.path.isfile(os.path.join(folder, "iron", "iron_kernel.h")):
            return folder
    raise FileNotFoundError(
        "aie.utils.config.cxx_header_path: iron/iron_kernel.h is in none of "
        + ", ".join(tried))


def root_path():
    """The folder above cxx_header_path() (upstream: mlir-aie's root)."""
    return os.path.dirname(cxx_header_path())
