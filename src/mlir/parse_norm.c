/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * parse_norm.c - one tree whatever the form or era: every finished op
 * is rewritten to the spelling ast.h gives.
 *   - enum attributes written as integers (the generic form) or strings
 *     become keywords (device, port, action, blocking, predicate);
 *   - aiex.npu.rtp_write's `buffer` (a symbol; older: `buffer_sym_name`,
 *     a string) is `buffer_sym_name`, a symbol;
 *   - aiex.dma_configure_task_for's `alloc` is `tile`;
 *   - aie.objectfifo always has dimensionsToStream and
 *     dimensionsFromStreamPerConsumer (empty lists when not given), and
 *     aie.objectfifo.link its offsets, as upstream's parser makes them;
 *   - aiex.npu.dma_memcpy_nd loses operandSegmentSizes when it only says
 *     "one memref, no dynamic values";
 *   - the inherent attributes of the ops known.c knows are flagged.
 */
#include <string.h>

#include "mlir/known.h"
#include "mlir/parse.h"

static int is(const iron__mlir_op *op, const char *name)
{
    return strcmp(op->name, name) == 0;
}

static iron__mlir_named *find(iron__mlir_op *op, const char *name)
{
    for (int i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0)
            return &op->attrs[i];
    return NULL;
}

static int add(iron__mlir_parser *p, iron__mlir_op *op, const char *name,
               iron__mlir_attr *a)
{
    iron__mlir_named *n = iron__mlir_alloc(p->m, (size_t)(op->nattrs + 1) *
                                                     sizeof *n);
    char *nm = iron__mlir_strdup(p->m, name);
    if (!n || !nm || !a)
        return iron__mlir_p_nomem(p);
    if (op->nattrs)
        memcpy(n, op->attrs, (size_t)op->nattrs * sizeof *n);
    n[op->nattrs].name = nm;
    n[op->nattrs].attr = a;
    n[op->nattrs].prop = 0;
    op->attrs = n;
    op->nattrs++;
    return 0;
}

static iron__mlir_attr *new_attr(iron__mlir_parser *p, iron__mlir_akind k,
                                 iron__mlir_loc loc)
{
    iron__mlir_attr *a = iron__mlir_alloc(p->m, sizeof *a);
    if (!a) {
        iron__mlir_p_nomem(p);
        return NULL;
    }
    a->kind = k;
    a->loc = loc;
    return a;
}

static int rename_attr(iron__mlir_parser *p, iron__mlir_op *op,
                       const char *from, const char *to)
{
    iron__mlir_named *n = find(op, from);
    if (!n)
        return 0;
    if (find(op, to))
        return iron__mlir_p_fail(p, n->attr->loc,
                                 "%s gives both '%s' and '%s'", op->name,
                                 from, to);
    n->name = iron__mlir_strdup(p->m, to);
    return n->name ? 0 : iron__mlir_p_nomem(p);
}

/* Enum attributes as keywords (new attributes: an alias's attribute may
 * be shared). */
static int enums(iron__mlir_parser *p, iron__mlir_op *op)
{
    for (int i = 0; i < op->nattrs; i++) {
        iron__mlir_named *n = &op->attrs[i];
        if (!iron__mlir_is_enum(op->name, n->name))
            continue;
        const char *word = NULL;
        if (n->attr->kind == IRON__MA_INT)
            word = iron__mlir_enum_name(op->name, n->name, n->attr->i);
        else if (n->attr->kind == IRON__MA_STR)
            word = n->attr->s;
        if (!word)
            continue;
        iron__mlir_attr *k = new_attr(p, IRON__MA_KEYWORD, n->attr->loc);
        if (!k || !(k->s = iron__mlir_strdup(p->m, word)))
            return iron__mlir_p_nomem(p);
        n->attr = k;
    }
    return 0;
}

static int empty_list(iron__mlir_parser *p, iron__mlir_op *op,
                      const char *name)
{
    if (find(op, name))
        return 0;
    return add(p, op, name, new_attr(p, IRON__MA_ARRAY, op->loc));
}

static int objectfifo(iron__mlir_parser *p, iron__mlir_op *op)
{
    if (empty_list(p, op, "dimensionsToStream"))
        return -1;
    if (find(op, "dimensionsFromStreamPerConsumer"))
        return 0;
    int n = op->noperands > 1 ? op->noperands - 1 : 0;
    iron__mlir_attr *a = new_attr(p, IRON__MA_ARRAY, op->loc);
    if (!a || iron__mlir_p_items(p, n))
        return -1;
    if (n) {
        a->items = iron__mlir_alloc(p->m, (size_t)n * sizeof *a->items);
        if (!a->items)
            return iron__mlir_p_nomem(p);
        for (int i = 0; i < n; i++)
            if (!(a->items[i] = new_attr(p, IRON__MA_ARRAY, op->loc)))
                return -1;
        a->n = n;
    }
    return add(p, op, "dimensionsFromStreamPerConsumer", a);
}

static int rtp_write(iron__mlir_parser *p, iron__mlir_op *op)
{
    if (rename_attr(p, op, "buffer", "buffer_sym_name"))
        return -1;
    iron__mlir_named *n = find(op, "buffer_sym_name");
    if (n && n->attr->kind == IRON__MA_STR) {
        iron__mlir_attr *s = new_attr(p, IRON__MA_SYMREF, n->attr->loc);
        if (!s)
            return -1;
        s->s = n->attr->s;
        n->attr = s;
    }
    return 0;
}

/* operandSegmentSizes = array<i32: 1, 0, 0, 0> says nothing the tree
 * does not. */
static void memcpy_segments(iron__mlir_op *op)
{
    iron__mlir_named *n = find(op, "operandSegmentSizes");
    if (!n || n->attr->kind != IRON__MA_DENSE_ARRAY || n->attr->n < 1 ||
        n->attr->items[0]->i != 1 || op->noperands != 1)
        return;
    for (int i = 1; i < n->attr->n; i++)
        if (n->attr->items[i]->i != 0)
            return;
    int k = (int)(n - op->attrs);
    memmove(&op->attrs[k], &op->attrs[k + 1],
            (size_t)(op->nattrs - k - 1) * sizeof *op->attrs);
    op->nattrs--;
}

int iron__mlir_p_normalise(iron__mlir_parser *p, iron__mlir_op *op)
{
    if (is(op, "aiex.npu.rtp_write") && rtp_write(p, op))
        return -1;
    if (is(op, "aiex.dma_configure_task_for") &&
        rename_attr(p, op, "alloc", "tile"))
        return -1;
    if (enums(p, op))
        return -1;
    if (is(op, "aie.objectfifo") && objectfifo(p, op))
        return -1;
    if (is(op, "aie.objectfifo.link") &&
        (empty_list(p, op, "src_offsets") || empty_list(p, op, "dst_offsets")))
        return -1;
    if (is(op, "aiex.npu.dma_memcpy_nd"))
        memcpy_segments(op);
    if (is(op, "aie.objectfifo.acquire") && !find(op, "size") &&
        op->nresults > 0) {
        iron__mlir_type *i32 = iron__mlir_p_int_type(p, 32, 0);
        iron__mlir_attr *a = new_attr(p, IRON__MA_INT, op->loc);
        if (!i32 || !a)
            return -1;
        a->i = op->nresults;
        a->type = i32;
        if (add(p, op, "size", a))
            return -1;
    }
    for (int i = 0; i < op->nattrs; i++) {
        int k = iron__mlir_inherent(op->name, op->attrs[i].name);
        if (k >= 0)
            op->attrs[i].prop = k;
    }
    return 0;
}
