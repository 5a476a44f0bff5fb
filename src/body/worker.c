/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * worker.c - iron_worker_new_body: a described body becomes a core-body
 * kernel (its C text from to_c.c, made as iron_kernel_new_core makes
 * one) and the worker running it, with the body's parameters as the
 * worker's arguments in order.
 */
#include <stdio.h>

#include "body/ir.h"

static const char *open_text(iron__breg_kind k)
{
    switch (k) {
    case IRON__BR_FOR: return "a for (iron_body_end_for)";
    case IRON__BR_BEFORE: return "a while's condition (iron_body_while_do)";
    case IRON__BR_AFTER: return "a while (iron_body_end_while)";
    case IRON__BR_THEN: case IRON__BR_ELSE: return "an if (iron_body_end_if)";
    case IRON__BR_TOP: break;
    }
    return "?";
}

IRON_API iron_worker *iron_worker_new_body(iron_design *d, const char *name,
                                           iron_body *b)
{
    if (!d) {
        iron__fail(IRON_EINVAL, "iron_worker_new_body: design is NULL");
        return NULL;
    }
    if (d->status != IRON_OK)
        return NULL;
    const char *wn = name ? name : "NULL";
    if (!b) {
        iron__design_fail(d, IRON_EINVAL,
                          "worker '%s': the body is NULL (did iron_body_new "
                          "fail?)",
                          wn);
        return NULL;
    }
    if (b->d != d) {
        iron__design_fail(d, IRON_EINVAL,
                          "worker '%s': body '%s' belongs to another design",
                          wn, b->name);
        return NULL;
    }
    if (b->worker) {
        iron__design_fail(d, IRON_EDESIGN,
                          "worker '%s': body '%s' already made worker '%s'; "
                          "a body gives one worker (build another body)",
                          wn, b->name, b->worker->name);
        return NULL;
    }
    if (b->standard) {
        iron__design_fail(d, IRON_EDESIGN,
                          "worker '%s': body '%s' stands for a standard-loop "
                          "worker and makes no worker of its own",
                          wn, b->name);
        return NULL;
    }
    if (b->open.n > 1) {
        iron__design_fail(d, IRON_EDESIGN,
                          "worker '%s': body '%s' has %d open region%s; "
                          "close %s first",
                          wn, b->name, b->open.n - 1,
                          b->open.n == 2 ? "" : "s",
                          open_text(iron__body_cur(b)->kind));
        return NULL;
    }
    iron__str src = { 0 }, types = { 0 };
    iron_status s = iron__body_to_c(b, &src, &types);
    iron_kernel *k = NULL;
    if (s != IRON_OK)
        iron__design_fail(d, s, "worker '%s': %s", wn, iron_last_error());
    else
        k = iron_kernel_new_core(d, b->name, iron__str_get(&src),
                                 iron__str_get(&types));
    iron__str_free(&src);
    iron__str_free(&types);
    if (!k)
        return NULL;
    k->body = b;
    /* MLIR's float ops round each result: no contraction into fused
     * multiply-adds, whatever flags the jit gives. */
    if (iron_kernel_add_cflags(k, "-ffp-contract=off -fno-fast-math") !=
        IRON_OK)
        return NULL;
    iron_arg args[IRON__MAX_KARGS];
    for (int i = 0; i < b->params.n; i++) {
        const iron__body_param *p = &b->params.v[i];
        switch (p->kind) {
        case IRON__BP_FIFO:
            args[i] = iron_arg_fifo_acquire(
                p->h, p->max_acquire > 0 ? p->max_acquire : 1);
            break;
        case IRON__BP_RTP:
            args[i] = iron_arg_rtp(p->rtp);
            break;
        case IRON__BP_BARRIER:
            args[i] = iron_arg_barrier(p->barrier);
            break;
        case IRON__BP_KERNEL:
            args[i] = iron_arg_kernel(p->kernel);
            break;
        }
    }
    iron_worker *w = iron_worker_new(d, name, k, 0, b->params.n, args);
    if (!w)
        return NULL;
    w->body = b;
    b->worker = w;
    return w;
}
