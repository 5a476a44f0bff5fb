/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * parse_attr.c - MLIR attributes: numbers (typed, range-checked, hex
 * floats), strings, symbols, arrays, dictionaries, dense<...> (nested
 * lists, splats, hex strings), array<T: ...>, type attributes, AIE's
 * data layout dimensions (<size = s, stride = t> in every spelling), and
 * any other dialect attribute kept as text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlir/parse.h"

iron__mlir_attr *iron__mlir_p_new_attr(iron__mlir_parser *p,
                                       iron__mlir_akind k)
{
    iron__mlir_attr *a = iron__mlir_alloc(p->m, sizeof *a);
    if (!a) {
        iron__mlir_p_nomem(p);
        return NULL;
    }
    a->kind = k;
    a->loc = p->tok.loc;
    return a;
}

iron__mlir_attr *iron__mlir_p_int_attr(iron__mlir_parser *p, int64_t v,
                                       iron__mlir_type *t)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_INT);
    if (a) {
        a->i = v;
        a->type = t;
    }
    return a;
}

char *iron__mlir_p_string(iron__mlir_parser *p)
{
    if (p->tok.kind != IRON__TK_STRING) {
        iron__mlir_p_expected(p, "a string");
        return NULL;
    }
    char *out = iron__mlir_alloc(p->m, p->tok.n);
    if (!out) {
        iron__mlir_p_nomem(p);
        return NULL;
    }
    size_t bad;
    if (iron__mlir_lex_unescape(p->tok.p, p->tok.n, out, &bad) < 0) {
        iron__mlir_loc l = p->tok.loc;
        l.col += (int)bad;
        iron__mlir_p_fail(p, l,
                          "bad escape in a string (known: \\\" \\\\ \\n \\t "
                          "and \\XX hex, not \\00)");
        return NULL;
    }
    return out;
}

char *iron__mlir_p_symname(iron__mlir_parser *p)
{
    if (p->tok.kind != IRON__TK_SYM) {
        iron__mlir_p_expected(p, "a symbol (@name)");
        return NULL;
    }
    if (p->tok.n > 1 && p->tok.p[1] == '"') {
        iron__mlir_token t = p->tok;
        p->tok.p++;
        p->tok.n--;
        p->tok.kind = IRON__TK_STRING;
        char *s = iron__mlir_p_string(p);
        p->tok = t;
        return s;
    }
    char *s = iron__mlir_strndup(p->m, p->tok.p + 1, p->tok.n - 1);
    if (!s)
        iron__mlir_p_nomem(p);
    return s;
}

int iron__mlir_p_symref(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_SYMREF);
    if (!a || !(a->s = iron__mlir_p_symname(p)) || iron__mlir_p_next(p))
        return -1;
    /* @outer::@inner */
    while (p->tok.kind == IRON__TK_COLON) {
        iron__mlir_lexer lx = p->lx;
        iron__mlir_token t;
        if (iron__mlir_lex_next(&lx, &t))
            return iron__mlir_p_next(p);
        if (t.kind != IRON__TK_COLON)
            break;
        if (iron__mlir_p_next(p) || iron__mlir_p_next(p))
            return -1;
        char *inner = iron__mlir_p_symname(p);
        if (!inner)
            return -1;
        size_t n1 = strlen(a->s), n2 = strlen(inner);
        char *j = iron__mlir_alloc(p->m, n1 + n2 + 4);
        if (!j)
            return iron__mlir_p_nomem(p);
        memcpy(j, a->s, n1);
        memcpy(j + n1, "::@", 3);
        memcpy(j + n1 + 3, inner, n2 + 1);
        a->s = j;
        if (iron__mlir_p_next(p))
            return -1;
    }
    *out = a;
    return 0;
}

int iron__mlir_p_keyword(iron__mlir_parser *p, const char *what,
                         iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_KEYWORD);
    if (!a)
        return -1;
    if (p->tok.kind == IRON__TK_BARE)
        a->s = iron__mlir_p_tokdup(p);
    else if (p->tok.kind == IRON__TK_STRING)
        a->s = iron__mlir_p_string(p);
    else
        return iron__mlir_p_expected(p, what);
    if (!a->s || iron__mlir_p_next(p))
        return -1;
    *out = a;
    return 0;
}

/* ---------------------------------------------------------------------
 * Numbers
 * --------------------------------------------------------------------- */

/* The current INT token's magnitude; hex: 1 in *hex. */
static int magnitude(iron__mlir_parser *p, uint64_t *v, int *hex)
{
    const char *s = p->tok.p;
    size_t n = p->tok.n;
    uint64_t x = 0;
    *hex = n > 2 && s[0] == '0' && s[1] == 'x';
    if (*hex) {
        size_t i = 2;
        while (i < n && s[i] == '0')
            i++;
        if (n - i > 16)
            return iron__mlir_p_fail(p, p->tok.loc,
                                     "integer %.*s does not fit 64 bits",
                                     (int)(n > 40 ? 40 : n), s);
        for (; i < n; i++) {
            int c = s[i];
            int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
            x = x << 4 | (uint64_t)d;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            unsigned d = (unsigned)(s[i] - '0');
            if (x > (UINT64_MAX - d) / 10)
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "integer %.*s does not fit 64 bits",
                                         (int)(n > 40 ? 40 : n), s);
            x = x * 10 + d;
        }
    }
    *v = x;
    return 0;
}

