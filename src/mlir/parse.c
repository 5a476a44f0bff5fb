/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * parse.c - the MLIR parser's frame: the text's checks and limits, the
 * module, ops in the generic form, regions and blocks, SSA names and
 * their scopes, and the messages.  Custom forms are parsed as the op
 * registry describes them (ops.h, format.c), types and attributes by
 * parse_type.c and parse_attr.c, and every finished op is normalised by
 * its registry entry.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir/ops.h"
#include "mlir/parse.h"

/* ---------------------------------------------------------------------
 * Messages
 * --------------------------------------------------------------------- */

/* " (in aie.objectfifo at 3:5)" for the op being parsed. */
static void op_context(const iron__mlir_parser *p, char *buf, size_t n)
{
    if (p->opname)
        snprintf(buf, n, " (in %s at %d:%d)", p->opname, p->oploc.line,
                 p->oploc.col);
    else
        buf[0] = '\0';
}

int iron__mlir_p_fail(iron__mlir_parser *p, iron__mlir_loc loc,
                      const char *fmt, ...)
{
    if (p->st != IRON_OK)
        return -1;
    char msg[1024], ctx[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    op_context(p, ctx, sizeof ctx);
    p->st = iron__fail(IRON_ESYNTAX, "%s:%d:%d: %s%s", p->file, loc.line,
                       loc.col, msg, ctx);
    return -1;
}

int iron__mlir_p_nomem(iron__mlir_parser *p)
{
    if (p->st != IRON_OK)
        return -1;
    p->st = iron__fail(IRON_ENOMEM, "%s: out of memory while parsing MLIR",
                       p->file);
    return -1;
}

/* The current token for messages: "')'", "'foo'", "the end of the text". */
static void describe(const iron__mlir_token *t, char *buf, size_t n)
{
    switch (t->kind) {
    case IRON__TK_EOF:
        snprintf(buf, n, "the end of the text");
        break;
    case IRON__TK_STRING:
        if (t->n > 24)
            snprintf(buf, n, "%.20s...\"", t->p);
        else
            snprintf(buf, n, "%.*s", (int)t->n, t->p);
        break;
    default:
        if (t->n > 32)
            snprintf(buf, n, "'%.28s...'", t->p);
        else
            snprintf(buf, n, "'%.*s'", (int)t->n, t->p);
        break;
    }
}

int iron__mlir_p_expected(iron__mlir_parser *p, const char *what)
{
    char found[64];
    describe(&p->tok, found, sizeof found);
    return iron__mlir_p_fail(p, p->tok.loc, "expected %s, found %s", what,
                             found);
}

/* ---------------------------------------------------------------------
 * Tokens
 * --------------------------------------------------------------------- */

int iron__mlir_p_next(iron__mlir_parser *p)
{
    if (p->st != IRON_OK)
        return -1;
    if (iron__mlir_lex_next(&p->lx, &p->tok) == 0)
        return 0;
    char ctx[160];
    op_context(p, ctx, sizeof ctx);
    p->st = iron__fail(IRON_ESYNTAX, "%s%s", iron_last_error(), ctx);
    return -1;
}

int iron__mlir_p_accept(iron__mlir_parser *p, iron__mlir_tok k)
{
    if (p->tok.kind != k)
        return 0;
    return iron__mlir_p_next(p) == 0 ? 1 : -1;
}

int iron__mlir_p_expect(iron__mlir_parser *p, iron__mlir_tok k,
                        const char *what)
{
    if (p->tok.kind != k)
        return iron__mlir_p_expected(p, what ? what
                                             : iron__mlir_tok_name(k));
    return iron__mlir_p_next(p);
}

int iron__mlir_p_is_word(const iron__mlir_parser *p, const char *w)
{
    size_t n = strlen(w);
    return p->tok.kind == IRON__TK_BARE && p->tok.n == n &&
           memcmp(p->tok.p, w, n) == 0;
}

int iron__mlir_p_accept_word(iron__mlir_parser *p, const char *w)
{
    if (!iron__mlir_p_is_word(p, w))
        return 0;
    return iron__mlir_p_next(p) == 0 ? 1 : -1;
}

int iron__mlir_p_expect_word(iron__mlir_parser *p, const char *w)
{
    if (!iron__mlir_p_is_word(p, w)) {
        char what[64];
        snprintf(what, sizeof what, "'%s'", w);
        return iron__mlir_p_expected(p, what);
    }
    return iron__mlir_p_next(p);
}

int iron__mlir_p_enter(iron__mlir_parser *p)
{
    if (p->depth >= IRON__MLIR_MAX_DEPTH)
        return iron__mlir_p_fail(p, p->tok.loc,
                                 "nesting deeper than %d (regions, types "
                                 "and attributes)",
                                 IRON__MLIR_MAX_DEPTH);
    p->depth++;
    return 0;
}

void iron__mlir_p_leave(iron__mlir_parser *p)
{
    p->depth--;
}

int iron__mlir_p_items(iron__mlir_parser *p, long n)
{
    p->nitems += n;
    if (p->nitems > IRON__MLIR_MAX_ITEMS)
        return iron__mlir_p_fail(p, p->tok.loc,
                                 "more than %d attribute items (array, "
                                 "dense and dictionary elements)",
                                 IRON__MLIR_MAX_ITEMS);
    return 0;
}

int iron__mlir_p_grow(iron__mlir_parser *p, void **arr, int *cap, int need,
                      size_t elsize)
{
    if (need <= *cap)
        return 0;
    long ncap = *cap ? *cap : 4;
    while (ncap < need)
        ncap *= 2;
    if (ncap > (1L << 28))
        return iron__mlir_p_nomem(p);
    void *n = iron__mlir_alloc(p->m, (size_t)ncap * elsize);
    if (!n)
        return iron__mlir_p_nomem(p);
    if (*cap)
        memcpy(n, *arr, (size_t)*cap * elsize);
    *arr = n;
    *cap = (int)ncap;
    return 0;
}

int iron__mlir_p_opt_loc(iron__mlir_parser *p)
{
    if (!iron__mlir_p_is_word(p, "loc"))
        return 0;
    return iron__mlir_p_next(p) || iron__mlir_p_skip_parens(p) ? -1 : 0;
}

int iron__mlir_p_commas(iron__mlir_parser *p, iron__mlir_p_item_fn one,
                        void *ctx)
{
    for (;;) {
        if (one(p, ctx))
            return -1;
        int c = iron__mlir_p_accept(p, IRON__TK_COMMA);
        if (c <= 0)
            return c;
    }
}

int iron__mlir_p_list(iron__mlir_parser *p, iron__mlir_tok close,
                      const char *what, iron__mlir_p_item_fn one, void *ctx)
{
    if (p->tok.kind != close && iron__mlir_p_commas(p, one, ctx))
        return -1;
    return iron__mlir_p_expect(p, close, what);
}

typedef struct attr_items_ctx {
    iron__mlir_attr *a;
    int cap;
    int (*one)(iron__mlir_parser *, iron__mlir_attr **);
} attr_items_ctx;

static int attr_item(iron__mlir_parser *p, void *ctx)
{
    attr_items_ctx *c = ctx;
    iron__mlir_attr *a = c->a;
    if (iron__mlir_p_items(p, 1) ||
        iron__mlir_p_grow(p, (void **)&a->items, &c->cap, a->n + 1,
                          sizeof *a->items) ||
        c->one(p, &a->items[a->n]))
        return -1;
    a->n++;
    return 0;
}

int iron__mlir_p_attr_items(iron__mlir_parser *p, iron__mlir_attr *a,
                            iron__mlir_tok close, const char *what,
                            int (*one)(iron__mlir_parser *,
                                       iron__mlir_attr **))
{
    attr_items_ctx c = {a, 0, one};
    return iron__mlir_p_list(p, close, what, attr_item, &c);
}

char *iron__mlir_p_tokdup(iron__mlir_parser *p)
{
    char *s = iron__mlir_strndup(p->m, p->tok.p, p->tok.n);
    if (!s)
        iron__mlir_p_nomem(p);
    return s;
}

size_t iron__mlir_p_offset(const iron__mlir_parser *p)
{
    return (size_t)(p->tok.p - p->lx.text);
}

char *iron__mlir_p_slice(iron__mlir_parser *p, const char *prefix,
                         size_t from, size_t to)
{
    const char *s = p->lx.text;
    size_t np = strlen(prefix);
    char *out = iron__mlir_alloc(p->m, np + (to - from) + 2);
    if (!out) {
        iron__mlir_p_nomem(p);
        return NULL;
    }
    memcpy(out, prefix, np);
    size_t o = np;
    int in_string = 0;
    for (size_t i = from; i < to; i++) {
        char c = s[i];
        if (in_string) {
            out[o++] = c;
            if (c == '\\' && i + 1 < to)
                out[o++] = s[++i];
            else if (c == '"')
                in_string = 0;
        } else if (c == '/' && i + 1 < to && s[i + 1] == '/') {
            while (i + 1 < to && s[i + 1] != '\n')
                i++;
        } else {
            in_string = c == '"';
            out[o++] = c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
        }
    }
    while (o > np && out[o - 1] == ' ')
        o--;
    /* a '-' the text ends with stays apart from the closer printed after
     * it ("- >" must not read back as "->"; found by fuzz_mlir) */
    if (o > np && out[o - 1] == '-')
        out[o++] = ' ';
    out[o] = '\0';
    return out;
}

char *iron__mlir_p_text_since(iron__mlir_parser *p, size_t from)
{
    size_t to = iron__mlir_p_offset(p);
    const char *s = p->lx.text;
    while (from < to && (s[from] == ' ' || s[from] == '\n' ||
                         s[from] == '\t' || s[from] == '\r'))
        from++;
    return iron__mlir_p_slice(p, "", from, to);
}

/* Skips tokens until the closer matching the opener already consumed;
 * the closer is consumed too (its offset kept in p->close_off). */
static int skip_balanced(iron__mlir_parser *p, iron__mlir_tok close)
{
    iron__mlir_tok stack[IRON__MLIR_MAX_DEPTH];
    int n = 0;
    stack[n++] = close;
    for (;;) {
        iron__mlir_tok k = p->tok.kind;
        if (k == IRON__TK_EOF)
            return iron__mlir_p_expected(p, iron__mlir_tok_name(stack[n - 1]));
        if (k == stack[n - 1]) {
            if (--n == 0) {
                p->close_off = iron__mlir_p_offset(p);
                return iron__mlir_p_next(p);
            }
        } else if (k == IRON__TK_LPAREN || k == IRON__TK_LBRACKET ||
                   k == IRON__TK_LBRACE || k == IRON__TK_LESS) {
            if (n >= IRON__MLIR_MAX_DEPTH)
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "nesting deeper than %d (regions, "
                                         "types and attributes)",
                                         IRON__MLIR_MAX_DEPTH);
            stack[n++] = k == IRON__TK_LPAREN     ? IRON__TK_RPAREN
                         : k == IRON__TK_LBRACKET ? IRON__TK_RBRACKET
                         : k == IRON__TK_LBRACE   ? IRON__TK_RBRACE
                                                  : IRON__TK_GREATER;
        } else if (k == IRON__TK_RPAREN || k == IRON__TK_RBRACKET ||
                   k == IRON__TK_RBRACE || k == IRON__TK_GREATER) {
            return iron__mlir_p_expected(p,
                                         iron__mlir_tok_name(stack[n - 1]));
        }
        if (iron__mlir_p_next(p))
            return -1;
    }
}

