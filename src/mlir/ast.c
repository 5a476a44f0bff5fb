/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ast.c - the MLIR tree's memory (one arena per module, freed at once),
 * its value table, the importer's lookups, and types as text.
 */
#include <stdint.h>
#include <string.h>

#include "mlir/ast.h"

/* The arena: a list of chunks, bump-allocated.  A request larger than a
 * quarter of the usual chunk gets a chunk of its own, so that big arrays
 * (dense attributes) waste nothing. */
typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    /* the memory follows, 16-aligned */
} chunk;

typedef struct arena {
    chunk *head;
} arena;

#define CHUNK_BYTES ((size_t)64 << 10)
#define ALIGN 16u
#define HEADER (((sizeof(chunk) + ALIGN - 1) / ALIGN) * ALIGN)

iron__mlir_module *iron__mlir_module_new(void)
{
    iron__mlir_module *m = iron__calloc(1, sizeof *m);
    arena *a = iron__calloc(1, sizeof *a);
    if (!m || !a) {
        iron__free(m);
        iron__free(a);
        return NULL;
    }
    m->arena = a;
    return m;
}

void *iron__mlir_alloc(iron__mlir_module *m, size_t n)
{
    arena *a = m->arena;
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + ALIGN - 1) / ALIGN * ALIGN;
    if (n == 0)
        n = ALIGN;
    chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t size = n > CHUNK_BYTES / 4 ? n : CHUNK_BYTES;
        chunk *nc = iron__malloc(HEADER + size);
        if (!nc)
            return NULL;
        nc->used = 0;
        nc->size = size;
        if (size == n && c) {
            /* a big block: keep the current chunk in front for the small
             * requests that follow */
            nc->next = c->next;
            c->next = nc;
        } else {
            nc->next = c;
            a->head = nc;
        }
        c = nc;
    }
    char *p = (char *)c + HEADER + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *iron__mlir_strndup(iron__mlir_module *m, const char *s, size_t n)
{
    if (n >= SIZE_MAX / 2)
        return NULL;
    char *d = iron__mlir_alloc(m, n + 1);
    if (!d)
        return NULL;
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *iron__mlir_strdup(iron__mlir_module *m, const char *s)
{
    return iron__mlir_strndup(m, s, strlen(s));
}

int iron__mlir_value_new(iron__mlir_module *m, const char *name,
                         iron__mlir_type *type, iron__mlir_op *def,
                         int result, iron__mlir_loc loc)
{
    if (m->nvalues >= IRON__MLIR_MAX_VALUES)
        return -1;
    if (m->nvalues == m->cap_values) {
        int cap = m->cap_values ? m->cap_values * 2 : 64;
        if (cap > IRON__MLIR_MAX_VALUES)
            cap = IRON__MLIR_MAX_VALUES;
        iron__mlir_value *v =
            iron__realloc(m->values, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        m->values = v;
        m->cap_values = cap;
    }
    char *n = name ? iron__mlir_strdup(m, name) : NULL;
    if (name && !n)
        return -1;
    iron__mlir_value *v = &m->values[m->nvalues];
    v->name = n;
    v->type = type;
    v->def = def;
    v->result = result;
    v->loc = loc;
    return m->nvalues++;
}

void iron__mlir_module_free(iron__mlir_module *m)
{
    if (!m)
        return;
    arena *a = m->arena;
    if (a) {
        chunk *c = a->head;
        while (c) {
            chunk *next = c->next;
            iron__free(c);
            c = next;
        }
        iron__free(a);
    }
    iron__free(m->values);
    iron__free(m);
}

const iron__mlir_attr *iron__mlir_attr_get(const iron__mlir_op *op,
                                           const char *name)
{
    if (!op || !name)
        return NULL;
    for (int i = 0; i < op->nattrs; i++)
        if (op->attrs[i].name && strcmp(op->attrs[i].name, name) == 0)
            return op->attrs[i].attr;
    return NULL;
}

const iron__mlir_op *iron__mlir_find_opaque(const iron__mlir_op *op)
{
    if (!op || op->opaque)
        return op;
    for (int r = 0; r < op->nregions; r++)
        for (int b = 0; b < op->regions[r]->nblocks; b++) {
            const iron__mlir_block *blk = op->regions[r]->blocks[b];
            for (int i = 0; i < blk->nops; i++) {
                const iron__mlir_op *f = iron__mlir_find_opaque(blk->ops[i]);
                if (f)
                    return f;
            }
        }
    return NULL;
}

const iron__mlir_value *iron__mlir_value_at(const iron__mlir_module *m,
                                            int id)
{
    if (!m || id < 0 || id >= m->nvalues)
        return NULL;
    return &m->values[id];
}

static void shape_text(const iron__mlir_type *t, iron__str *s)
{
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            iron__str_append(s, "?x");
        else
            iron__str_printf(s, "%lldx", (long long)t->dims[i]);
    }
    iron__mlir_type_text(t->elem, s);
}

static void type_list_text(iron__mlir_type **ts, int n, iron__str *s)
{
    for (int i = 0; i < n; i++) {
        if (i)
            iron__str_append(s, ", ");
        iron__mlir_type_text(ts[i], s);
    }
}

void iron__mlir_type_text(const iron__mlir_type *t, iron__str *s)
{
    if (!t) {
        iron__str_append(s, "<<null type>>");
        return;
    }
    switch (t->kind) {
    case IRON__MT_INT:
        iron__str_printf(s, "%si%d",
                         t->sign == 1 ? "s" : t->sign == 2 ? "u" : "",
                         t->width);
        break;
    case IRON__MT_INDEX:
        iron__str_append(s, "index");
        break;
    case IRON__MT_FLOAT:
        if (t->bf)
            iron__str_append(s, "bf16");
        else
            iron__str_printf(s, "f%d", t->width);
        break;
    case IRON__MT_MEMREF:
    case IRON__MT_TENSOR:
    case IRON__MT_VECTOR:
        iron__str_append(s, t->kind == IRON__MT_MEMREF ? "memref<"
                            : t->kind == IRON__MT_TENSOR ? "tensor<"
                                                         : "vector<");
        shape_text(t, s);
        if (t->text)
            iron__str_append(s, t->text);
        iron__str_append(s, ">");
        break;
    case IRON__MT_FUNCTION:
        iron__str_append(s, "(");
        type_list_text(t->in, t->nin, s);
        iron__str_append(s, ") -> ");
        if (t->nout == 1 && t->out[0] &&
            t->out[0]->kind != IRON__MT_FUNCTION) {
            iron__mlir_type_text(t->out[0], s);
        } else {
            iron__str_append(s, "(");
            type_list_text(t->out, t->nout, s);
            iron__str_append(s, ")");
        }
        break;
    case IRON__MT_DIALECT:
        iron__str_printf(s, "!%s", t->dialect ? t->dialect : "");
        if (t->name)
            iron__str_printf(s, ".%s", t->name);
        if (t->elem) {
            iron__str_append(s, "<");
            iron__mlir_type_text(t->elem, s);
            iron__str_append(s, ">");
        } else if (t->text) {
            iron__str_printf(s, "<%s>", t->text);
        }
        break;
    case IRON__MT_NONE:
        iron__str_append(s, "none");
        break;
    case IRON__MT_OPAQUE:
        iron__str_append(s, t->text ? t->text : "<unknown>");
        break;
    }
}

static int str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

int iron__mlir_type_equal(const iron__mlir_type *a, const iron__mlir_type *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case IRON__MT_INT:
        return a->width == b->width && a->sign == b->sign;
    case IRON__MT_INDEX:
    case IRON__MT_NONE:
        return 1;
    case IRON__MT_FLOAT:
        return a->width == b->width && a->bf == b->bf;
    case IRON__MT_MEMREF:
    case IRON__MT_TENSOR:
    case IRON__MT_VECTOR:
        if (a->rank != b->rank || !str_eq(a->text, b->text))
            return 0;
        for (int i = 0; i < a->rank && i < IRON__MLIR_MAX_RANK; i++)
            if (a->dims[i] != b->dims[i])
                return 0;
        return iron__mlir_type_equal(a->elem, b->elem);
    case IRON__MT_FUNCTION:
        if (a->nin != b->nin || a->nout != b->nout)
            return 0;
        for (int i = 0; i < a->nin; i++)
            if (!iron__mlir_type_equal(a->in[i], b->in[i]))
                return 0;
        for (int i = 0; i < a->nout; i++)
            if (!iron__mlir_type_equal(a->out[i], b->out[i]))
                return 0;
        return 1;
    case IRON__MT_DIALECT:
        if (!str_eq(a->dialect, b->dialect) || !str_eq(a->name, b->name) ||
            !str_eq(a->text, b->text))
            return 0;
        if (!a->elem || !b->elem)
            return a->elem == b->elem;
        return iron__mlir_type_equal(a->elem, b->elem);
    case IRON__MT_OPAQUE:
        return str_eq(a->text, b->text);
    }
    return 0;
}

