# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""TensorAccessSequence: upstream taplib's list of access patterns that
share one tensor, applied one after another (the tiler's result)."""
from collections import abc
from copy import deepcopy

import numpy as np

from . import _check
from .tap import TensorAccessPattern, _narrow


class TensorAccessSequence(abc.MutableSequence):
    """A list of TensorAccessPatterns over one tensor.

    TensorAccessSequence(tensor_dims, num_steps, offset=None, sizes=None,
    strides=None, offset_fn=None, sizes_fn=None, strides_fn=None) makes
    num_steps patterns: pattern `step` has offset offset_fn(step,
    previous_offset) (or `offset`), and likewise sizes and strides, as in
    upstream.  TensorAccessSequence.from_taps(taps) wraps patterns already
    made.  It behaves as a list (indexing, len, iteration, append, insert,
    del); every pattern must have the sequence's tensor_dims.

    access_order() numbers the visits of all the patterns in turn: an
    element holds the step of its last visit in the whole sequence (-1 if
    none).  Where no two patterns visit the same element -- the tiler's
    sequences -- this is upstream's numbering; where patterns overlap,
    upstream adds their numbers up, this keeps the last visit.
    """

    def __init__(self, tensor_dims, num_steps, offset=None, sizes=None,
                 strides=None, offset_fn=None, sizes_fn=None, strides_fn=None):
        self._tensor_dims = _check.tensor_dims(tensor_dims)
        self._current_step = 0
        num_steps = _check.as_int(num_steps, "num_steps")
        if num_steps < 0:
            raise ValueError(
                f"num_steps: expected a number of steps >= 0, got {num_steps}")
        given = (offset, sizes, strides, offset_fn, sizes_fn, strides_fn)
        self._taps = []
        if num_steps == 0:
            if any(v is not None for v in given):
                raise ValueError(
                    "If num_steps=0, no sizes/strides/offset information may "
                    "be specified")
            return
        for name, value, fn in (("offset", offset, offset_fn),
                                ("sizes", sizes, sizes_fn),
                                ("strides", strides, strides_fn)):
            if value is None and fn is None:
                raise ValueError(f"{name}: must be given if {name}_fn is None")
        for step in range(num_steps):
            offset = offset_fn(step, offset) if offset_fn else offset
            sizes = sizes_fn(step, sizes) if sizes_fn else sizes
            strides = strides_fn(step, strides) if strides_fn else strides
            self._taps.append(TensorAccessPattern(
                self._tensor_dims, offset, sizes, strides))

    @classmethod
    def from_taps(cls, taps):
        """A sequence of the given patterns (at least one, all over tensors
        of the same dimensions)."""
        taps = list(taps)
        if not taps:
            raise ValueError(
                "Received no TensorAccessPatterns; must have at least one "
                "TensorAccessPattern to create a TensorAccessSequence.")
        for i, t in enumerate(taps):
            if not isinstance(t, TensorAccessPattern):
                raise TypeError(f"taps[{i}]: expected a TensorAccessPattern, "
                                f"got {type(t).__name__}")
        seq = cls(taps[0].tensor_dims, 0)
        for t in taps:
            seq.append(t)
        return seq

    @property
    def tensor_dims(self):
        """A copy of the tensor's dimensions."""
        return list(self._tensor_dims)

    # ----------------------------------------------------------- accesses

    def _calc_accesses(self, order, count):
        numel = int(np.prod(self._tensor_dims))
        combined_order = np.full(numel, -1, np.int64) if order else None
        combined_count = np.zeros(numel, np.int64) if count else None
        steps = 0
        for t in self._taps:
            if order:
                o = t.access_order().reshape(-1).astype(np.int64)
                seen = o >= 0
                combined_order[seen] = o[seen] + steps
                steps += t.numel
            if count:
                combined_count += t.access_count().reshape(-1)
        return (None if combined_order is None
                else _narrow(combined_order).reshape(self._tensor_dims),
                None if combined_count is None
                else _narrow(combined_count).reshape(self._tensor_dims))

    def access_order(self):
        """For each element, the step of its last visit over the whole
        sequence (the patterns in turn); -1 where none goes."""
        return self._calc_accesses(True, False)[0]

    def access_count(self):
        """For each element, how often the patterns visit it in all."""
        return self._calc_accesses(False, True)[1]

    def accesses(self):
        """(access_order(), access_count())."""
        return self._calc_accesses(True, True)

    def visualize(self, title=None, file_path=None, show_plot=True,
                  plot_access_count=False):
        """Prints the library's text picture of each pattern in turn.

        Upstream draws one matplotlib figure of the combined access order;
        this prints, under a heading per pattern, the picture
        TensorAccessPattern.visualize prints.  `title` is printed first;
        file_path and plot_access_count are accepted and ignored;
        show_plot=False prints nothing.
        """
        if len(self._tensor_dims) != 2:
            raise NotImplementedError(
                "Visualization is only supported for 1- or 2-dimensional "
                f"tensors, got tensor_dims {self._tensor_dims}")
        pictures = [t._picture() for t in self._taps]
        if not show_plot:
            return
        if title is not None:
            print(title)
        for i, text in enumerate(pictures):
            print(f"pattern {i} of {len(pictures)}:")
            print(text, end="")

    def animate(self, title=None, animate_access_count=False):
        """Not available: upstream returns a matplotlib animation."""
        raise NotImplementedError(
            "TensorAccessSequence.animate: animations need matplotlib, which "
            "iron does not use; visualize() prints each pattern in turn")

    def compare_access_orders(self, other):
        """Whether both sequences have as many patterns, pairwise visiting
        the same elements in the same order."""
        if len(self._taps) != len(other):
            return False
        return all(a.compare_access_orders(b) for a, b in zip(self._taps, other))

    # ---------------------------------------------------------- the list

    def _checked(self, tap, what):
        if not isinstance(tap, TensorAccessPattern):
            raise TypeError(
                f"{what}: expected a TensorAccessPattern, got {type(tap).__name__}")
        if tap.tensor_dims != self._tensor_dims:
            raise ValueError(
                f"Cannot add TensorAccessPattern with tensor dims "
                f"{tap.tensor_dims} to TensorAccessSequence with tensor dims "
                f"{self._tensor_dims}")
        return tap

    def __len__(self):
        return len(self._taps)

    def __iter__(self):
        return iter(self._taps)

    def __contains__(self, tap):
        return tap in self._taps

    def __getitem__(self, idx):
        return self._taps[idx]

    def __setitem__(self, idx, tap):
        self._taps[idx] = deepcopy(self._checked(tap, "value"))

    def __delitem__(self, idx):
        del self._taps[idx]

    def insert(self, index, value):
        self._taps.insert(index, self._checked(value, "value"))

    def __eq__(self, other):
        if not isinstance(other, TensorAccessSequence):
            return NotImplemented
        return self._taps == other._taps

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __repr__(self):
        return (f"TensorAccessSequence({self._tensor_dims}, "
                f"{len(self._taps)} patterns)")
