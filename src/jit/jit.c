/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jit.c - the jit object: creation from a design function and its
 * compile-time attributes, pre-bound parameter values, counters, and
 * freeing with every specialization it holds.
 */
#include <stddef.h>
#include <string.h>

#include "core/env.h"
#include "core/struct.h"
#include "jit/jit.h"
#include "jit/run.h"

/* A field of the caller's options, if its size says it has it. */
#define OPTS_HAS(o, field) IRON__HAS_FIELD(o, iron_jit_options, field)

static void free_decls(iron_jit *j)
{
    for (int i = 0; i < j->nargs; i++) {
        iron__free(j->args[i].name);
        iron__free(j->args[i].dtype_var);
        for (int k = 0; k < IRON_MAX_DIMS; k++)
            iron__free(j->args[i].dims[k].var);
    }
    for (int i = 0; i < j->nparams; i++) {
        iron__free(j->params[i].name);
        if (j->params[i].type == IRON_PARAM_STR)
            iron__free((char *)(uintptr_t)j->params[i].def.s);
        if (j->is_bound && j->is_bound[i])
            iron__pval_release(&j->bound[i]);
    }
    for (int i = 0; i < j->nscalars; i++)
        iron__free(j->scalars[i].name);
    iron__free(j->scalars);
    iron__free(j->scalar_names);
    iron__free(j->args);
    iron__free(j->params);
    iron__free(j->is_bound);
    iron__free(j->bound);
}

IRON_API void iron_jit_free(iron_jit *j)
{
    if (!j)
        return;
    /* Runs in flight first; then the specializations, which give their
     * kernel objects back to the store, which frees the rest. */
    iron__run_drain_jit(j);
    iron__jit_table_free_all(j);
    iron__kstore_free(j->kstore);
    free_decls(j);
    iron__free(j->name);
    iron__free(j->cflags);
    pthread_mutex_destroy(&j->lock);
    pthread_mutex_destroy(&j->build_lock);
    iron__free(j);
}

IRON_API iron_status iron_jit_create(iron_design_fn design,
                                     const iron_jit_options *opts,
                                     iron_jit **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_jit_create: out is NULL");
    *out = NULL;
    if (!design)
        return iron__fail(IRON_EINVAL,
                          "iron_jit_create: design function is NULL");
    if (!opts)
        return iron__fail(IRON_EINVAL, "iron_jit_create: options are NULL");
    /* A program built against an older header passes a smaller struct
     * (without the fields added since): accepted, the rest default. */
    iron_status cs = iron__struct_check(
        "iron_jit_create: options", "iron_jit_options", opts->size,
        IRON__FIRST_SIZE(iron_jit_options, cache_max_bytes),
        sizeof(iron_jit_options));
    if (cs != IRON_OK)
        return cs;
    if (OPTS_HAS(opts, max_resident) && opts->max_resident < 0)
        return iron__fail(IRON_EINVAL,
                          "iron_jit_create: options.max_resident is %d, "
                          "expected 0 (the default) or more",
                          opts->max_resident);
    if (!opts->name || !*opts->name)
        return iron__fail(IRON_EINVAL,
                          "iron_jit_create: options.name is %s",
                          opts->name ? "empty" : "NULL");
    if (!opts->args)
        return iron__fail(IRON_EINVAL,
                          "jit '%s': options.args is NULL; list the tensor "
                          "arguments, e.g. \"in a, in b, out c\"",
                          opts->name);
    iron_jit *j = iron__calloc(1, sizeof *j);
    if (!j)
        return iron__fail(IRON_ENOMEM, "out of memory creating jit '%s'",
                          opts->name);
    iron_status s = IRON_ENOMEM;
    j->fn = design;
    j->user = opts->user;
    j->name = iron__strdup(opts->name);
    j->cflags = opts->cflags ? iron__strdup(opts->cflags) : NULL;
    pthread_mutex_init(&j->lock, NULL);
    pthread_mutex_init(&j->build_lock, NULL);
    atomic_init(&j->last_state, IRON_RUN_COMPLETED);
    j->max_resident = OPTS_HAS(opts, max_resident) && opts->max_resident
                          ? opts->max_resident
                          : iron__jit_default_max_resident();
    j->stats.size = sizeof j->stats;
    if (!j->name || (opts->cflags && !j->cflags)) {
        s = iron__fail(IRON_ENOMEM, "out of memory");
        goto fail;
    }
    /* The cache settings (option, else environment, else default) are
     * resolved here, once, by the store. */
    iron__kstore_config kc = {
        .name = j->name,
        .cflags = j->cflags,
        .disk_cache = opts->disk_cache,
        .cache_dir = opts->cache_dir,
        .cache_max_bytes = opts->cache_max_bytes,
        .stats = &j->stats,
    };
    if ((s = iron__kstore_new(&kc, &j->kstore)) != IRON_OK)
        goto fail;
    if ((s = iron__jit_parse_args(j, opts->args)) != IRON_OK)
        goto fail;
    if ((s = iron__jit_parse_params(j, opts->params ? opts->params : "")) !=
        IRON_OK)
        goto fail;
    if ((s = iron__jit_parse_scalars(j, opts->scalars ? opts->scalars : "")) !=
        IRON_OK)
        goto fail;
    if (j->nargs > IRON__JIT_MAX_ARGS || j->nparams > IRON__JIT_MAX_PARAMS) {
        s = iron__fail(IRON_EINVAL,
                       "%d arguments and %d parameters declared; at most %d "
                       "and %d",
                       j->nargs, j->nparams, IRON__JIT_MAX_ARGS,
                       IRON__JIT_MAX_PARAMS);
        goto fail;
    }
    j->is_bound = iron__calloc((size_t)j->nparams + 1, sizeof *j->is_bound);
    j->bound = iron__calloc((size_t)j->nparams + 1, sizeof *j->bound);
    if (!j->is_bound || !j->bound) {
        s = iron__fail(IRON_ENOMEM, "out of memory");
        goto fail;
    }
    *out = j;
    return iron__public_result(IRON_OK);
fail:
    iron__fail_context(s, "jit '%s'", opts->name);
    iron_jit_free(j);
    return iron__public_result(s);
}

