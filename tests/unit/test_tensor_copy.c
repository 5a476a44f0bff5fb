/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tensor_copy.c - *_like factories, copies in and out of caller
 * memory (exact sizes), clones of strided views, contiguous and assign.
 */
#include "test.h"

static iron_tensor *arange_shape(iron_dtype dt, iron_shape s)
{
    return test_arange_shape(dt, s, 0, 1);
}

TEST(tensor_like_factories)
{
    iron_tensor *t = arange_shape(IRON_BFLOAT16, IRON_SHAPE(3, 5)), *l = NULL;
    ASSERT_OK(iron_tensor_empty_like(t, &l));
    ASSERT_EQ(iron_tensor_dtype(l), IRON_BFLOAT16);
    ASSERT_EQ(iron_tensor_shape(l).ndim, 2);
    ASSERT_EQ(iron_tensor_shape(l).dims[1], 5);
    ASSERT(iron_tensor_device(l) == iron_tensor_device(t));
    iron_tensor_free(l);
    ASSERT_OK(iron_tensor_zeros_like(t, &l));
    ASSERT_EQ(test_at(l, 14), 0);
    iron_tensor_free(l);
    ASSERT_OK(iron_tensor_ones_like(t, &l));
    ASSERT_EQ(test_at(l, 14), 1);
    iron_tensor_free(l);
    ASSERT_OK(iron_tensor_full_like(t, 2.5, &l));
    ASSERT_DBL_NEAR(test_at(l, 7), 2.5, 0.0);
    iron_tensor_free(l);
    /* Like a strided view: its shape, contiguous. */
    iron_tensor *v = NULL;
    ASSERT_OK(iron_tensor_slice(t, 1, 0, 5, 2, &v));
    ASSERT_OK(iron_tensor_zeros_like(v, &l));
    ASSERT_EQ(iron_tensor_is_contiguous(l), 1);
    ASSERT_EQ(iron_tensor_numel(l), 9);
    iron_tensor_free(l);
    iron_tensor_free(v);
    ASSERT_FAILS(iron_tensor_ones_like(NULL, &l), IRON_EINVAL,
                 "iron_tensor_ones_like: tensor is NULL");
    ASSERT_FAILS(iron_tensor_full_like(t, 1, NULL), IRON_EINVAL,
                 "iron_tensor_full_like: out is NULL");
    iron_tensor_free(t);
}

TEST(tensor_copy_in_and_out)
{
    iron_tensor *t = test_zeros_shape(IRON_INT32, IRON_SHAPE(2, 3));
    int32_t in[6] = { 1, 2, 3, 4, 5, 6 }, out[6] = { 0 };
    ASSERT_OK(iron_tensor_copy_from(t, in, sizeof in));
    ASSERT_EQ(test_at(t, 5), 6);
    ASSERT_OK(iron_tensor_copy_to(t, out, sizeof out));
    ASSERT_EQ(out[4], 5);
    ASSERT_FAILS(iron_tensor_copy_from(t, in, 20), IRON_ESHAPE,
                 "iron_tensor_copy_from: bytes is 20; int32[2, 3] takes "
                 "exactly 24 (6 elements x 4 bytes)");
    ASSERT_FAILS(iron_tensor_copy_to(t, out, 28), IRON_ESHAPE,
                 "iron_tensor_copy_to: bytes is 28; int32[2, 3] takes "
                 "exactly 24");
    ASSERT_FAILS(iron_tensor_copy_to(t, NULL, 24), IRON_EINVAL,
                 "iron_tensor_copy_to: dst is NULL");
    ASSERT_FAILS(iron_tensor_copy_from(NULL, in, 24), IRON_EINVAL,
                 "iron_tensor_copy_from: tensor is NULL");

    /* Through a strided view: column 1 of the 2 x 3. */
    iron_tensor *col = NULL;
    ASSERT_OK(iron_tensor_slice(t, 1, 1, 2, 1, &col));
    int32_t two[2] = { 0 };
    ASSERT_OK(iron_tensor_copy_to(col, two, sizeof two));
    ASSERT_EQ(two[0], 2);
    ASSERT_EQ(two[1], 5);
    two[0] = -2;
    two[1] = -5;
    ASSERT_OK(iron_tensor_copy_from(col, two, sizeof two));
    ASSERT_EQ(test_at(t, 1), -2);
    ASSERT_EQ(test_at(t, 4), -5);
    ASSERT_EQ(test_at(t, 3), 4);
    iron_tensor_free(col);
    iron_tensor_free(t);
}

