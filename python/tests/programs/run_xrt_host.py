# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A test.py host as upstream's examples write them: the options of
# aie.utils.test, setup_aie / execute from aie.utils.xrt, assert_pass.
# Run with -x naming a file beside the design's aie.mlir.
import sys

import numpy as np

import aie.utils.test as test_utils
from aie.utils.verify import assert_pass
from aie.utils.xrt import setup_aie, execute

opts = test_utils.parse_args(sys.argv[1:])
x = np.arange(-512, 512, dtype=np.int32)
app = setup_aie(opts.xclbin, opts.instr, x.shape, x.dtype, None, None,
                x.shape, np.int32)
out = execute(app, x)
assert out.shape == x.shape and out.dtype == np.int32
assert_pass(out, x * 3)
