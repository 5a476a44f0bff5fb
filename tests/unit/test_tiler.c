/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tiler.c - the 2-D tiler against a naive enumeration of tiles and
 * groups written out as plain loops, plus every invalid field.
 */
#include "design/layout.h"
#include "test.h"

static iron_tiler2d tiler(int64_t rows, int64_t cols, int64_t tr, int64_t tc,
                          int64_t gr, int64_t gc)
{
    iron_tiler2d t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;   /* step, allow_partial, no_prune_step: 0 */
    t.rows = rows;
    t.cols = cols;
    t.tile_rows = tr;
    t.tile_cols = tc;
    t.group_rows = gr;
    t.group_cols = gc;
    return t;
}

/* The elements a pattern visits, in order, by the definition. */
static int64_t expand(const iron_tap *t, int64_t *out, int64_t cap)
{
    int64_t n = iron_tap_count(t);
    for (int64_t k = 0; k < n && k < cap; k++) {
        int64_t off = t->offset, r = k;
        for (int d = t->ndim - 1; d >= 0; d--) {
            off += (r % t->sizes[d]) * t->strides[d];
            r /= t->sizes[d];
        }
        out[k] = off;
    }
    return n;
}

/* The patterns along one axis, written from the description: walk the
 * blocks of rep x step tiles; each gives `step` patterns (fewer where the
 * axis ends), pattern j of a block starting at its tile j with as many
 * tiles, `step` apart, as fit (at most rep).  As upstream, a group larger
 * than the axis shrinks first and a step longer than the axis is 1. */
static int64_t naive_axis(int64_t tiles, int64_t rep, int64_t step,
                          int64_t *first, int64_t *count, int64_t *stepo)
{
    if (rep > (tiles + step - 1) / step)
        rep = (tiles + step - 1) / step;
    if (step > tiles)
        step = 1;
    int64_t n = 0;
    for (int64_t b = 0; b < tiles; b += rep * step)
        for (int64_t j = 0; j < step && b + j < tiles; j++) {
            int64_t c = 0;
            while (c < rep && b + j + c * step < tiles)
                c++;
            first[n] = b + j;
            count[n] = c;
            n++;
        }
    *stepo = step;
    return n;
}

#define DEF1(v) ((v) ? (v) : 1)

/* What pattern `g` should visit: patterns in row- or column-major order,
 * the group's tiles in row- or column-major order, the elements of a tile
 * likewise; the whole sequence `repeat` times.  Returns the number of
 * patterns in *np when np is given. */
static int64_t naive_group(const iron_tiler2d *t, int64_t g, int64_t *out,
                           int64_t *np)
{
    static int64_t fr[4096], cr[4096], fc[4096], cc[4096];
    int64_t sr, sc;
    int64_t nr = naive_axis(t->rows / t->tile_rows, DEF1(t->group_rows),
                            DEF1(t->step_rows), fr, cr, &sr);
    int64_t nc = naive_axis(t->cols / t->tile_cols, DEF1(t->group_cols),
                            DEF1(t->step_cols), fc, cc, &sc);
    if (np)
        *np = nr * nc;
    int64_t rep = DEF1(t->repeat);
    int64_t ir = t->iter_col_major ? g % nr : g / nc;
    int64_t ic = t->iter_col_major ? g / nr : g % nc;
    int64_t gr = cr[ir], gc = cc[ic];
    int64_t n = 0;
    for (int64_t r = 0; r < rep; r++)
        for (int64_t a = 0; a < gr * gc; a++) {
            /* the a-th tile of the group */
            int64_t ti = t->group_col_major ? a % gr : a / gc;
            int64_t tj = t->group_col_major ? a / gr : a % gc;
            int64_t row0 = (fr[ir] + ti * sr) * t->tile_rows;
            int64_t col0 = (fc[ic] + tj * sc) * t->tile_cols;
            for (int64_t e = 0; e < t->tile_rows * t->tile_cols; e++) {
                int64_t er = t->tile_col_major ? e % t->tile_rows
                                               : e / t->tile_cols;
                int64_t ec = t->tile_col_major ? e / t->tile_rows
                                               : e % t->tile_cols;
                out[n++] = (row0 + er) * t->cols + col0 + ec;
            }
        }
    return n;
}

/* Every group of t against the naive enumeration; with repeat 1 every
 * element exactly once.  Returns the largest ndim seen. */
