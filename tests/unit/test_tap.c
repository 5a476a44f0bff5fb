/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tap.c - tensor access patterns: counting, the bounds check, and the
 * emulator's pattern copy against a naive nested loop.
 */
#include "design/design.h"
#include "emu/emu.h"
#include "test.h"

TEST(tap_linear_and_count)
{
    iron_tap t = iron_tap_linear(100);
    ASSERT_EQ(iron_tap_count(&t), 100);
    ASSERT_OK(iron_tap_check(&t, 100));
    int64_t sizes[3] = { 2, 3, 4 }, strides[3] = { 100, 10, 1 };
    t = iron_tap_make(5, 3, sizes, strides);
    ASSERT_EQ(t.ndim, 3);
    ASSERT_EQ(iron_tap_count(&t), 24);
    /* reach = 5 + 100 + 20 + 3 = 128 */
    ASSERT_OK(iron_tap_check(&t, 129));
    ASSERT_FAILS(iron_tap_check(&t, 128), IRON_EBOUNDS,
                 "reaches element 128, the tensor has 128");
}

TEST(tap_check_errors)
{
    int64_t sizes[2] = { 4, 0 }, strides[2] = { 4, 1 };
    iron_tap t = iron_tap_make(0, 2, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 100), IRON_EBOUNDS, "size[1] is 0");
    sizes[1] = 4;
    strides[0] = -1;
    t = iron_tap_make(0, 2, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 100), IRON_EBOUNDS, "stride[0] is -1");
    strides[0] = 4;
    t = iron_tap_make(-3, 2, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 100), IRON_EBOUNDS, "offset is -3");
    t = iron_tap_make(0, 5, sizes, strides);
    ASSERT_FAILS(iron_tap_check(&t, 100), IRON_EBOUNDS, "5 dimensions");
    t = iron_tap_make(0, 2, NULL, strides);
    ASSERT_FAILS(iron_tap_check(&t, 100), IRON_EBOUNDS, "dimensions");
    ASSERT_FAILS(iron_tap_check(NULL, 100), IRON_EINVAL, "NULL");
    ASSERT_EQ(iron_tap_count(NULL), 0);
}

/* Element k of the pattern's visiting order, computed the slow way. */
static int64_t naive_index(const iron_tap *t, int64_t k)
{
    int64_t off = t->offset;
    for (int d = t->ndim - 1; d >= 0; d--) {
        off += (k % t->sizes[d]) * t->strides[d];
        k /= t->sizes[d];
    }
    return off;
}

static void check_copy(const iron_tap *t, int64_t chunk)
{
    enum { N = 4096 };
    static int32_t tensor[N], buf[N], back[N];
    for (int i = 0; i < N; i++)
        tensor[i] = i * 7 + 3;
    int64_t count = iron_tap_count(t);
    ASSERT_OK(iron_tap_check(t, N));
    /* Read in chunks, as a DMA does object by object. */
    for (int64_t s = 0; s < count; s += chunk)
        iron__tap_copy((uint8_t *)tensor, 4, t, s,
                       s + chunk > count ? count - s : chunk,
                       (uint8_t *)(buf + s), 0);
    for (int64_t k = 0; k < count; k++)
        ASSERT_EQ(buf[k], tensor[naive_index(t, k)]);
    /* Write back into a zeroed tensor: exactly the visited elements. */
    for (int i = 0; i < N; i++)
        back[i] = -1;
    for (int64_t s = 0; s < count; s += chunk)
        iron__tap_copy((uint8_t *)back, 4, t, s,
                       s + chunk > count ? count - s : chunk,
                       (uint8_t *)(buf + s), 1);
    for (int64_t k = 0; k < count; k++)
        ASSERT_EQ(back[naive_index(t, k)], tensor[naive_index(t, k)]);
}

TEST(tap_copy_matches_naive_loops)
{
    int64_t s1[1] = { 1000 }, t1[1] = { 1 };
    iron_tap t = iron_tap_make(17, 1, s1, t1);
    check_copy(&t, 16);
    check_copy(&t, 7);
    int64_t s2[2] = { 16, 32 }, t2[2] = { 1, 64 };  /* transpose-like */
    t = iron_tap_make(0, 2, s2, t2);
    check_copy(&t, 32);
    check_copy(&t, 5);
    int64_t s3[3] = { 4, 8, 8 }, t3[3] = { 8, 512, 1 };  /* 8x8 blocks */
    t = iron_tap_make(3, 3, s3, t3);
    check_copy(&t, 64);
    check_copy(&t, 9);
    int64_t s4[4] = { 2, 3, 4, 5 }, t4[4] = { 0, 100, 10, 2 };  /* repeat */
    t = iron_tap_make(1, 4, s4, t4);
    check_copy(&t, 20);
    check_copy(&t, 1);
}