int iron__mlir_p_int(iron__mlir_parser *p, int64_t *v)
{
    int neg = 0, hex;
    iron__mlir_loc loc = p->tok.loc;
    if (p->tok.kind == IRON__TK_MINUS) {
        neg = 1;
        if (iron__mlir_p_next(p))
            return -1;
    }
    if (p->tok.kind != IRON__TK_INT)
        return iron__mlir_p_expected(p, "an integer");
    uint64_t x;
    if (magnitude(p, &x, &hex))
        return -1;
    if (x > (uint64_t)INT64_MAX + (uint64_t)neg)
        return iron__mlir_p_fail(p, loc, "integer out of the 64-bit range");
    *v = neg ? (int64_t)(0 - x) : (int64_t)x;
    return iron__mlir_p_next(p);
}

/* Whether v (from a literal; big: above INT64_MAX) fits type t. */
static int fits(int64_t v, int big, const iron__mlir_type *t)
{
    if (!t || t->kind == IRON__MT_INDEX)
        return 1;
    if (t->kind != IRON__MT_INT)
        return 0;
    int w = t->width;
    if (w >= 64)
        return t->sign == 1 ? !big : (t->sign == 2 ? (big || v >= 0) : 1);
    if (big)
        return 0;
    int64_t smin = -((int64_t)1 << (w - 1));
    int64_t smax = ((int64_t)1 << (w - 1)) - 1;
    int64_t umax = (int64_t)(((uint64_t)1 << w) - 1);
    if (t->sign == 1)
        return v >= smin && v <= smax;
    if (t->sign == 2)
        return v >= 0 && v <= umax;
    return v >= smin && v <= umax;
}

int iron__mlir_p_check_int(iron__mlir_parser *p, int64_t v,
                           const iron__mlir_type *t, iron__mlir_loc loc)
{
    if (fits(v, 0, t))
        return 0;
    iron__str ts = { 0 };
    iron__mlir_type_text(t, &ts);
    iron__mlir_p_fail(p, loc, "integer does not fit its type %.64s",
                      iron__str_get(&ts));
    iron__str_free(&ts);
    return -1;
}

static double half_to_double(unsigned h, int bf)
{
    if (bf) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    int s = (h >> 15) & 1, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m | 0x400, e - 25);
    return s ? -v : v;
}

/* The float a hex literal's bits make in type t. */
static int hex_float(iron__mlir_parser *p, uint64_t bits,
                     const iron__mlir_type *t, iron__mlir_loc loc, double *f)
{
    int w = t->width;
    if (w < 64 && bits >> w)
        return iron__mlir_p_fail(p, loc,
                                 "hexadecimal float literal wider than its "
                                 "%d-bit type",
                                 w);
    if (w == 64) {
        memcpy(f, &bits, sizeof *f);
    } else if (w == 32) {
        uint32_t u = (uint32_t)bits;
        float x;
        memcpy(&x, &u, sizeof x);
        *f = x;
    } else {
        *f = half_to_double((unsigned)bits, t->bf);
    }
    return 0;
}

static int float_text(iron__mlir_parser *p, double *f)
{
    char buf[64];
    const char *s = p->tok.p;
    char *heap = NULL;
    if (p->tok.n < sizeof buf) {
        memcpy(buf, s, p->tok.n);
        buf[p->tok.n] = '\0';
        s = buf;
    } else {
        heap = iron__mlir_p_tokdup(p);
        if (!heap)
            return -1;
        s = heap;
    }
    *f = strtod(s, NULL);
    if (!isfinite(*f))
        return iron__mlir_p_fail(p, p->tok.loc, "float %.32s is too large",
                                 s);
    return 0;
}

static int is_float_type(const iron__mlir_type *t)
{
    return t && t->kind == IRON__MT_FLOAT;
}

