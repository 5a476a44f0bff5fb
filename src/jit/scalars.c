/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * scalars.c - dispatch-time scalars: integer values declared on the jit
 * ("count, offset = 0") and given per call, which reach the runtime
 * sequence (run-time parameter writes, moved fill/drain offsets) without
 * a rebuild.  They are not part of the signature key.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "design/layout.h"
#include "jit/jit.h"

IRON_API iron_scalar iron_scalar_value(const char *name, int64_t v)
{
    iron_scalar s = { name, v };
    return s;
}

static iron_status syntax(const char *text, const char *p, const char *want)
{
    return iron__fail(IRON_EINVAL,
                      "jit scalars \"%s\": expected %s at column %d", text,
                      want, (int)(p - text) + 1);
}

/* A scalar named like an argument's type or size variable, or like a
 * compile-time parameter (both parsed before the scalars), would give the
 * design two different things called by one name.  IRON_EINVAL naming
 * both. */
static iron_status check_clash(const iron_jit *j, const char *text,
                               const char *name)
{
    iron_status s = iron__jit_check_var_clash(j, "scalars", "scalar", text,
                                              name);
    if (s != IRON_OK)
        return s;
    for (int i = 0; i < j->nparams; i++)
        if (strcmp(j->params[i].name, name) == 0)
            return iron__fail(IRON_EINVAL,
                              "jit scalars \"%s\": scalar '%s' has the "
                              "name of compile-time parameter %d ('%s'); the "
                              "design would see two different things called "
                              "%s: rename one",
                              text, name, i, j->params[i].name, name);
    return IRON_OK;
}

iron_status iron__jit_parse_scalars(iron_jit *j, const char *text)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return IRON_OK;
    for (;;) {
        if (j->nscalars == IRON__JIT_MAX_SCALARS)
            return iron__fail(IRON_EINVAL,
                              "jit scalars \"%s\": more than %d declared",
                              text, IRON__JIT_MAX_SCALARS);
        while (isspace((unsigned char)*p))
            p++;
        const char *start = p;
        if (!(isalpha((unsigned char)*p) || *p == '_'))
            return syntax(text, p, "a scalar name");
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t n = (size_t)(p - start);
        jit_scalardecl *v = iron__realloc(j->scalars, (size_t)(j->nscalars + 1) *
                                                          sizeof *v);
        if (!v)
            return iron__fail(IRON_ENOMEM, "out of memory");
        j->scalars = v;
        jit_scalardecl *sd = &v[j->nscalars];
        memset(sd, 0, sizeof *sd);
        sd->name = iron__malloc(n + 1);
        if (!sd->name)
            return iron__fail(IRON_ENOMEM, "out of memory");
        memcpy(sd->name, start, n);
        sd->name[n] = '\0';
        j->nscalars++;
        for (int i = 0; i < j->nscalars - 1; i++)
            if (strcmp(j->scalars[i].name, sd->name) == 0)
                return iron__fail(IRON_EINVAL,
                                  "jit scalars \"%s\": '%s' is declared twice",
                                  text, sd->name);
        iron_status cs = check_clash(j, text, sd->name);
        if (cs != IRON_OK)
            return cs;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '=') {
            char *end;
            errno = 0;
            sd->def = strtoll(p + 1, &end, 0);
            if (end != p + 1 && errno == ERANGE) {
                const char *num = p + 1;
                while (isspace((unsigned char)*num))
                    num++;
                int len = (int)(end - num);
                return iron__fail(IRON_EINVAL,
                                  "jit scalars \"%s\": scalar '%s' default "
                                  "%.*s%s is out of range: expected an "
                                  "integer default from %lld to %lld",
                                  text, sd->name, len > 40 ? 40 : len, num,
                                  len > 40 ? "..." : "", (long long)INT64_MIN,
                                  (long long)INT64_MAX);
            }
            if (end == p + 1 || errno)
                return syntax(text, p + 1, "an integer default");
            sd->has_default = 1;
            p = end;
            while (isspace((unsigned char)*p))
                p++;
        }
        if (!*p)
            break;
        if (*p != ',')
            return syntax(text, p, "',' or the end");
        p++;
    }
    j->scalar_names = iron__calloc((size_t)j->nscalars + 1,
                                   sizeof *j->scalar_names);
    if (!j->scalar_names)
        return iron__fail(IRON_ENOMEM, "out of memory");
    for (int i = 0; i < j->nscalars; i++)
        j->scalar_names[i] = j->scalars[i].name;
    return IRON_OK;
}

