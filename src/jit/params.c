/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * params.c - the iron_param builders, and resolving compile-time
 * parameter values for a call: given at the call, else bound on the jit,
 * else the declared default.  Unknown, mistyped and missing parameters
 * name the parameter, list the declared ones and suggest the closest
 * name.
 */
#include <math.h>
#include <string.h>

#include "jit/jit.h"

/* --- the value builders (iron.h: exported for FFI callers) ------------- */

static iron_param param_of(const char *name, iron_param_type type)
{
    iron_param p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.type = type;
    p.dtype = IRON_INT8;
    return p;
}

IRON_API iron_param iron_param_int(const char *name, int64_t v)
{
    iron_param p = param_of(name, IRON_PARAM_INT);
    p.i = v;
    return p;
}

IRON_API iron_param iron_param_float(const char *name, double v)
{
    iron_param p = param_of(name, IRON_PARAM_FLOAT);
    p.f = v;
    return p;
}

IRON_API iron_param iron_param_bool(const char *name, int v)
{
    iron_param p = param_of(name, IRON_PARAM_BOOL);
    p.i = v != 0;
    return p;
}

IRON_API iron_param iron_param_str(const char *name, const char *v)
{
    iron_param p = param_of(name, IRON_PARAM_STR);
    p.s = v;
    return p;
}

IRON_API iron_param iron_param_dtype(const char *name, iron_dtype v)
{
    iron_param p = param_of(name, IRON_PARAM_DTYPE);
    p.dtype = v;
    return p;
}

IRON_API iron_param iron_param_kernel(const char *name,
                                      const iron_kernel_ref *k)
{
    iron_param p = param_of(name, IRON_PARAM_KERNEL);
    p.kernel = k;
    return p;
}

static void declared_list(const iron_jit *j, iron__str *s)
{
    for (int i = 0; i < j->nparams; i++)
        iron__str_printf(s, "%s%s: %s", i ? ", " : "", j->params[i].name,
                         iron__param_type_name(j->params[i].type));
    if (j->nparams == 0)
        iron__str_append(s, "none");
}

iron_status iron__jit_check_param(const iron_jit *j, const iron_param *p,
                                  int *index)
{
    if (!p->name)
        return iron__fail(IRON_EPARAM, "%s: a parameter value has a NULL name",
                          j->name);
    for (int i = 0; i < j->nparams; i++) {
        const jit_paramdecl *pd = &j->params[i];
        if (strcmp(pd->name, p->name) != 0)
            continue;
        if (p->type != pd->type)
            return iron__fail(IRON_EPARAM,
                              "%s: parameter '%s' is declared %s, got a %s "
                              "value",
                              j->name, p->name,
                              iron__param_type_name(pd->type),
                              iron__param_type_name(p->type));
        if (p->type == IRON_PARAM_STR && !p->s)
            return iron__fail(IRON_EPARAM,
                              "%s: parameter '%s' (str) is NULL", j->name,
                              p->name);
        if (p->type == IRON_PARAM_KERNEL &&
            (!p->kernel || !p->kernel->entry || !p->kernel->source ||
             !p->kernel->arg_types))
            return iron__fail(IRON_EPARAM,
                              "%s: parameter '%s' (kernel) is %s", j->name,
                              p->name,
                              !p->kernel ? "NULL"
                                         : "missing its entry, source or "
                                           "argument types");
        /* As for declared defaults: a kernel built with inf or NaN for a
         * constant is almost surely an accident upstream of the call. */
        if (p->type == IRON_PARAM_FLOAT && !isfinite(p->f))
            return iron__fail(IRON_EPARAM,
                              "%s: parameter '%s' (float) is %g; expected a "
                              "finite value",
                              j->name, p->name, p->f);
        if (p->type == IRON_PARAM_DTYPE && !iron_dtype_name(p->dtype))
            return iron__fail(IRON_EPARAM,
                              "%s: parameter '%s' (dtype) has invalid value "
                              "%d",
                              j->name, p->name, (int)p->dtype);
        *index = i;
        return IRON_OK;
    }
    iron__str decl = { 0 };
    declared_list(j, &decl);
    const char *names[IRON__JIT_MAX_PARAMS];
    for (int i = 0; i < j->nparams; i++)
        names[i] = j->params[i].name;
    const char *near = iron__closest_name(p->name, names, j->nparams);
    iron_status s;
    if (near)
        s = iron__fail(IRON_EPARAM,
                       "%s: unknown parameter '%s' (did you mean '%s'?); "
                       "declared: %s",
                       j->name, p->name, near, iron__str_get(&decl));
    else
        s = iron__fail(IRON_EPARAM, "%s: unknown parameter '%s'; declared: %s",
                       j->name, p->name, iron__str_get(&decl));
    iron__str_free(&decl);
    return s;
}

iron_status iron__jit_resolve_params(const iron_jit *j, int nparams,
                                     const iron_param *params,
                                     iron__pval *out)
{
    if (nparams < 0 || (nparams > 0 && !params))
        return iron__fail(IRON_EINVAL, "%s: %d parameter values at %p",
                          j->name, nparams, (const void *)params);
    for (int i = 0; i < j->nparams; i++) {
        const jit_paramdecl *pd = &j->params[i];
        if (j->is_bound[i])
            out[i] = j->bound[i];
        else if (pd->has_default)
            out[i] = pd->def;
        else
            out[i].type = (iron_param_type)-1;
        out[i].name = pd->name;
    }
    for (int k = 0; k < nparams; k++) {
        int idx;
        iron_status s = iron__jit_check_param(j, &params[k], &idx);
        if (s != IRON_OK)
            return s;
        for (int m = 0; m < k; m++)
            if (strcmp(params[m].name, params[k].name) == 0)
                return iron__fail(IRON_EPARAM,
                                  "%s: parameter '%s' is given twice",
                                  j->name, params[k].name);
        iron__pval *v = &out[idx];
        v->type = params[k].type;
        v->i = params[k].i;
        v->f = params[k].f;
        v->s = params[k].s;
        v->dtype = params[k].dtype;
        if (v->type == IRON_PARAM_KERNEL)
            v->kernel = *params[k].kernel;
        if (v->type == IRON_PARAM_BOOL)
            v->i = v->i != 0;
    }
    for (int i = 0; i < j->nparams; i++)
        if ((int)out[i].type == -1) {
            iron__str decl = { 0 };
            declared_list(j, &decl);
            iron_status s = iron__fail(IRON_EPARAM,
                                       "%s: parameter '%s' (%s) has no "
                                       "default and was not given; declared: "
                                       "%s",
                                       j->name, j->params[i].name,
                                       iron__param_type_name(j->params[i].type),
                                       iron__str_get(&decl));
            iron__str_free(&decl);
            return s;
        }
    return IRON_OK;
}
