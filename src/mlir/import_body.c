/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import_body.c - an aie.core region rebuilt as a described core body
 * (iron_body_*), op by op: arith, memref.load / store, scf.for / while /
 * if, object-fifo acquire / subview.access / release, func.call of an
 * external kernel, use_lock on a barrier.  Then the worker that runs it,
 * pinned at the core's tile.
 *
 * Values the core uses but does not define are made first, at the top of
 * the body: constants defined at device level, the run-time parameter
 * buffer an aie.buffer of the core's tile becomes, the barrier an aie.lock
 * becomes.  Accepted lock patterns (a barrier is a lock the runtime sets
 * and the core waits on): use_lock(L, Acquire, v) -- AIE2's acquire-equal,
 * waits until L holds v and leaves it -- and use_lock(L, Release, v),
 * which adds v; L on the core's own tile, used by that core only, set by
 * aiex.set_lock in the sequence.  AcquireGreaterEqual (a semaphore that
 * decrements) and non-blocking locks are refused.
 */
#include <stdio.h>
#include <string.h>

#include "mlir/import.h"

static iron_status body_block(iron__imp_ctx *c, const iron__mlir_block *blk,
                              const iron__mlir_op **term);
static iron_status check_call(iron__imp_ctx *c, const iron__mlir_op *op,
                              int *fi);

/* ---- values ------------------------------------------------------------- */

static void set_val(iron__imp_ctx *c, int id, iron_val v)
{
    c->vmap[id] = v;
    c->vtag[id] = c->core + 1;
}

static const char *vname(const iron__imp_ctx *c, int id)
{
    const iron__mlir_value *v = iron__mlir_value_at(c->m->mod, id);
    return v && v->name ? v->name : "?";
}

/* The body value of MLIR value id, used by op. */
static iron_status get_val(iron__imp_ctx *c, const iron__mlir_op *op, int id,
                           iron_val *out)
{
    if (c->vtag[id] == c->core + 1 && c->vmap[id] >= 0) {
        *out = c->vmap[id];
        return IRON_OK;
    }
    const iron__mlir_value *v = iron__mlir_value_at(c->m->mod, id);
    return iron__imp_dfail(c, IRON_ENOTSUP, op,
                           "operand %s (defined by %s) has no counterpart "
                           "in the core body",
                           vname(c, id),
                           v && v->def ? v->def->name : "a block argument");
}

static iron_status get_vals(iron__imp_ctx *c, const iron__mlir_op *op,
                            int first, int n, iron_val *out)
{
    for (int i = 0; i < n; i++)
        if (get_val(c, op, op->operands[first + i], &out[i]) != IRON_OK)
            return c->d->status;
    return IRON_OK;
}

static int body_type(const iron__mlir_type *t, iron_body_type *out)
{
    if (!t)
        return -1;
    switch (t->kind) {
    case IRON__MT_INT:
        if (t->sign != 0)
            return -1;
        switch (t->width) {
        case 1: *out = IRON_BT_I1; return 0;
        case 8: *out = IRON_BT_I8; return 0;
        case 16: *out = IRON_BT_I16; return 0;
        case 32: *out = IRON_BT_I32; return 0;
        case 64: *out = IRON_BT_I64; return 0;
        default: return -1;
        }
    case IRON__MT_INDEX: *out = IRON_BT_INDEX; return 0;
    case IRON__MT_FLOAT: {
        static const iron_body_type f[] = { IRON_BT_BF16, IRON_BT_F32,
                                            IRON_BT_F64 };
        int k = iron__imp_float_index(t);
        if (k < 0)
            return -1;
        *out = f[k];
        return 0;
    }
    case IRON__MT_MEMREF: *out = IRON_BT_MEMREF; return 0;
    default: return -1;
    }
}

/* Result r of op gets body value v, which must have the MLIR type. */
static iron_status set_result(iron__imp_ctx *c, const iron__mlir_op *op,
                              int r, iron_val v)
{
    int id = op->results[r];
    const iron__mlir_type *t = iron__imp_type_of(c->m, id);
    iron_body_type want;
    if (body_type(t, &want) != 0) {
        iron__str tt = { 0 };
        if (t)
            iron__mlir_type_text(t, &tt);
        iron_status s = iron__imp_dfail(c, IRON_ENOTSUP, op,
                                        "result %s has type %s, which core "
                                        "bodies do not have (i1..i64, index, "
                                        "bf16, f32, f64, memref)",
                                        vname(c, id), iron__str_get(&tt));
        iron__str_free(&tt);
        return s;
    }
    static const char *const names[] = { "i1",   "i8",  "i16",  "i32",
                                         "i64",  "index", "bf16", "f32",
                                         "f64",  "memref", "a handle" };
    iron_body_type got = iron_body_value_type(c->b, v);
    if (got >= IRON_BT_COUNT_)
        return iron__imp_dfail(c, IRON_EDESIGN, op, "result %s has no value",
                               vname(c, id));
    if (want != got)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "result %s is declared %s, but the op gives "
                               "%s from its operands",
                               vname(c, id), names[want], names[got]);
    set_val(c, id, v);
    return IRON_OK;
}

static int is_inside(const iron__mlir_op *op, const iron__mlir_op *outer)
{
    for (const iron__mlir_op *p = op; p; p = p->parent)
        if (p == outer)
            return 1;
    return 0;
}

/* ---- the objects a core names ------------------------------------------- */

