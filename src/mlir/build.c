/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * build.c - the tree builder of build.h: arena allocations with a sticky
 * failure flag, and arrays that grow in place.
 */
#include <string.h>

#include "mlir/build.h"
#include "mlir/known.h"

static void *alloc(iron__mlir_b *b, size_t n)
{
    void *p = b->failed || !b->m ? NULL : iron__mlir_alloc(b->m, n);
    if (!p)
        b->failed = 1;
    return p;
}

static char *dup(iron__mlir_b *b, const char *s)
{
    char *d = b->failed || !b->m ? NULL : iron__mlir_strdup(b->m, s);
    if (!d)
        b->failed = 1;
    return d;
}

/* Room for element n of an array of n (capacities 4, 8, 16...: the
 * array is moved when n reaches one); the array, or NULL. */
static void *grow(iron__mlir_b *b, void *arr, int n, size_t size)
{
    if (n > 0 && (n < 4 || (n & (n - 1))))
        return arr;
    void *a = alloc(b, (size_t)(n ? 2 * n : 4) * size);
    if (a && n)
        memcpy(a, arr, (size_t)n * size);
    return a;
}

iron_status iron__mlir_b_start(iron__mlir_b *b)
{
    b->failed = 0;
    b->m = iron__mlir_module_new();
    if (b->m) {
        b->m->top = alloc(b, sizeof *b->m->top);
        if (b->m->top)
            b->m->top->name = dup(b, "builtin.module");
        iron__mlir_b_region(b, b->m->top, 1);
    }
    iron_status s = iron__mlir_b_status(b, "an MLIR module");
    if (s != IRON_OK) {
        iron__mlir_module_free(b->m);
        b->m = NULL;
    }
    return s;
}

iron_status iron__mlir_b_status(const iron__mlir_b *b, const char *what)
{
    if (b->failed || !b->m)
        return iron__fail(IRON_ENOMEM, "out of memory building %s", what);
    return IRON_OK;
}

/* --- types --------------------------------------------------------------- */

static iron__mlir_type *type_new(iron__mlir_b *b, iron__mlir_tkind kind)
{
    iron__mlir_type *t = alloc(b, sizeof *t);
    if (t)
        t->kind = kind;
    return t;
}

iron__mlir_type *iron__mlir_b_scalar(iron__mlir_b *b, iron__mlir_tkind kind,
                                     int width, int sign)
{
    iron__mlir_type *t = type_new(b, kind);
    if (t && kind == IRON__MT_INT) {
        t->width = width;
        t->sign = sign;
    } else if (t && kind == IRON__MT_FLOAT) {
        t->width = width;
        t->bf = sign;
    }
    return t;
}

iron__mlir_type *iron__mlir_b_shaped(iron__mlir_b *b, iron__mlir_tkind kind,
                                     iron__mlir_type *elem, int rank,
                                     const int64_t *dims)
{
    if (!elem || rank < 0 || rank > IRON__MLIR_MAX_RANK) {
        b->failed = 1;
        return NULL;
    }
    iron__mlir_type *t = type_new(b, kind);
    if (t) {
        t->elem = elem;
        t->rank = rank;
        if (rank)
            memcpy(t->dims, dims, (size_t)rank * sizeof *dims);
    }
    return t;
}

iron__mlir_type *iron__mlir_b_dialect(iron__mlir_b *b, const char *dialect,
                                      const char *name, iron__mlir_type *elem)
{
    iron__mlir_type *t = type_new(b, IRON__MT_DIALECT);
    if (t) {
        t->dialect = dup(b, dialect);
        t->name = name ? dup(b, name) : NULL;
        t->elem = elem;
    }
    return t;
}

static iron__mlir_type **types_copy(iron__mlir_b *b, int n,
                                    iron__mlir_type *const *v)
{
    iron__mlir_type **c = alloc(b, (size_t)(n ? n : 1) * sizeof *c);
    for (int i = 0; c && i < n; i++)
        if (!(c[i] = v[i]))
            b->failed = 1;
    return c;
}

iron__mlir_type *iron__mlir_b_functype(iron__mlir_b *b, int nin,
                                       iron__mlir_type *const *in, int nout,
                                       iron__mlir_type *const *out)
{
    iron__mlir_type *t = type_new(b, IRON__MT_FUNCTION);
    if (t) {
        t->nin = nin;
        t->nout = nout;
        t->in = types_copy(b, nin, in);
        t->out = types_copy(b, nout, out);
    }
    return t;
}

/* --- attributes ---------------------------------------------------------- */

static iron__mlir_attr *attr_new(iron__mlir_b *b, iron__mlir_akind kind)
{
    iron__mlir_attr *a = alloc(b, sizeof *a);
    if (a)
        a->kind = kind;
    return a;
}

iron__mlir_attr *iron__mlir_b_int(iron__mlir_b *b, iron__mlir_akind kind,
                                  int64_t i, iron__mlir_type *type)
{
    iron__mlir_attr *a = attr_new(b, kind);
    if (a) {
        a->i = i;
        a->type = type;
    }
    return a;
}

iron__mlir_attr *iron__mlir_b_float(iron__mlir_b *b, double f,
                                    iron__mlir_type *type)
{
    iron__mlir_attr *a = attr_new(b, IRON__MA_FLOAT);
    if (a) {
        a->f = f;
        a->type = type;
    }
    return a;
}

