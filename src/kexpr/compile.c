/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compile.c - a declared cost's text to its compiled form (kexpr layer):
 * a recursive-descent parser that emits postfix operations, folds the
 * parts that use no argument, and reports the first problem with its
 * column.  Runs once per iron_kernel_set_cycles, never per call.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "kexpr/compiled.h"

typedef struct parser {
    const char *text, *at;
    const char *kernel;
    int nparams;
    const iron__kexpr_param *params;
    kx_op ops[IRON__KEXPR_OPS_MAX];
    int nops;
    int stack, depth;          /* the evaluation stack: now and deepest */
    int nesting;               /* open parentheses and unary minuses */
    unsigned used;             /* bit i: argument i is read */
    iron_status status;        /* the first failure (then nothing more is
                                  emitted or reported) */
} parser;

/* What a parsed part is: a constant (folded into one KX_CONST, the last
 * op) or not. */
typedef struct part {
    int is_const;
    int64_t v;
} part;

static int col_of(const parser *p, const char *at)
{
    return (int)(at - p->text) + 1;
}

static iron_status fail_at(parser *p, const char *at, const char *fmt, ...)
    IRON__PRINTF(3, 4);

/* Records the first failure: `cycles "TEXT": column C: ...`. */
static iron_status fail_at(parser *p, const char *at, const char *fmt, ...)
{
    if (p->status != IRON_OK)
        return p->status;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return p->status = iron__fail(IRON_EINVAL, "cycles \"%s\": column %d: %s",
                                  p->text, col_of(p, at), msg);
}

static void skip_blank(parser *p)
{
    while (*p->at == ' ' || *p->at == '\t')
        p->at++;
}

static int is_name_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The token at `at`, quoted for a message: "the end", "'n'", "'42'",
 * "'#'". */
static const char *token_text(const char *at, char *buf, size_t len)
{
    if (!*at)
        return "the end";
    int n = 1;
    if (is_name_char(*at))
        while (n < 40 && is_name_char(at[n]))
            n++;
    snprintf(buf, len, "'%.*s'", n, at);
    return buf;
}

static void emit(parser *p, kx_kind kind, int32_t arg, int64_t v)
{
    if (p->status != IRON_OK)
        return;
    if (p->nops == IRON__KEXPR_OPS_MAX) {
        fail_at(p, p->at, "more than %d operations; a declared cost is a "
                "short formula", IRON__KEXPR_OPS_MAX);
        return;
    }
    p->ops[p->nops++] = (kx_op){ (int32_t)kind, arg, v };
    p->stack += kind == KX_CONST || kind == KX_ARG ? 1
                : kind == KX_NEG                   ? 0
                                                   : -1;
    if (p->stack > p->depth)
        p->depth = p->stack;
    if (p->depth > IRON__KEXPR_DEPTH_MAX)
        fail_at(p, p->at, "nested more than %d deep", IRON__KEXPR_DEPTH_MAX);
}

static part expr(parser *p);

/* The argument an identifier or $N at `at` names, as a pushed KX_ARG. */
static part argument(parser *p, const char *at, int index, const char *word)
{
    const iron__kexpr_param *a = &p->params[index];
    char how[80];
    if (a->name && word[0] != '$')
        snprintf(how, sizeof how, "argument '%s' ($%d)", a->name, index);
    else if (a->name)
        snprintf(how, sizeof how, "argument $%d ('%s')", index, a->name);
    else
        snprintf(how, sizeof how, "argument $%d", index);
    const char *decl = a->decl ? a->decl : iron_dtype_name(a->dtype);
    if (a->decl || a->is_ptr)
        fail_at(p, at, "%s is declared '%s%s', not a scalar; a cost is "
                "computed from the integer scalars a call passes",
                how, decl ? decl : "?", !a->decl && a->is_ptr ? "*" : "");
    else if (a->dtype == IRON_FLOAT32 || a->dtype == IRON_FLOAT64 ||
             a->dtype == IRON_BFLOAT16)
        fail_at(p, at, "%s is declared '%s', a float; a cost is computed "
                "from integer scalars", how, decl ? decl : "?");
    p->used |= 1u << index;
    emit(p, KX_ARG, index, 0);
    return (part){ 0, 0 };
}

/* The kernel's argument names ("in, out, n") and the one closest to
 * word, for an unknown name. */
