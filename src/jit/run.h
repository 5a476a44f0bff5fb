/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * run.h - one call of a jit or of a specialization, from its start to its
 * end: the public iron_run.
 *
 * Every call is a run.  launch.c prepares it (checks the call, resolves
 * its values, finds its specialization, holds its tensors) and executes
 * it (builds on a miss, runs on the device, lets go).  The synchronous
 * call prepares a run on its own stack and executes it at once on the
 * calling thread: no allocation, no lock, no other thread.  An
 * asynchronous one (run.c) is the same run on the heap, queued to a
 * launcher thread -- or executed by the first wait without a time limit
 * that finds it still queued.
 */
#ifndef IRON_JIT_RUN_H
#define IRON_JIT_RUN_H

#include <pthread.h>
#include <stdatomic.h>

#include "jit/jit.h"

struct iron_run {
    /* The call, as prepared. */
    iron_jit *jit;
    jit_spec *sp;             /* held (busy); NULL until a miss is built */
    const jit_runopts *ro;    /* &opts, or the specialization's own */
    jit_runopts opts;
    jit_target t;             /* device, columns, timing */
    int nargs;
    iron_tensor *args[IRON__JIT_MAX_ARGS];   /* held until the end */
    int64_t values[IRON__JIT_MAX_SCALARS];
    /* A miss: the resolved parameters (strings owned) and the key, for
     * the build. */
    int miss;
    uint64_t digest;
    iron__pval pv[IRON__JIT_MAX_PARAMS];
    /* How it ended. */
    atomic_int state;         /* an enum iron_run_state */
    iron_status status;
    /* Asynchronous runs only (run.c). */
    int async;
    char *trace;              /* opts.trace, owned */
    char *error;              /* the failure's message, owned */
    int queued;               /* in the launcher queue */
    int has_turn;             /* sp's run lock taken for it (run.c) */
    int detached;             /* freed by its owner before it ended */
    pthread_cond_t ended;
    struct iron_run *prev, *next;   /* in flight: queued or executing */
    struct iron_run *next_queued;   /* in the launcher queue */
};

/* launch.c */
/* Prepares r for a call of j (r->async says whether it must own what it
 * keeps).  On failure nothing is held. */
iron_status iron__run_prepare(iron_run *r, iron_jit *j,
                              const iron_launch_config *config, int nparams,
                              const iron_param *params, int nscalars,
                              const iron_scalar *scalars, int nargs,
                              iron_tensor *const *args);
/* The same for a specialization's direct path. */
iron_status iron__run_prepare_spec(iron_run *r, jit_spec *sp, int nscalars,
                                   const iron_scalar *scalars, int nargs,
                                   iron_tensor *const *args);
/* Builds on a miss, runs on the device, lets everything go; sets
 * r->status, returns it, and says in *state how the run ended (the
 * caller publishes it: an asynchronous run's owner may free it then). */
iron_status iron__run_execute(iron_run *r, int *state);
/* Lets go of a prepared run that will not execute (cancelled). */
void iron__run_drop(iron_run *r);
/* Drops the holds of a run whose executing thread is gone (a forked
 * child), without waking anyone: there is nobody else in the child. */
void iron__run_orphan(iron_run *r);

/* run.c */
/* Queues a prepared asynchronous run. */
iron_status iron__run_submit(iron_run *r);
/* Waits until no asynchronous run of j is in flight (iron_jit_free). */
void iron__run_drain_jit(iron_jit *j);

#endif
