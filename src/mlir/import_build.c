/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import_build.c - the design function of an imported module: checks
 * the call's device against the module's, then rebuilds the module with
 * the builder API -- object fifos (depths and layouts per endpoint),
 * links through memtiles or free compute tiles (pinned where the file
 * puts them), one worker per core (import_body.c), the runtime sequence
 * (import_seq.c) -- and finally checks that every endpoint the file
 * declares is used.  Errors name the op, line and column.
 */
#include <stdio.h>
#include <string.h>

#include "mlir/import.h"

/* ---- errors carrying the op ---------------------------------------------*/

iron_status iron__imp_dfail(iron__imp_ctx *c, iron_status s,
                            const iron__mlir_op *op, const char *fmt, ...)
{
    if (c->d->status != IRON_OK)
        return c->d->status;
    iron__str t = { 0 };
    va_list ap;
    va_start(ap, fmt);
    iron__imp_vtext(c->m, op, &t, fmt, ap);
    va_end(ap);
    c->located = 1;
    if (t.oom) {
        iron__str_free(&t);
        return iron__design_fail(c->d, IRON_ENOMEM, "out of memory");
    }
    iron__design_fail(c->d, s, "%s", iron__str_get(&t));
    iron__str_free(&t);
    return c->d->status;
}

int iron__imp_check(iron__imp_ctx *c, const iron__mlir_op *op)
{
    iron_design *d = c->d;
    if (d->status == IRON_OK)
        return 0;
    if (c->located || !d->error)
        return 1;
    c->located = 1;
    iron__str t = { 0 };
    const char *file = c->m->file ? c->m->file : "<mlir>";
    iron__str_printf(&t, "%s:%d:%d: %s: %s", file, op->loc.line, op->loc.col,
                     op->name, d->error);
    char *text = iron__str_take(&t);
    iron__str_free(&t);
    if (text) {
        iron__free(d->error);
        d->error = text;
        iron__fail(d->status, "%s", text);
    }
    return 1;
}

/* ---- the device ---------------------------------------------------------*/

static iron_status check_tile(iron__imp_ctx *c, const iron__mlir_op *op,
                              iron__tile t)
{
    int cols = iron_design_cols(c->d);
    if (t.col < cols)
        return IRON_OK;
    return iron__imp_dfail(c, IRON_ERESOURCE, op,
                           "tile (%d,%d) is outside the columns the call "
                           "grants (0..%d on %s)",
                           t.col, t.row, cols - 1,
                           iron_design_device(c->d)->name);
}

static iron_status check_device(iron__imp_ctx *c)
{
    const iron_mlir *m = c->m;
    const iron_device_info *dev = iron_design_device(c->d);
    if (strcmp(dev->family, m->family) != 0)
        return iron__imp_dfail(c, IRON_EDEVICE, m->device,
                               "the module is for %s (%s); the call runs on "
                               "%s (%s): run it on an %s device",
                               m->device_name, m->family, dev->name,
                               dev->family, m->family);
    for (int i = 0; i < m->ncores; i++)
        if (check_tile(c, m->cores[i].op, m->cores[i].tile) != IRON_OK)
            return c->d->status;
    for (int i = 0; i < m->nlinks; i++)
        if (check_tile(c, m->links[i].op, m->links[i].tile) != IRON_OK)
            return c->d->status;
    for (int i = 0; i < m->nfifos; i++) {
        const iron__imp_fifo *f = &m->fifos[i];
        if (check_tile(c, f->op, f->prod) != IRON_OK)
            return c->d->status;
        for (int k = 0; k < f->ncons; k++)
            if (check_tile(c, f->op, f->cons[k]) != IRON_OK)
                return c->d->status;
    }
    return IRON_OK;
}

/* ---- fifos and links ----------------------------------------------------*/

static void take_fifo(iron__imp_ctx *c, int i, iron_fifo *f, int make_cons)
{
    c->fifo[i] = f;
    c->prod[i] = iron_fifo_prod(f);
    for (int k = 0; make_cons && k < c->m->fifos[i].ncons; k++)
        c->cons[i][k] = iron_fifo_cons(f);
}

/* The consumer handle of fifo i at tile t. */
static iron_handle *cons_at(const iron__imp_ctx *c, int i, iron__tile t)
{
    const iron__imp_fifo *f = &c->m->fifos[i];
    for (int k = 0; k < f->ncons; k++)
        if (f->cons[k].col == t.col && f->cons[k].row == t.row)
            return c->cons[i][k];
    return NULL;
}

static int same_object(const iron__imp_fifo *a, const iron__imp_fifo *b)
{
    if (a->dtype != b->dtype || a->shape.ndim != b->shape.ndim)
        return 0;
    for (int k = 0; k < a->shape.ndim; k++)
        if (a->shape.dims[k] != b->shape.dims[k])
            return 0;
    return 1;
}

