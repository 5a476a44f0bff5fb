/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * to_c.c - a body as C source for the emulator: a core body (see
 * iron_kernel_new_core) whose parameters are p0, p1, ... in the body's
 * parameter order and whose values are locals v0, v1, ...  The text
 * depends only on the body's name, ops and parameter kinds and types,
 * never on the names of fifos, buffers, kernels or workers, so identical
 * bodies give identical text and share one compiled object.  MLIR's
 * semantics come from the helpers of to_c_prelude.c.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "body/ir.h"
#include "tensor/tensor.h"

typedef struct cgen {
    const iron_body *b;
    iron__str *s;
    int depth;                /* indentation, in levels of 4 */
} cgen;

static void line(cgen *g, const char *fmt, ...) IRON__PRINTF(2, 3);
static void line(cgen *g, const char *fmt, ...)
{
    iron__str_printf(g->s, "%*s", 4 * g->depth, "");
    va_list ap;
    va_start(ap, fmt);
    iron__str_vprintf(g->s, fmt, ap);
    va_end(ap);
    iron__str_append(g->s, "\n");
}

/* The C type holding a scalar of type t (integers as their bits). */
static const char *ctype(iron_body_type t)
{
    switch (t) {
    case IRON_BT_I1: case IRON_BT_I8: return "uint8_t";
    case IRON_BT_I16: case IRON_BT_BF16: return "uint16_t";
    case IRON_BT_I32: return "uint32_t";
    case IRON_BT_I64: case IRON_BT_INDEX: return "uint64_t";
    case IRON_BT_F32: return "float";
    case IRON_BT_F64: return "double";
    default: return "?";
    }
}

/* The element type a memref's pointer points to: the container of its
 * elements' value type (uint32_t for int32 and uint32: signed and
 * unsigned variants may alias). */
static const char *memref_ctype(iron_dtype dt)
{
    return ctype(iron__body_elem_type(dt));
}

static const iron__bval *val(const cgen *g, iron_val v)
{
    return &g->b->vals.v[v];
}

static iron_val in(const cgen *g, const iron__bop *op, int k)
{
    return g->b->pool.v[op->in + k];
}

static iron_val out(const cgen *g, const iron__bop *op, int k)
{
    return g->b->pool.v[op->out + k];
}

/* Assigns n values of the pool run at `from` to those at `to`. */
static void assign(cgen *g, int to, int from, int n)
{
    for (int k = 0; k < n; k++)
        line(g, "v%d = v%d;", g->b->pool.v[to + k], g->b->pool.v[from + k]);
}

static void emit_region(cgen *g, int r);

static void emit_const(cgen *g, const iron__bop *op, iron_val v)
{
    iron_body_type t = val(g, v)->t;
    if (iron__body_is_intlike(t)) {
        uint64_t bits = (uint64_t)op->imm &
                        (iron__body_width(t) >= 64
                             ? ~(uint64_t)0
                             : ((uint64_t)1 << iron__body_width(t)) - 1);
        line(g, "v%d = (%s)UINT64_C(0x%" PRIx64 ");", v, ctype(t), bits);
    } else if (t == IRON_BT_F64) {
        uint64_t u;
        memcpy(&u, &op->fimm, sizeof u);
        line(g, "v%d = iron__b_f64(UINT64_C(0x%" PRIx64 "));", v, u);
    } else if (t == IRON_BT_F32) {
        float f = (float)op->fimm;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        line(g, "v%d = iron__b_f32(0x%" PRIx32 "u);", v, u);
    } else {
        line(g, "v%d = (uint16_t)0x%xu;", v,
             (unsigned)iron_bf16_from_float((float)op->fimm));
    }
}

