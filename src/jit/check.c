/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * check.c - a call's pipeline up to placement, without the C compiler:
 * run the design function, verify it, place it.  What `iron check` and
 * the non-text dumps use: whether a design fits, and where everything
 * went, in milliseconds and on a machine with no compiler.  Nothing is
 * cached or loaded; the placed program is freed on return.
 */
#include <stddef.h>
#include <string.h>

#include "design/design.h"
#include "jit/jit.h"
#include "tensor/tensor.h"

/* design -> verify -> place (the front of a build); fn sees the program.
 * Under build_lock: the resolved values may point into the jit's bound
 * ones. */
static iron_status place_locked(iron_jit *j, const jit_target *t,
                                iron_tensor *const *args,
                                const iron__pval *pv,
                                iron__jit_placed_fn fn, void *ctx)
{
    iron__argsig sig[IRON__JIT_MAX_ARGS];
    for (int i = 0; i < j->nargs; i++) {
        sig[i].name = j->args[i].name;
        sig[i].role = j->args[i].role;
        sig[i].dtype = args[i]->dtype;
        sig[i].shape = args[i]->shape;
        sig[i].numel = args[i]->numel;
    }
    iron__str desc = { 0 };
    iron__jit_describe(j, t, args, pv, &desc);
    const char *signature = iron__str_get(&desc);
    const char *stage;
    double ms[3];
    iron_program *p = NULL;
    iron_status s = iron__jit_place_design(j, t, sig, pv, &p, &stage, ms);
    if (s != IRON_OK)
        iron__fail_context(s, "%s: %s", signature, stage);
    else
        s = fn(p, signature, ctx);
    iron__program_free(p);
    iron__str_free(&desc);
    return s;
}

iron_status iron__jit_place_only(iron_jit *j,
                                 const iron_launch_config *config,
                                 int nparams, const iron_param *params,
                                 int nargs, iron_tensor *const *args,
                                 iron__jit_placed_fn fn, void *ctx)
{
    jit_target t;
    iron_status s = iron__jit_target(j, config, &t);
    if (s != IRON_OK)
        return s;
    iron__pval pv[IRON__JIT_MAX_PARAMS];
    pthread_mutex_lock(&j->build_lock);
    pthread_mutex_lock(&j->lock);
    s = iron__jit_resolve_params(j, nparams, params, pv);
    if (s == IRON_OK)
        s = iron__jit_check_args(j, t.dev, nargs, args, pv);
    pthread_mutex_unlock(&j->lock);
    if (s == IRON_OK)
        s = place_locked(j, &t, args, pv, fn, ctx);
    pthread_mutex_unlock(&j->build_lock);
    return s;
}

/* "1 worker, 3 fifos, 0 links, 2 tiles (1 compute, 1 memtile), 1 shim
 * channel pair ... on 1 of 4 columns" */
static iron_status summarize(const iron_program *p, const char *signature,
                             void *ctx)
{
    iron__str *s = ctx;
    int compute = 0, memtiles = 0, used_cols = 0;
    for (int i = 0; i < p->ntiles; i++) {
        if (p->tiles[i].tile.row == IRON__ROW_MEMTILE)
            memtiles++;
        else
            compute++;
    }
    int shim_channels = 0;
    for (int i = 0; i < p->nmovers; i++)
        if (p->movers[i].src.pool < 0 || p->movers[i].ndst == 0)
            shim_channels++;
    for (int c = 0; c < p->cols; c++)
        used_cols += iron__program_col_used(p, c);
    iron__str_printf(s,
                     "%s: ok: %d worker%s, %d fifo%s, %d link%s, %d tile%s "
                     "(%d compute, %d memtile%s), %d shim DMA channel%s, "
                     "columns used %d of %d",
                     signature, p->nworkers, p->nworkers == 1 ? "" : "s",
                     p->nfifos, p->nfifos == 1 ? "" : "s", p->nlinks,
                     p->nlinks == 1 ? "" : "s", p->ntiles,
                     p->ntiles == 1 ? "" : "s", compute, memtiles,
                     memtiles == 1 ? "" : "s", shim_channels,
                     shim_channels == 1 ? "" : "s", used_cols, p->cols);
    return s->oom ? iron__fail(IRON_ENOMEM, "out of memory") : IRON_OK;
}

IRON_API iron_status iron_jit_check(iron_jit *j,
                                    const iron_launch_config *config,
                                    int nparams, const iron_param *params,
                                    int nargs, iron_tensor *const *args,
                                    char **summary)
{
    if (!summary)
        return iron__fail(IRON_EINVAL, "iron_jit_check: summary is NULL");
    *summary = NULL;
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_check: jit is NULL");
    iron__str s = { 0 };
    iron_status st = iron__jit_place_only(j, config, nparams, params, nargs,
                                          args, summarize, &s);
    if (st != IRON_OK) {
        iron__str_free(&s);
        return iron__public_result(st);
    }
    *summary = iron__str_take(&s);
    return iron__public_result(
        *summary ? IRON_OK
                 : iron__fail(IRON_ENOMEM, "iron_jit_check: out of memory"));
}