int iron__mlir_p_skip_parens(iron__mlir_parser *p)
{
    if (iron__mlir_p_expect(p, IRON__TK_LPAREN, NULL))
        return -1;
    return skip_balanced(p, IRON__TK_RPAREN);
}

int iron__mlir_p_skip_angle(iron__mlir_parser *p)
{
    return skip_balanced(p, IRON__TK_GREATER);
}

/* ---------------------------------------------------------------------
 * Names: values and block labels
 * --------------------------------------------------------------------- */

static unsigned hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int rehash(iron__mlir_parser *p, int nbuckets)
{
    int *b = iron__malloc((size_t)nbuckets * sizeof *b);
    if (!b)
        return iron__mlir_p_nomem(p);
    for (int i = 0; i < nbuckets; i++)
        b[i] = -1;
    for (int i = 0; i < p->ndefs; i++) {
        const char *nm = p->defs[i].name;
        unsigned h = hash(nm, strlen(nm)) & (unsigned)(nbuckets - 1);
        p->defs[i].next = b[h];
        b[h] = i;
    }
    iron__free(p->buckets);
    p->buckets = b;
    p->nbuckets = nbuckets;
    return 0;
}

/* The newest definition of name (n bytes), or -1. */
static int find(const iron__mlir_parser *p, const char *name, size_t n)
{
    if (!p->nbuckets)
        return -1;
    unsigned h = hash(name, n) & (unsigned)(p->nbuckets - 1);
    for (int i = p->buckets[h]; i >= 0; i = p->defs[i].next) {
        const char *d = p->defs[i].name;
        if (strncmp(d, name, n) == 0 && d[n] == '\0')
            return i;
    }
    return -1;
}

/* A visible value definition of name, or -1. */
static int find_value(const iron__mlir_parser *p, const char *name, size_t n)
{
    int i = find(p, name, n);
    if (i >= 0 && p->defs[i].scope < p->barrier)
        return -1;
    return i;
}

