# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ml_dtypes, as iron.run serves it when the real package is not
installed: only `bfloat16`, iron's numpy bfloat16 type (the upper 16 bits
of a float32, rounded to nearest even), which upstream programs use as
`from ml_dtypes import bfloat16` and `np.dtype[bfloat16]`."""

__iron_compat__ = True


def _bfloat16():
    try:
        from iron._dtype import bfloat16
    except ImportError as e:
        if e.name not in ("iron._dtype",) and "bfloat16" not in str(e):
            raise
        from iron._iron import bfloat16
    return bfloat16


def __getattr__(name):
    if name == "bfloat16":
        value = _bfloat16()
        globals()[name] = value
        return value
    raise AttributeError(
        f"module 'ml_dtypes' has no attribute {name!r}: iron serves only "
        "bfloat16 in place of the ml_dtypes package (install ml_dtypes for "
        "the rest)")