iron_status iron__jit_resolve_scalars(const iron_jit *j, int n,
                                      const iron_scalar *given, int64_t *out)
{
    if (n < 0 || (n > 0 && !given))
        return iron__fail(IRON_EINVAL, "%s: %d scalar values at %p", j->name,
                          n, (const void *)given);
    unsigned char set[IRON__JIT_MAX_SCALARS] = { 0 };
    for (int k = 0; k < n; k++) {
        int idx = -1;
        for (int i = 0; given[k].name && i < j->nscalars; i++)
            if (strcmp(j->scalars[i].name, given[k].name) == 0)
                idx = i;
        if (idx < 0) {
            const char *near = given[k].name
                                   ? iron__closest_name(given[k].name,
                                                        j->scalar_names,
                                                        j->nscalars)
                                   : NULL;
            iron__str decl = { 0 };
            for (int i = 0; i < j->nscalars; i++)
                iron__str_printf(&decl, "%s%s", i ? ", " : "",
                                 j->scalars[i].name);
            iron_status s = iron__fail(
                IRON_EPARAM, "%s: unknown dispatch-time scalar %s%s%s%s%s%s; "
                             "declared: %s",
                j->name, given[k].name ? "'" : "",
                given[k].name ? given[k].name : "NULL",
                given[k].name ? "'" : "", near ? " (did you mean '" : "",
                near ? near : "", near ? "'?)" : "",
                j->nscalars ? iron__str_get(&decl) : "none");
            iron__str_free(&decl);
            return s;
        }
        if (set[idx])
            return iron__fail(IRON_EPARAM, "%s: scalar '%s' is given twice",
                              j->name, given[k].name);
        set[idx] = 1;
        out[idx] = given[k].value;
    }
    for (int i = 0; i < j->nscalars; i++) {
        if (set[i])
            continue;
        if (!j->scalars[i].has_default)
            return iron__fail(IRON_EPARAM,
                              "%s: dispatch-time scalar '%s' has no default "
                              "and was not given",
                              j->name, j->scalars[i].name);
        out[i] = j->scalars[i].def;
    }
    return IRON_OK;
}

iron_status iron__jit_check_moved_taps(const iron_jit *j, const jit_spec *sp,
                                       const int64_t *values)
{
    const iron_design *d = sp->prog->d;
    for (int i = 0; i < d->ops.n; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        if ((op->kind != IRON__RT_FILL && op->kind != IRON__RT_DRAIN) ||
            op->scalar < 0)
            continue;
        iron_tap moved = op->tap;
        const iron__argsig *a = &d->args[op->arg];
        const char *what = op->kind == IRON__RT_FILL ? "fill" : "drain";
        /* The value is anything the caller passes (INT64_MAX too): the
         * sum must not wrap into an offset that looks in bounds. */
        if (__builtin_add_overflow(op->tap.offset, values[op->scalar],
                                   &moved.offset))
            return iron__fail(IRON_EBOUNDS,
                              "%s: %s of argument %d ('%s') moved by scalar "
                              "'%s' = %lld: the offset %lld + %lld overflows "
                              "64 bits; the tensor has %lld elements",
                              j->name, what, op->arg, a->name,
                              j->scalars[op->scalar].name,
                              (long long)values[op->scalar],
                              (long long)op->tap.offset,
                              (long long)values[op->scalar],
                              (long long)a->numel);
        /* The moved pattern must stay in bounds and still meet the shim
         * DMA's limits (whole 32-bit words), as the fixed one did when it
         * was built. */
        if (iron_tap_check(&moved, a->numel) != IRON_OK ||
            iron__tap_check_shim(&moved, a->dtype) != IRON_OK)
            return iron__fail(IRON_EBOUNDS,
                              "%s: %s of argument %d ('%s') moved by scalar "
                              "'%s' = %lld: %s",
                              j->name, what, op->arg, a->name,
                              j->scalars[op->scalar].name,
                              (long long)values[op->scalar],
                              iron_last_error());
    }
    return IRON_OK;
}
