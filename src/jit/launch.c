/*
 * launch.c - the call path: validate the tensors against the declared
 * arguments, resolve compile-time values, key the signature, find or build
 * the specialization, and run it on the current device.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "jit/jit.h"
#include "tensor/tensor.h"

#define DEFAULT_TIMEOUT_MS 60000

static int env_timeout_ms = DEFAULT_TIMEOUT_MS;
static int env_check;
static const char *env_trace;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *e = getenv("IRON_TIMEOUT_MS");
    if (e && atoi(e) > 0)
        env_timeout_ms = atoi(e);
    e = getenv("IRON_CHECK");
    env_check = e && strcmp(e, "1") == 0;
    e = getenv("IRON_TRACE");
    env_trace = e && *e ? e : NULL;
}

/* A field of the caller's configuration, if its size says it has it. */
#define CONFIG_HAS(c, field)                                                  \
    ((c)->size >= offsetof(iron_launch_config, field) + sizeof (c)->field)

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
    char got[128];
    iron__str_printf(&s, "%s: argument %d ('%s'): expected ", j->name, i,
                     j->args[i].name);
    expected_text(&j->args[i], b, nb, &s);
    iron__str_printf(&s, ", got %s", iron_tensor_describe(t, got, sizeof got));
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

/* The signature key: a fixed record hashed to 128 bits.  Strings enter as
 * their own 64-bit hashes so the record has a bounded size. */
static XXH128_hash_t signature_key(const iron_jit *j, const iron_device *dev,
                                   int cols, iron_tensor *const *args,
                                   const iron__pval *params)
{
    uint64_t rec[4 + IRON__JIT_MAX_ARGS * (IRON_MAX_DIMS + 2) +
                 IRON__JIT_MAX_PARAMS * 7];
    int n = 0;
    rec[n++] = (uint64_t)(uintptr_t)dev;
    rec[n++] = (uint64_t)cols;
    for (int i = 0; i < j->nargs; i++) {
        rec[n++] = (uint64_t)args[i]->dtype << 32 | (uint64_t)args[i]->shape.ndim;
        for (int d = 0; d < args[i]->shape.ndim; d++)
            rec[n++] = (uint64_t)args[i]->shape.dims[d];
    }
    for (int i = 0; i < j->nparams; i++) {
        const iron__pval *v = &params[i];
        rec[n++] = (uint64_t)v->type;
        switch (v->type) {
        case IRON_PARAM_INT:
        case IRON_PARAM_BOOL:
            rec[n++] = (uint64_t)v->i;
            break;
        case IRON_PARAM_FLOAT:
            memcpy(&rec[n++], &v->f, sizeof(double));
            break;
        case IRON_PARAM_STR: {
            size_t len = strlen(v->s);
            rec[n++] = XXH3_64bits(v->s, len);
            rec[n++] = len;
            break;
        }
        case IRON_PARAM_DTYPE:
            rec[n++] = (uint64_t)v->dtype;
            break;
        case IRON_PARAM_KERNEL: {
            const char *parts[3] = { v->kernel.entry, v->kernel.source,
                                     v->kernel.arg_types };
            for (int k = 0; k < 3; k++) {
                size_t len = strlen(parts[k]);
                rec[n++] = XXH3_64bits(parts[k], len) ^ (uint64_t)k;
                rec[n++] = len;
            }
            break;
        }
        }
    }
    return XXH3_128bits(rec, (size_t)n * sizeof rec[0]);
}

static jit_spec *lookup(const iron_jit *j, XXH128_hash_t key)
{
    if (!j->table_cap)
        return NULL;
    int mask = j->table_cap - 1;
    for (int i = (int)(key.low64 & (uint64_t)mask);; i = (i + 1) & mask) {
        jit_spec *s = j->table[i];
        if (!s)
            return NULL;
        if (XXH128_isEqual(s->key, key))
            return s;
    }
}

