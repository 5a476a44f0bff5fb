/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * build.c - the tree builder of build.h: arena allocations with a sticky
 * failure flag, arrays that grow in place, and ops made by a spec.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir/build.h"
#include "mlir/ops.h"

static void *alloc(iron__mlir_b *b, size_t n)
{
    void *p = b->failed || !b->m ? NULL : iron__mlir_alloc(b->m, n);
    b->failed |= !p;
    return p;
}

static char *dup(iron__mlir_b *b, const char *s)
{
    char *d = b->failed || !b->m || !s ? NULL : iron__mlir_strdup(b->m, s);
    b->failed |= !d;
    return d;
}

/* Room for element n of an array of n elements (capacities 4, 8, 16...:
 * the array moves when n reaches one); the array, or NULL. */
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
    iron__mlir_op *top = alloc(b, sizeof *top);
    if (top && (top->name = dup(b, "builtin.module")))
        iron__mlir_b_region(b, b->m->top = top, 1);
    iron_status s = iron__mlir_b_status(b, "an MLIR module");
    if (s != IRON_OK) {
        iron__mlir_module_free(b->m);
        b->m = NULL;
    }
    return s;
}

iron_status iron__mlir_b_status(const iron__mlir_b *b, const char *what)
{
    if (b->failed & 2)
        return iron__fail(IRON_EINVAL, "building %s: a spec or type name the "
                                       "builder does not know (a bug)", what);
    if (b->failed || !b->m)
        return iron__fail(IRON_ENOMEM, "out of memory building %s", what);
    return IRON_OK;
}

/* --- types --------------------------------------------------------------- */

static iron__mlir_type *type_new(iron__mlir_b *b, iron__mlir_tkind kind,
                                 iron__mlir_type *elem, int need_elem)
{
    iron__mlir_type *t = need_elem && !elem ? NULL : alloc(b, sizeof *t);
    b->failed |= !t;
    if (t) {
        t->kind = kind;
        t->elem = elem;
    }
    return t;
}

iron__mlir_type *iron__mlir_b_scalar(iron__mlir_b *b, const char *name)
{
    static const char *const prefix[] = { "i", "si", "ui", "f", "bf" };
    size_t n = strcspn(name, "0123456789"), k = 0;
    while (k < 5 && (strlen(prefix[k]) != n || strncmp(prefix[k], name, n)))
        k++;
    int width = atoi(name + n), index = strcmp(name, "index") == 0;
    int ok = index || (k < 5 && width > 0 && (k < 4 || width == 16));
    iron__mlir_type *t = ok ? type_new(b, index   ? IRON__MT_INDEX
                                          : k < 3 ? IRON__MT_INT
                                                  : IRON__MT_FLOAT,
                                       NULL, 0)
                            : NULL;
    if (!t && !b->failed)
        b->failed = 2;
    if (t && !index) {
        t->width = width;
        t->sign = k < 3 ? (int)k : 0;
        t->bf = k == 4;
    }
    return t;
}

iron__mlir_type *iron__mlir_b_shaped(iron__mlir_b *b, iron__mlir_tkind kind,
                                     iron__mlir_type *elem, int rank,
                                     const int64_t *dims)
{
    iron__mlir_type *t = rank < 0 || rank > IRON__MLIR_MAX_RANK
                             ? NULL
                             : type_new(b, kind, elem, 1);
    b->failed |= !t;
    if (t && (t->rank = rank) > 0)
        memcpy(t->dims, dims, (size_t)rank * sizeof *dims);
    return t;
}

iron__mlir_type *iron__mlir_b_dialect(iron__mlir_b *b, const char *dialect,
                                      const char *name, iron__mlir_type *elem)
{
    iron__mlir_type *t = type_new(b, IRON__MT_DIALECT, elem, 0);
    if (t) {
        t->dialect = dup(b, dialect);
        t->name = name ? dup(b, name) : NULL;
    }
    return t;
}

static iron__mlir_type **types(iron__mlir_b *b, int n,
                               iron__mlir_type *const *v)
{
    iron__mlir_type **c = alloc(b, (size_t)(n ? n : 1) * sizeof *c);
    for (int i = 0; c && i < n; i++)
        b->failed |= !(c[i] = v[i]);
    return c;
}

