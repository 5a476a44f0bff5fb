/*
 * layout.c - data layout transforms and shim access patterns: the canonical
 * form (size-1 dimensions dropped, contiguous dimensions merged) and the
 * checks against what a tile's DMA address generator can do.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "design/layout.h"

/* Shim DMA limits (counted in 32-bit words where the hardware does). */
#define SHIM_MAX_REPEAT 64
#define SHIM_MAX_WRAP 1023
#define SHIM_MAX_STRIDE_WORDS ((int64_t)1 << 20)

/* Sizes and strides are bounded like iron_tap_check bounds them, so the
 * arithmetic below stays far from overflow. */
#define DIM_MAX ((int64_t)1 << 40)

/* Non-negative saturating helpers: a huge value in a message is better
 * than undefined behaviour on nonsense input. */
static int64_t sat_mul(int64_t a, int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > INT64_MAX / b ? INT64_MAX : a * b;
}

static int64_t sat_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* A canonical pattern plus, for each of its dimensions, the range of input
 * dimensions it stands for (so messages can name what the user wrote). */
typedef struct canon {
    iron_tap t;
    int lo[IRON_TAP_MAX_DIMS], hi[IRON_TAP_MAX_DIMS];
} canon;

/* May the outer dimension (so, ss) be folded into the inner one (is, st)?
 * Only for well-formed dimensions (sizes >= 1, strides >= 0) and when the
 * merged size cannot overflow. */
static int mergeable(int64_t so, int64_t ss, int64_t is, int64_t st)
{
    if (so < 1 || ss < 0 || is < 1 || st < 0)
        return 0;
    if (st != 0 && is > INT64_MAX / st)
        return 0;
    if (so > INT64_MAX / is)
        return 0;
    return ss == is * st;
}

/* Walks from the innermost dimension outward, dropping size-1 dimensions
 * and folding each dimension into the one just inside it when it continues
 * it.  Patterns with an invalid ndim are copied unchanged. */
static void canonicalize(const iron_tap *in, canon *c)
{
    iron_tap src = *in; /* in may alias c->t */
    int64_t rs[IRON_TAP_MAX_DIMS], rt[IRON_TAP_MAX_DIMS];
    int rlo[IRON_TAP_MAX_DIMS], rhi[IRON_TAP_MAX_DIMS];
    int n = 0;

    memset(c, 0, sizeof *c);
    c->t.offset = src.offset;
    if (src.ndim < 1 || src.ndim > IRON_TAP_MAX_DIMS) {
        c->t = src;
        for (int k = 0; k < IRON_TAP_MAX_DIMS; k++)
            c->lo[k] = c->hi[k] = k;
        return;
    }
    for (int k = src.ndim - 1; k >= 0; k--) {
        int64_t size = src.sizes[k], stride = src.strides[k];
        if (size == 1)
            continue;
        if (n > 0 && mergeable(size, stride, rs[n - 1], rt[n - 1])) {
            rs[n - 1] *= size;
            rlo[n - 1] = k;
            continue;
        }
        rs[n] = size;
        rt[n] = stride;
        rlo[n] = rhi[n] = k;
        n++;
    }
    if (n == 0) {
        /* Every dimension had size 1: one element, at the offset. */
        c->t.ndim = 1;
        c->t.sizes[0] = 1;
        c->t.strides[0] = 1;
        c->lo[0] = 0;
        c->hi[0] = src.ndim - 1;
        return;
    }
    c->t.ndim = n;
    for (int k = 0; k < n; k++) {
        c->t.sizes[k] = rs[n - 1 - k];
        c->t.strides[k] = rt[n - 1 - k];
        c->lo[k] = rlo[n - 1 - k];
        c->hi[k] = rhi[n - 1 - k];
    }
}

void iron__tap_canonical(const iron_tap *in, iron_tap *out)
{
    canon c;
    if (!in || !out)
        return;
    canonicalize(in, &c);
    *out = c.t;
}

/* "dimension 2" or "dimensions 1-2 (merged)" for canonical dimension k. */
static const char *dim_name(const canon *c, int k, char *buf, size_t len)
{
    if (c->lo[k] == c->hi[k])
        snprintf(buf, len, "dimension %d", c->lo[k]);
    else
        snprintf(buf, len, "dimensions %d-%d (merged)", c->lo[k], c->hi[k]);
    return buf;
}

static int dim_plural(const canon *c, int k)
{
    return c->lo[k] != c->hi[k];
}

/* Which list the endpoint label's transform is: labels are built by
 * iron__handle_label ("fifo 'a' (producer)", "fifo 'a' (consumer 1)"). */
static const char *dims_word(const char *label)
{
    if (strstr(label, "(producer)"))
        return "dims_to_stream";
    if (strstr(label, "(consumer"))
        return "dims_from_stream";
    return "layout transform";
}