/* The endpoint of fifo f on this core's tile, for Produce or Consume. */
static iron_status core_end(iron__imp_ctx *c, const iron__mlir_op *op, int f,
                            int produce, iron_handle **h)
{
    const iron_mlir *m = c->m;
    const iron__imp_fifo *fi = &m->fifos[f];
    iron__tile t = m->cores[c->core].tile;
    if (produce) {
        if (fi->prod.col == t.col && fi->prod.row == t.row) {
            *h = c->prod[f];
            c->prod_used[f] = 1;
            return IRON_OK;
        }
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "the core on tile (%d,%d) produces into "
                               "@%s, whose producer is tile (%d,%d)",
                               t.col, t.row, fi->name, fi->prod.col,
                               fi->prod.row);
    }
    for (int k = 0; k < fi->ncons; k++)
        if (fi->cons[k].col == t.col && fi->cons[k].row == t.row) {
            *h = c->cons[f][k];
            c->cons_used[f][k] = 1;
            return IRON_OK;
        }
    return iron__imp_dfail(c, IRON_EDESIGN, op,
                           "the core on tile (%d,%d) consumes @%s, which "
                           "does not reach that tile (first consumer: "
                           "(%d,%d))",
                           t.col, t.row, fi->name, fi->cons[0].col,
                           fi->cons[0].row);
}

static iron_status fifo_val(iron__imp_ctx *c, const iron__mlir_op *op,
                            int *fifo, int *produce, iron_val *fv)
{
    static const char *const ports[] = { "Produce", "Consume" };
    const iron__mlir_attr *a = iron__mlir_attr_get(op, "objFifo_name");
    *fifo = a && a->kind == IRON__MA_SYMREF ? iron__imp_fifo_at(c->m, a->s)
                                            : -1;
    if (*fifo < 0)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "%s%s is not an object fifo of the module",
                               a && a->s ? "@" : "fifo ",
                               a && a->s ? a->s : "(missing)");
    const char *port = iron__imp_enum_attr(op, "port", ports, 2);
    if (!port || (strcmp(port, "Produce") && strcmp(port, "Consume")))
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "port: expected Produce or Consume");
    *produce = strcmp(port, "Produce") == 0;
    iron_handle *h = NULL;
    if (core_end(c, op, *fifo, *produce, &h) != IRON_OK)
        return c->d->status;
    *fv = iron_body_fifo(c->b, h);
    iron__imp_check(c, op);
    return c->d->status;
}

/* The run-time parameter buffer an aie.buffer becomes, for this core. */
static iron_status buffer_val(iron__imp_ctx *c, const iron__mlir_op *user,
                              int bi, iron_val *out)
{
    const iron_mlir *m = c->m;
    const iron__imp_buf *b = &m->bufs[bi];
    iron__tile t = m->cores[c->core].tile;
    if (b->tile.col != t.col || b->tile.row != t.row)
        return iron__imp_dfail(c, IRON_ENOTSUP, user,
                               "buffer %s is on tile (%d,%d), not the "
                               "core's (%d,%d): neighbour memory is not "
                               "supported",
                               b->name, b->tile.col, b->tile.row, t.col,
                               t.row);
    if (c->rtp[bi] && c->rtp_core[bi] != c->core)
        return iron__imp_dfail(c, IRON_ENOTSUP, user,
                               "buffer %s is used by two cores", b->name);
    if (!c->rtp[bi]) {
        c->rtp[bi] = iron_rtp_new(c->d, b->name, b->dtype, b->count);
        if (iron__imp_check(c, b->op))
            return c->d->status;
        c->rtp_core[bi] = c->core;
        if (b->initial) {
            iron_rtp_set_initial(c->rtp[bi], b->initial);
            if (iron__imp_check(c, b->op))
                return c->d->status;
        }
    }
    *out = iron_body_rtp(c->b, c->rtp[bi]);
    iron__imp_check(c, user);
    return c->d->status;
}

static iron_status lock_val(iron__imp_ctx *c, const iron__mlir_op *user,
                            int li, iron_val *out)
{
    const iron_mlir *m = c->m;
    const iron__imp_lock *l = &m->locks[li];
    iron__tile t = m->cores[c->core].tile;
    if (l->tile.col != t.col || l->tile.row != t.row)
        return iron__imp_dfail(c, IRON_ENOTSUP, user,
                               "lock %s is on tile (%d,%d), not the core's "
                               "(%d,%d): a barrier lives on its core's tile",
                               l->name, l->tile.col, l->tile.row, t.col,
                               t.row);
    if (c->barrier[li] && c->barrier_core[li] != c->core)
        return iron__imp_dfail(c, IRON_ENOTSUP, user,
                               "lock %s is used by two cores", l->name);
    if (!c->barrier[li]) {
        c->barrier[li] = iron_barrier_new(c->d, l->name);
        if (iron__imp_check(c, l->op))
            return c->d->status;
        c->barrier_core[li] = c->core;
        iron_barrier_set_initial(c->barrier[li], l->init);
        if (iron__imp_check(c, l->op))
            return c->d->status;
    }
    *out = iron_body_barrier(c->b, c->barrier[li]);
    iron__imp_check(c, user);
    return c->d->status;
}

/* A value defined outside the core, made at the top of the body. */
static iron_status outside_val(iron__imp_ctx *c, const iron__mlir_op *user,
                               int id)
{
    const iron_mlir *m = c->m;
    const iron__mlir_value *v = iron__mlir_value_at(m->mod, id);
    const iron__mlir_op *def = v ? v->def : NULL;
    iron_val r = IRON_VAL_NONE;
    if (m->buf_of[id] >= 0) {
        if (buffer_val(c, user, m->buf_of[id], &r) != IRON_OK)
            return c->d->status;
    } else if (m->lock_of[id] >= 0) {
        if (lock_val(c, user, m->lock_of[id], &r) != IRON_OK)
            return c->d->status;
    } else if (def && strcmp(def->name, "arith.constant") == 0) {
        const iron__mlir_attr *a = iron__mlir_attr_get(def, "value");
        iron_body_type t;
        if (!a || body_type(v->type, &t) != 0 ||
            (a->kind != IRON__MA_INT && a->kind != IRON__MA_FLOAT))
            return iron__imp_dfail(c, IRON_ENOTSUP, def,
                                   "a constant the core uses must be an "
                                   "integer or float scalar");
        r = a->kind == IRON__MA_INT ? iron_body_const_int(c->b, t, a->i)
                                    : iron_body_const_float(c->b, t, a->f);
        if (iron__imp_check(c, def))
            return c->d->status;
    } else {
        return iron__imp_dfail(c, IRON_ENOTSUP, user,
                               "operand %s is defined outside the core by "
                               "%s; a core uses constants, buffers and locks "
                               "from outside",
                               vname(c, id), def ? def->name : "a block");
    }
    set_val(c, id, r);
    return IRON_OK;
}