static void emit_arith(cgen *g, const iron__bop *op)
{
    static const char *const int_fn[] = {
        [IRON_ARITH_ADDI] = "add",     [IRON_ARITH_SUBI] = "sub",
        [IRON_ARITH_MULI] = "mul",     [IRON_ARITH_DIVSI] = "divsi",
        [IRON_ARITH_DIVUI] = "divui",  [IRON_ARITH_CEILDIVSI] = "ceildivsi",
        [IRON_ARITH_FLOORDIVSI] = "floordivsi",
        [IRON_ARITH_REMSI] = "remsi",  [IRON_ARITH_REMUI] = "remui",
        [IRON_ARITH_ANDI] = "and",     [IRON_ARITH_ORI] = "or",
        [IRON_ARITH_XORI] = "xor",     [IRON_ARITH_SHLI] = "shli",
        [IRON_ARITH_SHRSI] = "shrsi",  [IRON_ARITH_SHRUI] = "shrui",
        [IRON_ARITH_MAXSI] = "maxsi",  [IRON_ARITH_MINSI] = "minsi",
        [IRON_ARITH_MAXUI] = "maxui",  [IRON_ARITH_MINUI] = "minui",
    };
    iron_val r = out(g, op, 0), x = in(g, op, 0);
    iron_val y = op->nin > 1 ? in(g, op, 1) : IRON_VAL_NONE;
    iron_body_type t = val(g, r)->t;
    iron_arith a = (iron_arith)op->sub;
    if (a < IRON_ARITH_ADDF) {
        line(g, "v%d = (%s)iron__b_%s(v%d, v%d, %d);", r, ctype(t),
             int_fn[a], x, y, iron__body_width(t));
        return;
    }
    if (a == IRON_ARITH_NEGF) {
        if (t == IRON_BT_BF16)
            line(g, "v%d = (uint16_t)(v%d ^ 0x8000u);", r, x);
        else
            line(g, "v%d = -v%d;", r, x);
        return;
    }
    if (a == IRON_ARITH_MAXIMUMF || a == IRON_ARITH_MINIMUMF) {
        const char *fn = a == IRON_ARITH_MAXIMUMF ? "maximum" : "minimum";
        if (t == IRON_BT_BF16)
            line(g, "v%d = iron__b_tobf((float)iron__b_%s(iron__b_bf(v%d), "
                    "iron__b_bf(v%d)));",
                 r, fn, x, y);
        else
            line(g, "v%d = (%s)iron__b_%s(v%d, v%d);", r, ctype(t), fn, x,
                 y);
        return;
    }
    static const char *const fop[] = {
        [IRON_ARITH_ADDF] = "+", [IRON_ARITH_SUBF] = "-",
        [IRON_ARITH_MULF] = "*", [IRON_ARITH_DIVF] = "/",
    };
    static const char *const bfn[] = {
        [IRON_ARITH_ADDF] = "add", [IRON_ARITH_SUBF] = "sub",
        [IRON_ARITH_MULF] = "mul", [IRON_ARITH_DIVF] = "div",
    };
    if (t == IRON_BT_BF16)
        line(g, "v%d = iron__b_%sbf(v%d, v%d);", r, bfn[a], x, y);
    else
        line(g, "v%d = v%d %s v%d;", r, x, fop[a], y);
}

/* A float value as float or double (bfloat16 widened). */
static void float_expr(const cgen *g, iron_val v, char *buf, size_t len)
{
    if (val(g, v)->t == IRON_BT_BF16)
        snprintf(buf, len, "iron__b_bf(v%d)", v);
    else
        snprintf(buf, len, "v%d", v);
}

