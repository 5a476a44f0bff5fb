/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_overflow.c - arithmetic the public API reaches with caller-chosen
 * numbers: access patterns (sizes, strides, offsets, visit counts), the
 * 2-D tiler's repeat, dispatch-time scalars moving a pattern, tensor
 * shapes, and the integers and floats of the jit's declaration strings.
 * Each case used to wrap around (or was accepted / misreported); each must
 * now be a named error, never a wrong answer.
 */
#include <math.h>

#include "jit/jit.h"
#include "design/layout.h"
#include "test.h"

#define P2(n) ((int64_t)1 << (n))

/* ---- iron_tap_check ----------------------------------------------------- */

/* (2^40 - 1) x 2^40 = 2^80 - 2^40 wraps to -2^40: the reach looked
 * negative, so "inside" any tensor. */
TEST(overflow_tap_check_size_times_stride_wraps_negative)
{
    int64_t sizes[1] = { P2(40) }, strides[1] = { P2(40) };
    iron_tap t = iron_tap_make(0, 1, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 100), IRON_EBOUNDS,
                 "access pattern: size[0] x stride[0] overflows 64 bits");
    ASSERT_CONTAINS(iron_last_error(), "(1099511627776 - 1) x 1099511627776");
    ASSERT_CONTAINS(iron_last_error(), "the tensor has 100 elements");
}

/* 2^24 x 2^40 = 2^64 wraps to exactly 0: a pattern of 2^24 + 1 visits
 * 2^40 apart looked like it stayed on element 0. */
TEST(overflow_tap_check_size_times_stride_wraps_to_zero)
{
    int64_t sizes[2] = { 1, P2(24) + 1 }, strides[2] = { 1, P2(40) };
    iron_tap t = iron_tap_make(0, 2, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 16), IRON_EBOUNDS,
                 "size[1] x stride[1] overflows 64 bits");
    /* Just below the wrap it is an ordinary out-of-bounds pattern. */
    sizes[1] = P2(20);
    t = iron_tap_make(0, 2, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 16), IRON_EBOUNDS,
                 "goes out of bounds");
}

/* offset + reach past INT64_MAX wrapped to a negative reach, which is
 * "inside" any tensor. */
TEST(overflow_tap_check_offset_plus_reach_wraps)
{
    int64_t sizes[1] = { 16 }, strides[1] = { 1 };
    iron_tap t = iron_tap_make(INT64_MAX - 5, 1, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 64), IRON_EBOUNDS,
                 "access pattern: offset + reach overflows 64 bits at "
                 "dimension 0: offset 9223372036854775802, reach 0 before "
                 "it, + (size[0] - 1) x stride[0] = 15");
    /* In an inner dimension, after a reach that fits. */
    int64_t sizes2[2] = { 2, 16 }, strides2[2] = { 16, 1 };
    t = iron_tap_make(INT64_MAX - 20, 2, sizes2, strides2);
    ASSERT_FAILS(iron_tap_check(&t, 64), IRON_EBOUNDS,
                 "access pattern: offset + reach overflows 64 bits at "
                 "dimension 1: offset 9223372036854775787, reach 16 before "
                 "it");
    /* The offset alone at INT64_MAX, one element: no overflow, just out
     * of bounds. */
    int64_t one[1] = { 1 }, unit[1] = { 1 };
    t = iron_tap_make(INT64_MAX, 1, one, unit);
    ASSERT_FAILS(iron_tap_check(&t, 64), IRON_EBOUNDS,
                 "reaches element 9223372036854775807");
}

/* 2^40 x 2^40 visits wrapped to 0 and passed the 2^40 bound. */
TEST(overflow_tap_check_visit_count_wraps)
{
    int64_t sizes[2] = { P2(40), P2(40) }, strides[2] = { 0, 0 };
    iron_tap t = iron_tap_make(0, 2, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 1), IRON_EBOUNDS,
                 "the number of visits overflows 64 bits at size[1]");
    ASSERT_CONTAINS(iron_last_error(), "expected at most 2^40 visits");
    /* Without the overflow the bound still names the dimension. */
    sizes[1] = 2;
    t = iron_tap_make(0, 2, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 1), IRON_EBOUNDS,
                 "visits more than 2^40 elements (2199023255552 by size[1])");
}

/* The taplib functions trust a checked pattern with their loops and
 * writes: a wrapped pattern used to send them far outside `order`. */
