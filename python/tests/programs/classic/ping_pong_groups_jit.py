# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ping_pong_groups_jit -- classic era (2025), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: several rt.task_group()s open at once (ping-pong, as
# upstream's matmul sequences keep two groups in flight): each chunk's fill
# and drain go to their own group, and a group is finished with
# rt.finish_task_group once the next one has been issued; a fresh
# `of_y.cons()` handle for each drain of the same FIFO (the runtime's
# consumer handles of one FIFO are one endpoint); TensorAccessPattern taps
# with offsets; `@iron.jit(is_placed=False)`.
#
# usage: ping_pong_groups_jit.py [--n N] [--chunks C]
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.iron import ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.placers import SequentialPlacer

TILE = 16


@iron.jit(is_placed=False)
def add_one(x, y, chunks):
    n = x.numel()
    per = n // chunks
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_x, of_y = ObjectFifo(o_ty, name="x"), ObjectFifo(o_ty, name="y")

    def core_fn(fx, fy):
        ex = fx.acquire(1)
        ey = fy.acquire(1)
        for i in range_(TILE):
            ey[i] = ex[i] + 1
        fx.release(1)
        fy.release(1)

    w = Worker(core_fn, [of_x.cons(), of_y.prod()])
    rt = Runtime()
    with rt.sequence(t_ty, t_ty) as (X, Y):
        rt.start(w)
        in_flight = []
        for c in range(chunks):
            tg = rt.task_group()
            tap = TensorAccessPattern((n,), per * c, [per], [1])
            rt.fill(of_x.prod(), X, tap, task_group=tg)
            rt.drain(of_y.cons(), Y, tap, task_group=tg, wait=True)
            in_flight.append(tg)
            if len(in_flight) == 2:
                rt.finish_task_group(in_flight.pop(0))
        for tg in in_flight:
            rt.finish_task_group(tg)
    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--chunks", type=int, default=4)
    args = p.parse_args()
    x = iron.arange(args.n, dtype=np.int32)
    y = iron.zeros(args.n, dtype=np.int32)
    add_one(x, y, args.chunks)
    if not np.array_equal(y.numpy(), x.numpy() + 1):
        print("FAIL\ngot     ", y.numpy()[:16], "\nexpected", x.numpy()[:16] + 1)
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