static void emit_cast(cgen *g, const iron__bop *op)
{
    iron_val r = out(g, op, 0), x = in(g, op, 0);
    iron_body_type from = val(g, x)->t, to = val(g, r)->t;
    int wf = iron__body_width(from), wt = iron__body_width(to);
    const char *ct = ctype(to);
    char fx[48];
    switch ((iron_arith)op->sub) {
    case IRON_ARITH_EXTSI:
        line(g, "v%d = (%s)iron__b_extsi(v%d, %d, %d);", r, ct, x, wf, wt);
        return;
    case IRON_ARITH_EXTUI:
        line(g, "v%d = (%s)v%d;", r, ct, x);
        return;
    case IRON_ARITH_TRUNCI:
        line(g, "v%d = (%s)(v%d & iron__b_mask(%d));", r, ct, x, wt);
        return;
    case IRON_ARITH_INDEX_CAST:
        if (to == IRON_BT_INDEX)
            line(g, "v%d = iron__b_extsi(v%d, %d, 64);", r, x, wf);
        else
            line(g, "v%d = (%s)(v%d & iron__b_mask(%d));", r, ct, x, wt);
        return;
    case IRON_ARITH_INDEX_CASTUI:
        if (to == IRON_BT_INDEX)
            line(g, "v%d = (uint64_t)v%d;", r, x);
        else
            line(g, "v%d = (%s)(v%d & iron__b_mask(%d));", r, ct, x, wt);
        return;
    case IRON_ARITH_SITOFP:
        if (to == IRON_BT_BF16)
            line(g, "v%d = iron__b_sitobf(v%d, %d);", r, x, wf);
        else
            line(g, "v%d = (%s)iron__b_sext(v%d, %d);", r, ct, x, wf);
        return;
    case IRON_ARITH_UITOFP:
        if (to == IRON_BT_BF16)
            line(g, "v%d = iron__b_uitobf(v%d);", r, x);
        else
            line(g, "v%d = (%s)v%d;", r, ct, x);
        return;
    case IRON_ARITH_FPTOSI:
    case IRON_ARITH_FPTOUI:
        float_expr(g, x, fx, sizeof fx);
        line(g, "v%d = (%s)iron__b_%s((double)%s, %d);", r, ct,
             op->sub == IRON_ARITH_FPTOSI ? "fptosi" : "fptoui", fx, wt);
        return;
    case IRON_ARITH_EXTF:
        float_expr(g, x, fx, sizeof fx);
        line(g, "v%d = (%s)%s;", r, ct, fx);
        return;
    case IRON_ARITH_TRUNCF:
        if (to == IRON_BT_F32)
            line(g, "v%d = (float)v%d;", r, x);
        else if (from == IRON_BT_F32)
            line(g, "v%d = iron__b_tobf(v%d);", r, x);
        else
            line(g, "v%d = iron__b_bf16_from_double(v%d);", r, x);
        return;
    case IRON_ARITH_BITCAST:
        if (to == IRON_BT_F32 && from != IRON_BT_F32)
            line(g, "v%d = iron__b_f32(v%d);", r, x);
        else if (to == IRON_BT_F64 && from != IRON_BT_F64)
            line(g, "v%d = iron__b_f64(v%d);", r, x);
        else if (from == IRON_BT_F32 && to != IRON_BT_F32)
            line(g, "v%d = iron__b_bits32(v%d);", r, x);
        else if (from == IRON_BT_F64 && to != IRON_BT_F64)
            line(g, "v%d = iron__b_bits64(v%d);", r, x);
        else
            line(g, "v%d = v%d;", r, x);  /* same container: i16, bf16 */
        return;
    default:
        return;
    }
}

static void emit_cmp(cgen *g, const iron__bop *op)
{
    iron_val r = out(g, op, 0), x = in(g, op, 0), y = in(g, op, 1);
    int w = iron__body_width(val(g, x)->t);
    iron_cmp p = (iron_cmp)op->sub;
    if (p < IRON_CMP_OEQ) {
        static const char *const rel[] = {
            [IRON_CMP_EQ] = "==", [IRON_CMP_NE] = "!=",
            [IRON_CMP_ULT] = "<", [IRON_CMP_ULE] = "<=",
            [IRON_CMP_UGT] = ">", [IRON_CMP_UGE] = ">=",
        };
        if (p >= IRON_CMP_SLT && p <= IRON_CMP_SGE) {
            /* x <= y is !(y < x), x > y is y < x, x >= y is !(x < y) */
            int swap = p == IRON_CMP_SLE || p == IRON_CMP_SGT;
            int negate = p == IRON_CMP_SLE || p == IRON_CMP_SGE;
            line(g, "v%d = (uint8_t)%siron__b_slt(v%d, v%d, %d);", r,
                 negate ? "!" : "", swap ? y : x, swap ? x : y, w);
        } else {
            line(g, "v%d = (uint8_t)(v%d %s v%d);", r, x, rel[p], y);
        }
        return;
    }
    char a[48], b[48];
    float_expr(g, x, a, sizeof a);
    float_expr(g, y, b, sizeof b);
    const char *f;
    switch (p) {
    case IRON_CMP_OEQ: f = "%s == %s"; break;
    case IRON_CMP_OGT: f = "%s > %s"; break;
    case IRON_CMP_OGE: f = "%s >= %s"; break;
    case IRON_CMP_OLT: f = "%s < %s"; break;
    case IRON_CMP_OLE: f = "%s <= %s"; break;
    case IRON_CMP_UNE: f = "%s != %s"; break;
    case IRON_CMP_UGTF: f = "!(%s <= %s)"; break;
    case IRON_CMP_UGEF: f = "!(%s < %s)"; break;
    case IRON_CMP_ULTF: f = "!(%s >= %s)"; break;
    case IRON_CMP_ULEF: f = "!(%s > %s)"; break;
    default: f = NULL; break;
    }
    if (f) {
        iron__str e = { 0 };
        iron__str_printf(&e, f, a, b);
        line(g, "v%d = (uint8_t)(%s);", r, iron__str_get(&e));
        iron__str_free(&e);
        return;
    }
    /* The predicates that need both orderedness tests. */
    if (p == IRON_CMP_ONE)
        line(g, "v%d = (uint8_t)(%s < %s || %s > %s);", r, a, b, a, b);
    else if (p == IRON_CMP_ORD)
        line(g, "v%d = (uint8_t)(%s == %s && %s == %s);", r, a, a, b, b);
    else if (p == IRON_CMP_UEQ)
        line(g, "v%d = (uint8_t)(!(%s < %s || %s > %s));", r, a, b, a, b);
    else
        line(g, "v%d = (uint8_t)(%s != %s || %s != %s);", r, a, a, b, b);
}

