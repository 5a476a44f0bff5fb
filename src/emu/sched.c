/*
 * sched.c - the cooperative scheduler of one lane: a ready queue of tasks,
 * run until no task of the lane can move.  The lane's part of the call is
 * then complete (every op done), deadlocked, or out of time.
 *
 * Rules: a task is on its lane's queue at most once (its state says so); a
 * step runs until the task blocks; wakes only push blocked tasks, and only
 * tasks of the waker's own lane (lanes are built so that no pool connects
 * two lanes).  No locks, no callbacks other than kernels, which run inside
 * a worker's step.
 */
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"

void iron__emu_wake(emu_task *t)
{
    if (!t || t->state != EMU_BLOCKED)
        return;
    emu_lane *l = t->lane;
    t->state = EMU_READY;
    l->ready[(l->rhead + l->rcount) % l->in->ntasks] = t;
    l->rcount++;
}

void iron__emu_block(emu_task *t, emu_pool *p, int wait_prod)
{
    t->state = EMU_BLOCKED;
    t->wait_pool = p;
    t->wait_prod = wait_prod;
}

/* How many steps run between reads of the coarse clock: a step is short
 * (it blocks within `depth` objects) and the coarse clock is a memory
 * read, so the limit is kept to within a few ms of kernel time. */
#define CLOCK_EVERY 8

static void lane_fail(emu_lane *l, iron_status s, iron_run_state state,
                      const char *what)
{
    iron__str r = { 0 };
    iron__emu_report(l, &r);
    snprintf(l->error, sizeof l->error, "%s: %s", what, iron__str_get(&r));
    iron__str_free(&r);
    l->status = s;
    l->state = state;
}

void iron__emu_run_lane(void *arg)
{
    emu_lane *l = arg;
    emu_inst *in = l->in;
    uint64_t deadline = iron__now_coarse_ns() + (uint64_t)in->timeout_ms * 1000000u;
    unsigned steps = 0;
    /* Run until every op of this call is done (awaited or not: then no
     * task touches this call's tensors after it returns).  Tasks that can
     * still move stay queued and go on at the next call, as cores keep
     * running between kernel launches on hardware. */
    while (l->rcount > 0 && l->ops_left > 0) {
        emu_task *t = l->ready[l->rhead];
        l->rhead = (l->rhead + 1) % in->ntasks;
        l->rcount--;
        t->state = EMU_RUNNING;
        t->step(in, t);
        if (++steps % CLOCK_EVERY == 0 && iron__now_coarse_ns() > deadline) {
            char what[96];
            snprintf(what, sizeof what, "the run did not finish within %d ms",
                     in->timeout_ms);
            lane_fail(l, IRON_ETIMEOUT, IRON_RUN_TIMEOUT, what);
            return;
        }
    }
    if (l->awaited_left > 0 || l->ops_left > 0) {
        char what[256];
        snprintf(what, sizeof what,
                 "no task can make progress with %d awaited drain%s and %d "
                 "runtime op%s unfinished (on hardware this hangs until the "
                 "timeout)",
                 l->awaited_left, l->awaited_left == 1 ? "" : "s",
                 l->ops_left, l->ops_left == 1 ? "" : "s");
        lane_fail(l, IRON_EDEADLOCK, IRON_RUN_ERROR, what);
        return;
    }
    l->status = IRON_OK;
    l->state = IRON_RUN_COMPLETED;
}