/* The external kernel func f, made on its first call. */
static iron_status kernel_val(iron__imp_ctx *c, const iron__mlir_op *call,
                              int f, iron_val *out)
{
    const iron__imp_func *fn = &c->m->funcs[f];
    if (!fn->source)
        return iron__imp_dfail(c, IRON_EINVAL, call,
                               "no C source was given for @%s, declared at "
                               "%d:%d (give it in the kernel table: "
                               "iron_mlir_kernel, or --kernel %s=FILE.c)",
                               fn->name, fn->op->loc.line, fn->op->loc.col,
                               fn->name);
    if (!fn->arg_types)
        return iron__imp_dfail(c, IRON_ENOTSUP, call,
                               "@%s (declared at %d:%d) has a parameter or "
                               "result a C kernel cannot take: kernels take "
                               "memrefs (as T*) and i8..i64, bf16, f32, f64 "
                               "scalars, and return nothing",
                               fn->name, fn->op->loc.line, fn->op->loc.col);
    if (!c->kernel[f]) {
        c->kernel[f] = iron_kernel_new(c->d, fn->name, fn->source,
                                       fn->arg_types);
        if (c->kernel[f] && fn->lang)
            iron_kernel_set_lang(c->kernel[f], fn->lang);
        if (iron__imp_check(c, fn->op))
            return c->d->status;
    }
    *out = iron_body_kernel(c->b, c->kernel[f]);
    iron__imp_check(c, call);
    return c->d->status;
}

/* Names, in order of first use, everything the core uses from outside:
 * fifos, kernels, buffers, locks, constants. */
static iron_status prepass(iron__imp_ctx *c, const iron__mlir_op *core,
                           const iron__mlir_region *r)
{
    for (int bi = 0; bi < r->nblocks; bi++) {
        const iron__mlir_block *blk = r->blocks[bi];
        for (int i = 0; i < blk->nops; i++) {
            const iron__mlir_op *op = blk->ops[i];
            for (int k = 0; k < op->noperands; k++) {
                int id = op->operands[k];
                const iron__mlir_value *v = iron__mlir_value_at(c->m->mod, id);
                if (!v || !v->def || is_inside(v->def, core) ||
                    c->vtag[id] == c->core + 1)
                    continue;
                if (outside_val(c, op, id) != IRON_OK)
                    return c->d->status;
            }
            int f, produce;
            iron_val x;
            if ((strcmp(op->name, "aie.objectfifo.acquire") == 0 ||
                 strcmp(op->name, "aie.objectfifo.release") == 0) &&
                fifo_val(c, op, &f, &produce, &x) != IRON_OK)
                return c->d->status;
            if (strcmp(op->name, "func.call") == 0 &&
                (check_call(c, op, &f) != IRON_OK ||
                 kernel_val(c, op, f, &x) != IRON_OK))
                return c->d->status;
            for (int k = 0; k < op->nregions; k++)
                if (prepass(c, core, op->regions[k]) != IRON_OK)
                    return c->d->status;
        }
    }
    return IRON_OK;
}

/* Whether an op of region r (or of regions within) uses value id. */
static int region_uses(const iron__mlir_region *r, int id)
{
    for (int bi = 0; bi < r->nblocks; bi++)
        for (int i = 0; i < r->blocks[bi]->nops; i++) {
            const iron__mlir_op *op = r->blocks[bi]->ops[i];
            for (int k = 0; k < op->noperands; k++)
                if (op->operands[k] == id)
                    return 1;
            for (int k = 0; k < op->nregions; k++)
                if (region_uses(op->regions[k], id))
                    return 1;
        }
    return 0;
}

/* The buffers and locks of the core's tile that it uses, in the order
 * the module declares them: the body's parameters follow it, so a
 * module exported again declares them in the same order (the prepass
 * then makes the rest by first use). */
static iron_status tile_objects(iron__imp_ctx *c, const iron__mlir_op *core,
                                const iron__mlir_region *r)
{
    const iron_mlir *m = c->m;
    iron__tile t = m->cores[c->core].tile;
    for (int i = 0; i < m->nbufs; i++)
        if (m->bufs[i].tile.col == t.col && m->bufs[i].tile.row == t.row &&
            region_uses(r, m->bufs[i].value) &&
            outside_val(c, core, m->bufs[i].value) != IRON_OK)
            return c->d->status;
    for (int i = 0; i < m->nlocks; i++)
        if (m->locks[i].tile.col == t.col && m->locks[i].tile.row == t.row &&
            region_uses(r, m->locks[i].value) &&
            outside_val(c, core, m->locks[i].value) != IRON_OK)
            return c->d->status;
    return IRON_OK;
}

/* ---- arith -------------------------------------------------------------- */

typedef struct name_op {
    const char *name;
    iron_arith op;
} name_op;

static const name_op binary_ops[] = {
    { "addi", IRON_ARITH_ADDI },         { "subi", IRON_ARITH_SUBI },
    { "muli", IRON_ARITH_MULI },         { "divsi", IRON_ARITH_DIVSI },
    { "divui", IRON_ARITH_DIVUI },       { "ceildivsi", IRON_ARITH_CEILDIVSI },
    { "floordivsi", IRON_ARITH_FLOORDIVSI },
    { "remsi", IRON_ARITH_REMSI },       { "remui", IRON_ARITH_REMUI },
    { "andi", IRON_ARITH_ANDI },         { "ori", IRON_ARITH_ORI },
    { "xori", IRON_ARITH_XORI },         { "shli", IRON_ARITH_SHLI },
    { "shrsi", IRON_ARITH_SHRSI },       { "shrui", IRON_ARITH_SHRUI },
    { "maxsi", IRON_ARITH_MAXSI },       { "minsi", IRON_ARITH_MINSI },
    { "maxui", IRON_ARITH_MAXUI },       { "minui", IRON_ARITH_MINUI },
    { "addf", IRON_ARITH_ADDF },         { "subf", IRON_ARITH_SUBF },
    { "mulf", IRON_ARITH_MULF },         { "divf", IRON_ARITH_DIVF },
    { "maximumf", IRON_ARITH_MAXIMUMF }, { "minimumf", IRON_ARITH_MINIMUMF },
};

