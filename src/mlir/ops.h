/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ops.h - the op registry: every op the MLIR bridge knows, described
 * once (ops.c).  One entry drives the parser (which attributes are
 * inherent, enum words, the custom form, the implicit terminator), the
 * custom-form printer (the same format, run the other way) and the
 * generic-form printer (inherent attributes in <{...}>, enums as
 * integers, generic attribute names).  An upstream syntax change that
 * alters how an op is written is one edit to its entry, or to the
 * directive its format names (forms_*.c); one that alters what an op is
 * called or holds across versions is a row of the version table
 * (version.c).
 *
 * A format is a space-separated list of elements, each printed in turn
 * (a space between them, none after '(' or '[' nor before '(', ')',
 * ']', ',', or '[' after a value) and parsed in turn:
 *
 *   ( ) [ ] { } , : -> =  the punctuation itself
 *   'word'          a keyword (to, step, do)
 *   $name:kind      inherent attribute `name`, written by kind:
 *                   i32 / ui32 / i64  a bare integer of that type
 *                   kw    an enum case: a bare word (or a string)
 *                   ref   a symbol reference, @name (SYMREF)
 *                   sym   a symbol's own name, @name (a STR attribute)
 *                   refs  [@a, @b]    ints  [1, 2] (untyped)
 *                   attr  any attribute in MLIR's attribute syntax
 *   %N              operand N; %N:index, %N:i1 say its type;
 *                   %N:r says it has the type of result 0
 *   %N*             operands N..end, comma-separated (maybe none)
 *   type(%N)        operand N's type (parsed: checked against it);
 *   type(%N*)       their types, comma-separated
 *   rtype / rtypes  the result's type / the results' types (parsed:
 *                   they make the results)
 *   attrs           {...} of the attributes the format does not write
 *                   (leaving out those at their default)
 *   attributes      the same after the keyword `attributes`
 *   region          the op's next region (its entry block's arguments
 *                   printed by the region, unless a directive did)
 *   @name           a directive (forms_*.c): a parse/print pair for a
 *                   piece no element above can say
 *   ?( ... )?       an optional group: printed when the first attribute
 *                   or operand in it is present (type(%N): operand N);
 *                   parsed when the text at that point can start it
 *                   (a directive reads its own optional parts)
 *
 * An op whose tree does not fit its format (an attribute of another
 * kind, a missing operand) prints in the generic form: nothing is lost.
 */
#ifndef IRON_MLIR_OPS_H
#define IRON_MLIR_OPS_H

#include <stdint.h>

#include "mlir/parse.h"
#include "mlir/print.h"

/* An enum attribute: its cases and their integers in the generic form
 * (upstream's I32EnumAttr / I64EnumAttr). */
typedef struct iron__mlir_enum_case {
    const char *name;
    int value;
} iron__mlir_enum_case;

typedef struct iron__mlir_enumdef {
    const char *what;                  /* "a lock action (Acquire, ...)" */
    const iron__mlir_enum_case *cases;
    int n, width;                      /* width: i32 or i64 */
} iron__mlir_enumdef;

/* An inherent attribute of an op. */
typedef struct iron__mlir_attrdef {
    const char *name;                  /* the tree's name */
    const iron__mlir_enumdef *e;       /* its enum, or NULL */
    const char *dflt;                  /* the custom form leaves it out at
                                          this value ("false", "1024") */
    const char *generic;               /* the generic form's name when it
                                          differs ("alloc"), or NULL */
} iron__mlir_attrdef;

typedef struct iron__mlir_fctx iron__mlir_fctx;

/* A directive of a format: what it reads and writes of the op. */
typedef struct iron__mlir_directive {
    const char *name;
    const char *const *attrs;          /* attributes it writes (NULL-
                                          terminated; left out of attrs) */
    int (*parse)(iron__mlir_parser *p, iron__mlir_opb *b,
                 iron__mlir_fctx *c);
    /* prints (nothing when w->dry); -1 when the op does not fit */
    int (*print)(iron__mlir_pr *w, const iron__mlir_op *op,
                 iron__mlir_fctx *c);
} iron__mlir_directive;

/* Normalising a parsed op (older spellings to the tree's one). */
typedef int (*iron__mlir_norm_fn)(iron__mlir_parser *p, iron__mlir_op *op);

enum {
    IRON__OPF_ISOLATED = 1,            /* regions see no outer value */
    IRON__OPF_ONE_BLOCK = 2,           /* an empty region still has its
                                          block */
    IRON__OPF_TERMINATOR = 4,          /* without operands it prints in
                                          the custom form only last in
                                          its block (else the next op's
                                          results would read as its
                                          operands) */
    IRON__OPF_INDEX = 8                /* one index result, implied */
};

typedef struct iron__mlir_opdef {
    const char *name;                  /* "aie.tile" */
    const char *format;                /* the custom form; NULL: generic */
    const iron__mlir_attrdef *attrs;   /* inherent attributes, name NULL
                                          at the end */
    int flags;                         /* IRON__OPF_* */
    const char *term;                  /* implicit terminator ("aie.end")
                                          the custom form leaves out */
    const char *alias;                 /* the name without its dialect,
                                          where MLIR allows it ("return"
                                          in a func.func), or NULL */
    iron__mlir_norm_fn norm;           /* extra normalising, or NULL */
} iron__mlir_opdef;

