# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""01_passthrough.py - tutorial step 1 in Python: the smallest design.

One ObjectFifo carries the input from the host into a memtile and on to
the output, with no worker at all: the runtime sequence fills it and
drains it.  Then three mistakes a newcomer makes, and what they raise.
The same program in C is examples/tutorial/01_passthrough.c; both print
the same lines where they can (docs/tutorial.md says where they differ).
"""
import sys

import numpy as np

import iron
from iron import CompileTime, In, ObjectFifo, Out, Program, Runtime


# The design: runs in Python on the first call of each specialization,
# sees the tensors' shapes and the compile-time values, never the data.
@iron.jit
def passthrough(input: In, output: Out, *, obj: CompileTime[int] = 64,
                depth: CompileTime[int] = 2, wait: CompileTime[bool] = True):
    n = input.numel()
    tensor_ty = np.ndarray[(n,), np.dtype[np.uint8]]
    obj_ty = np.ndarray[(obj,), np.dtype[np.uint8]]
    # Host -> memtile: objects of `obj` bytes, `depth` buffers.
    of_in = ObjectFifo(obj_ty, depth=depth, name="in")
    # Memtile -> host: a second fifo fed by a link on the memtile.
    of_out = of_in.cons().forward(name="out")

    def sequence(a, b, in_h, out_h):
        in_h.fill(a)
        out_h.drain(b, wait=wait)   # `wait` only so that mistake 3 can be shown

    rt = Runtime(sequence, [tensor_ty, tensor_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt).resolve_program()


def main():
    x = iron.randint(0, 256, 1024, dtype=np.uint8, seed=1)
    y = iron.zeros(1024, dtype=np.uint8)

    # First call: design, verify, place, compile, load, run.
    passthrough(x, y)
    if not np.array_equal(y.numpy(), x.numpy()):
        sys.exit(f"copied {y.numpy()[:8]}..., expected {x.numpy()[:8]}...")
    print("passthrough: 1024 bytes copied through a memtile")

    # Mistake 1: an output smaller than the input.  The runtime sequence
    # says both are 1024 bytes; the call is refused before anything runs.
    small = iron.zeros(512, dtype=np.uint8)
    try:
        passthrough(x, small)
    except iron.ArgumentError as e:
        print(f"too small: {type(e).__name__}: {e}")
    else:
        sys.exit("too small: the call was not refused")

    # Mistake 2: more buffers than a FIFO may have.  The library refuses
    # the builder call at once, naming the FIFO.
    try:
        passthrough(x, y, depth=32)
    except iron.InvalidArgumentError as e:
        print(f"too deep: {type(e).__name__}: {e}")
    else:
        sys.exit("too deep: the call was not refused")

    # Mistake 3: no drain the call waits for.  The design builds, but
    # verification refuses it: the call would not know when it is done.
    try:
        passthrough(x, y, wait=False)
    except iron.DesignError as e:
        print(f"no wait: {type(e).__name__}: {e}")
    else:
        sys.exit("no wait: the call was not refused")


if __name__ == "__main__":
    main()
