/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * runtime.c - the runtime sequence: start, fill, drain, run-time
 * parameters, barriers and task groups.  Each command is
 * checked against the jit's argument list as it is recorded, so errors name
 * the argument and its role.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "design/layout.h"
#include "design/vec.h"

IRON_API iron_status iron_rt_start(iron_design *d, iron_worker *w)
{
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_rt_start: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (!w || w->d != d)
        return iron__design_fail(d, IRON_EINVAL,
                                 "iron_rt_start: worker is %s",
                                 w ? "from another design" : "NULL");
    if (!w->started)
        w->start_order = d->nstarted++;
    w->started = 1;
    d->any_started = 1;
    return iron__public_result(IRON_OK);
}

static iron_status check_scalar(iron_design *d, const char *what, int scalar)
{
    if (scalar < 0 || scalar >= d->nscalars)
        return iron__design_fail(d, IRON_EPARAM,
                                 "%s: dispatch-time scalar %d does not exist "
                                 "(the jit declares %d; use "
                                 "iron_design_scalar_index)",
                                 what, scalar, d->nscalars);
    return IRON_OK;
}

static iron_status push_op(iron_design *d, iron__rt_op *op)
{
    if (op->kind != IRON__RT_GROUP_START && op->kind != IRON__RT_GROUP_FINISH)
        op->group = d->current ? d->current->index : 0;
    if (!IRON__VEC_PUSH(d->ops, *op))
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    return IRON_OK;
}

/* As upstream's Runtime.sequence(): consumer handles of one fifo that the
 * runtime drains are one endpoint (it is easy to call iron_fifo_cons once
 * per drain), so a new one is folded into the first.  Two runtime
 * consumers that differ (depth, shim) are an error, as upstream's.  The
 * folded handle leaves the fifo's consumer list and stays valid (owned by
 * the design); the op records the one it was folded into. */
static iron_status merge_runtime_consumer(iron_design *d, iron_handle **hp)
{
    iron_handle *h = *hp;
    iron_fifo *f = h->fifo;
    iron_handle *first = NULL;
    for (int c = 0; c < f->ncons && !first; c++)
        if (f->cons[c] != h && f->cons[c]->user == IRON__USER_RUNTIME)
            first = f->cons[c];
    if (!first)
        return IRON_OK;
    char a[96], b[96];
    if (first->depth != h->depth)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "drain of %s: the runtime already drains "
                                 "%s with depth %d; two runtime consumers of "
                                 "one fifo must be the same (depth %d here)",
                                 iron__handle_label(h, a, sizeof a),
                                 iron__handle_label(first, b, sizeof b),
                                 first->depth, h->depth);
    if (first->shim_pinned && h->shim_pinned &&
        first->shim_col != h->shim_col)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "drain of %s: the runtime already drains "
                                 "%s through shim (%d,0); two runtime "
                                 "consumers of one fifo must be the same "
                                 "(shim (%d,0) here)",
                                 iron__handle_label(h, a, sizeof a),
                                 iron__handle_label(first, b, sizeof b),
                                 first->shim_col, h->shim_col);
    if (h->shim_pinned && !first->shim_pinned) {
        first->shim_pinned = 1;
        first->shim_col = h->shim_col;
    }
    if (!IRON__VEC_PUSH(d->merged, h))
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    int at = h->cons_index;
    for (int c = at; c + 1 < f->ncons; c++) {
        f->cons[c] = f->cons[c + 1];
        f->cons[c]->cons_index = c;
    }
    f->ncons--;
    h->user = IRON__USER_RUNTIME;
    *hp = first;
    return IRON_OK;
}