static const name_op cast_ops[] = {
    { "extsi", IRON_ARITH_EXTSI },       { "extui", IRON_ARITH_EXTUI },
    { "trunci", IRON_ARITH_TRUNCI },     { "sitofp", IRON_ARITH_SITOFP },
    { "uitofp", IRON_ARITH_UITOFP },     { "fptosi", IRON_ARITH_FPTOSI },
    { "fptoui", IRON_ARITH_FPTOUI },     { "extf", IRON_ARITH_EXTF },
    { "truncf", IRON_ARITH_TRUNCF },
    { "index_cast", IRON_ARITH_INDEX_CAST },
    { "index_castui", IRON_ARITH_INDEX_CASTUI },
    { "bitcast", IRON_ARITH_BITCAST },
};

static int find_op(const name_op *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return (int)i;
    return -1;
}

int iron__imp_arith_reads(const char *what)
{
    static const char *const others[] = { "constant", "cmpi", "cmpf",
                                          "select", "negf" };
    for (size_t i = 0; i < IRON__COUNT_OF(others); i++)
        if (strcmp(others[i], what) == 0)
            return 1;
    return find_op(binary_ops, IRON__COUNT_OF(binary_ops), what) >= 0 ||
           find_op(cast_ops, IRON__COUNT_OF(cast_ops), what) >= 0;
}

/* arith.cmpi and arith.cmpf predicates in upstream's enum order (the
 * generic form prints the number). */
static const char *const cmpi_names[] = { "eq",  "ne",  "slt", "sle", "sgt",
                                          "sge", "ult", "ule", "ugt", "uge" };
static const char *const cmpf_names[] = {
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"
};
static const iron_cmp cmpf_preds[] = {
    IRON_CMP_COUNT_, IRON_CMP_OEQ,  IRON_CMP_OGT,  IRON_CMP_OGE,
    IRON_CMP_OLT,    IRON_CMP_OLE,  IRON_CMP_ONE,  IRON_CMP_ORD,
    IRON_CMP_UEQ,    IRON_CMP_UGTF, IRON_CMP_UGEF, IRON_CMP_ULTF,
    IRON_CMP_ULEF,   IRON_CMP_UNE,  IRON_CMP_UNO,  IRON_CMP_COUNT_
};

static iron_status arith_op(iron__imp_ctx *c, const iron__mlir_op *op,
                            const char *what)
{
    iron_val x[3];
    iron_val r = IRON_VAL_NONE;
    int k;
    if (op->nresults != 1)
        return iron__imp_dfail(c, IRON_EDESIGN, op, "expected one result");
    if (strcmp(what, "constant") == 0) {
        const iron__mlir_attr *a = iron__mlir_attr_get(op, "value");
        iron_body_type t;
        if (!a || body_type(iron__imp_type_of(c->m, op->results[0]), &t) ||
            (a->kind != IRON__MA_INT && a->kind != IRON__MA_FLOAT &&
             a->kind != IRON__MA_BOOL))
            return iron__imp_dfail(c, IRON_ENOTSUP, op,
                                   "only integer and float scalar "
                                   "constants");
        r = a->kind == IRON__MA_FLOAT ? iron_body_const_float(c->b, t, a->f)
                                      : iron_body_const_int(c->b, t, a->i);
    } else if (strcmp(what, "cmpi") == 0 || strcmp(what, "cmpf") == 0) {
        int fl = what[3] == 'f';
        const char *p = fl ? iron__imp_enum_attr(op, "predicate", cmpf_names,
                                                 16)
                           : iron__imp_enum_attr(op, "predicate", cmpi_names,
                                                 10);
        int pi = -1;
        for (int i = 0; p && i < (fl ? 16 : 10); i++)
            if (strcmp(p, fl ? cmpf_names[i] : cmpi_names[i]) == 0)
                pi = i;
        iron_cmp pred = pi < 0 ? IRON_CMP_COUNT_
                        : fl   ? cmpf_preds[pi]
                               : (iron_cmp)pi;
        if (pred == IRON_CMP_COUNT_)
            return iron__imp_dfail(c, IRON_ENOTSUP, op,
                                   "predicate %s is not supported",
                                   p ? p : "(missing)");
        if (op->noperands != 2 || get_vals(c, op, 0, 2, x) != IRON_OK)
            return c->d->status ? c->d->status
                                : iron__imp_dfail(c, IRON_EDESIGN, op,
                                                  "expected 2 operands");
        r = iron_body_cmp(c->b, pred, x[0], x[1]);
    } else if (strcmp(what, "select") == 0) {
        if (op->noperands != 3 || get_vals(c, op, 0, 3, x) != IRON_OK)
            return c->d->status ? c->d->status
                                : iron__imp_dfail(c, IRON_EDESIGN, op,
                                                  "expected 3 operands");
        r = iron_body_select(c->b, x[0], x[1], x[2]);
    } else if (strcmp(what, "negf") == 0) {
        if (op->noperands != 1 || get_vals(c, op, 0, 1, x) != IRON_OK)
            return c->d->status ? c->d->status
                                : iron__imp_dfail(c, IRON_EDESIGN, op,
                                                  "expected 1 operand");
        r = iron_body_arith(c->b, IRON_ARITH_NEGF, x[0], IRON_VAL_NONE);
    } else if ((k = find_op(binary_ops, IRON__COUNT_OF(binary_ops), what)) >=
               0) {
        if (op->noperands != 2 || get_vals(c, op, 0, 2, x) != IRON_OK)
            return c->d->status ? c->d->status
                                : iron__imp_dfail(c, IRON_EDESIGN, op,
                                                  "expected 2 operands");
        r = iron_body_arith(c->b, binary_ops[k].op, x[0], x[1]);
    } else if ((k = find_op(cast_ops, IRON__COUNT_OF(cast_ops), what)) >= 0) {
        iron_body_type to;
        if (op->noperands != 1 || get_vals(c, op, 0, 1, x) != IRON_OK)
            return c->d->status ? c->d->status
                                : iron__imp_dfail(c, IRON_EDESIGN, op,
                                                  "expected 1 operand");
        if (body_type(iron__imp_type_of(c->m, op->results[0]), &to) != 0)
            return iron__imp_dfail(c, IRON_ENOTSUP, op,
                                   "the result type has no body type");
        r = iron_body_cast(c->b, cast_ops[k].op, x[0], to);
    } else {
        return iron__imp_dfail(c, IRON_ENOTSUP, op,
                               "not in the imported subset of arith (docs/"
                               "mlir.md lists the ops)");
    }
    if (iron__imp_check(c, op))
        return c->d->status;
    return set_result(c, op, 0, r);
}

