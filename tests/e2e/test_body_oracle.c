/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_body_oracle.c - the translation oracle: random programs of arith
 * (integer and float ops, casts, comparisons, select), scf (for with
 * carried values, nested; if with results; while) and memref loads and
 * stores, run two ways on the same random inputs, bit for bit:
 *   (a) built as a body in a design (input objects in, output objects
 *       out) and run on the emulator through a jit: the C translation;
 *   (b) the same body printed as MLIR (iron__mlx_body_text), its
 *       objectfifo ops replaced by a func.func's memref arguments, plus
 *       a @main filling the inputs and printing the outputs through an
 *       external function, lowered by mlir-opt and run by
 *       mlir-cpu-runner: MLIR's own semantics.
 * Inputs that are poison in MLIR are kept out by guards built into the
 * programs: divisors forced nonzero (and not -1 for signed division),
 * shift amounts masked below the width, floats clamped into range (and
 * NaN replaced) before conversion to integers; and one that MLIR 19's
 * lowering gets wrong: a minimum dividend of ceildivsi / floordivsi
 * (arith-expand, which the lowering needs for them, negates it).  Float
 * results compare bit for bit except that any NaN equals any NaN
 * (payloads are not specified).  Seeded, so every run checks the same
 * programs (70 of them, about 10 s).  The tools are found as every MLIR
 * test finds them ($IRON_MLIR_OPT, $IRON_MLIR_RUNNER, then
 * mlir-opt-19 / mlir-cpu-runner-19, mlir-opt / mlir-runner /
 * mlir-cpu-runner on PATH); without them the test fails.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "body/body.h"
#include "design/design.h"
#include "mlir/export.h"
#include "test.h"

enum {
    E = 16,              /* elements per object */
    BATCH = 10,          /* programs per body (one compile) */
    NBATCH = 7,          /* 70 programs */
    POOL = 48,
    NMEM = 6
};
/* The memrefs a program sees: input objects of int32 and float32, an
 * input buffer of uint8 (a memref of ui8, read through casts to i8),
 * output objects of int32 and float32, and a scratch buffer of uint8
 * (written, read back and added to the int32 output).  A compute tile
 * has two DMA channels each way, so the uint8 data travel in buffers
 * (iron_body_rtp) with initial values. */
enum { MEM_II, MEM_IF, MEM_IU, MEM_OI, MEM_OF, MEM_OU };
static const char *const mem_name[NMEM] = { "ii", "if", "iu",
                                            "oi", "of", "ou" };
static const iron_dtype mem_dtype[NMEM] = { IRON_INT32, IRON_FLOAT32,
                                            IRON_UINT8, IRON_INT32,
                                            IRON_FLOAT32, IRON_UINT8 };
static const char *const mem_type[NMEM] = {
    "memref<16xi32>", "memref<16xf32>", "memref<16xui8>",
    "memref<16xi32>", "memref<16xf32>", "memref<16xui8>",
};
#define SEED 0x5eed1234abcdULL

/* --- the program generator ------------------------------------------------
 * A program is a deterministic function of its seed: replayed on two
 * bodies it makes the same builder calls, whatever value numbers each
 * body gives.  It keeps a pool of the values visible at the insertion
 * point (cut back when a region closes).  No argument list holds two
 * calls that draw random numbers: C leaves their order to the compiler,
 * and gcc and clang would make different programs. */

typedef struct gen {
    iron_body *b;
    uint64_t s;
    iron_val mem[NMEM];
    iron_val pool[POOL];
    int npool;
    int floor;           /* entries below belong to enclosing regions */
    int depth;
    int budget;
} gen;