static iron_status unknown_name(parser *p, const char *at, const char *word)
{
    const char *names[IRON__MAX_KARGS];
    int n = 0;
    char list[IRON__MAX_KARGS * 40] = "";
    size_t len = 0;
    for (int i = 0; i < p->nparams; i++)
        if (p->params[i].name) {
            names[n++] = p->params[i].name;
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                    len ? ", " : "", p->params[i].name);
            if (len >= sizeof list)
                len = sizeof list - 1;
        }
    if (p->nparams == 0)
        return fail_at(p, at, "'%s': kernel '%s' takes no arguments, so its "
                       "cost is a count", word, p->kernel);
    if (n == 0)
        return fail_at(p, at, "'%s' is not an argument of kernel '%s', whose "
                       "declaration names none (name them there, as in "
                       "\"int32* in, int32 n\", or write $0 .. $%d by "
                       "position)", word, p->kernel, p->nparams - 1);
    const char *near = iron_closest_name(word, names, n);
    char hint[80] = "";
    if (near)
        snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
    return fail_at(p, at, "'%s' is not an argument of kernel '%s' (its "
                   "named arguments: %s%s)", word, p->kernel, list, hint);
}

/* min(a, b) and max(a, b), the name read. */
static part call(parser *p, kx_kind kind, const char *name_at)
{
    part r = { 0, 0 };
    p->at++;   /* '(' */
    int start = p->nops;
    part a = expr(p);
    skip_blank(p);
    char buf[48];
    if (*p->at != ',') {
        fail_at(p, p->at, "expected ',' between %s's two operands, got %s",
                kind == KX_MIN ? "min" : "max",
                token_text(p->at, buf, sizeof buf));
        return r;
    }
    p->at++;
    part b = expr(p);
    skip_blank(p);
    if (*p->at != ')') {
        fail_at(p, p->at, "expected ')' to close the %s( at column %d, "
                "got %s", kind == KX_MIN ? "min" : "max",
                col_of(p, name_at), token_text(p->at, buf, sizeof buf));
        return r;
    }
    p->at++;
    if (p->status != IRON_OK)
        return r;
    if (a.is_const && b.is_const) {
        iron__kexpr_apply(kind, a.v, b.v, &r.v);
        p->nops = start;
        p->stack -= 2;
        r.is_const = 1;
        emit(p, KX_CONST, 0, r.v);
        return r;
    }
    emit(p, kind, 0, 0);
    return r;
}

static part primary(parser *p)
{
    part r = { 0, 0 };
    skip_blank(p);
    const char *at = p->at;
    char buf[48];
    if (isdigit((unsigned char)*at)) {
        int64_t v = 0;
        while (isdigit((unsigned char)*p->at)) {
            if (__builtin_mul_overflow(v, 10, &v) ||
                __builtin_add_overflow(v, *p->at - '0', &v)) {
                fail_at(p, at, "the number overflows 64 bits (at most "
                        "%lld)", (long long)INT64_MAX);
                return r;
            }
            p->at++;
        }
        if (is_name_char(*p->at)) {
            fail_at(p, p->at, "expected an operator after the number, got "
                    "%s (numbers are decimal integers)",
                    token_text(p->at, buf, sizeof buf));
            return r;
        }
        emit(p, KX_CONST, 0, v);
        return (part){ 1, v };
    }
    if (*at == '$') {
        p->at++;
        if (!isdigit((unsigned char)*p->at)) {
            fail_at(p, at, "expected an argument's position after '$', as "
                    "in $0, got %s", token_text(p->at, buf, sizeof buf));
            return r;
        }
        long pos = 0;
        while (isdigit((unsigned char)*p->at) && pos < 1000)
            pos = pos * 10 + (*p->at++ - '0');
        if (pos >= p->nparams) {
            char range[32] = "";
            if (p->nparams == 1)
                snprintf(range, sizeof range, " ($0)");
            else if (p->nparams > 1)
                snprintf(range, sizeof range, " ($0 .. $%d)",
                         p->nparams - 1);
            fail_at(p, at, "$%ld: kernel '%s' has %d argument%s%s", pos,
                    p->kernel, p->nparams, p->nparams == 1 ? "" : "s",
                    range);
            return r;
        }
        char word[32];
        snprintf(word, sizeof word, "$%ld", pos);
        return argument(p, at, (int)pos, word);
    }
    if (is_name_start(*at)) {
        while (is_name_char(*p->at))
            p->at++;
        int wlen = (int)(p->at - at);
        char word[64];
        snprintf(word, sizeof word, "%.*s", wlen, at);
        const char *after = p->at;
        while (*after == ' ' || *after == '\t')
            after++;
        if (*after == '(' && (strcmp(word, "min") == 0 ||
                              strcmp(word, "max") == 0)) {
            p->at = after;
            if (++p->nesting > IRON__KEXPR_DEPTH_MAX) {
                fail_at(p, at, "nested more than %d deep",
                        IRON__KEXPR_DEPTH_MAX);
                return r;
            }
            r = call(p, word[1] == 'i' ? KX_MIN : KX_MAX, at);
            p->nesting--;
            return r;
        }
        for (int i = 0; i < p->nparams; i++)
            if (p->params[i].name && strlen(p->params[i].name) ==
                    (size_t)wlen && memcmp(p->params[i].name, at, wlen) == 0)
                return argument(p, at, i, word);
        unknown_name(p, at, word);
        return r;
    }
    if (*at == '(') {
        p->at++;
        if (++p->nesting > IRON__KEXPR_DEPTH_MAX) {
            fail_at(p, at, "nested more than %d deep", IRON__KEXPR_DEPTH_MAX);
            return r;
        }
        r = expr(p);
        p->nesting--;
        skip_blank(p);
        if (p->status != IRON_OK)
            return r;   /* p->at may be at the end: step no further */
        if (*p->at != ')') {
            fail_at(p, p->at, "expected ')' to close the '(' at column %d, "
                    "got %s", col_of(p, at),
                    token_text(p->at, buf, sizeof buf));
            return r;
        }
        p->at++;
        return r;
    }
    fail_at(p, at, "expected a number, an argument, '(' or min(a, b) / "
            "max(a, b), got %s", token_text(at, buf, sizeof buf));
    return r;
}

