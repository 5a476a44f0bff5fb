/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * handoff.c - what crosses between lanes when one design runs on several
 * threads: wakes, shared pools' releases, idle lanes, and the end of a
 * phase.
 *
 * A pool whose writers and readers sit on different lanes is `shared`:
 * its counters change with sequentially consistent atomic operations.  A
 * task that uses such a pool is `shared` too, and its state changes with
 * atomic operations, because another lane may wake it:
 *
 *   - a releasing side updates the counter, then moves the other side's
 *     task from BLOCKED to READY with a compare-and-swap and, when the
 *     task lives on another lane, pushes it on that lane's inbox (a
 *     lock-free stack);
 *   - a task that blocks on a shared pool stores BLOCKED, then looks at
 *     the counter again and, if what it waits for has come meanwhile,
 *     makes itself READY with the same compare-and-swap.
 *
 * Each side writes before it reads what the other wrote (store-load on
 * both sides, all sequentially consistent), so at least one of them sees
 * the other: no wake is lost, and the compare-and-swap lets exactly one
 * of them queue the task.
 *
 * Idle lanes and the end of a phase: `active` counts lanes that are not
 * idle.  A lane with nothing to run marks itself idle, looks at its inbox
 * once more, and only then leaves `active` and sleeps on its `idle` word
 * (a futex).  A waker that finds the target idle claims it back (idle 1
 * -> 0), counts it active again before the waker itself can go idle, and
 * wakes it.  So `active` reaching zero means every lane is idle with an
 * empty inbox and none can be woken: the phase is deadlocked (or done).
 * The phase is done when `owed` (what it awaits) reaches zero; the lane
 * that makes it zero stops them all.  A sleeping lane wakes at the call's
 * deadline to stop them all with a timeout.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu/trap.h"

/* The lane this thread runs (NULL outside a lane: the sequence's thread
 * between phases, when no lane runs). */
static _Thread_local emu_lane *cur_lane;

void iron__emu_lane_enter(emu_lane *l)
{
    cur_lane = l;
}

void iron__emu_lane_leave(void)
{
    cur_lane = NULL;
}

