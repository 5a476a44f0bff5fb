/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * forms_aie.c - the directives of the aie and aiex ops' formats (ops.c):
 * the pieces of their custom forms that no plain format element can say,
 * each one parse/print pair, reading every upstream spelling since 2024
 * and printing the one the tree holds; and the normalising of those ops
 * (older spellings to the tree's one).
 */
#include <stdio.h>
#include <string.h>

#include "mlir/forms.h"

#define DIM_ARRAY(a) iron__mlir_all_of(a, IRON__MA_ARRAY, IRON__MA_DIM)
#define INDEX_ARRAY(a) iron__mlir_all_of(a, IRON__MA_DENSE_ARRAY, IRON__MA_INT)

static iron__mlir_type *index_t(P *p)
{
    return iron__mlir_p_index_type(p);
}

static iron__mlir_type *i32_t(P *p)
{
    return iron__mlir_p_int_type(p, 32, 0);
}

/* A dense value written without its type reads back as a tensor of the
 * memref's shape: it must be one. */
static int dense_fits(const A *d, const iron__mlir_type *m)
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

/* ---- aie.objectfifo: "%prod [dimensionsToStream [...]], {%c1
 *      [dimensionsFromStream [...]], ...}" ---- */

/* An optional "dimensionsToStream [...]" after a tile (and the 2023
 * spelling toStream / fromStream); an empty list when absent. */
static int stream_dims(P *p, const char *word, const char *old, A **out)
{
    int r = iron__mlir_p_accept_word(p, word);
    if (r == 0)
        r = iron__mlir_p_accept_word(p, old);
    if (r < 0)
        return -1;
    if (r)
        return iron__mlir_p_dim_list(p, out);
    *out = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    return *out ? 0 : -1;
}

/* One consumer tile and its layout, into the list the context holds. */
typedef struct consumers {
    B *b;
    iron__mlir_type *index;
    A *from;
    int cap;
} consumers;

static int consumer(P *p, void *ctx)
{
    consumers *k = ctx;
    if (iron__mlir_p_operand(p, k->b, k->index) ||
        iron__mlir_p_grow(p, (void **)&k->from->items, &k->cap,
                          k->from->n + 1, sizeof *k->from->items) ||
        stream_dims(p, "dimensionsFromStream", "fromStream",
                    &k->from->items[k->from->n]))
        return -1;
    k->from->n++;
    return 0;
}

static int fifo_ends_parse(P *p, B *b, C *c)
{
    (void)c;
    consumers k = { b, index_t(p), iron__mlir_p_new_attr(p, IRON__MA_ARRAY),
                    0 };
    A *to, *from = k.from;
    if (!k.index || !from || iron__mlir_p_operand(p, b, k.index) ||
        stream_dims(p, "dimensionsToStream", "toStream", &to) ||
        expect(p, IRON__TK_COMMA, NULL) || expect(p, IRON__TK_LBRACE, NULL) ||
        iron__mlir_p_list(p, IRON__TK_RBRACE,
                          "',' or '}' after the consumer tiles", consumer,
                          &k))
        return -1;
    return iron__mlir_opb_attr(p, b, "dimensionsToStream", to, to->loc) ||
                   iron__mlir_opb_attr(p, b,
                                       "dimensionsFromStreamPerConsumer",
                                       from, from->loc)
               ? -1
               : 0;
}

static int fifo_ends_print(W *w, const O *op, C *c)
{
    const A *to = attr(op, "dimensionsToStream"),
            *from = attr(op, "dimensionsFromStreamPerConsumer");
    int ncons = op->noperands - 1;
    if (ncons < 0 || (to && !DIM_ARRAY(to)))
        return -1;
    if (from) {
        if (!kind(from, IRON__MA_ARRAY) || from->n != ncons)
            return -1;
        for (int i = 0; i < from->n; i++)
            if (!DIM_ARRAY(from->items[i]))
                return -1;
    }
    for (int i = 0; i < op->noperands; i++)
        if (!iron__mlir_is_index(vtype(w, op->operands[i])))
            return -1;
    iron__mlir_pr_value(w, op->operands[0]);
    if (to && to->n) {
        OUT(" dimensionsToStream ");
        iron__mlir_pr_dims(w, to);
    }
    OUT(", {");
    for (int i = 0; i < ncons; i++) {
        if (i)
            OUT(", ");
        iron__mlir_pr_value(w, op->operands[i + 1]);
        if (from && from->items[i]->n) {
            OUT(" dimensionsFromStream ");
            iron__mlir_pr_dims(w, from->items[i]);
        }
    }
    OUT("}");
    c->operands_done = 1;
    return 0;
}

/* ---- aie.objectfifo: " = [dense<...>, ...]" (initial values) ---- */

/* One object's dense<...> (its type the fifo's), into the list. */
typedef struct initial {
    iron__mlir_type *tensor;
    A *inits;
    int cap;
} initial;

static int initial_value(P *p, void *ctx)
{
    initial *k = ctx;
    if (iron__mlir_p_expect_word(p, "dense") ||
        iron__mlir_p_grow(p, (void **)&k->inits->items, &k->cap,
                          k->inits->n + 1, sizeof *k->inits->items) ||
        iron__mlir_p_items(p, 1) ||
        iron__mlir_p_dense(p, k->tensor, &k->inits->items[k->inits->n]))
        return -1;
    k->inits->n++;
    return 0;
}
static int fifo_init_parse(P *p, B *b, C *c)
{
    (void)c;
    if (p->tok.kind != IRON__TK_EQUAL)
        return 0;
    const A *ty = NULL;
    for (int i = 0; i < b->nattrs; i++)
        if (strcmp(b->attrs[i].name, "elemType") == 0)
            ty = b->attrs[i].attr;
    const iron__mlir_type *t = ty ? ty->type : NULL;
    iron__mlir_loc iloc = p->tok.loc;
    if (!t || t->kind != IRON__MT_DIALECT || !t->elem ||
        t->elem->kind != IRON__MT_MEMREF)
        return iron__mlir_p_fail(p, iloc,
                                 "initial values need a type "
                                 "!aie.objectfifo<memref<...>>");
    initial k = { iron__mlir_p_tensor_of(p, t->elem),
                  iron__mlir_p_new_attr(p, IRON__MA_ARRAY), 0 };
    if (!k.tensor || !k.inits || iron__mlir_p_next(p) ||
        expect(p, IRON__TK_LBRACKET, "'[' (the initial values)") ||
        iron__mlir_p_commas(p, initial_value, &k) ||
        expect(p, IRON__TK_RBRACKET, "',' or ']'"))
        return -1;
    return iron__mlir_opb_attr(p, b, "initValues", k.inits, iloc);
}

static int fifo_init_print(W *w, const O *op, C *c)
{
    (void)c;
    const A *init = attr(op, "initValues"), *ty = attr(op, "elemType");
    if (!init)
        return 0;
    const iron__mlir_type *ft = ty ? ty->type : NULL;
    if (!kind(init, IRON__MA_ARRAY) || !ft || ft->kind != IRON__MT_DIALECT ||
        !ft->elem || init->n == 0)
        return -1;
    for (int i = 0; i < init->n; i++)
        if (!dense_fits(init->items[i], ft->elem))
            return -1;
    OUT(" = [");
    for (int i = 0; i < init->n; i++) {
        if (i)
            OUT(", ");
        /* the dense without its type (implied by the fifo's) */
        iron__mlir_pr_dense_body(w, init->items[i]);
    }
    OUT("]");
    return 0;
}

static int empty_list(P *p, O *op, const char *name)
{
    if (attr(op, name))
        return 0;
    A *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a)
        return -1;
    a->loc = op->loc;
    return iron__mlir_p_set(p, op, name, a);
}

