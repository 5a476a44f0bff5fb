/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export.c - a placed program as the objectfifo-level MLIR upstream IRON
 * emits for the same design, built as an MLIR tree (mlir/build.h) in
 * upstream's order (Program.resolve_program) and printed by the one
 * printer, in the pretty or the generic form:
 *
 *   aie.device(NAME) {
 *     aie.tile per tile used       (workers' tiles, then fifo endpoints)
 *     aie.objectfifo per fifo      (sorted by name; a fifo whose endpoint
 *       aie.objectfifo.link        is a link brings the link's other
 *                                   fifos and then the link with it)
 *     func.func private / aie.buffer   (per worker, per parameter)
 *     aie.lock + aie.core per worker    (start order)
 *     the runtime sequence             (export_seq.c)
 *   }
 *
 * A target with link_with on func.func (#2922) writes it there, older
 * ones on the aie.core (the plan's link_obj).  The tree is built in the
 * newest spelling; iron__mlir_lower rewrites it into the target's.  Every core gets its worker's stack_size unless
 * it is upstream's default, 1024 (which MLIR's printer leaves out).
 * Depths are one number when every endpoint has the same, else the list
 * (producer first).  The ops are built as the parser makes them of their
 * text: empty dimension lists and link offsets are there, enums are
 * keywords.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body/body.h"
#include "design/design.h"
#include "mlir/export.h"
#include "tensor/tensor.h"

/* aie.core's stack_size when none is given (0x400). */
#define UPSTREAM_STACK 1024u

typedef iron__mlir_op O;

/* The module being built. */
typedef struct ex {
    const iron__mlx_plan *pl;
    iron__mlir_b *b;
    O *dev;                   /* aie.device */
    iron__mlir_type *index;
} ex;

static int tile(ex *x, iron__tile t)
{
    const char *ssa = iron__mlx_tile_ssa(x->pl, t);
    return iron__mlx_named(x->b, ssa ? ssa : "%tile_unplaced", x->index);
}

static int end_tile(ex *x, const iron_handle *h)
{
    return tile(x, iron__mlx_end_tile(x->pl, h));
}

static iron__mlir_attr *list(ex *x)
{
    return iron__mlir_b_attr(x->b, IRON__MA_ARRAY, 0, NULL);
}

static iron__mlir_attr *i32(ex *x, int64_t v)
{
    return iron__mlir_b_attr(x->b, IRON__MA_INT, v,
                             iron__mlir_b_scalar(x->b, "i32"));
}

/* [<size = 8, stride = 1>, <size = 3, stride = 8>], or [] */
static iron__mlir_attr *dims(ex *x, const iron_handle *h)
{
    iron__mlir_attr *a = list(x);
    for (int i = 0; h->has_dims && i < h->dims.ndim; i++)
        iron__mlir_b_item(x->b, a, NULL,
                          iron__mlir_b_dim(x->b, h->dims.sizes[i],
                                           h->dims.strides[i]));
    return a;
}

static void fifo(ex *x, const iron_fifo *f)
{
    iron__mlir_b *b = x->b;
    iron__mlir_attr *from = list(x), *depths = list(x);
    int same = 1;
    iron__mlir_b_item(b, depths, NULL, i32(x, f->prod.depth));
    for (int c = 0; c < f->ncons; c++) {
        iron__mlir_b_item(b, from, NULL, dims(x, f->cons[c]));
        iron__mlir_b_item(b, depths, NULL, i32(x, f->cons[c]->depth));
        same &= f->cons[c]->depth == f->prod.depth;
    }
    O *o = iron__mlir_b_op(
        b, x->dev, "aie.objectfifo",
        "% sym_name:str dimensionsToStream:attr "
        "dimensionsFromStreamPerConsumer:attr elemNumber:attr elemType:type",
        end_tile(x, &f->prod), x->pl->fifo_sym[f->index], dims(x, &f->prod),
        from, same ? i32(x, f->prod.depth) : depths,
        iron__mlir_b_dialect(b, "aie", "objectfifo",
                             iron__mlx_memref(b, f->dtype, &f->obj_shape)));
    for (int c = 0; c < f->ncons; c++)
        iron__mlir_b_operand(b, o, end_tile(x, f->cons[c]));
}

/* A join's offsets are its inputs', a split's its outputs'; upstream's
 * forward is a split at offset 0. */
static void link(ex *x, const iron__link *l)
{
    iron__mlir_b *b = x->b;
    iron__mlir_attr *a[4] = { list(x), list(x), list(x), list(x) };
    for (int k = 0; k < 2; k++) {
        int n = k ? l->nout : l->nin;
        for (int i = 0; i < n; i++) {
            const iron_handle *h = (k ? l->out : l->in)[i];
            const char *sym = x->pl->fifo_sym[h->fifo->index];
            iron__mlir_b_item(b, a[k], NULL,
                              iron__mlir_b_text(b, IRON__MA_SYMREF, sym));
            if (l->kind == (k ? IRON__LINK_SPLIT : IRON__LINK_JOIN))
                iron__mlir_b_item(b, a[k + 2], NULL,
                                  iron__mlir_b_attr(b, IRON__MA_INT,
                                                    l->offsets[i], NULL));
        }
    }
    if (l->kind == IRON__LINK_FORWARD)
        iron__mlir_b_item(b, a[3], NULL,
                          iron__mlir_b_attr(b, IRON__MA_INT, 0, NULL));
    iron__mlir_b_op(b, x->dev, "aie.objectfifo.link",
                    "fifoIns:attr fifoOuts:attr src_offsets:attr "
                    "dst_offsets:attr",
                    a[0], a[1], a[2], a[3]);
}

/* func.func private @k(memref<16xi32>, i32) [attributes {link_with}] */
static void func(ex *x, int k)
{
    iron__mlir_b *b = x->b;
    const iron__mlx_kernel *mk = &x->pl->kernels[k];
    iron__mlir_type *in[IRON__MAX_KARGS] = { NULL };
    for (int i = 0; i < mk->ntypes && i < IRON__MAX_KARGS; i++)
        in[i] = iron__mlx_call_type(b, mk->caller, x->pl->d->kernels.v[k], i);
    char obj[256];
    snprintf(obj, sizeof obj, "%s.o", mk->sym);
    O *o = iron__mlir_b_op(
        b, x->dev, "func.func",
        "sym_name:str sym_visibility:str function_type:type ?link_with:str",
        mk->sym, "private", iron__mlir_b_functype(b, mk->ntypes, in, 0, NULL),
        /* since #2922 the object to link is the function's */
        iron__mlir_target_has(x->pl->target, IRON__SYN_FUNC_LINK) ? obj
                                                                  : NULL);
    iron__mlir_b_region(b, o, 0);
}

/* An element of a buffer's initial value, as MLIR's printer writes it
 * (floats with six digits: the tree holds what that text reads as). */
static iron__mlir_attr *elem(ex *x, iron_dtype dt, const void *base,
                             int64_t i)
{
    const char *p = (const char *)base + (size_t)i * iron_dtype_size(dt);
    double f = iron__dtype_load(dt, p);
    char buf[64];
    if (dt == IRON_FLOAT32 || dt == IRON_FLOAT64 || dt == IRON_BFLOAT16) {
        snprintf(buf, sizeof buf, "%e", f);
        return iron__mlir_b_float(x->b, f - f == 0 ? strtod(buf, NULL) : f,
                                  NULL);
    }
    int64_t n = (int64_t)f;
    if (iron_dtype_size(dt) == 8)
        memcpy(&n, p, sizeof n);
    return iron__mlir_b_attr(x->b, IRON__MA_INT, n, NULL);
}

/* %name = aie.buffer(%tile) {sym_name = "name"} : memref<..>
 * [= dense<...>] */
static void buffer(ex *x, const iron__mlx_copy *c)
{
    iron__mlir_b *b = x->b;
    const iron_rtp *r = x->pl->d->rtps.v[c->obj];
    iron_shape shape = { 1, { r->count } };
    iron__mlir_type *t = iron__mlx_memref(b, r->dtype, &shape);
    iron__mlir_attr *d = NULL;
    size_t sz = iron_dtype_size(r->dtype);
    int64_t n = r->count;
    for (int64_t i = 1; r->initial && i < r->count && n == r->count; i++)
        if (memcmp((const char *)r->initial + (size_t)i * sz, r->initial,
                   sz) != 0)
            n = 0;   /* not a splat */
    if (r->initial && t)
        d = iron__mlir_b_attr(b, IRON__MA_DENSE, 0,
                              iron__mlir_b_shaped(b, IRON__MT_TENSOR, t->elem,
                                                  1, shape.dims));
    for (int64_t i = 0; d && i < (n ? 1 : r->count); i++)
        iron__mlir_b_item(b, d, NULL, elem(x, r->dtype, r->initial, i));
    iron__mlir_b_op(b, x->dev, "aie.buffer",
                    "% sym_name:str ?initial_value:attr =",
                    tile(x, x->pl->p->workers[x->pl->workers[c->worker].w]
                                .tile),
                    c->sym, d, t, c->ssa);
}

/* Upstream's kernel-resolve phase: per worker, per argument, the
 * kernels it calls (declared once) and its buffers. */
static void decls(ex *x)
{
    const iron__mlx_plan *pl = x->pl;
    unsigned char *declared = iron__calloc((size_t)pl->d->kernels.n + 1, 1);
    x->b->failed |= !declared;
    for (int i = 0; declared && i < pl->nworkers; i++) {
        const iron__mlx_worker *mw = &pl->workers[i];
        for (int k = 0; k < iron__body_nparams(mw->body); k++) {
            const iron__body_param *bp = iron__body_param_at(mw->body, k);
            int ki = bp->kind == IRON__BP_KERNEL &&
                             pl->kernels[bp->kernel->index].used
                         ? pl->kernels[bp->kernel->index].same_as
                         : -1;
            if (ki >= 0 && !declared[ki])
                func(x, ki);
            if (ki >= 0)
                declared[ki] = 1;
            for (int c = 0; bp->kind == IRON__BP_RTP && c < pl->nbufs; c++)
                if (pl->bufs[c].worker == i &&
                    pl->bufs[c].obj == bp->rtp->index &&
                    strcmp(pl->bufs[c].ssa, mw->pnames[k]) == 0)
                    buffer(x, &pl->bufs[c]);
        }
    }
    iron__free(declared);
}

/* The worker's barrier locks, made just before its core (upstream's
 * Worker.resolve), and the core. */
static void core(ex *x, int i)
{
    iron__mlir_b *b = x->b;
    const iron__mlx_plan *pl = x->pl;
    const iron__mlx_worker *mw = &pl->workers[i];
    const iron_worker *w = pl->d->workers.v[mw->w];
    int t = iron__mlx_named(b, mw->tile, x->index);
    for (int l = 0; l < pl->nlocks; l++)
        if (pl->locks[l].worker == i)
            iron__mlir_b_op(b, x->dev, "aie.lock", "% ?init:i32 =", t,
                            (int64_t)pl->d->barriers.v[pl->locks[l].obj]
                                ->initial,
                            x->index, pl->locks[l].ssa);
    uint32_t stack = w->stack_bytes ? w->stack_bytes
                                    : pl->p->dev.compute.stack_bytes;
    O *o = iron__mlir_b_op(b, x->dev, "aie.core",
                           "% ?link_with:str ?stack_size:i32 =", t,
                           mw->link_obj,   /* before #2922 */
                           (int64_t)(stack == UPSTREAM_STACK ? 0 : stack),
                           x->index, mw->core);
    iron__mlir_b_region(b, o, 1);
    iron__body_names names = { mw->pnames, mw->prefix };
    iron__mlx_body(b, o, mw->body, &names);
    iron__mlir_b_op(b, o, "aie.end", NULL);
}

iron_status iron__mlx_module(const iron__mlx_plan *pl,
                             iron__mlir_module **out)
{
    iron__mlir_b b;
    *out = NULL;
    iron_status st = iron__mlir_b_start(&b);
    if (st != IRON_OK)
        return st;
    iron__mlir_type *index = iron__mlir_b_scalar(&b, "index");
    ex x = { pl, &b,
             iron__mlir_b_op(&b, NULL, "aie.device", "device:kw",
                             pl->p->dev.name),
             index };
    iron__mlir_b_region(&b, x.dev, 1);
    for (int i = 0; i < pl->ntiles; i++)
        iron__mlir_b_op(&b, x.dev, "aie.tile", "col:i32 row:i32 =",
                        (int64_t)pl->tiles[i].t.col,
                        (int64_t)pl->tiles[i].t.row, index, pl->tiles[i].ssa);
    for (int i = 0; i < pl->nemit; i++) {
        if (pl->emit[i].fifo)
            fifo(&x, pl->emit[i].fifo);
        else
            link(&x, pl->emit[i].link);
    }
    decls(&x);
    for (int i = 0; i < pl->nworkers; i++)
        core(&x, i);
    iron__mlx_sequence(pl, &b, x.dev);
    /* the device's aie.end, which the custom form leaves out */
    iron__mlir_b_op(&b, x.dev, "aie.end", NULL);
    st = iron__mlir_b_status(&b, "the exported module");
    if (st == IRON_OK)
        *out = b.m;
    else
        iron__mlir_module_free(b.m);
    return st;
}

iron_status iron__mlx_print_module(const iron__mlx_plan *pl, int generic,
                                   iron__str *out)
{
    iron__mlir_module *m;
    iron_status st = iron__mlx_module(pl, &m);
    if (st == IRON_OK)
        st = iron__mlir_lower(m, pl->target, generic);
    if (st == IRON_OK)
        st = iron__mlir_print(m, generic, out);
    iron__mlir_module_free(m);
    return st;
}

iron_status iron__mlir_export_text(const iron_program *p,
                                   const iron__mlir_target *t, int generic,
                                   iron__str *out)
{
    iron__mlx_plan pl;
    iron_status st = iron__mlx_plan_make(&pl, p, t);
    if (st == IRON_OK)
        st = iron__mlx_print_module(&pl, generic, out);
    iron__mlx_plan_free(&pl);
    return st;
}
