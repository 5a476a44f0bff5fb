/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * forms.h - the short names the directive files (forms_aie.c,
 * forms_std.c) write their parse/print pairs with: each pair reads as
 * the text it handles, so the names are kept short.
 */
#ifndef IRON_MLIR_FORMS_H
#define IRON_MLIR_FORMS_H

#include "mlir/ops.h"

typedef iron__mlir_parser P;
typedef iron__mlir_opb B;
typedef iron__mlir_pr W;
typedef iron__mlir_op O;
typedef iron__mlir_attr A;
typedef iron__mlir_fctx C;

#define OUT(text) iron__mlir_pr_out(w, text)
#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

static inline const A *attr(const O *op, const char *name)
{
    return iron__mlir_attr_get(op, name);
}

static inline int kind(const A *a, iron__mlir_akind k)
{
    return a && a->kind == k;
}

static inline int expect(P *p, iron__mlir_tok k, const char *what)
{
    return iron__mlir_p_expect(p, k, what);
}

static inline int accept(P *p, iron__mlir_tok k)
{
    return iron__mlir_p_accept(p, k);
}

static inline const iron__mlir_type *vtype(const W *w, int id)
{
    return iron__mlir_vtype(w->m, id);
}

#endif
