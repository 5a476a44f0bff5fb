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

/* The shim DMA's limits (IRON__SHIM_MAX_*) are in layout.h: the tiler
 * bounds its repeat by the same iteration count. */

/* Sizes and strides are bounded like iron_tap_check bounds them, so the
 * arithmetic below stays far from overflow. */
#define DIM_MAX ((int64_t)1 << 40)

/* Saturating helpers for non-negative operands: a huge value in a
 * message (or a comparison against a limit) is better than undefined
 * behaviour on nonsense input. */
static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
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
    int64_t span, merged;
    if (so < 1 || ss < 0 || is < 1 || st < 0)
        return 0;
    /* The inner dimension's span and the merged size (computed again by
     * the caller) must both fit. */
    if (__builtin_mul_overflow(is, st, &span) ||
        __builtin_mul_overflow(so, is, &merged))
        return 0;
    return ss == span;
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
    /* Checked, not saturating: a count stuck at INT64_MAX would equal an
     * object of INT64_MAX elements. */
    int64_t count = 1;
    for (int k = 0; k < dims->ndim; k++)
        if (__builtin_mul_overflow(count, dims->sizes[k], &count))
            return iron__fail(IRON_EDESIGN,
                              "%s: %s visits more than 2^63 elements (the "
                              "sizes' product overflows at dimension %d); "
                              "an object has %lld",
                              label, w, k, (long long)obj_numel);
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

/* ---- the shim DMA's four dimensions -----------------------------------
 *
 * Upstream's NpuDmaMemcpyNdOp::verify (mlir-aie, AIEXDialect.cpp:
 * AIEX::verifyStridesWraps for a shim NOC tile: 10-bit wraps, 20-bit
 * steps, 6-bit iteration count, all encoded minus one) judges a transfer
 * as four hardware dimensions, d0 innermost to d3 outermost, written
 * right-aligned ([1, 1, a, b] for a 2-D pattern):
 *
 *   d0  size at most 1023 32-bit words; stride >= 1
 *   d1  size at most 1023;              stride >= 1
 *       (neither wrap is limited when the transfer is linear: d1 and d2
 *        of size 1 and d0 contiguous -- d3 does not matter)
 *   d2  size not limited (implicit in the transfer length); stride >= 1
 *   d3  the iteration count: size at most 64, and the only dimension whose
 *       stride may be 0 (a repeat)
 *
 * and every stride at most 2^20 words.  A pattern's canonical form has no
 * size-1 dimensions, so its dimensions can be spread over d0..d3 in any
 * order-preserving way (the padding a user of upstream writes by hand).
 * The check accepts a pattern when some placement meets every rule; it
 * reports the rule the natural placement breaks: right-aligned, except that
 * an outermost stride-0 dimension goes to d3, the only place it can be. */

/* One hardware dimension: a canonical dimension (dim >= 0) or padding. */
typedef struct hwdim {
    int64_t size, stride;
    int dim;
} hwdim;

typedef enum hw_rule {
    HW_OK,
    HW_STRIDE0,   /* a stride-0 dimension outside d3 */
    HW_WRAP0,     /* d0 over 1023 words */
    HW_WRAP1,     /* d1 over 1023 */
    HW_ITER       /* d3 over 64 */
} hw_rule;

/* Size of hardware dimension 0 as the DMA counts it: 32-bit words for a
 * contiguous run of sub-word or wide elements, else elements. */
static int64_t d0_units(const hwdim *h, int64_t es)
{
    /* Merged canonical sizes can exceed 2^40 (a product of several), so
     * the rounding up saturates too. */
    if (h->stride == 1 && es != 4)
        return sat_add(sat_mul(h->size, es), 3) / 4;
    return h->size;
}

/* The first of upstream's placement-dependent rules that hw[0..3] (d0
 * first) breaks, in upstream's order; *at is the hardware dimension. */
static hw_rule judge(const hwdim hw[4], int64_t es, int *at)
{
    for (int h = 0; h < 3; h++)
        if (hw[h].size > 1 && hw[h].stride == 0) {
            *at = h;
            return HW_STRIDE0;
        }
    int linear = hw[1].size == 1 && hw[2].size == 1 && hw[0].stride == 1;
    if (!linear && d0_units(&hw[0], es) > IRON__SHIM_MAX_WRAP) {
        *at = 0;
        return HW_WRAP0;
    }
    if (!linear && hw[1].size > IRON__SHIM_MAX_WRAP) {
        *at = 1;
        return HW_WRAP1;
    }
    if (hw[3].size > IRON__SHIM_MAX_REPEAT) {
        *at = 3;
        return HW_ITER;
    }
    return HW_OK;
}

/* Puts list[0..m-1] (outermost first) into hw[] with list[k] at hardware
 * dimension pos[k]; the rest is padding (size 1, stride 0). */
static void place(const hwdim *list, int m, const int *pos, hwdim hw[4])
{
    for (int h = 0; h < 4; h++) {
        hw[h].size = 1;
        hw[h].stride = 0;
        hw[h].dim = -1;
    }
    for (int k = 0; k < m; k++)
        hw[pos[k]] = list[k];
}

/* Does any order-preserving placement of list[0..m-1] meet the rules?
 * The innermost always takes d0; the others choose among d1..d3. */
