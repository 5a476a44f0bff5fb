/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tiler.c - the 2-D tiler (upstream IRON's TensorTiler2D: simple, group
 * and step tiling): one access pattern per group of tiles of a row-major
 * matrix, for fill and drain.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/struct.h"
#include "design/layout.h"

/* Keeps every offset and stride of a pattern well inside int64_t: with
 * the tensor at most 2^40 elements, a tile count, a group's span or an
 * offset is at most 2^40, and products of two of them are checked. */
#define TILER_MAX ((int64_t)1 << 40)

/* A pattern visits at most this many elements (iron_tap_check's bound):
 * repeat x the elements of a group. */
#define TILER_MAX_VISITS ((int64_t)1 << 40)

/* The first version of the struct ended at `repeat`. */
#define TILER_V1_SIZE offsetof(iron_tiler2d, step_rows)

/* One dimension of the tensor (down: rows, across: columns) once checked,
 * with the 0 = 1 defaults applied and the group pruned to the tensor as
 * upstream prunes it. */
typedef struct axis {
    int64_t n, tile;   /* elements, tile size */
    int64_t tiles;     /* n / tile */
    int64_t rep;       /* tiles per group along this axis */
    int64_t step;      /* their spacing, in tiles */
    int64_t steps;     /* patterns along this axis */
} axis;

typedef struct geom {
    axis r, c;
    int64_t repeat;
    int tile_cm, group_cm, iter_cm, partial, no_prune;
} geom;

static iron_status positive(const char *field, int64_t v)
{
    if (v < 1 || v > TILER_MAX)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.%s is %lld; expected 1 to 2^40", field,
                          (long long)v);
    return IRON_OK;
}

static iron_status optional(const char *field, int64_t v, int64_t *out)
{
    if (v < 0 || v > TILER_MAX)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.%s is %lld; expected 0 (meaning 1) "
                          "to 2^40",
                          field, (long long)v);
    *out = v == 0 ? 1 : v;
    return IRON_OK;
}

/* The repeat is the pattern's outermost, stride-0 dimension: on the shim
 * DMA that is the iteration count of its fourth dimension, the only one
 * that repeats, so a bigger repeat could never be filled or drained. */
static iron_status repeat_field(int64_t v, int64_t *out)
{
    if (v < 0 || v > IRON__SHIM_MAX_REPEAT)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.repeat is %lld; expected 0 (meaning "
                          "1) to %d (the shim DMA's iteration count: it "
                          "repeats a pattern at most %d times)",
                          (long long)v, IRON__SHIM_MAX_REPEAT,
                          IRON__SHIM_MAX_REPEAT);
    *out = v == 0 ? 1 : v;
    return IRON_OK;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* The patterns along one axis, as upstream counts them: whole blocks of
 * rep x step tiles give `step` patterns each; the tiles left over give
 * `step` smaller patterns when at least `step` remain, else one pattern
 * per tile.  Together they cover every tile once. */
static int64_t axis_steps(const axis *a)
{
    int64_t block = a->rep * a->step;
    int64_t blocks = a->tiles / block;
    int64_t left = a->tiles - blocks * block;
    return blocks * a->step + (left >= a->step ? a->step : left);
}

/* Checks and prunes one axis.  `dim` is "rows" or "cols"; field names and
 * messages follow it. */
static iron_status axis_setup(axis *a, const char *dim, int64_t n,
                              int64_t tile, int64_t group, int64_t step,
                              int partial)
{
    const char *word = dim[0] == 'r' ? "rows" : "columns";
    a->n = n;
    a->tile = tile;
    if (n % tile != 0)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.tile_%s (%lld) does not divide %s "
                          "(%lld)",
                          dim, (long long)tile, dim, (long long)n);
    a->tiles = n / tile;
    /* group and step are each up to 2^40: their product may not fit. */
    int64_t block;
    int no_fit = __builtin_mul_overflow(group, step, &block) ||
                 block > a->tiles || a->tiles % block != 0;
    if (!partial && no_fit) {
        if (step == 1)
            return iron__fail(IRON_EINVAL,
                              "iron_tiler2d.group_%s (%lld) does not divide "
                              "the %lld tile %s (%s %lld / tile_%s %lld); set "
                              "allow_partial for smaller last groups",
                              dim, (long long)group, (long long)a->tiles,
                              word, dim, (long long)n, dim, (long long)tile);
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.group_%s (%lld) x step_%s (%lld) does "
                          "not divide the %lld tile %s (%s %lld / tile_%s "
                          "%lld); set allow_partial for smaller last groups",
                          dim, (long long)group, dim, (long long)step,
                          (long long)a->tiles, word, dim, (long long)n, dim,
                          (long long)tile);
    }
    /* A group cannot hold more tiles than the axis has at its spacing,
     * and a step longer than the axis is no step. */
    a->rep = IRON__MIN(group, ceil_div(a->tiles, step));
    a->step = step > a->tiles ? 1 : step;
    a->steps = axis_steps(a);
    return IRON_OK;
}

/* Checks every field of t and fills g.  IRON_EINVAL naming the field and
 * its value otherwise.  A caller's struct of the first version (shorter)
 * reads as if the later fields were 0. */
