/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ops.c - the body's ops on design objects: acquiring, reading and
 * releasing fifo objects (aie.objectfifo.*), element loads and stores
 * (memref.*), kernel calls (func.call) and barrier waits and releases
 * (aie.use_lock).
 */
#include <stdio.h>
#include <string.h>

#include "body/ir.h"

/* v must be a visible handle of kind k; what names it in messages. */
static iron_status handle(iron_body *b, const char *op, iron_val v,
                          iron__bh k, const char *want)
{
    iron_status s = iron__body_use(b, op, "the operand", v);
    if (s != IRON_OK)
        return s;
    const iron__bval *x = &b->vals.v[v];
    if (x->t != IRON_BT_HANDLE || x->hkind != k) {
        char t[192];
        return iron__body_fail(b, IRON_EDTYPE, op,
                               "the operand is %s; expected %s",
                               iron__body_val_text(b, v, t, sizeof t), want);
    }
    return IRON_OK;
}


/* n objects of fifo value f: 1 .. the endpoint's depth. */
static iron_status count(iron_body *b, const char *op, iron_val f, int n,
                         const char *verb)
{
    const iron_handle *h = b->params.v[b->vals.v[f].param].h;
    if (n >= 1 && n <= h->depth)
        return IRON_OK;
    char hl[96];
    return iron__body_fail(b, IRON_EINVAL, op,
                           "%s %d object%s of %s; expected 1 to %d (the "
                           "endpoint's depth)",
                           verb, n, n == 1 ? "" : "s",
                           iron__handle_label(h, hl, sizeof hl), h->depth);
}

IRON_API iron_val iron_body_acquire(iron_body *b, iron_val fifo, int n)
{
    const char *op = "aie.objectfifo.acquire";
    if (iron__body_ready(b, "iron_body_acquire", op) != IRON_OK ||
        handle(b, op, fifo, IRON__BH_FIFO, "a fifo (iron_body_fifo)") !=
            IRON_OK ||
        count(b, op, fifo, n, "acquires") != IRON_OK)
        return IRON_VAL_NONE;
    int p = b->vals.v[fifo].param;
    int i = iron__body_add_op(b, IRON__BOP_ACQUIRE, NULL, 0);
    if (i < 0)
        return IRON_VAL_NONE;
    b->ops.v[i].param = p;
    b->ops.v[i].imm = n;
    iron_val v = iron__body_result(b, i, IRON_BT_HANDLE);
    if (v < 0)
        return IRON_VAL_NONE;
    iron__bval *x = &b->vals.v[v];
    x->hkind = IRON__BH_ACQ;
    x->param = p;
    x->n = n;
    x->dtype = b->vals.v[fifo].dtype;
    x->shape = b->vals.v[fifo].shape;
    if (b->params.v[p].max_acquire < n)
        b->params.v[p].max_acquire = n;
    return v;
}

IRON_API iron_val iron_body_object(iron_body *b, iron_val acq, int i)
{
    const char *op = "aie.objectfifo.subview.access";
    if (iron__body_ready(b, "iron_body_object", op) != IRON_OK ||
        handle(b, op, acq, IRON__BH_ACQ,
               "an acquisition (iron_body_acquire)") != IRON_OK)
        return IRON_VAL_NONE;
    const iron__bval *a = &b->vals.v[acq];
    if (i < 0 || i >= a->n) {
        iron__body_fail(b, IRON_EINVAL, op,
                        "object %d of an acquisition of %d; expected 0 to "
                        "%d",
                        i, a->n, a->n - 1);
        return IRON_VAL_NONE;
    }
    int k = iron__body_add_op(b, IRON__BOP_OBJECT, &acq, 1);
    if (k < 0)
        return IRON_VAL_NONE;
    b->ops.v[k].imm = i;
    b->ops.v[k].param = b->vals.v[acq].param;
    iron_val v = iron__body_result(b, k, IRON_BT_MEMREF);
    if (v < 0)
        return IRON_VAL_NONE;
    b->vals.v[v].dtype = b->vals.v[acq].dtype;
    b->vals.v[v].shape = b->vals.v[acq].shape;
    return v;
}

