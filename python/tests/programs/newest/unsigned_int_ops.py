# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# unsigned_int_ops -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: traced arithmetic on uint32 element loads, unsigned because
# the dtype is: `//` and `%` (divui / remui), `>` (ugt) on
# values above 2**31 where a signed reading would differ; a traced value
# compared with another traced value inside `with if_(...)` / `else_`;
# the same jit function called on uint16 tensors too (a second
# specialization, chosen by the tensors' dtype), where `>` must also be
# unsigned; two outputs, one of them two results packed per object (a
# compute tile has two output DMA channels).
#
# usage: unsigned_int_ops.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.dialects.scf import else_, if_
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

TILE = 16


@iron.jit
def uint_ops(a: In, b: In, qr: Out, m: Out):
    n = a.numel()
    dt = a.dtype
    t_ty = np.ndarray[(n,), np.dtype[dt]]
    qr_ty = np.ndarray[(2 * n,), np.dtype[dt]]
    tile_ty = np.ndarray[(TILE,), np.dtype[dt]]
    qr_tile_ty = np.ndarray[(2 * TILE,), np.dtype[dt]]
    fa, fb, fm = (ObjectFifo(tile_ty) for _ in range(3))
    fqr = ObjectFifo(qr_tile_ty)

    def core_fn(fa, fb, fqr, fm):
        ea, eb = fa.acquire(1), fb.acquire(1)
        eqr, em = fqr.acquire(1), fm.acquire(1)
        for i in range_(TILE):
            x = ea[i]
            y = eb[i]
            eqr[i] = x // y
            eqr[TILE + i] = x % y
            with if_(x > y) as gt:
                em[i] = x
            with else_(gt):
                em[i] = y
        for h in (fa, fb, fqr, fm):
            h.release(1)

    w = Worker(core_fn, [fa.cons(), fb.cons(), fqr.prod(), fm.prod()])

    def sequence(A, B, QR, M, ha, hb, hqr, hm):
        ha.fill(A)
        hb.fill(B)
        hqr.drain(QR)
        hm.drain(M, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, qr_ty, t_ty, fa.prod(), fb.prod(), fqr.cons(),
                            fm.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def check(dt, n, rng):
    info = np.iinfo(dt)
    a = rng.integers(0, int(info.max) + 1, n, dtype=np.uint64).astype(dt)
    b = rng.integers(1, 1 << 12, n, dtype=np.uint64).astype(dt)
    b[::3] = (info.max - rng.integers(0, 1000, len(b[::3]))).astype(dt)   # large divisors
    qr, mx = np.zeros(2 * n, dt), np.zeros(n, dt)
    uint_ops(iron.tensor(a), iron.tensor(b), qr, mx)
    q, r = (x.reshape(-1) for x in qr.reshape(-1, 2, TILE).transpose(1, 0, 2))
    ok = True
    for name, got, want in (("//", q, a // b), ("%", r, a % b), ("max", mx, np.maximum(a, b))):
        if not np.array_equal(got, want):
            k = int(np.nonzero(got != want)[0][0])
            print(f"FAIL {dt.__name__} {name}: a={a[k]} b={b[k]} got {got[k]} expected {want[k]}")
            ok = False
    return ok


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    args = p.parse_args()
    rng = np.random.default_rng(23)
    ok = check(np.uint32, args.n, rng)
    ok = check(np.uint16, args.n, rng) and ok
    if not ok:
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
