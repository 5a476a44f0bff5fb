# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Argument checks shared by the taplib classes.

They raise what upstream's taplib raises for the same mistakes (TypeError
for a wrong type, ValueError for a wrong value), with the argument named and
the value given, so that code written against upstream catches the same
exceptions.
"""
import operator


def as_int(value, what):
    """`value` as a Python int (numpy integers included, bools not)."""
    if isinstance(value, bool):
        raise TypeError(f"{what}: expected an int, got bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{what}: expected an int, got {type(value).__name__}") from None


def as_ints(values, what):
    """A sequence of ints as a list (a str or a lone int is refused)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(
            f"{what}: expected a sequence of ints, got {type(values).__name__}")
    return [as_int(v, f"{what}[{i}]") for i, v in enumerate(values)]


def tensor_dims(dims, what="tensor_dims", expected=None):
    """Validated tensor dimensions; a 1-D tensor reads as [1, n], as
    upstream's taplib reads it (its patterns are pictured as 2-D)."""
    dims = as_ints(dims, what)
    if not dims:
        raise ValueError(f"{what}: expected at least one dimension, got []")
    for d in dims:
        if d < 1:
            raise ValueError(f"{what}: every dimension must be >= 1, got {dims}")
    if len(dims) == 1:
        dims = [1, dims[0]]
    if expected is not None and len(dims) != expected:
        raise ValueError(
            f"{what}: expected {expected} dimensions, got {len(dims)} ({dims})")
    return dims


def bool_arg(value, what):
    """A flag: a bool, numpy bool or the int 0 or 1; anything else is a
    TypeError, so that a misplaced positional argument (a tuple where a flag
    goes) is reported instead of read as True."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{what}: expected a bool, got {value!r}")