IRON_API iron_status iron_body_release(iron_body *b, iron_val fifo, int n)
{
    const char *op = "aie.objectfifo.release";
    iron_status s = iron__body_ready(b, "iron_body_release", op);
    if (s != IRON_OK)
        return s;
    if ((s = handle(b, op, fifo, IRON__BH_FIFO,
                    "a fifo (iron_body_fifo)")) != IRON_OK ||
        (s = count(b, op, fifo, n, "releases")) != IRON_OK)
        return s;
    int i = iron__body_add_op(b, IRON__BOP_RELEASE, NULL, 0);
    if (i < 0)
        return b->d->status;
    b->ops.v[i].param = b->vals.v[fifo].param;
    b->ops.v[i].imm = n;
    return iron__public_result(IRON_OK);
}

/* mem is a visible memref and idx its nidx index values. */
static iron_status element(iron_body *b, const char *op, iron_val mem,
                          int nidx, const iron_val *idx)
{
    iron_status s = iron__body_use(b, op, "the memref", mem);
    if (s != IRON_OK)
        return s;
    char t[192];
    if (b->vals.v[mem].t != IRON_BT_MEMREF)
        return iron__body_fail(b, IRON_EDTYPE, op,
                               "the memref operand is %s; expected a memref "
                               "(iron_body_object, iron_body_rtp)",
                               iron__body_val_text(b, mem, t, sizeof t));
    int ndim = b->vals.v[mem].shape.ndim;
    if (nidx != ndim)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "%d index%s for %s; expected %d", nidx,
                               nidx == 1 ? "" : "es",
                               iron__body_val_text(b, mem, t, sizeof t),
                               ndim);
    if (!idx)
        return iron__body_fail(b, IRON_EINVAL, op, "the indexes are NULL");
    for (int i = 0; i < nidx; i++) {
        char what[32];
        snprintf(what, sizeof what, "index %d", i);
        if ((s = iron__body_use(b, op, what, idx[i])) != IRON_OK)
            return s;
        if (b->vals.v[idx[i]].t != IRON_BT_INDEX)
            return iron__body_fail(b, IRON_EDTYPE, op,
                                   "index %d is %s; expected index", i,
                                   iron__body_val_text(b, idx[i], t,
                                                       sizeof t));
    }
    return IRON_OK;
}

IRON_API iron_val iron_body_load(iron_body *b, iron_val mem, int nidx,
                                 const iron_val *idx)
{
    const char *op = "memref.load";
    if (iron__body_ready(b, "iron_body_load", op) != IRON_OK ||
        element(b, op, mem, nidx, idx) != IRON_OK)
        return IRON_VAL_NONE;
    iron_val in[1 + IRON_MAX_DIMS];
    in[0] = mem;
    memcpy(in + 1, idx, (size_t)nidx * sizeof *idx);
    int i = iron__body_add_op(b, IRON__BOP_LOAD, in, 1 + nidx);
    if (i < 0)
        return IRON_VAL_NONE;
    return iron__body_result(b, i,
                             iron__body_elem_type(b->vals.v[mem].dtype));
}

IRON_API iron_status iron_body_store(iron_body *b, iron_val v, iron_val mem,
                                     int nidx, const iron_val *idx)
{
    const char *op = "memref.store";
    iron_status s = iron__body_ready(b, "iron_body_store", op);
    if (s != IRON_OK)
        return s;
    if ((s = element(b, op, mem, nidx, idx)) != IRON_OK ||
        (s = iron__body_use(b, op, "the stored value", v)) != IRON_OK)
        return s;
    iron_body_type want = iron__body_elem_type(b->vals.v[mem].dtype);
    if (b->vals.v[v].t != want) {
        char t[192], m[192];
        return iron__body_fail(b, IRON_EDTYPE, op,
                               "the stored value is %s; %s holds %s",
                               iron__body_val_text(b, v, t, sizeof t),
                               iron__body_val_text(b, mem, m, sizeof m),
                               iron__body_scalar_text(want));
    }
    iron_val in[2 + IRON_MAX_DIMS];
    in[0] = v;
    in[1] = mem;
    memcpy(in + 2, idx, (size_t)nidx * sizeof *idx);
    if (iron__body_add_op(b, IRON__BOP_STORE, in, 2 + nidx) < 0)
        return b->d->status;
    return iron__public_result(IRON_OK);
}

