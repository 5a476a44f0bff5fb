/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * format.c - the custom forms of ops.h run both ways: one format string
 * per op parsed by iron__mlir_fmt_parse and printed by
 * iron__mlir_fmt_print, so what is read and what is written cannot
 * drift apart.  Printing is first done dry (nothing written) to learn
 * whether the op fits its form; an op that does not is printed in the
 * generic form instead.
 */
#include <stdlib.h>
#include <string.h>

#include "mlir/ops.h"

/* ---------------------------------------------------------------------
 * Format elements
 * --------------------------------------------------------------------- */

typedef enum ekind {
    E_END,
    E_PUNCT,        /* ( ) [ ] { } , : -> = */
    E_WORD,         /* 'to' */
    E_ATTR,         /* $name:kind */
    E_OPERAND,      /* %N[:c] */
    E_OPERANDS,     /* %N* */
    E_TYPE,         /* type(%N) */
    E_TYPES,        /* type(%N*) */
    E_RTYPE,
    E_RTYPES,
    E_ATTRS,
    E_ATTRIBUTES,
    E_REGION,
    E_DIRECTIVE,    /* @name */
    E_OPEN,         /* ?( */
    E_CLOSE         /* )? */
} ekind;

typedef struct elem {
    ekind k;
    const char *p;           /* the element's text */
    size_t n;
    iron__mlir_tok tok;      /* E_PUNCT */
    char name[48];           /* E_ATTR: the attribute; E_WORD: the word */
    char kind[8];            /* E_ATTR: i32 ...; E_OPERAND: index, i1, r */
    int index;               /* E_OPERAND(S), E_TYPE(S) */
    const iron__mlir_directive *dir;
} elem;

static const struct {
    const char *text;
    iron__mlir_tok tok;
} puncts[] = {
    { "(", IRON__TK_LPAREN }, { ")", IRON__TK_RPAREN },
    { "[", IRON__TK_LBRACKET }, { "]", IRON__TK_RBRACKET },
    { "{", IRON__TK_LBRACE }, { "}", IRON__TK_RBRACE },
    { ",", IRON__TK_COMMA }, { ":", IRON__TK_COLON },
    { "->", IRON__TK_ARROW }, { "=", IRON__TK_EQUAL },
};

static int is_text(const elem *e, const char *s)
{
    return e->n == strlen(s) && memcmp(e->p, s, e->n) == 0;
}

static void copy_name(char *dst, size_t cap, const char *p, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, p, n);
    dst[n] = '\0';
}

/* The element starting at *f (spaces skipped), *f moved past it.  The
 * formats are the registry's own strings: a malformed one is a bug the
 * registry test catches (every entry is printed and parsed there). */
static elem next_elem(const char **f)
{
    elem e;
    memset(&e, 0, sizeof e);
    const char *s = *f;
    while (*s == ' ')
        s++;
    if (!*s) {
        *f = s;
        return e;
    }
    const char *t = s;
    while (*t && *t != ' ')
        t++;
    *f = t;
    e.p = s;
    e.n = (size_t)(t - s);
    if (is_text(&e, "?(")) {
        e.k = E_OPEN;
    } else if (is_text(&e, ")?")) {
        e.k = E_CLOSE;
    } else if (*s == '\'') {
        e.k = E_WORD;
        copy_name(e.name, sizeof e.name, s + 1, e.n > 2 ? e.n - 2 : 0);
    } else if (*s == '$') {
        const char *colon = memchr(s, ':', e.n);
        e.k = E_ATTR;
        copy_name(e.name, sizeof e.name, s + 1,
                  colon ? (size_t)(colon - s - 1) : e.n - 1);
        if (colon)
            copy_name(e.kind, sizeof e.kind, colon + 1,
                      (size_t)(t - colon - 1));
    } else if (*s == '%') {
        e.index = atoi(s + 1);
        const char *colon = memchr(s, ':', e.n);
        e.k = t[-1] == '*' ? E_OPERANDS : E_OPERAND;
        if (colon)
            copy_name(e.kind, sizeof e.kind, colon + 1,
                      (size_t)(t - colon - 1));
    } else if (*s == '@') {
        e.k = E_DIRECTIVE;
        e.dir = iron__mlir_directive_find(s + 1, e.n - 1);
    } else if (e.n > 6 && memcmp(s, "type(%", 6) == 0) {
        e.index = atoi(s + 6);
        e.k = t[-2] == '*' ? E_TYPES : E_TYPE;
    } else if (is_text(&e, "rtype")) {
        e.k = E_RTYPE;
    } else if (is_text(&e, "rtypes")) {
        e.k = E_RTYPES;
    } else if (is_text(&e, "attrs")) {
        e.k = E_ATTRS;
    } else if (is_text(&e, "attributes")) {
        e.k = E_ATTRIBUTES;
    } else if (is_text(&e, "region")) {
        e.k = E_REGION;
    } else {
        e.k = E_PUNCT;
        for (size_t i = 0; i < IRON__COUNT_OF(puncts); i++)
            if (is_text(&e, puncts[i].text))
                e.tok = puncts[i].tok;
    }
    return e;
}

