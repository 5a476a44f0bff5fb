/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * launch.c - the call path: validate the tensors against the declared
 * arguments, resolve compile-time values, key the signature, find or build
 * the specialization, and run it on the current device.  Every call is a
 * run (run.h): prepared here, then executed at once on the calling thread
 * (iron_jit_launch) or later by a launcher thread (run.c).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "core/log.h"
#include "core/struct.h"
#include "dump/dump.h"
#include "jit/jit.h"
#include "jit/run.h"
#include "tensor/tensor.h"

static int env_timeout_ms;
static int env_check;
static int env_timing;
static const char *env_trace;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    env_timeout_ms = (int)iron__env_get_int(IRON__ENV_TIMEOUT_MS);
    env_check = (int)iron__env_get_int(IRON__ENV_CHECK);
    env_timing = (int)iron__env_get_int(IRON__ENV_TIMING);
    env_trace = iron__env_get_text(IRON__ENV_TRACE);
}

/* A field of the caller's configuration, if its size says it has it. */
#define CONFIG_HAS(c, field) IRON__HAS_FIELD(c, iron_launch_config, field)

static jit_runopts runopts_of(const iron_launch_config *c)
{
    jit_runopts r = { 0 };
    if (!c)
        return r;
    r.timeout_ms = c->timeout_ms;
    if (CONFIG_HAS(c, check))
        r.check = c->check;
    if (CONFIG_HAS(c, trace))
        r.trace = c->trace;
    if (CONFIG_HAS(c, profile))
        r.profile = c->profile;
    if (CONFIG_HAS(c, threads))
        r.threads = c->threads;
    if (CONFIG_HAS(c, clock_mhz))
        r.clock_mhz = c->clock_mhz;
    return r;
}

/* Type variables bound while checking one call's arguments. */
typedef struct binding {
    const char *name;
    int is_dtype;
    int64_t value;
    int from_arg;
} binding;

static void expected_text(const jit_argdecl *a, const binding *b, int nb,
                          iron__str *s)
{
    const char *dt = a->dtype_var ? a->dtype_var : iron_dtype_name(a->dtype);
    for (int k = 0; a->dtype_var && k < nb; k++)
        if (b[k].is_dtype && strcmp(b[k].name, a->dtype_var) == 0)
            dt = iron_dtype_name((iron_dtype)b[k].value);
    iron__str_append(s, dt);
    if (a->ndims < 0)
        return;
    iron__str_append(s, "[");
    for (int d = 0; d < a->ndims; d++) {
        const jit_dim *dm = &a->dims[d];
        int bound = 0;
        for (int k = 0; dm->is_var && k < nb; k++)
            if (!b[k].is_dtype && strcmp(b[k].name, dm->var) == 0) {
                iron__str_printf(s, "%s%lld", d ? ", " : "",
                                 (long long)b[k].value);
                bound = 1;
            }
        if (!bound && dm->is_var)
            iron__str_printf(s, "%s%s", d ? ", " : "", dm->var);
        else if (!dm->is_var)
            iron__str_printf(s, "%s%lld", d ? ", " : "", (long long)dm->value);
    }
    iron__str_append(s, "]");
}

static iron_status mismatch(const iron_jit *j, int i, const binding *b, int nb,
                            const iron_tensor *t, const iron__pval *params)
{
    iron__str s = { 0 };
    char got[IRON__TENSOR_DESCRIBE_MAX];
    iron__str_printf(&s, "%s: argument %d ('%s'): expected ", j->name, i,
                     j->args[i].name);
    expected_text(&j->args[i], b, nb, &s);
    iron__str_printf(&s, ", got %s",
                     iron__tensor_describe(t, got, sizeof got));
    /* Only variables bound by other arguments explain the expectation;
     * those bound by this argument itself are already in `got`. */
    int shown = 0;
    for (int k = 0; k < nb; k++)
        if (b[k].from_arg != i)
            iron__str_printf(&s, "%s%s bound by argument %d ('%s')",
                             shown++ ? ", " : " (", b[k].name, b[k].from_arg,
                             j->args[b[k].from_arg].name);
    if (shown)
        iron__str_append(&s, ")");
    if (j->nparams) {
        iron__str_append(&s, "; compile-time: ");
        for (int k = 0; k < j->nparams; k++) {
            iron__str_printf(&s, "%s%s=", k ? ", " : "", j->params[k].name);
            iron__pval_format(&params[k], &s);
        }
    }
    iron_status st = iron__fail(IRON_EARG, "%s", iron__str_get(&s));
    iron__str_free(&s);
    return st;
}

