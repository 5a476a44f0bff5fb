/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * parse_std.c - the custom forms of the upstream dialects' ops a core
 * body and a module use: builtin.module, func (func / call / return),
 * arith (constant, binary ops, comparisons, select, casts, negf),
 * memref (load / store) and scf (for / while / if / yield / condition),
 * with the implicit terminators those forms leave out made explicit.
 */
#include <stdio.h>
#include <string.h>

#include "mlir/known.h"
#include "mlir/parse.h"

typedef iron__mlir_parser P;
typedef iron__mlir_opb B;

static int expect(P *p, iron__mlir_tok k, const char *what)
{
    return iron__mlir_p_expect(p, k, what);
}

static int accept(P *p, iron__mlir_tok k)
{
    return iron__mlir_p_accept(p, k);
}

static int result(P *p, B *b, iron__mlir_type *t)
{
    if (!t)
        return -1;
    return iron__mlir_opb_rtype(p, b, t);
}

static int add_attr(P *p, B *b, const char *name, iron__mlir_attr *a)
{
    return iron__mlir_opb_attr(p, b, name, a, a->loc);
}

/* "%a, %b : t1, t2" (nothing when no value follows): operands of b with
 * their types checked. */
static int uses_with_types(P *p, B *b)
{
    if (p->tok.kind != IRON__TK_VALUE)
        return 0;
    int first = b->noperands;
    if (iron__mlir_p_use_list(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the values' types"))
        return -1;
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_type **ts;
    int n;
    if (iron__mlir_p_type_list(p, &ts, &n))
        return -1;
    if (n != b->noperands - first)
        return iron__mlir_p_fail(p, tloc, "%d types for %d values", n,
                                 b->noperands - first);
    for (int i = 0; i < n; i++)
        if (iron__mlir_p_check_type(p, b->operands[first + i],
                                    b->operand_locs[first + i], ts[i]))
            return -1;
    return 0;
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

/* ---- module [@name] [attributes {...}] { ... } ---- */
static int module(P *p, B *b)
{
    if (p->tok.kind == IRON__TK_SYM) {
        iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_STR);
        if (!a || !(a->s = iron__mlir_p_symname(p)) ||
            iron__mlir_p_next(p) || add_attr(p, b, "sym_name", a))
            return -1;
    }
    if (iron__mlir_p_opt_attributes_kw(p, b) ||
        iron__mlir_p_region(p, b, NULL, 0, 1))
        return -1;
    return iron__mlir_p_ensure_block(p, b->regions[0]);
}

/* ---- func.func [private] @name(%a: T, ...) [-> R] [attributes {..}]
 *      [{ body }] ; declarations: func.func private @k(T, ...) ---- */
static int func(P *p, B *b)
{
    iron__mlir_loc loc = p->tok.loc;
    if (p->tok.kind == IRON__TK_BARE) {
        iron__mlir_attr *v = iron__mlir_p_new_attr(p, IRON__MA_STR);
        if (!v || !(v->s = iron__mlir_p_tokdup(p)) || iron__mlir_p_next(p) ||
            add_attr(p, b, "sym_visibility", v))
            return -1;
    }
    iron__mlir_attr *name = iron__mlir_p_new_attr(p, IRON__MA_STR);
    if (!name || !(name->s = iron__mlir_p_symname(p)) ||
        iron__mlir_p_next(p) || add_attr(p, b, "sym_name", name) ||
        expect(p, IRON__TK_LPAREN, "'(' (the parameters)"))
        return -1;
    iron__mlir_type *ft = iron__mlir_alloc(p->m, sizeof *ft);
    if (!ft)
        return iron__mlir_p_nomem(p);
    ft->kind = IRON__MT_FUNCTION;
    iron__mlir_barg *args = NULL;
    iron__mlir_attr **argattrs = NULL;
    int cap = 0, acap = 0, tcap = 0, named = -1, any_attrs = 0;
    if (p->tok.kind != IRON__TK_RPAREN) {
        for (;;) {
            int is_named = p->tok.kind == IRON__TK_VALUE;
            if (named >= 0 && is_named != named)
                return iron__mlir_p_fail(p, p->tok.loc,
                                         "parameters are all named or all "
                                         "types");
            named = is_named;
            if (iron__mlir_p_grow(p, (void **)&args, &cap, ft->nin + 1,
                                  sizeof *args) ||
                iron__mlir_p_grow(p, (void **)&argattrs, &acap, ft->nin + 1,
                                  sizeof *argattrs) ||
                iron__mlir_p_grow(p, (void **)&ft->in, &tcap, ft->nin + 1,
                                  sizeof *ft->in))
                return -1;
            iron__mlir_barg *a = &args[ft->nin];
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
            argattrs[ft->nin] = NULL;
            if (p->tok.kind == IRON__TK_LBRACE) {
                if (iron__mlir_p_dict(p, &argattrs[ft->nin]))
                    return -1;
                any_attrs = 1;
            }
            if (iron__mlir_p_opt_loc(p))
                return -1;
            ft->nin++;
            int c = accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    if (expect(p, IRON__TK_RPAREN, NULL))
        return -1;
    iron__mlir_attr **resattrs = NULL;
    int any_res_attrs = 0;
    if (p->tok.kind == IRON__TK_ARROW) {
        if (iron__mlir_p_next(p))
            return -1;
        if (p->tok.kind == IRON__TK_LPAREN) {
            int rcap = 0, racap = 0;
            if (iron__mlir_p_next(p))
                return -1;
            while (p->tok.kind != IRON__TK_RPAREN) {
                if (iron__mlir_p_grow(p, (void **)&ft->out, &rcap,
                                      ft->nout + 1, sizeof *ft->out) ||
                    iron__mlir_p_grow(p, (void **)&resattrs, &racap,
                                      ft->nout + 1, sizeof *resattrs) ||
                    iron__mlir_p_type(p, &ft->out[ft->nout]))
                    return -1;
                resattrs[ft->nout] = NULL;
                if (p->tok.kind == IRON__TK_LBRACE) {
                    if (iron__mlir_p_dict(p, &resattrs[ft->nout]))
                        return -1;
                    any_res_attrs = 1;
                }
                ft->nout++;
                int c = accept(p, IRON__TK_COMMA);
                if (c < 0)
                    return -1;
                if (!c)
                    break;
            }
            if (expect(p, IRON__TK_RPAREN, NULL))
                return -1;
        } else {
            ft->out = iron__mlir_alloc(p->m, sizeof *ft->out);
            if (!ft->out)
                return iron__mlir_p_nomem(p);
            if (iron__mlir_p_type(p, &ft->out[0]))
                return -1;
            ft->nout = 1;
        }
    }
    iron__mlir_attr *fta = iron__mlir_p_new_attr(p, IRON__MA_TYPE);
    if (!fta)
        return -1;
    fta->type = ft;
    fta->loc = loc;
    if (add_attr(p, b, "function_type", fta))
        return -1;
    for (int k = 0; k < 2; k++) {
        int any = k ? any_res_attrs : any_attrs;
        int n = k ? ft->nout : ft->nin;
        iron__mlir_attr **src = k ? resattrs : argattrs;
        if (!any)
            continue;
        iron__mlir_attr *arr = iron__mlir_p_new_attr(p, IRON__MA_ARRAY);
        if (!arr || iron__mlir_p_items(p, n))
            return -1;
        arr->items = iron__mlir_alloc(p->m, (size_t)n * sizeof *arr->items);
        if (!arr->items)
            return iron__mlir_p_nomem(p);
        for (int i = 0; i < n; i++) {
            arr->items[i] = src[i] ? src[i]
                                   : iron__mlir_p_new_attr(p, IRON__MA_DICT);
            if (!arr->items[i])
                return -1;
        }
        arr->n = n;
        arr->loc = loc;
        if (add_attr(p, b, k ? "res_attrs" : "arg_attrs", arr))
            return -1;
    }
    if (iron__mlir_p_opt_attributes_kw(p, b))
        return -1;
    if (p->tok.kind != IRON__TK_LBRACE)
        return iron__mlir_opb_empty_region(p, b);
    if (named == 0)
        return iron__mlir_p_fail(p, p->tok.loc,
                                 "a function with a body names its "
                                 "parameters (%%arg0: type)");
    return iron__mlir_p_region(p, b, args, ft->nin, 1);
}

/* ---- func.call @k(%a, %b) [{attrs}] : (T1, T2) -> R ---- */
static int call(P *p, B *b)
{
    iron__mlir_attr *callee;
    if (iron__mlir_p_symref(p, &callee) || add_attr(p, b, "callee", callee) ||
        expect(p, IRON__TK_LPAREN, NULL))
        return -1;
    if (p->tok.kind != IRON__TK_RPAREN && iron__mlir_p_use_list(p, b))
        return -1;
    if (expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the callee's type"))
        return -1;
    iron__mlir_loc tloc = p->tok.loc;
    iron__mlir_type *ft;
    if (iron__mlir_p_type(p, &ft))
        return -1;
    if (ft->kind != IRON__MT_FUNCTION)
        return iron__mlir_p_fail(p, tloc, "expected a function type");
    if (ft->nin != b->noperands)
        return iron__mlir_p_fail(p, tloc, "the type has %d parameters for %d "
                                          "arguments",
                                 ft->nin, b->noperands);
    if (check_operands(p, b, 0, ft->in, ft->nin))
        return -1;
    for (int i = 0; i < ft->nout; i++)
        if (result(p, b, ft->out[i]))
            return -1;
    return 0;
}

/* ---- return [%a : T] / scf.yield [...] : attr-dict first ---- */
static int terminator(P *p, B *b)
{
    if (iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    return uses_with_types(p, b);
}

/* ---- scf.condition(%c) [%a : T] ---- */
static int condition(P *p, B *b)
{
    iron__mlir_type *i1 = iron__mlir_p_int_type(p, 1, 0);
    if (!i1 || expect(p, IRON__TK_LPAREN, NULL) ||
        iron__mlir_p_operand(p, b, i1) || expect(p, IRON__TK_RPAREN, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b))
        return -1;
    return uses_with_types(p, b);
}

/* ---- arith.constant 3 : i32 ---- */
static int constant(P *p, B *b)
{
    iron__mlir_loc loc = p->tok.loc;
    iron__mlir_attr *v;
    if (iron__mlir_p_opt_attr_dict(p, b) || iron__mlir_p_attr(p, &v) ||
        add_attr(p, b, "value", v))
        return -1;
    iron__mlir_type *t = v->type;
    if (v->kind == IRON__MA_BOOL)
        t = iron__mlir_p_int_type(p, 1, 0);
    else if (!t && v->kind == IRON__MA_INT)
        t = iron__mlir_p_int_type(p, 64, 0);
    else if (!t && v->kind == IRON__MA_FLOAT) {
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
    return result(p, b, t);
}

/* "overflow<nsw>" / "fastmath<fast>" into #arith.overflow<nsw> /
 * #arith.fastmath<fast> text. */
static int flags(P *p, B *b, const char *word, const char *attr)
{
    if (!iron__mlir_p_is_word(p, word))
        return 0;
    iron__mlir_attr *a = iron__mlir_p_new_attr(p, IRON__MA_OPAQUE);
    if (!a || iron__mlir_p_next(p))
        return -1;
    size_t from = iron__mlir_p_offset(p);
    if (expect(p, IRON__TK_LESS, NULL) || iron__mlir_p_skip_angle(p))
        return -1;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "#arith.%s", word);
    a->s = iron__mlir_p_slice(p, prefix, from, p->close_off + 1);
    if (!a->s)
        return -1;
    return add_attr(p, b, attr, a);
}

/* ---- %r = arith.addi %a, %b [overflow<..>] [fastmath<..>] : T ---- */
/* "%a, %b" (n values) as operands. */
static int operands(P *p, B *b, int n)
{
    for (int i = 0; i < n; i++)
        if ((i && expect(p, IRON__TK_COMMA, NULL)) ||
            iron__mlir_p_operand(p, b, NULL))
            return -1;
    return 0;
}

static int binary(P *p, B *b)
{
    iron__mlir_type *t;
    if (operands(p, b, 2) ||
        flags(p, b, "overflow", "overflowFlags") ||
        flags(p, b, "fastmath", "fastmath") ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the type") ||
        iron__mlir_p_type(p, &t))
        return -1;
    iron__mlir_type *ts[2] = { t, t };
    if (check_operands(p, b, 0, ts, 2))
        return -1;
    return result(p, b, t);
}

/* ---- %r = arith.negf %a [fastmath<..>] : T ---- */
static int unary(P *p, B *b)
{
    iron__mlir_type *t;
    if (iron__mlir_p_operand(p, b, NULL) ||
        flags(p, b, "fastmath", "fastmath") ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the type") ||
        iron__mlir_p_type(p, &t) || check_operands(p, b, 0, &t, 1))
        return -1;
    return result(p, b, t);
}

/* i1, or a shape of i1 like t. */
static iron__mlir_type *bool_like(P *p, const iron__mlir_type *t)
{
    iron__mlir_type *i1 = iron__mlir_p_int_type(p, 1, 0);
    if (!i1 || (t->kind != IRON__MT_VECTOR && t->kind != IRON__MT_TENSOR))
        return i1;
    iron__mlir_type *s = iron__mlir_alloc(p->m, sizeof *s);
    if (!s) {
        iron__mlir_p_nomem(p);
        return NULL;
    }
    *s = *t;
    s->elem = i1;
    return s;
}

/* ---- %r = arith.cmpi slt, %a, %b : T ---- */
static int compare(P *p, B *b)
{
    iron__mlir_attr *pred;
    iron__mlir_type *t;
    if (iron__mlir_p_keyword(p, "a predicate (slt, oeq, ...)", &pred) ||
        add_attr(p, b, "predicate", pred) ||
        expect(p, IRON__TK_COMMA, NULL) || operands(p, b, 2))
        return -1;
    if (flags(p, b, "fastmath", "fastmath") ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the type") ||
        iron__mlir_p_type(p, &t))
        return -1;
    iron__mlir_type *ts[2] = { t, t };
    if (check_operands(p, b, 0, ts, 2))
        return -1;
    return result(p, b, bool_like(p, t));
}

/* ---- %r = arith.select %c, %a, %b : [Tc,] T ---- */
static int select_op(P *p, B *b)
{
    iron__mlir_type **ts;
    int n;
    if (operands(p, b, 3))
        return -1;
    iron__mlir_loc tloc;
    if (iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the type"))
        return -1;
    tloc = p->tok.loc;
    if (iron__mlir_p_type_list(p, &ts, &n))
        return -1;
    if (n > 2)
        return iron__mlir_p_fail(p, tloc, "arith.select takes 1 or 2 types");
    iron__mlir_type *t = ts[n - 1];
    iron__mlir_type *c = n == 2 ? ts[0] : iron__mlir_p_int_type(p, 1, 0);
    iron__mlir_type *all[3] = { c, t, t };
    if (!c || check_operands(p, b, 0, all, 3))
        return -1;
    return result(p, b, t);
}

/* ---- %r = arith.extsi %a : i16 to i32 ---- */
static int cast(P *p, B *b)
{
    iron__mlir_type *from, *to;
    if (iron__mlir_p_operand(p, b, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the types") ||
        iron__mlir_p_type(p, &from) || check_operands(p, b, 0, &from, 1) ||
        iron__mlir_p_expect_word(p, "to") || iron__mlir_p_type(p, &to))
        return -1;
    return result(p, b, to);
}

/* "%m[%i, %j]" then ": memref<...>": operands and the memref type. */
static int indexed(P *p, B *b, iron__mlir_type **mt)
{
    int m = b->noperands;
    if (iron__mlir_p_operand(p, b, NULL) ||
        expect(p, IRON__TK_LBRACKET, NULL))
        return -1;
    if (p->tok.kind != IRON__TK_RBRACKET && iron__mlir_p_use_list(p, b))
        return -1;
    if (expect(p, IRON__TK_RBRACKET, NULL) ||
        iron__mlir_p_opt_attr_dict(p, b) ||
        expect(p, IRON__TK_COLON, "':' and the memref's type"))
        return -1;
    iron__mlir_loc tloc = p->tok.loc;
    if (iron__mlir_p_type(p, mt) || check_operands(p, b, m, mt, 1))
        return -1;
    if ((*mt)->kind != IRON__MT_MEMREF)
        return iron__mlir_p_fail(p, tloc, "expected a memref type");
    iron__mlir_type *idx = iron__mlir_p_index_type(p);
    if (!idx)
        return -1;
    for (int i = m + 1; i < b->noperands; i++)
        if (iron__mlir_p_check_type(p, b->operands[i], b->operand_locs[i],
                                    idx))
            return -1;
    return 0;
}

/* ---- %v = memref.load %m[%i] : memref<...> ---- */
static int load(P *p, B *b)
{
    iron__mlir_type *mt;
    if (indexed(p, b, &mt))
        return -1;
    return result(p, b, mt->elem);
}

/* ---- memref.store %v, %m[%i] : memref<...> ---- */
static int store(P *p, B *b)
{
    iron__mlir_type *mt;
    if (iron__mlir_p_operand(p, b, NULL) || expect(p, IRON__TK_COMMA, NULL) ||
        indexed(p, b, &mt))
        return -1;
    return check_operands(p, b, 0, &mt->elem, 1);
}

/* "(%a = %init, ...)" into args (names) and b's operands. */
static int assignments(P *p, B *b, iron__mlir_barg **args, int *n)
{
    int cap = 0;
    *args = NULL;
    *n = 0;
    if (expect(p, IRON__TK_LPAREN, NULL))
        return -1;
    if (p->tok.kind != IRON__TK_RPAREN) {
        for (;;) {
            if (p->tok.kind != IRON__TK_VALUE)
                return iron__mlir_p_expected(p, "%name = value");
            if (iron__mlir_p_grow(p, (void **)args, &cap, *n + 1,
                                  sizeof **args))
                return -1;
            (*args)[*n].name = p->tok.p;
            (*args)[*n].n = p->tok.n;
            (*args)[*n].loc = p->tok.loc;
            (*args)[*n].type = NULL;
            if (iron__mlir_p_next(p) || expect(p, IRON__TK_EQUAL, NULL) ||
                iron__mlir_p_operand(p, b, NULL))
                return -1;
            (*n)++;
            int c = accept(p, IRON__TK_COMMA);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
    }
    return expect(p, IRON__TK_RPAREN, NULL);
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

/* ---- scf.for %i = %lb to %ub step %s [iter_args(%a = %x) -> (T)]
 *      [: T] { ... } ---- */
static int scf_for(P *p, B *b)
{
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
    if (check_operands(p, b, 0, bounds, 3) ||
        check_operands(p, b, 3, ts, n))
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
        if (result(p, b, ts[i]))
            return -1;
    return 0;
}

/* ---- %r = scf.while (%a = %x) : (T) -> R { ... } do { ... } ---- */
static int scf_while(P *p, B *b)
{
    iron__mlir_barg *args;
    int n;
    if (assignments(p, b, &args, &n) ||
        expect(p, IRON__TK_COLON, "':' and the loop's type"))
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
        iron__mlir_p_expect_word(p, "do") ||
        iron__mlir_p_region(p, b, NULL, 0, 0) ||
        iron__mlir_p_opt_attributes_kw(p, b))
        return -1;
    for (int i = 0; i < ft->nout; i++)
        if (result(p, b, ft->out[i]))
            return -1;
    return 0;
}

/* ---- [%r =] scf.if %c [-> (T)] { ... } [else { ... }] ---- */
static int scf_if(P *p, B *b)
{
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
        if (result(p, b, ts[i]))
            return -1;
    return 0;
}

static const struct {
    const char *name;
    iron__mlir_custom_fn fn;
} forms[] = {
    { "builtin.module", module },
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

iron__mlir_custom_fn iron__mlir_p_custom_std(const char *name)
{
    for (size_t i = 0; i < IRON__COUNT_OF(forms); i++)
        if (strcmp(forms[i].name, name) == 0)
            return forms[i].fn;
    switch (iron__mlir_arith_form(name)) {
    case IRON__MLIR_ARITH_BINARY:
        return binary;
    case IRON__MLIR_ARITH_CAST:
        return cast;
    default:
        return NULL;
    }
}