const iron__mlir_directive *iron__mlir_directive_find(const char *name,
                                                      size_t n)
{
    const struct {
        const iron__mlir_directive *v;
        int n;
    } tables[] = {
        { iron__mlir_directives_aie, iron__mlir_ndirectives_aie },
        { iron__mlir_directives_std, iron__mlir_ndirectives_std },
    };
    for (size_t t = 0; t < IRON__COUNT_OF(tables); t++)
        for (int i = 0; i < tables[t].n; i++)
            if (strlen(tables[t].v[i].name) == n &&
                memcmp(tables[t].v[i].name, name, n) == 0)
                return &tables[t].v[i];
    return NULL;
}

/* Skips past the ')?' that closes the group whose '?(' was just read. */
static void skip_group(const char **f)
{
    int depth = 1;
    for (;;) {
        elem e = next_elem(f);
        if (e.k == E_END)
            return;
        if (e.k == E_OPEN)
            depth++;
        if (e.k == E_CLOSE && --depth == 0)
            return;
    }
}

/* The first attribute or operand (or operand's type) of the group at f. */
static elem group_anchor(const char *f)
{
    for (;;) {
        elem e = next_elem(&f);
        if (e.k == E_END || e.k == E_CLOSE || e.k == E_ATTR ||
            e.k == E_OPERAND || e.k == E_OPERANDS || e.k == E_TYPE)
            return e;
    }
}

/* ---------------------------------------------------------------------
 * Shared helpers
 * --------------------------------------------------------------------- */

const iron__mlir_type *iron__mlir_vtype(const iron__mlir_module *m, int id)
{
    const iron__mlir_value *v = iron__mlir_value_at(m, id);
    return v ? v->type : NULL;
}

int iron__mlir_is_index(const iron__mlir_type *t)
{
    return t && t->kind == IRON__MT_INDEX;
}

int iron__mlir_is_int(const iron__mlir_type *t, int width)
{
    return t && t->kind == IRON__MT_INT && t->width == width && t->sign == 0;
}

static int typed_int(const iron__mlir_attr *a, int width, int sign)
{
    return a && a->kind == IRON__MA_INT && a->type &&
           a->type->kind == IRON__MT_INT && a->type->width == width &&
           a->type->sign == sign;
}

int iron__mlir_i32_ok(const iron__mlir_attr *a)
{
    return typed_int(a, 32, 0) && a->i >= INT32_MIN &&
           a->i <= (int64_t)UINT32_MAX;
}

int iron__mlir_ui32_ok(const iron__mlir_attr *a)
{
    return typed_int(a, 32, 2) && a->i >= 0 && a->i <= (int64_t)UINT32_MAX;
}

int iron__mlir_all_of(const iron__mlir_attr *a, iron__mlir_akind k,
                      iron__mlir_akind item)
{
    if (!a || a->kind != k)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (!a->items[i] || a->items[i]->kind != item)
            return 0;
    return 1;
}

void iron__mlir_pr_dims(iron__mlir_pr *w, const iron__mlir_attr *a)
{
    iron__mlir_pr_out(w, "[");
    for (int i = 0; i < a->n; i++)
        iron__mlir_pr_outf(w, "%s<size = %lld, stride = %lld>",
                           i ? ", " : "", (long long)a->items[i]->i,
                           (long long)a->items[i]->stride);
    iron__mlir_pr_out(w, "]");
}

void iron__mlir_pr_ints(iron__mlir_pr *w, const iron__mlir_attr *a)
{
    iron__mlir_pr_out(w, "[");
    for (int i = 0; i < a->n; i++)
        iron__mlir_pr_outf(w, "%s%lld", i ? ", " : "",
                           (long long)a->items[i]->i);
    iron__mlir_pr_out(w, "]");
}

void iron__mlir_pr_word(iron__mlir_pr *w, const iron__mlir_attr *a)
{
    if (a->kind == IRON__MA_KEYWORD && iron__mlir_pr_is_bare(a->s)) {
        iron__mlir_pr_out(w, a->s);
    } else {
        iron__mlir_attr s = *a;
        s.kind = IRON__MA_STR;
        iron__mlir_pr_attr(w, &s, NULL, NULL);
    }
}

