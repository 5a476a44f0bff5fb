/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * parse.h - the MLIR parser's internal interface, shared by its files:
 * parse.c (text, ops, regions, values), parse_type.c, parse_attr.c; the
 * custom forms and the one spelling per op whatever the form or version
 * come from the op registry (ops.h).
 *
 * Every function returns 0, or -1 with the failure recorded in p->st and
 * the thread's message (the first failure wins; later ones are dropped).
 * Everything allocated goes into the module's arena, so a failure needs
 * no cleanup besides freeing the module.
 */
#ifndef IRON_MLIR_PARSE_H
#define IRON_MLIR_PARSE_H

#include <stdint.h>

#include "mlir/ast.h"
#include "mlir/lex.h"

/* An op while it is parsed: what both forms fill in, turned into an
 * iron__mlir_op at the end.  Arrays grow in the arena. */
typedef struct iron__mlir_opb {
    iron__mlir_op *op;           /* allocated first: regions point to it */
    int *operands;
    iron__mlir_loc *operand_locs;
    int noperands, cap_operands;
    iron__mlir_named *attrs;
    int nattrs, cap_attrs;
    iron__mlir_region **regions;
    int nregions, cap_regions;
    iron__mlir_type **rtypes;    /* result types */
    int nrtypes, cap_rtypes;
    char **succ;
    int nsucc, cap_succ;
} iron__mlir_opb;

/* Arguments a custom form gives the entry block of a region it parses
 * (func.func's parameters, scf.for's induction variable). */
typedef struct iron__mlir_barg {
    const char *name;            /* "%arg0" (not NUL-terminated) */
    size_t n;
    iron__mlir_type *type;
    iron__mlir_loc loc;
} iron__mlir_barg;

/* A defined name: values (%x) and block labels (^bb1). */
typedef struct iron__mlir_def {
    const char *name;            /* NUL-terminated, in the arena */
    int id;                      /* value id or block index */
    int scope;                   /* the scope level it was defined at */
    int next;                    /* older definition in the same bucket */
    void *block;                 /* block labels: the block */
} iron__mlir_def;

typedef struct iron__mlir_alias {
    const char *name;            /* "#map" / "!t" with the sigil */
    size_t n;
    iron__mlir_attr *attr;
    iron__mlir_type *type;
} iron__mlir_alias;

typedef struct iron__mlir_parser {
    iron__mlir_lexer lx;
    iron__mlir_token tok;        /* the current token */
    iron__mlir_module *m;
    const char *file;
    iron_status st;              /* IRON_OK until the first failure */
    int depth;                   /* regions + types + attributes open */
    long nops;
    long nitems;
    const char *opname;          /* the op being parsed, for messages */
    iron__mlir_loc oploc;
    /* names: a stack of definitions, hashed for lookup */
    iron__mlir_def *defs;
    int ndefs, cap_defs;
    int *buckets;                /* head definition index, or -1 */
    int nbuckets;
    int scope;                   /* current scope level */
    int barrier;                 /* values below this level are hidden
                                    (an isolated-from-above op) */
    iron__mlir_alias *aliases;
    int naliases, cap_aliases;
    size_t close_off;            /* offset of the closer the last skip
                                    consumed */
} iron__mlir_parser;

/* --- errors and tokens (parse.c) --- */
int iron__mlir_p_fail(iron__mlir_parser *p, iron__mlir_loc loc,
                      const char *fmt, ...) IRON__PRINTF(3, 4);
/* "expected WHAT, found <the current token>" at the current token. */
int iron__mlir_p_expected(iron__mlir_parser *p, const char *what);
int iron__mlir_p_nomem(iron__mlir_parser *p);
int iron__mlir_p_next(iron__mlir_parser *p);
/* The current token is k: consume it (1); else 0. */
int iron__mlir_p_accept(iron__mlir_parser *p, iron__mlir_tok k);
/* Consume a k, or fail naming what was expected. */
int iron__mlir_p_expect(iron__mlir_parser *p, iron__mlir_tok k,
                        const char *what);
/* The current token is the bare word w. */
int iron__mlir_p_is_word(const iron__mlir_parser *p, const char *w);
int iron__mlir_p_accept_word(iron__mlir_parser *p, const char *w);
int iron__mlir_p_expect_word(iron__mlir_parser *p, const char *w);
/* Enter one more level of nesting (fails past IRON__MLIR_MAX_DEPTH). */
int iron__mlir_p_enter(iron__mlir_parser *p);
void iron__mlir_p_leave(iron__mlir_parser *p);
/* Counts n more attribute items against IRON__MLIR_MAX_ITEMS. */
int iron__mlir_p_items(iron__mlir_parser *p, long n);
/* Grows an arena array of elsize-byte elements to hold need (doubling). */
int iron__mlir_p_grow(iron__mlir_parser *p, void **arr, int *cap,
                      int need, size_t elsize);