/* The entry of op `name`, or NULL. */
const iron__mlir_opdef *iron__mlir_opdef_find(const char *name);
/* The op an alias names ("module", "func", "call", "return"), or NULL. */
const char *iron__mlir_op_unalias(const char *word, size_t n);
/* The attribute's definition for op, or NULL (not inherent, or the op
 * unknown). */
const iron__mlir_attrdef *iron__mlir_attrdef_find(const iron__mlir_opdef *d,
                                                  const char *attr);
/* 1: inherent to op; 0: not; -1: the registry does not know the op. */
int iron__mlir_inherent(const char *op, const char *attr);
/* The enum case of word for op.attr: 1 and the integer (and its width),
 * or 0. */
int iron__mlir_enum_value(const char *op, const char *attr, const char *word,
                          int64_t *v, int *width);
/* The generic form's name of op.attr (the tree's name when the same). */
const char *iron__mlir_generic_attr_name(const iron__mlir_op *op,
                                         const char *attr);

/* --- the format interpreter (format.c) --- */

/* Parses the custom form of b's op after its name; 0 / -1. */
int iron__mlir_fmt_parse(iron__mlir_parser *p, iron__mlir_opb *b,
                         const iron__mlir_opdef *d);
/* Prints op's custom form (name included); 0, or -1 when it does not
 * fit (in a dry run: nothing printed). */
int iron__mlir_fmt_print(iron__mlir_pr *w, const iron__mlir_op *op,
                         const iron__mlir_opdef *d);
/* Normalises a finished op by its entry (enum words, renamed and
 * defaulted attributes, inherent flags). */
int iron__mlir_fmt_normalise(iron__mlir_parser *p, iron__mlir_op *op);

/* What a directive shares with the interpreter: the entry block
 * arguments it parsed for the next region (they are then not printed
 * by the region). */
struct iron__mlir_fctx {
    const iron__mlir_opdef *def;
    iron__mlir_barg *args;
    int nargs, cap_args;
    int args_given;                    /* a directive gave them */
    int operands_done;                 /* a directive printed them all */
    int results_done;                  /* ... the results' types */
    int regions_done;                  /* ... the regions */
    const char *keep;                  /* an attribute of its list the
                                          directive left to `attrs` */
};

/* The directive named name (n bytes), or NULL: forms_aie.c and
 * forms_std.c each hold a table. */
const iron__mlir_directive *iron__mlir_directive_find(const char *name,
                                                      size_t n);
extern const iron__mlir_directive iron__mlir_directives_aie[];
extern const iron__mlir_directive iron__mlir_directives_std[];
extern const int iron__mlir_ndirectives_aie, iron__mlir_ndirectives_std;

/* The normalising hooks of a few aie ops (forms_aie.c). */
int iron__mlir_norm_objectfifo(iron__mlir_parser *p, iron__mlir_op *op);
int iron__mlir_norm_link(iron__mlir_parser *p, iron__mlir_op *op);
int iron__mlir_norm_acquire(iron__mlir_parser *p, iron__mlir_op *op);
int iron__mlir_norm_memcpy(iron__mlir_parser *p, iron__mlir_op *op);
int iron__mlir_norm_rtp_write(iron__mlir_parser *p, iron__mlir_op *op);
int iron__mlir_norm_sequence(iron__mlir_parser *p, iron__mlir_op *op);
int iron__mlir_norm_use_lock(iron__mlir_parser *p, iron__mlir_op *op);
int iron__mlir_norm_dma_bd(iron__mlir_parser *p, iron__mlir_op *op);

/* Helpers the directives share (format.c). */
const iron__mlir_type *iron__mlir_vtype(const iron__mlir_module *m, int id);
int iron__mlir_is_index(const iron__mlir_type *t);
int iron__mlir_is_int(const iron__mlir_type *t, int width);
/* An integer a custom form writes bare and its parser types as i32
 * (ui32: unsigned) fits that type. */
int iron__mlir_i32_ok(const iron__mlir_attr *a);
int iron__mlir_ui32_ok(const iron__mlir_attr *a);
/* An attribute of kind k whose items are all of kind item. */
int iron__mlir_all_of(const iron__mlir_attr *a, iron__mlir_akind k,
                      iron__mlir_akind item);
/* "[<size = s, stride = t>, ...]" */
void iron__mlir_pr_dims(iron__mlir_pr *w, const iron__mlir_attr *a);
/* "[1, 2]" of INT items */
void iron__mlir_pr_ints(iron__mlir_pr *w, const iron__mlir_attr *a);
/* A keyword printed bare, or quoted when it is a string. */
void iron__mlir_pr_word(iron__mlir_pr *w, const iron__mlir_attr *a);
/* Adds a new attribute of kind k named name to b (NULL on failure). */
iron__mlir_attr *iron__mlir_p_add(iron__mlir_parser *p, iron__mlir_opb *b,
                                  const char *name, iron__mlir_akind k,
                                  iron__mlir_loc loc);
/* Sets or adds attribute name of a finished op. */
int iron__mlir_p_set(iron__mlir_parser *p, iron__mlir_op *op,
                     const char *name, iron__mlir_attr *a);

#endif
