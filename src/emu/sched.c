/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * sched.c - the cooperative scheduler of one lane: a ready queue of tasks,
 * run until the phase is over.
 *
 * One lane (the design runs on one thread): it runs until what the phase
 * awaits is done, or no task can move (deadlock), or time is up.  Several
 * lanes (one design on several threads, handoff.c): each runs its own
 * tasks and takes the tasks other lanes woke from its inbox; the phase is
 * over for all of them at once, when its last awaited op is done, when
 * every lane is idle (deadlock), at the deadline, or when one fails.  The
 * outcome is the same whatever the number of lanes: the dataflow is
 * deterministic, and a stall is reported over every task.
 *
 * Rules: a task is on one lane's queue or inbox at most once (its state
 * says so); a step runs until the task blocks; a wake only queues a
 * blocked task.  No locks, no callbacks other than kernels, which run
 * inside a worker's step.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu/trap.h"

void iron__emu_task_fail(emu_task *t, iron_status s, const char *fmt, ...)
{
    emu_lane *l = t->lane;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->error, sizeof l->error, fmt, ap);
    va_end(ap);
    l->status = s;
    l->state = IRON_RUN_ERROR;
    if (t->shared)
        __atomic_store_n(&t->state, EMU_BLOCKED, __ATOMIC_SEQ_CST);
    else
        t->state = EMU_BLOCKED;
    t->wait_pool = NULL;
    t->wait_barrier = NULL;
}

/* How many steps run between reads of the coarse clock: a step is short
 * (it blocks within `depth` objects) and the coarse clock is a memory
 * read, so the limit is kept to within a few ms of kernel time. */
#define CLOCK_EVERY 8

static void lane_fail(emu_lane *l, iron_status s, enum iron_run_state state,
                      const char *what)
{
    l->no_jump++;   /* allocates: the watchdog must not jump out of it */
    iron__emu_report(l->in, l, what);
    l->no_jump--;
    l->stalled = 1;
    l->status = s;
    l->state = state;
}

/* The first words of a stall's message: why the phase stopped. */
static void stall_what(const emu_inst *in, int why, int awaited, int ops,
                       char *what, size_t n)
{
    if (why == IRON__EMU_TIMEOUT)
        snprintf(what, n, "the run did not finish within %d ms",
                 in->timeout_ms);
    else
        snprintf(what, n,
                 "no task can make progress with %d awaited drain%s and %d "
                 "runtime op%s unfinished (on hardware this hangs until the "
                 "timeout)",
                 awaited, awaited == 1 ? "" : "s", ops, ops == 1 ? "" : "s");
}

/* Takes the next task off the ready ring and marks it running; NULL for
 * an entry left behind by a task its partner ran in place (worker.c). */
static emu_task *pop_ready(emu_lane *l)
{
    IRON__ASSERT(l->rcount > 0, "popped only while the ring holds a task");
    emu_task *t = l->ready[l->rhead];
    l->rhead = l->rhead + 1 == l->in->ntasks ? 0 : l->rhead + 1;
    l->rcount--;
    t->queued = 0;
    if (t->shared) {
        /* Queued only by the compare-and-swap to READY, never stale. */
        IRON__ASSERT(__atomic_load_n(&t->state, __ATOMIC_SEQ_CST) ==
                         EMU_READY,
                     "a shared task is queued only by its compare-and-swap "
                     "to READY, and only this lane takes it off");
        __atomic_store_n(&t->state, EMU_RUNNING, __ATOMIC_SEQ_CST);
        return t;
    }
    if (t->state != EMU_READY)
        return NULL;
    t->state = EMU_RUNNING;
    return t;
}

/* Runs one step; 0 when the lane must stop: the task failed
 * (iron__emu_task_fail) or, every few steps, the deadline has passed
 * (*late is set). */
static int run_one(emu_lane *l, emu_task *t, unsigned long *steps, int *late)
{
    l->cur = t;
    ++*steps;
    if (l->watch)
        iron__emu_watch_tick(l->watch, *steps);
    t->step(l->in, t);
    if (l->status != IRON_OK)
        return 0;
    if (*steps % CLOCK_EVERY == 0 &&
        iron__now_coarse_ns() > l->in->deadline_ns) {
        *late = 1;
        return 0;
    }
    return 1;
}

