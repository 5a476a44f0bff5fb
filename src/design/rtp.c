/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * rtp.c - run-time parameter buffers and barriers: objects the
 * runtime sequence writes and workers read or wait on.
 */
#include <string.h>

#include "design/design.h"
#include "design/vec.h"

static int name_taken(const iron_design *d, const char *name)
{
    for (int i = 0; i < d->rtps.n; i++)
        if (strcmp(d->rtps.v[i]->name, name) == 0)
            return 1;
    for (int i = 0; i < d->barriers.n; i++)
        if (strcmp(d->barriers.v[i]->name, name) == 0)
            return 1;
    return 0;
}

IRON_API iron_rtp *iron_rtp_new(iron_design *d, const char *name,
                                iron_dtype dtype, int64_t count)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    if (!name || !*name || name_taken(d, name)) {
        iron__design_fail(d, IRON_EINVAL,
                          "iron_rtp_new: name %s%s%s is %s", name ? "'" : "",
                          name ? name : "NULL", name ? "'" : "",
                          name && *name ? "taken" : "missing");
        return NULL;
    }
    if (!iron_dtype_name(dtype)) {
        iron__design_fail(d, IRON_EDTYPE, "rtp '%s': invalid dtype %d", name,
                          (int)dtype);
        return NULL;
    }
    if (count < 1 || count > 4096) {
        iron__design_fail(d, IRON_EINVAL,
                          "rtp '%s': %lld elements; expected 1 to 4096", name,
                          (long long)count);
        return NULL;
    }
    iron_rtp *r = iron__calloc(1, sizeof *r);
    char *nm = iron__strdup(name);
    if (!r || !nm || !IRON__VEC_PUSH(d->rtps, r)) {
        iron__free(r);
        iron__free(nm);
        iron__design_fail(d, IRON_ENOMEM, "out of memory");
        return NULL;
    }
    r->d = d;
    r->index = d->rtps.n - 1;
    r->name = nm;
    r->dtype = dtype;
    r->count = count;
    return r;
}

IRON_API iron_barrier *iron_barrier_new(iron_design *d, const char *name)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    if (!name || !*name || name_taken(d, name)) {
        iron__design_fail(
            d, IRON_EINVAL, "iron_barrier_new: name %s%s%s is %s",
            name ? "'" : "", name ? name : "NULL", name ? "'" : "",
            name && *name ? "taken" : "missing");
        return NULL;
    }
    iron_barrier *b = iron__calloc(1, sizeof *b);
    char *nm = iron__strdup(name);
    if (!b || !nm || !IRON__VEC_PUSH(d->barriers, b)) {
        iron__free(b);
        iron__free(nm);
        iron__design_fail(d, IRON_ENOMEM, "out of memory");
        return NULL;
    }
    b->d = d;
    b->index = d->barriers.n - 1;
    b->name = nm;
    return b;
}

IRON_API iron_status iron_barrier_set_initial(iron_barrier *b, int value)
{
    if (!b)
        return iron__fail(IRON_EINVAL,
                          "iron_barrier_set_initial: barrier is NULL");
    iron_design *d = b->d;
    if (d->status != IRON_OK)
        return d->status;
    int max = d->dev->lock_max_value;
    if (value < 0 || value > max)
        return iron__design_fail(d, IRON_EINVAL,
                                 "barrier '%s': initial value %d; a lock "
                                 "holds 0..%d",
                                 b->name, value, max);
    b->initial = value;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_rtp_set_initial(iron_rtp *r, const void *values)
{
    if (!r)
        return iron__fail(IRON_EINVAL,
                          "iron_rtp_set_initial: buffer is NULL");
    iron_design *d = r->d;
    if (d->status != IRON_OK)
        return d->status;
    if (!values)
        return iron__design_fail(d, IRON_EINVAL,
                                 "buffer '%s': initial values are NULL",
                                 r->name);
    size_t bytes = (size_t)r->count * iron_dtype_size(r->dtype);
    void *copy = iron__malloc(bytes);
    if (!copy)
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    memcpy(copy, values, bytes);
    iron__free(r->initial);
    r->initial = copy;
    return iron__public_result(IRON_OK);
}