/* ---- memref ------------------------------------------------------------- */

/* The indices of a load or store (operands first .. first+n-1) for
 * memory `mem`: a multi-dimensional aie.buffer is one row-major run in
 * its run-time parameter buffer, so its indices become one. */
static iron_status mem_index(iron__imp_ctx *c, const iron__mlir_op *op,
                             int mem, int first, int n, iron_val *idx,
                             int *nidx)
{
    if (n > IRON__MLIR_MAX_RANK)
        return iron__imp_dfail(c, IRON_ENOTSUP, op, "too many indices");
    if (get_vals(c, op, first, n, idx) != IRON_OK)
        return c->d->status;
    *nidx = n;
    const iron__mlir_type *t = iron__imp_type_of(c->m, mem);
    if (c->m->buf_of[mem] < 0 || !t || t->rank <= 1)
        return IRON_OK;
    if (n != t->rank)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "%d indices into a buffer of rank %d", n,
                               t->rank);
    iron_val lin = idx[0];
    for (int i = 1; i < n; i++) {
        iron_val dim = iron_body_const_int(c->b, IRON_BT_INDEX, t->dims[i]);
        lin = iron_body_arith(c->b, IRON_ARITH_MULI, lin, dim);
        lin = iron_body_arith(c->b, IRON_ARITH_ADDI, lin, idx[i]);
    }
    if (iron__imp_check(c, op))
        return c->d->status;
    idx[0] = lin;
    *nidx = 1;
    return IRON_OK;
}

static iron_status memref_op(iron__imp_ctx *c, const iron__mlir_op *op)
{
    iron_val idx[IRON__MLIR_MAX_RANK], v, mem;
    int nidx;
    if (strcmp(op->name, "memref.load") == 0) {
        if (op->noperands < 1 || op->nresults != 1)
            return iron__imp_dfail(c, IRON_EDESIGN, op,
                                   "expected a memref, indices and one "
                                   "result");
        if (get_val(c, op, op->operands[0], &mem) != IRON_OK ||
            mem_index(c, op, op->operands[0], 1, op->noperands - 1, idx,
                      &nidx) != IRON_OK)
            return c->d->status;
        v = iron_body_load(c->b, mem, nidx, idx);
        if (iron__imp_check(c, op))
            return c->d->status;
        return set_result(c, op, 0, v);
    }
    if (strcmp(op->name, "memref.store") == 0) {
        if (op->noperands < 2)
            return iron__imp_dfail(c, IRON_EDESIGN, op,
                                   "expected a value, a memref and indices");
        if (get_val(c, op, op->operands[0], &v) != IRON_OK ||
            get_val(c, op, op->operands[1], &mem) != IRON_OK ||
            mem_index(c, op, op->operands[1], 2, op->noperands - 2, idx,
                      &nidx) != IRON_OK)
            return c->d->status;
        iron_body_store(c->b, v, mem, nidx, idx);
        iron__imp_check(c, op);
        return c->d->status;
    }
    return iron__imp_dfail(c, IRON_ENOTSUP, op,
                           "only memref.load and memref.store are imported");
}

/* ---- scf ---------------------------------------------------------------- */

#define MAX_CARRIED 64

static const iron__mlir_block *one_block(iron__imp_ctx *c,
                                         const iron__mlir_op *op, int r)
{
    if (r >= op->nregions || op->regions[r]->nblocks != 1) {
        iron__imp_dfail(c, IRON_ENOTSUP, op,
                        "region %d has %d blocks; structured control flow "
                        "has one",
                        r, r < op->nregions ? op->regions[r]->nblocks : 0);
        return NULL;
    }
    return op->regions[r]->blocks[0];
}

/* The values a region's terminator (term, or none) passes on. */
static iron_status term_vals(iron__imp_ctx *c, const iron__mlir_op *term,
                             const char *want, int first, int *n,
                             iron_val *out, const iron__mlir_op *owner)
{
    *n = 0;
    if (!term)
        return IRON_OK;
    if (strcmp(term->name, want) != 0)
        return iron__imp_dfail(c, IRON_EDESIGN, term,
                               "the region of %s at %d:%d ends with %s; "
                               "expected %s",
                               owner->name, owner->loc.line, owner->loc.col,
                               term->name, want);
    if (term->noperands - first > MAX_CARRIED)
        return iron__imp_dfail(c, IRON_ENOTSUP, term, "too many values");
    *n = term->noperands - first;
    return get_vals(c, term, first, *n, out);
}

static iron_status bind_args(iron__imp_ctx *c, const iron__mlir_block *blk,
                             int first, int n, const iron_val *v)
{
    for (int i = 0; i < n && first + i < blk->nargs; i++)
        set_val(c, blk->args[first + i], v[i]);
    return IRON_OK;
}

static iron_status set_results(iron__imp_ctx *c, const iron__mlir_op *op,
                               const iron_val *r)
{
    for (int i = 0; i < op->nresults; i++)
        if (set_result(c, op, i, r[i]) != IRON_OK)
            return c->d->status;
    return IRON_OK;
}