/* --- equality ------------------------------------------------------------ */

typedef struct eq {
    const iron__mlir_module *a, *b;
    int *amap, *bmap;         /* value id -> the other module's, or -1 */
    iron__str *why;
    char path[512];           /* where the walk is: "module/aie.device#0" */
} eq;

static int differ(eq *e, const char *fmt, const char *what)
{
    if (e->why)
        iron__str_printf(e->why, "%s: ", e->path[0] ? e->path : "module");
    if (e->why)
        iron__str_printf(e->why, fmt, what);
    return 0;
}

/* Values x of a and y of b are the same: both unseen (then they are
 * from now on), or seen together. */
static int same_value(eq *e, int x, int y)
{
    if (x < 0 || y < 0 || x >= e->a->nvalues || y >= e->b->nvalues)
        return x == y;
    if (e->amap[x] < 0 && e->bmap[y] < 0) {
        e->amap[x] = y;
        e->bmap[y] = x;
    }
    return e->amap[x] == y &&
           iron__mlir_type_equal(e->a->values[x].type, e->b->values[y].type);
}

static int same_float(double x, double y)
{
    if (x != x || y != y)
        return x != x && y != y;
    return memcmp(&x, &y, sizeof x) == 0 || (x == y && x != 0);
}

static int attr_equal(eq *e, const iron__mlir_attr *x,
                      const iron__mlir_attr *y, const char *name)
{
    if (!x || !y)
        return x == y ? 1 : differ(e, "attribute %s is missing", name);
    if (x->kind != y->kind)
        return differ(e, "attribute %s is of another kind", name);
    int same = iron__mlir_type_equal(x->type, y->type) && x->n == y->n;
    switch (x->kind) {
    case IRON__MA_INT:
    case IRON__MA_BOOL:
        same &= x->i == y->i;
        break;
    case IRON__MA_DIM:
        same &= x->i == y->i && x->stride == y->stride;
        break;
    case IRON__MA_FLOAT:
        same &= same_float(x->f, y->f);
        break;
    case IRON__MA_STR:
    case IRON__MA_SYMREF:
    case IRON__MA_KEYWORD:
    case IRON__MA_OPAQUE:
        same &= str_eq(x->s, y->s);
        break;
    default:
        break;
    }
    if (!same)
        return differ(e, "attribute %s differs", name);
    for (int i = 0; i < x->n; i++) {
        if (x->keys && !str_eq(x->keys[i], y->keys ? y->keys[i] : NULL))
            return differ(e, "attribute %s differs", name);
        if (!attr_equal(e, x->items[i], y->items[i], name))
            return 0;
    }
    return 1;
}