static iron_status insert(iron_jit *j, jit_spec *sp)
{
    if ((j->nspecs + 1) * 2 > j->table_cap) {
        int cap = j->table_cap ? j->table_cap * 2 : 8;
        jit_spec **t = iron__calloc((size_t)cap, sizeof *t);
        if (!t)
            return iron__fail(IRON_ENOMEM, "out of memory caching a "
                                           "specialization");
        for (int i = 0; i < j->table_cap; i++) {
            jit_spec *s = j->table[i];
            if (!s)
                continue;
            int k = (int)(s->key.low64 & (uint64_t)(cap - 1));
            while (t[k])
                k = (k + 1) & (cap - 1);
            t[k] = s;
        }
        iron__free(j->table);
        j->table = t;
        j->table_cap = cap;
    }
    int mask = j->table_cap - 1;
    int k = (int)(sp->key.low64 & (uint64_t)mask);
    while (j->table[k])
        k = (k + 1) & mask;
    j->table[k] = sp;
    j->nspecs++;
    return IRON_OK;
}

/* The call path up to the specialization: configuration, device,
 * parameters, argument checks, key, lookup or build. */
static iron_status specialize(iron_jit *j, const iron_launch_config *config,
                              int nparams, const iron_param *params,
                              int nargs, iron_tensor *const *args,
                              jit_spec **out)
{
    if (config && !CONFIG_HAS(config, timeout_ms))
        return iron__fail(IRON_EINVAL,
                          "%s: launch config size is %zu, expected %zu (set "
                          "it to sizeof(iron_launch_config))",
                          j->name, config->size, sizeof *config);
    iron_device *dev;
    iron_status s = iron_current_device(&dev);
    if (s != IRON_OK)
        return iron__fail_context(s, "%s", j->name);
    int cols = config && config->cols ? config->cols : dev->info.columns;
    if (cols < 1 || cols > dev->info.columns)
        return iron__fail(IRON_ERESOURCE,
                          "%s: the launch configuration asks for %d "
                          "column%s; device '%s' has %d",
                          j->name, cols, cols == 1 ? "" : "s", dev->info.name,
                          dev->info.columns);
    iron__pval pv[IRON__JIT_MAX_PARAMS];
    if ((s = iron__jit_resolve_params(j, nparams, params, pv)) != IRON_OK)
        return s;
    if ((s = check_args(j, dev, nargs, args, pv)) != IRON_OK)
        return s;

    XXH128_hash_t key = signature_key(j, dev, cols, args, pv);
    jit_spec *sp = lookup(j, key);
    if (sp) {
        j->stats.memory_hits++;
    } else {
        char reason[256] = "";
        if (iron__log_on(IRON__LOG_JIT))
            iron__jit_build_reason(j, dev, cols, args, pv, reason,
                                   sizeof reason);
        if ((s = iron__jit_build(j, dev, cols, args, pv, key, reason,
                                 &sp)) != IRON_OK)
            return s;
        if ((s = insert(j, sp)) != IRON_OK) {
            iron__jit_spec_free(sp);
            return s;
        }
        j->stats.builds++;
    }
    *out = sp;
    return IRON_OK;
}

IRON_API iron_status iron_jit_launch(iron_jit *j,
                                     const iron_launch_config *config,
                                     int nparams, const iron_param *params,
                                     int nargs, iron_tensor *const *args)
{
    return iron_jit_run(j, config, nparams, params, IRON_NO_SCALARS, nargs,
                        args);
}

/* Runs a specialization with tensors already checked against it: sync
 * inputs, run on the device, sync outputs. */
static iron_status run_spec(iron_jit *j, jit_spec *sp, const jit_runopts *ro,
                            const int64_t *values, int nargs,
                            iron_tensor *const *args)
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
    };
    if (ro->check > 0 || (ro->check == 0 && env_check))
        ra.flags |= IRON_RUN_CHECK;
    if (ro->profile > 0 ||
        (ro->profile == 0 && (ra.trace_path || iron__log_selected(IRON__LOG_EMU))))
        ra.flags |= IRON_RUN_PROFILE;
    j->last_run = sp;
    s = iron__drv_run(dev, sp->loaded, &ra, &j->last_state);
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

