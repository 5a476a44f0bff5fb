/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * worker.c - workers: a kernel run in the standard loop, or a custom core
 * body, on a compute tile; explicit placement; the iron_arg builders.
 * Argument/kernel agreement is checked here, where the mistake is made, so
 * the message can point at the worker and the argument.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "design/vec.h"

static const char *kind_name(const iron__ktype *t, char *buf, size_t len)
{
    if (t->handle == IRON__KH_FIFO)
        snprintf(buf, len, "fifo");
    else if (t->handle == IRON__KH_BARRIER)
        snprintf(buf, len, "barrier");
    else
        snprintf(buf, len, "%s%s", iron_dtype_name(t->dtype),
                 t->is_ptr ? "*" : "");
    return buf;
}

static iron_status check_handle(iron_design *d, const char *name,
                                const iron_kernel *k, int i,
                                const iron_arg *a, const char *want)
{
    const iron__ktype *t = &k->args[i];
    char hl[96];
    if (!a->handle)
        return iron__design_fail(d, IRON_EINVAL,
                                 "worker '%s': argument %d is a NULL "
                                 "handle (did an earlier builder call "
                                 "fail?)",
                                 name, i);
    const iron_fifo *f = a->handle->fifo;
    if (f->d != d)
        return iron__design_fail(d, IRON_EINVAL,
                                 "worker '%s': argument %d is a handle "
                                 "of another design",
                                 name, i);
    iron__handle_label(a->handle, hl, sizeof hl);
    if (k->is_core && t->handle != IRON__KH_FIFO)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "worker '%s': argument %d is %s, but core "
                                 "body '%s' declares %s there (declare "
                                 "'fifo' for a handle)",
                                 name, i, hl, k->entry, want);
    if (!k->is_core && !t->is_ptr)
        return iron__design_fail(d, IRON_EDESIGN,
                                 "worker '%s': argument %d is %s, but "
                                 "kernel '%s' declares a scalar %s there",
                                 name, i, hl, k->entry, want);
    if (!k->is_core && t->dtype != f->dtype)
        return iron__design_fail(d, IRON_EDTYPE,
                                 "worker '%s': argument %d is %s of %s "
                                 "objects, but kernel '%s' declares %s",
                                 name, i, hl, iron_dtype_name(f->dtype),
                                 k->entry, want);
    char who[96];
    if (a->handle->user != IRON__USER_NONE)
        return iron__design_fail(
            d, IRON_EDESIGN,
            "worker '%s': %s is already used by %s; each handle has one user "
            "(take another consumer with iron_fifo_cons)",
            name, hl, iron__handle_user(a->handle, who, sizeof who));
    return IRON_OK;
}

