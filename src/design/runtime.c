/*
 * runtime.c - the runtime sequence: start, fill and drain.  Each command is
 * checked against the jit's argument list as it is recorded, so errors name
 * the argument and its role.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
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

static iron_status add_op(iron_design *d, iron__rt_kind kind, iron_handle *h,
                          int arg, iron_tap tap, int wait)
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
    if (h->user == IRON__USER_WORKER)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: the handle is already used by "
                                 "worker '%s'",
                                 what, hl, h->worker->name);
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
    if (iron_tap_check(&tap, a->numel) != IRON_OK)
        return iron__design_fail(d, IRON_EBOUNDS,
                                 "%s of %s from argument %d ('%s', %lld "
                                 "elements): %s",
                                 what, hl, arg, a->name, (long long)a->numel,
                                 iron_last_error());
    int64_t count = iron_tap_count(&tap);
    if (count % h->fifo->obj_numel != 0)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "%s of %s: the access pattern moves %lld "
                                 "elements, not a whole number of %lld-element "
                                 "objects",
                                 what, hl, (long long)count,
                                 (long long)h->fifo->obj_numel);
    iron__rt_op op = { kind, h, arg, tap, wait };
    if (!IRON__VEC_PUSH(d->ops, op))
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    h->user = IRON__USER_RUNTIME;
    return IRON_OK;
}

IRON_API iron_status iron_rt_fill(iron_design *d, iron_handle *prod, int arg,
                                  iron_tap tap)
{
    return add_op(d, IRON__RT_FILL, prod, arg, tap, 0);
}

IRON_API iron_status iron_rt_drain(iron_design *d, iron_handle *cons, int arg,
                                   iron_tap tap, int wait)
{
    return add_op(d, IRON__RT_DRAIN, cons, arg, tap, wait != 0);
}