static int check_all(const iron_tiler2d *t)
{
    static int64_t want[1 << 14], got[1 << 14];
    static int seen[1 << 14];
    int64_t numel = t->rows * t->cols, count, np;
    int64_t rep = DEF1(t->repeat);
    int maxdim = 0;
    ASSERT_LE(numel * rep, 1 << 14);
    ASSERT_OK(iron_tiler2d_count(t, &count));
    naive_group(t, 0, want, &np);
    ASSERT_EQ(count, np);
    memset(seen, 0, sizeof seen);
    for (int64_t g = 0; g < count; g++) {
        iron_tap tap;
        ASSERT_OK(iron_tiler2d_tap(t, g, &tap));
        ASSERT_OK(iron_tap_check(&tap, numel));
        ASSERT_LE(tap.ndim, IRON_TAP_MAX_DIMS);
        if (tap.ndim > maxdim)
            maxdim = tap.ndim;
        int64_t n = naive_group(t, g, want, NULL);
        ASSERT_EQ(expand(&tap, got, 1 << 14), n);
        ASSERT_EQ(tap.offset, want[0]);
        for (int64_t k = 0; k < n; k++) {
            if (got[k] != want[k])
                TEST_FAIL_("%lldx%lld tiles %lldx%lld groups %lldx%lld "
                           "steps %lldx%lld flags %d%d%d%d%d rep %lld: "
                           "group %lld element %lld: %lld vs %lld",
                           (long long)t->rows, (long long)t->cols,
                           (long long)t->tile_rows, (long long)t->tile_cols,
                           (long long)t->group_rows, (long long)t->group_cols,
                           (long long)t->step_rows, (long long)t->step_cols,
                           t->tile_col_major, t->group_col_major,
                           t->iter_col_major, t->allow_partial,
                           t->no_prune_step, (long long)rep, (long long)g,
                           (long long)k, (long long)got[k],
                           (long long)want[k]);
            seen[got[k]]++;
        }
        iron_tap c;
        iron__tap_canonical(&tap, &c);
        if (!t->no_prune_step && memcmp(&c, &tap, sizeof c) != 0) {
            /* The canonical form comes out, but for a loop merged into
             * the innermost one while others remain: the innermost stays
             * apart (the shim DMA's d0), and the loops outside it are
             * canonical. */
            ASSERT_GT(c.ndim, 1);
            ASSERT_LT(c.ndim, tap.ndim);
            ASSERT_GT(c.sizes[c.ndim - 1], tap.sizes[tap.ndim - 1]);
            iron_tap outer = tap, oc;
            int rep0 = rep > 1 && tap.strides[0] == 0;
            outer.ndim--;
            if (rep0) {
                memmove(outer.sizes, outer.sizes + 1,
                        (size_t)(outer.ndim - 1) * sizeof outer.sizes[0]);
                memmove(outer.strides, outer.strides + 1,
                        (size_t)(outer.ndim - 1) * sizeof outer.strides[0]);
                outer.ndim--;
            }
            iron__tap_canonical(&outer, &oc);
            ASSERT_EQ(oc.ndim, outer.ndim);
        } else if (t->no_prune_step) {
            /* Only size-1 loops are dropped. */
            for (int k = 0; k < tap.ndim && tap.ndim > 1; k++)
                ASSERT_GT(tap.sizes[k], 1);
        }
    }
    for (int64_t i = 0; i < numel; i++)
        ASSERT_EQ(seen[i], rep);
    return maxdim;
}

TEST(tiler_8x12_row_major)
{
    iron_tiler2d t = tiler(8, 12, 2, 3, 2, 2);
    int64_t count;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 4);
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    /* Tile (0,0) row by row, then tile (0,1), then (1,0), (1,1). */
    int64_t got[24];
    ASSERT_EQ(expand(&tap, got, 24), 24);
    const int64_t want[24] = {
        0,  1,  2,  12, 13, 14, 3,  4,  5,  15, 16, 17,
        24, 25, 26, 36, 37, 38, 27, 28, 29, 39, 40, 41
    };
    for (int k = 0; k < 24; k++)
        ASSERT_EQ(got[k], want[k]);
    ASSERT_EQ(tap.ndim, 4);
    ASSERT_EQ(tap.sizes[0], 2);
    ASSERT_EQ(tap.strides[0], 24);
    ASSERT_EQ(tap.sizes[1], 2);
    ASSERT_EQ(tap.strides[1], 3);
    ASSERT_EQ(tap.sizes[2], 2);
    ASSERT_EQ(tap.strides[2], 12);
    ASSERT_EQ(tap.sizes[3], 3);
    ASSERT_EQ(tap.strides[3], 1);
    /* Groups row-major: offsets 0, 6, 48, 54. */
    const int64_t offs[4] = { 0, 6, 48, 54 };
    for (int g = 0; g < 4; g++) {
        ASSERT_OK(iron_tiler2d_tap(&t, g, &tap));
        ASSERT_EQ(tap.offset, offs[g]);
    }
    ASSERT_EQ(check_all(&t), 4);
}