IRON_API iron_status iron_jit_bind(iron_jit *j, int nparams,
                                   const iron_param *params)
{
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_bind: jit is NULL");
    if (nparams < 0 || (nparams > 0 && !params))
        return iron__fail(IRON_EINVAL, "iron_jit_bind: %d values at %p",
                          nparams, (const void *)params);
    /* Check everything before changing anything. */
    for (int k = 0; k < nparams; k++) {
        int idx;
        iron_status s = iron__jit_check_param(j, &params[k], &idx);
        if (s != IRON_OK)
            return s;
    }
    for (int k = 0; k < nparams; k++) {
        int idx = 0;
        iron__jit_check_param(j, &params[k], &idx);
        iron__pval v;
        memset(&v, 0, sizeof v);
        v.name = j->params[idx].name;
        v.type = params[k].type;
        v.i = params[k].type == IRON_PARAM_BOOL ? params[k].i != 0
                                                : params[k].i;
        v.f = params[k].f;
        v.s = params[k].s;
        v.dtype = params[k].dtype;
        if (v.type == IRON_PARAM_KERNEL)
            v.kernel = *params[k].kernel;
        iron_status s = iron__pval_own(&v);
        if (s != IRON_OK)
            return s;
        /* A build in progress reads the bound strings (build_lock), a
         * lookup reads the values (lock). */
        pthread_mutex_lock(&j->build_lock);
        pthread_mutex_lock(&j->lock);
        if (j->is_bound[idx])
            iron__pval_release(&j->bound[idx]);
        j->bound[idx] = v;
        j->is_bound[idx] = 1;
        pthread_mutex_unlock(&j->lock);
        pthread_mutex_unlock(&j->build_lock);
    }
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_jit_get_counters(const iron_jit *j,
                                           const iron_run_counters **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_jit_get_counters: out is NULL");
    *out = NULL;
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_get_counters: jit is NULL");
    iron_jit *mj = (iron_jit *)(uintptr_t)j;  /* the lock, not the jit */
    pthread_mutex_lock(&mj->lock);
    const jit_spec *last = atomic_load(&mj->last_run);
    if (last)
        *out = iron__drv_counters(last->dev, last->loaded);
    pthread_mutex_unlock(&mj->lock);
    if (!last)
        return iron__fail(IRON_ESTATE, "%s: no call has run on a device "
                          "yet", j->name);
    if (!*out)
        return iron__fail(IRON_ENOTSUP, "%s: device '%s' keeps no "
                          "counters", j->name, last->dev->info.name);
    return iron__public_result(IRON_OK);
}

IRON_API enum iron_run_state iron_jit_last_state(const iron_jit *j)
{
    return j ? (enum iron_run_state)atomic_load(&j->last_state)
             : IRON_RUN_ERROR;
}

IRON_API iron_status iron_jit_get_stats(const iron_jit *j,
                                        iron_jit_stats *stats)
{
    if (!j || !stats)
        return iron__fail(IRON_EINVAL, "iron_jit_get_stats: %s is NULL",
                          j ? "stats" : "jit");
    /* The layout before kernel_shares was added is still served. */
    iron_status cs = iron__struct_check(
        "iron_jit_get_stats: stats", "iron_jit_stats", stats->size,
        IRON__FIRST_SIZE(iron_jit_stats, artifact_hits), sizeof *stats);
    if (cs != IRON_OK)
        return cs;
    size_t given = stats->size < sizeof *stats ? stats->size : sizeof *stats;
    iron_jit_stats all;
    /* Builds update their counters under build_lock, calls under lock. */
    iron_jit *mj = (iron_jit *)(uintptr_t)j;
    pthread_mutex_lock(&mj->build_lock);
    pthread_mutex_lock(&mj->lock);
    all = j->stats;
    all.calls = atomic_load_explicit(&j->calls, memory_order_relaxed);
    all.specializations = (uint64_t)j->nspecs;
    pthread_mutex_unlock(&mj->lock);
    pthread_mutex_unlock(&mj->build_lock);
    all.size = given;
    memcpy(stats, &all, given);
    return iron__public_result(IRON_OK);
}
