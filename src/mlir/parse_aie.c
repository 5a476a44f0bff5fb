/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * parse_aie.c - the custom (pretty) forms of the aie and aiex ops ast.h
 * lists, in every upstream syntax era since 2024: each fills the op
 * builder with the operands and the generic attributes ast.h gives, so
 * the tree does not show which form or era the text was written in.
 */
#include <string.h>

#include "mlir/parse.h"

typedef iron__mlir_parser P;
typedef iron__mlir_opb B;

static iron__mlir_type *index_t(P *p)
{
    return iron__mlir_p_index_type(p);
}

static iron__mlir_type *i32_t(P *p)
{
    return iron__mlir_p_int_type(p, 32, 0);
}

static int expect(P *p, iron__mlir_tok k, const char *what)
{
    return iron__mlir_p_expect(p, k, what);
}

static int accept(P *p, iron__mlir_tok k)
{
    return iron__mlir_p_accept(p, k);
}

static int add_str(P *p, B *b, const char *name, char *s,
                   iron__mlir_loc loc)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_STR);
    if (!a)
        return -1;
    a->s = s;
    a->loc = loc;
    return iron__mlir_opb_attr(p, b, name, a, loc);
}

/* "@name" as a string attribute (sym_name). */
static int sym_name_attr(P *p, B *b, const char *name)
{
    iron__mlir_loc loc = p->tok.loc;
    char *s = iron__mlir_p_symname(p);
    if (!s || iron__mlir_p_next(p))
        return -1;
    return add_str(p, b, name, s, loc);
}

static int symref_attr(P *p, B *b, const char *name)
{
    iron__mlir_loc loc = p->tok.loc;
    iron__mlir_attr *a;
    if (iron__mlir_p_symref(p, &a))
        return -1;
    return iron__mlir_opb_attr(p, b, name, a, loc);
}

static int keyword_attr(P *p, B *b, const char *name, const char *what)
{
    iron__mlir_loc loc = p->tok.loc;
    iron__mlir_attr *a;
    if (iron__mlir_p_keyword(p, what, &a))
        return -1;
    return iron__mlir_opb_attr(p, b, name, a, loc);
}

static int attr_named(P *p, B *b, const char *name)
{
    iron__mlir_loc loc = p->tok.loc;
    iron__mlir_attr *a;
    if (iron__mlir_p_attr(p, &a))
        return -1;
    return iron__mlir_opb_attr(p, b, name, a, loc);
}

static int result(P *p, B *b, iron__mlir_type *t)
{
    if (!t)
        return -1;
    return iron__mlir_opb_rtype(p, b, t);
}

/* "(%x)" of an index value (tiles, tasks). */
static int paren_index_operand(P *p, B *b)
{
    iron__mlir_type *t = index_t(p);
    if (!t || expect(p, IRON__TK_LPAREN, NULL) ||
        iron__mlir_p_operand(p, b, t))
        return -1;
    return expect(p, IRON__TK_RPAREN, NULL);
}

/* ---- aie.device(npu1_1col) [@name] { ... } [{attrs}] ---- */
static int device(P *p, B *b)
{
    if (expect(p, IRON__TK_LPAREN, NULL) ||
        keyword_attr(p, b, "device", "a device name (npu1_1col, ...)") ||
        expect(p, IRON__TK_RPAREN, NULL))
        return -1;
    if (p->tok.kind == IRON__TK_SYM && sym_name_attr(p, b, "sym_name"))
        return -1;
    if (iron__mlir_p_region(p, b, NULL, 0, 1) ||
        iron__mlir_p_ensure_block(p, b->regions[0]))
        return -1;
    return iron__mlir_p_opt_attr_dict(p, b);
}

