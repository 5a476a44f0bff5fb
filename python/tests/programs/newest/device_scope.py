# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# device_scope -- newest era (2026), jit-driven: runs itself and checks its
# result with numpy.
#
# Constructs: iron.set_current_device(...) (process default) and
# `with iron.device("npu1"):` / `iron.device("npu2")` scopes (a scope wins
# on its thread); iron.get_current_device() read inside the design
# function (NPU1 / NPU2 objects and their .cols / .rows); the same jit
# function built once per device (the device is part of the
# specialization's key); a worker placed on the device's last column with
# `tile=Tile(dev.cols - 1, 2)` (a placement only valid per device).
#
# usage: device_scope.py
import os
import sys

import numpy as np

import aie.iron as iron
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.device import Tile

TILE = 16
seen = []


@iron.jit
def double(x: In, y: Out):
    dev = iron.get_current_device()
    seen.append((type(dev).__name__, dev.cols))
    n = x.numel()
    t_ty = np.ndarray[(n,), np.dtype[np.int32]]
    o_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    of_x, of_y = ObjectFifo(o_ty, name="x"), ObjectFifo(o_ty, name="y")

    def core_fn(fx, fy):
        ex = fx.acquire(1)
        ey = fy.acquire(1)
        for i in range_(TILE):
            ey[i] = ex[i] * 2
        fx.release(1)
        fy.release(1)

    w = Worker(core_fn, [of_x.cons(), of_y.prod()], tile=Tile(dev.cols - 1, 2))

    def sequence(X, Y, hx, hy):
        hx.fill(X)
        hy.drain(Y, wait=True)

    rt = Runtime(sequence, [t_ty, t_ty, of_x.prod(), of_y.cons()])
    return Program(dev, rt, workers=[w]).resolve_program()


def run(label, x):
    y = np.zeros_like(x)
    double(x, y)
    if not np.array_equal(y, x * 2):
        print(f"FAIL on {label}: got {y[:8]}, expected {x[:8] * 2}")
        sys.exit(1)


def main():
    x = np.arange(64, dtype=np.int32)
    first = os.environ.get("IRON_DEVICE", "npu2")
    other = "npu1" if first.startswith("npu2") else "npu2"
    iron.set_current_device(first)
    run(first, x)
    with iron.device(other):
        if not type(iron.get_current_device()).__name__.lower().startswith(other):
            print(f"FAIL: in the scope of {other}, the current device is "
                  f"{iron.get_current_device()!r}")
            sys.exit(1)
        run(other, x)
    run(first, x)          # back on the default: its build is reused
    names = [s[0] for s in seen]
    if len(seen) != 2 or names[0].lower() == names[1].lower():
        print(f"FAIL: expected one build per device, saw {seen}")
        sys.exit(1)
    print("PASS!", seen)


if __name__ == "__main__":
    main()