static int push_def(iron__mlir_parser *p, const char *name, int id,
                    void *block)
{
    if (p->ndefs == p->cap_defs) {
        int cap = p->cap_defs ? p->cap_defs * 2 : 256;
        iron__mlir_def *d = iron__realloc(p->defs, (size_t)cap * sizeof *d);
        if (!d)
            return iron__mlir_p_nomem(p);
        p->defs = d;
        p->cap_defs = cap;
    }
    if (p->ndefs >= p->nbuckets * 2 &&
        rehash(p, p->nbuckets ? p->nbuckets * 4 : 1024))
        return -1;
    iron__mlir_def *d = &p->defs[p->ndefs];
    d->name = name;
    d->id = id;
    d->scope = p->scope;
    d->block = block;
    unsigned h = hash(name, strlen(name)) & (unsigned)(p->nbuckets - 1);
    d->next = p->buckets[h];
    p->buckets[h] = p->ndefs++;
    return 0;
}

static void push_scope(iron__mlir_parser *p, int isolated, int *saved)
{
    *saved = p->barrier;
    p->scope++;
    if (isolated)
        p->barrier = p->scope;
}

static void pop_scope(iron__mlir_parser *p, int saved)
{
    while (p->ndefs > 0 && p->defs[p->ndefs - 1].scope >= p->scope) {
        iron__mlir_def *d = &p->defs[--p->ndefs];
        unsigned h =
            hash(d->name, strlen(d->name)) & (unsigned)(p->nbuckets - 1);
        p->buckets[h] = d->next;
    }
    p->scope--;
    p->barrier = saved;
}

/* Defines value `name` (NUL-terminated, in the arena); its id or -1. */
static int define_value(iron__mlir_parser *p, char *name,
                        iron__mlir_loc loc, iron__mlir_type *type,
                        iron__mlir_op *def, int result)
{
    size_t n = strlen(name);
    int prev = find_value(p, name, n);
    if (prev >= 0) {
        const iron__mlir_value *v = &p->m->values[p->defs[prev].id];
        return iron__mlir_p_fail(p, loc,
                                 "redefinition of %s (first defined at "
                                 "%d:%d)",
                                 name, v->loc.line, v->loc.col);
    }
    if (p->m->nvalues >= IRON__MLIR_MAX_VALUES)
        return iron__mlir_p_fail(p, loc, "more than %d values",
                                 IRON__MLIR_MAX_VALUES);
    int id = iron__mlir_value_new(p->m, NULL, type, def, result, loc);
    if (id < 0)
        return iron__mlir_p_nomem(p);
    p->m->values[id].name = name;
    if (push_def(p, name, id, NULL))
        return -1;
    return id;
}

int iron__mlir_p_use(iron__mlir_parser *p, int *id, iron__mlir_loc *loc)
{
    if (p->tok.kind != IRON__TK_VALUE)
        return iron__mlir_p_expected(p, "a value (%name)");
    const char *s = p->tok.p;
    size_t n = p->tok.n;
    *loc = p->tok.loc;
    int d = find_value(p, s, n);
    if (d < 0) {
        /* %x#0 is %x; %x is %x#0 */
        const char *hash_at = memchr(s, '#', n);
        if (hash_at) {
            if (n - (size_t)(hash_at - s) == 2 && hash_at[1] == '0')
                d = find_value(p, s, (size_t)(hash_at - s));
        } else {
            char buf[256];
            if (n + 3 < sizeof buf) {
                memcpy(buf, s, n);
                memcpy(buf + n, "#0", 3);
                d = find_value(p, buf, n + 2);
            }
        }
    }
    if (d < 0)
        return iron__mlir_p_fail(p, p->tok.loc, "undefined value %.*s",
                                 (int)(n > 64 ? 64 : n), s);
    *id = p->defs[d].id;
    return iron__mlir_p_next(p);
}

int iron__mlir_p_check_type(iron__mlir_parser *p, int id,
                            iron__mlir_loc loc, const iron__mlir_type *t)
{
    const iron__mlir_value *v = &p->m->values[id];
    /* a result of an opaque op: its type is unknown, the use's goes */
    if (iron__mlir_type_equal(v->type, t) ||
        (v->type && v->type->kind == IRON__MT_OPAQUE && !v->type->text))
        return 0;
    iron__str want = { 0 }, got = { 0 };
    iron__mlir_type_text(t, &want);
    iron__mlir_type_text(v->type, &got);
    if (want.oom || got.oom) {
        iron__str_free(&want);
        iron__str_free(&got);
        return iron__mlir_p_nomem(p);
    }
    iron__mlir_p_fail(p, loc,
                      "%s is used as %.200s but was defined as %.200s at "
                      "%d:%d",
                      v->name ? v->name : "a value", iron__str_get(&want),
                      iron__str_get(&got), v->loc.line, v->loc.col);
    iron__str_free(&want);
    iron__str_free(&got);
    return -1;
}

/* One operand use, added to the op builder ctx. */
static int use_item(iron__mlir_parser *p, void *ctx)
{
    int id;
    iron__mlir_loc loc;
    if (iron__mlir_p_use(p, &id, &loc))
        return -1;
    return iron__mlir_opb_operand(p, ctx, id, loc);
}

int iron__mlir_p_use_list(iron__mlir_parser *p, iron__mlir_opb *b)
{
    if (p->tok.kind != IRON__TK_LPAREN)
        return iron__mlir_p_commas(p, use_item, b);
    if (iron__mlir_p_next(p))
        return -1;
    return iron__mlir_p_list(p, IRON__TK_RPAREN, NULL, use_item, b);
}

/* ---------------------------------------------------------------------
 * The op builder
 * --------------------------------------------------------------------- */

int iron__mlir_opb_operand(iron__mlir_parser *p, iron__mlir_opb *b, int id,
                           iron__mlir_loc loc)
{
    int cap = b->cap_operands;
    if (iron__mlir_p_grow(p, (void **)&b->operands, &cap, b->noperands + 1,
                          sizeof *b->operands))
        return -1;
    if (cap != b->cap_operands) {
        int c2 = b->cap_operands;
        if (iron__mlir_p_grow(p, (void **)&b->operand_locs, &c2, cap,
                              sizeof *b->operand_locs))
            return -1;
        b->cap_operands = cap;
    }
    b->operands[b->noperands] = id;
    b->operand_locs[b->noperands++] = loc;
    return 0;
}

int iron__mlir_opb_attr(iron__mlir_parser *p, iron__mlir_opb *b,
                        const char *name, iron__mlir_attr *a,
                        iron__mlir_loc loc)
{
    (void)loc;   /* duplicates are found by finish_op */
    if (iron__mlir_p_grow(p, (void **)&b->attrs, &b->cap_attrs,
                          b->nattrs + 1, sizeof *b->attrs))
        return -1;
    char *n = iron__mlir_strdup(p->m, name);
    if (!n)
        return iron__mlir_p_nomem(p);
    b->attrs[b->nattrs].name = n;
    b->attrs[b->nattrs].attr = a;
    b->attrs[b->nattrs].prop = 0;
    b->nattrs++;
    return 0;
}

