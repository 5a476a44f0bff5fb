/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fifo.c - building ObjectFifos and their endpoint handles.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "design/vec.h"

/* Object sizes are bounded by the largest tile memory long before this;
 * the bound only keeps the arithmetic below from overflowing. */
#define MAX_OBJ_BYTES (1u << 30)

static int valid_name(const char *s)
{
    if (!s || !*s || strlen(s) > 64)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
            return 0;
    return 1;
}

IRON_API iron_fifo *iron_fifo_new(iron_design *d, const char *name,
                                  iron_dtype dtype, iron_shape obj_shape,
                                  int depth)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    if (!valid_name(name)) {
        iron__design_fail(d, IRON_EINVAL,
                          "iron_fifo_new: name %s%s%s is not valid (1-64 "
                          "characters of letters, digits, '_', '-', '.')",
                          name ? "'" : "", name ? name : "NULL",
                          name ? "'" : "");
        return NULL;
    }
    for (int i = 0; i < d->fifos.n; i++)
        if (strcmp(d->fifos.v[i]->name, name) == 0) {
            iron__design_fail(d, IRON_EINVAL,
                              "iron_fifo_new: a fifo named '%s' already "
                              "exists in this design",
                              name);
            return NULL;
        }
    if (!iron_dtype_name(dtype)) {
        iron__design_fail(d, IRON_EDTYPE,
                          "fifo '%s': dtype %d is not a valid iron_dtype",
                          name, (int)dtype);
        return NULL;
    }
    if (obj_shape.ndim < 1 || obj_shape.ndim > IRON_MAX_DIMS) {
        iron__design_fail(d, IRON_ESHAPE,
                          "fifo '%s': object shape has %d dimensions; "
                          "expected 1 to %d",
                          name, obj_shape.ndim, IRON_MAX_DIMS);
        return NULL;
    }
    int64_t numel = 1;
    for (int i = 0; i < obj_shape.ndim; i++) {
        if (obj_shape.dims[i] < 1) {
            iron__design_fail(d, IRON_ESHAPE,
                              "fifo '%s': object shape dim %d is %lld; dims "
                              "must be >= 1",
                              name, i, (long long)obj_shape.dims[i]);
            return NULL;
        }
        if (obj_shape.dims[i] > (int64_t)MAX_OBJ_BYTES ||
            numel * obj_shape.dims[i] > (int64_t)MAX_OBJ_BYTES) {
            iron__design_fail(d, IRON_ESHAPE,
                              "fifo '%s': object of more than %u elements",
                              name, MAX_OBJ_BYTES);
            return NULL;
        }
        numel *= obj_shape.dims[i];
    }
    if (depth < 1 || depth > IRON__MAX_DEPTH) {
        iron__design_fail(d, IRON_EINVAL,
                          "fifo '%s': depth %d; expected 1 to %d", name, depth,
                          IRON__MAX_DEPTH);
        return NULL;
    }
    iron_fifo *f = iron__calloc(1, sizeof *f);
    char *nm = iron__strdup(name);
    if (!f || !nm || !IRON__VEC_PUSH(d->fifos, f)) {
        iron__free(f);
        iron__free(nm);
        iron__design_fail(d, IRON_ENOMEM, "out of memory building fifo '%s'",
                          name);
        return NULL;
    }
    f->d = d;
    f->index = d->fifos.n - 1;
    f->name = nm;
    f->dtype = dtype;
    f->obj_shape = obj_shape;
    f->obj_numel = numel;
    f->obj_bytes = (size_t)numel * iron_dtype_size(dtype);
    f->depth = depth;
    f->prod.fifo = f;
    f->prod.is_prod = 1;
    f->prod.cons_index = -1;
    f->prod.depth = depth;
    return f;
}

IRON_API const char *iron_fifo_name(const iron_fifo *f)
{
    return f ? f->name : NULL;
}

IRON_API iron_handle *iron_fifo_prod(iron_fifo *f)
{
    if (!f || f->d->status != IRON_OK)
        return NULL;
    return &f->prod;
}

