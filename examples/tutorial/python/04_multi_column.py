# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""04_multi_column.py - tutorial step 4 in Python: one design over several
columns.

The launch configuration (`scale_cols[cols]`) grants columns, and the
design, which sees them as the current device's columns (as upstream's
designs read `device.cols`), cuts the tensor into one chunk per column.  Each chunk streams into a
memtile, is split there over one worker per compute tile of the column,
and the workers' results are joined back on the memtile: upstream IRON's
whole-array pattern.  The design never names a column or a tile: the
placer fills the granted columns in order and puts each link and shim
channel next to the workers it serves.  The same program in C is
examples/tutorial/04_multi_column.c.
"""
import sys

import numpy as np

import iron
from iron import (ExternalFunction, In, ObjectFifo, Out, Program, Runtime, TaskGroup,
                  Worker)
from iron.taplib import TensorAccessPattern

TILE = 512  # elements per worker object
MAX_WORKERS = 4  # compute tiles per column, at most

SCALE_SRC = """\
#include <stdint.h>
void scale(const int32_t *x, int32_t *y, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = 3 * x[i] + 1;
}
"""


@iron.jit
def scale_cols(x: In, y: Out):
    n = x.numel()
    dev = iron.get_current_device()  # with the columns the call is granted
    cols = dev.cols
    rows = min(dev.rows - 2, MAX_WORKERS)  # row 0: shims, row 1: memtiles
    group = rows * TILE  # one memtile object
    if n % (cols * group) != 0:
        raise iron.ShapeError(f"{n} elements do not split into {cols} columns of "
                              f"whole {group}-element objects")
    chunk = n // cols
    tensor_ty = np.ndarray[(n,), np.dtype[np.int32]]
    group_ty = np.ndarray[(group,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(TILE,), np.dtype[np.int32]]
    scale = ExternalFunction("scale", source_string=SCALE_SRC,
                             arg_types=[tile_ty, tile_ty, np.int32])

    def core_fn(of_x, of_y, scale):
        a, b = of_x.acquire(1), of_y.acquire(1)
        scale(a, b, TILE)
        of_x.release(1)
        of_y.release(1)

    offsets = [r * TILE for r in range(rows)]
    workers, ends = [], []
    for c in range(cols):
        of_in = ObjectFifo(group_ty, name=f"in{c}")
        of_out = ObjectFifo(group_ty, name=f"out{c}")
        # On a memtile: each object of `in` cut into `rows` pieces, and
        # `rows` pieces assembled into each object of `out`.
        parts = of_in.cons().split(offsets, obj_types=[tile_ty] * rows)
        results = of_out.prod().join(offsets, obj_types=[tile_ty] * rows)
        for r in range(rows):
            workers.append(Worker(core_fn, [parts[r].cons(), results[r].prod(), scale],
                                  name=f"scale{c}_{r}"))
        ends += [of_in.prod(), of_out.cons()]

    def sequence(x, y, *ends):
        # One task group: every column's fill and drain is issued before
        # the sequence waits, at the group's finish, for all the drains.
        tg = TaskGroup()
        for c in range(cols):
            # Chunk c: `chunk` elements from element chunk * c.
            part = TensorAccessPattern((n,), chunk * c, [chunk], [1])
            ends[2 * c].fill(x, part, group=tg)
            ends[2 * c + 1].drain(y, part, wait=True, group=tg)
        tg.finish()

    rt = Runtime(sequence, [tensor_ty, tensor_ty] + ends)
    return Program(dev, rt, workers=workers).resolve_program()


def check(x, y):
    """y == 3x + 1 everywhere?  Clears y for the next call."""
    want = 3 * x.numpy() + 1
    if not np.array_equal(y.numpy(), want):
        i = int(np.flatnonzero(y.numpy() != want)[0])
        sys.exit(f"y[{i}] = {y.numpy()[i]}, expected {want[i]}")
    y.fill(0)


def main():
    x = iron.randint(-1000, 1000, 16384, dtype=np.int32, seed=9)
    y = iron.zeros(16384, dtype=np.int32)

    for cols in (1, 2, 4):
        scale_cols[cols](x, y)
        check(x, y)
        # Where the placer put the workers: workers per column.
        per_col = [0] * 8
        for w in scale_cols.counters()["workers"]:
            per_col[w["col"]] += 1
        print(f"{cols} column(s): workers per column:", *per_col)

    # No configuration: every column of the current device, here a
    # 4-column npu1 chosen for this block only.
    with iron.device("npu1"):
        scale_cols(x, y)
    check(x, y)
    print(f"specializations: {scale_cols.stats()['specializations']} "
          f"(one per column count and device)")

    # Mistake: more columns than the device has.
    try:
        scale_cols[16](x, y)
    except iron.Error as e:
        print(f"16 columns: {type(e).__name__}: {e}")
    else:
        sys.exit("16 columns: the call was not refused")


if __name__ == "__main__":
    main()
