/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_body.c - a core body (src/body's IR, read through body/ir.h) as
 * MLIR ops in the tree, as upstream IRON builds a core's region (arith,
 * scf, memref, func.call and the aie objectfifo and lock ops): for the
 * exporter, with the module's names, and for iron_body_dump, with
 * placeholder names in MLIR's own style (%c0, %cst, %arg0, %3).
 *
 * The ops are those the parser makes of their text: terminators the
 * custom forms leave out (an scf.yield without values) are there, float
 * constants hold the decimal upstream prints (the shortest that reads
 * back in their type) and an open region of a body still being built
 * has no terminator.  A memref of unsigned elements (upstream writes
 * numpy's uint8 as ui8) is loaded and stored through
 * builtin.unrealized_conversion_cast to and from the signless integer
 * the body computes with, since arith ops take signless integers only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body/ir.h"
#include "mlir/export.h"

typedef iron__mlir_op O;

typedef struct gen {
    iron__mlir_b *mb;
    const iron_body *b;
    const char *prefix;       /* "%w0_"; NULL: placeholder names */
    int *id;                  /* per body value: the tree's value */
    const char **sym;         /* per parameter: its fifo's or kernel's */
    int next, next_arg;       /* the next fresh name's numbers */
    int conflicts;            /* placeholders: the next _N suffix */
    int first;                /* the tree's first value of this body */
} gen;

/* --- types --------------------------------------------------------------- */

static iron__mlir_type *scalar(iron__mlir_b *mb, iron_body_type t)
{
    return iron__mlir_b_scalar(mb, iron__body_scalar_text(t));
}

static int is_unsigned(iron_dtype dt)
{
    return dt == IRON_UINT8 || dt == IRON_UINT16 || dt == IRON_UINT32 ||
           dt == IRON_UINT64;
}

/* A memref's element type as upstream spells numpy's dtypes: ui8 ... */
static iron__mlir_type *elem(iron__mlir_b *mb, iron_dtype dt)
{
    return iron__mlir_b_scalar(mb, iron__body_dtype_text(dt));
}

iron__mlir_type *iron__mlx_memref(iron__mlir_b *mb, iron_dtype dt,
                                  const iron_shape *shape)
{
    return iron__mlir_b_shaped(mb, IRON__MT_MEMREF, elem(mb, dt), shape->ndim,
                               shape->dims);
}

static iron__mlir_type *val_type(iron__mlir_b *mb, const iron_body *b,
                                 iron_val v)
{
    const iron__bval *x = &b->vals.v[v];
    if (x->t == IRON_BT_MEMREF)
        return iron__mlx_memref(mb, x->dtype, &x->shape);
    if (x->t == IRON_BT_HANDLE && x->hkind == IRON__BH_BARRIER)
        return scalar(mb, IRON_BT_INDEX);   /* an aie.lock */
    if (x->t == IRON_BT_HANDLE)
        return iron__mlir_b_dialect(mb, "aie", "objectfifosubview",
                                    iron__mlx_memref(mb, x->dtype, &x->shape));
    return scalar(mb, x->t);
}

iron__mlir_type *iron__mlx_call_type(iron__mlir_b *mb, const iron_body *b,
                                     const iron_kernel *k, int i)
{
    for (int o = 0; o < b->ops.n; o++) {
        const iron__bop *op = &b->ops.v[o];
        if (op->kind == IRON__BOP_CALL && b->params.v[op->param].kernel == k &&
            i < op->nin)
            return val_type(mb, b, b->pool.v[op->in + i]);
    }
    mb->failed = 1;
    return NULL;
}

/* --- names --------------------------------------------------------------- */

/* A fresh name: prefix + number, or %N / %argN as placeholders. */
static const char *fresh(gen *g, int is_arg, char *buf, size_t len)
{
    if (g->prefix)
        snprintf(buf, len, "%s%d", g->prefix, g->next++);
    else if (is_arg)
        snprintf(buf, len, "%%arg%d", g->next_arg++);
    else
        snprintf(buf, len, "%%%d", g->next++);
    return buf;
}

static int taken(const gen *g, const char *n)
{
    const iron__mlir_module *m = g->mb->m;
    for (int i = g->first; m && i < m->nvalues; i++)
        if (m->values[i].name && strcmp(m->values[i].name, n) == 0)
            return 1;
    return 0;
}

/* A placeholder name from a base (%c0, %cst): the base the first time,
 * then base_N with N from one counter, as MLIR's printer does. */
static const char *unique(gen *g, const char *base, char *buf, size_t len)
{
    snprintf(buf, len, "%s", base);
    while (taken(g, buf))
        snprintf(buf, len, "%s_%d", base, g->conflicts++);
    return buf;
}

/* An SSA name made of s: characters MLIR does not allow become '_', and
 * a name the placeholders use (%12, %arg3) gets a '_' in front. */
static const char *ssa_name(const char *s, char *buf, size_t len)
{
    size_t digits = strspn(s + (strncmp(s, "arg", 3) == 0 ? 3 : 0),
                           "0123456789");
    int under = (*s >= '0' && *s <= '9') ||
                (strncmp(s, "arg", 3) == 0 && digits > 0 && !s[3 + digits]);
    snprintf(buf, len, "%%%s%s", under ? "_" : "", s);
    for (char *p = buf + 1; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || strchr("_$.-", *p)))
            *p = '_';
    return buf;
}

