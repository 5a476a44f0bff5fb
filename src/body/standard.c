/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * standard.c - the body a standard-loop worker amounts to, for the MLIR
 * exporter: upstream's Worker(while_true=True) wraps its core function
 * in a for from 0 to INT64_MAX step 1, and the standard loop's function
 * acquires one object of every handle argument, calls the kernel with
 * the objects and the scalars (as arith.constant) in argument order,
 * and releases the objects, again in argument order.
 */
#include <stdint.h>

#include "body/ir.h"

/* The constant passed for scalar argument a (declared dtype dt). */
static iron_val scalar_arg(iron_body *b, const iron_arg *a, iron_dtype dt)
{
    iron_body_type t = iron__body_elem_type(dt);
    if (iron__body_is_float(t))
        return iron_body_const_float(b, t, a->kind == IRON_ARG_FLOAT
                                               ? a->f
                                               : (double)a->i);
    /* The emulator passes the value converted to the declared type:
     * its low bits, read as signed here (the constant's canonical form).
     */
    int w = iron__body_width(t);
    uint64_t u = (uint64_t)a->i;
    if (w < 64) {
        uint64_t m = ((uint64_t)1 << w) - 1, sign = (uint64_t)1 << (w - 1);
        u &= m;
        return iron_body_const_int(b, t, (u & sign) ? -(int64_t)(m - u) - 1
                                                    : (int64_t)u);
    }
    return iron_body_const_int(b, t, a->i);
}

iron_status iron__body_for_standard_worker(iron_design *d,
                                           const iron_worker *w,
                                           iron_body **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL,
                          "iron__body_for_standard_worker: out is NULL");
    *out = NULL;
    if (!d || !w || w->d != d)
        return iron__fail(IRON_EINVAL,
                          "iron__body_for_standard_worker: %s",
                          !d ? "design is NULL"
                          : !w ? "worker is NULL"
                               : "the worker belongs to another design");
    if (d->status != IRON_OK)
        return iron__fail(d->status, "the design has failed: %s",
                          d->error ? d->error : "");
    if (w->body)
        return iron__fail(IRON_EINVAL,
                          "worker '%s' runs described body '%s' already",
                          w->name, iron__body_name(w->body));
    if (w->kernel->is_core)
        return iron__fail(IRON_ENOTSUP,
                          "worker '%s' runs core body '%s', given as C "
                          "source; only described bodies (iron_body_new) "
                          "and standard-loop workers have an MLIR form",
                          w->name, w->kernel->entry);
    iron_body *b = iron__body_create(d, w->name);
    if (!b)
        return d->status;
    b->standard = 1;
    iron_val argv[IRON__MAX_KARGS], fifo[IRON__MAX_KARGS];
    for (int i = 0; i < IRON__MAX_KARGS; i++)
        argv[i] = fifo[i] = IRON_VAL_NONE;
    for (int i = 0; i < w->nargs; i++)
        if (w->args[i].kind == IRON_ARG_HANDLE)
            fifo[i] = iron__body_fifo_param(b, w->args[i].handle);
        else if (w->args[i].kind == IRON_ARG_RTP)
            argv[i] = iron_body_rtp(b, w->args[i].rtp);
    iron_val k = iron_body_kernel(b, w->kernel);
    iron_val lb = iron_body_const_int(b, IRON_BT_INDEX, 0);
    iron_val ub = iron_body_const_int(b, IRON_BT_INDEX, INT64_MAX);
    iron_val step = iron_body_const_int(b, IRON_BT_INDEX, 1);
    iron_body_for(b, lb, ub, step, 0, NULL, NULL);
    for (int i = 0; i < w->nargs; i++)
        if (w->args[i].kind == IRON_ARG_HANDLE)
            argv[i] = iron_body_object(b, iron_body_acquire(b, fifo[i], 1),
                                       0);
    for (int i = 0; i < w->nargs; i++)
        if (w->args[i].kind == IRON_ARG_INT ||
            w->args[i].kind == IRON_ARG_FLOAT)
            argv[i] = scalar_arg(b, &w->args[i],
                                 w->kernel->args[i].dtype);
    iron_body_call(b, k, w->nargs, argv);
    for (int i = 0; i < w->nargs; i++)
        if (w->args[i].kind == IRON_ARG_HANDLE)
            iron_body_release(b, fifo[i], 1);
    iron_body_end_for(b, 0, NULL, NULL);
    if (d->status != IRON_OK)
        return d->status;       /* the design frees b */
    *out = b;
    return IRON_OK;
}
