/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * forms_std.c - the directives of the upstream MLIR dialects' formats
 * (ops.c): func.func's signature, call types, arith.constant's value,
 * arith's flags and comparison / select types, memref's load and store
 * types, and scf's loops and branches, each one parse/print pair as MLIR
 * itself writes them, with the implicit terminators those forms leave
 * out made explicit.
 */
#include <stdio.h>
#include <string.h>

#include "mlir/forms.h"

static int same(const iron__mlir_type *a, const iron__mlir_type *b)
{
    return iron__mlir_type_equal(a, b);
}

static int add_attr(P *p, B *b, const char *name, A *a)
{
    return iron__mlir_opb_attr(p, b, name, a, a->loc);
}

/* Checks operands [from, from + n) against types ts. */
static int check_operands(P *p, B *b, int from, iron__mlir_type **ts, int n)
{
    for (int i = 0; i < n; i++)
        if (iron__mlir_p_check_type(p, b->operands[from + i],
                                    b->operand_locs[from + i], ts[i]))
            return -1;
    return 0;
}

static void region(W *w, const O *op, int i, int entry_args,
                   const char *drop)
{
    OUT(" ");
    iron__mlir_pr_region(w, op->regions[i], entry_args, drop);
}

/* ---- func.func [vis] @name(%a: T, ...) [-> R] [attributes {..}]
 *      [{ ... }]; declarations: func.func private @k(T, ...) ---- */

/* "(T {attrs}, ...)" results after "->", or one bare type. */
typedef struct results {
    iron__mlir_type *ft;
    A **attrs;
    int cap, acap, any;
} results;

/* "T [{attrs}]", one result of the list. */
static int func_result(P *p, void *ctx)
{
    results *k = ctx;
    iron__mlir_type *ft = k->ft;
    if (iron__mlir_p_grow(p, (void **)&ft->out, &k->cap, ft->nout + 1,
                          sizeof *ft->out) ||
        iron__mlir_p_grow(p, (void **)&k->attrs, &k->acap, ft->nout + 1,
                          sizeof *k->attrs) ||
        iron__mlir_p_type(p, &ft->out[ft->nout]))
        return -1;
    k->attrs[ft->nout] = NULL;
    if (p->tok.kind == IRON__TK_LBRACE) {
        if (iron__mlir_p_dict(p, &k->attrs[ft->nout]))
            return -1;
        k->any = 1;
    }
    ft->nout++;
    return 0;
}

static int func_results(P *p, iron__mlir_type *ft, A ***resattrs, int *any)
{
    if (p->tok.kind != IRON__TK_LPAREN) {
        ft->out = iron__mlir_alloc(p->m, sizeof *ft->out);
        if (!ft->out)
            return iron__mlir_p_nomem(p);
        ft->nout = 1;
        return iron__mlir_p_type(p, &ft->out[0]);
    }
    results k = { ft, NULL, 0, 0, 0 };
    int r = iron__mlir_p_next(p) ||
            iron__mlir_p_list(p, IRON__TK_RPAREN, NULL, func_result, &k);
    *resattrs = k.attrs;
    *any = k.any;
    return r ? -1 : 0;
}

/* arg_attrs / res_attrs: one dictionary per parameter, empty where the
 * text gives none. */
static int attr_lists(P *p, B *b, const char *name, A **src, int n,
                      iron__mlir_loc loc)
{
    A *arr = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
    if (!arr || iron__mlir_p_items(p, n))
        return -1;
    arr->items = iron__mlir_alloc(p->m, (size_t)n * sizeof *arr->items);
    if (n && !arr->items)
        return iron__mlir_p_nomem(p);
    for (int i = 0; i < n; i++) {
        arr->items[i] = src[i] ? src[i]
                               : iron__mlir_p_new_attr(p, IRON__MA_DICT);
        if (!arr->items[i])
            return -1;
    }
    arr->n = n;
    arr->loc = loc;
    return add_attr(p, b, name, arr);
}

typedef struct params {
    iron__mlir_type *ft;
    iron__mlir_barg *args;
    A **attrs;
    int cap, acap, tcap;
    int named;               /* -1 until the first: 1 "%a: T", 0 "T" */
    int any;                 /* some parameter has attributes */
} params;