/* [-] INT | FLOAT [: type] */
static int number_attr(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_loc loc = p->tok.loc;
    int neg = 0, hex = 0, big = 0;
    if (p->tok.kind == IRON__TK_MINUS) {
        neg = 1;
        if (iron__mlir_p_next(p))
            return -1;
    }
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_INT);
    if (!a)
        return -1;
    a->loc = loc;
    uint64_t mag = 0;
    int is_float = p->tok.kind == IRON__TK_FLOAT;
    iron__mlir_loc numloc = p->tok.loc;
    if (is_float) {
        if (float_text(p, &a->f))
            return -1;
        if (neg)
            a->f = -a->f;
        a->kind = IRON__MA_FLOAT;
    } else if (p->tok.kind == IRON__TK_INT) {
        if (magnitude(p, &mag, &hex))
            return -1;
        if (neg && mag > (uint64_t)INT64_MAX + 1)
            return iron__mlir_p_fail(p, loc,
                                     "integer out of the 64-bit range");
        big = !neg && mag > (uint64_t)INT64_MAX;
        a->i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    } else {
        return iron__mlir_p_expected(p, "a number");
    }
    if (iron__mlir_p_next(p))
        return -1;
    if (p->tok.kind == IRON__TK_COLON) {
        if (iron__mlir_p_next(p) || iron__mlir_p_type(p, &a->type))
            return -1;
    }
    if (is_float) {
        if (a->type && !is_float_type(a->type))
            return iron__mlir_p_fail(p, numloc,
                                     "a float literal with a non-float "
                                     "type");
    } else if (is_float_type(a->type)) {
        if (!hex)
            return iron__mlir_p_fail(p, numloc,
                                     "an integer literal for a float (write "
                                     "%s%llu.0)",
                                     neg ? "-" : "",
                                     (unsigned long long)mag);
        if (neg)
            return iron__mlir_p_fail(p, numloc,
                                     "a hexadecimal float literal has no "
                                     "sign");
        a->kind = IRON__MA_FLOAT;
        if (hex_float(p, mag, a->type, numloc, &a->f))
            return -1;
    } else if (!fits(a->i, big, a->type)) {
        iron__str t = { 0 };
        iron__mlir_type_text(a->type, &t);
        iron__mlir_p_fail(p, numloc, "integer does not fit its type %.64s",
                          iron__str_get(&t));
        iron__str_free(&t);
        return -1;
    }
    *out = a;
    return 0;
}

/* ---------------------------------------------------------------------
 * Arrays, dictionaries
 * --------------------------------------------------------------------- */

/* A list (the nesting level was counted by iron__mlir_p_attr). */
static int list_attr(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a || iron__mlir_p_next(p) ||
        iron__mlir_p_attr_items(p, a, IRON__TK_RBRACKET, "',' or ']'",
                                iron__mlir_p_attr))
        return -1;
    *out = a;
    return 0;
}

typedef struct keyed {
    const char *key;
    int idx;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* A key given twice (sorting: a dictionary may be big). */
static int dict_duplicates(iron__mlir_parser *p, const iron__mlir_attr *d)
{
    if (d->n < 2)
        return 0;
    keyed *v = iron__malloc((size_t)d->n * sizeof *v);
    if (!v)
        return iron__mlir_p_nomem(p);
    for (int i = 0; i < d->n; i++) {
        v[i].key = d->keys[i];
        v[i].idx = i;
    }
    qsort(v, (size_t)d->n, sizeof *v, by_key);
    int dup = -1;
    for (int i = 1; i < d->n && dup < 0; i++)
        if (strcmp(v[i - 1].key, v[i].key) == 0)
            dup = v[i].idx;
    iron__free(v);
    if (dup >= 0)
        return iron__mlir_p_fail(p, d->items[dup]->loc,
                                 "attribute '%.64s' given twice",
                                 d->keys[dup]);
    return 0;
}

int iron__mlir_p_dict(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_DICT);
    int cap = 0, kcap = 0;
    if (!a)
        return -1;
    if (p->tok.kind != IRON__TK_LBRACE)
        return iron__mlir_p_expected(p, "'{'");
    if (iron__mlir_p_enter(p) || iron__mlir_p_next(p))
        return -1;
    if (p->tok.kind != IRON__TK_RBRACE) {
        for (;;) {
            iron__mlir_loc kloc = p->tok.loc;
            char *key;
            if (p->tok.kind == IRON__TK_BARE)
                key = iron__mlir_p_tokdup(p);
            else if (p->tok.kind == IRON__TK_STRING)
                key = iron__mlir_p_string(p);
            else
                return iron__mlir_p_expected(p, "an attribute name");
            if (!key || iron__mlir_p_next(p))
                return -1;
            iron__mlir_attr *v;
            if (p->tok.kind == IRON__TK_EQUAL) {
                if (iron__mlir_p_next(p) || iron__mlir_p_attr(p, &v))
                    return -1;
            } else {
                v = iron__mlir_p_new_attr(p, IRON__MA_UNIT);
                if (!v)
                    return -1;
            }
            v->loc = kloc;
            if (iron__mlir_p_items(p, 1) ||
                iron__mlir_p_grow(p, (void **)&a->items, &cap, a->n + 1,
                                  sizeof *a->items) ||
                iron__mlir_p_grow(p, (void **)&a->keys, &kcap, a->n + 1,
                                  sizeof *a->keys))
                return -1;
            a->items[a->n] = v;
            a->keys[a->n++] = key;
            int c = iron__mlir_p_accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    if (iron__mlir_p_expect(p, IRON__TK_RBRACE, "',' or '}'") ||
        dict_duplicates(p, a))
        return -1;
    iron__mlir_p_leave(p);
    *out = a;
    return 0;
}

/* One integer of an int array, located where it was written. */
static int int_item(iron__mlir_parser *p, iron__mlir_attr **out)
{
    int64_t v;
    iron__mlir_loc loc = p->tok.loc;
    if (iron__mlir_p_int(p, &v) ||
        !(*out = iron__mlir_p_int_attr(p, v, NULL)))
        return -1;
    (*out)->loc = loc;
    return 0;
}

int iron__mlir_p_int_array(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a || iron__mlir_p_expect(p, IRON__TK_LBRACKET, NULL) ||
        iron__mlir_p_attr_items(p, a, IRON__TK_RBRACKET, "',' or ']'",
                                int_item))
        return -1;
    *out = a;
    return 0;
}

/* ---------------------------------------------------------------------
 * AIE data layout dimensions
 * --------------------------------------------------------------------- */

/* <size = s, stride = t> (either order) or <s, t>, at the '<'. */
static int dim_body(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_DIM);
    if (!a || iron__mlir_p_expect(p, IRON__TK_LESS, "'<' (a dimension)"))
        return -1;
    if (p->tok.kind == IRON__TK_BARE) {
        int have_size = 0, have_stride = 0;
        for (int k = 0; k < 2; k++) {
            int is_size = iron__mlir_p_is_word(p, "size");
            if (!is_size && !iron__mlir_p_is_word(p, "stride"))
                return iron__mlir_p_expected(p, "'size' or 'stride'");
            if ((is_size && have_size) || (!is_size && have_stride))
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "a dimension gives '%s' twice",
                                         is_size ? "size" : "stride");
            if (iron__mlir_p_next(p) ||
                iron__mlir_p_expect(p, IRON__TK_EQUAL, NULL) ||
                iron__mlir_p_int(p, is_size ? &a->i : &a->stride))
                return -1;
            have_size |= is_size;
            have_stride |= !is_size;
            if (k == 0 && iron__mlir_p_expect(p, IRON__TK_COMMA, NULL))
                return -1;
        }
    } else if (iron__mlir_p_int(p, &a->i) ||
               iron__mlir_p_expect(p, IRON__TK_COMMA, NULL) ||
               iron__mlir_p_int(p, &a->stride)) {
        return -1;
    }
    if (iron__mlir_p_expect(p, IRON__TK_GREATER, "'>' after a dimension"))
        return -1;
    *out = a;
    return 0;
}

