/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * print_custom.c - the custom (pretty) forms of the ops ast.h lists, as
 * upstream prints them.  Each printer first checks that the op fits its
 * form (attribute kinds, operand and result counts, the types the form
 * implies) and returns -1 before printing anything when it does not:
 * the op is then printed in the generic form, so nothing is lost.  The
 * form an op gets follows the tree: the 2024 spellings (dma_memcpy_nd's
 * x, y; rtp_write's col, row; aiex.runtime_sequence) print when the
 * tree has them.
 */
#include <stdint.h>
#include <string.h>

#include "mlir/known.h"
#include "mlir/print.h"

typedef iron__mlir_pr W;
typedef iron__mlir_op O;
typedef iron__mlir_attr A;

#define OUT(text) iron__mlir_pr_out(w, text)

static const A *attr(const O *op, const char *name)
{
    return iron__mlir_attr_get(op, name);
}

static int kind(const A *a, iron__mlir_akind k)
{
    return a && a->kind == k;
}

/* An attribute of kind k whose items are all of kind item. */
static int all_of(const A *a, iron__mlir_akind k, iron__mlir_akind item)
{
    if (!kind(a, k))
        return 0;
    for (int i = 0; i < a->n; i++)
        if (!kind(a->items[i], item))
            return 0;
    return 1;
}

/* The array attributes the custom forms take apart. */
#define DIM_ARRAY(a) all_of(a, IRON__MA_ARRAY, IRON__MA_DIM)
#define SYMREF_ARRAY(a) all_of(a, IRON__MA_ARRAY, IRON__MA_SYMREF)
#define INT_ARRAY(a) all_of(a, IRON__MA_ARRAY, IRON__MA_INT)
#define INDEX_ARRAY(a) all_of(a, IRON__MA_DENSE_ARRAY, IRON__MA_INT)

static const iron__mlir_type *vtype(const W *w, int id)
{
    const iron__mlir_value *v = iron__mlir_value_at(w->m, id);
    return v ? v->type : NULL;
}

/* An integer the custom form writes bare and its parser types as i32
 * (ui32: unsigned) must fit that type to read back the same. */
static int i32_ok(const iron__mlir_attr *a)
{
    return a && a->kind == IRON__MA_INT && a->i >= INT32_MIN &&
           a->i <= (int64_t)UINT32_MAX;
}

static int ui32_ok(const iron__mlir_attr *a)
{
    return a && a->kind == IRON__MA_INT && a->i >= 0 &&
           a->i <= (int64_t)UINT32_MAX;
}

/* A dense value written without its type reads back as a tensor of the
 * memref's shape: it must be one. */
static int dense_fits(const iron__mlir_attr *d, const iron__mlir_type *m)
{
    if (!d || d->kind != IRON__MA_DENSE || !d->type || !m ||
        m->kind != IRON__MT_MEMREF || d->type->kind != IRON__MT_TENSOR ||
        d->type->rank != m->rank ||
        !iron__mlir_type_equal(d->type->elem, m->elem))
        return 0;
    for (int i = 0; i < m->rank; i++)
        if (d->type->dims[i] != m->dims[i] || m->dims[i] < 0)
            return 0;
    return 1;
}

static int is_index(const iron__mlir_type *t)
{
    return t && t->kind == IRON__MT_INDEX;
}

static int is_int(const iron__mlir_type *t, int width)
{
    return t && t->kind == IRON__MT_INT && t->width == width && t->sign == 0;
}

/* op has these counts of operands, results and regions (-1: any). */
static int shape(const O *op, int nops, int nres, int nreg)
{
    return (nops < 0 || op->noperands == nops) &&
           (nres < 0 || op->nresults == nres) &&
           (nreg < 0 || op->nregions == nreg) && op->nsucc == 0;
}

static int all_results_index(const W *w, const O *op)
{
    for (int i = 0; i < op->nresults; i++)
        if (!is_index(vtype(w, op->results[i])))
            return 0;
    return 1;
}

static void value(W *w, int id)
{
    iron__mlir_pr_value(w, id);
}

static void type(W *w, const iron__mlir_type *t)
{
    iron__mlir_pr_type(w, t);
}

static void int_attr(W *w, const A *a)
{
    iron__mlir_pr_outf(w, "%lld", (long long)a->i);
}

static void dims(W *w, const A *a)
{
    OUT("[");
    for (int i = 0; i < a->n; i++)
        iron__mlir_pr_outf(w, "%s<size = %lld, stride = %lld>",
                           i ? ", " : "", (long long)a->items[i]->i,
                           (long long)a->items[i]->stride);
    OUT("]");
}

static void attrs(W *w, const O *op, const char *const *skip)
{
    iron__mlir_pr_attr_dict(w, op, skip);
}

static void region(W *w, const O *op, int i, int entry_args,
                   const char *drop)
{
    OUT(" ");
    iron__mlir_pr_region(w, op->regions[i], entry_args, drop);
}

/* A keyword attribute printed bare, or a string one quoted. */
static int word_ok(const A *a)
{
    return kind(a, IRON__MA_KEYWORD) || kind(a, IRON__MA_STR);
}

static void word(W *w, const A *a)
{
    if (a->kind == IRON__MA_KEYWORD && iron__mlir_pr_is_bare(a->s)) {
        OUT(a->s);
    } else {
        A s = *a;
        s.kind = IRON__MA_STR;
        iron__mlir_pr_attr(w, &s, NULL, NULL);
    }
}

#define SKIP(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* ---- builtin.module ---- */
static int module(W *w, const O *op)
{
    const A *name = attr(op, "sym_name");
    if (!shape(op, 0, 0, 1) || (name && !kind(name, IRON__MA_STR)) ||
        op->regions[0]->nblocks > 1 ||
        (op->regions[0]->nblocks == 1 && op->regions[0]->blocks[0]->nargs))
        return -1;
    OUT("module");
    if (name) {
        OUT(" ");
        iron__mlir_pr_symdef(w, name->s);
    }
    int n = 0;
    for (int i = 0; i < op->nattrs; i++)
        n += strcmp(op->attrs[i].name, "sym_name") != 0;
    if (n) {
        OUT(" attributes");
        attrs(w, op, SKIP("sym_name"));
    }
    region(w, op, 0, 0, NULL);
    return 0;
}

/* ---- aie.device(npu1_1col) [@name] { ... } ---- */
static int device(W *w, const O *op)
{
    const A *dev = attr(op, "device"), *name = attr(op, "sym_name");
    if (!shape(op, 0, 0, 1) || !word_ok(dev) ||
        (name && !kind(name, IRON__MA_STR)) || op->regions[0]->nblocks > 1)
        return -1;
    OUT("aie.device(");
    word(w, dev);
    OUT(")");
    if (name) {
        OUT(" ");
        iron__mlir_pr_symdef(w, name->s);
    }
    region(w, op, 0, 1, "aie.end");
    attrs(w, op, SKIP("device", "sym_name"));
    return 0;
}

/* ---- aie.tile(col, row) ---- */
static int tile(W *w, const O *op)
{
    const A *c = attr(op, "col"), *r = attr(op, "row");
    if (!shape(op, 0, 1, 0) || !i32_ok(c) || !i32_ok(r) ||
        !all_results_index(w, op))
        return -1;
    iron__mlir_pr_outf(w, "aie.tile(%lld, %lld)", (long long)c->i,
                       (long long)r->i);
    attrs(w, op, SKIP("col", "row"));
    return 0;
}

static int false_bool(const A *a)
{
    return kind(a, IRON__MA_BOOL) && a->i == 0;
}

/* ---- aie.objectfifo @of(%p [dimensionsToStream [...]], {%c ...}, d)
 *      : !aie.objectfifo<...> [= [dense<...>, ...]] ---- */
static int objectfifo(W *w, const O *op)
{
    const A *name = attr(op, "sym_name"), *depth = attr(op, "elemNumber"),
            *ty = attr(op, "elemType"), *to = attr(op, "dimensionsToStream"),
            *from = attr(op, "dimensionsFromStreamPerConsumer"),
            *init = attr(op, "initValues");
    int ncons = op->noperands - 1;
    if (!shape(op, -1, 0, 0) || ncons < 0 || !kind(name, IRON__MA_STR) ||
        !(kind(depth, IRON__MA_INT) || kind(depth, IRON__MA_ARRAY)) ||
        !kind(ty, IRON__MA_TYPE) || (to && !DIM_ARRAY(to)))
        return -1;
    if (from) {
        if (!kind(from, IRON__MA_ARRAY) || from->n != ncons)
            return -1;
        for (int i = 0; i < from->n; i++)
            if (!DIM_ARRAY(from->items[i]))
                return -1;
    }
    if (init) {
        const iron__mlir_type *ft = ty->type;
        if (!kind(init, IRON__MA_ARRAY) || !ft ||
            ft->kind != IRON__MT_DIALECT || !ft->elem || init->n == 0)
            return -1;
        for (int i = 0; i < init->n; i++)
            if (!dense_fits(init->items[i], ft->elem))
                return -1;
    }
    OUT("aie.objectfifo ");
    iron__mlir_pr_symdef(w, name->s);
    OUT("(");
    value(w, op->operands[0]);
    if (to && to->n) {
        OUT(" dimensionsToStream ");
        dims(w, to);
    }
    OUT(", {");
    for (int i = 0; i < ncons; i++) {
        if (i)
            OUT(", ");
        value(w, op->operands[i + 1]);
        if (from && from->items[i]->n) {
            OUT(" dimensionsFromStream ");
            dims(w, from->items[i]);
        }
    }
    OUT("}, ");
    iron__mlir_pr_attr(w, depth, NULL, NULL);
    OUT(")");
    static const char *const skip[] = {
        "sym_name", "elemNumber", "elemType", "dimensionsToStream",
        "dimensionsFromStreamPerConsumer", "initValues", NULL, NULL, NULL,
        NULL,
    };
    const char *s2[IRON__COUNT_OF(skip)];
    memcpy(s2, skip, sizeof skip);
    int k = 6;
    if (false_bool(attr(op, "via_DMA")))
        s2[k++] = "via_DMA";
    if (false_bool(attr(op, "plio")))
        s2[k++] = "plio";
    if (false_bool(attr(op, "disable_synchronization")))
        s2[k++] = "disable_synchronization";
    attrs(w, op, s2);
    OUT(" : ");
    type(w, ty->type);
    if (init) {
        OUT(" = [");
        for (int i = 0; i < init->n; i++) {
            const A *d = init->items[i];
            if (i)
                OUT(", ");
            /* the dense without its type (implied by the fifo's) */
            iron__mlir_pr_dense_body(w, d);
        }
        OUT("]");
    }
    return 0;
}

static void symrefs(W *w, const A *a)
{
    OUT("[");
    for (int i = 0; i < a->n; i++) {
        if (i)
            OUT(", ");
        iron__mlir_pr_symbol(w, a->items[i]->s);
    }
    OUT("]");
}

static void ints(W *w, const A *a)
{
    OUT("[");
    for (int i = 0; i < a->n; i++)
        iron__mlir_pr_outf(w, "%s%lld", i ? ", " : "",
                           (long long)a->items[i]->i);
    OUT("]");
}

/* ---- aie.objectfifo.link [@a] -> [@b]([] [0, 1024]) ---- */
static int link(W *w, const O *op)
{
    const A *in = attr(op, "fifoIns"), *out = attr(op, "fifoOuts"),
            *src = attr(op, "src_offsets"), *dst = attr(op, "dst_offsets");
    if (!shape(op, 0, 0, 0) || !SYMREF_ARRAY(in) || !SYMREF_ARRAY(out) ||
        !INT_ARRAY(src) || !INT_ARRAY(dst))
        return -1;
    OUT("aie.objectfifo.link ");
    symrefs(w, in);
    OUT(" -> ");
    symrefs(w, out);
    OUT("(");
    ints(w, src);
    OUT(" ");
    ints(w, dst);
    OUT(")");
    attrs(w, op, SKIP("fifoIns", "fifoOuts", "src_offsets", "dst_offsets"));
    return 0;
}

/* [{attrs}] @of(Port, n) of acquire / release */
static int fifo_port(W *w, const O *op, const char *opname)
{
    const A *name = attr(op, "objFifo_name"), *port = attr(op, "port"),
            *size = attr(op, "size");
    if (!kind(name, IRON__MA_SYMREF) || (port && !word_ok(port)) ||
        !i32_ok(size))
        return -1;
    OUT(opname);
    attrs(w, op, SKIP("objFifo_name", "port", "size"));
    OUT(" ");
    iron__mlir_pr_symbol(w, name->s);
    OUT("(");
    if (port) {
        word(w, port);
        OUT(", ");
    }
    int_attr(w, size);
    OUT(")");
    return 0;
}

static int acquire(W *w, const O *op)
{
    if (!shape(op, 0, -1, 0) || op->nresults < 1)
        return -1;
    if (fifo_port(w, op, "aie.objectfifo.acquire"))
        return -1;
    OUT(" : ");
    iron__mlir_pr_value_types(w, op->results, op->nresults);
    return 0;
}

static int release(W *w, const O *op)
{
    if (!shape(op, 0, 0, 0))
        return -1;
    return fifo_port(w, op, "aie.objectfifo.release");
}

/* ---- aie.objectfifo.subview.access %s[i] : T -> M ---- */
static int subview_access(W *w, const O *op)
{
    const A *idx = attr(op, "index");
    if (!shape(op, 1, 1, 0) || !i32_ok(idx))
        return -1;
    OUT("aie.objectfifo.subview.access ");
    value(w, op->operands[0]);
    OUT("[");
    int_attr(w, idx);
    OUT("]");
    attrs(w, op, SKIP("index"));
    OUT(" : ");
    type(w, vtype(w, op->operands[0]));
    OUT(" -> ");
    type(w, vtype(w, op->results[0]));
    return 0;
}

/* ---- aie.core(%tile) { ... } [{attrs}] ---- */
static int core(W *w, const O *op)
{
    if (!shape(op, 1, -1, 1) || op->nresults > 1 ||
        !all_results_index(w, op) || !is_index(vtype(w, op->operands[0])))
        return -1;
    OUT("aie.core(");
    value(w, op->operands[0]);
    OUT(")");
    region(w, op, 0, 1, NULL);
    const A *ss = attr(op, "stack_size");
    if (kind(ss, IRON__MA_INT) && ss->i == 1024)
        attrs(w, op, SKIP("stack_size"));
    else
        attrs(w, op, NULL);
    return 0;
}

/* ---- aie.buffer(%tile) [{attrs}] : memref<..> [= dense<...>] ---- */
static int buffer(W *w, const O *op)
{
    const A *init = attr(op, "initial_value");
    if (!shape(op, 1, 1, 0) ||
        (init && !dense_fits(init, vtype(w, op->results[0]))) ||
        !is_index(vtype(w, op->operands[0])))
        return -1;
    OUT("aie.buffer(");
    value(w, op->operands[0]);
    OUT(")");
    attrs(w, op, SKIP("initial_value"));
    OUT(" : ");
    type(w, vtype(w, op->results[0]));
    if (init) {
        OUT(" = ");
        iron__mlir_pr_dense_body(w, init);
    }
    return 0;
}

/* ---- aie.lock(%tile[, id]) ---- */
static int lock(W *w, const O *op)
{
    const A *id = attr(op, "lockID");
    if (!shape(op, 1, 1, 0) || (id && !i32_ok(id)) ||
        !all_results_index(w, op) || !is_index(vtype(w, op->operands[0])))
        return -1;
    OUT("aie.lock(");
    value(w, op->operands[0]);
    if (id) {
        OUT(", ");
        int_attr(w, id);
    }
    OUT(")");
    attrs(w, op, SKIP("lockID"));
    return 0;
}

/* ---- aie.use_lock(%l, Action[, v][, Blocking]) ---- */
static int use_lock(W *w, const O *op)
{
    const A *act = attr(op, "action"), *v = attr(op, "value"),
            *blk = attr(op, "blocking");
    if (!shape(op, 1, 0, 0) || !word_ok(act) || (v && !i32_ok(v)) ||
        (blk && !word_ok(blk)) ||
        !is_index(vtype(w, op->operands[0])))
        return -1;
    OUT("aie.use_lock(");
    value(w, op->operands[0]);
    OUT(", ");
    word(w, act);
    if (v) {
        OUT(", ");
        int_attr(w, v);
    }
    if (blk) {
        OUT(", ");
        word(w, blk);
    }
    OUT(")");
    attrs(w, op, SKIP("action", "value", "blocking"));
    return 0;
}

/* ---- ops whose custom form is the name and the attributes ---- */
static int attrs_only(W *w, const O *op)
{
    if (!shape(op, 0, 0, 0))
        return -1;
    OUT(op->name);
    attrs(w, op, NULL);
    return 0;
}

/* "(%a: T, %b: T)" of a region's entry block. */
static void entry_params(W *w, const iron__mlir_region *r)
{
    OUT("(");
    if (r->nblocks) {
        const iron__mlir_block *b = r->blocks[0];
        for (int i = 0; i < b->nargs; i++) {
            if (i)
                OUT(", ");
            value(w, b->args[i]);
            OUT(": ");
            type(w, vtype(w, b->args[i]));
        }
    }
    OUT(")");
}

/* ---- aie(x).runtime_sequence [@name](%a: T, ...) { ... } ---- */
static int runtime_sequence(W *w, const O *op)
{
    const A *name = attr(op, "sym_name");
    if (!shape(op, 0, 0, 1) || (name && !kind(name, IRON__MA_STR)))
        return -1;
    OUT(op->name);
    if (name) {
        OUT(" ");
        iron__mlir_pr_symdef(w, name->s);
    }
    entry_params(w, op->regions[0]);
    int n = 0;
    for (int i = 0; i < op->nattrs; i++)
        n += strcmp(op->attrs[i].name, "sym_name") != 0;
    if (n) {
        OUT(" attributes");
        attrs(w, op, SKIP("sym_name"));
    }
    region(w, op, 0, 0, NULL);
    return 0;
}

static int pad_array(const A *a)
{
    if (!kind(a, IRON__MA_ARRAY))
        return 0;
    for (int i = 0; i < a->n; i++)
        if (!kind(a->items[i], IRON__MA_OPAQUE) ||
            strncmp(a->items[i]->s, "#aie.bd_pad_layout<", 19) != 0)
            return 0;
    return 1;
}

/* ---- aie.dma_bd(%b : T[, off[, len[, [dims][, [pads]]]]]
 *      [, pad_value = v]) ---- */
static int dma_bd(W *w, const O *op)
{
    const A *off = attr(op, "offset"), *len = attr(op, "len"),
            *d = attr(op, "dimensions"), *pads = attr(op, "pad_dimensions"),
            *pv = attr(op, "pad_value");
    if (!shape(op, 1, 0, 0) || (off && !i32_ok(off)) ||
        (len && !i32_ok(len)) || (d && !DIM_ARRAY(d)) ||
        (pads && !pad_array(pads)) || (pv && !i32_ok(pv)) ||
        ((d || pads) && !len) || (pads && !d))
        return -1;
    OUT("aie.dma_bd(");
    value(w, op->operands[0]);
    OUT(" : ");
    type(w, vtype(w, op->operands[0]));
    if (len || (off && off->i != 0)) {
        OUT(", ");
        iron__mlir_pr_outf(w, "%lld", off ? (long long)off->i : 0LL);
    }
    if (len) {
        OUT(", ");
        int_attr(w, len);
    }
    if (d) {
        OUT(", ");
        dims(w, d);
    }
    if (pads) {
        OUT(", [");
        for (int i = 0; i < pads->n; i++) {
            if (i)
                OUT(", ");
            OUT(pads->items[i]->s + 18);
        }
        OUT("]");
    }
    if (pv && pv->i != 0)
        iron__mlir_pr_outf(w, ", pad_value = %lld", (long long)pv->i);
    OUT(")");
    const char *skip[] = { "offset", "len", "dimensions", "pad_dimensions",
                           NULL, NULL };
    if (!pv || pv->i != 0)
        skip[4] = "pad_value";
    attrs(w, op, skip);
    return 0;
}

/* ---- aiex.npu.dma_memcpy_nd([x, y, ]%m[o][s][t][, packet = <..>])
 *      {attrs} : T ---- */
static int dma_memcpy_nd(W *w, const O *op)
{
    const A *o = attr(op, "static_offsets"), *s = attr(op, "static_sizes"),
            *t = attr(op, "static_strides"), *x = attr(op, "x"),
            *y = attr(op, "y"), *pk = attr(op, "packet");
    if (!shape(op, 1, 0, 0) || !INDEX_ARRAY(o) || !INDEX_ARRAY(s) ||
        !INDEX_ARRAY(t) || (!x) != (!y) || (x && !kind(x, IRON__MA_INT)) ||
        (y && !kind(y, IRON__MA_INT)) ||
        (pk && (!kind(pk, IRON__MA_OPAQUE) ||
                strncmp(pk->s, "#aie.packet_info<", 17) != 0)))
        return -1;
    OUT("aiex.npu.dma_memcpy_nd(");
    if (x)
        iron__mlir_pr_outf(w, "%lld, %lld, ", (long long)x->i,
                           (long long)y->i);
    value(w, op->operands[0]);
    const A *lists[3] = { o, s, t };
    for (int k = 0; k < 3; k++) {
        OUT("[");
        for (int i = 0; i < lists[k]->n; i++)
            iron__mlir_pr_outf(w, "%s%lld", i ? ", " : "",
                               (long long)lists[k]->items[i]->i);
        OUT("]");
    }
    if (pk) {
        OUT(", packet = ");
        OUT(pk->s + 16);
    }
    OUT(")");
    attrs(w, op, SKIP("static_offsets", "static_sizes", "static_strides",
                      "x", "y", "packet"));
    OUT(" : ");
    type(w, vtype(w, op->operands[0]));
    return 0;
}

/* ---- aiex.npu.rtp_write(@buf, i, v) ;
 *      2024: (col, row, i, v) {buffer_sym_name = "buf"} ---- */
static int rtp_write(W *w, const O *op)
{
    const A *buf = attr(op, "buffer_sym_name"), *i = attr(op, "index"),
            *v = attr(op, "value"), *col = attr(op, "col"),
            *row = attr(op, "row");
    if (!shape(op, 0, 0, 0) || !kind(buf, IRON__MA_SYMREF) ||
        !ui32_ok(i) || !(i32_ok(v) || kind(v, IRON__MA_FLOAT)) ||
        (!col) != (!row) || (col && !i32_ok(col)) || (row && !i32_ok(row)))
        return -1;
    OUT("aiex.npu.rtp_write(");
    if (col) {
        iron__mlir_pr_outf(w, "%lld, %lld, ", (long long)col->i,
                           (long long)row->i);
    } else {
        iron__mlir_pr_symbol(w, buf->s);
        OUT(", ");
    }
    int_attr(w, i);
    OUT(", ");
    if (v->kind == IRON__MA_INT)
        int_attr(w, v);
    else
        iron__mlir_pr_float(w, v->f, v->type);
    OUT(")");
    if (col)
        attrs(w, op, SKIP("col", "row", "index", "value"));
    else
        attrs(w, op, SKIP("buffer_sym_name", "index", "value"));
    return 0;
}

/* ---- aiex.set_lock(%l, v) ---- */
static int set_lock(W *w, const O *op)
{
    const A *v = attr(op, "value");
    if (!shape(op, 1, 0, 0) || !i32_ok(v) ||
        !is_index(vtype(w, op->operands[0])))
        return -1;
    OUT("aiex.set_lock(");
    value(w, op->operands[0]);
    OUT(", ");
    int_attr(w, v);
    OUT(")");
    attrs(w, op, SKIP("value"));
    return 0;
}

/* ---- aiex.dma_configure_task_for @of { ... } [{attrs}] ---- */
static int configure_task_for(W *w, const O *op)
{
    const A *t = attr(op, "tile");
    if (!shape(op, 0, 1, 1) || !kind(t, IRON__MA_SYMREF) ||
        !all_results_index(w, op))
        return -1;
    OUT("aiex.dma_configure_task_for ");
    iron__mlir_pr_symbol(w, t->s);
    region(w, op, 0, 1, NULL);
    attrs(w, op, SKIP("tile"));
    return 0;
}

/* ---- aiex.dma_configure_task(%tile, MM2S, 0) { ... } ---- */
static int configure_task(W *w, const O *op)
{
    const A *d = attr(op, "direction"), *c = attr(op, "channel");
    if (!shape(op, 1, 1, 1) || !word_ok(d) || !i32_ok(c) ||
        !all_results_index(w, op) || !is_index(vtype(w, op->operands[0])))
        return -1;
    OUT("aiex.dma_configure_task(");
    value(w, op->operands[0]);
    OUT(", ");
    word(w, d);
    OUT(", ");
    int_attr(w, c);
    OUT(")");
    region(w, op, 0, 1, NULL);
    attrs(w, op, SKIP("direction", "channel"));
    return 0;
}

/* ---- aiex.dma_start_task(%t) ---- */
static int task_op(W *w, const O *op)
{
    if (!shape(op, 1, 0, 0) || !is_index(vtype(w, op->operands[0])))
        return -1;
    OUT(op->name);
    OUT("(");
    value(w, op->operands[0]);
    OUT(")");
    attrs(w, op, NULL);
    return 0;
}

/* Whether func's ops print without "func." here: inside a func.func
 * (whose default dialect is func) before any module. */
static int in_func(const O *op)
{
    for (const O *p = op->parent; p; p = p->parent) {
        if (strcmp(p->name, "func.func") == 0)
            return 1;
        if (strcmp(p->name, "builtin.module") == 0)
            return 0;
    }
    return 0;
}

/* ---- func.func [vis] @name(%a: T, ...) [-> R] [attributes {..}]
 *      [{ ... }] ---- */
static int func(W *w, const O *op)
{
    const A *name = attr(op, "sym_name"), *ft = attr(op, "function_type"),
            *vis = attr(op, "sym_visibility"), *aa = attr(op, "arg_attrs"),
            *ra = attr(op, "res_attrs");
    if (!shape(op, 0, 0, 1) || !kind(name, IRON__MA_STR) ||
        !kind(ft, IRON__MA_TYPE) || !ft->type ||
        ft->type->kind != IRON__MT_FUNCTION ||
        (vis && (!kind(vis, IRON__MA_STR) || !vis->s[0])))
        return -1;
    const iron__mlir_type *t = ft->type;
    const iron__mlir_region *r = op->regions[0];
    if (aa && (!kind(aa, IRON__MA_ARRAY) || aa->n != t->nin))
        return -1;
    if (ra && (!kind(ra, IRON__MA_ARRAY) || ra->n != t->nout))
        return -1;
    for (int i = 0; aa && i < aa->n; i++)
        if (!kind(aa->items[i], IRON__MA_DICT))
            return -1;
    for (int i = 0; ra && i < ra->n; i++)
        if (!kind(ra->items[i], IRON__MA_DICT))
            return -1;
    if (r->nblocks) {
        const iron__mlir_block *b = r->blocks[0];
        if (b->nargs != t->nin)
            return -1;
        for (int i = 0; i < t->nin; i++)
            if (!iron__mlir_type_equal(vtype(w, b->args[i]), t->in[i]))
                return -1;
    }
    for (const char *c = vis ? vis->s : ""; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || *c == '_'))
            return -1;
    OUT("func.func ");
    if (vis) {
        OUT(vis->s);
        OUT(" ");
    }
    iron__mlir_pr_symdef(w, name->s);
    OUT("(");
    for (int i = 0; i < t->nin; i++) {
        if (i)
            OUT(", ");
        if (r->nblocks) {
            value(w, r->blocks[0]->args[i]);
            OUT(": ");
        }
        type(w, t->in[i]);
        if (aa && aa->items[i]->n) {
            OUT(" ");
            iron__mlir_pr_attr(w, aa->items[i], NULL, NULL);
        }
    }
    OUT(")");
    int any_ra = 0;
    for (int i = 0; ra && i < ra->n; i++)
        any_ra |= ra->items[i]->n > 0;
    if (t->nout == 1 && !any_ra && t->out[0]->kind != IRON__MT_FUNCTION) {
        OUT(" -> ");
        type(w, t->out[0]);
    } else if (t->nout) {
        OUT(" -> (");
        for (int i = 0; i < t->nout; i++) {
            if (i)
                OUT(", ");
            type(w, t->out[i]);
            if (ra && ra->items[i]->n) {
                OUT(" ");
                iron__mlir_pr_attr(w, ra->items[i], NULL, NULL);
            }
        }
        OUT(")");
    }
    const char *const *skip = SKIP("sym_name", "function_type",
                                   "sym_visibility", "arg_attrs",
                                   "res_attrs");
    int n = 0;
    for (int i = 0; i < op->nattrs; i++) {
        int s = 0;
        for (const char *const *k = skip; *k; k++)
            s |= strcmp(*k, op->attrs[i].name) == 0;
        n += !s;
    }
    if (n) {
        OUT(" attributes");
        attrs(w, op, skip);
    }
    if (r->nblocks)
        region(w, op, 0, 0, NULL);
    return 0;
}

