/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * table.c - the jit's specializations in memory: found by an exact
 * comparison of everything that selects one (device, columns, every
 * argument's dtype and shape, every compile-time value including whole
 * strings and kernel sources), indexed by a 64-bit digest of the same, and
 * kept in least-recently-used order so that at most `max_resident` stay
 * loaded.
 *
 * The digest only picks a bucket: two signatures with equal digests are
 * two entries in one chain, never one found for the other.  Everything
 * here runs under the jit's table lock.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "core/env.h"
#include "jit/jit.h"
#include "tensor/tensor.h"

uint64_t iron__jit_test_digest;

int iron__jit_default_max_resident(void)
{
    return (int)iron__env_get_int(IRON__ENV_RESIDENT_MAX);
}

/* The digest of a small fixed record; strings and kernel sources enter as
 * their own hashes.  It only picks a bucket (the comparison below is
 * exact), so hashing a hash costs nothing in correctness and keeps the
 * record on the stack. */
uint64_t iron__jit_sig_digest(const iron_jit *j, const jit_target *t,
                              iron_tensor *const *args,
                              const iron__pval *params)
{
    if (iron__jit_test_digest)
        return iron__jit_test_digest;
    uint64_t rec[3 + IRON__JIT_MAX_ARGS * (IRON_MAX_DIMS + 1) +
                 IRON__JIT_MAX_PARAMS * 4];
    int n = 0;
    rec[n++] = (uint64_t)(uintptr_t)t->dev;
    rec[n++] = (uint64_t)t->cols;
    rec[n++] = (uint64_t)t->timed;
    for (int i = 0; i < j->nargs; i++) {
        rec[n++] = (uint64_t)args[i]->dtype << 32 |
                   (uint64_t)args[i]->shape.ndim;
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
            memcpy(&rec[n++], &v->f, sizeof v->f);
            break;
        case IRON_PARAM_STR:
            rec[n++] = XXH3_64bits(v->s, strlen(v->s));
            break;
        case IRON_PARAM_DTYPE:
            rec[n++] = (uint64_t)v->dtype;
            break;
        case IRON_PARAM_KERNEL:
            rec[n++] = XXH3_64bits(v->kernel.entry, strlen(v->kernel.entry));
            rec[n++] = XXH3_64bits(v->kernel.source,
                                   strlen(v->kernel.source));
            rec[n++] = XXH3_64bits(v->kernel.arg_types,
                                   strlen(v->kernel.arg_types));
            break;
        }
    }
    IRON__ASSERT((size_t)n <= IRON__COUNT_OF(rec),
                 "the record has room for IRON__JIT_MAX_ARGS shapes and "
                 "IRON__JIT_MAX_PARAMS values, the most a jit declares");
    return XXH3_64bits(rec, (size_t)n * sizeof rec[0]);
}

int iron__pval_equal(const iron__pval *a, const iron__pval *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case IRON_PARAM_INT:
    case IRON_PARAM_BOOL:
        return a->i == b->i;
    case IRON_PARAM_FLOAT:
        /* Bit patterns: -0.0 and 0.0 may build different kernels. */
        return memcmp(&a->f, &b->f, sizeof a->f) == 0;
    case IRON_PARAM_STR:
        return strcmp(a->s, b->s) == 0;
    case IRON_PARAM_DTYPE:
        return a->dtype == b->dtype;
    case IRON_PARAM_KERNEL:
        return strcmp(a->kernel.entry, b->kernel.entry) == 0 &&
               strcmp(a->kernel.source, b->kernel.source) == 0 &&
               strcmp(a->kernel.arg_types, b->kernel.arg_types) == 0;
    }
    return 0;
}

int iron__argsig_fits(const iron__argsig *a, const iron_tensor *t)
{
    return a->dtype == t->dtype && a->shape.ndim == t->shape.ndim &&
           memcmp(a->shape.dims, t->shape.dims,
                  (size_t)t->shape.ndim * sizeof t->shape.dims[0]) == 0;
}

/* The exact comparison: what the digest summarises, value by value. */
static int spec_matches(const iron_jit *j, const jit_spec *sp,
                        const jit_target *t, iron_tensor *const *args,
                        const iron__pval *params)
{
    if (sp->dev != t->dev || sp->cols != t->cols || sp->timed != t->timed)
        return 0;
    for (int i = 0; i < j->nargs; i++)
        if (!iron__argsig_fits(&sp->args[i], args[i]))
            return 0;
    for (int i = 0; i < j->nparams; i++)
        if (!iron__pval_equal(&sp->params[i], &params[i]))
            return 0;
    return 1;
}

