/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tensor_view.c - reshapes, strided views and slices: shared memory,
 * the reach check, freeing in any order, and jit calls with contiguous
 * views (accepted) and strided ones (refused by name).
 */
#include <stdlib.h>

#include "designs/designs.h"
#include "test.h"

static iron_tensor *arange_shape(iron_dtype dt, iron_shape s)
{
    return test_arange_shape(dt, s, 0, 1);
}

TEST(tensor_reshape_shares_memory)
{
    iron_tensor *t = arange_shape(IRON_INT32, IRON_SHAPE(4, 6)), *r = NULL;
    ASSERT_OK(iron_tensor_reshape(t, IRON_SHAPE(2, 3, 4), &r));
    ASSERT(iron_tensor_data(r) == iron_tensor_data(t));
    ASSERT_EQ(iron_tensor_shape(r).ndim, 3);
    ASSERT_EQ(iron_tensor_is_contiguous(r), 1);
    const int64_t *st = iron_tensor_strides(r);
    ASSERT_EQ(st[0], 12);
    ASSERT_EQ(st[1], 4);
    ASSERT_EQ(st[2], 1);
    ASSERT_OK(iron_tensor_set_element(r, 13, -5));
    ASSERT_EQ(test_at(t, 13), -5);
    iron_tensor *inferred = NULL;
    ASSERT_OK(iron_tensor_reshape(t, IRON_SHAPE(3, -1), &inferred));
    ASSERT_EQ(iron_tensor_shape(inferred).dims[1], 8);
    iron_tensor_free(inferred);
    ASSERT_OK(iron_tensor_reshape(t, IRON_SHAPE(-1), &inferred));
    ASSERT_EQ(iron_tensor_shape(inferred).dims[0], 24);
    iron_tensor_free(inferred);
    iron_tensor_free(r);
    iron_tensor_free(t);
    ASSERT(iron_tensor_strides(NULL) == NULL);
    ASSERT_EQ(iron_tensor_is_contiguous(NULL), 0);
}

TEST(tensor_reshape_errors)
{
    iron_tensor *t = arange_shape(IRON_INT32, IRON_SHAPE(4, 6)), *r = t;
    ASSERT_FAILS(iron_tensor_reshape(t, IRON_SHAPE(5, 5), &r), IRON_ESHAPE,
                 "iron_tensor_reshape: cannot reshape int32[4, 6] (24 "
                 "elements) to [5, 5] (25 elements): the element counts "
                 "must match");
    ASSERT(r == NULL);
    ASSERT_FAILS(iron_tensor_reshape(t, IRON_SHAPE(5, -1), &r), IRON_ESHAPE,
                 "cannot reshape int32[4, 6] (24 elements) to [5, -1]: the "
                 "other dims make 5 elements, which does not divide 24");
    ASSERT_FAILS(iron_tensor_reshape(t, IRON_SHAPE(-1, -1), &r), IRON_ESHAPE,
                 "shape dim 1 is -1; dims must be >= 1, or -1 for one dim");
    ASSERT_FAILS(iron_tensor_reshape(t, IRON_SHAPE(0, 24), &r), IRON_ESHAPE,
                 "shape dim 0 is 0");
    ASSERT_FAILS(iron_tensor_reshape(NULL, IRON_SHAPE(24), &r), IRON_EINVAL,
                 "tensor is NULL");
    ASSERT_FAILS(iron_tensor_reshape(t, IRON_SHAPE(24), NULL), IRON_EINVAL,
                 "out is NULL");
    iron_tensor *cols = NULL;
    ASSERT_OK(iron_tensor_slice(t, 1, 0, 3, 1, &cols));
    ASSERT_FAILS(iron_tensor_reshape(cols, IRON_SHAPE(12), &r), IRON_ESHAPE,
                 "int32[4, 3] is a non-contiguous view (strides [6, 1]); "
                 "only contiguous tensors reshape without copying");
    iron_tensor_free(cols);
    iron_tensor_free(t);
}

