/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tensor_allclose.c - iron_tensor_allclose: numpy's rule (|a - e| <=
 * atol + rtol * |e|, asymmetric), exact integers, NaN and infinities,
 * bfloat16 against float32, broadcasting, views, the report, and every
 * argument it refuses.
 */
#include <math.h>
#include <stdint.h>

#include "core/core.h"
#include "test.h"

/* A 1-D tensor of dt holding values[0..n). */
static iron_tensor *vec(iron_dtype dt, int n, const double *values)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_zeros(dt, IRON_SHAPE(n), &t));
    for (int i = 0; i < n; i++)
        ASSERT_OK(iron_tensor_set_element(t, i, values[i]));
    return t;
}

/* One-element float64 tensors a and e, compared. */
static iron_allclose_result one(double a, double e, double rtol, double atol,
                                int equal_nan)
{
    iron_tensor *ta = vec(IRON_FLOAT64, 1, &a), *te = vec(IRON_FLOAT64, 1, &e);
    iron_allclose_options o = { .size = sizeof o, .equal_nan = equal_nan };
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(ta, te, rtol, atol, &o, &r));
    iron_tensor_free(ta);
    iron_tensor_free(te);
    ASSERT_EQ(r.count, 1);
    ASSERT_EQ(r.mismatches, !r.all_close);
    ASSERT_EQ(r.report == NULL, r.all_close);
    iron_free(r.report);
    r.report = NULL;
    return r;
}

#define CLOSE(a, e, rtol, atol) ASSERT_EQ(one(a, e, rtol, atol, 0).all_close, 1)
#define APART(a, e, rtol, atol) ASSERT_EQ(one(a, e, rtol, atol, 0).all_close, 0)

TEST(allclose_ints_exact)
{
    iron_tensor *a = test_arange_shape(IRON_INT32, IRON_SHAPE(3, 4), 0, 1);
    iron_tensor *e = test_arange_shape(IRON_INT32, IRON_SHAPE(3, 4), 0, 1);
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    ASSERT_EQ(r.count, 12);
    ASSERT_EQ(r.mismatches, 0);
    ASSERT(r.report == NULL);
    ASSERT_STR_EQ(iron_last_error(), "");
    /* One off by one: the multi-dimensional index, both values and the
     * difference (actual - expected). */
    ASSERT_OK(iron_tensor_set_element(e, 6, 7));
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 0);
    ASSERT_EQ(r.mismatches, 1);
    ASSERT_STR_EQ(r.report,
                  "1 of 12 elements differs (exact):\n"
                  "  [1, 2]: actual 6, expected 7, difference -1\n"
                  "largest differences: absolute 1, relative "
                  "0.142857143\n");
    iron_free(r.report);
    /* An integer tolerance is numpy's rule on exact values. */
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 1, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    ASSERT_OK(iron_tensor_set_element(e, 6, 8));
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 1, NULL, &r));
    ASSERT_EQ(r.all_close, 0);
    ASSERT_CONTAINS(r.report, "(rtol 0, atol 1):");
    iron_free(r.report);
    iron_tensor_free(a);
    iron_tensor_free(e);
}

/* 64-bit integers are compared exactly, not through double (where 2^60
 * and 2^60 + 1 are one value), across signedness and widths. */
