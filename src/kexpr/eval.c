/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * eval.c - a declared cost evaluated for one kernel call (kexpr layer):
 * the postfix operations over a fixed stack, each step checked.  Called
 * by a driver once per call, so it allocates nothing and writes a
 * message only when the value is refused.
 */
#include <stdio.h>

#include "kexpr/compiled.h"

/* Argument value v (as the uniform wrapper receives it) read as the
 * kernel reads its declared integer type. */
static int64_t as_declared(iron_dtype dt, const iron_kernel_value *v)
{
    switch (dt) {
    case IRON_INT8: return (int8_t)v->i;
    case IRON_UINT8: return (uint8_t)v->i;
    case IRON_INT16: return (int16_t)v->i;
    case IRON_UINT16: return (uint16_t)v->i;
    case IRON_INT32: return (int32_t)v->i;
    case IRON_UINT32: return (uint32_t)v->i;
    default: return v->i;   /* int64; uint64 above 2^63 reads negative and
                               is refused as such if it reaches the result */
    }
}

/* Fails naming the kernel, the expression and the call's values of the
 * arguments it reads: "... (n = 128, k = 0)". */
static iron_status refuse(const iron__kexpr *e, const iron_kernel_value *vals,
                          const char *what)
{
    char args[256] = "";
    size_t len = 0;
    for (int u = 0; u < e->nuse && len < sizeof args; u++)
        len += (size_t)snprintf(args + len, sizeof args - len, "%s%s = %lld",
                                u ? ", " : " (",
                                iron__kexpr_str(e, e->use[u].name),
                                (long long)as_declared(e->use[u].dtype,
                                                       &vals[e->use[u].index]));
    if (e->nuse && len < sizeof args)
        snprintf(args + len, sizeof args - len, ")");
    return iron__fail(IRON_EINVAL, "kernel '%s': declared cycles \"%s\" %s "
                      "for this call%s", iron__kexpr_str(e, e->kernel),
                      iron__kexpr_str(e, e->text), what, args);
}

static int64_t arg_value(const iron__kexpr *e, const iron_kernel_value *vals,
                         int index)
{
    for (int u = 0; u < e->nuse; u++)
        if (e->use[u].index == index)
            return as_declared(e->use[u].dtype, &vals[index]);
    IRON__ASSERT(0, "the compiler records every argument it reads");
    return 0;
}

iron_status iron__kexpr_eval(const iron__kexpr *e,
                             const iron_kernel_value *vals, int64_t *cycles)
{
    if (cycles)
        *cycles = 0;
    if (!e || !cycles || (!vals && e->nuse > 0))
        return iron__fail(IRON_EINVAL, "iron__kexpr_eval: %s is NULL",
                          !e ? "the expression" : !cycles ? "cycles"
                                                          : "vals");
    int64_t st[IRON__KEXPR_DEPTH_MAX];
    int n = 0;
    for (int i = 0; i < e->nops; i++) {
        const kx_op *op = &e->ops[i];
        switch (op->kind) {
        case KX_CONST:
            st[n++] = op->v;
            continue;
        case KX_ARG:
            st[n++] = arg_value(e, vals, op->arg);
            continue;
        default:
            break;
        }
        int unary = op->kind == KX_NEG;
        int64_t a = st[n - 1 - !unary], b = unary ? 0 : st[n - 1], r = 0;
        int how = iron__kexpr_apply(op->kind, a, b, &r);
        if (how == KX_BY_ZERO)
            return refuse(e, vals, op->kind == KX_DIV ? "divides by zero"
                                                      : "takes a remainder "
                                                        "by zero");
        if (how != KX_OK) {
            static const char *const sym[] = {
                [KX_ADD] = "+", [KX_SUB] = "-", [KX_MUL] = "*",
                [KX_DIV] = "/", [KX_MOD] = "%"
            };
            char what[96];
            if (unary)
                snprintf(what, sizeof what, "overflows 64 bits (at -(%lld))",
                         (long long)a);
            else
                snprintf(what, sizeof what, "overflows 64 bits (at %lld %s "
                         "%lld)", (long long)a, sym[op->kind], (long long)b);
            return refuse(e, vals, what);
        }
        n -= !unary;
        st[n - 1] = r;
    }
    IRON__ASSERT(n == 1, "a compiled expression leaves one value");
    if (st[0] < 0) {
        char what[64];
        snprintf(what, sizeof what, "is %lld, below 0,", (long long)st[0]);
        return refuse(e, vals, what);
    }
    *cycles = st[0];
    return IRON_OK;
}