static uint64_t rnd(gen *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int pick(gen *g, int n)
{
    return (int)(rnd(g) % (uint64_t)n);
}

static iron_body_type ty(gen *g, iron_val v)
{
    return iron_body_value_type(g->b, v);
}

static int is_float(iron_body_type t)
{
    return t == IRON_BT_BF16 || t == IRON_BT_F32 || t == IRON_BT_F64;
}

static int width(iron_body_type t)
{
    static const int w[] = { 1, 8, 16, 32, 64, 64, 16, 32, 64 };
    return w[t];
}

static iron_val ok(iron_val v)
{
    if (v < 0)
        TEST_FAIL_("builder call failed: %s", iron_last_error());
    return v;
}

static void add(gen *g, iron_val v)
{
    ok(v);
    if (g->npool < POOL)
        g->pool[g->npool++] = v;
    else if (g->floor < POOL)
        g->pool[g->floor + pick(g, POOL - g->floor)] = v;
}

static iron_body_type int_type(gen *g)
{
    static const iron_body_type t[] = {
        IRON_BT_I1, IRON_BT_I8, IRON_BT_I16, IRON_BT_I32, IRON_BT_I32,
        IRON_BT_I32, IRON_BT_I64, IRON_BT_I64, IRON_BT_INDEX,
    };
    return t[pick(g, (int)(sizeof t / sizeof t[0]))];
}

static iron_body_type float_type(gen *g)
{
    static const iron_body_type t[] = { IRON_BT_BF16, IRON_BT_F32,
                                        IRON_BT_F32, IRON_BT_F64 };
    return t[pick(g, 4)];
}

static iron_body_type any_type(gen *g)
{
    return pick(g, 3) ? int_type(g) : float_type(g);
}

static iron_val cint(gen *g, iron_body_type t, int64_t v)
{
    return ok(iron_body_const_int(g->b, t, v));
}

static iron_val mkconst(gen *g, iron_body_type t)
{
    if (is_float(t)) {
        static const double f[] = { 0.0, -0.0, 1.0, -1.5, 0.1, 3.0e10,
                                    -7.25e-3, 1.0e-30, 65504.0, 2.5 };
        double v = pick(g, 3) ? f[pick(g, 10)]
                              : (double)(int64_t)(rnd(g) % 2001) / 16.0 -
                                    62.0;
        return ok(iron_body_const_float(g->b, t, v));
    }
    if (t == IRON_BT_I1)
        return cint(g, t, pick(g, 2));
    int w = width(t);
    int64_t max = w == 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1;
    int64_t min = -max - 1;
    switch (pick(g, 8)) {
    case 0: return cint(g, t, min);
    case 1: return cint(g, t, max);
    case 2: return cint(g, t, -1);
    case 3: return cint(g, t, 0);
    default: {
        int64_t v = (int64_t)(rnd(g) % 200) - 100;
        if (pick(g, 4) == 0)
            v = (int64_t)rnd(g);
        uint64_t m = w == 64 ? ~0ULL : (1ULL << w) - 1;
        uint64_t u = (uint64_t)v & m, sign = 1ULL << (w - 1);
        return cint(g, t, (u & sign) ? -(int64_t)(m - u) - 1 : (int64_t)u);
    }
    }
}

/* A pool value of type t, or a new constant. */
static iron_val get(gen *g, iron_body_type t)
{
    int idx[POOL], n = 0;
    for (int i = 0; i < g->npool; i++)
        if (ty(g, g->pool[i]) == t)
            idx[n++] = i;
    if (n > 0 && pick(g, 5) != 0)
        return g->pool[idx[pick(g, n)]];
    return mkconst(g, t);
}

static iron_val arith(gen *g, iron_arith op, iron_val x, iron_val y)
{
    return ok(iron_body_arith(g->b, op, x, y));
}

/* Nonzero, and not -1 for signed division. */
static iron_val divisor(gen *g, iron_val y, int is_signed)
{
    iron_body_type t = ty(g, y);
    iron_val y1 = arith(g, IRON_ARITH_ORI, y, cint(g, t, 1));
    if (!is_signed)
        return y1;
    iron_val m1 = ok(iron_body_cmp(g->b, IRON_CMP_EQ, y1, cint(g, t, -1)));
    return ok(iron_body_select(g->b, m1, cint(g, t, 3), y1));
}

static void int_binop(gen *g)
{
    static const iron_arith ops[] = {
        IRON_ARITH_ADDI,   IRON_ARITH_SUBI,       IRON_ARITH_MULI,
        IRON_ARITH_DIVSI,  IRON_ARITH_DIVUI,      IRON_ARITH_CEILDIVSI,
        IRON_ARITH_FLOORDIVSI, IRON_ARITH_REMSI,  IRON_ARITH_REMUI,
        IRON_ARITH_ANDI,   IRON_ARITH_ORI,        IRON_ARITH_XORI,
        IRON_ARITH_SHLI,   IRON_ARITH_SHRSI,      IRON_ARITH_SHRUI,
        IRON_ARITH_MAXSI,  IRON_ARITH_MINSI,      IRON_ARITH_MAXUI,
        IRON_ARITH_MINUI,  IRON_ARITH_ADDI,       IRON_ARITH_MULI,
    };
    iron_body_type t = int_type(g);
    iron_arith op = ops[pick(g, (int)(sizeof ops / sizeof ops[0]))];
    int sdiv = op == IRON_ARITH_DIVSI || op == IRON_ARITH_CEILDIVSI ||
               op == IRON_ARITH_FLOORDIVSI || op == IRON_ARITH_REMSI;
    if (sdiv && t == IRON_BT_I1)
        t = IRON_BT_I8;         /* i1 has no divisor but 0 and -1 */
    iron_val x = get(g, t), y = get(g, t);
    if (op == IRON_ARITH_CEILDIVSI || op == IRON_ARITH_FLOORDIVSI) {
        /* mlir-opt 19's arith-expand rewrites these with -n, which
         * overflows for the minimum: keep it out of the dividend (unit
         * tests check ours against the op's definition there). */
        int w = width(t);
        int64_t min = w == 64 ? INT64_MIN : -((int64_t)1 << (w - 1));
        x = arith(g, IRON_ARITH_MAXSI, x, cint(g, t, min + 1));
    }
    if (sdiv)
        y = divisor(g, y, 1);
    else if (op == IRON_ARITH_DIVUI || op == IRON_ARITH_REMUI)
        y = divisor(g, y, 0);
    else if (op >= IRON_ARITH_SHLI && op <= IRON_ARITH_SHRUI)
        y = arith(g, IRON_ARITH_ANDI, y, cint(g, t, width(t) - 1));
    add(g, arith(g, op, x, y));
}

static void float_binop(gen *g)
{
    static const iron_arith ops[] = {
        IRON_ARITH_ADDF, IRON_ARITH_SUBF, IRON_ARITH_MULF, IRON_ARITH_DIVF,
        IRON_ARITH_MAXIMUMF, IRON_ARITH_MINIMUMF, IRON_ARITH_NEGF,
        IRON_ARITH_ADDF, IRON_ARITH_MULF,
    };
    iron_body_type t = float_type(g);
    iron_arith op = ops[pick(g, 9)];
    iron_val x = get(g, t);
    if (op == IRON_ARITH_NEGF)
        add(g, arith(g, op, x, IRON_VAL_NONE));
    else
        add(g, arith(g, op, x, get(g, t)));
}

static iron_val cast(gen *g, iron_arith op, iron_val x, iron_body_type to)
{
    return ok(iron_body_cast(g->b, op, x, to));
}

/* A float value made safe for fptosi / fptoui to an integer of width w:
 * NaN becomes 0, then clamped well inside the range. */
static iron_val clamp_for(gen *g, iron_val f, int w, int is_signed)
{
    static const double shi[] = { 0, 120, 30000, 2.0e9, 9.0e18 };
    static const double uhi[] = { 1, 250, 65000, 4.0e9, 1.8e19 };
    int k = w == 1 ? 0 : w == 8 ? 1 : w == 16 ? 2 : w == 32 ? 3 : 4;
    iron_body_type t = ty(g, f);
    double hi = is_signed ? shi[k] : uhi[k];
    double lo = is_signed ? (w == 1 ? -1.0 : -hi) : 0.0;
    iron_val nan = ok(iron_body_cmp(g->b, IRON_CMP_UNO, f, f));
    iron_val z = ok(iron_body_const_float(g->b, t, 0.0));
    iron_val f1 = ok(iron_body_select(g->b, nan, z, f));
    iron_val f2 = arith(g, IRON_ARITH_MAXIMUMF, f1,
                        ok(iron_body_const_float(g->b, t, lo)));
    return arith(g, IRON_ARITH_MINIMUMF, f2,
                 ok(iron_body_const_float(g->b, t, hi)));
}

static void do_cast(gen *g)
{
    switch (pick(g, 8)) {
    case 0: {                   /* extsi / extui / trunci */
        iron_body_type a = (iron_body_type)pick(g, 5);
        iron_body_type b = (iron_body_type)pick(g, 5);
        if (a == b)
            return;
        iron_val x = get(g, a);
        iron_arith op = a < b ? (pick(g, 2) ? IRON_ARITH_EXTSI
                                            : IRON_ARITH_EXTUI)
                              : IRON_ARITH_TRUNCI;
        add(g, cast(g, op, x, b));
        return;
    }
    case 1: {                   /* sitofp / uitofp */
        iron_body_type a = (iron_body_type)pick(g, 5);
        iron_body_type b = float_type(g);
        iron_val x = get(g, a);
        add(g, cast(g, pick(g, 2) ? IRON_ARITH_SITOFP : IRON_ARITH_UITOFP,
                    x, b));
        return;
    }
    case 2: {                   /* fptosi / fptoui, guarded */
        iron_body_type a = float_type(g);
        iron_body_type b = (iron_body_type)pick(g, 5);
        int s = pick(g, 2);
        iron_val x = clamp_for(g, get(g, a), width(b), s);
        add(g, cast(g, s ? IRON_ARITH_FPTOSI : IRON_ARITH_FPTOUI, x, b));
        return;
    }
    case 3: {                   /* extf / truncf */
        iron_body_type a = float_type(g), b = float_type(g);
        if (a == b)
            return;
        add(g, cast(g, width(a) < width(b) ? IRON_ARITH_EXTF
                                           : IRON_ARITH_TRUNCF,
                    get(g, a), b));
        return;
    }
    case 4:                     /* index_cast / index_castui */
    case 5: {
        iron_body_type a = (iron_body_type)pick(g, 5);
        iron_arith op = pick(g, 2) ? IRON_ARITH_INDEX_CAST
                                   : IRON_ARITH_INDEX_CASTUI;
        if (pick(g, 2))
            add(g, cast(g, op, get(g, a), IRON_BT_INDEX));
        else
            add(g, cast(g, op, get(g, IRON_BT_INDEX), a));
        return;
    }
    default: {                  /* bitcast */
        static const iron_body_type pairs[][2] = {
            { IRON_BT_I16, IRON_BT_BF16 }, { IRON_BT_I32, IRON_BT_F32 },
            { IRON_BT_I64, IRON_BT_F64 },
        };
        int k = pick(g, 3), dir = pick(g, 2);
        iron_body_type a = pairs[k][dir], b = pairs[k][1 - dir];
        add(g, cast(g, IRON_ARITH_BITCAST, get(g, a), b));
        return;
    }
    }
}

static void cmp_select(gen *g)
{
    iron_body_type t = any_type(g);
    iron_val x = get(g, t), y = get(g, t);
    iron_cmp p = is_float(t) ? (iron_cmp)(IRON_CMP_OEQ + pick(g, 14))
                             : (iron_cmp)pick(g, 10);
    iron_val c = ok(iron_body_cmp(g->b, p, x, y));
    add(g, c);
    iron_body_type u = any_type(g);
    iron_val a = get(g, u);     /* one call per statement: argument */
    iron_val b = get(g, u);     /* order is the compiler's choice */
    add(g, ok(iron_body_select(g->b, c, a, b)));
}

/* An index 0 .. E-1 made from a pool value. */
static iron_val some_index(gen *g)
{
    iron_body_type t = int_type(g);
    iron_val x = get(g, t);
    iron_val m = arith(g, IRON_ARITH_ANDI, x,
                       cint(g, t, t == IRON_BT_I1 ? 1 : E - 1));
    if (t == IRON_BT_INDEX)
        return m;
    return cast(g, IRON_ARITH_INDEX_CASTUI, m, IRON_BT_INDEX);
}

static void load(gen *g)
{
    iron_val i = some_index(g);
    static const int from[] = { MEM_II, MEM_IF, MEM_IU, MEM_II, MEM_IF };
    add(g, ok(iron_body_load(g->b, g->mem[from[pick(g, 5)]], 1, &i)));
}

/* v as i32 (integers) or f32 (floats). */
static iron_val to32(gen *g, iron_val v)
{
    iron_body_type t = ty(g, v);
    switch (t) {
    case IRON_BT_I1: return cast(g, IRON_ARITH_EXTUI, v, IRON_BT_I32);
    case IRON_BT_I8:
    case IRON_BT_I16: return cast(g, IRON_ARITH_EXTSI, v, IRON_BT_I32);
    case IRON_BT_I64: return cast(g, IRON_ARITH_TRUNCI, v, IRON_BT_I32);
    case IRON_BT_INDEX:
        return cast(g, IRON_ARITH_INDEX_CAST, v, IRON_BT_I32);
    case IRON_BT_BF16: return cast(g, IRON_ARITH_EXTF, v, IRON_BT_F32);
    case IRON_BT_F64: return cast(g, IRON_ARITH_TRUNCF, v, IRON_BT_F32);
    default: return v;
    }
}

static void store_to(gen *g, iron_val v, int mem, iron_val i)
{
    if (iron_body_store(g->b, v, g->mem[mem], 1, &i) != IRON_OK)
        TEST_FAIL_("store: %s", iron_last_error());
}

/* v into oi or of (as i32 or f32), or as i8 into the scratch ou. */
static void store_at(gen *g, iron_val v, iron_val i)
{
    iron_val w = to32(g, v);
    if (ty(g, w) == IRON_BT_F32)
        store_to(g, w, MEM_OF, i);
    else if (pick(g, 3))
        store_to(g, w, MEM_OI, i);
    else
        store_to(g, cast(g, IRON_ARITH_TRUNCI, w, IRON_BT_I8), MEM_OU, i);
}

static void store(gen *g)
{
    iron_val i = some_index(g);
    store_at(g, get(g, any_type(g)), i);
}

static void stmts(gen *g, int n);

static void gen_for(gen *g)
{
    int64_t lb = pick(g, 7) - 3, ub = lb + pick(g, 6), st = 1 + pick(g, 3);
    int n = pick(g, 3);
    iron_val init[2], iter[2], yl[2], res[2];
    for (int k = 0; k < n; k++)
        init[k] = get(g, any_type(g));
    iron_val iv = ok(iron_body_for(g->b, cint(g, IRON_BT_INDEX, lb),
                                   cint(g, IRON_BT_INDEX, ub),
                                   cint(g, IRON_BT_INDEX, st), n, init,
                                   iter));
    int saved = g->npool, fl = g->floor;
    g->floor = saved;
    add(g, iv);
    for (int k = 0; k < n; k++)
        add(g, iter[k]);
    g->depth++;
    stmts(g, 2 + pick(g, 4));
    g->depth--;
    for (int k = 0; k < n; k++)
        yl[k] = get(g, ty(g, init[k]));
    if (iron_body_end_for(g->b, n, yl, res) != IRON_OK)
        TEST_FAIL_("end_for: %s", iron_last_error());
    g->npool = saved;
    g->floor = fl;
    for (int k = 0; k < n; k++)
        add(g, res[k]);
}

static void gen_if(gen *g)
{
    int n = pick(g, 3);
    iron_body_type t[2];
    t[0] = any_type(g);
    t[1] = any_type(g);
    iron_val yl[2], res[2];
    iron_val c = get(g, IRON_BT_I1);
    if (iron_body_if(g->b, c, n) != IRON_OK)
        TEST_FAIL_("if: %s", iron_last_error());
    int saved = g->npool, fl = g->floor;
    g->floor = saved;
    g->depth++;
    stmts(g, 1 + pick(g, 3));
    for (int k = 0; k < n; k++)
        yl[k] = get(g, t[k]);
    g->npool = saved;
    if (n > 0 || pick(g, 2)) {
        if (iron_body_else(g->b, n, yl) != IRON_OK)
            TEST_FAIL_("else: %s", iron_last_error());
        stmts(g, 1 + pick(g, 3));
        for (int k = 0; k < n; k++)
            yl[k] = get(g, t[k]);
        g->npool = saved;
    }
    g->depth--;
    if (iron_body_end_if(g->b, n, yl, res) != IRON_OK)
        TEST_FAIL_("end_if: %s", iron_last_error());
    g->floor = fl;
    for (int k = 0; k < n; k++)
        add(g, res[k]);
}

/* A counting while: (count, acc) until count reaches a small limit. */
static void gen_while(gen *g)
{
    iron_body_type at = any_type(g);
    iron_val init[2];
    init[0] = cint(g, IRON_BT_I32, pick(g, 3) - 1);
    init[1] = get(g, at);
    iron_val arg[2], after[2], res[2];
    if (iron_body_while(g->b, 2, init, arg) != IRON_OK)
        TEST_FAIL_("while: %s", iron_last_error());
    int saved = g->npool, fl = g->floor;
    g->floor = saved;
    add(g, arg[1]);
    g->depth++;
    if (pick(g, 2))
        stmts(g, 1);
    iron_val lim = cint(g, IRON_BT_I32, pick(g, 5));
    iron_val c = ok(iron_body_cmp(g->b, IRON_CMP_SLT, arg[0], lim));
    if (iron_body_while_do(g->b, c, 2, arg, after) != IRON_OK)
        TEST_FAIL_("while_do: %s", iron_last_error());
    g->npool = saved;
    add(g, after[1]);
    stmts(g, 1 + pick(g, 3));
    iron_val yl[2] = {
        arith(g, IRON_ARITH_ADDI, after[0], cint(g, IRON_BT_I32, 1)),
        get(g, at),
    };
    g->depth--;
    if (iron_body_end_while(g->b, 2, yl, res) != IRON_OK)
        TEST_FAIL_("end_while: %s", iron_last_error());
    g->npool = saved;
    g->floor = fl;
    add(g, res[0]);
    add(g, res[1]);
}

static void stmts(gen *g, int n)
{
    for (int k = 0; k < n && g->budget > 0; k++) {
        g->budget--;
        switch (pick(g, 13)) {
        case 0: case 1: case 2: int_binop(g); break;
        case 3: case 4: float_binop(g); break;
        case 5: case 6: do_cast(g); break;
        case 7: cmp_select(g); break;
        case 8: load(g); break;
        case 9: store(g); break;
        case 10:
            if (g->depth < 2) {
                int c = pick(g, 3);
                if (c == 0)
                    gen_for(g);
                else if (c == 1)
                    gen_if(g);
                else
                    gen_while(g);
            }
            break;
        default: add(g, mkconst(g, any_type(g))); break;
        }
    }
}

/* Program `seed` on body b with the objects mem: zero the outputs, read
 * some inputs, compute, store every output element. */
static void program(iron_body *b, uint64_t seed, const iron_val *mem)
{
    gen g = { 0 };
    g.b = b;
    g.s = seed;
    memcpy(g.mem, mem, sizeof g.mem);
    g.budget = 40;
    iron_val i = ok(iron_body_for(b, cint(&g, IRON_BT_INDEX, 0),
                                  cint(&g, IRON_BT_INDEX, E),
                                  cint(&g, IRON_BT_INDEX, 1), 0, NULL,
                                  NULL));
    store_to(&g, cint(&g, IRON_BT_I32, 0), MEM_OI, i);
    store_to(&g, ok(iron_body_const_float(b, IRON_BT_F32, 0.0)), MEM_OF, i);
    store_to(&g, cint(&g, IRON_BT_I8, 0), MEM_OU, i);
    if (iron_body_end_for(b, 0, NULL, NULL) != IRON_OK)
        TEST_FAIL_("end_for: %s", iron_last_error());
    for (int k = 0; k < 3 * 3; k++) {
        iron_val c = cint(&g, IRON_BT_INDEX, pick(&g, E));
        add(&g, ok(iron_body_load(b, mem[k % 3], 1, &c)));
    }
    stmts(&g, 40);
    for (int k = 0; k < E; k++) {
        iron_val c = cint(&g, IRON_BT_INDEX, k);
        if (pick(&g, 2))
            store_to(&g, get(&g, IRON_BT_I8), MEM_OU, c);
        iron_val u = cast(&g, IRON_ARITH_EXTUI,
                          ok(iron_body_load(b, mem[MEM_OU], 1, &c)),
                          IRON_BT_I32);
        iron_val v = to32(&g, get(&g, int_type(&g)));
        store_to(&g, arith(&g, IRON_ARITH_ADDI, v, u), MEM_OI, c);
        store_to(&g, to32(&g, get(&g, float_type(&g))), MEM_OF, c);
    }
}

static uint64_t prog_seed(int p)
{
    return SEED + 0x1000193ULL * (uint64_t)p;
}

/* --- (a): the emulator ----------------------------------------------------
 * One body runs BATCH programs in turn, each on a fresh object of every
 * fifo; the worker ends after the batch. */

static void inputs(int p, int32_t *ii, float *fi, uint8_t *ui);

static int is_fifo(int k)
{
    return k != MEM_IU && k != MEM_OU;
}

static int batch_design(iron_design *d, void *user)
{
    (void)user;
    int batch = (int)iron_design_param_int(d, "batch");
    iron_body *b = iron_body_new(d, "oracle");
    iron_fifo *f[NMEM] = { 0 };
    iron_val h[NMEM];
    for (int k = 0; k < NMEM; k++)
        if (is_fifo(k)) {
            f[k] = iron_fifo_new(d, mem_name[k], mem_dtype[k],
                                 IRON_SHAPE(E), 2);
            h[k] = iron_body_fifo(b, k < MEM_OI ? iron_fifo_cons(f[k])
                                                : iron_fifo_prod(f[k]));
        }
    iron_val ou = iron_body_rtp(b, iron_rtp_new(d, "ou", IRON_UINT8, E));
    for (int p = 0; p < BATCH && iron_design_status(d) == IRON_OK; p++) {
        int32_t ii_[E];
        float fi_[E];
        uint8_t ui_[E];
        char name[16];
        inputs(batch * BATCH + p, ii_, fi_, ui_);
        snprintf(name, sizeof name, "iu%d", p);
        iron_rtp *iu = iron_rtp_new(d, name, IRON_UINT8, E);
        iron_rtp_set_initial(iu, ui_);
        iron_val mem[NMEM];
        for (int k = 0; k < NMEM; k++)
            if (is_fifo(k))
                mem[k] = iron_body_object(b, iron_body_acquire(b, h[k], 1),
                                          0);
        mem[MEM_IU] = iron_body_rtp(b, iu);
        mem[MEM_OU] = ou;
        program(b, prog_seed(batch * BATCH + p), mem);
        for (int k = 0; k < NMEM; k++)
            if (is_fifo(k))
                iron_body_release(b, h[k], 1);
    }
    iron_worker_new_body(d, "w", b);
    iron_tap t = iron_tap_linear(iron_design_arg_numel(d, 0));
    iron_rt_fill(d, iron_fifo_prod(f[MEM_II]), 0, t);
    iron_rt_fill(d, iron_fifo_prod(f[MEM_IF]), 1, t);
    iron_rt_drain(d, iron_fifo_cons(f[MEM_OI]), 2, t, IRON_NOWAIT);
    iron_rt_drain(d, iron_fifo_cons(f[MEM_OF]), 3, t, IRON_WAIT);
    return 0;
}

/* --- inputs -------------------------------------------------------------- */

static void inputs(int p, int32_t *ii, float *fi, uint8_t *ui)
{
    gen g = { 0 };
    g.s = prog_seed(p) ^ 0xabcdefULL;
    static const float special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f,
                                     1.0e20f, -3.0e-20f, 3.3895e38f,
                                     1.1754944e-38f, 7.0f };
    for (int k = 0; k < E; k++) {
        switch (pick(&g, 4)) {
        case 0: ii[k] = (int32_t)(uint32_t)rnd(&g); break;
        case 1: ii[k] = pick(&g, 2) ? INT32_MIN : INT32_MAX; break;
        default: ii[k] = pick(&g, 64) - 32; break;
        }
        switch (pick(&g, 3)) {
        case 0: fi[k] = special[pick(&g, 10)]; break;
        case 1: fi[k] = (float)(pick(&g, 20001) - 10000) / 64.0f; break;
        default: {
            /* any finite float */
            uint32_t u = (uint32_t)rnd(&g);
            if ((u & 0x7f800000u) == 0x7f800000u)
                u &= ~0x40000000u;
            memcpy(&fi[k], &u, sizeof u);
            break;
        }
        }
        ui[k] = (uint8_t)rnd(&g);
    }
}