TEST(overflow_taplib_refuses_wrapped_patterns)
{
    int64_t order[16], count[16];
    int64_t sizes[1] = { P2(24) + 1 }, strides[1] = { P2(40) };
    iron_tap t = iron_tap_make(0, 1, sizes, strides);
    ASSERT_FAILS(iron_tap_access_order(&t, 16, order), IRON_EBOUNDS,
                 "iron_tap_access_order: access pattern: size[0] x "
                 "stride[0] overflows 64 bits");
    ASSERT_FAILS(iron_tap_access_count(&t, 16, count), IRON_EBOUNDS,
                 "overflows 64 bits");
    char *text;
    ASSERT_NE(iron_tap_visualize(&t, 4, 4, &text), IRON_OK);
    ASSERT_CONTAINS(iron_last_error(), "overflows 64 bits");
    /* rows x cols itself past 64 bits. */
    t = iron_tap_linear(16);
    ASSERT_EQ(iron_tap_visualize(&t, P2(40), P2(40), &text), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "more than 2^40 elements");
}

/* ---- iron_tap_count ----------------------------------------------------- */

TEST(overflow_tap_count_reports_overflow)
{
    int64_t sizes[2] = { P2(62), 4 }, strides[2] = { 4, 1 };
    iron_tap t = iron_tap_make(0, 2, sizes, strides);
    /* 2^64 used to wrap to 0, which reads as "malformed" or "nothing". */
    ASSERT_EQ(iron_tap_count(&t), -1);
    ASSERT_FAILS(iron_tap_check(&t, 1000), IRON_EBOUNDS,
                 "size[0] is 4611686018427387904; expected 1 to 2^40");
    int64_t four[4] = { P2(40), P2(40), P2(40), P2(40) };
    int64_t zero[4] = { 0, 0, 0, 0 };
    t = iron_tap_make(0, 4, four, zero);
    ASSERT_EQ(iron_tap_count(&t), -1);
    ASSERT_FAILS(iron_tap_check(&t, 1), IRON_EBOUNDS, "overflows 64 bits");
    /* The largest product that fits is a count. */
    int64_t fit[2] = { P2(31), P2(31) };
    t = iron_tap_make(0, 2, fit, zero);
    ASSERT_EQ(iron_tap_count(&t), P2(62));
    int64_t top[2] = { INT64_MAX, 1 };
    t = iron_tap_make(0, 2, top, zero);
    ASSERT_EQ(iron_tap_count(&t), INT64_MAX);
    /* Malformed stays 0, even after a product that overflows. */
    int64_t bad[3] = { P2(62), 4, 0 };
    t = iron_tap_make(0, 3, bad, zero);
    ASSERT_EQ(iron_tap_count(&t), 0);
    ASSERT_EQ(iron_tap_count(NULL), 0);
}

/* ---- the 2-D tiler ------------------------------------------------------ */

static iron_tiler2d tiler(int64_t rows, int64_t cols, int64_t tr, int64_t tc)
{
    iron_tiler2d t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
    t.rows = rows;
    t.cols = cols;
    t.tile_rows = tr;
    t.tile_cols = tc;
    return t;
}

/* A repeat is the shim DMA's iteration count: at most 64.  It used to be
 * taken up to 2^40, giving patterns no fill or drain can run. */
TEST(overflow_tiler_repeat_bounded_by_shim)
{
    iron_tiler2d t = tiler(8, 12, 2, 3);
    int64_t count = -1;
    iron_tap tap;
    t.repeat = 64;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 16);
    ASSERT_OK(iron_tiler2d_tap(&t, 3, &tap));
    ASSERT_EQ(tap.sizes[0], 64);
    ASSERT_EQ(tap.strides[0], 0);
    t.repeat = 65;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.repeat is 65; expected 0 (meaning 1) to 64 "
                 "(the shim DMA's iteration count");
    ASSERT_EQ(count, 0);
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL,
                 "iron_tiler2d.repeat is 65");
    t.repeat = P2(40);
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.repeat is 1099511627776; expected 0 (meaning "
                 "1) to 64");
    t.repeat = INT64_MAX;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL,
                 "iron_tiler2d.repeat is 9223372036854775807");
}

/* repeat x a group's elements is a pattern's visit count, at most 2^40:
 * past it the tiler used to accept the fields and then fail every
 * pattern as an "internal error". */