IRON_API iron_status iron_jit_run(iron_jit *j,
                                  const iron_launch_config *config,
                                  int nparams, const iron_param *params,
                                  int nscalars, const iron_scalar *scalars,
                                  int nargs, iron_tensor *const *args)
{
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_run: jit is NULL");
    j->stats.calls++;
    int64_t values[IRON__JIT_MAX_SCALARS];
    iron_status s = iron__jit_resolve_scalars(j, nscalars, scalars, values);
    if (s != IRON_OK)
        return s;
    jit_spec *sp;
    s = specialize(j, config, nparams, params, nargs, args, &sp);
    if (s != IRON_OK)
        return s;
    jit_runopts ro = runopts_of(config);
    return run_spec(j, sp, &ro, values, nargs,
                    args);
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
    iron_status s = specialize(j, config, nparams, params, nargs, args, &sp);
    if (s != IRON_OK)
        return s;
    sp->jit = j;
    sp->run = runopts_of(config);
    iron__free(sp->trace);
    sp->trace = NULL;
    if (sp->run.trace && !(sp->trace = iron__strdup(sp->run.trace)))
        return iron__fail(IRON_ENOMEM, "iron_jit_specialize: out of memory");
    sp->run.trace = sp->trace;
    *out = sp;
    return IRON_OK;
}

/* The direct path checks only what can change between calls of one
 * signature: the tensors' count, types and shapes. */
IRON_API iron_status iron_spec_run(iron_spec *sp, int nscalars,
                                   const iron_scalar *scalars, int nargs,
                                   iron_tensor *const *args)
{
    if (!sp)
        return iron__fail(IRON_EINVAL, "iron_spec_run: spec is NULL");
    iron_jit *j = sp->jit;
    j->stats.calls++;
    if (nargs != j->nargs || (nargs > 0 && !args))
        return iron__fail(IRON_EARG, "%s: %d tensor arguments given, the "
                                     "specialization takes %d",
                          sp->signature, nargs, j->nargs);
    for (int i = 0; i < nargs; i++) {
        const iron_tensor *t = args[i];
        const iron__argsig *a = &sp->args[i];
        if (!t || t->dtype != a->dtype || t->numel != a->numel ||
            t->shape.ndim != a->shape.ndim ||
            memcmp(t->shape.dims, a->shape.dims,
                   (size_t)a->shape.ndim * sizeof a->shape.dims[0]) != 0 ||
            t->dev->drv != sp->dev->drv) {
            char got[128];
            return iron__fail(IRON_EARG,
                              "%s: argument %d ('%s') is %s; this "
                              "specialization takes the signature above",
                              sp->signature, i, a->name,
                              t ? iron_tensor_describe(t, got, sizeof got)
                                : "NULL");
        }
    }
    int64_t values[IRON__JIT_MAX_SCALARS];
    iron_status s = iron__jit_resolve_scalars(j, nscalars, scalars, values);
    if (s != IRON_OK)
        return s;
    return run_spec(j, sp, &sp->run, values, nargs, args);
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
    jit_spec *sp;
    iron_status s = iron_jit_specialize(j, config, nparams, params, nargs,
                                        args, &sp);
    if (s != IRON_OK)
        return s;
    iron__str out = { 0 };
    iron__str_printf(&out, "%s\n", sp->signature);
    iron__design_dump(sp->prog->d, &out);
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
    *text = iron__str_take(&out);
    if (!*text)
        return iron__fail(IRON_ENOMEM, "out of memory dumping the design");
    return IRON_OK;
}

IRON_API void iron_free(void *p)
{
    iron__free(p);
}