/* One item of a comma-separated list, parsed at the current token. */
typedef int (*iron__mlir_p_item_fn)(iron__mlir_parser *p, void *ctx);
/* One or more items `one` parses, separated by commas. */
int iron__mlir_p_commas(iron__mlir_parser *p, iron__mlir_p_item_fn one,
                        void *ctx);
/* A possibly empty comma-separated list closed by `close` (the opening
 * token already consumed), then the close, which when missing fails
 * naming `what` as iron__mlir_p_expect does. */
int iron__mlir_p_list(iron__mlir_parser *p, iron__mlir_tok close,
                      const char *what, iron__mlir_p_item_fn one, void *ctx);
/* The same list gathered as the items of the array attribute a, each
 * counted against IRON__MLIR_MAX_ITEMS and parsed by `one` into its
 * slot. */
int iron__mlir_p_attr_items(iron__mlir_parser *p, iron__mlir_attr *a,
                            iron__mlir_tok close, const char *what,
                            int (*one)(iron__mlir_parser *,
                                       iron__mlir_attr **));
/* Skips a trailing loc(...) if there is one (locations are dropped). */
int iron__mlir_p_opt_loc(iron__mlir_parser *p);
/* A copy of the current token's text. */
char *iron__mlir_p_tokdup(iron__mlir_parser *p);
/* Skips a balanced (...) group starting at the current '(' (loc(...)). */
int iron__mlir_p_skip_parens(iron__mlir_parser *p);
/* prefix and the source text [from, to) as one line: comments dropped,
 * line breaks and tabs made spaces, trailing spaces trimmed (text kept
 * as written, printed back on one line). */
char *iron__mlir_p_slice(iron__mlir_parser *p, const char *prefix,
                         size_t from, size_t to);
/* The source text from byte offset `from` to where the current token
 * starts, as iron__mlir_p_slice makes it. */
char *iron__mlir_p_text_since(iron__mlir_parser *p, size_t from);
/* Byte offset of the current token. */
size_t iron__mlir_p_offset(const iron__mlir_parser *p);
/* Skips to the token after the '>' that closes the '<' already consumed
 * (brackets, parens and braces balanced); p->close_off is the '>'. */
int iron__mlir_p_skip_angle(iron__mlir_parser *p);

/* The alias named name ("#map", "!t"; n bytes), or NULL. */
const iron__mlir_alias *iron__mlir_p_alias(const iron__mlir_parser *p,
                                           const char *name, size_t n);

/* --- values (parse.c) --- */
/* The value id a use names (the current token, a %value), consumed. */
int iron__mlir_p_use(iron__mlir_parser *p, int *id, iron__mlir_loc *loc);
/* A use whose type the text states: checked against the definition. */
int iron__mlir_p_check_type(iron__mlir_parser *p, int id,
                            iron__mlir_loc loc, const iron__mlir_type *t);
/* A parenthesised or bare list of uses, "%a, %b"; bare lists end at the
 * first token that is no value. */
int iron__mlir_p_use_list(iron__mlir_parser *p, iron__mlir_opb *b);

/* --- op builder (parse.c) --- */
/* A use as the op's next operand; its type checked when expect is
 * given. */
int iron__mlir_p_operand(iron__mlir_parser *p, iron__mlir_opb *b,
                         const iron__mlir_type *expect);
/* A plain integer (custom forms) as attribute `name` of type t. */
int iron__mlir_p_int_named(iron__mlir_parser *p, iron__mlir_opb *b,
                           const char *name, iron__mlir_type *t);
/* Appends op `name` (no operands, results or attributes) to the last
 * block of region r (made when r has none) unless that block already
 * ends with such an op: the implicit terminators of custom forms. */
int iron__mlir_p_implicit_end(iron__mlir_parser *p, iron__mlir_region *r,
                              iron__mlir_op *parent, const char *name,
                              iron__mlir_loc loc);
int iron__mlir_opb_operand(iron__mlir_parser *p, iron__mlir_opb *b, int id,
                           iron__mlir_loc loc);
/* Adds a named attribute (name copied); fails on a duplicate name. */
int iron__mlir_opb_attr(iron__mlir_parser *p, iron__mlir_opb *b,
                        const char *name, iron__mlir_attr *a,
                        iron__mlir_loc loc);