int iron__mlir_p_dim_list(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a || iron__mlir_p_expect(p, IRON__TK_LBRACKET,
                                  "'[' (a list of dimensions)") ||
        iron__mlir_p_attr_items(p, a, IRON__TK_RBRACKET, "',' or ']'",
                                dim_body))
        return -1;
    *out = a;
    return 0;
}

/* bd_dim_layout_array_array[[...], [...]] after the word. */
static int dim_list_list(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a || iron__mlir_p_expect(p, IRON__TK_LBRACKET, NULL) ||
        iron__mlir_p_attr_items(p, a, IRON__TK_RBRACKET, "',' or ']'",
                                iron__mlir_p_dim_list))
        return -1;
    *out = a;
    return 0;
}

/* The pad dimensions of aie.dma_bd: [<const_pad_before = 1, ...>, ...],
 * kept as #aie.bd_pad_layout<...> text. */
/* One <...> padding, kept as its text. */
static int pad_item(iron__mlir_parser *p, iron__mlir_attr **out)
{
    static const char prefix[] = "#aie.bd_pad_layout";
    size_t from = iron__mlir_p_offset(p);
    iron__mlir_attr *it = iron__mlir_p_new_attr(p, IRON__MA_OPAQUE);
    if (!it ||
        iron__mlir_p_expect(p, IRON__TK_LESS, "'<' (a padding)") ||
        iron__mlir_p_skip_angle(p))
        return -1;
    it->s = iron__mlir_p_slice(p, prefix, from, p->close_off + 1);
    if (!it->s)
        return -1;
    *out = it;
    return 0;
}

int iron__mlir_p_pad_list(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!a || iron__mlir_p_expect(p, IRON__TK_LBRACKET, NULL) ||
        iron__mlir_p_attr_items(p, a, IRON__TK_RBRACKET, "',' or ']'",
                                pad_item))
        return -1;
    *out = a;
    return 0;
}

/* The text from `start` through the '>' closing the '<' just consumed. */
static int opaque_rest(iron__mlir_parser *p, size_t start,
                       iron__mlir_loc loc, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_OPAQUE);
    if (!a || iron__mlir_p_skip_angle(p))
        return -1;
    a->loc = loc;
    a->s = iron__mlir_p_slice(p, "", start, p->close_off + 1);
    if (!a->s)
        return -1;
    *out = a;
    return 0;
}

/* #alias, #aie.bd_dim_layout<...>, #aie<bd_dim_layout_array[...]>,
 * #aie<bd_dim_layout_array_array[...]>, other #dialect... as text. */
