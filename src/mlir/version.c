/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * version.c - upstream's syntax changes and the export targets (version.h).
 *
 * One table lists every syntax change upstream made to the ops this
 * bridge reads and writes, with its date and pull request.  A target is
 * an upstream version: it has the changes dated on or before it.  Rows
 * without a bit are changes every target already has (the importer reads
 * both sides of them); rows with a bit are ones the targets differ on.
 * Adding an upstream change is one row here, plus, when the new spelling
 * needs it, the format or directive of the op (ops.c, forms_*.c) and its
 * lowering below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir/ops.h"
#include "mlir/version.h"

/* Bits of the changes only some targets have. */
#define SYN_RTP_OPERAND (1u << 8)
#define SYN_LOCK_OPERAND (1u << 9)

typedef struct change {
    const char *date;        /* merged upstream (YYYY-MM-DD) */
    const char *pr;
    unsigned bit;            /* what a target with it prints, or 0 */
    const char *what;
} change;

static const change changes[] = {
    { "2024-07-02", "#1586", 0, "dma_memcpy_nd takes four strides" },
    { "2024-07-25", "#1640", 0,
      "the runtime sequence is aiex.runtime_sequence, not func.func "
      "@sequence with npu.sync" },
    { "2024-07-30", "#1647", 0,
      "rtp_write names its buffer by symbol, not by column, row and "
      "buffer_sym_name" },
    { "2024-08-22", "#1706", 0, "objectfifo.link takes offsets" },
    { "2024-09-16", "#1761", 0,
      "dimensionsToStream / dimensionsFromStream, not toStream / "
      "fromStream" },
    { "2024-11-23", "#1936", 0,
      "aie.device ends with an implicit aie.end (explicit in the generic "
      "form)" },
    { "2025-03-04", "#1971", 0, "dma_memcpy_nd without x, y" },
    { "2025-03-31", "#2160", 0, "aiex.set_lock" },
    { "2025-06-18", "#2397", IRON__SYN_NPU1_4COL,
      "npu1 is the 4-column device (npu1_4col before); the device enum "
      "renumbered (npu2 9 -> 8)" },
    { "2025-09-30", "#2532", 0,
      "aie.device @name; several devices in one module" },
    { "2025-11-18", "#2708", IRON__SYN_AIE_SEQUENCE,
      "aie.runtime_sequence, not aiex.runtime_sequence" },
    { "2026-03-13", "#2922", IRON__SYN_FUNC_LINK,
      "link_with on func.func declarations, not on aie.core" },
    { "2026-07-06", "#3225", SYN_RTP_OPERAND,
      "npu.rtp_write's value an i32 operand: (@buf, 0, %v) : i32" },
    { "2026-07-13", "#3308", SYN_LOCK_OPERAND,
      "use_lock's value an i32 operand: (%lock, Acquire, %v)" },
    { "2026-07-14", "#3306", IRON__SYN_BD_KEYWORDS,
      "dma_bd's keyword form: offset = o len = l sizes = [..] strides = "
      "[..]" },
};

/* Oldest first; the last is the default. */
static const iron__mlir_target targets[] = {
    { "2025-04", "aee9cc2f", "2025-04-18" },
    { "2025-06", "3a3076ba", "2025-06-18" },
    { "2025-11", "a7df6e13", "2025-11-18" },
    { "2026-03", "9c1e32d7", "2026-03-13" },
    { "latest", "3ca0193c", "2026-08-14" },
};

IRON_API const char *iron_mlir_upstream(int i)
{
    return i >= 0 && i < (int)IRON__COUNT_OF(targets) ? targets[i].name
                                                       : NULL;
}

iron_status iron__mlir_target_find(const char *name,
                                   const iron__mlir_target **out)
{
    size_t n = IRON__COUNT_OF(targets);
    if (!name) {
        *out = &targets[n - 1];
        return IRON_OK;
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(targets[i].name, name) == 0) {
            *out = &targets[i];
            return IRON_OK;
        }
    char list[128] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 i ? ", " : "", targets[i].name);
    return iron__fail(IRON_EINVAL,
                      "MLIR export: upstream version '%s' is not a target; "
                      "expected one of %s",
                      name, list);
}

