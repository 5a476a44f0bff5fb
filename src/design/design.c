/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * design.c - the design object: its lifetime, its sticky error, and what a
 * design function may ask about its call (argument types, compile-time
 * values, columns, device).
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"

iron_status iron__design_new(iron_design **out, const char *jit_name,
                             int nargs, const iron__argsig *args, int nparams,
                             const iron__pval *params, int cols,
                             const iron_device_info *dev,
                             const char *jit_cflags, int nscalars,
                             const char *const *scalar_names)
{
    iron_design *d = iron__calloc(1, sizeof *d);
    *out = NULL;
    if (!d)
        return iron__fail(IRON_ENOMEM, "out of memory creating a design");
    d->jit_name = jit_name;
    d->nargs = nargs;
    d->args = args;
    d->nparams = nparams;
    d->params = params;
    d->cols = cols;
    d->dev = dev;
    d->jit_cflags = jit_cflags;
    d->nscalars = nscalars;
    d->scalar_names = scalar_names;
    *out = d;
    return IRON_OK;
}

static void free_kernel(iron_kernel *k)
{
    for (int i = 0; i < k->ndefines; i++) {
        iron__free(k->defines[i].name);
        iron__free(k->defines[i].value);
    }
    iron__free(k->defines);
    iron__free(k->entry);
    iron__free(k->source);
    iron__free(k->cflags);
    iron__free(k->path);
    iron__free(k->path_dir);
    for (int i = 0; i < k->nincdirs; i++)
        iron__free(k->incdirs[i]);
    iron__free(k->incdirs);
    for (int i = 0; i < k->nargs; i++)
        iron__free(k->argnames[i]);
    iron__kexpr_free(k->cycles);
    iron__free(k);
}

void iron__design_free(iron_design *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->fifos.n; i++) {
        iron_fifo *f = d->fifos.v[i];
        for (int c = 0; c < f->ncons; c++)
            iron__free(f->cons[c]);
        iron__free(f->name);
        iron__free(f);
    }
    for (int i = 0; i < d->kernels.n; i++)
        free_kernel(d->kernels.v[i]);
    for (int i = 0; i < d->workers.n; i++) {
        iron__free(d->workers.v[i]->name);
        iron__free(d->workers.v[i]);
    }
    for (int i = 0; i < d->links.n; i++)
        iron__free(d->links.v[i]);
    for (int i = 0; i < d->rtps.n; i++) {
        iron__free(d->rtps.v[i]->initial);
        iron__free(d->rtps.v[i]->name);
        iron__free(d->rtps.v[i]);
    }
    for (int i = 0; i < d->barriers.n; i++) {
        iron__free(d->barriers.v[i]->name);
        iron__free(d->barriers.v[i]);
    }
    for (int i = 0; i < d->bodies.n; i++)
        d->body_free(d->bodies.v[i]);
    iron__free(d->bodies.v);
    for (int i = 0; i < d->merged.n; i++)
        iron__free(d->merged.v[i]);
    iron__free(d->merged.v);
    for (int i = 0; i < d->groups.n; i++)
        iron__free(d->groups.v[i]);
    iron__free(d->groups.v);
    iron__free(d->links.v);
    iron__free(d->rtps.v);
    iron__free(d->barriers.v);
    iron__free(d->fifos.v);
    iron__free(d->kernels.v);
    iron__free(d->workers.v);
    iron__free(d->ops.v);
    iron__free(d->error);
    iron__free(d);
}

/* Records the first failure on the design (later ones are dropped: the
 * first is the cause) and, as every failing call does, on this thread. */
static iron_status vrecord(iron_design *d, iron_status s, const char *fmt,
                           va_list ap)
{
    if (d->status != IRON_OK)
        return d->status;
    iron__str msg = { 0 };
    iron__str_vprintf(&msg, fmt, ap);
    d->status = s;
    d->error = iron__str_take(&msg);  /* NULL on OOM: status still kept */
    if (d->error)
        iron__fail(s, "%s", d->error);
    return s;
}

iron_status iron__design_fail(iron_design *d, iron_status s, const char *fmt,
                              ...)
{
    va_list ap;
    va_start(ap, fmt);
    s = vrecord(d, s, fmt, ap);
    va_end(ap);
    return s;
}

IRON_API iron_status iron_design_fail(iron_design *d, iron_status status,
                                      const char *fmt, ...)
{
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_design_fail: design is NULL");
    va_list ap;
    va_start(ap, fmt);
    status = vrecord(d, status == IRON_OK ? IRON_EDESIGN : status, fmt, ap);
    va_end(ap);
    return status;
}

IRON_API iron_status iron_design_status(const iron_design *d)
{
    return iron__public_result(d ? d->status : IRON_EINVAL);
}

void iron__design_type_text(iron__str *s, iron_dtype dt, iron_shape sh)
{
    iron__str_printf(s, "%s[", iron_dtype_name(dt));
    for (int i = 0; i < sh.ndim; i++)
        iron__str_printf(s, "%s%lld", i ? ", " : "", (long long)sh.dims[i]);
    iron__str_append(s, "]");
}

const char *iron__role_name(iron__role r)
{
    switch (r) {
    case IRON__ROLE_IN: return "in";
    case IRON__ROLE_OUT: return "out";
    case IRON__ROLE_INOUT: return "inout";
    }
    return "?";
}

