/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * text.c - (dump layer) the readable text form of a design: FIFOs with
 * their object types and depths, links, workers and (given the program
 * that placed it) their tiles, and the runtime sequence.  Users read it to
 * see what placement did; placement results are read from the program's
 * tables.
 */
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#include "design/design.h"
#include "design/layout.h"
#include "dump/dump.h"
#include "program/program.h"

/* The program's tables, when p was built from d (else NULL). */
static const iron_program *placed(const iron_design *d,
                                  const iron_program *p)
{
    return p && p->d == d && p->fifos && p->workers && p->links && p->ops
               ? p
               : NULL;
}

/* How handle h was placed; unplaced, what the design alone says (the
 * tile reads (0,0), as it always has for an unplaced design). */
static iron__prog_end end_of(const iron_program *p, const iron_handle *h)
{
    if (p)
        return *iron__program_end(p, h->fifo->index,
                                  h->is_prod ? -1 : h->cons_index);
    iron__prog_end e;
    memset(&e, 0, sizeof e);
    e.has_dims = h->has_dims;
    e.dims = h->dims;
    return e;
}

static iron__tile link_tile(const iron_program *p, const iron__link *l)
{
    return p ? p->links[l->index].tile : l->tile;
}

static void dims_text(iron__str *s, const iron_handle *h,
                      const iron__prog_end *e)
{
    if (!e->has_dims)
        return;
    iron__str_append(s,
                     h->is_prod ? " dims_to_stream [" : " dims_from_stream [");
    for (int i = 0; i < e->dims.ndim; i++)
        iron__str_printf(s, "%s(%lld, %lld)", i ? ", " : "",
                         (long long)e->dims.sizes[i],
                         (long long)e->dims.strides[i]);
    iron__str_append(s, "]");
    if (e->dims_wrap > 1)
        iron__str_printf(s, " (outermost size x%lld: the memtile DMA wraps "
                         "it over the whole object)",
                         (long long)e->dims_wrap);
}

static void endpoint_text(iron__str *s, const iron_program *p,
                          const iron_handle *h)
{
    iron__prog_end e = end_of(p, h);
    switch (h->user) {
    case IRON__USER_WORKER:
        iron__str_printf(s, "worker '%s'", h->worker->name);
        break;
    case IRON__USER_RUNTIME:
        iron__str_append(s, "runtime");
        break;
    case IRON__USER_LINK:
        iron__str_printf(s, "%s link %d",
                         link_tile(p, h->link).row >= 2 ||
                                 h->link->place == IRON_LINK_ANY_COMPUTE
                             ? "compute-tile"
                             : "memtile",
                         h->link->index);
        break;
    case IRON__USER_NONE:
        iron__str_append(s, "(unused)");
        break;
    }
    if (e.tile.col >= 0 && h->user != IRON__USER_NONE &&
        h->user != IRON__USER_RUNTIME)
        iron__str_printf(s, " @(%d,%d)", e.tile.col, e.tile.row);
    if (h->depth != h->fifo->depth)
        iron__str_printf(s, " depth %d", h->depth);
    if (h->user == IRON__USER_WORKER && h->max_acquire > 1)
        iron__str_printf(s, " max acquire %d", h->max_acquire);
    if (e.buffers > 0)
        iron__str_printf(s, " buffers %d (%s)", e.buffers, e.why);
    else if (e.why[0])
        iron__str_printf(s, " (%s)", e.why);
    dims_text(s, h, &e);
}