/* "%a: T [{attrs}]" or "T [{attrs}]", one parameter of the list. */
static int func_param(P *p, void *ctx)
{
    params *k = ctx;
    iron__mlir_type *ft = k->ft;
    int is_named = p->tok.kind == IRON__TK_VALUE;
    if (k->named >= 0 && is_named != k->named)
        return iron__mlir_p_fail(p, p->tok.loc,
                                 "parameters are all named or all types");
    k->named = is_named;
    if (iron__mlir_p_grow(p, (void **)&k->args, &k->cap, ft->nin + 1,
                          sizeof *k->args) ||
        iron__mlir_p_grow(p, (void **)&k->attrs, &k->acap, ft->nin + 1,
                          sizeof *k->attrs) ||
        iron__mlir_p_grow(p, (void **)&ft->in, &k->tcap, ft->nin + 1,
                          sizeof *ft->in))
        return -1;
    iron__mlir_barg *a = &k->args[ft->nin];
    if (is_named) {
        a->name = p->tok.p;
        a->n = p->tok.n;
        a->loc = p->tok.loc;
        if (iron__mlir_p_next(p) || expect(p, IRON__TK_COLON, NULL))
            return -1;
    }
    if (iron__mlir_p_type(p, &a->type))
        return -1;
    ft->in[ft->nin] = a->type;
    k->attrs[ft->nin] = NULL;
    if (p->tok.kind == IRON__TK_LBRACE) {
        if (iron__mlir_p_dict(p, &k->attrs[ft->nin]))
            return -1;
        k->any = 1;
    }
    if (iron__mlir_p_opt_loc(p))
        return -1;
    ft->nin++;
    return 0;
}

static int func_parse(P *p, B *b, C *c)
{
    (void)c;
    iron__mlir_loc loc = p->tok.loc;
    if (p->tok.kind == IRON__TK_BARE) {
        A *v = iron__mlir_p_new_attr(p, IRON__MA_STR);
        if (!v || !(v->s = iron__mlir_p_tokdup(p)) || iron__mlir_p_next(p) ||
            add_attr(p, b, "sym_visibility", v))
            return -1;
    }
    if (p->tok.kind != IRON__TK_SYM)
        return iron__mlir_p_expected(p, "the function's name (@name)");
    A *name = iron__mlir_p_new_attr(p, IRON__MA_STR);
    if (!name || !(name->s = iron__mlir_p_symname(p)) ||
        iron__mlir_p_next(p) || add_attr(p, b, "sym_name", name) ||
        expect(p, IRON__TK_LPAREN, "'(' (the parameters)"))
        return -1;
    iron__mlir_type *ft = iron__mlir_alloc(p->m, sizeof *ft);
    if (!ft)
        return iron__mlir_p_nomem(p);
    ft->kind = IRON__MT_FUNCTION;
    params k = { ft, NULL, NULL, 0, 0, 0, -1, 0 };
    A **resattrs = NULL;
    int any_res = 0;
    if (iron__mlir_p_list(p, IRON__TK_RPAREN, NULL, func_param, &k))
        return -1;
    int arrow = accept(p, IRON__TK_ARROW);
    if (arrow < 0 || (arrow && func_results(p, ft, &resattrs, &any_res)))
        return -1;
    A *fta = iron__mlir_p_new_attr(p, IRON__MA_TYPE);
    if (!fta)
        return -1;
    fta->type = ft;
    fta->loc = loc;
    if (add_attr(p, b, "function_type", fta) ||
        (k.any &&
         attr_lists(p, b, "arg_attrs", k.attrs, ft->nin, loc)) ||
        (any_res && attr_lists(p, b, "res_attrs", resattrs, ft->nout, loc)) ||
        iron__mlir_p_opt_attributes_kw(p, b))
        return -1;
    if (p->tok.kind != IRON__TK_LBRACE)
        return iron__mlir_opb_empty_region(p, b);
    if (k.named == 0)
        return iron__mlir_p_fail(p, p->tok.loc,
                                 "a function with a body names its "
                                 "parameters (%%arg0: type)");
    return iron__mlir_p_region(p, b, k.args, ft->nin, 1);
}