int iron__mlx_named(iron__mlir_b *b, const char *name, iron__mlir_type *t)
{
    const iron__mlir_module *m = b->m;
    for (int i = 0; m && i < m->nvalues; i++)
        if (m->values[i].name && strcmp(m->values[i].name, name) == 0)
            return i;
    return iron__mlir_b_arg(b, NULL, t, name);
}

/* Each parameter's symbol (fifos and kernels) or value (buffers and
 * locks). */
static void name_params(gen *g, const iron__body_names *names)
{
    const iron_body *b = g->b;
    char buf[256], ssa[256];
    for (int i = 0; i < b->params.n; i++) {
        const iron__body_param *p = &b->params.v[i];
        if (p->kind == IRON__BP_FIFO || p->kind == IRON__BP_KERNEL)
            g->sym[i] = names                  ? names->param[i]
                        : p->kind == IRON__BP_FIFO ? p->h->fifo->name
                                                   : p->kernel->entry;
        else if (names)
            g->id[b->param_val.v[i]] = iron__mlx_named(
                g->mb, names->param[i], val_type(g->mb, b, b->param_val.v[i]));
        else
            g->id[b->param_val.v[i]] = iron__mlir_b_arg(
                g->mb, NULL, val_type(g->mb, b, b->param_val.v[i]),
                unique(g,
                       ssa_name(p->kind == IRON__BP_RTP ? p->rtp->name
                                                        : p->barrier->name,
                                ssa, sizeof ssa),
                       buf, sizeof buf));
    }
}

/* --- ops ----------------------------------------------------------------- */

/* The values of a pool run as operands of o. */
static void operands(gen *g, O *o, int at, int n)
{
    for (int k = 0; k < n; k++)
        iron__mlir_b_operand(g->mb, o, g->id[g->b->pool.v[at + k]]);
}

/* Names op's results (%r, or %r#k for several) on o. */
static void results(gen *g, O *o, const iron__bop *op)
{
    char base[64], n[80];
    if (op->nout)
        fresh(g, 0, base, sizeof base);
    for (int k = 0; k < op->nout; k++) {
        iron_val v = g->b->pool.v[op->out + k];
        snprintf(n, sizeof n, "%s#%d", base, k);
        if (op->nout == 1)
            n[strlen(base)] = '\0';
        g->id[v] = iron__mlir_b_result(g->mb, o, val_type(g->mb, g->b, v), n);
    }
}

static void region(gen *g, O *at, int r);

/* Region r of the body as a new region of o (its arguments named
 * fresh), ended when it is closed by `term` with the region's values
 * (scf.condition: its condition first). */
static void sub_region(gen *g, O *o, int r, const char *term)
{
    const iron__breg *br = &g->b->regs.v[r];
    iron__mlir_block *blk = iron__mlir_b_region(g->mb, o, 1);
    char n[64];
    for (int k = 0; k < br->nargs; k++) {
        iron_val a = g->b->pool.v[br->args + k];
        g->id[a] = iron__mlir_b_arg(g->mb, blk, val_type(g->mb, g->b, a),
                                    fresh(g, 1, n, sizeof n));
    }
    region(g, o, r);
    if (br->open)
        return;
    O *t = iron__mlir_b_op(g->mb, o, term, NULL);
    if (br->kind == IRON__BR_BEFORE)
        iron__mlir_b_operand(g->mb, t, g->id[br->cond]);
    operands(g, t, br->term, br->nterm);
}

/* Whether `text` reads back as v in type t. */
static int reads_back(const char *text, double v, iron_body_type t)
{
    double r = strtod(text, NULL);
    float a = (float)r, c = (float)v;
    if (t == IRON_BT_F64)
        return memcmp(&r, &v, sizeof r) == 0;
    if (t == IRON_BT_F32)
        return memcmp(&a, &c, sizeof a) == 0;
    return iron_bf16_from_float(a) == iron_bf16_from_float(c);
}