static int hash_attr(iron__mlir_parser *p, iron__mlir_attr **out)
{
    const char *s = p->tok.p + 1;
    size_t n = p->tok.n - 1;
    iron__mlir_loc loc = p->tok.loc;
    size_t start = iron__mlir_p_offset(p);
    const char *dot = memchr(s, '.', n);
    if (!dot) {
        const iron__mlir_alias *al = iron__mlir_p_alias(p, p->tok.p,
                                                        p->tok.n);
        if (al && al->attr) {
            *out = al->attr;
            return iron__mlir_p_next(p);
        }
        int aie = n == 3 && memcmp(s, "aie", 3) == 0;
        if (iron__mlir_p_next(p))
            return -1;
        if (p->tok.kind != IRON__TK_LESS)
            return iron__mlir_p_fail(p, loc, "undefined attribute alias "
                                             "#%.*s",
                                     (int)(n > 64 ? 64 : n), s);
        if (iron__mlir_p_next(p))
            return -1;
        if (aie && iron__mlir_p_is_word(p, "bd_pad_layout_array")) {
            iron__mlir_attr *a;
            if (iron__mlir_p_next(p) || iron__mlir_p_pad_list(p, &a) ||
                iron__mlir_p_expect(p, IRON__TK_GREATER, NULL))
                return -1;
            a->loc = loc;
            *out = a;
            return 0;
        }
        if (aie && (iron__mlir_p_is_word(p, "bd_dim_layout_array") ||
                    iron__mlir_p_is_word(p, "bd_dim_layout_array_array") ||
                    iron__mlir_p_is_word(p, "bd_dim_layout"))) {
            int level = p->tok.n == strlen("bd_dim_layout") ? 0
                        : p->tok.n == strlen("bd_dim_layout_array") ? 1
                                                                    : 2;
            iron__mlir_attr *a;
            if (iron__mlir_p_next(p))
                return -1;
            int r = level == 0   ? dim_body(p, &a)
                    : level == 1 ? iron__mlir_p_dim_list(p, &a)
                                 : dim_list_list(p, &a);
            if (r || iron__mlir_p_expect(p, IRON__TK_GREATER, NULL))
                return -1;
            a->loc = loc;
            *out = a;
            return 0;
        }
        return opaque_rest(p, start, loc, out);
    }
    int dim = n == strlen("aie.bd_dim_layout") &&
              memcmp(s, "aie.bd_dim_layout", n) == 0;
    if (iron__mlir_p_next(p))
        return -1;
    if (dim) {
        if (dim_body(p, out))
            return -1;
        (*out)->loc = loc;
        return 0;
    }
    if (p->tok.kind == IRON__TK_LESS) {
        if (iron__mlir_p_next(p))
            return -1;
        return opaque_rest(p, start, loc, out);
    }
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_OPAQUE);
    if (!a || !(a->s = iron__mlir_strndup(p->m, s - 1, n + 1)))
        return iron__mlir_p_nomem(p);
    a->loc = loc;
    *out = a;
    return 0;
}

/* ---------------------------------------------------------------------
 * dense<...> and array<...>
 * --------------------------------------------------------------------- */

typedef struct leaf {
    int kind;                    /* 0 int, 1 float, 2 bool */
    int big;
    int hex;                     /* an integer written in hexadecimal: a
                                    float element's bits */
    int64_t i;
    double f;
    iron__mlir_loc loc;
} leaf;

typedef struct dense_ctx {
    leaf *leaves;
    int n, cap;
    int lens[IRON__MLIR_MAX_RANK + 1];   /* list length at each level */
    int leaf_level;                      /* -1: none yet */
} dense_ctx;

static int leaf_value(iron__mlir_parser *p, leaf *l)
{
    l->loc = p->tok.loc;
    l->big = 0;
    l->hex = 0;
    if (iron__mlir_p_is_word(p, "true") || iron__mlir_p_is_word(p, "false")) {
        l->kind = 2;
        l->i = p->tok.p[0] == 't';
        return iron__mlir_p_next(p);
    }
    int neg = 0;
    if (p->tok.kind == IRON__TK_MINUS) {
        neg = 1;
        if (iron__mlir_p_next(p))
            return -1;
    }
    if (p->tok.kind == IRON__TK_FLOAT) {
        l->kind = 1;
        if (float_text(p, &l->f))
            return -1;
        if (neg)
            l->f = -l->f;
        return iron__mlir_p_next(p);
    }
    if (p->tok.kind != IRON__TK_INT)
        return iron__mlir_p_expected(p, "a number");
    uint64_t mag;
    int hex;
    if (magnitude(p, &mag, &hex))
        return -1;
    if (neg && mag > (uint64_t)INT64_MAX + 1)
        return iron__mlir_p_fail(p, l->loc, "integer out of the 64-bit "
                                            "range");
    if (hex && neg)
        return iron__mlir_p_fail(p, l->loc, "a hexadecimal literal has no "
                                            "sign");
    l->hex = hex;
    l->kind = 0;
    l->big = !neg && mag > (uint64_t)INT64_MAX;
    l->i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return iron__mlir_p_next(p);
}

