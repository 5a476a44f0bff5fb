/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * access.c - the program as drivers outside the library read it (program
 * layer; the iron_program_* accessors of include/iron/iron_driver.h).
 * Each copies one row of the program's tables into the caller's
 * descriptor, so a driver depends on the descriptors -- which grow only
 * at their end, behind their size field -- and never on the program's
 * layout, which the library may change in any release.
 *
 * Every accessor checks the same three things first (check()): the
 * program, the descriptor and its size, and the index against its table.
 */
#include <string.h>

#include "program/program.h"

/* Fails naming the accessor and what is wrong; 0 when all is well.  n is
 * the table's length (the index must be in 0 .. n - 1; n < 0: no index). */
static iron_status check(const char *fn, const iron_program *p,
                         const void *out, size_t size, size_t want,
                         const char *what, int i, int n)
{
    if (!p)
        return iron__fail(IRON_EINVAL, "%s: program is NULL", fn);
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    if (size < want)
        return iron__fail(IRON_EINVAL,
                          "%s: out->size is %zu; expected at least %zu "
                          "(set it to the descriptor's sizeof)",
                          fn, size, want);
    if (n >= 0 && (i < 0 || i >= n)) {
        if (n == 0)
            return iron__fail(IRON_EINVAL,
                              "%s: %s %d; the program has none", fn, what,
                              i);
        return iron__fail(IRON_EINVAL, "%s: %s %d; expected 0 .. %d", fn,
                          what, i, n - 1);
    }
    return IRON_OK;
}

/* Zeroes the descriptor behind its size field (a larger descriptor from
 * a newer header gets zeros where this library has nothing to say). */
#define CLEAR(out)                                                            \
    do {                                                                      \
        size_t size_ = (out)->size;                                           \
        memset((out), 0, sizeof *(out));                                      \
        (out)->size = size_;                                                  \
    } while (0)

#define CHECK(fn, p, out, what, i, n)                                         \
    do {                                                                      \
        iron_status s_ = check(fn, p, out, (out) ? (out)->size : 0,          \
                               sizeof *(out), what, i, n);                    \
        if (s_ != IRON_OK)                                                    \
            return s_;                                                        \
        CLEAR(out);                                                           \
    } while (0)

