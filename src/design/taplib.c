/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * taplib.c - access patterns the way upstream's taplib looks at them: the
 * step at which a pattern visits each element of its tensor, how often it
 * visits each, and a text picture of a pattern over a 2-D tensor.
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "design/layout.h"

/* The largest tensor these functions take, as iron_tap_check bounds it. */
#define TAPLIB_MAX_NUMEL ((int64_t)1 << 40)

/* The picture shows a tensor of up to VIS_MAX_CELLS x VIS_MAX_CELLS
 * elements whole; a bigger one in blocks, at most VIS_MAX_BLOCKS along
 * each side, so that the rank numbers stay short and the lines fit a
 * terminal. */
#define VIS_MAX_CELLS 32
#define VIS_MAX_BLOCKS 16

/* Above this many elements the picture of a downsampled tensor does not
 * track single elements (two bits each), so it cannot say how many were
 * visited or mark those visited twice. */
#define VIS_MAX_TRACKED ((int64_t)1 << 26)

/* Walks a pattern's visits in order: the pattern padded to four loops
 * (size 1 outside), an odometer over them and the element it points at.
 * The pattern must have passed iron_tap_check, which is what keeps the
 * unchecked arithmetic of walk_next in range: every index it forms is at
 * most the reach (< numel <= 2^40) plus one stride (<= 2^40), and
 * size x stride is (size-1) x stride, part of the reach, plus a stride. */
typedef struct walk {
    int64_t size[4], stride[4], i[4];
    int64_t index, left;
} walk;

static void walk_init(walk *w, const iron_tap *t)
{
    int pad = 4 - t->ndim;
    for (int k = 0; k < 4; k++) {
        w->size[k] = k < pad ? 1 : t->sizes[k - pad];
        w->stride[k] = k < pad ? 0 : t->strides[k - pad];
        w->i[k] = 0;
    }
    w->index = t->offset;
    /* -1 (a count past int64_t) cannot come from a checked pattern; an
     * empty walk is the safe reading anyway. */
    int64_t count = iron_tap_count(t);
    w->left = count > 0 ? count : 0;
}

/* The next visited element in *index; 0 when the pattern is done. */
static int walk_next(walk *w, int64_t *index)
{
    if (w->left == 0)
        return 0;
    *index = w->index;
    w->left--;
    for (int k = 3; k >= 0; k--) {
        w->index += w->stride[k];
        if (++w->i[k] < w->size[k])
            break;
        w->index -= w->size[k] * w->stride[k];
        w->i[k] = 0;
    }
    return 1;
}

/* The checks both array functions share; `fn` and `what` name the call
 * and its output array in messages. */
static iron_status check_args(const char *fn, const iron_tap *tap,
                              int64_t numel, const void *out,
                              const char *what)
{
    if (!tap)
        return iron__fail(IRON_EINVAL, "%s: tap is NULL", fn);
    if (numel < 1 || numel > TAPLIB_MAX_NUMEL)
        return iron__fail(IRON_EINVAL,
                          "%s: numel is %lld; expected 1 to 2^40 (the "
                          "tensor's element count)",
                          fn, (long long)numel);
    if (!out)
        return iron__fail(IRON_EINVAL,
                          "%s: %s is NULL; expected an array of numel = "
                          "%lld elements",
                          fn, what, (long long)numel);
    iron_status s = iron_tap_check(tap, numel);
    if (s != IRON_OK)
        return iron__fail_context(s, "%s", fn);
    return IRON_OK;
}