/* --- (b): MLIR ----------------------------------------------------------- */

/* Program p as "func.func @prog<p>(...)": its body printed with
 * iron__mlx_body_text, the objectfifo ops dropped and the accessed
 * objects made the function's arguments, with the two buffers. */
static void mlir_program(int p, iron__str *m)
{
    iron_design *d;
    ASSERT_OK(iron__design_new(&d, "oracle", 0, NULL, 0, NULL, 1,
                               test_npu2_info(), NULL, 0, NULL));
    iron_body *b = iron_body_new(d, "prog");
    iron_val h[NMEM], mem[NMEM];
    static const char *const names[] = { "ii", "if", "oi", "of", "%iu",
                                         "%ou" };
    for (int k = 0; k < NMEM; k++)
        if (is_fifo(k)) {
            iron_fifo *f = iron_fifo_new(d, mem_name[k], mem_dtype[k],
                                         IRON_SHAPE(E), 2);
            h[k] = iron_body_fifo(b, k < MEM_OI ? iron_fifo_cons(f)
                                                : iron_fifo_prod(f));
        }
    mem[MEM_IU] = iron_body_rtp(b, iron_rtp_new(d, "iu", IRON_UINT8, E));
    mem[MEM_OU] = iron_body_rtp(b, iron_rtp_new(d, "ou", IRON_UINT8, E));
    for (int k = 0; k < NMEM; k++)
        if (is_fifo(k))
            mem[k] = iron_body_object(b, iron_body_acquire(b, h[k], 1), 0);
    program(b, prog_seed(p), mem);
    for (int k = 0; k < NMEM; k++)
        if (is_fifo(k))
            iron_body_release(b, h[k], 1);
    ASSERT_OK(iron_design_status(d));
    iron__str text = { 0 };
    iron__body_names nm = { names, "%v" };
    ASSERT_OK(iron__mlx_body_text(b, &nm, 2, &text));
    char args[4][32];
    int nargs = 0;
    iron__str body = { 0 };
    const char *s = iron__str_get(&text);
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (memmem(s, len, "aie.objectfifo.subview.access", 29)) {
            const char *q = s;
            while (*q == ' ')
                q++;
            ASSERT(nargs < 4);
            snprintf(args[nargs++], sizeof args[0], "%.*s",
                     (int)strcspn(q, " "), q);
        } else if (!memmem(s, len, "aie.objectfifo.", 15)) {
            iron__str_printf(&body, "%.*s\n", (int)len, s);
        }
        s += len + (e ? 1 : 0);
    }
    ASSERT_EQ(nargs, 4);
    iron__str_printf(m,
                     "func.func @prog%d(%s: memref<16xi32>, "
                     "%s: memref<16xf32>, %s: memref<16xi32>, "
                     "%s: memref<16xf32>, %%iu: memref<16xui8>, "
                     "%%ou: memref<16xui8>) {\n%s  return\n}\n",
                     p, args[0], args[1], args[2], args[3],
                     iron__str_get(&body));
    iron__str_free(&body);
    iron__str_free(&text);
    iron__design_free(d);
}