/* ---- func.call @k(%a) : (T) -> R ---- */
static int call(W *w, const O *op)
{
    const A *callee = attr(op, "callee");
    if (!shape(op, -1, -1, 0) || !kind(callee, IRON__MA_SYMREF))
        return -1;
    OUT(in_func(op) ? "call " : "func.call ");
    iron__mlir_pr_symbol(w, callee->s);
    OUT("(");
    iron__mlir_pr_values(w, op->operands, op->noperands);
    OUT(")");
    attrs(w, op, SKIP("callee"));
    OUT(" : ");
    iron__mlir_pr_functional(w, op->operands, op->noperands, op->results,
                             op->nresults);
    return 0;
}

/* " %a, %b : T1, T2" */
static void uses_types(W *w, const O *op, int from)
{
    if (op->noperands <= from)
        return;
    OUT(" ");
    iron__mlir_pr_values(w, op->operands + from, op->noperands - from);
    OUT(" : ");
    iron__mlir_pr_value_types(w, op->operands + from, op->noperands - from);
}

/* ---- return / scf.yield [%a : T] ---- */
static int terminator(W *w, const O *op)
{
    if (!shape(op, -1, 0, 0) || (!w->at_end && op->noperands == 0))
        return -1;
    if (strcmp(op->name, "func.return") == 0 && in_func(op))
        OUT("return");
    else
        OUT(op->name);
    attrs(w, op, NULL);
    uses_types(w, op, 0);
    return 0;
}

