/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * spec.c - building one specialization: the pipeline
 *
 *   design   run the user's design function on the call's types/params
 *   verify   structural rules (src/verify/verify.c)
 *   place    tiles, pools, movers, resource checks (src/place/place.c)
 *   kernels  each distinct kernel's shared object, from the kernel store
 *            (src/kstore: shared, artifact, disk cache or compiler)
 *   load     onto the device through its driver
 *
 * Every failure frees what was built (nothing half-built is cached) and
 * is reported with the jit's name and the signature in force.
 */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "jit/jit.h"
#include "place/place.h"
#include "tensor/tensor.h"

void iron__jit_describe(const iron_jit *j, const jit_target *t,
                        iron_tensor *const *args, const iron__pval *params,
                        iron__str *s)
{
    char buf[IRON__TENSOR_DESCRIBE_MAX];
    iron__str_printf(s, "%s (", j->name);
    for (int i = 0; i < j->nargs; i++)
        iron__str_printf(s, "%s%s: %s", i ? ", " : "", j->args[i].name,
                         args && args[i]
                             ? iron__tensor_describe(args[i], buf, sizeof buf)
                             : "?");
    if (j->nparams && params) {
        iron__str_append(s, "; ");
        for (int i = 0; i < j->nparams; i++) {
            iron__str_printf(s, "%s%s=", i ? ", " : "", j->params[i].name);
            iron__pval_format(&params[i], s);
        }
    }
    iron__str_printf(s, "; %s, %d column%s%s)",
                     t->dev ? t->dev->info.name : "?", t->cols,
                     t->cols == 1 ? "" : "s", t->timed ? ", timed" : "");
}

void iron__jit_spec_free(jit_spec *s)
{
    if (!s)
        return;
    if (s->loaded)
        iron__drv_unload(s->dev, s->loaded);
    iron__kstore_release(s->jit->kstore, s->prog);
    iron__program_free(s->prog);
    if (s->params)
        for (int i = 0; s->params[i].name; i++)
            iron__pval_release(&s->params[i]);
    iron__free(s->params);
    iron__free(s->args);
    iron__free(s->signature);
    iron__free(s->trace);
    pthread_mutex_destroy(&s->run_lock);
    iron__free(s);
}

/* The instance of kernel object `master` that worker `worker` uses.
 * Without state of its own a kernel behaves the same from one instance
 * for every core, so *out is master; with state, and an earlier worker
 * already using it, each core needs its own: a clone (*cloned set). */
static iron_status core_instance(iron__kobj *master, int earlier,
                                 const char *entry, const char *worker,
                                 iron__kobj **out, int *cloned)
{
    *out = master;
    *cloned = 0;
    if (!earlier || !iron__kobj_has_state(master))
        return IRON_OK;
    char label[160];
    snprintf(label, sizeof label, "kernel '%s' for worker '%s'", entry,
             worker);
    iron_status s = iron__kobj_clone(master, label, out);
    *cloned = s == IRON_OK;
    return s;
}

/* Kernels that core bodies call: each calling worker gets its instance
 * (core_instance) and the entry to call in it. */
static iron_status instantiate_called_kernels(iron_program *p)
{
    const iron_design *d = p->d;
    int calls = 0;
    for (int i = 0; i < d->workers.n; i++)
        for (int a = 0; a < d->workers.v[i]->nargs; a++)
            calls += d->workers.v[i]->args[a].kind == IRON_ARG_KERNEL;
    if (calls == 0)
        return IRON_OK;
    p->kclones = iron__calloc((size_t)calls, sizeof *p->kclones);
    if (!p->kclones)
        return iron__fail(IRON_ENOMEM, "out of memory loading kernels");
    for (int i = 0; i < d->workers.n; i++) {
        const iron_worker *w = d->workers.v[i];
        for (int a = 0; a < w->nargs; a++) {
            const iron_kernel *k = w->args[a].kernel;
            if (w->args[a].kind != IRON_ARG_KERNEL)
                continue;
            int earlier = 0, cloned;
            for (int e = 0; e < i && !earlier; e++)
                for (int b = 0; b < d->workers.v[e]->nargs; b++)
                    earlier |= d->workers.v[e]->args[b].kind ==
                                   IRON_ARG_KERNEL &&
                               d->workers.v[e]->args[b].kernel == k;
            iron__kobj *o;
            iron_status s = core_instance(p->kobjs[k->index], earlier,
                                          k->entry, w->name, &o, &cloned);
            if (s != IRON_OK)
                return s;
            if (cloned)
                p->kclones[p->nkclones++] = o;
            p->wargs[i][a].kfn = iron__kobj_raw_entry(o);
            if (!p->wargs[i][a].kfn)
                return iron__fail(IRON_ELOAD,
                                  "worker '%s': kernel '%s' has no entry "
                                  "for core bodies to call",
                                  w->name, k->entry);
        }
    }
    return IRON_OK;
}