TEST(tiler_8x12_col_major)
{
    iron_tiler2d t = tiler(8, 12, 2, 3, 2, 2);
    t.tile_col_major = 1;
    t.group_col_major = 1;
    t.iter_col_major = 1;
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    /* Tile (0,0) column by column, then tile (1,0) below it. */
    int64_t got[24];
    ASSERT_EQ(expand(&tap, got, 24), 24);
    const int64_t want[12] = { 0, 12, 1, 13, 2, 14, 24, 36, 25, 37, 26, 38 };
    for (int k = 0; k < 12; k++)
        ASSERT_EQ(got[k], want[k]);
    ASSERT_EQ(got[12], 3);
    /* Groups column-major: offsets 0, 48, 6, 54. */
    const int64_t offs[4] = { 0, 48, 6, 54 };
    for (int g = 0; g < 4; g++) {
        ASSERT_OK(iron_tiler2d_tap(&t, g, &tap));
        ASSERT_EQ(tap.offset, offs[g]);
    }
    check_all(&t);
}

/* All eight combinations of the order flags on the 8x12 example and on
 * groups of other shapes. */
TEST(tiler_all_orders)
{
    const int64_t shapes[][6] = {
        { 8, 12, 2, 3, 2, 2 }, { 8, 12, 2, 3, 1, 1 }, { 8, 12, 2, 3, 4, 1 },
        { 8, 12, 2, 3, 1, 4 }, { 8, 12, 1, 12, 2, 1 }, { 8, 12, 8, 1, 1, 3 },
        { 8, 12, 4, 4, 2, 3 }, { 6, 10, 3, 5, 0, 0 },
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int f = 0; f < 8; f++) {
            const int64_t *s = shapes[i];
            iron_tiler2d t = tiler(s[0], s[1], s[2], s[3], s[4], s[5]);
            t.tile_col_major = f & 1;
            t.group_col_major = (f >> 1) & 1;
            t.iter_col_major = (f >> 2) & 1;
            check_all(&t);
        }
}

TEST(tiler_whole_tensor)
{
    iron_tiler2d t = tiler(8, 12, 8, 12, 1, 1);
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    ASSERT_EQ(tap.ndim, 1);
    ASSERT_EQ(tap.sizes[0], 96);
    ASSERT_EQ(tap.strides[0], 1);
    /* Full-width tiles in a column group are one run too. */
    t = tiler(8, 12, 2, 12, 2, 1);
    ASSERT_OK(iron_tiler2d_tap(&t, 1, &tap));
    ASSERT_EQ(tap.offset, 48);
    ASSERT_EQ(tap.ndim, 1);
    ASSERT_EQ(tap.sizes[0], 48);
    /* The transposed whole tensor. */
    t = tiler(8, 12, 8, 12, 1, 1);
    t.tile_col_major = 1;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    ASSERT_EQ(tap.ndim, 2);
    ASSERT_EQ(tap.sizes[0], 12);
    ASSERT_EQ(tap.strides[0], 1);
    ASSERT_EQ(tap.sizes[1], 8);
    ASSERT_EQ(tap.strides[1], 12);
}

TEST(tiler_repeat)
{
    iron_tiler2d t = tiler(8, 12, 2, 3, 1, 1);
    t.repeat = 3;
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_tap(&t, 5, &tap));
    ASSERT_EQ(tap.ndim, 3);
    ASSERT_EQ(tap.sizes[0], 3);
    ASSERT_EQ(tap.strides[0], 0);
    ASSERT_EQ(tap.offset, 1 * 24 + 1 * 3);
    int64_t got[18];
    ASSERT_EQ(expand(&tap, got, 18), 18);
    for (int k = 0; k < 6; k++) {
        ASSERT_EQ(got[k], got[k + 6]);
        ASSERT_EQ(got[k], got[k + 12]);
    }
    check_all(&t);
    /* 1x1 tiles: the pattern is the repeat alone. */
    t = tiler(4, 4, 1, 1, 1, 1);
    t.repeat = 5;
    ASSERT_OK(iron_tiler2d_tap(&t, 6, &tap));
    ASSERT_EQ(tap.ndim, 1);
    ASSERT_EQ(tap.sizes[0], 5);
    ASSERT_EQ(tap.strides[0], 0);
    ASSERT_EQ(tap.offset, 6);
    check_all(&t);
    /* repeat 0 means 1. */
    t = tiler(8, 12, 2, 3, 2, 2);
    t.repeat = 0;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    ASSERT_EQ(tap.ndim, 4);
    ASSERT_NE(tap.strides[0], 0);
}