/* Binds or checks one variable; returns 0 on a clash. */
static int bind(binding *b, int *nb, const char *name, int is_dtype,
                int64_t value, int arg)
{
    for (int k = 0; k < *nb; k++)
        if (b[k].is_dtype == is_dtype && strcmp(b[k].name, name) == 0)
            return b[k].value == value;
    b[*nb].name = name;
    b[*nb].is_dtype = is_dtype;
    b[*nb].value = value;
    b[*nb].from_arg = arg;
    (*nb)++;
    return 1;
}

static iron_status check_args(const iron_jit *j, const iron_device *dev,
                              int nargs, iron_tensor *const *args,
                              const iron__pval *params)
{
    if (nargs > 0 && !args)
        return iron__fail(IRON_EARG,
                          "%s: %d tensor argument%s announced but the "
                          "argument array is NULL",
                          j->name, nargs, nargs == 1 ? "" : "s");
    if (nargs != j->nargs) {
        iron__str decl = { 0 };
        for (int i = 0; i < j->nargs; i++)
            iron__str_printf(&decl, "%s%s %s", i ? ", " : "",
                             iron__role_name(j->args[i].role),
                             j->args[i].name);
        iron_status s = iron__fail(IRON_EARG,
                                   "%s: %d tensor argument%s given, expected "
                                   "%d (%s)",
                                   j->name, nargs, nargs == 1 ? "" : "s",
                                   j->nargs, iron__str_get(&decl));
        iron__str_free(&decl);
        return s;
    }
    binding b[IRON__JIT_MAX_ARGS * (IRON_MAX_DIMS + 1)];
    int nb = 0;
    for (int i = 0; i < nargs; i++) {
        const iron_tensor *t = args[i];
        const jit_argdecl *a = &j->args[i];
        if (!t)
            return iron__fail(IRON_EARG, "%s: argument %d ('%s') is NULL",
                              j->name, i, a->name);
        iron_status s = iron__tensor_check_callable(t, j->name, i, a->name);
        if (s != IRON_OK)
            return s;
        if (t->dev->drv != dev->drv)
            return iron__fail(IRON_EDEVICE,
                              "%s: argument %d ('%s') lives on device '%s' "
                              "(driver '%s'); the call runs on '%s' (driver "
                              "'%s')",
                              j->name, i, a->name, t->dev->info.name,
                              t->dev->drv->name, dev->info.name,
                              dev->drv->name);
        for (int k = 0; k < i; k++)
            if (args[k] == t && (a->role != IRON__ROLE_IN ||
                                 j->args[k].role != IRON__ROLE_IN))
                return iron__fail(IRON_EARG,
                                  "%s: argument %d ('%s') is the same tensor "
                                  "as argument %d ('%s'); a tensor the call "
                                  "writes (out/inout) must not be passed "
                                  "twice",
                                  j->name, i, a->name, k, j->args[k].name);
        for (int k = 0; k < i; k++)
            if (args[k] != t && iron__tensor_overlaps(args[k], t) &&
                (a->role != IRON__ROLE_IN || j->args[k].role != IRON__ROLE_IN))
                return iron__fail(IRON_EARG,
                                  "%s: argument %d ('%s') shares memory with "
                                  "argument %d ('%s') (views of one "
                                  "tensor, or overlapping memory); a "
                                  "tensor the call writes (out/inout) "
                                  "must not overlap another "
                                  "argument", j->name, i, a->name, k,
                                  j->args[k].name);
        if (!a->has_type)
            continue;
        int ok = a->dtype_var ? bind(b, &nb, a->dtype_var, 1, t->dtype, i)
                              : t->dtype == a->dtype;
        if (ok && a->ndims >= 0) {
            ok = t->shape.ndim == a->ndims;
            for (int d = 0; ok && d < a->ndims; d++)
                ok = a->dims[d].is_var
                         ? bind(b, &nb, a->dims[d].var, 0, t->shape.dims[d], i)
                         : t->shape.dims[d] == a->dims[d].value;
        }
        if (!ok)
            return mismatch(j, i, b, nb, t, params);
    }
    return IRON_OK;
}

iron_status iron__jit_check_args(const iron_jit *j, const iron_device *dev,
                                 int nargs, iron_tensor *const *args,
                                 const iron__pval *params)
{
    return check_args(j, dev, nargs, args, params);
}