/* A target has the changes merged on or before its date. */
int iron__mlir_target_has(const iron__mlir_target *t, unsigned syntax)
{
    unsigned bits = 0;
    for (size_t c = 0; t && c < IRON__COUNT_OF(changes); c++)
        if (strcmp(changes[c].date, t->date) <= 0)
            bits |= changes[c].bit;
    return t && (bits & syntax) == syntax;
}

int iron__mlir_syntax_change(int i, const char **date, const char **pr,
                             const char **what)
{
    if (i < 0 || i >= (int)IRON__COUNT_OF(changes))
        return 0;
    *date = changes[i].date;
    *pr = changes[i].pr;
    *what = changes[i].what;
    return 1;
}

/* --- the device enum before #2397 ------------------------------------ */

int iron__mlir_target_device_value(const iron__mlir_target *t,
                                   const char *name)
{
    if (iron__mlir_target_has(t, IRON__SYN_NPU1_4COL) || !name)
        return -1;
    /* npu1_4col was 8 and every npu2 device one more than now */
    if (strcmp(name, "npu1_4col") == 0)
        return 8;
    if (strncmp(name, "npu2", 4) == 0) {
        int64_t v;
        int width;
        if (iron__mlir_enum_value("aie.device", "device", name, &v, &width))
            return (int)v + 1;
    }
    return -1;
}

/* --- lowering ------------------------------------------------------- */

typedef struct lower {
    iron__mlir_module *m;
    const iron__mlir_target *t;
    int generic;
    int oom;
    int nconst;               /* constants made so far: their names */
} lower;

static iron__mlir_attr *new_attr(lower *l, iron__mlir_akind k)
{
    iron__mlir_attr *a = iron__mlir_alloc(l->m, sizeof *a);
    if (!a)
        l->oom = 1;
    else
        a->kind = k;
    return a;
}

static iron__mlir_type *int_type(lower *l, int width)
{
    iron__mlir_type *t = iron__mlir_alloc(l->m, sizeof *t);
    if (!t) {
        l->oom = 1;
        return NULL;
    }
    t->kind = IRON__MT_INT;
    t->width = width;
    return t;
}

static iron__mlir_named *find(iron__mlir_op *op, const char *name)
{
    for (int i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0)
            return &op->attrs[i];
    return NULL;
}

static void drop(iron__mlir_op *op, const char *name)
{
    iron__mlir_named *n = find(op, name);
    if (!n)
        return;
    int k = (int)(n - op->attrs);
    memmove(&op->attrs[k], &op->attrs[k + 1],
            (size_t)(op->nattrs - k - 1) * sizeof *op->attrs);
    op->nattrs--;
}

static void set(lower *l, iron__mlir_op *op, const char *name,
                iron__mlir_attr *a)
{
    if (!a)
        return;
    iron__mlir_named *n = find(op, name);
    if (n) {
        n->attr = a;
        return;
    }
    iron__mlir_named *v = iron__mlir_alloc(l->m, (size_t)(op->nattrs + 1) *
                                                     sizeof *v);
    char *nm = iron__mlir_strdup(l->m, name);
    if (!v || !nm) {
        l->oom = 1;
        return;
    }
    if (op->nattrs)
        memcpy(v, op->attrs, (size_t)op->nattrs * sizeof *v);
    v[op->nattrs].name = nm;
    v[op->nattrs].attr = a;
    v[op->nattrs].prop = 1;
    op->attrs = v;
    op->nattrs++;
}

static iron__mlir_attr *i32_attr(lower *l, int64_t v)
{
    iron__mlir_attr *a = new_attr(l, IRON__MA_INT);
    if (a) {
        a->i = v;
        a->type = int_type(l, 32);
    }
    return a;
}

/* array<iW: v...> of n values. */
static iron__mlir_attr *dense_array(lower *l, int width, const int64_t *v,
                                    int n)
{
    iron__mlir_attr *a = new_attr(l, IRON__MA_DENSE_ARRAY);
    if (!a)
        return NULL;
    a->type = int_type(l, width);
    a->items = iron__mlir_alloc(l->m, (size_t)(n ? n : 1) * sizeof *a->items);
    if (!a->items) {
        l->oom = 1;
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        a->items[i] = new_attr(l, IRON__MA_INT);
        if (!a->items[i])
            return NULL;
        a->items[i]->i = v[i];
    }
    a->n = n;
    return a;
}

/* `%_vN = arith.constant v : i32` put in op's block before op; its value
 * id, or -1. */