int iron__mlir_opb_rtype(iron__mlir_parser *p, iron__mlir_opb *b,
                         iron__mlir_type *t)
{
    if (iron__mlir_p_grow(p, (void **)&b->rtypes, &b->cap_rtypes,
                          b->nrtypes + 1, sizeof *b->rtypes))
        return -1;
    b->rtypes[b->nrtypes++] = t;
    return 0;
}

static int add_region(iron__mlir_parser *p, iron__mlir_opb *b,
                      iron__mlir_region **out)
{
    iron__mlir_region *r = iron__mlir_alloc(p->m, sizeof *r);
    if (!r)
        return iron__mlir_p_nomem(p);
    if (iron__mlir_p_grow(p, (void **)&b->regions, &b->cap_regions,
                          b->nregions + 1, sizeof *b->regions))
        return -1;
    b->regions[b->nregions++] = r;
    *out = r;
    return 0;
}

int iron__mlir_opb_empty_region(iron__mlir_parser *p, iron__mlir_opb *b)
{
    iron__mlir_region *r;
    return add_region(p, b, &r);
}

int iron__mlir_p_operand(iron__mlir_parser *p, iron__mlir_opb *b,
                         const iron__mlir_type *expect)
{
    int id;
    iron__mlir_loc loc;
    if (iron__mlir_p_use(p, &id, &loc) ||
        (expect && iron__mlir_p_check_type(p, id, loc, expect)))
        return -1;
    return iron__mlir_opb_operand(p, b, id, loc);
}

int iron__mlir_p_int_named(iron__mlir_parser *p, iron__mlir_opb *b,
                           const char *name, iron__mlir_type *t)
{
    iron__mlir_loc loc = p->tok.loc;
    int64_t v;
    if (iron__mlir_p_int(p, &v) || iron__mlir_p_check_int(p, v, t, loc))
        return -1;
    iron__mlir_attr *a = iron__mlir_p_int_attr(p, v, t);
    if (!a)
        return -1;
    a->loc = loc;
    return iron__mlir_opb_attr(p, b, name, a, loc);
}

/* ---------------------------------------------------------------------
 * Attribute dictionaries of ops
 * --------------------------------------------------------------------- */

int iron__mlir_p_attr_dict_into(iron__mlir_parser *p, iron__mlir_opb *b,
                                int prop)
{
    iron__mlir_attr *d;
    if (iron__mlir_p_dict(p, &d))
        return -1;
    for (int i = 0; i < d->n; i++) {
        if (iron__mlir_opb_attr(p, b, d->keys[i], d->items[i],
                                d->items[i]->loc))
            return -1;
        b->attrs[b->nattrs - 1].prop = prop;
    }
    return 0;
}

int iron__mlir_p_opt_attr_dict(iron__mlir_parser *p, iron__mlir_opb *b)
{
    if (p->tok.kind != IRON__TK_LBRACE)
        return 0;
    return iron__mlir_p_attr_dict_into(p, b, 0);
}

int iron__mlir_p_opt_attributes_kw(iron__mlir_parser *p, iron__mlir_opb *b)
{
    int r = iron__mlir_p_accept_word(p, "attributes");
    if (r <= 0)
        return r;
    if (p->tok.kind != IRON__TK_LBRACE)
        return iron__mlir_p_expected(p, "'{' after 'attributes'");
    return iron__mlir_p_attr_dict_into(p, b, 0);
}

/* ---------------------------------------------------------------------
 * Regions and blocks
 * --------------------------------------------------------------------- */

typedef struct pending_succ {
    const char *label;
    iron__mlir_loc loc;
} pending_succ;

/* Successor references of the region being parsed, checked at its end. */
typedef struct region_ctx {
    pending_succ *refs;
    int nrefs, cap;
} region_ctx;

static int parse_op(iron__mlir_parser *p, iron__mlir_op *parent,
                    region_ctx *rc, iron__mlir_op **out);

typedef struct block_b {
    iron__mlir_block *blk;
    int cap_ops, cap_args;
} block_b;

static int new_block(iron__mlir_parser *p, iron__mlir_region *r,
                     int *cap_blocks, block_b *bb)
{
    iron__mlir_block *blk = iron__mlir_alloc(p->m, sizeof *blk);
    if (!blk)
        return iron__mlir_p_nomem(p);
    if (iron__mlir_p_grow(p, (void **)&r->blocks, cap_blocks,
                          r->nblocks + 1, sizeof *r->blocks))
        return -1;
    r->blocks[r->nblocks++] = blk;
    bb->blk = blk;
    bb->cap_ops = bb->cap_args = 0;
    return 0;
}

static int block_arg(iron__mlir_parser *p, block_b *bb, const char *name,
                     size_t n, iron__mlir_type *t, iron__mlir_loc loc)
{
    if (memchr(name, '#', n))
        return iron__mlir_p_fail(p, loc,
                                 "an argument cannot be named like a "
                                 "result group's element (%.*s)",
                                 (int)(n > 64 ? 64 : n), name);
    char *nm = iron__mlir_strndup(p->m, name, n);
    if (!nm)
        return iron__mlir_p_nomem(p);
    int id = define_value(p, nm, loc, t, NULL, bb->blk->nargs);
    if (id < 0)
        return -1;
    if (iron__mlir_p_grow(p, (void **)&bb->blk->args, &bb->cap_args,
                          bb->blk->nargs + 1, sizeof *bb->blk->args))
        return -1;
    bb->blk->args[bb->blk->nargs++] = id;
    return 0;
}

/* One "%a: i32 [loc(..)]" of a block header, an argument of block ctx. */
static int header_arg(iron__mlir_parser *p, void *ctx)
{
    if (p->tok.kind != IRON__TK_VALUE)
        return iron__mlir_p_expected(p, "a block argument");
    iron__mlir_token name = p->tok;
    iron__mlir_type *t;
    if (iron__mlir_p_next(p) ||
        iron__mlir_p_expect(p, IRON__TK_COLON, NULL) ||
        iron__mlir_p_type(p, &t) || iron__mlir_p_opt_loc(p))
        return -1;
    return block_arg(p, ctx, name.p, name.n, t, name.loc);
}

/* "^bb1(%a: i32, %b: f32):" with the label current. */
static int block_header(iron__mlir_parser *p, iron__mlir_region *r,
                        int *cap_blocks, block_b *bb)
{
    iron__mlir_loc loc = p->tok.loc;
    int prev = find(p, p->tok.p, p->tok.n);
    if (prev >= 0 && p->defs[prev].scope == p->scope)
        return iron__mlir_p_fail(p, loc, "block %.*s defined twice",
                                 (int)(p->tok.n > 64 ? 64 : p->tok.n),
                                 p->tok.p);
    char *label = iron__mlir_p_tokdup(p);
    if (!label || new_block(p, r, cap_blocks, bb))
        return -1;
    bb->blk->label = label;
    if (push_def(p, label, r->nblocks - 1, bb->blk) || iron__mlir_p_next(p))
        return -1;
    if (p->tok.kind == IRON__TK_LPAREN &&
        (iron__mlir_p_next(p) ||
         iron__mlir_p_list(p, IRON__TK_RPAREN, NULL, header_arg, bb)))
        return -1;
    return iron__mlir_p_expect(p, IRON__TK_COLON, "':' after a block label");
}

