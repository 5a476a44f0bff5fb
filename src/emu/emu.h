/*
 * emu.h - the emulated NPU: a loaded program's tile memories, buffer pools
 * with their two counting locks, and the cooperatively scheduled tasks
 * (one per worker core, one per DMA mover) that run it.
 *
 * Scheduling model: a run executes on the calling thread.  Tasks are state
 * machines with a step function that runs until the task must wait on a
 * lock (it then returns, leaving the task blocked); releasing a lock wakes
 * the pool's one reader or one writer by pushing it on the ready queue.  A
 * FIFO handoff is a counter update and a queue push: nanoseconds, no OS
 * involvement.  Nothing here takes a lock: one loaded instance is run by
 * one thread at a time (the jit serialises its calls).
 */
#ifndef IRON_EMU_EMU_H
#define IRON_EMU_EMU_H

#include "program/program.h"

typedef struct emu_inst emu_inst;
typedef struct emu_task emu_task;
typedef struct emu_lane emu_lane;

typedef enum emu_task_state {
    EMU_BLOCKED,    /* waiting on a lock or for runtime ops */
    EMU_READY,      /* on the ready queue */
    EMU_RUNNING
} emu_task_state;

/* Runtime state of one buffer pool (see iron__pool). */
typedef struct emu_pool {
    const iron__pool *def;
    uint8_t *buf[IRON__MAX_DEPTH];
    int depth;
    int filled;            /* the consumer-side lock's value */
    int free;              /* the producer-side lock's value */
    int wi, ri;            /* next buffer to write / read, round-robin */
    emu_task *writer, *reader;
} emu_pool;

struct emu_task {
    void (*step)(emu_inst *in, emu_task *t);
    emu_task_state state;
    emu_lane *lane;        /* the lane (thread) that runs it */
    /* What the task waits on, for deadlock reports. */
    emu_pool *wait_pool;
    int wait_prod;         /* 1: waits for a free buffer; 0: a filled one */
};

/* A worker core running the standard loop. */
typedef struct emu_worker {
    emu_task task;
    const iron_worker *w;
    iron__kernel_fn fn;
    int nargs;
    emu_pool *pool[IRON__MAX_KARGS];   /* NULL for scalar arguments */
    int is_prod[IRON__MAX_KARGS];
    iron__kval val[IRON__MAX_KARGS];
    uint64_t iterations;   /* completed since load */
} emu_worker;

/* One runtime fill or drain queued on a mover for the current call. */
typedef struct emu_op {
    const iron__rt_op *op;
    uint8_t *tensor;
    int64_t total, done;   /* elements */
} emu_op;

/* A DMA mover for one FIFO. */
typedef struct emu_mover {
    emu_task task;
    const iron__mover *m;
    const iron_fifo *fifo;
    emu_pool *src;         /* NULL: the host */
    int ndst;
    emu_pool *dst[IRON__MAX_CONS];   /* none: the host */
    emu_op *ops;           /* this call's ops, in sequence order */
    int nops, head, cap;
    uint64_t objects;      /* moved since load */
} emu_mover;

/* A lane is one connected group of tasks (tasks that share no pool never
 * wake each other) run by one thread.  Lanes share no mutable state, so
 * nothing on the hot path is atomic or locked; a design of independent
 * columns runs its columns in parallel. */
struct emu_lane {
    emu_inst *in;
    int index;
    emu_task **ready;      /* ring of capacity in->ntasks */
    int rhead, rcount;
    int awaited_left;      /* awaited drains of this call not yet done */
    int ops_left;          /* ops of this call not yet done */
    /* Outcome of the lane's part of a run. */
    iron_status status;
    iron_run_state state;
    char error[1024];
};

struct emu_inst {
    const iron_program *prog;
    uint8_t *mem;          /* all compute tiles' memories, back to back */
    emu_pool *pools;
    emu_worker *workers;
    emu_mover *movers;
    int nworkers, nmovers;
    int ntasks;
    emu_lane *lanes;
    int nlanes, nlanes_cap;
    int timeout_ms;        /* of the current run */
    int started;           /* cores are running (persist across calls) */
    int broken;            /* a run failed: reset before the next */
};

/* sched.c */
void iron__emu_wake(emu_task *t);
void iron__emu_block(emu_task *t, emu_pool *p, int wait_prod);
/* Runs one lane to quiescence; the outcome is left in the lane. */
void iron__emu_run_lane(void *lane);

/* lanes.c: groups tasks into lanes (at load/reset) and runs a call's lanes
 * on the thread pool. */
iron_status iron__emu_lanes_assign(emu_inst *in);
iron_status iron__emu_lanes_run(emu_inst *in, iron_run_state *state);

/* core.c */
void iron__emu_worker_init(emu_inst *in, emu_worker *ew,
                           const iron_worker *w, int index);

/* dma.c */
void iron__emu_mover_init(emu_inst *in, emu_mover *em, const iron__mover *m);
iron_status iron__emu_mover_push(emu_mover *em, const iron__rt_op *op,
                                 uint8_t *tensor);
void iron__tap_copy(uint8_t *tensor, size_t esz, const iron_tap *tap,
                    int64_t start, int64_t n, uint8_t *buf, int to_tensor);

/* report.c: appends who waits on what, for the tasks of one lane. */
void iron__emu_report(const emu_lane *lane, iron__str *s);

#endif