/* Checks argument i of worker `name` against the kernel's declaration. */
static iron_status check_arg(iron_design *d, const char *name,
                             const iron_kernel *k, int i, const iron_arg *a)
{
    const iron__ktype *t = &k->args[i];
    char want[32];
    kind_name(t, want, sizeof want);
    switch (a->kind) {
    case IRON_ARG_HANDLE:
        return check_handle(d, name, k, i, a, want);
    case IRON_ARG_RTP:
        if (!a->rtp || a->rtp->d != d)
            return iron__design_fail(d, IRON_EINVAL,
                                     "worker '%s': argument %d is a %s "
                                     "run-time parameter buffer",
                                     name, i,
                                     a->rtp ? "foreign" : "NULL");
        if (!t->is_ptr || t->handle != IRON__KH_NONE ||
            t->dtype != a->rtp->dtype)
            return iron__design_fail(d, IRON_EDTYPE,
                                     "worker '%s': argument %d is "
                                     "run-time parameter buffer '%s' of %s, "
                                     "but '%s' declares %s there",
                                     name, i, a->rtp->name,
                                     iron_dtype_name(a->rtp->dtype), k->entry,
                                     want);
        return IRON_OK;
    case IRON_ARG_BARRIER:
        if (!a->barrier || a->barrier->d != d)
            return iron__design_fail(d, IRON_EINVAL,
                                     "worker '%s': argument %d is a %s "
                                     "barrier",
                                     name, i, a->barrier ? "foreign" : "NULL");
        if (t->handle != IRON__KH_BARRIER)
            return iron__design_fail(d, IRON_EDESIGN,
                                     "worker '%s': argument %d is barrier "
                                     "'%s', but '%s' declares %s there%s",
                                     name, i, a->barrier->name, k->entry, want,
                                     k->is_core ? ""
                                                : " (only core bodies take "
                                                  "barriers)");
        return IRON_OK;
    case IRON_ARG_KERNEL: {
        const iron_kernel *c = a->kernel;
        if (!c || c->d != d)
            return iron__design_fail(d, IRON_EINVAL,
                                     "worker '%s': argument %d is a %s kernel",
                                     name, i, c ? "foreign" : "NULL");
        if (t->handle != IRON__KH_KERNEL)
            return iron__design_fail(d, IRON_EDESIGN,
                                     "worker '%s': argument %d is kernel "
                                     "'%s', but '%s' declares %s there%s",
                                     name, i, c->entry, k->entry, want,
                                     k->is_core ? " (declare kernel(TYPES))"
                                                : " (only core bodies take "
                                                  "kernels)");
        if (c->is_core)
            return iron__design_fail(d, IRON_EDESIGN,
                                     "worker '%s': argument %d is core body "
                                     "'%s'; a core body calls kernels made "
                                     "with iron_kernel_new",
                                     name, i, c->entry);
        int same = c->nargs == t->knargs;
        for (int a2 = 0; same && a2 < c->nargs; a2++)
            same = c->args[a2].dtype == t->kdtype[a2] &&
                   !c->args[a2].is_ptr == !t->kptr[a2];
        if (!same)
            return iron__design_fail(d, IRON_EDTYPE,
                                     "worker '%s': argument %d is kernel "
                                     "'%s' with %d argument%s, but core body "
                                     "'%s' declares a kernel(...) of other "
                                     "types there (they must be the same, "
                                     "in order)",
                                     name, i, c->entry, c->nargs,
                                     c->nargs == 1 ? "" : "s", k->entry);
        return IRON_OK;
    }
    case IRON_ARG_INT:
    case IRON_ARG_FLOAT:
        if (t->is_ptr)
            return iron__design_fail(d, IRON_EDESIGN,
                                     "worker '%s': argument %d is a scalar, "
                                     "but %s '%s' declares %s there (%s)",
                                     name, i,
                                     k->is_core ? "core body" : "kernel",
                                     k->entry, want,
                                     t->handle == IRON__KH_FIFO
                                         ? "pass a fifo handle"
                                     : t->handle == IRON__KH_BARRIER
                                         ? "pass iron_arg_barrier"
                                         : "an object pointer; pass a fifo "
                                           "handle");
        if (a->kind == IRON_ARG_FLOAT && t->dtype != IRON_FLOAT32 &&
            t->dtype != IRON_FLOAT64 && t->dtype != IRON_BFLOAT16)
            return iron__design_fail(d, IRON_EDTYPE,
                                     "worker '%s': argument %d is a float "
                                     "scalar, but kernel '%s' declares %s "
                                     "(pass iron_arg_int)",
                                     name, i, k->entry, want);
        return IRON_OK;
    }
    return iron__design_fail(d, IRON_EINVAL,
                             "worker '%s': argument %d has unknown kind %d",
                             name, i, (int)a->kind);
}

/* --- the argument builders (iron.h: exported for FFI callers) ---------- */

static iron_arg arg_of(iron_arg_kind kind)
{
    iron_arg a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    return a;
}

IRON_API iron_arg iron_arg_fifo(iron_handle *h)
{
    iron_arg a = arg_of(IRON_ARG_HANDLE);
    a.handle = h;
    return a;
}

IRON_API iron_arg iron_arg_fifo_acquire(iron_handle *h, int max_acquire)
{
    iron_arg a = arg_of(IRON_ARG_HANDLE);
    a.handle = h;
    a.i = max_acquire;
    return a;
}

IRON_API iron_arg iron_arg_int(int64_t v)
{
    iron_arg a = arg_of(IRON_ARG_INT);
    a.i = v;
    return a;
}

IRON_API iron_arg iron_arg_float(double v)
{
    iron_arg a = arg_of(IRON_ARG_FLOAT);
    a.f = v;
    return a;
}

IRON_API iron_arg iron_arg_rtp(iron_rtp *r)
{
    iron_arg a = arg_of(IRON_ARG_RTP);
    a.rtp = r;
    return a;
}

IRON_API iron_arg iron_arg_barrier(iron_barrier *b)
{
    iron_arg a = arg_of(IRON_ARG_BARRIER);
    a.barrier = b;
    return a;
}

IRON_API iron_arg iron_arg_kernel(iron_kernel *k)
{
    iron_arg a = arg_of(IRON_ARG_KERNEL);
    a.kernel = k;
    return a;
}