/* The value of float constant v of type t as upstream prints it: with
 * six digits when they read back in t, else eight (f64: sixteen); NaN
 * and infinities as they are.  (The tree holds doubles: this one prints
 * as those digits.) */
static double printed_float(double v, iron_body_type t)
{
    char buf[64];
    for (int k = 0; v - v == 0 && k < 2; k++) {
        snprintf(buf, sizeof buf, "%.*e", k ? (t == IRON_BT_F64 ? 16 : 8) : 6,
                 v);
        if (reads_back(buf, v, t))
            return strtod(buf, NULL);
    }
    return v;
}

/* arith.constant, named as MLIR's printer names it: %c0, %c5_i32, %cst,
 * %true (placeholders) */
static void constant(gen *g, O *at, const iron__bop *op)
{
    iron__mlir_b *mb = g->mb;
    iron_val v = g->b->pool.v[op->out];
    iron_body_type t = g->b->vals.v[v].t;
    char base[64], n[96];
    snprintf(base, sizeof base, "%%c%lld_%s", (long long)op->imm,
             iron__body_scalar_text(t));
    if (t == IRON_BT_INDEX)
        *strrchr(base, '_') = '\0';
    if (g->prefix)
        fresh(g, 0, n, sizeof n);
    else
        unique(g,
               t == IRON_BT_I1            ? (op->imm ? "%true" : "%false")
               : iron__body_is_float(t) ? "%cst"
                                          : base,
               n, sizeof n);
    iron__mlir_type *ty = scalar(mb, t);
    iron__mlir_attr *a =
        t == IRON_BT_I1 ? iron__mlir_b_attr(mb, IRON__MA_BOOL, op->imm, NULL)
        : iron__body_is_float(t)
            ? iron__mlir_b_float(mb, printed_float(op->fimm, t), ty)
            : iron__mlir_b_attr(mb, IRON__MA_INT, op->imm, ty);
    g->id[v] = iron__mlir_b_result(
        mb, iron__mlir_b_op(mb, at, "arith.constant", "value:attr", a), ty, n);
}

/* memref.load / memref.store, through a cast for unsigned elements. */
static void access(gen *g, O *at, const iron__bop *op)
{
    iron__mlir_b *mb = g->mb;
    int store = op->kind == IRON__BOP_STORE;
    iron_dtype dt = g->b->vals.v[g->b->pool.v[op->in + store]].dtype;
    const char *cast = "builtin.unrealized_conversion_cast";
    char tmp[64];
    if (!is_unsigned(dt)) {
        O *o = iron__mlir_b_op(mb, at, store ? "memref.store" : "memref.load",
                               NULL);
        operands(g, o, op->in, op->nin);
        results(g, o, op);
        return;
    }
    fresh(g, 0, tmp, sizeof tmp);
    O *o = iron__mlir_b_op(mb, at, store ? cast : "memref.load", NULL);
    operands(g, o, op->in, store ? 1 : op->nin);
    int t = iron__mlir_b_result(mb, o, elem(mb, dt), tmp);
    o = iron__mlir_b_op(mb, at, store ? "memref.store" : cast, "%", t);
    operands(g, o, op->in + 1, store ? op->nin - 1 : 0);
    results(g, o, op);
}

