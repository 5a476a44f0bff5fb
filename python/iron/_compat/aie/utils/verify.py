# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""aie.utils.verify: how upstream's example hosts check their results.

assert_pass(actual, expected) compares exactly unless rtol or atol is
given; with either, element a passes against b when a == b or
|a - b| < max(atol, rtol * (|a| + |b|)), computed in float32 (rtol
defaults to 0.128, upstream's bfloat16 tolerance).  A mismatch exits the
program with "FAIL!" as upstream does; success prints "PASS!"."""
import sys

import numpy as np

DEFAULT_RTOL = 0.128


def nearly_equal(a, b, *, rtol=DEFAULT_RTOL, atol=None):
    """Elementwise: a == b or |a - b| < max(atol, rtol * (|a| + |b|))."""
    a32 = np.asarray(a, dtype=np.float32)
    b32 = np.asarray(b, dtype=np.float32)
    floor = float(np.finfo(np.float32).tiny) if atol is None else atol
    with np.errstate(over="ignore", invalid="ignore"):
        scale = np.minimum(np.abs(a32) + np.abs(b32), np.finfo(np.float32).max)
        ok = np.abs(a32 - b32) < np.maximum(floor, rtol * scale)
    return (a32 == b32) | ok


def count_mismatches(actual, ref, *, rtol=DEFAULT_RTOL, atol=None,
                     stop_at_nonfinite=True):
    """(mismatches, elements compared); the comparison stops at the first
    element that is not finite on either side unless stop_at_nonfinite
    is False."""
    a = np.asarray(actual, dtype=np.float32).ravel()
    r = np.asarray(ref, dtype=np.float32).ravel()
    if a.shape != r.shape:
        raise ValueError(
            f"actual and ref: expected the same number of elements, got "
            f"{a.size} and {r.size}")
    n = a.size
    if stop_at_nonfinite:
        bad = ~(np.isfinite(a) & np.isfinite(r))
        if bad.any():
            n = int(np.argmax(bad))
    ok = nearly_equal(a[:n], r[:n], rtol=rtol, atol=atol)
    return int(ok.size - np.count_nonzero(ok)), n


def assert_pass(actual, expected, *, rtol=None, atol=None, fail_msg=None,
                print_pass=True):
    """Exits with "FAIL!" (and fail_msg) unless actual matches expected;
    prints "PASS!" otherwise (unless print_pass is False)."""
    if rtol is None and atol is None:
        ok = bool(np.array_equal(np.asarray(actual), np.asarray(expected)))
    else:
        errors, _ = count_mismatches(
            actual, expected, rtol=DEFAULT_RTOL if rtol is None else rtol,
            atol=atol)
        ok = errors == 0
    if not ok:
        sys.exit("FAIL!" if fail_msg is None else f"FAIL! {fail_msg}")
    if print_pass:
        print("PASS!")
