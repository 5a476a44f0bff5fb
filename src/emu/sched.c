/*
 * sched.c - the cooperative scheduler: a ready queue of tasks, run on the
 * calling thread until every awaited drain is done, no task can move
 * (deadlock), or the time limit passes.
 *
 * Rules: a task is on the queue at most once (its state says so); a step
 * runs until the task blocks; wakes only push tasks that are blocked.  No
 * locks, no callbacks into user code other than kernels, which run inside
 * a worker's step.
 */
#include <stdio.h>

#include "emu/emu.h"

void iron__emu_wake(emu_inst *in, emu_task *t)
{
    if (!t || t->state != EMU_BLOCKED)
        return;
    t->state = EMU_READY;
    in->ready[(in->rhead + in->rcount) % in->ntasks] = t;
    in->rcount++;
}

void iron__emu_block(emu_task *t, emu_pool *p, int wait_prod)
{
    t->state = EMU_BLOCKED;
    t->wait_pool = p;
    t->wait_prod = wait_prod;
}

/* How many steps run between clock reads: a step is short (it blocks
 * within `depth` objects), so this keeps clock reads off the hot path. */
#define CLOCK_EVERY 256

iron_status iron__emu_schedule(emu_inst *in, int timeout_ms,
                               iron_run_state *state)
{
    uint64_t deadline = iron__now_ns() + (uint64_t)timeout_ms * 1000000u;
    unsigned steps = 0;
    /* Run while anything can move, even after the awaited drains are done,
     * so that the call leaves the array quiescent (no task half-way through
     * this call's tensors when it returns). */
    while (in->rcount > 0) {
        emu_task *t = in->ready[in->rhead];
        in->rhead = (in->rhead + 1) % in->ntasks;
        in->rcount--;
        t->state = EMU_RUNNING;
        t->step(in, t);
        if (++steps % CLOCK_EVERY == 0 && iron__now_ns() > deadline) {
            iron__str s = { 0 };
            iron__emu_report(in, &s);
            *state = IRON_RUN_TIMEOUT;
            iron_status st = iron__fail(IRON_ETIMEOUT,
                                        "the run did not finish within %d ms; "
                                        "%s",
                                        timeout_ms, iron__str_get(&s));
            iron__str_free(&s);
            return st;
        }
    }
    if (in->awaited_left > 0 || in->ops_left > 0) {
        iron__str s = { 0 };
        iron__emu_report(in, &s);
        *state = IRON_RUN_ERROR;
        iron_status st = iron__fail(
            IRON_EDEADLOCK,
            "no task can make progress with %d awaited drain%s and %d "
            "runtime op%s unfinished (on hardware this hangs until the "
            "timeout): %s",
            in->awaited_left, in->awaited_left == 1 ? "" : "s", in->ops_left,
            in->ops_left == 1 ? "" : "s", iron__str_get(&s));
        iron__str_free(&s);
        return st;
    }
    *state = IRON_RUN_COMPLETED;
    return IRON_OK;
}