/* The 32-bit word rules shared by both checks, for 1- and 2-byte dtypes:
 * the innermost dimension is a contiguous run of whole words and every
 * other stride is a whole number of words.  `what` prefixes messages. */
static iron_status check_words(const canon *c, iron_dtype dt, iron_status st,
                               const char *what)
{
    int64_t es = (int64_t)iron_dtype_size(dt);
    int n = c->t.ndim;
    const char *dn = iron_dtype_name(dt);
    char name[64];

    if (es >= 4)
        return IRON_OK;
    int64_t run = c->t.sizes[n - 1];
    if (c->t.strides[n - 1] != 1 && run > 1)
        return iron__fail(st,
                          "%s%s innermost stride is %lld; with %lld-byte "
                          "elements it must be 1 (DMA addresses count 32-bit "
                          "words)",
                          what, dn, (long long)c->t.strides[n - 1],
                          (long long)es);
    if ((run % 4) * es % 4 != 0)
        return iron__fail(st,
                          "%s%s innermost run is %lld %s (%lld %s); with "
                          "%lld-byte elements it must be a whole number of "
                          "4-byte words (DMA addresses count 32-bit words)",
                          what, dn, (long long)run,
                          iron__plural(run, "element", "elements"),
                          (long long)sat_mul(run, es),
                          iron__plural(sat_mul(run, es), "byte", "bytes"),
                          (long long)es);
    for (int k = 0; k < n - 1; k++) {
        int64_t s = c->t.strides[k];
        if ((s % 4) * es % 4 != 0)
            return iron__fail(st,
                              "%s%s stride of %lld bytes is not a multiple "
                              "of 4 (stride %lld %s elements; DMA addresses "
                              "count 32-bit words)",
                              what, dim_name(c, k, name, sizeof name),
                              (long long)sat_mul(s, es), (long long)s, dn);
    }
    return IRON_OK;
}

iron_status iron__dims_check(const iron_tap *dims, int max_ndim,
                             iron_dtype dt, int64_t obj_numel,
                             const char *label)
{
    if (!label)
        label = "endpoint";
    const char *w = dims_word(label);
    if (!dims)
        return iron__fail(IRON_EINVAL, "%s: %s is NULL", label, w);
    if (iron_dtype_size(dt) == 0)
        return iron__fail(IRON_EINVAL, "%s: unknown dtype %d", label, (int)dt);
    if (obj_numel < 1)
        return iron__fail(IRON_EINVAL, "%s: object of %lld elements", label,
                          (long long)obj_numel);
    if (max_ndim < 1 || max_ndim > IRON_TAP_MAX_DIMS)
        max_ndim = IRON_TAP_MAX_DIMS;
    if (dims->ndim < 1)
        return iron__fail(IRON_EDESIGN,
                          "%s: %s has %d dimensions; expected 1 to %d on this "
                          "tile",
                          label, w, dims->ndim, max_ndim);
    if (dims->ndim > max_ndim)
        return iron__fail(IRON_EDESIGN,
                          "%s: %s has %d dimensions; at most %d on this tile",
                          label, w, dims->ndim, max_ndim);
    if (dims->offset != 0)
        return iron__fail(IRON_EDESIGN,
                          "%s: %s has offset %lld; a layout transform starts "
                          "at element 0 of the object",
                          label, w, (long long)dims->offset);
    for (int k = 0; k < dims->ndim; k++) {
        if (dims->sizes[k] < 1 || dims->sizes[k] > DIM_MAX)
            return iron__fail(IRON_EDESIGN,
                              "%s: %s dimension %d has size %lld; expected 1 "
                              "to 2^40",
                              label, w, k, (long long)dims->sizes[k]);
        if (dims->strides[k] < 0 || dims->strides[k] > DIM_MAX)
            return iron__fail(IRON_EDESIGN,
                              "%s: %s dimension %d has stride %lld; expected "
                              "0 to 2^40",
                              label, w, k, (long long)dims->strides[k]);
    }
    /* Every element inside the object: the reach grows from the innermost
     * dimension outward, and the first dimension that crosses the end is
     * the one named. */
    int64_t reach = 0;
    for (int k = dims->ndim - 1; k >= 0; k--) {
        reach = sat_add(reach,
                        sat_mul(dims->sizes[k] - 1, dims->strides[k]));
        if (reach >= obj_numel)
            return iron__fail(IRON_EDESIGN,
                              "%s: %s dimension %d (size %lld, stride %lld) "
                              "reaches element %lld; the object has %lld",
                              label, w, k, (long long)dims->sizes[k],
                              (long long)dims->strides[k], (long long)reach,
                              (long long)obj_numel);
    }
    int64_t count = 1;
    for (int k = 0; k < dims->ndim; k++)
        count = sat_mul(count, dims->sizes[k]);
    if (count != obj_numel)
        return iron__fail(IRON_EDESIGN,
                          "%s: %s visits %lld elements; an object has %lld",
                          label, w, (long long)count, (long long)obj_numel);

    canon c;
    canonicalize(dims, &c);
    char what[600];
    snprintf(what, sizeof what, "%s: %s: ", label, w);
    return check_words(&c, dt, IRON_EDESIGN, what);
}

