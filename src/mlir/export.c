/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export.c - a placed program as the objectfifo-level MLIR upstream IRON
 * emits for the same design, in upstream's order (Program.resolve_program):
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
 * Era 2025 writes link_with on each func.func, era 2024 on the aie.core.
 * Every core gets its worker's stack_size (which MLIR's printer leaves
 * out when it is the default, 1024).  Depths are written as one number
 * when every endpoint has the same, else as the list (producer first).
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

/* "[<size = 8, stride = 1>, <size = 3, stride = 8>]" */
static void print_dims(iron__str *s, const iron_tap *t)
{
    iron__str_append(s, "[");
    for (int i = 0; i < t->ndim; i++)
        iron__str_printf(s, "%s<size = %lld, stride = %lld>", i ? ", " : "",
                         (long long)t->sizes[i], (long long)t->strides[i]);
    iron__str_append(s, "]");
}

static void print_end_tile(const iron__mlx_plan *pl, iron__str *s,
                           const iron_handle *h)
{
    const char *ssa = iron__mlx_tile_ssa(pl, iron__mlx_end_tile(pl, h));
    iron__str_append(s, ssa ? ssa : "%tile_unplaced");
    if (h->has_dims) {
        iron__str_append(s, h->is_prod ? " dimensionsToStream "
                                       : " dimensionsFromStream ");
        print_dims(s, &h->dims);
    }
}

static void print_fifo(const iron__mlx_plan *pl, iron__str *s,
                       const iron_fifo *f)
{
    iron__str_printf(s, "    aie.objectfifo @%s(", pl->fifo_sym[f->index]);
    print_end_tile(pl, s, &f->prod);
    iron__str_append(s, ", {");
    int same = 1;
    for (int c = 0; c < f->ncons; c++) {
        print_end_tile(pl, s, f->cons[c]);
        iron__str_append(s, c + 1 < f->ncons ? ", " : "");
        same &= f->cons[c]->depth == f->prod.depth;
    }
    iron__str_append(s, "}, ");
    if (same) {
        iron__str_printf(s, "%d : i32", f->prod.depth);
    } else {
        iron__str_printf(s, "[%d : i32", f->prod.depth);
        for (int c = 0; c < f->ncons; c++)
            iron__str_printf(s, ", %d : i32", f->cons[c]->depth);
        iron__str_append(s, "]");
    }
    iron__str_append(s, ") : !aie.objectfifo<");
    iron__mlx_memref(s, f->dtype, &f->obj_shape);
    iron__str_append(s, ">\n");
}

static void print_link(const iron__mlx_plan *pl, iron__str *s,
                       const iron__link *l)
{
    iron__str_append(s, "    aie.objectfifo.link [");
    for (int i = 0; i < l->nin; i++)
        iron__str_printf(s, "%s@%s", i ? ", " : "",
                         pl->fifo_sym[l->in[i]->fifo->index]);
    iron__str_append(s, "] -> [");
    for (int i = 0; i < l->nout; i++)
        iron__str_printf(s, "%s@%s", i ? ", " : "",
                         pl->fifo_sym[l->out[i]->fifo->index]);
    /* Upstream's forward is a split at offset 0. */
    iron__str_append(s, "]([");
    if (l->kind == IRON__LINK_JOIN)
        for (int i = 0; i < l->nin; i++)
            iron__str_printf(s, "%s%lld", i ? ", " : "",
                             (long long)l->offsets[i]);
    iron__str_append(s, "] [");
    if (l->kind == IRON__LINK_SPLIT)
        for (int i = 0; i < l->nout; i++)
            iron__str_printf(s, "%s%lld", i ? ", " : "",
                             (long long)l->offsets[i]);
    else if (l->kind == IRON__LINK_FORWARD)
        iron__str_append(s, "0");
    iron__str_append(s, "])\n");
}

/* What has been printed, for the depth-first walk through links. */
typedef struct walk {
    const iron__mlx_plan *pl;
    iron__str *s;
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
    print_fifo(w->pl, w->s, f);
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
    print_link(w->pl, w->s, l);
}

