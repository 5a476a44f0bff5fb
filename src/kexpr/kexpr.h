/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kexpr.h - a kernel's declared cost (iron_kernel_set_cycles): a small
 * integer expression over the kernel's scalar arguments, compiled once
 * when the design declares it and evaluated per kernel call with that
 * call's argument values.  A module of its own, below both the design
 * (which compiles it) and the program (which carries it to a driver), so
 * that neither includes the other for it; it needs only the base layer
 * and the public headers.
 *
 * The language (docs/kernels.md, "Declared cost"): decimal integer
 * literals, the kernel's scalar arguments by the name its declaration
 * gives them or by position ($0 is the first argument), + - * / % with
 * C's precedence and truncating division, unary minus, parentheses, and
 * min(a, b) / max(a, b).  Every value is a signed 64-bit integer.
 */
#ifndef IRON_KEXPR_KEXPR_H
#define IRON_KEXPR_KEXPR_H

#include <stdint.h>

#include "core/core.h"
#include "iron/iron_driver.h"

/* Limits that keep compiling and evaluating bounded (no allocation and
 * no deep recursion per call): text length, operations, and the depth of
 * parentheses and of the evaluation stack. */
#define IRON__KEXPR_TEXT_MAX 1024
#define IRON__KEXPR_OPS_MAX 256
#define IRON__KEXPR_DEPTH_MAX 32

/* A compiled expression: one block with no pointers inside, so that a
 * copy is a memcpy of iron__kexpr_bytes(e).  Immutable once compiled:
 * any number of threads may evaluate it at once. */
typedef struct iron__kexpr iron__kexpr;

/* What the expression may know of one declared argument of the kernel. */
typedef struct iron__kexpr_param {
    const char *name;      /* the declaration's name for it, or NULL */
    iron_dtype dtype;      /* its dtype (a pointer's element type) */
    int is_ptr;            /* an object pointer */
    const char *decl;      /* its declaration as messages write it, when
                              it is neither a dtype nor a pointer to one
                              ("fifo", "barrier", "kernel(...)"); else
                              NULL */
} iron__kexpr_param;

/* Compiles `text` for kernel `kernel` (its name, kept for run-time
 * messages) declared with params[0 .. nparams).  On success *out is the
 * expression (free with iron__kexpr_free).  Failures are IRON_EINVAL,
 * with a message that starts with `cycles "TEXT": ` and names what is
 * wrong -- the column of a syntax error, an unknown argument (with the
 * kernel's argument names and the closest one), a pointer or non-integer
 * argument, a literal or constant that overflows 64 bits, a division by
 * a constant zero, a constant expression below 0, a text or nesting past
 * the limits above -- or IRON_ENOMEM.  *out is NULL on failure. */
iron_status iron__kexpr_compile(const char *text, const char *kernel,
                                int nparams, const iron__kexpr_param *params,
                                iron__kexpr **out);

/* An independent copy of e (NULL when e is NULL or out of memory: the
 * caller tells them apart by e). */
iron__kexpr *iron__kexpr_copy(const iron__kexpr *e);
void iron__kexpr_free(iron__kexpr *e);

/* The text it was compiled from, and whether it uses no argument (then
 * *value, when value is not NULL, is the constant). */
const char *iron__kexpr_text(const iron__kexpr *e);
int iron__kexpr_is_constant(const iron__kexpr *e, int64_t *value);

/* The cycles one call costs: e evaluated with vals[i] the call's i-th
 * argument as the kernel's uniform wrapper receives it (iron__kval, in
 * the slot its dtype uses: .i for integers), each read as the declared
 * integer type reads it (an int16 argument given 70000 is 4464, as the
 * kernel sees it).  IRON_EINVAL, with a message naming the kernel, the
 * expression, the arguments' values and the value got, when the result
 * is negative, a step overflows 64 bits, or a division or remainder is by
 * zero; *cycles is then 0.  No allocation; thread-safe. */
iron_status iron__kexpr_eval(const iron__kexpr *e,
                             const iron_kernel_value *vals, int64_t *cycles);

#endif