static int dicts_ok(const A *a, int n)
{
    if (!a)
        return 1;
    if (!kind(a, IRON__MA_ARRAY) || a->n != n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (!kind(a->items[i], IRON__MA_DICT))
            return 0;
    return 1;
}

static int func_print(W *w, const O *op, C *c)
{
    const A *name = attr(op, "sym_name"), *ft = attr(op, "function_type"),
            *vis = attr(op, "sym_visibility"), *aa = attr(op, "arg_attrs"),
            *ra = attr(op, "res_attrs");
    if (op->noperands || op->nresults || op->nregions != 1 ||
        !kind(name, IRON__MA_STR) || !kind(ft, IRON__MA_TYPE) || !ft->type ||
        ft->type->kind != IRON__MT_FUNCTION ||
        (vis && (!kind(vis, IRON__MA_STR) || !vis->s[0])))
        return -1;
    const iron__mlir_type *t = ft->type;
    const iron__mlir_region *r = op->regions[0];
    if (!dicts_ok(aa, t->nin) || !dicts_ok(ra, t->nout))
        return -1;
    /* an empty entry block before others needs its label, which a
     * function's entry block cannot have in this form */
    if (r->nblocks > 1 && r->blocks[0]->nops == 0)
        return -1;
    if (r->nblocks) {
        const iron__mlir_block *b = r->blocks[0];
        if (b->nargs != t->nin)
            return -1;
        for (int i = 0; i < t->nin; i++)
            if (!same(vtype(w, b->args[i]), t->in[i]))
                return -1;
    }
    for (const char *s = vis ? vis->s : ""; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || *s == '_'))
            return -1;
    OUT(" ");
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
            iron__mlir_pr_value(w, r->blocks[0]->args[i]);
            OUT(": ");
        }
        iron__mlir_pr_type(w, t->in[i]);
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
        iron__mlir_pr_type(w, t->out[0]);
    } else if (t->nout) {
        OUT(" -> (");
        for (int i = 0; i < t->nout; i++) {
            if (i)
                OUT(", ");
            iron__mlir_pr_type(w, t->out[i]);
            if (ra && ra->items[i]->n) {
                OUT(" ");
                iron__mlir_pr_attr(w, ra->items[i], NULL, NULL);
            }
        }
        OUT(")");
    }
    static const char *const skip[] = { "sym_name", "function_type",
                                        "sym_visibility", "arg_attrs",
                                        "res_attrs", NULL };
    if (op->nattrs > (name != NULL) + (ft != NULL) + (vis != NULL) +
                         (aa != NULL) + (ra != NULL)) {
        OUT(" attributes");
        iron__mlir_pr_attr_dict(w, op, skip);
    }
    if (r->nblocks)
        region(w, op, 0, 0, NULL);
    c->regions_done = 1;
    return 0;
}

/* ---- func.call's " (T1, T2) -> R" ---- */
static int functional_parse(P *p, B *b, C *c)
{
    (void)c;
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_type *ft;
    if (iron__mlir_p_type(p, &ft))
        return -1;
    if (ft->kind != IRON__MT_FUNCTION)
        return iron__mlir_p_fail(p, tloc, "expected a function type");
    if (ft->nin != b->noperands)
        return iron__mlir_p_fail(p, tloc,
                                 "the type has %d parameters for %d "
                                 "arguments",
                                 ft->nin, b->noperands);
    if (check_operands(p, b, 0, ft->in, ft->nin))
        return -1;
    for (int i = 0; i < ft->nout; i++)
        if (iron__mlir_opb_rtype(p, b, ft->out[i]))
            return -1;
    return 0;
}

static int functional_print(W *w, const O *op, C *c)
{
    OUT(" ");
    iron__mlir_pr_functional(w, op->operands, op->noperands, op->results,
                             op->nresults);
    c->results_done = 1;
    return 0;
}

/* ---- arith.constant's " 3 : i32" ---- */
static int const_value_parse(P *p, B *b, C *c)
{
    (void)c;
    iron__mlir_loc loc = p->tok.loc;
    A *v;
    if (iron__mlir_p_attr(p, &v) || add_attr(p, b, "value", v))
        return -1;
    iron__mlir_type *t = v->type;
    if (v->kind == IRON__MA_BOOL) {
        t = iron__mlir_p_int_type(p, 1, 0);
    } else if (!t && v->kind == IRON__MA_INT) {
        t = iron__mlir_p_int_type(p, 64, 0);
    } else if (!t && v->kind == IRON__MA_FLOAT) {
        t = iron__mlir_alloc(p->m, sizeof *t);
        if (t) {
            t->kind = IRON__MT_FLOAT;
            t->width = 64;
        }
    } else if (v->kind != IRON__MA_INT && v->kind != IRON__MA_FLOAT &&
               v->kind != IRON__MA_DENSE) {
        return iron__mlir_p_fail(p, loc, "arith.constant takes a number or "
                                         "a dense<...>");
    }
    if (!t)
        return iron__mlir_p_nomem(p);
    return iron__mlir_opb_rtype(p, b, t);
}