/* The bounds checks of an element access and its offset expression. */
static void element(cgen *g, const iron__bop *op, int first, iron_val mem,
                    iron__str *off)
{
    const iron__bval *m = val(g, mem);
    char mt[160], what[224];
    snprintf(what, sizeof what, "%s: index out of bounds of %s",
             op->kind == IRON__BOP_LOAD ? "memref.load" : "memref.store",
             iron__body_memref_text(m->dtype, &m->shape, mt, sizeof mt));
    for (int k = 0; k < m->shape.ndim; k++) {
        iron_val ix = in(g, op, first + k);
        line(g, "iron__b_check(v%d < UINT64_C(%lld), \"%s\");", ix,
             (long long)m->shape.dims[k], what);
        if (k == 0)
            iron__str_printf(off, "v%d", ix);
        else
            iron__str_printf(off, " * UINT64_C(%lld) + v%d",
                             (long long)m->shape.dims[k], ix);
    }
}

static void emit_for(cgen *g, const iron__bop *op)
{
    const iron__breg *r = &g->b->regs.v[op->reg[0]];
    iron_val lb = in(g, op, 0), ub = in(g, op, 1), st = in(g, op, 2);
    iron_val iv = g->b->pool.v[r->args];
    int n = op->nout;
    line(g, "iron__b_check(iron__b_s64(v%d) > 0, \"scf.for: step <= 0\");",
         st);
    assign(g, r->args + 1, op->in + 3, n);
    line(g, "if (iron__b_s64(v%d) < iron__b_s64(v%d)) {", lb, ub);
    g->depth++;
    line(g, "v%d = v%d;", iv, lb);
    line(g, "for (;;) {");
    g->depth++;
    emit_region(g, op->reg[0]);
    /* The yields may read the carried values: through the results. */
    assign(g, op->out, r->term, n);
    assign(g, r->args + 1, op->out, n);
    /* iv < ub, so ub - iv is the distance, with no overflow near
     * INT64_MAX. */
    line(g, "if (v%d - v%d <= v%d)", ub, iv, st);
    line(g, "    break;");
    line(g, "v%d += v%d;", iv, st);
    g->depth--;
    line(g, "}");
    g->depth--;
    line(g, "}");
    assign(g, op->out, r->args + 1, n);
}

static void emit_while(cgen *g, const iron__bop *op)
{
    const iron__breg *before = &g->b->regs.v[op->reg[0]];
    const iron__breg *after = &g->b->regs.v[op->reg[1]];
    assign(g, before->args, op->in, op->nin);
    line(g, "for (;;) {");
    g->depth++;
    emit_region(g, op->reg[0]);
    line(g, "if (!v%d) {", before->cond);
    g->depth++;
    assign(g, op->out, before->term, op->nout);
    line(g, "break;");
    g->depth--;
    line(g, "}");
    assign(g, after->args, before->term, before->nterm);
    emit_region(g, op->reg[1]);
    /* The before region's arguments are not visible here, so the yields
     * cannot read them: assigned directly. */
    assign(g, before->args, after->term, after->nterm);
    g->depth--;
    line(g, "}");
}