/* @main: each program on its inputs (constant globals), its outputs
 * printed element by element, oi then of, as i64. */
static void mlir_main(iron__str *m, int nprog)
{
    iron__str_append(m, "  func.func @main() {\n"
                        "    %c0 = arith.constant 0 : index\n"
                        "    %c1 = arith.constant 1 : index\n"
                        "    %c16 = arith.constant 16 : index\n");
    for (int p = 0; p < nprog; p++)
        iron__str_printf(
            m,
            "    %%ii%d = memref.get_global @ii%d : memref<16xi32>\n"
            "    %%if%d = memref.get_global @if%d : memref<16xf32>\n"
            "    %%iu%d = memref.get_global @iu%d : memref<16xui8>\n"
            "    %%oi%d = memref.alloc() : memref<16xi32>\n"
            "    %%of%d = memref.alloc() : memref<16xf32>\n"
            "    %%ou%d = memref.alloc() : memref<16xui8>\n"
            "    func.call @prog%d(%%ii%d, %%if%d, %%oi%d, %%of%d, %%iu%d, "
            "%%ou%d) : (memref<16xi32>, memref<16xf32>, memref<16xi32>, "
            "memref<16xf32>, memref<16xui8>, memref<16xui8>) -> ()\n"
            "    scf.for %%i = %%c0 to %%c16 step %%c1 {\n"
            "      %%x = memref.load %%oi%d[%%i] : memref<16xi32>\n"
            "      %%x64 = arith.extsi %%x : i32 to i64\n"
            "      func.call @oracle_out(%%x64) : (i64) -> ()\n"
            "      %%y = memref.load %%of%d[%%i] : memref<16xf32>\n"
            "      %%yb = arith.bitcast %%y : f32 to i32\n"
            "      %%y64 = arith.extui %%yb : i32 to i64\n"
            "      func.call @oracle_out(%%y64) : (i64) -> ()\n"
            "    }\n",
            p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p, p);
    iron__str_append(m, "    return\n  }\n}\n");
}