TEST(tensor_view_transpose_and_reverse)
{
    /* 3 x 4: 0 1 2 3 / 4 5 6 7 / 8 9 10 11 */
    iron_tensor *t = arange_shape(IRON_INT16, IRON_SHAPE(3, 4)), *v = NULL;
    ASSERT_OK(iron_tensor_view(t, 0, IRON_SHAPE(4, 3),
                               (const int64_t[]){ 1, 4 }, &v));
    ASSERT_EQ(iron_tensor_is_contiguous(v), 0);
    ASSERT_EQ(iron_tensor_strides(v)[0], 1);
    ASSERT_EQ(iron_tensor_strides(v)[1], 4);
    /* v row-major: 0 4 8 1 5 9 2 6 10 3 7 11 */
    static const int want[] = { 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11 };
    for (int i = 0; i < 12; i++)
        ASSERT_EQ(test_at(v, i), want[i]);
    ASSERT_EQ(iron_tensor_nbytes(v), 24);
    iron_tensor_free(v);

    /* Negative strides: the whole tensor backwards. */
    ASSERT_OK(iron_tensor_view(t, 11, IRON_SHAPE(3, 4),
                               (const int64_t[]){ -4, -1 }, &v));
    for (int i = 0; i < 12; i++)
        ASSERT_EQ(test_at(v, i), 11 - i);
    ASSERT(iron_tensor_data(v) ==
           (int16_t *)iron_tensor_data(t) + 11);
    iron_tensor_free(v);

    /* Zero stride: one row repeated. */
    ASSERT_OK(iron_tensor_view(t, 4, IRON_SHAPE(2, 4),
                               (const int64_t[]){ 0, 1 }, &v));
    ASSERT_EQ(test_at(v, 5), 5);
    iron_tensor_free(v);

    /* strides NULL: row-major, here a contiguous window. */
    ASSERT_OK(iron_tensor_view(t, 2, IRON_SHAPE(5), NULL, &v));
    ASSERT_EQ(iron_tensor_is_contiguous(v), 1);
    ASSERT_EQ(test_at(v, 0), 2);
    ASSERT_EQ(test_at(v, 4), 6);
    iron_tensor_free(v);
    iron_tensor_free(t);
}

TEST(tensor_view_out_of_range)
{
    iron_tensor *t = arange_shape(IRON_INT32, IRON_SHAPE(12)), *v = t;
    ASSERT_FAILS(iron_tensor_view(t, 10, IRON_SHAPE(4), NULL, &v),
                 IRON_EBOUNDS,
                 "iron_tensor_view: a view of int32[12] at offset 10 with "
                 "shape [4] and strides [1] reaches element 13 of its "
                 "storage, which holds elements 0..11");
    ASSERT(v == NULL);
    ASSERT_FAILS(iron_tensor_view(t, 0, IRON_SHAPE(2),
                                  (const int64_t[]){ -1 }, &v),
                 IRON_EBOUNDS, "reaches element -1 of its storage");
    ASSERT_FAILS(iron_tensor_view(t, -1, IRON_SHAPE(1), NULL, &v),
                 IRON_EBOUNDS, "reaches element -1");
    ASSERT_FAILS(iron_tensor_view(t, 0, IRON_SHAPE(2, 2),
                                  (const int64_t[]){ 6, 6 }, &v),
                 IRON_EBOUNDS, "reaches element 12");
    ASSERT_FAILS(iron_tensor_view(t, 0, IRON_SHAPE(2, 2),
                                  (const int64_t[]){ INT64_MAX, 1 }, &v),
                 IRON_EBOUNDS, "reaches past 2^63 elements");
    ASSERT_FAILS(iron_tensor_view(t, 0, IRON_SHAPE(0), NULL, &v),
                 IRON_ESHAPE, "shape dim 0 is 0");
    ASSERT_FAILS(iron_tensor_view(NULL, 0, IRON_SHAPE(1), NULL, &v),
                 IRON_EINVAL, "tensor is NULL");

    /* A view of a view may reach before its own start, within the
     * storage, but not past it. */
    iron_tensor *tail = NULL, *back = NULL;
    ASSERT_OK(iron_tensor_view(t, 6, IRON_SHAPE(6), NULL, &tail));
    ASSERT_OK(iron_tensor_view(tail, -6, IRON_SHAPE(3), NULL, &back));
    ASSERT_EQ(test_at(back, 0), 0);
    ASSERT_FAILS(iron_tensor_view(tail, -7, IRON_SHAPE(3), NULL, &v),
                 IRON_EBOUNDS, "reaches element -1 of its storage");
    ASSERT_FAILS(iron_tensor_view(tail, 0, IRON_SHAPE(7), NULL, &v),
                 IRON_EBOUNDS, "reaches element 12 of its storage");
    iron_tensor_free(back);
    iron_tensor_free(tail);
    iron_tensor_free(t);
}

