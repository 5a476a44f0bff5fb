/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * to_mlir.c - a body as MLIR ops in upstream's pretty form, as upstream
 * IRON prints a core's region (arith, scf, memref, func and the aie
 * objectfifo and lock ops), for the exporter (iron__body_print_mlir,
 * with the module's names) and for reading (iron_body_dump, with
 * placeholder names in MLIR's own style: %c0, %cst, %arg0, %3).
 *
 * A memref of unsigned elements (upstream writes numpy's uint8 as ui8)
 * loads and stores through builtin.unrealized_conversion_cast to and
 * from the signless integer the body computes with, since arith ops
 * take signless integers only.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body/ir.h"

typedef struct mgen {
    const iron_body *b;
    const iron__body_names *names;  /* NULL: placeholder names */
    iron__str *s;
    int indent;
    char **nm;                /* each value's name, once defined */
    int next;                 /* the next number of a fresh name */
    int next_arg;             /* placeholders: the next %argN */
    char **used;              /* placeholders: constants' names */
    int nused;
    int conflicts;            /* placeholders: the next _N suffix */
    int oom;
} mgen;

static void out(mgen *g, const char *fmt, ...) IRON__PRINTF(2, 3);
static void out(mgen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    iron__str_vprintf(g->s, fmt, ap);
    va_end(ap);
}

static void start(mgen *g, int depth)
{
    out(g, "%*s", g->indent + 2 * depth, "");
}

static const char *N(const mgen *g, iron_val v)
{
    return v >= 0 && v < g->b->vals.n && g->nm[v] ? g->nm[v] : "%<?>";
}

static char *printed(mgen *g, const char *fmt, ...) IRON__PRINTF(2, 3);
static char *printed(mgen *g, const char *fmt, ...)
{
    iron__str t = { 0 };
    va_list ap;
    va_start(ap, fmt);
    iron__str_vprintf(&t, fmt, ap);
    va_end(ap);
    char *p = iron__str_take(&t);
    if (!p)
        g->oom = 1;
    return p;
}

/* A fresh name: prefix + number, or %N / %argN as placeholders. */
static char *fresh(mgen *g, int is_arg)
{
    if (g->names)
        return printed(g, "%s%d", g->names->prefix, g->next++);
    if (is_arg)
        return printed(g, "%%arg%d", g->next_arg++);
    return printed(g, "%%%d", g->next++);
}

static void name(mgen *g, iron_val v, char *n)
{
    iron__free(g->nm[v]);
    g->nm[v] = n;
}

/* Whether placeholder name n is taken. */
static int used(const mgen *g, const char *n)
{
    for (int i = 0; i < g->nused; i++)
        if (strcmp(g->used[i], n) == 0)
            return 1;
    return 0;
}

/* A placeholder name from a base (%c0, %cst): the base the first time,
 * then base_N with N from one counter, as MLIR's printer does. */
static char *unique(mgen *g, const char *base)
{
    char *n = printed(g, "%s", base);
    while (n && used(g, n)) {
        iron__free(n);
        n = printed(g, "%s_%d", base, g->conflicts++);
    }
    char **u = n ? iron__realloc(g->used, (size_t)(g->nused + 1) * sizeof *u)
                 : NULL;
    char *copy = u ? iron__strdup(n) : NULL;
    if (u)
        g->used = u;
    if (!copy) {
        iron__free(n);
        g->oom = 1;
        return NULL;
    }
    g->used[g->nused++] = copy;
    return n;
}

/* --- types and literals -------------------------------------------------- */

static const char *T(const mgen *g, iron_val v, char *buf, size_t len)
{
    return iron__body_val_text(g->b, v, buf, len);
}

static int is_unsigned(iron_dtype dt)
{
    return dt == IRON_UINT8 || dt == IRON_UINT16 || dt == IRON_UINT32 ||
           dt == IRON_UINT64;
}

/* Whether `text` reads back as v in type t. */
static int reads_back(const char *text, double v, iron_body_type t)
{
    double r = strtod(text, NULL);
    if (t == IRON_BT_F64)
        return memcmp(&r, &v, sizeof r) == 0;
    if (t == IRON_BT_F32) {
        float a = (float)r, b = (float)v;
        return memcmp(&a, &b, sizeof a) == 0;
    }
    return iron_bf16_from_float((float)r) == iron_bf16_from_float((float)v);
}

/* A float constant as MLIR prints it: 1.500000e+00 when that reads
 * back exactly, else more digits, else (NaN, infinities) the bits. */
static void float_lit(mgen *g, double v, iron_body_type t)
{
    char buf[64];
    if (v == v && v - v == 0) {
        snprintf(buf, sizeof buf, "%.6e", v);
        if (reads_back(buf, v, t)) {
            out(g, "%s", buf);
            return;
        }
        snprintf(buf, sizeof buf, "%.*e", t == IRON_BT_F64 ? 16 : 8, v);
        if (reads_back(buf, v, t)) {
            out(g, "%s", buf);
            return;
        }
    }
    if (t == IRON_BT_F64) {
        uint64_t u;
        memcpy(&u, &v, sizeof u);
        out(g, "0x%016" PRIX64, u);
    } else if (t == IRON_BT_F32) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        out(g, "0x%08" PRIX32, u);
    } else {
        out(g, "0x%04X", (unsigned)iron_bf16_from_float((float)v));
    }
}

/* --- parameters ---------------------------------------------------------- */

/* A symbol: bare when MLIR's bare-id allows, else quoted. */
static char *symbol(mgen *g, const char *s)
{
    int bare = (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
               s[0] == '_';
    for (const char *p = s; bare && *p; p++)
        bare = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
               (*p >= '0' && *p <= '9') || *p == '_' || *p == '$' ||
               *p == '.';
    if (bare)
        return printed(g, "@%s", s);
    iron__str t = { 0 };
    iron__str_append(&t, "@\"");
    for (const char *p = s; *p; p++)
        iron__str_printf(&t, (*p == '"' || *p == '\\') ? "\\%c" : "%c", *p);
    iron__str_append(&t, "\"");
    char *r = iron__str_take(&t);
    if (!r)
        g->oom = 1;
    return r;
}

/* An SSA name made of s: characters MLIR does not allow become '_', and
 * a name the placeholders use gets a '_' in front. */
static char *ssa_name(mgen *g, const char *s)
{
    iron__str t = { 0 };
    iron__str_append(&t, "%");
    /* %12 and %arg3 are the placeholders' own */
    size_t digits = strspn(s + (strncmp(s, "arg", 3) == 0 ? 3 : 0),
                           "0123456789");
    if ((*s >= '0' && *s <= '9') ||
        (strncmp(s, "arg", 3) == 0 && digits > 0 && !s[3 + digits]))
        iron__str_append(&t, "_");
    for (const char *p = s; *p; p++) {
        char c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '_' || c == '$' ||
                 c == '.' || c == '-';
        iron__str_printf(&t, "%c", ok ? c : '_');
    }
    char *r = iron__str_take(&t);
    if (!r)
        g->oom = 1;
    return r;
}

/* Each parameter's name: its value's name for buffers and locks, a
 * symbol (kept in nm too) for fifos and kernels. */
static void name_params(mgen *g)
{
    const iron_body *b = g->b;
    for (int i = 0; i < b->params.n; i++) {
        const iron__body_param *p = &b->params.v[i];
        iron_val v = b->param_val.v[i];
        if (g->names) {
            const char *n = g->names->param[i];
            name(g, v, p->kind == IRON__BP_FIFO || p->kind == IRON__BP_KERNEL
                           ? printed(g, "@%s", n)
                           : printed(g, "%s", n));
            continue;
        }
        switch (p->kind) {
        case IRON__BP_FIFO:
            name(g, v, symbol(g, p->h->fifo->name));
            break;
        case IRON__BP_KERNEL:
            name(g, v, symbol(g, p->kernel->entry));
            break;
        case IRON__BP_RTP:
        case IRON__BP_BARRIER: {
            char *n = ssa_name(g, p->kind == IRON__BP_RTP
                                      ? p->rtp->name
                                      : p->barrier->name);
            name(g, v, n ? unique(g, n) : NULL);
            iron__free(n);
            break;
        }
        }
    }
}

/* --- ops ----------------------------------------------------------------- */

static iron_val in(const mgen *g, const iron__bop *op, int k)
{
    return g->b->pool.v[op->in + k];
}

static iron_val res(const mgen *g, const iron__bop *op, int k)
{
    return g->b->pool.v[op->out + k];
}

/* Names op's results (%r, or %r:n with %r#k) and prints "%r = " or
 * "%r:n = "; nothing for no results. */
static void results(mgen *g, const iron__bop *op)
{
    if (op->nout == 0)
        return;
    char *base = fresh(g, 0);
    if (!base)
        return;
    for (int k = 0; k < op->nout; k++)
        name(g, res(g, op, k),
             op->nout == 1 ? printed(g, "%s", base)
                           : printed(g, "%s#%d", base, k));
    if (op->nout == 1)
        out(g, "%s = ", base);
    else
        out(g, "%s:%d = ", base, op->nout);
    iron__free(base);
}

/* "%a, %b" and "i32, f32" of n values at pool offset at. */
static void list(mgen *g, int at, int n)
{
    for (int k = 0; k < n; k++)
        out(g, "%s%s", k ? ", " : "", N(g, g->b->pool.v[at + k]));
}

static void types(mgen *g, int at, int n)
{
    char t[192];
    for (int k = 0; k < n; k++)
        out(g, "%s%s", k ? ", " : "", T(g, g->b->pool.v[at + k], t, sizeof t));
}

static void region(mgen *g, int r, int depth);

/* scf.yield of a closed region's values (nothing for none: MLIR's
 * printer leaves an empty yield out). */
static void yield(mgen *g, const iron__breg *r, int depth, int always)
{
    if (r->nterm == 0 && !always)
        return;
    start(g, depth);
    out(g, "scf.yield");
    if (r->nterm > 0) {
        out(g, " ");
        list(g, r->term, r->nterm);
        out(g, " : ");
        types(g, r->term, r->nterm);
    }
    out(g, "\n");
}

static void print_const(mgen *g, const iron__bop *op, int depth)
{
    iron_val v = res(g, op, 0);
    iron_body_type t = g->b->vals.v[v].t;
    char *n;
    if (g->names)
        n = fresh(g, 0);
    else if (t == IRON_BT_I1)
        n = unique(g, op->imm ? "%true" : "%false");
    else if (iron__body_is_float(t))
        n = unique(g, "%cst");
    else {
        char base[48];
        if (t == IRON_BT_INDEX)
            snprintf(base, sizeof base, "%%c%lld", (long long)op->imm);
        else
            snprintf(base, sizeof base, "%%c%lld_%s", (long long)op->imm,
                     iron__body_scalar_text(t));
        n = unique(g, base);
    }
    name(g, v, n);
    start(g, depth);
    out(g, "%s = arith.constant ", N(g, v));
    if (t == IRON_BT_I1)
        out(g, "%s\n", op->imm ? "true" : "false");
    else if (iron__body_is_float(t)) {
        float_lit(g, op->fimm, t);
        out(g, " : %s\n", iron__body_scalar_text(t));
    } else
        out(g, "%lld : %s\n", (long long)op->imm, iron__body_scalar_text(t));
}

static void print_for(mgen *g, const iron__bop *op, int depth)
{
    const iron__breg *r = &g->b->regs.v[op->reg[0]];
    int n = op->nin - 3;
    char t[192];
    start(g, depth);
    results(g, op);
    for (int k = 0; k < r->nargs; k++)
        name(g, g->b->pool.v[r->args + k], fresh(g, 1));
    out(g, "scf.for %s = %s to %s step %s", N(g, g->b->pool.v[r->args]),
        N(g, in(g, op, 0)), N(g, in(g, op, 1)), N(g, in(g, op, 2)));
    if (n > 0) {
        out(g, " iter_args(");
        for (int k = 0; k < n; k++)
            out(g, "%s%s = %s", k ? ", " : "",
                N(g, g->b->pool.v[r->args + 1 + k]), N(g, in(g, op, 3 + k)));
        out(g, ") -> (");
        for (int k = 0; k < n; k++)
            out(g, "%s%s", k ? ", " : "", T(g, in(g, op, 3 + k), t, sizeof t));
        out(g, ")");
    }
    out(g, " {\n");
    region(g, op->reg[0], depth + 1);
    if (!r->open)
        yield(g, r, depth + 1, 0);
    start(g, depth);
    out(g, "}\n");
}

static void print_while(mgen *g, const iron__bop *op, int depth)
{
    const iron__breg *before = &g->b->regs.v[op->reg[0]];
    start(g, depth);
    results(g, op);
    for (int k = 0; k < before->nargs; k++)
        name(g, g->b->pool.v[before->args + k], fresh(g, 1));
    out(g, "scf.while ");
    if (op->nin > 0) {
        out(g, "(");
        for (int k = 0; k < op->nin; k++)
            out(g, "%s%s = %s", k ? ", " : "",
                N(g, g->b->pool.v[before->args + k]), N(g, in(g, op, k)));
        out(g, ") ");
    }
    out(g, ": (");
    types(g, op->in, op->nin);
    out(g, ") -> (");
    types(g, before->term, before->nterm);
    out(g, ") {\n");
    region(g, op->reg[0], depth + 1);
    if (!before->open) {
        start(g, depth + 1);
        out(g, "scf.condition(%s)", N(g, before->cond));
        if (before->nterm > 0) {
            out(g, " ");
            list(g, before->term, before->nterm);
            out(g, " : ");
            types(g, before->term, before->nterm);
        }
        out(g, "\n");
    }
    if (op->reg[1] >= 0) {
        const iron__breg *after = &g->b->regs.v[op->reg[1]];
        start(g, depth);
        out(g, "} do {\n");
        if (after->nargs > 0) {
            start(g, depth);
            out(g, "^bb0(");
            char t[192];
            for (int k = 0; k < after->nargs; k++) {
                iron_val a = g->b->pool.v[after->args + k];
                name(g, a, fresh(g, 1));
                out(g, "%s%s: %s", k ? ", " : "", N(g, a),
                    T(g, a, t, sizeof t));
            }
            out(g, "):\n");
        }
        region(g, op->reg[1], depth + 1);
        if (!after->open)
            yield(g, after, depth + 1, 1);
    }
    start(g, depth);
    out(g, "}\n");
}

static void print_if(mgen *g, const iron__bop *op, int depth)
{
    const iron__breg *then = &g->b->regs.v[op->reg[0]];
    start(g, depth);
    results(g, op);
    out(g, "scf.if %s", N(g, in(g, op, 0)));
    if (op->nout > 0) {
        out(g, " -> (");
        types(g, op->out, op->nout);
        out(g, ")");
    }
    out(g, " {\n");
    region(g, op->reg[0], depth + 1);
    if (!then->open)
        yield(g, then, depth + 1, 0);
    if (op->reg[1] >= 0) {
        const iron__breg *els = &g->b->regs.v[op->reg[1]];
        start(g, depth);
        out(g, "} else {\n");
        region(g, op->reg[1], depth + 1);
        if (!els->open)
            yield(g, els, depth + 1, 0);
    }
    start(g, depth);
    out(g, "}\n");
}

static const char *port(const mgen *g, const iron__bop *op)
{
    return g->b->params.v[op->param].h->is_prod ? "Produce" : "Consume";
}

/* "memref.load %m[%i, %j]" / "memref.store %v, %m[%i]", with the casts
 * an unsigned element type needs. */
static void print_access(mgen *g, const iron__bop *op, int depth)
{
    int store = op->kind == IRON__BOP_STORE;
    iron_val mem = in(g, op, store ? 1 : 0);
    const iron__bval *m = &g->b->vals.v[mem];
    const char *st = iron__body_scalar_text(iron__body_elem_type(m->dtype));
    const char *ut = iron__body_dtype_text(m->dtype);
    int cast = is_unsigned(m->dtype);
    char mt[192], *tmp = NULL;
    T(g, mem, mt, sizeof mt);
    if (cast)
        tmp = fresh(g, 0);
    if (store && cast) {
        start(g, depth);
        out(g, "%s = builtin.unrealized_conversion_cast %s : %s to %s\n",
            tmp ? tmp : "%<?>", N(g, in(g, op, 0)), st, ut);
    }
    start(g, depth);
    if (store) {
        out(g, "memref.store %s, %s[", cast && tmp ? tmp : N(g, in(g, op, 0)),
            N(g, mem));
        list(g, op->in + 2, op->nin - 2);
    } else {
        if (cast)
            out(g, "%s = memref.load %s[", tmp ? tmp : "%<?>", N(g, mem));
        else {
            results(g, op);
            out(g, "memref.load %s[", N(g, mem));
        }
        list(g, op->in + 1, op->nin - 1);
    }
    out(g, "] : %s\n", mt);
    if (!store && cast) {
        start(g, depth);
        results(g, op);
        out(g, "builtin.unrealized_conversion_cast %s : %s to %s\n",
            tmp ? tmp : "%<?>", ut, st);
    }
    iron__free(tmp);
}

static void print_op(mgen *g, int i, int depth)
{
    const iron__bop *op = &g->b->ops.v[i];
    char t[192], u[192];
    switch (op->kind) {
    case IRON__BOP_CONST:
        print_const(g, op, depth);
        return;
    case IRON__BOP_FOR:
        print_for(g, op, depth);
        return;
    case IRON__BOP_WHILE:
        print_while(g, op, depth);
        return;
    case IRON__BOP_IF:
        print_if(g, op, depth);
        return;
    case IRON__BOP_LOAD:
    case IRON__BOP_STORE:
        print_access(g, op, depth);
        return;
    default:
        break;
    }
    start(g, depth);
    results(g, op);
    switch (op->kind) {
    case IRON__BOP_ARITH:
        if (op->nin == 1)
            out(g, "%s %s : %s\n", iron__body_arith_name(op->sub),
                N(g, in(g, op, 0)), T(g, in(g, op, 0), t, sizeof t));
        else
            out(g, "%s %s, %s : %s\n", iron__body_arith_name(op->sub),
                N(g, in(g, op, 0)), N(g, in(g, op, 1)),
                T(g, in(g, op, 0), t, sizeof t));
        break;
    case IRON__BOP_CAST:
        out(g, "%s %s : %s to %s\n", iron__body_arith_name(op->sub),
            N(g, in(g, op, 0)), T(g, in(g, op, 0), t, sizeof t),
            T(g, res(g, op, 0), u, sizeof u));
        break;
    case IRON__BOP_CMP:
        out(g, "arith.cmp%c %s, %s, %s : %s\n",
            op->sub >= IRON_CMP_OEQ ? 'f' : 'i',
            iron__body_cmp_name(op->sub), N(g, in(g, op, 0)),
            N(g, in(g, op, 1)), T(g, in(g, op, 0), t, sizeof t));
        break;
    case IRON__BOP_SELECT:
        out(g, "arith.select %s, %s, %s : %s\n", N(g, in(g, op, 0)),
            N(g, in(g, op, 1)), N(g, in(g, op, 2)),
            T(g, in(g, op, 1), t, sizeof t));
        break;
    case IRON__BOP_ACQUIRE:
        out(g, "aie.objectfifo.acquire %s(%s, %d) : %s\n",
            N(g, g->b->param_val.v[op->param]), port(g, op), (int)op->imm,
            T(g, res(g, op, 0), t, sizeof t));
        break;
    case IRON__BOP_OBJECT:
        out(g, "aie.objectfifo.subview.access %s[%d] : %s -> %s\n",
            N(g, in(g, op, 0)), (int)op->imm,
            T(g, in(g, op, 0), t, sizeof t),
            T(g, res(g, op, 0), u, sizeof u));
        break;
    case IRON__BOP_RELEASE:
        out(g, "aie.objectfifo.release %s(%s, %d)\n",
            N(g, g->b->param_val.v[op->param]), port(g, op), (int)op->imm);
        break;
    case IRON__BOP_CALL:
        out(g, "func.call %s(", N(g, g->b->param_val.v[op->param]));
        list(g, op->in, op->nin);
        out(g, ") : (");
        types(g, op->in, op->nin);
        out(g, ") -> ()\n");
        break;
    case IRON__BOP_BARRIER_WAIT:
    case IRON__BOP_BARRIER_RELEASE:
        out(g, "aie.use_lock(%s, %s, %d)\n",
            N(g, g->b->param_val.v[op->param]),
            op->kind == IRON__BOP_BARRIER_WAIT ? "Acquire" : "Release",
            (int)op->imm);
        break;
    default:
        break;
    }
}

static void region(mgen *g, int r, int depth)
{
    for (int i = g->b->regs.v[r].first; i >= 0; i = g->b->ops.v[i].next)
        print_op(g, i, depth);
}

static iron_status print(const iron_body *b, const iron__body_names *names,
                         int indent, iron__str *s)
{
    mgen g = { 0 };
    g.b = b;
    g.names = names;
    g.s = s;
    g.indent = indent;
    g.nm = iron__calloc((size_t)b->vals.n + 1, sizeof *g.nm);
    if (!g.nm)
        return iron__fail(IRON_ENOMEM, "out of memory printing body '%s'",
                          b->name);
    name_params(&g);
    region(&g, 0, 0);
    for (int v = 0; v < b->vals.n; v++)
        iron__free(g.nm[v]);
    iron__free(g.nm);
    for (int i = 0; i < g.nused; i++)
        iron__free(g.used[i]);
    iron__free(g.used);
    if (g.oom || s->oom)
        return iron__fail(IRON_ENOMEM, "out of memory printing body '%s'",
                          b->name);
    return IRON_OK;
}

iron_status iron__body_print_mlir(const iron_body *b,
                                  const iron__body_names *names, int indent,
                                  iron__str *s)
{
    return print(b, names, indent, s);
}

IRON_API iron_status iron_body_dump(const iron_body *b, char **out)
{
    if (out)
        *out = NULL;
    if (!b || !out)
        return iron__fail(IRON_EINVAL, "iron_body_dump: %s is NULL",
                          !b ? "body" : "out");
    iron__str s = { 0 };
    iron_status st = print(b, NULL, 0, &s);
    if (st != IRON_OK) {
        iron__str_free(&s);
        return st;
    }
    *out = iron__str_take(&s);
    if (!*out)
        return iron__fail(IRON_ENOMEM, "out of memory dumping body '%s'",
                          b->name);
    return iron__public_result(IRON_OK);
}

const char *iron__body_call_type(const iron_body *b, const iron_kernel *k,
                                 int i, iron__str *scratch)
{
    if (!b || !k || !scratch || i < 0 || i >= k->nargs)
        return NULL;
    for (int o = 0; o < b->ops.n; o++) {
        const iron__bop *op = &b->ops.v[o];
        if (op->kind != IRON__BOP_CALL ||
            b->params.v[op->param].kernel != k)
            continue;
        char t[192];
        iron__body_val_text(b, b->pool.v[op->in + i], t, sizeof t);
        scratch->len = 0;
        if (scratch->p)
            scratch->p[0] = '\0';
        iron__str_append(scratch, t);
        return scratch->oom ? NULL : iron__str_get(scratch);
    }
    return NULL;
}