TEST(overflow_tiler_visits_bounded)
{
    iron_tiler2d t = tiler(P2(20), P2(20), P2(20), P2(20));
    int64_t count;
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 1);
    t.repeat = 2;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.repeat (2) x the 1099511627776 elements of a "
                 "group (1 x 1 tiles of 1048576 x 1048576) is 2199023255552 "
                 "visits; an access pattern visits at most 2^40");
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL,
                 "visits; an access pattern visits at most 2^40");
    /* Half the tensor per group fits twice. */
    t = tiler(P2(20), P2(20), P2(19), P2(20));
    t.repeat = 2;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 2);
    ASSERT_OK(iron_tiler2d_tap(&t, 1, &tap));
    ASSERT_EQ(tap.offset, P2(39));
    /* group x step past 64 bits is "does not divide", not a wrap. */
    t = tiler(8, 12, 2, 3);
    t.group_rows = P2(40);
    t.step_rows = P2(40);
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "does not divide the 4 tile rows");
}

/* ---- dispatch-time scalars moving a pattern ----------------------------- */

/* x streams through a memtile (no kernel) into y; the fill's pattern
 * starts at compile-time parameter `base` and is moved by scalar `at`. */
static int moved_fill_design(iron_design *d, void *user)
{
    (void)user;
    int64_t base = iron_design_param_int(d, "base");
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_forward(d, iron_fifo_cons(in), "out", 0);
    int64_t sizes[1] = { 16 }, strides[1] = { 1 };
    iron_rt_fill_offset_scalar(d, iron_fifo_prod(in), 0,
                               iron_tap_make(base, 1, sizes, strides),
                               iron_design_scalar_index(d, "at"));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(16), IRON_WAIT);
    return 0;
}

static iron_status run_at(iron_jit *j, int64_t base, int64_t at,
                          iron_tensor *x, iron_tensor *y)
{
    return iron_jit_launch(j, NULL,
                           IRON_PARAMS(iron_param_int("base", base)),
                           IRON_SCALARS(iron_scalar_value("at", at)),
                           IRON_TENSORS(x, y));
}

/* INT64_MAX as the scalar used to be signed overflow (offset + reach in
 * iron_tap_check; offset + value when the pattern has an offset). */
TEST(overflow_scalar_moving_a_pattern)
{
    iron_jit *j;
    iron_jit_options o = { .size = sizeof o, .name = "moved",
                           .args = "in x: int32[N], out y: int32[16]",
                           .params = "base: int = 0",
                           .scalars = "at = 0" };
    ASSERT_OK(iron_jit_create(moved_fill_design, &o, &j));
    iron_tensor *x = test_arange(IRON_INT32, 64);
    iron_tensor *y = test_zeros(IRON_INT32, 16);
    ASSERT_OK(run_at(j, 0, 32, x, y));
    ASSERT_EQ(test_at(y, 0), 32);
    ASSERT_EQ(test_at(y, 15), 47);
    ASSERT_OK(run_at(j, 16, 32, x, y));
    ASSERT_EQ(test_at(y, 0), 48);

    /* offset 0 + INT64_MAX fits; + the reach does not. */
    ASSERT_STATUS(run_at(j, 0, INT64_MAX, x, y), IRON_EBOUNDS);
    ASSERT_MSG("fill of argument 0 ('x') moved by scalar 'at' = "
               "9223372036854775807");
    ASSERT_MSG("offset + reach overflows 64 bits at dimension 0");
    /* offset 16 + INT64_MAX itself overflows. */
    ASSERT_STATUS(run_at(j, 16, INT64_MAX, x, y), IRON_EBOUNDS);
    ASSERT_MSG("moved by scalar 'at' = 9223372036854775807: the offset 16 + "
               "9223372036854775807 overflows 64 bits; the tensor has 64 "
               "elements");
    /* And downwards: INT64_MIN moves the offset below 0 without a wrap;
     * offset 16 + INT64_MIN is negative too. */
    ASSERT_STATUS(run_at(j, 0, INT64_MIN, x, y), IRON_EBOUNDS);
    ASSERT_MSG("moved by scalar 'at' = -9223372036854775808");
    ASSERT_MSG("offset is -9223372036854775808");
    ASSERT_STATUS(run_at(j, 16, INT64_MIN, x, y), IRON_EBOUNDS);
    ASSERT_MSG("offset is -9223372036854775792");
    /* Nothing ran: y keeps the last good call's data. */
    ASSERT_EQ(test_at(y, 0), 48);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

/* ---- tensor shapes ------------------------------------------------------ */

TEST(overflow_tensor_shape_names_dim_and_sizes)
{
    iron_tensor *t = (iron_tensor *)(uintptr_t)1;
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT8,
                                   IRON_SHAPE(P2(32), P2(30), 4), &t),
                 IRON_ESHAPE,
                 "iron_tensor_zeros: shape is too large: the element count "
                 "overflows at dim 2: 4611686018427387904 x 4 is past "
                 "2^63-1");
    ASSERT(t == NULL);
    /* Elements fit, bytes do not. */
    ASSERT_FAILS(iron_tensor_full(IRON_FLOAT64,
                                  IRON_SHAPE(P2(30), P2(30)), 1.0, &t),
                 IRON_ESHAPE,
                 "iron_tensor_full: shape is too large: the byte count "
                 "overflows at dim 1 (1073741824): 1152921504606846976 "
                 "elements x 8 bytes of float64");
    /* arange: 2^62 elements fit an int64_t, their bytes do not; 2^63 and
     * more are no count at all. */
    ASSERT_FAILS(iron_tensor_arange(IRON_INT64, 0, 4611686018427387904.0, 1,
                                    &t),
                 IRON_ESHAPE, "overflows at dim 0");
    ASSERT_FAILS(iron_tensor_arange(IRON_INT64, 0, 1e19, 1, &t),
                 IRON_ESHAPE, "iron_tensor_arange: start 0, stop 1e+19, step "
                 "1 give 1e+19 elements; a shape dim holds at most 2^63-1");
    ASSERT_FAILS(iron_tensor_arange(IRON_INT64, -1e308, 1e308, 1e-300, &t),
                 IRON_ESHAPE, "inf elements");
}