TEST(tensor_slice)
{
    iron_tensor *t = arange_shape(IRON_FLOAT32, IRON_SHAPE(4, 8)), *s = NULL;
    ASSERT_OK(iron_tensor_slice(t, 0, 1, 3, 1, &s));  /* rows 1, 2 */
    ASSERT_EQ(iron_tensor_is_contiguous(s), 1);
    ASSERT_EQ(test_at(s, 0), 8);
    ASSERT_EQ(iron_tensor_numel(s), 16);
    iron_tensor_free(s);
    ASSERT_OK(iron_tensor_slice(t, 1, 1, 8, 3, &s));  /* cols 1, 4, 7 */
    ASSERT_EQ(iron_tensor_is_contiguous(s), 0);
    ASSERT_EQ(iron_tensor_shape(s).dims[1], 3);
    ASSERT_EQ(iron_tensor_strides(s)[1], 3);
    ASSERT_EQ(test_at(s, 2), 7);
    ASSERT_EQ(test_at(s, 3), 9);
    iron_tensor_free(s);
    ASSERT_OK(iron_tensor_slice(t, 0, 2, 3, 1, &s));  /* one row */
    ASSERT_EQ(iron_tensor_is_contiguous(s), 1);
    iron_tensor_free(s);
    ASSERT_FAILS(iron_tensor_slice(t, 1, 2, 9, 1, &s), IRON_EBOUNDS,
                 "slice 2:9:1 of dim 1 of float32[4, 8]; expected 0 <= "
                 "start < stop <= 8 and step >= 1");
    ASSERT_FAILS(iron_tensor_slice(t, 0, 0, 2, 0, &s), IRON_EBOUNDS,
                 "step >= 1");
    ASSERT_FAILS(iron_tensor_slice(t, 2, 0, 1, 1, &s), IRON_EINVAL,
                 "dim 2 is outside float32[4, 8] (valid 0..1)");
    iron_tensor_free(t);
}

typedef struct released {
    int calls;
} released;

static void on_release(void *ctx, void *data)
{
    (void)data;
    ((released *)ctx)->calls++;
}

TEST(tensor_view_outlives_base)
{
    int32_t *buf = aligned_alloc(64, 64);
    for (int i = 0; i < 16; i++)
        buf[i] = 100 + i;
    released r = { 0 };
    iron_tensor *t = NULL, *v = NULL, *vv = NULL;
    ASSERT_OK(iron_tensor_wrap(buf, 64, IRON_INT32, IRON_SHAPE(16),
                               on_release, &r, &t));
    ASSERT_OK(iron_tensor_view(t, 4, IRON_SHAPE(2, 2),
                               (const int64_t[]){ 4, 2 }, &v));
    ASSERT_OK(iron_tensor_reshape(t, IRON_SHAPE(4, 4), &vv));
    ASSERT_EQ(iron_tensor_is_wrapped(v), 1);
    iron_tensor_free(t);            /* base first */
    ASSERT_EQ(r.calls, 0);
    ASSERT_EQ(test_at(v, 3), 110);  /* still readable */
    iron_tensor_free(v);
    ASSERT_EQ(r.calls, 0);
    iron_tensor_free(vv);
    ASSERT_EQ(r.calls, 1);          /* the last one releases */
    free(buf);

    /* Library memory: the same order, no leak or double free. */
    iron_tensor *own = arange_shape(IRON_UINT8, IRON_SHAPE(32));
    ASSERT_OK(iron_tensor_slice(own, 0, 16, 32, 2, &v));
    iron_tensor_free(own);
    ASSERT_EQ(test_at(v, 7), 30);
    iron_tensor_free(v);
}

/* ------------------------------------------------------------------------
 * Views in jit calls
 * ------------------------------------------------------------------------ */

TEST(tensor_view_reshape_passed_to_jit)
{
    /* A 128 x 256 tensor where int32[N] is expected, after a reshape. */
    iron_tensor *a2 = arange_shape(IRON_INT32, IRON_SHAPE(128, 256));
    iron_tensor *b2 = NULL, *c2 = test_zeros_shape(IRON_INT32,
                                                   IRON_SHAPE(128, 256));
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(128, 256), 7, &b2));
    iron_tensor *a = NULL, *b = NULL, *c = NULL;
    ASSERT_OK(iron_tensor_reshape(a2, IRON_SHAPE(32768), &a));
    ASSERT_OK(iron_tensor_reshape(b2, IRON_SHAPE(-1), &b));
    ASSERT_OK(iron_tensor_reshape(c2, IRON_SHAPE(32768), &c));
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    ASSERT_OK(IRON_CALL(j, a, b, c));
    const int32_t *out = iron_tensor_data(c2);
    for (int i = 0; i < 32768; i++)
        if (out[i] != i + 7)
            TEST_FAIL_("c[%d] is %d; expected %d", i, out[i], i + 7);

    /* A contiguous slice with an offset: rows 64..127, flattened. */
    iron_tensor *rows = NULL, *flat = NULL, *half = NULL;
    ASSERT_OK(iron_tensor_slice(a2, 0, 64, 128, 1, &rows));
    ASSERT_OK(iron_tensor_reshape(rows, IRON_SHAPE(16384), &flat));
    iron_tensor *bb = NULL, *cc = test_zeros(IRON_INT32, 16384);
    ASSERT_OK(iron_tensor_view(b2, 0, IRON_SHAPE(16384), NULL, &half));
    bb = half;
    ASSERT_OK(IRON_CALL(j, flat, bb, cc));
    ASSERT_EQ(test_at(cc, 0), 64 * 256 + 7);
    ASSERT_EQ(test_at(cc, 16383), 32767 + 7);
    iron_tensor_free(half);
    iron_tensor_free(flat);
    iron_tensor_free(rows);
    iron_tensor_free(cc);

    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(a2);
    iron_tensor_free(b2);
    iron_tensor_free(c2);
    iron_jit_free(j);
}

