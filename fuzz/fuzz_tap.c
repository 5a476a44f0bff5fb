/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_tap.c - libFuzzer target for tensor access patterns and the 2-D
 * tiler.
 *
 * The first byte picks what is fuzzed:
 *   even: one iron_tap (offset, ndim, sizes, strides -- huge values
 *         included) against a tensor of numel elements, through
 *         iron_tap_count, iron_tap_check, iron_tap_access_order/_count,
 *         iron_tap_visualize and the internal checks on it (canonical
 *         form, the shim DMA's limits, a layout transform's check);
 *   odd:  one iron_tiler2d through iron_tiler2d_count / iron_tiler2d_tap.
 * Properties (a violation aborts):
 *   - no crash, no undefined behaviour, and every failure leaves a message;
 *   - a pattern iron_tap_check accepts stays inside [0, numel): checked
 *     with 128-bit arithmetic always, and by walking it when it visits at
 *     most 2^16 elements; a pattern of modest values (no limit involved)
 *     is accepted exactly when it fits;
 *   - access_order/access_count agree with the walk, and write nothing
 *     when they fail; visualize's return value matches what it wrote;
 *   - the canonical form visits the same elements in the same order;
 *   - a layout transform the check accepts visits exactly its object;
 *   - every tiler pattern lies inside the tensor, and together (when the
 *     tensor is small) they visit every element `repeat` times.
 *
 * FUZZ_TAP_VERBOSE=1 prints each pattern or tiler and what the checks
 * said.
 *
 * Run: make fuzz-tap (or build-fuzz/fuzz_tap -help=1 for libFuzzer's flags).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "design/layout.h"
#include "fuzz.h"
#include "iron/iron.h"

#define WALK_MAX ((int64_t)1 << 16)
#define TWO40 ((int64_t)1 << 40)

typedef __int128 i128;

static int verbose;   /* FUZZ_TAP_VERBOSE=1: print each pattern / tiler */

/* Product of the sizes, saturated at 2^100 (sizes >= 1 assumed). */
static i128 count128(const iron_tap *t)
{
    i128 n = 1;
    for (int k = 0; k < t->ndim; k++) {
        n *= t->sizes[k];
        if (n > ((i128)1 << 100))
            return (i128)1 << 100;
    }
    return n;
}

/* Lowest and highest element a pattern reaches (sizes >= 1). */
static void reach128(const iron_tap *t, i128 *lo, i128 *hi)
{
    *lo = *hi = t->offset;
    for (int k = 0; k < t->ndim; k++) {
        i128 span = (i128)(t->sizes[k] - 1) * t->strides[k];
        /* far past any tensor either way; keeps the sum in range */
        const i128 cap = (i128)1 << 100;
        span = span > cap ? cap : span < -cap ? -cap : span;
        if (span < 0)
            *lo += span;
        else
            *hi += span;
    }
}

static int valid_shape(const iron_tap *t)
{
    if (t->ndim < 1 || t->ndim > IRON_TAP_MAX_DIMS)
        return 0;
    for (int k = 0; k < t->ndim; k++)
        if (t->sizes[k] < 1)
            return 0;
    return 1;
}

static void describe(const iron_tap *t, char *buf, size_t len)
{
    int n = snprintf(buf, len, "offset %lld ndim %d sizes [",
                     (long long)t->offset, t->ndim);
    for (int k = 0; k < IRON_TAP_MAX_DIMS && n > 0 && (size_t)n < len; k++)
        n += snprintf(buf + n, len - (size_t)n, "%s%lld", k ? ", " : "",
                      (long long)t->sizes[k]);
    if (n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "] strides [");
    for (int k = 0; k < IRON_TAP_MAX_DIMS && n > 0 && (size_t)n < len; k++)
        n += snprintf(buf + n, len - (size_t)n, "%s%lld", k ? ", " : "",
                      (long long)t->strides[k]);
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "]");
}