static int block_add_op(iron__mlir_parser *p, block_b *bb, iron__mlir_op *op)
{
    if (iron__mlir_p_grow(p, (void **)&bb->blk->ops, &bb->cap_ops,
                          bb->blk->nops + 1, sizeof *bb->blk->ops))
        return -1;
    bb->blk->ops[bb->blk->nops++] = op;
    return 0;
}

static int count_op(iron__mlir_parser *p, iron__mlir_loc loc)
{
    if (++p->nops > IRON__MLIR_MAX_OPS)
        return iron__mlir_p_fail(p, loc, "more than %d ops",
                                 IRON__MLIR_MAX_OPS);
    return 0;
}

int iron__mlir_p_ensure_block(iron__mlir_parser *p, iron__mlir_region *r)
{
    if (r->nblocks)
        return 0;
    int cap = 0;
    block_b bb;
    return new_block(p, r, &cap, &bb);
}

int iron__mlir_p_implicit_end(iron__mlir_parser *p, iron__mlir_region *r,
                              iron__mlir_op *parent, const char *name,
                              iron__mlir_loc loc)
{
    if (r->nblocks == 0) {
        int cap = 0;
        block_b bb;
        if (new_block(p, r, &cap, &bb))
            return -1;
    }
    iron__mlir_block *blk = r->blocks[r->nblocks - 1];
    if (blk->nops > 0 && strcmp(blk->ops[blk->nops - 1]->name, name) == 0)
        return 0;
    if (count_op(p, loc))
        return -1;
    iron__mlir_op *op = iron__mlir_alloc(p->m, sizeof *op);
    iron__mlir_op **ops = iron__mlir_alloc(p->m, (size_t)(blk->nops + 1) *
                                                     sizeof *ops);
    if (!op || !ops || !(op->name = iron__mlir_strdup(p->m, name)))
        return iron__mlir_p_nomem(p);
    op->loc = loc;
    op->parent = parent;
    if (blk->nops)
        memcpy(ops, blk->ops, (size_t)blk->nops * sizeof *ops);
    ops[blk->nops++] = op;
    blk->ops = ops;
    return 0;
}

int iron__mlir_p_region(iron__mlir_parser *p, iron__mlir_opb *b,
                        const iron__mlir_barg *args, int nargs,
                        int isolated)
{
    if (p->tok.kind != IRON__TK_LBRACE)
        return iron__mlir_p_expected(p, "'{' (a region)");
    iron__mlir_loc open = p->tok.loc;
    if (iron__mlir_p_enter(p))
        return -1;
    iron__mlir_region *r;
    if (add_region(p, b, &r) || iron__mlir_p_next(p))
        return -1;
    int saved, cap_blocks = 0;
    push_scope(p, isolated, &saved);
    region_ctx rc = { 0 };
    block_b bb = { 0 };
    int rc_ok = -1;
    if (nargs > 0) {
        if (new_block(p, r, &cap_blocks, &bb))
            goto out;
        for (int i = 0; i < nargs; i++)
            if (block_arg(p, &bb, args[i].name, args[i].n, args[i].type,
                          args[i].loc))
                goto out;
    }
    while (p->tok.kind != IRON__TK_RBRACE) {
        if (p->tok.kind == IRON__TK_EOF) {
            iron__mlir_p_fail(p, p->tok.loc,
                              "expected '}' to close the region opened at "
                              "%d:%d, found the end of the text",
                              open.line, open.col);
            goto out;
        }
        if (p->tok.kind == IRON__TK_BLOCK) {
            if (nargs > 0 && r->nblocks == 1 && bb.blk->nops == 0) {
                iron__mlir_p_fail(p, p->tok.loc,
                                  "the entry block's arguments are given "
                                  "by the op: it takes no label");
                goto out;
            }
            if (block_header(p, r, &cap_blocks, &bb))
                goto out;
            continue;
        }
        if (!bb.blk && new_block(p, r, &cap_blocks, &bb))
            goto out;
        iron__mlir_op *op;
        if (parse_op(p, b->op, &rc, &op) || block_add_op(p, &bb, op))
            goto out;
    }
    for (int i = 0; i < rc.nrefs; i++) {
        int d = find(p, rc.refs[i].label, strlen(rc.refs[i].label));
        if (d < 0 || p->defs[d].scope != p->scope || !p->defs[d].block) {
            iron__mlir_p_fail(p, rc.refs[i].loc, "undefined block %.64s",
                              rc.refs[i].label);
            goto out;
        }
        /* as MLIR's verifier says: a region is entered only at its top */
        if (r->nblocks && p->defs[d].block == r->blocks[0]) {
            iron__mlir_p_fail(p, rc.refs[i].loc,
                              "%.64s is the region's entry block, which no "
                              "branch may target",
                              rc.refs[i].label);
            goto out;
        }
    }
    rc_ok = 0;
out:
    pop_scope(p, saved);
    if (rc_ok)
        return -1;
    iron__mlir_p_leave(p);
    return iron__mlir_p_next(p);
}

/* ---------------------------------------------------------------------
 * Ops
 * --------------------------------------------------------------------- */

/* The result names of an op: "%a, %b:2 =". */
typedef struct result_name {
    const char *p;
    size_t n;
    long count;
    iron__mlir_loc loc;
} result_name;

static int parse_results(iron__mlir_parser *p, result_name **out, int *nout,
                         long *total)
{
    int cap = 0, n = 0;
    result_name *rs = NULL;
    *total = 0;
    for (;;) {
        if (p->tok.kind != IRON__TK_VALUE)
            return iron__mlir_p_expected(p, "a result name");
        if (memchr(p->tok.p, '#', p->tok.n))
            return iron__mlir_p_fail(p, p->tok.loc,
                                     "a result is named without '#'");
        if (iron__mlir_p_grow(p, (void **)&rs, &cap, n + 1, sizeof *rs))
            return -1;
        rs[n].p = p->tok.p;
        rs[n].n = p->tok.n;
        rs[n].loc = p->tok.loc;
        rs[n].count = 1;
        if (iron__mlir_p_next(p))
            return -1;
        if (p->tok.kind == IRON__TK_COLON) {
            int64_t c;
            if (iron__mlir_p_next(p) || iron__mlir_p_int(p, &c))
                return -1;
            if (c < 1 || c > IRON__MLIR_MAX_VALUES)
                return iron__mlir_p_fail(p, rs[n].loc,
                                         "a result group counts 1 to %d "
                                         "values, not %lld",
                                         IRON__MLIR_MAX_VALUES,
                                         (long long)c);
            rs[n].count = (long)c;
        }
        *total += rs[n].count;
        if (*total > IRON__MLIR_MAX_VALUES)
            return iron__mlir_p_fail(p, rs[n].loc, "more than %d values",
                                     IRON__MLIR_MAX_VALUES);
        n++;
        int c = iron__mlir_p_accept(p, IRON__TK_COMMA);
        if (c < 0)
            return -1;
        if (!c)
            break;
    }
    *out = rs;
    *nout = n;
    return iron__mlir_p_expect(p, IRON__TK_EQUAL, "'=' after the results");
}