TEST(allclose_ints_64_bit)
{
    iron_tensor *a = NULL, *e = NULL, *u = NULL, *s8 = NULL;
    ASSERT_OK(iron_tensor_zeros(IRON_INT64, IRON_SHAPE(3), &a));
    ASSERT_OK(iron_tensor_zeros(IRON_INT64, IRON_SHAPE(3), &e));
    int64_t *pa = iron_tensor_data(a), *pe = iron_tensor_data(e);
    pa[0] = pe[0] = INT64_MIN;
    pa[1] = (int64_t)1 << 60;
    pe[1] = ((int64_t)1 << 60) + 1;
    pa[2] = pe[2] = INT64_MAX;
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 0, NULL, &r));
    ASSERT_EQ(r.mismatches, 1);
    ASSERT_CONTAINS(r.report, "  [1]: actual 1152921504606846976, expected "
                              "1152921504606846977, difference -1\n");
    iron_free(r.report);
    /* uint64 against int64: the values, not the bits. */
    ASSERT_OK(iron_tensor_zeros(IRON_UINT64, IRON_SHAPE(3), &u));
    uint64_t *pu = iron_tensor_data(u);
    pu[0] = UINT64_MAX;
    pu[1] = (uint64_t)1 << 60;
    pu[2] = (uint64_t)INT64_MAX;
    ASSERT_OK(iron_tensor_allclose(u, a, 0, 0, NULL, &r));
    ASSERT_EQ(r.mismatches, 1);
    ASSERT_CONTAINS(r.report, "  [0]: actual 18446744073709551615, expected "
                              "-9223372036854775808, difference "
                              "18446744073709551615\n");   /* saturated */
    iron_free(r.report);
    /* int8 against int64 (widths differ, values agree). */
    double small[3] = { -128, 5, 127 };
    s8 = vec(IRON_INT8, 3, small);
    iron_tensor *w = vec(IRON_INT64, 3, small);
    ASSERT_OK(iron_tensor_allclose(s8, w, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    iron_tensor_free(w);
    iron_tensor_free(s8);
    iron_tensor_free(u);
    iron_tensor_free(a);
    iron_tensor_free(e);
}

/* The boundaries of |a - e| <= atol + rtol * |e|, on values exact in
 * binary. */
TEST(allclose_tolerance_boundaries)
{
    CLOSE(1.5, 1.0, 0, 0.5);        /* equal to atol */
    APART(1.5, 1.0, 0, 0.4999);
    CLOSE(3.0, 2.0, 0.5, 0);        /* equal to rtol x |e| */
    APART(3.0, 2.0, 0.4, 0);
    CLOSE(2.0, 3.0, 0.4, 0);        /* asymmetric: e scales the tolerance */
    CLOSE(3.0, 2.0, 0.25, 0.5);     /* atol + rtol x |e| = 0.5 + 0.5 */
    APART(3.0, 2.0, 0.25, 0.4375);
    CLOSE(-3.0, -2.0, 0.5, 0);      /* |e| */
    CLOSE(0.0, -0.0, 0, 0);
    APART(1e-300, 0, 0, 0);
    CLOSE(1e-300, 0, 0, 1e-300);
    /* numpy's defaults for floats, as a caller would pass them. */
    CLOSE(1.0 + 1e-6, 1.0, 1e-5, 1e-8);
    APART(1.0 + 1e-4, 1.0, 1e-5, 1e-8);
}

TEST(allclose_nan)
{
    ASSERT_EQ(one(NAN, NAN, 0.1, 0.1, 0).all_close, 0);   /* numpy */
    ASSERT_EQ(one(NAN, NAN, 0, 0, 1).all_close, 1);       /* equal_nan */
    ASSERT_EQ(one(NAN, 1.0, 1e9, 1e9, 1).all_close, 0);
    ASSERT_EQ(one(1.0, NAN, 1e9, 1e9, 1).all_close, 0);
    /* NaN pairs are left out of the largest differences; the report
     * shows the NaN. */
    double av[2] = { NAN, 2.0 }, ev[2] = { 1.0, 1.5 };
    iron_tensor *a = vec(IRON_FLOAT32, 2, av), *e = vec(IRON_FLOAT32, 2, ev);
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 0, NULL, &r));
    ASSERT_EQ(r.mismatches, 2);
    ASSERT_DBL_NEAR(r.max_abs_diff, 0.5, 0);
    ASSERT_CONTAINS(r.report, "  [0]: actual nan, expected 1, difference "
                              "nan\n");
    iron_free(r.report);
    iron_tensor_free(a);
    iron_tensor_free(e);
}

TEST(allclose_infinities)
{
    CLOSE(INFINITY, INFINITY, 0, 0);
    CLOSE(-INFINITY, -INFINITY, 0, 0);
    APART(INFINITY, -INFINITY, 1, 1);
    APART(INFINITY, 1e308, 1, 1e308);   /* no tolerance reaches inf */
    APART(1.0, INFINITY, 1, 1);
    iron_allclose_result r = one(INFINITY, 1.0, 0, 0, 0);
    ASSERT(isinf(r.max_abs_diff));
}

/* bfloat16 compares through the library's conversion: against a float32
 * reference, with the tolerance its 8 significand bits need. */