int iron__mlir_opb_rtype(iron__mlir_parser *p, iron__mlir_opb *b,
                         iron__mlir_type *t);
/* Parses a region into a new region of b (entry arguments may be given:
 * then the entry block is made even when the region holds no op). */
int iron__mlir_p_region(iron__mlir_parser *p, iron__mlir_opb *b,
                        const iron__mlir_barg *args, int nargs,
                        int isolated);
/* Makes region r's block when it has none: single-block ops' custom
 * forms have their block even when empty. */
int iron__mlir_p_ensure_block(iron__mlir_parser *p, iron__mlir_region *r);
/* An empty region (no block) of b. */
int iron__mlir_opb_empty_region(iron__mlir_parser *p, iron__mlir_opb *b);
/* Parses "{a = 1, b}" (the current token is '{') into b's attributes. */
int iron__mlir_p_attr_dict_into(iron__mlir_parser *p, iron__mlir_opb *b,
                                int prop);
/* An optional "{...}" attribute dictionary / "attributes {...}". */
int iron__mlir_p_opt_attr_dict(iron__mlir_parser *p, iron__mlir_opb *b);
int iron__mlir_p_opt_attributes_kw(iron__mlir_parser *p, iron__mlir_opb *b);

/* --- types (parse_type.c) --- */
int iron__mlir_p_type(iron__mlir_parser *p, iron__mlir_type **out);
/* Whether the current token can start a type. */
int iron__mlir_p_at_type(const iron__mlir_parser *p);
/* "(t1, t2)" or a single type, into a new array. */
int iron__mlir_p_type_list_parens(iron__mlir_parser *p,
                                  iron__mlir_type ***out, int *n);
/* "t1, t2" (at least one). */
int iron__mlir_p_type_list(iron__mlir_parser *p, iron__mlir_type ***out,
                           int *n);
/* Built types. */
iron__mlir_type *iron__mlir_p_int_type(iron__mlir_parser *p, int width,
                                       int sign);
iron__mlir_type *iron__mlir_p_index_type(iron__mlir_parser *p);
/* The tensor type a memref's contents have (initial values). */
iron__mlir_type *iron__mlir_p_tensor_of(iron__mlir_parser *p,
                                        const iron__mlir_type *memref);

/* --- attributes (parse_attr.c) --- */
int iron__mlir_p_attr(iron__mlir_parser *p, iron__mlir_attr **out);
/* dense<...> with the '<' next; the type follows ': type', or is
 * `implied` when given and no ':' follows. */
int iron__mlir_p_dense(iron__mlir_parser *p, iron__mlir_type *implied,
                       iron__mlir_attr **out);
/* "[<size = 8, stride = 1>, ...]" (custom forms): an ARRAY of DIM. */
int iron__mlir_p_dim_list(iron__mlir_parser *p, iron__mlir_attr **out);
/* Fails unless v fits integer type t (the error at loc). */
int iron__mlir_p_check_int(iron__mlir_parser *p, int64_t v,
                           const iron__mlir_type *t, iron__mlir_loc loc);
/* "[<const_pad_before = 1, const_pad_after = 2>, ...]": an ARRAY of
 * OPAQUE "#aie.bd_pad_layout<...>". */
int iron__mlir_p_pad_list(iron__mlir_parser *p, iron__mlir_attr **out);
/* A plain integer (optional '-'), consumed. */
int iron__mlir_p_int(iron__mlir_parser *p, int64_t *v);
/* "[1, 2]" of plain integers into an ARRAY of INT (untyped). */
int iron__mlir_p_int_array(iron__mlir_parser *p, iron__mlir_attr **out);
/* A dictionary "{...}" into a DICT attribute. */
int iron__mlir_p_dict(iron__mlir_parser *p, iron__mlir_attr **out);
iron__mlir_attr *iron__mlir_p_new_attr(iron__mlir_parser *p,
                                       iron__mlir_akind k);
iron__mlir_attr *iron__mlir_p_int_attr(iron__mlir_parser *p, int64_t v,
                                       iron__mlir_type *t);
/* An enum case written as a word or a string (custom forms), into a
 * KEYWORD attribute. */
int iron__mlir_p_keyword(iron__mlir_parser *p, const char *what,
                         iron__mlir_attr **out);
/* A symbol reference "@name", into a SYMREF attribute. */
int iron__mlir_p_symref(iron__mlir_parser *p, iron__mlir_attr **out);
/* The decoded name of a symbol token (without '@'). */
char *iron__mlir_p_symname(iron__mlir_parser *p);
/* A string token, decoded. */
char *iron__mlir_p_string(iron__mlir_parser *p);

#endif