static int dense_elems(iron__mlir_parser *p, dense_ctx *c, int level)
{
    if (p->tok.kind != IRON__TK_LBRACKET) {
        if (c->leaf_level >= 0 && c->leaf_level != level)
            return iron__mlir_p_fail(p, p->tok.loc,
                                     "dense lists nested unevenly");
        c->leaf_level = level;
        if (iron__mlir_p_items(p, 1) ||
            iron__mlir_p_grow(p, (void **)&c->leaves, &c->cap, c->n + 1,
                              sizeof *c->leaves))
            return -1;
        return leaf_value(p, &c->leaves[c->n++]);
    }
    if (level >= IRON__MLIR_MAX_RANK)
        return iron__mlir_p_fail(p, p->tok.loc,
                                 "dense lists nested deeper than %d",
                                 IRON__MLIR_MAX_RANK);
    iron__mlir_loc open = p->tok.loc;
    if (iron__mlir_p_enter(p) || iron__mlir_p_next(p))
        return -1;
    int count = 0;
    if (p->tok.kind != IRON__TK_RBRACKET) {
        for (;;) {
            if (dense_elems(p, c, level + 1))
                return -1;
            count++;
            int r = iron__mlir_p_accept(p, IRON__TK_COMMA);
            if (r < 0)
                return -1;
            if (!r)
                break;
        }
    } else if (c->leaf_level >= 0 && c->leaf_level != level + 1) {
        return iron__mlir_p_fail(p, open, "dense lists nested unevenly");
    } else {
        c->leaf_level = level + 1;
    }
    if (iron__mlir_p_expect(p, IRON__TK_RBRACKET, "',' or ']'"))
        return -1;
    if (c->lens[level] >= 0 && c->lens[level] != count)
        return iron__mlir_p_fail(p, open,
                                 "dense list of %d elements where the "
                                 "others have %d",
                                 count, c->lens[level]);
    c->lens[level] = count;
    iron__mlir_p_leave(p);
    return 0;
}

static int elem_of(iron__mlir_parser *p, const iron__mlir_type *t,
                   iron__mlir_loc loc, const iron__mlir_type **elem)
{
    if (!t || (t->kind != IRON__MT_TENSOR && t->kind != IRON__MT_VECTOR &&
               t->kind != IRON__MT_MEMREF) ||
        !t->elem || (t->elem->kind != IRON__MT_INT &&
                     t->elem->kind != IRON__MT_INDEX &&
                     t->elem->kind != IRON__MT_FLOAT))
        return iron__mlir_p_fail(p, loc,
                                 "dense<...> needs a tensor or vector type "
                                 "of integers or floats");
    *elem = t->elem;
    return 0;
}

static int numel(iron__mlir_parser *p, const iron__mlir_type *t,
                 iron__mlir_loc loc, long *n)
{
    long k = 1;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return iron__mlir_p_fail(p, loc,
                                     "dense<...> needs a static shape");
        if (t->dims[i] > 0 && k > IRON__MLIR_MAX_ITEMS / t->dims[i])
            k = IRON__MLIR_MAX_ITEMS + 1L;
        else
            k *= (long)t->dims[i];
    }
    *n = k;
    return 0;
}

/* Items from leaves (n of them) checked against the element type. */
static int make_items(iron__mlir_parser *p, iron__mlir_attr *a,
                      const leaf *lv, int n, const iron__mlir_type *elem)
{
    iron__mlir_attr *items = iron__mlir_alloc(p->m, (size_t)n * sizeof *items);
    a->items = iron__mlir_alloc(p->m, (size_t)n * sizeof *a->items);
    if (!items || !a->items)
        return iron__mlir_p_nomem(p);
    int isfloat = elem->kind == IRON__MT_FLOAT;
    for (int k = 0; k < n; k++) {
        iron__mlir_attr *it = &items[k];
        it->loc = lv[k].loc;
        if (isfloat) {
            if (lv[k].kind == 2)
                return iron__mlir_p_fail(p, lv[k].loc,
                                         "true / false in a float dense");
            it->kind = IRON__MA_FLOAT;
            if (lv[k].kind == 0 && lv[k].hex) {
                if (hex_float(p, (uint64_t)lv[k].i, elem, lv[k].loc,
                              &it->f))
                    return -1;
            } else {
                it->f = lv[k].kind == 1 ? lv[k].f
                        : lv[k].big     ? (double)(uint64_t)lv[k].i
                                        : (double)lv[k].i;
            }
        } else {
            if (lv[k].kind == 1)
                return iron__mlir_p_fail(p, lv[k].loc,
                                         "a float in an integer dense");
            if (lv[k].kind == 2 &&
                !(elem->kind == IRON__MT_INT && elem->width == 1))
                return iron__mlir_p_fail(p, lv[k].loc,
                                         "true / false in a dense of "
                                         "wider integers");
            if (!fits(lv[k].i, lv[k].big, elem) &&
                !(elem->kind == IRON__MT_INT && elem->width == 1 &&
                  (lv[k].i == 0 || lv[k].i == 1)))
                return iron__mlir_p_fail(p, lv[k].loc,
                                         "integer does not fit the dense's "
                                         "element type");
            it->kind = IRON__MA_INT;
            it->i = lv[k].i;
        }
        a->items[k] = it;
    }
    a->n = n;
    return 0;
}