/* Asserts that an accepted pattern is inside [0, numel). */
static void assert_inside(const iron_tap *t, int64_t numel, const char *who)
{
    char d[256];
    describe(t, d, sizeof d);
    FUZZ_CHECK(valid_shape(t), "%s accepted a malformed pattern: %s", who, d);
    for (int k = 0; k < t->ndim; k++)
        FUZZ_CHECK(t->strides[k] >= 0,
                   "%s accepted a negative stride: %s", who, d);
    i128 lo, hi;
    reach128(t, &lo, &hi);
    FUZZ_CHECK(lo >= 0 && hi < numel,
               "%s accepted a pattern reaching outside [0, %lld): %s "
               "(true reach %lld .. %s%lld)",
               who, (long long)numel, d, (long long)lo,
               hi > INT64_MAX ? "> 2^63, low 64 bits " : "", (long long)hi);
}

/* ---- one pattern -------------------------------------------------------- */

static void fuzz_one_tap(fuzz_in *in)
{
    iron_tap t;
    memset(&t, 0, sizeof t);
    t.offset = fuzz_i64(in);
    uint8_t nd = fuzz_u8(in);
    /* Mostly 1..4, sometimes out of range. */
    t.ndim = (nd & 0xc0) == 0xc0 ? (int)(nd & 0x3f) - 8
                                 : 1 + nd % IRON_TAP_MAX_DIMS;
    for (int k = 0; k < IRON_TAP_MAX_DIMS; k++) {
        t.sizes[k] = fuzz_i64(in);
        t.strides[k] = fuzz_i64(in);
    }
    int64_t numel = fuzz_i64(in);
    iron_dtype dt = (iron_dtype)(fuzz_u8(in) % (IRON_DTYPE_COUNT_ + 1));
    char d[256];
    describe(&t, d, sizeof d);

    /* iron_tap_make copies the ndim pairs it is given, zeroes the rest. */
    if (t.ndim >= 1 && t.ndim <= IRON_TAP_MAX_DIMS) {
        iron_tap m = iron_tap_make(t.offset, t.ndim, t.sizes, t.strides);
        int same = m.offset == t.offset && m.ndim == t.ndim;
        for (int k = 0; k < IRON_TAP_MAX_DIMS; k++)
            same &= k < t.ndim ? m.sizes[k] == t.sizes[k] &&
                                     m.strides[k] == t.strides[k]
                               : m.sizes[k] == 0 && m.strides[k] == 0;
        FUZZ_CHECK(same, "iron_tap_make did not copy %s", d);
    }

    int64_t count = iron_tap_count(&t);
    iron_status st = iron_tap_check(&t, numel);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron_tap_check");
    if (verbose)
        fprintf(stderr, "fuzz_tap: %s on %lld elements (%s): count %lld, "
                        "check %s %s\n",
                d, (long long)numel, iron_dtype_name(dt) ? iron_dtype_name(dt)
                                                          : "bad dtype",
                (long long)count, iron_status_name(st),
                st == IRON_OK ? "" : iron_last_error());

    int fits = 0;
    if (st == IRON_OK) {
        assert_inside(&t, numel, "iron_tap_check");
        FUZZ_CHECK(count128(&t) == count,
                   "iron_tap_count is %lld for accepted %s", (long long)count,
                   d);
        fits = 1;
    } else if (valid_shape(&t) && t.offset >= 0 && t.offset <= TWO40) {
        /* Modest values: no documented limit is involved, so the pattern
         * is refused only if it really does not fit. */
        int modest = 1;
        for (int k = 0; k < t.ndim; k++)
            if (t.sizes[k] > ((int64_t)1 << 20) || t.strides[k] < 0 ||
                t.strides[k] > ((int64_t)1 << 20))
                modest = 0;
        if (modest && count128(&t) <= TWO40) {
            i128 lo, hi;
            reach128(&t, &lo, &hi);
            FUZZ_CHECK(hi >= numel,
                       "iron_tap_check refused %s on %lld elements, which "
                       "fits (reach %lld)",
                       d, (long long)numel, (long long)hi);
        }
    }

    /* Walk it. */
    int64_t *idx = NULL;
    if (fits && count <= WALK_MAX) {
        idx = malloc((size_t)count * sizeof *idx);
        FUZZ_CHECK(idx, "out of memory");
        fuzz_walk_tap(&t, idx, count);
        for (int64_t v = 0; v < count; v++)
            FUZZ_CHECK(idx[v] >= 0 && idx[v] < numel,
                       "visit %lld of accepted %s is element %lld of %lld",
                       (long long)v, d, (long long)idx[v], (long long)numel);
    }

    /* access_order / access_count, on small tensors. */
    if (numel >= -4 && numel <= WALK_MAX && (!fits || idx)) {
        size_t cells = numel >= 1 ? (size_t)numel : 1;
        int64_t *order = malloc(cells * sizeof *order);
        int64_t *cnt = malloc(cells * sizeof *cnt);
        FUZZ_CHECK(order && cnt, "out of memory");
        for (size_t e = 0; e < cells; e++)
            order[e] = cnt[e] = 0x7777;
        iron_status so = iron_tap_access_order(&t, numel, order);
        FUZZ_FAILED_WITH_MESSAGE(so, "iron_tap_access_order");
        iron_status sc = iron_tap_access_count(&t, numel, cnt);
        FUZZ_FAILED_WITH_MESSAGE(sc, "iron_tap_access_count");
        if (fits) {
            FUZZ_CHECK(so == IRON_OK && sc == IRON_OK,
                       "access_order %s / access_count %s for accepted %s",
                       iron_status_name(so), iron_status_name(sc), d);
            int64_t *want_o = malloc(cells * sizeof *want_o);
            int64_t *want_c = calloc(cells, sizeof *want_c);
            FUZZ_CHECK(want_o && want_c, "out of memory");
            for (size_t e = 0; e < cells; e++)
                want_o[e] = -1;
            for (int64_t v = 0; v < count; v++) {
                want_o[idx[v]] = v;
                want_c[idx[v]]++;
            }
            for (size_t e = 0; e < cells; e++) {
                FUZZ_CHECK(order[e] == want_o[e],
                           "access_order[%zu] = %lld, expected %lld for %s",
                           e, (long long)order[e], (long long)want_o[e], d);
                FUZZ_CHECK(cnt[e] == want_c[e],
                           "access_count[%zu] = %lld, expected %lld for %s",
                           e, (long long)cnt[e], (long long)want_c[e], d);
            }
            free(want_o);
            free(want_c);
        } else {
            FUZZ_CHECK(so != IRON_OK && sc != IRON_OK,
                       "access_order %s / access_count %s for a pattern "
                       "iron_tap_check refuses: %s",
                       iron_status_name(so), iron_status_name(sc), d);
            for (size_t e = 0; e < cells; e++)
                FUZZ_CHECK(order[e] == 0x7777 && cnt[e] == 0x7777,
                           "a failed access_order/count wrote element %zu",
                           e);
        }
        free(order);
        free(cnt);
    }

    /* visualize over rows x cols. */
    int64_t rows = fuzz_i64(in), cols;
    if (rows >= 1 && numel >= 1 && numel % rows == 0 && (fuzz_u8(in) & 1))
        cols = numel / rows;
    else
        cols = fuzz_i64(in);
    int good_grid = rows >= 1 && cols >= 1 && rows <= TWO40 &&
                    cols <= TWO40 && (i128)rows * cols <= TWO40;
    int fits_grid = 0;
    if (good_grid && valid_shape(&t) && t.offset >= 0) {
        i128 lo, hi;
        reach128(&t, &lo, &hi);
        int nonneg = 1;
        for (int k = 0; k < t.ndim; k++)
            nonneg &= t.strides[k] >= 0 && t.strides[k] <= TWO40 &&
                      t.sizes[k] <= TWO40;
        fits_grid = nonneg && lo >= 0 && hi < (i128)rows * cols &&
                    count128(&t) <= TWO40;
    }
    /* Visualizing walks every visit: skip the long ones. */
    if (!fits_grid || count128(&t) <= WALK_MAX) {
        char *text = (char *)&t;  /* must become NULL on failure */
        iron_status vs = iron_tap_visualize(&t, rows, cols, &text);
        if (vs != IRON_OK) {
            FUZZ_CHECK(iron_last_error()[0] != '\0',
                       "iron_tap_visualize failed without a message");
            FUZZ_CHECK(text == NULL,
                       "iron_tap_visualize failed but gave text");
        } else {
            FUZZ_CHECK(text && text[0] != '\0',
                       "iron_tap_visualize gave no text");
        }
        if (fits_grid)
            FUZZ_CHECK(vs == IRON_OK,
                       "iron_tap_visualize refused %s on %lld x %lld",
                       d, (long long)rows, (long long)cols);
        iron_free(text);
    }

    /* The canonical form visits the same elements in the same order. */
    if (idx) {
        iron_tap c;
        iron__tap_canonical(&t, &c);
        char dc[256];
        describe(&c, dc, sizeof dc);
        FUZZ_CHECK(valid_shape(&c) && count128(&c) == count,
                   "canonical form %s of %s", dc, d);
        assert_inside(&c, numel, "iron__tap_canonical");
        int64_t *cidx = malloc((size_t)count * sizeof *cidx);
        FUZZ_CHECK(cidx, "out of memory");
        fuzz_walk_tap(&c, cidx, count);
        for (int64_t v = 0; v < count; v++)
            FUZZ_CHECK(cidx[v] == idx[v],
                       "canonical form %s of %s visits %lld at step %lld, "
                       "the pattern %lld",
                       dc, d, (long long)cidx[v], (long long)v,
                       (long long)idx[v]);
        free(cidx);
    }

    /* The shim DMA's limits: any pattern, any dtype value. */
    iron_status ss = iron__tap_check_shim(&t, dt);
    FUZZ_FAILED_WITH_MESSAGE(ss, "iron__tap_check_shim");

    /* The same numbers as a layout transform of an object of numel
     * elements (offset 0, as iron_handle_set_dims gives). */
    iron_tap dims = t;
    dims.offset = 0;
    int max_ndim = 3 + (fuzz_u8(in) & 1);
    iron_status sd = iron__dims_check(&dims, max_ndim, dt, numel,
                                      "fuzz dims");
    FUZZ_FAILED_WITH_MESSAGE(sd, "iron__dims_check");
    if (sd == IRON_OK) {
        char dd[256];
        describe(&dims, dd, sizeof dd);
        FUZZ_CHECK(dims.ndim <= max_ndim,
                   "iron__dims_check accepted %d dims (max %d)", dims.ndim,
                   max_ndim);
        assert_inside(&dims, numel, "iron__dims_check");
        FUZZ_CHECK(count128(&dims) == numel,
                   "iron__dims_check accepted %s, which does not visit "
                   "exactly %lld elements",
                   dd, (long long)numel);
    }
    free(idx);
}

