# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# vector_reduce_max -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: `Buffer(type, initial_value=..., name=)` per worker (the
# running maximum and a scratch, starting at INT32_MIN); Workers pinned
# with the newest `tile=Tile(col, row)`; a memtile split into four; one
# worker gathering the three others' partials (acquire of three FIFOs,
# kernel calls on objects and buffers); element load and store
# (`elem_out[0] = next_c[0]`); two kernels from one source file; the jit
# decorator's bare `@iron.jit` form with only In/Out parameters.
#
# Mirrors the C design `vector_reduce_max` (int32, out[0] = max(in)).
#
# usage: vector_reduce_max.py [--n N] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.iron import (Buffer, ExternalFunction, In, ObjectFifo, Out, Program, Runtime,
                      Worker)
from aie.iron.controlflow import range_
from aie.iron.device import Tile

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")
CORES, MEM_ELEMS = 4, 2048


@iron.jit
def reduce_max(a_in: In, c_out: Out):
    n = a_in.numel()
    per_core = MEM_ELEMS // CORES
    num_iter = n // MEM_ELEMS
    in_ty = np.ndarray[(n,), np.dtype[np.int32]]
    mem_ty = np.ndarray[(MEM_ELEMS,), np.dtype[np.int32]]
    piece_ty = np.ndarray[(per_core,), np.dtype[np.int32]]
    out_ty = np.ndarray[(1,), np.dtype[np.int32]]

    src = os.path.join(KERNELS, "reduce_max.c")
    reduce_max_vector = ExternalFunction("reduce_max_vector", source_file=src,
                                         arg_types=[piece_ty, out_ty, np.int32])
    compute_max = ExternalFunction("compute_max", source_file=src,
                                   arg_types=[out_ty, out_ty, out_ty])

    of_in = ObjectFifo(mem_ty, name="of_in")
    in_fifos = of_in.cons().split([per_core * i for i in range(CORES)],
                                  obj_types=[piece_ty] * CORES,
                                  names=[f"memA{i}" for i in range(CORES)])
    out_fifos = [ObjectFifo(out_ty, name=f"memC{i}") for i in range(CORES)]

    def reduce_pieces(of_in, next_c, tmp, rmv, cmax):
        for _ in range_(num_iter):
            elem_in = of_in.acquire(1)
            rmv(elem_in, tmp, per_core)
            cmax(next_c, tmp, next_c)
            of_in.release(1)

    def start_core_body(of_in, of_out, next_c, tmp, rmv, cmax):
        elem_out = of_out.acquire(1)
        reduce_pieces(of_in, next_c, tmp, rmv, cmax)
        elem_out[0] = next_c[0]
        of_out.release(1)

    def core_body(of_in, of_out, p0, p2, p3, next_c, tmp, rmv, cmax):
        reduce_pieces(of_in, next_c, tmp, rmv, cmax)
        elem_out = of_out.acquire(1)
        e0, e2, e3 = p0.acquire(1), p2.acquire(1), p3.acquire(1)
        cmax(e0, next_c, next_c)
        cmax(e2, next_c, next_c)
        cmax(e3, next_c, elem_out)
        p0.release(1)
        p2.release(1)
        p3.release(1)
        of_out.release(1)

    lowest = np.array([np.iinfo(np.int32).min], dtype=np.int32)
    workers = []
    for i in range(CORES):
        next_c = Buffer(out_ty, initial_value=lowest, name=f"nextC{i}")
        tmp = Buffer(out_ty, initial_value=lowest, name=f"tmp{i}")
        if i == 1:
            args = [in_fifos[i].cons(), out_fifos[i].prod(), out_fifos[0].cons(),
                    out_fifos[2].cons(), out_fifos[3].cons(), next_c, tmp,
                    reduce_max_vector, compute_max]
            workers.append(Worker(core_body, args, tile=Tile(0, 2 + i)))
        else:
            args = [in_fifos[i].cons(), out_fifos[i].prod(), next_c, tmp,
                    reduce_max_vector, compute_max]
            workers.append(Worker(start_core_body, args, tile=Tile(0, 2 + i)))

    def sequence(a, c, in_h, out_h):
        in_h.fill(a)
        out_h.drain(c, wait=True)

    rt = Runtime(sequence, [in_ty, out_ty, of_in.prod(), out_fifos[1].cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--save")
    args = p.parse_args()
    rng = np.random.default_rng(21)
    data = rng.integers(-(1 << 30), 1 << 30, size=args.n, dtype=np.int32)
    a = iron.tensor(data)
    c = iron.zeros(1, dtype=np.int32)
    reduce_max(a, c)
    if args.save:
        np.save(os.path.join(args.save, "a_in.npy"), a.numpy())
        np.save(os.path.join(args.save, "c_out.npy"), c.numpy())
    if c.numpy()[0] != data.max():
        print(f"FAIL: got {c.numpy()[0]}, expected {data.max()}")
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