/* ---- scf.condition(%c) [%a : T] ---- */
static int condition(W *w, const O *op)
{
    if (!shape(op, -1, 0, 0) || op->noperands < 1 ||
        !is_int(vtype(w, op->operands[0]), 1) ||
        (!w->at_end && op->noperands == 1))
        return -1;
    OUT("scf.condition(");
    value(w, op->operands[0]);
    OUT(")");
    attrs(w, op, NULL);
    uses_types(w, op, 1);
    return 0;
}

/* ---- arith.constant 3 : i32 ---- */
static int constant(W *w, const O *op)
{
    const A *v = attr(op, "value");
    if (!shape(op, 0, 1, 0) || !v)
        return -1;
    const iron__mlir_type *rt = vtype(w, op->results[0]);
    if (v->kind == IRON__MA_BOOL) {
        if (!is_int(rt, 1))
            return -1;
    } else if (v->kind == IRON__MA_INT || v->kind == IRON__MA_FLOAT ||
               v->kind == IRON__MA_DENSE) {
        if (!v->type || !iron__mlir_type_equal(v->type, rt))
            return -1;
    } else {
        return -1;
    }
    OUT("arith.constant");
    attrs(w, op, SKIP("value"));
    OUT(" ");
    iron__mlir_pr_attr(w, v, NULL, NULL);
    return 0;
}