/* ---- declaration strings ------------------------------------------------ */

static int noop_design(iron_design *d, void *user)
{
    (void)d;
    (void)user;
    return 0;
}

static iron_status declare(const char *args, const char *params,
                           const char *scalars)
{
    iron_jit *j = (iron_jit *)(uintptr_t)1;
    iron_jit_options o = { .size = sizeof o, .name = "decl", .args = args,
                           .params = params, .scalars = scalars };
    iron_status s = iron_jit_create(noop_design, &o, &j);
    if (s == IRON_OK)
        iron_jit_free(j);
    else if (j != NULL)
        TEST_FAIL_("a failed iron_jit_create left *out set");
    return s;
}

TEST(overflow_decl_int_default_out_of_range)
{
    ASSERT_FAILS(declare("in a", "tile: int = 99999999999999999999", NULL),
                 IRON_EINVAL,
                 "parameter 'tile' default 99999999999999999999 is out of "
                 "range: expected an integer default from "
                 "-9223372036854775808 to 9223372036854775807");
    ASSERT_FAILS(declare("in a", "n: int = 16, lo: int = -0x8000000000000001",
                         NULL),
                 IRON_EINVAL,
                 "parameter 'lo' default -0x8000000000000001 is out of range");
    /* The limits themselves are fine. */
    ASSERT_OK(declare("in a",
                      "lo: int = -9223372036854775808, "
                      "hi: int = 0x7fffffffffffffff",
                      NULL));
    /* Not a number at all stays a syntax error. */
    ASSERT_FAILS(declare("in a", "tile: int = x", NULL), IRON_EINVAL,
                 "expected an integer default");
    /* Scalars' defaults likewise. */
    ASSERT_FAILS(declare("in a", NULL, "at = 99999999999999999999"),
                 IRON_EINVAL,
                 "jit scalars \"at = 99999999999999999999\": scalar 'at' "
                 "default 99999999999999999999 is out of range: expected an "
                 "integer default from -9223372036854775808 to "
                 "9223372036854775807");
    ASSERT_OK(declare("in a", NULL, "at = -9223372036854775808"));
}

TEST(overflow_decl_float_default_out_of_range)
{
    ASSERT_FAILS(declare("in a", "scale: float = 1e999", NULL), IRON_EINVAL,
                 "parameter 'scale' default 1e999 is out of range: expected "
                 "a finite number default");
    ASSERT_FAILS(declare("in a", "scale: float = -1e999", NULL), IRON_EINVAL,
                 "default -1e999 is out of range");
    ASSERT_FAILS(declare("in a", "scale: float = inf", NULL), IRON_EINVAL,
                 "default inf is out of range");
    ASSERT_FAILS(declare("in a", "scale: float = -Infinity", NULL),
                 IRON_EINVAL, "default -Infinity is out of range");
    ASSERT_FAILS(declare("in a", "scale: float = nan", NULL), IRON_EINVAL,
                 "default nan is out of range");
    ASSERT_FAILS(declare("in a", "scale: float = NAN(123)", NULL),
                 IRON_EINVAL, "default NAN(123) is out of range");
    /* Every digit lost to underflow: 0 is not what was written. */
    ASSERT_FAILS(declare("in a", "eps: float = 1e-999", NULL), IRON_EINVAL,
                 "default 1e-999 is out of range");
    /* Large, tiny (denormal) and zero values are fine. */
    iron_jit *j;
    iron_jit_options o = { .size = sizeof o, .name = "decl", .args = "in a",
                           .params = "big: float = 1.7e308, "
                                     "tiny: float = 4.9e-324, "
                                     "zero: float = 0e999" };
    ASSERT_OK(iron_jit_create(noop_design, &o, &j));
    ASSERT(j->params[0].def.f > 1e308);
    ASSERT(j->params[1].def.f > 0);
    ASSERT(j->params[2].def.f == 0);
    iron_jit_free(j);
}