TEST(tiler_too_many_dims)
{
    /* Repeat, tiles down and across the group, rows and columns of a
     * tile: nothing merges, five dimensions. */
    iron_tiler2d t = tiler(8, 12, 2, 3, 2, 2);
    t.repeat = 2;
    iron_tap tap;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_ENOTSUP,
                 "needs 5 dimensions as (size, stride): repeat (2, 0), group "
                 "tile rows (2, 24), group tile cols (2, 3), tile rows (2, "
                 "12), tile cols (3, 1); an access pattern has at most 4");
    /* Everything column-major: nothing merges either. */
    t.group_col_major = 1;
    t.tile_col_major = 1;
    t.iter_col_major = 1;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 3, &tap), IRON_ENOTSUP,
                 "repeat (2, 0), group tile cols (2, 3), group tile rows (2, "
                 "24), tile cols (3, 1), tile rows (2, 12)");
    /* The count does not depend on the pattern's shape. */
    int64_t count;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 4);
    /* Row-major tiles in a column-major group: the tiles down the group
     * continue the tile's rows and merge, so four dimensions do. */
    t.tile_col_major = 0;
    t.iter_col_major = 0;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    ASSERT_EQ(tap.ndim, 4);
    ASSERT_EQ(tap.sizes[2], 4);
    ASSERT_EQ(tap.strides[2], 12);
    ASSERT_EQ(check_all(&t), 4);
    /* Likewise column-major tiles in a row-major group: the tiles across
     * the group continue the tile's columns. */
    t.group_col_major = 0;
    t.tile_col_major = 1;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    ASSERT_EQ(tap.ndim, 4);
    ASSERT_EQ(check_all(&t), 4);
    /* So does a group one tile high. */
    t = tiler(8, 12, 2, 3, 1, 2);
    t.repeat = 2;
    ASSERT_EQ(check_all(&t), 4);
}

/* Random shapes, groups, flags and repeats, each checked against the naive
 * enumeration; the only failure allowed is ENOTSUP with a repeat. */
TEST(tiler_random)
{
    uint64_t st = 0x5eed;
    int ok = 0, unsupported = 0;
    for (int iter = 0; iter < 3000; iter++) {
        int64_t v[6];
        for (int k = 0; k < 6; k++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            v[k] = 1 + (int64_t)((st >> 33) % 4);
        }
        /* tiles of v0 x v1, groups of v2 x v3, grid of v4 x v5 groups */
        iron_tiler2d t = tiler(v[0] * v[2] * v[4], v[1] * v[3] * v[5], v[0],
                               v[1], v[2], v[3]);
        t.tile_col_major = (int)((st >> 20) & 1);
        t.group_col_major = (int)((st >> 21) & 1);
        t.iter_col_major = (int)((st >> 22) & 1);
        t.repeat = (st >> 23) % 3;
        iron_tap tap;
        iron_status s = iron_tiler2d_tap(&t, 0, &tap);
        if (s == IRON_ENOTSUP) {
            ASSERT_GE(t.repeat, 2);
            unsupported++;
            continue;
        }
        ASSERT_OK(s);
        check_all(&t);
        ok++;
    }
    ASSERT_GT(ok, 1000);
    ASSERT_GT(unsupported, 50);
}

TEST(tiler_invalid_fields)
{
    iron_tiler2d t = tiler(8, 12, 2, 3, 2, 2);
    iron_tap tap;
    int64_t count = 99;
    ASSERT_FAILS(iron_tiler2d_count(NULL, &count), IRON_EINVAL,
                 "iron_tiler2d is NULL");
    ASSERT_EQ(count, 0);
    ASSERT_FAILS(iron_tiler2d_tap(NULL, 0, &tap), IRON_EINVAL,
                 "iron_tiler2d is NULL");
    ASSERT_FAILS(iron_tiler2d_count(&t, NULL), IRON_EINVAL, "count is NULL");
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, NULL), IRON_EINVAL, "out is NULL");

    t.size = 0;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.size is 0; expected at least");