static int any_placement(const hwdim *list, int m, int64_t es)
{
    int pos[4];
    hwdim hw[4];
    pos[m - 1] = 0;
    /* Each subset of {1,2,3} with m-1 members, taken in decreasing order. */
    for (int mask = 0; mask < 8; mask++) {
        int bits = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1);
        if (bits != m - 1)
            continue;
        int k = 0;
        for (int h = 3; h >= 1; h--)
            if (mask & (1 << (h - 1)))
                pos[k++] = h;
        place(list, m, pos, hw);
        int at;
        if (judge(hw, es, &at) == HW_OK)
            return 1;
    }
    return 0;
}

static iron_status check_placement(const canon *c, int64_t es, const char *dn)
{
    const iron_tap *t = &c->t;
    int n = t->ndim;
    char name[64], outer[64];

    /* Only d3 repeats, and d3 is outermost: a stride-0 dimension inside
     * another fits no placement. */
    for (int k = 1; k < n; k++)
        if (t->strides[k] == 0)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern %s %s stride 0 (%lld repeats) "
                              "inside %s (size %lld, stride %lld); the shim "
                              "DMA repeats only in its fourth, outermost "
                              "dimension, so a stride-0 dimension must be "
                              "the outermost",
                              dim_name(c, k, name, sizeof name),
                              dim_plural(c, k) ? "have" : "has",
                              (long long)t->sizes[k],
                              dim_name(c, k - 1, outer, sizeof outer),
                              (long long)t->sizes[k - 1],
                              (long long)t->strides[k - 1]);

    /* A single repeated element still needs a one-element run in d0. */
    hwdim list[IRON_TAP_MAX_DIMS + 1];
    int m = 0;
    for (int k = 0; k < n; k++) {
        list[m].size = t->sizes[k];
        list[m].stride = t->strides[k];
        list[m].dim = k;
        m++;
    }
    if (t->strides[n - 1] == 0 && t->sizes[n - 1] > 1) {
        list[m].size = 1;
        list[m].stride = 1;
        list[m].dim = -1;
        m++;
    }

    int pos[IRON_TAP_MAX_DIMS + 1];
    for (int k = 0; k < m; k++)
        pos[k] = m - 1 - k;
    if (m > 1 && list[0].stride == 0)
        pos[0] = 3;
    hwdim hw[4];
    place(list, m, pos, hw);
    int at = 0;
    hw_rule rule = judge(hw, es, &at);
    if (rule == HW_OK || any_placement(list, m, es))
        return IRON_OK;

    const hwdim *h = &hw[at];
    int k = h->dim;
    if (k < 0)   /* padding breaks no rule: size 1 */
        return iron__fail(IRON_EBOUNDS, "access pattern cannot be placed in "
                                        "the shim DMA's four dimensions");
    dim_name(c, k, name, sizeof name);
    int plural = dim_plural(c, k);
    switch (rule) {
    case HW_ITER:
        if (h->stride == 0)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern %s %s %lld times; the shim DMA "
                              "repeats at most %d",
                              name, plural ? "repeat" : "repeats",
                              (long long)h->size, IRON__SHIM_MAX_REPEAT);
        return iron__fail(IRON_EBOUNDS,
                          "access pattern %s %s size %lld with stride %lld; "
                          "the outermost of four dimensions is the shim "
                          "DMA's iteration count (its fourth dimension), at "
                          "most %d",
                          name, plural ? "have" : "has", (long long)h->size,
                          (long long)h->stride, IRON__SHIM_MAX_REPEAT);
    case HW_WRAP0:
        if (h->stride == 1 && es != 4)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern %s %s size %lld with stride 1 "
                              "(%lld 32-bit words of %s); strided sizes are "
                              "at most %d words",
                              name, plural ? "have" : "has",
                              (long long)h->size,
                              (long long)d0_units(h, es), dn,
                              IRON__SHIM_MAX_WRAP);
        /* fall through */
    case HW_WRAP1:
        return iron__fail(IRON_EBOUNDS,
                          "access pattern %s %s size %lld with stride %lld; "
                          "strided sizes are at most %d",
                          name, plural ? "have" : "has", (long long)h->size,
                          (long long)h->stride, IRON__SHIM_MAX_WRAP);
    default:
        /* The natural placement keeps stride 0 in d3 (checked above). */
        return iron__fail(IRON_EBOUNDS,
                          "access pattern %s cannot be placed in the shim "
                          "DMA's four dimensions",
                          name);
    }
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

    iron_status s = check_placement(&c, es, dn);
    if (s != IRON_OK)
        return s;

    if ((t->offset % 4) * es % 4 != 0)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern offset of %lld bytes is not a "
                          "multiple of 4 (offset %lld %s elements)",
                          (long long)sat_mul(t->offset, es),
                          (long long)t->offset, dn);
    s = check_words(&c, dt, IRON_EBOUNDS, "access pattern: ");
    if (s != IRON_OK)
        return s;

    for (int k = 0; k < n; k++) {
        if (t->sizes[k] == 1)
            continue;
        int64_t words = sat_mul(t->strides[k], es) / 4;
        if (words > IRON__SHIM_MAX_STRIDE_WORDS)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern stride %lld words exceeds 2^20 "
                              "(%s: stride %lld %s elements)",
                              (long long)words,
                              dim_name(&c, k, name, sizeof name),
                              (long long)t->strides[k], dn);
    }
    return IRON_OK;
}
