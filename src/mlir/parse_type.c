/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * parse_type.c - MLIR types: integers, index, floats, memref / tensor /
 * vector shapes ("4x?xi32", re-read at the 'x's), function types,
 * dialect types (!aie.objectfifo<memref<16xi32>>: one type parameter is
 * parsed, anything else kept as text), type aliases, and other builtin
 * types kept as written.
 */
#include <string.h>

#include "mlir/parse.h"

static iron__mlir_type *new_type(iron__mlir_parser *p, iron__mlir_tkind k)
{
    iron__mlir_type *t = iron__mlir_alloc(p->m, sizeof *t);
    if (!t) {
        iron__mlir_p_nomem(p);
        return NULL;
    }
    t->kind = k;
    return t;
}

iron__mlir_type *iron__mlir_p_int_type(iron__mlir_parser *p, int width,
                                       int sign)
{
    iron__mlir_type *t = new_type(p, IRON__MT_INT);
    if (t) {
        t->width = width;
        t->sign = sign;
    }
    return t;
}

iron__mlir_type *iron__mlir_p_index_type(iron__mlir_parser *p)
{
    return new_type(p, IRON__MT_INDEX);
}

iron__mlir_type *iron__mlir_p_tensor_of(iron__mlir_parser *p,
                                        const iron__mlir_type *memref)
{
    iron__mlir_type *t = new_type(p, IRON__MT_TENSOR);
    if (t) {
        t->rank = memref->rank;
        memcpy(t->dims, memref->dims, sizeof t->dims);
        t->elem = memref->elem;
    }
    return t;
}

static int word_is(const iron__mlir_token *t, const char *w)
{
    size_t n = strlen(w);
    return t->kind == IRON__TK_BARE && t->n == n && memcmp(t->p, w, n) == 0;
}

/* "i32" / "si8" / "ui16": the width, or 0. */
static int int_width(const char *s, size_t n, int *sign)
{
    size_t i = 0;
    *sign = 0;
    if (n > 2 && s[0] == 's' && s[1] == 'i') {
        *sign = 1;
        i = 2;
    } else if (n > 2 && s[0] == 'u' && s[1] == 'i') {
        *sign = 2;
        i = 2;
    } else if (n > 1 && s[0] == 'i') {
        i = 1;
    } else {
        return 0;
    }
    if (s[i] == '0' || n - i > 8)
        return 0;
    long w = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        w = w * 10 + (s[i] - '0');
    }
    return w >= 1 && w < (1L << 24) ? (int)w : 0;
}

/* Floats other than f16 / bf16 / f32 / f64 are kept as text. */
static int other_float(const char *s, size_t n)
{
    static const char *const names[] = { "f80", "f128", "tf32" };
    for (size_t i = 0; i < IRON__COUNT_OF(names); i++)
        if (n == strlen(names[i]) && memcmp(s, names[i], n) == 0)
            return 1;
    return (n > 2 && s[0] == 'f' && (s[1] == '8' || s[1] == '6' ||
                                     s[1] == '4') &&
            s[2] == 'E');
}

int iron__mlir_p_at_type(const iron__mlir_parser *p)
{
    const iron__mlir_token *t = &p->tok;
    if (t->kind == IRON__TK_BANG || t->kind == IRON__TK_LPAREN)
        return 1;
    if (t->kind != IRON__TK_BARE)
        return 0;
    int sign;
    static const char *const words[] = {
        "index", "none", "f16", "bf16", "f32", "f64", "memref", "tensor",
        "vector", "complex", "tuple",
    };
    for (size_t i = 0; i < IRON__COUNT_OF(words); i++)
        if (word_is(t, words[i]))
            return 1;
    return int_width(t->p, t->n, &sign) > 0 || other_float(t->p, t->n);
}

/* Re-reads the text from one byte into the current token (a shape's
 * "x4xi32" after its 'x'). */
static int relex_after_x(iron__mlir_parser *p)
{
    if (p->tok.kind != IRON__TK_BARE || p->tok.p[0] != 'x')
        return iron__mlir_p_expected(p, "'x' in a shape");
    p->lx.pos = iron__mlir_p_offset(p) + 1;
    p->lx.line = p->tok.loc.line;
    p->lx.col = p->tok.loc.col + 1;
    return iron__mlir_p_next(p);
}

/* The text of a whole type from `start` (its keyword) through the '>'
 * closing the '<' at the current token, kept as an OPAQUE type. */
static int opaque_from(iron__mlir_parser *p, size_t start,
                       iron__mlir_type **out)
{
    if (p->tok.kind == IRON__TK_LESS) {
        if (iron__mlir_p_next(p) || iron__mlir_p_skip_angle(p))
            return -1;
    }
    iron__mlir_type *t = new_type(p, IRON__MT_OPAQUE);
    if (!t)
        return -1;
    t->text = iron__mlir_p_text_since(p, start);
    if (!t->text)
        return -1;
    *out = t;
    return 0;
}