#define BAD_FIELD(field, value, needle)                                       \
    do {                                                                      \
        t = tiler(8, 12, 2, 3, 2, 2);                                         \
        t.field = (value);                                                    \
        ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL, needle);    \
        ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL, needle);     \
    } while (0)

    BAD_FIELD(rows, 0, "iron_tiler2d.rows is 0; expected 1 to 2^40");
    BAD_FIELD(cols, -12, "iron_tiler2d.cols is -12; expected 1 to 2^40");
    BAD_FIELD(tile_rows, 0, "iron_tiler2d.tile_rows is 0");
    BAD_FIELD(tile_cols, -3, "iron_tiler2d.tile_cols is -3");
    BAD_FIELD(group_rows, -1,
              "iron_tiler2d.group_rows is -1; expected 0 (meaning 1)");
    BAD_FIELD(group_cols, -2, "iron_tiler2d.group_cols is -2");
    BAD_FIELD(repeat, -1, "iron_tiler2d.repeat is -1");
    BAD_FIELD(rows, (int64_t)1 << 41, "iron_tiler2d.rows is 2199023255552");
    BAD_FIELD(tile_rows, 3, "iron_tiler2d.tile_rows (3) does not divide "
                            "rows (8)");
    BAD_FIELD(tile_cols, 5, "iron_tiler2d.tile_cols (5) does not divide "
                            "cols (12)");
    BAD_FIELD(group_rows, 3,
              "iron_tiler2d.group_rows (3) does not divide the 4 tile rows "
              "(rows 8 / tile_rows 2)");
    BAD_FIELD(group_cols, 3,
              "iron_tiler2d.group_cols (3) does not divide the 4 tile "
              "columns (cols 12 / tile_cols 3)");
#undef BAD_FIELD

    t = tiler((int64_t)1 << 30, (int64_t)1 << 20, 1, 1, 1, 1);
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "more than 2^40 elements");

    t = tiler(8, 12, 2, 3, 2, 2);
    ASSERT_FAILS(iron_tiler2d_tap(&t, 4, &tap), IRON_EINVAL,
                 "group index 4 is outside 0 to 3 (2 x 2 groups)");
    ASSERT_FAILS(iron_tiler2d_tap(&t, -1, &tap), IRON_EINVAL,
                 "group index -1");
}

/* ---- steps, partial groups, no_prune_step, the struct's versions ----- */

/* Pattern `g` of t is (offset, sizes, strides), dimension by dimension. */
static void expect_tap(const iron_tiler2d *t, int64_t g, int64_t offset,
                       int ndim, const int64_t *sizes, const int64_t *strides)
{
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_tap(t, g, &tap));
    if (tap.offset != offset || tap.ndim != ndim)
        TEST_FAIL_("pattern %lld: offset %lld ndim %d, expected offset %lld "
                   "ndim %d",
                   (long long)g, (long long)tap.offset, tap.ndim,
                   (long long)offset, ndim);
    for (int k = 0; k < ndim; k++)
        if (tap.sizes[k] != sizes[k] || tap.strides[k] != strides[k])
            TEST_FAIL_("pattern %lld dimension %d: (%lld, %lld), expected "
                       "(%lld, %lld)",
                       (long long)g, k, (long long)tap.sizes[k],
                       (long long)tap.strides[k], (long long)sizes[k],
                       (long long)strides[k]);
}

TEST(tiler_step_4x8)
{
    /* 2 x 2 tiles of a 4 x 8 tensor, groups of two tiles two apart across:
     * tiles (0,0) and (0,2), then (0,1) and (0,3), then the same below. */
    iron_tiler2d t = tiler(4, 8, 2, 2, 1, 2);
    t.step_cols = 2;
    int64_t count;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 4);
    const int64_t want[4][8] = {
        { 0, 1, 8, 9, 4, 5, 12, 13 },
        { 2, 3, 10, 11, 6, 7, 14, 15 },
        { 16, 17, 24, 25, 20, 21, 28, 29 },
        { 18, 19, 26, 27, 22, 23, 30, 31 },
    };
    const int64_t offs[4] = { 0, 2, 16, 18 };
    for (int g = 0; g < 4; g++) {
        expect_tap(&t, g, offs[g], 3, (const int64_t[]){ 2, 2, 2 },
                   (const int64_t[]){ 4, 8, 1 });
        iron_tap tap;
        int64_t got[8];
        ASSERT_OK(iron_tiler2d_tap(&t, g, &tap));
        ASSERT_EQ(expand(&tap, got, 8), 8);
        for (int k = 0; k < 8; k++)
            ASSERT_EQ(got[k], want[g][k]);
    }
    /* Column-major iteration: down first. */
    t.iter_col_major = 1;
    const int64_t offs_c[4] = { 0, 16, 2, 18 };
    for (int g = 0; g < 4; g++)
        expect_tap(&t, g, offs_c[g], 3, (const int64_t[]){ 2, 2, 2 },
                   (const int64_t[]){ 4, 8, 1 });
    check_all(&t);
    /* A step longer than the axis is 1 (and the group shrinks to it). */
    t = tiler(4, 8, 2, 2, 1, 3);
    t.step_cols = 5;
    t.allow_partial = 1;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 8);
    check_all(&t);
}

