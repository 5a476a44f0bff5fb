# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# vision_passthrough -- newest era (2026), jit-driven: runs itself and
# checks its result with numpy.
#
# Constructs: `@iron.jit` with an unused `In` tensor in the middle of the
# sequence's arguments; ExternalFunction(source_file=...) of a vision line
# kernel taking the line width as an int (passThroughLine); int8 host
# tensors moved by uint8 FIFOs; CompileTime width/height that shape the
# objects; iron.randint with a seed.
#
# Mirrors the C design `vision_passthrough` (width=64, height=8).
#
# usage: vision_passthrough.py [--width W] [--height H] [--save DIR]
import argparse
import os
import sys

import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, ExternalFunction, In, ObjectFifo, Out, Program, Runtime, Worker

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")


@iron.jit
def passthrough(in_tensor: In, unused: In, out_tensor: Out, *, width: CompileTime[int],
                height: CompileTime[int]):
    image_ty = np.ndarray[(width * height,), np.dtype[np.int8]]
    line_ty = np.ndarray[(width,), np.dtype[np.uint8]]
    of_in = ObjectFifo(line_ty, name="in")
    of_out = ObjectFifo(line_ty, name="out")
    line_fn = ExternalFunction("passThroughLine",
                               source_file=os.path.join(KERNELS, "pass_line.c"),
                               arg_types=[line_ty, line_ty, np.int32])

    def passthrough_fn(of_in, of_out, fn):
        elem_out = of_out.acquire(1)
        elem_in = of_in.acquire(1)
        fn(elem_in, elem_out, width)
        of_in.release(1)
        of_out.release(1)

    w = Worker(passthrough_fn, [of_in.cons(), of_out.prod(), line_fn])

    def sequence(inp, _, out, h_in, h_out):
        h_in.fill(inp)
        h_out.drain(out, wait=True)

    rt = Runtime(sequence, [image_ty, image_ty, image_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--height", type=int, default=8)
    p.add_argument("--save")
    args = p.parse_args()
    n = args.width * args.height
    img = iron.randint(-128, 128, (n,), dtype=np.int8, seed=4)
    unused = iron.zeros(n, dtype=np.int8)
    out = iron.zeros(n, dtype=np.int8)
    passthrough(img, unused, out, width=args.width, height=args.height)
    if args.save:
        for name, t in (("in_tensor", img), ("unused", unused), ("out_tensor", out)):
            np.save(os.path.join(args.save, name + ".npy"), t.numpy())
    if not np.array_equal(out.numpy(), img.numpy()):
        print("FAIL\ngot     ", out.numpy()[:16], "\nexpected", img.numpy()[:16])
        sys.exit(1)
    print("PASS!")


if __name__ == "__main__":
    main()
