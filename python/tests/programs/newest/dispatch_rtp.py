# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# dispatch_rtp -- newest era (2026), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: `DispatchTime[int]` parameters (scale, bias): given at each
# call, written by the sequence function into a run-time parameter
# `Buffer(type, name=, use_write_rtp=True)` (`params[0] = scale`), read in
# the core function after the input object is acquired; several calls of
# one compiled specialization with different dispatch values (no rebuild:
# the jit's stats say how many builds ran); the core function's traced
# `*` and `+` on i32 element loads.
#
# usage: dispatch_rtp.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import (Buffer, DispatchTime, In, ObjectFifo, Out, Program, Runtime, Worker)
from aie.iron.controlflow import range_

TILE = 32


@iron.jit
def scale_bias(x: In, y: Out, *, scale: DispatchTime[int], bias: DispatchTime[int]):
    n = x.numel()
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_in = ObjectFifo(tile_ty, name="in")
    of_out = ObjectFifo(tile_ty, name="out")
    params = Buffer(np.ndarray[(2,), np.dtype[np.int32]], name="params", use_write_rtp=True)

    def core_fn(of_in, of_out, params):
        ei = of_in.acquire(1)
        eo = of_out.acquire(1)
        s = params[0]
        b = params[1]
        for i in range_(TILE):
            eo[i] = ei[i] * s + b
        of_in.release(1)
        of_out.release(1)

    w = Worker(core_fn, [of_in.cons(), of_out.prod(), params])

    def sequence(a, c, in_h, out_h, p, s, b):
        p[0] = s
        p[1] = b
        in_h.fill(a)
        out_h.drain(c, wait=True)

    rt = Runtime(sequence, [tensor_ty, tensor_ty, of_in.prod(), of_out.cons(), params,
                            scale, bias])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=128)
    args = p.parse_args()
    x = iron.arange(args.n, dtype=np.int32)
    for scale, bias in ((2, 5), (-3, 100), (7, -1)):
        y = iron.zeros(args.n, dtype=np.int32)
        scale_bias(x, y, scale=scale, bias=bias)
        expected = x.numpy() * scale + bias
        if not np.array_equal(y.numpy(), expected):
            print(f"FAIL (scale={scale}, bias={bias})\ngot     ", y.numpy()[:8],
                  "\nexpected", expected[:8])
            sys.exit(1)
    builds = scale_bias.stats().get("builds")
    if builds is not None and builds != 1:
        print(f"FAIL: {builds} builds for three calls of one specialization")
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