iron__mlir_attr *iron__mlir_p_add(iron__mlir_parser *p, iron__mlir_opb *b,
                                  const char *name, iron__mlir_akind k,
                                  iron__mlir_loc loc)
{
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, k);
    if (!a)
        return NULL;
    a->loc = loc;
    return iron__mlir_opb_attr(p, b, name, a, loc) ? NULL : a;
}

int iron__mlir_p_set(iron__mlir_parser *p, iron__mlir_op *op,
                     const char *name, iron__mlir_attr *a)
{
    if (!a)
        return -1;
    for (int i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0) {
            op->attrs[i].attr = a;
            return 0;
        }
    iron__mlir_named *n = iron__mlir_alloc(p->m, (size_t)(op->nattrs + 1) *
                                                     sizeof *n);
    char *nm = iron__mlir_strdup(p->m, name);
    if (!n || !nm)
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

/* ---------------------------------------------------------------------
 * Printing
 * --------------------------------------------------------------------- */

enum { LAST_START, LAST_OPEN, LAST_VALUE, LAST_OTHER };

typedef struct pstate {
    iron__mlir_pr *w;
    const iron__mlir_op *op;
    iron__mlir_fctx c;
    int last;
    int region;
    int operands;            /* operands the format printed up to */
    int trailing_empty;      /* the %N* printed no operand */
    int results;             /* the format printed the results' types */
    const char *skip[24];    /* attributes the format writes */
    int nskip;
} pstate;

static void space_before(pstate *s, const elem *e)
{
    int none = s->last == LAST_OPEN;
    if (e->k == E_PUNCT &&
        (e->tok == IRON__TK_RPAREN || e->tok == IRON__TK_RBRACKET ||
         e->tok == IRON__TK_COMMA || e->tok == IRON__TK_LPAREN ||
         (e->tok == IRON__TK_LBRACKET && s->last == LAST_VALUE)))
        none = 1;
    if (!none)
        iron__mlir_pr_out(s->w, " ");
}

static int attr_fits(const iron__mlir_attr *a, const char *kind)
{
    if (!a)
        return 0;
    if (strcmp(kind, "i32") == 0)
        return iron__mlir_i32_ok(a);
    if (strcmp(kind, "ui32") == 0)
        return iron__mlir_ui32_ok(a);
    if (strcmp(kind, "i64") == 0)
        return typed_int(a, 64, 0);
    if (strcmp(kind, "kw") == 0)
        return a->kind == IRON__MA_KEYWORD || a->kind == IRON__MA_STR;
    if (strcmp(kind, "ref") == 0)
        return a->kind == IRON__MA_SYMREF;
    if (strcmp(kind, "sym") == 0)
        return a->kind == IRON__MA_STR;
    if (strcmp(kind, "refs") == 0)
        return iron__mlir_all_of(a, IRON__MA_ARRAY, IRON__MA_SYMREF);
    if (strcmp(kind, "ints") == 0)
        return iron__mlir_all_of(a, IRON__MA_ARRAY, IRON__MA_INT);
    if (strcmp(kind, "type") == 0)
        return a->kind == IRON__MA_TYPE && a->type;
    return 1;                /* attr */
}

static void print_attr(pstate *s, const iron__mlir_attr *a, const char *kind,
                       const char *name)
{
    iron__mlir_pr *w = s->w;
    if (kind[0] == 'i' && kind[1] != 'n') {        /* i32, i64 */
        iron__mlir_pr_outf(w, "%lld", (long long)a->i);
    } else if (strcmp(kind, "ui32") == 0) {
        iron__mlir_pr_outf(w, "%lld", (long long)a->i);
    } else if (strcmp(kind, "kw") == 0) {
        iron__mlir_pr_word(w, a);
    } else if (strcmp(kind, "ref") == 0) {
        iron__mlir_pr_symbol(w, a->s);
    } else if (strcmp(kind, "sym") == 0) {
        iron__mlir_pr_symdef(w, a->s);
    } else if (strcmp(kind, "refs") == 0) {
        iron__mlir_pr_out(w, "[");
        for (int i = 0; i < a->n; i++) {
            if (i)
                iron__mlir_pr_out(w, ", ");
            iron__mlir_pr_symbol(w, a->items[i]->s);
        }
        iron__mlir_pr_out(w, "]");
    } else if (strcmp(kind, "ints") == 0) {
        iron__mlir_pr_ints(w, a);
    } else if (strcmp(kind, "type") == 0) {
        iron__mlir_pr_type(w, a->type);
    } else {
        iron__mlir_pr_attr(w, a, s->op->name, name);
    }
}

static int operand_fits(const pstate *s, int i, const char *kind)
{
    const iron__mlir_op *op = s->op;
    if (i >= op->noperands)
        return 0;
    const iron__mlir_type *t = iron__mlir_vtype(s->w->m, op->operands[i]);
    if (strcmp(kind, "index") == 0)
        return iron__mlir_is_index(t);
    if (strcmp(kind, "i1") == 0)
        return iron__mlir_is_int(t, 1);
    if (strcmp(kind, "r") == 0)
        return op->nresults == 1 &&
               iron__mlir_type_equal(
                   t, iron__mlir_vtype(s->w->m, op->results[0]));
    return 1;
}

/* Whether the group's anchor is in the op. */
static int group_present(const pstate *s, const elem *a)
{
    switch (a->k) {
    case E_ATTR:
        return iron__mlir_attr_get(s->op, a->name) != NULL;
    case E_OPERAND:
    case E_OPERANDS:
    case E_TYPE:
        return s->op->noperands > a->index;
    default:
        return 0;
    }
}

/* Attributes the format writes itself, left out of `attrs`. */
static void collect_skips(pstate *s, const char *f)
{
    for (;;) {
        elem e = next_elem(&f);
        if (e.k == E_END)
            break;
        const char *const *names = NULL;
        if (e.k == E_DIRECTIVE && e.dir)
            names = e.dir->attrs;
        if (e.k == E_ATTR && s->nskip < (int)IRON__COUNT_OF(s->skip) - 1) {
            const iron__mlir_attrdef *d =
                iron__mlir_attrdef_find(s->c.def, e.name);
            /* the registry's own name (a static string) */
            if (d)
                s->skip[s->nskip++] = d->name;
        }
        for (; names && *names; names++)
            if (s->nskip < (int)IRON__COUNT_OF(s->skip) - 1)
                s->skip[s->nskip++] = *names;
    }
}

/* Whether an attribute is at the value the custom form leaves out. */
static int at_default(const iron__mlir_attr *a, const char *dflt)
{
    if (!a || !dflt)
        return 0;
    if (a->kind == IRON__MA_BOOL)
        return strcmp(dflt, a->i ? "true" : "false") == 0;
    if (a->kind == IRON__MA_INT)
        return a->i == strtoll(dflt, NULL, 10);
    return 0;
}

static void print_attrs(pstate *s, int keyword)
{
    const char *skip[64];
    int n = 0;
    for (int i = 0; i < s->nskip; i++)
        if (!s->c.keep || strcmp(s->skip[i], s->c.keep) != 0)
            skip[n++] = s->skip[i];
    for (const iron__mlir_attrdef *d = s->c.def->attrs; d && d->name; d++)
        if (n < (int)IRON__COUNT_OF(skip) - 1 &&
            at_default(iron__mlir_attr_get(s->op, d->name), d->dflt))
            skip[n++] = d->name;
    skip[n] = NULL;
    int left = 0;
    for (int i = 0; i < s->op->nattrs && !left; i++) {
        int k = 0;
        while (k < n && strcmp(skip[k], s->op->attrs[i].name) != 0)
            k++;
        left = k == n;
    }
    if (!left)
        return;
    if (keyword)
        iron__mlir_pr_out(s->w, " attributes");
    iron__mlir_pr_attr_dict(s->w, s->op, skip);
}

static int print_elems(pstate *s, const char *f);

static int print_one(pstate *s, const elem *e, const char **f)
{
    iron__mlir_pr *w = s->w;
    const iron__mlir_op *op = s->op;
    switch (e->k) {
    case E_END:
    case E_CLOSE:
        return 0;
    case E_PUNCT:
        space_before(s, e);
        iron__mlir_pr_outf(w, "%.*s", (int)e->n, e->p);
        s->last = e->tok == IRON__TK_LPAREN || e->tok == IRON__TK_LBRACKET
                      ? LAST_OPEN
                      : LAST_OTHER;
        return 0;
    case E_WORD:
        space_before(s, e);
        iron__mlir_pr_out(w, e->name);
        s->last = LAST_OTHER;
        return 0;
    case E_ATTR: {
        const iron__mlir_attr *a = iron__mlir_attr_get(op, e->name);
        if (!attr_fits(a, e->kind))
            return -1;
        space_before(s, e);
        print_attr(s, a, e->kind, e->name);
        s->last = strcmp(e->kind, "ref") == 0 || strcmp(e->kind, "sym") == 0
                      ? LAST_VALUE
                      : LAST_OTHER;
        return 0;
    }
    case E_OPERAND:
        if (e->index != s->operands || !operand_fits(s, e->index, e->kind))
            return -1;
        space_before(s, e);
        iron__mlir_pr_value(w, op->operands[e->index]);
        s->operands++;
        s->last = LAST_VALUE;
        return 0;
    case E_OPERANDS:
        if (e->index != s->operands)
            return -1;
        if (op->noperands > e->index) {
            space_before(s, e);
            iron__mlir_pr_values(w, op->operands + e->index,
                                 op->noperands - e->index);
            s->last = LAST_VALUE;
        }
        s->operands = op->noperands;
        s->trailing_empty = op->noperands <= e->index;
        return 0;
    case E_TYPE:
        if (e->index >= op->noperands)
            return -1;
        space_before(s, e);
        iron__mlir_pr_type(w, iron__mlir_vtype(w->m, op->operands[e->index]));
        s->last = LAST_OTHER;
        return 0;
    case E_TYPES:
        if (op->noperands > e->index) {
            space_before(s, e);
            iron__mlir_pr_value_types(w, op->operands + e->index,
                                      op->noperands - e->index);
        }
        s->last = LAST_OTHER;
        return 0;
    case E_RTYPE:
    case E_RTYPES:
        if (op->nresults < 1 || (e->k == E_RTYPE && op->nresults != 1))
            return -1;
        space_before(s, e);
        iron__mlir_pr_value_types(w, op->results, op->nresults);
        s->results = 1;
        s->last = LAST_OTHER;
        return 0;
    case E_ATTRS:
    case E_ATTRIBUTES:
        print_attrs(s, e->k == E_ATTRIBUTES);
        s->last = LAST_OTHER;
        return 0;
    case E_REGION:
        if (s->region >= op->nregions)
            return -1;
        iron__mlir_pr_out(w, " ");
        iron__mlir_pr_region(w, op->regions[s->region++],
                             s->c.args_given ? 0 : 1, s->c.def->term);
        s->last = LAST_OTHER;
        return 0;
    case E_DIRECTIVE:
        if (!e->dir || e->dir->print(w, op, &s->c))
            return -1;
        s->last = LAST_OTHER;
        return 0;
    case E_OPEN: {
        const char *inner = *f;
        elem a = group_anchor(inner);
        skip_group(f);
        if (!group_present(s, &a)) {
            if (a.k == E_OPERANDS)
                s->trailing_empty = 1;
            return 0;
        }
        return print_elems(s, inner);
    }
    }
    return -1;
}

/* Elements up to the end of f or of the group f is in. */
static int print_elems(pstate *s, const char *f)
{
    for (;;) {
        elem e = next_elem(&f);
        if (e.k == E_END || e.k == E_CLOSE)
            return 0;
        if (print_one(s, &e, &f))
            return -1;
    }
}

/* Whether op sits in a func.func (before any module): func's ops go by
 * their aliases there, as MLIR's default dialect makes them. */
static int in_func(const iron__mlir_op *op)
{
    for (const iron__mlir_op *p = op->parent; p; p = p->parent) {
        if (strcmp(p->name, "func.func") == 0)
            return 1;
        if (strcmp(p->name, "builtin.module") == 0)
            return 0;
    }
    return 0;
}

static const char *print_name(const iron__mlir_op *op,
                              const iron__mlir_opdef *d)
{
    if (!d->alias)
        return op->name;
    if (strcmp(op->name, "builtin.module") == 0)
        return d->alias;
    if (strncmp(op->name, "func.", 5) == 0 &&
        strcmp(op->name, "func.func") != 0 && in_func(op))
        return d->alias;
    return op->name;
}

int iron__mlir_fmt_print(iron__mlir_pr *w, const iron__mlir_op *op,
                         const iron__mlir_opdef *d)
{
    if (!d->format || op->nsucc)
        return -1;
    pstate s;
    memset(&s, 0, sizeof s);
    s.w = w;
    s.op = op;
    s.c.def = d;
    collect_skips(&s, d->format);
    iron__mlir_pr_out(w, print_name(op, d));
    if (print_elems(&s, d->format))
        return -1;
    /* a terminator's trailing operands are optional: without them it
     * must end its block */
    if ((d->flags & IRON__OPF_TERMINATOR) && !w->at_end && s.trailing_empty)
        return -1;
    if (s.c.operands_done)
        s.operands = op->noperands;
    if (s.c.results_done)
        s.results = 1;
    if (s.c.regions_done)
        s.region = op->nregions;
    if (s.operands != op->noperands || s.region != op->nregions)
        return -1;
    if (d->flags & IRON__OPF_INDEX)
        return op->nresults == 1 &&
                       iron__mlir_is_index(
                           iron__mlir_vtype(w->m, op->results[0]))
                   ? 0
                   : -1;
    return s.results || op->nresults == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------------
 * Parsing
 * --------------------------------------------------------------------- */

typedef struct xstate {
    iron__mlir_parser *p;
    iron__mlir_opb *b;
    iron__mlir_fctx c;
    int same_as_result[8];   /* operands that have result 0's type */
    iron__mlir_loc same_loc[8];
    int nsame;
} xstate;

static int starts_attr(const iron__mlir_parser *p, const char *kind)
{
    iron__mlir_tok k = p->tok.kind;
    if (kind[0] == 'i' && kind[1] != 'n')
        return k == IRON__TK_INT || k == IRON__TK_MINUS;
    if (strcmp(kind, "ui32") == 0)
        return k == IRON__TK_INT;
    if (strcmp(kind, "kw") == 0)
        return k == IRON__TK_BARE || k == IRON__TK_STRING;
    if (strcmp(kind, "ref") == 0 || strcmp(kind, "sym") == 0)
        return k == IRON__TK_SYM;
    if (strcmp(kind, "refs") == 0 || strcmp(kind, "ints") == 0)
        return k == IRON__TK_LBRACKET;
    if (strcmp(kind, "type") == 0)
        return iron__mlir_p_at_type(p);
    return k != IRON__TK_RPAREN && k != IRON__TK_EOF;
}

static int starts(const iron__mlir_parser *p, const elem *a)
{
    switch (a->k) {
    case E_ATTR:
        return starts_attr(p, a->kind);
    case E_OPERAND:
    case E_OPERANDS:
        return p->tok.kind == IRON__TK_VALUE;
    case E_TYPE:
        return iron__mlir_p_at_type(p);
    default:
        return 0;
    }
}

static iron__mlir_type *int_t(iron__mlir_parser *p, const char *kind)
{
    if (strcmp(kind, "i64") == 0)
        return iron__mlir_p_int_type(p, 64, 0);
    return iron__mlir_p_int_type(p, 32, strcmp(kind, "ui32") == 0 ? 2 : 0);
}

static int parse_attr(xstate *x, const elem *e)
{
    iron__mlir_parser *p = x->p;
    iron__mlir_loc loc = p->tok.loc;
    const char *k = e->kind;
    iron__mlir_attr *a = NULL;
    if ((k[0] == 'i' && k[1] != 'n') || strcmp(k, "ui32") == 0)
        return iron__mlir_p_int_named(p, x->b, e->name, int_t(p, k));
    if (strcmp(k, "kw") == 0) {
        const iron__mlir_attrdef *d = iron__mlir_attrdef_find(x->c.def,
                                                              e->name);
        if (iron__mlir_p_keyword(p, d && d->e ? d->e->what : e->name, &a))
            return -1;
    } else if (strcmp(k, "ref") == 0) {
        if (iron__mlir_p_symref(p, &a))
            return -1;
    } else if (strcmp(k, "sym") == 0) {
        if (p->tok.kind != IRON__TK_SYM)
            return iron__mlir_p_expected(p, "a symbol name (@name)");
        if (!(a = iron__mlir_p_new_attr(p, IRON__MA_STR)) ||
            !(a->s = iron__mlir_p_symname(p)) || iron__mlir_p_next(p))
            return -1;
    } else if (strcmp(k, "refs") == 0) {
        if (!(a = iron__mlir_p_new_attr(p, IRON__MA_ARRAY)) ||
            iron__mlir_p_expect(p, IRON__TK_LBRACKET, "'[' (symbols)") ||
            iron__mlir_p_attr_items(p, a, IRON__TK_RBRACKET, "',' or ']'",
                                    iron__mlir_p_symref))
            return -1;
    } else if (strcmp(k, "ints") == 0) {
        if (iron__mlir_p_int_array(p, &a))
            return -1;
    } else if (strcmp(k, "type") == 0) {
        if (!(a = iron__mlir_p_new_attr(p, IRON__MA_TYPE)) ||
            iron__mlir_p_type(p, &a->type))
            return -1;
    } else if (iron__mlir_p_attr(p, &a)) {
        return -1;
    }
    a->loc = loc;
    return iron__mlir_opb_attr(p, x->b, e->name, a, loc);
}

static int parse_operand(xstate *x, const elem *e)
{
    iron__mlir_parser *p = x->p;
    iron__mlir_type *t = NULL;
    if (strcmp(e->kind, "index") == 0)
        t = iron__mlir_p_index_type(p);
    else if (strcmp(e->kind, "i1") == 0)
        t = iron__mlir_p_int_type(p, 1, 0);
    else if (strcmp(e->kind, "r") == 0 &&
             x->nsame < (int)IRON__COUNT_OF(x->same_as_result)) {
        x->same_loc[x->nsame] = p->tok.loc;
        x->same_as_result[x->nsame++] = x->b->noperands;
    }
    if (e->kind[0] && e->kind[0] != 'r' && !t)
        return -1;
    return iron__mlir_p_operand(p, x->b, t);
}

static int parse_types(xstate *x, const elem *e)
{
    iron__mlir_parser *p = x->p;
    iron__mlir_opb *b = x->b;
    iron__mlir_loc loc = p->tok.loc;
    iron__mlir_type **ts;
    int n;
    int want = b->noperands - e->index;
    if (want <= 0)
        return 0;
    if (iron__mlir_p_type_list(p, &ts, &n))
        return -1;
    if (n != want)
        return iron__mlir_p_fail(p, loc, "%d types for %d values", n, want);
    for (int i = 0; i < n; i++)
        if (iron__mlir_p_check_type(p, b->operands[e->index + i],
                                    b->operand_locs[e->index + i], ts[i]))
            return -1;
    return 0;
}

static int parse_region(xstate *x)
{
    iron__mlir_parser *p = x->p;
    iron__mlir_opb *b = x->b;
    const iron__mlir_opdef *d = x->c.def;
    if (iron__mlir_p_region(p, b, x->c.args, x->c.nargs,
                            (d->flags & IRON__OPF_ISOLATED) != 0))
        return -1;
    iron__mlir_region *r = b->regions[b->nregions - 1];
    x->c.args = NULL;
    x->c.nargs = x->c.cap_args = 0;
    if ((d->flags & IRON__OPF_ONE_BLOCK) &&
        iron__mlir_p_ensure_block(p, r))
        return -1;
    if (d->term &&
        iron__mlir_p_implicit_end(p, r, b->op, d->term, p->tok.loc))
        return -1;
    return 0;
}

static int parse_elems(xstate *x, const char *f);

static int parse_one(xstate *x, const elem *e, const char **f)
{
    iron__mlir_parser *p = x->p;
    switch (e->k) {
    case E_END:
    case E_CLOSE:
        return 0;
    case E_PUNCT:
        return iron__mlir_p_expect(p, e->tok, NULL);
    case E_WORD:
        return iron__mlir_p_expect_word(p, e->name);
    case E_ATTR:
        return parse_attr(x, e);
    case E_OPERAND:
        return parse_operand(x, e);
    case E_OPERANDS:
        return p->tok.kind == IRON__TK_VALUE
                   ? iron__mlir_p_use_list(p, x->b)
                   : 0;
    case E_TYPE: {
        iron__mlir_type *t;
        if (e->index >= x->b->noperands)
            return iron__mlir_p_expected(p, "an operand before its type");
        return iron__mlir_p_type(p, &t) ||
                       iron__mlir_p_check_type(
                           p, x->b->operands[e->index],
                           x->b->operand_locs[e->index], t)
                   ? -1
                   : 0;
    }
    case E_TYPES:
        return parse_types(x, e);
    case E_RTYPE: {
        iron__mlir_type *t;
        return iron__mlir_p_type(p, &t) ||
                       iron__mlir_opb_rtype(p, x->b, t)
                   ? -1
                   : 0;
    }
    case E_RTYPES: {
        iron__mlir_type **ts;
        int n;
        if (iron__mlir_p_type_list(p, &ts, &n))
            return -1;
        for (int i = 0; i < n; i++)
            if (iron__mlir_opb_rtype(p, x->b, ts[i]))
                return -1;
        return 0;
    }
    case E_ATTRS:
        return iron__mlir_p_opt_attr_dict(p, x->b);
    case E_ATTRIBUTES:
        return iron__mlir_p_opt_attributes_kw(p, x->b);
    case E_REGION:
        return parse_region(x);
    case E_DIRECTIVE:
        return e->dir ? e->dir->parse(p, x->b, &x->c)
                      : iron__mlir_p_fail(p, p->tok.loc,
                                          "format of %s names an unknown "
                                          "directive",
                                          x->c.def->name);
    case E_OPEN: {
        /* the group's leading punctuation, then its anchor: when the
         * text does not go on that way, the group is not there (the
         * tokens read are given back) */
        const char *inner = *f, *g = *f;
        skip_group(f);
        iron__mlir_lexer lx = p->lx;
        iron__mlir_token tok = p->tok;
        elem a = group_anchor(inner);
        for (;;) {
            elem l = next_elem(&g);
            if (l.k != E_PUNCT && l.k != E_WORD)
                break;
            int r = l.k == E_PUNCT ? iron__mlir_p_accept(p, l.tok)
                                   : iron__mlir_p_accept_word(p, l.name);
            if (r < 0)
                return -1;
            if (r == 0)
                goto absent;
            inner = g;
        }
        if (!starts(p, &a))
            goto absent;
        return parse_elems(x, inner);
    absent:
        p->lx = lx;
        p->tok = tok;
        return 0;
    }
    }
    return -1;
}

static int parse_elems(xstate *x, const char *f)
{
    for (;;) {
        elem e = next_elem(&f);
        if (e.k == E_END || e.k == E_CLOSE)
            return 0;
        if (parse_one(x, &e, &f))
            return -1;
    }
}

int iron__mlir_fmt_parse(iron__mlir_parser *p, iron__mlir_opb *b,
                         const iron__mlir_opdef *d)
{
    xstate x;
    memset(&x, 0, sizeof x);
    x.p = p;
    x.b = b;
    x.c.def = d;
    if (parse_elems(&x, d->format))
        return -1;
    if ((d->flags & IRON__OPF_INDEX) &&
        iron__mlir_opb_rtype(p, b, iron__mlir_p_index_type(p)))
        return -1;
    for (int i = 0; i < x.nsame; i++) {
        if (b->nrtypes < 1)
            return iron__mlir_p_fail(p, x.same_loc[i], "no result type");
        int k = x.same_as_result[i];
        if (iron__mlir_p_check_type(p, b->operands[k], b->operand_locs[k],
                                    b->rtypes[0]))
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------
 * Normalising
 * --------------------------------------------------------------------- */

int iron__mlir_fmt_normalise(iron__mlir_parser *p, iron__mlir_op *op)
{
    const iron__mlir_opdef *d = iron__mlir_opdef_find(op->name);
    if (!d)
        return 0;
    for (const iron__mlir_attrdef *ad = d->attrs; ad && ad->name; ad++) {
        if (!ad->generic)
            continue;
        for (int i = 0; i < op->nattrs; i++) {
            if (strcmp(op->attrs[i].name, ad->generic) != 0)
                continue;
            if (iron__mlir_attr_get(op, ad->name))
                return iron__mlir_p_fail(p, op->attrs[i].attr->loc,
                                         "%s gives both '%s' and '%s'",
                                         op->name, ad->generic, ad->name);
            if (!(op->attrs[i].name = iron__mlir_strdup(p->m, ad->name)))
                return iron__mlir_p_nomem(p);
        }
    }
    /* enum attributes as keywords (new attributes: an alias's attribute
     * may be shared) */
    for (int i = 0; i < op->nattrs; i++) {
        iron__mlir_named *n = &op->attrs[i];
        const iron__mlir_attrdef *ad = iron__mlir_attrdef_find(d, n->name);
        if (!ad || !ad->e)
            continue;
        const char *word = NULL;
        if (n->attr->kind == IRON__MA_INT) {
            for (int k = 0; k < ad->e->n && !word; k++)
                if (ad->e->cases[k].value == n->attr->i)
                    word = ad->e->cases[k].name;
        } else if (n->attr->kind == IRON__MA_STR) {
            word = n->attr->s;
        }
        if (!word)
            continue;
        iron__mlir_attr *kw = iron__mlir_p_new_attr(p, IRON__MA_KEYWORD);
        if (!kw || !(kw->s = iron__mlir_strdup(p->m, word)))
            return iron__mlir_p_nomem(p);
        kw->loc = n->attr->loc;
        n->attr = kw;
    }
    if (d->norm && d->norm(p, op))
        return -1;
    /* an attribute at its default is left out, as the custom form leaves
     * it out (MLIR fills it in again): one tree either way */
    for (int i = op->nattrs - 1; i >= 0; i--) {
        const iron__mlir_attrdef *ad =
            iron__mlir_attrdef_find(d, op->attrs[i].name);
        if (ad && at_default(op->attrs[i].attr, ad->dflt)) {
            memmove(&op->attrs[i], &op->attrs[i + 1],
                    (size_t)(op->nattrs - i - 1) * sizeof *op->attrs);
            op->nattrs--;
        }
    }
    /* the implicit terminator, also when the generic form leaves it out
     * (which upstream's verifier would refuse: one tree either way) */
    for (int i = 0; d->term && i < op->nregions; i++)
        if (iron__mlir_p_implicit_end(p, op->regions[i], op, d->term,
                                      op->loc))
            return -1;
    for (int i = 0; i < op->nattrs; i++)
        op->attrs[i].prop = iron__mlir_attrdef_find(d, op->attrs[i].name) !=
                            NULL;
    return 0;
}