IRON_API iron_status iron_tap_access_order(const iron_tap *tap, int64_t numel,
                                           int64_t *order)
{
    iron_status s = check_args("iron_tap_access_order", tap, numel, order,
                               "order");
    if (s != IRON_OK)
        return s;
    for (int64_t i = 0; i < numel; i++)
        order[i] = -1;
    walk w;
    int64_t index, step = 0;
    walk_init(&w, tap);
    while (walk_next(&w, &index))
        order[index] = step++;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_tap_access_count(const iron_tap *tap, int64_t numel,
                                           int64_t *count)
{
    iron_status s = check_args("iron_tap_access_count", tap, numel, count,
                               "count");
    if (s != IRON_OK)
        return s;
    memset(count, 0, (size_t)numel * sizeof *count);
    walk w;
    int64_t index;
    walk_init(&w, tap);
    while (walk_next(&w, &index))
        count[index]++;
    return iron__public_result(IRON_OK);
}

/* ---- the picture --------------------------------------------------------
 *
 * Up to 32 x 32 elements, one cell per element: the step of its last visit
 * (upstream's access_order), '.' if never visited, a '*' in front if
 * visited more than once.  Bigger tensors are cut into equal blocks so
 * that at most 16 x 16 remain, and each cell shows the block's rank in the
 * order the pattern first reaches the blocks. */

static int digits(int64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* The cells, row-major, with what each shows. */
typedef struct grid {
    int64_t rows, cols;         /* cells */
    int64_t brows, bcols;       /* elements per cell (1 x 1: no blocks) */
    int64_t value[VIS_MAX_CELLS * VIS_MAX_CELLS];   /* -1: not visited */
    unsigned char multi[VIS_MAX_CELLS * VIS_MAX_CELLS];
    int64_t visits;             /* steps of the pattern */
    int64_t distinct;           /* elements visited; -1 if not tracked */
    int any_multi, any_unvisited;
} grid;

/* One cell per element: the last visit and whether there were more. */
static void fill_elements(grid *g, const iron_tap *tap)
{
    int64_t n = g->rows * g->cols, index, step = 0;
    walk w;
    for (int64_t k = 0; k < n; k++) {
        g->value[k] = -1;
        g->multi[k] = 0;
    }
    walk_init(&w, tap);
    while (walk_next(&w, &index)) {
        if (g->value[index] >= 0)
            g->multi[index] = 1;
        g->value[index] = step++;
    }
    g->visits = step;
    g->distinct = 0;
    for (int64_t k = 0; k < n; k++) {
        g->distinct += g->value[k] >= 0;
        g->any_multi |= g->multi[k];
        g->any_unvisited |= g->value[k] < 0;
    }
}

/* One cell per block: the rank of the block's first visit among the
 * blocks'.  With `seen` (two bits per element, zeroed) the elements
 * visited once and more are tracked too. */
static void fill_blocks(grid *g, const iron_tap *tap, int64_t tcols,
                        unsigned char *seen)
{
    int64_t n = g->rows * g->cols, index, step = 0;
    walk w;
    for (int64_t k = 0; k < n; k++) {
        g->value[k] = -1;
        g->multi[k] = 0;
    }
    g->distinct = seen ? 0 : -1;
    walk_init(&w, tap);
    while (walk_next(&w, &index)) {
        int64_t r = index / tcols, c = index % tcols;
        int64_t cell = r / g->brows * g->cols + c / g->bcols;
        if (g->value[cell] < 0)
            g->value[cell] = step;
        step++;
        if (seen) {
            unsigned char bit = (unsigned char)(1u << (index % 4 * 2));
            unsigned char *b = &seen[index / 4];
            if (*b & bit) {
                *b |= (unsigned char)(bit << 1);
                g->multi[cell] = 1;
            } else {
                *b |= bit;
                g->distinct++;
            }
        }
    }
    g->visits = step;
    /* First-visit steps differ between blocks, so a block's rank is the
     * number of blocks reached before it. */
    int64_t rank[VIS_MAX_CELLS * VIS_MAX_CELLS];
    for (int64_t k = 0; k < n; k++) {
        rank[k] = -1;
        if (g->value[k] < 0)
            continue;
        rank[k] = 0;
        for (int64_t j = 0; j < n; j++)
            rank[k] += g->value[j] >= 0 && g->value[j] < g->value[k];
    }
    for (int64_t k = 0; k < n; k++) {
        g->value[k] = rank[k];
        g->any_multi |= g->multi[k];
        g->any_unvisited |= rank[k] < 0;
    }
}

static void put_grid(iron__str *s, const grid *g)
{
    int64_t n = g->rows * g->cols, top = 0;
    for (int64_t k = 0; k < n; k++)
        top = IRON__MAX(top, g->value[k]);
    int w = IRON__MAX(digits(top) + g->any_multi, digits(g->cols - 1));
    int wr = digits(g->rows - 1);
    iron__str_printf(s, "%*s", wr + 1, "");
    for (int64_t c = 0; c < g->cols; c++)
        iron__str_printf(s, " %*lld", w, (long long)c);
    iron__str_append(s, "\n");
    for (int64_t r = 0; r < g->rows; r++) {
        iron__str_printf(s, "%*lld:", wr, (long long)r);
        for (int64_t c = 0; c < g->cols; c++) {
            int64_t k = r * g->cols + c;
            char cell[32];
            if (g->value[k] < 0)
                snprintf(cell, sizeof cell, ".");
            else
                snprintf(cell, sizeof cell, "%s%lld", g->multi[k] ? "*" : "",
                         (long long)g->value[k]);
            iron__str_printf(s, " %*s", w, cell);
        }
        iron__str_append(s, "\n");
    }
}

/* Writes the picture into s.  The arguments are checked. */
static iron_status draw(iron__str *s, const iron_tap *tap, int64_t rows,
                        int64_t cols)
{
    grid *g = iron__calloc(1, sizeof *g);
    unsigned char *seen = NULL;
    if (!g)
        return iron__fail(IRON_ENOMEM, "iron_tap_visualize: out of memory");
    IRON__ASSERT(rows >= 1 && cols >= 1 && rows <= ((int64_t)1 << 40) / cols,
                 "iron_tap_visualize checked the grid: at most 2^40 "
                 "elements");
    int64_t numel = rows * cols;
    int blocks = rows > VIS_MAX_CELLS || cols > VIS_MAX_CELLS;
    g->brows = blocks ? (rows + VIS_MAX_BLOCKS - 1) / VIS_MAX_BLOCKS : 1;
    g->bcols = blocks ? (cols + VIS_MAX_BLOCKS - 1) / VIS_MAX_BLOCKS : 1;
    g->rows = (rows + g->brows - 1) / g->brows;
    g->cols = (cols + g->bcols - 1) / g->bcols;
    if (!blocks) {
        fill_elements(g, tap);
    } else {
        if (numel <= VIS_MAX_TRACKED) {
            seen = iron__calloc((size_t)(numel + 3) / 4, 1);
            if (!seen) {
                iron__free(g);
                return iron__fail(IRON_ENOMEM,
                                  "iron_tap_visualize: out of memory");
            }
        }
        fill_blocks(g, tap, cols, seen);
    }

    iron__str_printf(s, "%lld x %lld tensor, ", (long long)rows,
                     (long long)cols);
    iron__str_append(s, "tap ");
    iron__tap_text(s, tap);
    iron__str_printf(s, ": %lld %s", (long long)g->visits,
                     iron__plural(g->visits, "visit", "visits"));
    if (g->distinct >= 0)
        iron__str_printf(s, ", %lld of %lld elements visited",
                         (long long)g->distinct, (long long)numel);
    iron__str_append(s, "\n");
    if (blocks) {
        iron__str_printf(s,
                         "cells are blocks of %lld x %lld elements (cell r, "
                         "c: rows from %lld*r, columns from %lld*c), "
                         "numbered in the order the pattern first reaches "
                         "them",
                         (long long)g->brows, (long long)g->bcols,
                         (long long)g->brows, (long long)g->bcols);
        if (rows % g->brows || cols % g->bcols)
            iron__str_append(s, "; the last blocks are cut short");
        iron__str_append(s, "\n");
    }
    put_grid(s, g);
    if (g->any_unvisited)
        iron__str_printf(s, ". %s not visited\n",
                         blocks ? "block" : "element");
    if (g->any_multi)
        iron__str_append(s, blocks ? "* an element of the block visited "
                                     "more than once\n"
                                   : "* visited more than once (the number "
                                     "is the last visit)\n");
    iron__free(seen);
    iron__free(g);
    if (s->oom)
        return iron__fail(IRON_ENOMEM, "iron_tap_visualize: out of memory");
    return IRON_OK;
}

IRON_API iron_status iron_tap_visualize(const iron_tap *tap, int64_t rows,
                                        int64_t cols, char **out)
{
    iron_status st = IRON_OK;
    iron__str s = { 0 };
    int64_t numel = 0;
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_tap_visualize: out is NULL");
    *out = NULL;
    if (!tap)
        st = iron__fail(IRON_EINVAL, "iron_tap_visualize: tap is NULL");
    else if (rows < 1 || rows > TAPLIB_MAX_NUMEL)
        st = iron__fail(IRON_EINVAL,
                        "iron_tap_visualize: rows is %lld; expected 1 to 2^40",
                        (long long)rows);
    else if (cols < 1 || cols > TAPLIB_MAX_NUMEL)
        st = iron__fail(IRON_EINVAL,
                        "iron_tap_visualize: cols is %lld; expected 1 to 2^40",
                        (long long)cols);
    else if (__builtin_mul_overflow(rows, cols, &numel) ||
             numel > TAPLIB_MAX_NUMEL)
        st = iron__fail(IRON_EINVAL,
                        "iron_tap_visualize: a %lld x %lld tensor has more "
                        "than 2^40 elements",
                        (long long)rows, (long long)cols);
    else if ((st = iron_tap_check(tap, numel)) != IRON_OK)
        st = iron__fail_context(st, "iron_tap_visualize: %lld x %lld tensor",
                                (long long)rows, (long long)cols);
    else
        st = draw(&s, tap, rows, cols);
    if (st != IRON_OK) {
        iron__str_free(&s);
        return iron__public_result(st);
    }
    if (!(*out = iron__str_take(&s)))
        return iron__fail(IRON_ENOMEM, "iron_tap_visualize: out of memory");
    return iron__public_result(IRON_OK);
}
