/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tables.c - the program's own copy of the design (place layer): workers,
 * FIFOs, links, the runtime sequence, arguments, run-time parameters and
 * barriers as plain tables with their strings owned by the program, so
 * that a driver (and an exporter) needs nothing from the design IR.
 * Placement fills in the tiles, pools and movers afterwards (place.c).
 */
#include <string.h>

#include "place/place.h"

static iron__op_kind op_kind(iron__rt_kind k)
{
    switch (k) {
    case IRON__RT_FILL: return IRON__OP_FILL;
    case IRON__RT_DRAIN: return IRON__OP_DRAIN;
    case IRON__RT_SET_RTP: return IRON__OP_SET_RTP;
    case IRON__RT_SET_BARRIER: return IRON__OP_SET_BARRIER;
    case IRON__RT_GROUP_START: return IRON__OP_GROUP_START;
    case IRON__RT_GROUP_FINISH: return IRON__OP_GROUP_FINISH;
    }
    return IRON__OP_GROUP_START;
}

/* *out = a copy of s; 0 when out of memory. */
static int dup(char **out, const char *s)
{
    *out = iron__strdup(s ? s : "");
    return *out != NULL;
}

static void end_init(iron__prog_end *e, const iron_handle *h)
{
    e->tile.col = e->tile.row = -1;
    e->pool = e->slot = e->mover = -1;
    e->has_dims = h->has_dims;
    e->dims = h->dims;
    e->dims_wrap = 1;
}

static int copy_workers(iron_program *p, const iron_design *d)
{
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        iron__prog_worker *pw = &p->workers[i];
        p->nworkers++;  /* freed with the program from here */
        if (!dup(&pw->name, w->name) ||
            !dup(&pw->kernel_entry, w->kernel->entry))
            return 0;
        pw->tile = w->tile;
        pw->pinned = w->pinned;
        pw->is_core = w->kernel->is_core;
        pw->kernel = w->kernel->index;
        pw->iterations = w->iterations;
        pw->stack_bytes = w->stack_bytes;
        pw->nargs = w->nargs;
        if (w->kernel->cycles &&
            !(pw->cycles = iron__kexpr_copy(w->kernel->cycles)))
            return 0;
        for (int a = 0; a < w->nargs; a++) {
            const iron_arg *arg = &w->args[a];
            iron__warg *wa = &p->wargs[i][a];
            memset(wa, 0, sizeof *wa);
            wa->kind = arg->kind;
            wa->dtype = w->kernel->args[a].dtype;
            wa->i = arg->i;
            wa->f = arg->f;
            wa->pool = wa->slot = wa->copy = -1;
            if (arg->kind == IRON_ARG_KERNEL && arg->kernel->cycles &&
                !(wa->cycles = iron__kexpr_copy(arg->kernel->cycles)))
                return 0;
            if (arg->kind == IRON_ARG_HANDLE) {
                wa->max_acquire = arg->handle->max_acquire;
                iron__handle_label(arg->handle, wa->label, sizeof wa->label);
            }
        }
    }
    return 1;
}

static int copy_fifos(iron_program *p, const iron_design *d)
{
    for (int i = 0; i < d->fifos.n; i++, p->nfifos++) {
        const iron_fifo *f = d->fifos.v[i];
        iron__prog_fifo *pf = &p->fifos[i];
        if (!dup(&pf->name, f->name))
            return 0;
        pf->dtype = f->dtype;
        pf->obj_numel = f->obj_numel;
        pf->obj_bytes = f->obj_bytes;
        pf->depth = f->depth;
        pf->mover = -1;
        pf->ncons = f->ncons;
        end_init(&pf->ends[0], &f->prod);
        for (int c = 0; c < f->ncons; c++)
            end_init(&pf->ends[c + 1], f->cons[c]);
    }
    return 1;
}