static iron_status validate(const iron_tiler2d *t, geom *g)
{
    iron_status s;
    iron_tiler2d v;
    int64_t gr = 1, gc = 1, sr = 1, sc = 1;
    if (!t)
        return iron__fail(IRON_EINVAL, "iron_tiler2d is NULL");
    if ((s = iron__struct_check("iron_tiler2d", "iron_tiler2d", t->size,
                                TILER_V1_SIZE, sizeof v)) != IRON_OK)
        return s;
    iron__struct_read(&v, sizeof v, t, t->size);
    if ((s = positive("rows", v.rows)) != IRON_OK ||
        (s = positive("cols", v.cols)) != IRON_OK ||
        (s = positive("tile_rows", v.tile_rows)) != IRON_OK ||
        (s = positive("tile_cols", v.tile_cols)) != IRON_OK ||
        (s = optional("group_rows", v.group_rows, &gr)) != IRON_OK ||
        (s = optional("group_cols", v.group_cols, &gc)) != IRON_OK ||
        (s = repeat_field(v.repeat, &g->repeat)) != IRON_OK ||
        (s = optional("step_rows", v.step_rows, &sr)) != IRON_OK ||
        (s = optional("step_cols", v.step_cols, &sc)) != IRON_OK)
        return s;
    int64_t numel;
    if (__builtin_mul_overflow(v.rows, v.cols, &numel) || numel > TILER_MAX)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d: a %lld x %lld tensor has more than "
                          "2^40 elements",
                          (long long)v.rows, (long long)v.cols);
    g->tile_cm = v.tile_col_major != 0;
    g->group_cm = v.group_col_major != 0;
    g->iter_cm = v.iter_col_major != 0;
    g->partial = v.allow_partial != 0;
    g->no_prune = v.no_prune_step != 0;
    if ((s = axis_setup(&g->r, "rows", v.rows, v.tile_rows, gr, sr,
                        g->partial)) != IRON_OK ||
        (s = axis_setup(&g->c, "cols", v.cols, v.tile_cols, gc, sc,
                        g->partial)) != IRON_OK)
        return s;
    /* The biggest pattern is a whole group, repeated: at most the tensor's
     * 2^40 elements, times a repeat of at most 64. */
    int64_t group = g->r.rep * g->r.tile * g->c.rep * g->c.tile, visits;
    if (__builtin_mul_overflow(group, g->repeat, &visits) ||
        visits > TILER_MAX_VISITS)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.repeat (%lld) x the %lld elements of "
                          "a group (%lld x %lld tiles of %lld x %lld) is "
                          "%lld visits; an access pattern visits at most "
                          "2^40",
                          (long long)g->repeat, (long long)group,
                          (long long)g->r.rep, (long long)g->c.rep,
                          (long long)g->r.tile, (long long)g->c.tile,
                          (long long)visits);
    return IRON_OK;
}

IRON_API iron_status iron_tiler2d_count(const iron_tiler2d *t, int64_t *count)
{
    geom g;
    if (count)
        *count = 0;
    if (!count)
        return iron__fail(IRON_EINVAL, "iron_tiler2d_count: count is NULL");
    iron_status s = validate(t, &g);
    if (s != IRON_OK)
        return s;
    *count = g.r.steps * g.c.steps;
    return iron__public_result(IRON_OK);
}

/* The first tile of pattern i along an axis, and how many tiles its group
 * has there (fewer for a partial group at the end). */
static int64_t axis_first(const axis *a, int64_t i, int64_t *rep)
{
    int64_t first = i / a->step * a->step * a->rep + i % a->step;
    *rep = IRON__MIN(a->rep, ceil_div(a->tiles - first, a->step));
    return first;
}

typedef struct loop {
    const char *what;
    int64_t size, stride;
} loop;

/* Drops the size-1 loops of lp[0..n-1] into t (at least one dimension:
 * a lone element is (1, 1)); the form no_prune_step asks for. */
static void literal(const loop *lp, int n, iron_tap *t)
{
    t->ndim = 0;
    for (int k = 0; k < n; k++)
        if (lp[k].size > 1) {
            t->sizes[t->ndim] = lp[k].size;
            t->strides[t->ndim] = lp[k].stride;
            t->ndim++;
        }
    if (t->ndim == 0) {
        t->ndim = 1;
        t->sizes[0] = 1;
        t->strides[0] = 1;
    }
}

/* The pattern of one group is five nested loops, outermost first: the
 * repeat (stride 0), the group's tiles (down and across, swapped when
 * group_col_major) and the tile's elements (rows and columns, swapped when
 * tile_col_major).  Canonicalizing drops the loops of size 1 and merges
 * loops that continue each other (e.g. the tiles across a group with the
 * columns of a column-major tile, as upstream's prune_step does), which
 * usually brings it to four -- but nothing merges into the innermost loop
 * unless the whole pattern becomes one run, since the shim DMA reads the
 * innermost dimension as d0, limited to 1023 words; no_prune_step only
 * drops size-1 loops. */