IRON_API iron_status iron_program_get_info(const iron_program *p,
                                           iron_program_info *out)
{
    CHECK("iron_program_get_info", p, out, "", 0, -1);
    out->abi_version = p->abi_version;
    out->device = &p->dev;
    out->columns = p->cols;
    out->nargs = p->nargs;
    out->nfifos = p->nfifos;
    out->nworkers = p->nworkers;
    out->npools = p->npools;
    out->nmovers = p->nmovers;
    out->nops = p->nops;
    out->ngroups = p->ngroups;
    out->nrtps = p->nrtps;
    out->nbarriers = p->nbarriers;
    out->nrtp_copies = p->nrtp_copies;
    out->nbarrier_copies = p->nbarrier_copies;
    out->ntiles = p->ntiles;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_arg(const iron_program *p, int i,
                                          iron_program_arg *out)
{
    CHECK("iron_program_get_arg", p, out, "argument", i, p->nargs);
    out->name = p->args[i].name;
    out->dtype = p->args[i].dtype;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_fifo(const iron_program *p, int i,
                                           iron_program_fifo *out)
{
    CHECK("iron_program_get_fifo", p, out, "fifo", i, p->nfifos);
    const iron__prog_fifo *f = &p->fifos[i];
    out->name = f->name;
    out->dtype = f->dtype;
    out->obj_numel = f->obj_numel;
    out->obj_bytes = f->obj_bytes;
    out->depth = f->depth;
    out->nconsumers = f->ncons;
    out->mover = f->mover;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_endpoint(const iron_program *p, int f,
                                               int cons,
                                               iron_program_endpoint *out)
{
    CHECK("iron_program_get_endpoint", p, out, "fifo", f, p->nfifos);
    if (cons < -1 || cons >= p->fifos[f].ncons)
        return iron__fail(IRON_EINVAL,
                          "iron_program_get_endpoint: consumer %d of fifo "
                          "'%s'; expected -1 (the producer) .. %d",
                          cons, p->fifos[f].name, p->fifos[f].ncons - 1);
    const iron__prog_end *e = iron__program_end(p, f, cons);
    out->col = e->tile.col;
    out->row = e->tile.row;
    out->pool = e->pool;
    out->slot = e->slot;
    out->mover = e->mover;
    out->buffers = e->buffers;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_worker(const iron_program *p, int i,
                                             iron_program_worker *out)
{
    CHECK("iron_program_get_worker", p, out, "worker", i, p->nworkers);
    const iron__prog_worker *w = &p->workers[i];
    out->name = w->name;
    out->col = w->tile.col;
    out->row = w->tile.row;
    out->is_core = w->is_core;
    out->kernel_entry = w->kernel_entry;
    out->iterations = w->iterations;
    out->stack_bytes = w->stack_bytes;
    out->nargs = w->nargs;
    out->entry = p->wfns ? p->wfns[i] : NULL;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_worker_arg(const iron_program *p,
                                                 int w, int a,
                                                 iron_program_worker_arg *out)
{
    CHECK("iron_program_get_worker_arg", p, out, "worker", w, p->nworkers);
    if (a < 0 || a >= p->workers[w].nargs)
        return iron__fail(IRON_EINVAL,
                          "iron_program_get_worker_arg: argument %d of "
                          "worker '%s'; expected 0 .. %d",
                          a, p->workers[w].name, p->workers[w].nargs - 1);
    const iron__warg *g = &p->wargs[w][a];
    out->kind = g->kind;
    out->dtype = g->dtype;
    out->i = g->i;
    out->f = g->f;
    int handle = g->kind == IRON_ARG_HANDLE;
    out->pool = handle ? g->pool : -1;
    out->slot = handle ? g->slot : -1;
    out->is_writer = handle && g->is_writer;
    out->max_acquire = handle ? g->max_acquire : 0;
    out->copy = g->kind == IRON_ARG_RTP || g->kind == IRON_ARG_BARRIER
                    ? g->copy
                    : -1;
    out->kernel = g->kind == IRON_ARG_KERNEL ? g->kfn : NULL;
    out->label = g->label;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_pool(const iron_program *p, int i,
                                           iron_program_pool *out)
{
    CHECK("iron_program_get_pool", p, out, "pool", i, p->npools);
    const iron__pool *pl = &p->pools[i];
    out->col = pl->tile.col;
    out->row = pl->tile.row;
    out->tile = iron__program_tile(p, pl->tile);
    out->fifo = pl->fifo;
    out->depth = pl->depth;
    out->obj_bytes = pl->obj_bytes;
    out->addr = pl->addr;
    out->nwriters = pl->nwriters;
    out->nreaders = pl->nreaders;
    out->label = pl->label;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_mover(const iron_program *p, int i,
                                            iron_program_mover *out)
{
    CHECK("iron_program_get_mover", p, out, "mover", i, p->nmovers);
    const iron__mover *m = &p->movers[i];
    out->fifo = m->fifo;
    out->ndst = m->ndst;
    out->shim_col = m->shim_col;
    out->shim_channel = m->shim_channel;
    out->label = m->label;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_mover_end(const iron_program *p, int m,
                                                int end,
                                                iron_program_dma_end *out)
{
    CHECK("iron_program_get_mover_end", p, out, "mover", m, p->nmovers);
    const iron__mover *mv = &p->movers[m];
    if (end < -1 || end >= mv->ndst)
        return iron__fail(IRON_EINVAL,
                          "iron_program_get_mover_end: end %d of mover %d "
                          "(%s); expected -1 (the source) .. %d",
                          end, m, mv->label, mv->ndst - 1);
    const iron__end *e = end < 0 ? &mv->src : &mv->dst[end];
    out->pool = e->pool;
    out->slot = e->slot;
    out->offset = e->offset;
    out->dims = e->dims;
    out->pieces = e->pieces;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_op(const iron_program *p, int i,
                                         iron_program_op *out)
{
    CHECK("iron_program_get_op", p, out, "op", i, p->nops);
    const iron__prog_op *op = &p->ops[i];
    out->kind = (iron_program_op_kind)op->kind;
    out->arg = op->arg;
    out->tap = op->tap;
    out->wait = op->wait;
    out->group = op->group;
    out->scalar = op->scalar;
    out->index = op->index;
    out->value = op->value;
    out->fifo = op->fifo;
    out->rtp = op->rtp;
    out->barrier = op->barrier;
    out->mover = op->mover;
    out->shim_col = op->shim_col;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_rtp(const iron_program *p, int i,
                                          iron_program_rtp *out)
{
    CHECK("iron_program_get_rtp", p, out, "rtp", i, p->nrtps);
    out->name = p->rtps[i].name;
    out->dtype = p->rtps[i].dtype;
    out->count = p->rtps[i].count;
    out->initial = p->rtps[i].initial;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_barrier(const iron_program *p, int i,
                                              iron_program_barrier *out)
{
    CHECK("iron_program_get_barrier", p, out, "barrier", i, p->nbarriers);
    out->name = p->barriers[i].name;
    out->initial = p->barriers[i].initial;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_rtp_copy(const iron_program *p, int i,
                                               iron_program_copy *out)
{
    CHECK("iron_program_get_rtp_copy", p, out, "rtp copy", i,
          p->nrtp_copies);
    const iron__rtp_copy *c = &p->rtp_copies[i];
    out->of = c->rtp;
    out->worker = c->worker;
    out->arg = c->arg;
    out->tile = iron__program_tile(p, p->workers[c->worker].tile);
    out->addr = c->addr;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_barrier_copy(const iron_program *p,
                                                   int i,
                                                   iron_program_copy *out)
{
    CHECK("iron_program_get_barrier_copy", p, out, "barrier copy", i,
          p->nbarrier_copies);
    const iron__barrier_copy *c = &p->barrier_copies[i];
    out->of = c->barrier;
    out->worker = c->worker;
    out->arg = c->arg;
    out->tile = iron__program_tile(p, p->workers[c->worker].tile);
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_get_tile(const iron_program *p, int i,
                                           iron_program_tile *out)
{
    CHECK("iron_program_get_tile", p, out, "tile", i, p->ntiles);
    const iron__tile_use *u = &p->tiles[i];
    out->col = u->tile.col;
    out->row = u->tile.row;
    out->mem_used = u->mem_used;
    out->memory_bytes = iron__tile_mem_of(p, u->tile);
    out->worker = u->worker;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_program_bind_core(const iron_program *p, int w,
                                            const iron_core_api *api)
{
    if (!p)
        return iron__fail(IRON_EINVAL, "iron_program_bind_core: program is "
                          "NULL");
    if (!api)
        return iron__fail(IRON_EINVAL, "iron_program_bind_core: api is NULL");
    if (w < 0 || w >= p->nworkers)
        return iron__fail(IRON_EINVAL,
                          "iron_program_bind_core: worker %d; expected 0 .. "
                          "%d", w, p->nworkers - 1);
    if (!p->workers[w].is_core)
        return iron__fail(IRON_ELOAD,
                          "iron_program_bind_core: worker '%s' runs the "
                          "standard loop, not a core body",
                          p->workers[w].name);
    return iron__public_result(iron__program_bind_core(p, w, api));
}