static int copy_sequence(iron_program *p, const iron_design *d)
{
    for (int i = 0; i < d->nargs; i++, p->nargs++) {
        if (!dup(&p->args[i].name, d->args[i].name))
            return 0;
        p->args[i].dtype = d->args[i].dtype;
    }
    for (int i = 0; i < d->rtps.n; i++) {
        const iron_rtp *r = d->rtps.v[i];
        iron__prog_rtp *pr = &p->rtps[i];
        p->nrtps++;
        if (!dup(&pr->name, r->name))
            return 0;
        pr->dtype = r->dtype;
        pr->count = r->count;
        if (r->initial) {
            size_t n = (size_t)r->count * iron_dtype_size(r->dtype);
            if (!(pr->initial = iron__malloc(n)))
                return 0;
            memcpy(pr->initial, r->initial, n);
        }
    }
    for (int i = 0; i < d->barriers.n; i++, p->nbarriers++) {
        if (!dup(&p->barriers[i].name, d->barriers.v[i]->name))
            return 0;
        p->barriers[i].initial = d->barriers.v[i]->initial;
    }
    p->ngroups = d->groups.n;
    for (int i = 0; i < d->ops.n; i++, p->nops++) {
        const iron__rt_op *op = &d->ops.v[i];
        iron__prog_op *po = &p->ops[i];
        po->kind = op_kind(op->kind);
        po->arg = po->fifo = po->rtp = po->barrier = -1;
        po->mover = po->shim_col = -1;
        po->wait = op->wait;
        po->group = op->group;
        po->scalar = op->scalar;
        po->index = op->index;
        po->value = op->value;
        switch (op->kind) {
        case IRON__RT_FILL:
        case IRON__RT_DRAIN:
            po->arg = op->arg;
            po->arg_name = p->args[op->arg].name;
            po->arg_dtype = p->args[op->arg].dtype;
            po->tap = op->tap;
            po->fifo = op->h->fifo->index;
            po->subject = p->fifos[po->fifo].name;
            break;
        case IRON__RT_SET_RTP:
            po->rtp = op->rtp->index;
            po->subject = p->rtps[po->rtp].name;
            break;
        case IRON__RT_SET_BARRIER:
            po->barrier = op->barrier->index;
            po->subject = p->barriers[po->barrier].name;
            break;
        case IRON__RT_GROUP_START:
        case IRON__RT_GROUP_FINISH:
            break;
        }
    }
    return 1;
}

iron_status iron__place_tables(iron_program *p)
{
    const iron_design *d = p->d;
    p->cols = d->cols;
    p->args = iron__calloc((size_t)d->nargs + 1, sizeof *p->args);
    p->workers = iron__calloc((size_t)d->workers.n + 1, sizeof *p->workers);
    p->wargs = iron__calloc((size_t)d->workers.n + 1, sizeof *p->wargs);
    p->fifos = iron__calloc((size_t)d->fifos.n + 1, sizeof *p->fifos);
    p->links = iron__calloc((size_t)d->links.n + 1, sizeof *p->links);
    p->ops = iron__calloc((size_t)d->ops.n + 1, sizeof *p->ops);
    p->rtps = iron__calloc((size_t)d->rtps.n + 1, sizeof *p->rtps);
    p->barriers = iron__calloc((size_t)d->barriers.n + 1,
                               sizeof *p->barriers);
    int ok = p->args && p->workers && p->wargs && p->fifos && p->links &&
             p->ops && p->rtps && p->barriers;
    if (ok) {
        for (int i = 0; i < d->links.n; i++) {
            p->links[i].tile = d->links.v[i]->tile;
            p->links[i].pool = -1;
        }
        p->nlinks = d->links.n;
    }
    ok = ok && copy_workers(p, d) && copy_fifos(p, d) &&
         copy_sequence(p, d);
    if (!ok)
        return iron__fail(IRON_ENOMEM, "out of memory copying the design "
                                       "into the program");
    return IRON_OK;
}
