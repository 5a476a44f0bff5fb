/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * link.c - links through a memtile: forward, split and join.  Each makes
 * new fifos whose one end is the memtile, and checks its rules where the
 * mistake is made: sizes that tile the big object exactly, no split of a
 * producer handle, no join of a consumer handle.
 */
#include <stdio.h>
#include <string.h>

#include "core/struct.h"
#include "design/design.h"
#include "design/vec.h"

static const char *kind_name(iron__link_kind k)
{
    return k == IRON__LINK_FORWARD ? "forward"
           : k == IRON__LINK_SPLIT ? "split"
                                   : "join";
}

/* Checks that the n pieces [offsets[i], offsets[i] + numel_i) tile
 * [0, total) exactly, naming the first gap or overlap. */
static iron_status check_tiling(iron_design *d, const char *what,
                                const char *big, int n,
                                const int64_t *offsets,
                                const int64_t *numels, int64_t total)
{
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        if (offsets[i] < 0 || offsets[i] + numels[i] > total)
            return iron__design_fail(
                d, IRON_EDESIGN,
                "%s of fifo '%s': piece %d covers elements [%lld, %lld), "
                "outside the %lld-element object",
                what, big, i, (long long)offsets[i],
                (long long)(offsets[i] + numels[i]), (long long)total);
        for (int k = 0; k < i; k++)
            if (offsets[i] < offsets[k] + numels[k] &&
                offsets[k] < offsets[i] + numels[i])
                return iron__design_fail(
                    d, IRON_EDESIGN,
                    "%s of fifo '%s': pieces %d [%lld, %lld) and %d [%lld, "
                    "%lld) overlap",
                    what, big, k, (long long)offsets[k],
                    (long long)(offsets[k] + numels[k]), i,
                    (long long)offsets[i],
                    (long long)(offsets[i] + numels[i]));
        sum += numels[i];
    }
    if (sum != total)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of fifo '%s': the pieces' sizes sum to "
                                 "%lld elements, the object has %lld",
                                 what, big, (long long)sum, (long long)total);
    return IRON_OK;
}

static int64_t shape_numel(iron_shape s)
{
    int64_t n = 1;
    for (int i = 0; i < s.ndim && i < IRON_MAX_DIMS; i++)
        n *= s.dims[i];
    return n;
}

static iron_status check_options(iron_design *d, const char *what,
                                 const char *hl,
                                 const iron_link_options *o)
{
    if (!o)
        return IRON_OK;
    if (o->size < IRON__FIRST_SIZE(iron_link_options, obj_shape))
        return iron__design_fail(d, IRON_EINVAL,
                                 "%s of %s: iron_link_options.size is %zu; "
                                 "expected at least %zu (its first "
                                 "version's size; set it to "
                                 "sizeof(iron_link_options) = %zu)",
                                 what, hl, o->size,
                                 IRON__FIRST_SIZE(iron_link_options,
                                                  obj_shape),
                                 sizeof *o);
    if (o->place != IRON_LINK_ANY_MEMTILE &&
        o->place != IRON_LINK_ANY_COMPUTE && o->place != IRON_LINK_TILE)
        return iron__design_fail(d, IRON_EINVAL,
                                 "%s of %s: placement %d is not an "
                                 "iron_link_place",
                                 what, hl, (int)o->place);
    int last = 1 + d->dev->compute_rows;
    if (o->place == IRON_LINK_TILE &&
        (o->col < 0 || o->col >= d->cols || o->row < 1 || o->row > last))
        return iron__design_fail(d, IRON_ERESOURCE,
                                 "%s of %s: tile (%d,%d) cannot hold a link; "
                                 "expected a memtile (row 1) or a compute "
                                 "tile (rows 2..%d) in columns 0..%d (a "
                                 "shim has no memory to link through)",
                                 what, hl, o->col, o->row, last, d->cols - 1);
    return IRON_OK;
}

/* forward with a new object type: same bytes, or one size a whole
 * multiple of the other. */