/* Resolves the call's compile-time values, checks its tensors and looks
 * the signature up; under the table lock (the bound values and the table
 * are read).  *out NULL on a miss. */
static iron_status find_locked(iron_jit *j, const jit_target *t,
                               int nparams, const iron_param *params,
                               int nargs, iron_tensor *const *args,
                               iron__pval *pv, uint64_t *digest,
                               jit_spec **out)
{
    iron_status s;
    *out = NULL;
    if ((s = iron__jit_resolve_params(j, nparams, params, pv)) != IRON_OK)
        return s;
    if ((s = check_args(j, t->dev, nargs, args, pv)) != IRON_OK)
        return s;
    *digest = iron__jit_sig_digest(j, t, args, pv);
    *out = iron__jit_table_find(j, *digest, t, args, pv);
    return IRON_OK;
}

/* A found or built specialization is held for the caller (busy) until
 * release(), so that eviction leaves it alone.  Under the table lock,
 * which orders it before any eviction's look -- or, for a pinned one
 * (never evicted), without it. */
static void hold(iron_jit *j, jit_spec *sp, int pin)
{
    atomic_fetch_add_explicit(&sp->busy, 1, memory_order_relaxed);
    if (pin)
        sp->pinned = 1;
    atomic_store_explicit(&j->last_run, sp, memory_order_relaxed);
}

/* A lookup found sp (under the table lock). */
static void hit(iron_jit *j, jit_spec *sp, int pin)
{
    j->stats.memory_hits++;
    hold(j, sp, pin);
}

static void release(jit_spec *sp)
{
    /* Release: every use of sp happens before an eviction sees 0. */
    atomic_fetch_sub_explicit(&sp->busy, 1, memory_order_release);
}

static void release_params(iron_jit *j, iron__pval *pv)
{
    for (int i = 0; i < j->nparams; i++)
        iron__pval_release(&pv[i]);
}

/* The miss path: one build at a time per jit (build_lock), the table
 * lock only around lookups and the insertion.  Another thread may have
 * built the same signature while this one waited: it is looked up again
 * first.  pv owns its strings (a bind meanwhile cannot pull them away). */
static iron_status build_and_insert(iron_jit *j, const jit_target *t,
                                    const iron__pval *pv, uint64_t digest,
                                    iron_tensor *const *args, int pin,
                                    jit_spec **out)
{
    pthread_mutex_lock(&j->build_lock);
    pthread_mutex_lock(&j->lock);
    jit_spec *sp = iron__jit_table_find(j, digest, t, args, pv);
    if (sp) {
        hit(j, sp, pin);
        pthread_mutex_unlock(&j->lock);
        pthread_mutex_unlock(&j->build_lock);
        *out = sp;
        return IRON_OK;
    }
    char reason[256] = "";
    if (iron__log_on(IRON__LOG_JIT))
        iron__jit_build_reason(j, t, args, pv, reason, sizeof reason);
    pthread_mutex_unlock(&j->lock);

    iron_status s = iron__jit_build(j, t, args, pv, digest, reason,
                                    &sp);
    jit_spec *victims = NULL;
    if (s == IRON_OK) {
        pthread_mutex_lock(&j->lock);
        s = iron__jit_table_insert(j, sp);
        if (s == IRON_OK) {
            j->stats.builds++;
            hold(j, sp, pin);
            victims = iron__jit_table_evict(j);
        }
        pthread_mutex_unlock(&j->lock);
        if (s != IRON_OK)
            iron__jit_spec_free(sp);
    }
    /* Unloading runs kernels' destructors: not under the table lock. */
    while (victims) {
        jit_spec *next = victims->chain;
        iron__log(IRON__LOG_JIT, "%s: unloaded (least recently used of "
                  "more than %d resident)", victims->signature,
                  j->max_resident);
        iron__jit_spec_free(victims);
        victims = next;
    }
    pthread_mutex_unlock(&j->build_lock);
    *out = s == IRON_OK ? sp : NULL;
    return s;
}

/* What a lookup decided: the device and columns, and the held
 * specialization -- or, on a miss, NULL and the key to build it with. */
typedef struct lookup {
    jit_target t;
    jit_spec *sp;
    uint64_t digest;
} lookup;