IRON_API iron_handle *iron_fifo_cons(iron_fifo *f)
{
    if (!f || f->d->status != IRON_OK)
        return NULL;
    if (f->ncons == IRON__MAX_CONS) {
        iron__design_fail(f->d, IRON_ERESOURCE,
                          "fifo '%s': more than %d consumer handles (each "
                          "iron_fifo_cons call makes a new one: take the "
                          "handle once and reuse it)",
                          f->name, IRON__MAX_CONS);
        return NULL;
    }
    iron_handle *h = iron__calloc(1, sizeof *h);
    if (!h) {
        iron__design_fail(f->d, IRON_ENOMEM,
                          "out of memory adding a consumer to fifo '%s'",
                          f->name);
        return NULL;
    }
    h->fifo = f;
    h->cons_index = f->ncons;
    h->depth = f->depth;
    f->cons[f->ncons++] = h;
    return h;
}

const char *iron__handle_label(const iron_handle *h, char *buf, size_t len)
{
    if (h->is_prod)
        snprintf(buf, len, "fifo '%s' (producer)", h->fifo->name);
    else if (h->fifo->ncons == 1)
        snprintf(buf, len, "fifo '%s' (consumer)", h->fifo->name);
    else
        snprintf(buf, len, "fifo '%s' (consumer %d)", h->fifo->name,
                 h->cons_index);
    return buf;
}

IRON_API iron_status iron_handle_set_depth(iron_handle *h, int depth)
{
    if (!h)
        return iron__fail(IRON_EINVAL, "iron_handle_set_depth: handle is "
                                       "NULL");
    iron_design *d = h->fifo->d;
    if (d->status != IRON_OK)
        return d->status;
    char hl[96];
    if (depth < 1 || depth > IRON__MAX_DEPTH)
        return iron__design_fail(d, IRON_EINVAL, "%s: depth %d; expected 1 "
                                 "to %d",
                                 iron__handle_label(h, hl, sizeof hl), depth,
                                 IRON__MAX_DEPTH);
    h->depth = depth;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_handle_set_dims(iron_handle *h, int ndim,
                                          const int64_t *sizes,
                                          const int64_t *strides)
{
    if (!h)
        return iron__fail(IRON_EINVAL, "iron_handle_set_dims: handle is "
                                       "NULL");
    iron_design *d = h->fifo->d;
    if (d->status != IRON_OK)
        return d->status;
    char hl[96];
    iron__handle_label(h, hl, sizeof hl);
    if (ndim < 1 || ndim > IRON_TAP_MAX_DIMS || !sizes || !strides)
        return iron__design_fail(
            d, IRON_EDESIGN,
            "%s: %s has %d dimensions%s; expected 1 to "
            "%d",
            hl, h->is_prod ? "dims_to_stream" : "dims_from_stream", ndim,
            sizes && strides ? "" : " (NULL arrays)", IRON_TAP_MAX_DIMS);
    h->dims = iron_tap_make(0, ndim, sizes, strides);
    h->has_dims = 1;
    return iron__public_result(IRON_OK);
}

const char *iron__handle_user(const iron_handle *h, char *buf, size_t len)
{
    switch (h->user) {
    case IRON__USER_WORKER:
        snprintf(buf, len, "worker '%s'", h->worker->name);
        break;
    case IRON__USER_LINK:
        snprintf(buf, len, "a memtile link");
        break;
    case IRON__USER_RUNTIME:
        snprintf(buf, len, "the runtime sequence");
        break;
    case IRON__USER_NONE:
        snprintf(buf, len, "nobody");
        break;
    }
    return buf;
}

IRON_API iron_status iron_handle_set_shim(iron_handle *h, int col)
{
    if (!h)
        return iron__fail(IRON_EINVAL, "iron_handle_set_shim: handle is "
                                       "NULL");
    iron_design *d = h->fifo->d;
    if (d->status != IRON_OK)
        return d->status;
    char hl[96];
    if (col < 0 || col >= d->cols)
        return iron__design_fail(d, IRON_ERESOURCE,
                                 "%s: shim column %d; the launch grants "
                                 "columns 0..%d",
                                 iron__handle_label(h, hl, sizeof hl), col,
                                 d->cols - 1);
    h->shim_pinned = 1;
    h->shim_col = col;
    return iron__public_result(IRON_OK);
}