static iron_status check_retype(iron_design *d, const char *hl,
                                const iron_fifo *in,
                                const iron_link_options *o)
{
    if (o->obj_shape.ndim < 1 || o->obj_shape.ndim > IRON_MAX_DIMS)
        return iron__design_fail(d, IRON_ESHAPE,
                                 "forward of %s: object shape has %d "
                                 "dimensions; expected 1 to %d",
                                 hl, o->obj_shape.ndim, IRON_MAX_DIMS);
    if (!iron_dtype_name(o->dtype))
        return iron__design_fail(d, IRON_EDTYPE,
                                 "forward of %s: dtype %d is not a valid "
                                 "iron_dtype",
                                 hl, (int)o->dtype);
    size_t out = (size_t)shape_numel(o->obj_shape) * iron_dtype_size(o->dtype);
    size_t big = out > in->obj_bytes ? out : in->obj_bytes;
    size_t small = out > in->obj_bytes ? in->obj_bytes : out;
    if (small == 0 || big % small != 0)
        return iron__design_fail(d, IRON_ESHAPE,
                                 "forward of %s: objects of %zu bytes (%s) "
                                 "become objects of %zu bytes (%s); one size "
                                 "must be a whole multiple of the other",
                                 hl, in->obj_bytes,
                                 iron_dtype_name(in->dtype), out,
                                 iron_dtype_name(o->dtype));
    return IRON_OK;
}

/* The shared body of split and join (forward is a split into one). */
static iron_status make_link(iron_design *d, iron__link_kind kind,
                             iron_handle *h, int n, const char *const *names,
                             const int64_t *offsets, const iron_shape *shapes,
                             const int *depths, iron_fifo **made,
                             const iron_link_options *opts)
{
    const char *what = kind_name(kind);
    char hl[96];
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_fifo_%s: design is NULL", what);
    if (d->status != IRON_OK)
        return d->status;
    if (!h || h->fifo->d != d)
        return iron__design_fail(d, IRON_EINVAL, "%s: handle is %s", what,
                                 h ? "from another design" : "NULL");
    iron__handle_label(h, hl, sizeof hl);
    if (kind != IRON__LINK_JOIN && h->is_prod)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: a %s takes a consumer handle "
                                 "(the memtile consumes the fifo); a "
                                 "producer handle cannot be split",
                                 what, hl, what);
    if (kind == IRON__LINK_JOIN && !h->is_prod)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "join into %s: a join takes the producer "
                                 "handle of the joined fifo; a consumer "
                                 "handle cannot be joined",
                                 hl);
    char who[96];
    if (h->user != IRON__USER_NONE)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: the handle is already used by %s",
                                 what, hl,
                                 iron__handle_user(h, who, sizeof who));
    if (n < 1 || n > IRON__MAX_CONS)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: %d pieces; expected 1 to %d", what,
                                 hl, n, IRON__MAX_CONS);
    if (!offsets || !shapes || !made)
        return iron__design_fail(d, IRON_EINVAL,
                                 "%s of %s: offsets, shapes and the output "
                                 "array must not be NULL",
                                 what, hl);
    if (check_options(d, what, hl, opts) != IRON_OK)
        return d->status;
    int64_t numels[IRON__MAX_CONS];
    for (int i = 0; i < n; i++) {
        if (shapes[i].ndim < 1 || shapes[i].ndim > IRON_MAX_DIMS)
            return iron__design_fail(d, IRON_ESHAPE,
                                     "%s of %s: piece %d's shape has %d "
                                     "dimensions",
                                     what, hl, i, shapes[i].ndim);
        numels[i] = shape_numel(shapes[i]);
        if (depths && depths[i] < 0)
            return iron__design_fail(d, IRON_EINVAL,
                                     "%s of %s: piece %d's depth is %d; "
                                     "expected 0 (the handle's, %d) or 1 to "
                                     "%d",
                                     what, hl, i, depths[i], h->depth,
                                     IRON__MAX_DEPTH);
    }
    iron_fifo *big = h->fifo;
    int retype = kind == IRON__LINK_FORWARD && opts && opts->obj_shape.ndim;
    if (retype && check_retype(d, hl, big, opts) != IRON_OK)
        return d->status;
    iron_status s = retype ? IRON_OK
                           : check_tiling(d, what, big->name, n, offsets,
                                          numels, big->obj_numel);
    if (s != IRON_OK)
        return s;
    iron__link *l = iron__calloc(1, sizeof *l);
    if (!l || !IRON__VEC_PUSH(d->links, l)) {
        iron__free(l);
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    }
    l->kind = kind;
    l->index = d->links.n - 1;
    l->tile.col = l->tile.row = -1;
    l->place = opts ? opts->place : IRON_LINK_ANY_MEMTILE;
    if (l->place == IRON_LINK_TILE) {
        l->tile.col = opts->col;
        l->tile.row = opts->row;
    }
    l->in_pieces = l->out_pieces = 1;
    l->big_bytes = big->obj_bytes;
    h->user = IRON__USER_LINK;
    h->link = l;
    for (int i = 0; i < n; i++) {
        int depth = depths && depths[i] > 0 ? depths[i] : h->depth;
        char dflt[96];
        const char *nm = names ? names[i] : NULL;
        if (!nm) {
            if (kind == IRON__LINK_FORWARD)
                snprintf(dflt, sizeof dflt, "%s_fwd", big->name);
            else
                snprintf(dflt, sizeof dflt, "%s_%s%d", big->name,
                         kind == IRON__LINK_SPLIT ? "split" : "join", i);
            nm = dflt;
        }
        iron_fifo *f = iron_fifo_new(d, nm, retype ? opts->dtype : big->dtype,
                                     retype ? opts->obj_shape : shapes[i],
                                     depth);
        if (!f)
            return d->status;
        if (retype) {
            if (f->obj_bytes > big->obj_bytes)
                l->in_pieces = (int)(f->obj_bytes / big->obj_bytes);
            else
                l->out_pieces = (int)(big->obj_bytes / f->obj_bytes);
            if (f->obj_bytes > l->big_bytes)
                l->big_bytes = f->obj_bytes;
        }
        l->offsets[i] = offsets[i];
        made[i] = f;
        if (kind == IRON__LINK_JOIN) {
            iron_handle *c = iron_fifo_cons(f);
            if (!c)
                return d->status;
            c->user = IRON__USER_LINK;
            c->link = l;
            l->in[l->nin++] = c;
        } else {
            f->prod.user = IRON__USER_LINK;
            f->prod.link = l;
            l->out[l->nout++] = &f->prod;
        }
    }
    if (kind == IRON__LINK_JOIN)
        l->out[l->nout++] = h;
    else
        l->in[l->nin++] = h;
    return IRON_OK;
}