static iron_status scf_for(iron__imp_ctx *c, const iron__mlir_op *op)
{
    iron_val b3[3], init[MAX_CARRIED], iter[MAX_CARRIED], y[MAX_CARRIED],
        res[MAX_CARRIED];
    const iron__mlir_block *blk = one_block(c, op, 0);
    if (!blk)
        return c->d->status;
    int ninit = op->noperands - 3;
    if (ninit < 0 || ninit > MAX_CARRIED || blk->nargs != 1 + ninit ||
        op->nresults != ninit)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "expected lb, ub, step, the carried values, "
                               "and as many block arguments and results");
    const iron__mlir_type *it = iron__imp_type_of(c->m, op->operands[0]);
    if (!it || it->kind != IRON__MT_INDEX)
        return iron__imp_dfail(c, IRON_ENOTSUP, op,
                               "loops over index only (this one's bounds "
                               "are integers)");
    if (get_vals(c, op, 0, 3, b3) != IRON_OK ||
        get_vals(c, op, 3, ninit, init) != IRON_OK)
        return c->d->status;
    iron_val iv = iron_body_for(c->b, b3[0], b3[1], b3[2], ninit, init, iter);
    if (iron__imp_check(c, op))
        return c->d->status;
    set_val(c, blk->args[0], iv);
    bind_args(c, blk, 1, ninit, iter);
    const iron__mlir_op *term = NULL;
    int ny;
    if (body_block(c, blk, &term) != IRON_OK ||
        term_vals(c, term, "scf.yield", 0, &ny, y, op) != IRON_OK)
        return c->d->status;
    iron_body_end_for(c->b, ny, y, res);
    if (iron__imp_check(c, term ? term : op))
        return c->d->status;
    return set_results(c, op, res);
}

static iron_status scf_while(iron__imp_ctx *c, const iron__mlir_op *op)
{
    iron_val init[MAX_CARRIED], arg[MAX_CARRIED], fwd[MAX_CARRIED],
        after[MAX_CARRIED], y[MAX_CARRIED], res[MAX_CARRIED];
    const iron__mlir_block *before = one_block(c, op, 0);
    const iron__mlir_block *after_b = before ? one_block(c, op, 1) : NULL;
    if (!after_b)
        return c->d->status;
    int ninit = op->noperands;
    if (ninit > MAX_CARRIED || op->nresults > MAX_CARRIED ||
        before->nargs != ninit)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "expected as many before-region arguments "
                               "as initial values");
    if (get_vals(c, op, 0, ninit, init) != IRON_OK)
        return c->d->status;
    iron_body_while(c->b, ninit, init, arg);
    if (iron__imp_check(c, op))
        return c->d->status;
    bind_args(c, before, 0, ninit, arg);
    const iron__mlir_op *term = NULL;
    int nf;
    if (body_block(c, before, &term) != IRON_OK)
        return c->d->status;
    if (!term || strcmp(term->name, "scf.condition") != 0 ||
        term->noperands < 1)
        return iron__imp_dfail(c, IRON_EDESIGN, term ? term : op,
                               "the before region of scf.while ends with "
                               "scf.condition");
    iron_val cond;
    if (get_val(c, term, term->operands[0], &cond) != IRON_OK ||
        term_vals(c, term, "scf.condition", 1, &nf, fwd, op) != IRON_OK)
        return c->d->status;
    iron_body_while_do(c->b, cond, nf, fwd, after);
    if (iron__imp_check(c, term))
        return c->d->status;
    bind_args(c, after_b, 0, nf, after);
    int ny;
    term = NULL;
    if (body_block(c, after_b, &term) != IRON_OK ||
        term_vals(c, term, "scf.yield", 0, &ny, y, op) != IRON_OK)
        return c->d->status;
    iron_body_end_while(c->b, ny, y, res);
    if (iron__imp_check(c, term ? term : op))
        return c->d->status;
    return set_results(c, op, res);
}

static iron_status scf_if(iron__imp_ctx *c, const iron__mlir_op *op)
{
    iron_val cond, y[MAX_CARRIED], res[MAX_CARRIED];
    if (op->noperands != 1 || op->nresults > MAX_CARRIED)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "expected one condition");
    const iron__mlir_block *then_b = one_block(c, op, 0);
    if (!then_b || get_val(c, op, op->operands[0], &cond) != IRON_OK)
        return c->d->status;
    int has_else = op->nregions > 1 && op->regions[1]->nblocks > 0;
    const iron__mlir_block *else_b = has_else ? one_block(c, op, 1) : NULL;
    if (has_else && !else_b)
        return c->d->status;
    iron_body_if(c->b, cond, op->nresults);
    if (iron__imp_check(c, op))
        return c->d->status;
    const iron__mlir_op *term = NULL;
    int ny;
    if (body_block(c, then_b, &term) != IRON_OK ||
        term_vals(c, term, "scf.yield", 0, &ny, y, op) != IRON_OK)
        return c->d->status;
    if (else_b) {
        iron_body_else(c->b, ny, y);
        if (iron__imp_check(c, term ? term : op))
            return c->d->status;
        term = NULL;
        if (body_block(c, else_b, &term) != IRON_OK ||
            term_vals(c, term, "scf.yield", 0, &ny, y, op) != IRON_OK)
            return c->d->status;
    }
    iron_body_end_if(c->b, ny, y, res);
    if (iron__imp_check(c, term ? term : op))
        return c->d->status;
    return set_results(c, op, res);
}

/* ---- aie: object fifos and locks ---------------------------------------- */

