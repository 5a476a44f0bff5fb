/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_taplib.c - upstream taplib's views of an access pattern: the access
 * order and count of every element (against arrays worked out by hand and
 * a naive nested loop) and the text picture, compared literally.
 */
#include "core/core.h"
#include "test.h"

static iron_tap mk(int64_t offset, int ndim, const int64_t *sz,
                   const int64_t *st)
{
    return iron_tap_make(offset, ndim, sz, st);
}

/* The picture of t over rows x cols in buf (at most len - 1 bytes), or ""
 * when iron_tap_visualize fails; returns its status. */
static iron_status vis(const iron_tap *t, int64_t rows, int64_t cols,
                       char *buf, size_t len)
{
    char *text = (char *)1;  /* must be reset to NULL on failure */
    iron_status s = iron_tap_visualize(t, rows, cols, &text);
    buf[0] = '\0';
    if (s == IRON_OK) {
        ASSERT(strlen(text) < len);
        memcpy(buf, text, strlen(text) + 1);
        iron_free(text);
    } else {
        ASSERT(text == NULL);
    }
    return s;
}

#define ASSERT_ARRAY(got, want, n)                                            \
    do {                                                                      \
        for (int64_t k_ = 0; k_ < (int64_t)(n); k_++)                         \
            if ((got)[k_] != (want)[k_])                                      \
                TEST_FAIL_("%s[%lld] is %lld, expected %lld", #got,           \
                           (long long)k_, (long long)(got)[k_],               \
                           (long long)(want)[k_]);                            \
    } while (0)

/* ---- access order and count ------------------------------------------ */

TEST(taplib_order_4x4_tiles)
{
    /* A 4 x 4 tensor in 2 x 2 tiles, tiles row by row, each tile row by
     * row: tile (0,0) is visited at steps 0-3, (0,1) at 4-7 ... */
    iron_tap t = mk(0, 4, (int64_t[]){ 2, 2, 2, 2 },
                    (int64_t[]){ 8, 2, 4, 1 });
    int64_t order[16], count[16];
    const int64_t want[16] = { 0, 1, 4,  5,  2,  3,  6,  7,
                               8, 9, 12, 13, 10, 11, 14, 15 };
    ASSERT_OK(iron_tap_access_order(&t, 16, order));
    ASSERT_ARRAY(order, want, 16);
    ASSERT_OK(iron_tap_access_count(&t, 16, count));
    for (int k = 0; k < 16; k++)
        ASSERT_EQ(count[k], 1);
    /* Tiles column by column and column-major inside: the transpose. */
    t = mk(0, 4, (int64_t[]){ 2, 2, 2, 2 }, (int64_t[]){ 2, 8, 1, 4 });
    const int64_t want_t[16] = { 0, 2, 8,  10, 1, 3, 9,  11,
                                 4, 6, 12, 14, 5, 7, 13, 15 };
    ASSERT_OK(iron_tap_access_order(&t, 16, order));
    ASSERT_ARRAY(order, want_t, 16);
}

TEST(taplib_order_unvisited_and_repeated)
{
    /* Column 1 of a 3 x 4 tensor's first two rows, three times: elements
     * 1 and 5 visited at steps 0,1 / 2,3 / 4,5 -- the last step counts, as
     * upstream; the rest is -1. */
    iron_tap t = mk(1, 2, (int64_t[]){ 3, 2 }, (int64_t[]){ 0, 4 });
    int64_t order[12], count[12];
    const int64_t want_order[12] = { -1, 4,  -1, -1, -1, 5,
                                     -1, -1, -1, -1, -1, -1 };
    const int64_t want_count[12] = { 0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0 };
    ASSERT_OK(iron_tap_access_order(&t, 12, order));
    ASSERT_ARRAY(order, want_order, 12);
    ASSERT_OK(iron_tap_access_count(&t, 12, count));
    ASSERT_ARRAY(count, want_count, 12);
    /* Overlapping windows: every other element from 0, 4 elements wide,
     * moving by 2: 0 1 2 3 / 2 3 4 5 / 4 5 6 7. */
    t = mk(0, 2, (int64_t[]){ 3, 4 }, (int64_t[]){ 2, 1 });
    int64_t o8[8], c8[8];
    const int64_t want_o8[8] = { 0, 1, 4, 5, 8, 9, 10, 11 };
    const int64_t want_c8[8] = { 1, 1, 2, 2, 2, 2, 1, 1 };
    ASSERT_OK(iron_tap_access_order(&t, 8, o8));
    ASSERT_ARRAY(o8, want_o8, 8);
    ASSERT_OK(iron_tap_access_count(&t, 8, c8));
    ASSERT_ARRAY(c8, want_c8, 8);
    /* One element, at the end. */
    t = mk(7, 1, (int64_t[]){ 1 }, (int64_t[]){ 1 });
    ASSERT_OK(iron_tap_access_order(&t, 8, o8));
    ASSERT_EQ(o8[7], 0);
    ASSERT_EQ(o8[6], -1);
}