/* Finds an MLIR tool as the tests do: $env, then each name on PATH;
 * NULL when none. */
static const char *find_tool(const char *env, const char *const *names,
                             char *buf, size_t len)
{
    const char *e = getenv(env);
    if (e && *e)
        return e;
    const char *path = getenv("PATH");
    for (int i = 0; names[i]; i++) {
        const char *p = path ? path : "/usr/bin:/bin";
        while (*p) {
            size_t n = strcspn(p, ":");
            snprintf(buf, len, "%.*s/%s", (int)n, p, names[i]);
            if (access(buf, X_OK) == 0)
                return buf;
            p += n + (p[n] == ':');
        }
    }
    return NULL;
}

static int is_nan32(uint32_t u)
{
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0;
}

enum { P = BATCH * NBATCH };
static int32_t ii[P][E], oi[P][E], mi[P][E];
static float fi[P][E], of[P][E];
static uint32_t mf[P][E];
static uint8_t ui[P][E];

/* (a): each batch through the jit. */
static void run_emulator(void)
{
    iron_jit_options jo = { .size = sizeof jo, .name = "oracle",
                            .args = "in a, in b, out x, out y",
                            .params = "batch: int = 0" };
    iron_jit *j = test_new_jit(batch_design, &jo);
    for (int bt = 0; bt < NBATCH; bt++) {
        iron_tensor *t[4];
        void *host[4] = { ii[bt * BATCH], fi[bt * BATCH], oi[bt * BATCH],
                          of[bt * BATCH] };
        static const iron_dtype dt[4] = { IRON_INT32, IRON_FLOAT32,
                                          IRON_INT32, IRON_FLOAT32 };
        for (int k = 0; k < 4; k++) {
            t[k] = test_zeros(dt[k], BATCH * E);
            if (k < 2)
                ASSERT_OK(iron_tensor_copy_from(t[k], host[k],
                                                iron_tensor_nbytes(t[k])));
        }
        iron_launch_config c = { .size = sizeof c, .timeout_ms = 20000 };
        iron_status st = iron_jit_launch(
            j, &c, IRON_PARAMS(iron_param_int("batch", bt)),
            IRON_NO_SCALARS, 4, t);
        if (st != IRON_OK)
            TEST_FAIL_("batch %d: %s: %s", bt, iron_status_name(st),
                       iron_last_error());
        for (int k = 0; k < 4; k++) {
            if (k >= 2)
                ASSERT_OK(iron_tensor_copy_to(t[k], host[k],
                                              iron_tensor_nbytes(t[k])));
            iron_tensor_free(t[k]);
        }
    }
    iron_jit_free(j);
}