iron__mlir_type *iron__mlir_b_functype(iron__mlir_b *b, int nin,
                                       iron__mlir_type *const *in, int nout,
                                       iron__mlir_type *const *out)
{
    iron__mlir_type *t = type_new(b, IRON__MT_FUNCTION, NULL, 0);
    if (t) {
        t->nin = nin;
        t->nout = nout;
        t->in = types(b, nin, in);
        t->out = types(b, nout, out);
    }
    return t;
}

/* --- attributes ---------------------------------------------------------- */

iron__mlir_attr *iron__mlir_b_attr(iron__mlir_b *b, iron__mlir_akind kind,
                                   int64_t i, iron__mlir_type *type)
{
    iron__mlir_attr *a = alloc(b, sizeof *a);
    if (a) {
        a->kind = kind;
        a->i = i;
        a->type = type;
    }
    return a;
}

iron__mlir_attr *iron__mlir_b_float(iron__mlir_b *b, double f,
                                    iron__mlir_type *type)
{
    iron__mlir_attr *a = iron__mlir_b_attr(b, IRON__MA_FLOAT, 0, type);
    if (a)
        a->f = f;
    return a;
}

iron__mlir_attr *iron__mlir_b_text(iron__mlir_b *b, iron__mlir_akind kind,
                                   const char *s)
{
    iron__mlir_attr *a = iron__mlir_b_attr(b, kind, 0, NULL);
    if (a)
        a->s = dup(b, s ? s : "");
    return a;
}

iron__mlir_attr *iron__mlir_b_dim(iron__mlir_b *b, int64_t size,
                                  int64_t stride)
{
    iron__mlir_attr *a = iron__mlir_b_attr(b, IRON__MA_DIM, size, NULL);
    if (a)
        a->stride = stride;
    return a;
}

iron__mlir_attr *iron__mlir_b_item(iron__mlir_b *b, iron__mlir_attr *list,
                                   const char *key, iron__mlir_attr *item)
{
    int dict = list && list->kind == IRON__MA_DICT;
    iron__mlir_attr **items = list && item ? grow(b, list->items, list->n,
                                                  sizeof *items)
                                           : NULL;
    char **keys = dict && items ? grow(b, list->keys, list->n, sizeof *keys)
                                : NULL;
    char *k = keys ? dup(b, key) : NULL;
    b->failed |= !items || (dict && !k);
    if (b->failed)
        return list;
    list->items = items;
    if (dict)
        (list->keys = keys)[list->n] = k;
    items[list->n++] = item;
    return list;
}

/* --- ops, regions, values ------------------------------------------------ */

static void push_id(iron__mlir_b *b, int **ids, int *n, int v)
{
    int *a = v < 0 ? NULL : grow(b, *ids, *n, sizeof *a);
    b->failed |= !a;
    if (a)
        (*ids = a)[(*n)++] = v;
}

void iron__mlir_b_operand(iron__mlir_b *b, iron__mlir_op *op, int value)
{
    if (op)
        push_id(b, &op->operands, &op->noperands, value);
    b->failed |= !op;
}

static int value_new(iron__mlir_b *b, iron__mlir_type *t, const char *name,
                     iron__mlir_op *def, int index)
{
    iron__mlir_loc none = { 0, 0 };
    int id = b->failed || !t ? -1
                             : iron__mlir_value_new(b->m, name, t, def, index,
                                                    none);
    b->failed |= id < 0;
    return id;
}

