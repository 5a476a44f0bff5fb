# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iron.taplib against hand-computed patterns, the library's tiler and
upstream's argument conventions."""
import itertools

import numpy as np
import pytest

from iron import _iron
from iron.taplib import TensorAccessPattern, TensorAccessSequence, TensorTiler2D


def walk(tap):
    return list(tap.access_generator())


# ------------------------------------------------------------ the binding

def test_binding_tap_functions_answer_as_the_library():
    order = np.frombuffer(_iron.tap_access_order(0, [2, 2], [4, 1], 8), np.int64)
    assert order.tolist() == [0, 1, -1, -1, 2, 3, -1, -1]
    count = np.frombuffer(_iron.tap_access_count(0, [2, 2], [0, 1], 4), np.int64)
    assert count.tolist() == [2, 2, 0, 0]
    assert _iron.tap_count(3, (2, 3, 4), (0, 0, 1)) == 24
    _iron.tap_check(np.int64(2), [np.int32(2)], [1], 4)


@pytest.mark.parametrize("args, exc, words", [
    ((0, [], []), _iron.InvalidArgumentError, "sizes: expected 1 to 4 dimensions, got 0"),
    ((0, [1] * 5, [1] * 5), _iron.InvalidArgumentError, "got 5"),
    ((0, [2, 2], [1]), _iron.InvalidArgumentError, "got 2 sizes and 1 strides"),
    ((0, "ab", [1]), TypeError, "sizes: expected a sequence of ints, got str"),
    ((0, [2.0], [1]), TypeError, "sizes[0]: expected an int, got float"),
    ((0, [True], [1]), TypeError, "sizes[0]: expected an int, got bool"),
    ((None, [2], [1]), TypeError, "offset: expected an int, got NoneType"),
    ((0, [2], [2**70]), _iron.InvalidArgumentError, "does not fit 64 bits"),
])
def test_binding_tap_argument_errors_name_the_argument(args, exc, words):
    with pytest.raises(exc) as e:
        _iron.tap_check(*args, 16)
    assert words in str(e.value)


def test_binding_tap_bounds_are_the_library_s():
    with pytest.raises(_iron.BoundsError) as e:
        _iron.tap_check(10, [2, 2], [4, 1], 12)
    assert "out of bounds" in str(e.value)
    with pytest.raises(_iron.BoundsError):
        _iron.tap_access_order(0, [3], [1], 2)
    with pytest.raises(_iron.InvalidArgumentError) as e:
        _iron.tap_visualize(0, [2], [1], 0, 4)
    assert "rows" in str(e.value)


def test_binding_tap_count_refuses_what_is_no_count():
    with pytest.raises(_iron.InvalidArgumentError) as e:
        _iron.tap_count(0, [0], [1])
    assert "at least 1" in str(e.value)
    with pytest.raises(_iron.InvalidArgumentError) as e:
        _iron.tap_count(0, [2**40, 2**40], [0, 0])
    assert "does not fit 64 bits" in str(e.value)


def test_binding_tiler2d_matches_its_count_and_errors():
    taps = _iron.tiler2d(8, 12, 2, 3, group_rows=2, group_cols=2)
    assert _iron.tiler2d_count(8, 12, 2, 3, group_rows=2, group_cols=2) == len(taps) == 4
    assert taps[1] == (6, (2, 2, 2, 3), (24, 3, 12, 1))
    with pytest.raises(_iron.InvalidArgumentError) as e:
        _iron.tiler2d(8, 8, 3, 3)
    assert "tile_rows (3) does not divide rows (8)" in str(e.value)
    with pytest.raises(TypeError):
        _iron.tiler2d(8, 8, 2)


# ------------------------------------------------- TensorAccessPattern