/* (b): one module, one lowering, one run; fails naming the tools' own
 * messages. */
static void run_mlir(const char *opt, const char *run, const char *dir)
{
    iron__str m = { 0 };
    iron__str_append(&m, "module {\n  func.func private @oracle_out(i64)\n");
    for (int p = 0; p < P; p++) {
        for (int k = 0; k < 3; k++) {
            iron__str_printf(&m, "  memref.global \"private\" constant "
                                 "@%s%d : %s = dense<[",
                             mem_name[k], p, mem_type[k]);
            for (int e = 0; e < E; e++) {
                uint32_t u;
                memcpy(&u, &fi[p][e], sizeof u);
                if (k == 0)
                    iron__str_printf(&m, "%s%d", e ? ", " : "", ii[p][e]);
                else if (k == 1)
                    iron__str_printf(&m, "%s0x%08X", e ? ", " : "", u);
                else
                    iron__str_printf(&m, "%s%u", e ? ", " : "", ui[p][e]);
            }
            iron__str_append(&m, "]>\n");
        }
        mlir_program(p, &m);
    }
    mlir_main(&m, P);
    ASSERT(!m.oom);
    char path[1024], cmd[4096];
    snprintf(path, sizeof path, "%s/oracle.mlir", dir);
    test_spit(path, iron__str_get(&m), m.len);
    iron__str_free(&m);
    snprintf(path, sizeof path, "%s/out.c", dir);
    /* The library the run calls: oracle_out, and compiler-rt's
     * __truncdfbf2 (f64 -> bf16, which LLVM calls for truncf and which
     * the runner's process lacks), written here by search and exact
     * distances -- not the way the body's C does it.  A bf16 return
     * travels in xmm0's low 16 bits, as a float's would. */
    static const char lib[] =
        "#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n"
        "void oracle_out(int64_t v);\n"
        "void oracle_out(int64_t v) { printf(\"%lld\\n\", (long long)v); }\n"
        "static double bf(unsigned b)\n"
        "{\n"
        "    uint32_t u = (uint32_t)b << 16; float f;\n"
        "    if (b == 0x7f80)\n"
        "        return 340282366920938463463374607431768211456.0;\n"
        "    memcpy(&f, &u, 4); return f;\n"
        "}\n"
        "float __truncdfbf2(double d);\n"
        "float __truncdfbf2(double d)\n"
        "{\n"
        "    uint64_t du; memcpy(&du, &d, 8);\n"
        "    unsigned sign = (unsigned)(du >> 48) & 0x8000u, r;\n"
        "    double a = d < 0 ? -d : d;\n"
        "    if (d != d) r = sign | 0x7fc0u;\n"
        "    else if (a >= bf(0x7f80)) r = sign | 0x7f80u;\n"
        "    else {\n"
        "        unsigned lo = 0, hi = 0x7f80;\n"
        "        while (hi - lo > 1) {\n"
        "            unsigned mid = (lo + hi) / 2;\n"
        "            if (bf(mid) <= a) lo = mid; else hi = mid;\n"
        "        }\n"
        "        double dl = a - bf(lo), dh = bf(hi) - a;\n"
        "        r = sign | (dl < dh   ? lo\n"
        "                    : dh < dl ? hi\n"
        "                    : (lo & 1) ? hi : lo);\n"
        "    }\n"
        "    uint32_t u = r; float f; memcpy(&f, &u, 4); return f;\n"
        "}\n";
    test_spit(path, lib, sizeof lib - 1);
    /* arith-expand: the LLVM lowering handles ceildivsi and floordivsi
     * only once expanded. */
    snprintf(cmd, sizeof cmd,
             "cc -shared -fPIC -o %s/liboracle.so %s/out.c && "
             "'%s' %s/oracle.mlir --arith-expand --convert-scf-to-cf "
             "--convert-arith-to-llvm --finalize-memref-to-llvm "
             "--convert-func-to-llvm --convert-cf-to-llvm "
             "--reconcile-unrealized-casts -o %s/low.mlir 2>%s/err.txt && "
             "'%s' %s/low.mlir -e main -entry-point-result=void "
             "-shared-libs=%s/liboracle.so 2>>%s/err.txt",
             dir, dir, opt, dir, dir, dir, run, dir, dir, dir);
    FILE *pipe = popen(cmd, "r");
    ASSERT(pipe != NULL);
    int got = 0;
    long long v;
    while (got < P * E * 2 && fscanf(pipe, "%lld", &v) == 1) {
        int p = got / (2 * E), k = (got % (2 * E)) / 2;
        if (got % 2 == 0)
            mi[p][k] = (int32_t)v;
        else
            mf[p][k] = (uint32_t)v;
        got++;
    }
    int rc = pclose(pipe);
    if (rc != 0 || got != P * E * 2) {
        snprintf(path, sizeof path, "%s/err.txt", dir);
        char *err = (char *)test_slurp(path, NULL);
        TEST_FAIL_("the MLIR run failed (status %d, %d values; module "
                   "kept in %s): %.3000s",
                   rc, got, dir, err);
    }
}

