/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * arith.c - the arith dialect's ops of a body and their typing rules,
 * as MLIR's verifier states them: constants, binary and unary ops on
 * one type, casts (widths strictly growing or shrinking, index only
 * through index_cast), comparisons giving i1, and select.
 */
#include <math.h>
#include <string.h>

#include "body/ir.h"

/* The one table of arith names: MLIR's printer, the messages and the
 * public iron_arith_name all read it. */
IRON_API const char *iron_arith_name(iron_arith op)
{
    static const char *const names[IRON_ARITH_COUNT_] = {
        [IRON_ARITH_ADDI] = "arith.addi",
        [IRON_ARITH_SUBI] = "arith.subi",
        [IRON_ARITH_MULI] = "arith.muli",
        [IRON_ARITH_DIVSI] = "arith.divsi",
        [IRON_ARITH_DIVUI] = "arith.divui",
        [IRON_ARITH_CEILDIVSI] = "arith.ceildivsi",
        [IRON_ARITH_FLOORDIVSI] = "arith.floordivsi",
        [IRON_ARITH_REMSI] = "arith.remsi",
        [IRON_ARITH_REMUI] = "arith.remui",
        [IRON_ARITH_ANDI] = "arith.andi",
        [IRON_ARITH_ORI] = "arith.ori",
        [IRON_ARITH_XORI] = "arith.xori",
        [IRON_ARITH_SHLI] = "arith.shli",
        [IRON_ARITH_SHRSI] = "arith.shrsi",
        [IRON_ARITH_SHRUI] = "arith.shrui",
        [IRON_ARITH_MAXSI] = "arith.maxsi",
        [IRON_ARITH_MINSI] = "arith.minsi",
        [IRON_ARITH_MAXUI] = "arith.maxui",
        [IRON_ARITH_MINUI] = "arith.minui",
        [IRON_ARITH_ADDF] = "arith.addf",
        [IRON_ARITH_SUBF] = "arith.subf",
        [IRON_ARITH_MULF] = "arith.mulf",
        [IRON_ARITH_DIVF] = "arith.divf",
        [IRON_ARITH_MAXIMUMF] = "arith.maximumf",
        [IRON_ARITH_MINIMUMF] = "arith.minimumf",
        [IRON_ARITH_NEGF] = "arith.negf",
        [IRON_ARITH_EXTSI] = "arith.extsi",
        [IRON_ARITH_EXTUI] = "arith.extui",
        [IRON_ARITH_TRUNCI] = "arith.trunci",
        [IRON_ARITH_SITOFP] = "arith.sitofp",
        [IRON_ARITH_UITOFP] = "arith.uitofp",
        [IRON_ARITH_FPTOSI] = "arith.fptosi",
        [IRON_ARITH_FPTOUI] = "arith.fptoui",
        [IRON_ARITH_EXTF] = "arith.extf",
        [IRON_ARITH_TRUNCF] = "arith.truncf",
        [IRON_ARITH_INDEX_CAST] = "arith.index_cast",
        [IRON_ARITH_INDEX_CASTUI] = "arith.index_castui",
        [IRON_ARITH_BITCAST] = "arith.bitcast",
    };
    return (unsigned)op < IRON_ARITH_COUNT_ ? names[op] : NULL;
}

const char *iron__body_arith_name(iron_arith op)
{
    const char *name = iron_arith_name(op);
    return name ? name : "arith.?";
}

IRON_API const char *iron_cmp_name(iron_cmp pred)
{
    static const char *const names[IRON_CMP_COUNT_] = {
        [IRON_CMP_EQ] = "eq",    [IRON_CMP_NE] = "ne",
        [IRON_CMP_SLT] = "slt",  [IRON_CMP_SLE] = "sle",
        [IRON_CMP_SGT] = "sgt",  [IRON_CMP_SGE] = "sge",
        [IRON_CMP_ULT] = "ult",  [IRON_CMP_ULE] = "ule",
        [IRON_CMP_UGT] = "ugt",  [IRON_CMP_UGE] = "uge",
        [IRON_CMP_OEQ] = "oeq",  [IRON_CMP_OGT] = "ogt",
        [IRON_CMP_OGE] = "oge",  [IRON_CMP_OLT] = "olt",
        [IRON_CMP_OLE] = "ole",  [IRON_CMP_ONE] = "one",
        [IRON_CMP_ORD] = "ord",  [IRON_CMP_UEQ] = "ueq",
        [IRON_CMP_UGTF] = "ugt", [IRON_CMP_UGEF] = "uge",
        [IRON_CMP_ULTF] = "ult", [IRON_CMP_ULEF] = "ule",
        [IRON_CMP_UNE] = "une",  [IRON_CMP_UNO] = "uno",
    };
    return (unsigned)pred < IRON_CMP_COUNT_ ? names[pred] : NULL;
}