/* Against the definition, for random 1- to 4-D patterns: the order array
 * holds the last step at which each element comes up, the count how
 * often. */
TEST(taplib_order_matches_definition)
{
    enum { N = 512 };
    static int64_t order[N], count[N], want_o[N], want_c[N];
    uint64_t st = 0x7a9;
    for (int iter = 0; iter < 500; iter++) {
        int64_t sz[4], sd[4];
        int nd = 1 + (int)(iter % 4);
        for (int k = 0; k < nd; k++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            sz[k] = 1 + (int64_t)((st >> 33) % 5);
            sd[k] = (int64_t)((st >> 40) % 9);
        }
        iron_tap t = mk((int64_t)((st >> 20) % 16), nd, sz, sd);
        for (int i = 0; i < N; i++) {
            want_o[i] = -1;
            want_c[i] = 0;
        }
        int64_t n = iron_tap_count(&t);
        for (int64_t k = 0; k < n; k++) {
            int64_t off = t.offset, r = k;
            for (int d = nd - 1; d >= 0; d--) {
                off += (r % sz[d]) * sd[d];
                r /= sz[d];
            }
            want_o[off] = k;
            want_c[off]++;
        }
        ASSERT_OK(iron_tap_access_order(&t, N, order));
        ASSERT_OK(iron_tap_access_count(&t, N, count));
        ASSERT_ARRAY(order, want_o, N);
        ASSERT_ARRAY(count, want_c, N);
    }
}

TEST(taplib_order_errors)
{
    iron_tap t = iron_tap_linear(16);
    int64_t out[16] = { 42 };
    ASSERT_FAILS(iron_tap_access_order(NULL, 16, out), IRON_EINVAL,
                 "iron_tap_access_order: tap is NULL");
    ASSERT_FAILS(iron_tap_access_count(NULL, 16, out), IRON_EINVAL,
                 "iron_tap_access_count: tap is NULL");
    ASSERT_FAILS(iron_tap_access_order(&t, 16, NULL), IRON_EINVAL,
                 "iron_tap_access_order: order is NULL; expected an array "
                 "of numel = 16 elements");
    ASSERT_FAILS(iron_tap_access_count(&t, 16, NULL), IRON_EINVAL,
                 "iron_tap_access_count: count is NULL; expected an array "
                 "of numel = 16 elements");
    ASSERT_FAILS(iron_tap_access_order(&t, 0, out), IRON_EINVAL,
                 "iron_tap_access_order: numel is 0; expected 1 to 2^40");
    ASSERT_FAILS(iron_tap_access_count(&t, -5, out), IRON_EINVAL,
                 "numel is -5");
    ASSERT_FAILS(iron_tap_access_order(&t, (int64_t)1 << 41, out),
                 IRON_EINVAL, "numel is 2199023255552; expected 1 to 2^40");
    /* Out of bounds: nothing is written. */
    ASSERT_FAILS(iron_tap_access_order(&t, 15, out), IRON_EBOUNDS,
                 "iron_tap_access_order: access pattern goes out of bounds: "
                 "it reaches element 15, the tensor has 15");
    ASSERT_EQ(out[0], 42);
    ASSERT_FAILS(iron_tap_access_count(&t, 15, out), IRON_EBOUNDS,
                 "iron_tap_access_count: access pattern goes out of bounds");
    ASSERT_EQ(out[0], 42);
    /* Bad patterns. */
    iron_tap five = iron_tap_make(0, 5, (int64_t[]){ 1, 1, 1, 1, 2 },
                                  (int64_t[]){ 0, 0, 0, 0, 1 });
    ASSERT_FAILS(iron_tap_access_order(&five, 16, out), IRON_EBOUNDS,
                 "access pattern has 5 dimensions; expected 1 to 4");
    iron_tap zero = mk(0, 2, (int64_t[]){ 4, 0 }, (int64_t[]){ 4, 1 });
    ASSERT_FAILS(iron_tap_access_count(&zero, 16, out), IRON_EBOUNDS,
                 "access pattern size[1] is 0");
    iron_tap neg = mk(0, 1, (int64_t[]){ 4 }, (int64_t[]){ -1 });
    ASSERT_FAILS(iron_tap_access_order(&neg, 16, out), IRON_EBOUNDS,
                 "access pattern stride[0] is -1");
    iron_tap off = mk(-2, 1, (int64_t[]){ 4 }, (int64_t[]){ 1 });
    ASSERT_FAILS(iron_tap_access_order(&off, 16, out), IRON_EBOUNDS,
                 "access pattern offset is -2");
    ASSERT_EQ(out[0], 42);
}

