# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""TensorAccessPattern: upstream taplib's access pattern over the library's.

A pattern is an element offset plus `sizes` and `strides`, outermost first,
over a row-major tensor of `tensor_dims`: the walk a DMA buffer descriptor
makes.  What a pattern visits -- its bounds, access order, access count and
picture -- is computed by the library (iron_tap_check, iron_tap_access_order,
iron_tap_access_count, iron_tap_visualize), so a pattern reads here exactly
as a runtime fill or drain reads it.

The reshaping methods of upstream's newer API (full, permute, T, split,
merge, coalesce, repeat, slicing, compose, ...) are plain arithmetic on the
three numbers and are provided; see TensorAccessPattern's docstring for the
few that are not.
"""
import operator

import numpy as np

from .. import _iron
from . import _check

_INT32_MAX = np.iinfo(np.int32).max


def _row_major_strides(dims):
    strides = [1] * len(dims)
    for i in range(len(dims) - 2, -1, -1):
        strides[i] = strides[i + 1] * dims[i + 1]
    return strides


def _narrow(values):
    """The library's int64 answer as upstream's dtype (int32) when every
    value fits it, else as int64; always a writable array of its own."""
    if values.size == 0 or int(values.max()) <= _INT32_MAX:
        return values.astype(TensorAccessPattern._DTYPE)
    return values.copy()


class TensorAccessPattern:
    """An access pattern over a tensor (upstream's aie.helpers.taplib).

    TensorAccessPattern(tensor_dims, offset=0, sizes=None, strides=None):
    sizes default to tensor_dims and strides to row-major ones, so
    TensorAccessPattern(dims) walks the whole tensor in order.  A 1-D
    tensor reads as [1, n], as upstream's does.  The strides of leading
    size-1 dimensions are set to 0 (they never step).

    The pattern is checked against the tensor when it is made: a pattern
    that reaches past the tensor raises the library's BoundsError (an
    IndexError; upstream raises ValueError).  The library's patterns have
    at most four dimensions: size-1 dimensions are dropped to fit, and a
    pattern with more than four dimensions of size > 1 raises
    NotSupportedError.

    Two patterns are equal when they walk the same tensor the same way
    (size-1 dimensions are ignored, as in upstream's newest taplib).

    Not provided from upstream's newest API: tile(), partition() and
    tile_sequence() (which return TileGrids), pad(), to_stream() /
    from_stream(), padding, and symbolic (staged) values; use
    TensorTiler2D for tiling.
    """

    _DTYPE = np.int32

    def __init__(self, tensor_dims, offset=0, sizes=None, strides=None):
        self._tensor_dims = _check.tensor_dims(tensor_dims)
        numel = int(np.prod(self._tensor_dims))
        self._offset = _check.as_int(offset, "offset")
        if not 0 <= self._offset < numel:
            raise ValueError(
                f"offset: expected 0 to {numel - 1} (the tensor has {numel} "
                f"elements), got {self._offset}")
        sizes = (list(self._tensor_dims) if sizes is None
                 else _check.as_ints(sizes, "sizes"))
        strides = (_row_major_strides(sizes) if strides is None
                   else _check.as_ints(strides, "strides"))
        if not sizes:
            raise ValueError("sizes: expected at least one dimension, got []")
        if len(sizes) != len(strides):
            raise ValueError(
                f"sizes and strides: expected as many strides as sizes, got "
                f"{len(sizes)} sizes and {len(strides)} strides")
        if any(s < 1 for s in sizes):
            raise ValueError(f"sizes: every size must be >= 1, got {sizes}")
        if any(s < 0 for s in strides):
            raise ValueError(f"strides: every stride must be >= 0, got {strides}")
        for i in range(len(sizes) - 1):
            if sizes[i] != 1:
                break
            strides[i] = 0
        self._sizes, self._strides = sizes, strides
        _iron.tap_check(*self._lib_form(), numel)

    @classmethod
    def full(cls, tensor_dims):
        """The row-major walk of a whole tensor (upstream's newest API)."""
        return cls(tensor_dims)

    def _lib_form(self):
        """(offset, sizes, strides) as the library takes them: at most four
        dimensions, size-1 ones dropped if there are more."""
        sizes, strides = self._sizes, self._strides
        if len(sizes) > 4:
            keep = [i for i, n in enumerate(sizes) if n != 1] or [len(sizes) - 1]
            sizes = [sizes[i] for i in keep]
            strides = [strides[i] for i in keep]
            if len(sizes) > 4:
                raise _iron.NotSupportedError(
                    f"sizes: the library's access patterns have at most 4 "
                    f"dimensions, got {len(sizes)} of size > 1 ({self._sizes})")
        return self._offset, sizes, strides

    def _numel(self):
        return int(np.prod(self._tensor_dims))

    # ---------------------------------------------------------- properties

    @property
    def tensor_dims(self):
        """A copy of the tensor's dimensions."""
        return list(self._tensor_dims)

    @property
    def offset(self):
        """The element offset of the first element visited."""
        return self._offset

    @property
    def sizes(self):
        """A copy of the sizes, outermost first."""
        return list(self._sizes)

    @property
    def strides(self):
        """A copy of the strides, outermost first."""
        return list(self._strides)

    @property
    def transformation_dims(self):
        """The pattern as [(size, stride), ...], outermost first."""
        return list(zip(self._sizes, self._strides))

    @property
    def rank(self):
        """The number of dimensions of the walk."""
        return len(self._sizes)

    @property
    def numel(self):
        """The number of visits (repeats counted)."""
        return int(np.prod(self._sizes))

    # ------------------------------------------------ what the walk visits

    def access_order(self):
        """For each element of the tensor (an array shaped like it), the
        step of its last visit; -1 where the pattern never goes."""
        flat = np.frombuffer(
            _iron.tap_access_order(*self._lib_form(), self._numel()), np.int64)
        return _narrow(flat).reshape(self._tensor_dims)

    def access_count(self):
        """For each element of the tensor, how often the pattern visits it."""
        flat = np.frombuffer(
            _iron.tap_access_count(*self._lib_form(), self._numel()), np.int64)
        return _narrow(flat).reshape(self._tensor_dims)

    def accesses(self):
        """(access_order(), access_count())."""
        return self.access_order(), self.access_count()

    def _walk(self):
        # The flat index of every visit, in order: the definition of the
        # pattern, offset + sum(i_k * strides[k]).  The library has no call
        # that lists visits (access_order keeps only the last one of an
        # element), and the pattern was bounds-checked when made.
        idx = np.array(self._offset, dtype=np.int64)
        for n, s in zip(self._sizes, self._strides):
            idx = idx[..., None] + np.arange(n, dtype=np.int64) * s
        return idx.reshape(-1)

    def access_generator(self):
        """Yields the flat index of each element visited, in order."""
        for i in self._walk():
            yield int(i)

    def compare_access_orders(self, other):
        """Whether two patterns visit the same elements in the same order,
        however their sizes and strides are written."""
        if not isinstance(other, TensorAccessPattern):
            raise ValueError(
                "Can only compare access order against another "
                f"TensorAccessPattern, got {type(other).__name__}")
        return np.array_equal(self._walk(), other._walk())

    def _picture(self):
        if len(self._tensor_dims) != 2:
            raise NotImplementedError(
                "Visualization is only supported for 1- or 2-dimensional "
                f"tensors, got tensor_dims {self._tensor_dims}")
        rows, cols = self._tensor_dims
        return _iron.tap_visualize(*self._lib_form(), rows, cols)

    def visualize(self, show_arrows=None, title=None, file_path=None,
                  show_plot=True, plot_access_count=False):
        """Prints the library's text picture of the pattern over the tensor.

        Upstream draws a matplotlib figure; this prints text instead: each
        element shows the step of its last visit ('.' never, '*' in front
        when visited more than once), a big tensor is drawn in blocks.
        `title` is printed above the picture.  The plotting keywords
        show_arrows, file_path and plot_access_count are accepted and
        ignored (no figure is made, no file written); show_plot=False
        prints nothing.  Raises NotImplementedError for a tensor of more
        than two dimensions, as upstream does.
        """
        text = self._picture()
        if show_plot:
            if title is not None:
                print(title)
            print(text, end="")

    # ------------------------------------------------------------ identity

    def __str__(self):
        return (f"TensorAccessPattern({self._tensor_dims} offset="
                f"{self._offset}, sizes={self._sizes}, strides={self._strides})")

    __repr__ = __str__

    def _key(self):
        # A size-1 dimension never steps: it does not change the walk.
        dims = tuple((n, s) for n, s in zip(self._sizes, self._strides) if n != 1)
        return tuple(self._tensor_dims), self._offset, dims

    def __eq__(self, other):
        if not isinstance(other, TensorAccessPattern):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self._key())

    # ------------------------------------------ reshaping (new patterns)

    def _with(self, offset=None, sizes=None, strides=None):
        return TensorAccessPattern(
            self._tensor_dims, self._offset if offset is None else offset,
            self._sizes if sizes is None else sizes,
            self._strides if strides is None else strides)

    def _axis(self, dim, exc=IndexError):
        dim = _check.as_int(dim, "dim")
        if not -self.rank <= dim < self.rank:
            raise exc(f"dim: dimension {dim} out of range for rank {self.rank}")
        return dim % self.rank

    def permute(self, dims):
        """Reorders the dimensions: dimension i of the result is this
        pattern's dimension dims[i]."""
        dims = _check.as_ints(dims, "dims")
        if sorted(dims) != list(range(self.rank)):
            raise ValueError(
                f"dims: expected a permutation of 0..{self.rank - 1}, got {dims}")
        return self._with(sizes=[self._sizes[d] for d in dims],
                          strides=[self._strides[d] for d in dims])

    @property
    def T(self):  # noqa: N802 (numpy's name)
        """The walk with its dimensions reversed, like numpy's .T."""
        return self.permute(range(self.rank - 1, -1, -1))

    def split(self, dim, inner):
        """Splits dimension dim of size n into (n // inner, inner)."""
        dim = self._axis(dim)
        inner = _check.as_int(inner, "inner")
        n, s = self._sizes[dim], self._strides[dim]
        if inner < 1 or n % inner:
            raise ValueError(
                f"inner: dimension {dim} of size {n} is not divisible by {inner}")
        return self._with(
            sizes=self._sizes[:dim] + [n // inner, inner] + self._sizes[dim + 1:],
            strides=self._strides[:dim] + [s * inner, s] + self._strides[dim + 1:])

    def split_dim(self, dim, outer_size):
        """Splits dimension dim into (outer_size, n // outer_size)."""
        dim = self._axis(dim, ValueError)
        outer_size = _check.as_int(outer_size, "outer_size")
        if outer_size < 1 or self._sizes[dim] % outer_size:
            raise ValueError(
                f"outer_size: dimension {dim} of size {self._sizes[dim]} is not "
                f"divisible by {outer_size}")
        return self.split(dim, self._sizes[dim] // outer_size)

    def merge(self, dim):
        """Merges dimensions dim and dim + 1 (they must be contiguous)."""
        dim = self._axis(dim)
        if dim + 1 >= self.rank:
            raise ValueError(f"dim: dimension {dim} has no successor to merge with")
        n0, s0 = self._sizes[dim], self._strides[dim]
        n1, s1 = self._sizes[dim + 1], self._strides[dim + 1]
        if n0 != 1 and s0 != n1 * s1:
            raise ValueError(
                f"dim: dimensions {dim} and {dim + 1} are not contiguous "
                f"(stride {s0} != {n1} * {s1}); cannot merge")
        return self._with(
            sizes=self._sizes[:dim] + [n0 * n1] + self._sizes[dim + 2:],
            strides=self._strides[:dim] + [s1] + self._strides[dim + 2:])

    def coalesce(self):
        """The same walk in the fewest dimensions (size-1 ones dropped,
        contiguous neighbours merged)."""
        out = self.squeeze()
        i = 0
        while i + 1 < out.rank:
            if out._strides[i] == out._sizes[i + 1] * out._strides[i + 1]:
                out = out.merge(i)
            else:
                i += 1
        return out

    def repeat(self, count):
        """Walks the whole pattern count times (a new outermost dimension
        of stride 0, the shim DMA's repeat)."""
        count = _check.as_int(count, "count")
        if count < 1:
            raise ValueError(f"count: a repeat count must be >= 1, got {count}")
        return self._with(sizes=[count] + self._sizes, strides=[0] + self._strides)

    def slice(self, dim, start, length, step=1):
        """Keeps `length` indexes of dimension dim from `start`, `step` apart."""
        dim = self._axis(dim, ValueError)
        start, length, step = (_check.as_int(v, w) for v, w in
                               ((start, "start"), (length, "length"), (step, "step")))
        if length < 1 or step < 1:
            raise ValueError(
                f"length and step must be positive, got {length} and {step}")
        last = start + (length - 1) * step
        if start < 0 or last >= self._sizes[dim]:
            raise ValueError(
                f"Invalid slice {start}:{last + 1}:{step} for dimension {dim} "
                f"of size {self._sizes[dim]}")
        sizes, strides = list(self._sizes), list(self._strides)
        sizes[dim], strides[dim] = length, strides[dim] * step
        return self._with(offset=self._offset + start * self._strides[dim],
                          sizes=sizes, strides=strides)

    def subview(self, offsets, sizes, steps=None):
        """slice() on every dimension."""
        offsets = _check.as_ints(offsets, "offsets")
        sizes = _check.as_ints(sizes, "sizes")
        steps = [1] * self.rank if steps is None else _check.as_ints(steps, "steps")
        if not len(offsets) == len(sizes) == len(steps) == self.rank:
            raise ValueError(
                f"offsets, sizes and steps: expected {self.rank} entries each, "
                f"got {len(offsets)}, {len(sizes)} and {len(steps)}")
        tap = self
        for i in range(self.rank):
            tap = tap.slice(i, offsets[i], sizes[i], steps[i])
        return tap

    def unsqueeze(self, dim):
        """Inserts a size-1 dimension before dimension dim."""
        dim = _check.as_int(dim, "dim")
        if not 0 <= dim <= self.rank:
            raise ValueError(f"dim: expected 0 to {self.rank}, got {dim}")
        return self._with(sizes=self._sizes[:dim] + [1] + self._sizes[dim:],
                          strides=self._strides[:dim] + [0] + self._strides[dim:])

    def broadcast(self, dim, size):
        """Turns size-1 dimension dim into `size` visits of the same place."""
        dim = self._axis(dim, ValueError)
        size = _check.as_int(size, "size")
        if self._sizes[dim] != 1:
            raise ValueError(
                f"dim: dimension {dim} must be of size 1 to broadcast, got "
                f"{self._sizes[dim]}")
        if size < 1:
            raise ValueError(f"size: expected a positive size, got {size}")
        sizes, strides = list(self._sizes), list(self._strides)
        sizes[dim], strides[dim] = size, 0
        return self._with(sizes=sizes, strides=strides)

    def squeeze(self, dim=None):
        """Drops size-1 dimension dim, or every size-1 dimension (one is
        kept if all have size 1)."""
        if dim is not None:
            dim = self._axis(dim, ValueError)
            if self._sizes[dim] != 1:
                raise ValueError(
                    f"dim: cannot squeeze dimension {dim} of size {self._sizes[dim]}")
            keep = [i for i in range(self.rank) if i != dim]
        else:
            keep = [i for i, n in enumerate(self._sizes) if n != 1]
        if not keep:
            return self._with(sizes=[1], strides=[0])
        return self._with(sizes=[self._sizes[i] for i in keep],
                          strides=[self._strides[i] for i in keep])

    def _map(self, linear):
        # The place of the view's row-major index `linear`, relative to the
        # offset: the index split over this pattern's sizes, each part times
        # its stride (upstream's composition rule).
        total = 0
        for s, c in zip(self._strides, _row_major_strides(self._sizes)):
            total += (linear // c) * s
            linear %= c
        return total

    def compose(self, other):
        """The pattern `other` applied to the view this pattern makes: other
        walks a tensor shaped like this pattern's sizes; the result walks
        this pattern's tensor."""
        if not isinstance(other, TensorAccessPattern):
            raise TypeError(
                f"other: expected a TensorAccessPattern, got {type(other).__name__}")

        def strip(dims):
            dims = list(dims)
            while len(dims) > 1 and dims[0] == 1:
                dims.pop(0)
            return dims

        if strip(other.tensor_dims) != strip(self._sizes):
            raise ValueError(
                f"Dimension mismatch: self.sizes={self._sizes}, "
                f"other.tensor_dims={other.tensor_dims}")
        return self._with(offset=self._offset + self._map(other.offset),
                          sizes=other.sizes,
                          strides=[self._map(s) for s in other.strides])

    def __getitem__(self, key):
        """Restricts the walk with numpy basic indexing (ints, slices with a
        positive step, Ellipsis, None), applied to the pattern's dimensions
        as numpy applies it to an array's."""
        entries = key if isinstance(key, tuple) else (key,)
        ellipses = [i for i, k in enumerate(entries) if k is Ellipsis]
        if len(ellipses) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        covered = sum(k is not Ellipsis and k is not None for k in entries)
        if covered > self.rank:
            raise IndexError(f"too many indices for a pattern of rank {self.rank}")
        at = ellipses[0] if ellipses else len(entries)
        entries = (entries[:at] + (slice(None),) * (self.rank - covered)
                   + entries[at + 1:])
        offset, sizes, strides, axis = self._offset, [], [], 0
        for entry in entries:
            if entry is None:
                sizes.append(1)
                strides.append(0)
                continue
            n, s = self._sizes[axis], self._strides[axis]
            axis += 1
            if isinstance(entry, slice):
                step = 1 if entry.step is None else _check.as_int(entry.step, "step")
                if step <= 0:
                    raise ValueError(f"slice step must be positive, got {step}")
                start, stop, _ = entry.indices(n)
                extent = len(range(start, stop, step))
                if extent <= 0:
                    raise ValueError(
                        f"slice {entry!r} selects no elements on a dimension of {n}")
                offset += start * s
                sizes.append(extent)
                strides.append(s * step)
                continue
            if isinstance(entry, (bool, np.bool_)):
                raise TypeError("boolean indexing is not a strided walk")
            try:
                i = operator.index(entry)
            except TypeError:
                raise TypeError(
                    f"index {entry!r}: only basic indexing (ints, slices, "
                    "Ellipsis, None) describes a strided walk") from None
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for a dimension of {n}")
            offset += (i % n) * s
        if not sizes:
            sizes, strides = [1], [1]
        return self._with(offset=offset, sizes=sizes, strides=strides)