void iron__dump_text(const iron_design *d, const iron_program *prog,
                       iron__str *s)
{
    const iron_program *p = placed(d, prog);
    iron__str_printf(s, "design '%s' on %s, %d column%s\n",
                     d->jit_name ? d->jit_name : "?",
                     d->dev ? d->dev->name : "?", d->cols,
                     d->cols == 1 ? "" : "s");
    iron__str_append(s, "arguments:\n");
    for (int i = 0; i < d->nargs; i++) {
        iron__str_printf(s, "  %d %s %s: ", i,
                         iron__role_name(d->args[i].role), d->args[i].name);
        iron__design_type_text(s, d->args[i].dtype, d->args[i].shape);
        iron__str_append(s, "\n");
    }
    iron__str_printf(s, "fifos (%d):\n", d->fifos.n);
    for (int i = 0; i < d->fifos.n; i++) {
        const iron_fifo *f = d->fifos.v[i];
        iron__str_printf(s, "  %s: ", f->name);
        iron__design_type_text(s, f->dtype, f->obj_shape);
        iron__str_printf(s, " x %d\n    producer: ", f->depth);
        endpoint_text(s, p, &f->prod);
        for (int c = 0; c < f->ncons; c++) {
            iron__str_printf(s, "\n    consumer %d: ", c);
            endpoint_text(s, p, f->cons[c]);
        }
        iron__str_append(s, "\n");
    }
    if (d->links.n)
        iron__str_printf(s, "links (%d):\n", d->links.n);
    for (int i = 0; i < d->links.n; i++) {
        const iron__link *l = d->links.v[i];
        static const char *const kinds[] = { "forward", "split", "join" };
        iron__str_printf(s, "  %d %s", l->index, kinds[l->kind]);
        iron__tile lt = link_tile(p, l);
        if (lt.col >= 0)
            iron__str_printf(s, " on %s (%d,%d)",
                             lt.row == 1 ? "memtile" : "compute tile",
                             lt.col, lt.row);
        if (l->in_pieces > 1 || l->out_pieces > 1)
            iron__str_printf(s, " (%d in, %d out per buffer)", l->in_pieces,
                             l->out_pieces);
        iron__str_append(s, ": ");
        for (int k = 0; k < l->nin; k++)
            iron__str_printf(s, "%s'%s'", k ? ", " : "", l->in[k]->fifo->name);
        iron__str_append(s, " -> ");
        for (int k = 0; k < l->nout; k++)
            iron__str_printf(s, "%s'%s'", k ? ", " : "",
                             l->out[k]->fifo->name);
        if (l->kind != IRON__LINK_FORWARD) {
            iron__str_append(s, " offsets [");
            int n = l->kind == IRON__LINK_SPLIT ? l->nout : l->nin;
            for (int k = 0; k < n; k++)
                iron__str_printf(s, "%s%lld", k ? ", " : "",
                                 (long long)l->offsets[k]);
            iron__str_append(s, "]");
        }
        iron__str_append(s, "\n");
    }
    iron__str_printf(s, "workers (%d):\n", d->workers.n);
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        iron__str_printf(s, "  %s: %s '%s'", w->name,
                         w->kernel->is_core ? "core body" : "kernel",
                         w->kernel->entry);
        if (!w->kernel->is_core && w->iterations > 0)
            iron__str_printf(s, " x %lld", (long long)w->iterations);
        if (w->kernel->cycles)
            iron__str_printf(s, " (declared cycles \"%s\")",
                             iron__kexpr_text(w->kernel->cycles));
        iron__tile wt = p ? p->workers[i].tile : w->tile;
        int col_only = w->pinned && w->tile.row < 0;
        if (wt.col >= 0 && wt.row < 0)
            iron__str_printf(s, " in column %d (pinned; the placer picks "
                             "the row)", wt.col);
        else if (wt.col >= 0)
            iron__str_printf(s, " on tile (%d,%d)%s", wt.col, wt.row,
                             col_only  ? " (pinned to its column)"
                             : w->pinned ? " (pinned)"
                                         : "");
        if (w->stack_bytes)
            iron__str_printf(s, " stack %u B", w->stack_bytes);
        iron__str_append(s, "\n    args:");
        for (int a = 0; a < w->nargs; a++) {
            const iron_arg *arg = &w->args[a];
            char hl[96];
            switch (arg->kind) {
            case IRON_ARG_HANDLE:
                iron__str_printf(s, " %s", iron__handle_label(arg->handle, hl,
                                                              sizeof hl));
                break;
            case IRON_ARG_INT:
                iron__str_printf(s, " %lld", (long long)arg->i);
                break;
            case IRON_ARG_FLOAT:
                iron__str_printf(s, " %g", arg->f);
                break;
            case IRON_ARG_RTP:
                iron__str_printf(s, " rtp '%s'", arg->rtp->name);
                if (arg->rtp->initial)
                    iron__str_printf(
                        s, " (initial xxh64 %016llx)",
                        (unsigned long long)XXH64(
                            arg->rtp->initial,
                            (size_t)arg->rtp->count *
                                iron_dtype_size(arg->rtp->dtype),
                            0));
                break;
            case IRON_ARG_BARRIER:
                iron__str_printf(s, " barrier '%s'", arg->barrier->name);
                if (arg->barrier->initial)
                    iron__str_printf(s, " (initial %d)",
                                     arg->barrier->initial);
                break;
            case IRON_ARG_KERNEL:
                iron__str_printf(s, " kernel '%s' (kernel %d)",
                                 arg->kernel->entry, arg->kernel->index);
                if (arg->kernel->cycles)
                    iron__str_printf(s, " (declared cycles \"%s\")",
                                     iron__kexpr_text(arg->kernel->cycles));
                break;
            }
            iron__str_append(s, a + 1 < w->nargs ? "," : "");
        }
        iron__str_append(s, "\n");
    }
    iron__str_printf(s, "sequence (%d op%s):\n", d->ops.n,
                     d->ops.n == 1 ? "" : "s");
    for (int i = 0; i < d->ops.n; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        iron__str_printf(s, "  %d %s", i, iron__rt_kind_name(op->kind));
        char hl[96];
        switch (op->kind) {
        case IRON__RT_FILL:
        case IRON__RT_DRAIN:
            iron__str_printf(s, " %s %s argument %d ('%s') ",
                             iron__handle_label(op->h, hl, sizeof hl),
                             op->kind == IRON__RT_FILL ? "from" : "into",
                             op->arg, d->args[op->arg].name);
            iron__tap_text(s, &op->tap);
            if (p && p->ops[i].shim_col >= 0)
                iron__str_printf(s, " via shim (%d,0)", p->ops[i].shim_col);
            if (op->wait)
                iron__str_append(s, " wait");
            break;
        case IRON__RT_SET_RTP:
            iron__str_printf(s, " '%s'[%lld] = %g", op->rtp->name,
                             (long long)op->index, op->value);
            break;
        case IRON__RT_SET_BARRIER:
            iron__str_printf(s, " '%s' = %g", op->barrier->name, op->value);
            break;
        case IRON__RT_GROUP_START:
        case IRON__RT_GROUP_FINISH:
            iron__str_printf(s, " %d", op->group);
            break;
        }
        if (op->group > 0 && op->kind != IRON__RT_GROUP_START &&
            op->kind != IRON__RT_GROUP_FINISH)
            iron__str_printf(s, " (group %d)", op->group);
        iron__str_append(s, "\n");
    }
}

IRON_API iron_status iron_design_dump(const iron_design *d, char **out)
{
    iron__str s = { 0 };
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_design_dump: out is NULL");
    *out = NULL;
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_design_dump: design is NULL");
    iron__dump_text(d, NULL, &s);
    if (!(*out = iron__str_take(&s)))
        return iron__fail(IRON_ENOMEM, "iron_design_dump: out of memory");
    return iron__public_result(IRON_OK);
}