static iron_status build_link(iron__imp_ctx *c, int li)
{
    const iron_mlir *m = c->m;
    const iron__imp_link *l = &m->links[li];
    iron_design *d = c->d;
    iron_link_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.place = IRON_LINK_TILE;
    o.col = l->tile.col;
    o.row = l->tile.row;
    const char *names[IRON__MAX_CONS];
    iron_shape shapes[IRON__MAX_CONS];
    int depths[IRON__MAX_CONS];
    iron_fifo *made[IRON__MAX_CONS];
    const int *pieces = l->kind == IRON__IMP_JOIN ? l->in : l->out;
    int n = l->kind == IRON__IMP_JOIN ? l->nin : l->nout;
    const iron__imp_fifo *big =
        &m->fifos[l->kind == IRON__IMP_JOIN ? l->out[0] : l->in[0]];
    for (int i = 0; i < n; i++) {
        const iron__imp_fifo *f = &m->fifos[pieces[i]];
        names[i] = f->name;
        shapes[i] = f->shape;
        depths[i] = f->depth;
        if (l->kind != IRON__IMP_FORWARD && f->dtype != big->dtype)
            return iron__imp_dfail(c, IRON_EDESIGN, l->op,
                                   "@%s carries %s, @%s %s: a %s keeps the "
                                   "element type",
                                   f->name, iron_dtype_name(f->dtype),
                                   big->name, iron_dtype_name(big->dtype),
                                   l->kind == IRON__IMP_SPLIT ? "split"
                                                              : "join");
    }
    switch (l->kind) {
    case IRON__IMP_FORWARD: {
        const iron__imp_fifo *out = &m->fifos[l->out[0]];
        if (!same_object(big, out)) {
            o.dtype = out->dtype;
            o.obj_shape = out->shape;
        }
        made[0] = iron_fifo_forward_with(d, cons_at(c, l->in[0], l->tile),
                                         out->name, out->depth, &o);
        break;
    }
    case IRON__IMP_SPLIT:
        iron_fifo_split_with(d, cons_at(c, l->in[0], l->tile), n, names,
                             l->offsets, shapes, depths, made, &o);
        break;
    case IRON__IMP_JOIN:
        iron_fifo_join_with(d, c->prod[l->out[0]], n, names, l->offsets,
                            shapes, depths, made, &o);
        break;
    }
    if (iron__imp_check(c, l->op))
        return d->status;
    for (int i = 0; i < n; i++) {
        take_fifo(c, pieces[i], made[i], l->kind != IRON__IMP_JOIN);
        if (l->kind == IRON__IMP_JOIN)
            c->cons[pieces[i]][0] = made[i]->cons[0];
    }
    iron__imp_check(c, l->op);
    return d->status;
}

static iron_status set_dims(iron__imp_ctx *c, const iron__mlir_op *op,
                            iron_handle *h, const iron__imp_dims *dims)
{
    if (dims->ndim == 0)
        return IRON_OK;
    iron_handle_set_dims(h, dims->ndim, dims->sizes, dims->strides);
    iron__imp_check(c, op);
    return c->d->status;
}

static iron_status build_fifos(iron__imp_ctx *c)
{
    const iron_mlir *m = c->m;
    iron_design *d = c->d;
    for (int i = 0; i < m->nfifos; i++) {
        const iron__imp_fifo *f = &m->fifos[i];
        if (f->made_by >= 0)
            continue;
        iron_fifo *x = iron_fifo_new(d, f->name, f->dtype, f->shape,
                                     f->depth);
        if (iron__imp_check(c, f->op))
            return d->status;
        take_fifo(c, i, x, 1);
        if (iron__imp_check(c, f->op))
            return d->status;
    }
    /* Links in an order where each one's existing fifo is made. */
    unsigned char *done = iron__calloc((size_t)m->nlinks + 1, 1);
    if (!done)
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    for (int left = m->nlinks, progress = 1; left && progress;) {
        progress = 0;
        for (int i = 0; i < m->nlinks && d->status == IRON_OK; i++) {
            const iron__imp_link *l = &m->links[i];
            int have = l->kind == IRON__IMP_JOIN ? l->out[0] : l->in[0];
            if (done[i] || !c->fifo[have])
                continue;
            build_link(c, i);
            done[i] = 1;
            left--;
            progress = 1;
        }
        if (d->status == IRON_OK && left && !progress)
            for (int i = 0; i < m->nlinks; i++)
                if (!done[i]) {
                    iron__imp_dfail(c, IRON_ENOTSUP, m->links[i].op,
                                    "the links make each other's inputs "
                                    "(a cycle)");
                    break;
                }
        if (d->status != IRON_OK)
            break;
    }
    iron__free(done);
    for (int i = 0; i < m->nfifos && d->status == IRON_OK; i++) {
        const iron__imp_fifo *f = &m->fifos[i];
        if (f->per_end) {
            iron_handle_set_depth(c->prod[i], f->depths[0]);
            for (int k = 0; k < f->ncons; k++)
                iron_handle_set_depth(c->cons[i][k], f->depths[1 + k]);
            if (iron__imp_check(c, f->op))
                break;
        }
        if (set_dims(c, f->op, c->prod[i], &f->to_stream) != IRON_OK)
            break;
        for (int k = 0; k < f->ncons; k++)
            if (set_dims(c, f->op, c->cons[i][k], &f->from_stream[k]) !=
                IRON_OK)
                break;
    }
    return d->status;
}