/* dense<"0x0100..."> : the bytes, little-endian, as n elements. */
static int dense_hex(iron__mlir_parser *p, iron__mlir_attr *a,
                     const char *hex, size_t hn, iron__mlir_loc loc,
                     const iron__mlir_type *elem, long count)
{
    size_t esize = 8;
    if (elem->kind != IRON__MT_INDEX) {
        int w = elem->width;
        if (w != 8 && w != 16 && w != 32 && w != 64)
            return iron__mlir_p_fail(p, loc,
                                     "a hex dense of %d-bit elements is "
                                     "not supported",
                                     w);
        esize = (size_t)w / 8;
    }
    size_t bytes = hn / 2;
    if (hn % 2)
        return iron__mlir_p_fail(p, loc, "odd number of hex digits");
    for (size_t i = 0; i < hn; i++) {
        char c = hex[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
              (c >= 'A' && c <= 'F')))
            return iron__mlir_p_fail(p, loc, "bad hex digit in a dense");
    }
    long n;
    if (bytes == esize)
        n = 1;
    else if (count <= IRON__MLIR_MAX_ITEMS && bytes == (size_t)count * esize)
        n = count;
    else
        return iron__mlir_p_fail(p, loc,
                                 "hex dense of %zu bytes for %ld elements "
                                 "of %zu bytes",
                                 bytes, count, esize);
    if (iron__mlir_p_items(p, n))
        return -1;
    leaf *lv = iron__mlir_alloc(p->m, (size_t)n * sizeof *lv);
    if (!lv)
        return iron__mlir_p_nomem(p);
    for (long k = 0; k < n; k++) {
        uint64_t v = 0;
        for (size_t b = 0; b < esize; b++) {
            const char *h = hex + 2 * ((size_t)k * esize + b);
            int hi = h[0] <= '9' ? h[0] - '0' : (h[0] | 0x20) - 'a' + 10;
            int lo = h[1] <= '9' ? h[1] - '0' : (h[1] | 0x20) - 'a' + 10;
            v |= (uint64_t)(hi * 16 + lo) << (8 * b);
        }
        lv[k].loc = loc;
        if (elem->kind == IRON__MT_FLOAT) {
            lv[k].kind = 1;
            if (hex_float(p, v, elem, loc, &lv[k].f))
                return -1;
        } else {
            lv[k].kind = 0;
            lv[k].big = 0;
            int w = elem->kind == IRON__MT_INDEX ? 64 : elem->width;
            if (w < 64 && elem->sign != 2 && (v >> (w - 1)) & 1)
                v |= ~(uint64_t)0 << w;   /* sign-extend */
            lv[k].i = (int64_t)v;
            if (w == 1)
                lv[k].i &= 1;
        }
    }
    return make_items(p, a, lv, (int)n, elem);
}

int iron__mlir_p_dense(iron__mlir_parser *p, iron__mlir_type *implied,
                       iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_DENSE);
    iron__mlir_loc loc = p->tok.loc;
    if (!a || iron__mlir_p_expect(p, IRON__TK_LESS, "'<' after 'dense'"))
        return -1;
    dense_ctx c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i <= IRON__MLIR_MAX_RANK; i++)
        c.lens[i] = -1;
    c.leaf_level = -1;
    const char *hex = NULL;
    size_t hn = 0;
    iron__mlir_loc hloc = p->tok.loc;
    int scalar = p->tok.kind != IRON__TK_LBRACKET;
    if (p->tok.kind == IRON__TK_STRING) {
        if (p->tok.n < 4 || p->tok.p[1] != '0' || p->tok.p[2] != 'x')
            return iron__mlir_p_fail(p, p->tok.loc,
                                     "a string in dense<...> must be hex "
                                     "(\"0x...\")");
        hex = p->tok.p + 3;
        hn = p->tok.n - 4;
        if (iron__mlir_p_next(p))
            return -1;
    } else if (p->tok.kind != IRON__TK_GREATER &&
               dense_elems(p, &c, 0)) {
        return -1;
    }
    if (iron__mlir_p_expect(p, IRON__TK_GREATER, "'>' to close dense<"))
        return -1;
    iron__mlir_loc tloc = p->tok.loc;
    if (implied && p->tok.kind != IRON__TK_COLON) {
        a->type = implied;
    } else if (iron__mlir_p_expect(p, IRON__TK_COLON,
                                   "':' and the dense attribute's type") ||
               iron__mlir_p_type(p, &a->type)) {
        return -1;
    }
    const iron__mlir_type *elem = NULL;
    long count = 0;
    if (elem_of(p, a->type, tloc, &elem) || numel(p, a->type, tloc, &count))
        return -1;
    if (hex) {
        if (dense_hex(p, a, hex, hn, hloc, elem, count))
            return -1;
    } else if (c.n == 0 && !(count == 0)) {
        return iron__mlir_p_fail(p, loc, "empty dense<> for %ld elements",
                                 count);
    } else if (scalar && c.n == 1) {
        if (make_items(p, a, c.leaves, 1, elem))
            return -1;
    } else {
        int depth = c.leaf_level < 0 ? 0 : c.leaf_level;
        int ok = depth == a->type->rank;
        for (int i = 0; ok && i < depth; i++)
            ok = c.lens[i] == a->type->dims[i];
        if (!ok)
            return iron__mlir_p_fail(p, loc,
                                     "the dense lists' shape does not match "
                                     "the type's");
        if (c.n && make_items(p, a, c.leaves, c.n, elem))
            return -1;
    }
    a->loc = loc;
    *out = a;
    return 0;
}

