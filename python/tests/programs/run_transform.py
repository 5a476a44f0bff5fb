# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# An upstream (2026) algorithm program: iron.jit(transform) over a lambda,
# the tensor factories of aie.iron and aie.utils, assert_pass.
import numpy as np

import aie.iron as iron
from aie.iron.algorithms import transform
from aie.utils import ceildiv, zeros
from aie.utils.verify import assert_pass

n = 256
a = iron.arange(n, dtype=np.int32)
c = zeros(n, dtype=np.int32)
iron.jit(transform)(lambda x: x * 2 + 1, a, c, tile_size=ceildiv(n, 16))
assert_pass(c.numpy(), a.numpy() * 2 + 1)
