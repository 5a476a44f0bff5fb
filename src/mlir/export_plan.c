/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_plan.c - everything the exporter decides before it builds the
 * module: what cannot be exported (refused here, naming it), each
 * worker's core body and how its parameters are named, the kernels the
 * cores call with the types they call them with, the symbols of fifos,
 * kernels and buffers, the tiles in the order upstream's
 * Program.resolve_program creates them (the workers' tiles in start
 * order, then each fifo's endpoints, the fifos sorted by name, the used
 * ones first), and the fifos and links in the order it declares them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body/body.h"
#include "design/design.h"
#include "mlir/export.h"

#define OOM() iron__fail(IRON_ENOMEM, "MLIR export: out of memory")

/* --- what cannot be exported --------------------------------------------- */

static iron_status refuse(const iron_design *d)
{
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        if (!w->body && w->kernel && w->kernel->is_core && !w->kernel->body)
            return iron__fail(
                IRON_ENOTSUP,
                "MLIR export: worker '%s': its core body '%s' is C source "
                "only (iron_kernel_new_core), which has no MLIR form; "
                "describe it with the core-body IR (iron_body_new, "
                "iron_body_*, iron_worker_new_body) to export it",
                w->name, w->kernel->entry);
    }
    for (int i = 0; i < d->ops.n; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        char hl[96];
        if (op->scalar >= 0) {
            char what[160];
            if (op->kind == IRON__RT_SET_RTP)
                snprintf(what, sizeof what, "set_rtp of buffer '%s'",
                         op->rtp->name);
            else
                snprintf(what, sizeof what, "%s of %s",
                         op->kind == IRON__RT_FILL ? "fill" : "drain",
                         iron__handle_label(op->h, hl, sizeof hl));
            return iron__fail(
                IRON_ENOTSUP,
                "MLIR export: runtime sequence op %d (%s) takes its value "
                "from dispatch-time scalar '%s', which the export does not "
                "write (give the value as a compile-time parameter "
                "instead)",
                i, what,
                d->scalar_names && op->scalar < d->nscalars
                    ? d->scalar_names[op->scalar]
                    : "?");
        }
        if (op->kind == IRON__RT_SET_RTP &&
            iron_dtype_size(op->rtp->dtype) != 4)
            return iron__fail(
                IRON_ENOTSUP,
                "MLIR export: runtime sequence op %d writes buffer '%s' of "
                "%s; aiex.npu.rtp_write writes 32-bit words, so only "
                "buffers of 32-bit elements can be set from the sequence",
                i, op->rtp->name, iron_dtype_name(op->rtp->dtype));
    }
    return IRON_OK;
}

/* --- workers and their bodies -------------------------------------------- */