/* --- what the design function sees ------------------------------------- */

IRON_API int iron_design_nargs(const iron_design *d)
{
    return d ? d->nargs : 0;
}

/* Argument accessors cannot return a status; a bad index becomes the
 * design's sticky error (the cast drops const only for that record). */
static const iron__argsig *arg_at(const iron_design *d, int arg)
{
    if (!d)
        return NULL;
    if (arg < 0 || arg >= d->nargs) {
        iron__design_fail((iron_design *)(uintptr_t)d, IRON_EARG,
                          "design asked for argument %d; the jit declares %d "
                          "argument%s",
                          arg, d->nargs, d->nargs == 1 ? "" : "s");
        return NULL;
    }
    return &d->args[arg];
}

IRON_API iron_dtype iron_design_arg_dtype(const iron_design *d, int arg)
{
    const iron__argsig *a = arg_at(d, arg);
    return a ? a->dtype : IRON_INT8;
}

IRON_API iron_shape iron_design_arg_shape(const iron_design *d, int arg)
{
    const iron__argsig *a = arg_at(d, arg);
    iron_shape none = { 1, { 1 } };
    return a ? a->shape : none;
}

IRON_API int64_t iron_design_arg_numel(const iron_design *d, int arg)
{
    const iron__argsig *a = arg_at(d, arg);
    return a ? a->numel : 0;
}

IRON_API int iron_design_cols(const iron_design *d)
{
    return d ? d->cols : 0;
}

IRON_API const iron_device_info *iron_design_device(const iron_design *d)
{
    return d ? d->dev : NULL;
}

const char *iron__param_type_name(iron_param_type t)
{
    switch (t) {
    case IRON_PARAM_INT: return "int";
    case IRON_PARAM_FLOAT: return "float";
    case IRON_PARAM_BOOL: return "bool";
    case IRON_PARAM_STR: return "str";
    case IRON_PARAM_DTYPE: return "dtype";
    case IRON_PARAM_KERNEL: return "kernel";
    }
    return "?";
}

static const iron__pval *param(iron_design *d, const char *name,
                               iron_param_type want)
{
    if (!d)
        return NULL;
    if (!name) {
        iron__design_fail(d, IRON_EPARAM, "design asked for a parameter "
                                          "with a NULL name");
        return NULL;
    }
    for (int i = 0; i < d->nparams; i++) {
        const iron__pval *p = &d->params[i];
        if (strcmp(p->name, name) != 0)
            continue;
        if (p->type != want) {
            iron__design_fail(d, IRON_EPARAM,
                              "design reads parameter '%s' as %s, but it is "
                              "declared %s",
                              name, iron__param_type_name(want),
                              iron__param_type_name(p->type));
            return NULL;
        }
        return p;
    }
    iron__str known = { 0 };
    for (int i = 0; i < d->nparams; i++)
        iron__str_printf(&known, "%s%s", i ? ", " : "", d->params[i].name);
    iron__design_fail(d, IRON_EPARAM,
                      "design asked for parameter '%s', which the jit does "
                      "not declare (declared: %s)",
                      name, d->nparams ? iron__str_get(&known) : "none");
    iron__str_free(&known);
    return NULL;
}

IRON_API int64_t iron_design_param_int(iron_design *d, const char *name)
{
    const iron__pval *p = param(d, name, IRON_PARAM_INT);
    return p ? p->i : 0;
}

IRON_API double iron_design_param_float(iron_design *d, const char *name)
{
    const iron__pval *p = param(d, name, IRON_PARAM_FLOAT);
    return p ? p->f : 0.0;
}

IRON_API int iron_design_param_bool(iron_design *d, const char *name)
{
    const iron__pval *p = param(d, name, IRON_PARAM_BOOL);
    return p ? (int)p->i : 0;
}

IRON_API const char *iron_design_param_str(iron_design *d, const char *name)
{
    const iron__pval *p = param(d, name, IRON_PARAM_STR);
    return p ? p->s : "";
}

IRON_API iron_dtype iron_design_param_dtype(iron_design *d, const char *name)
{
    const iron__pval *p = param(d, name, IRON_PARAM_DTYPE);
    return p ? p->dtype : IRON_INT8;
}

IRON_API const iron_kernel_ref *iron_design_param_kernel(iron_design *d,
                                                         const char *name)
{
    static const iron_kernel_ref none = { "", "", "" };
    const iron__pval *p = param(d, name, IRON_PARAM_KERNEL);
    return p ? &p->kernel : &none;
}

IRON_API int iron_design_scalar_index(iron_design *d, const char *name)
{
    if (!d || d->status != IRON_OK)
        return -1;
    for (int i = 0; name && i < d->nscalars; i++)
        if (strcmp(d->scalar_names[i], name) == 0)
            return i;
    iron__str known = { 0 };
    for (int i = 0; i < d->nscalars; i++)
        iron__str_printf(&known, "%s%s", i ? ", " : "", d->scalar_names[i]);
    iron__design_fail(d, IRON_EPARAM,
                      "design asked for dispatch-time scalar %s%s%s, which "
                      "the jit does not declare (declared: %s)",
                      name ? "'" : "", name ? name : "NULL", name ? "'" : "",
                      d->nscalars ? iron__str_get(&known) : "none");
    iron__str_free(&known);
    return -1;
}