int iron__mlir_b_result(iron__mlir_b *b, iron__mlir_op *op,
                        iron__mlir_type *t, const char *name)
{
    int id = op ? value_new(b, t, name, op, op->nresults) : -1;
    if (op)
        push_id(b, &op->results, &op->nresults, id);
    b->failed |= !op;
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

/* Attribute `name` of op (appended; inherent as the op registry says). */
static void set(iron__mlir_b *b, iron__mlir_op *op, const char *name,
                iron__mlir_attr *a)
{
    iron__mlir_named *v = op && a ? grow(b, op->attrs, op->nattrs, sizeof *v)
                                  : NULL;
    char *n = v ? dup(b, name) : NULL;
    b->failed |= !n;
    if (!n)
        return;
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
    b->failed |= !rs;
    if (!rs)
        return NULL;
    (op->regions = rs)[op->nregions++] = r;
    if (!with_block)
        return NULL;
    iron__mlir_block *blk = alloc(b, sizeof *blk);
    if ((r->blocks = alloc(b, sizeof *r->blocks)) && blk) {
        r->blocks[0] = blk;
        r->nblocks = 1;
    }
    return blk;
}

/* The attribute of spec kind k (n characters) from the next argument;
 * *zero: whether that was 0 or NULL. */
static iron__mlir_attr *spec_attr(iron__mlir_b *b, const char *k, size_t n,
                                  va_list *ap, int *zero)
{
#define IS(word) (n == sizeof word - 1 && !strncmp(k, word, n))
    if (IS("str") || IS("sym") || IS("kw")) {
        const char *s = va_arg(*ap, const char *);
        *zero = !s;
        return iron__mlir_b_text(b, IS("str")   ? IRON__MA_STR
                                    : IS("sym") ? IRON__MA_SYMREF
                                                : IRON__MA_KEYWORD,
                                 s);
    }
    if (IS("type") || IS("attr")) {
        void *p = IS("type") ? (void *)va_arg(*ap, iron__mlir_type *)
                             : (void *)va_arg(*ap, iron__mlir_attr *);
        *zero = !p;
        return IS("attr") ? p : iron__mlir_b_attr(b, IRON__MA_TYPE, 0, p);
    }
    int64_t v = IS("bool") ? va_arg(*ap, int) != 0 : va_arg(*ap, int64_t);
    *zero = !v;
    if (IS("bool") || IS("int"))
        return iron__mlir_b_attr(b, IS("bool") ? IRON__MA_BOOL : IRON__MA_INT,
                                 v, NULL);
    if (!IS("i32") && !IS("i64") && !IS("ui32"))
        b->failed = 2;
    char type[8];
    snprintf(type, sizeof type, "%.*s", (int)n, k);
    return iron__mlir_b_attr(b, IRON__MA_INT, v, iron__mlir_b_scalar(b, type));
#undef IS
}

iron__mlir_op *iron__mlir_b_op(iron__mlir_b *b, iron__mlir_op *parent,
                               const char *name, const char *spec, ...)
{
    iron__mlir_op *p = parent ? parent : b->m ? b->m->top : NULL;
    iron__mlir_region *r = p && p->nregions ? p->regions[p->nregions - 1]
                                            : NULL;
    iron__mlir_block *blk = r && r->nblocks ? r->blocks[r->nblocks - 1]
                                            : NULL;
    iron__mlir_op *op = blk ? alloc(b, sizeof *op) : NULL;
    iron__mlir_op **ops = op ? grow(b, blk->ops, blk->nops, sizeof *ops)
                             : NULL;
    if (ops && (op->name = dup(b, name))) {
        op->parent = p;
        (blk->ops = ops)[blk->nops++] = op;
    }
    b->failed |= !ops;
    va_list ap;
    va_start(ap, spec);
    for (const char *s = spec; s && *s;) {
        size_t n = strcspn(s, " ");
        const char *colon = memchr(s, ':', n);
        if (*s == '%') {
            iron__mlir_b_operand(b, op, va_arg(ap, int));
        } else if (*s == '=') {
            iron__mlir_type *t = va_arg(ap, iron__mlir_type *);
            iron__mlir_b_result(b, op, t, va_arg(ap, const char *));
        } else if (colon) {
            int opt = *s == '?', zero;
            char attr[64];
            snprintf(attr, sizeof attr, "%.*s", (int)(colon - s - opt),
                     s + opt);
            iron__mlir_attr *a = spec_attr(b, colon + 1,
                                           n - (size_t)(colon + 1 - s), &ap,
                                           &zero);
            if (!opt || !zero)
                set(b, op, attr, a);
        } else {
            b->failed |= 2;   /* a bad spec */
        }
        s += n + (s[n] == ' ');
    }
    va_end(ap);
    return b->failed ? NULL : op;
}
