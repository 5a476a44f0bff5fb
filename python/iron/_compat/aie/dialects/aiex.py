# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.dialects.aiex: only v8bfp16ebs8, the AIE2P block floating point
type (eight bfloat16 mantissas sharing an 8-bit exponent) that block
datatype designs name as an element type.

iron has no block floating point: the name imports, so that a program's
imports succeed, but using it -- calling it, reading its attributes, or a
dtype conversion that honours __iron_unsupported__ -- raises
NotImplementedError naming the feature."""

_FEATURE = ("the block floating point type v8bfp16ebs8 (AIE2P bfp16, eight "
            "bfloat16 mantissas with a shared 8-bit exponent) is not "
            "supported by iron")


class _Unsupported(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise NotImplementedError(f"v8bfp16ebs8.{name}: {_FEATURE}")

    def __call__(cls, *args, **kwargs):
        raise NotImplementedError(f"v8bfp16ebs8(...): {_FEATURE}")


class v8bfp16ebs8(metaclass=_Unsupported):  # noqa: N801 (upstream's name)
    """A placeholder for upstream's bfp16 block type: see the module."""

    __iron_unsupported__ = _FEATURE


from aie._unmodelled import unmodelled  # noqa: E402

unmodelled(globals(), "upstream's low-level MLIR-AIEX dialect API (runtime-sequence ops, locks)")