static iron_status acquire(iron__imp_ctx *c, const iron__mlir_op *op)
{
    int f, produce, ok = 0;
    iron_val fv;
    if (fifo_val(c, op, &f, &produce, &fv) != IRON_OK)
        return c->d->status;
    const iron__imp_fifo *fi = &c->m->fifos[f];
    int64_t n = iron__imp_int_attr(op, "size", 1, &ok);
    if (ok < 0 || n < 1 || n > 16 || op->nresults != 1)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "expected a size of 1 to 16 and one result");
    const iron__mlir_type *rt = iron__imp_type_of(c->m, op->results[0]);
    int direct = rt && rt->kind == IRON__MT_MEMREF;   /* oldest form */
    const iron__mlir_type *et = direct ? rt
                                : rt && rt->kind == IRON__MT_DIALECT
                                    ? rt->elem
                                    : NULL;
    if (!iron__imp_same_type(et, fi->elem)) {
        iron__str a = { 0 }, b = { 0 };
        if (et)
            iron__mlir_type_text(et, &a);
        iron__mlir_type_text(fi->elem, &b);
        iron_status s = iron__imp_dfail(
            c, IRON_EDESIGN, op,
            "acquires objects of %s from @%s, which carries %s",
            et ? iron__str_get(&a) : "(no memref type)", fi->name,
            iron__str_get(&b));
        iron__str_free(&a);
        iron__str_free(&b);
        return s;
    }
    if (direct && n != 1)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "an acquire typed as one memref takes one "
                               "object (size 1), not %lld",
                               (long long)n);
    iron_val acq = iron_body_acquire(c->b, fv, (int)n);
    if (iron__imp_check(c, op))
        return c->d->status;
    c->vaux[op->results[0]] = (int)n;
    if (!direct) {
        set_val(c, op->results[0], acq);
        return IRON_OK;
    }
    iron_val obj = iron_body_object(c->b, acq, 0);
    if (iron__imp_check(c, op))
        return c->d->status;
    set_val(c, op->results[0], obj);
    return IRON_OK;
}

static iron_status access(iron__imp_ctx *c, const iron__mlir_op *op)
{
    int ok = 0;
    iron_val acq;
    if (op->noperands != 1 || op->nresults != 1)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "expected a subview and one result");
    int64_t i = iron__imp_int_attr(op, "index", -1, &ok);
    if (get_val(c, op, op->operands[0], &acq) != IRON_OK)
        return c->d->status;
    int held = c->vaux[op->operands[0]];
    if (ok < 0 || i < 0 || (held > 0 && i >= held))
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "index %lld of a subview of %d object%s",
                               (long long)i, held, held == 1 ? "" : "s");
    iron_val obj = iron_body_object(c->b, acq, (int)i);
    if (iron__imp_check(c, op))
        return c->d->status;
    return set_result(c, op, 0, obj);
}

static iron_status release(iron__imp_ctx *c, const iron__mlir_op *op)
{
    int f, produce, ok = 0;
    iron_val fv;
    if (fifo_val(c, op, &f, &produce, &fv) != IRON_OK)
        return c->d->status;
    int64_t n = iron__imp_int_attr(op, "size", 1, &ok);
    if (ok < 0 || n < 1 || n > 16)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "expected a size of 1 to 16");
    iron_body_release(c->b, fv, (int)n);
    iron__imp_check(c, op);
    return c->d->status;
}

static iron_status use_lock(iron__imp_ctx *c, const iron__mlir_op *op)
{
    static const char *const actions[] = { "Acquire", "Release",
                                           "AcquireGreaterEqual" };
    static const char *const blocking[] = { "NonBlocking", "Blocking" };
    int ok = 0;
    iron_val bv;
    if (op->noperands != 1 || c->m->lock_of[op->operands[0]] < 0)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "the operand is not an aie.lock");
    if (get_val(c, op, op->operands[0], &bv) != IRON_OK)
        return c->d->status;
    const char *act = iron__imp_enum_attr(op, "action", actions, 3);
    const char *blk = iron__imp_enum_attr(op, "blocking", blocking, 2);
    int64_t v = iron__imp_int_attr(op, "value", 1, &ok);
    if (ok < 0 || v < 0 || v > 63 || !act)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "expected an action and a value of 0..63");
    if (blk && strcmp(blk, "NonBlocking") == 0)
        return iron__imp_dfail(c, IRON_ENOTSUP, op,
                               "non-blocking locks are not supported");
    if (strcmp(act, "Acquire") == 0)
        iron_body_barrier_wait(c->b, bv, (int)v);
    else if (strcmp(act, "Release") == 0)
        iron_body_barrier_release(c->b, bv, (int)v);
    else
        return iron__imp_dfail(c, IRON_ENOTSUP, op,
                               "action %s: a lock here is a barrier the "
                               "runtime sets; cores wait for an exact value "
                               "(Acquire, AIE2's acquire-equal) or add to "
                               "it (Release)",
                               act);
    iron__imp_check(c, op);
    return c->d->status;
}

/* The callee of a func.call, checked against its declaration: defined,
 * no results, as many arguments of the declared types. */
static iron_status check_call(iron__imp_ctx *c, const iron__mlir_op *op,
                              int *fi)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, "callee");
    int f = a && a->kind == IRON__MA_SYMREF ? iron__imp_func_at(c->m, a->s)
                                            : -1;
    if (f < 0)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "%s%s is not a function the module declares "
                               "(func.func private)",
                               a && a->s ? "@" : "callee ",
                               a && a->s ? a->s : "(missing)");
    const iron__imp_func *fn = &c->m->funcs[f];
    if (op->nresults != 0)
        return iron__imp_dfail(c, IRON_ENOTSUP, op,
                               "@%s returns values; kernels return nothing",
                               fn->name);
    if (op->noperands != fn->type->nin)
        return iron__imp_dfail(c, IRON_EDESIGN, op,
                               "@%s takes %d argument%s (declared at %d:%d); "
                               "the call passes %d",
                               fn->name, fn->type->nin,
                               fn->type->nin == 1 ? "" : "s",
                               fn->op->loc.line, fn->op->loc.col,
                               op->noperands);
    for (int i = 0; i < op->noperands; i++) {
        const iron__mlir_type *got = iron__imp_type_of(c->m, op->operands[i]);
        if (iron__imp_same_type(got, fn->type->in[i]))
            continue;
        iron__str x = { 0 }, y = { 0 };
        if (got)
            iron__mlir_type_text(got, &x);
        iron__mlir_type_text(fn->type->in[i], &y);
        iron_status s = iron__imp_dfail(
            c, IRON_EDESIGN, op,
            "argument %d of @%s is %s; the declaration (%d:%d) says %s", i,
            fn->name, iron__str_get(&x), fn->op->loc.line, fn->op->loc.col,
            iron__str_get(&y));
        iron__str_free(&x);
        iron__str_free(&y);
        return s;
    }
    *fi = f;
    return IRON_OK;
}