TEST(tensor_copy_clone_and_contiguous)
{
    iron_tensor *t = arange_shape(IRON_UINT16, IRON_SHAPE(3, 4)), *c = NULL;
    ASSERT_OK(iron_tensor_copy(t, &c));
    ASSERT(iron_tensor_data(c) != iron_tensor_data(t));
    ASSERT_EQ(test_at(c, 11), 11);
    ASSERT_OK(iron_tensor_set_element(c, 0, 99));
    ASSERT_EQ(test_at(t, 0), 0);  /* a clone, not a view */
    iron_tensor_free(c);

    iron_tensor *tr = NULL;  /* the transpose, 4 x 3 */
    ASSERT_OK(iron_tensor_view(t, 0, IRON_SHAPE(4, 3),
                               (const int64_t[]){ 1, 4 }, &tr));
    ASSERT_OK(iron_tensor_copy(tr, &c));
    ASSERT_EQ(iron_tensor_is_contiguous(c), 1);
    const uint16_t *p = iron_tensor_data(c);
    static const uint16_t want[] = { 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11 };
    for (int i = 0; i < 12; i++)
        ASSERT_EQ(p[i], want[i]);
    iron_tensor_free(c);

    ASSERT_OK(iron_tensor_contiguous(tr, &c));  /* strided: a copy */
    ASSERT(iron_tensor_data(c) != iron_tensor_data(tr));
    ASSERT_EQ(test_at(c, 1), 4);
    iron_tensor_free(c);
    ASSERT_OK(iron_tensor_contiguous(t, &c));   /* contiguous: shared */
    ASSERT(iron_tensor_data(c) == iron_tensor_data(t));
    iron_tensor_free(c);
    ASSERT_FAILS(iron_tensor_copy(NULL, &c), IRON_EINVAL, "tensor is NULL");
    ASSERT_FAILS(iron_tensor_contiguous(NULL, &c), IRON_EINVAL,
                 "tensor is NULL");
    iron_tensor_free(tr);
    iron_tensor_free(t);
}

TEST(tensor_assign)
{
    iron_tensor *t = arange_shape(IRON_INT64, IRON_SHAPE(4, 4)), *d = NULL;
    iron_tensor *src = NULL;
    ASSERT_OK(iron_tensor_full(IRON_INT64, IRON_SHAPE(2, 4), -1, &src));
    ASSERT_OK(iron_tensor_slice(t, 0, 1, 4, 2, &d));  /* rows 1 and 3 */
    ASSERT_OK(iron_tensor_assign(d, src));
    ASSERT_EQ(test_at(t, 4), -1);
    ASSERT_EQ(test_at(t, 15), -1);
    ASSERT_EQ(test_at(t, 8), 8);
    iron_tensor_free(d);

    /* Overlapping: transpose the matrix in place through a view. */
    iron_tensor *m = arange_shape(IRON_INT64, IRON_SHAPE(3, 3)), *mt = NULL;
    ASSERT_OK(iron_tensor_view(m, 0, IRON_SHAPE(3, 3),
                               (const int64_t[]){ 1, 3 }, &mt));
    ASSERT_OK(iron_tensor_assign(m, mt));
    static const int want[] = { 0, 3, 6, 1, 4, 7, 2, 5, 8 };
    for (int i = 0; i < 9; i++)
        ASSERT_EQ(test_at(m, i), want[i]);
    iron_tensor_free(mt);
    iron_tensor_free(m);

    iron_tensor *f = test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(2, 4));
    ASSERT_FAILS(iron_tensor_assign(f, src), IRON_EDTYPE,
                 "iron_tensor_assign: dst is float32[2, 4], src is "
                 "int64[2, 4]; the dtypes must match");
    ASSERT_FAILS(iron_tensor_assign(t, src), IRON_ESHAPE,
                 "dst is int64[4, 4], src is int64[2, 4]; the shapes must "
                 "match");
    ASSERT_FAILS(iron_tensor_assign(NULL, src), IRON_EINVAL, "dst is NULL");
    iron_tensor_free(f);
    iron_tensor_free(src);
    iron_tensor_free(t);
}