static int const_value_print(W *w, const O *op, C *c)
{
    const A *v = attr(op, "value");
    if (op->nresults != 1 || !v)
        return -1;
    const iron__mlir_type *rt = vtype(w, op->results[0]);
    if (v->kind == IRON__MA_BOOL) {
        if (!iron__mlir_is_int(rt, 1))
            return -1;
    } else if (v->kind == IRON__MA_INT || v->kind == IRON__MA_FLOAT ||
               v->kind == IRON__MA_DENSE) {
        if (!v->type || !same(v->type, rt))
            return -1;
    } else {
        return -1;
    }
    OUT(" ");
    iron__mlir_pr_attr(w, v, NULL, NULL);
    c->results_done = 1;
    return 0;
}

/* ---- arith's " overflow<nsw>" / " fastmath<fast>", kept as the text of
 *      #arith.overflow<nsw> / #arith.fastmath<fast> ---- */
static const struct {
    const char *word, *attr, *prefix;
} flag_kinds[] = {
    { "overflow", "overflowFlags", "#arith.overflow" },
    { "fastmath", "fastmath", "#arith.fastmath" },
};

static int arith_flags_parse(P *p, B *b, C *c)
{
    (void)c;
    for (size_t k = 0; k < IRON__COUNT_OF(flag_kinds); k++) {
        if (!iron__mlir_p_is_word(p, flag_kinds[k].word))
            continue;
        A *a = iron__mlir_p_new_attr(p, IRON__MA_OPAQUE);
        if (!a)
            return -1;
        a->loc = p->tok.loc;
        if (iron__mlir_p_next(p))
            return -1;
        size_t from = iron__mlir_p_offset(p);
        if (expect(p, IRON__TK_LESS, NULL) || iron__mlir_p_skip_angle(p) ||
            !(a->s = iron__mlir_p_slice(p, flag_kinds[k].prefix, from,
                                        p->close_off + 1)) ||
            add_attr(p, b, flag_kinds[k].attr, a))
            return -1;
    }
    return 0;
}

static int arith_flags_print(W *w, const O *op, C *c)
{
    (void)c;
    for (size_t k = 0; k < IRON__COUNT_OF(flag_kinds); k++) {
        const A *a = attr(op, flag_kinds[k].attr);
        size_t n = strlen(flag_kinds[k].prefix);
        if (!a)
            continue;
        if (!kind(a, IRON__MA_OPAQUE) ||
            strncmp(a->s, flag_kinds[k].prefix, n) != 0 || a->s[n] != '<')
            return -1;
        OUT(" ");
        OUT(flag_kinds[k].word);
        OUT(a->s + n);
    }
    return 0;
}

/* ---- arith.cmpi / cmpf's " T": both operands T, the result i1 (or a
 *      shape of i1 like T) ---- */
static int bool_like(const iron__mlir_type *r, const iron__mlir_type *t)
{
    if (!r || !t)
        return 0;
    if (t->kind == IRON__MT_VECTOR || t->kind == IRON__MT_TENSOR) {
        if (r->kind != t->kind || r->rank != t->rank ||
            !iron__mlir_is_int(r->elem, 1))
            return 0;
        for (int i = 0; i < r->rank; i++)
            if (r->dims[i] != t->dims[i])
                return 0;
        return 1;
    }
    return iron__mlir_is_int(r, 1);
}

static int cmp_type_parse(P *p, B *b, C *c)
{
    (void)c;
    iron__mlir_type *t;
    if (iron__mlir_p_type(p, &t))
        return -1;
    iron__mlir_type *ts[2] = { t, t };
    if (check_operands(p, b, 0, ts, 2))
        return -1;
    iron__mlir_type *i1 = iron__mlir_p_int_type(p, 1, 0);
    if (!i1)
        return -1;
    if (t->kind == IRON__MT_VECTOR || t->kind == IRON__MT_TENSOR) {
        iron__mlir_type *s = iron__mlir_alloc(p->m, sizeof *s);
        if (!s)
            return iron__mlir_p_nomem(p);
        *s = *t;
        s->elem = i1;
        i1 = s;
    }
    return iron__mlir_opb_rtype(p, b, i1);
}

