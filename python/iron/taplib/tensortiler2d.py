# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""TensorTiler2D: upstream taplib's 2-D tiler, over the library's
(iron_tiler2d, through _iron.tiler2d).  The library cuts the tensor; this
module only maps upstream's arguments onto it and wraps the patterns."""
from .. import _iron
from . import _check
from .tap import TensorAccessPattern
from .tas import TensorAccessSequence


def _upstream_form(sizes, strides):
    """The library's pattern written in four dimensions, as upstream's
    tiler writes its patterns: size-1 dimensions (stride 0) in front, or
    right after a leading repeat (stride 0, size > 1), which stays the
    outermost dimension.  The walk is the same."""
    sizes, strides = list(sizes), list(strides)
    pad = 4 - len(sizes)
    if pad <= 0:
        return sizes, strides
    at = 1 if len(sizes) > 1 and strides[0] == 0 and sizes[0] > 1 else 0
    return (sizes[:at] + [1] * pad + sizes[at:],
            strides[:at] + [0] * pad + strides[at:])


class TensorTiler2D:
    """Factories of TensorAccessSequences that tile a 2-D tensor.

    simple_tiler: one pattern per tile; group_tiler: one per group of
    tiles; step_tiler: one per group of tiles spaced `tile_group_steps`
    tiles apart.  The signatures and defaults are upstream's; the patterns
    are the library's (iron_tiler2d), written in four dimensions as
    upstream's are.  Invalid arguments raise the library's
    InvalidArgumentError (a ValueError, as upstream's checks raise); a
    group whose pattern needs more than four dimensions raises its
    NotSupportedError (upstream: ValueError "Ran out of dimensions").
    """

    _NUM_DIMS = 2

    def __init__(self):
        raise TypeError(
            f"{self.__class__.__name__} cannot be instantiated; use its "
            "simple_tiler, group_tiler or step_tiler")

    @classmethod
    def simple_tiler(cls, tensor_dims, tile_dims=None, tile_col_major=False,
                     iter_col_major=False, pattern_repeat=1, prune_step=True):
        """One pattern per tile (the whole tensor when tile_dims is None)."""
        if tile_dims is None:
            tile_dims = list(tensor_dims)
        return cls.group_tiler(tensor_dims, tile_dims,
                               tile_col_major=tile_col_major,
                               iter_col_major=iter_col_major,
                               pattern_repeat=pattern_repeat,
                               prune_step=prune_step)

    @classmethod
    def group_tiler(cls, tensor_dims, tile_dims, tile_group_dims=None,
                    tile_col_major=False, tile_group_col_major=False,
                    iter_col_major=False, pattern_repeat=1,
                    allow_partial=False, prune_step=True):
        """One pattern per group of tile_group_dims tiles (default (1, 1))."""
        if tile_group_dims is None:
            tile_group_dims = (1,) * cls._NUM_DIMS
        return cls.step_tiler(tensor_dims, tile_dims,
                              tile_group_repeats=tile_group_dims,
                              tile_col_major=tile_col_major,
                              tile_group_col_major=tile_group_col_major,
                              iter_col_major=iter_col_major,
                              allow_partial=allow_partial,
                              pattern_repeat=pattern_repeat,
                              prune_step=prune_step)

    @classmethod
    def step_tiler(cls, tensor_dims, tile_dims, tile_group_repeats,
                   tile_group_steps=None, tile_col_major=False,
                   tile_group_col_major=False, iter_col_major=False,
                   allow_partial=False, pattern_repeat=1, prune_step=True):
        """One pattern per group of tile_group_repeats tiles, the tiles of a
        group tile_group_steps tiles apart (default (1, 1): adjacent)."""
        if tile_group_steps is None:
            tile_group_steps = (1,) * cls._NUM_DIMS
        n = cls._NUM_DIMS
        rows, cols = _check.tensor_dims(tensor_dims, "tensor_dims", n)
        tile_rows, tile_cols = _check.tensor_dims(tile_dims, "tile_dims", n)
        group_rows, group_cols = _check.tensor_dims(
            tile_group_repeats, "tile_group_repeats", n)
        step_rows, step_cols = _check.tensor_dims(
            tile_group_steps, "tile_group_steps", n)
        repeat = _check.as_int(pattern_repeat, "pattern_repeat")
        if repeat < 1:
            raise ValueError(f"Pattern repeat must be >= 1 but is {repeat}")
        patterns = _iron.tiler2d(
            rows, cols, tile_rows, tile_cols,
            group_rows=group_rows, group_cols=group_cols,
            step_rows=step_rows, step_cols=step_cols,
            tile_col_major=_check.bool_arg(tile_col_major, "tile_col_major"),
            group_col_major=_check.bool_arg(tile_group_col_major,
                                            "tile_group_col_major"),
            iter_col_major=_check.bool_arg(iter_col_major, "iter_col_major"),
            repeat=repeat,
            allow_partial=_check.bool_arg(allow_partial, "allow_partial"),
            prune_step=_check.bool_arg(prune_step, "prune_step"))
        dims = [rows, cols]
        return TensorAccessSequence.from_taps(
            [TensorAccessPattern(dims, offset, *_upstream_form(sizes, strides))
             for offset, sizes, strides in patterns])