static int constant_before(lower *l, iron__mlir_op *op, int64_t v)
{
    iron__mlir_op *parent = op->parent;
    iron__mlir_block *blk = NULL;
    int at = -1;
    for (int r = 0; parent && r < parent->nregions && !blk; r++)
        for (int b = 0; b < parent->regions[r]->nblocks && !blk; b++) {
            iron__mlir_block *cand = parent->regions[r]->blocks[b];
            for (int i = 0; i < cand->nops; i++)
                if (cand->ops[i] == op) {
                    blk = cand;
                    at = i;
                    break;
                }
        }
    /* The constant the parser left when it read this op's value operand
     * into its attribute (print(lower(parse(text))) is text again). */
    iron__mlir_op *prev = blk && at > 0 ? blk->ops[at - 1] : NULL;
    const iron__mlir_named *pv = prev ? find(prev, "value") : NULL;
    if (prev && strcmp(prev->name, "arith.constant") == 0 &&
        prev->nresults == 1 && pv && pv->attr->kind == IRON__MA_INT &&
        pv->attr->i == v && pv->attr->type &&
        pv->attr->type->kind == IRON__MT_INT && pv->attr->type->width == 32 &&
        !pv->attr->type->sign)
        return prev->results[0];
    iron__mlir_op *c = iron__mlir_alloc(l->m, sizeof *c);
    iron__mlir_op **ops = blk ? iron__mlir_alloc(l->m,
                                                 (size_t)(blk->nops + 1) *
                                                     sizeof *ops)
                              : NULL;
    iron__mlir_named *attrs = iron__mlir_alloc(l->m, sizeof *attrs);
    int *res = iron__mlir_alloc(l->m, sizeof *res);
    iron__mlir_type *i32 = int_type(l, 32);
    iron__mlir_attr *val = i32_attr(l, v);
    if (!blk)
        return -1;
    if (!c || !ops || !attrs || !res || !i32 || !val ||
        !(c->name = iron__mlir_strdup(l->m, "arith.constant")) ||
        !(attrs[0].name = iron__mlir_strdup(l->m, "value"))) {
        l->oom = 1;
        return -1;
    }
    /* named by their order, so that the same tree lowers to the same
     * text (an imported module's export is its text again) */
    char name[32];
    snprintf(name, sizeof name, "%%_c%d", l->nconst++);
    int id = iron__mlir_value_new(l->m, name, i32, c, 0, op->loc);
    if (id < 0) {
        l->oom = 1;
        return -1;
    }
    attrs[0].attr = val;
    attrs[0].prop = 1;
    c->attrs = attrs;
    c->nattrs = 1;
    res[0] = id;
    c->results = res;
    c->nresults = 1;
    c->parent = parent;
    c->loc = op->loc;
    memcpy(ops, blk->ops, (size_t)at * sizeof *ops);
    ops[at] = c;
    memcpy(ops + at + 1, blk->ops + at,
           (size_t)(blk->nops - at) * sizeof *ops);
    blk->ops = ops;
    blk->nops++;
    return id;
}

/* The value attribute `name` of op made its operand after the others. */
static void value_to_operand(lower *l, iron__mlir_op *op, const char *name,
                             int64_t dflt)
{
    iron__mlir_named *n = find(op, name);
    int64_t v = dflt;
    if (n && n->attr->kind == IRON__MA_INT) {
        v = n->attr->i;
    } else if (n && n->attr->kind == IRON__MA_FLOAT) {
        /* an f32 parameter goes as its bits */
        float f = (float)n->attr->f;
        int32_t bits;
        memcpy(&bits, &f, sizeof bits);
        v = bits;
    }
    int id = constant_before(l, op, v);
    int *ops = iron__mlir_alloc(l->m, (size_t)(op->noperands + 1) *
                                          sizeof *ops);
    if (id < 0 || !ops) {
        l->oom = 1;
        return;
    }
    if (op->noperands)
        memcpy(ops, op->operands, (size_t)op->noperands * sizeof *ops);
    ops[op->noperands] = id;
    op->operands = ops;
    op->noperands++;
    drop(op, name);
}

/* dma_bd's offset, len and dimensions as the keyword form's static
 * attributes (and, generic, its operand segments: the buffer only). */