/* ---- the picture ------------------------------------------------------ */

TEST(taplib_visualize_4x4_tiles)
{
    iron_tap t = mk(0, 4, (int64_t[]){ 2, 2, 2, 2 },
                    (int64_t[]){ 8, 2, 4, 1 });
    char buf[1024];
    const char *want =
        "4 x 4 tensor, tap offset 0 sizes [2, 2, 2, 2] strides [8, 2, 4, 1]: "
        "16 visits, 16 of 16 elements visited\n"
        "    0  1  2  3\n"
        "0:  0  1  4  5\n"
        "1:  2  3  6  7\n"
        "2:  8  9 12 13\n"
        "3: 10 11 14 15\n";
    ASSERT_OK(vis(&t, 4, 4, buf, sizeof buf));
    ASSERT_STR_EQ(buf, want);
    /* A 1 x 8 row: the same pattern seen flat. */
    ASSERT_OK(iron_tap_check(&t, 16));
    t = mk(2, 1, (int64_t[]){ 3 }, (int64_t[]){ 2 });
    ASSERT_OK(vis(&t, 1, 8, buf, sizeof buf));
    ASSERT_STR_EQ(buf, "1 x 8 tensor, tap offset 2 sizes [3] strides [2]: "
                       "3 visits, 3 of 8 elements visited\n"
                       "   0 1 2 3 4 5 6 7\n"
                       "0: . . 0 . 1 . 2 .\n"
                       ". element not visited\n");
}

TEST(taplib_visualize_marks)
{
    /* Column 1 of the first two rows, three times. */
    iron_tap t = mk(1, 2, (int64_t[]){ 3, 2 }, (int64_t[]){ 0, 4 });
    char buf[1024];
    ASSERT_OK(vis(&t, 3, 4, buf, sizeof buf));
    ASSERT_STR_EQ(buf,
                  "3 x 4 tensor, tap offset 1 sizes [3, 2] strides [0, 4]: "
                  "6 visits, 2 of 12 elements visited\n"
                  "    0  1  2  3\n"
                  "0:  . *4  .  .\n"
                  "1:  . *5  .  .\n"
                  "2:  .  .  .  .\n"
                  ". element not visited\n"
                  "* visited more than once (the number is the last visit)\n");
    /* Column indexes wider than the numbers set the width: 12 columns. */
    t = mk(0, 1, (int64_t[]){ 2 }, (int64_t[]){ 11 });
    ASSERT_OK(vis(&t, 2, 12, buf, sizeof buf));
    ASSERT_STR_EQ(buf,
                  "2 x 12 tensor, tap offset 0 sizes [2] strides [11]: 2 "
                  "visits, 2 of 24 elements visited\n"
                  "    0  1  2  3  4  5  6  7  8  9 10 11\n"
                  "0:  0  .  .  .  .  .  .  .  .  .  .  1\n"
                  "1:  .  .  .  .  .  .  .  .  .  .  .  .\n"
                  ". element not visited\n");
}