static void run_steps(emu_lane *l)
{
    unsigned long steps = 0;
    int late = 0;
    char what[256];
    /* Tasks that can still move when the phase is done stay queued and go
     * on at the next phase or call, as cores keep running between kernel
     * launches on hardware. */
    while (l->rcount > 0 && iron__emu_lane_owed(l) > 0) {
        emu_task *t = pop_ready(l);
        if (t && !run_one(l, t, &steps, &late)) {
            if (late) {
                stall_what(l->in, IRON__EMU_TIMEOUT, 0, 0, what, sizeof what);
                lane_fail(l, IRON_ETIMEOUT, IRON_RUN_TIMEOUT, what);
            }
            return;
        }
    }
    if (iron__emu_lane_owed(l) > 0) {
        stall_what(l->in, IRON__EMU_DEADLOCK, l->awaited_left, l->ops_left,
                   what, sizeof what);
        lane_fail(l, IRON_EDEADLOCK, IRON_RUN_ERROR, what);
        return;
    }
    l->status = IRON_OK;
    l->state = IRON_RUN_COMPLETED;
}

/* Several lanes stopped together on a deadlock or a timeout: the
 * report, over every task, speaks for lane 0 and every lane fails with it
 * (each lane's tasks took part in the stall). */
void iron__emu_phase_fail(emu_inst *in, int why)
{
    emu_lane *l0 = &in->lanes[0];
    char what[256];
    int awaited = 0, ops = 0;
    for (int l = 0; l < in->nlanes; l++) {
        awaited += in->lanes[l].awaited_left;
        ops += in->lanes[l].ops_left;
    }
    stall_what(in, why, awaited, ops, what, sizeof what);
    iron__emu_report(in, NULL, what);
    l0->stalled = 1;
    for (int l = 0; l < in->nlanes; l++) {
        in->lanes[l].status =
            why == IRON__EMU_TIMEOUT ? IRON_ETIMEOUT : IRON_EDEADLOCK;
        in->lanes[l].state =
            why == IRON__EMU_TIMEOUT ? IRON_RUN_TIMEOUT : IRON_RUN_ERROR;
    }
}

/* One of several lanes: runs until the phase is over for all (in->stop).
 * Only a failure is left in the lane; the caller words a deadlock or a
 * timeout, over every task, once all lanes have stopped. */
static void run_steps_multi(emu_lane *l)
{
    emu_inst *in = l->in;
    unsigned long steps = 0;
    int late = 0;
    for (;;) {
        if (__atomic_load_n(&in->stop, __ATOMIC_RELAXED) != IRON__EMU_RUNNING)
            return;
        if (l->rcount == 0 && !iron__emu_lane_take_inbox(l)) {
            if (!iron__emu_lane_idle(l))
                return;
            continue;
        }
        emu_task *t = pop_ready(l);
        if (t && !run_one(l, t, &steps, &late)) {
            iron__emu_stop(in, late ? IRON__EMU_TIMEOUT : IRON__EMU_FAILED);
            return;
        }
    }
}

/* Runs the lane's steps under a trap: a kernel that faults, stops the
 * process or overruns the timeout comes back here (trap.c), and only its
 * lane's part of the call fails. */
void iron__emu_run_lane(void *arg)
{
    emu_lane *l = arg;
    emu_trap trap;
    l->status = IRON_OK;
    l->stalled = 0;
    l->cur = NULL;
    l->no_jump = 0;
    l->watch = iron__emu_watch_begin(l->in->deadline_ns);
    iron__emu_lane_enter(l);
    iron__emu_trap_arm(&trap, l);
    if (sigsetjmp(trap.jb, 0) == 0) {
        if (l->in->multi)
            run_steps_multi(l);
        else
            run_steps(l);
    } else {
        iron__emu_trap_caught(&trap);
        if (l->in->multi)
            iron__emu_stop(l->in, IRON__EMU_FAILED);
    }
    iron__emu_stream_fence();
    iron__emu_trap_disarm(&trap);
    iron__emu_lane_leave();
    iron__emu_watch_end(l->watch);
    l->cur = NULL;
}