/* ---- after everything: endpoints nobody used ----------------------------*/

static int linked_at(const iron_mlir *m, int fifo, iron__tile t, int prod)
{
    for (int k = 0; k < m->nlinks; k++) {
        const iron__imp_link *l = &m->links[k];
        if (l->tile.col != t.col || l->tile.row != t.row)
            continue;
        const int *side = prod ? l->out : l->in;
        int n = prod ? l->nout : l->nin;
        for (int j = 0; j < n; j++)
            if (side[j] == fifo)
                return 1;
    }
    return 0;
}

static iron_status check_used(iron__imp_ctx *c)
{
    const iron_mlir *m = c->m;
    for (int i = 0; i < m->nfifos; i++) {
        const iron__imp_fifo *f = &m->fifos[i];
        for (int e = -1; e < f->ncons; e++) {
            iron__tile t = e < 0 ? f->prod : f->cons[e];
            int used = e < 0 ? c->prod_used[i] : c->cons_used[i][e];
            if (used || linked_at(m, i, t, e < 0))
                continue;
            const char *who = t.row == 0 ? "the runtime sequence"
                                         : "the core on that tile";
            const char *does = e < 0 ? (t.row == 0 ? "fills" : "acquires")
                                     : (t.row == 0 ? "drains" : "acquires");
            return iron__imp_dfail(c, IRON_EDESIGN, f->op,
                                   "fifo @%s: its %s on %s (%d,%d) is never "
                                   "used: %s never %s it",
                                   f->name, e < 0 ? "producer" : "consumer",
                                   t.row == 0 ? "shim" : "tile", t.col,
                                   t.row, who, does);
        }
    }
    return IRON_OK;
}

/* ---- the design function ------------------------------------------------ */

static void free_ctx(iron__imp_ctx *c)
{
    iron__free(c->fifo);
    iron__free(c->prod);
    iron__free(c->cons);
    iron__free(c->prod_used);
    iron__free(c->cons_used);
    iron__free(c->kernel);
    iron__free(c->rtp);
    iron__free(c->rtp_core);
    iron__free(c->barrier);
    iron__free(c->barrier_core);
    iron__free(c->group);
    iron__free(c->vmap);
    iron__free(c->vtag);
    iron__free(c->vaux);
}

static int alloc_ctx(iron__imp_ctx *c)
{
    const iron_mlir *m = c->m;
    size_t nf = (size_t)m->nfifos + 1, nv = (size_t)m->mod->nvalues + 1;
    c->fifo = iron__calloc(nf, sizeof *c->fifo);
    c->prod = iron__calloc(nf, sizeof *c->prod);
    c->cons = iron__calloc(nf, sizeof *c->cons);
    c->prod_used = iron__calloc(nf, sizeof *c->prod_used);
    c->cons_used = iron__calloc(nf, sizeof *c->cons_used);
    c->kernel = iron__calloc((size_t)m->nfuncs + 1, sizeof *c->kernel);
    c->rtp = iron__calloc((size_t)m->nbufs + 1, sizeof *c->rtp);
    c->rtp_core = iron__calloc((size_t)m->nbufs + 1, sizeof *c->rtp_core);
    c->barrier = iron__calloc((size_t)m->nlocks + 1, sizeof *c->barrier);
    c->barrier_core =
        iron__calloc((size_t)m->nlocks + 1, sizeof *c->barrier_core);
    c->group = iron__calloc((size_t)m->ngroups + 2, sizeof *c->group);
    c->vmap = iron__calloc(nv, sizeof *c->vmap);
    c->vtag = iron__calloc(nv, sizeof *c->vtag);
    c->vaux = iron__calloc(nv, sizeof *c->vaux);
    return c->fifo && c->prod && c->cons && c->prod_used && c->cons_used &&
           c->kernel && c->rtp && c->rtp_core && c->barrier &&
           c->barrier_core && c->group && c->vmap && c->vtag && c->vaux;
}

iron_status iron__imp_build(const iron_mlir *m, iron_design *d)
{
    if (d->status != IRON_OK)
        return d->status;
    iron__imp_ctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.d = d;
    if (!alloc_ctx(&c)) {
        free_ctx(&c);
        return iron__design_fail(d, IRON_ENOMEM,
                                 "out of memory importing the module");
    }
    if (iron_design_nargs(d) != m->nargs)
        iron__imp_dfail(&c, IRON_EARG, m->seq,
                        "the runtime sequence takes %d tensors; the jit "
                        "declares %d (create it with iron_mlir_args)",
                        m->nargs, iron_design_nargs(d));
    if (d->status == IRON_OK)
        check_device(&c);
    if (d->status == IRON_OK)
        build_fifos(&c);
    for (int i = 0; i < m->ncores && d->status == IRON_OK; i++)
        iron__imp_build_core(&c, i);
    if (d->status == IRON_OK)
        iron__imp_build_sequence(&c);
    if (d->status == IRON_OK)
        check_used(&c);
    free_ctx(&c);
    return d->status;
}