static int by_name(const void *a, const void *b)
{
    const iron_fifo *x = *(const iron_fifo *const *)a;
    const iron_fifo *y = *(const iron_fifo *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static iron_status print_fifos(const iron__mlx_plan *pl, iron__str *s)
{
    const iron_design *d = pl->d;
    int nf = d->fifos.n, nl = d->links.n;
    walk w = { pl, s, iron__calloc((size_t)nf + 1, 1),
               iron__calloc((size_t)nl + 1, 1) };
    iron_fifo **sorted = iron__calloc((size_t)nf + 1, sizeof *sorted);
    iron_status st = IRON_OK;
    if (!w.fifo_done || !w.link_done || !sorted) {
        st = iron__fail(IRON_ENOMEM, "MLIR export: out of memory");
    } else {
        if (nf > 0)   /* a design without fifos has a NULL vector */
            memcpy(sorted, d->fifos.v, (size_t)nf * sizeof *sorted);
        qsort(sorted, (size_t)nf, sizeof *sorted, by_name);
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < nf; i++)
                if (pl->fifo_used[sorted[i]->index] == (pass == 0))
                    walk_fifo(&w, sorted[i]);
    }
    iron__free(sorted);
    iron__free(w.fifo_done);
    iron__free(w.link_done);
    return st;
}

/* func.func private @k(memref<16xi32>, i32) [attributes {link_with}] */
static void print_func(const iron__mlx_plan *pl, iron__str *s, int k)
{
    const iron__mlx_kernel *mk = &pl->kernels[k];
    iron__str_printf(s, "    func.func private @%s(", mk->sym);
    for (int i = 0; i < mk->ntypes; i++)
        iron__str_printf(s, "%s%s", i ? ", " : "", mk->types[i]);
    iron__str_append(s, ")");
    if (pl->era >= IRON__MLIR_ERA_2025)
        iron__str_printf(s, " attributes {link_with = \"%s.o\"}", mk->sym);
    iron__str_append(s, "\n");
}

/* An element of a buffer's initial value as MLIR prints it. */
static void print_elem(iron__str *s, iron_dtype dt, const void *base,
                       int64_t i)
{
    const unsigned char *p = base;
    size_t sz = iron_dtype_size(dt);
    p += (size_t)i * sz;
    union {
        int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32;
        uint32_t u32; int64_t i64; uint64_t u64; float f; double d;
    } v;
    memcpy(&v, p, sz);
    switch (dt) {
    case IRON_INT8: iron__str_printf(s, "%d", v.i8); break;
    case IRON_UINT8: iron__str_printf(s, "%u", v.u8); break;
    case IRON_INT16: iron__str_printf(s, "%d", v.i16); break;
    case IRON_UINT16: iron__str_printf(s, "%u", v.u16); break;
    case IRON_INT32: iron__str_printf(s, "%d", v.i32); break;
    case IRON_UINT32: iron__str_printf(s, "%u", v.u32); break;
    case IRON_INT64: iron__str_printf(s, "%lld", (long long)v.i64); break;
    case IRON_UINT64:
        iron__str_printf(s, "%llu", (unsigned long long)v.u64);
        break;
    case IRON_FLOAT32: iron__str_printf(s, "%e", (double)v.f); break;
    case IRON_FLOAT64: iron__str_printf(s, "%e", v.d); break;
    case IRON_BFLOAT16: {
        uint32_t bits = (uint32_t)v.u16 << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        iron__str_printf(s, "%e", (double)f);
        break;
    }
    case IRON_DTYPE_COUNT_: break;
    }
}

/* %name = aie.buffer(%tile) {sym_name = "name"} : memref<..>
 * [= dense<...>] */
static void print_buffer(const iron__mlx_plan *pl, iron__str *s,
                         const iron__mlx_copy *c)
{
    const iron_rtp *r = pl->d->rtps.v[c->obj];
    const iron__mlx_worker *mw = &pl->workers[c->worker];
    iron_shape shape = { 1, { r->count } };
    iron__str_printf(s, "    %s = aie.buffer(%s) {sym_name = \"%s\"} : ",
                     c->ssa, mw->tile, c->sym);
    iron__mlx_memref(s, r->dtype, &shape);
    if (r->initial) {
        int splat = 1;
        size_t sz = iron_dtype_size(r->dtype);
        for (int64_t i = 1; i < r->count && splat; i++)
            splat = memcmp((const char *)r->initial + (size_t)i * sz,
                           r->initial, sz) == 0;
        iron__str_append(s, " = dense<");
        if (splat) {
            print_elem(s, r->dtype, r->initial, 0);
        } else {
            iron__str_append(s, "[");
            for (int64_t i = 0; i < r->count; i++) {
                if (i)
                    iron__str_append(s, ", ");
                print_elem(s, r->dtype, r->initial, i);
            }
            iron__str_append(s, "]");
        }
        iron__str_append(s, ">");
    }
    iron__str_append(s, "\n");
}

/* Upstream's kernel-resolve phase: per worker, per argument, the
 * kernels it calls (declared once) and its buffers. */
static iron_status print_decls(const iron__mlx_plan *pl, iron__str *s)
{
    int nk = pl->d->kernels.n;
    unsigned char *declared = iron__calloc((size_t)nk + 1, 1);
    if (!declared)
        return iron__fail(IRON_ENOMEM, "MLIR export: out of memory");
    for (int i = 0; i < pl->nworkers; i++) {
        const iron__mlx_worker *mw = &pl->workers[i];
        int np = iron__body_nparams(mw->body);
        for (int k = 0; k < np; k++) {
            const iron__body_param *bp = iron__body_param_at(mw->body, k);
            if (bp->kind == IRON__BP_KERNEL &&
                pl->kernels[bp->kernel->index].used) {
                int ki = pl->kernels[bp->kernel->index].same_as;
                if (!declared[ki])
                    print_func(pl, s, ki);
                declared[ki] = 1;
            } else if (bp->kind == IRON__BP_RTP) {
                for (int b = 0; b < pl->nbufs; b++)
                    if (pl->bufs[b].worker == i &&
                        pl->bufs[b].obj == bp->rtp->index &&
                        strcmp(pl->bufs[b].ssa, mw->pnames[k]) == 0)
                        print_buffer(pl, s, &pl->bufs[b]);
            }
        }
    }
    iron__free(declared);
    return IRON_OK;
}

static iron_status print_core(const iron__mlx_plan *pl, iron__str *s,
                              int i)
{
    const iron__mlx_worker *mw = &pl->workers[i];
    const iron_worker *w = pl->d->workers.v[mw->w];
    /* The worker's barrier locks, made just before its core (upstream's
     * Worker.resolve). */
    for (int l = 0; l < pl->nlocks; l++) {
        if (pl->locks[l].worker != i)
            continue;
        const iron_barrier *b = pl->d->barriers.v[pl->locks[l].obj];
        iron__str_printf(s, "    %s = aie.lock(%s)", pl->locks[l].ssa,
                         mw->tile);
        if (b->initial)
            iron__str_printf(s, " {init = %d : i32}", b->initial);
        iron__str_append(s, "\n");
    }
    iron__str_printf(s, "    %s = aie.core(%s) {\n", mw->core, mw->tile);
    iron__body_names names = { mw->pnames, mw->prefix };
    iron_status st = iron__body_print_mlir(mw->body, &names, 6, s);
    if (st != IRON_OK)
        return iron__fail_context(st, "MLIR export: worker '%s'", w->name);
    uint32_t stack = w->stack_bytes ? w->stack_bytes
                                    : pl->p->dev.compute.stack_bytes;
    if (!stack)
        stack = UPSTREAM_STACK;
    iron__str_append(s, "      aie.end\n    }");
    /* stack_size is a default-valued attribute: MLIR's printer leaves it
     * out when it is upstream's default. */
    if (mw->link_obj && stack != UPSTREAM_STACK)
        iron__str_printf(s, " {link_with = \"%s\", stack_size = %u : i32}",
                         mw->link_obj, (unsigned)stack);
    else if (mw->link_obj)
        iron__str_printf(s, " {link_with = \"%s\"}", mw->link_obj);
    else if (stack != UPSTREAM_STACK)
        iron__str_printf(s, " {stack_size = %u : i32}", (unsigned)stack);
    iron__str_append(s, "\n");
    return IRON_OK;
}

iron_status iron__mlx_print_module(const iron__mlx_plan *pl, iron__str *out)
{
    iron__str s = { 0 };
    iron__str_printf(&s, "module {\n  aie.device(%s) {\n", pl->p->dev.name);
    for (int i = 0; i < pl->ntiles; i++)
        iron__str_printf(&s, "    %s = aie.tile(%d, %d)\n", pl->tiles[i].ssa,
                         pl->tiles[i].t.col, pl->tiles[i].t.row);
    iron_status st = print_fifos(pl, &s);
    if (st == IRON_OK)
        st = print_decls(pl, &s);
    for (int i = 0; st == IRON_OK && i < pl->nworkers; i++)
        st = print_core(pl, &s, i);
    if (st == IRON_OK)
        st = iron__mlx_print_sequence(pl, &s);
    if (st == IRON_OK) {
        iron__str_append(&s, "  }\n}\n");
        if (s.oom)
            st = iron__fail(IRON_ENOMEM, "MLIR export: out of memory");
        else
            iron__str_append(out, iron__str_get(&s));
    }
    iron__str_free(&s);
    if (st == IRON_OK && out->oom)
        st = iron__fail(IRON_ENOMEM, "MLIR export: out of memory");
    return st;
}

iron_status iron__mlir_export_text(const iron_program *p, int era,
                                   iron__str *out)
{
    iron__mlx_plan pl;
    iron_status st = iron__mlx_plan_make(&pl, p, era);
    if (st == IRON_OK)
        st = iron__mlx_print_module(&pl, out);
    iron__mlx_plan_free(&pl);
    return st;
}