TEST(tiler_partial_groups)
{
    /* Six rows in groups of four: rows 0-3, then rows 4-5. */
    iron_tiler2d t = tiler(6, 2, 1, 2, 4, 1);
    int64_t count;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.group_rows (4) does not divide the 6 tile "
                 "rows (rows 6 / tile_rows 1); set allow_partial for smaller "
                 "last groups");
    t.allow_partial = 1;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 2);
    expect_tap(&t, 0, 0, 1, (const int64_t[]){ 8 }, (const int64_t[]){ 1 });
    expect_tap(&t, 1, 8, 1, (const int64_t[]){ 4 }, (const int64_t[]){ 1 });
    check_all(&t);
    /* With steps the message names both. */
    t = tiler(8, 12, 2, 3, 2, 1);
    t.step_rows = 3;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.group_rows (2) x step_rows (3) does not "
                 "divide the 4 tile rows (rows 8 / tile_rows 2); set "
                 "allow_partial");
    t = tiler(8, 12, 2, 3, 1, 2);
    t.step_cols = 4;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &(iron_tap){ 0 }), IRON_EINVAL,
                 "iron_tiler2d.group_cols (2) x step_cols (4) does not "
                 "divide the 4 tile columns");
    /* Groups larger than the tensor shrink to it: one group of all 4 x 4
     * tiles, tile by tile. */
    t = tiler(8, 12, 2, 3, 9, 9);
    t.allow_partial = 1;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 1);
    expect_tap(&t, 0, 0, 4, (const int64_t[]){ 4, 4, 2, 3 },
               (const int64_t[]){ 24, 3, 12, 1 });
    check_all(&t);
}

/* Upstream's own expectations (test/python/taplib/step_tiler_partial.py):
 * a 45 x 28 tensor in 3 x 2 tiles, groups of 5 x 7 tiles. */
TEST(tiler_upstream_step_partial)
{
    iron_tiler2d t = tiler(45, 28, 3, 2, 5, 7);
    t.step_rows = 3;
    t.step_cols = 3;
    t.allow_partial = 1;
    int64_t count;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 9);
    const int64_t offs[9] = { 0, 2, 4, 84, 86, 88, 168, 170, 172 };
    for (int g = 0; g < 9; g++)
        expect_tap(&t, g, offs[g], 4,
                   (const int64_t[]){ 5, g % 3 == 2 ? 4 : 5, 3, 2 },
                   (const int64_t[]){ 252, 6, 28, 1 });
    check_all(&t);
    /* tile group column-major */
    t.group_col_major = 1;
    for (int g = 0; g < 9; g++)
        expect_tap(&t, g, offs[g], 4,
                   (const int64_t[]){ g % 3 == 2 ? 4 : 5, 5, 3, 2 },
                   (const int64_t[]){ 6, 252, 28, 1 });
    check_all(&t);
    /* iteration column-major */
    t.group_col_major = 0;
    t.iter_col_major = 1;
    const int64_t offs_c[9] = { 0, 84, 168, 2, 86, 170, 4, 88, 172 };
    for (int g = 0; g < 9; g++)
        expect_tap(&t, g, offs_c[g], 4,
                   (const int64_t[]){ 5, g >= 6 ? 4 : 5, 3, 2 },
                   (const int64_t[]){ 252, 6, 28, 1 });
    /* Steps (1, 3) with pattern_repeat 4, group column-major: the five
     * tiles down a group continue each other and merge into 15 rows
     * (upstream's prune_step), which leaves room for the repeat. */
    t = tiler(45, 28, 3, 2, 5, 7);
    t.step_rows = 1;
    t.step_cols = 3;
    t.allow_partial = 1;
    t.group_col_major = 1;
    t.repeat = 4;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 9);
    const int64_t offs_r[9] = { 0, 2, 4, 420, 422, 424, 840, 842, 844 };
    for (int g = 0; g < 9; g++)
        expect_tap(&t, g, offs_r[g], 4,
                   (const int64_t[]){ 4, g % 3 == 2 ? 4 : 5, 15, 2 },
                   (const int64_t[]){ 0, 6, 28, 1 });
    check_all(&t);
    /* Without prune_step upstream runs out of dimensions for the repeat. */
    t.no_prune_step = 1;
    iron_tap tap;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_ENOTSUP,
                 "needs 5 dimensions as (size, stride): repeat (4, 0), group "
                 "tile cols (5, 6), group tile rows (5, 84), tile rows (3, "
                 "28), tile cols (2, 1); an access pattern has at most 4 "
                 "(use repeat 1 and visit the pattern again, or clear "
                 "no_prune_step so that loops which continue each other "
                 "merge)");
    /* Steps (2, 2): eight patterns, smaller groups at the bottom. */
    t = tiler(45, 28, 3, 2, 5, 7);
    t.step_rows = 2;
    t.step_cols = 2;
    t.allow_partial = 1;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 8);
    const int64_t offs2[8] = { 0, 2, 84, 86, 840, 842, 924, 926 };
    const int64_t down[8] = { 5, 5, 5, 5, 3, 3, 2, 2 };
    for (int g = 0; g < 8; g++)
        expect_tap(&t, g, offs2[g], 4, (const int64_t[]){ down[g], 7, 3, 2 },
                   (const int64_t[]){ 168, 4, 28, 1 });
    check_all(&t);
}