static iron_status add_op(iron_design *d, iron__rt_kind kind, iron_handle *h,
                          int arg, iron_tap tap, int wait, int scalar)
{
    const char *what = kind == IRON__RT_FILL ? "fill" : "drain";
    char hl[96];
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_rt_%s: design is NULL", what);
    if (d->status != IRON_OK)
        return d->status;
    if (!h || h->fifo->d != d)
        return iron__design_fail(d, IRON_EINVAL, "%s: handle is %s", what,
                                 h ? "from another design" : "NULL");
    iron__handle_label(h, hl, sizeof hl);
    if (kind == IRON__RT_FILL && !h->is_prod)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "fill of %s: a fill needs the producer "
                                 "handle (iron_fifo_prod)",
                                 hl);
    if (kind == IRON__RT_DRAIN && h->is_prod)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "drain of %s: a drain needs a consumer "
                                 "handle (iron_fifo_cons)",
                                 hl);
    char who[96];
    if (h->user == IRON__USER_WORKER)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: the handle is already used by %s",
                                 what, hl,
                                 iron__handle_user(h, who, sizeof who));
    if (arg < 0 || arg >= d->nargs)
        return iron__design_fail(d, IRON_EARG,
                                 "%s of %s: argument %d does not exist; the "
                                 "jit declares %d argument%s",
                                 what, hl, arg, d->nargs,
                                 d->nargs == 1 ? "" : "s");
    const iron__argsig *a = &d->args[arg];
    if (kind == IRON__RT_FILL && a->role == IRON__ROLE_OUT)
        return iron__design_fail(d, IRON_EARG,
                                 "fill of %s reads argument %d ('%s'), which "
                                 "is declared out; declare it in or inout",
                                 hl, arg, a->name);
    if (kind == IRON__RT_DRAIN && a->role == IRON__ROLE_IN)
        return iron__design_fail(d, IRON_EARG,
                                 "drain of %s writes argument %d ('%s'), "
                                 "which is declared in; declare it out or "
                                 "inout",
                                 hl, arg, a->name);
    /* The shim DMA moves bytes: the tensor's dtype may differ from the
     * fifo's (upstream fills uint8 fifos from int8 tensors) as long as
     * every object is a whole number of the tensor's elements. */
    size_t tes = iron_dtype_size(a->dtype);
    if (a->dtype != h->fifo->dtype && h->fifo->obj_bytes % tes != 0)
        return iron__design_fail(d, IRON_EDTYPE,
                                 "%s of %s: argument %d ('%s') is %s (%zu "
                                 "bytes an element), the fifo carries %s "
                                 "objects of %zu bytes: not a whole number "
                                 "of the tensor's elements",
                                 what, hl, arg, a->name,
                                 iron_dtype_name(a->dtype), tes,
                                 iron_dtype_name(h->fifo->dtype),
                                 h->fifo->obj_bytes);
    if (scalar >= 0 && check_scalar(d, what, scalar) != IRON_OK)
        return d->status;
    /* With a dispatch-time offset the pattern is checked again at every
     * call; here the unmoved pattern must fit. */
    if (iron_tap_check(&tap, a->numel) != IRON_OK)
        return iron__design_fail(d, IRON_EBOUNDS,
                                 "%s of %s from argument %d ('%s', %lld "
                                 "elements): %s",
                                 what, hl, arg, a->name, (long long)a->numel,
                                 iron_last_error());
    if (iron__tap_check_shim(&tap, a->dtype) != IRON_OK)
        return iron__design_fail(d, IRON_EBOUNDS,
                                 "%s of %s from argument %d ('%s'): %s", what,
                                 hl, arg, a->name, iron_last_error());
    int64_t count = iron_tap_count(&tap);
    int64_t per_obj = (int64_t)(h->fifo->obj_bytes / tes);
    if (count % per_obj != 0)
        return iron__design_fail(
            d, IRON_EDESIGN,
            "%s of %s: the access pattern moves %lld "
            "elements, not a whole number of %lld-element "
            "objects",
            what, hl, (long long)count, (long long)per_obj);
    if (h->user == IRON__USER_LINK)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: the handle is already used by %s",
                                 what, hl,
                                 iron__handle_user(h, who, sizeof who));
    if (kind == IRON__RT_DRAIN && h->user == IRON__USER_NONE &&
        merge_runtime_consumer(d, &h) != IRON_OK)
        return d->status;
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.h = h;
    op.arg = arg;
    op.tap = tap;
    op.wait = wait;
    op.scalar = scalar;
    if (push_op(d, &op) != IRON_OK)
        return d->status;
    h->user = IRON__USER_RUNTIME;
    return IRON_OK;
}

