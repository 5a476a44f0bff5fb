# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# An upstream-style program that only uses taplib, as the tiling
# exploration examples do: it tiles a tensor, checks the tiles cover it
# once and prints the first pattern.
import argparse

from aie.helpers.taplib import TensorAccessSequence, TensorTiler2D
from aie.helpers.taplib.tap import TensorAccessPattern

p = argparse.ArgumentParser()
p.add_argument("--rows", type=int, default=8)
p.add_argument("--cols", type=int, default=8)
opts = p.parse_args()

tiles = TensorTiler2D.group_tiler((opts.rows, opts.cols), (2, 2), (2, 1))
assert isinstance(tiles, TensorAccessSequence)
assert isinstance(tiles[0], TensorAccessPattern)
assert (tiles.access_count() == 1).all()
assert sorted(tiles.access_order().ravel()) == list(range(opts.rows * opts.cols))
print(len(tiles), tiles[0])
tiles[0].visualize(title="first group")
