/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * build.h - making an MLIR tree (ast.h) in code, as the exporter does:
 * ops appended in order to the block being filled, their operands,
 * results, attributes and regions, and the types and attributes they
 * take.  Everything lives in the module's arena.
 *
 * Failures are sticky, as in a builder of the iron API: a call that runs
 * out of memory (or past IRON__MLIR_MAX_VALUES) marks the builder failed
 * and returns NULL or -1; every call accepts those as inputs and does
 * nothing with them, so a caller builds straight through and asks
 * iron__mlir_b_status once at the end.
 *
 * Attributes are flagged inherent (prop) as known.c says for the op, so
 * a built op is the op the parser makes of its text.  Only ops, blocks
 * and lists made here are appended to (their arrays grow in place).
 */
#ifndef IRON_MLIR_BUILD_H
#define IRON_MLIR_BUILD_H

#include "mlir/ast.h"

typedef struct iron__mlir_b {
    iron__mlir_module *m;     /* the module being built (the caller's) */
    int failed;               /* sticky */
} iron__mlir_b;

/* A new module whose top op is an empty builtin.module with one block.
 * IRON_ENOMEM; on failure b->m is NULL. */
iron_status iron__mlir_b_start(iron__mlir_b *b);
/* IRON_OK, or IRON_ENOMEM "out of memory building <what>" when any call
 * failed. */
iron_status iron__mlir_b_status(const iron__mlir_b *b, const char *what);

/* --- types --------------------------------------------------------------- */

/* IRON__MT_INT (width, sign 0 signless / 1 si / 2 ui), IRON__MT_FLOAT
 * (width; sign 1: bf16), IRON__MT_INDEX, IRON__MT_NONE. */
iron__mlir_type *iron__mlir_b_scalar(iron__mlir_b *b, iron__mlir_tkind kind,
                                     int width, int sign);
/* IRON__MT_MEMREF, _TENSOR or _VECTOR of elem with rank dims. */
iron__mlir_type *iron__mlir_b_shaped(iron__mlir_b *b, iron__mlir_tkind kind,
                                     iron__mlir_type *elem, int rank,
                                     const int64_t *dims);
/* !dialect.name<elem> */
iron__mlir_type *iron__mlir_b_dialect(iron__mlir_b *b, const char *dialect,
                                      const char *name,
                                      iron__mlir_type *elem);
/* (in...) -> (out...); the arrays are copied. */
iron__mlir_type *iron__mlir_b_functype(iron__mlir_b *b, int nin,
                                       iron__mlir_type *const *in, int nout,
                                       iron__mlir_type *const *out);

/* --- attributes ---------------------------------------------------------- */

/* IRON__MA_INT (i, type: NULL for untyped), _BOOL (i), _UNIT. */
iron__mlir_attr *iron__mlir_b_int(iron__mlir_b *b, iron__mlir_akind kind,
                                  int64_t i, iron__mlir_type *type);
iron__mlir_attr *iron__mlir_b_float(iron__mlir_b *b, double f,
                                    iron__mlir_type *type);
/* IRON__MA_STR, _SYMREF (the name without '@'), _KEYWORD, _OPAQUE. */
iron__mlir_attr *iron__mlir_b_text(iron__mlir_b *b, iron__mlir_akind kind,
                                   const char *s);
iron__mlir_attr *iron__mlir_b_type(iron__mlir_b *b, iron__mlir_type *t);
iron__mlir_attr *iron__mlir_b_dim(iron__mlir_b *b, int64_t size,
                                  int64_t stride);
/* An empty IRON__MA_ARRAY, _DENSE_ARRAY (type: the element type), _DENSE
 * (type: the tensor type) or _DICT, filled with iron__mlir_b_item. */
iron__mlir_attr *iron__mlir_b_list(iron__mlir_b *b, iron__mlir_akind kind,
                                   iron__mlir_type *type);
/* Appends item to list (key: the dictionary's key, else NULL). */
void iron__mlir_b_item(iron__mlir_b *b, iron__mlir_attr *list,
                       const char *key, iron__mlir_attr *item);

/* --- ops, regions, values ------------------------------------------------ */

/* A new op `name` at the end of the last block of parent's last region
 * (parent NULL: the module's top op). */
iron__mlir_op *iron__mlir_b_op(iron__mlir_b *b, iron__mlir_op *parent,
                               const char *name);
void iron__mlir_b_operand(iron__mlir_b *b, iron__mlir_op *op, int value);
/* A new result of op of type t named `name` ("%0"; NULL: unnamed); its
 * value id, or -1. */
int iron__mlir_b_result(iron__mlir_b *b, iron__mlir_op *op,
                        iron__mlir_type *t, const char *name);
/* Sets attribute `name` of op (appended; inherent as known.c says). */
void iron__mlir_b_set(iron__mlir_b *b, iron__mlir_op *op, const char *name,
                      iron__mlir_attr *a);
/* A new region of op, with one empty block (returned) or, when
 * with_block is 0, none (NULL is then no failure). */
iron__mlir_block *iron__mlir_b_region(iron__mlir_b *b, iron__mlir_op *op,
                                      int with_block);
/* A new argument of block (NULL: a value no op or block defines, which
 * prints by its name); its id, or -1. */
int iron__mlir_b_arg(iron__mlir_b *b, iron__mlir_block *block,
                     iron__mlir_type *t, const char *name);

#endif