iron__mlir_attr *iron__mlir_b_text(iron__mlir_b *b, iron__mlir_akind kind,
                                   const char *s)
{
    iron__mlir_attr *a = attr_new(b, kind);
    if (a)
        a->s = dup(b, s ? s : "");
    return a;
}

iron__mlir_attr *iron__mlir_b_type(iron__mlir_b *b, iron__mlir_type *t)
{
    return iron__mlir_b_list(b, IRON__MA_TYPE, t);
}

iron__mlir_attr *iron__mlir_b_dim(iron__mlir_b *b, int64_t size,
                                  int64_t stride)
{
    iron__mlir_attr *a = iron__mlir_b_int(b, IRON__MA_DIM, size, NULL);
    if (a)
        a->stride = stride;
    return a;
}

iron__mlir_attr *iron__mlir_b_list(iron__mlir_b *b, iron__mlir_akind kind,
                                   iron__mlir_type *type)
{
    return iron__mlir_b_int(b, kind, 0, type);
}

void iron__mlir_b_item(iron__mlir_b *b, iron__mlir_attr *list,
                       const char *key, iron__mlir_attr *item)
{
    if (!list || !item) {
        b->failed = 1;
        return;
    }
    list->items = grow(b, list->items, list->n, sizeof *list->items);
    if (list->kind == IRON__MA_DICT)
        list->keys = grow(b, list->keys, list->n, sizeof *list->keys);
    if (!list->items || (list->kind == IRON__MA_DICT && !list->keys))
        return;
    if (list->kind == IRON__MA_DICT && !(list->keys[list->n] = dup(b, key)))
        return;
    list->items[list->n++] = item;
}

/* --- ops, regions, values ------------------------------------------------ */

iron__mlir_op *iron__mlir_b_op(iron__mlir_b *b, iron__mlir_op *parent,
                               const char *name)
{
    if (!parent)
        parent = b->m ? b->m->top : NULL;
    if (!parent || !parent->nregions ||
        !parent->regions[parent->nregions - 1]->nblocks) {
        b->failed = 1;
        return NULL;
    }
    iron__mlir_region *r = parent->regions[parent->nregions - 1];
    iron__mlir_block *blk = r->blocks[r->nblocks - 1];
    iron__mlir_op *op = alloc(b, sizeof *op);
    iron__mlir_op **ops = grow(b, blk->ops, blk->nops, sizeof *ops);
    if (!op || !ops || !(op->name = dup(b, name)))
        return NULL;
    op->parent = parent;
    blk->ops = ops;
    blk->ops[blk->nops++] = op;
    return op;
}

/* Appends v to an op's operand or result ids. */
static void push_id(iron__mlir_b *b, int **ids, int *n, int v)
{
    int *a = v < 0 ? NULL : grow(b, *ids, *n, sizeof *a);
    if (!a) {
        b->failed = 1;
        return;
    }
    *ids = a;
    a[(*n)++] = v;
}

void iron__mlir_b_operand(iron__mlir_b *b, iron__mlir_op *op, int value)
{
    if (op)
        push_id(b, &op->operands, &op->noperands, value);
    else
        b->failed = 1;
}

static int value_new(iron__mlir_b *b, iron__mlir_type *t, const char *name,
                     iron__mlir_op *def, int result)
{
    iron__mlir_loc none = { 0, 0 };
    int id = b->failed || !t ? -1
                             : iron__mlir_value_new(b->m, name, t, def, result,
                                                    none);
    if (id < 0)
        b->failed = 1;
    return id;
}

int iron__mlir_b_result(iron__mlir_b *b, iron__mlir_op *op,
                        iron__mlir_type *t, const char *name)
{
    if (!op) {
        b->failed = 1;
        return -1;
    }
    int id = value_new(b, t, name, op, op->nresults);
    push_id(b, &op->results, &op->nresults, id);
    return b->failed ? -1 : id;
}

int iron__mlir_b_arg(iron__mlir_b *b, iron__mlir_block *block,
                     iron__mlir_type *t, const char *name)
{
    int id = value_new(b, t, name, NULL, block ? block->nargs : 0);
    if (block)
        push_id(b, &block->args, &block->nargs, id);
    return b->failed ? -1 : id;
}

void iron__mlir_b_set(iron__mlir_b *b, iron__mlir_op *op, const char *name,
                      iron__mlir_attr *a)
{
    iron__mlir_named *v = op && a ? grow(b, op->attrs, op->nattrs, sizeof *v)
                                  : NULL;
    char *n = v ? dup(b, name) : NULL;
    if (!n) {
        b->failed = 1;
        return;
    }
    op->attrs = v;
    v[op->nattrs].name = n;
    v[op->nattrs].attr = a;
    v[op->nattrs++].prop = iron__mlir_inherent(op->name, name) == 1;
}

iron__mlir_block *iron__mlir_b_region(iron__mlir_b *b, iron__mlir_op *op,
                                      int with_block)
{
    iron__mlir_region *r = op ? alloc(b, sizeof *r) : NULL;
    iron__mlir_region **rs = r ? grow(b, op->regions, op->nregions,
                                      sizeof *rs)
                               : NULL;
    if (!rs) {
        b->failed = 1;
        return NULL;
    }
    op->regions = rs;
    op->regions[op->nregions++] = r;
    if (!with_block)
        return NULL;
    iron__mlir_block *blk = alloc(b, sizeof *blk);
    r->blocks = alloc(b, sizeof *r->blocks);
    if (!blk || !r->blocks)
        return NULL;
    r->blocks[0] = blk;
    r->nblocks = 1;
    return blk;
}