static int by_start(const void *a, const void *b)
{
    const iron_worker *x = *(const iron_worker *const *)a;
    const iron_worker *y = *(const iron_worker *const *)b;
    if (x->d->any_started && x->start_order != y->start_order)
        return x->start_order < y->start_order ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static iron_status plan_workers(iron__mlx_plan *pl)
{
    iron_design *d = pl->d;
    int n = d->workers.n;
    pl->workers = iron__calloc((size_t)(n ? n : 1), sizeof *pl->workers);
    iron_worker **sorted = iron__calloc((size_t)(n ? n : 1), sizeof *sorted);
    if (!pl->workers || !sorted) {
        iron__free(sorted);
        return OOM();
    }
    if (n > 0)   /* an empty design's vector is NULL */
        memcpy(sorted, d->workers.v, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, by_start);
    iron_status s = IRON_OK;
    for (int i = 0; i < n && s == IRON_OK; i++) {
        iron_worker *w = sorted[i];
        iron__mlx_worker *mw = &pl->workers[pl->nworkers++];
        mw->w = w->index;
        snprintf(mw->prefix, sizeof mw->prefix, "%%w%d_", i);
        if (w->body)
            mw->body = w->body;
        else if (w->kernel && w->kernel->is_core)
            mw->body = w->kernel->body;
        else
            s = iron__body_for_standard_worker(d, w, &mw->body);
        if (s != IRON_OK)
            iron__fail_context(s, "MLIR export: worker '%s'", w->name);
    }
    iron__free(sorted);
    return s;
}

/* --- kernels ------------------------------------------------------------- */

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Whether kernels a and b compile to the same function. */
static int same_kernel(const iron_kernel *a, const iron_kernel *b)
{
    if (strcmp(a->entry, b->entry) != 0 || !same_text(a->source, b->source) ||
        !same_text(a->cflags, b->cflags) || a->ndefines != b->ndefines ||
        a->nargs != b->nargs)
        return 0;
    for (int i = 0; i < a->ndefines; i++)
        if (!same_text(a->defines[i].name, b->defines[i].name) ||
            !same_text(a->defines[i].value, b->defines[i].value))
            return 0;
    return 1;
}

static int same_types(const iron__mlx_kernel *a, const iron__mlx_kernel *b)
{
    if (a->ntypes != b->ntypes)
        return 0;
    for (int i = 0; i < a->ntypes; i++)
        if (strcmp(a->types[i], b->types[i]) != 0)
            return 0;
    return 1;
}

/* The types body b calls kernel k with, into mk (first caller), or a
 * check that they agree with what an earlier caller used. */
static iron_status call_types(iron__mlx_plan *pl, const iron__mlx_worker *mw,
                              const iron_kernel *k, iron__mlx_kernel *mk,
                              const char **first_caller)
{
    const iron_design *d = pl->d;
    iron__str scratch = { 0 };
    iron_status s = IRON_OK;
    if (!mk->types) {
        mk->types = iron__calloc((size_t)(k->nargs ? k->nargs : 1),
                                 sizeof *mk->types);
        if (!mk->types)
            return OOM();
        for (int i = 0; i < k->nargs; i++) {
            scratch.len = 0;
            const char *t = iron__body_call_type(mw->body, k, i, &scratch);
            if (scratch.oom)
                s = OOM();
            if (s != IRON_OK)
                break;
            mk->types[i] = iron__strdup(t ? t : "");
            if (!mk->types[i]) {
                s = OOM();
                break;
            }
            mk->ntypes++;
        }
        *first_caller = d->workers.v[mw->w]->name;
        mk->caller = mw->body;
        iron__str_free(&scratch);
        return s;
    }
    for (int i = 0; i < k->nargs && s == IRON_OK; i++) {
        scratch.len = 0;
        const char *t = iron__body_call_type(mw->body, k, i, &scratch);
        if (scratch.oom)
            s = OOM();
        else if (t && strcmp(t, mk->types[i]) != 0)
            s = iron__fail(IRON_ENOTSUP,
                           "MLIR export: kernel '%s' parameter %d is called "
                           "with %s by worker '%s' and with %s by worker "
                           "'%s'; an MLIR function has one type",
                           k->entry, i, mk->types[i], *first_caller, t,
                           d->workers.v[mw->w]->name);
    }
    iron__str_free(&scratch);
    return s;
}

/* Whether parameter bp of body b is a kernel the body calls (a body may
 * name a kernel it never calls: it is then not declared). */
static int called(const iron_body *b, const iron__body_param *bp)
{
    if (bp->kind != IRON__BP_KERNEL)
        return 0;
    if (bp->kernel->nargs == 0)
        return 1;
    iron__str scratch = { 0 };
    int yes = iron__body_call_type(b, bp->kernel, 0, &scratch) != NULL;
    iron__str_free(&scratch);
    return yes;
}

/* Adds kernel k to worker mw's list (once). */
static iron_status worker_kernel(iron__mlx_worker *mw, int k)
{
    for (int i = 0; i < mw->nkernels; i++)
        if (mw->kernels[i] == k)
            return IRON_OK;
    int *v = iron__realloc(mw->kernels,
                           (size_t)(mw->nkernels + 1) * sizeof *v);
    if (!v)
        return OOM();
    mw->kernels = v;
    mw->kernels[mw->nkernels++] = k;
    return IRON_OK;
}

static iron_status plan_kernels(iron__mlx_plan *pl)
{
    iron_design *d = pl->d;
    int nk = d->kernels.n;
    pl->kernels = iron__calloc((size_t)(nk ? nk : 1), sizeof *pl->kernels);
    const char **caller = iron__calloc((size_t)(nk ? nk : 1),
                                       sizeof *caller);
    if (!pl->kernels || !caller) {
        iron__free(caller);
        return OOM();
    }
    iron_status s = IRON_OK;
    /* Which kernels the cores call, and with which types. */
    for (int i = 0; i < pl->nworkers && s == IRON_OK; i++) {
        iron__mlx_worker *mw = &pl->workers[i];
        int np = iron__body_nparams(mw->body);
        for (int k = 0; k < np && s == IRON_OK; k++) {
            const iron__body_param *bp = iron__body_param_at(mw->body, k);
            if (!called(mw->body, bp))
                continue;
            int ki = bp->kernel->index;
            pl->kernels[ki].used = 1;
            s = call_types(pl, mw, bp->kernel, &pl->kernels[ki], &caller[ki]);
        }
    }
    iron__free(caller);
    /* Symbols: identical kernels share one; a different kernel with an
     * entry name already taken is renamed (its file renames the C
     * function to match with a #define). */
    for (int k = 0; k < nk && s == IRON_OK; k++) {
        iron__mlx_kernel *mk = &pl->kernels[k];
        mk->same_as = k;
        if (!mk->used)
            continue;
        for (int j = 0; j < k; j++)
            if (pl->kernels[j].used && pl->kernels[j].same_as == j &&
                same_kernel(d->kernels.v[j], d->kernels.v[k]) &&
                same_types(&pl->kernels[j], mk)) {
                mk->same_as = j;
                mk->sym = pl->kernels[j].sym;
                break;
            }
        if (mk->same_as != k)
            continue;
        const char *entry = d->kernels.v[k]->entry;
        if (iron__mlx_reserve(&pl->syms, entry)) {
            mk->sym = pl->syms.v[pl->syms.n - 1];
        } else if (!pl->syms.oom) {
            mk->sym = iron__mlx_take(&pl->syms, entry);
            mk->renamed = 1;
        }
        if (!mk->sym)
            s = OOM();
    }
    /* Each worker's distinct kernels (by the one exported). */
    for (int i = 0; i < pl->nworkers && s == IRON_OK; i++) {
        iron__mlx_worker *mw = &pl->workers[i];
        int np = iron__body_nparams(mw->body);
        for (int k = 0; k < np && s == IRON_OK; k++) {
            const iron__body_param *bp = iron__body_param_at(mw->body, k);
            if (called(mw->body, bp))
                s = worker_kernel(mw,
                                  pl->kernels[bp->kernel->index].same_as);
        }
    }
    return s;
}

/* --- fifos --------------------------------------------------------------- */

static int used_end(const iron_handle *h)
{
    return h->user == IRON__USER_WORKER || h->user == IRON__USER_RUNTIME;
}

/* Whether a worker or the runtime uses fifo f (else only links do). */
static int fifo_used(const iron_fifo *f)
{
    int used = used_end(&f->prod);
    for (int c = 0; c < f->ncons; c++)
        used |= used_end(f->cons[c]);
    return used;
}

static iron_status plan_fifos(iron__mlx_plan *pl)
{
    const iron_design *d = pl->d;
    int nf = d->fifos.n;
    pl->fifo_sym = iron__calloc((size_t)(nf ? nf : 1), sizeof *pl->fifo_sym);
    if (!pl->fifo_sym)
        return OOM();
    for (int f = 0; f < nf; f++) {
        const iron_fifo *fi = d->fifos.v[f];
        pl->fifo_sym[f] = iron__mlx_take(&pl->syms, fi->name);
        if (!pl->fifo_sym[f])
            return OOM();
    }
    return IRON_OK;
}

/* --- tiles --------------------------------------------------------------- */

iron__tile iron__mlx_end_tile(const iron__mlx_plan *plan,
                              const iron_handle *h)
{
    const iron_program *p = plan->p;
    iron__tile none = { -1, -1 };
    switch (h->user) {
    case IRON__USER_WORKER:
        return p->workers[h->worker->index].tile;
    case IRON__USER_LINK:
        return p->links[h->link->index].tile;
    case IRON__USER_RUNTIME: {
        const iron__prog_end *e = iron__program_end(
            p, h->fifo->index, h->is_prod ? -1 : h->cons_index);
        iron__tile t = { 0, IRON__ROW_SHIM };
        if (e->mover >= 0 && e->mover < p->nmovers &&
            p->movers[e->mover].shim_col >= 0)
            t.col = p->movers[e->mover].shim_col;
        return t;
    }
    case IRON__USER_NONE:
        break;
    }
    return none;
}

const char *iron__mlx_tile_ssa(const iron__mlx_plan *plan, iron__tile t)
{
    for (int i = 0; i < plan->ntiles; i++)
        if (plan->tiles[i].t.col == t.col && plan->tiles[i].t.row == t.row)
            return plan->tiles[i].ssa;
    return NULL;
}

static iron_status add_tile(iron__mlx_plan *pl, iron__tile t)
{
    if (t.col < 0 || iron__mlx_tile_ssa(pl, t))
        return IRON_OK;
    if (pl->ntiles == pl->cap_tiles) {
        int cap = pl->cap_tiles ? pl->cap_tiles * 2 : 16;
        iron__mlx_tile *v = iron__realloc(pl->tiles, (size_t)cap * sizeof *v);
        if (!v)
            return OOM();
        pl->tiles = v;
        pl->cap_tiles = cap;
    }
    const char *kind = t.row == IRON__ROW_SHIM      ? "shim_noc_tile"
                       : t.row == IRON__ROW_MEMTILE ? "mem_tile"
                                                    : "tile";
    char base[64];
    snprintf(base, sizeof base, "%s_%d_%d", kind, t.col, t.row);
    const char *name = iron__mlx_take(&pl->ssa, base);
    const char *ssa = name ? iron__mlx_keepf(&pl->pool, "%%%s", name) : NULL;
    if (!ssa)
        return OOM();
    pl->tiles[pl->ntiles].t = t;
    pl->tiles[pl->ntiles].ssa = ssa;
    pl->ntiles++;
    return IRON_OK;
}

/* The fifos by name, the used ones first (as upstream collects them),
 * then any fifo only links touch. */
static int by_fifo_name(const void *a, const void *b)
{
    const iron_fifo *x = *(const iron_fifo *const *)a;
    const iron_fifo *y = *(const iron_fifo *const *)b;
    int c = fifo_used(y) - fifo_used(x);
    if (!c)
        c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static iron_status plan_tiles(iron__mlx_plan *pl)
{
    const iron_design *d = pl->d;
    iron_status s = IRON_OK;
    for (int i = 0; i < pl->nworkers && s == IRON_OK; i++)
        s = add_tile(pl, pl->p->workers[pl->workers[i].w].tile);
    int nf = d->fifos.n;
    size_t sz = sizeof *pl->fifo_order;
    pl->fifo_order = iron__calloc((size_t)(nf ? nf : 1), sz);
    if (!pl->fifo_order)
        return OOM();
    if (nf > 0)   /* a design without fifos has a NULL vector */
        memcpy(pl->fifo_order, d->fifos.v, (size_t)nf * sz);
    qsort(pl->fifo_order, (size_t)nf, sz, by_fifo_name);
    for (int i = 0; i < nf && s == IRON_OK; i++) {
        const iron_fifo *f = pl->fifo_order[i];
        s = add_tile(pl, iron__mlx_end_tile(pl, &f->prod));
        for (int c = 0; c < f->ncons && s == IRON_OK; c++)
            s = add_tile(pl, iron__mlx_end_tile(pl, f->cons[c]));
    }
    return s;
}

/* --- the order of fifos and links -------------------------------------- */

static iron_status emit_link(iron__mlx_plan *pl, const iron__link *l);

/* As upstream's ObjectFifo.resolve: the fifo, then the links at its
 * ends (which bring their other fifos first).  emit[] is long enough
 * for every fifo and link once; done[] marks fifos, then links. */
static iron_status emit_fifo(iron__mlx_plan *pl, const iron_fifo *f)
{
    if (pl->done[f->index])
        return IRON_OK;
    pl->done[f->index] = 1;
    pl->emit[pl->nemit++] = (iron__mlx_emit){ f, NULL };
    iron_status s = IRON_OK;
    if (f->prod.user == IRON__USER_LINK)
        s = emit_link(pl, f->prod.link);
    for (int c = 0; c < f->ncons && s == IRON_OK; c++)
        if (f->cons[c]->user == IRON__USER_LINK)
            s = emit_link(pl, f->cons[c]->link);
    return s;
}

static iron_status emit_link(iron__mlx_plan *pl, const iron__link *l)
{
    unsigned char *done = &pl->done[pl->d->fifos.n + l->index];
    if (*done)
        return IRON_OK;
    *done = 1;
    iron_status s = IRON_OK;
    for (int i = 0; i < l->nin && s == IRON_OK; i++)
        s = emit_fifo(pl, l->in[i]->fifo);
    for (int i = 0; i < l->nout && s == IRON_OK; i++)
        s = emit_fifo(pl, l->out[i]->fifo);
    pl->emit[pl->nemit++] = (iron__mlx_emit){ NULL, l };
    return s;
}

static iron_status plan_emit(iron__mlx_plan *pl)
{
    size_t n = (size_t)pl->d->fifos.n + (size_t)pl->d->links.n + 1;
    pl->emit = iron__calloc(n, sizeof *pl->emit);
    pl->done = iron__calloc(n, 1);
    if (!pl->emit || !pl->done)
        return OOM();
    iron_status s = IRON_OK;
    for (int i = 0; i < pl->d->fifos.n && s == IRON_OK; i++)
        s = emit_fifo(pl, pl->fifo_order[i]);
    iron__free(pl->done);
    pl->done = NULL;
    return s;
}

/* --- buffers and locks --------------------------------------------------- */

static iron_status push_copy(iron__mlx_copy **v, int *n, int *cap,
                             iron__mlx_copy c)
{
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 8;
        iron__mlx_copy *nv = iron__realloc(*v, (size_t)nc * sizeof *nv);
        if (!nv)
            return OOM();
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = c;
    return IRON_OK;
}

/* How many workers' bodies name rtp r. */
static int rtp_users(const iron__mlx_plan *pl, const iron_rtp *r)
{
    int n = 0;
    for (int i = 0; i < pl->nworkers; i++) {
        int np = iron__body_nparams(pl->workers[i].body);
        for (int k = 0; k < np; k++) {
            const iron__body_param *bp =
                iron__body_param_at(pl->workers[i].body, k);
            if (bp->kind == IRON__BP_RTP && bp->rtp == r) {
                n++;
                break;
            }
        }
    }
    return n;
}

static const char *find_copy(const iron__mlx_copy *v, int n, int obj,
                             int worker)
{
    for (int i = 0; i < n; i++)
        if (v[i].obj == obj && v[i].worker == worker)
            return v[i].ssa;
    return NULL;
}

/* Buffers, locks and the names each body gives its parameters. */
static iron_status plan_params(iron__mlx_plan *pl)
{
    const iron_design *d = pl->d;
    iron_status s = IRON_OK;
    for (int i = 0; i < pl->nworkers && s == IRON_OK; i++) {
        iron__mlx_worker *mw = &pl->workers[i];
        const iron_worker *w = d->workers.v[mw->w];
        iron__tile t = pl->p->workers[mw->w].tile;
        char base[64];
        mw->tile = iron__mlx_tile_ssa(pl, t);
        snprintf(base, sizeof base, "core_%d_%d", t.col, t.row);
        const char *core = iron__mlx_take(&pl->ssa, base);
        mw->core = core ? iron__mlx_keepf(&pl->pool, "%%%s", core) : NULL;
        if (!mw->tile || !mw->core)
            return OOM();
        int np = iron__body_nparams(mw->body);
        mw->pnames = iron__calloc((size_t)(np ? np : 1), sizeof *mw->pnames);
        if (!mw->pnames)
            return OOM();
        for (int k = 0; k < np && s == IRON_OK; k++) {
            const iron__body_param *bp = iron__body_param_at(mw->body, k);
            const char *name = NULL;
            switch (bp->kind) {
            case IRON__BP_FIFO:
                name = pl->fifo_sym[bp->h->fifo->index];
                break;
            case IRON__BP_KERNEL:
                /* (A kernel named but never called has no symbol; the
                 * body prints no call to it.) */
                name = pl->kernels[bp->kernel->index].sym;
                if (!name)
                    name = bp->kernel->entry;
                break;
            case IRON__BP_RTP: {
                name = find_copy(pl->bufs, pl->nbufs, bp->rtp->index, i);
                if (name)
                    break;
                iron__str b = { 0 };
                if (rtp_users(pl, bp->rtp) > 1)
                    iron__str_printf(&b, "%s_%s", bp->rtp->name, w->name);
                else
                    iron__str_append(&b, bp->rtp->name);
                const char *sym =
                    b.oom ? NULL
                          : iron__mlx_take(&pl->syms, iron__str_get(&b));
                iron__str_free(&b);
                const char *ssa = sym ? iron__mlx_take(&pl->ssa, sym) : NULL;
                name = ssa ? iron__mlx_keepf(&pl->pool, "%%%s", ssa) : NULL;
                if (!name)
                    return OOM();
                iron__mlx_copy c = { bp->rtp->index, i, sym, name };
                s = push_copy(&pl->bufs, &pl->nbufs, &pl->cap_bufs, c);
                break;
            }
            case IRON__BP_BARRIER: {
                name = find_copy(pl->locks, pl->nlocks, bp->barrier->index,
                                 i);
                if (name)
                    break;
                snprintf(base, sizeof base, "lock_%d_%d", t.col, t.row);
                const char *ssa = iron__mlx_take(&pl->ssa, base);
                name = ssa ? iron__mlx_keepf(&pl->pool, "%%%s", ssa) : NULL;
                if (!name)
                    return OOM();
                iron__mlx_copy c = { bp->barrier->index, i, NULL, name };
                s = push_copy(&pl->locks, &pl->nlocks, &pl->cap_locks, c);
                break;
            }
            }
            mw->pnames[k] = name;
            if (!name && s == IRON_OK)
                s = OOM();
        }
        /* Before #2922 the core links with its kernels' object (one file;
         * several kernels are combined into one by the Makefile). */
        int on_core =
            !iron__mlir_target_has(pl->target, IRON__SYN_FUNC_LINK);
        if (on_core && mw->nkernels == 1)
            mw->link_obj = iron__mlx_keepf(
                &pl->pool, "%s.o", pl->kernels[mw->kernels[0]].sym);
        else if (on_core && mw->nkernels > 1)
            mw->link_obj = iron__mlx_keepf(&pl->pool, "core_%d_%d.o", t.col,
                                           t.row);
        if (on_core && mw->nkernels && !mw->link_obj)
            s = OOM();
    }
    return s;
}

/* --- the plan ------------------------------------------------------------ */

iron_status iron__mlx_plan_make(iron__mlx_plan *plan, const iron_program *p,
                                const iron__mlir_target *t)
{
    memset(plan, 0, sizeof *plan);
    plan->p = p;
    plan->d = p->d;
    plan->target = t;
    iron_status s = refuse(p->d);
    if (s == IRON_OK)
        s = plan_workers(plan);
    if (s == IRON_OK)
        s = plan_kernels(plan);
    if (s == IRON_OK)
        s = plan_fifos(plan);
    if (s == IRON_OK)
        s = plan_tiles(plan);
    if (s == IRON_OK)
        s = plan_emit(plan);
    if (s == IRON_OK)
        s = plan_params(plan);
    if (s == IRON_OK && (plan->syms.oom || plan->ssa.oom || plan->pool.oom))
        s = OOM();
    return s;
}

void iron__mlx_plan_free(iron__mlx_plan *plan)
{
    if (plan->kernels && plan->d)
        for (int k = 0; k < plan->d->kernels.n; k++) {
            for (int i = 0; i < plan->kernels[k].ntypes; i++)
                iron__free(plan->kernels[k].types[i]);
            iron__free(plan->kernels[k].types);
        }
    iron__free(plan->kernels);
    for (int i = 0; i < plan->nworkers; i++) {
        iron__free(plan->workers[i].pnames);
        iron__free(plan->workers[i].kernels);
    }
    iron__free(plan->workers);
    iron__free(plan->fifo_sym);
    iron__free(plan->fifo_order);
    iron__free(plan->emit);
    iron__free(plan->done);   /* after a failure */
    iron__free(plan->tiles);
    iron__free(plan->bufs);
    iron__free(plan->locks);
    iron__mlx_names_free(&plan->syms);
    iron__mlx_names_free(&plan->ssa);
    iron__mlx_names_free(&plan->pool);
    memset(plan, 0, sizeof *plan);
}