static int op_equal(eq *e, const iron__mlir_op *x, const iron__mlir_op *y,
                    const iron__mlir_region *rx, const iron__mlir_region *ry);

static int region_equal(eq *e, const iron__mlir_region *x,
                        const iron__mlir_region *y)
{
    if (x->nblocks != y->nblocks)
        return differ(e, "%s", "a region has another number of blocks");
    for (int k = 0; k < x->nblocks; k++) {
        const iron__mlir_block *p = x->blocks[k], *q = y->blocks[k];
        if (p->nargs != q->nargs || p->nops != q->nops)
            return differ(e, "%s", "a block has another number of arguments "
                                   "or of ops");
        for (int i = 0; i < p->nargs; i++)
            if (!same_value(e, p->args[i], q->args[i]))
                return differ(e, "%s", "a block argument differs");
        size_t len = strlen(e->path);
        for (int i = 0; i < p->nops; i++) {
            snprintf(e->path + len, sizeof e->path - len, "/%s#%d",
                     p->ops[i]->name, i);
            if (!op_equal(e, p->ops[i], q->ops[i], x, y))
                return 0;
        }
        e->path[len] = '\0';
    }
    return 1;
}

/* The index of the block labelled `label` in r, or -1. */
static int block_at(const iron__mlir_region *r, const char *label)
{
    for (int i = 0; r && i < r->nblocks; i++)
        if (str_eq(r->blocks[i]->label, label))
            return i;
    return -1;
}