IRON_API iron_status iron_rt_set_rtp(iron_design *d, iron_rtp *r,
                                     int64_t index, double value)
{
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_rt_set_rtp: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (!r || r->d != d)
        return iron__design_fail(d, IRON_EINVAL,
                                 "set_rtp: buffer is %s",
                                 r ? "from another design" : "NULL");
    if (index < 0 || index >= r->count)
        return iron__design_fail(d, IRON_EBOUNDS,
                                 "set_rtp of '%s': index %lld; the buffer has "
                                 "%lld elements",
                                 r->name, (long long)index,
                                 (long long)r->count);
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = IRON__RT_SET_RTP;
    op.scalar = -1;
    op.rtp = r;
    op.index = index;
    op.value = value;
    return iron__public_result(push_op(d, &op));
}

IRON_API iron_status iron_rt_set_barrier(iron_design *d, iron_barrier *b,
                                         int value)
{
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_rt_set_barrier: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (!b || b->d != d)
        return iron__design_fail(d, IRON_EINVAL, "set_barrier: barrier is %s",
                                 b ? "from another design" : "NULL");
    int max = d->dev->lock_max_value;
    if (value < 0 || value > max)
        return iron__design_fail(d, IRON_EINVAL,
                                 "set_barrier of '%s': value %d; a lock "
                                 "holds 0..%d",
                                 b->name, value, max);
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = IRON__RT_SET_BARRIER;
    op.scalar = -1;
    op.barrier = b;
    op.value = value;
    return iron__public_result(push_op(d, &op));
}

/* Task groups.  Each fill, drain, set_rtp and set_barrier joins the
 * current group: the one opened last that is not finished, or the
 * sequence's own group 0 (finished at the end of the sequence) when none
 * is.  Several groups may be open at once, as upstream's ping-pong
 * sequences keep one group in flight while they finish the one before. */
IRON_API iron_task_group *iron_rt_task_group_new(iron_design *d)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    iron_task_group *g = iron__calloc(1, sizeof *g);
    if (!g || !IRON__VEC_PUSH(d->groups, g)) {
        iron__free(g);
        iron__design_fail(d, IRON_ENOMEM, "out of memory opening a task "
                                          "group");
        return NULL;
    }
    g->d = d;
    g->index = d->groups.n;   /* 0 is the sequence's own group */
    g->open_op = d->ops.n;
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = IRON__RT_GROUP_START;
    op.scalar = -1;
    op.group = g->index;
    if (push_op(d, &op) != IRON_OK)
        return NULL;
    d->current = g;
    return g;
}

/* The group opened last and not finished, or NULL. */
static iron_task_group *last_open(const iron_design *d)
{
    for (int i = d->groups.n - 1; i >= 0; i--)
        if (!d->groups.v[i]->finished)
            return d->groups.v[i];
    return NULL;
}