TEST(taplib_visualize_blocks)
{
    /* A 64 x 64 tensor read as 2 x 2 tiles of 32 x 32: shown as 16 x 16
     * blocks of 4 x 4, numbered tile by tile. */
    iron_tap t = mk(0, 4, (int64_t[]){ 2, 2, 32, 32 },
                    (int64_t[]){ 2048, 32, 64, 1 });
    char buf[4096];
    ASSERT_OK(vis(&t, 64, 64, buf, sizeof buf));
    ASSERT_CONTAINS(buf, "64 x 64 tensor, tap offset 0 sizes [2, 2, 32, 32] "
                         "strides [2048, 32, 64, 1]: 4096 visits, 4096 of "
                         "4096 elements visited\n"
                         "cells are blocks of 4 x 4 elements (cell r, c: "
                         "rows from 4*r, columns from 4*c), numbered in the "
                         "order the pattern first reaches them\n"
                         "      0   1   2   3   4   5   6   7   8   9  10  11"
                         "  12  13  14  15\n"
                         " 0:   0   1   2   3   4   5   6   7  64  65  66  67"
                         "  68  69  70  71\n"
                         " 1:   8   9  10  11  12  13  14  15  72  73  74  75"
                         "  76  77  78  79\n");
    ASSERT_CONTAINS(buf, "15: 184 185 186 187 188 189 190 191 248 249 250 251"
                         " 252 253 254 255\n");
    ASSERT(strstr(buf, ". ") == NULL);
    /* A repeated corner of a 40 x 100 tensor: blocks of 3 x 7, cut short
     * at the end, blocks visited twice marked. */
    t = mk(0, 3, (int64_t[]){ 2, 20, 20 }, (int64_t[]){ 0, 100, 1 });
    ASSERT_OK(vis(&t, 40, 100, buf, sizeof buf));
    ASSERT_CONTAINS(buf, "800 visits, 400 of 4000 elements visited\n"
                         "cells are blocks of 3 x 7 elements");
    ASSERT_CONTAINS(buf, "the last blocks are cut short\n");
    ASSERT_CONTAINS(buf, " 0:  *0  *1  *2   .   .");
    ASSERT_CONTAINS(buf, " 6: *18 *19 *20   .");
    ASSERT_CONTAINS(buf, ". block not visited\n"
                         "* an element of the block visited more than once\n");
}

TEST(taplib_visualize_errors)
{
    iron_tap t = iron_tap_linear(16);
    char buf[64];
    ASSERT_EQ(vis(NULL, 4, 4, buf, sizeof buf), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "iron_tap_visualize: tap is NULL");
    ASSERT_EQ(vis(&t, 0, 4, buf, sizeof buf), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(),
                    "iron_tap_visualize: rows is 0; expected 1 to 2^40");
    ASSERT_EQ(vis(&t, 4, -1, buf, sizeof buf), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(),
                    "iron_tap_visualize: cols is -1; expected 1 to 2^40");
    ASSERT_EQ(vis(&t, (int64_t)1 << 30, (int64_t)1 << 20, buf, sizeof buf),
              IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(),
                    "a 1073741824 x 1048576 tensor has more than 2^40 "
                    "elements");
    ASSERT_NE(vis(&t, 3, 5, buf, sizeof buf), IRON_OK);
    ASSERT_CONTAINS(iron_last_error(),
                    "iron_tap_visualize: 3 x 5 tensor: access pattern goes "
                    "out of bounds: it reaches element 15, the tensor has 15");
    ASSERT_EQ(iron_tap_visualize(&t, 4, 4, NULL), IRON_EINVAL);
    ASSERT_CONTAINS(iron_last_error(), "iron_tap_visualize: out is NULL");
    iron_tap five = iron_tap_make(0, 5, (int64_t[]){ 1, 1, 1, 1, 2 },
                                  (int64_t[]){ 0, 0, 0, 0, 1 });
    ASSERT_NE(vis(&five, 4, 4, buf, sizeof buf), IRON_OK);
    ASSERT_CONTAINS(iron_last_error(), "5 dimensions");
}

/* Every allocation failure gives a clean ENOMEM and leaks nothing; the
 * block view allocates (the element view too, for its cells). */
TEST(taplib_visualize_alloc_failures)
{
    iron_tap t = mk(0, 2, (int64_t[]){ 40, 40 }, (int64_t[]){ 40, 1 });
    char buf[8192];
    ASSERT_OK(vis(&t, 40, 40, buf, sizeof buf));
    size_t want = strlen(buf);
    int ok = 0;
    for (long n = 1; n < 1000 && !ok; n++) {
        iron__alloc_fail_at(n);
        iron_status st = vis(&t, 40, 40, buf, sizeof buf);
        iron__alloc_fail_at(0);
        if (st != IRON_OK) {
            ASSERT_EQ(st, IRON_ENOMEM);
            ASSERT_CONTAINS(iron_last_error(), "out of memory");
        } else {
            ASSERT_EQ(strlen(buf), want);
            ok = 1;
        }
    }
    ASSERT(ok);
    test_assert_no_leaks();
}