/* The call path up to the specialization: configuration, device,
 * parameters, argument checks, digest, exact lookup.  A hit is held
 * (release() it); on a miss pv owns its strings (release_params). */
iron_status iron__jit_target(const iron_jit *j,
                             const iron_launch_config *config,
                             jit_target *t)
{
    if (config && !CONFIG_HAS(config, timeout_ms))
        return iron__struct_check(
            "launch config", "iron_launch_config", config->size,
            IRON__FIRST_SIZE(iron_launch_config, timeout_ms), sizeof *config);
    if (config && CONFIG_HAS(config, threads) && config->threads < 0)
        return iron__fail(IRON_EINVAL,
                          "%s: the launch configuration asks for %d threads; "
                          "expected 0 (the default) or more",
                          j->name, config->threads);
    if (config && CONFIG_HAS(config, clock_mhz) &&
        !(config->clock_mhz >= 0))
        return iron__fail(IRON_EINVAL,
                          "%s: the launch configuration's clock_mhz is %g; "
                          "expected 0 (the default) or a clock in MHz",
                          j->name, config->clock_mhz);
    iron_status s = iron_device_get_current(&t->dev);
    if (s != IRON_OK)
        return iron__fail_context(s, "%s", j->name);
    t->cols = config && config->cols ? config->cols : t->dev->info.columns;
    if (t->cols < 1 || t->cols > t->dev->info.columns)
        return iron__fail(IRON_ERESOURCE,
                          "%s: the launch configuration asks for %d "
                          "column%s; device '%s' has %d",
                          j->name, t->cols, t->cols == 1 ? "" : "s",
                          t->dev->info.name, t->dev->info.columns);
    int timing = config && CONFIG_HAS(config, timing) ? config->timing : 0;
    pthread_once(&env_once, read_env);
    t->timed = timing > 0 || (timing == 0 && env_timing);
    return IRON_OK;
}

static iron_status look_up(iron_jit *j, const iron_launch_config *config,
                           int nparams, const iron_param *params, int nargs,
                           iron_tensor *const *args, int pin,
                           iron__pval *pv, lookup *out)
{
    iron_status s = iron__jit_target(j, config, &out->t);
    if (s != IRON_OK)
        return s;
    pthread_mutex_lock(&j->lock);
    s = find_locked(j, &out->t, nparams, params, nargs, args, pv,
                    &out->digest, &out->sp);
    if (out->sp)
        hit(j, out->sp, pin);
    /* A miss keeps its values for the build, which may come later and
     * on another thread: copies, taken while a bind cannot change the
     * jit's bound ones. */
    for (int i = 0; s == IRON_OK && !out->sp && i < j->nparams; i++)
        if ((s = iron__pval_own(&pv[i])) != IRON_OK)
            for (int k = 0; k < i; k++)
                iron__pval_release(&pv[k]);
    pthread_mutex_unlock(&j->lock);
    return s;
}

/* look_up, and a build on a miss: the held specialization. */
static iron_status specialize(iron_jit *j, const iron_launch_config *config,
                              int nparams, const iron_param *params,
                              int nargs, iron_tensor *const *args, int pin,
                              jit_spec **out)
{
    iron__pval pv[IRON__JIT_MAX_PARAMS];
    lookup lk;
    iron_status s = look_up(j, config, nparams, params, nargs, args, pin, pv,
                            &lk);
    if (s != IRON_OK)
        return s;
    if (!lk.sp) {
        s = build_and_insert(j, &lk.t, pv, lk.digest, args, pin,
                             &lk.sp);
        release_params(j, pv);
    }
    *out = lk.sp;
    return s;
}

static void hold_tensors(iron_run *r, iron_tensor *const *args)
{
    /* Held from the start until the run ends: iron_tensor_free on
     * another thread waits meanwhile. */
    for (int i = 0; i < r->nargs; i++) {
        r->args[i] = args[i];
        iron__tensor_hold(args[i]);
    }
}

static void release_tensors(iron_run *r)
{
    for (int i = 0; i < r->nargs; i++)
        iron__tensor_release(r->args[i]);
}

/* The fields every run starts with; the large arrays are filled as far
 * as the call needs (a synchronous run lives on the stack). */
static void run_begin(iron_run *r, iron_jit *j)
{
    r->jit = j;
    r->sp = NULL;
    r->miss = 0;
    r->nargs = 0;
    r->status = IRON_OK;
    atomic_store_explicit(&r->state, IRON_RUN_NEW, memory_order_relaxed);
    atomic_fetch_add_explicit(&j->calls, 1, memory_order_relaxed);
}

