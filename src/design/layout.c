/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
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
 * Upstream (mlir-aie: AIEX::verifyStridesWraps for a shim NOC tile, called
 * by NpuDmaMemcpyNdOp::verify and, for IRON's runtime tasks, by
 * aie-dma-tasks-to-npu; 10-bit wraps, 20-bit steps, 6-bit iteration
 * count) judges a transfer as four hardware dimensions, d0 innermost to
 * d3 outermost.  IRON's runtime (shim_dma_single_bd_task) fills a pattern
 * of fewer than four dimensions up from the left with size 1, stride 0:
 * a 2-D pattern [a, b] is read right-aligned, as [1, 1, a, b].  Then:
 *
 *   d0  size at most 1023 32-bit words (size x element bytes / 4)
 *   d1  size at most 1023
 *       (neither is limited when d0..d2 are one contiguous row-major
 *        run: d0 stride 1, each outer stride the product of the sizes
 *        inside -- the transfer is then linear; d3 does not matter)
 *   d2  size not limited (implicit in the transfer length)
 *   d3  the iteration count, at most 64 (upstream's verifier lets 65
 *       through, one more than its 6-bit field holds), and the only
 *       dimension whose stride may be 0 (a repeat)
 *   every stride at least 1 where its size is above 1 (but d3's), and
 *   at most 2^20 words
 *
 * The pattern is read as written: nothing is merged, and no dimension is
 * moved to another hardware dimension than right-alignment gives it --
 * a design that runs here exports (mlir/export_seq.c writes exactly this
 * reading) and compiles upstream.  Two readings upstream's users write by
 * hand are made here too, as neither changes which limit applies to a
 * dimension of more than one element: leading size-1 dimensions are
 * dropped first (the padding puts them back), and an outermost stride-0
 * dimension (a repeat) is d3 however many dimensions the pattern has
 * ([R, 1, a, b] for [R, a, b]), where upstream's tiler puts its
 * pattern_repeat. */

/* One hardware dimension: dimension `dim` of the pattern, or padding
 * (dim -1: size 1, stride 0). */
typedef struct hwdim {
    int64_t size, stride;
    int dim;
} hwdim;

typedef enum hw_rule {
    HW_OK,
    HW_WRAP0,     /* d0 over 1023 words */
    HW_WRAP1,     /* d1 over 1023 */
    HW_ITER       /* d3 over 64 */
} hw_rule;

/* The pattern's dimensions in hw[0] (d0) .. hw[3] (d3); the pattern has
 * 1 to 4 dimensions. */
static void read_hw(const iron_tap *t, hwdim hw[4])
{
    for (int h = 0; h < 4; h++)
        hw[h] = (hwdim){ 1, 0, -1 };
    int first = 0;
    while (first < t->ndim - 1 && t->sizes[first] == 1)
        first++;
    int last = t->ndim - 1;
    if (t->strides[first] == 0 && t->sizes[first] > 1) {
        hw[3] = (hwdim){ t->sizes[first], 0, first };
        if (first == last) {
            /* One element, repeated: a one-element run in d0. */
            hw[0] = (hwdim){ 1, 1, -1 };
            return;
        }
        first++;
    }
    for (int k = last, h = 0; k >= first; k--, h++)
        hw[h] = (hwdim){ t->sizes[k], t->strides[k], k };
}

void iron__tap_shim_dims(const iron_tap *t, int64_t sizes[4],
                         int64_t strides[4])
{
    hwdim hw[4];
    read_hw(t, hw);
    for (int h = 0; h < 4; h++) {
        sizes[3 - h] = hw[h].size;
        strides[3 - h] = hw[h].stride;
    }
}

/* Size of hardware dimension 0 as the DMA counts it: 32-bit words (its
 * elements x their bytes / 4; a sub-word run is contiguous, checked
 * apart). */
static int64_t d0_units(const hwdim *h, int64_t es)
{
    IRON__ASSERT(h->size >= 0 && h->size <= (int64_t)1 << 40 && es <= 8,
                 "iron_tap_check bounds sizes to 2^40 and elements are at "
                 "most 8 bytes, so the product cannot overflow");
    return h->size * es / 4;
}

/* d0..d2 one contiguous row-major run (upstream's isContiguousTransfer):
 * the transfer is linear and its wraps are not limited. */
static int contiguous(const hwdim hw[4])
{
    return hw[0].stride == 1 &&
           (hw[1].size == 1 || hw[1].stride == hw[0].size) &&
           (hw[2].size == 1 ||
            hw[2].stride == sat_mul(hw[0].size, hw[1].size));
}

/* The first of upstream's wrap and iteration rules that hw[] breaks, in
 * upstream's order; *at is the hardware dimension. */
static hw_rule judge(const hwdim hw[4], int64_t es, int *at)
{
    int linear = contiguous(hw);
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

/* A way to write a failing pattern that fits: its dimensions of more than
 * one element (list, outermost first, m of them) spread over d0..d3 with
 * size-1 dimensions between, the innermost in d0.  Appends it to s as
 * "[sizes] (strides [..])", or returns 0 when no spreading fits. */
static int fitting_form(const hwdim *list, int m, int64_t es, iron__str *s)
{
    if (m < 1 || m > 4)
        return 0;
    for (int mask = 0; mask < 8; mask++) {
        int bits = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1);
        if (bits != m - 1)
            continue;
        hwdim hw[4];
        for (int h = 0; h < 4; h++)
            hw[h] = (hwdim){ 1, 0, -1 };
        hw[0] = list[m - 1];
        for (int h = 3, k = 0; h >= 1; h--)
            if (mask & (1 << (h - 1)))
                hw[h] = list[k++];
        int at, far = 0;
        for (int h = 0; h < 4; h++)
            far |= hw[h].size > 1 && sat_mul(hw[h].stride, es) / 4 >
                                         IRON__SHIM_MAX_STRIDE_WORDS;
        if (far || judge(hw, es, &at) != HW_OK)
            continue;
        iron__str_printf(s, "[%lld, %lld, %lld, %lld] (strides [%lld, %lld, "
                         "%lld, %lld])",
                         (long long)hw[3].size, (long long)hw[2].size,
                         (long long)hw[1].size, (long long)hw[0].size,
                         (long long)hw[3].stride, (long long)hw[2].stride,
                         (long long)hw[1].stride, (long long)hw[0].stride);
        return 1;
    }
    return 0;
}

/* What a failure's message ends with: how the shim DMA reads the
 * pattern and, if there is one, a way to write it that fits. */
static void reading_text(const iron_tap *t, const hwdim hw[4], int64_t es,
                         iron__str *s)
{
    int used = 0;
    for (int h = 0; h < 4; h++)
        used += hw[h].dim >= 0;
    iron__str_printf(s, "; the shim DMA reads the pattern as sizes [%lld, "
                     "%lld, %lld, %lld], strides [%lld, %lld, %lld, %lld] "
                     "(d3 .. d0%s)",
                     (long long)hw[3].size, (long long)hw[2].size,
                     (long long)hw[1].size, (long long)hw[0].size,
                     (long long)hw[3].stride, (long long)hw[2].stride,
                     (long long)hw[1].stride, (long long)hw[0].stride,
                     used < 4 ? ": dimensions right-aligned, the missing "
                                "outer ones of size 1, as upstream fills "
                                "them"
                              : "");
    hwdim list[IRON_TAP_MAX_DIMS];
    int m = 0;
    for (int k = 0; k < t->ndim; k++)
        if (t->sizes[k] > 1)
            list[m++] = (hwdim){ t->sizes[k], t->strides[k], k };
    iron__str form = { 0 };
    if (fitting_form(list, m, es, &form))
        iron__str_printf(s, "; written with size-1 dimensions as %s it "
                         "fits", iron__str_get(&form));
    iron__str_free(&form);
}

static iron_status check_placement(const iron_tap *t, int64_t es,
                                   const char *dn)
{
    hwdim hw[4];
    read_hw(t, hw);

    /* Only d3 repeats: a stride-0 dimension anywhere else fits nowhere. */
    for (int h = 0; h < 3; h++)
        if (hw[h].size > 1 && hw[h].stride == 0) {
            int k = hw[h].dim, o = k - 1;
            while (o > 0 && t->sizes[o] == 1)
                o--;
            return iron__fail(IRON_EBOUNDS,
                              "access pattern dimension %d has stride 0 "
                              "(%lld repeats) inside dimension %d (size "
                              "%lld, stride %lld); the shim DMA repeats only "
                              "in its fourth, outermost dimension, so a "
                              "stride-0 dimension must be the outermost",
                              k, (long long)t->sizes[k], o,
                              (long long)t->sizes[o],
                              (long long)t->strides[o]);
        }

    int at = 0;
    hw_rule rule = judge(hw, es, &at);
    if (rule == HW_OK)
        return IRON_OK;
    const hwdim *h = &hw[at];
    int k = h->dim;
    iron__str why = { 0 };
    iron_status s;
    switch (rule) {
    case HW_ITER:
        if (h->stride == 0) {
            s = iron__fail(IRON_EBOUNDS,
                           "access pattern dimension %d repeats %lld times; "
                           "the shim DMA repeats at most %d",
                           k, (long long)h->size, IRON__SHIM_MAX_REPEAT);
            break;
        }
        reading_text(t, hw, es, &why);
        s = iron__fail(IRON_EBOUNDS,
                       "access pattern dimension %d has size %lld with "
                       "stride %lld; the outermost of four dimensions is "
                       "the shim DMA's iteration count (its fourth "
                       "dimension), at most %d%s",
                       k, (long long)h->size, (long long)h->stride,
                       IRON__SHIM_MAX_REPEAT, iron__str_get(&why));
        break;
    default:
        reading_text(t, hw, es, &why);
        if (rule == HW_WRAP0 && es != 4) {
            s = iron__fail(IRON_EBOUNDS,
                           "access pattern dimension %d has size %lld with "
                           "stride %lld (%lld 32-bit words of %s); strided "
                           "sizes are at most %d words in the shim DMA's "
                           "innermost dimension, d0%s",
                           k, (long long)h->size, (long long)h->stride,
                           (long long)d0_units(h, es), dn,
                           IRON__SHIM_MAX_WRAP, iron__str_get(&why));
            break;
        }
        s = iron__fail(IRON_EBOUNDS,
                       "access pattern dimension %d has size %lld with "
                       "stride %lld; strided sizes are at most %d in the "
                       "shim DMA's %s%s",
                       k, (long long)h->size, (long long)h->stride,
                       IRON__SHIM_MAX_WRAP,
                       rule == HW_WRAP0 ? "innermost dimension, d0"
                                        : "dimension d1",
                       iron__str_get(&why));
        break;
    }
    iron__str_free(&why);
    return s;
}

/* The pattern with its size-1 dimensions dropped and nothing merged: the
 * dimensions as the shim DMA takes them, for the word rules. */
static void as_written(const iron_tap *in, canon *c)
{
    memset(c, 0, sizeof *c);
    c->t.offset = in->offset;
    for (int k = 0; k < in->ndim; k++)
        if (in->sizes[k] > 1) {
            c->t.sizes[c->t.ndim] = in->sizes[k];
            c->t.strides[c->t.ndim] = in->strides[k];
            c->lo[c->t.ndim] = c->hi[c->t.ndim] = k;
            c->t.ndim++;
        }
    if (c->t.ndim == 0) {
        c->t.ndim = 1;
        c->t.sizes[0] = 1;
        c->t.strides[0] = 1;
        c->lo[0] = 0;
        c->hi[0] = in->ndim - 1;
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
    as_written(tap, &c);
    const iron_tap *t = &c.t;
    int n = t->ndim;
    const char *dn = iron_dtype_name(dt);
    char name[64];

    iron_status s = check_placement(tap, es, dn);
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