const char *iron__body_cmp_name(iron_cmp pred)
{
    const char *name = iron_cmp_name(pred);
    return name ? name : "?";
}

/* The op's one result of type t: op `kind` on in[0 .. nin) with the
 * sub-kind `sub` (the arith op or the predicate). */
static iron_val one_result(iron_body *b, iron__bop_kind kind,
                           const iron_val *in, int nin, int sub,
                           iron_body_type t)
{
    int i = iron__body_add_op(b, kind, in, nin);
    if (i < 0)
        return IRON_VAL_NONE;
    b->ops.v[i].sub = sub;
    return iron__body_result(b, i, t);
}

/* Both operands of one type; IRON_OK or the sticky error. */
static iron_status same_type(iron_body *b, const char *name, iron_val x,
                             iron_val y)
{
    iron_body_type t = b->vals.v[x].t;
    if (b->vals.v[y].t == t)
        return IRON_OK;
    return iron__body_fail(b, IRON_EDTYPE, name,
                           "operands of two types, %s and %s; expected one",
                           iron__body_scalar_text(t),
                           iron__body_scalar_text(b->vals.v[y].t));
}

/* Checks that v is a visible scalar; IRON_OK or the sticky error. */
static iron_status scalar(iron_body *b, const char *op, const char *what,
                          iron_val v)
{
    iron_status s = iron__body_use(b, op, what, v);
    if (s != IRON_OK)
        return s;
    if (!iron__body_is_scalar(b->vals.v[v].t)) {
        char t[192];
        return iron__body_fail(b, IRON_EDTYPE, op,
                               "%s is %s; expected an integer, index or "
                               "float value",
                               what, iron__body_val_text(b, v, t, sizeof t));
    }
    return IRON_OK;
}

/* bfloat16 nearest-even from a double in one rounding: round to odd in
 * float first (24 bits keep the rounding of the 8 bfloat16 bits exact),
 * then to nearest even as iron_bf16_from_float does. */
static double round_bf16(double v)
{
    if (v != v)
        return v;
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((double)f != v) {
        if (fabs((double)f) > fabs(v))
            u -= 1;             /* toward zero (inf becomes FLT_MAX) */
        u |= 1;                 /* inexact: odd */
    }
    memcpy(&f, &u, sizeof f);
    return (double)iron_bf16_to_float(iron_bf16_from_float(f));
}

IRON_API iron_val iron_body_const_int(iron_body *b, iron_body_type t,
                                      int64_t v)
{
    const char *op = "arith.constant";
    if (iron__body_ready(b, "iron_body_const_int", op) != IRON_OK)
        return IRON_VAL_NONE;
    if (!iron__body_is_intlike(t)) {
        iron__body_fail(b, IRON_EDTYPE, op,
                        "type %s is not an integer or index type (floats: "
                        "iron_body_const_float)",
                        iron__body_scalar_text(t));
        return IRON_VAL_NONE;
    }
    int w = iron__body_width(t);
    if (w < 64) {
        int64_t lo = -((int64_t)1 << (w - 1));
        int64_t hi = ((int64_t)1 << w) - 1;
        if (v < lo || v > hi) {
            iron__body_fail(b, IRON_EINVAL, op,
                            "%lld does not fit %s (expected %lld .. %lld, "
                            "read as signed or unsigned)",
                            (long long)v, iron__body_scalar_text(t),
                            (long long)lo, (long long)hi);
            return IRON_VAL_NONE;
        }
        /* Kept sign-extended, as MLIR prints a signless constant. */
        uint64_t m = ((uint64_t)1 << w) - 1, u = (uint64_t)v & m;
        uint64_t sign = (uint64_t)1 << (w - 1);
        v = (u & sign) ? -(int64_t)(m - u) - 1 : (int64_t)u;
    }
    int i = iron__body_add_op(b, IRON__BOP_CONST, NULL, 0);
    if (i < 0)
        return IRON_VAL_NONE;
    b->ops.v[i].imm = v;
    return iron__body_result(b, i, t);
}

