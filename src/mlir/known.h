/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * known.h - what the MLIR parser and printers know of the ops ast.h
 * lists (and a few neighbours): which attributes are inherent (printed
 * in <{...}> by the generic form), the integer each enum case is in
 * the generic form (upstream's I32EnumAttr / I64EnumAttr values), and
 * which arith ops share the binary and cast custom forms.
 */
#ifndef IRON_MLIR_KNOWN_H
#define IRON_MLIR_KNOWN_H

#include <stdint.h>

/* 1: `attr` is inherent to op `op`; 0: it is not; -1: the tables do not
 * know the op. */
int iron__mlir_inherent(const char *op, const char *attr);

/* The enum attribute op.attr: the integer of case `word` (1; *width =
 * the integer's type width), or 0 when the attribute is no enum of the
 * tables or the word no case of it. */
int iron__mlir_enum_value(const char *op, const char *attr, const char *word,
                          int64_t *v, int *width);
/* The case of integer v of enum attribute op.attr, or NULL. */
const char *iron__mlir_enum_name(const char *op, const char *attr,
                                 int64_t v);
/* Whether op.attr is an enum of the tables. */
int iron__mlir_is_enum(const char *op, const char *attr);

/* The custom form an arith op shares with others of its kind, so that
 * the parser and the printer know the same ops: "%r = arith.addi %a, %b :
 * T" (binary) or "%r = arith.extsi %a : T to U" (cast). */
enum {
    IRON__MLIR_ARITH_OTHER,
    IRON__MLIR_ARITH_BINARY,
    IRON__MLIR_ARITH_CAST
};
int iron__mlir_arith_form(const char *op);

#endif
