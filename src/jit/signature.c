/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * signature.c - parsing a jit's declarations, once at creation:
 *   args:   "in a: T[N], in b: T[N], out c: int32[N, 4]"
 *   params: "tile: int = 16, op: str = '+', scale: float, OT: dtype = int32"
 * Numbers are range-checked, never wrapped or saturated: an integer past
 * int64_t, a float default that is not a finite number (1e999, inf, nan)
 * and fixed dims whose product (or bytes) overflows are IRON_EINVAL naming
 * the item, its text and the range.  The args are parsed first, so that a
 * parameter named like one of their type or size variables is refused.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit/jit.h"

/* The parameter types a params declaration may name, for its messages:
 * iron__param_type_name of IRON_PARAM_INT .. IRON_PARAM_KERNEL. */
#define PARAM_TYPES "int, float, bool, str, dtype, kernel"

typedef struct lexer {
    const char *what;         /* "args" or "params", for messages */
    const char *text, *p;
} lexer;

static void skip_ws(lexer *lx)
{
    while (isspace((unsigned char)*lx->p))
        lx->p++;
}

static iron_status syntax(const lexer *lx, const char *expected)
{
    return iron__fail(IRON_EINVAL,
                      "jit %s \"%s\": expected %s at column %d (\"%.16s\")",
                      lx->what, lx->text, expected,
                      (int)(lx->p - lx->text) + 1,
                      *lx->p ? lx->p : "end of text");
}

/* Reads an identifier into a new string; NULL if none is there (or OOM,
 * with *oom set). */
static char *ident(lexer *lx, int *oom)
{
    skip_ws(lx);
    const char *s = lx->p;
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return NULL;
    while (isalnum((unsigned char)*lx->p) || *lx->p == '_')
        lx->p++;
    size_t n = (size_t)(lx->p - s);
    char *r = iron__malloc(n + 1);
    if (!r) {
        *oom = 1;
        return NULL;
    }
    memcpy(r, s, n);
    r[n] = '\0';
    return r;
}

static int accept(lexer *lx, char c)
{
    skip_ws(lx);
    if (*lx->p != c)
        return 0;
    lx->p++;
    return 1;
}

static iron_status oom(void)
{
    return iron__fail(IRON_ENOMEM, "out of memory parsing a jit declaration");
}

/* The text of the number starting at p (up to `end`, where strtoll or
 * strtod stopped), at most 40 characters, for messages. */
static void number_text(const char *p, const char *end, char *buf,
                        size_t len)
{
    size_t n = (size_t)(end - p);
    snprintf(buf, len, "%.*s%s", (int)IRON__MIN(n, (size_t)40), p,
             n > 40 ? "..." : "");
}

static iron_status parse_type(lexer *lx, jit_argdecl *a)
{
    int no_mem = 0;
    char *t = ident(lx, &no_mem);
    if (!t)
        return no_mem ? oom() : syntax(lx, "a dtype or type variable");
    a->has_type = 1;
    if (iron_dtype_parse(t, &a->dtype) == IRON_OK)
        iron__free(t);
    else
        a->dtype_var = t;
    if (!accept(lx, '['))
        return IRON_OK;
    a->ndims = 0;
    /* The product of the fixed dims (and, with a fixed dtype, its bytes)
     * must fit int64_t: no tensor could match a shape that does not. */
    int64_t numel = 1;
    do {
        if (a->ndims == IRON_MAX_DIMS)
            return syntax(lx, "at most " "6" " dims");
        jit_dim *dm = &a->dims[a->ndims];
        skip_ws(lx);
        if (isdigit((unsigned char)*lx->p)) {
            char *end, num[48];
            errno = 0;
            long long v = strtoll(lx->p, &end, 10);
            if (errno == ERANGE) {
                number_text(lx->p, end, num, sizeof num);
                return iron__fail(IRON_EINVAL,
                                  "jit %s \"%s\": argument '%s' dimension "
                                  "%d is %s, out of range: expected 1 to "
                                  "%lld",
                                  lx->what, lx->text, a->name, a->ndims, num,
                                  (long long)INT64_MAX);
            }
            if (errno || v < 1)
                return syntax(lx, "a dimension >= 1");
            int64_t before = numel;
            if (__builtin_mul_overflow(before, (int64_t)v, &numel))
                return iron__fail(IRON_EINVAL,
                                  "jit %s \"%s\": argument '%s' has more "
                                  "than 2^63-1 elements: its fixed dims "
                                  "multiply past 64 bits at dimension %d "
                                  "(%lld x %lld)",
                                  lx->what, lx->text, a->name, a->ndims,
                                  (long long)before, v);
            dm->value = v;
            lx->p = end;
        } else {
            dm->var = ident(lx, &no_mem);
            if (!dm->var)
                return no_mem ? oom() : syntax(lx, "a dimension (integer or "
                                                   "size variable)");
            dm->is_var = 1;
        }
        a->ndims++;
    } while (accept(lx, ','));
    if (!accept(lx, ']'))
        return syntax(lx, "',' or ']'");
    int64_t es = (int64_t)iron_dtype_size(a->dtype), bytes;
    if (!a->dtype_var && __builtin_mul_overflow(numel, es, &bytes))
        return iron__fail(IRON_EINVAL,
                          "jit %s \"%s\": argument '%s' is too large: its "
                          "fixed dims give %lld elements of %s, %lld bytes "
                          "each, past 2^63-1 bytes",
                          lx->what, lx->text, a->name, (long long)numel,
                          iron_dtype_name(a->dtype), (long long)es);
    return IRON_OK;
}

