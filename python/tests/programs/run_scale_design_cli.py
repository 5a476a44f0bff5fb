# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A newest-era (2026) design in the style of upstream's basic/ examples:
# @iron.jit with In / Out / CompileTime, Runtime(sequence, fn_args), the
# shared argparse flags and run_design_cli, assert_pass.
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.utils.hostruntime.argparse import add_compile_args
from aie.utils.hostruntime.cli import run_design_cli
from aie.utils.verify import assert_pass


@iron.jit
def scale(a_in: In, c_out: Out, *, n: CompileTime[int] = 256,
          factor: CompileTime[int] = 3):
    tile = 16
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(tile,), np.dtype[np.int32]]
    of_in = ObjectFifo(tile_ty, name="in")
    of_out = ObjectFifo(tile_ty, name="out")

    def core_fn(of_in, of_out):
        x = of_in.acquire(1)
        y = of_out.acquire(1)
        for i in range_(tile):
            y[i] = x[i] * factor
        of_in.release(1)
        of_out.release(1)

    worker = Worker(core_fn, [of_in.cons(), of_out.prod()])

    def sequence(a, c, in_h, out_h):
        in_h.fill(a)
        out_h.drain(c, wait=True)

    rt = Runtime(sequence, [tensor_ty, tensor_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def _make_argparser():
    p = argparse.ArgumentParser(prog="scale")
    add_compile_args(p)
    p.add_argument("-n", type=int, default=256)
    return p


def _run_and_verify(opts):
    a = iron.arange(opts.n, dtype=np.int32)
    c = iron.zeros(opts.n, dtype=np.int32)
    scale(a, c, n=opts.n)
    assert_pass(c.numpy(), a.numpy() * 3)


if __name__ == "__main__":
    opts = _make_argparser().parse_args()
    run_design_cli(scale, opts, compile_kwargs=lambda o: {"n": o.n},
                   run_and_verify=_run_and_verify)