/* " overflow<nsw>" from #arith.overflow<nsw> (the flags' text). */
static int flag_ok(const A *a, const char *prefix)
{
    return !a || (kind(a, IRON__MA_OPAQUE) &&
                  strncmp(a->s, prefix, strlen(prefix)) == 0);
}

static void flag(W *w, const A *a, const char *prefix, const char *word)
{
    if (!a)
        return;
    OUT(" ");
    OUT(word);
    OUT(a->s + strlen(prefix));
}

/* ---- arith.addi %a, %b [overflow<..>] [fastmath<..>] : T ---- */
static int binary(W *w, const O *op)
{
    const A *of = attr(op, "overflowFlags"), *fm = attr(op, "fastmath");
    if (!shape(op, 2, 1, 0) || !flag_ok(of, "#arith.overflow<") ||
        !flag_ok(fm, "#arith.fastmath<"))
        return -1;
    const iron__mlir_type *t = vtype(w, op->results[0]);
    if (!iron__mlir_type_equal(vtype(w, op->operands[0]), t) ||
        !iron__mlir_type_equal(vtype(w, op->operands[1]), t))
        return -1;
    OUT(op->name);
    OUT(" ");
    iron__mlir_pr_values(w, op->operands, 2);
    flag(w, of, "#arith.overflow", "overflow");
    flag(w, fm, "#arith.fastmath", "fastmath");
    attrs(w, op, SKIP("overflowFlags", "fastmath"));
    OUT(" : ");
    type(w, t);
    return 0;
}

