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


def assert_close_with_benchmark(actual, expected, *, bench, ops=None, gflops_fmt=".2f",
                                float_rtol=0.05, float_atol=0.5, fail_msg=None,
                                mismatch_indices=False):
    """Checks actual against expected (exactly for integer results, within
    float_rtol / float_atol otherwise), prints the timing of `bench` (an
    aie.utils.benchmark result: host time on the emulator; no GFLOPS, which
    would need the NPU's time) and "PASS!", or exits with "FAIL!"."""
    exp = np.asarray(expected)
    act = np.asarray(actual)
    if np.issubdtype(exp.dtype, np.integer):
        ok = np.asarray(act).ravel() == exp.ravel()
    else:
        ok = np.isclose(act.astype(np.float32).ravel(), exp.astype(np.float32).ravel(),
                        rtol=float_rtol, atol=float_atol)
    if not ok.all():
        bad = np.flatnonzero(~ok)
        where = f" at {bad[:10].tolist()}" if mismatch_indices else ""
        sys.exit(f"FAIL! {bad.size} of {ok.size} elements differ{where}"
                 + (f": {fail_msg}" if fail_msg else ""))
    if bench is not None:
        from aie.utils.benchmark import print_benchmark
        print_benchmark(bench)
    print("PASS!")