/* aie.objectfifo always has dimensionsToStream and
 * dimensionsFromStreamPerConsumer (empty lists when not given), as
 * upstream's parser makes them. */
int iron__mlir_norm_objectfifo(P *p, O *op)
{
    if (empty_list(p, op, "dimensionsToStream"))
        return -1;
    if (attr(op, "dimensionsFromStreamPerConsumer"))
        return 0;
    int n = op->noperands > 1 ? op->noperands - 1 : 0;
    A *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a || iron__mlir_p_items(p, n))
        return -1;
    a->loc = op->loc;
    if (n) {
        a->items = iron__mlir_alloc(p->m, (size_t)n * sizeof *a->items);
        if (!a->items)
            return iron__mlir_p_nomem(p);
        for (int i = 0; i < n; i++)
            if (!(a->items[i] = iron__mlir_p_new_attr(p, IRON__MA_ARRAY)))
                return -1;
        a->n = n;
    }
    return iron__mlir_p_set(p, op, "dimensionsFromStreamPerConsumer", a);
}

/* ---- aie.objectfifo.link: "([] [0, 1024])"; older: "()" or nothing ---- */
static int link_offsets_parse(P *p, B *b, C *c)
{
    (void)c;
    A *src = NULL, *dst = NULL;
    iron__mlir_loc loc = p->tok.loc;
    if (p->tok.kind == IRON__TK_LPAREN) {
        if (iron__mlir_p_next(p))
            return -1;
        if (p->tok.kind != IRON__TK_RPAREN &&
            (iron__mlir_p_int_array(p, &src) ||
             iron__mlir_p_int_array(p, &dst)))
            return -1;
        if (expect(p, IRON__TK_RPAREN, NULL))
            return -1;
    }
    if (!src && !(src = iron__mlir_p_new_attr(p, IRON__MA_ARRAY)))
        return -1;
    if (!dst && !(dst = iron__mlir_p_new_attr(p, IRON__MA_ARRAY)))
        return -1;
    return iron__mlir_opb_attr(p, b, "src_offsets", src, loc) ||
                   iron__mlir_opb_attr(p, b, "dst_offsets", dst, loc)
               ? -1
               : 0;
}

