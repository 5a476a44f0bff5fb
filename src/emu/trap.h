/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * trap.h - the jump point a lane's thread returns to when a kernel
 * faults, stops the process (exit, abort, assert) or overruns the call's
 * timeout (trap.c), and the watchdog that notices the last (watchdog.c).
 */
#ifndef IRON_EMU_TRAP_H
#define IRON_EMU_TRAP_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "emu/emu.h"

typedef enum iron__trap_kind {
    IRON__TRAP_NONE,
    IRON__TRAP_SIGNAL,     /* a fault: sig, code, addr, pc */
    IRON__TRAP_STOP,       /* exit/abort/assert/signal(): stop[] says */
    IRON__TRAP_TIMEOUT     /* the watchdog interrupted a kernel */
} iron__trap_kind;

typedef struct emu_trap {
    sigjmp_buf jb;
    emu_lane *lane;
    volatile sig_atomic_t armed;
    struct emu_trap *prev;
    iron__trap_kind kind;
    int sig, code, is_write;   /* is_write: 1, 0, or -1 unknown */
    void *addr, *pc, *sp;
    char stop[512];
} emu_trap;

/* The value the watchdog's signal carries, telling it from a user's. */
#define IRON__EMU_WATCH_MAGIC 0x1a0b7e57

/* Arms t for lane l on this thread (installs the handlers on first use).
 * The caller then does `if (sigsetjmp(t->jb, 0) == 0) run; else
 * iron__emu_trap_caught(t);` and finally disarms. */
void iron__emu_trap_arm(emu_trap *t, emu_lane *l);
void iron__emu_trap_disarm(emu_trap *t);
/* After the jump: leaves the lane's status and message. */
void iron__emu_trap_caught(emu_trap *t);
int iron__emu_watch_signal(void);

/* watchdog.c: one record per thread that runs lanes.  The lane bumps
 * `progress` every step; the watchdog interrupts a thread whose deadline
 * has passed while one step has not returned. */
typedef struct emu_watch {
    _Atomic unsigned long progress;   /* steps taken by the lane */
    _Atomic uint64_t deadline_ns;     /* 0: no lane running */
    pthread_t thread;
    /* The watchdog's own view (only it touches these). */
    unsigned long seen;
    uint64_t seen_since;
    _Atomic uint64_t stuck_ns;        /* set before it pokes the thread */
    struct emu_watch *next;
} emu_watch;

emu_watch *iron__emu_watch_begin(uint64_t deadline_ns);
void iron__emu_watch_end(emu_watch *w);
/* How long the interrupted step had been running, as far as the watchdog
 * saw (its resolution is its tick). */
uint64_t iron__emu_watch_stuck_ns(const emu_watch *w);

static inline void iron__emu_watch_tick(emu_watch *w, unsigned long steps)
{
    atomic_store_explicit(&w->progress, steps, memory_order_relaxed);
}

#endif
