/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compiled.h - the compiled form of a declared cost, shared by the
 * compiler (compile.c) and the evaluator (eval.c) and by nothing else:
 * postfix operations over a small stack, in one pointer-free block.
 */
#ifndef IRON_KEXPR_COMPILED_H
#define IRON_KEXPR_COMPILED_H

#include "core/npu.h"
#include "kexpr/kexpr.h"

typedef enum kx_kind {
    KX_CONST,                 /* push v */
    KX_ARG,                   /* push argument `arg`, read as its dtype */
    KX_NEG,
    KX_ADD, KX_SUB, KX_MUL, KX_DIV, KX_MOD, KX_MIN, KX_MAX
} kx_kind;

typedef struct kx_op {
    int32_t kind;             /* kx_kind */
    int32_t arg;              /* KX_ARG: the kernel's argument index */
    int64_t v;                /* KX_CONST */
} kx_op;

/* An argument the expression reads: named in run-time messages. */
typedef struct kx_use {
    int index;                /* the kernel's argument index */
    iron_dtype dtype;
    uint32_t name;            /* offset of its name ("n", or "$2") in the
                                 strings */
} kx_use;

struct iron__kexpr {
    size_t bytes;             /* the whole block */
    int nops;
    int depth;                /* stack the evaluation needs */
    int nuse;
    kx_use use[IRON__MAX_KARGS];
    uint32_t text, kernel;    /* offsets in the strings */
    kx_op ops[];              /* nops of them, then the strings */
};

static inline const char *iron__kexpr_str(const iron__kexpr *e, uint32_t at)
{
    return (const char *)(e->ops + e->nops) + at;
}

/* What applying an operation gave. */
enum { KX_OK, KX_OVERFLOW, KX_BY_ZERO };

/* *r = a op b (b unused for KX_NEG) in 64-bit signed arithmetic, checked:
 * the one definition of the operators, used by constant folding and by
 * the evaluation alike so that both agree on every value. */
static inline int iron__kexpr_apply(int kind, int64_t a, int64_t b,
                                    int64_t *r)
{
    switch (kind) {
    case KX_NEG:
        return __builtin_sub_overflow((int64_t)0, a, r) ? KX_OVERFLOW : KX_OK;
    case KX_ADD:
        return __builtin_add_overflow(a, b, r) ? KX_OVERFLOW : KX_OK;
    case KX_SUB:
        return __builtin_sub_overflow(a, b, r) ? KX_OVERFLOW : KX_OK;
    case KX_MUL:
        return __builtin_mul_overflow(a, b, r) ? KX_OVERFLOW : KX_OK;
    case KX_DIV:
    case KX_MOD:
        if (b == 0)
            return KX_BY_ZERO;
        if (a == INT64_MIN && b == -1)
            return KX_OVERFLOW;
        *r = kind == KX_DIV ? a / b : a % b;
        return KX_OK;
    case KX_MIN:
        *r = a < b ? a : b;
        return KX_OK;
    case KX_MAX:
        *r = a > b ? a : b;
        return KX_OK;
    }
    return KX_OVERFLOW;
}

#endif