static int is_isolated(const char *name)
{
    return strcmp(name, "builtin.module") == 0 ||
           strcmp(name, "func.func") == 0 || strcmp(name, "aie.device") == 0;
}

/* The generic form after the op name: (operands) [succ] <{props}>
 * (regions) {attrs} : (types) -> types */
static int parse_generic(iron__mlir_parser *p, iron__mlir_opb *b,
                         region_ctx *rc)
{
    if (iron__mlir_p_expect(p, IRON__TK_LPAREN, "'(' (the operands)") ||
        iron__mlir_p_list(p, IRON__TK_RPAREN, NULL, use_item, b))
        return -1;
    if (p->tok.kind == IRON__TK_LBRACKET) {
        if (iron__mlir_p_next(p))
            return -1;
        for (;;) {
            if (p->tok.kind != IRON__TK_BLOCK)
                return iron__mlir_p_expected(p, "a successor block");
            char *l = iron__mlir_p_tokdup(p);
            if (!l)
                return -1;
            if (iron__mlir_p_grow(p, (void **)&b->succ, &b->cap_succ,
                                  b->nsucc + 1, sizeof *b->succ) ||
                iron__mlir_p_grow(p, (void **)&rc->refs, &rc->cap,
                                  rc->nrefs + 1, sizeof *rc->refs))
                return -1;
            b->succ[b->nsucc++] = l;
            rc->refs[rc->nrefs].label = l;
            rc->refs[rc->nrefs++].loc = p->tok.loc;
            if (iron__mlir_p_next(p))
                return -1;
            int c = iron__mlir_p_accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
        if (iron__mlir_p_expect(p, IRON__TK_RBRACKET, NULL))
            return -1;
    }
    if (p->tok.kind == IRON__TK_LESS) {
        if (iron__mlir_p_next(p))
            return -1;
        if (p->tok.kind != IRON__TK_LBRACE)
            return iron__mlir_p_expected(p, "'{' (the properties)");
        if (iron__mlir_p_attr_dict_into(p, b, 1) ||
            iron__mlir_p_expect(p, IRON__TK_GREATER, "'>' after the "
                                                     "properties"))
            return -1;
    }
    if (p->tok.kind == IRON__TK_LPAREN) {
        if (iron__mlir_p_next(p))
            return -1;
        int iso = is_isolated(b->op->name);
        for (;;) {
            if (iron__mlir_p_region(p, b, NULL, 0, iso))
                return -1;
            int c = iron__mlir_p_accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
        if (iron__mlir_p_expect(p, IRON__TK_RPAREN, NULL))
            return -1;
    }
    if (p->tok.kind == IRON__TK_LBRACE &&
        iron__mlir_p_attr_dict_into(p, b, 0))
        return -1;
    if (iron__mlir_p_expect(p, IRON__TK_COLON, "':' and the op's type"))
        return -1;
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_type *ft;
    if (iron__mlir_p_type(p, &ft))
        return -1;
    if (ft->kind != IRON__MT_FUNCTION)
        return iron__mlir_p_fail(p, tloc,
                                 "expected a function type (operand types) "
                                 "-> (result types)");
    if (ft->nin != b->noperands)
        return iron__mlir_p_fail(p, tloc,
                                 "the type lists %d operand%s, the op has "
                                 "%d",
                                 ft->nin, ft->nin == 1 ? "" : "s",
                                 b->noperands);
    for (int i = 0; i < ft->nin; i++)
        if (iron__mlir_p_check_type(p, b->operands[i], b->operand_locs[i],
                                    ft->in[i]))
            return -1;
    for (int i = 0; i < ft->nout; i++)
        if (iron__mlir_opb_rtype(p, b, ft->out[i]))
            return -1;
    return 0;
}


static int by_name(const void *a, const void *b)
{
    return strcmp((*(const iron__mlir_named *const *)a)->name,
                  (*(const iron__mlir_named *const *)b)->name);
}

/* An attribute given twice (sorting: an op may have many). */
static int check_duplicates(iron__mlir_parser *p, iron__mlir_opb *b)
{
    if (b->nattrs < 2)
        return 0;
    const iron__mlir_named **v =
        iron__malloc((size_t)b->nattrs * sizeof *v);
    if (!v)
        return iron__mlir_p_nomem(p);
    for (int i = 0; i < b->nattrs; i++)
        v[i] = &b->attrs[i];
    qsort(v, (size_t)b->nattrs, sizeof *v, by_name);
    const iron__mlir_named *dup = NULL;
    for (int i = 1; i < b->nattrs && !dup; i++)
        if (strcmp(v[i - 1]->name, v[i]->name) == 0)
            dup = v[i - 1] > v[i] ? v[i - 1] : v[i];
    iron__free(v);
    if (dup)
        return iron__mlir_p_fail(p, dup->attr ? dup->attr->loc : b->op->loc,
                                 "attribute '%.64s' given twice", dup->name);
    return 0;
}

static int finish_op(iron__mlir_parser *p, iron__mlir_opb *b,
                     const result_name *rs, int nrs, long total)
{
    iron__mlir_op *op = b->op;
    if (check_duplicates(p, b))
        return -1;
    if (nrs == 0 && b->nrtypes > 0) {
        /* results nobody names */
        op->nresults = b->nrtypes;
    } else if (total != b->nrtypes) {
        iron__mlir_loc loc = nrs ? rs[0].loc : op->loc;
        return iron__mlir_p_fail(p, loc,
                                 "%ld result name%s for an op with %d "
                                 "result%s",
                                 total, total == 1 ? "" : "s", b->nrtypes,
                                 b->nrtypes == 1 ? "" : "s");
    }
    op->noperands = b->noperands;
    op->operands = b->operands;
    op->nattrs = b->nattrs;
    op->attrs = b->attrs;
    op->nregions = b->nregions;
    op->regions = b->regions;
    op->nsucc = b->nsucc;
    op->succ = b->succ;
    op->nresults = b->nrtypes;
    if (nrs == 0) {
        if (op->nresults) {
            op->results = iron__mlir_alloc(p->m, (size_t)op->nresults *
                                                     sizeof(int));
            if (!op->results)
                return iron__mlir_p_nomem(p);
        }
        for (int k = 0; k < op->nresults; k++) {
            if (p->m->nvalues >= IRON__MLIR_MAX_VALUES)
                return iron__mlir_p_fail(p, op->loc, "more than %d values",
                                         IRON__MLIR_MAX_VALUES);
            int id = iron__mlir_value_new(p->m, NULL, b->rtypes[k], op, k,
                                          op->loc);
            if (id < 0)
                return iron__mlir_p_nomem(p);
            op->results[k] = id;
        }
        return op->opaque ? 0 : iron__mlir_fmt_normalise(p, op);
    }
    if (op->nresults) {
        op->results = iron__mlir_alloc(p->m,
                                       (size_t)op->nresults * sizeof(int));
        if (!op->results)
            return iron__mlir_p_nomem(p);
    }
    int k = 0;
    for (int i = 0; i < nrs; i++) {
        for (long j = 0; j < rs[i].count; j++, k++) {
            char *nm;
            if (rs[i].count == 1) {
                nm = iron__mlir_strndup(p->m, rs[i].p, rs[i].n);
            } else {
                char num[24];
                int d = snprintf(num, sizeof num, "#%ld", j);
                nm = iron__mlir_alloc(p->m, rs[i].n + (size_t)d + 1);
                if (nm) {
                    memcpy(nm, rs[i].p, rs[i].n);
                    memcpy(nm + rs[i].n, num, (size_t)d + 1);
                }
            }
            if (!nm)
                return iron__mlir_p_nomem(p);
            int id = define_value(p, nm, rs[i].loc, b->rtypes[k], op, k);
            if (id < 0)
                return -1;
            op->results[k] = id;
        }
    }
    return op->opaque ? 0 : iron__mlir_fmt_normalise(p, op);
}

/* The most results an opaque op may name: its text states no types, so
 * "%x:N = d.op" would otherwise make N values from a few bytes. */
#define OPAQUE_MAX_RESULTS 1024

/* Whether a bare op name is dialect.op: a dot with a word on each side. */
static int dotted(const iron__mlir_token *t)
{
    const char *dot = memchr(t->p, '.', t->n);
    return dot && dot > t->p && dot < t->p + t->n - 1;
}

/* The closer of an opener token, or EOF when k opens nothing. */
static iron__mlir_tok closer_of(iron__mlir_tok k)
{
    switch (k) {
    case IRON__TK_LPAREN: return IRON__TK_RPAREN;
    case IRON__TK_LBRACKET: return IRON__TK_RBRACKET;
    case IRON__TK_LBRACE: return IRON__TK_RBRACE;
    case IRON__TK_LESS: return IRON__TK_GREATER;
    default: return IRON__TK_EOF;
    }
}

static int is_closer(iron__mlir_tok k)
{
    return k == IRON__TK_RPAREN || k == IRON__TK_RBRACKET ||
           k == IRON__TK_RBRACE || k == IRON__TK_GREATER;
}

/* A custom-form op the parser does not know, its name the current token:
 * kept opaque (ast.h).  Its tokens are consumed while any bracket is
 * open and, once all are closed, up to the end of that line; a closer
 * with none open ends it unconsumed (the '}' of the enclosing region on
 * the same line).  Brackets must match and close before the text ends.
 * The `total` results named before '=' get the unknown type.  No
 * recursion: the open brackets are an array, as deep as the parser's
 * nesting limit. */
static int skip_opaque(iron__mlir_parser *p, iron__mlir_opb *b, long total)
{
    iron__mlir_op *op = b->op;
    if (!dotted(&p->tok))
        return iron__mlir_p_fail(p, op->loc,
                                 "'%.64s' is not an op name (dialect.op, "
                                 "or module, func, call, return)",
                                 op->name);
    if (total > OPAQUE_MAX_RESULTS)
        return iron__mlir_p_fail(p, op->loc,
                                 "%ld results for op '%.64s', whose custom "
                                 "form is not known (at most %d)",
                                 total, op->name, OPAQUE_MAX_RESULTS);
    op->opaque = 1;
    iron__mlir_tok open[IRON__MLIR_MAX_DEPTH];
    int n = 0;
    const char *text = p->lx.text;
    size_t end = iron__mlir_p_offset(p) + p->tok.n;   /* of the last token */
    if (iron__mlir_p_next(p))
        return -1;
    for (;;) {
        iron__mlir_tok k = p->tok.kind;
        if (k == IRON__TK_EOF) {
            if (n == 0)
                break;
            return iron__mlir_p_expected(p, iron__mlir_tok_name(open[n - 1]));
        }
        if (n == 0) {
            size_t at = iron__mlir_p_offset(p);
            if (is_closer(k) || memchr(text + end, '\n', at - end))
                break;
        }
        iron__mlir_tok c = closer_of(k);
        if (c != IRON__TK_EOF) {
            if (n >= IRON__MLIR_MAX_DEPTH)
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "nesting deeper than %d (regions, "
                                         "types and attributes)",
                                         IRON__MLIR_MAX_DEPTH);
            open[n++] = c;
        } else if (is_closer(k)) {
            if (k != open[n - 1])
                return iron__mlir_p_expected(p,
                                             iron__mlir_tok_name(open[n - 1]));
            n--;
        }
        end = iron__mlir_p_offset(p) + p->tok.n;
        if (iron__mlir_p_next(p))
            return -1;
    }
    if (total == 0)
        return 0;
    iron__mlir_type *t = iron__mlir_alloc(p->m, sizeof *t);
    if (!t)
        return iron__mlir_p_nomem(p);
    t->kind = IRON__MT_OPAQUE;
    for (long i = 0; i < total; i++)
        if (iron__mlir_opb_rtype(p, b, t))
            return -1;
    return 0;
}

static int parse_op(iron__mlir_parser *p, iron__mlir_op *parent,
                    region_ctx *rc, iron__mlir_op **out)
{
    result_name *rs = NULL;
    int nrs = 0;
    long total = 0;
    if (p->tok.kind == IRON__TK_VALUE &&
        parse_results(p, &rs, &nrs, &total))
        return -1;
    iron__mlir_opb b;
    memset(&b, 0, sizeof b);
    b.op = iron__mlir_alloc(p->m, sizeof *b.op);
    if (!b.op)
        return iron__mlir_p_nomem(p);
    iron__mlir_op *op = b.op;
    op->parent = parent;
    op->loc = p->tok.loc;
    if (count_op(p, op->loc))
        return -1;
    const char *saved_name = p->opname;
    iron__mlir_loc saved_loc = p->oploc;
    if (p->tok.kind == IRON__TK_STRING) {
        op->name = iron__mlir_p_string(p);
        if (!op->name)
            return -1;
        if (!op->name[0])
            return iron__mlir_p_fail(p, op->loc, "an op needs a name");
        p->opname = op->name;
        p->oploc = op->loc;
        if (iron__mlir_p_next(p) || parse_generic(p, &b, rc))
            return -1;
    } else if (p->tok.kind == IRON__TK_BARE) {
        const char *full = iron__mlir_op_unalias(p->tok.p, p->tok.n);
        op->name = full ? iron__mlir_strdup(p->m, full)
                        : iron__mlir_p_tokdup(p);
        if (!op->name)
            return iron__mlir_p_nomem(p);
        p->opname = op->name;
        p->oploc = op->loc;
        const iron__mlir_opdef *def = iron__mlir_opdef_find(op->name);
        if (def && def->format
                ? iron__mlir_p_next(p) || iron__mlir_fmt_parse(p, &b, def)
                : skip_opaque(p, &b, total))
            return -1;
    } else {
        return iron__mlir_p_expected(p, "an op");
    }
    if (iron__mlir_p_opt_loc(p))
        return -1;
    if (finish_op(p, &b, rs, nrs, total))
        return -1;
    p->opname = saved_name;
    p->oploc = saved_loc;
    *out = op;
    return 0;
}

/* ---------------------------------------------------------------------
 * Top level
 * --------------------------------------------------------------------- */

/* A token after the current one, without consuming anything. */
static int peek(iron__mlir_parser *p, iron__mlir_token *t)
{
    iron__mlir_lexer lx = p->lx;
    if (iron__mlir_lex_next(&lx, t))
        return iron__mlir_p_next(p);   /* the same error, with context */
    return 0;
}

const iron__mlir_alias *iron__mlir_p_alias(const iron__mlir_parser *p,
                                           const char *name, size_t n)
{
    int d = find(p, name, n);
    return d >= 0 ? &p->aliases[p->defs[d].id] : NULL;
}

static int alias_def(iron__mlir_parser *p)
{
    iron__mlir_token name = p->tok;
    if (iron__mlir_p_alias(p, name.p, name.n))
        return iron__mlir_p_fail(p, name.loc, "alias %.*s defined twice",
                                 (int)(name.n > 64 ? 64 : name.n),
                                 name.p);
    if (iron__mlir_p_next(p) || iron__mlir_p_next(p))   /* name, '=' */
        return -1;
    iron__mlir_alias a = { name.p, name.n, NULL, NULL };
    if (name.kind == IRON__TK_HASH) {
        if (iron__mlir_p_is_word(p, "loc")) {
            /* #loc = loc(...): locations are dropped */
            return iron__mlir_p_next(p) || iron__mlir_p_skip_parens(p);
        }
        if (iron__mlir_p_attr(p, &a.attr))
            return -1;
    } else if (iron__mlir_p_type(p, &a.type)) {
        return -1;
    }
    /* the names ("#map", "!t") are hashed with the values and labels;
     * their sigils keep them apart */
    char *key = iron__mlir_strndup(p->m, name.p, name.n);
    if (!key)
        return iron__mlir_p_nomem(p);
    if (iron__mlir_p_grow(p, (void **)&p->aliases, &p->cap_aliases,
                          p->naliases + 1, sizeof *p->aliases) ||
        push_def(p, key, p->naliases, NULL))
        return -1;
    p->aliases[p->naliases++] = a;
    return 0;
}

static int new_module_op(iron__mlir_parser *p, iron__mlir_opb *b)
{
    memset(b, 0, sizeof *b);
    b->op = iron__mlir_alloc(p->m, sizeof *b->op);
    if (!b->op)
        return iron__mlir_p_nomem(p);
    b->op->name = iron__mlir_strdup(p->m, "builtin.module");
    if (!b->op->name)
        return iron__mlir_p_nomem(p);
    b->op->loc.line = b->op->loc.col = 1;
    return 0;
}

static int parse_top(iron__mlir_parser *p)
{
    iron__mlir_opb b;
    if (new_module_op(p, &b))
        return -1;
    iron__mlir_region *r;
    if (add_region(p, &b, &r))
        return -1;
    int saved, cap_blocks = 0;
    push_scope(p, 1, &saved);
    block_b bb = { 0 };
    region_ctx rc = { 0 };
    if (new_block(p, r, &cap_blocks, &bb))
        return -1;
    while (p->tok.kind != IRON__TK_EOF) {
        if (p->tok.kind == IRON__TK_HASH || p->tok.kind == IRON__TK_BANG) {
            iron__mlir_token t;
            if (peek(p, &t))
                return -1;
            if (t.kind == IRON__TK_EQUAL) {
                if (alias_def(p))
                    return -1;
                continue;
            }
        }
        iron__mlir_op *op;
        if (parse_op(p, b.op, &rc, &op) || block_add_op(p, &bb, op))
            return -1;
    }
    if (rc.nrefs)
        return iron__mlir_p_fail(p, rc.refs[0].loc,
                                 "a successor outside any region");
    pop_scope(p, saved);
    iron__mlir_block *blk = bb.blk;
    if (blk->nops == 1 &&
        strcmp(blk->ops[0]->name, "builtin.module") == 0) {
        p->m->top = blk->ops[0];
        p->m->top->parent = NULL;
        return 0;
    }
    b.op->nregions = b.nregions;
    b.op->regions = b.regions;
    for (int i = 0; i < blk->nops; i++)
        blk->ops[i]->parent = b.op;
    p->m->top = b.op;
    return 0;
}

/* The line and column of byte offset `at`. */
static iron__mlir_loc loc_of(const char *text, size_t at)
{
    iron__mlir_loc l = { 1, 1 };
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            l.line++;
            l.col = 1;
        } else {
            l.col++;
        }
    }
    return l;
}

