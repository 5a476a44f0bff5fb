/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * run.c - asynchronous runs: iron_jit_start and iron_spec_start hand a
 * prepared run (run.h) to a small pool of launcher threads; iron_run_wait,
 * enum iron_run_state, iron_run_error and iron_run_free follow it to its end.
 *
 * The pool is process-wide, made on demand, and never shrinks (like the
 * emulator's lane threads): a start makes a thread when none is idle for
 * its run, up to a cap.  A run waits in a FIFO queue until a thread takes
 * it -- or until a wait without a time limit takes it first and executes
 * it on the waiting thread, which is then exactly the synchronous call
 * (no thread hop for a caller that waits at once).
 *
 * One mutex, `mu`, guards the queue, the list of runs in flight (queued
 * or executing), every run's queued/detached flags and the publication of
 * its end.  It is never held while a run executes.  Lock order: mu before
 * nothing else.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/env.h"
#include "jit/run.h"

/* Unless IRON_LAUNCH_THREADS says otherwise, at least this many
 * launcher threads may exist, so that a handful of runs on different jits
 * overlap even on a small machine (a run mostly waits on its device, here
 * the emulator's own threads); more on a machine with more CPUs. */
#define MIN_LAUNCHERS 4

/* How often an idle launcher looks again at queued runs whose
 * specialization is busy with a call from outside the queue. */
#define TURN_POLL_NS 1000000L

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;      /* queue grew */
static pthread_cond_t any_ended = PTHREAD_COND_INITIALIZER; /* flight shrank */
static iron_run *queue_head, *queue_tail;   /* through next_queued */
static iron_run *flight;                    /* through prev/next */
static int nthreads, nidle, nqueued, max_threads;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static int ended(int state)
{
    return state != IRON_RUN_NEW && state != IRON_RUN_QUEUED &&
           state != IRON_RUN_RUNNING;
}

static const char *state_word(int state)
{
    return state == IRON_RUN_RUNNING ? "running" : "queued";
}

/* --- lists, under mu ----------------------------------------------------- */

static void flight_add(iron_run *r)
{
    r->prev = NULL;
    r->next = flight;
    if (flight)
        flight->prev = r;
    flight = r;
}

static void flight_remove(iron_run *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        flight = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->prev = r->next = NULL;
}

static void queue_add(iron_run *r)
{
    r->queued = 1;
    r->next_queued = NULL;
    if (queue_tail)
        queue_tail->next_queued = r;
    else
        queue_head = r;
    queue_tail = r;
    nqueued++;
}

/* Takes r out of the queue (a wait or a free took it over). */
static void queue_remove(iron_run *r)
{
    iron_run **p = &queue_head, *before = NULL;
    while (*p != r) {
        before = *p;
        p = &(*p)->next_queued;
    }
    *p = r->next_queued;
    if (queue_tail == r)
        queue_tail = before;
    r->queued = 0;
    nqueued--;
}

/* The first queued run a launcher can execute now: one whose
 * specialization is not on the device (its run lock is free: taken here,
 * for the run), or a miss (its build comes first).  Runs of one
 * specialization thus leave the queue one at a time and in start order,
 * and never tie up launcher threads waiting for their turn while runs of
 * other jits are queued behind them.  NULL: none can go now. */
static iron_run *queue_take(void)
{
    for (iron_run *r = queue_head; r; r = r->next_queued) {
        if (r->sp) {
            if (pthread_mutex_trylock(&r->sp->run_lock) != 0)
                continue;
            r->has_turn = 1;
        }
        queue_remove(r);
        return r;
    }
    return NULL;
}

/* --- fork ---------------------------------------------------------------
 * The child has none of the launcher threads, nor the threads that were
 * executing runs: those runs belong to the parent.  In the child they end
 * as ABORT (a wait returns at once, saying so) and let their tensors go,
 * so that the child can free them.  Holding mu across the fork keeps the
 * lists consistent. */

static void fork_prepare(void)
{
    pthread_mutex_lock(&mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&mu);
}

static void free_run(iron_run *r);

static void fork_child(void)
{
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&work, NULL);
    pthread_cond_init(&any_ended, NULL);
    iron_run *r = flight;
    while (r) {
        iron_run *next = r->next;
        iron__run_orphan(r);
        r->queued = 0;
        r->prev = r->next = NULL;
        r->status = IRON_ESTATE;
        pthread_cond_init(&r->ended, NULL);
        atomic_store(&r->state, IRON_RUN_ABORT);
        if (r->detached)
            free_run(r);
        r = next;
    }
    flight = queue_head = queue_tail = NULL;
    nthreads = nidle = nqueued = 0;
}

