# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The newest era's helpers an upstream program leans on, under iron.run:
# aie.utils.benchmark, assert_close_with_benchmark, iron.ceildiv,
# Worker.grid, arange(shape=), specialize(...).as_mlir() and .compile()
# without tensors, and the explicit-routing classes refused when made.
import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.utils.benchmark import run_iters
from aie.utils.verify import assert_close_with_benchmark


@iron.jit
def add_one(a: In, b: Out, *, n: CompileTime[int]):
    tile = np.ndarray[(16,), np.dtype[np.int32]]
    whole = np.ndarray[(n,), np.dtype[np.int32]]
    ins = [ObjectFifo(tile, name=f"in{c}") for c in range(2)]
    outs = [ObjectFifo(tile, name=f"out{c}") for c in range(2)]

    def core(i, o):
        for _ in range_(iron.ceildiv(n, 32)):
            x, y = i.acquire(1), o.acquire(1)
            for k in range_(16):
                y[k] = x[k] + 1
            i.release(1)
            o.release(1)

    grid = Worker.grid(1, 2, lambda r, c: Worker(core, [ins[c].cons(), outs[c].prod()]))
    half = n // 2

    def seq(a, b, *h):
        from aie.helpers.taplib import TensorAccessPattern
        for c in range(2):
            part = TensorAccessPattern((n,), c * half, [half], [1])
            h[2 * c].fill(a, part)
            h[2 * c + 1].drain(b, part, wait=True)

    ends = [x for c in range(2) for x in (ins[c].prod(), outs[c].cons())]
    rt = Runtime(seq, [whole, whole, *ends])
    return Program(iron.get_current_device(), rt, workers=grid[0]).resolve_program()


n = 64
a = iron.arange(n, shape=(2, 32), dtype=np.int32)
b = iron.zeros((2, 32), dtype=np.int32)
bench = run_iters(add_one, a, b, n=n, warmup=1, iters=3)
assert bench.npu is not None and bench.npu.min_us > 0
assert_close_with_benchmark(b.numpy(), a.numpy() + 1, bench=bench)
text = add_one.specialize(n=n).as_mlir()
assert "aie.objectfifo @in1" in text
spec, insts = add_one.specialize(n=n).compile()
assert insts is None and "add_one" in spec.signature
try:
    iron.CascadeFlow(None, None)
except NotImplementedError as e:
    assert "CascadeFlow" in str(e) and "run_newest_helpers.py" in str(e)
    print("refused:", str(e).split(":")[0])
