/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * lanes.c - dealing a loaded program's tasks onto lanes, one lane per
 * thread, and running a phase's lanes together on a small process-wide
 * thread pool.
 *
 * The unit of parallelism is the column: every task belongs to the column
 * it works in (a worker to its tile's, a DMA mover to its source's, or its
 * first destination's when the source is the host), and the used columns
 * are cut into at most `threads` contiguous blocks of about equal work
 * (a worker weighs more than a mover).  Independent columns thus share no
 * pool at all; a design whose FIFOs cross columns (a broadcast along a
 * row, say) gets shared pools at the cuts, which handoff.c makes safe.
 * One lane (one column, one thread, or checked mode) runs on the caller's
 * thread with no atomic operation anywhere.
 *
 * Lock order: pool_mu only; no user code (kernels) runs under it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/env.h"
#include "core/log.h"
#include "emu/emu.h"

/* A worker's kernel calls are most of the work; a mover's copies less. */
#define WORKER_WEIGHT 8
#define MOVER_WEIGHT 1

static int threads_env, threads_env_set;
static pthread_once_t threads_once = PTHREAD_ONCE_INIT;

static void read_threads(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    /* Unset or not a count (env.c warns): the CPU count. */
    iron__env_value n;
    threads_env_set = iron__env_get(IRON__ENV_THREADS, &n);
    threads_env = threads_env_set ? (int)n.i : cpus < 1 ? 1 : (int)cpus;
}

int iron__emu_threads_default(void)
{
    pthread_once(&threads_once, read_threads);
    return threads_env;
}

static emu_task *task_at(emu_inst *in, int i)
{
    return i < in->nworkers ? &in->workers[i].task
                            : &in->movers[i - in->nworkers].task;
}

/* The column a task works in (see the top). */
static int task_col(const emu_inst *in, int i)
{
    if (i < in->nworkers)
        return in->workers[i].w->tile.col;
    const iron__mover *m = in->movers[i - in->nworkers].m;
    int pool = m->src.pool >= 0 ? m->src.pool
                                : m->ndst > 0 ? m->dst[0].pool : -1;
    return pool >= 0 ? in->pools[pool].def->tile.col : 0;
}

int iron__emu_cut_columns(const int *weight, int ncols, int want,
                          int *lane_of)
{
    int total = 0, used = 0;
    for (int c = 0; c < ncols; c++) {
        total += weight[c];
        used += weight[c] > 0;
    }
    int nl = want < used ? want : used;
    if (nl < 1)
        nl = 1;
    int before = 0, last = -1, lanes = 0;
    for (int c = 0; c < ncols; c++) {
        if (weight[c] == 0) {
            lane_of[c] = -1;
            continue;
        }
        /* The block the column's middle falls in. */
        int l = (int)(((int64_t)before * 2 + weight[c]) * nl /
                      ((int64_t)total * 2));
        if (l >= nl)
            l = nl - 1;
        if (l != last) {
            lanes++;
            last = l;
        }
        lane_of[c] = lanes - 1;
        before += weight[c];
    }
    return lanes > 0 ? lanes : 1;
}

/* --- the automatic thread count ------------------------------------------
 * With no count asked for (neither the launch configuration nor
 * IRON_THREADS), a design whose columns make several lanes is timed on
 * them and on one lane, after a first call that warms both up, and keeps
 * the faster: a cut crossed by a stream of small objects costs more in
 * cache-line transfers between cores than a second core gives back, while
 * a cut between columns of heavy kernels halves the time.  Each side gets
 * TUNE_SAMPLES calls (the best counts, so one call disturbed by another
 * process does not decide), and the choice is made again every
 * RETUNE_EVERY calls, as the machine's load changes.  The results are the
 * same either way; only the speed differs. */
enum { TUNE_WARM, TUNE_CUT, TUNE_ONE, TUNE_DONE };
#define TUNE_SAMPLES 2
#define RETUNE_EVERY 1024

int iron__emu_lanes_auto(const emu_inst *in)
{
    iron__emu_threads_default();
    return in->threads_asked == 0 && !threads_env_set && !in->checked;
}

int iron__emu_lanes_tuning(const emu_inst *in)
{
    return iron__emu_lanes_auto(in) && in->tune != TUNE_DONE;
}

int iron__emu_lanes_want(const emu_inst *in, int threads)
{
    if (in->checked)
        return 1;  /* buffers open for the one kernel running */
    if (threads > 0)
        return threads;
    int n = iron__emu_threads_default();
    if (iron__emu_lanes_auto(in) &&
        (in->tune == TUNE_ONE || (in->tune == TUNE_DONE && in->tune_one)))
        return 1;
    return n;
}

static void tune_from_cut(emu_inst *in)
{
    in->tune = TUNE_CUT;
    in->tune_n = 0;
    in->tune_cut_ns = in->tune_one_ns = UINT64_MAX;
}

void iron__emu_lanes_timed(emu_inst *in, uint64_t ns)
{
    switch (in->tune) {
    case TUNE_WARM:
        /* A design that is one lane anyway has nothing to choose. */
        in->tune_cuts = in->nlanes > 1;
        if (in->tune_cuts)
            tune_from_cut(in);
        else
            in->tune = TUNE_DONE;
        break;
    case TUNE_CUT:
        if (ns < in->tune_cut_ns)
            in->tune_cut_ns = ns;
        if (++in->tune_n == TUNE_SAMPLES) {
            in->tune = TUNE_ONE;
            in->tune_n = 0;
        }
        break;
    case TUNE_ONE:
        if (ns < in->tune_one_ns)
            in->tune_one_ns = ns;
        if (++in->tune_n == TUNE_SAMPLES) {
            in->tune_one = in->tune_one_ns < in->tune_cut_ns;
            in->tune = TUNE_DONE;
            in->tune_n = 0;
        }
        break;
    default:
        if (in->tune_cuts && ++in->tune_n >= RETUNE_EVERY)
            tune_from_cut(in);
        break;
    }
}

iron_status iron__emu_lanes_assign(emu_inst *in, int threads)
{
    int n = in->ntasks;
    int want = iron__emu_lanes_want(in, threads);
    /* Tasks queued by an earlier call stay queued, on their new lanes. */
    emu_task **queued = iron__malloc((size_t)(n ? n : 1) * sizeof *queued);
    int *col = iron__malloc((size_t)(n ? n : 1) * sizeof *col);
    int ncols = 1;
    for (int i = 0; col && i < n; i++) {
        col[i] = task_col(in, i);
        if (col[i] + 1 > ncols)
            ncols = col[i] + 1;
    }
    int *weight = iron__calloc((size_t)ncols, sizeof *weight);
    int *lane_of = iron__malloc((size_t)ncols * sizeof *lane_of);
    if (!queued || !col || !weight || !lane_of) {
        iron__free(queued);
        iron__free(col);
        iron__free(weight);
        iron__free(lane_of);
        return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    }
    /* Each READY task once (a ring may hold stale entries, see
     * emu_task.queued); a task fresh from a reset is BLOCKED. */
    int nq = 0;
    for (int l = 0; l < in->nlanes; l++) {
        emu_lane *ln = &in->lanes[l];
        for (int k = 0; k < ln->rcount; k++) {
            emu_task *t = ln->ready[(ln->rhead + k) % n];
            if (t->state == EMU_READY && t->queued) {
                queued[nq++] = t;
                t->queued = 0;
            }
        }
        for (emu_task *t = ln->inbox; t; t = t->next_in)
            if (t->state == EMU_READY)
                queued[nq++] = t;
    }
    for (int i = 0; i < n; i++)
        weight[col[i]] += i < in->nworkers ? WORKER_WEIGHT : MOVER_WEIGHT;
    in->nlanes = iron__emu_cut_columns(weight, ncols, want, lane_of);
    in->multi = in->nlanes > 1;
    in->threads = want;
    for (int l = 0; l < in->nlanes; l++) {
        emu_lane *ln = &in->lanes[l];
        ln->in = in;
        ln->index = l;
        ln->rhead = ln->rcount = 0;
        ln->inbox = NULL;
        ln->idle = 0;
        ln->ops_left = ln->awaited_left = 0;
        memset(ln->group_awaited, 0,
               (size_t)(in->prog->ngroups + 1) *
                   sizeof *ln->group_awaited);
    }
    for (int i = 0; i < n; i++) {
        emu_task *t = task_at(in, i);
        t->lane = &in->lanes[lane_of[col[i]]];
        t->shared = 0;
        t->queued = 0;
    }
    /* A pool whose tasks sit on different lanes is shared, and so is
     * every task that uses one. */
    for (int p = 0; p < in->prog->npools; p++) {
        emu_pool *pl = &in->pools[p];
        emu_lane *first = NULL;
        pl->shared = 0;
        for (int k = 0; k < pl->nw + pl->nr; k++) {
            emu_task *t = k < pl->nw ? pl->writer[k] : pl->reader[k - pl->nw];
            if (!t)
                continue;
            if (!first)
                first = t->lane;
            else if (t->lane != first)
                pl->shared = 1;
        }
        for (int k = 0; pl->shared && k < pl->nw + pl->nr; k++) {
            emu_task *t = k < pl->nw ? pl->writer[k] : pl->reader[k - pl->nw];
            if (t)
                t->shared = 1;
        }
    }
    for (int k = 0; k < nq; k++)
        iron__emu_ready_push(queued[k]->lane, queued[k]);
    iron__free(queued);
    iron__free(col);
    iron__free(weight);
    iron__free(lane_of);
    return IRON_OK;
}

/* --- the thread pool ------------------------------------------------------
 * Jobs are lanes of some call; a call waits on its own batch counter.
 * Threads are created on demand and live for the process.  The lanes of
 * one phase wait for each other, so they must all run at once: a call
 * queues its lanes only when enough threads are free to take every queued
 * job (free = threads not running a job). */

typedef struct batch {
    int left;
    pthread_cond_t done;
} batch;

typedef struct job {
    emu_lane *lane;
    batch *b;
    struct job *next;
} job;

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cv = PTHREAD_COND_INITIALIZER;
static job *queue_head, *queue_tail;
static int nthreads, nbusy, nqueued;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* fork() copies the pool's counters but none of its threads: a child
 * that believed it had workers would queue lanes nobody runs.  Holding
 * pool_mu across the fork keeps the copied state consistent; the child
 * starts with an empty pool and makes threads again on demand.  A call in
 * progress in the parent belongs to the parent only. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&pool_mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&pool_mu);
}

