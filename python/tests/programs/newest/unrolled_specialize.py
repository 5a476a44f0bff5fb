# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# unrolled_specialize -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: Python `for` over a compile-time tuple unrolled at trace time
# (Horner's rule: one traced multiply-add per coefficient); Python `if` on
# a `CompileTime[bool]` (static specialisation: the clamp exists only in
# the relu build); `.specialize(**kw)` binding compile-time values, the
# specialized design then called with tensors only; call-time keywords
# overriding a bound value; traced `max` through arith.maxsi;
# arith.constant(v, T.i32()) starting the sum.
#
# y = poly(x) (coefficients highest first), then max(y, 0) if relu.
#
# usage: unrolled_specialize.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.extras import types as T
from aie.extras.dialects import arith
from aie.iron import CompileTime, In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

TILE = 16


@iron.jit
def poly(x: In, y: Out, *, coeffs: CompileTime[tuple], relu: CompileTime[bool] = False):
    n = x.numel()
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_x, of_y = ObjectFifo(o_ty, name="x"), ObjectFifo(o_ty, name="y")

    def core_fn(fx, fy):
        ex = fx.acquire(1)
        ey = fy.acquire(1)
        for i in range_(TILE):
            v = ex[i]
            acc = arith.constant(coeffs[0], T.i32())
            for c in coeffs[1:]:
                acc = acc * v + c
            if relu:
                acc = arith.maxsi(acc, 0)
            ey[i] = acc
        fx.release(1)
        fy.release(1)

    w = Worker(core_fn, [of_x.cons(), of_y.prod()])

    def sequence(X, Y, hx, hy):
        hx.fill(X)
        hy.drain(Y, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, of_x.prod(), of_y.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def expect(x, coeffs, relu):
    acc = np.full_like(x, coeffs[0])
    for c in coeffs[1:]:
        acc = acc * x + c
    return np.maximum(acc, 0) if relu else acc


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    args = p.parse_args()
    x = np.arange(args.n, dtype=np.int32) - args.n // 2
    ok = True
    cubic = poly.specialize(coeffs=(1, -2, 0, 5), relu=True)
    for label, fn, kw, coeffs, relu in (
            ("plain", poly, dict(coeffs=(2, 3)), (2, 3), False),
            ("specialized", cubic, {}, (1, -2, 0, 5), True),
            ("override", cubic, dict(relu=False), (1, -2, 0, 5), False)):
        y = np.zeros(args.n, np.int32)
        fn(x, y, **kw)
        want = expect(x, coeffs, relu)
        if not np.array_equal(y, want):
            k = int(np.nonzero(y != want)[0][0])
            print(f"FAIL {label}: x={x[k]} got {y[k]} expected {want[k]}")
            ok = False
    if not ok:
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
