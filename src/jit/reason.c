/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * reason.c - why a call needs a new specialization, for the debug log:
 * the first difference between its signature and the closest existing
 * one ("new shape for argument 'a': int32[8192], was int32[4096]").
 */
#include <stdio.h>
#include <string.h>

#include "jit/jit.h"
#include "tensor/tensor.h"

static int same_shape(const iron_shape *a, const iron_shape *b)
{
    if (a->ndim != b->ndim)
        return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

/* Differences between a call and a specialization; writes the first one
 * into buf when buf is not NULL. */
static int diff(const iron_jit *j, const jit_spec *sp, const jit_target *t,
                iron_tensor *const *args, const iron__pval *params,
                char *buf, size_t len)
{
    int n = 0;
    char was[128], now[IRON__TENSOR_DESCRIBE_MAX];
    if (sp->dev != t->dev && n++ == 0 && buf)
        snprintf(buf, len, "new device %s (was %s)", t->dev->info.name,
                 sp->dev->info.name);
    if (sp->cols != t->cols && n++ == 0 && buf)
        snprintf(buf, len, "new launch configuration: %d columns (was %d)",
                 t->cols, sp->cols);
    if (sp->timed != t->timed && n++ == 0 && buf)
        snprintf(buf, len, "timing model %s (kernels built %s counting)",
                 t->timed ? "on" : "off", t->timed ? "with" : "without");
    for (int i = 0; i < j->nargs; i++) {
        const iron__argsig *a = &sp->args[i];
        if (a->dtype == args[i]->dtype &&
            same_shape(&a->shape, &args[i]->shape))
            continue;
        if (n++ == 0 && buf) {
            iron__tensor_describe(args[i], now, sizeof now);
            iron__str w = { 0 };
            iron__design_type_text(&w, a->dtype, a->shape);
            snprintf(was, sizeof was, "%s", iron__str_get(&w));
            iron__str_free(&w);
            snprintf(buf, len, "new %s for argument '%s': %s (was %s)",
                     a->dtype != args[i]->dtype ? "dtype" : "shape",
                     j->args[i].name, now, was);
        }
    }
    for (int i = 0; i < j->nparams; i++) {
        if (iron__pval_equal(&sp->params[i], &params[i]))
            continue;
        if (n++ == 0 && buf) {
            iron__str a = { 0 }, b = { 0 };
            iron__pval_format(&params[i], &a);
            iron__pval_format(&sp->params[i], &b);
            snprintf(buf, len, "new value for parameter '%s': %s (was %s)",
                     j->params[i].name, iron__str_get(&a), iron__str_get(&b));
            iron__str_free(&a);
            iron__str_free(&b);
        }
    }
    return n;
}

void iron__jit_build_reason(const iron_jit *j, const jit_target *t,
                            iron_tensor *const *args,
                            const iron__pval *params, char *buf, size_t len)
{
    const jit_spec *best = NULL;
    int best_n = 1 << 30;
    for (const jit_spec *sp = j->lru_head; sp; sp = sp->lru_next) {
        int n = diff(j, sp, t, args, params, NULL, 0);
        if (n < best_n) {
            best_n = n;
            best = sp;
        }
    }
    if (!best)
        snprintf(buf, len, "first call");
    else
        diff(j, best, t, args, params, buf, len);
}