iron_status iron__jit_parse_args(iron_jit *j, const char *text)
{
    lexer lx = { "args", text, text };
    int no_mem = 0;
    skip_ws(&lx);
    if (!*lx.p)
        return iron__fail(IRON_EINVAL, "jit args: the list is empty; a "
                                       "design takes at least one tensor");
    do {
        jit_argdecl *na =
            iron__realloc(j->args, (size_t)(j->nargs + 1) * sizeof *na);
        if (!na)
            return oom();
        j->args = na;
        jit_argdecl *a = &na[j->nargs];
        memset(a, 0, sizeof *a);
        a->ndims = -1;
        j->nargs++;
        char *role = ident(&lx, &no_mem);
        if (!role)
            return no_mem ? oom() : syntax(&lx, "a role (in, out, inout)");
        if (strcmp(role, "in") == 0)
            a->role = IRON__ROLE_IN;
        else if (strcmp(role, "out") == 0)
            a->role = IRON__ROLE_OUT;
        else if (strcmp(role, "inout") == 0)
            a->role = IRON__ROLE_INOUT;
        else {
            iron_status s = iron__fail(IRON_EINVAL,
                                       "jit args \"%s\": argument %d has "
                                       "role '%s'; expected in, out or inout",
                                       text, j->nargs - 1, role);
            iron__free(role);
            return s;
        }
        iron__free(role);
        a->name = ident(&lx, &no_mem);
        if (!a->name)
            return no_mem ? oom() : syntax(&lx, "an argument name");
        for (int i = 0; i < j->nargs - 1; i++)
            if (strcmp(j->args[i].name, a->name) == 0)
                return iron__fail(IRON_EINVAL,
                                  "jit args \"%s\": '%s' is declared twice",
                                  text, a->name);
        if (accept(&lx, ':')) {
            iron_status s = parse_type(&lx, a);
            if (s != IRON_OK)
                return s;
        }
    } while (accept(&lx, ','));
    skip_ws(&lx);
    if (*lx.p)
        return syntax(&lx, "',' or the end");
    return IRON_OK;
}


/* The argument whose declaration uses `name` as its type variable or as a
 * size variable: its index (-1 if none), with which use in *kind and the
 * dimension in *dim (-1 for the type). */
static int arg_using_var(const iron_jit *j, const char *name,
                            const char **kind, int *dim)
{
    for (int i = 0; i < j->nargs; i++) {
        const jit_argdecl *a = &j->args[i];
        if (a->dtype_var && strcmp(a->dtype_var, name) == 0) {
            *kind = "type";
            *dim = -1;
            return i;
        }
        for (int k = 0; k < a->ndims; k++)
            if (a->dims[k].is_var && strcmp(a->dims[k].var, name) == 0) {
                *kind = "size";
                *dim = k;
                return i;
            }
    }
    return -1;
}

iron_status iron__jit_check_var_clash(const iron_jit *j, const char *decl,
                                      const char *noun, const char *text,
                                      const char *name)
{
    const char *kind = "";
    int dim = -1, ai = arg_using_var(j, name, &kind, &dim);
    if (ai < 0)
        return IRON_OK;
    char where[48] = "";
    if (dim >= 0)
        snprintf(where, sizeof where, ", dimension %d", dim);
    return iron__fail(IRON_EINVAL,
                      "jit %s \"%s\": %s '%s' has the name of the %s "
                      "variable %s of argument '%s' (argument %d%s); the "
                      "design would see two different things called %s: "
                      "rename one",
                      decl, text, noun, name, kind, name, j->args[ai].name,
                      ai, where, name);
}