IRON_API iron_val iron_body_const_float(iron_body *b, iron_body_type t,
                                        double v)
{
    const char *op = "arith.constant";
    if (iron__body_ready(b, "iron_body_const_float", op) != IRON_OK)
        return IRON_VAL_NONE;
    if (!iron__body_is_float(t)) {
        iron__body_fail(b, IRON_EDTYPE, op,
                        "type %s is not a float type (integers: "
                        "iron_body_const_int)",
                        iron__body_scalar_text(t));
        return IRON_VAL_NONE;
    }
    int i = iron__body_add_op(b, IRON__BOP_CONST, NULL, 0);
    if (i < 0)
        return IRON_VAL_NONE;
    b->ops.v[i].fimm = t == IRON_BT_F64   ? v
                       : t == IRON_BT_F32 ? (double)(float)v
                                          : round_bf16(v);
    return iron__body_result(b, i, t);
}

IRON_API iron_val iron_body_arith(iron_body *b, iron_arith op, iron_val x,
                                  iron_val y)
{
    if (iron__body_ready(b, "iron_body_arith", "arith") != IRON_OK)
        return IRON_VAL_NONE;
    if ((unsigned)op > IRON_ARITH_NEGF) {
        if ((unsigned)op < IRON_ARITH_COUNT_)
            iron__body_fail(b, IRON_EINVAL, iron__body_arith_name(op),
                            "is a cast; make it with iron_body_cast");
        else
            iron__body_fail(b, IRON_EINVAL, "arith",
                            "op %d is not an arith op", (int)op);
        return IRON_VAL_NONE;
    }
    const char *name = iron__body_arith_name(op);
    int unary = op == IRON_ARITH_NEGF;
    if (scalar(b, name, "operand x", x) != IRON_OK)
        return IRON_VAL_NONE;
    if (unary && y != IRON_VAL_NONE) {
        iron__body_fail(b, IRON_EINVAL, name,
                        "takes one operand; pass IRON_VAL_NONE as y");
        return IRON_VAL_NONE;
    }
    if (!unary && scalar(b, name, "operand y", y) != IRON_OK)
        return IRON_VAL_NONE;
    iron_body_type t = b->vals.v[x].t;
    if (!unary && same_type(b, name, x, y) != IRON_OK)
        return IRON_VAL_NONE;
    int float_op = op >= IRON_ARITH_ADDF;
    if (float_op != iron__body_is_float(t)) {
        iron__body_fail(b, IRON_EDTYPE, name,
                        "expected %s operands, got %s",
                        float_op ? "float (bf16, f32, f64)"
                                 : "integer or index",
                        iron__body_scalar_text(t));
        return IRON_VAL_NONE;
    }
    iron_val in[2] = { x, y };
    return one_result(b, IRON__BOP_ARITH, in, unary ? 1 : 2, (int)op, t);
}

/* Why a cast of `from` to `to` is not one of op's, or NULL if it is. */
static const char *cast_rule(iron_arith op, iron_body_type from,
                             iron_body_type to)
{
    int wf = iron__body_width(from), wt = iron__body_width(to);
    int fi = iron__body_is_int(from), ti = iron__body_is_int(to);
    int ff = iron__body_is_float(from), tf = iron__body_is_float(to);
    switch (op) {
    case IRON_ARITH_EXTSI:
    case IRON_ARITH_EXTUI:
        return fi && ti && wt > wf ? NULL
                                   : "expected an integer (not index) "
                                     "widened to a wider integer";
    case IRON_ARITH_TRUNCI:
        return fi && ti && wt < wf ? NULL
                                   : "expected an integer (not index) "
                                     "narrowed to a narrower integer";
    case IRON_ARITH_SITOFP:
    case IRON_ARITH_UITOFP:
        return fi && tf ? NULL
                        : "expected an integer (not index) to a float";
    case IRON_ARITH_FPTOSI:
    case IRON_ARITH_FPTOUI:
        return ff && ti ? NULL
                        : "expected a float to an integer (not index)";
    case IRON_ARITH_EXTF:
        return ff && tf && wt > wf ? NULL
                                   : "expected a float widened to a wider "
                                     "float";
    case IRON_ARITH_TRUNCF:
        return ff && tf && wt < wf ? NULL
                                   : "expected a float narrowed to a "
                                     "narrower float";
    case IRON_ARITH_INDEX_CAST:
    case IRON_ARITH_INDEX_CASTUI:
        return (from == IRON_BT_INDEX && ti) || (fi && to == IRON_BT_INDEX)
                   ? NULL
                   : "expected an integer to index or index to an integer";
    case IRON_ARITH_BITCAST:
        return (fi || ff) && (ti || tf) && wf == wt
                   ? NULL
                   : "expected an integer or float to one of the same "
                     "width (not index)";
    default:
        return "not a cast";
    }
}