static inline iron_status prepare(iron_run *r, iron_jit *j,
                                  const iron_launch_config *config,
                                  int nparams, const iron_param *params,
                                  int nscalars, const iron_scalar *scalars,
                                  int nargs, iron_tensor *const *args)
{
    run_begin(r, j);
    iron_status s = iron__jit_resolve_scalars(j, nscalars, scalars,
                                              r->values);
    if (s != IRON_OK)
        return s;
    lookup lk;
    if ((s = look_up(j, config, nparams, params, nargs, args, 0, r->pv,
                     &lk)) != IRON_OK)
        return s;
    r->t = lk.t;
    r->sp = lk.sp;
    r->miss = !lk.sp;
    r->digest = lk.digest;
    r->opts = runopts_of(config);
    r->ro = &r->opts;
    if (r->async && r->opts.trace) {
        /* The caller's string may be gone when the run executes. */
        if (!(r->trace = iron__strdup(r->opts.trace))) {
            iron__run_drop(r);
            return iron__fail(IRON_ENOMEM, "%s: out of memory", j->name);
        }
        r->opts.trace = r->trace;
    }
    r->nargs = nargs;
    hold_tensors(r, args);
    return IRON_OK;
}

/* The direct path checks only what can change between calls of one
 * signature: the tensors' count, types and shapes. */
static inline iron_status prepare_spec(iron_run *r, jit_spec *sp,
                                       int nscalars,
                                       const iron_scalar *scalars, int nargs,
                                       iron_tensor *const *args)
{
    iron_jit *j = sp->jit;
    run_begin(r, j);
    if (nargs != j->nargs || (nargs > 0 && !args))
        return iron__fail(IRON_EARG, "%s: %d tensor arguments given, the "
                                     "specialization takes %d",
                          sp->signature, nargs, j->nargs);
    for (int i = 0; i < nargs; i++) {
        const iron_tensor *t = args[i];
        const iron__argsig *a = &sp->args[i];
        if (!t || !iron__argsig_fits(a, t) || t->dev->drv != sp->dev->drv) {
            char got[IRON__TENSOR_DESCRIBE_MAX];
            return iron__fail(IRON_EARG,
                              "%s: argument %d ('%s') is %s; this "
                              "specialization takes the signature above",
                              sp->signature, i, a->name,
                              t ? iron__tensor_describe(t, got, sizeof got)
                                : "NULL");
        }
        iron_status s = iron__tensor_check_callable(t, sp->signature, i,
                                                    a->name);
        if (s != IRON_OK)
            return s;
    }
    iron_status s = iron__jit_resolve_scalars(j, nscalars, scalars,
                                              r->values);
    if (s != IRON_OK)
        return s;
    /* A handed-out specialization is pinned: no table lock on this
     * path.  Its run options are its own, read in its turn. */
    hold(j, sp, 0);
    r->sp = sp;
    r->t = (jit_target){ sp->dev, sp->cols, sp->timed };
    r->ro = &sp->run;
    r->nargs = nargs;
    hold_tensors(r, args);
    return IRON_OK;
}

void iron__run_drop(iron_run *r)
{
    if (r->miss)
        release_params(r->jit, r->pv);
    r->miss = 0;
    release_tensors(r);
    r->nargs = 0;
    if (r->sp)
        release(r->sp);
    r->sp = NULL;
}

void iron__run_orphan(iron_run *r)
{
    if (r->miss)
        release_params(r->jit, r->pv);
    r->miss = 0;
    for (int i = 0; i < r->nargs; i++)
        atomic_fetch_sub(&r->args[i]->holds, 1);
    r->nargs = 0;
    if (r->sp)
        release(r->sp);
    r->sp = NULL;
}

/* Runs a specialization with tensors already checked against it: sync
 * inputs, run on the device, sync outputs.  The caller holds sp and its
 * run lock.  *state: how it ended on the device. */
