/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * verify.c - structural rules of a built design, checked before placement
 * so the messages can speak of FIFOs and workers rather than tiles.
 */
#include <stdio.h>

#include "verify/verify.h"

static iron_status check_fifo(const iron_fifo *f)
{
    char hl[96];
    if (f->prod.user == IRON__USER_NONE)
        return iron__fail(IRON_EDESIGN,
                          "fifo '%s' has no producer: give its producer "
                          "handle to a worker or fill it from the runtime "
                          "sequence",
                          f->name);
    if (f->ncons == 0)
        return iron__fail(IRON_EDESIGN,
                          "fifo '%s' has no consumer: take one with "
                          "iron_fifo_cons and give it to a worker or drain it",
                          f->name);
    for (int c = -1; c < f->ncons; c++) {
        const iron_handle *h = c < 0 ? &f->prod : f->cons[c];
        char who[96];
        if (h->shim_pinned && h->user != IRON__USER_RUNTIME &&
            h->user != IRON__USER_NONE)
            return iron__fail(IRON_EDESIGN,
                              "%s is placed on shim (%d,0), but %s uses it; "
                              "only the runtime's fills and drains go "
                              "through a shim",
                              iron__handle_label(h, hl, sizeof hl),
                              h->shim_col,
                              iron__handle_user(h, who, sizeof who));
    }
    int host_cons = 0;
    for (int c = 0; c < f->ncons; c++) {
        const iron_handle *h = f->cons[c];
        if (h->user == IRON__USER_NONE)
            return iron__fail(IRON_EDESIGN,
                              "%s is never used; its producer would stall "
                              "once the consumer's buffers are full",
                              iron__handle_label(h, hl, sizeof hl));
        host_cons += h->user == IRON__USER_RUNTIME;
    }
    if (f->prod.user == IRON__USER_RUNTIME && host_cons > 0)
        return iron__fail(IRON_EDESIGN,
                          "fifo '%s' is filled and drained by the runtime "
                          "sequence with nothing between: a shim cannot "
                          "stream to a shim; pass it through a memtile "
                          "(iron_fifo_forward) or a worker",
                          f->name);
    return IRON_OK;
}

/* Run-time parameter buffers and barriers the sequence sets must reach a
 * worker, or the sequence writes into nothing. */
static iron_status check_uses(const iron_design *d)
{
    for (int i = 0; i < d->ops.n; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        if (op->kind != IRON__RT_SET_RTP && op->kind != IRON__RT_SET_BARRIER)
            continue;
        int used = 0;
        for (int w = 0; w < d->workers.n && !used; w++)
            for (int a = 0; a < d->workers.v[w]->nargs && !used; a++) {
                const iron_arg *arg = &d->workers.v[w]->args[a];
                used = op->kind == IRON__RT_SET_RTP
                           ? arg->kind == IRON_ARG_RTP && arg->rtp == op->rtp
                           : arg->kind == IRON_ARG_BARRIER &&
                                 arg->barrier == op->barrier;
            }
        if (!used)
            return iron__fail(IRON_EDESIGN,
                              "the sequence sets %s '%s', which no worker "
                              "takes as an argument",
                              op->kind == IRON__RT_SET_RTP
                                  ? "run-time parameter buffer"
                                  : "barrier",
                              op->kind == IRON__RT_SET_RTP ? op->rtp->name
                                                           : op->barrier->name);
    }
    return IRON_OK;
}

iron_status iron__verify(const iron_design *d)
{
    /* A design without workers is valid when its data goes through a
     * link (upstream's passthrough_dmas, dma_transpose). */
    if (d->workers.n == 0 && d->links.n == 0)
        return iron__fail(IRON_EDESIGN,
                          "the design has no worker and no link: nothing "
                          "between the runtime's fills and drains (add a "
                          "worker, or pass the data through a link with "
                          "iron_fifo_forward)");
    for (int i = 0; i < d->groups.n; i++)
        if (!d->groups.v[i]->finished)
            return iron__fail(IRON_EDESIGN,
                              "task group %d, opened at sequence op %d, is "
                              "never finished (iron_rt_task_group_finish)",
                              d->groups.v[i]->index, d->groups.v[i]->open_op);
    for (int i = 0; i < d->fifos.n; i++) {
        iron_status s = check_fifo(d->fifos.v[i]);
        if (s != IRON_OK)
            return s;
    }
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        for (int a = 0; a < w->nargs; a++) {
            const iron_handle *h = w->args[a].handle;
            char hl[96];
            if (w->args[a].kind == IRON_ARG_HANDLE &&
                h->max_acquire > h->depth)
                return iron__fail(IRON_EDESIGN,
                                  "worker '%s': argument %d (%s) declares "
                                  "max acquire %d, above the endpoint's "
                                  "declared depth %d",
                                  w->name, a,
                                  iron__handle_label(h, hl, sizeof hl),
                                  h->max_acquire, h->depth);
        }
    }
    if (d->any_started)
        for (int i = 0; i < d->workers.n; i++)
            if (!d->workers.v[i]->started)
                return iron__fail(IRON_EDESIGN,
                                  "worker '%s' is never started: the "
                                  "sequence starts some workers with "
                                  "iron_rt_start but not this one",
                                  d->workers.v[i]->name);
    int awaited = 0, fills = 0;
    for (int i = 0; i < d->ops.n; i++) {
        awaited += d->ops.v[i].kind == IRON__RT_DRAIN && d->ops.v[i].wait;
        fills += d->ops.v[i].kind == IRON__RT_FILL;
    }
    if (awaited == 0)
        return iron__fail(IRON_EDESIGN,
                          "the runtime sequence awaits no drain (%d op%s); "
                          "drain an output with IRON_WAIT so a call knows "
                          "when it is done",
                          d->ops.n, d->ops.n == 1 ? "" : "s");
    (void)fills;
    return check_uses(d);
}