static void futex_wake(int *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Sleeps while *word == val, at most `ns`. */
static void futex_wait(int *word, int val, uint64_t ns)
{
    struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
                           .tv_nsec = (long)(ns % 1000000000u) };
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

static void push_remote(emu_lane *l, emu_task *t)
{
    emu_task *head = __atomic_load_n(&l->inbox, __ATOMIC_RELAXED);
    do
        t->next_in = head;
    while (!__atomic_compare_exchange_n(&l->inbox, &head, t, 1,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    /* Claim the lane back if it went idle: it counts as active again
     * before this (active) lane can go idle itself. */
    if (__atomic_exchange_n(&l->idle, 0, __ATOMIC_SEQ_CST) == 1) {
        __atomic_add_fetch(&l->in->active, 1, __ATOMIC_SEQ_CST);
        futex_wake(&l->idle);
    }
}

void iron__emu_wake_shared(emu_task *t)
{
    int expect = EMU_BLOCKED;
    if (!__atomic_compare_exchange_n(&t->state, &expect, EMU_READY, 0,
                                     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        return;
    if (cur_lane == NULL || cur_lane == t->lane)
        iron__emu_ready_push(t->lane, t);
    else
        push_remote(t->lane, t);
}

void iron__emu_block_shared(emu_task *t, emu_pool *p, int writer, int slot,
                            int count)
{
    __atomic_store_n(&t->state, EMU_BLOCKED, __ATOMIC_SEQ_CST);
    /* The other side may have released between our look and the store
     * above, seeing us not yet blocked: look again. */
    if (p && p->shared &&
        iron__pool_avail(p, writer, slot) >= count - iron__pool_held(p, writer,
                                                                    slot))
        iron__emu_wake_shared(t);
}

/* Several writers or readers: the last writer (reader) of a buffer to
 * be done with it bumps every reader's (writer's) counter and wakes each.
 * (The counters and the peak were updated by iron__pool_release.) */
void iron__pool_release_multi(emu_pool *p, int writer, int slot, int n)
{
    for (int k = 0; k < n; k++) {
        if (writer) {
            int b = p->wi[slot];
            p->wi[slot] = b + 1 == p->depth ? 0 : b + 1;
            p->whold[slot]--;
            int done = p->shared
                           ? __atomic_add_fetch(&p->wdone[b], 1,
                                                __ATOMIC_SEQ_CST)
                           : ++p->wdone[b];
            if (done < p->nw)
                continue;
            /* Every writer is done with b; none takes it again before
             * the readers free it, which follows this store. */
            if (p->shared)
                __atomic_store_n(&p->wdone[b], 0, __ATOMIC_SEQ_CST);
            else
                p->wdone[b] = 0;
            for (int r = 0; r < p->nr; r++) {
                iron__pool_add(p, &p->filled[r], 1);
                iron__emu_wake(p->reader[r]);
            }
        } else {
            int b = p->ri[slot];
            p->ri[slot] = b + 1 == p->depth ? 0 : b + 1;
            p->rhold[slot]--;
            int done = p->shared
                           ? __atomic_add_fetch(&p->rdone[b], 1,
                                                __ATOMIC_SEQ_CST)
                           : ++p->rdone[b];
            if (done < p->nr)
                continue;
            if (p->shared)
                __atomic_store_n(&p->rdone[b], 0, __ATOMIC_SEQ_CST);
            else
                p->rdone[b] = 0;
            for (int w = 0; w < p->nw; w++) {
                iron__pool_add(p, &p->free[w], 1);
                iron__emu_wake(p->writer[w]);
            }
        }
    }
}

void iron__pool_release_shared(emu_pool *p, int writer, int slot, int n)
{
    iron__pool_release_as(p, writer, slot, n, 1);
}

/* A writer of a join may sit on another lane than its partners. */
void iron__pool_note_peak_shared(emu_pool *p, int used)
{
    int peak = __atomic_load_n(&p->peak, __ATOMIC_RELAXED);
    while (used > peak &&
           !__atomic_compare_exchange_n(&p->peak, &peak, used, 1,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void iron__emu_stop(emu_inst *in, int why)
{
    int expect = IRON__EMU_RUNNING;
    if (!__atomic_compare_exchange_n(&in->stop, &expect, why, 0,
                                     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        return;  /* the first reason stands */
    for (int l = 0; l < in->nlanes; l++)
        if (__atomic_exchange_n(&in->lanes[l].idle, 2, __ATOMIC_SEQ_CST) == 1)
            futex_wake(&in->lanes[l].idle);
}

/* Moves what other lanes woke onto the ready ring; 0 if nothing came. */
int iron__emu_lane_take_inbox(emu_lane *l)
{
    if (!__atomic_load_n(&l->inbox, __ATOMIC_RELAXED))
        return 0;
    emu_task *t = __atomic_exchange_n(&l->inbox, NULL, __ATOMIC_SEQ_CST);
    int n = 0;
    for (; t; t = t->next_in, n++)
        iron__emu_ready_push(l, t);
    return n;
}

/* How many times an idle lane looks at its inbox before it sleeps: a
 * wake usually follows within a few hundred nanoseconds, and a futex
 * round trip costs tens of microseconds. */
#define SPIN_LOOKS 2000

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int stopping(const emu_inst *in)
{
    return __atomic_load_n(&in->stop, __ATOMIC_SEQ_CST) != IRON__EMU_RUNNING;
}

int iron__emu_lane_idle(emu_lane *l)
{
    emu_inst *in = l->in;
    for (int i = 0; i < SPIN_LOOKS; i++) {
        if (stopping(in))
            return 0;
        if (iron__emu_lane_take_inbox(l))
            return 1;
        cpu_relax();
    }
    __atomic_store_n(&l->idle, 1, __ATOMIC_SEQ_CST);
    if (stopping(in))
        return 0;
    if (__atomic_load_n(&l->inbox, __ATOMIC_SEQ_CST)) {
        /* Work came after all.  If a waker claimed us meanwhile it
         * counted us active once more than we left: give that back. */
        if (__atomic_exchange_n(&l->idle, 0, __ATOMIC_SEQ_CST) != 1)
            __atomic_sub_fetch(&in->active, 1, __ATOMIC_SEQ_CST);
        iron__emu_lane_take_inbox(l);
        return 1;
    }
    if (__atomic_sub_fetch(&in->active, 1, __ATOMIC_SEQ_CST) == 0) {
        /* Every lane idle, every inbox empty: nobody can wake anybody. */
        iron__emu_stop(in, __atomic_load_n(&in->owed, __ATOMIC_SEQ_CST) > 0
                               ? IRON__EMU_DEADLOCK
                               : IRON__EMU_DONE);
        return 0;
    }
    /* Asleep, the lane is not running a kernel: the watchdog must not
     * poke it.  The call's deadline still ends the wait. */
    uint64_t deadline = in->deadline_ns;
    if (l->watch)
        atomic_store_explicit(&l->watch->deadline_ns, 0,
                              memory_order_relaxed);
    while (__atomic_load_n(&l->idle, __ATOMIC_SEQ_CST) == 1 &&
           !stopping(in)) {
        uint64_t now = iron__now_ns();
        if (now >= deadline) {
            iron__emu_stop(in, IRON__EMU_TIMEOUT);
            break;
        }
        futex_wait(&l->idle, 1, deadline - now);
    }
    if (l->watch)
        atomic_store_explicit(&l->watch->deadline_ns, deadline,
                              memory_order_relaxed);
    if (stopping(in))
        return 0;
    iron__emu_lane_take_inbox(l);
    return 1;
}