static int parse_int64_tok(iron__mlir_parser *p, int64_t *v)
{
    const char *s = p->tok.p;
    size_t n = p->tok.n;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return iron__mlir_p_expected(p, "a dimension");
        if (x > (uint64_t)(INT64_MAX - (s[i] - '0')) / 10)
            return iron__mlir_p_fail(p, p->tok.loc,
                                     "dimension %.*s is too large",
                                     (int)(n > 32 ? 32 : n), s);
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *v = (int64_t)x;
    return 0;
}

/* memref / tensor / vector after the keyword. */
static int shaped(iron__mlir_parser *p, iron__mlir_tkind kind, size_t start,
                  iron__mlir_type **out)
{
    if (p->tok.kind != IRON__TK_LESS)
        return iron__mlir_p_expected(p, "'<' after the shaped type's name");
    iron__mlir_parser save = *p;
    if (iron__mlir_p_next(p))
        return -1;
    if (p->tok.kind == IRON__TK_STAR) {
        /* unranked: kept as text */
        *p = save;
        return opaque_from(p, start, out);
    }
    iron__mlir_type *t = new_type(p, kind);
    if (!t)
        return -1;
    for (;;) {
        int64_t d = 0;
        if (p->tok.kind == IRON__TK_INT) {
            if (parse_int64_tok(p, &d))
                return -1;
        } else if (p->tok.kind == IRON__TK_QUESTION &&
                   kind != IRON__MT_VECTOR) {
            d = -1;
        } else if (p->tok.kind == IRON__TK_LBRACKET) {
            return iron__mlir_p_fail(p, p->tok.loc,
                                     "scalable vector dimensions are not "
                                     "supported");
        } else {
            break;
        }
        if (t->rank >= IRON__MLIR_MAX_RANK)
            return iron__mlir_p_fail(p, p->tok.loc,
                                     "more than %d dimensions",
                                     IRON__MLIR_MAX_RANK);
        t->dims[t->rank++] = d;
        /* the 'x' is the start of the next token */
        if (iron__mlir_p_next(p) || relex_after_x(p))
            return -1;
    }
    if (kind == IRON__MT_VECTOR && t->rank == 0)
        return iron__mlir_p_expected(p, "a vector's dimensions");
    if (iron__mlir_p_type(p, &t->elem))
        return -1;
    if (p->tok.kind == IRON__TK_COMMA && kind != IRON__MT_VECTOR) {
        size_t from = iron__mlir_p_offset(p);
        if (iron__mlir_p_skip_angle(p))
            return -1;
        t->text = iron__mlir_p_slice(p, "", from, p->close_off);
        if (!t->text)
            return -1;
    } else if (iron__mlir_p_expect(p, IRON__TK_GREATER,
                                   "'>' to close the shaped type")) {
        return -1;
    }
    *out = t;
    return 0;
}