/* Ops x and y, in regions rx and ry (NULL for the top op). */
static int op_equal(eq *e, const iron__mlir_op *x, const iron__mlir_op *y,
                    const iron__mlir_region *rx, const iron__mlir_region *ry)
{
    if (!str_eq(x->name, y->name))
        return differ(e, "the other op is %s", y->name);
    if (x->noperands != y->noperands || x->nresults != y->nresults ||
        x->nattrs != y->nattrs || x->nregions != y->nregions ||
        x->nsucc != y->nsucc)
        return differ(e, "%s", "another number of operands, results, "
                               "attributes, regions or successors");
    for (int i = 0; i < x->noperands; i++)
        if (!same_value(e, x->operands[i], y->operands[i]))
            return differ(e, "%s", "an operand is another value");
    for (int i = 0; i < x->nresults; i++)
        if (!same_value(e, x->results[i], y->results[i]))
            return differ(e, "%s", "a result is of another type");
    for (int i = 0; i < x->nsucc; i++) {
        int k = block_at(rx, x->succ[i]);
        if (k != block_at(ry, y->succ[i]) ||
            (k < 0 && !str_eq(x->succ[i], y->succ[i])))
            return differ(e, "successor %s differs", x->succ[i]);
    }
    for (int i = 0; i < x->nattrs; i++) {
        const iron__mlir_named *n = &x->attrs[i], *m = NULL;
        for (int k = 0; k < y->nattrs && !m; k++)
            if (str_eq(y->attrs[k].name, n->name))
                m = &y->attrs[k];
        if (!m)
            return differ(e, "attribute %s is missing", n->name);
        if (m->prop != n->prop)
            return differ(e, "attribute %s is inherent in one only",
                          n->name);
        if (!attr_equal(e, n->attr, m->attr, n->name))
            return 0;
    }
    for (int i = 0; i < x->nregions; i++)
        if (!region_equal(e, x->regions[i], y->regions[i]))
            return 0;
    return 1;
}

int iron__mlir_module_equal(const iron__mlir_module *a,
                            const iron__mlir_module *b, iron__str *why)
{
    if (!a || !b || !a->top || !b->top) {
        if (why)
            iron__str_append(why, "a module is NULL or empty");
        return 0;
    }
    eq e = { a, b, iron__malloc(((size_t)a->nvalues + 1) * sizeof(int)),
             iron__malloc(((size_t)b->nvalues + 1) * sizeof(int)), why,
             "" };
    int same = 0;
    if (!e.amap || !e.bmap) {
        if (why)
            iron__str_append(why, "out of memory comparing modules");
    } else {
        memset(e.amap, 0xff, ((size_t)a->nvalues + 1) * sizeof(int));
        memset(e.bmap, 0xff, ((size_t)b->nvalues + 1) * sizeof(int));
        snprintf(e.path, sizeof e.path, "%s", a->top->name);
        same = op_equal(&e, a->top, b->top, NULL, NULL);
    }
    iron__free(e.amap);
    iron__free(e.bmap);
    return same;
}
