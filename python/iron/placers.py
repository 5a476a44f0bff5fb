# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Placers (the classic era's `resolve_program(SequentialPlacer())`).

Placement is the library's: it places workers column by column, the way
upstream's SequentialPlacer does, with pinned tiles first.  The classes
here are accepted so that classic programs run unchanged."""
from __future__ import annotations

__all__ = ["Placer", "SequentialPlacer"]


class Placer:
    def make_placement(self, *args, **kwargs):
        """Placement happens in the library when the design is built."""


class SequentialPlacer(Placer):
    def __init__(self, cores_per_col: int | None = None):
        if cores_per_col is not None and (not isinstance(cores_per_col, int)
                                          or cores_per_col < 1):
            raise ValueError(f"SequentialPlacer: cores_per_col must be an int >= 1, "
                             f"got {cores_per_col!r}")
        if cores_per_col is not None:
            raise NotImplementedError(
                "SequentialPlacer(cores_per_col=...): the library's placer fills "
                "each column's compute tiles in turn; pin workers with "
                "placement=Tile(col, row) for another layout")
        self.cores_per_col = cores_per_col