TEST(tiler_no_prune_step)
{
    /* The whole tensor as one tile: rows and columns stay two loops. */
    iron_tiler2d t = tiler(8, 12, 8, 12, 1, 1);
    t.no_prune_step = 1;
    expect_tap(&t, 0, 0, 2, (const int64_t[]){ 8, 12 },
               (const int64_t[]){ 12, 1 });
    t.no_prune_step = 0;
    expect_tap(&t, 0, 0, 1, (const int64_t[]){ 96 }, (const int64_t[]){ 1 });
    /* Column-major tiles across a row-major group: upstream's prune_step
     * folds the group into one wide tile; without it four loops remain. */
    t = tiler(8, 12, 2, 3, 2, 2);
    t.tile_col_major = 1;
    expect_tap(&t, 0, 0, 3, (const int64_t[]){ 2, 6, 2 },
               (const int64_t[]){ 24, 1, 12 });
    t.no_prune_step = 1;
    expect_tap(&t, 0, 0, 4, (const int64_t[]){ 2, 2, 3, 2 },
               (const int64_t[]){ 24, 3, 1, 12 });
    check_all(&t);
    /* ... so a repeat fits only when they merge. */
    t.repeat = 3;
    iron_tap tap;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_ENOTSUP,
                 "or clear no_prune_step");
    t.no_prune_step = 0;
    expect_tap(&t, 0, 0, 4, (const int64_t[]){ 3, 2, 6, 2 },
               (const int64_t[]){ 0, 24, 1, 12 });
    /* A single element per pattern, repeated: the repeat alone. */
    t = tiler(4, 4, 1, 1, 1, 1);
    t.no_prune_step = 1;
    t.repeat = 2;
    expect_tap(&t, 5, 5, 1, (const int64_t[]){ 2 }, (const int64_t[]){ 0 });
    t.repeat = 0;
    expect_tap(&t, 5, 5, 1, (const int64_t[]){ 1 }, (const int64_t[]){ 1 });
    check_all(&t);
}

/* Random steps, partial groups and both forms against the naive
 * enumeration; every element exactly `repeat` times over all patterns.
 * The only failure allowed is ENOTSUP with a repeat. */