IRON_API iron_status iron_tiler2d_tap(const iron_tiler2d *t, int64_t index,
                                      iron_tap *out)
{
    geom g;
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_tiler2d_tap: out is NULL");
    memset(out, 0, sizeof *out);
    iron_status s = validate(t, &g);
    if (s != IRON_OK)
        return s;
    int64_t count = g.r.steps * g.c.steps;
    if (index < 0 || index >= count)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d_tap: group index %lld is outside 0 "
                          "to %lld (%lld x %lld groups)",
                          (long long)index, (long long)(count - 1),
                          (long long)g.r.steps, (long long)g.c.steps);

    int64_t ir, ic;   /* the pattern's place along each axis */
    if (g.iter_cm) {
        ic = index / g.r.steps;
        ir = index % g.r.steps;
    } else {
        ir = index / g.c.steps;
        ic = index % g.c.steps;
    }
    int64_t rep_r, rep_c;
    int64_t row0 = axis_first(&g.r, ir, &rep_r) * g.r.tile;
    int64_t col0 = axis_first(&g.c, ic, &rep_c) * g.c.tile;
    int64_t cols = g.c.n;

    loop lp[5];
    loop group_down = { "group tile rows", rep_r, g.r.tile * g.r.step * cols };
    loop group_across = { "group tile cols", rep_c, g.c.tile * g.c.step };
    loop tile_down = { "tile rows", g.r.tile, cols };
    loop tile_across = { "tile cols", g.c.tile, 1 };
    lp[0].what = "repeat";
    lp[0].size = g.repeat;
    lp[0].stride = 0;
    lp[1] = g.group_cm ? group_across : group_down;
    lp[2] = g.group_cm ? group_down : group_across;
    lp[3] = g.tile_cm ? tile_across : tile_down;
    lp[4] = g.tile_cm ? tile_down : tile_across;

    /* The inner four always fit an iron_tap.  The repeat loop, with stride
     * 0, never merges with a loop of positive stride, so it costs a
     * dimension of its own exactly when the inner four remain four. */
    iron_tap inner, merged;
    memset(&merged, 0, sizeof merged);
    merged.offset = row0 * cols + col0;
    merged.ndim = 4;
    for (int k = 0; k < 4; k++) {
        merged.sizes[k] = lp[k + 1].size;
        merged.strides[k] = lp[k + 1].stride;
    }
    iron__tap_canonical(&merged, &merged);
    iron_tap lit;
    memset(&lit, 0, sizeof lit);
    lit.offset = merged.offset;
    literal(lp + 1, 4, &lit);
    if (merged.ndim > 1 &&
        merged.sizes[merged.ndim - 1] != lit.sizes[lit.ndim - 1]) {
        /* A loop merged into the innermost one (a full-width tile's rows
         * into its columns) without making the pattern one run: the shim
         * DMA would read the merged run as d0, limited to 1023 words,
         * where upstream's tiler keeps the tile's rows and columns apart
         * (read as d1 and d0).  The outer loops merge among themselves. */
        iron_tap outer = lit;
        outer.ndim--;
        iron__tap_canonical(&outer, &merged);
        merged.sizes[merged.ndim] = lit.sizes[lit.ndim - 1];
        merged.strides[merged.ndim] = lit.strides[lit.ndim - 1];
        merged.ndim++;
    }
    inner = merged;
    if (g.no_prune)
        inner = lit;
    if (g.repeat > 1 && inner.ndim == IRON_TAP_MAX_DIMS) {
        char buf[512];
        int n = 0;
        for (int k = 0; k < 5 && n >= 0 && (size_t)n < sizeof buf; k++)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s (%lld, %lld)",
                          k ? ", " : "", lp[k].what, (long long)lp[k].size,
                          (long long)lp[k].stride);
        return iron__fail(IRON_ENOTSUP,
                          "iron_tiler2d_tap: a group's pattern needs 5 "
                          "dimensions as (size, stride): %s; an access "
                          "pattern has at most %d (use repeat 1 and visit "
                          "the pattern again%s)",
                          buf, IRON_TAP_MAX_DIMS,
                          merged.ndim < IRON_TAP_MAX_DIMS
                              ? ", or clear no_prune_step so that loops "
                                "which continue each other merge"
                              : "");
    }
    if (g.repeat > 1) {
        /* A lone element (1, 1) gives way to the repeat. */
        if (inner.ndim == 1 && inner.sizes[0] == 1)
            inner.ndim = 0;
        for (int k = inner.ndim; k > 0; k--) {
            inner.sizes[k] = inner.sizes[k - 1];
            inner.strides[k] = inner.strides[k - 1];
        }
        inner.sizes[0] = g.repeat;
        inner.strides[0] = 0;
        inner.ndim++;
    }
    /* Every pattern is in bounds by construction; checking costs little
     * and keeps a mistake here from reaching a DMA. */
    if (iron_tap_check(&inner, g.r.n * cols) != IRON_OK)
        return iron__fail_context(IRON_EINVAL,
                                  "iron_tiler2d_tap: group %lld (internal "
                                  "error: validate() should have refused "
                                  "these fields)",
                                  (long long)index);
    *out = inner;
    return iron__public_result(IRON_OK);
}
