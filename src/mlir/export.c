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
 * Era 2025 writes link_with on each func.func, era 2024 on the aie.core
 * (the plan's link_obj).  Every core gets its worker's stack_size unless
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

/* aie.core's stack_size when none is given (0x400). */
#define UPSTREAM_STACK 1024u

iron_status iron__mlir_export_era(const char *text, int *era)
{
    if (!text || strcmp(text, "2025") == 0) {
        *era = IRON__MLIR_ERA_2025;
        return IRON_OK;
    }
    if (strcmp(text, "2024") == 0) {
        *era = IRON__MLIR_ERA_2024;
        return IRON_OK;
    }
    return iron__fail(IRON_EINVAL,
                      "MLIR export: era '%s'; expected \"2025\" (the "
                      "default) or \"2024\"",
                      text);
}

typedef iron__mlir_op O;

/* The module being built. */
typedef struct ex {
    const iron__mlx_plan *pl;
    iron__mlir_b *b;
    O *dev;                   /* aie.device */
    iron__mlir_type *index;
} ex;

static iron__mlir_attr *i32(ex *x, int64_t v)
{
    return iron__mlir_b_int(x->b, IRON__MA_INT, v,
                            iron__mlir_b_scalar(x->b, IRON__MT_INT, 32, 0));
}

static iron__mlir_attr *str(ex *x, iron__mlir_akind kind, const char *s)
{
    return iron__mlir_b_text(x->b, kind, s);
}

static int tile(ex *x, iron__tile t)
{
    const char *ssa = iron__mlx_tile_ssa(x->pl, t);
    return iron__mlx_named(x->b, ssa ? ssa : "%tile_unplaced", x->index);
}

/* [<size = 8, stride = 1>, <size = 3, stride = 8>], or [] */
static iron__mlir_attr *dims(ex *x, const iron_handle *h)
{
    iron__mlir_attr *a = iron__mlir_b_list(x->b, IRON__MA_ARRAY, NULL);
    for (int i = 0; h->has_dims && i < h->dims.ndim; i++)
        iron__mlir_b_item(x->b, a, NULL,
                          iron__mlir_b_dim(x->b, h->dims.sizes[i],
                                           h->dims.strides[i]));
    return a;
}

static void fifo(ex *x, const iron_fifo *f)
{
    iron__mlir_b *b = x->b;
    O *o = iron__mlir_b_op(b, x->dev, "aie.objectfifo");
    iron__mlir_b_set(b, o, "sym_name",
                     str(x, IRON__MA_STR, x->pl->fifo_sym[f->index]));
    iron__mlir_b_operand(b, o, tile(x, iron__mlx_end_tile(x->pl, &f->prod)));
    iron__mlir_b_set(b, o, "dimensionsToStream", dims(x, &f->prod));
    iron__mlir_attr *from = iron__mlir_b_list(b, IRON__MA_ARRAY, NULL);
    iron__mlir_attr *depths = iron__mlir_b_list(b, IRON__MA_ARRAY, NULL);
    iron__mlir_b_item(b, depths, NULL, i32(x, f->prod.depth));
    int same = 1;
    for (int c = 0; c < f->ncons; c++) {
        iron__mlir_b_operand(b, o,
                             tile(x, iron__mlx_end_tile(x->pl, f->cons[c])));
        iron__mlir_b_item(b, from, NULL, dims(x, f->cons[c]));
        iron__mlir_b_item(b, depths, NULL, i32(x, f->cons[c]->depth));
        same &= f->cons[c]->depth == f->prod.depth;
    }
    iron__mlir_b_set(b, o, "dimensionsFromStreamPerConsumer", from);
    iron__mlir_b_set(b, o, "elemNumber",
                     same ? i32(x, f->prod.depth) : depths);
    iron__mlir_b_set(
        b, o, "elemType",
        iron__mlir_b_type(b, iron__mlir_b_dialect(
                                 b, "aie", "objectfifo",
                                 iron__mlx_memref(b, f->dtype,
                                                  &f->obj_shape))));
}

static void link(ex *x, const iron__link *l)
{
    iron__mlir_b *b = x->b;
    O *o = iron__mlir_b_op(b, x->dev, "aie.objectfifo.link");
    static const char *const names[] = { "fifoIns", "fifoOuts",
                                         "src_offsets", "dst_offsets" };
    for (int k = 0; k < 2; k++) {
        iron__mlir_attr *fifos = iron__mlir_b_list(b, IRON__MA_ARRAY, NULL);
        iron__mlir_attr *offs = iron__mlir_b_list(b, IRON__MA_ARRAY, NULL);
        int n = k ? l->nout : l->nin;
        for (int i = 0; i < n; i++)
            iron__mlir_b_item(
                b, fifos, NULL,
                str(x, IRON__MA_SYMREF,
                    x->pl->fifo_sym[(k ? l->out : l->in)[i]->fifo->index]));
        /* a join's offsets are its inputs', a split's its outputs';
         * upstream's forward is a split at offset 0 */
        if (l->kind == (k ? IRON__LINK_SPLIT : IRON__LINK_JOIN))
            for (int i = 0; i < n; i++)
                iron__mlir_b_item(b, offs, NULL,
                                  iron__mlir_b_int(b, IRON__MA_INT,
                                                   l->offsets[i], NULL));
        if (k && l->kind == IRON__LINK_FORWARD)
            iron__mlir_b_item(b, offs, NULL,
                              iron__mlir_b_int(b, IRON__MA_INT, 0, NULL));
        iron__mlir_b_set(b, o, names[k], fifos);
        iron__mlir_b_set(b, o, names[k + 2], offs);
    }
}

/* What has been built, for the depth-first walk through links. */
typedef struct walk {
    ex *x;
    unsigned char *fifo_done, *link_done;
} walk;

static void walk_link(walk *w, const iron__link *l);

/* As upstream's ObjectFifo.resolve: the fifo, then the links at its
 * ends (which bring their other fifos first). */
static void walk_fifo(walk *w, const iron_fifo *f)
{
    if (w->fifo_done[f->index])
        return;
    w->fifo_done[f->index] = 1;
    fifo(w->x, f);
    if (f->prod.user == IRON__USER_LINK)
        walk_link(w, f->prod.link);
    for (int c = 0; c < f->ncons; c++)
        if (f->cons[c]->user == IRON__USER_LINK)
            walk_link(w, f->cons[c]->link);
}

static void walk_link(walk *w, const iron__link *l)
{
    if (w->link_done[l->index])
        return;
    w->link_done[l->index] = 1;
    for (int i = 0; i < l->nin; i++)
        walk_fifo(w, l->in[i]->fifo);
    for (int i = 0; i < l->nout; i++)
        walk_fifo(w, l->out[i]->fifo);
    link(w->x, l);
}

static int by_name(const void *a, const void *b)
{
    const iron_fifo *x = *(const iron_fifo *const *)a;
    const iron_fifo *y = *(const iron_fifo *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void fifos(ex *x)
{
    const iron_design *d = x->pl->d;
    int nf = d->fifos.n, nl = d->links.n;
    walk w = { x, iron__calloc((size_t)nf + 1, 1),
               iron__calloc((size_t)nl + 1, 1) };
    iron_fifo **sorted = iron__calloc((size_t)nf + 1, sizeof *sorted);
    if (!w.fifo_done || !w.link_done || !sorted) {
        x->b->failed = 1;
    } else {
        if (nf > 0)   /* a design without fifos has a NULL vector */
            memcpy(sorted, d->fifos.v, (size_t)nf * sizeof *sorted);
        qsort(sorted, (size_t)nf, sizeof *sorted, by_name);
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < nf; i++)
                if (x->pl->fifo_used[sorted[i]->index] == (pass == 0))
                    walk_fifo(&w, sorted[i]);
    }
    iron__free(sorted);
    iron__free(w.fifo_done);
    iron__free(w.link_done);
}

/* func.func private @k(memref<16xi32>, i32) [attributes {link_with}] */
static void func(ex *x, int k)
{
    iron__mlir_b *b = x->b;
    const iron__mlx_kernel *mk = &x->pl->kernels[k];
    iron__mlir_type *in[IRON__MAX_KARGS] = { NULL };
    for (int i = 0; i < mk->ntypes && i < IRON__MAX_KARGS; i++)
        in[i] = iron__mlx_call_type(b, mk->caller, x->pl->d->kernels.v[k], i);
    O *o = iron__mlir_b_op(b, x->dev, "func.func");
    iron__mlir_b_set(b, o, "sym_name", str(x, IRON__MA_STR, mk->sym));
    iron__mlir_b_set(b, o, "sym_visibility", str(x, IRON__MA_STR, "private"));
    iron__mlir_b_set(b, o, "function_type",
                     iron__mlir_b_type(b, iron__mlir_b_functype(
                                              b, mk->ntypes, in, 0, NULL)));
    /* era 2025: the object it links with is the function's */
    if (x->pl->era >= IRON__MLIR_ERA_2025) {
        char obj[256];
        snprintf(obj, sizeof obj, "%s.o", mk->sym);
        iron__mlir_b_set(b, o, "link_with", str(x, IRON__MA_STR, obj));
    }
    iron__mlir_b_region(b, o, 0);
}

/* An element of a buffer's initial value, as MLIR's printer writes it
 * (floats with six digits). */
static iron__mlir_attr *elem(ex *x, iron_dtype dt, const void *base,
                             int64_t i)
{
    const unsigned char *p = (const unsigned char *)base +
                             (size_t)i * iron_dtype_size(dt);
    union {
        int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32;
        uint32_t u32; int64_t i64; float f; double d;
    } v;
    memcpy(&v, p, iron_dtype_size(dt));
    int64_t n = 0;
    double f = 0;
    char buf[64];
    switch (dt) {
    case IRON_INT8: n = v.i8; break;
    case IRON_UINT8: n = v.u8; break;
    case IRON_INT16: n = v.i16; break;
    case IRON_UINT16: n = v.u16; break;
    case IRON_INT32: n = v.i32; break;
    case IRON_UINT32: n = v.u32; break;
    case IRON_INT64: case IRON_UINT64: n = v.i64; break;
    case IRON_FLOAT32: f = v.f; break;
    case IRON_FLOAT64: f = v.d; break;
    case IRON_BFLOAT16: {
        uint32_t bits = (uint32_t)v.u16 << 16;
        float g;
        memcpy(&g, &bits, sizeof g);
        f = g;
        break;
    }
    case IRON_DTYPE_COUNT_: break;
    }
    if (dt != IRON_FLOAT32 && dt != IRON_FLOAT64 && dt != IRON_BFLOAT16)
        return iron__mlir_b_int(x->b, IRON__MA_INT, n, NULL);
    snprintf(buf, sizeof buf, "%e", f);
    return iron__mlir_b_float(x->b, f == f && f - f == 0 ? strtod(buf, NULL)
                                                         : f,
                              NULL);
}

/* %name = aie.buffer(%tile) {sym_name = "name"} : memref<..>
 * [= dense<...>] */
static void buffer(ex *x, const iron__mlx_copy *c)
{
    iron__mlir_b *b = x->b;
    const iron_rtp *r = x->pl->d->rtps.v[c->obj];
    iron_shape shape = { 1, { r->count } };
    O *o = iron__mlir_b_op(b, x->dev, "aie.buffer");
    iron__mlir_b_operand(b, o, tile(x, x->pl->p->workers[
                                           x->pl->workers[c->worker].w].tile));
    iron__mlir_b_set(b, o, "sym_name", str(x, IRON__MA_STR, c->sym));
    iron__mlir_type *t = iron__mlx_memref(b, r->dtype, &shape);
    iron__mlir_b_result(b, o, t, c->ssa);
    if (!r->initial || !t)
        return;
    iron__mlir_attr *d = iron__mlir_b_list(
        b, IRON__MA_DENSE,
        iron__mlir_b_shaped(b, IRON__MT_TENSOR, t->elem, 1, shape.dims));
    size_t sz = iron_dtype_size(r->dtype);
    int splat = 1;
    for (int64_t i = 1; i < r->count && splat; i++)
        splat = memcmp((const char *)r->initial + (size_t)i * sz, r->initial,
                       sz) == 0;
    for (int64_t i = 0; i < (splat ? 1 : r->count); i++)
        iron__mlir_b_item(b, d, NULL, elem(x, r->dtype, r->initial, i));
    iron__mlir_b_set(b, o, "initial_value", d);
}

/* Upstream's kernel-resolve phase: per worker, per argument, the
 * kernels it calls (declared once) and its buffers. */
static void decls(ex *x)
{
    const iron__mlx_plan *pl = x->pl;
    unsigned char *declared = iron__calloc((size_t)pl->d->kernels.n + 1, 1);
    if (!declared) {
        x->b->failed = 1;
        return;
    }
    for (int i = 0; i < pl->nworkers; i++) {
        const iron__mlx_worker *mw = &pl->workers[i];
        int np = iron__body_nparams(mw->body);
        for (int k = 0; k < np; k++) {
            const iron__body_param *bp = iron__body_param_at(mw->body, k);
            if (bp->kind == IRON__BP_KERNEL &&
                pl->kernels[bp->kernel->index].used) {
                int ki = pl->kernels[bp->kernel->index].same_as;
                if (!declared[ki])
                    func(x, ki);
                declared[ki] = 1;
            } else if (bp->kind == IRON__BP_RTP) {
                for (int b = 0; b < pl->nbufs; b++)
                    if (pl->bufs[b].worker == i &&
                        pl->bufs[b].obj == bp->rtp->index &&
                        strcmp(pl->bufs[b].ssa, mw->pnames[k]) == 0)
                        buffer(x, &pl->bufs[b]);
            }
        }
    }
    iron__free(declared);
}

static void core(ex *x, int i)
{
    iron__mlir_b *b = x->b;
    const iron__mlx_worker *mw = &x->pl->workers[i];
    const iron_worker *w = x->pl->d->workers.v[mw->w];
    int t = iron__mlx_named(b, mw->tile, x->index);
    /* The worker's barrier locks, made just before its core (upstream's
     * Worker.resolve). */
    for (int l = 0; l < x->pl->nlocks; l++) {
        if (x->pl->locks[l].worker != i)
            continue;
        const iron_barrier *br = x->pl->d->barriers.v[x->pl->locks[l].obj];
        O *o = iron__mlir_b_op(b, x->dev, "aie.lock");
        iron__mlir_b_operand(b, o, t);
        if (br->initial)
            iron__mlir_b_set(b, o, "init", i32(x, br->initial));
        iron__mlir_b_result(b, o, x->index, x->pl->locks[l].ssa);
    }
    O *o = iron__mlir_b_op(b, x->dev, "aie.core");
    iron__mlir_b_operand(b, o, t);
    iron__mlir_b_region(b, o, 1);
    iron__body_names names = { mw->pnames, mw->prefix };
    iron__mlx_body(b, o, mw->body, &names);
    iron__mlir_b_op(b, o, "aie.end");
    uint32_t stack = w->stack_bytes ? w->stack_bytes
                                    : x->pl->p->dev.compute.stack_bytes;
    if (mw->link_obj)   /* era 2024 */
        iron__mlir_b_set(b, o, "link_with",
                         str(x, IRON__MA_STR, mw->link_obj));
    if (stack && stack != UPSTREAM_STACK)
        iron__mlir_b_set(b, o, "stack_size", i32(x, stack));
    iron__mlir_b_result(b, o, x->index, mw->core);
}

iron_status iron__mlx_module(const iron__mlx_plan *pl,
                             iron__mlir_module **out)
{
    iron__mlir_b b;
    *out = NULL;
    iron_status st = iron__mlir_b_start(&b);
    if (st != IRON_OK)
        return st;
    ex x = { pl, &b, iron__mlir_b_op(&b, NULL, "aie.device"),
             iron__mlir_b_scalar(&b, IRON__MT_INDEX, 0, 0) };
    iron__mlir_b_set(&b, x.dev, "device",
                     str(&x, IRON__MA_KEYWORD, pl->p->dev.name));
    iron__mlir_b_region(&b, x.dev, 1);
    for (int i = 0; i < pl->ntiles; i++) {
        O *o = iron__mlir_b_op(&b, x.dev, "aie.tile");
        iron__mlir_b_set(&b, o, "col", i32(&x, pl->tiles[i].t.col));
        iron__mlir_b_set(&b, o, "row", i32(&x, pl->tiles[i].t.row));
        iron__mlir_b_result(&b, o, x.index, pl->tiles[i].ssa);
    }
    fifos(&x);
    decls(&x);
    for (int i = 0; i < pl->nworkers; i++)
        core(&x, i);
    st = iron__mlx_sequence(pl, &b, x.dev);
    if (st == IRON_OK)
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
        st = iron__mlir_print(m, generic, out);
    iron__mlir_module_free(m);
    return st;
}

iron_status iron__mlir_export_text(const iron_program *p, int era,
                                   int generic, iron__str *out)
{
    iron__mlx_plan pl;
    iron_status st = iron__mlx_plan_make(&pl, p, era);
    if (st == IRON_OK)
        st = iron__mlx_print_module(&pl, generic, out);
    iron__mlx_plan_free(&pl);
    return st;
}
