/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * print.h - the MLIR printers' internal interface: print.c (the frame,
 * values, types, attributes, the generic form, cores as functions); the
 * custom forms are the op registry's (ops.h, format.c).
 */
#ifndef IRON_MLIR_PRINT_H
#define IRON_MLIR_PRINT_H

#include "mlir/ast.h"

typedef struct iron__mlir_pr {
    const iron__mlir_module *m;
    iron__str *s;
    int generic;                 /* 1: every op in the generic form */
    int indent;                  /* nesting level (2 spaces each) */
    int dry;                     /* 1: check only, print nothing */
    int at_end;                  /* the op printed ends its block (a
                                    terminator's custom form, whose
                                    operands are optional, would read
                                    the next op's results as its own) */
} iron__mlir_pr;

/* Text (nothing when dry). */
void iron__mlir_pr_out(iron__mlir_pr *w, const char *text);
void iron__mlir_pr_outf(iron__mlir_pr *w, const char *fmt, ...)
    IRON__PRINTF(2, 3);
void iron__mlir_pr_newline(iron__mlir_pr *w);   /* "\n" and the indent */

/* A value's name ("%_12" when it has none). */
void iron__mlir_pr_value(iron__mlir_pr *w, int id);
void iron__mlir_pr_values(iron__mlir_pr *w, const int *ids, int n);
/* "%a, %b:2 = " for an op's results (nothing without results). */
void iron__mlir_pr_results(iron__mlir_pr *w, const iron__mlir_op *op);
void iron__mlir_pr_type(iron__mlir_pr *w, const iron__mlir_type *t);
/* "t1, t2" of values' types. */
void iron__mlir_pr_value_types(iron__mlir_pr *w, const int *ids, int n);
/* "(t1, t2) -> r" / "-> (r1, r2)" as MLIR prints a functional type. */
void iron__mlir_pr_functional(iron__mlir_pr *w, const int *ins, int nin,
                              const int *outs, int nout);
/* A symbol reference (@a, @a::@b, @"q s") and a symbol's own name (no
 * nesting: "a::@b" is quoted). */
void iron__mlir_pr_symbol(iron__mlir_pr *w, const char *name);
void iron__mlir_pr_symdef(iron__mlir_pr *w, const char *name);
/* An attribute in the op's context (op name and attribute name decide
 * the spelling of enums and of AIE's dimension lists). */
void iron__mlir_pr_attr(iron__mlir_pr *w, const iron__mlir_attr *a,
                        const char *op, const char *name);
/* " {a = 1, b}" of op's attributes but those named in `skip`
 * (NULL-terminated; nothing when none is left); sorted by name. */
void iron__mlir_pr_attr_dict(iron__mlir_pr *w, const iron__mlir_op *op,
                             const char *const *skip);
/* dense<...> without its type (initial values, whose type the op
 * implies). */
void iron__mlir_pr_dense_body(iron__mlir_pr *w, const iron__mlir_attr *a);
/* Whether s is a bare identifier (printed without quotes). */
int iron__mlir_pr_is_bare(const char *s);
/* A number as MLIR writes it. */
void iron__mlir_pr_float(iron__mlir_pr *w, double f,
                         const iron__mlir_type *t);

/* One op (indent and newline not included), in the generic form or the
 * custom form the printer knows. */
void iron__mlir_pr_op(iron__mlir_pr *w, const iron__mlir_op *op);
void iron__mlir_pr_op_generic(iron__mlir_pr *w, const iron__mlir_op *op);
/* "{ ... }" of a region: blocks, ops one per line.  The entry block's
 * header ("^bb0(%a: T):") is printed when entry_args is 1 and the block
 * has arguments, or 2 (the generic form) and the block has arguments or
 * no op; never when 0 (the op prints its arguments);
 * `drop_last`, when not NULL, is the name of a trailing op without
 * operands or attributes the custom form leaves implicit. */
void iron__mlir_pr_region(iron__mlir_pr *w, const iron__mlir_region *r,
                          int entry_args, const char *drop_last);

#endif
