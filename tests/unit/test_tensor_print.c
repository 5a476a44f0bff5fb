/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tensor_print.c - tensors as numpy prints them: each expected
 * string below is numpy 1.24's repr() and str() of the same array, so the
 * layout, column widths, wrapping, summaries and float styles match.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test.h"

/* The repr and str forms of t, each checked exactly. */
static void expect(const iron_tensor *t, const char *repr, const char *str)
{
    char *text = NULL;
    ASSERT_OK(iron_tensor_format(t, NULL, &text));
    ASSERT_STR_EQ(text, repr);
    iron_free(text);
    iron_print_options plain = { .size = sizeof plain, .plain = 1 };
    ASSERT_OK(iron_tensor_format(t, &plain, &text));
    ASSERT_STR_EQ(text, str);
    iron_free(text);
}

static iron_tensor *from(iron_dtype dt, iron_shape s, const double *v)
{
    iron_tensor *t = test_zeros_shape(dt, s);
    for (int64_t i = 0; i < iron_tensor_numel(t); i++)
        ASSERT_OK(iron_tensor_set_element(t, i, v[i]));
    return t;
}

static iron_tensor *arange_shape(iron_dtype dt, iron_shape s)
{
    return test_arange_shape(dt, s, 0, 1);
}

TEST(tensor_print_integers)
{
    iron_tensor *t = arange_shape(IRON_INT32, IRON_SHAPE(3, 4));
    expect(t, "array([[ 0,  1,  2,  3],\n       [ 4,  5,  6,  7],\n       "
              "[ 8,  9, 10, 11]], dtype=int32)",
           "[[ 0  1  2  3]\n [ 4  5  6  7]\n [ 8  9 10 11]]");
    iron_tensor_free(t);

    t = arange_shape(IRON_INT8, IRON_SHAPE(2, 3, 4));
    expect(t, "array([[[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n      "
              "  [ 8,  9, 10, 11]],\n\n       [[12, 13, 14, 15],\n        "
              "[16, 17, 18, 19],\n        [20, 21, 22, 23]]], dtype=int8)",
           "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n [[12 13 "
           "14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
    iron_tensor_free(t);

    /* A line wrapped at 75 characters. */
    t = arange_shape(IRON_UINT8, IRON_SHAPE(30));
    expect(t, "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, "
              "14, 15, 16,\n       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, "
              "27, 28, 29], dtype=uint8)",
           "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 "
           "21 22 23\n 24 25 26 27 28 29]");
    iron_tensor_free(t);

    t = arange_shape(IRON_UINT16, IRON_SHAPE(3));
    ASSERT_OK(iron_tensor_set_element(t, 0, 1));
    ASSERT_OK(iron_tensor_set_element(t, 1, 2));
    ASSERT_OK(iron_tensor_set_element(t, 2, 3));
    expect(t, "array([1, 2, 3], dtype=uint16)", "[1 2 3]");
    iron_tensor_free(t);
    t = from(IRON_UINT32, IRON_SHAPE(3), (const double[]){ 1, 2, 3 });
    expect(t, "array([1, 2, 3], dtype=uint32)", "[1 2 3]");
    iron_tensor_free(t);

    /* 64-bit extremes keep every digit; int64 is numpy's default type, so
     * its dtype is left out. */
    t = test_zeros_shape(IRON_UINT64, IRON_SHAPE(2));
    ((uint64_t *)iron_tensor_data(t))[0] = UINT64_MAX;
    expect(t, "array([18446744073709551615,                    0], "
              "dtype=uint64)",
           "[18446744073709551615                    0]");
    iron_tensor_free(t);
    t = test_zeros_shape(IRON_INT64, IRON_SHAPE(2));
    ((int64_t *)iron_tensor_data(t))[0] = INT64_MIN;
    ((int64_t *)iron_tensor_data(t))[1] = 5;
    expect(t, "array([-9223372036854775808,                    5])",
           "[-9223372036854775808                    5]");
    iron_tensor_free(t);

    /* Rows wrapped inside a 2-D array. */
    iron_tensor *m = NULL;
    m = test_arange_shape(IRON_INT64, IRON_SHAPE(2, 13), 0, 1000000);
    expect(m, "array([[       0,  1000000,  2000000,  3000000,  4000000,  "
              "5000000,\n         6000000,  7000000,  8000000,  9000000, "
              "10000000, 11000000,\n        12000000],\n       [13000000, "
              "14000000, 15000000, 16000000, 17000000, 18000000,\n        "
              "19000000, 20000000, 21000000, 22000000, 23000000, 24000000,\n"
              "        25000000]])",
           "[[       0  1000000  2000000  3000000  4000000  5000000  6000000  "
           "7000000\n   8000000  9000000 10000000 11000000 12000000]\n "
           "[13000000 14000000 15000000 16000000 17000000 18000000 19000000 "
           "20000000\n  21000000 22000000 23000000 24000000 25000000]]");
    iron_tensor_free(m);
}

TEST(tensor_print_floats)
{
    iron_tensor *t = from(IRON_FLOAT32, IRON_SHAPE(4),
                          (const double[]){ 1.5, 2.25, -3.0, 0.0 });
    expect(t, "array([ 1.5 ,  2.25, -3.  ,  0.  ], dtype=float32)",
           "[ 1.5   2.25 -3.    0.  ]");
    iron_tensor_free(t);

    t = from(IRON_FLOAT64, IRON_SHAPE(3), (const double[]){ 0.1, 1.0 / 3, 2 });
    expect(t, "array([0.1       , 0.33333333, 2.        ])",
           "[0.1        0.33333333 2.        ]");
    iron_tensor_free(t);

    /* float32's own shortest digits: 0.1f is not printed 0.100000001. */
    t = from(IRON_FLOAT32, IRON_SHAPE(2), (const double[]){ 0.1, 0.2 });
    expect(t, "array([0.1, 0.2], dtype=float32)", "[0.1 0.2]");
    iron_tensor_free(t);

    t = from(IRON_FLOAT64, IRON_SHAPE(2), (const double[]){ 1, 2 });
    expect(t, "array([1., 2.])", "[1. 2.]");
    iron_tensor_free(t);
    t = from(IRON_FLOAT64, IRON_SHAPE(2), (const double[]){ 0.0, -0.0 });
    expect(t, "array([ 0., -0.])", "[ 0. -0.]");
    iron_tensor_free(t);

    /* Scientific notation: a big range, or a tiny value. */
    t = from(IRON_FLOAT64, IRON_SHAPE(3),
             (const double[]){ 1e10, 1.5e10, -2 });
    expect(t, "array([ 1.0e+10,  1.5e+10, -2.0e+00])",
           "[ 1.0e+10  1.5e+10 -2.0e+00]");
    iron_tensor_free(t);
    t = from(IRON_FLOAT32, IRON_SHAPE(2), (const double[]){ 1e-5, 1 });
    expect(t, "array([1.e-05, 1.e+00], dtype=float32)", "[1.e-05 1.e+00]");
    iron_tensor_free(t);

    /* Non-finite values. */
    t = from(IRON_FLOAT64, IRON_SHAPE(4),
             (const double[]){ NAN, INFINITY, -INFINITY, 1.5 });
    expect(t, "array([ nan,  inf, -inf,  1.5])", "[ nan  inf -inf  1.5]");
    iron_tensor_free(t);
    t = from(IRON_FLOAT64, IRON_SHAPE(2), (const double[]){ NAN, INFINITY });
    expect(t, "array([nan, inf])", "[nan inf]");
    iron_tensor_free(t);
}

TEST(tensor_print_bfloat16)
{
    /* bfloat16 prints as a float with the digits that identify it as a
     * bfloat16: 0.3 is stored as 0.30078125 and printed 0.3. */
    iron_tensor *t = from(IRON_BFLOAT16, IRON_SHAPE(2, 2),
                          (const double[]){ 0.3, 1.5, -3, 256 });
    expect(t, "array([[  0.3,   1.5],\n       [ -3. , 256. ]], "
              "dtype=bfloat16)",
           "[[  0.3   1.5]\n [ -3.  256. ]]");
    iron_tensor_free(t);
    t = from(IRON_BFLOAT16, IRON_SHAPE(3),
             (const double[]){ 1.0 / 3, 1e-6, NAN });
    /* 1/3 needs three digits to be told from its bfloat16 neighbours
     * (0.33 reads back as another value); 1e-6 needs one. */
    expect(t, "array([3.34e-01, 1.00e-06,      nan], dtype=bfloat16)",
           "[3.34e-01 1.00e-06      nan]");
    iron_tensor_free(t);
}

TEST(tensor_print_summarised)
{
    iron_tensor *t = arange_shape(IRON_INT16, IRON_SHAPE(2000));
    expect(t, "array([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int16)",
           "[   0    1    2 ... 1997 1998 1999]");
    iron_tensor_free(t);

    t = arange_shape(IRON_INT32, IRON_SHAPE(100, 100));
    expect(t, "array([[   0,    1,    2, ...,   97,   98,   99],\n       "
              "[ 100,  101,  102, ...,  197,  198,  199],\n       [ 200,  "
              "201,  202, ...,  297,  298,  299],\n       ...,\n       "
              "[9700, 9701, 9702, ..., 9797, 9798, 9799],\n       [9800, "
              "9801, 9802, ..., 9897, 9898, 9899],\n       [9900, 9901, "
              "9902, ..., 9997, 9998, 9999]], dtype=int32)",
           "[[   0    1    2 ...   97   98   99]\n [ 100  101  102 ...  197  "
           "198  199]\n [ 200  201  202 ...  297  298  299]\n ...\n [9700 "
           "9701 9702 ... 9797 9798 9799]\n [9800 9801 9802 ... 9897 9898 "
           "9899]\n [9900 9901 9902 ... 9997 9998 9999]]");
    iron_tensor_free(t);

    /* Float widths come from the shown elements only. */
    t = test_arange_shape(IRON_FLOAT64, IRON_SHAPE(2, 1000), 0, 1.0 / 7);
    expect(t, "array([[0.00000000e+00, 1.42857143e-01, 2.85714286e-01, ...,"
              "\n        1.42428571e+02, 1.42571429e+02, 1.42714286e+02],\n  "
              "     [1.42857143e+02, 1.43000000e+02, 1.43142857e+02, ...,\n "
              "       2.85285714e+02, 2.85428571e+02, 2.85571429e+02]])",
           "[[0.00000000e+00 1.42857143e-01 2.85714286e-01 ... 1.42428571e+02"
           "\n  1.42571429e+02 1.42714286e+02]\n [1.42857143e+02 "
           "1.43000000e+02 1.43142857e+02 ... 2.85285714e+02\n  "
           "2.85428571e+02 2.85571429e+02]]");
    iron_tensor_free(t);
}

TEST(tensor_print_options_and_views)
{
    iron_tensor *t = arange_shape(IRON_INT32, IRON_SHAPE(10)), *v = NULL;
    char *text = NULL;
    iron_print_options o = { .size = sizeof o, .threshold = 5,
                             .edgeitems = 2 };
    ASSERT_OK(iron_tensor_format(t, &o, &text));
    ASSERT_STR_EQ(text, "array([0, 1, ..., 8, 9], dtype=int32)");
    iron_free(text);
    o.threshold = -1;  /* never summarise */
    o.linewidth = 20;
    ASSERT_OK(iron_tensor_format(t, &o, &text));
    ASSERT_STR_EQ(text, "array([0, 1, 2, 3,\n       4, 5, 6, 7,\n       "
                        "8, 9],\n      dtype=int32)");
    iron_free(text);

    /* A strided view prints its own elements. */
    ASSERT_OK(iron_tensor_slice(t, 0, 1, 10, 3, &v));
    ASSERT_OK(iron_tensor_format(v, NULL, &text));
    ASSERT_STR_EQ(text, "array([1, 4, 7], dtype=int32)");
    iron_free(text);
    iron_tensor_free(v);

    iron_tensor *f = NULL;
    ASSERT_OK(iron_tensor_full(IRON_FLOAT64, IRON_SHAPE(2), 1.0 / 3, &f));
    o = (iron_print_options){ .size = sizeof o, .precision = 3 };
    ASSERT_OK(iron_tensor_format(f, &o, &text));
    ASSERT_STR_EQ(text, "array([0.333, 0.333])");
    iron_free(text);
    iron_tensor_free(f);

    /* iron_tensor_print writes the default form and a newline. */
    FILE *tmp = tmpfile();
    ASSERT_OK(iron_tensor_print(t, tmp));
    rewind(tmp);
    char line[128] = { 0 };
    ASSERT(fgets(line, sizeof line, tmp) != NULL);
    ASSERT_STR_EQ(line,
                  "array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], dtype=int32)\n");
    fclose(tmp);

    o = (iron_print_options){ .size = 4 };
    ASSERT_FAILS(iron_tensor_format(t, &o, &text), IRON_EINVAL,
                 "iron_tensor_format: opts.size is 4; expected at least");
    o = (iron_print_options){ .size = sizeof o, .precision = -1 };
    ASSERT_FAILS(iron_tensor_format(t, &o, &text), IRON_EINVAL,
                 "precision -1 (expected 0..30)");
    ASSERT_FAILS(iron_tensor_format(NULL, NULL, &text), IRON_EINVAL,
                 "iron_tensor_format: tensor is NULL");
    ASSERT_FAILS(iron_tensor_format(t, NULL, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT_FAILS(iron_tensor_print(t, NULL), IRON_EINVAL, "file is NULL");
    iron_tensor_free(t);
}