static iron_status call(iron__imp_ctx *c, const iron__mlir_op *op)
{
    int f;
    iron_val kv, args[IRON__MAX_KARGS];
    if (check_call(c, op, &f) != IRON_OK ||
        kernel_val(c, op, f, &kv) != IRON_OK ||
        get_vals(c, op, 0, op->noperands, args) != IRON_OK)
        return c->d->status;
    iron_body_call(c->b, kv, op->noperands, args);
    iron__imp_check(c, op);
    return c->d->status;
}

/* ---- ops ---------------------------------------------------------------- */

static int is_term(const iron__mlir_op *op)
{
    return strcmp(op->name, "scf.yield") == 0 ||
           strcmp(op->name, "scf.condition") == 0 ||
           strcmp(op->name, "aie.end") == 0;
}

static iron_status body_op(iron__imp_ctx *c, const iron__mlir_op *op)
{
    const char *n = op->name;
    if (strncmp(n, "arith.", 6) == 0)
        return arith_op(c, op, n + 6);
    if (strncmp(n, "memref.", 7) == 0)
        return memref_op(c, op);
    if (strcmp(n, "scf.for") == 0)
        return scf_for(c, op);
    if (strcmp(n, "scf.while") == 0)
        return scf_while(c, op);
    if (strcmp(n, "scf.if") == 0)
        return scf_if(c, op);
    if (strcmp(n, "aie.objectfifo.acquire") == 0)
        return acquire(c, op);
    if (strcmp(n, "aie.objectfifo.subview.access") == 0)
        return access(c, op);
    if (strcmp(n, "aie.objectfifo.release") == 0)
        return release(c, op);
    if (strcmp(n, "func.call") == 0)
        return call(c, op);
    if (strcmp(n, "aie.use_lock") == 0)
        return use_lock(c, op);
    return iron__imp_dfail(c, IRON_ENOTSUP, op,
                           "not read in a core body (it reads arith, "
                           "memref.load/store, scf.for/while/if, object "
                           "fifo acquire/access/release, func.call, "
                           "aie.use_lock; docs/mlir.md)");
}

/* Whether value id is an operand of ops[from..n) or of an op inside
 * them (an SSA value is used only after its definition). */
static int used_after(const iron__mlir_block *blk, int from, int id)
{
    for (int i = from; i < blk->nops; i++) {
        const iron__mlir_op *op = blk->ops[i];
        for (int k = 0; k < op->noperands; k++)
            if (op->operands[k] == id)
                return 1;
        for (int r = 0; r < op->nregions; r++)
            for (int b = 0; b < op->regions[r]->nblocks; b++)
                if (used_after(op->regions[r]->blocks[b], 0, id))
                    return 1;
    }
    return 0;
}

/* The i32 constant in front of a use_lock whose value the parser read
 * into the lock's attribute (upstream's newest form), now unused: not
 * part of the body, so that exporting the body again gives the text it
 * came from. */
static int folded_lock_value(const iron__mlir_block *blk, int i)
{
    const iron__mlir_op *op = blk->ops[i];
    return strcmp(op->name, "arith.constant") == 0 && op->nresults == 1 &&
           i + 1 < blk->nops &&
           strcmp(blk->ops[i + 1]->name, "aie.use_lock") == 0 &&
           !used_after(blk, i + 1, op->results[0]);
}

static iron_status body_block(iron__imp_ctx *c, const iron__mlir_block *blk,
                              const iron__mlir_op **term)
{
    *term = NULL;
    for (int i = 0; i < blk->nops; i++) {
        const iron__mlir_op *op = blk->ops[i];
        if (is_term(op)) {
            if (i + 1 != blk->nops)
                return iron__imp_dfail(c, IRON_EDESIGN, op,
                                       "a terminator before the end of its "
                                       "block");
            *term = op;
            return IRON_OK;
        }
        if (folded_lock_value(blk, i))
            continue;
        if (body_op(c, op) != IRON_OK)
            return c->d->status;
    }
    return IRON_OK;
}

iron_status iron__imp_build_core(iron__imp_ctx *c, int core)
{
    const iron_mlir *m = c->m;
    const iron__imp_core *co = &m->cores[core];
    iron_design *d = c->d;
    c->core = core;
    c->b = iron_body_new(d, co->name);
    if (iron__imp_check(c, co->op))
        return d->status;
    const iron__mlir_region *r = co->op->regions[0];
    if (r->nblocks != 1)
        return iron__imp_dfail(c, IRON_ENOTSUP, co->op,
                               "the core's region has %d blocks; "
                               "structured control flow (scf) has one",
                               r->nblocks);
    if (tile_objects(c, co->op, r) != IRON_OK ||
        prepass(c, co->op, r) != IRON_OK)
        return d->status;
    const iron__mlir_op *term = NULL;
    if (body_block(c, r->blocks[0], &term) != IRON_OK)
        return d->status;
    if (term && strcmp(term->name, "aie.end") != 0)
        return iron__imp_dfail(c, IRON_EDESIGN, term,
                               "the core's region ends with %s; expected "
                               "aie.end",
                               term->name);
    iron_worker *w = iron_worker_new_body(d, co->name, c->b);
    if (iron__imp_check(c, co->op))
        return d->status;
    iron_worker_place(w, co->tile.col, co->tile.row);
    if (iron__imp_check(c, co->op))
        return d->status;
    if (co->stack) {
        iron_worker_set_stack(w, co->stack);
        iron__imp_check(c, co->op);
    }
    return d->status;
}