IRON_API iron_worker *iron_worker_new(iron_design *d, const char *name,
                                      iron_kernel *k, int64_t iterations,
                                      int nargs, const iron_arg *args)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    if (!name || !*name) {
        iron__design_fail(d, IRON_EINVAL, "iron_worker_new: name is %s",
                          name ? "empty" : "NULL");
        return NULL;
    }
    for (int i = 0; i < d->workers.n; i++)
        if (strcmp(d->workers.v[i]->name, name) == 0) {
            iron__design_fail(d, IRON_EINVAL,
                              "iron_worker_new: a worker named '%s' already "
                              "exists",
                              name);
            return NULL;
        }
    if (!k || k->d != d) {
        iron__design_fail(d, IRON_EINVAL,
                          "worker '%s': kernel is %s", name,
                          k ? "from another design" : "NULL");
        return NULL;
    }
    if (iterations < 0) {
        iron__design_fail(d, IRON_EINVAL,
                          "worker '%s': iterations is %lld; expected >= 0 "
                          "(0: runs forever, as upstream's while_true)",
                          name, (long long)iterations);
        return NULL;
    }
    if (nargs != k->nargs) {
        iron__design_fail(d, IRON_EDESIGN,
                          "worker '%s': %d argument%s given, kernel '%s' "
                          "declares %d",
                          name, nargs, nargs == 1 ? "" : "s", k->entry,
                          k->nargs);
        return NULL;
    }
    if (nargs > 0 && !args) {
        iron__design_fail(d, IRON_EINVAL, "worker '%s': args is NULL", name);
        return NULL;
    }
    int handles = 0;
    for (int i = 0; i < nargs; i++) {
        if (check_arg(d, name, k, i, &args[i]) != IRON_OK)
            return NULL;
        if (args[i].kind == IRON_ARG_HANDLE && args[i].i != 0 &&
            (!k->is_core || args[i].i < 1 || args[i].i > IRON__MAX_DEPTH)) {
            char hl[96];
            iron__design_fail(d, IRON_EINVAL,
                              "worker '%s': argument %d (%s) declares max "
                              "acquire %lld; %s",
                              name, i,
                              iron__handle_label(args[i].handle, hl,
                                                 sizeof hl),
                              (long long)args[i].i,
                              k->is_core ? "expected 1 to 16"
                                         : "a standard-loop kernel holds "
                                           "one object per handle (only "
                                           "core bodies declare more)");
            return NULL;
        }
        for (int j = 0; j < i; j++)
            if (args[i].kind == IRON_ARG_HANDLE &&
                args[j].kind == IRON_ARG_HANDLE &&
                args[i].handle == args[j].handle) {
                iron__design_fail(d, IRON_EDESIGN,
                                  "worker '%s': arguments %d and %d are the "
                                  "same handle",
                                  name, j, i);
                return NULL;
            }
        handles += args[i].kind == IRON_ARG_HANDLE;
    }
    if (handles == 0 && !k->is_core) {
        iron__design_fail(d, IRON_EDESIGN,
                          "worker '%s': no fifo handle among its arguments; "
                          "a worker without one would spin forever",
                          name);
        return NULL;
    }
    iron_worker *w = iron__calloc(1, sizeof *w);
    char *nm = iron__strdup(name);
    if (!w || !nm || !IRON__VEC_PUSH(d->workers, w)) {
        iron__free(w);
        iron__free(nm);
        iron__design_fail(d, IRON_ENOMEM, "out of memory building worker '%s'",
                          name);
        return NULL;
    }
    w->d = d;
    w->index = d->workers.n - 1;
    w->name = nm;
    w->kernel = k;
    w->iterations = iterations;
    w->nargs = nargs;
    if (nargs > 0)   /* args may be NULL then */
        memcpy(w->args, args, (size_t)nargs * sizeof *args);
    w->tile.col = w->tile.row = -1;
    for (int i = 0; i < nargs; i++)
        if (args[i].kind == IRON_ARG_HANDLE) {
            args[i].handle->user = IRON__USER_WORKER;
            args[i].handle->worker = w;
            args[i].handle->max_acquire =
                args[i].i > 0 ? (int)args[i].i : 1;
        }
    return w;
}

/* "'a' (0,2), 'b' (0,3) and 'c' (column 0)": the workers pinned into
 * column col (but w), and how many. */