IRON_API iron_status iron_rt_task_group_finish(iron_design *d,
                                               iron_task_group *g)
{
    if (!d)
        return iron__fail(IRON_EINVAL,
                          "iron_rt_task_group_finish: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (!g || g->d != d)
        return iron__design_fail(d, IRON_EINVAL,
                                 "finish task group: the group is %s",
                                 g ? "from another design" : "NULL");
    if (g->finished)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "finish task group: group %d (opened at "
                                 "sequence op %d) is already finished",
                                 g->index, g->open_op);
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = IRON__RT_GROUP_FINISH;
    op.scalar = -1;
    op.group = g->index;
    if (push_op(d, &op) != IRON_OK)
        return d->status;
    g->finished = 1;
    if (d->current == g)
        d->current = last_open(d);
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_rt_task_group_begin(iron_design *d)
{
    if (!d)
        return iron__fail(IRON_EINVAL,
                          "iron_rt_task_group_begin: design is NULL");
    iron_status result = iron_rt_task_group_new(d) ? IRON_OK : d->status;
    return iron__public_result(result);
}

IRON_API iron_status iron_rt_task_group_end(iron_design *d)
{
    if (!d)
        return iron__fail(IRON_EINVAL,
                          "iron_rt_task_group_end: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (!d->current)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "finish task group: no group is open "
                                 "(open one with iron_rt_task_group_begin)");
    return iron__public_result(iron_rt_task_group_finish(d, d->current));
}

/* Makes g the current group (NULL: the sequence's own), for programs
 * that name each op's group, as upstream's fill(task_group=...) does,
 * instead of relying on the order groups were opened in. */
IRON_API iron_status iron_rt_task_group_use(iron_design *d,
                                            iron_task_group *g)
{
    if (!d)
        return iron__fail(IRON_EINVAL,
                          "iron_rt_task_group_use: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (g && g->d != d)
        return iron__design_fail(d, IRON_EINVAL,
                                 "use task group: the group is from another "
                                 "design");
    if (g && g->finished)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "use task group: group %d (opened at "
                                 "sequence op %d) is already finished",
                                 g->index, g->open_op);
    d->current = g;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_rt_fill(iron_design *d, iron_handle *prod, int arg,
                                  iron_tap tap)
{
    iron_status result = add_op(d, IRON__RT_FILL, prod, arg, tap, 0, -1);
    return iron__public_result(result);
}

IRON_API iron_status iron_rt_drain(iron_design *d, iron_handle *cons, int arg,
                                   iron_tap tap, int wait)
{
    iron_status result = add_op(d, IRON__RT_DRAIN, cons, arg, tap, wait != 0,
                                -1);
    return iron__public_result(result);
}

IRON_API iron_status iron_rt_fill_offset_scalar(iron_design *d,
                                                iron_handle *prod, int arg,
                                                iron_tap tap, int scalar)
{
    iron_status result = add_op(d, IRON__RT_FILL, prod, arg, tap, 0, scalar);
    return iron__public_result(result);
}

IRON_API iron_status iron_rt_drain_offset_scalar(iron_design *d,
                                                 iron_handle *cons, int arg,
                                                 iron_tap tap, int scalar,
                                                 int wait)
{
    iron_status result = add_op(d, IRON__RT_DRAIN, cons, arg, tap, wait != 0,
                                scalar);
    return iron__public_result(result);
}

IRON_API iron_status iron_rt_set_rtp_scalar(iron_design *d, iron_rtp *r,
                                            int64_t index, int scalar)
{
    if (!d)
        return iron__fail(IRON_EINVAL,
                          "iron_rt_set_rtp_scalar: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (check_scalar(d, "set_rtp", scalar) != IRON_OK)
        return d->status;
    iron_status s = iron_rt_set_rtp(d, r, index, 0.0);
    if (s == IRON_OK)
        d->ops.v[d->ops.n - 1].scalar = scalar;
    return iron__public_result(s);
}

/* The name dumps give a runtime op (the Python API's method names). */
const char *iron__rt_kind_name(iron__rt_kind k)
{
    switch (k) {
    case IRON__RT_FILL: return "fill";
    case IRON__RT_DRAIN: return "drain";
    case IRON__RT_SET_RTP: return "set_rtp";
    case IRON__RT_SET_BARRIER: return "set_barrier";
    case IRON__RT_GROUP_START: return "task_group";
    case IRON__RT_GROUP_FINISH: return "finish_task_group";
    }
    return "?";
}