static iron_status parse_default(lexer *lx, jit_paramdecl *pd)
{
    skip_ws(lx);
    iron__pval *v = &pd->def;
    v->type = pd->type;
    const char *start = lx->p;
    switch (pd->type) {
    case IRON_PARAM_INT: {
        char *end, num[48];
        errno = 0;
        long long x = strtoll(lx->p, &end, 0);
        if (end == lx->p)
            return syntax(lx, "an integer default");
        if (errno == ERANGE) {
            number_text(lx->p, end, num, sizeof num);
            return iron__fail(IRON_EINVAL,
                              "jit %s \"%s\": parameter '%s' default %s is "
                              "out of range: expected an integer default "
                              "from %lld to %lld",
                              lx->what, lx->text, pd->name, num,
                              (long long)INT64_MIN, (long long)INT64_MAX);
        }
        if (errno)
            return syntax(lx, "an integer default");
        v->i = x;
        lx->p = end;
        break;
    }
    case IRON_PARAM_FLOAT: {
        char *end, num[48];
        errno = 0;
        double x = strtod(lx->p, &end);
        if (end == lx->p)
            return syntax(lx, "a number default");
        number_text(lx->p, end, num, sizeof num);
        /* strtod takes "inf", "nan" and overflows to infinity (1e999):
         * a default the design would compute with must be a real number.
         * An underflow to a denormal keeps a value and is let through;
         * one that loses every digit (1e-999 as 0) is not. */
        if (isnan(x) || isinf(x) || (errno == ERANGE && x == 0.0))
            return iron__fail(IRON_EINVAL,
                              "jit %s \"%s\": parameter '%s' default %s is "
                              "out of range: expected a finite number "
                              "default, nonzero numbers from %g to %g in "
                              "magnitude",
                              lx->what, lx->text, pd->name, num, DBL_TRUE_MIN,
                              DBL_MAX);
        v->f = x;
        lx->p = end;
        break;
    }
    case IRON_PARAM_BOOL:
        if (strncmp(lx->p, "true", 4) == 0) {
            v->i = 1;
            lx->p += 4;
        } else if (strncmp(lx->p, "false", 5) == 0) {
            v->i = 0;
            lx->p += 5;
        } else
            return syntax(lx, "true or false");
        break;
    case IRON_PARAM_STR: {
        char q = *lx->p;
        if (q != '\'' && q != '"')
            return syntax(lx, "a quoted string default");
        const char *e = strchr(lx->p + 1, q);
        if (!e)
            return syntax(lx, "a closing quote");
        size_t n = (size_t)(e - lx->p - 1);
        char *s = iron__malloc(n + 1);
        if (!s)
            return oom();
        memcpy(s, lx->p + 1, n);
        s[n] = '\0';
        v->s = s;
        lx->p = e + 1;
        break;
    }
    case IRON_PARAM_KERNEL:
        return syntax(lx, "no default");
    case IRON_PARAM_DTYPE: {
        int no_mem = 0;
        char *t = ident(lx, &no_mem);
        if (!t)
            return no_mem ? oom() : syntax(lx, "a dtype name");
        iron_status s = iron_dtype_parse(t, &v->dtype);
        iron__free(t);
        if (s != IRON_OK) {
            lx->p = start;
            return syntax(lx, "a dtype name (int32, float32, bfloat16, ...)");
        }
        break;
    }
    }
    pd->has_default = 1;
    return IRON_OK;
}