IRON_API iron_val iron_body_cast(iron_body *b, iron_arith op, iron_val x,
                                 iron_body_type to)
{
    if (iron__body_ready(b, "iron_body_cast", "cast") != IRON_OK)
        return IRON_VAL_NONE;
    if ((unsigned)op >= IRON_ARITH_COUNT_ || op < IRON_ARITH_EXTSI) {
        if ((unsigned)op < IRON_ARITH_COUNT_)
            iron__body_fail(b, IRON_EINVAL, iron__body_arith_name(op),
                            "is not a cast; make it with iron_body_arith");
        else
            iron__body_fail(b, IRON_EINVAL, "cast",
                            "op %d is not an arith op", (int)op);
        return IRON_VAL_NONE;
    }
    const char *name = iron__body_arith_name(op);
    if (scalar(b, name, "operand", x) != IRON_OK)
        return IRON_VAL_NONE;
    iron_body_type from = b->vals.v[x].t;
    if (!iron__body_is_scalar(to)) {
        iron__body_fail(b, IRON_EDTYPE, name,
                        "result type %d is not an integer, index or float "
                        "type",
                        (int)to);
        return IRON_VAL_NONE;
    }
    const char *why = cast_rule(op, from, to);
    if (why) {
        iron__body_fail(b, IRON_EDTYPE, name, "%s, got %s to %s", why,
                        iron__body_scalar_text(from),
                        iron__body_scalar_text(to));
        return IRON_VAL_NONE;
    }
    return one_result(b, IRON__BOP_CAST, &x, 1, (int)op, to);
}

IRON_API iron_val iron_body_cmp(iron_body *b, iron_cmp pred, iron_val x,
                                iron_val y)
{
    if (iron__body_ready(b, "iron_body_cmp", "arith.cmpi") != IRON_OK)
        return IRON_VAL_NONE;
    if ((unsigned)pred >= IRON_CMP_COUNT_) {
        iron__body_fail(b, IRON_EINVAL, "arith.cmpi",
                        "predicate %d is not an iron_cmp", (int)pred);
        return IRON_VAL_NONE;
    }
    int fpred = pred >= IRON_CMP_OEQ;
    const char *name = fpred ? "arith.cmpf" : "arith.cmpi";
    if (scalar(b, name, "operand x", x) != IRON_OK ||
        scalar(b, name, "operand y", y) != IRON_OK)
        return IRON_VAL_NONE;
    iron_body_type t = b->vals.v[x].t;
    if (same_type(b, name, x, y) != IRON_OK)
        return IRON_VAL_NONE;
    if (fpred != iron__body_is_float(t)) {
        iron__body_fail(b, IRON_EDTYPE, name,
                        "predicate %s compares %s, got %s operands",
                        iron__body_cmp_name(pred),
                        fpred ? "floats (integers: eq .. uge)"
                              : "integers or index (floats: oeq .. uno)",
                        iron__body_scalar_text(t));
        return IRON_VAL_NONE;
    }
    iron_val in[2] = { x, y };
    return one_result(b, IRON__BOP_CMP, in, 2, (int)pred, IRON_BT_I1);
}

IRON_API iron_val iron_body_select(iron_body *b, iron_val c, iron_val x,
                                   iron_val y)
{
    const char *name = "arith.select";
    if (iron__body_ready(b, "iron_body_select", name) != IRON_OK)
        return IRON_VAL_NONE;
    if (scalar(b, name, "condition", c) != IRON_OK ||
        scalar(b, name, "operand x", x) != IRON_OK ||
        scalar(b, name, "operand y", y) != IRON_OK)
        return IRON_VAL_NONE;
    if (b->vals.v[c].t != IRON_BT_I1) {
        iron__body_fail(b, IRON_EDTYPE, name,
                        "the condition is %s; expected i1",
                        iron__body_scalar_text(b->vals.v[c].t));
        return IRON_VAL_NONE;
    }
    iron_body_type t = b->vals.v[x].t;
    if (same_type(b, name, x, y) != IRON_OK)
        return IRON_VAL_NONE;
    iron_val in[3] = { c, x, y };
    return one_result(b, IRON__BOP_SELECT, in, 3, 0, t);
}