static part unary(parser *p)
{
    skip_blank(p);
    if (*p->at != '-' && *p->at != '+')
        return primary(p);
    const char *at = p->at;
    int neg = *p->at++ == '-';
    if (++p->nesting > IRON__KEXPR_DEPTH_MAX) {
        fail_at(p, at, "nested more than %d deep", IRON__KEXPR_DEPTH_MAX);
        return (part){ 0, 0 };
    }
    part r = unary(p);
    p->nesting--;
    if (!neg || p->status != IRON_OK)
        return r;
    if (!r.is_const) {
        emit(p, KX_NEG, 0, 0);
        return r;
    }
    if (iron__kexpr_apply(KX_NEG, r.v, 0, &r.v) != KX_OK)
        fail_at(p, at, "-(%lld) overflows 64 bits", (long long)INT64_MIN);
    p->ops[p->nops - 1].v = r.v;
    return r;
}

/* Applies `kind` to the two parts just parsed (b's ops start at b_start,
 * a's at a_start), folding when both are constants. */
static part binary(parser *p, kx_kind kind, const char *op_at, part a,
                   int a_start, part b)
{
    part r = { 0, 0 };
    if (p->status != IRON_OK)
        return r;
    if (b.is_const && b.v == 0 && (kind == KX_DIV || kind == KX_MOD))
        fail_at(p, op_at, "%s by a constant zero",
                kind == KX_DIV ? "division" : "remainder");
    if (!a.is_const || !b.is_const) {
        emit(p, kind, 0, 0);
        return r;
    }
    if (iron__kexpr_apply(kind, a.v, b.v, &r.v) != KX_OK) {
        fail_at(p, op_at, "%lld %c %lld overflows 64 bits", (long long)a.v,
                *op_at, (long long)b.v);
        return r;
    }
    p->nops = a_start;
    p->stack -= 2;
    r.is_const = 1;
    emit(p, KX_CONST, 0, r.v);
    return r;
}

static part term(parser *p)
{
    int start = p->nops;
    part a = unary(p);
    for (;;) {
        skip_blank(p);
        char c = *p->at;
        if (p->status != IRON_OK || (c != '*' && c != '/' && c != '%'))
            return a;
        const char *op_at = p->at++;
        part b = unary(p);
        a = binary(p, c == '*' ? KX_MUL : c == '/' ? KX_DIV : KX_MOD, op_at,
                   a, start, b);
    }
}

static part expr(parser *p)
{
    int start = p->nops;
    part a = term(p);
    for (;;) {
        skip_blank(p);
        char c = *p->at;
        if (p->status != IRON_OK || (c != '+' && c != '-'))
            return a;
        const char *op_at = p->at++;
        part b = term(p);
        a = binary(p, c == '+' ? KX_ADD : KX_SUB, op_at, a, start, b);
    }
}