iron_status iron__mlir_parse(const char *text, size_t len, const char *file,
                             iron__mlir_module **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron__mlir_parse: out is NULL");
    *out = NULL;
    if (!file)
        file = "<mlir>";
    if (!text && len)
        return iron__fail(IRON_EINVAL, "%s: text is NULL", file);
    if (len > IRON__MLIR_MAX_TEXT)
        return iron__fail(IRON_ESYNTAX,
                          "%s:1:1: the text is %zu bytes, more than the "
                          "limit of %u",
                          file, len, IRON__MLIR_MAX_TEXT);
    const char *nul = len ? memchr(text, '\0', len) : NULL;
    if (nul) {
        iron__mlir_loc l = loc_of(text, (size_t)(nul - text));
        return iron__fail(IRON_ESYNTAX,
                          "%s:%d:%d: a NUL byte: binary data, not MLIR "
                          "text",
                          file, l.line, l.col);
    }
    iron__mlir_parser p;
    memset(&p, 0, sizeof p);
    p.m = iron__mlir_module_new();
    if (!p.m)
        return iron__fail(IRON_ENOMEM, "%s: out of memory while parsing "
                                       "MLIR",
                          file);
    p.file = file;
    p.barrier = 0;
    iron__mlir_lex_init(&p.lx, text ? text : "", len, file);
    if (iron__mlir_p_next(&p) == 0)
        parse_top(&p);
    iron__free(p.defs);
    iron__free(p.buckets);
    if (p.st != IRON_OK) {
        iron__mlir_module_free(p.m);
        return p.st;
    }
    *out = p.m;
    return IRON_OK;
}