TEST(overflow_decl_shape_integers)
{
    ASSERT_FAILS(declare("in a: int32[99999999999999999999]", NULL, NULL),
                 IRON_EINVAL,
                 "argument 'a' dimension 0 is 99999999999999999999, out of "
                 "range: expected 1 to 9223372036854775807");
    ASSERT_FAILS(declare("in a: T[4, 99999999999999999999999]", NULL, NULL),
                 IRON_EINVAL, "argument 'a' dimension 1 is "
                              "99999999999999999999999, out of range");
    /* Each dim fits, the product does not: no tensor has that shape. */
    ASSERT_FAILS(declare("in a, out b: T[N, 4294967296, 4294967296]", NULL,
                         NULL),
                 IRON_EINVAL,
                 "argument 'b' has more than 2^63-1 elements: its fixed dims "
                 "multiply past 64 bits at dimension 2 (4294967296 x "
                 "4294967296)");
    /* Elements fit, bytes of a fixed dtype do not. */
    ASSERT_FAILS(declare("in a: int64[2305843009213693952]", NULL, NULL),
                 IRON_EINVAL,
                 "argument 'a' is too large: its fixed dims give "
                 "2305843009213693952 elements of int64, 8 bytes each");
    ASSERT_OK(declare("in a: int8[9223372036854775807]", NULL, NULL));
    ASSERT_OK(declare("in a: T[2305843009213693952]", NULL, NULL));
}

/* A parameter or scalar named like a variable of the args: the design
 * would see two different things called N. */
TEST(overflow_decl_name_clashes)
{
    ASSERT_FAILS(declare("in a: int32[N], out b: int32[N]", "N: int = 4",
                         NULL),
                 IRON_EINVAL,
                 "jit params \"N: int = 4\": parameter 'N' has the name of "
                 "the size variable N of argument 'a' (argument 0, "
                 "dimension 0)");
    ASSERT_CONTAINS(iron_last_error(), "two different things called N");
    ASSERT_FAILS(declare("in a: T[4, M], out b", "tile: int = 4, M: int",
                         NULL),
                 IRON_EINVAL,
                 "parameter 'M' has the name of the size variable M of "
                 "argument 'a' (argument 0, dimension 1)");
    ASSERT_FAILS(declare("in a, out b: T[4]", "T: dtype = int32", NULL),
                 IRON_EINVAL,
                 "parameter 'T' has the name of the type variable T of "
                 "argument 'b' (argument 1)");
    ASSERT_FAILS(declare("in a: int32[N]", NULL, "k, N = 0"), IRON_EINVAL,
                 "jit scalars \"k, N = 0\": scalar 'N' has the name of the "
                 "size variable N of argument 'a' (argument 0, dimension 0)");
    ASSERT_FAILS(declare("in a: U[4]", NULL, "U"), IRON_EINVAL,
                 "scalar 'U' has the name of the type variable U of "
                 "argument 'a'");
    ASSERT_FAILS(declare("in a", "tile: int = 4", "tile = 2"), IRON_EINVAL,
                 "scalar 'tile' has the name of compile-time parameter 0 "
                 "('tile')");
    /* Names differ by case: no clash (the examples use m for M). */
    ASSERT_OK(declare("in a: int16[M, K], out c: T[M, N]",
                      "m: int = 64, k: int = 64, n: int = 32, t: dtype = "
                      "int8",
                      "count, offset = 0"));
}

/* Found by fuzz_tap: the visit count saturated at INT64_MAX and so
 * equalled an object of INT64_MAX elements. */
TEST(overflow_dims_check_count_does_not_saturate)
{
    int64_t sizes[3] = { 3037000500, 14, 1099511627775 };
    int64_t strides[3] = { 19, 5, 40092 };
    iron_tap d = iron_tap_make(0, 3, sizes, strides);
    ASSERT_FAILS(iron__dims_check(&d, IRON__DIMS_MEMTILE, IRON_INT32,
                                  INT64_MAX, "fifo 'x'"),
                 IRON_EDESIGN, "visits more than 2^63 elements");
}