static void setup(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    max_threads = (int)iron__env_get_int(IRON__ENV_LAUNCH_THREADS);
    if (max_threads == 0)  /* unset: automatic */
        max_threads = cpus > MIN_LAUNCHERS ? (int)cpus : MIN_LAUNCHERS;
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* --- executing ----------------------------------------------------------- */

static void free_run(iron_run *r)
{
    pthread_cond_destroy(&r->ended);
    iron__free(r->trace);
    iron__free(r->error);
    iron__free(r);
}

/* Executes r on this thread and publishes its end. */
static void execute(iron_run *r)
{
    int state;
    iron_status s = iron__run_execute(r, &state);
    /* The message is this thread's; the run keeps a copy for whoever
     * asks.  Out of memory: iron_run_error falls back to the status. */
    char *msg = s != IRON_OK ? iron__strdup(iron_last_error()) : NULL;
    pthread_mutex_lock(&mu);
    r->error = msg;
    atomic_store_explicit(&r->state, state, memory_order_release);
    flight_remove(r);
    int detached = r->detached;
    pthread_cond_broadcast(&r->ended);
    pthread_cond_broadcast(&any_ended);
    /* Its specialization is free again: a run of it may be queued. */
    if (queue_head)
        pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&mu);
    if (detached)
        free_run(r);
}

static void *launcher_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    for (;;) {
        iron_run *r = queue_take();
        if (!r) {
            nidle++;
            if (!queue_head) {
                pthread_cond_wait(&work, &mu);
            } else {
                /* Only runs waiting for their turn.  A synchronous call
                 * may have it, and its end tells nobody: look again soon
                 * (the end of a run from this queue wakes us at once). */
                struct timespec t;
                clock_gettime(CLOCK_REALTIME, &t);
                t.tv_nsec += TURN_POLL_NS;
                if (t.tv_nsec >= 1000000000L) {
                    t.tv_sec++;
                    t.tv_nsec -= 1000000000L;
                }
                pthread_cond_timedwait(&work, &mu, &t);
            }
            nidle--;
            continue;
        }
        pthread_mutex_unlock(&mu);
        execute(r);
        pthread_mutex_lock(&mu);
    }
    return NULL;
}

iron_status iron__run_submit(iron_run *r)
{
    pthread_once(&setup_once, setup);
    pthread_mutex_lock(&mu);
    /* Idle threads not yet spoken for by queued runs: one for this run,
     * or a new thread while under the cap. */
    if (nidle - nqueued < 1 && nthreads < max_threads) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&th, &at, launcher_main, NULL);
        pthread_attr_destroy(&at);
        if (rc == 0)
            nthreads++;
        else if (nthreads == 0) {
            pthread_mutex_unlock(&mu);
            return iron__fail(IRON_ERESOURCE,
                              "%s: cannot start a launcher thread (%s); "
                              "iron_jit_launch runs on the calling thread",
                              r->jit->name, strerror(rc));
        }
    }
    atomic_store_explicit(&r->state, IRON_RUN_QUEUED, memory_order_relaxed);
    flight_add(r);
    queue_add(r);
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&mu);
    return IRON_OK;
}

void iron__run_drain_jit(iron_jit *j)
{
    pthread_mutex_lock(&mu);
    for (;;) {
        const iron_run *r = flight;
        while (r && r->jit != j)
            r = r->next;
        if (!r)
            break;
        pthread_cond_wait(&any_ended, &mu);
    }
    pthread_mutex_unlock(&mu);
}

/* --- the public functions ------------------------------------------------ */

/* A blank asynchronous run in *rp, once out is known to be usable. */
static iron_status new_run(iron_run **rp, iron_run **out, const char *fn)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "%s: out is NULL", fn);
    *out = NULL;
    iron_run *r = iron__calloc(1, sizeof *r);
    if (!r)
        return iron__fail(IRON_ENOMEM, "%s: out of memory", fn);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&r->ended, &ca);
    pthread_condattr_destroy(&ca);
    r->async = 1;
    *rp = r;
    return IRON_OK;
}

/* Queues a prepared run, or undoes everything. */
static iron_status submit_or_free(iron_run *r, iron_run **out)
{
    iron_status s = iron__run_submit(r);
    if (s != IRON_OK) {
        iron__run_drop(r);
        free_run(r);
        return s;
    }
    *out = r;
    return IRON_OK;
}