static iron_status run_spec_locked(iron_jit *j, jit_spec *sp,
                                   const jit_runopts *ro,
                                   const int64_t *values, int nargs,
                                   iron_tensor *const *args, int *state)
{
    iron_status s;
    iron_device *dev = sp->dev;
    if (j->nscalars &&
        (s = iron__jit_check_moved_taps(j, sp, values)) != IRON_OK)
        return s;
    void *host[IRON__JIT_MAX_ARGS], *handle[IRON__JIT_MAX_ARGS];
    size_t bytes[IRON__JIT_MAX_ARGS];
    for (int i = 0; i < nargs; i++) {
        host[i] = args[i]->host;
        handle[i] = args[i]->handle;
        bytes[i] = args[i]->nbytes;
        if (j->args[i].role != IRON__ROLE_OUT &&
            (s = iron__drv_buf_sync(dev, host[i], handle[i], bytes[i],
                                    IRON_SYNC_TO_DEVICE)) != IRON_OK)
            return iron__fail_context(s, "%s: argument %d ('%s')", j->name, i,
                                      j->args[i].name);
    }
    pthread_once(&env_once, read_env);
    iron_run_args ra = {
        .size = sizeof ra,
        .nargs = nargs,
        .host = host,
        .handle = handle,
        .nbytes = bytes,
        .timeout_ms = ro->timeout_ms > 0 ? ro->timeout_ms : env_timeout_ms,
        .nscalars = j->nscalars,
        .scalars = values,
        .trace_path = ro->trace ? ro->trace : env_trace,
        .threads = ro->threads,
        .label = sp->signature,
        .clock_mhz = ro->clock_mhz,
    };
    if (sp->timed)
        ra.flags |= IRON_RUN_TIMING;
    if (ro->check > 0 || (ro->check == 0 && env_check))
        ra.flags |= IRON_RUN_CHECK;
    if (ro->profile > 0 ||
        (ro->profile == 0 &&
         (ra.trace_path || iron__log_selected(IRON__LOG_EMU))))
        ra.flags |= IRON_RUN_PROFILE;
    enum iron_run_state ended = IRON_RUN_ERROR;
    s = iron__drv_run(dev, sp->loaded, &ra, &ended);
    *state = (int)ended;
    atomic_store_explicit(&j->last_state, (int)ended, memory_order_relaxed);
    if (s != IRON_OK)
        return iron__fail_context(s, "%s", sp->signature);
    for (int i = 0; i < nargs; i++)
        if (j->args[i].role != IRON__ROLE_IN &&
            (s = iron__drv_buf_sync(dev, host[i], handle[i], bytes[i],
                                    IRON_SYNC_TO_HOST)) != IRON_OK)
            return iron__fail_context(s, "%s: argument %d ('%s')", j->name, i,
                                      j->args[i].name);
    return IRON_OK;
}

static inline iron_status execute(iron_run *r, int *state)
{
    iron_jit *j = r->jit;
    iron_status s = IRON_OK;
    *state = IRON_RUN_ERROR;
    if (r->miss) {
        s = build_and_insert(j, &r->t, r->pv, r->digest, r->args,
                             0, &r->sp);
        release_params(j, r->pv);
        r->miss = 0;
    }
    if (s == IRON_OK) {
        /* Calls of one specialization take turns: its loaded instance
         * is one array.  The run is on the device once it has its turn. */
        jit_spec *sp = r->sp;
        if (!r->has_turn)
            pthread_mutex_lock(&sp->run_lock);
        r->has_turn = 0;
        atomic_store_explicit(&r->state, IRON_RUN_RUNNING,
                              memory_order_relaxed);
        s = run_spec_locked(j, sp, r->ro, r->values, r->nargs, r->args,
                            state);
        pthread_mutex_unlock(&sp->run_lock);
        release(sp);
        r->sp = NULL;
    }
    release_tensors(r);
    r->nargs = 0;
    r->status = s;
    if (s == IRON_OK)
        *state = IRON_RUN_COMPLETED;
    return s;
}

/* The same for run.c; the synchronous calls below use the static ones,
 * which the compiler may inline into them. */
iron_status iron__run_prepare(iron_run *r, iron_jit *j,
                              const iron_launch_config *config, int nparams,
                              const iron_param *params, int nscalars,
                              const iron_scalar *scalars, int nargs,
                              iron_tensor *const *args)
{
    return prepare(r, j, config, nparams, params, nscalars, scalars, nargs,
                   args);
}

iron_status iron__run_prepare_spec(iron_run *r, jit_spec *sp, int nscalars,
                                   const iron_scalar *scalars, int nargs,
                                   iron_tensor *const *args)
{
    return prepare_spec(r, sp, nscalars, scalars, nargs, args);
}

iron_status iron__run_execute(iron_run *r, int *state)
{
    return execute(r, state);
}