iron_status iron__jit_parse_params(iron_jit *j, const char *text)
{
    lexer lx = { "params", text, text };
    int no_mem = 0;
    skip_ws(&lx);
    if (!*lx.p)
        return IRON_OK;
    do {
        jit_paramdecl *np =
            iron__realloc(j->params, (size_t)(j->nparams + 1) * sizeof *np);
        if (!np)
            return oom();
        j->params = np;
        jit_paramdecl *pd = &np[j->nparams];
        memset(pd, 0, sizeof *pd);
        j->nparams++;
        pd->name = ident(&lx, &no_mem);
        if (!pd->name)
            return no_mem ? oom() : syntax(&lx, "a parameter name");
        pd->def.name = pd->name;
        for (int i = 0; i < j->nparams - 1; i++)
            if (strcmp(j->params[i].name, pd->name) == 0)
                return iron__fail(IRON_EINVAL,
                                  "jit params \"%s\": '%s' is declared twice",
                                  text, pd->name);
        /* The args are parsed first.  A parameter named like one of their
         * variables would give the design two different things called by
         * one name (the parameter's value, the bound size or dtype). */
        iron_status clash = iron__jit_check_var_clash(j, "params",
                                                      "parameter", text,
                                                      pd->name);
        if (clash != IRON_OK)
            return clash;
        if (!accept(&lx, ':'))
            return syntax(&lx, "':' and a type (" PARAM_TYPES ")");
        char *t = ident(&lx, &no_mem);
        if (!t)
            return no_mem ? oom() : syntax(&lx, "a type (" PARAM_TYPES ")");
        int found = -1;
        for (int i = 0; i <= (int)IRON_PARAM_KERNEL; i++)
            if (strcmp(t, iron__param_type_name((iron_param_type)i)) == 0)
                found = i;
        if (found < 0) {
            iron_status s = iron__fail(IRON_EINVAL,
                                       "jit params \"%s\": parameter '%s' has "
                                       "type '%s'; expected one of "
                                       PARAM_TYPES,
                                       text, pd->name, t);
            iron__free(t);
            return s;
        }
        iron__free(t);
        pd->type = (iron_param_type)found;
        pd->def.type = pd->type;
        if (accept(&lx, '=')) {
            if (pd->type == IRON_PARAM_KERNEL)
                return iron__fail(IRON_EINVAL,
                                  "jit params \"%s\": kernel parameter '%s' "
                                  "takes no default; bind one with "
                                  "iron_jit_bind or pass it per call",
                                  text, pd->name);
            iron_status s = parse_default(&lx, pd);
            if (s != IRON_OK)
                return s;
        }
    } while (accept(&lx, ','));
    skip_ws(&lx);
    if (*lx.p)
        return syntax(&lx, "',' or the end");
    return IRON_OK;
}

void iron__pval_format(const iron__pval *v, iron__str *s)
{
    switch (v->type) {
    case IRON_PARAM_INT:
        iron__str_printf(s, "%lld", (long long)v->i);
        break;
    case IRON_PARAM_FLOAT:
        iron__str_printf(s, "%.17g", v->f);
        break;
    case IRON_PARAM_BOOL:
        iron__str_append(s, v->i ? "true" : "false");
        break;
    case IRON_PARAM_STR:
        iron__str_printf(s, "'%s'", v->s ? v->s : "");
        break;
    case IRON_PARAM_DTYPE:
        iron__str_append(
            s, iron_dtype_name(v->dtype) ? iron_dtype_name(v->dtype) : "?");
        break;
    case IRON_PARAM_KERNEL: {
        /* Two kernels with one entry name differ by their source: the
         * hash tells them apart in messages and listings. */
        const iron_kernel_ref *k = &v->kernel;
        uint64_t h = k->source ? XXH3_64bits(k->source, strlen(k->source)) : 0;
        iron__str_printf(s, "kernel '%s'#%08x", k->entry ? k->entry : "?",
                         (unsigned)(h & 0xffffffffu));
        break;
    }
    }
}

iron_status iron__pval_own(iron__pval *v)
{
    if (v->type == IRON_PARAM_STR) {
        v->s = iron__strdup(v->s ? v->s : "");
        if (!v->s) {
            v->type = IRON_PARAM_INT;
            return iron__fail(IRON_ENOMEM, "out of memory copying '%s'",
                              v->name);
        }
    } else if (v->type == IRON_PARAM_KERNEL) {
        iron_kernel_ref k = { iron__strdup(v->kernel.entry),
                              iron__strdup(v->kernel.source),
                              iron__strdup(v->kernel.arg_types) };
        v->kernel = k;
        if (!k.entry || !k.source || !k.arg_types) {
            iron__pval_release(v);
            return iron__fail(IRON_ENOMEM, "out of memory copying '%s'",
                              v->name);
        }
    }
    return IRON_OK;
}

void iron__pval_release(iron__pval *v)
{
    if (v->type == IRON_PARAM_STR) {
        iron__free((char *)(uintptr_t)v->s);
        v->s = NULL;
    } else if (v->type == IRON_PARAM_KERNEL) {
        iron__free((char *)(uintptr_t)v->kernel.entry);
        iron__free((char *)(uintptr_t)v->kernel.source);
        iron__free((char *)(uintptr_t)v->kernel.arg_types);
        memset(&v->kernel, 0, sizeof v->kernel);
    }
    v->type = IRON_PARAM_INT;
}