def test_pattern_in_tiles_hand_computed():
    tap = TensorAccessPattern((4, 4), 0, [2, 2, 2, 2], [8, 2, 4, 1])
    assert tap.access_order().tolist() == [[0, 1, 4, 5], [2, 3, 6, 7],
                                          [8, 9, 12, 13], [10, 11, 14, 15]]
    assert tap.access_count().tolist() == [[1] * 4] * 4
    assert tap.access_order().dtype == np.int32   # upstream's dtype
    order, count = tap.accesses()
    assert order.shape == count.shape == (4, 4)
    assert walk(tap) == [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
    assert tap.transformation_dims == [(2, 8), (2, 2), (2, 4), (2, 1)]
    assert tap.rank == 4 and tap.numel == 16


def test_pattern_defaults_walk_the_whole_tensor():
    tap = TensorAccessPattern((3, 4))
    assert tap.sizes == [3, 4] and tap.strides == [4, 1] and tap.offset == 0
    assert (tap.access_order() == np.arange(12).reshape(3, 4)).all()
    assert TensorAccessPattern.full((3, 4)) == tap


def test_pattern_one_dimensional_tensor_reads_as_one_row():
    tap = TensorAccessPattern((6,), 1, [2], [2])
    assert tap.tensor_dims == [1, 6]
    assert tap.access_order().tolist() == [[-1, 0, -1, 1, -1, -1]]


def test_pattern_repeats_keep_the_last_visit_and_count_every_one():
    tap = TensorAccessPattern((1, 4), 0, [3, 4], [0, 1])
    assert tap.access_order().tolist() == [[8, 9, 10, 11]]
    assert tap.access_count().tolist() == [[3, 3, 3, 3]]


def test_pattern_leading_unit_dims_get_stride_zero():
    tap = TensorAccessPattern((8, 8), 0, [1, 1, 4, 4], [64, 9, 8, 1])
    assert tap.strides == [0, 0, 8, 1]


def test_pattern_copies_are_copies():
    tap = TensorAccessPattern((4, 4), 0, [2, 2], [4, 1])
    tap.sizes.append(9)
    tap.tensor_dims[0] = 9
    assert tap.sizes == [2, 2] and tap.tensor_dims == [4, 4]


@pytest.mark.parametrize("args, exc, words", [
    (((4, 4), -1, [1], [1]), ValueError, "offset: expected 0 to 15"),
    (((4, 4), 16, [1], [1]), ValueError, "got 16"),
    (((4, 4), 0, [2, 2], [1]), ValueError, "got 2 sizes and 1 strides"),
    (((4, 4), 0, [0], [1]), ValueError, "every size must be >= 1"),
    (((4, 4), 0, [2], [-1]), ValueError, "every stride must be >= 0"),
    (((), 0, [1], [1]), ValueError, "tensor_dims: expected at least one"),
    (((4, 0), 0, [1], [1]), ValueError, "every dimension must be >= 1"),
    (((4, 4), 1.5, [1], [1]), TypeError, "offset: expected an int"),
    (((4, 4), 0, 3, [1]), TypeError, "sizes: expected a sequence"),
])
def test_pattern_argument_errors(args, exc, words):
    with pytest.raises(exc) as e:
        TensorAccessPattern(*args)
    assert words in str(e.value)


def test_pattern_past_the_tensor_is_the_library_s_bounds_error():
    with pytest.raises(_iron.BoundsError) as e:
        TensorAccessPattern((4, 4), 8, [2, 4], [8, 1])
    assert "out of bounds" in str(e.value)


def test_pattern_of_more_than_four_dims():
    # Size-1 dimensions are dropped to fit the library's four ...
    tap = TensorAccessPattern((4, 4), 0, [1, 2, 1, 2, 4], [0, 8, 0, 4, 1])
    assert tap.sizes == [1, 2, 1, 2, 4]
    assert (tap.access_order() == np.arange(16).reshape(4, 4)).all()
    # ... five real ones are not supported.
    with pytest.raises(_iron.NotSupportedError) as e:
        TensorAccessPattern((64, 64), 0, [2] * 5, [1, 2, 4, 8, 16])
    assert "at most 4 dimensions" in str(e.value)


def test_pattern_visualize_prints_the_library_s_picture(capsys):
    tap = TensorAccessPattern((4, 4), 0, [2, 2, 2, 2], [8, 2, 4, 1])
    tap.visualize()
    want = _iron.tap_visualize(0, [2, 2, 2, 2], [8, 2, 4, 1], 4, 4)
    assert capsys.readouterr().out == want
    assert want.splitlines()[2] == "0:  0  1  4  5"
    # Upstream's plotting keywords are accepted; title goes on top.
    tap.visualize(show_arrows=True, title="tiles", file_path="x.png",
                  plot_access_count=True)
    assert capsys.readouterr().out == "tiles\n" + want
    tap.visualize(show_plot=False)
    assert capsys.readouterr().out == ""


def test_pattern_visualize_needs_two_dims():
    with pytest.raises(NotImplementedError):
        TensorAccessPattern((2, 2, 2)).visualize()


def test_pattern_str_and_equality_as_upstream():
    a = TensorAccessPattern((8, 8), 0, [1, 1, 4, 4], [0, 0, 8, 1])
    assert str(a) == ("TensorAccessPattern([8, 8] offset=0, sizes=[1, 1, 4, 4], "
                      "strides=[0, 0, 8, 1])")
    assert repr(a) == str(a)
    b = TensorAccessPattern((8, 8), 0, [4, 4], [8, 1])
    assert a == b and hash(a) == hash(b) and not a != b
    assert a != TensorAccessPattern((8, 8), 1, [4, 4], [8, 1])
    assert a != TensorAccessPattern((4, 16), 0, [4, 4], [8, 1])
    assert a != "pattern"


def test_pattern_compare_access_orders():
    a = TensorAccessPattern((4, 4), 0, [16], [1])
    b = TensorAccessPattern((4, 4), 0, [4, 4], [4, 1])
    assert a != b and a.compare_access_orders(b)
    assert not a.compare_access_orders(TensorAccessPattern((4, 4), 0, [4, 4], [1, 4]))
    with pytest.raises(ValueError):
        a.compare_access_orders([0, 1])


def test_pattern_compose_maps_a_pattern_through_a_view():
    rows_0_and_2 = TensorAccessPattern((4, 4), 0, [2, 4], [8, 1])
    odd_columns = TensorAccessPattern((2, 4), 1, [2, 2], [4, 2])
    both = rows_0_and_2.compose(odd_columns)
    assert walk(both) == [1, 3, 9, 11]
    assert both.tensor_dims == [4, 4]
    with pytest.raises(ValueError):
        rows_0_and_2.compose(TensorAccessPattern((4, 4)))


def test_pattern_indexing_walks_what_numpy_selects():
    base = np.arange(24).reshape(4, 6)
    full = TensorAccessPattern.full((4, 6))
    for key in [(slice(1, 3), slice(None, None, 2)), (2,), (Ellipsis, 3),
                (slice(None), -1), (None, 1, slice(2, 5))]:
        assert walk(full[key]) == base[key].ravel().tolist(), key
    with pytest.raises(IndexError):
        full[4]
    with pytest.raises(IndexError):
        full[0, 0, 0]
    with pytest.raises(TypeError):
        full[[0, 1]]
    with pytest.raises(ValueError):
        full[3:1]


def test_pattern_reshaping_methods():
    full = TensorAccessPattern.full((4, 6))
    assert walk(full.T) == np.arange(24).reshape(4, 6).T.ravel().tolist()
    assert full.permute([1, 0]) == full.T
    assert full.split(1, 3).sizes == [4, 2, 3]
    assert full.split(1, 3).strides == [6, 3, 1]
    assert full.split_dim(1, 2) == full.split(1, 3)
    assert full.split(1, 3).merge(1) == full
    assert full.coalesce().sizes == [24]
    assert walk(full.coalesce()) == walk(full)
    rep = full[0].repeat(2)
    assert rep.sizes == [2, 6] and rep.strides == [0, 1]
    assert rep.access_count().tolist()[0] == [2] * 6
    assert walk(full.slice(1, 1, 2, 3)) == [1, 4, 7, 10, 13, 16, 19, 22]
    assert full.subview([1, 2], [2, 2]) == full[1:3, 2:4]
    assert full.unsqueeze(0).sizes == [1, 4, 6]
    assert full.unsqueeze(0).broadcast(0, 3).access_count().max() == 3
    assert full.unsqueeze(2).squeeze() == full
    assert full.unsqueeze(1).squeeze(1) == full
    for bad in (lambda: full.permute([0, 0]), lambda: full.split(1, 4),
                lambda: full.merge(1), lambda: full.repeat(0),
                lambda: full.slice(0, 3, 2), lambda: full.broadcast(0, 2),
                lambda: full.squeeze(0), lambda: full.unsqueeze(3)):
        with pytest.raises((ValueError, IndexError)):
            bad()


# ------------------------------------------------ TensorAccessSequence

def test_sequence_from_functions_as_upstream():
    seq = TensorAccessSequence((4, 4), 4, sizes=[2, 2], strides=[4, 1],
                               offset_fn=lambda step, _: (step // 2) * 8 + (step % 2) * 2)
    assert len(seq) == 4 and [t.offset for t in seq] == [0, 2, 8, 10]
    assert seq.access_order().tolist() == [[0, 1, 4, 5], [2, 3, 6, 7],
                                          [8, 9, 12, 13], [10, 11, 14, 15]]
    assert (seq.access_count() == 1).all()
    order, count = seq.accesses()
    assert order.dtype == np.int32 and (count == 1).all()
    with pytest.raises(ValueError):
        TensorAccessSequence((4, 4), 2, sizes=[2], strides=[1])   # no offset
    with pytest.raises(ValueError):
        TensorAccessSequence((4, 4), 0, offset=0)
    assert len(TensorAccessSequence((4, 4), 0)) == 0


def test_sequence_is_a_list_of_patterns_over_one_tensor():
    a = TensorAccessPattern((4, 4), 0, [4], [1])
    b = TensorAccessPattern((4, 4), 4, [4], [1])
    seq = TensorAccessSequence.from_taps([a, b])
    assert seq[1] == b and b in seq and list(seq) == [a, b]
    seq.append(TensorAccessPattern((4, 4), 8, [8], [1]))
    assert len(seq) == 3 and (seq.access_order() == np.arange(16).reshape(4, 4)).all()
    seq[0] = b
    del seq[2]
    assert list(seq) == [b, b]
    with pytest.raises(ValueError):
        seq.append(TensorAccessPattern((2, 8)))
    with pytest.raises(TypeError):
        seq.insert(0, (0, [4], [1]))
    with pytest.raises(ValueError):
        TensorAccessSequence.from_taps([])
    assert seq == TensorAccessSequence.from_taps([b, b])
    assert seq.compare_access_orders(TensorAccessSequence.from_taps(
        [TensorAccessPattern((4, 4), 4, [2, 2], [2, 1])] * 2))


def test_sequence_overlap_keeps_the_last_visit():
    a = TensorAccessPattern((1, 4), 0, [2], [1])
    b = TensorAccessPattern((1, 4), 1, [2], [1])
    seq = TensorAccessSequence.from_taps([a, b])
    assert seq.access_order().tolist() == [[0, 2, 3, -1]]
    assert seq.access_count().tolist() == [[1, 2, 1, 0]]


def test_sequence_visualize_prints_each_pattern(capsys):
    seq = TensorTiler2D.simple_tiler((4, 4), (2, 4))
    seq.visualize(title="rows")
    out = capsys.readouterr().out
    assert out.startswith("rows\npattern 0 of 2:\n")
    t = seq[1]
    assert t.offset == _iron.tiler2d(4, 4, 2, 4)[1][0] == 8
    assert out.endswith("pattern 1 of 2:\n" + _iron.tap_visualize(
        t.offset, t.sizes, t.strides, 4, 4))
    with pytest.raises(NotImplementedError):
        seq.animate()


# --------------------------------------------------------- TensorTiler2D

def test_tiler_cannot_be_instantiated():
    with pytest.raises(TypeError):
        TensorTiler2D()


def test_simple_tiler_hand_computed():
    seq = TensorTiler2D.simple_tiler((8, 8), (4, 4))
    assert [t.offset for t in seq] == [0, 4, 32, 36]
    assert seq[0].sizes == [1, 1, 4, 4] and seq[0].strides == [0, 0, 8, 1]
    assert seq.access_order()[:, :4].ravel().tolist() == list(range(16)) + list(range(32, 48))
    col = TensorTiler2D.simple_tiler((8, 8), (4, 4), tile_col_major=True,
                                     iter_col_major=True)
    assert [t.offset for t in col] == [0, 32, 4, 36]
    assert col[0].sizes == [1, 1, 4, 4] and col[0].strides == [0, 0, 1, 8]
    whole = TensorTiler2D.simple_tiler((8, 8))
    assert len(whole) == 1 and walk(whole[0]) == list(range(64))


def test_group_tiler_hand_computed():
    seq = TensorTiler2D.group_tiler((8, 12), (2, 3), (2, 2))
    assert len(seq) == 4
    assert [t.offset for t in seq] == [0, 6, 48, 54]
    assert seq[1].sizes == [2, 2, 2, 3] and seq[1].strides == [24, 3, 12, 1]
    assert walk(seq[0])[:12] == [0, 1, 2, 12, 13, 14, 3, 4, 5, 15, 16, 17]


def test_pattern_repeat_is_the_outermost_dimension_as_upstream():
    seq = TensorTiler2D.simple_tiler((4, 4), (2, 2), pattern_repeat=2)
    assert seq[0].sizes == [2, 1, 2, 2] and seq[0].strides == [0, 0, 4, 1]
    assert (seq.access_count() == 2).all()


def test_step_tiler_hand_computed():
    # 1 x 8 tiles of 1 x 1, groups of 2 tiles 2 apart: (0, 2), (1, 3), ...
    seq = TensorTiler2D.step_tiler((1, 8), (1, 1), (1, 2), (1, 2))
    assert [walk(t) for t in seq] == [[0, 2], [1, 3], [4, 6], [5, 7]]


TILER_CASES = [
    dict(tensor_dims=(16, 16), tile_dims=(4, 4)),
    dict(tensor_dims=(16, 16), tile_dims=(4, 2), tile_group_repeats=(2, 2),
         tile_group_col_major=True),
    dict(tensor_dims=(16, 24), tile_dims=(2, 4), tile_group_repeats=(2, 3),
         tile_group_steps=(2, 2), iter_col_major=True, tile_col_major=True),
    dict(tensor_dims=(12, 12), tile_dims=(2, 2), tile_group_repeats=(4, 4),
         allow_partial=True),
    dict(tensor_dims=(8, 16), tile_dims=(2, 4), tile_group_repeats=(2, 1),
         pattern_repeat=3, prune_step=False),
]


@pytest.mark.parametrize("case", TILER_CASES)
def test_tiler_is_the_library_s(case):
    seq = TensorTiler2D.step_tiler(**{"tile_group_repeats": (1, 1), **case})
    rows, cols = case["tensor_dims"]
    tr, tc = case["tile_dims"]
    gr, gc = case.get("tile_group_repeats", (1, 1))
    sr, sc = case.get("tile_group_steps", (1, 1))
    lib = _iron.tiler2d(rows, cols, tr, tc, gr, gc, sr, sc,
                        case.get("tile_col_major", False),
                        case.get("tile_group_col_major", False),
                        case.get("iter_col_major", False),
                        case.get("pattern_repeat", 1),
                        case.get("allow_partial", False),
                        case.get("prune_step", True))
    assert len(seq) == len(lib)
    for tap, (offset, sizes, strides) in zip(seq, lib):
        assert tap == TensorAccessPattern((rows, cols), offset, sizes, strides)
        assert len(tap.sizes) == 4
    # Together the patterns visit every element pattern_repeat times.
    assert (seq.access_count() == case.get("pattern_repeat", 1)).all()


def test_tiler_every_flag_combination_covers_the_tensor_once():
    for flags in itertools.product([False, True], repeat=3):
        seq = TensorTiler2D.group_tiler((8, 8), (2, 4), (2, 2), *flags)
        assert (seq.access_count() == 1).all(), flags
        assert sorted(seq.access_order().ravel().tolist()) == list(range(64))


def test_tiler_argument_errors():
    with pytest.raises(ValueError) as e:
        TensorTiler2D.simple_tiler((8, 8), (3, 3))
    assert "does not divide" in str(e.value)
    with pytest.raises(ValueError):
        TensorTiler2D.group_tiler((8, 8), (2, 2), (3, 3))   # partial groups
    assert len(TensorTiler2D.group_tiler((8, 8), (2, 2), (3, 3), allow_partial=True)) == 4
    with pytest.raises(ValueError) as e:
        TensorTiler2D.simple_tiler((8, 8, 8), (2, 2))
    assert "tensor_dims: expected 2 dimensions" in str(e.value)
    with pytest.raises(ValueError) as e:
        TensorTiler2D.simple_tiler((8, 8), (2, 2), pattern_repeat=0)
    assert "Pattern repeat must be >= 1" in str(e.value)
    with pytest.raises(_iron.NotSupportedError) as e:   # upstream: ValueError
        TensorTiler2D.group_tiler((8, 16), (2, 4), (2, 2), pattern_repeat=3,
                                  prune_step=False)
    assert "needs 5 dimensions" in str(e.value)
    with pytest.raises(TypeError) as e:
        TensorTiler2D.group_tiler((8, 8), (2, 2), (1, 1), (2, 2))
    assert "tile_col_major" in str(e.value)