TEST(allclose_bfloat16)
{
    double v[3] = { 1.75, 0.1, -3.0 };
    iron_tensor *b = vec(IRON_BFLOAT16, 3, v), *f = vec(IRON_FLOAT32, 3, v);
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(b, f, 1e-2, 1e-2, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    /* Exactly, bfloat16's 0.1 (0.10009765625) is not float32's. */
    ASSERT_OK(iron_tensor_allclose(b, f, 0, 0, NULL, &r));
    ASSERT_EQ(r.mismatches, 1);
    ASSERT_CONTAINS(r.report, "  [1]: actual 0.100097656, expected "
                              "0.100000001, difference 9.76547599e-05\n");
    iron_free(r.report);
    /* bfloat16 against bfloat16. */
    iron_tensor *b2 = vec(IRON_BFLOAT16, 3, v);
    ASSERT_OK(iron_tensor_allclose(b, b2, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    iron_tensor_free(b2);
    iron_tensor_free(b);
    iron_tensor_free(f);
}

/* expected has actual's shape or broadcasts to it; actual never
 * broadcasts. */
TEST(allclose_shapes)
{
    iron_tensor *a = test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(4, 3));
    iron_tensor *row = NULL, *col = NULL, *scalar = NULL, *bad = NULL,
                *big = NULL;
    ASSERT_OK(iron_tensor_full(IRON_FLOAT32, IRON_SHAPE(3), 0, &row));
    ASSERT_OK(iron_tensor_full(IRON_FLOAT32, IRON_SHAPE(4, 1), 0, &col));
    ASSERT_OK(iron_tensor_full(IRON_FLOAT32, IRON_SHAPE(1), 0, &scalar));
    ASSERT_OK(iron_tensor_full(IRON_FLOAT32, IRON_SHAPE(2, 3), 0, &bad));
    ASSERT_OK(iron_tensor_full(IRON_FLOAT32, IRON_SHAPE(1, 4, 3), 0, &big));
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(a, row, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    ASSERT_OK(iron_tensor_allclose(a, col, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    ASSERT_OK(iron_tensor_allclose(a, scalar, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    ASSERT_EQ(r.count, 12);
    /* A broadcast value that differs is reported at actual's indices. */
    ASSERT_OK(iron_tensor_set_element(col, 2, 1));
    ASSERT_OK(iron_tensor_allclose(a, col, 0, 0, NULL, &r));
    ASSERT_EQ(r.mismatches, 3);
    ASSERT_CONTAINS(r.report, "  [2, 0]: actual 0, expected 1, difference "
                              "-1\n  [2, 1]: ");
    iron_free(r.report);
    r.all_close = 1;
    ASSERT_FAILS(iron_tensor_allclose(a, bad, 0, 0, NULL, &r), IRON_ESHAPE,
                 "iron_tensor_allclose: actual is float32[4, 3] and expected "
                 "float32[2, 3]: expected must have actual's shape or "
                 "broadcast to it");
    ASSERT_EQ(r.all_close, 0);
    ASSERT(r.report == NULL);
    ASSERT_FAILS(iron_tensor_allclose(a, big, 0, 0, NULL, &r), IRON_ESHAPE,
                 "expected float32[1, 4, 3]");
    ASSERT_FAILS(iron_tensor_allclose(row, a, 0, 0, NULL, &r), IRON_ESHAPE,
                 "actual is float32[3] and expected float32[4, 3]");
    iron_tensor_free(a);
    iron_tensor_free(row);
    iron_tensor_free(col);
    iron_tensor_free(scalar);
    iron_tensor_free(bad);
    iron_tensor_free(big);
}

/* Strided views compare element by element through their strides. */
TEST(allclose_views)
{
    iron_tensor *m = test_arange_shape(IRON_INT32, IRON_SHAPE(4, 4), 0, 1);
    iron_tensor *c1 = NULL, *t = NULL;
    ASSERT_OK(iron_tensor_slice(m, 1, 1, 2, 1, &c1));   /* column 1 */
    double want[4] = { 1, 5, 9, 13 };
    iron_tensor *e = vec(IRON_INT32, 4, want);
    ASSERT_OK(iron_tensor_reshape(e, IRON_SHAPE(4, 1), &t));
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(c1, t, 0, 0, NULL, &r));
    ASSERT_EQ(r.all_close, 1);
    ASSERT_OK(iron_tensor_set_element(e, 3, 12));
    ASSERT_OK(iron_tensor_allclose(c1, t, 0, 0, NULL, &r));
    ASSERT_EQ(r.mismatches, 1);
    ASSERT_CONTAINS(r.report, "  [3, 0]: actual 13, expected 12, "
                              "difference 1\n");
    iron_free(r.report);
    iron_tensor_free(t);
    iron_tensor_free(e);
    iron_tensor_free(c1);
    iron_tensor_free(m);
}

/* The report lists max_listed mismatches (10 by default) and counts the
 * rest. */
TEST(allclose_report_length)
{
    iron_tensor *a = test_arange(IRON_INT16, 30), *e = test_zeros(IRON_INT16,
                                                                  30);
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 0, NULL, &r));
    ASSERT_EQ(r.mismatches, 29);
    ASSERT_CONTAINS(r.report, "29 of 30 elements differ (exact); the first "
                              "10:\n  [1]: ");
    ASSERT_CONTAINS(r.report, "  [10]: actual 10, expected 0, difference "
                              "10\n  ... and 19 more\nlargest differences: "
                              "absolute 29, relative inf\n");
    iron_free(r.report);
    iron_allclose_options o = { .size = sizeof o, .max_listed = 2 };
    ASSERT_OK(iron_tensor_allclose(a, e, 0, 0, &o, &r));
    ASSERT_CONTAINS(r.report, "the first 2:\n  [1]: actual 1, expected 0, "
                              "difference 1\n  [2]: actual 2, expected 0, "
                              "difference 2\n  ... and 27 more\n");
    iron_free(r.report);
    iron_tensor_free(a);
    iron_tensor_free(e);
}

/* Every argument refused, by name, with the result left "not close, no
 * report". */
TEST(allclose_errors)
{
    iron_tensor *i32 = test_zeros(IRON_INT32, 4), *f32 = test_zeros(
                                                      IRON_FLOAT32, 4);
    iron_allclose_result r = { .size = sizeof r };
    ASSERT_FAILS(iron_tensor_allclose(NULL, i32, 0, 0, NULL, &r),
                 IRON_EINVAL, "iron_tensor_allclose: actual is NULL");
    ASSERT_FAILS(iron_tensor_allclose(i32, NULL, 0, 0, NULL, &r),
                 IRON_EINVAL, "iron_tensor_allclose: expected is NULL");
    ASSERT_FAILS(iron_tensor_allclose(i32, i32, 0, 0, NULL, NULL),
                 IRON_EINVAL, "iron_tensor_allclose: result is NULL");
    iron_allclose_result small = { .size = 4 };
    ASSERT_FAILS(iron_tensor_allclose(i32, i32, 0, 0, NULL, &small),
                 IRON_EINVAL, "result.size is 4");
    ASSERT_FAILS(iron_tensor_allclose(i32, i32, -1e-5, 0, NULL, &r),
                 IRON_EINVAL, "rtol is -1e-05; expected a finite number >= 0");
    ASSERT_FAILS(iron_tensor_allclose(i32, i32, 0, NAN, NULL, &r),
                 IRON_EINVAL, "atol is nan");
    ASSERT_FAILS(iron_tensor_allclose(i32, i32, INFINITY, 0, NULL, &r),
                 IRON_EINVAL, "rtol is inf");
    iron_allclose_options o = { .size = 0 };
    ASSERT_FAILS(iron_tensor_allclose(i32, i32, 0, 0, &o, &r), IRON_EINVAL,
                 "opts.size is 0");
    o.size = sizeof o;
    o.max_listed = -1;
    ASSERT_FAILS(iron_tensor_allclose(i32, i32, 0, 0, &o, &r), IRON_EINVAL,
                 "opts.max_listed is -1");
    /* Integers against floats: refused, both types named. */
    r.all_close = 1;
    r.report = (char *)1;
    ASSERT_FAILS(iron_tensor_allclose(i32, f32, 0, 0, NULL, &r), IRON_EDTYPE,
                 "iron_tensor_allclose: actual is int32[4] and expected "
                 "float32[4]: integers compare with integers and floats "
                 "with floats");
    ASSERT_EQ(r.all_close, 0);
    ASSERT(r.report == NULL);
    ASSERT_FAILS(iron_tensor_allclose(f32, i32, 0, 0, NULL, &r), IRON_EDTYPE,
                 "actual is float32[4] and expected int32[4]");
    iron_tensor_free(i32);
    iron_tensor_free(f32);
}

/* The report's allocation failing is IRON_ENOMEM, nothing leaked, the
 * result "not close, no report". */
TEST(allclose_alloc_failure_loop)
{
    iron_tensor *a = test_arange(IRON_INT32, 64), *e = test_zeros(IRON_INT32,
                                                                  64);
    long n;
    for (n = 1; n < 100; n++) {
        iron_allclose_result r = { .size = sizeof r };
        iron__alloc_fail_at(n);
        iron_status s = iron_tensor_allclose(a, e, 0, 0, NULL, &r);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            ASSERT_EQ(r.mismatches, 63);
            iron_free(r.report);
            break;
        }
        if (s != IRON_ENOMEM)
            TEST_FAIL_("allocation %ld failing gave %s: %s", n,
                       iron_status_name(s), iron_last_error());
        ASSERT(r.report == NULL);
        ASSERT_EQ(r.all_close, 0);
    }
    ASSERT_LT(n, 100);
    ASSERT_GT(n, 1);
    iron_tensor_free(a);
    iron_tensor_free(e);
    test_assert_no_leaks();
}