static int pinned_in_column(const iron_design *d, const iron_worker *w,
                            int col, iron__str *s)
{
    int n = 0, total = 0;
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *o = d->workers.v[i];
        total += o != w && o->pinned && o->tile.col == col;
    }
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *o = d->workers.v[i];
        if (o == w || !o->pinned || o->tile.col != col)
            continue;
        n++;
        iron__str_printf(s, "%s'%s' ", n == 1 ? "" : n == total ? "and " : "",
                         o->name);
        if (o->tile.row >= 0)
            iron__str_printf(s, "(%d,%d)", o->tile.col, o->tile.row);
        else
            iron__str_printf(s, "(column %d)", col);
        if (n < total && total > 2)
            iron__str_append(s, ",");
        if (n < total)
            iron__str_append(s, " ");
    }
    return n;
}

/* ", 0, 1 and 3" style list of the granted columns with a compute tile no
 * pin claims (but w's); "none" when every one is claimed. */
static void free_columns(const iron_design *d, const iron_worker *w,
                         iron__str *s)
{
    int rows = d->dev->compute_rows, listed = 0;
    for (int c = 0; c < d->cols; c++) {
        iron__str ignore = { 0 };
        int n = pinned_in_column(d, w, c, &ignore);
        iron__str_free(&ignore);
        if (n >= rows)
            continue;
        iron__str_printf(s, "%s%d (%d free)", listed++ ? ", " : "", c,
                         rows - n);
    }
    if (!listed)
        iron__str_append(s, "none");
}

IRON_API iron_status iron_worker_place(iron_worker *w, int col, int row)
{
    if (!w)
        return iron__fail(IRON_EINVAL, "iron_worker_place: worker is NULL");
    iron_design *d = w->d;
    if (d->status != IRON_OK)
        return d->status;
    int first = 2, last = 1 + d->dev->compute_rows;
    if (row == -1) {
        if (col < 0 || col >= d->cols)
            return iron__design_fail(d, IRON_ERESOURCE,
                                     "worker '%s': column %d is not a column "
                                     "of the granted array (columns 0..%d)",
                                     w->name, col, d->cols - 1);
    } else if (col < 0 || col >= d->cols || row < first || row > last) {
        return iron__design_fail(d, IRON_ERESOURCE,
                                 "worker '%s': tile (%d,%d) is not a compute "
                                 "tile of the granted array (columns 0..%d, "
                                 "compute rows %d..%d); row -1 pins the "
                                 "column only",
                                 w->name, col, row, d->cols - 1, first, last);
    }
    for (int i = 0; row >= 0 && i < d->workers.n; i++) {
        const iron_worker *o = d->workers.v[i];
        if (o != w && o->pinned && o->tile.col == col && o->tile.row == row)
            return iron__design_fail(d, IRON_ERESOURCE,
                                     "worker '%s': tile (%d,%d) is already "
                                     "taken by worker '%s'",
                                     w->name, col, row, o->name);
    }
    /* A column holds as many pinned workers as it has compute tiles,
     * whether they name their row or not. */
    iron__str who = { 0 };
    int n = pinned_in_column(d, w, col, &who);
    if (n >= d->dev->compute_rows) {
        iron__str freec = { 0 };
        free_columns(d, w, &freec);
        iron_status s = iron__design_fail(
            d, IRON_ERESOURCE,
            "worker '%s': column %d is full: its %d compute tiles (rows "
            "%d..%d) are held by the workers pinned to it, %s; columns with "
            "a compute tile free: %s",
            w->name, col, d->dev->compute_rows, first, last,
            iron__str_get(&who), iron__str_get(&freec));
        iron__str_free(&freec);
        iron__str_free(&who);
        return s;
    }
    iron__str_free(&who);
    w->tile.col = col;
    w->tile.row = row;
    w->pinned = 1;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_worker_set_stack(iron_worker *w, uint32_t bytes)
{
    if (!w)
        return iron__fail(IRON_EINVAL, "iron_worker_set_stack: worker is "
                                       "NULL");
    iron_design *d = w->d;
    if (d->status != IRON_OK)
        return d->status;
    uint32_t mem = d->dev->compute.memory_bytes;
    if (bytes < 16 || bytes > mem || bytes % 16 != 0)
        return iron__design_fail(d, IRON_EINVAL,
                                 "worker '%s': stack of %u bytes; expected "
                                 "a multiple of 16 from 16 to %u (the "
                                 "compute tile's memory)",
                                 w->name, bytes, mem);
    w->stack_bytes = bytes;
    return iron__public_result(IRON_OK);
}
