# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# signed_int_ops -- newest era (2026), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: traced arithmetic on int32 element loads, signed because the
# dtype is: `//` (floor division, rounding toward -inf), `%` (the
# remainder of C's truncating division, as upstream's remsi), `<`, `>=`,
# `==` (signed compares); `with if_(...) as op:` / `with else_(op):`
# from the newest `aie.helpers.dialects.scf` path; three outputs of one
# sequence; a `dtype: CompileTime[type]` parameter checked in Python.
#
# q = a // b, r = a % b (C remainder), f = 1 if a < b, 2 if a == b, else 0
# ... plus 10 if a >= 0.
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
def int_ops(a: In, b: In, q: Out, r: Out, f: Out, *, dtype: CompileTime[type] = np.int32):
    if np.dtype(dtype) != a.dtype:
        raise TypeError(f"int_ops: built for {np.dtype(dtype)}, got {a.dtype}")
    n = a.numel()
    t_ty = np.ndarray[(n,), np.dtype[dtype]]
    tile_ty = np.ndarray[(TILE,), np.dtype[dtype]]
    fifos = [ObjectFifo(tile_ty, name=nm) for nm in ("a", "b", "q", "r", "f")]

    def core_fn(fa, fb, fq, fr, ff):
        ea, eb = fa.acquire(1), fb.acquire(1)
        eq, er, ef = fq.acquire(1), fr.acquire(1), ff.acquire(1)
        for i in range_(TILE):
            x = ea[i]
            y = eb[i]
            eq[i] = x // y
            er[i] = x % y
            with if_(x < y) as lt:
                ef[i] = 1
            with else_(lt):
                with if_(x == y) as eq_:
                    ef[i] = 2
                with else_(eq_):
                    ef[i] = 0
            with if_(x >= 0):
                ef[i] = ef[i] + 10
        for h in (fa, fb, fq, fr, ff):
            h.release(1)

    w = Worker(core_fn, [fifos[0].cons(), fifos[1].cons(), fifos[2].prod(),
                         fifos[3].prod(), fifos[4].prod()])

    def sequence(A, B, Q, R, F, ha, hb, hq, hr, hf):
        ha.fill(A)
        hb.fill(B)
        hq.drain(Q)
        hr.drain(R)
        hf.drain(F, wait=True)

    rt = Runtime(sequence, [t_ty] * 5 + [fifos[0].prod(), fifos[1].prod(), fifos[2].cons(),
                                         fifos[3].cons(), fifos[4].cons()])
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
    q = np.zeros(args.n, np.int32)
    r = np.zeros(args.n, np.int32)
    f = np.zeros(args.n, np.int32)
    int_ops(a, b, q, r, f)             # numpy arrays, used in place
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