IRON_API iron_status iron_jit_start(iron_jit *j,
                                    const iron_launch_config *config,
                                    int nparams, const iron_param *params,
                                    int nscalars, const iron_scalar *scalars,
                                    int nargs, iron_tensor *const *args,
                                    iron_run **out)
{
    iron_run *r;
    iron_status s = new_run(&r, out, "iron_jit_start");
    if (s != IRON_OK)
        return iron__public_result(s);
    if (!j) {
        free_run(r);
        return iron__fail(IRON_EINVAL, "iron_jit_start: jit is NULL");
    }
    s = iron__run_prepare(r, j, config, nparams, params, nscalars, scalars,
                          nargs, args);
    if (s != IRON_OK) {
        free_run(r);
        return iron__public_result(s);
    }
    return iron__public_result(submit_or_free(r, out));
}

IRON_API iron_status iron_spec_start(iron_spec *sp, int nscalars,
                                     const iron_scalar *scalars, int nargs,
                                     iron_tensor *const *args, iron_run **out)
{
    iron_run *r;
    iron_status s = new_run(&r, out, "iron_spec_start");
    if (s != IRON_OK)
        return iron__public_result(s);
    if (!sp) {
        free_run(r);
        return iron__fail(IRON_EINVAL, "iron_spec_start: spec is NULL");
    }
    s = iron__run_prepare_spec(r, sp, nscalars, scalars, nargs, args);
    if (s != IRON_OK) {
        free_run(r);
        return iron__public_result(s);
    }
    return iron__public_result(submit_or_free(r, out));
}

static struct timespec deadline_after(int64_t ms)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += (time_t)(ms / 1000);
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

IRON_API iron_status iron_run_wait(iron_run *r, int64_t timeout_ms)
{
    if (!r)
        return iron__fail(IRON_EINVAL, "iron_run_wait: run is NULL");
    if (timeout_ms < -1)
        return iron__fail(IRON_EINVAL,
                          "iron_run_wait: timeout_ms is %lld; expected -1 "
                          "(as long as it takes), 0 (just look) or more",
                          (long long)timeout_ms);
    pthread_mutex_lock(&mu);
    if (timeout_ms == -1 && r->queued) {
        /* Nobody has taken it: this thread executes it, which is what a
         * launcher thread would do, minus the wake-up. */
        queue_remove(r);
        pthread_mutex_unlock(&mu);
        execute(r);
        pthread_mutex_lock(&mu);
    }
    struct timespec deadline = deadline_after(timeout_ms > 0 ? timeout_ms
                                                             : 0);
    int state;
    while (!ended(state = atomic_load(&r->state))) {
        if (timeout_ms == -1)
            pthread_cond_wait(&r->ended, &mu);
        else if (timeout_ms == 0 ||
                 pthread_cond_timedwait(&r->ended, &mu, &deadline) ==
                     ETIMEDOUT) {
            state = atomic_load(&r->state);
            if (ended(state))
                break;
            /* Still in flight: its jit is alive (iron_jit_free waits). */
            iron_status s = iron__fail(IRON_EPENDING,
                                       "%s: the run is still %s after %lld "
                                       "ms; it goes on (wait again, or free "
                                       "it to let it finish unattended)",
                                       r->jit->name, state_word(state),
                                       (long long)timeout_ms);
            pthread_mutex_unlock(&mu);
            return iron__public_result(s);
        }
    }
    pthread_mutex_unlock(&mu);
    if (r->status == IRON_OK)
        return iron__public_result(IRON_OK);
    return iron__fail(r->status, "%s", iron_run_error(r));
}

IRON_API enum iron_run_state iron_run_state(const iron_run *r)
{
    return r ? (enum iron_run_state)atomic_load_explicit(
                   &r->state, memory_order_acquire)
             : IRON_RUN_ERROR;
}

IRON_API const char *iron_run_error(const iron_run *r)
{
    if (!r)
        return "";
    /* The message is written before the end is published. */
    int state = atomic_load_explicit(&r->state, memory_order_acquire);
    if (state == IRON_RUN_ABORT)
        return "the run was cancelled: the process forked while it was in "
               "flight, and it runs in the parent only";
    if (!ended(state) || r->status == IRON_OK)
        return "";
    return r->error ? r->error : iron_status_message(r->status);
}

IRON_API void iron_run_free(iron_run *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&mu);
    if (r->queued) {
        /* Not started: cancelled.  It stays in flight until it has let
         * its specialization go (iron_jit_free waits for that). */
        queue_remove(r);
        atomic_store(&r->state, IRON_RUN_ABORT);
        pthread_mutex_unlock(&mu);
        iron__run_drop(r);
        pthread_mutex_lock(&mu);
        flight_remove(r);
        pthread_cond_broadcast(&any_ended);
    } else if (!ended(atomic_load(&r->state))) {
        /* Executing: whoever executes it frees it at its end. */
        r->detached = 1;
        pthread_mutex_unlock(&mu);
        return;
    }
    pthread_mutex_unlock(&mu);
    free_run(r);
}
