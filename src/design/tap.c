/*
 * tap.c - tensor access patterns: construction, counting and the bounds
 * check shared by the design builder and the DMA engines.
 */
#include <string.h>

#include "design/design.h"
#include "design/layout.h"

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

IRON_API int64_t iron_tap_count(const iron_tap *tap)
{
    if (!tap || tap->ndim < 1 || tap->ndim > IRON_TAP_MAX_DIMS)
        return 0;
    int64_t n = 1;
    for (int i = 0; i < tap->ndim; i++) {
        if (tap->sizes[i] < 1)
            return 0;
        n *= tap->sizes[i];
    }
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
    /* Bounds are kept below 2^62 so the reach below cannot overflow. */
    const int64_t big = (int64_t)1 << 40;
    int64_t reach = tap->offset, count = 1;
    for (int i = 0; i < tap->ndim; i++) {
        if (tap->sizes[i] < 1 || tap->sizes[i] > big)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern size[%d] is %lld; expected 1 "
                              "to 2^40",
                              i, (long long)tap->sizes[i]);
        if (tap->strides[i] < 0 || tap->strides[i] > big)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern stride[%d] is %lld; expected 0 "
                              "to 2^40",
                              i, (long long)tap->strides[i]);
        count *= tap->sizes[i];
        if (count > big)
            return iron__fail(IRON_EBOUNDS,
                              "access pattern visits more than 2^40 elements");
        reach += (tap->sizes[i] - 1) * tap->strides[i];
        if (reach >= ((int64_t)1 << 62))
            return iron__fail(IRON_EBOUNDS, "access pattern reach overflows");
    }
    if (reach >= numel)
        return iron__fail(IRON_EBOUNDS,
                          "access pattern goes out of bounds: it reaches "
                          "element %lld, the tensor has %lld (offset %lld + "
                          "sum of (size-1)*stride = %lld)",
                          (long long)reach, (long long)numel,
                          (long long)tap->offset,
                          (long long)(reach - tap->offset));
    return IRON_OK;
}

/* "offset 0 sizes [4, 4] strides [8, 1]", for dumps and pictures. */
void iron__tap_text(iron__str *s, const iron_tap *t)
{
    iron__str_printf(s, "offset %lld sizes [", (long long)t->offset);
    for (int i = 0; i < t->ndim; i++)
        iron__str_printf(s, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    iron__str_append(s, "] strides [");
    for (int i = 0; i < t->ndim; i++)
        iron__str_printf(s, "%s%lld", i ? ", " : "",
                         (long long)t->strides[i]);
    iron__str_append(s, "]");
}
