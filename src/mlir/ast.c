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