static int list_until(iron__mlir_parser *p, iron__mlir_tok close,
                      iron__mlir_type ***out, int *n)
{
    iron__mlir_type **ts = NULL;
    int cap = 0, k = 0;
    if (p->tok.kind != close) {
        for (;;) {
            if (iron__mlir_p_grow(p, (void **)&ts, &cap, k + 1, sizeof *ts) ||
                iron__mlir_p_type(p, &ts[k]))
                return -1;
            k++;
            int c = iron__mlir_p_accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    *out = ts;
    *n = k;
    return 0;
}

int iron__mlir_p_type_list(iron__mlir_parser *p, iron__mlir_type ***out,
                           int *n)
{
    if (!iron__mlir_p_at_type(p))
        return iron__mlir_p_expected(p, "a type");
    return list_until(p, IRON__TK_EOF, out, n);
}

int iron__mlir_p_type_list_parens(iron__mlir_parser *p,
                                  iron__mlir_type ***out, int *n)
{
    if (p->tok.kind != IRON__TK_LPAREN) {
        iron__mlir_type **ts = iron__mlir_alloc(p->m, sizeof *ts);
        if (!ts)
            return iron__mlir_p_nomem(p);
        if (iron__mlir_p_type(p, &ts[0]))
            return -1;
        *out = ts;
        *n = 1;
        return 0;
    }
    if (iron__mlir_p_next(p) || list_until(p, IRON__TK_RPAREN, out, n))
        return -1;
    return iron__mlir_p_expect(p, IRON__TK_RPAREN, NULL);
}

/* (inputs) -> results, at the '('. */
static int function_type(iron__mlir_parser *p, iron__mlir_type **out)
{
    iron__mlir_type *t = new_type(p, IRON__MT_FUNCTION);
    if (!t || iron__mlir_p_next(p) ||
        list_until(p, IRON__TK_RPAREN, &t->in, &t->nin) ||
        iron__mlir_p_expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_expect(p, IRON__TK_ARROW, "'->' in a function type") ||
        iron__mlir_p_type_list_parens(p, &t->out, &t->nout))
        return -1;
    *out = t;
    return 0;
}

/* !alias, !dialect.name, !dialect.name<params>, !dialect<params>. */
static int dialect_type(iron__mlir_parser *p, iron__mlir_type **out)
{
    const char *s = p->tok.p + 1;
    size_t n = p->tok.n - 1;
    const char *dot = memchr(s, '.', n);
    iron__mlir_loc loc = p->tok.loc;
    if (!dot) {
        const iron__mlir_alias *al = iron__mlir_p_alias(p, p->tok.p,
                                                        p->tok.n);
        if (al && al->type) {
            *out = al->type;
            return iron__mlir_p_next(p);
        }
    }
    iron__mlir_type *t = new_type(p, IRON__MT_DIALECT);
    if (!t)
        return -1;
    t->dialect = iron__mlir_strndup(p->m, s, dot ? (size_t)(dot - s) : n);
    if (dot)
        t->name = iron__mlir_strndup(p->m, dot + 1, n - (size_t)(dot - s) - 1);
    if (!t->dialect || (dot && !t->name))
        return iron__mlir_p_nomem(p);
    if (iron__mlir_p_next(p))
        return -1;
    if (p->tok.kind != IRON__TK_LESS) {
        if (!dot)
            return iron__mlir_p_fail(p, loc, "undefined type alias !%.*s",
                                     (int)(n > 64 ? 64 : n), s);
        *out = t;
        return 0;
    }
    if (iron__mlir_p_next(p))
        return -1;
    size_t from = iron__mlir_p_offset(p);
    /* one type parameter is parsed; anything else is kept as text */
    iron__mlir_parser save = *p;
    if (iron__mlir_p_at_type(p)) {
        iron__mlir_type *e;
        if (iron__mlir_p_type(p, &e) == 0 &&
            p->tok.kind == IRON__TK_GREATER) {
            t->elem = e;
            if (iron__mlir_p_next(p))
                return -1;
            *out = t;
            return 0;
        }
        if (p->st == IRON_ENOMEM)
            return -1;
        save.nitems = p->nitems;
        *p = save;
        iron__clear_error();
    }
    if (iron__mlir_p_skip_angle(p))
        return -1;
    t->text = iron__mlir_p_slice(p, "", from, p->close_off);
    if (!t->text)
        return -1;
    *out = t;
    return 0;
}

int iron__mlir_p_type(iron__mlir_parser *p, iron__mlir_type **out)
{
    const iron__mlir_token *tk = &p->tok;
    int r;
    if (iron__mlir_p_enter(p))
        return -1;
    if (tk->kind == IRON__TK_BANG) {
        r = dialect_type(p, out);
    } else if (tk->kind == IRON__TK_LPAREN) {
        r = function_type(p, out);
    } else if (tk->kind == IRON__TK_BARE) {
        int sign, w = int_width(tk->p, tk->n, &sign);
        size_t start = iron__mlir_p_offset(p);
        iron__mlir_type *t = NULL;
        if (w) {
            t = iron__mlir_p_int_type(p, w, sign);
        } else if (word_is(tk, "index")) {
            t = new_type(p, IRON__MT_INDEX);
        } else if (word_is(tk, "none")) {
            t = new_type(p, IRON__MT_NONE);
        } else if (word_is(tk, "f16") || word_is(tk, "bf16") ||
                   word_is(tk, "f32") || word_is(tk, "f64")) {
            t = new_type(p, IRON__MT_FLOAT);
            if (t) {
                /* f16 / f32 / f64 / bf16 (the text is not terminated) */
                t->bf = tk->p[0] == 'b';
                t->width = t->bf ? 16 : (tk->p[1] - '0') * 10 + tk->p[2] - '0';
            }
        } else if (other_float(tk->p, tk->n)) {
            t = new_type(p, IRON__MT_OPAQUE);
            if (t && !(t->text = iron__mlir_p_tokdup(p)))
                return -1;
        } else if (word_is(tk, "memref") || word_is(tk, "tensor") ||
                   word_is(tk, "vector")) {
            iron__mlir_tkind k = tk->p[0] == 'm'   ? IRON__MT_MEMREF
                                 : tk->p[0] == 't' ? IRON__MT_TENSOR
                                                   : IRON__MT_VECTOR;
            r = iron__mlir_p_next(p) || shaped(p, k, start, out) ? -1 : 0;
            if (r == 0)
                iron__mlir_p_leave(p);
            return r;
        } else if (word_is(tk, "complex") || word_is(tk, "tuple")) {
            r = iron__mlir_p_next(p) || opaque_from(p, start, out) ? -1 : 0;
            if (r == 0)
                iron__mlir_p_leave(p);
            return r;
        } else {
            return iron__mlir_p_expected(p, "a type");
        }
        if (!t)
            return iron__mlir_p_nomem(p);
        *out = t;
        r = iron__mlir_p_next(p);
    } else {
        return iron__mlir_p_expected(p, "a type");
    }
    if (r == 0)
        iron__mlir_p_leave(p);
    return r;
}