static int link_offsets_print(W *w, const O *op, C *c)
{
    (void)c;
    const A *src = attr(op, "src_offsets"), *dst = attr(op, "dst_offsets");
    if (!iron__mlir_all_of(src, IRON__MA_ARRAY, IRON__MA_INT) ||
        !iron__mlir_all_of(dst, IRON__MA_ARRAY, IRON__MA_INT))
        return -1;
    OUT("(");
    iron__mlir_pr_ints(w, src);
    OUT(" ");
    iron__mlir_pr_ints(w, dst);
    OUT(")");
    return 0;
}

int iron__mlir_norm_link(P *p, O *op)
{
    return empty_list(p, op, "src_offsets") ||
                   empty_list(p, op, "dst_offsets")
               ? -1
               : 0;
}

/* The newest acquire may leave out its size: it has as many results. */
int iron__mlir_norm_acquire(P *p, O *op)
{
    if (attr(op, "size") || op->nresults < 1)
        return 0;
    A *a = iron__mlir_p_new_attr(p, IRON__MA_INT);
    if (!a || !(a->type = i32_t(p)))
        return -1;
    a->i = op->nresults;
    a->loc = op->loc;
    return iron__mlir_p_set(p, op, "size", a);
}

/* ---- aie.buffer: " = dense<...>" (the initial value) ---- */
static int buffer_init_parse(P *p, B *b, C *c)
{
    (void)c;
    if (p->tok.kind != IRON__TK_EQUAL)
        return 0;
    iron__mlir_loc loc = p->tok.loc;
    iron__mlir_type *t = b->nrtypes ? b->rtypes[b->nrtypes - 1] : NULL;
    if (!t || t->kind != IRON__MT_MEMREF)
        return iron__mlir_p_fail(p, loc, "an initial value needs a memref");
    iron__mlir_type *tensor = iron__mlir_p_tensor_of(p, t);
    A *a;
    if (!tensor || iron__mlir_p_next(p) ||
        iron__mlir_p_expect_word(p, "dense") ||
        iron__mlir_p_dense(p, tensor, &a))
        return -1;
    return iron__mlir_opb_attr(p, b, "initial_value", a, loc);
}

static int buffer_init_print(W *w, const O *op, C *c)
{
    (void)c;
    const A *init = attr(op, "initial_value");
    if (!init)
        return 0;
    if (op->nresults != 1 || !dense_fits(init, vtype(w, op->results[0])))
        return -1;
    OUT(" = ");
    iron__mlir_pr_dense_body(w, init);
    return 0;
}

/* ---- runtime_sequence: "(%a: T, ...)", the entry block's arguments ---- */
/* "%a: T", into the context's arguments. */
static int seq_arg(P *p, void *ctx)
{
    C *c = ctx;
    if (p->tok.kind != IRON__TK_VALUE)
        return iron__mlir_p_expected(p, "an argument (%name: type)");
    if (iron__mlir_p_grow(p, (void **)&c->args, &c->cap_args, c->nargs + 1,
                          sizeof *c->args))
        return -1;
    iron__mlir_barg *a = &c->args[c->nargs];
    a->name = p->tok.p;
    a->n = p->tok.n;
    a->loc = p->tok.loc;
    if (iron__mlir_p_next(p) || expect(p, IRON__TK_COLON, NULL) ||
        iron__mlir_p_type(p, &a->type) || iron__mlir_p_opt_loc(p))
        return -1;
    c->nargs++;
    return 0;
}

static int seq_args_parse(P *p, B *b, C *c)
{
    (void)b;
    c->args_given = 1;
    return expect(p, IRON__TK_LPAREN, "'(' (the sequence's arguments)") ||
                   iron__mlir_p_list(p, IRON__TK_RPAREN, NULL, seq_arg, c)
               ? -1
               : 0;
}

static int seq_args_print(W *w, const O *op, C *c)
{
    c->args_given = 1;
    if (op->nregions < 1 || op->regions[0]->nblocks > 1)
        return -1;
    OUT("(");
    const iron__mlir_region *r = op->regions[0];
    if (r->nblocks) {
        const iron__mlir_block *b = r->blocks[0];
        for (int i = 0; i < b->nargs; i++) {
            if (i)
                OUT(", ");
            iron__mlir_pr_value(w, b->args[i]);
            OUT(": ");
            iron__mlir_pr_type(w, vtype(w, b->args[i]));
        }
    }
    OUT(")");
    return 0;
}

/* The sequence is aie.runtime_sequence since upstream #2708 (a target
 * before it prints aiex's: version.c). */
int iron__mlir_norm_sequence(P *p, O *op)
{
    op->name = iron__mlir_strdup(p->m, "aie.runtime_sequence");
    return op->name ? 0 : iron__mlir_p_nomem(p);
}

/* ---- aie.dma_bd: "%buf : T[, offset[, len[, [dims][, [pads]]]]]
 *      [, pad_value = v]"; newest: "%buf : T offset = 0 len = 64
 *      sizes = [...] strides = [...]" ---- */

