# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# rtp_barrier_jit -- classic era (2025), jit-driven: runs itself and checks
# its result with numpy.
#
# Constructs: GlobalBuffer(use_write_rtp=True) written in the sequence by
# rt.inline_ops (values computed in Python from the call's arguments:
# metaprogramming), read in the core function after the
# WorkerRuntimeBarrier the sequence sets with rt.set_barrier; traced `*`
# and `+` on i32; the ExternalFunction-free core with element loads and
# stores; `@iron.jit(is_placed=False)` with a Python int argument given
# positionally after the tensors (a compile-time value); Runtime() with a
# sequence of two tensors.
#
# usage: rtp_barrier_jit.py [--n N]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import (GlobalBuffer, ObjectFifo, Program, Runtime, Worker,
                      WorkerRuntimeBarrier)
from aie.iron.controlflow import range_
from aie.iron.placers import SequentialPlacer

TILE = 32


@iron.jit(is_placed=False)
def scale_bias(inp, out, scale):
    n = inp.numel()
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_in = ObjectFifo(tile_ty, name="in")
    of_out = ObjectFifo(tile_ty, name="out")
    params = GlobalBuffer(np.ndarray[(2,), np.dtype[np.int32]], name="params",
                          use_write_rtp=True)
    ready = WorkerRuntimeBarrier()

    def core_fn(of_in, of_out, params, ready):
        ready.wait_for_value(1)
        for _ in range_(n // TILE):
            ei = of_in.acquire(1)
            eo = of_out.acquire(1)
            for i in range_(TILE):
                eo[i] = ei[i] * params[0] + params[1]
            of_in.release(1)
            of_out.release(1)

    w = Worker(core_fn, [of_in.cons(), of_out.prod(), params, ready])

    def write_params(p):
        p[0] = scale
        p[1] = scale * 10 + 1

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty) as (a, b):
        rt.inline_ops(write_params, [params])
        rt.set_barrier(ready, 1)
        rt.start(w)
        rt.fill(of_in.prod(), a)
        rt.drain(of_out.cons(), b, wait=True)
    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=256)
    args = p.parse_args()
    x = iron.arange(args.n, dtype=np.int32)
    for scale in (3, -2):
        y = iron.zeros(args.n, dtype=np.int32)
        scale_bias(x, y, scale)
        expected = x.numpy() * scale + (scale * 10 + 1)
        if not np.array_equal(y.numpy(), expected):
            print(f"FAIL (scale {scale})\ngot     ", y.numpy()[:8], "\nexpected", expected[:8])
            sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