/* ---- arith.negf %a : T ---- */
static int unary(W *w, const O *op)
{
    const A *fm = attr(op, "fastmath");
    if (!shape(op, 1, 1, 0) || !flag_ok(fm, "#arith.fastmath<") ||
        !iron__mlir_type_equal(vtype(w, op->operands[0]),
                               vtype(w, op->results[0])))
        return -1;
    OUT(op->name);
    OUT(" ");
    value(w, op->operands[0]);
    flag(w, fm, "#arith.fastmath", "fastmath");
    attrs(w, op, SKIP("fastmath"));
    OUT(" : ");
    type(w, vtype(w, op->results[0]));
    return 0;
}

/* i1, or a shape of i1 */
static int bool_like(const iron__mlir_type *r, const iron__mlir_type *t)
{
    if (!r || !t)
        return 0;
    if (t->kind == IRON__MT_VECTOR || t->kind == IRON__MT_TENSOR) {
        if (r->kind != t->kind || r->rank != t->rank || !is_int(r->elem, 1))
            return 0;
        for (int i = 0; i < r->rank; i++)
            if (r->dims[i] != t->dims[i])
                return 0;
        return 1;
    }
    return is_int(r, 1);
}

/* ---- arith.cmpi slt, %a, %b : T ---- */
static int compare(W *w, const O *op)
{
    const A *p = attr(op, "predicate"), *fm = attr(op, "fastmath");
    if (!shape(op, 2, 1, 0) || !word_ok(p) ||
        !flag_ok(fm, "#arith.fastmath<"))
        return -1;
    const iron__mlir_type *t = vtype(w, op->operands[0]);
    if (!iron__mlir_type_equal(t, vtype(w, op->operands[1])) ||
        !bool_like(vtype(w, op->results[0]), t))
        return -1;
    OUT(op->name);
    OUT(" ");
    word(w, p);
    OUT(", ");
    iron__mlir_pr_values(w, op->operands, 2);
    flag(w, fm, "#arith.fastmath", "fastmath");
    attrs(w, op, SKIP("predicate", "fastmath"));
    OUT(" : ");
    type(w, t);
    return 0;
}