iron_status iron__kexpr_compile(const char *text, const char *kernel,
                                int nparams, const iron__kexpr_param *params,
                                iron__kexpr **out)
{
    if (out)
        *out = NULL;
    if (!text || !kernel || !out || nparams < 0 ||
        nparams > IRON__MAX_KARGS || (nparams > 0 && !params))
        return iron__fail(IRON_EINVAL, "iron__kexpr_compile: text, kernel "
                          "and out must be set, and 0 <= nparams (%d) <= %d "
                          "with params", nparams, IRON__MAX_KARGS);
    size_t tlen = strlen(text);
    if (tlen > IRON__KEXPR_TEXT_MAX)
        return iron__fail(IRON_EINVAL, "cycles \"%.40s...\": %zu characters; "
                          "a declared cost has at most %d", text, tlen,
                          IRON__KEXPR_TEXT_MAX);
    const char *t = text;
    while (*t == ' ' || *t == '\t')
        t++;
    if (!*t)
        return iron__fail(IRON_EINVAL, "cycles \"%s\": empty (expected a "
                          "count such as \"5000\" or a formula of the "
                          "kernel's scalar arguments)", text);
    for (const char *c = text; *c; c++)
        if (*c == '\n' || *c == '\r')
            return iron__fail(IRON_EINVAL, "cycles: column %d: a line "
                              "break; a declared cost is one line",
                              (int)(c - text) + 1);
    /* The parser's tables are a few KiB: on the heap, not the stack. */
    parser *p = iron__calloc(1, sizeof *p);
    if (!p)
        return iron__fail(IRON_ENOMEM, "out of memory compiling cycles "
                          "\"%s\"", text);
    p->text = p->at = text;
    p->kernel = kernel;
    p->nparams = nparams;
    p->params = params;
    p->status = IRON_OK;
    part whole = expr(p);
    skip_blank(p);
    char buf[48];
    if (p->status == IRON_OK && *p->at)
        fail_at(p, p->at, "expected an operator (+ - * / %%) or the end, "
                "got %s", token_text(p->at, buf, sizeof buf));
    if (p->status == IRON_OK && whole.is_const && whole.v < 0)
        iron__fail(p->status = IRON_EINVAL, "cycles \"%s\" is %lld; a "
                   "declared cost is at least 0 cycles", text,
                   (long long)whole.v);
    iron_status s = p->status;
    if (s != IRON_OK) {
        iron__free(p);
        return s;
    }
    IRON__ASSERT(p->stack == 1, "a well-formed expression leaves one value");

    /* The block: header, ops, then the strings (text, kernel, names). */
    iron__str names = { 0 };
    kx_use use[IRON__MAX_KARGS];
    int nuse = 0;
    size_t klen = strlen(kernel);
    uint32_t at = (uint32_t)(tlen + 1 + klen + 1);
    for (int i = 0; i < nparams; i++) {
        if (!(p->used & (1u << i)))
            continue;
        use[nuse].index = i;
        use[nuse].dtype = params[i].dtype;
        use[nuse].name = at + (uint32_t)names.len;
        if (params[i].name)
            iron__str_append(&names, params[i].name);
        else
            iron__str_printf(&names, "$%d", i);
        iron__str_append(&names, "|");   /* becomes the NUL below */
        nuse++;
    }
    size_t bytes = sizeof(iron__kexpr) + (size_t)p->nops * sizeof(kx_op) +
                   at + names.len;
    iron__kexpr *e = names.oom ? NULL : iron__calloc(1, bytes);
    if (!e) {
        iron__str_free(&names);
        iron__free(p);
        return iron__fail(IRON_ENOMEM, "out of memory compiling cycles "
                          "\"%s\"", text);
    }
    e->bytes = bytes;
    e->nops = p->nops;
    e->depth = p->depth;
    e->nuse = nuse;
    memcpy(e->use, use, (size_t)nuse * sizeof *use);
    memcpy(e->ops, p->ops, (size_t)p->nops * sizeof(kx_op));
    char *strs = (char *)(e->ops + e->nops);
    e->text = 0;
    memcpy(strs, text, tlen + 1);
    e->kernel = (uint32_t)(tlen + 1);
    memcpy(strs + e->kernel, kernel, klen + 1);
    for (size_t i = 0; i < names.len; i++)
        strs[at + i] = names.p[i] == '|' ? '\0' : names.p[i];
    iron__str_free(&names);
    iron__free(p);
    *out = e;
    return IRON_OK;
}

iron__kexpr *iron__kexpr_copy(const iron__kexpr *e)
{
    if (!e)
        return NULL;
    iron__kexpr *c = iron__malloc(e->bytes);
    if (c)
        memcpy(c, e, e->bytes);
    return c;
}

void iron__kexpr_free(iron__kexpr *e)
{
    iron__free(e);
}

const char *iron__kexpr_text(const iron__kexpr *e)
{
    return iron__kexpr_str(e, e->text);
}

int iron__kexpr_is_constant(const iron__kexpr *e, int64_t *value)
{
    if (e->nops != 1 || e->ops[0].kind != KX_CONST)
        return 0;
    if (value)
        *value = e->ops[0].v;
    return 1;
}
