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
        return iron__fail(IRON_ENOTSUP,
                          "fifo '%s' is filled and drained by the runtime "
                          "sequence with no worker between; host-to-host "
                          "paths need a memtile link, not supported yet",
                          f->name);
    if (host_cons > 0 && host_cons < f->ncons)
        return iron__fail(IRON_ENOTSUP,
                          "fifo '%s' broadcasts to both the host and workers; "
                          "not supported yet",
                          f->name);
    if (host_cons > 1)
        return iron__fail(IRON_ENOTSUP,
                          "fifo '%s' is drained through %d consumer handles; "
                          "use one",
                          f->name, host_cons);
    return IRON_OK;
}

iron_status iron__verify(const iron_design *d)
{
    if (d->workers.n == 0)
        return iron__fail(IRON_EDESIGN,
                          "the design has no worker (iron_worker_new)");
    for (int i = 0; i < d->fifos.n; i++) {
        iron_status s = check_fifo(d->fifos.v[i]);
        if (s != IRON_OK)
            return s;
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
    return IRON_OK;
}