static void one_op(gen *g, O *at, const iron__bop *op)
{
    iron__mlir_b *mb = g->mb;
    O *o = NULL;
    switch (op->kind) {
    case IRON__BOP_CONST:
        constant(g, at, op);
        return;
    case IRON__BOP_LOAD:
    case IRON__BOP_STORE:
        access(g, at, op);
        return;
    case IRON__BOP_FOR:
    case IRON__BOP_WHILE:
    case IRON__BOP_IF: {
        static const char *const names[] = { "scf.for", "scf.while",
                                             "scf.if" };
        /* the results are named before the regions' values */
        o = iron__mlir_b_op(mb, at, names[op->kind - IRON__BOP_FOR], NULL);
        results(g, o, op);
        operands(g, o, op->in, op->nin);
        sub_region(g, o, op->reg[0],
                   op->kind == IRON__BOP_WHILE ? "scf.condition"
                                               : "scf.yield");
        if (op->kind != IRON__BOP_FOR && op->reg[1] >= 0)
            sub_region(g, o, op->reg[1], "scf.yield");
        else if (op->kind != IRON__BOP_FOR)
            iron__mlir_b_region(mb, o, 0);
        return;
    }
    case IRON__BOP_ARITH:
    case IRON__BOP_CAST:
        o = iron__mlir_b_op(mb, at, iron__body_arith_name((iron_arith)op->sub),
                            NULL);
        break;
    case IRON__BOP_SELECT:
        o = iron__mlir_b_op(mb, at, "arith.select", NULL);
        break;
    case IRON__BOP_CMP:
        o = iron__mlir_b_op(
            mb, at, op->sub >= IRON_CMP_OEQ ? "arith.cmpf" : "arith.cmpi",
            "predicate:kw", iron__body_cmp_name((iron_cmp)op->sub));
        break;
    case IRON__BOP_ACQUIRE:
    case IRON__BOP_RELEASE:
        o = iron__mlir_b_op(mb, at,
                            op->kind == IRON__BOP_ACQUIRE
                                ? "aie.objectfifo.acquire"
                                : "aie.objectfifo.release",
                            "objFifo_name:sym port:kw size:i32",
                            g->sym[op->param],
                            g->b->params.v[op->param].h->is_prod ? "Produce"
                                                                 : "Consume",
                            op->imm);
        break;
    case IRON__BOP_OBJECT:
        o = iron__mlir_b_op(mb, at, "aie.objectfifo.subview.access",
                            "index:i32", op->imm);
        break;
    case IRON__BOP_CALL:
        o = iron__mlir_b_op(mb, at, "func.call", "callee:sym",
                            g->sym[op->param]);
        break;
    case IRON__BOP_BARRIER_WAIT:
    case IRON__BOP_BARRIER_RELEASE:
        o = iron__mlir_b_op(mb, at, "aie.use_lock",
                            "% action:kw value:i32",
                            g->id[g->b->param_val.v[op->param]],
                            op->kind == IRON__BOP_BARRIER_WAIT ? "Acquire"
                                                               : "Release",
                            op->imm);
        break;
    }
    operands(g, o, op->in, op->nin);
    results(g, o, op);
}

static void region(gen *g, O *at, int r)
{
    for (int i = g->b->regs.v[r].first; i >= 0; i = g->b->ops.v[i].next)
        one_op(g, at, &g->b->ops.v[i]);
}

void iron__mlx_body(iron__mlir_b *mb, iron__mlir_op *at, const iron_body *b,
                    const iron__body_names *names)
{
    gen g = { mb, b, names ? names->prefix : NULL, NULL, NULL, 0, 0, 0,
              mb->m ? mb->m->nvalues : 0 };
    g.id = iron__malloc(((size_t)b->vals.n + 1) * sizeof *g.id);
    g.sym = iron__calloc((size_t)b->params.n + 1, sizeof *g.sym);
    mb->failed |= !g.id || !g.sym;
    if (g.id && g.sym) {
        memset(g.id, 0xff, ((size_t)b->vals.n + 1) * sizeof *g.id);
        name_params(&g, names);
        region(&g, at, 0);
    }
    iron__free(g.id);
    iron__free(g.sym);
}

/* --- as text ------------------------------------------------------------- */

iron_status iron__mlx_body_text(const iron_body *b,
                                const iron__body_names *names, int indent,
                                iron__str *s)
{
    iron__mlir_b mb;
    iron_status st = iron__mlir_b_start(&mb);
    if (st != IRON_OK)
        return iron__fail_context(st, "body '%s'", b->name);
    iron__mlx_body(&mb, NULL, b, names);
    iron__str t = { 0 };
    st = iron__mlir_b_status(&mb, "a body");
    if (st == IRON_OK)
        st = iron__mlir_print(mb.m, 0, &t);
    /* the ops of "module {\n  op\n  ...}\n", each line re-indented */
    const char *p = st == IRON_OK ? strchr(iron__str_get(&t), '\n') : NULL;
    const char *end = p ? iron__str_get(&t) + t.len - 2 : NULL;
    while (p && ++p < end) {
        const char *e = strchr(p, '\n');
        iron__str_printf(s, "%*s%.*s\n", indent, "", (int)(e - p - 2), p + 2);
        p = e;
    }
    iron__str_free(&t);
    iron__mlir_module_free(mb.m);
    if (st == IRON_OK && s->oom)
        st = iron__fail(IRON_ENOMEM, "out of memory printing body '%s'",
                        b->name);
    return st;
}

IRON_API iron_status iron_body_dump(const iron_body *b, char **out)
{
    if (out)
        *out = NULL;
    if (!b || !out)
        return iron__fail(IRON_EINVAL, "iron_body_dump: %s is NULL",
                          !b ? "body" : "out");
    iron__str s = { 0 };
    iron_status st = iron__mlx_body_text(b, NULL, 0, &s);
    if (st == IRON_OK && !(*out = iron__str_take(&s)))
        st = iron__fail(IRON_ENOMEM, "out of memory dumping body '%s'",
                        b->name);
    iron__str_free(&s);
    return st == IRON_OK ? iron__public_result(IRON_OK) : st;
}