/* ---- arith.select %c, %a, %b : [Tc, ]T ---- */
static int select_op(W *w, const O *op)
{
    if (!shape(op, 3, 1, 0))
        return -1;
    const iron__mlir_type *c = vtype(w, op->operands[0]),
                          *t = vtype(w, op->results[0]);
    if (!iron__mlir_type_equal(vtype(w, op->operands[1]), t) ||
        !iron__mlir_type_equal(vtype(w, op->operands[2]), t) || !c)
        return -1;
    OUT("arith.select ");
    iron__mlir_pr_values(w, op->operands, 3);
    attrs(w, op, NULL);
    OUT(" : ");
    if (!is_int(c, 1)) {
        type(w, c);
        OUT(", ");
    }
    type(w, t);
    return 0;
}

/* ---- arith.extsi %a : T to U ---- */
static int cast(W *w, const O *op)
{
    if (!shape(op, 1, 1, 0))
        return -1;
    OUT(op->name);
    OUT(" ");
    value(w, op->operands[0]);
    attrs(w, op, NULL);
    OUT(" : ");
    type(w, vtype(w, op->operands[0]));
    OUT(" to ");
    type(w, vtype(w, op->results[0]));
    return 0;
}

static int indices_index(const W *w, const O *op, int from)
{
    for (int i = from; i < op->noperands; i++)
        if (!is_index(vtype(w, op->operands[i])))
            return 0;
    return 1;
}

