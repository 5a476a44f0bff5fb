/*
 * lanes.c - splitting a loaded program's tasks into lanes and running a
 * call's lanes in parallel on a small process-wide thread pool.
 *
 * Tasks that share a buffer pool wake each other, so they must share a
 * lane; tasks that share none never interact.  The connected groups of the
 * task graph are dealt round-robin onto at most IRON_THREADS lanes
 * (default: the number of online CPUs, at most 8).  A one-lane call runs
 * entirely on the caller's thread with no synchronisation at all.
 *
 * Lock order: pool_mu only; no user code (kernels) runs under it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/env.h"
#include "emu/emu.h"

#define MAX_THREADS 8

static int find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

static int task_index(const emu_inst *in, const emu_task *t)
{
    for (int i = 0; i < in->nworkers; i++)
        if (&in->workers[i].task == t)
            return i;
    for (int i = 0; i < in->nmovers; i++)
        if (&in->movers[i].task == t)
            return in->nworkers + i;
    return -1;
}

static emu_task *task_at(emu_inst *in, int i)
{
    return i < in->nworkers ? &in->workers[i].task
                            : &in->movers[i - in->nworkers].task;
}

static int threads_env;
static pthread_once_t threads_once = PTHREAD_ONCE_INIT;

static void read_threads(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t n = iron__env_int("IRON_THREADS", 1, 1024, cpus < 1 ? 1 : cpus);
    threads_env = n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static int thread_limit(void)
{
    pthread_once(&threads_once, read_threads);
    return threads_env;
}

iron_status iron__emu_lanes_assign(emu_inst *in)
{
    int n = in->ntasks;
    int *parent = iron__malloc((size_t)(n ? n : 1) * sizeof *parent);
    int *lane_of_root = iron__malloc((size_t)(n ? n : 1) * sizeof *parent);
    if (!parent || !lane_of_root) {
        iron__free(parent);
        iron__free(lane_of_root);
        return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    }
    for (int i = 0; i < n; i++) {
        parent[i] = i;
        lane_of_root[i] = -1;
    }
    /* Everyone who writes or reads a pool can wake everyone else there. */
    for (int p = 0; p < in->prog->npools; p++) {
        const emu_pool *pl = &in->pools[p];
        int first = -1;
        for (int k = 0; k < pl->nw + pl->nr; k++) {
            const emu_task *t = k < pl->nw ? pl->writer[k] : pl->reader[k - pl->nw];
            int ti = task_index(in, t);
            if (ti < 0)
                continue;
            if (first < 0)
                first = ti;
            else
                parent[find(parent, ti)] = find(parent, first);
        }
    }
    int groups = 0;
    for (int i = 0; i < n; i++)
        groups += find(parent, i) == i;
    /* Checked mode opens and closes buffers for the one kernel running:
     * exact only when one kernel runs at a time. */
    int limit = in->checked ? 1 : thread_limit();
    in->nlanes = groups < limit ? (groups ? groups : 1) : limit;
    int next = 0;
    for (int i = 0; i < n; i++) {
        int r = find(parent, i);
        if (lane_of_root[r] < 0)
            lane_of_root[r] = next++ % in->nlanes;
        task_at(in, i)->lane = &in->lanes[lane_of_root[r]];
    }
    for (int l = 0; l < in->nlanes; l++) {
        in->lanes[l].in = in;
        in->lanes[l].index = l;
        in->lanes[l].rhead = in->lanes[l].rcount = 0;
        in->lanes[l].ops_left = in->lanes[l].awaited_left = 0;
        memset(in->lanes[l].group_awaited, 0,
               (size_t)(in->prog->ngroups + 1) *
                   sizeof *in->lanes[l].group_awaited);
    }
    iron__free(parent);
    iron__free(lane_of_root);
    return IRON_OK;
}

/* --- the thread pool ------------------------------------------------------
 * Jobs are lanes of some call; a call waits on its own batch counter.
 * Threads are created on demand and live for the process. */

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
static int nthreads;
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
    nthreads = 0;
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
        pthread_mutex_unlock(&pool_mu);
        iron__emu_run_lane(j->lane);
        pthread_mutex_lock(&pool_mu);
        if (--j->b->left == 0)
            pthread_cond_signal(&j->b->done);
    }
    return NULL;
}

/* Queues lanes 1.. of the call; returns how many went to the pool (the
 * rest, if threads could not be made, run on the caller). */
static int submit(emu_inst *in, job *jobs, batch *b)
{
    int queued = 0;
    pthread_once(&fork_once, register_fork);
    pthread_mutex_lock(&pool_mu);
    while (nthreads < in->nlanes - 1) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&th, &at, pool_main, NULL);
        pthread_attr_destroy(&at);
        if (rc != 0)
            break;
        nthreads++;
    }
    for (int l = 1; l < in->nlanes; l++) {
        if (nthreads == 0)
            break;
        jobs[l].lane = &in->lanes[l];
        jobs[l].b = b;
        jobs[l].next = NULL;
        if (queue_tail)
            queue_tail->next = &jobs[l];
        else
            queue_head = &jobs[l];
        queue_tail = &jobs[l];
        queued++;
    }
    b->left = queued;
    pthread_cond_broadcast(&pool_cv);
    pthread_mutex_unlock(&pool_mu);
    return queued;
}

iron_status iron__emu_lanes_run(emu_inst *in, iron_run_state *state)
{
    if (in->nlanes == 1) {
        iron__emu_run_lane(&in->lanes[0]);
    } else {
        job jobs[MAX_THREADS];
        batch b;
        pthread_cond_init(&b.done, NULL);
        int queued = submit(in, jobs, &b);
        iron__emu_run_lane(&in->lanes[0]);
        for (int l = 1 + queued; l < in->nlanes; l++)
            iron__emu_run_lane(&in->lanes[l]);
        pthread_mutex_lock(&pool_mu);
        while (b.left > 0)
            pthread_cond_wait(&b.done, &pool_mu);
        pthread_mutex_unlock(&pool_mu);
        pthread_cond_destroy(&b.done);
    }
    /* The first failing lane speaks for the call; the message is copied
     * here because a pool thread's last-error text is its own. */
    for (int l = 0; l < in->nlanes; l++)
        if (in->lanes[l].status != IRON_OK) {
            *state = in->lanes[l].state;
            return iron__fail(in->lanes[l].status, "%s", in->lanes[l].error);
        }
    *state = IRON_RUN_COMPLETED;
    return IRON_OK;
}
