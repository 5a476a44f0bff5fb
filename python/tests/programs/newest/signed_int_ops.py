# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# signed_int_ops -- newest era (2026), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: traced arithmetic on int32 element loads, signed because the
# dtype is: `//` (floor division, rounding toward -inf), `%` (the
# remainder of C's truncating division, as upstream's remsi), `<`, `>=`,
# `==` (signed compares); `with if_(...) as op:` / `with else_(op):`
# from the newest `aie.helpers.dialects.scf` path; three results packed
# into one output object at constant offsets (a compute tile has two
# output DMA channels); a `dtype: CompileTime[type]` parameter checked in
# Python.
#
# Per 16-element object: q = a // b, r = a % b (C remainder), f = 1 if
# a < b, 2 if a == b, else 0, plus 10 if a >= 0; out holds [q | r | f].
#
# usage: signed_int_ops.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.dialects.scf import else_, if_
from aie.iron import CompileTime, In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

TILE = 16


@iron.jit
def int_ops(a: In, b: In, res: Out, *, dtype: CompileTime[type] = np.int32):
    if np.dtype(dtype) != a.dtype:
        raise TypeError(f"int_ops: built for {np.dtype(dtype)}, got {a.dtype}")
    n = a.numel()
    t_ty = np.ndarray[(n,), np.dtype[dtype]]
    res_ty = np.ndarray[(3 * n,), np.dtype[dtype]]
    tile_ty = np.ndarray[(TILE,), np.dtype[dtype]]
    res_tile_ty = np.ndarray[(3 * TILE,), np.dtype[dtype]]
    fa, fb = ObjectFifo(tile_ty, name="a"), ObjectFifo(tile_ty, name="b")
    fres = ObjectFifo(res_tile_ty, name="res")

    def core_fn(fa, fb, fres):
        ea, eb, eo = fa.acquire(1), fb.acquire(1), fres.acquire(1)
        for i in range_(TILE):
            x = ea[i]
            y = eb[i]
            eo[i] = x // y
            eo[TILE + i] = x % y
            with if_(x < y) as lt:
                eo[2 * TILE + i] = 1
            with else_(lt):
                with if_(x == y) as eq:
                    eo[2 * TILE + i] = 2
                with else_(eq):
                    eo[2 * TILE + i] = 0
            with if_(x >= 0):
                eo[2 * TILE + i] = eo[2 * TILE + i] + 10
        for h in (fa, fb, fres):
            h.release(1)

    w = Worker(core_fn, [fa.cons(), fb.cons(), fres.prod()])

    def sequence(A, B, RES, ha, hb, hres):
        ha.fill(A)
        hb.fill(B)
        hres.drain(RES, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, res_ty, fa.prod(), fb.prod(), fres.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=128)
    args = p.parse_args()
    rng = np.random.default_rng(17)
    a = rng.integers(-1000, 1000, args.n, dtype=np.int32)
    b = rng.integers(-9, 10, args.n, dtype=np.int32)
    b[b == 0] = 7
    a[:4] = b[:4]                      # some equal pairs
    res = np.zeros(3 * args.n, np.int32)
    int_ops(a, b, res)                 # numpy arrays, used in place
    q, r, f = (x.reshape(-1) for x in res.reshape(-1, 3, TILE).transpose(1, 0, 2))
    eq = np.floor_divide(a, b)
    er = np.fmod(a, b)
    ef = np.where(a < b, 1, np.where(a == b, 2, 0)) + np.where(a >= 0, 10, 0)
    ok = True
    for name, got, want in (("//", q, eq), ("%", r, er), ("cmp", f, ef)):
        if not np.array_equal(got, want):
            k = int(np.nonzero(got != want)[0][0])
            print(f"FAIL {name}: a={a[k]} b={b[k]} got {got[k]} expected {want[k]}")
            ok = False
    if not ok:
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
