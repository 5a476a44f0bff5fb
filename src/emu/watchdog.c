/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * watchdog.c - interrupts a kernel that overruns the call's timeout.
 *
 * The scheduler checks the clock between steps, so only a step that never
 * returns (a kernel in an endless loop, a core body spinning without
 * calling the FIFO API) escapes it.  Every thread that runs lanes has a
 * record with its deadline and a step counter, written with relaxed
 * stores (no lock, no system call on the hot path).  One process-wide
 * thread looks at the records every TICK_MS while any lane runs; when a
 * deadline has passed and the counter has not moved since its last look,
 * it sends the thread the trap signal, whose handler jumps back to the
 * lane (trap.c).  With no lane running for IDLE_MS it sleeps on a condition
 * variable, so an idle process has no wake-ups.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "emu/trap.h"

#define TICK_MS 10
#define IDLE_MS 2000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static emu_watch *records;      /* under mu; records live for the process */
static _Atomic int started;    /* written under mu */
/* Lanes running now, and whether the watchdog sleeps.  A lane stores
 * `active` then loads `asleep`; the watchdog stores `asleep` then loads
 * `active` (both sequentially consistent), so at least one of them sees
 * the other: it never sleeps through a run, and a lane takes the mutex
 * only to wake it. */
static _Atomic int active, asleep;

static _Thread_local emu_watch *mine;

static void look(uint64_t now)
{
    for (emu_watch *w = records; w; w = w->next) {
        uint64_t dl = atomic_load_explicit(&w->deadline_ns,
                                           memory_order_relaxed);
        unsigned long p = atomic_load_explicit(&w->progress,
                                               memory_order_relaxed);
        if (dl == 0 || p != w->seen) {
            w->seen = p;
            w->seen_since = now;
            continue;
        }
        if (now <= dl)
            continue;
        atomic_store_explicit(&w->stuck_ns, now - w->seen_since,
                              memory_order_relaxed);
        union sigval v = { .sival_int = IRON__EMU_WATCH_MAGIC };
        pthread_sigqueue(w->thread, iron__emu_watch_signal(), v);
        /* Poke again only if it is still stuck a while later. */
        w->seen_since = now;
        w->seen = p;
    }
}

static void *watch_main(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    uint64_t idle_since = iron__now_ns();
    pthread_mutex_lock(&mu);
    for (;;) {
        uint64_t now = iron__now_ns();
        if (atomic_load(&active) > 0)
            idle_since = now;
        else if (now - idle_since > (uint64_t)IDLE_MS * 1000000u) {
            asleep = 1;
            while (atomic_load(&active) == 0)
                pthread_cond_wait(&wake, &mu);
            asleep = 0;
            idle_since = iron__now_ns();
        }
        look(iron__now_ns());
        pthread_mutex_unlock(&mu);
        struct timespec ts = { 0, TICK_MS * 1000000L };
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&mu);
    }
    return NULL;
}

/* A forked child has only the forking thread: no watchdog (it is started
 * again by the child's first run) and no other thread to watch. */
static void after_fork_in_child(void)
{
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&wake, NULL);
    atomic_store(&started, 0);
    atomic_store(&asleep, 0);
    atomic_store(&active, 0);
    records = mine;
    if (mine) {
        mine->thread = pthread_self();
        mine->next = NULL;
        atomic_store(&mine->deadline_ns, 0);
    }
}

static void hook_fork(void)
{
    pthread_atfork(NULL, NULL, after_fork_in_child);
}

static emu_watch *register_thread(void)
{
    static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
    pthread_once(&fork_once, hook_fork);
    emu_watch *w = iron__calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->thread = pthread_self();
    pthread_mutex_lock(&mu);
    w->next = records;
    records = w;
    pthread_mutex_unlock(&mu);
    return w;
}

/* The watchdog thread, made at the first run (of the process, or of a
 * forked child). */
static void start(void)
{
    pthread_mutex_lock(&mu);
    if (!atomic_load(&started)) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        atomic_store(&started,
                     pthread_create(&th, &at, watch_main, NULL) == 0);
        pthread_attr_destroy(&at);
    }
    pthread_mutex_unlock(&mu);
}

emu_watch *iron__emu_watch_begin(uint64_t deadline_ns)
{
    if (!mine && !(mine = register_thread()))
        return NULL;
    if (!atomic_load_explicit(&started, memory_order_relaxed))
        start();
    atomic_store_explicit(&mine->deadline_ns, deadline_ns,
                          memory_order_relaxed);
    atomic_fetch_add(&active, 1);
    if (atomic_load(&asleep)) {
        pthread_mutex_lock(&mu);
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&mu);
    }
    return mine;
}

void iron__emu_watch_end(emu_watch *w)
{
    if (!w)
        return;
    atomic_store_explicit(&w->deadline_ns, 0, memory_order_relaxed);
    atomic_fetch_sub(&active, 1);
}

uint64_t iron__emu_watch_stuck_ns(const emu_watch *w)
{
    return w ? atomic_load_explicit(&w->stuck_ns, memory_order_relaxed) : 0;
}