static void emit_if(cgen *g, const iron__bop *op)
{
    line(g, "if (v%d) {", in(g, op, 0));
    g->depth++;
    emit_region(g, op->reg[0]);
    assign(g, op->out, g->b->regs.v[op->reg[0]].term, op->nout);
    g->depth--;
    if (op->reg[1] >= 0) {
        line(g, "} else {");
        g->depth++;
        emit_region(g, op->reg[1]);
        assign(g, op->out, g->b->regs.v[op->reg[1]].term, op->nout);
        g->depth--;
    }
    line(g, "}");
}

/* A kernel call.  In a timed build (IRON_COUNT) it is bracketed for the
 * timing model: the host then charges the kernel's declared cost, given
 * the call's integer arguments (iron_count.h, iron__count_call). */
static void emit_call(cgen *g, const iron__bop *op)
{
    const iron_kernel *k = g->b->params.v[op->param].kernel;
    iron__str e = { 0 }, ints = { 0 };
    for (int a = 0; a < op->nin; a++) {
        const iron__ktype *t = &k->args[a];
        iron_val v = in(g, op, a);
        const char *sep = a ? ", " : "";
        size_t at = e.len;
        if (t->is_ptr)
            iron__str_printf(&e, "%s(%s *)v%d", sep,
                             iron__dtype_ctype(t->dtype), v);
        else if (t->dtype == IRON_INT8 || t->dtype == IRON_INT16 ||
                 t->dtype == IRON_INT32)
            iron__str_printf(&e, "%siron__b_s%d(v%d)", sep,
                             iron__body_width(val(g, v)->t), v);
        else if (t->dtype == IRON_INT64)
            iron__str_printf(&e, "%siron__b_s64(v%d)", sep, v);
        else
            iron__str_printf(&e, "%sv%d", sep, v);
        int integer = !t->is_ptr && t->dtype != IRON_FLOAT32 &&
                      t->dtype != IRON_FLOAT64 && t->dtype != IRON_BFLOAT16;
        if (integer && !e.oom)
            iron__str_printf(&ints, "%s(long long)%s", sep,
                             e.p + at + strlen(sep));
        else
            iron__str_printf(&ints, "%s0", sep);
    }
    line(g, "#ifdef IRON_COUNT");
    line(g, "iron__count_call(0, %d, 0, 0);", op->param);
    line(g, "#endif");
    line(g, "p%d(%s);", op->param, iron__str_get(&e));
    line(g, "#ifdef IRON_COUNT");
    line(g, "{ const long long iron__cv[] = { %s }; "
            "iron__count_call(1, %d, %d, iron__cv); }",
         op->nin ? iron__str_get(&ints) : "0", op->param, op->nin);
    line(g, "#endif");
    g->s->oom |= ints.oom;
    iron__str_free(&e);
    iron__str_free(&ints);
}

static void emit_op(cgen *g, int i)
{
    const iron__bop *op = &g->b->ops.v[i];
    iron__str off = { 0 };
    switch (op->kind) {
    case IRON__BOP_CONST:
        emit_const(g, op, out(g, op, 0));
        break;
    case IRON__BOP_ARITH:
        emit_arith(g, op);
        break;
    case IRON__BOP_CAST:
        emit_cast(g, op);
        break;
    case IRON__BOP_CMP:
        emit_cmp(g, op);
        break;
    case IRON__BOP_SELECT:
        line(g, "v%d = v%d ? v%d : v%d;", out(g, op, 0), in(g, op, 0),
             in(g, op, 1), in(g, op, 2));
        break;
    case IRON__BOP_FOR:
        emit_for(g, op);
        break;
    case IRON__BOP_WHILE:
        emit_while(g, op);
        break;
    case IRON__BOP_IF:
        emit_if(g, op);
        break;
    case IRON__BOP_ACQUIRE:
        line(g, "{");
        line(g, "    void **iron__q = iron_acquire(p%d, %d);", op->param,
             (int)op->imm);
        for (int k = 0; k < (int)op->imm; k++)
            line(g, "    v%d[%d] = iron__q[%d];", out(g, op, 0), k, k);
        line(g, "}");
        break;
    case IRON__BOP_OBJECT:
        line(g, "v%d = (%s *)v%d[%d];", out(g, op, 0),
             memref_ctype(val(g, out(g, op, 0))->dtype), in(g, op, 0),
             (int)op->imm);
        break;
    case IRON__BOP_RELEASE:
        line(g, "iron_release(p%d, %d);", op->param, (int)op->imm);
        break;
    case IRON__BOP_LOAD:
        element(g, op, 1, in(g, op, 0), &off);
        line(g, "v%d = v%d[%s];", out(g, op, 0), in(g, op, 0),
             iron__str_get(&off));
        break;
    case IRON__BOP_STORE:
        element(g, op, 2, in(g, op, 1), &off);
        line(g, "v%d[%s] = v%d;", in(g, op, 1), iron__str_get(&off),
             in(g, op, 0));
        break;
    case IRON__BOP_CALL:
        emit_call(g, op);
        break;
    case IRON__BOP_BARRIER_WAIT:
        line(g, "iron_barrier_wait(p%d, %d);", op->param, (int)op->imm);
        break;
    case IRON__BOP_BARRIER_RELEASE:
        line(g, "iron_barrier_release(p%d, %d);", op->param, (int)op->imm);
        break;
    }
    g->s->oom |= off.oom;
    iron__str_free(&off);
}