static void lru_unlink(iron_jit *j, jit_spec *sp)
{
    if (sp->lru_prev)
        sp->lru_prev->lru_next = sp->lru_next;
    else
        j->lru_head = sp->lru_next;
    if (sp->lru_next)
        sp->lru_next->lru_prev = sp->lru_prev;
    else
        j->lru_tail = sp->lru_prev;
    sp->lru_prev = sp->lru_next = NULL;
}

static void lru_push_front(iron_jit *j, jit_spec *sp)
{
    sp->lru_prev = NULL;
    sp->lru_next = j->lru_head;
    if (j->lru_head)
        j->lru_head->lru_prev = sp;
    else
        j->lru_tail = sp;
    j->lru_head = sp;
}

jit_spec *iron__jit_table_find(iron_jit *j, uint64_t digest,
                               const jit_target *t,
                               iron_tensor *const *args,
                               const iron__pval *params)
{
    if (!j->nbuckets)
        return NULL;
    IRON__ASSERT((j->nbuckets & (j->nbuckets - 1)) == 0,
                 "the bucket count is a power of two (16, doubled by grow), "
                 "so the digest's low bits pick a bucket");
    jit_spec *sp = j->buckets[digest & (uint64_t)(j->nbuckets - 1)];
    for (; sp; sp = sp->chain)
        if (sp->digest == digest &&
            spec_matches(j, sp, t, args, params))
            break;
    if (sp && sp != j->lru_head) {
        lru_unlink(j, sp);
        lru_push_front(j, sp);
    }
    return sp;
}

static iron_status grow(iron_jit *j)
{
    int n = j->nbuckets ? j->nbuckets * 2 : 16;
    jit_spec **b = iron__calloc((size_t)n, sizeof *b);
    if (!b)
        return iron__fail(IRON_ENOMEM,
                          "%s: out of memory caching a specialization",
                          j->name);
    for (int i = 0; i < j->nbuckets; i++)
        for (jit_spec *sp = j->buckets[i], *next; sp; sp = next) {
            next = sp->chain;
            jit_spec **head = &b[sp->digest & (uint64_t)(n - 1)];
            sp->chain = *head;
            *head = sp;
        }
    iron__free(j->buckets);
    j->buckets = b;
    j->nbuckets = n;
    return IRON_OK;
}

iron_status iron__jit_table_insert(iron_jit *j, jit_spec *sp)
{
    if (j->nspecs + 1 > j->nbuckets) {
        iron_status s = grow(j);
        if (s != IRON_OK)
            return s;
    }
    jit_spec **head = &j->buckets[sp->digest & (uint64_t)(j->nbuckets - 1)];
    sp->chain = *head;
    *head = sp;
    lru_push_front(j, sp);
    j->nspecs++;
    return IRON_OK;
}

static void table_remove(iron_jit *j, jit_spec *sp)
{
    jit_spec **at = &j->buckets[sp->digest & (uint64_t)(j->nbuckets - 1)];
    while (*at != sp)
        at = &(*at)->chain;
    *at = sp->chain;
    sp->chain = NULL;
    lru_unlink(j, sp);
    j->nspecs--;
}

/* Least recently used first; a specialization that a caller holds
 * (iron_jit_specialize), that a call is running, or that the counters
 * describe stays.  The victims come back chained through `chain`, to be
 * freed once the table lock is released. */
jit_spec *iron__jit_table_evict(iron_jit *j)
{
    jit_spec *victims = NULL;
    jit_spec *sp = j->lru_tail;
    while (j->nspecs > j->max_resident && sp) {
        jit_spec *prev = sp->lru_prev;
        if (!sp->pinned &&
            atomic_load_explicit(&sp->busy, memory_order_acquire) == 0 &&
            sp != atomic_load_explicit(&j->last_run, memory_order_relaxed)) {
            table_remove(j, sp);
            sp->chain = victims;
            victims = sp;
            j->stats.evictions++;
        }
        sp = prev;
    }
    return victims;
}

void iron__jit_table_free_all(iron_jit *j)
{
    for (jit_spec *sp = j->lru_head, *next; sp; sp = next) {
        next = sp->lru_next;
        iron__jit_spec_free(sp);
    }
    iron__free(j->buckets);
    j->buckets = NULL;
    j->lru_head = j->lru_tail = NULL;
    j->nbuckets = j->nspecs = 0;
}
