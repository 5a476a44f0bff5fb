/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * control.c - the scf ops of a body: for with carried values, while
 * with its condition and "do" regions, if with an optional else.  Each
 * opens a region at the insertion point; the matching end (or else /
 * while_do) checks the yielded values against what the op carries and
 * closes it.
 */
#include <stdio.h>

#include "body/ir.h"

static const char *region_text(iron__breg_kind k)
{
    switch (k) {
    case IRON__BR_TOP: return "the body's top level (nothing is open)";
    case IRON__BR_FOR: return "a for's body";
    case IRON__BR_BEFORE: return "a while's condition region";
    case IRON__BR_AFTER: return "a while's do region";
    case IRON__BR_THEN: return "an if's then region";
    case IRON__BR_ELSE: return "an if's else region";
    }
    return "?";
}

/* The innermost open region must be `want` (or `also`). */
static iron_status expect_region(iron_body *b, const char *op,
                                 iron__breg_kind want, iron__breg_kind also,
                                 const char *call)
{
    iron__breg_kind k = iron__body_cur(b)->kind;
    if (k == want || k == also)
        return IRON_OK;
    return iron__body_fail(b, IRON_EDESIGN, op,
                           "%s closes %s, but the innermost open region is "
                           "%s",
                           call, region_text(want), region_text(k));
}

/* n values at v (v may be NULL only when n is 0): each visible and a
 * scalar; with types (n of them), each of types[i]'s type. */
static iron_status check_list(iron_body *b, const char *op, const char *what,
                              int n, const iron_val *v, const iron_val *types)
{
    if (n < 0)
        return iron__body_fail(b, IRON_EINVAL, op, "%d %s values", n, what);
    if (n > 0 && !v)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "%d %s values given, but the array is NULL",
                               n, what);
    for (int i = 0; i < n; i++) {
        char label[48];
        snprintf(label, sizeof label, "%s value %d", what, i);
        iron_status s = iron__body_use(b, op, label, v[i]);
        if (s != IRON_OK)
            return s;
        iron_body_type t = b->vals.v[v[i]].t;
        if (!iron__body_is_scalar(t)) {
            char tt[192];
            return iron__body_fail(b, IRON_EDTYPE, op,
                                   "%s is %s; expected an integer, index or "
                                   "float value",
                                   label,
                                   iron__body_val_text(b, v[i], tt,
                                                       sizeof tt));
        }
        if (types && b->vals.v[types[i]].t != t)
            return iron__body_fail(b, IRON_EDTYPE, op,
                                   "%s is %s; expected %s", label,
                                   iron__body_scalar_text(t),
                                   iron__body_scalar_text(
                                       b->vals.v[types[i]].t));
    }
    return IRON_OK;
}

static iron_status need_out(iron_body *b, const char *op, int n,
                            const void *out, const char *what)
{
    if (n > 0 && !out)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "%s is NULL, but %d value%s come out", what, n,
                               n == 1 ? "" : "s");
    return IRON_OK;
}

/* The types of n values (v, or the pool's run at `at` when v is NULL),
 * copied: adding values may move the pool.  NULL on OOM (sticky); a
 * valid pointer when n is 0. */