IRON_API iron_fifo *iron_fifo_forward(iron_design *d, iron_handle *cons,
                                      const char *name, int depth)
{
    return iron_fifo_forward_with(d, cons, name, depth, NULL);
}

IRON_API iron_fifo *iron_fifo_forward_with(iron_design *d, iron_handle *cons,
                                           const char *name, int depth,
                                           const iron_link_options *opts)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    if (!cons) {
        iron__design_fail(d, IRON_EINVAL, "forward: handle is NULL");
        return NULL;
    }
    const char *names[1] = { name };
    int64_t offsets[1] = { 0 };
    iron_shape shapes[1] = { cons->fifo->obj_shape };
    int depths[1] = { depth };
    iron_fifo *out = NULL;
    if (make_link(d, IRON__LINK_FORWARD, cons, 1, names, offsets, shapes,
                  depths, &out, opts) != IRON_OK)
        return NULL;
    return out;
}

IRON_API iron_status iron_fifo_split(iron_design *d, iron_handle *cons, int n,
                                     const char *const *names,
                                     const int64_t *offsets,
                                     const iron_shape *shapes,
                                     const int *depths, iron_fifo **outs)
{
    iron_status result = make_link(d, IRON__LINK_SPLIT, cons, n, names,
                                   offsets, shapes, depths, outs, NULL);
    return iron__public_result(result);
}

IRON_API iron_status iron_fifo_split_with(iron_design *d, iron_handle *cons,
                                          int n, const char *const *names,
                                          const int64_t *offsets,
                                          const iron_shape *shapes,
                                          const int *depths,
                                          iron_fifo **outs,
                                          const iron_link_options *opts)
{
    iron_status result = make_link(d, IRON__LINK_SPLIT, cons, n, names,
                                   offsets, shapes, depths, outs, opts);
    return iron__public_result(result);
}

IRON_API iron_status iron_fifo_join(iron_design *d, iron_handle *prod, int n,
                                    const char *const *names,
                                    const int64_t *offsets,
                                    const iron_shape *shapes,
                                    const int *depths, iron_fifo **ins)
{
    iron_status result = make_link(d, IRON__LINK_JOIN, prod, n, names,
                                   offsets, shapes, depths, ins, NULL);
    return iron__public_result(result);
}

IRON_API iron_status iron_fifo_join_with(iron_design *d, iron_handle *prod,
                                         int n, const char *const *names,
                                         const int64_t *offsets,
                                         const iron_shape *shapes,
                                         const int *depths, iron_fifo **ins,
                                         const iron_link_options *opts)
{
    iron_status result = make_link(d, IRON__LINK_JOIN, prod, n, names,
                                   offsets, shapes, depths, ins, opts);
    return iron__public_result(result);
}