static int cmp_type_print(W *w, const O *op, C *c)
{
    if (op->noperands != 2 || op->nresults != 1)
        return -1;
    const iron__mlir_type *t = vtype(w, op->operands[0]);
    if (!same(t, vtype(w, op->operands[1])) ||
        !bool_like(vtype(w, op->results[0]), t))
        return -1;
    OUT(" ");
    iron__mlir_pr_type(w, t);
    c->results_done = 1;
    return 0;
}

/* ---- arith.select's " [Tc, ]T" ---- */
static int select_type_parse(P *p, B *b, C *c)
{
    (void)c;
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_type **ts;
    int n;
    if (iron__mlir_p_type_list(p, &ts, &n))
        return -1;
    if (n > 2)
        return iron__mlir_p_fail(p, tloc, "arith.select takes 1 or 2 types");
    iron__mlir_type *t = ts[n - 1];
    iron__mlir_type *cond = n == 2 ? ts[0] : iron__mlir_p_int_type(p, 1, 0);
    iron__mlir_type *all[3] = { cond, t, t };
    if (!cond || check_operands(p, b, 0, all, 3))
        return -1;
    return iron__mlir_opb_rtype(p, b, t);
}

static int select_type_print(W *w, const O *op, C *c)
{
    if (op->noperands != 3 || op->nresults != 1)
        return -1;
    const iron__mlir_type *cond = vtype(w, op->operands[0]),
                          *t = vtype(w, op->results[0]);
    if (!cond || !same(vtype(w, op->operands[1]), t) ||
        !same(vtype(w, op->operands[2]), t))
        return -1;
    OUT(" ");
    if (!iron__mlir_is_int(cond, 1)) {
        iron__mlir_pr_type(w, cond);
        OUT(", ");
    }
    iron__mlir_pr_type(w, t);
    c->results_done = 1;
    return 0;
}

/* ---- memref.load / store's " memref<..>": the memref operand m, index
 *      operands after it, and the element type for the value ---- */
static int memref_type_parse(P *p, B *b, int m, int load)
{
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_type *mt;
    if (b->noperands <= m)
        return iron__mlir_p_expected(p, "a memref operand");
    if (iron__mlir_p_type(p, &mt) || check_operands(p, b, m, &mt, 1))
        return -1;
    if (mt->kind != IRON__MT_MEMREF)
        return iron__mlir_p_fail(p, tloc, "expected a memref type");
    iron__mlir_type *idx = iron__mlir_p_index_type(p);
    if (!idx)
        return -1;
    for (int i = m + 1; i < b->noperands; i++)
        if (iron__mlir_p_check_type(p, b->operands[i], b->operand_locs[i],
                                    idx))
            return -1;
    if (load)
        return iron__mlir_opb_rtype(p, b, mt->elem);
    return check_operands(p, b, 0, &mt->elem, 1);
}

static int memref_type_print(W *w, const O *op, C *c, int m)
{
    if (op->noperands <= m || op->nresults != (m == 0))
        return -1;
    const iron__mlir_type *mt = vtype(w, op->operands[m]);
    const iron__mlir_type *vt = m ? vtype(w, op->operands[0])
                                  : vtype(w, op->results[0]);
    if (!mt || mt->kind != IRON__MT_MEMREF || !same(mt->elem, vt))
        return -1;
    for (int i = m + 1; i < op->noperands; i++)
        if (!iron__mlir_is_index(vtype(w, op->operands[i])))
            return -1;
    OUT(" ");
    iron__mlir_pr_type(w, mt);
    c->results_done = 1;
    return 0;
}

static int load_type_parse(P *p, B *b, C *c)
{
    (void)c;
    return memref_type_parse(p, b, 0, 1);
}

static int load_type_print(W *w, const O *op, C *c)
{
    return memref_type_print(w, op, c, 0);
}

static int store_type_parse(P *p, B *b, C *c)
{
    (void)c;
    return memref_type_parse(p, b, 1, 0);
}

