# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# trunci_index_cast -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: explicit casts between traced types: arith.index_cast of an
# index expression built from two loops' induction variables (traced
# index `*` and `+`), arith.extsi(T.i32(), int16 value) (sign-extending),
# arith.trunci(T.i16(), i32 value) (wrapping); a design whose inputs and
# output have different dtypes (int32, int16 -> int16); `range_` over the
# objects of a call with the object index used in the body.
#
# out[k] = int16(a[k] * 3 + int32(b[k]) + k) for the global index k.
#
# usage: trunci_index_cast.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.extras import types as T
from aie.extras.dialects import arith
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

TILE = 16


@iron.jit
def mix(a: In, b: In, out: Out):
    n = a.numel()
    a_ty = np.ndarray[(n,), np.dtype[np.int32]]
    b_ty = np.ndarray[(n,), np.dtype[np.int16]]
    at_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    bt_ty = np.ndarray[(TILE,), np.dtype[np.int16]]
    of_a, of_b, of_o = ObjectFifo(at_ty), ObjectFifo(bt_ty), ObjectFifo(bt_ty)

    def core_fn(fa, fb, fo):
        for j in range_(n // TILE):
            ea, eb, eo = fa.acquire(1), fb.acquire(1), fo.acquire(1)
            for i in range_(TILE):
                k = arith.index_cast(j * TILE + i, to=T.i32())
                wide = ea[i] * 3 + arith.extsi(T.i32(), eb[i]) + k
                eo[i] = arith.trunci(T.i16(), wide)
            fa.release(1)
            fb.release(1)
            fo.release(1)

    w = Worker(core_fn, [of_a.cons(), of_b.cons(), of_o.prod()])

    def sequence(A, B, O, ha, hb, ho):
        ha.fill(A)
        hb.fill(B)
        ho.drain(O, wait=True)

    rt = Runtime(sequence, [a_ty, b_ty, b_ty, of_a.prod(), of_b.prod(), of_o.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=128)
    args = p.parse_args()
    rng = np.random.default_rng(31)
    a = rng.integers(-(1 << 28), 1 << 28, args.n, dtype=np.int32)
    b = rng.integers(-(1 << 15), 1 << 15, args.n, dtype=np.int16)
    out = np.zeros(args.n, np.int16)
    mix(a, b, out)
    wide = a.astype(np.int64) * 3 + b.astype(np.int64) + np.arange(args.n)
    want = (wide & 0xFFFF).astype(np.uint16).view(np.int16)
    if not np.array_equal(out, want):
        k = int(np.nonzero(out != want)[0][0])
        print(f"FAIL at {k}: a={a[k]} b={b[k]} got {out[k]} expected {want[k]}")
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