static iron_body_type *types_of(iron_body *b, const iron_val *v, int at,
                                int n)
{
    iron_body_type *t = iron__malloc((size_t)(n > 0 ? n : 1) * sizeof *t);
    if (!t) {
        iron__body_fail(b, IRON_ENOMEM, "building", "out of memory");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        t[i] = b->vals.v[v ? v[i] : b->pool.v[at + i]].t;
    return t;
}

/* Block arguments of region r: `lead` of type lead_t (the for's
 * induction variable, to *lead_out), then one per types[i] (to out). */
static int block_args(iron_body *b, int r, int lead, iron_body_type lead_t,
                      int n, const iron_body_type *types, iron_val *out,
                      iron_val *lead_out)
{
    int first = -1;
    for (int i = 0; i < lead + n; i++) {
        iron_val v = iron__body_new_val(b, i < lead ? lead_t
                                                    : types[i - lead]);
        if (v < 0)
            return -1;
        int at = iron__body_pool_add(b, &v, 1);
        if (at < 0)
            return -1;
        if (first < 0)
            first = at;
        if (i < lead)
            *lead_out = v;
        else if (out)
            out[i - lead] = v;
    }
    b->regs.v[r].args = first < 0 ? b->pool.n : first;
    b->regs.v[r].nargs = lead + n;
    return 0;
}

/* Results of op i, one per types[k], in the current region (to out,
 * which may be NULL when n is 0). */
static int op_results(iron_body *b, int i, int n,
                      const iron_body_type *types, iron_val *out)
{
    int first = b->pool.n;
    for (int k = 0; k < n; k++) {
        iron_val v = iron__body_new_val(b, types[k]);
        if (v < 0 || iron__body_pool_add(b, &v, 1) < 0)
            return -1;
        b->vals.v[v].op = i;
        out[k] = v;
    }
    b->ops.v[i].out = first;
    b->ops.v[i].nout = n;
    return 0;
}

/* Both of the above with the types copied first and freed after. */
static int block_args_like(iron_body *b, int r, int lead, int n,
                           const iron_val *v, int at, iron_val *out,
                           iron_val *lead_out)
{
    iron_body_type *t = types_of(b, v, at, n);
    int rc = t ? block_args(b, r, lead, IRON_BT_INDEX, n, t, out, lead_out)
               : -1;
    iron__free(t);
    return rc;
}

static int op_results_like(iron_body *b, int i, int n, const iron_val *v,
                           int at, iron_val *out)
{
    iron_body_type *t = types_of(b, v, at, n);
    int rc = t ? op_results(b, i, n, t, out) : -1;
    iron__free(t);
    return rc;
}

/* The region's terminator operands. */
static int set_term(iron_body *b, int r, int n, const iron_val *v)
{
    int at = iron__body_pool_add(b, v, n);
    if (at < 0)
        return -1;
    b->regs.v[r].term = at;
    b->regs.v[r].nterm = n;
    return 0;
}

/* The common start of every call that closes a region: the body is
 * ready and the innermost open region is `want` (or `also`). */
static iron_status begin_close(iron_body *b, const char *call,
                               const char *op, iron__breg_kind want,
                               iron__breg_kind also)
{
    iron_status s = iron__body_ready(b, call, op);
    if (s != IRON_OK)
        return s;
    return expect_region(b, op, want, also, call);
}

/* Ends the innermost open region r with the n terminator operands v.
 * -1 on OOM (sticky). */
static int close_region(iron_body *b, int r, int n, const iron_val *v)
{
    if (set_term(b, r, n, v) < 0)
        return -1;
    iron__body_pop_region(b);
    return 0;
}

/* Adds a region of `kind` as op i's region `slot` and makes it the
 * insertion point.  The region, or -1 on OOM (sticky). */
static int open_region(iron_body *b, int i, int slot, iron__breg_kind kind)
{
    int r = iron__body_add_region(b, kind, i);
    if (r < 0)
        return -1;
    b->ops.v[i].reg[slot] = r;
    if (iron__body_push_region(b, r) != IRON_OK)
        return -1;
    return r;
}

/* A while's or an if's condition: visible and an i1. */
static iron_status check_cond(iron_body *b, const char *op, iron_val cond)
{
    iron_status s = iron__body_use(b, op, "the condition", cond);
    if (s != IRON_OK)
        return s;
    if (b->vals.v[cond].t != IRON_BT_I1) {
        char t[192];
        return iron__body_fail(b, IRON_EDTYPE, op,
                               "the condition is %s; expected i1",
                               iron__body_val_text(b, cond, t, sizeof t));
    }
    return IRON_OK;
}

static iron_status index_operand(iron_body *b, const char *what, iron_val v)
{
    iron_status s = iron__body_use(b, "scf.for", what, v);
    if (s != IRON_OK)
        return s;
    if (b->vals.v[v].t != IRON_BT_INDEX) {
        char t[192];
        return iron__body_fail(b, IRON_EDTYPE, "scf.for",
                               "the %s is %s; expected index", what,
                               iron__body_val_text(b, v, t, sizeof t));
    }
    return IRON_OK;
}

IRON_API iron_val iron_body_for(iron_body *b, iron_val lb, iron_val ub,
                                iron_val step, int ninit,
                                const iron_val *init, iron_val *iter)
{
    const char *op = "scf.for";
    if (iron__body_ready(b, "iron_body_for", op) != IRON_OK)
        return IRON_VAL_NONE;
    if (index_operand(b, "lower bound", lb) != IRON_OK ||
        index_operand(b, "upper bound", ub) != IRON_OK ||
        index_operand(b, "step", step) != IRON_OK ||
        check_list(b, op, "initial", ninit, init, NULL) != IRON_OK ||
        need_out(b, op, ninit, iter, "iter") != IRON_OK)
        return IRON_VAL_NONE;
    const iron__bval *sv = &b->vals.v[step];
    if (sv->op >= 0 && b->ops.v[sv->op].kind == IRON__BOP_CONST &&
        b->ops.v[sv->op].imm <= 0) {
        iron__body_fail(b, IRON_EINVAL, op,
                        "constant step %lld; expected a positive step",
                        (long long)b->ops.v[sv->op].imm);
        return IRON_VAL_NONE;
    }
    iron_val in[3] = { lb, ub, step };
    int i = iron__body_add_op(b, IRON__BOP_FOR, in, 3);
    if (i < 0 || iron__body_pool_add(b, init, ninit) < 0)
        return IRON_VAL_NONE;
    b->ops.v[i].nin = 3 + ninit;    /* the inits follow the bounds */
    int r = open_region(b, i, 0, IRON__BR_FOR);
    if (r < 0)
        return IRON_VAL_NONE;
    iron_val iv = IRON_VAL_NONE;
    if (block_args_like(b, r, 1, ninit, init, 0, iter, &iv) < 0)
        return IRON_VAL_NONE;
    return iv;
}

IRON_API iron_status iron_body_end_for(iron_body *b, int nyield,
                                       const iron_val *yield,
                                       iron_val *results)
{
    const char *op = "scf.yield";
    iron_status s = begin_close(b, "iron_body_end_for", op, IRON__BR_FOR,
                                IRON__BR_FOR);
    if (s != IRON_OK)
        return s;
    int r = b->open.v[b->open.n - 1];
    int carried = b->regs.v[r].nargs - 1;
    if (nyield != carried)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "the for carries %d value%s; %d yielded",
                               carried, carried == 1 ? "" : "s", nyield);
    const iron_val *types = &b->pool.v[b->regs.v[r].args + 1];
    if ((s = check_list(b, op, "yielded", nyield, yield, types)) != IRON_OK ||
        (s = need_out(b, op, nyield, results, "results")) != IRON_OK)
        return s;
    int i = b->regs.v[r].op;
    if (close_region(b, r, nyield, yield) < 0)
        return b->d->status;
    if (op_results_like(b, i, nyield, NULL, b->regs.v[r].args + 1,
                        results) < 0)
        return b->d->status;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_body_while(iron_body *b, int ninit,
                                     const iron_val *init, iron_val *arg)
{
    const char *op = "scf.while";
    iron_status s = iron__body_ready(b, "iron_body_while", op);
    if (s != IRON_OK)
        return s;
    if ((s = check_list(b, op, "initial", ninit, init, NULL)) != IRON_OK ||
        (s = need_out(b, op, ninit, arg, "arg")) != IRON_OK)
        return s;
    int i = iron__body_add_op(b, IRON__BOP_WHILE, init, ninit);
    if (i < 0)
        return b->d->status;
    int r = open_region(b, i, 0, IRON__BR_BEFORE);
    if (r < 0)
        return b->d->status;
    if (block_args_like(b, r, 0, ninit, init, 0, arg, NULL) < 0)
        return b->d->status;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_body_while_do(iron_body *b, iron_val cond,
                                        int nfwd, const iron_val *fwd,
                                        iron_val *after)
{
    const char *op = "scf.condition";
    iron_status s = begin_close(b, "iron_body_while_do", op,
                                IRON__BR_BEFORE, IRON__BR_BEFORE);
    if (s != IRON_OK)
        return s;
    if ((s = check_cond(b, op, cond)) != IRON_OK)
        return s;
    if ((s = check_list(b, op, "forwarded", nfwd, fwd, NULL)) != IRON_OK ||
        (s = need_out(b, op, nfwd, after, "after")) != IRON_OK)
        return s;
    int r = b->open.v[b->open.n - 1];
    int i = b->regs.v[r].op;
    if (close_region(b, r, nfwd, fwd) < 0)
        return b->d->status;
    b->regs.v[r].cond = cond;
    int r2 = open_region(b, i, 1, IRON__BR_AFTER);
    if (r2 < 0)
        return b->d->status;
    if (block_args_like(b, r2, 0, nfwd, NULL, b->regs.v[r].term, after,
                        NULL) < 0)
        return b->d->status;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_body_end_while(iron_body *b, int nyield,
                                         const iron_val *yield,
                                         iron_val *results)
{
    const char *op = "scf.yield";
    iron_status s = begin_close(b, "iron_body_end_while", op,
                                IRON__BR_AFTER, IRON__BR_AFTER);
    if (s != IRON_OK)
        return s;
    int r = b->open.v[b->open.n - 1];
    int i = b->regs.v[r].op;
    int ninit = b->ops.v[i].nin;
    if (nyield != ninit)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "the while carries %d value%s; %d yielded",
                               ninit, ninit == 1 ? "" : "s", nyield);
    const iron_val *types = &b->pool.v[b->ops.v[i].in];
    const iron__breg *before = &b->regs.v[b->ops.v[i].reg[0]];
    int nfwd = before->nterm;
    if ((s = check_list(b, op, "yielded", nyield, yield, types)) != IRON_OK ||
        (s = need_out(b, op, nfwd, results, "results")) != IRON_OK)
        return s;
    if (close_region(b, r, nyield, yield) < 0)
        return b->d->status;
    int fwd_at = b->regs.v[b->ops.v[i].reg[0]].term;
    if (op_results_like(b, i, nfwd, NULL, fwd_at, results) < 0)
        return b->d->status;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_body_if(iron_body *b, iron_val cond, int nresults)
{
    const char *op = "scf.if";
    iron_status s = iron__body_ready(b, "iron_body_if", op);
    if (s != IRON_OK)
        return s;
    if ((s = check_cond(b, op, cond)) != IRON_OK)
        return s;
    if (nresults < 0)
        return iron__body_fail(b, IRON_EINVAL, op, "%d results", nresults);
    int i = iron__body_add_op(b, IRON__BOP_IF, &cond, 1);
    if (i < 0)
        return b->d->status;
    b->ops.v[i].imm = nresults;
    int r = open_region(b, i, 0, IRON__BR_THEN);
    if (r < 0)
        return b->d->status;
    b->regs.v[r].args = b->pool.n;
    return iron__public_result(IRON_OK);
}

/* Checks the yield closing the innermost then / else region of an if. */
static iron_status if_yield(iron_body *b, const char *op, int nyield,
                            const iron_val *yield, int *ifop)
{
    int r = b->open.v[b->open.n - 1];
    int i = b->regs.v[r].op;
    int n = (int)b->ops.v[i].imm;
    *ifop = i;
    if (nyield != n)
        return iron__body_fail(b, IRON_EINVAL, op,
                               "the if has %d result%s; %d yielded", n,
                               n == 1 ? "" : "s", nyield);
    const iron_val *types = NULL;
    if (b->regs.v[r].kind == IRON__BR_ELSE)
        types = &b->pool.v[b->regs.v[b->ops.v[i].reg[0]].term];
    return check_list(b, op, "yielded", nyield, yield, types);
}

IRON_API iron_status iron_body_else(iron_body *b, int nyield,
                                    const iron_val *yield)
{
    const char *op = "scf.yield";
    iron_status s = begin_close(b, "iron_body_else", op, IRON__BR_THEN,
                                IRON__BR_THEN);
    if (s != IRON_OK)
        return s;
    int i;
    if ((s = if_yield(b, op, nyield, yield, &i)) != IRON_OK)
        return s;
    int r = b->open.v[b->open.n - 1];
    if (close_region(b, r, nyield, yield) < 0)
        return b->d->status;
    int r2 = open_region(b, i, 1, IRON__BR_ELSE);
    if (r2 < 0)
        return b->d->status;
    b->regs.v[r2].args = b->pool.n;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_body_end_if(iron_body *b, int nyield,
                                      const iron_val *yield,
                                      iron_val *results)
{
    const char *op = "scf.yield";
    iron_status s = begin_close(b, "iron_body_end_if", op, IRON__BR_THEN,
                                IRON__BR_ELSE);
    if (s != IRON_OK)
        return s;
    int r = b->open.v[b->open.n - 1];
    int i;
    if ((s = if_yield(b, op, nyield, yield, &i)) != IRON_OK)
        return s;
    if (b->regs.v[r].kind == IRON__BR_THEN && nyield > 0)
        return iron__body_fail(b, IRON_EDESIGN, "scf.if",
                               "an if with results needs its else "
                               "(iron_body_else)");
    if ((s = need_out(b, op, nyield, results, "results")) != IRON_OK)
        return s;
    if (close_region(b, r, nyield, yield) < 0)
        return b->d->status;
    if (op_results_like(b, i, nyield, NULL, b->regs.v[r].term, results) <
        0)
        return b->d->status;
    return iron__public_result(IRON_OK);
}