static void fork_child(void)
{
    pthread_mutex_init(&pool_mu, NULL);
    pthread_cond_init(&pool_cv, NULL);
    queue_head = queue_tail = NULL;
    nthreads = nbusy = nqueued = 0;
}

static void register_fork(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void *pool_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pool_mu);
    for (;;) {
        while (!queue_head)
            pthread_cond_wait(&pool_cv, &pool_mu);
        job *j = queue_head;
        queue_head = j->next;
        if (!queue_head)
            queue_tail = NULL;
        nqueued--;
        nbusy++;
        pthread_mutex_unlock(&pool_mu);
        iron__emu_run_lane(j->lane);
        pthread_mutex_lock(&pool_mu);
        nbusy--;
        if (--j->b->left == 0)
            pthread_cond_signal(&j->b->done);
    }
    return NULL;
}

/* Queues lanes 1.. of the phase, making threads so that every queued job
 * has one.  Fails (queueing nothing) when threads cannot be made. */
static iron_status submit(emu_inst *in, job *jobs, batch *b)
{
    pthread_once(&fork_once, register_fork);
    pthread_mutex_lock(&pool_mu);
    int need = nqueued + in->nlanes - 1;
    while (nthreads - nbusy < need) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&th, &at, pool_main, NULL);
        pthread_attr_destroy(&at);
        if (rc != 0) {
            int have = nthreads - nbusy;
            pthread_mutex_unlock(&pool_mu);
            return iron__fail(IRON_ENOMEM,
                              "emulator: cannot start a thread for lane %d "
                              "of %d (%s); set IRON_THREADS or the launch "
                              "configuration's threads lower (free "
                              "threads: %d)",
                              have + 1, in->nlanes, strerror(rc), have);
        }
        nthreads++;
    }
    for (int l = 1; l < in->nlanes; l++) {
        jobs[l].lane = &in->lanes[l];
        jobs[l].b = b;
        jobs[l].next = NULL;
        if (queue_tail)
            queue_tail->next = &jobs[l];
        else
            queue_head = &jobs[l];
        queue_tail = &jobs[l];
        nqueued++;
    }
    b->left = in->nlanes - 1;
    pthread_cond_broadcast(&pool_cv);
    pthread_mutex_unlock(&pool_mu);
    return IRON_OK;
}