static void bd_keywords(lower *l, iron__mlir_op *op)
{
    iron__mlir_named *off = find(op, "offset"), *len = find(op, "len"),
                     *dims = find(op, "dimensions");
    if (off) {
        set(l, op, "static_offset", off->attr);
        drop(op, "offset");
    }
    if (len) {
        set(l, op, "static_len", len->attr);
        drop(op, "len");
    }
    dims = find(op, "dimensions");
    if (dims && dims->attr->kind == IRON__MA_ARRAY &&
        dims->attr->n <= IRON__MLIR_MAX_RANK) {
        int64_t sz[IRON__MLIR_MAX_RANK], st[IRON__MLIR_MAX_RANK];
        int n = dims->attr->n;
        for (int i = 0; i < n; i++) {
            sz[i] = dims->attr->items[i]->i;
            st[i] = dims->attr->items[i]->stride;
        }
        set(l, op, "static_sizes", dense_array(l, 64, sz, n));
        set(l, op, "static_strides", dense_array(l, 64, st, n));
        drop(op, "dimensions");
    }
    if (l->generic) {
        static const int64_t segments[] = { 1, 0, 0, 0, 0 };
        set(l, op, "operandSegmentSizes", dense_array(l, 32, segments, 5));
    }
}

static void lower_op(lower *l, iron__mlir_op *op)
{
    const iron__mlir_target *t = l->t;
    if (strcmp(op->name, "aie.runtime_sequence") == 0 &&
        !iron__mlir_target_has(t, IRON__SYN_AIE_SEQUENCE)) {
        if (!(op->name = iron__mlir_strdup(l->m, "aiex.runtime_sequence")))
            l->oom = 1;
    } else if (strcmp(op->name, "aie.device") == 0) {
        iron__mlir_named *d = find(op, "device");
        if (d && d->attr->kind == IRON__MA_KEYWORD &&
            !iron__mlir_target_has(t, IRON__SYN_NPU1_4COL) &&
            strcmp(d->attr->s, "npu1") == 0) {
            iron__mlir_attr *k = new_attr(l, IRON__MA_KEYWORD);
            if (k && !(k->s = iron__mlir_strdup(l->m, "npu1_4col")))
                l->oom = 1;
            if (k)
                d->attr = k;
        }
        int v = d && d->attr->kind == IRON__MA_KEYWORD
                    ? iron__mlir_target_device_value(t, d->attr->s)
                    : -1;
        if (l->generic && v >= 0)
            d->attr = i32_attr(l, v);
    } else if (strcmp(op->name, "aiex.npu.rtp_write") == 0 &&
               iron__mlir_target_has(t, SYN_RTP_OPERAND) &&
               op->noperands == 0) {
        value_to_operand(l, op, "value", 0);
    } else if (strcmp(op->name, "aie.use_lock") == 0 &&
               iron__mlir_target_has(t, SYN_LOCK_OPERAND) &&
               op->noperands == 1) {
        value_to_operand(l, op, "value", 1);
    } else if (strcmp(op->name, "aie.dma_bd") == 0 &&
               iron__mlir_target_has(t, IRON__SYN_BD_KEYWORDS)) {
        bd_keywords(l, op);
    }
}

static void walk(lower *l, iron__mlir_op *op)
{
    for (int r = 0; r < op->nregions; r++)
        for (int b = 0; b < op->regions[r]->nblocks; b++) {
            iron__mlir_block *blk = op->regions[r]->blocks[b];
            /* lowering may put ops before the one lowered: walk a copy */
            int n = blk->nops;
            iron__mlir_op **ops = iron__malloc((size_t)(n ? n : 1) *
                                               sizeof *ops);
            if (!ops) {
                l->oom = 1;
                return;
            }
            memcpy(ops, blk->ops, (size_t)n * sizeof *ops);
            for (int i = 0; i < n && !l->oom; i++) {
                lower_op(l, ops[i]);
                walk(l, ops[i]);
            }
            iron__free(ops);
        }
}

iron_status iron__mlir_lower(iron__mlir_module *m,
                             const iron__mlir_target *t, int generic)
{
    if (!m || !m->top || !t)
        return iron__fail(IRON_EINVAL, "iron__mlir_lower: %s is NULL",
                          !t ? "the target" : "the module");
    lower l = { m, t, generic, 0, 0 };
    walk(&l, m->top);
    return l.oom ? iron__fail(IRON_ENOMEM,
                              "MLIR export: out of memory lowering to "
                              "upstream %s",
                              t->name)
                 : IRON_OK;
}
