# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils: the tensor factories (tensor, zeros, ones, full, arange,
rand, randint, zeros_like; iron._tensor) and ceildiv."""
from aie._forward import forward


def ceildiv(a, b):
    """a / b rounded up, for ints."""
    return -(a // -b)


forward(globals(), "iron._tensor")