/* "= [1, 2]" of the newest form (static values only). */
typedef struct dims {
    int64_t v[IRON__MLIR_MAX_RANK];
    int n;
} dims;

static int static_dim(P *p, void *ctx)
{
    dims *d = ctx;
    if (p->tok.kind == IRON__TK_VALUE)
        return iron__mlir_p_fail(p, p->tok.loc,
                                 "sizes and strides given by values are not "
                                 "supported");
    if (d->n >= IRON__MLIR_MAX_RANK)
        return iron__mlir_p_fail(p, p->tok.loc, "more than %d dimensions",
                                 IRON__MLIR_MAX_RANK);
    return iron__mlir_p_int(p, &d->v[d->n++]);
}

static int static_list(P *p, dims *d)
{
    d->n = 0;
    return expect(p, IRON__TK_EQUAL, NULL) ||
                   expect(p, IRON__TK_LBRACKET, NULL) ||
                   iron__mlir_p_list(p, IRON__TK_RBRACKET, "',' or ']'",
                                     static_dim, d)
               ? -1
               : 0;
}

static int bd_keywords(P *p, B *b)
{
    dims sizes = { .n = -1 }, strides = { .n = -1 };
    iron__mlir_loc loc = p->tok.loc;
    while (p->tok.kind == IRON__TK_BARE) {
        if (iron__mlir_p_is_word(p, "offset") ||
            iron__mlir_p_is_word(p, "len")) {
            char name[8];
            snprintf(name, sizeof name, "%.*s", (int)p->tok.n, p->tok.p);
            if (iron__mlir_p_next(p) || expect(p, IRON__TK_EQUAL, NULL))
                return -1;
            if (p->tok.kind == IRON__TK_VALUE)
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "an offset or length given by a "
                                         "value is not supported");
            if (iron__mlir_p_int_named(p, b, name, i32_t(p)))
                return -1;
        } else if (iron__mlir_p_is_word(p, "sizes")) {
            if (iron__mlir_p_next(p) || static_list(p, &sizes))
                return -1;
        } else if (iron__mlir_p_is_word(p, "strides")) {
            if (iron__mlir_p_next(p) || static_list(p, &strides))
                return -1;
        } else if (iron__mlir_p_is_word(p, "pad")) {
            iron__mlir_loc ploc = p->tok.loc;
            A *pads;
            if (iron__mlir_p_next(p) || iron__mlir_p_pad_list(p, &pads) ||
                iron__mlir_opb_attr(p, b, "pad_dimensions", pads, ploc))
                return -1;
        } else {
            return iron__mlir_p_expected(p,
                                         "offset, len, sizes, strides or "
                                         "pad");
        }
    }
    int ns = sizes.n;
    if (ns != strides.n)
        return iron__mlir_p_fail(p, loc,
                                 "sizes and strides must come together and "
                                 "be as many");
    if (ns <= 0)
        return 0;
    A *d = iron__mlir_p_add(p, b, "dimensions", IRON__MA_ARRAY, loc);
    if (!d || iron__mlir_p_items(p, ns))
        return -1;
    d->items = iron__mlir_alloc(p->m, (size_t)ns * sizeof *d->items);
    if (!d->items)
        return iron__mlir_p_nomem(p);
    for (int i = 0; i < ns; i++) {
        if (!(d->items[i] = iron__mlir_p_new_attr(p, IRON__MA_DIM)))
            return -1;
        d->items[i]->i = sizes.v[i];
        d->items[i]->stride = strides.v[i];
    }
    d->n = ns;
    return 0;
}

