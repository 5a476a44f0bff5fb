# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Imports every module iron.run serves and prints whether the iron
# package served it (its compat tree, or iron's own module).
import importlib
import os

import iron

HERE = os.path.dirname(iron.__file__) + os.sep

MODULES = """aie aie.iron aie.iron.placers aie.iron.device aie.iron.controlflow
aie.iron.kernel aie.iron.localbuffer aie.iron.globalbuffer aie.iron.buffer
aie.iron.dtype aie.iron.algorithms aie.iron.kernels aie.iron.dataflow
aie.iron.worker aie.iron.runtime aie.iron.program aie.helpers.taplib
aie.helpers.taplib.tap aie.helpers.taplib.tas aie.helpers.taplib.tensortiler2d
aie.helpers.util aie.helpers.dialects.ext.scf aie.helpers.dialects.scf
aie.extras.dialects.ext.arith aie.extras.dialects.arith aie.extras.types
aie.extras.context aie.dialects.aiex aie.utils aie.utils.config aie.utils.test
aie.utils.verify aie.utils.hostruntime aie.utils.hostruntime.argparse
aie.utils.hostruntime.cli aie.utils.cli aie.utils.xrt ml_dtypes""".split()

for name in MODULES:
    mod = importlib.import_module(name)
    print(name, mod.__file__.startswith(HERE))
