/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tap.c - tensor access patterns: construction, counting and the bounds
 * check shared by the design builder and the DMA engines.
 *
 * Every product and sum here goes through __builtin_*_overflow: the
 * patterns come from users (and, moved by dispatch-time scalars, from
 * per-call values), so a wrapped int64_t would turn a pattern that reaches
 * far outside its tensor into one that looks inside it.
 */
#include <string.h>

#include "design/design.h"
#include "design/layout.h"

/* The largest size, stride and visit count a pattern may have: far beyond
 * any device memory, and small enough that a DMA's address arithmetic on
 * an accepted pattern (index x element size, at most 8 bytes) stays well
 * inside 64 bits.  2^40 x 2^40 still overflows, hence the checked
 * arithmetic below. */
#define TAP_BIG ((int64_t)1 << 40)

IRON_API iron_tap iron_tap_linear(int64_t n)
{
    iron_tap t;
    memset(&t, 0, sizeof t);
    t.ndim = 1;
    t.sizes[0] = n;
    t.strides[0] = 1;
    return t;
}

IRON_API iron_tap iron_tap_make(int64_t offset, int ndim,
                                const int64_t *sizes, const int64_t *strides)
{
    iron_tap t;
    memset(&t, 0, sizeof t);
    t.offset = offset;
    t.ndim = ndim;
    if (ndim >= 1 && ndim <= IRON_TAP_MAX_DIMS && sizes && strides)
        for (int i = 0; i < ndim; i++) {
            t.sizes[i] = sizes[i];
            t.strides[i] = strides[i];
        }
    else
        t.ndim = ndim < 1 || ndim > IRON_TAP_MAX_DIMS ? ndim : 0;
    return t;
}

/* 0 for a malformed pattern; -1 when the product does not fit int64_t,
 * so that a count that wrapped (to 0 for sizes {2^62, 4}) is never taken
 * for a real one. */
IRON_API int64_t iron_tap_count(const iron_tap *tap)
{
    if (!tap || tap->ndim < 1 || tap->ndim > IRON_TAP_MAX_DIMS)
        return 0;
    for (int i = 0; i < tap->ndim; i++)
        if (tap->sizes[i] < 1)
            return 0;
    int64_t n = 1;
    for (int i = 0; i < tap->ndim; i++)
        if (__builtin_mul_overflow(n, tap->sizes[i], &n))
            return -1;
    return n;
}

IRON_API iron_status iron_tap_check(const iron_tap *tap, int64_t numel)
{
    if (!tap)
        return iron__fail(IRON_EINVAL, "access pattern is NULL");
    if (tap->ndim < 1 || tap->ndim > IRON_TAP_MAX_DIMS)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern has %d dimensions; expected 1 to %d "
                          "(sizes or strides NULL?)",
                          tap->ndim, IRON_TAP_MAX_DIMS);
    if (tap->offset < 0)
        return iron__fail(IRON_EBOUNDS, "access pattern offset is %lld; "
                                        "expected >= 0",
                          (long long)tap->offset);
    int64_t reach = tap->offset, count = 1;
    for (int i = 0; i < tap->ndim; i++) {
        int64_t size = tap->sizes[i], stride = tap->strides[i];
        if (size < 1 || size > TAP_BIG)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern size[%d] is %lld; expected 1 "
                              "to 2^40",
                              i, (long long)size);
        if (stride < 0 || stride > TAP_BIG)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern stride[%d] is %lld; expected 0 "
                              "to 2^40",
                              i, (long long)stride);
        /* count <= 2^40 and size <= 2^40 here: the product may still
         * overflow. */
        int64_t before = count;
        if (__builtin_mul_overflow(before, size, &count))
            return iron__fail(IRON_EBOUNDS,
                              "access pattern: the number of visits "
                              "overflows 64 bits at size[%d]: %lld x %lld; "
                              "expected at most 2^40 visits",
                              i, (long long)before, (long long)size);
        if (count > TAP_BIG)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern visits more than 2^40 elements "
                              "(%lld by size[%d])",
                              (long long)count, i);
        /* (size-1) x stride, then offset + the reach so far: either may
         * wrap (to a negative or small value that would pass the bound
         * below). */
        int64_t term, was = reach;
        if (__builtin_mul_overflow(size - 1, stride, &term))
            return iron__fail(IRON_EBOUNDS,
                              "access pattern: size[%d] x stride[%d] "
                              "overflows 64 bits: (%lld - 1) x %lld; the "
                              "tensor has %lld elements",
                              i, i, (long long)size, (long long)stride,
                              (long long)numel);
        if (__builtin_add_overflow(was, term, &reach))
            return iron__fail(IRON_EBOUNDS,
                              "access pattern: offset + reach overflows 64 "
                              "bits at dimension %d: offset %lld, reach %lld "
                              "before it, + (size[%d] - 1) x stride[%d] = "
                              "%lld; the tensor has %lld elements",
                              i, (long long)tap->offset,
                              (long long)(was - tap->offset), i, i,
                              (long long)term, (long long)numel);
    }
    if (reach >= numel)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern goes out of bounds: it reaches "
                          "element %lld, the tensor has %lld (offset %lld + "
                          "sum of (size-1)*stride = %lld)",
                          (long long)reach, (long long)numel,
                          (long long)tap->offset,
                          (long long)(reach - tap->offset));
    return iron__public_result(IRON_OK);
}

/* "offset 0 sizes [4, 4] strides [8, 1]", for dumps and pictures. */
void iron__tap_text(iron__str *s, const iron_tap *t)
{
    iron__str_printf(s, "offset %lld sizes [", (long long)t->offset);
    /* A malformed ndim (iron_tap_make keeps it) prints no dimensions
     * rather than reading past the arrays. */
    int n = t->ndim < 0 ? 0 : IRON__MIN(t->ndim, IRON_TAP_MAX_DIMS);
    for (int i = 0; i < n; i++)
        iron__str_printf(s, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    iron__str_append(s, "] strides [");
    for (int i = 0; i < n; i++)
        iron__str_printf(s, "%s%lld", i ? ", " : "",
                         (long long)t->strides[i]);
    iron__str_append(s, "]");
}