/* Argument a of a call of kernel k (declared type t) in body b. */
static iron_status call_arg(iron_body *b, const iron_kernel *k, int a,
                            iron_val v, int p)
{
    const char *op = "func.call";
    const iron__ktype *t = &k->args[a];
    char what[48], got[192], want[192];
    snprintf(what, sizeof what, "argument %d", a);
    iron_status s = iron__body_use(b, op, what, v);
    if (s != IRON_OK)
        return s;
    const iron__bval *x = &b->vals.v[v];
    iron__body_val_text(b, v, got, sizeof got);
    if (t->is_ptr) {
        if (x->t != IRON_BT_MEMREF || x->dtype != t->dtype)
            return iron__body_fail(b, IRON_EDTYPE, op,
                                   "@%s argument %d is %s; '%s' declares "
                                   "%s*, a memref of %s",
                                   k->entry, a, got, k->entry,
                                   iron_dtype_name(t->dtype),
                                   iron__body_dtype_text(t->dtype));
        /* A kernel's func.func declares one memref type per argument. */
        for (int i = 0; i < b->ops.n; i++) {
            const iron__bop *c = &b->ops.v[i];
            if (c->kind != IRON__BOP_CALL || c->param != p)
                continue;
            const iron__bval *y = &b->vals.v[b->pool.v[c->in + a]];
            if (memcmp(&y->shape, &x->shape, sizeof y->shape) != 0)
                return iron__body_fail(
                    b, IRON_EDTYPE, op,
                    "@%s argument %d is %s, but an earlier call passed %s "
                    "(the kernel's declaration takes one memref type)",
                    k->entry, a, got,
                    iron__body_memref_text(y->dtype, &y->shape, want,
                                           sizeof want));
        }
        return IRON_OK;
    }
    iron_body_type w = iron__body_elem_type(t->dtype);
    if (x->t != w)
        return iron__body_fail(b, IRON_EDTYPE, op,
                               "@%s argument %d is %s; '%s' declares a "
                               "%s scalar, passed as %s",
                               k->entry, a, got, k->entry,
                               iron_dtype_name(t->dtype),
                               iron__body_scalar_text(w));
    return IRON_OK;
}

IRON_API iron_status iron_body_call(iron_body *b, iron_val kernel, int nargs,
                                    const iron_val *args)
{
    const char *op = "func.call";
    iron_status s = iron__body_ready(b, "iron_body_call", op);
    if (s != IRON_OK)
        return s;
    if ((s = handle(b, op, kernel, IRON__BH_KERNEL,
                    "a kernel (iron_body_kernel)")) != IRON_OK)
        return s;
    int p = b->vals.v[kernel].param;
    const iron_kernel *k = b->params.v[p].kernel;
    if (nargs != k->nargs)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "@%s takes %d argument%s; %d given", k->entry,
                               k->nargs, k->nargs == 1 ? "" : "s", nargs);
    if (nargs > 0 && !args)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "the arguments are NULL");
    for (int a = 0; a < nargs; a++)
        if ((s = call_arg(b, k, a, args[a], p)) != IRON_OK)
            return s;
    int i = iron__body_add_op(b, IRON__BOP_CALL, args, nargs);
    if (i < 0)
        return b->d->status;
    b->ops.v[i].param = p;
    return iron__public_result(IRON_OK);
}

static iron_status barrier_op(iron_body *b, const char *fn, iron__bop_kind k,
                              iron_val x, int value)
{
    const char *op = "aie.use_lock";
    iron_status s = iron__body_ready(b, fn, op);
    if (s != IRON_OK)
        return s;
    if ((s = handle(b, op, x, IRON__BH_BARRIER,
                    "a barrier (iron_body_barrier)")) != IRON_OK)
        return s;
    int lo = k == IRON__BOP_BARRIER_WAIT ? 0 : 1;
    if (value < lo || value > 63)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "%s value %d; expected %d to 63 (a lock's "
                               "values)",
                               k == IRON__BOP_BARRIER_WAIT ? "wait for"
                                                           : "release of",
                               value, lo);
    int i = iron__body_add_op(b, k, NULL, 0);
    if (i < 0)
        return b->d->status;
    b->ops.v[i].param = b->vals.v[x].param;
    b->ops.v[i].imm = value;
    return IRON_OK;
}

IRON_API iron_status iron_body_barrier_wait(iron_body *b, iron_val barrier,
                                            int value)
{
    return iron__public_result(barrier_op(b, "iron_body_barrier_wait",
                                          IRON__BOP_BARRIER_WAIT, barrier,
                                          value));
}

IRON_API iron_status iron_body_barrier_release(iron_body *b,
                                               iron_val barrier, int value)
{
    return iron__public_result(barrier_op(b, "iron_body_barrier_release",
                                          IRON__BOP_BARRIER_RELEASE, barrier,
                                          value));
}