static void emit_region(cgen *g, int r)
{
    for (int i = g->b->regs.v[r].first; i >= 0; i = g->b->ops.v[i].next)
        emit_op(g, i);
}

/* One local per value; parameters' buffers point at their argument. */
static void declare(cgen *g)
{
    const iron_body *b = g->b;
    for (int v = 0; v < b->vals.n; v++) {
        const iron__bval *x = &b->vals.v[v];
        if (x->t == IRON_BT_MEMREF && x->param >= 0)
            line(g, "%s *v%d = (%s *)p%d;", memref_ctype(x->dtype), v,
                 memref_ctype(x->dtype), x->param);
        else if (x->t == IRON_BT_MEMREF)
            line(g, "%s *v%d = 0;", memref_ctype(x->dtype), v);
        else if (x->t == IRON_BT_HANDLE && x->hkind == IRON__BH_ACQ)
            line(g, "void *v%d[%d] = { 0 };", v, x->n);
        else if (x->t != IRON_BT_HANDLE)
            line(g, "%s v%d = 0;", ctype(x->t), v);
    }
}

/* "fifo", "int32*", "barrier", "kernel(int32*, int32)" */
static void arg_type(const iron__body_param *p, iron__str *s)
{
    switch (p->kind) {
    case IRON__BP_FIFO:
        iron__str_append(s, "fifo");
        return;
    case IRON__BP_RTP:
        iron__str_printf(s, "%s*", iron_dtype_name(p->rtp->dtype));
        return;
    case IRON__BP_BARRIER:
        iron__str_append(s, "barrier");
        return;
    case IRON__BP_KERNEL:
        iron__str_append(s, "kernel(");
        for (int a = 0; a < p->kernel->nargs; a++)
            iron__str_printf(s, "%s%s%s", a ? ", " : "",
                             iron_dtype_name(p->kernel->args[a].dtype),
                             p->kernel->args[a].is_ptr ? "*" : "");
        iron__str_append(s, ")");
        return;
    }
}

iron_status iron__body_to_c(const iron_body *b, iron__str *src,
                            iron__str *arg_types)
{
    cgen g = { b, src, 0 };
    iron__str_append(src, iron__body_c_prelude);
    iron__str_printf(src, "\nvoid %s(", b->name);
    if (b->params.n == 0)
        iron__str_append(src, "void");
    for (int i = 0; i < b->params.n; i++) {
        const iron__body_param *p = &b->params.v[i];
        const char *sep = i ? ", " : "";
        switch (p->kind) {
        case IRON__BP_FIFO:
            iron__str_printf(src, "%siron_objfifo *p%d", sep, i);
            break;
        case IRON__BP_RTP:
            iron__str_printf(src, "%s%s *p%d", sep,
                             iron__dtype_ctype(p->rtp->dtype), i);
            break;
        case IRON__BP_BARRIER:
            iron__str_printf(src, "%siron_barrier *p%d", sep, i);
            break;
        case IRON__BP_KERNEL:
            iron__str_printf(src, "%siron__kfn%d p%d", sep, i, i);
            break;
        }
        if (i)
            iron__str_append(arg_types, ", ");
        arg_type(p, arg_types);
    }
    iron__str_append(src, ")\n{\n");
    g.depth = 1;
    declare(&g);
    emit_region(&g, 0);
    iron__str_append(src, "}\n");
    if (src->oom || arg_types->oom)
        return iron__fail(IRON_ENOMEM,
                          "out of memory writing body '%s' as C", b->name);
    return IRON_OK;
}