/* ---- %t = aie.tile(col, row) [{attrs}] ---- */
static int tile(P *p, B *b)
{
    if (expect(p, IRON__TK_LPAREN, NULL) ||
        iron__mlir_p_int_named(p, b, "col", i32_t(p)) ||
        expect(p, IRON__TK_COMMA, NULL) ||
        iron__mlir_p_int_named(p, b, "row", i32_t(p)) ||
        expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    return result(p, b, index_t(p));
}

/* An optional "dimensionsToStream [...]" after a tile (and the 2023
 * spelling toStream / fromStream); an empty list when absent. */
static int stream_dims(P *p, const char *word, const char *old,
                       iron__mlir_attr **out)
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

/* ---- aie.objectfifo @name(%prod [dimensionsToStream [...]],
 *      {%c1 [dimensionsFromStream [...]], ...}, depth) [{attrs}]
 *      : !aie.objectfifo<T> [= [dense<...>, ...]] ---- */
static int objectfifo(P *p, B *b)
{
    iron__mlir_type *it = index_t(p);
    iron__mlir_attr *to, *from = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    int cap = 0;
    if (!it || !from || sym_name_attr(p, b, "sym_name") ||
        expect(p, IRON__TK_LPAREN, NULL) || iron__mlir_p_operand(p, b, it) ||
        stream_dims(p, "dimensionsToStream", "toStream", &to) ||
        expect(p, IRON__TK_COMMA, NULL) || expect(p, IRON__TK_LBRACE, NULL))
        return -1;
    if (p->tok.kind != IRON__TK_RBRACE) {
        for (;;) {
            if (iron__mlir_p_operand(p, b, it) ||
                iron__mlir_p_grow(p, (void **)&from->items, &cap,
                                  from->n + 1, sizeof *from->items) ||
                stream_dims(p, "dimensionsFromStream", "fromStream",
                            &from->items[from->n]))
                return -1;
            from->n++;
            int c = accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    if (expect(p, IRON__TK_RBRACE, "',' or '}' after the consumer tiles") ||
        expect(p, IRON__TK_COMMA, NULL) ||
        attr_named(p, b, "elemNumber") ||
        expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the objectfifo type"))
        return -1;
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_attr *ty = iron__mlir_p_new_attr(p, IRON__MA_TYPE);
    if (!ty || iron__mlir_p_type(p, &ty->type) ||
        iron__mlir_opb_attr(p, b, "elemType", ty, tloc) ||
        iron__mlir_opb_attr(p, b, "dimensionsToStream", to, to->loc) ||
        iron__mlir_opb_attr(p, b, "dimensionsFromStreamPerConsumer", from,
                            from->loc))
        return -1;
    if (p->tok.kind != IRON__TK_EQUAL)
        return 0;
    /* initial values: one dense per object */
    const iron__mlir_type *t = ty->type;
    if (t->kind != IRON__MT_DIALECT || !t->elem ||
        t->elem->kind != IRON__MT_MEMREF)
        return iron__mlir_p_fail(p, tloc,
                                 "initial values need a type "
                                 "!aie.objectfifo<memref<...>>");
    iron__mlir_type *tensor = iron__mlir_p_tensor_of(p, t->elem);
    iron__mlir_attr *inits = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    iron__mlir_loc iloc = p->tok.loc;
    cap = 0;
    if (!tensor || !inits || iron__mlir_p_next(p) ||
        expect(p, IRON__TK_LBRACKET, "'[' (the initial values)"))
        return -1;
    for (;;) {
        if (iron__mlir_p_expect_word(p, "dense") ||
            iron__mlir_p_grow(p, (void **)&inits->items, &cap, inits->n + 1,
                              sizeof *inits->items) ||
            iron__mlir_p_items(p, 1) ||
            iron__mlir_p_dense(p, tensor, &inits->items[inits->n]))
            return -1;
        inits->n++;
        int c = accept(p, IRON__TK_COMMA);
        if (c < 0)
            return -1;
        if (!c)
            break;
    }
    if (expect(p, IRON__TK_RBRACKET, "',' or ']'"))
        return -1;
    return iron__mlir_opb_attr(p, b, "initValues", inits, iloc);
}

static int symref_list(P *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a || expect(p, IRON__TK_LBRACKET, "'[' (a list of objectfifos)") ||
        iron__mlir_p_attr_items(p, a, IRON__TK_RBRACKET, "',' or ']'",
                                iron__mlir_p_symref))
        return -1;
    *out = a;
    return 0;
}

/* ---- aie.objectfifo.link [@a] -> [@b, @c] ([] [0, 1024]) ----
 * older: "()" or nothing for the offsets */
static int link(P *p, B *b)
{
    iron__mlir_attr *ins, *outs, *src = NULL, *dst = NULL;
    iron__mlir_loc loc = p->tok.loc;
    if (symref_list(p, &ins) || expect(p, IRON__TK_ARROW, NULL) ||
        symref_list(p, &outs))
        return -1;
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
    if (iron__mlir_opb_attr(p, b, "fifoIns", ins, loc) ||
        iron__mlir_opb_attr(p, b, "fifoOuts", outs, loc) ||
        iron__mlir_opb_attr(p, b, "src_offsets", src, loc) ||
        iron__mlir_opb_attr(p, b, "dst_offsets", dst, loc))
        return -1;
    return iron__mlir_p_opt_attr_dict(p, b);
}

/* "@of(Consume, 1)" (the port may be left out in the newest era). */
static int fifo_port_size(P *p, B *b)
{
    if (iron__mlir_p_opt_attr_dict(p, b) ||
        symref_attr(p, b, "objFifo_name") || expect(p, IRON__TK_LPAREN, NULL))
        return -1;
    if ((p->tok.kind == IRON__TK_BARE || p->tok.kind == IRON__TK_STRING) &&
        (keyword_attr(p, b, "port", "Produce or Consume") ||
         expect(p, IRON__TK_COMMA, NULL)))
        return -1;
    if (iron__mlir_p_int_named(p, b, "size", i32_t(p)))
        return -1;
    return expect(p, IRON__TK_RPAREN, NULL);
}

/* ---- %s = aie.objectfifo.acquire @of(Consume, 1)
 *      : !aie.objectfifosubview<memref<16xi32>> ---- */
static int acquire(P *p, B *b)
{
    iron__mlir_type **ts;
    int n;
    if (fifo_port_size(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the result type") ||
        iron__mlir_p_type_list(p, &ts, &n))
        return -1;
    for (int i = 0; i < n; i++)
        if (result(p, b, ts[i]))
            return -1;
    return 0;
}

/* ---- aie.objectfifo.release @of(Consume, 1) ---- */
static int release(P *p, B *b)
{
    return fifo_port_size(p, b);
}

/* ---- %m = aie.objectfifo.subview.access %s[0]
 *      : !aie.objectfifosubview<T> -> T ---- */
static int subview_access(P *p, B *b)
{
    int id;
    iron__mlir_loc loc;
    iron__mlir_type *from, *to;
    if (iron__mlir_p_use(p, &id, &loc) ||
        iron__mlir_opb_operand(p, b, id, loc) ||
        expect(p, IRON__TK_LBRACKET, NULL) ||
        iron__mlir_p_int_named(p, b, "index", i32_t(p)) ||
        expect(p, IRON__TK_RBRACKET, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the types") ||
        iron__mlir_p_type(p, &from) ||
        iron__mlir_p_check_type(p, id, loc, from) ||
        expect(p, IRON__TK_ARROW, NULL) || iron__mlir_p_type(p, &to))
        return -1;
    return result(p, b, to);
}

/* ---- %c = aie.core(%tile) { ... } [{attrs}] ---- */
static int core(P *p, B *b)
{
    if (paren_index_operand(p, b) || iron__mlir_p_region(p, b, NULL, 0, 0) ||
        iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    return result(p, b, index_t(p));
}

/* ---- %b = aie.buffer(%tile) [{attrs}] : memref<..> [= dense<...>] ---- */
static int buffer(P *p, B *b)
{
    iron__mlir_type *t;
    if (paren_index_operand(p, b) || iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the buffer's type") ||
        iron__mlir_p_type(p, &t) || result(p, b, t))
        return -1;
    if (p->tok.kind != IRON__TK_EQUAL)
        return 0;
    iron__mlir_loc loc = p->tok.loc;
    if (t->kind != IRON__MT_MEMREF)
        return iron__mlir_p_fail(p, loc, "an initial value needs a memref");
    iron__mlir_type *tensor = iron__mlir_p_tensor_of(p, t);
    iron__mlir_attr *a;
    if (!tensor || iron__mlir_p_next(p) ||
        iron__mlir_p_expect_word(p, "dense") ||
        iron__mlir_p_dense(p, tensor, &a))
        return -1;
    return iron__mlir_opb_attr(p, b, "initial_value", a, loc);
}

/* ---- %l = aie.lock(%tile[, id]) [{attrs}] ---- */
static int lock(P *p, B *b)
{
    iron__mlir_type *it = index_t(p);
    if (!it || expect(p, IRON__TK_LPAREN, NULL) ||
        iron__mlir_p_operand(p, b, it))
        return -1;
    int c = accept(p, IRON__TK_COMMA);
    if (c < 0 || (c && iron__mlir_p_int_named(p, b, "lockID", i32_t(p))) ||
        expect(p, IRON__TK_RPAREN, NULL) || iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    return result(p, b, it);
}

/* ---- aie.use_lock(%l, AcquireGreaterEqual[, 1][, Blocking]) ---- */
static int use_lock(P *p, B *b)
{
    iron__mlir_type *it = index_t(p);
    if (!it || expect(p, IRON__TK_LPAREN, NULL) ||
        iron__mlir_p_operand(p, b, it) || expect(p, IRON__TK_COMMA, NULL) ||
        keyword_attr(p, b, "action", "a lock action (Acquire, "
                                     "AcquireGreaterEqual, Release)"))
        return -1;
    for (int k = 0; k < 2; k++) {
        int c = accept(p, IRON__TK_COMMA);
        if (c < 0)
            return -1;
        if (!c)
            break;
        if (p->tok.kind == IRON__TK_INT || p->tok.kind == IRON__TK_MINUS) {
            if (iron__mlir_p_int_named(p, b, "value", i32_t(p)))
                return -1;
        } else if (keyword_attr(p, b, "blocking", "a value or Blocking")) {
            return -1;
        }
    }
    if (expect(p, IRON__TK_RPAREN, NULL))
        return -1;
    return iron__mlir_p_opt_attr_dict(p, b);
}

/* ---- ops whose custom form is their attribute dictionary ---- */
static int attrs_only(P *p, B *b)
{
    return iron__mlir_p_opt_attr_dict(p, b);
}

/* ---- aie(x).runtime_sequence [@name](%a: T, ...) [attributes {..}]
 *      { ... } ---- */
static int runtime_sequence(P *p, B *b)
{
    iron__mlir_barg *args = NULL;
    int n = 0, cap = 0;
    if (p->tok.kind == IRON__TK_SYM && sym_name_attr(p, b, "sym_name"))
        return -1;
    if (expect(p, IRON__TK_LPAREN, "'(' (the sequence's arguments)"))
        return -1;
    if (p->tok.kind != IRON__TK_RPAREN) {
        for (;;) {
            if (p->tok.kind != IRON__TK_VALUE)
                return iron__mlir_p_expected(p, "an argument (%name: type)");
            if (iron__mlir_p_grow(p, (void **)&args, &cap, n + 1,
                                  sizeof *args))
                return -1;
            args[n].name = p->tok.p;
            args[n].n = p->tok.n;
            args[n].loc = p->tok.loc;
            if (iron__mlir_p_next(p) || expect(p, IRON__TK_COLON, NULL) ||
                iron__mlir_p_type(p, &args[n].type) ||
                iron__mlir_p_opt_loc(p))
                return -1;
            n++;
            int c = accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    if (expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_opt_attributes_kw(p, b))
        return -1;
    if (p->tok.kind != IRON__TK_LBRACE)
        return iron__mlir_p_expected(p, "'{' (the sequence's body)");
    /* an empty body still has its block */
    if (iron__mlir_p_region(p, b, args, n, 0))
        return -1;
    return iron__mlir_p_ensure_block(p, b->regions[0]);
}

/* "sizes = [1, 2]" of the newest dma_bd form (static values only). */
static int static_list(P *p, int64_t *v, int *n)
{
    *n = 0;
    if (expect(p, IRON__TK_EQUAL, NULL) || expect(p, IRON__TK_LBRACKET, NULL))
        return -1;
    if (p->tok.kind != IRON__TK_RBRACKET) {
        for (;;) {
            if (p->tok.kind == IRON__TK_VALUE)
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "sizes and strides given by "
                                         "values are not supported");
            if (*n >= IRON__MLIR_MAX_RANK)
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "more than %d dimensions",
                                         IRON__MLIR_MAX_RANK);
            if (iron__mlir_p_int(p, &v[(*n)++]))
                return -1;
            int c = accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    return expect(p, IRON__TK_RBRACKET, "',' or ']'");
}

/* The newest dma_bd form: offset = o len = l [sizes = [..] strides = [..]]
 * as the attributes of the older ones. */
static int dma_bd_keywords(P *p, B *b)
{
    int64_t sizes[IRON__MLIR_MAX_RANK], strides[IRON__MLIR_MAX_RANK];
    int ns = -1, nt = -1;
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
            if (iron__mlir_p_next(p) || static_list(p, sizes, &ns))
                return -1;
        } else if (iron__mlir_p_is_word(p, "strides")) {
            if (iron__mlir_p_next(p) || static_list(p, strides, &nt))
                return -1;
        } else {
            return iron__mlir_p_expected(p, "offset, len, sizes or strides");
        }
    }
    if (ns != nt)
        return iron__mlir_p_fail(p, loc,
                                 "sizes and strides must come together and "
                                 "be as many");
    if (ns > 0) {
        iron__mlir_attr *d = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
        if (!d || iron__mlir_p_items(p, ns))
            return -1;
        d->items = iron__mlir_alloc(p->m, (size_t)ns * sizeof *d->items);
        if (!d->items)
            return iron__mlir_p_nomem(p);
        for (int i = 0; i < ns; i++) {
            if (!(d->items[i] = iron__mlir_p_new_attr(p, IRON__MA_DIM)))
                return -1;
            d->items[i]->i = sizes[i];
            d->items[i]->stride = strides[i];
        }
        d->n = ns;
        return iron__mlir_opb_attr(p, b, "dimensions", d, loc);
    }
    return 0;
}

/* ---- aie.dma_bd(%buf : T[, offset[, len[, [dims][, [pads]]]]]
 *      [, pad_value = v]) [{attrs}] ; newest: (%buf : T offset = 0
 *      len = 64 sizes = [...] strides = [...]) ---- */
static int dma_bd(P *p, B *b)
{
    int id;
    iron__mlir_loc loc;
    iron__mlir_type *t;
    if (expect(p, IRON__TK_LPAREN, NULL) || iron__mlir_p_use(p, &id, &loc) ||
        iron__mlir_opb_operand(p, b, id, loc) ||
        expect(p, IRON__TK_COLON, "':' and the buffer's type") ||
        iron__mlir_p_type(p, &t) || iron__mlir_p_check_type(p, id, loc, t))
        return -1;
    if (p->tok.kind == IRON__TK_BARE) {
        if (dma_bd_keywords(p, b))
            return -1;
    } else {
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
                iron__mlir_attr *d;
                if ((stage == 2 ? iron__mlir_p_dim_list(p, &d)
                                : iron__mlir_p_pad_list(p, &d)) ||
                    iron__mlir_opb_attr(p, b, stage == 2 ? "dimensions"
                                                         : "pad_dimensions",
                                        d, aloc))
                    return -1;
            } else {
                return iron__mlir_p_expected(p, "')'");
            }
            stage++;
        }
    }
    if (expect(p, IRON__TK_RPAREN, NULL))
        return -1;
    return iron__mlir_p_opt_attr_dict(p, b);
}

/* An index of dma_memcpy_nd written as a value: upstream's older text
 * spells them %c0, %c64 (values of integer arith.constant ops in the
 * sequence), which stand for their constants. */
static int index_value(P *p, const char *name, int64_t *v)
{
    int id;
    iron__mlir_loc loc;
    if (iron__mlir_p_use(p, &id, &loc))
        return -1;
    const iron__mlir_value *val = &p->m->values[id];
    const iron__mlir_op *def = val->def;
    const iron__mlir_attr *c =
        def && strcmp(def->name, "arith.constant") == 0
            ? iron__mlir_attr_get(def, "value")
            : NULL;
    if (!c || c->kind != IRON__MA_INT)
        return iron__mlir_p_fail(p, loc,
                                 "%s: %s is not an integer arith.constant "
                                 "(indices given by other values are not "
                                 "supported)",
                                 name, val->name);
    *v = c->i;
    return 0;
}

/* "[0, 0, 0, 1]" (or "[%c0, %c0, %c0, %c1]") of dma_memcpy_nd into
 * array<i64: ...>. */
static int index_list(P *p, B *b, const char *name)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_DENSE_ARRAY);
    iron__mlir_loc loc = p->tok.loc;
    int cap = 0;
    if (!a || !(a->type = iron__mlir_p_int_type(p, 64, 0)) ||
        expect(p, IRON__TK_LBRACKET, NULL))
        return -1;
    if (p->tok.kind != IRON__TK_RBRACKET) {
        for (;;) {
            int64_t v;
            if (iron__mlir_p_items(p, 1) ||
                iron__mlir_p_grow(p, (void **)&a->items, &cap, a->n + 1,
                                  sizeof *a->items) ||
                (p->tok.kind == IRON__TK_VALUE ? index_value(p, name, &v)
                                               : iron__mlir_p_int(p, &v)) ||
                !(a->items[a->n] = iron__mlir_p_int_attr(p, v, NULL)))
                return -1;
            a->n++;
            int c = accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    if (expect(p, IRON__TK_RBRACKET, "',' or ']'"))
        return -1;
    return iron__mlir_opb_attr(p, b, name, a, loc);
}

/* ---- aiex.npu.dma_memcpy_nd([x, y, ]%m[offsets][sizes][strides]
 *      [, packet = <...>]) {id = 0 : i64, metadata = @of} : T ---- */
static int dma_memcpy_nd(P *p, B *b)
{
    if (expect(p, IRON__TK_LPAREN, NULL))
        return -1;
    if (p->tok.kind == IRON__TK_INT || p->tok.kind == IRON__TK_MINUS) {
        iron__mlir_type *i64 = iron__mlir_p_int_type(p, 64, 0);
        if (!i64 || iron__mlir_p_int_named(p, b, "x", i64) ||
            expect(p, IRON__TK_COMMA, NULL) ||
            iron__mlir_p_int_named(p, b, "y", i64) ||
            expect(p, IRON__TK_COMMA, NULL))
            return -1;
    }
    int id;
    iron__mlir_loc loc;
    iron__mlir_type *t;
    if (iron__mlir_p_use(p, &id, &loc) ||
        iron__mlir_opb_operand(p, b, id, loc) ||
        index_list(p, b, "static_offsets") ||
        index_list(p, b, "static_sizes") ||
        index_list(p, b, "static_strides"))
        return -1;
    if (p->tok.kind == IRON__TK_COMMA) {
        static const char prefix[] = "#aie.packet_info";
        iron__mlir_loc ploc;
        if (iron__mlir_p_next(p))
            return -1;
        ploc = p->tok.loc;
        if (iron__mlir_p_expect_word(p, "packet") ||
            expect(p, IRON__TK_EQUAL, NULL))
            return -1;
        size_t from = iron__mlir_p_offset(p);
        iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_OPAQUE);
        if (!a || expect(p, IRON__TK_LESS, "'<' (the packet)") ||
            iron__mlir_p_skip_angle(p))
            return -1;
        if (!(a->s = iron__mlir_p_slice(p, prefix, from,
                                        p->close_off + 1)))
            return -1;
        if (iron__mlir_opb_attr(p, b, "packet", a, ploc))
            return -1;
    }
    if (expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the memref's type") ||
        iron__mlir_p_type(p, &t))
        return -1;
    return iron__mlir_p_check_type(p, id, loc, t);
}

/* ---- aiex.npu.rtp_write(@buf, index, value) ;
 *      2024: aiex.npu.rtp_write(col, row, index, value)
 *            {buffer_sym_name = "buf"} ---- */
static int rtp_write(P *p, B *b)
{
    if (expect(p, IRON__TK_LPAREN, NULL))
        return -1;
    if (p->tok.kind == IRON__TK_SYM) {
        if (symref_attr(p, b, "buffer_sym_name") ||
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
    /* the value: an integer (i32) or, for float parameters, a float */
    iron__mlir_loc vloc = p->tok.loc;
    iron__mlir_attr *v;
    if (iron__mlir_p_attr(p, &v))
        return -1;
    if (v->kind != IRON__MA_INT && v->kind != IRON__MA_FLOAT)
        return iron__mlir_p_fail(p, vloc, "expected a number for the value");
    if (v->kind == IRON__MA_INT && !v->type &&
        (!(v->type = i32_t(p)) ||
         iron__mlir_p_check_int(p, v->i, v->type, vloc)))
        return -1;
    if (iron__mlir_opb_attr(p, b, "value", v, vloc) ||
        expect(p, IRON__TK_RPAREN, NULL))
        return -1;
    return iron__mlir_p_opt_attr_dict(p, b);
}

/* ---- aiex.set_lock(%l, value) ---- */
static int set_lock(P *p, B *b)
{
    iron__mlir_type *it = index_t(p);
    if (!it || expect(p, IRON__TK_LPAREN, NULL) ||
        iron__mlir_p_operand(p, b, it) || expect(p, IRON__TK_COMMA, NULL) ||
        iron__mlir_p_int_named(p, b, "value", i32_t(p)) ||
        expect(p, IRON__TK_RPAREN, NULL))
        return -1;
    return iron__mlir_p_opt_attr_dict(p, b);
}

/* ---- %t = aiex.dma_configure_task_for @of { ... } [{attrs}] ---- */
static int configure_task_for(P *p, B *b)
{
    if (symref_attr(p, b, "tile") || iron__mlir_p_region(p, b, NULL, 0, 0) ||
        iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    return result(p, b, index_t(p));
}

/* ---- %t = aiex.dma_configure_task(%tile, MM2S, 0) { ... } ---- */
static int configure_task(P *p, B *b)
{
    iron__mlir_type *it = index_t(p);
    if (!it || expect(p, IRON__TK_LPAREN, NULL) ||
        iron__mlir_p_operand(p, b, it) || expect(p, IRON__TK_COMMA, NULL) ||
        keyword_attr(p, b, "direction", "MM2S or S2MM") ||
        expect(p, IRON__TK_COMMA, NULL) ||
        iron__mlir_p_int_named(p, b, "channel", i32_t(p)) ||
        expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_region(p, b, NULL, 0, 0) ||
        iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    return result(p, b, it);
}

/* ---- aiex.dma_start_task(%t) and friends ---- */
static int task_op(P *p, B *b)
{
    if (paren_index_operand(p, b))
        return -1;
    return iron__mlir_p_opt_attr_dict(p, b);
}

static const struct {
    const char *name;
    iron__mlir_custom_fn fn;
} forms[] = {
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
};

iron__mlir_custom_fn iron__mlir_p_custom_aie(const char *name)
{
    for (size_t i = 0; i < IRON__COUNT_OF(forms); i++)
        if (strcmp(forms[i].name, name) == 0)
            return forms[i].fn;
    return NULL;
}