static int store_type_print(W *w, const O *op, C *c)
{
    return memref_type_print(w, op, c, 1);
}

/* ---- scf ---- */

/* "(%a = %init, ...)" into args (names) and b's operands. */
typedef struct assigned {
    B *b;
    iron__mlir_barg *args;
    int n, cap;
} assigned;

static int assignment(P *p, void *ctx)
{
    assigned *k = ctx;
    if (p->tok.kind != IRON__TK_VALUE)
        return iron__mlir_p_expected(p, "%name = value");
    if (iron__mlir_p_grow(p, (void **)&k->args, &k->cap, k->n + 1,
                          sizeof *k->args))
        return -1;
    iron__mlir_barg *a = &k->args[k->n];
    a->name = p->tok.p;
    a->n = p->tok.n;
    a->loc = p->tok.loc;
    a->type = NULL;
    if (iron__mlir_p_next(p) || expect(p, IRON__TK_EQUAL, NULL) ||
        iron__mlir_p_operand(p, k->b, NULL))
        return -1;
    k->n++;
    return 0;
}

static int assignments(P *p, B *b, iron__mlir_barg **args, int *n)
{
    assigned k = { b, NULL, 0, 0 };
    int r = expect(p, IRON__TK_LPAREN, NULL) ||
            iron__mlir_p_list(p, IRON__TK_RPAREN, NULL, assignment, &k);
    *args = k.args;
    *n = k.n;
    return r ? -1 : 0;
}

/* "(%a = %x, ...)" of an entry block's arguments and their inits. */
static void print_assignments(W *w, const iron__mlir_block *b,
                              const int *inits, int n)
{
    OUT("(");
    for (int i = 0; i < n; i++) {
        if (i)
            OUT(", ");
        iron__mlir_pr_value(w, b->args[i]);
        OUT(" = ");
        iron__mlir_pr_value(w, inits[i]);
    }
    OUT(")");
}

/* "-> (T, ...)" or "-> T" (nothing when no arrow). */
static int arrow_types(P *p, iron__mlir_type ***ts, int *n)
{
    *ts = NULL;
    *n = 0;
    int r = accept(p, IRON__TK_ARROW);
    if (r <= 0)
        return r;
    return iron__mlir_p_type_list_parens(p, ts, n);
}

/* A region whose entry block has nargs arguments (its label, if any, is
 * not printed: no branch can target an entry block). */
static int entry_matches(const iron__mlir_region *r, int nargs)
{
    return r->nblocks > 0 && r->blocks[0]->nargs == nargs;
}

/* ---- scf.for %i = %lb to %ub step %s [iter_args(%a = %x) -> (T)]
 *      [: T] { ... } ---- */