/* The memref operand m, its indices (the operands after it) and the
 * rest of a load or store whose value has type vt:
 * "%m[%i, ...] {attrs} : memref<..>". */
static int memref_access(W *w, const O *op, int m,
                         const iron__mlir_type *vt)
{
    const iron__mlir_type *mt = vtype(w, op->operands[m]);
    if (!mt || mt->kind != IRON__MT_MEMREF || !indices_index(w, op, m + 1) ||
        !iron__mlir_type_equal(mt->elem, vt))
        return -1;
    OUT(op->name);
    OUT(" ");
    if (m) {
        value(w, op->operands[0]);
        OUT(", ");
    }
    value(w, op->operands[m]);
    OUT("[");
    iron__mlir_pr_values(w, op->operands + m + 1, op->noperands - m - 1);
    OUT("]");
    attrs(w, op, NULL);
    OUT(" : ");
    type(w, mt);
    return 0;
}

/* ---- memref.load %m[%i] : memref<..> ---- */
static int load(W *w, const O *op)
{
    if (!shape(op, -1, 1, 0) || op->noperands < 1)
        return -1;
    return memref_access(w, op, 0, vtype(w, op->results[0]));
}

/* ---- memref.store %v, %m[%i] : memref<..> ---- */
static int store(W *w, const O *op)
{
    if (!shape(op, -1, 0, 0) || op->noperands < 2)
        return -1;
    return memref_access(w, op, 1, vtype(w, op->operands[0]));
}

/* A region whose entry block has nargs arguments (its label, if any,
 * is not printed: no branch can target an entry block). */
static int entry_matches(const iron__mlir_region *r, int nargs)
{
    return r->nblocks > 0 && r->blocks[0]->nargs == nargs;
}

