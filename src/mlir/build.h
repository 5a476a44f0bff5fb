/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * build.h - making an MLIR tree (ast.h) in code, as the exporter does:
 * ops appended in order to the block being filled, with their operands,
 * results, attributes and regions, and the types and attributes they
 * take.  Everything lives in the module's arena.
 *
 * Failures are sticky: a call that runs out of memory (or past
 * IRON__MLIR_MAX_VALUES) marks the builder failed and returns NULL or
 * -1, and every call takes those as inputs and does nothing with them,
 * so a caller builds straight through and asks iron__mlir_b_status once
 * at the end.  Attributes are flagged inherent (prop) as the op registry (ops.c) says
 * for the op, so that a built op is the op the parser makes of its text.
 * Only ops, blocks and lists made here are appended to (their arrays
 * grow in place).
 */
#ifndef IRON_MLIR_BUILD_H
#define IRON_MLIR_BUILD_H

#include "mlir/ast.h"

typedef struct iron__mlir_b {
    iron__mlir_module *m;     /* the module being built (the caller's) */
    int failed;               /* sticky: bit 0 out of memory, bit 1 a spec
                                 or type name build.h does not know (a
                                 bug) */
} iron__mlir_b;

/* A new module whose top op is a builtin.module with one empty block.
 * IRON_ENOMEM; b->m is NULL then. */
iron_status iron__mlir_b_start(iron__mlir_b *b);
/* IRON_OK, or IRON_ENOMEM "out of memory building <what>" when a call
 * failed (IRON_EINVAL naming the bug for a bad spec or type name). */
iron_status iron__mlir_b_status(const iron__mlir_b *b, const char *what);

/* Types: a builtin scalar by its name ("i32", "ui8", "si16", "index",
 * "bf16", "f32"); a MEMREF, TENSOR or VECTOR of elem with rank dims;
 * !dialect.name<elem>; (in...) -> (out...) (the arrays copied). */
iron__mlir_type *iron__mlir_b_scalar(iron__mlir_b *b, const char *name);
iron__mlir_type *iron__mlir_b_shaped(iron__mlir_b *b, iron__mlir_tkind kind,
                                     iron__mlir_type *elem, int rank,
                                     const int64_t *dims);
iron__mlir_type *iron__mlir_b_dialect(iron__mlir_b *b, const char *dialect,
                                      const char *name,
                                      iron__mlir_type *elem);
iron__mlir_type *iron__mlir_b_functype(iron__mlir_b *b, int nin,
                                       iron__mlir_type *const *in, int nout,
                                       iron__mlir_type *const *out);

/* Attributes: of `kind` with i (INT, BOOL, DIM: the size) and type
 * (INT: NULL for untyped; TYPE; DENSE_ARRAY: the element type; DENSE:
 * the tensor type); UNIT, and the lists ARRAY, DENSE_ARRAY, DENSE and
 * DICT empty, to fill with iron__mlir_b_item. */
iron__mlir_attr *iron__mlir_b_attr(iron__mlir_b *b, iron__mlir_akind kind,
                                   int64_t i, iron__mlir_type *type);
iron__mlir_attr *iron__mlir_b_float(iron__mlir_b *b, double f,
                                    iron__mlir_type *type);
/* STR, SYMREF (the name without '@'), KEYWORD or OPAQUE. */
iron__mlir_attr *iron__mlir_b_text(iron__mlir_b *b, iron__mlir_akind kind,
                                   const char *s);
iron__mlir_attr *iron__mlir_b_dim(iron__mlir_b *b, int64_t size,
                                  int64_t stride);
/* Appends item to list (key: a DICT's, else NULL); returns list. */
iron__mlir_attr *iron__mlir_b_item(iron__mlir_b *b, iron__mlir_attr *list,
                                   const char *key, iron__mlir_attr *item);

/* A new op `name` at the end of the last block of parent's last region
 * (parent NULL: the module's top op), made by `spec`: items separated by
 * spaces, each taking the next arguments:
 *   %            an operand: int (a value id)
 *   =            a result: iron__mlir_type *, then its name (const char *,
 *                "%0"; NULL: none)
 *   NAME:KIND    attribute NAME from the next argument, by KIND:
 *                  i32 i64 ui32 ...  int64_t, an integer of that type
 *                  int           int64_t, untyped
 *                  bool          int
 *                  str sym kw    const char *: a string, a symbol
 *                                reference (no '@'), a keyword
 *                  type          iron__mlir_type *
 *                  attr          iron__mlir_attr *, as it is
 *   ?NAME:KIND   the same, left out when the argument is 0 or NULL.
 * e.g. iron__mlir_b_op(b, dev, "aie.tile", "col:i32 row:i32 =",
 *                      (int64_t)2, (int64_t)0, index, "%tile_2_0"). */
iron__mlir_op *iron__mlir_b_op(iron__mlir_b *b, iron__mlir_op *parent,
                               const char *name, const char *spec, ...);
void iron__mlir_b_operand(iron__mlir_b *b, iron__mlir_op *op, int value);
/* A new result of op of type t named `name` (NULL: none); its value id,
 * or -1. */
int iron__mlir_b_result(iron__mlir_b *b, iron__mlir_op *op,
                        iron__mlir_type *t, const char *name);
/* A new region of op with one empty block (returned) or, when
 * with_block is 0, none (NULL is then no failure). */
iron__mlir_block *iron__mlir_b_region(iron__mlir_b *b, iron__mlir_op *op,
                                      int with_block);
/* A new argument of block (NULL: a value no op or block defines, which
 * prints by its name); its id, or -1. */
int iron__mlir_b_arg(iron__mlir_b *b, iron__mlir_block *block,
                     iron__mlir_type *t, const char *name);

#endif