static int for_parse(P *p, B *b, C *c)
{
    (void)c;
    if (iron__mlir_p_accept_word(p, "unsigned") < 0)
        return -1;
    if (p->tok.kind != IRON__TK_VALUE)
        return iron__mlir_p_expected(p, "the induction variable");
    iron__mlir_token iv = p->tok;
    if (iron__mlir_p_next(p) || expect(p, IRON__TK_EQUAL, NULL) ||
        iron__mlir_p_operand(p, b, NULL) ||
        iron__mlir_p_expect_word(p, "to") ||
        iron__mlir_p_operand(p, b, NULL) ||
        iron__mlir_p_expect_word(p, "step") ||
        iron__mlir_p_operand(p, b, NULL))
        return -1;
    iron__mlir_barg *iters = NULL;
    iron__mlir_type **ts = NULL;
    int n = 0, nt = 0;
    iron__mlir_loc loc = p->tok.loc;
    int r = iron__mlir_p_accept_word(p, "iter_args");
    if (r < 0)
        return -1;
    if (r) {
        if (assignments(p, b, &iters, &n) || arrow_types(p, &ts, &nt))
            return -1;
        if (nt != n)
            return iron__mlir_p_fail(p, loc, "%d iter_args with %d types", n,
                                     nt);
    }
    iron__mlir_type *ivt = NULL;
    int colon = accept(p, IRON__TK_COLON);
    if (colon < 0 || (colon && iron__mlir_p_type(p, &ivt)) ||
        (!colon && !(ivt = iron__mlir_p_index_type(p))))
        return -1;
    iron__mlir_type *bounds[3] = { ivt, ivt, ivt };
    if (check_operands(p, b, 0, bounds, 3) || check_operands(p, b, 3, ts, n))
        return -1;
    iron__mlir_barg *args = iron__mlir_alloc(p->m,
                                             (size_t)(n + 1) * sizeof *args);
    if (!args)
        return iron__mlir_p_nomem(p);
    args[0].name = iv.p;
    args[0].n = iv.n;
    args[0].loc = iv.loc;
    args[0].type = ivt;
    for (int i = 0; i < n; i++) {
        args[i + 1] = iters[i];
        args[i + 1].type = ts[i];
    }
    iron__mlir_loc end = p->tok.loc;
    if (iron__mlir_p_region(p, b, args, n + 1, 0))
        return -1;
    if (n == 0 && iron__mlir_p_implicit_end(p, b->regions[0], b->op,
                                            "scf.yield", end))
        return -1;
    if (iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    for (int i = 0; i < n; i++)
        if (iron__mlir_opb_rtype(p, b, ts[i]))
            return -1;
    return 0;
}

static int for_print(W *w, const O *op, C *c)
{
    int n = op->noperands - 3;
    if (n < 0 || op->nresults != n || op->nregions != 1 ||
        !entry_matches(op->regions[0], n + 1))
        return -1;
    const iron__mlir_block *b = op->regions[0]->blocks[0];
    const iron__mlir_type *ivt = vtype(w, b->args[0]);
    for (int i = 0; i < 3; i++)
        if (!same(vtype(w, op->operands[i]), ivt))
            return -1;
    for (int i = 0; i < n; i++) {
        const iron__mlir_type *t = vtype(w, b->args[i + 1]);
        if (!same(vtype(w, op->operands[3 + i]), t) ||
            !same(vtype(w, op->results[i]), t))
            return -1;
    }
    OUT(" ");
    iron__mlir_pr_value(w, b->args[0]);
    OUT(" = ");
    iron__mlir_pr_value(w, op->operands[0]);
    OUT(" to ");
    iron__mlir_pr_value(w, op->operands[1]);
    OUT(" step ");
    iron__mlir_pr_value(w, op->operands[2]);
    if (n) {
        OUT(" iter_args(");
        for (int i = 0; i < n; i++) {
            if (i)
                OUT(", ");
            iron__mlir_pr_value(w, b->args[i + 1]);
            OUT(" = ");
            iron__mlir_pr_value(w, op->operands[3 + i]);
        }
        OUT(") -> (");
        iron__mlir_pr_value_types(w, op->results, n);
        OUT(")");
    }
    if (!iron__mlir_is_index(ivt)) {
        OUT(" : ");
        iron__mlir_pr_type(w, ivt);
    }
    region(w, op, 0, 0, n ? NULL : "scf.yield");
    iron__mlir_pr_attr_dict(w, op, NULL);
    c->operands_done = c->results_done = c->regions_done = 1;
    return 0;
}

/* ---- scf.while [(%a = %x)] : (T) -> R { ... } do { ... }: MLIR leaves
 *      out the assignments when there are none ---- */
static int while_parse(P *p, B *b, C *c)
{
    (void)c;
    iron__mlir_barg *args = NULL;
    int n = 0;
    if (p->tok.kind == IRON__TK_LPAREN && assignments(p, b, &args, &n))
        return -1;
    if (expect(p, IRON__TK_COLON, "':' and the loop's type"))
        return -1;
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_type *ft;
    if (iron__mlir_p_type(p, &ft))
        return -1;
    if (ft->kind != IRON__MT_FUNCTION || ft->nin != n)
        return iron__mlir_p_fail(p, tloc,
                                 "expected a function type with %d input%s",
                                 n, n == 1 ? "" : "s");
    if (check_operands(p, b, 0, ft->in, n))
        return -1;
    for (int i = 0; i < n; i++)
        args[i].type = ft->in[i];
    if (iron__mlir_p_region(p, b, args, n, 0) ||
        iron__mlir_p_ensure_block(p, b->regions[0]) ||
        iron__mlir_p_expect_word(p, "do") ||
        iron__mlir_p_region(p, b, NULL, 0, 0) ||
        iron__mlir_p_opt_attributes_kw(p, b))
        return -1;
    for (int i = 0; i < ft->nout; i++)
        if (iron__mlir_opb_rtype(p, b, ft->out[i]))
            return -1;
    return 0;
}

static int while_print(W *w, const O *op, C *c)
{
    int n = op->noperands;
    if (op->nregions != 2 || !entry_matches(op->regions[0], n) ||
        (op->regions[0]->nblocks > 1 && op->regions[0]->blocks[0]->nops == 0))
        return -1;
    const iron__mlir_block *b = op->regions[0]->blocks[0];
    for (int i = 0; i < n; i++)
        if (!same(vtype(w, op->operands[i]), vtype(w, b->args[i])))
            return -1;
    if (n) {
        OUT(" ");
        print_assignments(w, b, op->operands, n);
    }
    OUT(" : ");
    iron__mlir_pr_functional(w, op->operands, n, op->results, op->nresults);
    region(w, op, 0, 0, NULL);
    OUT(" do");
    region(w, op, 1, 1, NULL);
    if (op->nattrs) {
        OUT(" attributes");
        iron__mlir_pr_attr_dict(w, op, NULL);
    }
    c->operands_done = c->results_done = c->regions_done = 1;
    return 0;
}

/* ---- scf.if %c [-> (T)] { ... } [else { ... }] ---- */
static int if_parse(P *p, B *b, C *c)
{
    (void)c;
    iron__mlir_type *i1 = iron__mlir_p_int_type(p, 1, 0);
    iron__mlir_type **ts;
    int n;
    if (!i1 || iron__mlir_p_operand(p, b, i1) || arrow_types(p, &ts, &n))
        return -1;
    iron__mlir_loc end = p->tok.loc;
    if (iron__mlir_p_region(p, b, NULL, 0, 0) ||
        (n == 0 && iron__mlir_p_implicit_end(p, b->regions[0], b->op,
                                             "scf.yield", end)))
        return -1;
    int r = iron__mlir_p_accept_word(p, "else");
    if (r < 0)
        return -1;
    if (r) {
        end = p->tok.loc;
        if (iron__mlir_p_region(p, b, NULL, 0, 0) ||
            (n == 0 && iron__mlir_p_implicit_end(p, b->regions[1], b->op,
                                                 "scf.yield", end)))
            return -1;
    } else if (iron__mlir_opb_empty_region(p, b)) {
        return -1;
    }
    if (iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    for (int i = 0; i < n; i++)
        if (iron__mlir_opb_rtype(p, b, ts[i]))
            return -1;
    return 0;
}

static int if_print(W *w, const O *op, C *c)
{
    if (op->noperands != 1 || op->nregions != 2 ||
        !iron__mlir_is_int(vtype(w, op->operands[0]), 1))
        return -1;
    for (int k = 0; k < 2; k++) {
        const iron__mlir_region *r = op->regions[k];
        if (r->nblocks > 1 || (r->nblocks == 1 && r->blocks[0]->nargs))
            return -1;
    }
    if (op->regions[0]->nblocks == 0)
        return -1;
    const char *drop = op->nresults ? NULL : "scf.yield";
    OUT(" ");
    iron__mlir_pr_value(w, op->operands[0]);
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
    iron__mlir_pr_attr_dict(w, op, NULL);
    c->operands_done = c->results_done = c->regions_done = 1;
    return 0;
}

/* --- the table -------------------------------------------------------- */

#define WHOLE(name, parse, print)                                           \
    { name, NULL, parse, print }

const iron__mlir_directive iron__mlir_directives_std[] = {
    { "func",
      LIST("sym_name", "function_type", "sym_visibility", "arg_attrs",
           "res_attrs"),
      func_parse, func_print },
    { "functional", NULL, functional_parse, functional_print },
    { "const_value", LIST("value"), const_value_parse, const_value_print },
    { "arith_flags", LIST("overflowFlags", "fastmath"), arith_flags_parse,
      arith_flags_print },
    { "cmp_type", NULL, cmp_type_parse, cmp_type_print },
    { "select_type", NULL, select_type_parse, select_type_print },
    { "load_type", NULL, load_type_parse, load_type_print },
    { "store_type", NULL, store_type_parse, store_type_print },
    WHOLE("for", for_parse, for_print),
    WHOLE("while", while_parse, while_print),
    WHOLE("if", if_parse, if_print),
};

const int iron__mlir_ndirectives_std = (int)IRON__COUNT_OF(
    iron__mlir_directives_std);