TEST(tensor_view_strided_refused_by_jit)
{
    iron_tensor *big = arange_shape(IRON_INT32, IRON_SHAPE(2048));
    iron_tensor *every2 = NULL;
    ASSERT_OK(iron_tensor_slice(big, 0, 0, 2048, 2, &every2));
    iron_tensor *b = test_zeros(IRON_INT32, 1024);
    iron_tensor *c = test_zeros(IRON_INT32, 1024);
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    ASSERT_FAILS(IRON_CALL(j, every2, b, c), IRON_EARG,
                 "vector_op: argument 0 ('a') is a non-contiguous view "
                 "(int32[1024] with strides [2]); a call takes row-major "
                 "contiguous memory: pass iron_tensor_copy of it (or "
                 "iron_tensor_contiguous)");
    /* The pre-specialized path checks it too. */
    iron_spec *sp = NULL;
    ASSERT_OK(iron_jit_specialize(j, NULL, IRON_NO_PARAMS,
                                  IRON_TENSORS(b, b, c), &sp));
    ASSERT_FAILS(iron_spec_launch(sp, IRON_NO_SCALARS,
                                  IRON_TENSORS(b, every2, c)),
                 IRON_EARG, "argument 1 ('b') is a non-contiguous view");

    /* Views of one tensor: overlapping with a written argument is refused,
     * disjoint halves are fine. */
    iron_tensor *lo = NULL, *hi = NULL, *whole = NULL;
    ASSERT_OK(iron_tensor_view(big, 0, IRON_SHAPE(1024), NULL, &lo));
    ASSERT_OK(iron_tensor_view(big, 1024, IRON_SHAPE(1024), NULL, &hi));
    ASSERT_OK(iron_tensor_view(big, 512, IRON_SHAPE(1024), NULL, &whole));
    ASSERT_FAILS(IRON_CALL(j, lo, b, whole), IRON_EARG,
                 "vector_op: argument 2 ('c') shares memory with argument 0 "
                 "('a') (views of one tensor, or overlapping memory); a "
                 "tensor the call writes (out/inout) must not overlap "
                 "another argument");
    ASSERT_OK(IRON_CALL(j, lo, lo, hi));  /* inputs may share */
    /* The same bytes wrapped twice (two numpy views of one array handed
     * over separately) are caught by their addresses. */
    iron_tensor *w_lo = NULL, *w_mid = NULL;
    int32_t *mem = iron_tensor_data(big);
    ASSERT_OK(iron_tensor_wrap(mem, 4096, IRON_INT32, IRON_SHAPE(1024), NULL,
                               NULL, &w_lo));
    ASSERT_OK(iron_tensor_wrap(mem + 512, 4096, IRON_INT32, IRON_SHAPE(1024),
                               NULL, NULL, &w_mid));
    ASSERT_FAILS(IRON_CALL(j, w_lo, b, w_mid), IRON_EARG,
                 "argument 2 ('c') shares memory with argument 0 ('a')");
    ASSERT_OK(IRON_CALL(j, w_lo, w_mid, c));  /* inputs may share */
    iron_tensor_free(w_lo);
    iron_tensor_free(w_mid);
    ASSERT_EQ(test_at(big, 1024), 0);
    ASSERT_EQ(test_at(big, 1025), 2);
    ASSERT_EQ(test_at(big, 2047), 2 * 1023);
    iron_tensor_free(lo);
    iron_tensor_free(hi);
    iron_tensor_free(whole);
    iron_tensor_free(every2);
    iron_tensor_free(big);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}