/* Gives every worker its own instance of its kernel's object. */
static iron_status instantiate_workers(iron_program *p)
{
    const iron_design *d = p->d;
    int n = d->workers.n;
    p->wobjs = iron__calloc((size_t)n + 1, sizeof *p->wobjs);
    p->wclone = iron__calloc((size_t)n + 1, sizeof *p->wclone);
    p->wfns = iron__calloc((size_t)n + 1, sizeof *p->wfns);
    if (!p->wobjs || !p->wclone || !p->wfns)
        return iron__fail(IRON_ENOMEM, "out of memory loading kernels");
    for (int i = 0; i < n; i++) {
        const iron_worker *w = d->workers.v[i];
        iron__kobj *master = p->kobjs[w->kernel->index];
        int taken = 0, cloned;
        for (int e = 0; e < i; e++)
            taken |= p->wobjs[e] == master;
        iron_status s = core_instance(master, taken, w->kernel->entry,
                                      w->name, &p->wobjs[i], &cloned);
        if (s != IRON_OK)
            return s;
        p->wclone[i] = (unsigned char)cloned;
        p->wfns[i] = iron__kobj_entry(p->wobjs[i]);
    }
    return instantiate_called_kernels(p);
}

static iron_status copy_params(const iron_jit *j, const iron__pval *params,
                               jit_spec *sp)
{
    /* One extra, zeroed entry ends the list for iron__jit_spec_free. */
    sp->params = iron__calloc((size_t)j->nparams + 1, sizeof *sp->params);
    if (!sp->params)
        return iron__fail(IRON_ENOMEM, "out of memory");
    for (int i = 0; i < j->nparams; i++) {
        sp->params[i] = params[i];
        sp->params[i].name = j->params[i].name;
        iron_status s = iron__pval_own(&sp->params[i]);
        if (s != IRON_OK)
            return s;
    }
    return IRON_OK;
}

iron_status iron__jit_place_design(iron_jit *j, const jit_target *t,
                                   const iron__argsig *sig,
                                   const iron__pval *params,
                                   iron_program **out, const char **stage,
                                   double *ms)
{
    iron__place_request rq = {
        .name = j->name,
        .nargs = j->nargs,
        .args = sig,
        .nparams = j->nparams,
        .params = params,
        .cols = t->cols,
        .dev = &t->dev->info,
        .cflags = j->cflags,
        .nscalars = j->nscalars,
        .scalar_names = j->scalar_names,
        .fn = j->fn,
        .user = j->user,
    };
    iron__place_outcome how;
    iron_status s = iron__place_design(&rq, out, &how);
    if (how.design_ran)
        j->stats.design_runs++;
    *stage = how.stage;
    for (int i = 0; i < 3; i++)
        ms[i] = how.ms[i];
    return s;
}

iron_status iron__jit_build(iron_jit *j, const jit_target *t,
                            iron_tensor *const *args, const iron__pval *params,
                            uint64_t digest, const char *reason,
                            jit_spec **out)
{
    double t0 = iron__now_ms(), now, ms[5] = { 0 };
    iron_status s;
    const char *stage = "design";
    *out = NULL;
    jit_spec *sp = iron__calloc(1, sizeof *sp);
    if (!sp)
        return iron__fail(IRON_ENOMEM, "%s: out of memory", j->name);
    atomic_init(&sp->busy, 0);
    sp->jit = j;
    sp->digest = digest;
    sp->dev = t->dev;
    sp->cols = t->cols;
    sp->timed = t->timed;
    pthread_mutex_init(&sp->run_lock, NULL);
    sp->args = iron__calloc((size_t)j->nargs, sizeof *sp->args);
    iron__str sig = { 0 };
    iron__jit_describe(j, t, args, params, &sig);
    sp->signature = iron__str_take(&sig);
    if (!sp->args || !sp->signature) {
        s = iron__fail(IRON_ENOMEM, "out of memory");
        goto fail;
    }
    if ((s = copy_params(j, params, sp)) != IRON_OK)
        goto fail;
    for (int i = 0; i < j->nargs; i++) {
        const iron_tensor *a = args[i];
        sp->args[i].name = j->args[i].name;
        sp->args[i].role = j->args[i].role;
        sp->args[i].dtype = a->dtype;
        sp->args[i].shape = a->shape;
        sp->args[i].numel = a->numel;
    }

    s = iron__jit_place_design(j, t, sp->args, sp->params, &sp->prog,
                               &stage, ms);
    if (s != IRON_OK)
        goto fail;
    now = iron__now_ms();
    stage = "compile";
    uint64_t compiles = j->stats.kernel_compiles;
    const char *how;
    sp->prog->timed = t->timed;
    if ((s = iron__kstore_kernels(j->kstore, sp->prog, sp->signature,
                                  &how)) != IRON_OK)
        goto fail;
    stage = "place";
    if ((s = iron__place_kernel_data(sp->prog)) != IRON_OK)
        goto fail;
    ms[3] = iron__now_ms() - now;
    now += ms[3];
    stage = "load";
    if ((s = instantiate_workers(sp->prog)) != IRON_OK)
        goto fail;
    if ((s = iron__drv_load(t->dev, sp->prog, &sp->loaded)) != IRON_OK)
        goto fail;
    ms[4] = iron__now_ms() - now;
    j->stats.last_build_ms = iron__now_ms() - t0;
    iron__log(IRON__LOG_JIT,
              "%s: built (%s) in %.2f ms: design %.2f, verify %.2f, place "
              "%.2f, kernels %.2f (%s, %llu compiled), load %.2f",
              sp->signature, reason, j->stats.last_build_ms, ms[0], ms[1],
              ms[2], ms[3], how,
              (unsigned long long)(j->stats.kernel_compiles - compiles),
              ms[4]);
    *out = sp;
    return IRON_OK;

fail:
    iron__fail_context(s, "%s: %s",
                       sp->signature ? sp->signature : j->name, stage);
    iron__jit_spec_free(sp);
    return s;
}