iron_status iron__tap_check_shim(const iron_tap *tap, iron_dtype dt)
{
    if (!tap)
        return iron__fail(IRON_EINVAL, "access pattern is NULL");
    int64_t es = (int64_t)iron_dtype_size(dt);
    if (es == 0)
        return iron__fail(IRON_EINVAL, "access pattern: unknown dtype %d",
                          (int)dt);
    if (tap->ndim < 1 || tap->ndim > IRON_TAP_MAX_DIMS)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern has %d dimensions; the shim DMA "
                          "takes 1 to %d",
                          tap->ndim, IRON_TAP_MAX_DIMS);
    if (tap->offset < 0 || tap->offset > DIM_MAX)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern offset is %lld; expected 0 to 2^40",
                          (long long)tap->offset);
    for (int k = 0; k < tap->ndim; k++) {
        if (tap->sizes[k] < 1 || tap->sizes[k] > DIM_MAX)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern size[%d] is %lld; expected 1 "
                              "to 2^40",
                              k, (long long)tap->sizes[k]);
        if (tap->strides[k] < 0 || tap->strides[k] > DIM_MAX)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern stride[%d] is %lld; expected 0 "
                              "to 2^40",
                              k, (long long)tap->strides[k]);
    }

    canon c;
    canonicalize(tap, &c);
    const iron_tap *t = &c.t;
    int n = t->ndim;
    const char *dn = iron_dtype_name(dt);
    char name[64];

    /* With four dimensions the outermost is the buffer descriptor's repeat
     * count; with fewer it is an ordinary (unbounded) outer loop. */
    if (n == IRON_TAP_MAX_DIMS && t->sizes[0] > SHIM_MAX_REPEAT)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern %s %s %lld times; the shim DMA "
                          "repeats at most %d",
                          dim_name(&c, 0, name, sizeof name),
                          dim_plural(&c, 0) ? "repeat" : "repeats",
                          (long long)t->sizes[0], SHIM_MAX_REPEAT);

    /* The two innermost dimensions have 10-bit wraps, unless the whole
     * transfer is one contiguous run (a plain length). An innermost
     * contiguous dimension is counted in 32-bit words, as the DMA counts
     * it. */
    if (n > 1 || t->strides[0] != 1) {
        for (int k = n >= 2 ? n - 2 : 0; k < n; k++) {
            int64_t size = t->sizes[k];
            int in_words = k == n - 1 && t->strides[k] == 1 && es != 4;
            int64_t units = in_words ? (sat_mul(size, es) + 3) / 4 : size;
            if (units <= SHIM_MAX_WRAP)
                continue;
            if (in_words)
                return iron__fail(IRON_EBOUNDS,
                                  "access pattern %s %s size %lld with "
                                  "stride 1 (%lld 32-bit words of %s); "
                                  "strided sizes are at most %d words",
                                  dim_name(&c, k, name, sizeof name),
                                  dim_plural(&c, k) ? "have" : "has",
                                  (long long)size, (long long)units, dn,
                                  SHIM_MAX_WRAP);
            return iron__fail(IRON_EBOUNDS,
                              "access pattern %s %s size %lld with stride "
                              "%lld; strided sizes are at most %d",
                              dim_name(&c, k, name, sizeof name),
                              dim_plural(&c, k) ? "have" : "has",
                              (long long)size, (long long)t->strides[k],
                              SHIM_MAX_WRAP);
        }
    }

    if ((t->offset % 4) * es % 4 != 0)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern offset of %lld bytes is not a "
                          "multiple of 4 (offset %lld %s elements)",
                          (long long)sat_mul(t->offset, es),
                          (long long)t->offset, dn);
    iron_status s = check_words(&c, dt, IRON_EBOUNDS, "access pattern: ");
    if (s != IRON_OK)
        return s;

    for (int k = 0; k < n; k++) {
        if (t->sizes[k] == 1)
            continue;
        int64_t words = sat_mul(t->strides[k], es) / 4;
        if (words > SHIM_MAX_STRIDE_WORDS)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern stride %lld words exceeds 2^20 "
                              "(%s: stride %lld %s elements)",
                              (long long)words,
                              dim_name(&c, k, name, sizeof name),
                              (long long)t->strides[k], dn);
    }
    return IRON_OK;
}