/* ---- the tiler ---------------------------------------------------------- */

static void fuzz_tiler(fuzz_in *in)
{
    iron_tiler2d t;
    memset(&t, 0, sizeof t);
    uint8_t sz = fuzz_u8(in);
    t.size = sz < 200   ? sizeof t
             : sz < 250 ? offsetof(iron_tiler2d, step_rows)
                        : (size_t)fuzz_u8(in);
    t.rows = fuzz_i64(in);
    t.cols = fuzz_i64(in);
    t.tile_rows = fuzz_i64(in);
    t.tile_cols = fuzz_i64(in);
    t.group_rows = fuzz_i64(in);
    t.group_cols = fuzz_i64(in);
    uint8_t flags = fuzz_u8(in);
    t.tile_col_major = flags & 1;
    t.group_col_major = (flags >> 1) & 1;
    t.iter_col_major = (flags >> 2) & 1;
    t.allow_partial = (flags >> 3) & 1;
    t.no_prune_step = (flags >> 4) & 1;
    t.repeat = (flags & 0x20) ? fuzz_i64(in) : 0;
    t.step_rows = (flags & 0x40) ? fuzz_i64(in) : 0;
    t.step_cols = (flags & 0x80) ? fuzz_i64(in) : 0;

    char d[512];
    snprintf(d, sizeof d,
             "tiler size %zu %lld x %lld tile %lld x %lld group %lld x %lld "
             "step %lld x %lld repeat %lld flags 0x%02x",
             t.size, (long long)t.rows, (long long)t.cols,
             (long long)t.tile_rows, (long long)t.tile_cols,
             (long long)t.group_rows, (long long)t.group_cols,
             (long long)t.step_rows, (long long)t.step_cols,
             (long long)t.repeat, flags);

    int64_t count = -5;
    iron_status st = iron_tiler2d_count(&t, &count);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron_tiler2d_count");
    if (verbose)
        fprintf(stderr, "fuzz_tap: %s: count %lld %s\n", d, (long long)count,
                st == IRON_OK ? "" : iron_last_error());
    iron_tap out;
    if (st != IRON_OK) {
        FUZZ_CHECK(count == 0, "failed iron_tiler2d_count set %lld",
                   (long long)count);
        iron_status s2 = iron_tiler2d_tap(&t, 0, &out);
        FUZZ_CHECK(s2 != IRON_OK, "iron_tiler2d_tap accepted %s, which "
                                  "iron_tiler2d_count refuses", d);
        FUZZ_FAILED_WITH_MESSAGE(s2, "iron_tiler2d_tap");
        return;
    }
    FUZZ_CHECK(count >= 1, "iron_tiler2d_count gave %lld for %s",
               (long long)count, d);
    int64_t numel = t.rows * t.cols;  /* validated: <= 2^40 */
    int64_t repeat = t.repeat ? t.repeat : 1;

    /* Out-of-range indexes fail with a message. */
    int64_t bad[] = { -1, count, INT64_MIN, INT64_MAX };
    for (int b = 0; b < 4; b++) {
        iron_status s2 = iron_tiler2d_tap(&t, bad[b], &out);
        FUZZ_CHECK(s2 != IRON_OK, "iron_tiler2d_tap accepted index %lld of "
                                  "%lld", (long long)bad[b],
                   (long long)count);
        FUZZ_FAILED_WITH_MESSAGE(s2, "iron_tiler2d_tap");
    }

    /* Small tensors: every pattern, and together they cover it. */
    int whole = count <= 4096 && numel <= WALK_MAX;
    int64_t *visits = whole ? calloc((size_t)numel, sizeof *visits) : NULL;
    int all_ok = 1;
    int64_t total = 0;
    int64_t picks = whole ? count : 4;
    for (int64_t p = 0; p < picks; p++) {
        int64_t index = whole   ? p
                        : p == 0 ? 0
                        : p == 1 ? count - 1
                                 : (int64_t)(fuzz_u64(in) %
                                             (uint64_t)count);
        iron_status s2 = iron_tiler2d_tap(&t, index, &out);
        FUZZ_FAILED_WITH_MESSAGE(s2, "iron_tiler2d_tap");
        FUZZ_CHECK(s2 == IRON_OK || s2 == IRON_ENOTSUP,
                   "iron_tiler2d_tap(%lld) of %lld failed with %s on %s",
                   (long long)index, (long long)count, iron_status_name(s2),
                   d);
        if (s2 != IRON_OK) {
            all_ok = 0;
            continue;
        }
        assert_inside(&out, numel, "iron_tiler2d_tap");
        i128 c = count128(&out);
        if (visits && c <= WALK_MAX && total + c <= 4 * WALK_MAX) {
            int64_t *idx = malloc((size_t)c * sizeof *idx);
            FUZZ_CHECK(idx, "out of memory");
            fuzz_walk_tap(&out, idx, (int64_t)c);
            for (int64_t v = 0; v < (int64_t)c; v++)
                visits[idx[v]]++;
            free(idx);
            total += (int64_t)c;
        } else {
            all_ok = 0;
        }
    }
    if (visits && all_ok) {
        for (int64_t e = 0; e < numel; e++)
            FUZZ_CHECK(visits[e] == repeat,
                       "the %lld patterns of %s visit element %lld %lld "
                       "times, expected %lld",
                       (long long)count, d, (long long)e,
                       (long long)visits[e], (long long)repeat);
    }
    free(visits);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *v = getenv("FUZZ_TAP_VERBOSE");
    verbose = v && *v && strcmp(v, "0") != 0;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = { data, size };
    if (fuzz_u8(&in) & 1)
        fuzz_tiler(&in);
    else
        fuzz_one_tap(&in);
    return 0;
}
