# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A classic (2025) jit program in the style of basic/vector_vector_add: a
# core function written in Python (range_, element loads and stores), the
# tensor factories, and the result checked on the host.
import sys

import numpy as np

import aie.iron as iron
from aie.iron import ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.placers import SequentialPlacer


@iron.jit(is_placed=False)
def vector_vector_add(input0, input1, output):
    if input0.shape != input1.shape or input0.shape != output.shape:
        raise ValueError("the tensors must have one shape")
    num_elements = np.size(input0)
    n = 16
    dtype = input0.dtype
    tensor_ty = np.ndarray[(num_elements,), np.dtype[dtype]]
    tile_ty = np.ndarray[(n,), np.dtype[dtype]]

    of_in1 = ObjectFifo(tile_ty, name="in1")
    of_in2 = ObjectFifo(tile_ty, name="in2")
    of_out = ObjectFifo(tile_ty, name="out")

    def core_body(of_in1, of_in2, of_out):
        for _ in range_(num_elements // n):
            elem_in1 = of_in1.acquire(1)
            elem_in2 = of_in2.acquire(1)
            elem_out = of_out.acquire(1)
            for i in range_(n):
                elem_out[i] = elem_in1[i] + elem_in2[i]
            of_in1.release(1)
            of_in2.release(1)
            of_out.release(1)

    worker = Worker(core_body, fn_args=[of_in1.cons(), of_in2.cons(), of_out.prod()])

    rt = Runtime()
    with rt.sequence(tensor_ty, tensor_ty, tensor_ty) as (A, B, C):
        rt.start(worker)
        rt.fill(of_in1.prod(), A)
        rt.fill(of_in2.prod(), B)
        rt.drain(of_out.cons(), C, wait=True)

    return Program(iron.get_current_device(), rt).resolve_program(SequentialPlacer())


def main():
    num_elements = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    input0 = iron.randint(0, 100, (num_elements,), dtype=np.int32, device="npu")
    input1 = iron.randint(0, 100, (num_elements,), dtype=np.int32, device="npu")
    output = iron.zeros_like(input0)
    vector_vector_add(input0, input1, output)
    expected = input0.numpy() + input1.numpy()
    errors = int(np.sum(output.numpy() != expected))
    if errors:
        print(f"\nError count: {errors}\n\nfailed.\n")
        sys.exit(1)
    print("\nPASS!\n")


if __name__ == "__main__":
    main()