/* Several lanes: run them all at once until the phase is over for all. */
static iron_status run_multi(emu_inst *in)
{
    int owed = 0;
    for (int l = 0; l < in->nlanes; l++) {
        owed += iron__emu_lane_owed(&in->lanes[l]);
        in->lanes[l].status = IRON_OK;
        in->lanes[l].stalled = 0;
        in->lanes[l].state = IRON_RUN_COMPLETED;
        in->lanes[l].idle = 0;
    }
    if (owed == 0)
        return IRON_OK;
    in->owed = owed;
    in->active = in->nlanes;
    in->stop = IRON__EMU_RUNNING;
    job *jobs = iron__malloc((size_t)in->nlanes * sizeof *jobs);
    if (!jobs)
        return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    batch b;
    pthread_cond_init(&b.done, NULL);
    iron_status s = submit(in, jobs, &b);
    if (s == IRON_OK) {
        iron__emu_run_lane(&in->lanes[0]);
        pthread_mutex_lock(&pool_mu);
        while (b.left > 0)
            pthread_cond_wait(&b.done, &pool_mu);
        pthread_mutex_unlock(&pool_mu);
    }
    pthread_cond_destroy(&b.done);
    iron__free(jobs);
    if (s != IRON_OK)
        return s;
    /* A lane's own failure says more than the stall it caused: a kernel
     * that hangs past the deadline is named by its lane's trap, even when
     * an idle lane woke at the deadline first. */
    for (int l = 0; l < in->nlanes; l++)
        if (in->lanes[l].status != IRON_OK)
            return IRON_OK;
    if (in->stop == IRON__EMU_DEADLOCK || in->stop == IRON__EMU_TIMEOUT)
        iron__emu_phase_fail(in, in->stop);
    return IRON_OK;
}

iron_status iron__emu_lanes_run(emu_inst *in, enum iron_run_state *state)
{
    if (in->nlanes == 1) {
        iron__emu_run_lane(&in->lanes[0]);
    } else {
        iron_status s = run_multi(in);
        if (s != IRON_OK) {
            *state = IRON_RUN_ERROR;
            return s;
        }
    }
    /* The first failing lane speaks for the call; the message is copied
     * here because a pool thread's last-error text is its own. */
    for (int l = 0; l < in->nlanes; l++)
        if (in->lanes[l].status != IRON_OK) {
            *state = in->lanes[l].state;
            if (in->lanes[l].stalled)
                return iron__emu_report_fail(in, in->lanes[l].status);
            return iron__fail(in->lanes[l].status, "%s", in->lanes[l].error);
        }
    *state = IRON_RUN_COMPLETED;
    return IRON_OK;
}