TEST(tiler_random_steps)
{
    uint64_t st = 0xabcdef;
    int ok = 0, unsupported = 0, partial = 0;
    for (int iter = 0; iter < 4000; iter++) {
        int64_t v[8];
        for (int k = 0; k < 8; k++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            v[k] = 1 + (int64_t)((st >> 33) % 4);
        }
        /* tiles v0 x v1, tile grid (v4+v6) x (v5+v7), groups v2 x v3 */
        iron_tiler2d t = tiler(v[0] * (v[4] + v[6]), v[1] * (v[5] + v[7]),
                               v[0], v[1], v[2], v[3]);
        t.step_rows = (int64_t)((st >> 10) % 4);
        t.step_cols = (int64_t)((st >> 12) % 4);
        t.tile_col_major = (int)((st >> 20) & 1);
        t.group_col_major = (int)((st >> 21) & 1);
        t.iter_col_major = (int)((st >> 22) & 1);
        t.no_prune_step = (int)((st >> 23) & 1);
        t.allow_partial = 1;
        t.repeat = (st >> 24) % 3;
        int64_t count;
        ASSERT_OK(iron_tiler2d_count(&t, &count));
        iron_tap tap;
        iron_status s = IRON_OK;
        for (int64_t g = 0; g < count && s == IRON_OK; g++)
            s = iron_tiler2d_tap(&t, g, &tap);
        if (s == IRON_ENOTSUP) {
            ASSERT_GE(t.repeat, 2);
            unsupported++;
            continue;
        }
        ASSERT_OK(s);
        check_all(&t);
        /* Without allow_partial exactly the evenly divided cases pass. */
        iron_tiler2d u = t;
        u.allow_partial = 0;
        int64_t tr = t.rows / t.tile_rows, tc = t.cols / t.tile_cols;
        int64_t br = t.group_rows * DEF1(t.step_rows);
        int64_t bc = t.group_cols * DEF1(t.step_cols);
        int even = tr % br == 0 && tc % bc == 0;
        ASSERT_EQ(iron_tiler2d_count(&u, &count) == IRON_OK, even);
        partial += !even;
        ok++;
    }
    ASSERT_GT(ok, 1000);
    ASSERT_GT(unsupported, 50);
    ASSERT_GT(partial, 500);
}

/* A caller built against the first version of the struct (ending at
 * `repeat`) passes its shorter size; the later fields read as 0. */
TEST(tiler_first_version_size)
{
    iron_tiler2d t = tiler(8, 12, 2, 3, 2, 2);
    t.size = offsetof(iron_tiler2d, step_rows);
    t.step_rows = 7;        /* not part of a first-version struct */
    t.allow_partial = 99;
    t.no_prune_step = 1;
    int64_t count;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 4);
    expect_tap(&t, 0, 0, 4, (const int64_t[]){ 2, 2, 2, 3 },
               (const int64_t[]){ 24, 3, 12, 1 });
    t.size = offsetof(iron_tiler2d, repeat);
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.size is");
    ASSERT_CONTAINS(iron_last_error(), "expected at least");
    ASSERT_CONTAINS(iron_last_error(), "its first version's size");
}

TEST(tiler_invalid_new_fields)
{
    iron_tiler2d t = tiler(8, 12, 2, 3, 2, 2);
    int64_t count;
    iron_tap tap;
    t.step_rows = -1;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.step_rows is -1; expected 0 (meaning 1) to "
                 "2^40");
    t.step_rows = 0;
    t.step_cols = (int64_t)1 << 41;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL,
                 "iron_tiler2d.step_cols is 2199023255552");
    /* A huge step with a huge group cannot overflow the divisibility
     * check. */
    t = tiler(8, 12, 2, 3, (int64_t)1 << 40, 1);
    t.step_rows = (int64_t)1 << 40;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "does not divide the 4 tile rows");
    t.allow_partial = 1;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 4 * 4);
    check_all(&t);
}

/* Full-width tiles in a group with a step: the tile's rows continue its
 * columns, but merging them would make one run of 2000 elements that the
 * shim DMA reads as d0 (at most 1023 words) while the group's rows stay
 * outside it; as upstream's tiler gives them, rows and columns stay apart
 * ([1, 2, 2, 1000]: d1 and d0) and the shim takes the pattern. */
TEST(tiler_keeps_the_innermost_loop_apart)
{
    iron_tiler2d t = tiler(8, 1000, 2, 1000, 2, 1);
    t.step_rows = 2;
    expect_tap(&t, 0, 0, 3, (const int64_t[]){ 2, 2, 1000 },
               (const int64_t[]){ 4000, 1000, 1 });
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_tap(&t, 1, &tap));
    ASSERT_OK(iron__tap_check_shim(&tap, IRON_INT32));
    check_all(&t);
    /* When everything merges into one run, it is one run. */
    t = tiler(8, 1000, 2, 1000, 2, 1);
    expect_tap(&t, 0, 0, 1, (const int64_t[]){ 4000 },
               (const int64_t[]){ 1 });
}
