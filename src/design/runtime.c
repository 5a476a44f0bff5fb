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
    w->started = 1;
    d->any_started = 1;
    return IRON_OK;
}

static iron_status check_scalar(iron_design *d, const char *what, int scalar)
{
    if (scalar < 0 || scalar >= d->nscalars)
        return iron__design_fail(d, IRON_EPARAM,
                                 "%s: dispatch-time scalar %d does not exist "
                                 "(the jit declares %d; use "
                                 "iron_design_scalar)",
                                 what, scalar, d->nscalars);
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
    if (a->dtype != h->fifo->dtype)
        return iron__design_fail(d, IRON_EDTYPE,
                                 "%s of %s: argument %d ('%s') is %s, the "
                                 "fifo carries %s",
                                 what, hl, arg, a->name,
                                 iron_dtype_name(a->dtype),
                                 iron_dtype_name(h->fifo->dtype));
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
    if (count % h->fifo->obj_numel != 0)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: the access pattern moves %lld "
                                 "elements, not a whole number of %lld-element "
                                 "objects",
                                 what, hl, (long long)count,
                                 (long long)h->fifo->obj_numel);
    if (h->user == IRON__USER_LINK)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: the handle is already used by %s",
                                 what, hl,
                                 iron__handle_user(h, who, sizeof who));
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.h = h;
    op.arg = arg;
    op.tap = tap;
    op.wait = wait;
    op.shim_col = -1;
    op.scalar = scalar;
    if (!IRON__VEC_PUSH(d->ops, op))
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    h->user = IRON__USER_RUNTIME;
    return IRON_OK;
}

static iron_status push_op(iron_design *d, const iron__rt_op *op)
{
    if (!IRON__VEC_PUSH(d->ops, *op))
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
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
    return push_op(d, &op);
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
    return push_op(d, &op);
}

IRON_API iron_status iron_rt_task_group(iron_design *d)
{
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_rt_task_group: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (d->group_open >= 0)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "task group: a group opened at sequence op "
                                 "%d is still open; groups do not nest "
                                 "(finish it with iron_rt_finish_task_group)",
                                 d->group_open);
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = IRON__RT_GROUP_START;
    d->group_open = d->ops.n;
    return push_op(d, &op);
}

IRON_API iron_status iron_rt_finish_task_group(iron_design *d)
{
    if (!d)
        return iron__fail(IRON_EINVAL,
                          "iron_rt_finish_task_group: design is NULL");
    if (d->status != IRON_OK)
        return d->status;
    if (d->group_open < 0)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "finish task group: no group is open "
                                 "(open one with iron_rt_task_group)");
    iron__rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = IRON__RT_GROUP_FINISH;
    d->group_open = -1;
    return push_op(d, &op);
}

IRON_API iron_status iron_rt_fill(iron_design *d, iron_handle *prod, int arg,
                                  iron_tap tap)
{
    return add_op(d, IRON__RT_FILL, prod, arg, tap, 0, -1);
}

IRON_API iron_status iron_rt_drain(iron_design *d, iron_handle *cons, int arg,
                                   iron_tap tap, int wait)
{
    return add_op(d, IRON__RT_DRAIN, cons, arg, tap, wait != 0, -1);
}

IRON_API iron_status iron_rt_fill_at(iron_design *d, iron_handle *prod,
                                     int arg, iron_tap tap, int scalar)
{
    return add_op(d, IRON__RT_FILL, prod, arg, tap, 0, scalar);
}

IRON_API iron_status iron_rt_drain_at(iron_design *d, iron_handle *cons,
                                      int arg, iron_tap tap, int scalar,
                                      int wait)
{
    return add_op(d, IRON__RT_DRAIN, cons, arg, tap, wait != 0, scalar);
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
    return s;
}