static int same(int p, int k)
{
    uint32_t u;
    memcpy(&u, &of[p][k], sizeof u);
    int fok = u == mf[p][k] || (is_nan32(u) && is_nan32(mf[p][k]));
    return fok && oi[p][k] == mi[p][k];
}

TEST_TIMEOUT(body_oracle_c_translation_matches_mlir, 120)
{
    char optb[512], runb[512];
    static const char *const opts[] = { "mlir-opt-19", "mlir-opt", NULL };
    static const char *const runs[] = { "mlir-cpu-runner-19", "mlir-runner",
                                        "mlir-cpu-runner", NULL };
    const char *opt = find_tool("IRON_MLIR_OPT", opts, optb, sizeof optb);
    const char *run = find_tool("IRON_MLIR_RUNNER", runs, runb, sizeof runb);
    if (!opt || !run)
        TEST_FAIL_("the MLIR tools are missing (%s%s): install Debian's "
                   "mlir-19-tools (apt-get install mlir-19-tools), or set "
                   "IRON_MLIR_OPT and IRON_MLIR_RUNNER",
                   opt ? "" : "mlir-opt ", run ? "" : "mlir-cpu-runner");
    for (int p = 0; p < P; p++)
        inputs(p, ii[p], fi[p], ui[p]);
    run_emulator();
    const char *dir = test_temp_dir("oracle");
    run_mlir(opt, run, dir);
    int bad = 0, first = -1;
    for (int p = 0; p < P; p++)
        for (int k = 0; k < E; k++) {
            if (same(p, k))
                continue;
            if (first < 0)
                first = p;
            if (bad++ < 10) {
                uint32_t u;
                memcpy(&u, &of[p][k], sizeof u);
                fprintf(stderr,
                        "program %d element %d: emulator %d / 0x%08x, "
                        "MLIR %d / 0x%08x\n",
                        p, k, oi[p][k], u, mi[p][k], mf[p][k]);
            }
        }
    if (bad) {
        iron__str one = { 0 };
        mlir_program(first, &one);
        TEST_FAIL_("%d elements differ (module kept in %s); program %d:\n%s",
                   bad, dir, first, iron__str_get(&one));
    }
    test_remove_dir(dir);
}