/* ---- scf.for %i = %lb to %ub step %s [iter_args(...) -> (T)] [: T] ---- */
static int scf_for(W *w, const O *op)
{
    int n = op->noperands - 3;
    if (!shape(op, -1, n, 1) || n < 0 ||
        !entry_matches(op->regions[0], n + 1))
        return -1;
    const iron__mlir_block *b = op->regions[0]->blocks[0];
    const iron__mlir_type *ivt = vtype(w, b->args[0]);
    for (int i = 0; i < 3; i++)
        if (!iron__mlir_type_equal(vtype(w, op->operands[i]), ivt))
            return -1;
    for (int i = 0; i < n; i++) {
        const iron__mlir_type *t = vtype(w, b->args[i + 1]);
        if (!iron__mlir_type_equal(vtype(w, op->operands[3 + i]), t) ||
            !iron__mlir_type_equal(vtype(w, op->results[i]), t))
            return -1;
    }
    OUT("scf.for ");
    value(w, b->args[0]);
    OUT(" = ");
    value(w, op->operands[0]);
    OUT(" to ");
    value(w, op->operands[1]);
    OUT(" step ");
    value(w, op->operands[2]);
    if (n) {
        OUT(" iter_args(");
        for (int i = 0; i < n; i++) {
            if (i)
                OUT(", ");
            value(w, b->args[i + 1]);
            OUT(" = ");
            value(w, op->operands[3 + i]);
        }
        OUT(") -> (");
        iron__mlir_pr_value_types(w, op->results, n);
        OUT(")");
    }
    if (!is_index(ivt)) {
        OUT(" : ");
        type(w, ivt);
    }
    region(w, op, 0, 0, n ? NULL : "scf.yield");
    attrs(w, op, NULL);
    return 0;
}

/* ---- scf.while (%a = %x) : (T) -> R { ... } do { ... } ---- */
static int scf_while(W *w, const O *op)
{
    int n = op->noperands;
    if (!shape(op, n, -1, 2) || !entry_matches(op->regions[0], n))
        return -1;
    const iron__mlir_block *b = op->regions[0]->blocks[0];
    for (int i = 0; i < n; i++)
        if (!iron__mlir_type_equal(vtype(w, op->operands[i]),
                                   vtype(w, b->args[i])))
            return -1;
    OUT("scf.while (");
    for (int i = 0; i < n; i++) {
        if (i)
            OUT(", ");
        value(w, b->args[i]);
        OUT(" = ");
        value(w, op->operands[i]);
    }
    OUT(") : ");
    iron__mlir_pr_functional(w, op->operands, n, op->results, op->nresults);
    region(w, op, 0, 0, NULL);
    OUT(" do");
    region(w, op, 1, 1, NULL);
    if (op->nattrs) {
        OUT(" attributes");
        attrs(w, op, NULL);
    }
    return 0;
}

/* ---- scf.if %c [-> (T)] { ... } [else { ... }] ---- */
static int scf_if(W *w, const O *op)
{
    if (!shape(op, 1, -1, 2) || !is_int(vtype(w, op->operands[0]), 1))
        return -1;
    for (int k = 0; k < 2; k++) {
        const iron__mlir_region *r = op->regions[k];
        if (r->nblocks > 1 || (r->nblocks == 1 && r->blocks[0]->nargs))
            return -1;
    }
    if (op->regions[0]->nblocks == 0)
        return -1;
    const char *drop = op->nresults ? NULL : "scf.yield";
    OUT("scf.if ");
    value(w, op->operands[0]);
    if (op->nresults) {
        OUT(" -> (");
        iron__mlir_pr_value_types(w, op->results, op->nresults);
        OUT(")");
    }
    region(w, op, 0, 0, drop);
    if (op->regions[1]->nblocks) {
        OUT(" else");
        region(w, op, 1, 0, drop);
    }
    attrs(w, op, NULL);
    return 0;
}

typedef int (*custom_fn)(W *w, const O *op);

static const struct {
    const char *name;
    custom_fn fn;
} forms[] = {
    { "builtin.module", module },
    { "aie.device", device },
    { "aie.tile", tile },
    { "aie.objectfifo", objectfifo },
    { "aie.objectfifo.link", link },
    { "aie.objectfifo.acquire", acquire },
    { "aie.objectfifo.release", release },
    { "aie.objectfifo.subview.access", subview_access },
    { "aie.core", core },
    { "aie.buffer", buffer },
    { "aie.lock", lock },
    { "aie.use_lock", use_lock },
    { "aie.end", attrs_only },
    { "aie.runtime_sequence", runtime_sequence },
    { "aiex.runtime_sequence", runtime_sequence },
    { "aie.dma_bd", dma_bd },
    { "aiex.npu.dma_memcpy_nd", dma_memcpy_nd },
    { "aiex.npu.dma_wait", attrs_only },
    { "aiex.npu.rtp_write", rtp_write },
    { "aiex.npu.sync", attrs_only },
    { "aiex.npu.write32", attrs_only },
    { "aiex.npu.maskwrite32", attrs_only },
    { "aiex.npu.writebd", attrs_only },
    { "aiex.npu.address_patch", attrs_only },
    { "aiex.npu.preempt", attrs_only },
    { "aiex.npu.load_pdi", attrs_only },
    { "aiex.set_lock", set_lock },
    { "aiex.dma_configure_task_for", configure_task_for },
    { "aiex.dma_configure_task", configure_task },
    { "aiex.dma_start_task", task_op },
    { "aiex.dma_await_task", task_op },
    { "aiex.dma_free_task", task_op },
    { "func.func", func },
    { "func.call", call },
    { "func.return", terminator },
    { "arith.constant", constant },
    { "arith.cmpi", compare },
    { "arith.cmpf", compare },
    { "arith.select", select_op },
    { "arith.negf", unary },
    { "memref.load", load },
    { "memref.store", store },
    { "scf.for", scf_for },
    { "scf.while", scf_while },
    { "scf.if", scf_if },
    { "scf.yield", terminator },
    { "scf.condition", condition },
};

int iron__mlir_pr_custom(W *w, const O *op)
{
    custom_fn fn = NULL;
    for (size_t i = 0; i < IRON__COUNT_OF(forms) && !fn; i++)
        if (strcmp(forms[i].name, op->name) == 0)
            fn = forms[i].fn;
    if (!fn) {
        int form = iron__mlir_arith_form(op->name);
        fn = form == IRON__MLIR_ARITH_BINARY ? binary
             : form == IRON__MLIR_ARITH_CAST ? cast
                                              : NULL;
    }
    return fn ? fn(w, op) : -1;
}
