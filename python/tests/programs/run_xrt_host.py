# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A test.py host as upstream's examples write them: the options of
# aie.utils.test (plus its own), setup_aie / execute from aie.utils.xrt,
# assert_pass.  Run with -x naming a file beside the design's aie.mlir.
#   --op scale: 1024 int32 in, each times 3 out
#   --op copy:  1024 uint8 in, the same out
import sys

import numpy as np

import aie.utils.test as test_utils
from aie.utils.verify import assert_pass
from aie.utils.xrt import setup_aie, execute

p = test_utils.create_default_argparser()
p.add_argument("--op", choices=["scale", "copy"], default="scale")
opts = p.parse_args(sys.argv[1:])
if opts.op == "scale":
    x = np.arange(-512, 512, dtype=np.int32)
    want = x * 3
else:
    x = (np.arange(1024) % 251).astype(np.uint8)
    want = x
app = setup_aie(opts.xclbin, opts.instr, x.shape, x.dtype, None, None,
                x.shape, x.dtype)
out = execute(app, x)
assert out.shape == x.shape and out.dtype == x.dtype
assert_pass(out, want)
