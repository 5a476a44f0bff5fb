# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# float_ops -- newest era (2026), jit-driven: runs itself and checks its
# result with numpy.
#
# Constructs: traced float arithmetic on float32 and bfloat16 element
# loads (`*`, `+`, `-`, `/` with Python float constants coerced to the
# element type), ordered float comparisons (`x > 0.0`) in `if_` /
# `else_`, and a negation; the same jit function specialized per dtype
# (float32, then bfloat16: each op rounded to bfloat16 as it is computed).
#
# y = x > 0 ? x * 0.5 + 1.0 : -(x / 4.0) - 2.0
#
# usage: float_ops.py [--n N]
import argparse
import sys

import numpy as np
from ml_dtypes import bfloat16

import aie.iron as iron
from aie.helpers.dialects.scf import else_, if_
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

TILE = 16


@iron.jit
def piecewise(x: In, y: Out):
    n = x.numel()
    t_ty = np.ndarray[(n,), np.dtype[x.dtype]]
    o_ty = np.ndarray[(TILE,), np.dtype[x.dtype]]
    of_x, of_y = ObjectFifo(o_ty, name="x"), ObjectFifo(o_ty, name="y")

    def core_fn(fx, fy):
        ex = fx.acquire(1)
        ey = fy.acquire(1)
        for i in range_(TILE):
            v = ex[i]
            with if_(v > 0.0) as pos:
                ey[i] = v * 0.5 + 1.0
            with else_(pos):
                ey[i] = -(v / 4.0) - 2.0
        fx.release(1)
        fy.release(1)

    w = Worker(core_fn, [of_x.cons(), of_y.prod()])

    def sequence(X, Y, hx, hy):
        hx.fill(X)
        hy.drain(Y, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, of_x.prod(), of_y.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def expect(x, dt):
    """Each op in the element type (bfloat16 rounds after every op)."""
    def r(v):
        return np.asarray(v, np.float32).astype(dt).astype(np.float32)
    xf = x.astype(np.float32)
    pos = r(r(xf * np.float32(0.5)) + np.float32(1.0))
    neg = r(r(-r(xf / np.float32(4.0))) - np.float32(2.0))
    return np.where(xf > 0, pos, neg).astype(dt)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    args = p.parse_args()
    rng = np.random.default_rng(41)
    ok = True
    for dt in (np.float32, bfloat16):
        x = rng.uniform(-10, 10, args.n).astype(np.float32).astype(dt)
        x[:2] = 0                          # 0 takes the else branch
        y = np.zeros(args.n, dt)
        piecewise(x, y)
        want = expect(x, dt)
        if not np.array_equal(y.view(np.uint8), want.view(np.uint8)):
            k = int(np.nonzero(y.astype(np.float32) != want.astype(np.float32))[0][0])
            print(f"FAIL {np.dtype(dt).name}: x={x[k]} got {y[k]} expected {want[k]}")
            ok = False
    if not ok:
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