static int bd_body_parse(P *p, B *b, C *c)
{
    (void)c;
    int id;
    iron__mlir_loc loc;
    iron__mlir_type *t;
    if (iron__mlir_p_use(p, &id, &loc) ||
        iron__mlir_opb_operand(p, b, id, loc) ||
        expect(p, IRON__TK_COLON, "':' and the buffer's type") ||
        iron__mlir_p_type(p, &t) || iron__mlir_p_check_type(p, id, loc, t))
        return -1;
    if (p->tok.kind == IRON__TK_BARE)
        return bd_keywords(p, b);
    static const char *const names[] = { "offset", "len" };
    int stage = 0;
    while (p->tok.kind == IRON__TK_COMMA) {
        if (iron__mlir_p_next(p))
            return -1;
        iron__mlir_loc aloc = p->tok.loc;
        if (iron__mlir_p_accept_word(p, "pad_value")) {
            if (expect(p, IRON__TK_EQUAL, NULL) ||
                iron__mlir_p_int_named(p, b, "pad_value", i32_t(p)))
                return -1;
            stage = 5;
            continue;
        }
        if (stage < 2) {
            if (iron__mlir_p_int_named(p, b, names[stage], i32_t(p)))
                return -1;
        } else if (stage < 4) {
            A *d;
            if ((stage == 2 ? iron__mlir_p_dim_list(p, &d)
                            : iron__mlir_p_pad_list(p, &d)) ||
                iron__mlir_opb_attr(p, b,
                                    stage == 2 ? "dimensions"
                                               : "pad_dimensions",
                                    d, aloc))
                return -1;
        } else {
            return iron__mlir_p_expected(p, "')'");
        }
        stage++;
    }
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

static void pads_list(W *w, const A *pads)
{
    OUT("[");
    for (int i = 0; i < pads->n; i++) {
        if (i)
            OUT(", ");
        OUT(pads->items[i]->s + 18);
    }
    OUT("]");
}

/* The newest form: "offset = o len = l sizes = [..] strides = [..]
 * pad [..]" from the static attributes a target lowers to. */
static int bd_keywords_print(W *w, const O *op)
{
    const A *off = attr(op, "static_offset"), *len = attr(op, "static_len"),
            *sz = attr(op, "static_sizes"), *st = attr(op, "static_strides"),
            *pads = attr(op, "pad_dimensions");
    if ((off && !iron__mlir_i32_ok(off)) || (len && !iron__mlir_i32_ok(len)) ||
        (!sz) != (!st) || (sz && (!INDEX_ARRAY(sz) || !INDEX_ARRAY(st) ||
                                  sz->n != st->n)) ||
        (pads && !pad_array(pads)) || attr(op, "offset") ||
        attr(op, "len") || attr(op, "dimensions"))
        return -1;
    if (off)
        iron__mlir_pr_outf(w, " offset = %lld", (long long)off->i);
    if (len)
        iron__mlir_pr_outf(w, " len = %lld", (long long)len->i);
    if (sz) {
        OUT(" sizes = ");
        iron__mlir_pr_ints(w, sz);
        OUT(" strides = ");
        iron__mlir_pr_ints(w, st);
    }
    if (pads) {
        OUT(" pad ");
        pads_list(w, pads);
    }
    return 0;
}

static int bd_body_print(W *w, const O *op, C *c)
{
    if (op->noperands == 1 &&
        (attr(op, "static_offset") || attr(op, "static_len") ||
         attr(op, "static_sizes"))) {
        iron__mlir_pr_value(w, op->operands[0]);
        OUT(" : ");
        iron__mlir_pr_type(w, vtype(w, op->operands[0]));
        c->operands_done = 1;
        return bd_keywords_print(w, op);
    }
    const A *off = attr(op, "offset"), *len = attr(op, "len"),
            *d = attr(op, "dimensions"), *pads = attr(op, "pad_dimensions"),
            *pv = attr(op, "pad_value");
    if (op->noperands != 1 || (off && !iron__mlir_i32_ok(off)) ||
        (len && !iron__mlir_i32_ok(len)) || (d && !DIM_ARRAY(d)) ||
        (pads && !pad_array(pads)) || (pv && !iron__mlir_i32_ok(pv)) ||
        ((d || pads) && !len) || (pads && !d) || (!off) != (!len))
        return -1;
    iron__mlir_pr_value(w, op->operands[0]);
    OUT(" : ");
    iron__mlir_pr_type(w, vtype(w, op->operands[0]));
    if (len)
        iron__mlir_pr_outf(w, ", %lld, %lld", (long long)off->i,
                           (long long)len->i);
    if (d) {
        OUT(", ");
        iron__mlir_pr_dims(w, d);
    }
    if (pads) {
        OUT(", ");
        pads_list(w, pads);
    }
    if (pv)
        iron__mlir_pr_outf(w, ", pad_value = %lld", (long long)pv->i);
    c->operands_done = 1;
    return 0;
}

/* ---- aiex.npu.dma_memcpy_nd: "[x, y, ]%m[offsets][sizes][strides]
 *      [, packet = <...>]" ---- */

/* An index written as a value: upstream's older text spells them %c0,
 * %c64 (values of integer arith.constant ops in the sequence), which
 * stand for their constants. */
static int index_value(P *p, const char *name, int64_t *v)
{
    int id;
    iron__mlir_loc loc;
    if (iron__mlir_p_use(p, &id, &loc))
        return -1;
    const iron__mlir_value *val = &p->m->values[id];
    const O *def = val->def;
    const A *c = def && strcmp(def->name, "arith.constant") == 0
                     ? iron__mlir_attr_get(def, "value")
                     : NULL;
    if (!c || c->kind != IRON__MA_INT)
        return iron__mlir_p_fail(p, loc,
                                 "%s: %s is not an integer arith.constant "
                                 "(indices given by other values are not "
                                 "supported)",
                                 name, val->name ? val->name : "the value");
    *v = c->i;
    return 0;
}

/* "[0, 0, 0, 1]" (or "[%c0, ...]") into array<i64: ...>.  The early
 * 2024 form gives three strides: the innermost, always 1, is left out,
 * and is put back here so the tree has four of each. */
typedef struct indices {
    const char *name;
    A *a;
    int cap;
} indices;

static int index_item(P *p, void *ctx)
{
    indices *k = ctx;
    A *a = k->a;
    int64_t v;
    if (iron__mlir_p_items(p, 1) ||
        iron__mlir_p_grow(p, (void **)&a->items, &k->cap, a->n + 2,
                          sizeof *a->items) ||
        (p->tok.kind == IRON__TK_VALUE ? index_value(p, k->name, &v)
                                       : iron__mlir_p_int(p, &v)) ||
        !(a->items[a->n] = iron__mlir_p_int_attr(p, v, NULL)))
        return -1;
    a->n++;
    return 0;
}

static int index_list(P *p, B *b, const char *name, int strides)
{
    indices k = { name, iron__mlir_p_new_attr(p, IRON__MA_DENSE_ARRAY), 0 };
    A *a = k.a;
    iron__mlir_loc loc = p->tok.loc;
    if (!a || !(a->type = iron__mlir_p_int_type(p, 64, 0)) ||
        expect(p, IRON__TK_LBRACKET, NULL) ||
        iron__mlir_p_list(p, IRON__TK_RBRACKET, "',' or ']'", index_item,
                          &k))
        return -1;
    if (strides && a->n == 3) {
        if (iron__mlir_p_grow(p, (void **)&a->items, &k.cap, 4,
                              sizeof *a->items) ||
            !(a->items[3] = iron__mlir_p_int_attr(p, 1, NULL)))
            return -1;
        a->n = 4;
    }
    return iron__mlir_opb_attr(p, b, name, a, loc);
}

static int memcpy_body_parse(P *p, B *b, C *c)
{
    (void)c;
    int old = p->tok.kind == IRON__TK_INT || p->tok.kind == IRON__TK_MINUS;
    if (old) {
        iron__mlir_type *i64 = iron__mlir_p_int_type(p, 64, 0);
        if (!i64 || iron__mlir_p_int_named(p, b, "x", i64) ||
            expect(p, IRON__TK_COMMA, NULL) ||
            iron__mlir_p_int_named(p, b, "y", i64) ||
            expect(p, IRON__TK_COMMA, NULL))
            return -1;
    }
    int id;
    iron__mlir_loc loc;
    if (iron__mlir_p_use(p, &id, &loc) ||
        iron__mlir_opb_operand(p, b, id, loc) ||
        index_list(p, b, "static_offsets", 0) ||
        index_list(p, b, "static_sizes", 0) ||
        index_list(p, b, "static_strides", old))
        return -1;
    if (p->tok.kind != IRON__TK_COMMA)
        return 0;
    static const char prefix[] = "#aie.packet_info";
    if (iron__mlir_p_next(p))
        return -1;
    iron__mlir_loc ploc = p->tok.loc;
    if (iron__mlir_p_expect_word(p, "packet") ||
        expect(p, IRON__TK_EQUAL, NULL))
        return -1;
    size_t from = iron__mlir_p_offset(p);
    A *a = iron__mlir_p_new_attr(p, IRON__MA_OPAQUE);
    if (!a || expect(p, IRON__TK_LESS, "'<' (the packet)") ||
        iron__mlir_p_skip_angle(p) ||
        !(a->s = iron__mlir_p_slice(p, prefix, from, p->close_off + 1)))
        return -1;
    return iron__mlir_opb_attr(p, b, "packet", a, ploc);
}

static int memcpy_body_print(W *w, const O *op, C *c)
{
    const A *o = attr(op, "static_offsets"), *s = attr(op, "static_sizes"),
            *t = attr(op, "static_strides"), *x = attr(op, "x"),
            *y = attr(op, "y"), *pk = attr(op, "packet");
    if (op->noperands != 1 || !INDEX_ARRAY(o) || !INDEX_ARRAY(s) ||
        !INDEX_ARRAY(t) || (!x) != (!y) || (x && !kind(x, IRON__MA_INT)) ||
        (y && !kind(y, IRON__MA_INT)) ||
        (pk && (!kind(pk, IRON__MA_OPAQUE) ||
                strncmp(pk->s, "#aie.packet_info<", 17) != 0)))
        return -1;
    if (x)
        iron__mlir_pr_outf(w, "%lld, %lld, ", (long long)x->i,
                           (long long)y->i);
    iron__mlir_pr_value(w, op->operands[0]);
    const A *lists[3] = { o, s, t };
    for (int k = 0; k < 3; k++)
        iron__mlir_pr_ints(w, lists[k]);
    if (pk) {
        OUT(", packet = ");
        OUT(pk->s + 16);
    }
    c->operands_done = 1;
    return 0;
}

/* operandSegmentSizes = array<i32: 1, 0, 0, 0> says nothing the tree
 * does not (the generic printer puts it back). */
int iron__mlir_norm_memcpy(P *p, O *op)
{
    (void)p;
    const A *n = attr(op, "operandSegmentSizes");
    if (!n || n->kind != IRON__MA_DENSE_ARRAY || n->n < 1 ||
        n->items[0]->i != 1 || op->noperands != 1)
        return 0;
    for (int i = 1; i < n->n; i++)
        if (n->items[i]->i != 0)
            return 0;
    for (int k = 0; k < op->nattrs; k++)
        if (op->attrs[k].attr == n) {
            memmove(&op->attrs[k], &op->attrs[k + 1],
                    (size_t)(op->nattrs - k - 1) * sizeof *op->attrs);
            op->nattrs--;
            break;
        }
    return 0;
}

/* ---- aiex.npu.rtp_write: "@buf, index, value"; 2024: "col, row,
 *      index, value" {buffer_sym_name = "buf"} ---- */
static int rtp_args_parse(P *p, B *b, C *c)
{
    (void)c;
    if (p->tok.kind == IRON__TK_SYM) {
        iron__mlir_loc loc = p->tok.loc;
        A *a;
        if (iron__mlir_p_symref(p, &a) ||
            iron__mlir_opb_attr(p, b, "buffer_sym_name", a, loc) ||
            expect(p, IRON__TK_COMMA, NULL))
            return -1;
    } else if (iron__mlir_p_int_named(p, b, "col", i32_t(p)) ||
               expect(p, IRON__TK_COMMA, NULL) ||
               iron__mlir_p_int_named(p, b, "row", i32_t(p)) ||
               expect(p, IRON__TK_COMMA, NULL)) {
        return -1;
    }
    iron__mlir_type *ui32 = iron__mlir_p_int_type(p, 32, 2);
    if (!ui32 || iron__mlir_p_int_named(p, b, "index", ui32) ||
        expect(p, IRON__TK_COMMA, NULL))
        return -1;
    /* the value: an integer (i32) or, for float parameters, a float; the
     * newest form: an i32 operand */
    if (p->tok.kind == IRON__TK_VALUE)
        return iron__mlir_p_operand(p, b, NULL);
    iron__mlir_loc vloc = p->tok.loc;
    A *v;
    if (iron__mlir_p_attr(p, &v))
        return -1;
    if (v->kind != IRON__MA_INT && v->kind != IRON__MA_FLOAT)
        return iron__mlir_p_fail(p, vloc, "expected a number for the value");
    if (v->kind == IRON__MA_INT && !v->type &&
        (!(v->type = i32_t(p)) ||
         iron__mlir_p_check_int(p, v->i, v->type, vloc)))
        return -1;
    return iron__mlir_opb_attr(p, b, "value", v, vloc);
}

static int rtp_args_print(W *w, const O *op, C *c)
{
    const A *buf = attr(op, "buffer_sym_name"), *i = attr(op, "index"),
            *v = attr(op, "value"), *col = attr(op, "col"),
            *row = attr(op, "row");
    int operand = op->noperands == 1 && !v;
    if (!kind(buf, IRON__MA_SYMREF) || !iron__mlir_ui32_ok(i) ||
        op->noperands > 1 ||
        !(operand || iron__mlir_i32_ok(v) || kind(v, IRON__MA_FLOAT)) ||
        (!col) != (!row) || (col && !iron__mlir_i32_ok(col)) ||
        (row && !iron__mlir_i32_ok(row)))
        return -1;
    if (col) {
        /* the 2024 form names the buffer in its attributes */
        c->keep = "buffer_sym_name";
        iron__mlir_pr_outf(w, "%lld, %lld, ", (long long)col->i,
                           (long long)row->i);
    } else {
        iron__mlir_pr_symbol(w, buf->s);
        OUT(", ");
    }
    iron__mlir_pr_outf(w, "%lld, ", (long long)i->i);
    c->operands_done = 1;
    if (operand)
        iron__mlir_pr_value(w, op->operands[0]);
    else if (v->kind == IRON__MA_INT)
        iron__mlir_pr_outf(w, "%lld", (long long)v->i);
    else
        iron__mlir_pr_float(w, v->f, v->type);
    return 0;
}

/* The integer an operand stands for when an arith.constant defines it,
 * or NULL. */
static const A *constant_of(P *p, int id)
{
    const iron__mlir_value *v = iron__mlir_value_at(p->m, id);
    const O *def = v ? v->def : NULL;
    const A *c = def && strcmp(def->name, "arith.constant") == 0
                     ? iron__mlir_attr_get(def, "value")
                     : NULL;
    return c && c->kind == IRON__MA_INT ? c : NULL;
}

/* The newest forms give a value as an i32 operand: when a constant
 * defines it, the tree holds it as the value attribute older forms
 * have, so that one tree stands for both. */
static int operand_to_value(P *p, O *op, int k)
{
    const A *c = constant_of(p, op->operands[k]);
    if (!c || attr(op, "value"))
        return 0;
    A *v = iron__mlir_p_new_attr(p, IRON__MA_INT);
    if (!v || !(v->type = i32_t(p)))
        return -1;
    v->i = c->i;
    v->loc = op->loc;
    memmove(&op->operands[k], &op->operands[k + 1],
            (size_t)(op->noperands - k - 1) * sizeof *op->operands);
    op->noperands--;
    return iron__mlir_p_set(p, op, "value", v);
}

int iron__mlir_norm_use_lock(P *p, O *op)
{
    return op->noperands == 2 ? operand_to_value(p, op, 1) : 0;
}

/* dma_bd's newest generic form (static_offset, static_len, static_sizes,
 * static_strides) as the attributes of the others. */
int iron__mlir_norm_dma_bd(P *p, O *op)
{
    static const char *const renames[][2] = {
        { "static_offset", "offset" }, { "static_len", "len" },
    };
    for (size_t i = 0; i < IRON__COUNT_OF(renames); i++)
        for (int k = 0; k < op->nattrs; k++)
            if (strcmp(op->attrs[k].name, renames[i][0]) == 0 &&
                !attr(op, renames[i][1]) &&
                !(op->attrs[k].name = iron__mlir_strdup(p->m, renames[i][1])))
                return iron__mlir_p_nomem(p);
    const A *sz = attr(op, "static_sizes"), *st = attr(op, "static_strides");
    if (sz && st && INDEX_ARRAY(sz) && INDEX_ARRAY(st) && sz->n == st->n &&
        !attr(op, "dimensions")) {
        A *d = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
        if (!d || iron__mlir_p_items(p, sz->n))
            return -1;
        d->items = iron__mlir_alloc(p->m, (size_t)(sz->n ? sz->n : 1) *
                                              sizeof *d->items);
        if (!d->items)
            return iron__mlir_p_nomem(p);
        for (int i = 0; i < sz->n; i++) {
            if (!(d->items[i] = iron__mlir_p_new_attr(p, IRON__MA_DIM)))
                return -1;
            d->items[i]->i = sz->items[i]->i;
            d->items[i]->stride = st->items[i]->i;
        }
        d->n = sz->n;
        d->loc = sz->loc;
        if (iron__mlir_p_set(p, op, "dimensions", d))
            return -1;
        for (int k = op->nattrs - 1; k >= 0; k--)
            if (op->attrs[k].attr == sz || op->attrs[k].attr == st) {
                memmove(&op->attrs[k], &op->attrs[k + 1],
                        (size_t)(op->nattrs - k - 1) * sizeof *op->attrs);
                op->nattrs--;
            }
    }
    const A *seg = attr(op, "operandSegmentSizes");
    if (seg && seg->kind == IRON__MA_DENSE_ARRAY && op->noperands == 1) {
        int plain = seg->n >= 1 && seg->items[0]->i == 1;
        for (int i = 1; i < seg->n; i++)
            plain &= seg->items[i]->i == 0;
        for (int k = 0; plain && k < op->nattrs; k++)
            if (op->attrs[k].attr == seg) {
                memmove(&op->attrs[k], &op->attrs[k + 1],
                        (size_t)(op->nattrs - k - 1) * sizeof *op->attrs);
                op->nattrs--;
                break;
            }
    }
    return 0;
}

/* The 2024 form's buffer_sym_name is a string: the tree's is a symbol;
 * the newest form's value operand is the value attribute. */
int iron__mlir_norm_rtp_write(P *p, O *op)
{
    if (op->noperands == 1 && operand_to_value(p, op, 0))
        return -1;
    const A *n = attr(op, "buffer_sym_name");
    if (!n || n->kind != IRON__MA_STR)
        return 0;
    A *s = iron__mlir_p_new_attr(p, IRON__MA_SYMREF);
    if (!s)
        return -1;
    s->s = n->s;
    s->loc = n->loc;
    return iron__mlir_p_set(p, op, "buffer_sym_name", s);
}

/* --- the table -------------------------------------------------------- */

const iron__mlir_directive iron__mlir_directives_aie[] = {
    { "fifo_ends",
      LIST("dimensionsToStream", "dimensionsFromStreamPerConsumer"),
      fifo_ends_parse, fifo_ends_print },
    { "fifo_init", LIST("initValues"), fifo_init_parse, fifo_init_print },
    { "link_offsets", LIST("src_offsets", "dst_offsets"), link_offsets_parse,
      link_offsets_print },
    { "buffer_init", LIST("initial_value"), buffer_init_parse,
      buffer_init_print },
    { "seq_args", NULL, seq_args_parse, seq_args_print },
    { "bd_body",
      LIST("offset", "len", "dimensions", "pad_dimensions", "pad_value",
           "static_offset", "static_len", "static_sizes", "static_strides"),
      bd_body_parse, bd_body_print },
    { "memcpy_body",
      LIST("static_offsets", "static_sizes", "static_strides", "x", "y",
           "packet"),
      memcpy_body_parse, memcpy_body_print },
    { "rtp_args", LIST("buffer_sym_name", "index", "value", "col", "row"),
      rtp_args_parse, rtp_args_print },
};

const int iron__mlir_ndirectives_aie = (int)IRON__COUNT_OF(
    iron__mlir_directives_aie);
