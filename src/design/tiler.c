/*
 * tiler.c - the 2-D tiler (upstream IRON's TensorTiler2D): one access
 * pattern per group of tiles of a row-major matrix, for fill and drain.
 */
#include <stdio.h>

#include "core/core.h"
#include "design/layout.h"

/* Keeps every offset and stride of a pattern well inside int64_t. */
#define TILER_MAX ((int64_t)1 << 40)

/* The tiler's numbers once checked, with the 0 = 1 defaults applied. */
typedef struct geom {
    int64_t rows, cols, tr, tc, gr, gc, rep;
    int64_t grid_r, grid_c;   /* groups down and across */
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

/* Checks every field of t and fills g.  IRON_EINVAL naming the field and
 * its value otherwise. */
static iron_status validate(const iron_tiler2d *t, geom *g)
{
    iron_status s;
    if (!t)
        return iron__fail(IRON_EINVAL, "iron_tiler2d is NULL");
    if (t->size != sizeof(iron_tiler2d))
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.size is %zu; expected "
                          "sizeof(iron_tiler2d) = %zu",
                          t->size, sizeof(iron_tiler2d));
    if ((s = positive("rows", t->rows)) != IRON_OK ||
        (s = positive("cols", t->cols)) != IRON_OK ||
        (s = positive("tile_rows", t->tile_rows)) != IRON_OK ||
        (s = positive("tile_cols", t->tile_cols)) != IRON_OK ||
        (s = optional("group_rows", t->group_rows, &g->gr)) != IRON_OK ||
        (s = optional("group_cols", t->group_cols, &g->gc)) != IRON_OK ||
        (s = optional("repeat", t->repeat, &g->rep)) != IRON_OK)
        return s;
    g->rows = t->rows;
    g->cols = t->cols;
    g->tr = t->tile_rows;
    g->tc = t->tile_cols;
    if (g->rows > TILER_MAX / g->cols)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d: a %lld x %lld tensor has more than "
                          "2^40 elements",
                          (long long)g->rows, (long long)g->cols);
    if (g->rows % g->tr != 0)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.tile_rows (%lld) does not divide "
                          "rows (%lld)",
                          (long long)g->tr, (long long)g->rows);
    if (g->cols % g->tc != 0)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.tile_cols (%lld) does not divide "
                          "cols (%lld)",
                          (long long)g->tc, (long long)g->cols);
    int64_t tiles_r = g->rows / g->tr, tiles_c = g->cols / g->tc;
    if (tiles_r % g->gr != 0)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.group_rows (%lld) does not divide the "
                          "%lld tile rows (rows %lld / tile_rows %lld)",
                          (long long)g->gr, (long long)tiles_r,
                          (long long)g->rows, (long long)g->tr);
    if (tiles_c % g->gc != 0)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d.group_cols (%lld) does not divide the "
                          "%lld tile columns (cols %lld / tile_cols %lld)",
                          (long long)g->gc, (long long)tiles_c,
                          (long long)g->cols, (long long)g->tc);
    g->grid_r = tiles_r / g->gr;
    g->grid_c = tiles_c / g->gc;
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
    *count = g.grid_r * g.grid_c;
    return IRON_OK;
}

/* The pattern of one group is five nested loops, outermost first: the
 * repeat (stride 0), the group's tiles (down and across, swapped when
 * group_col_major) and the tile's elements (rows and columns, swapped when
 * tile_col_major).  Canonicalizing drops the loops of size 1 and merges
 * loops that continue each other (e.g. the tiles across a group with the
 * columns of a column-major tile), which usually brings it to four. */
IRON_API iron_status iron_tiler2d_tap(const iron_tiler2d *t, int64_t index,
                                      iron_tap *out)
{
    geom g;
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_tiler2d_tap: out is NULL");
    out->offset = 0;
    out->ndim = 0;
    iron_status s = validate(t, &g);
    if (s != IRON_OK)
        return s;
    int64_t count = g.grid_r * g.grid_c;
    if (index < 0 || index >= count)
        return iron__fail(IRON_EINVAL,
                          "iron_tiler2d_tap: group index %lld is outside 0 "
                          "to %lld (%lld x %lld groups)",
                          (long long)index, (long long)(count - 1),
                          (long long)g.grid_r, (long long)g.grid_c);

    int64_t gi, gj;   /* the group's place in the group grid */
    if (t->iter_col_major) {
        gj = index / g.grid_r;
        gi = index % g.grid_r;
    } else {
        gi = index / g.grid_c;
        gj = index % g.grid_c;
    }

    struct {
        const char *what;
        int64_t size, stride;
    } loop[5], group_down = { "group tile rows", g.gr, g.tr * g.cols },
               group_across = { "group tile cols", g.gc, g.tc },
               tile_down = { "tile rows", g.tr, g.cols },
               tile_across = { "tile cols", g.tc, 1 };
    loop[0].what = "repeat";
    loop[0].size = g.rep;
    loop[0].stride = 0;
    loop[1] = t->group_col_major ? group_across : group_down;
    loop[2] = t->group_col_major ? group_down : group_across;
    loop[3] = t->tile_col_major ? tile_across : tile_down;
    loop[4] = t->tile_col_major ? tile_down : tile_across;

    /* The inner four always fit an iron_tap.  The repeat loop, with stride
     * 0, never merges with a loop of positive stride, so it costs a
     * dimension of its own exactly when the inner four remain four. */
    iron_tap inner;
    inner.offset = gi * g.gr * g.tr * g.cols + gj * g.gc * g.tc;
    inner.ndim = 4;
    for (int k = 0; k < 4; k++) {
        inner.sizes[k] = loop[k + 1].size;
        inner.strides[k] = loop[k + 1].stride;
    }
    iron__tap_canonical(&inner, &inner);
    if (g.rep > 1 && inner.ndim == IRON_TAP_MAX_DIMS) {
        char buf[512];
        int n = 0;
        for (int k = 0; k < 5 && n >= 0 && (size_t)n < sizeof buf; k++)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s (%lld, %lld)",
                          k ? ", " : "", loop[k].what,
                          (long long)loop[k].size, (long long)loop[k].stride);
        return iron__fail(IRON_ENOTSUP,
                          "iron_tiler2d_tap: a group's pattern needs 5 "
                          "dimensions as (size, stride): %s; an access "
                          "pattern has at most %d (use repeat 1 and visit "
                          "the pattern again)",
                          buf, IRON_TAP_MAX_DIMS);
    }
    if (g.rep > 1) {
        for (int k = inner.ndim; k > 0; k--) {
            inner.sizes[k] = inner.sizes[k - 1];
            inner.strides[k] = inner.strides[k - 1];
        }
        inner.sizes[0] = g.rep;
        inner.strides[0] = 0;
        inner.ndim++;
        /* A 1x1 tile leaves an inner (1, 1) dimension to drop. */
        iron__tap_canonical(&inner, &inner);
    }
    *out = inner;
    return IRON_OK;
}
