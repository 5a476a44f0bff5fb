/*
 * emu.h - the emulated NPU: a loaded program's tile memories, buffer pools
 * with their counting locks, barriers, and the cooperatively scheduled
 * tasks (one per worker core, one per DMA mover) that run it.
 *
 * Scheduling model: tasks are state machines with a step function that
 * runs until the task must wait on a lock (it then returns, leaving the
 * task blocked); releasing a lock wakes the pool's waiting readers or
 * writers by pushing them on their lane's ready queue.  A custom core body
 * runs in a fiber: blocking inside iron_acquire switches back to the
 * scheduler.  A FIFO handoff is a counter update and a queue push:
 * nanoseconds, no OS involvement.  Nothing on the hot path takes a lock:
 * tasks that share a pool share a lane, and one lane runs on one thread.
 */
#ifndef IRON_EMU_EMU_H
#define IRON_EMU_EMU_H

#include "emu/fiber.h"
#include "program/program.h"

typedef struct emu_inst emu_inst;
typedef struct emu_task emu_task;
typedef struct emu_lane emu_lane;
typedef struct emu_worker emu_worker;

typedef enum emu_task_state {
    EMU_BLOCKED,    /* waiting on a lock, a barrier or runtime ops */
    EMU_READY,      /* on its lane's ready queue */
    EMU_RUNNING,
    EMU_DONE        /* a core body that returned */
} emu_task_state;

/* Runtime state of one buffer pool (see iron__pool).  Writer w sees
 * free[w] buffers it may still take, reader r filled[r]; wi/ri point at
 * each one's oldest held (or next) buffer and whold/rhold count what it
 * holds.  wdone/rdone count, per buffer, the writers/readers done with it. */
typedef struct emu_pool {
    const iron__pool *def;
    uint8_t *buf[IRON__MAX_DEPTH];
    int depth, nw, nr;
    int free[IRON__MAX_CONS], filled[IRON__MAX_CONS];
    int wi[IRON__MAX_CONS], ri[IRON__MAX_CONS];
    int whold[IRON__MAX_CONS], rhold[IRON__MAX_CONS];
    uint8_t wdone[IRON__MAX_DEPTH], rdone[IRON__MAX_DEPTH];
    emu_task *writer[IRON__MAX_CONS], *reader[IRON__MAX_CONS];
} emu_pool;

/* A worker's copy of a barrier: a lock counting 0..63. */
typedef struct emu_barrier {
    const char *name;
    int value;
    emu_worker *owner;
} emu_barrier;

struct emu_task {
    void (*step)(emu_inst *in, emu_task *t);
    emu_task_state state;
    emu_lane *lane;        /* the lane (thread) that runs it */
    /* What the task waits on, for deadlock reports. */
    emu_pool *wait_pool;
    int wait_writer;       /* 1: waits for a free buffer; 0: a filled one */
    int wait_slot;         /* its writer/reader index in that pool */
    int wait_count;        /* buffers it needs in all */
    emu_barrier *wait_barrier;
    int wait_value;
};

/* A handle as a core body sees it (iron_objfifo *): which pool and slot,
 * and the pointers of the held objects. */
typedef struct emu_hstate {
    emu_worker *worker;
    emu_pool *pool;
    int writer, slot, depth;
    int max_acquire;       /* declared for the worker (iron_use_acquire) */
    char label[96];        /* "fifo 'a' (consumer)": this handle, even
                              when it shares its producer's pool */
    void *ptrs[IRON__MAX_DEPTH];
} emu_hstate;

/* A worker core: the standard loop, or a core body in a fiber. */
struct emu_worker {
    emu_task task;
    const iron_worker *w;
    iron__kernel_fn fn;
    int is_core;
    iron__fiber *fiber;
    int nargs;
    emu_hstate h[IRON__MAX_KARGS];   /* h[a].pool NULL: not a handle */
    emu_barrier *barrier[IRON__MAX_KARGS];
    iron__kval val[IRON__MAX_KARGS];
    uint64_t iterations;   /* completed since load (standard loop) */
    unsigned api_calls;    /* core body: FIFO/barrier calls, for yielding */
};

/* One runtime fill or drain queued on a mover for the current call. */
typedef struct emu_op {
    const iron__rt_op *op;
    iron_tap tap;          /* the op's pattern, moved by its scalar */
    uint8_t *tensor;
    size_t esz;            /* the tensor's element size: the DMA moves
                              bytes, so it may differ from the fifo's */
    int64_t per_obj;       /* tensor elements per object */
    int64_t total, done;   /* tensor elements */
} emu_op;

/* A DMA mover. */
typedef struct emu_mover {
    emu_task task;
    const iron__mover *m;
    const iron_fifo *fifo;
    emu_pool *src;         /* NULL: the host */
    emu_pool *dst[IRON__MAX_CONS];   /* none: the host */
    int ndst;
    uint8_t *stream;       /* one object in stream order, when dims apply */
    int src_piece;         /* pieces moved through the held source buffer */
    int dst_piece[IRON__MAX_CONS];
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
    int awaited_left;      /* awaited drains issued and not yet done */
    int *group_awaited;    /* the same per task group (0: the sequence's) */
    int ops_left;          /* ops issued and not yet done */
    /* Outcome of the lane's part of a run. */
    iron_status status;
    iron_run_state state;
    char error[1536];
};