/* The synchronous call is a run started and waited for at once: prepared
 * on this stack and executed on this thread. */
IRON_API iron_status iron_jit_launch(iron_jit *j,
                                     const iron_launch_config *config,
                                     int nparams, const iron_param *params,
                                     int nscalars, const iron_scalar *scalars,
                                     int nargs, iron_tensor *const *args)
{
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_launch: jit is NULL");
    iron_run r;
    r.async = 0;
    r.has_turn = 0;
    iron_status s = prepare(&r, j, config, nparams, params, nscalars,
                            scalars, nargs, args);
    if (s != IRON_OK)
        return s;
    int state;
    return iron__public_result(execute(&r, &state));
}

IRON_API iron_status iron_spec_launch(iron_spec *sp, int nscalars,
                                      const iron_scalar *scalars, int nargs,
                                      iron_tensor *const *args)
{
    if (!sp)
        return iron__fail(IRON_EINVAL, "iron_spec_launch: spec is NULL");
    iron_run r;
    r.async = 0;
    r.has_turn = 0;
    iron_status s = prepare_spec(&r, sp, nscalars, scalars, nargs, args);
    if (s != IRON_OK)
        return s;
    int state;
    return iron__public_result(execute(&r, &state));
}

IRON_API iron_status iron_jit_specialize(iron_jit *j,
                                         const iron_launch_config *config,
                                         int nparams, const iron_param *params,
                                         int nargs, iron_tensor *const *args,
                                         iron_spec **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_jit_specialize: out is NULL");
    *out = NULL;
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_specialize: jit is NULL");
    jit_spec *sp;
    /* Pinned: the handle stays valid until iron_jit_free, whatever the
     * resident cap. */
    iron_status s = specialize(j, config, nparams, params, nargs, args, 1,
                               &sp);
    if (s != IRON_OK)
        return s;
    jit_runopts run = runopts_of(config);
    char *trace = run.trace ? iron__strdup(run.trace) : NULL;
    if (run.trace && !trace) {
        release(sp);
        return iron__fail(IRON_ENOMEM, "iron_jit_specialize: out of memory");
    }
    /* The run options are the handle's; a call of it may be running. */
    pthread_mutex_lock(&sp->run_lock);
    iron__free(sp->trace);
    sp->trace = trace;
    run.trace = trace;
    sp->run = run;
    pthread_mutex_unlock(&sp->run_lock);
    release(sp);
    *out = sp;
    return iron__public_result(IRON_OK);
}

IRON_API const char *iron_spec_signature(const iron_spec *sp)
{
    return sp ? sp->signature : "";
}

IRON_API iron_status iron_jit_dump(iron_jit *j,
                                   const iron_launch_config *config,
                                   int nparams, const iron_param *params,
                                   int nargs, iron_tensor *const *args,
                                   char **text)
{
    if (!text)
        return iron__fail(IRON_EINVAL, "iron_jit_dump: text is NULL");
    *text = NULL;
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_dump: jit is NULL");
    jit_spec *sp;
    iron_status s = specialize(j, config, nparams, params, nargs, args, 0,
                               &sp);
    if (s != IRON_OK)
        return s;
    iron__str out = { 0 };
    iron__str_printf(&out, "%s\n", sp->signature);
    iron__dump_text(sp->prog->d, sp->prog, &out);
    iron__str_printf(&out, "dma (%d mover%s):\n", sp->prog->nmovers,
                     sp->prog->nmovers == 1 ? "" : "s");
    for (int i = 0; i < sp->prog->nmovers; i++)
        iron__str_printf(&out, "  %s\n", sp->prog->movers[i].label);
    iron__str_append(&out, "tiles:\n");
    for (int i = 0; i < sp->prog->ntiles; i++) {
        const iron__tile_use *u = &sp->prog->tiles[i];
        char tn[48];
        iron__str_printf(&out,
                         "  %s: %u bytes, %d locks, %d BDs, DMA %d in + %d "
                         "out\n",
                         iron__tile_name(u->tile, tn, sizeof tn), u->mem_used,
                         u->locks, u->bds, u->dma_in, u->dma_out);
    }
    release(sp);
    *text = iron__str_take(&out);
    if (!*text)
        return iron__fail(IRON_ENOMEM, "out of memory dumping the design");
    return iron__public_result(IRON_OK);
}

IRON_API void iron_free(void *p)
{
    iron__free(p);
}