/* array<i64: 1, 2> after the word. */
static int dense_array(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_DENSE_ARRAY);
    iron__mlir_loc loc = p->tok.loc;
    if (!a || iron__mlir_p_expect(p, IRON__TK_LESS, "'<' after 'array'") ||
        iron__mlir_p_type(p, &a->type))
        return -1;
    if (a->type->kind != IRON__MT_INT && a->type->kind != IRON__MT_FLOAT)
        return iron__mlir_p_fail(p, loc,
                                 "array<...> holds integers or floats");
    dense_ctx c;
    memset(&c, 0, sizeof c);
    if (p->tok.kind == IRON__TK_COLON) {
        if (iron__mlir_p_next(p))
            return -1;
        for (;;) {
            if (iron__mlir_p_items(p, 1) ||
                iron__mlir_p_grow(p, (void **)&c.leaves, &c.cap, c.n + 1,
                                  sizeof *c.leaves) ||
                leaf_value(p, &c.leaves[c.n++]))
                return -1;
            int r = iron__mlir_p_accept(p, IRON__TK_COMMA);
            if (r < 0)
                return -1;
            if (!r)
                break;
        }
    }
    if (iron__mlir_p_expect(p, IRON__TK_GREATER, "',' or '>'"))
        return -1;
    if (c.n && make_items(p, a, c.leaves, c.n, a->type))
        return -1;
    a->loc = loc;
    *out = a;
    return 0;
}

/* ---------------------------------------------------------------------
 * Any attribute
 * --------------------------------------------------------------------- */

int iron__mlir_p_attr(iron__mlir_parser *p, iron__mlir_attr **out)
{
    iron__mlir_token *t = &p->tok;
    iron__mlir_loc loc = t->loc;
    int r;
    /* a dictionary counts its own level */
    int counted = t->kind != IRON__TK_LBRACE;
    if (counted && iron__mlir_p_enter(p))
        return -1;
    switch (t->kind) {
    case IRON__TK_LBRACKET:
        r = list_attr(p, out);
        break;
    case IRON__TK_LBRACE:
        r = iron__mlir_p_dict(p, out);
        break;
    case IRON__TK_STRING: {
        iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_STR);
        r = !a || !(a->s = iron__mlir_p_string(p)) || iron__mlir_p_next(p)
                ? -1 : 0;
        *out = a;
        break;
    }
    case IRON__TK_SYM:
        r = iron__mlir_p_symref(p, out);
        break;
    case IRON__TK_HASH:
        r = hash_attr(p, out);
        break;
    case IRON__TK_MINUS:
    case IRON__TK_INT:
    case IRON__TK_FLOAT:
        r = number_attr(p, out);
        break;
    case IRON__TK_BANG:
    case IRON__TK_LPAREN: {
        iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_TYPE);
        r = !a || iron__mlir_p_type(p, &a->type) ? -1 : 0;
        *out = a;
        break;
    }
    case IRON__TK_BARE:
        if (iron__mlir_p_is_word(p, "true") ||
            iron__mlir_p_is_word(p, "false")) {
            iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_BOOL);
            if (a)
                a->i = t->p[0] == 't';
            r = !a || iron__mlir_p_next(p) ? -1 : 0;
            *out = a;
        } else if (iron__mlir_p_is_word(p, "unit")) {
            *out = iron__mlir_p_new_attr(p, IRON__MA_UNIT);
            r = !*out || iron__mlir_p_next(p) ? -1 : 0;
        } else if (iron__mlir_p_is_word(p, "dense")) {
            r = iron__mlir_p_next(p) || iron__mlir_p_dense(p, NULL, out)
                    ? -1 : 0;
        } else if (iron__mlir_p_is_word(p, "array")) {
            r = iron__mlir_p_next(p) || dense_array(p, out) ? -1 : 0;
        } else if (iron__mlir_p_is_word(p, "affine_map") ||
                   iron__mlir_p_is_word(p, "affine_set") ||
                   iron__mlir_p_is_word(p, "strided") ||
                   iron__mlir_p_is_word(p, "dense_resource") ||
                   iron__mlir_p_is_word(p, "sparse") ||
                   iron__mlir_p_is_word(p, "opaque")) {
            size_t start = iron__mlir_p_offset(p);
            r = iron__mlir_p_next(p) ||
                        iron__mlir_p_expect(p, IRON__TK_LESS, NULL) ||
                        opaque_rest(p, start, loc, out)
                    ? -1 : 0;
        } else if (iron__mlir_p_at_type(p)) {
            iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_TYPE);
            r = !a || iron__mlir_p_type(p, &a->type) ? -1 : 0;
            *out = a;
        } else {
            r = iron__mlir_p_expected(p, "an attribute");
        }
        break;
    default:
        r = iron__mlir_p_expected(p, "an attribute");
        break;
    }
    if (r)
        return -1;
    if (*out && (*out)->loc.line == 0)
        (*out)->loc = loc;
    if (counted)
        iron__mlir_p_leave(p);
    return 0;
}