struct emu_inst {
    const iron_program *prog;
    uint8_t *mem;          /* every used tile's memory, back to back */
    size_t *tile_off;      /* per program tile: offset into mem */
    emu_pool *pools;
    emu_worker *workers;
    emu_mover *movers;
    emu_barrier *barriers; /* per program barrier copy */
    int nworkers, nmovers;
    int ntasks;
    emu_lane *lanes;
    int nlanes, nlanes_cap;
    int timeout_ms;        /* of the current run */
    int final_phase;       /* run until every op is done, not just awaited */
    int phase_group;       /* otherwise: the task group being finished */
    uint64_t deadline_ns;
    int started;           /* cores are running (persist across calls) */
    int broken;            /* a run failed: reset before the next */
};

/* --- the hot path, inline: wakes and the pool lock protocol ---------------
 *
 * A pool follows the hardware's counting locks: writers take free buffers
 * and release them filled, readers take filled buffers and release them
 * free, each in round-robin order.  With several writers (a join) a buffer
 * is filled once every writer has released it; with several readers (a
 * split, consumers sharing the producer's tile, a drain beside a
 * broadcast) it is free once every reader has.  Buffers complete in order,
 * because each party releases in order.  `writer` selects the side. */

/* Makes a blocked task runnable on its lane. */
static inline void iron__emu_wake(emu_task *t)
{
    if (!t || t->state != EMU_BLOCKED)
        return;
    emu_lane *l = t->lane;
    t->state = EMU_READY;
    int at = l->rhead + l->rcount;
    if (at >= l->in->ntasks)
        at -= l->in->ntasks;
    l->ready[at] = t;
    l->rcount++;
}

static inline int iron__pool_avail(const emu_pool *p, int writer, int slot)
{
    return writer ? p->free[slot] : p->filled[slot];
}

static inline int iron__pool_held(const emu_pool *p, int writer, int slot)
{
    return writer ? p->whold[slot] : p->rhold[slot];
}

/* Takes buffers until `slot` holds n (the caller checked availability). */
static inline void iron__pool_take(emu_pool *p, int writer, int slot, int n)
{
    if (writer) {
        p->free[slot] -= n - p->whold[slot];
        p->whold[slot] = n;
    } else {
        p->filled[slot] -= n - p->rhold[slot];
        p->rhold[slot] = n;
    }
}

/* The k-th oldest buffer `slot` holds. */
static inline uint8_t *iron__pool_buf(const emu_pool *p, int writer, int slot,
                                      int k)
{
    int b = (writer ? p->wi[slot] : p->ri[slot]) + k;
    return p->buf[b >= p->depth ? b % p->depth : b];
}

/* Gives back the n oldest held buffers, waking whoever can now move. */
static inline void iron__pool_release(emu_pool *p, int writer, int slot,
                                      int n)
{
    if (p->nw == 1 && p->nr == 1) {
        /* The common FIFO: one writer, one reader -- two counters. */
        if (writer) {
            int b = p->wi[0] + n;
            p->wi[0] = b >= p->depth ? b - p->depth : b;
            p->whold[0] -= n;
            p->filled[0] += n;
            iron__emu_wake(p->reader[0]);
        } else {
            int b = p->ri[0] + n;
            p->ri[0] = b >= p->depth ? b - p->depth : b;
            p->rhold[0] -= n;
            p->free[0] += n;
            iron__emu_wake(p->writer[0]);
        }
        return;
    }
    for (int k = 0; k < n; k++) {
        if (writer) {
            int b = p->wi[slot];
            p->wi[slot] = b + 1 == p->depth ? 0 : b + 1;
            p->whold[slot]--;
            if (++p->wdone[b] < p->nw)
                continue;
            p->wdone[b] = 0;
            for (int r = 0; r < p->nr; r++) {
                p->filled[r]++;
                iron__emu_wake(p->reader[r]);
            }
        } else {
            int b = p->ri[slot];
            p->ri[slot] = b + 1 == p->depth ? 0 : b + 1;
            p->rhold[slot]--;
            if (++p->rdone[b] < p->nr)
                continue;
            p->rdone[b] = 0;
            for (int w = 0; w < p->nw; w++) {
                p->free[w]++;
                iron__emu_wake(p->writer[w]);
            }
        }
    }
}

/* sched.c */
void iron__emu_block(emu_task *t, emu_pool *p, int writer, int slot,
                     int count);
/* Stops the task's lane with an error (a misused FIFO, say). */
void iron__emu_task_fail(emu_task *t, iron_status s, const char *fmt, ...)
    IRON__PRINTF(3, 4);
/* Runs one lane until its phase is done; the outcome is left in the lane. */
void iron__emu_run_lane(void *lane);

/* lanes.c: groups tasks into lanes (at load/reset) and runs the lanes of
 * a phase of a call on the thread pool. */
iron_status iron__emu_lanes_assign(emu_inst *in);
iron_status iron__emu_lanes_run(emu_inst *in, iron_run_state *state);

/* core.c */
iron_status iron__emu_worker_init(emu_inst *in, emu_worker *ew, int index);
void iron__emu_worker_fini(emu_worker *ew);
void iron__emu_barrier_set(emu_barrier *b, int value);

/* dma.c */
iron_status iron__emu_mover_init(emu_inst *in, emu_mover *em,
                                 const iron__mover *m);
iron_status iron__emu_mover_push(emu_mover *em, const iron__rt_op *op,
                                 uint8_t *tensor, int64_t shift);
void iron__tap_copy(uint8_t *tensor, size_t esz, const iron_tap *tap,
                    int64_t start, int64_t n, uint8_t *buf, int to_tensor);

/* report.c: appends who waits on what, for the tasks of one lane. */
void iron__emu_report(const emu_lane *lane, iron__str *s);

#endif
