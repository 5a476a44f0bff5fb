# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.extras.types: i8() .. f64(), index() (iron.types), imported as
`from aie.extras import types as T`; also T itself, the module."""
from aie._forward import forward

forward(globals(), "iron.types", {"T": "iron:types"})
