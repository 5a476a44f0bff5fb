/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * emu.h - the emulated NPU: a loaded program's tile memories, buffer pools
 * with their counting locks, barriers, and the cooperatively scheduled
 * tasks (one per worker core, one per DMA mover) that run it.  Like any
 * driver it sees only the program (program/program.h), the driver header
 * and src/core: workers, FIFOs and the runtime sequence come from the
 * program's tables, never from the design.
 *
 * Scheduling model: tasks are state machines with a step function that
 * runs until the task must wait on a lock (it then returns, leaving the
 * task blocked); releasing a lock wakes the pool's waiting readers or
 * writers by pushing them on their lane's ready queue.  A custom core body
 * runs in a fiber: blocking inside iron_acquire switches back to the
 * scheduler.  A FIFO handoff is a counter update and a queue push:
 * nanoseconds, no OS involvement.
 *
 * Threads: tasks are dealt onto lanes by column, one lane per thread
 * (lanes.c).  A pool whose writers and readers sit on one lane is plain
 * memory; a pool that joins two lanes is `shared`: its counters are
 * updated with atomic operations and a wake crosses to the other lane's
 * inbox (handoff.c).  Nothing on the hot path takes a lock or makes a
 * system call; a lane with nothing to do sleeps on a futex.
 */
#ifndef IRON_EMU_EMU_H
#define IRON_EMU_EMU_H

#include <signal.h>

#include "emu/fiber.h"
#include "program/program.h"
#include "timing/kernel.h"
#include "timing/timing.h"

typedef struct emu_inst emu_inst;
typedef struct emu_task emu_task;
typedef struct emu_lane emu_lane;
typedef struct emu_worker emu_worker;
typedef struct emu_timing emu_timing;

/* How a timed worker's kernel cycles were found (timing.c). */
enum {
    IRON__EMU_KSRC_NONE,       /* nothing counted: 0 */
    IRON__EMU_KSRC_GUESS,      /* scalar basic blocks at a default cost */
    IRON__EMU_KSRC_COUNTED,    /* the AIE API's operations */
    IRON__EMU_KSRC_DECLARED    /* iron_kernel_set_cycles */
};

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
    /* Set at load and reset; both sides only read these. */
    const iron__pool *def;
    int depth, nw, nr;
    int shared;            /* its tasks sit on more than one lane: free,
                              filled, wdone and rdone are read and written
                              with atomic operations */
    emu_task *writer[IRON__MAX_CONS], *reader[IRON__MAX_CONS];
    uint8_t *buf[IRON__MAX_DEPTH];    /* the emulator's view */
    uint8_t *kbuf[IRON__MAX_DEPTH];   /* what kernels are given: the same,
                                         except in checked mode */
    uint8_t *kpage[IRON__MAX_DEPTH];  /* checked mode: kbuf's pages */
    size_t kspan;                     /* ... and their length */
    uint8_t kholders[IRON__MAX_DEPTH];  /* checked mode: workers holding
                                           each buffer (open while > 0) */
    /* The writers' side, on lines of its own (on several lanes the two
     * sides run on different cores).  Counters (counters.c): buffers
     * released per writer since load, and the most buffers in use at once
     * in this call. */
    _Alignas(64) int wi[IRON__MAX_CONS];
    int whold[IRON__MAX_CONS];
    uint64_t wrel[IRON__MAX_CONS];
    int peak;
    uint8_t wdone[IRON__MAX_DEPTH];
    /* The readers' side. */
    _Alignas(64) int ri[IRON__MAX_CONS];
    int rhold[IRON__MAX_CONS];
    uint64_t rrel[IRON__MAX_CONS];
    uint8_t rdone[IRON__MAX_DEPTH];
    /* What both change: free buffers (readers give them, writers take
     * them) and filled ones (the other way round). */
    _Alignas(64) int free[IRON__MAX_CONS];
    _Alignas(64) int filled[IRON__MAX_CONS];
    /* Timed runs (timing.c): per buffer the modelled cycle it was last
     * filled (every writer released it) and last freed (every reader
     * did); each only grows, as a buffer's events follow each other.  Per
     * endpoint the cycles of this call its user waited on it. */
    _Alignas(64) uint64_t tfill[IRON__MAX_DEPTH];
    uint64_t tfree[IRON__MAX_DEPTH];
    uint64_t twait_w[IRON__MAX_CONS], twait_r[IRON__MAX_CONS];
} emu_pool;

/* A worker's copy of a barrier: a lock counting 0..63. */
typedef struct emu_barrier {
    const char *name;
    int value;
    emu_worker *owner;
    uint64_t tset;         /* timed runs: the cycle the sequence set it */
} emu_barrier;

struct emu_task {
    void (*step)(emu_inst *in, emu_task *t);
    int state;             /* an emu_task_state; atomic when `shared` */
    int queued;            /* on its lane's ready ring (perhaps stale: a
                              task pumped by its partner leaves its entry
                              behind, skipped when popped) */
    int pump;              /* a whole-object mover its partner worker may
                              run in place (worker.c) */
    int is_worker;         /* an emu_worker, else an emu_mover */
    int shared;            /* uses a shared pool: other lanes may wake it */
    emu_lane *lane;        /* the lane (thread) that runs it */
    emu_task *next_in;     /* in its lane's inbox (handoff.c) */
    /* What the task waits on, for deadlock reports. */
    emu_pool *wait_pool;
    int wait_writer;       /* 1: waits for a free buffer; 0: a filled one */
    int wait_slot;         /* its writer/reader index in that pool */
    int wait_count;        /* buffers it needs in all */
    emu_barrier *wait_barrier;
    int wait_value;
    /* Timed runs (timing.c): the modelled cycle the task has reached, and
     * this call's cycles busy and stalled on an input or an output. */
    uint64_t tnow, tbusy, tstall_in, tstall_out;
    uint32_t tlock;        /* cycles of one of its lock operations */
};

/* A handle as a core body sees it (iron_objfifo *): which pool and slot,
 * and the pointers of the held objects. */
typedef struct emu_hstate {
    emu_worker *worker;
    emu_pool *pool;
    int writer, slot, depth;
    int max_acquire; /* declared for the worker (iron_arg_fifo_acquire) */
    char label[96];        /* "fifo 'a' (consumer)": this handle, even
                              when it shares its producer's pool */
    void *ptrs[IRON__MAX_DEPTH];
} emu_hstate;

/* A worker core: the standard loop, or a core body in a fiber. */
struct emu_worker {
    emu_task task;
    const iron__prog_worker *w;
    iron__kernel_fn fn;
    int is_core;
    iron__fiber *fiber;
    int nargs;
    emu_hstate h[IRON__MAX_KARGS];   /* h[a].pool NULL: not a handle */
    emu_barrier *barrier[IRON__MAX_KARGS];
    iron__kval val[IRON__MAX_KARGS];
    uint64_t iterations;   /* kernel calls completed since load (standard
                              loop); acquires made (core body) */
    int checked;           /* runs under IRON_CHECK (a fiber even for the
                              standard loop; see check.c) */
    /* Profiled runs (counters.c, trace): */
    uint64_t kernel_ns;
    uint64_t blocked_since;   /* 0: not blocked (or not profiled) */
    int blocked_arg;          /* the handle it waits on */
    uint64_t hblocked_ns[IRON__MAX_KARGS];
    int track;                /* its trace track */
    char *kstack_top;      /* checked mode: where the kernel's frames begin */
    size_t kstack_used;    /* ... and how deep they went (measured) */
    int warned;            /* checked-mode warnings given (bit per kind) */
    int unwritten_handle, unwritten_object;   /* ... the first unwritten */
    uint64_t unwritten_iteration;             /* object, said after the run */
    unsigned api_calls;    /* core body: FIFO/barrier calls, for yielding */
    struct emu_outbuf *out;  /* output.c: the line being printed */
    /* The AIE API's control words of this core (rounding and saturation
     * modes, two reserved): its own, as each core's control register is;
     * zero from the core's reset (iron__emu_worker_init) on. */
    unsigned aie_ctl[4];
    /* Timed runs: the operations its kernel issues (the kernel host's
     * count hooks), and how the last call's cycles were found. */
    iron__kcount kc;
    unsigned ksources;     /* this call's kernel-time sources, a bit per
                              iron__emu_ksrc */
    uint64_t tkernel, tcalls;  /* this call's kernel cycles and calls */
};

/* One runtime fill or drain queued on a mover for the current call. */
typedef struct emu_op {
    const iron__prog_op *op;
    iron_tap tap;          /* the op's pattern, moved by its scalar */
    int linear;            /* the pattern is one contiguous run */
    int64_t objs_left;     /* objects still to move (linear ops) */
    int stream;            /* a drain big enough to bypass the cache */
    uint8_t *tensor;
    size_t esz;            /* the tensor's element size: the DMA moves
                              bytes, so it may differ from the fifo's */
    int64_t per_obj;       /* tensor elements per object */
    int64_t total, done;   /* tensor elements */
    uint64_t t_issue;      /* timed runs: the modelled cycle it was issued */
    uint64_t t_done;       /* ... and the one its last object landed */
} emu_op;

/* A DMA mover. */
typedef struct emu_mover {
    emu_task task;
    const iron__mover *m;
    const iron__prog_fifo *fifo;
    emu_pool *src;         /* NULL: the host */
    emu_pool *dst[IRON__MAX_CONS];   /* none: the host */
    int ndst;
    uint8_t *stream;       /* one object in stream order, when dims apply */
    int src_piece;         /* pieces moved through the held source buffer */
    int dst_piece[IRON__MAX_CONS];
    emu_op *ops;           /* this call's ops, in sequence order */
    int nops, head, cap;
    size_t esz;            /* the fifo's element size */
    uint64_t objects;      /* moved since load */
    uint64_t busy_ns;      /* profiled runs: copying */
    int track;             /* its trace track */
    /* Timed runs (timing.c): the bytes per cycle it moves, the cycles
     * from an object's last byte sent to its landing, and a shim
     * channel's overhead per task (buffer descriptor). */
    double rate;
    uint32_t latency, task_cycles;
    size_t tobj_bytes;     /* ... an object's bytes and cycles */
    uint64_t tobj_cycles;
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
    emu_task *cur;         /* the task whose step runs */
    /* > 0 while the emulator itself allocates (trace, reports): the
     * watchdog's poke waits for the next tick instead of jumping out of
     * malloc with its lock held. */
    volatile sig_atomic_t no_jump;
    struct emu_watch *watch;  /* watchdog.c: the running thread's record */
    int awaited_left;      /* awaited drains issued and not yet done */
    int *group_awaited;    /* the same per task group (0: the sequence's) */
    int ops_left;          /* ops issued and not yet done */
    /* Outcome of the lane's part of a run. */
    iron_status status;
    enum iron_run_state state;
    char error[1536];
    int stalled;           /* failed by a stall: in->report says why */
    /* Wakes from other lanes (handoff.c), on a line of their own (the
     * fields above are the owner's): a lock-free stack the owner empties
     * into `ready`, and whether the lane is idle (0 running, 1 idle or
     * asleep on this word, 2 told to stop). */
    _Alignas(64) emu_task *inbox;
    int idle;
};

struct emu_inst {
    const iron_program *prog;
    /* tilemem.c: every used tile's memory between guards, and in
     * checked mode every buffer in pages of its own, mapped twice. */
    uint8_t **tile_mem;    /* per program tile */
    uint8_t *map;
    size_t map_bytes;
    int checked;
    uint8_t *bufs_view, *kview;
    size_t bufs_bytes, kview_bytes;
    emu_pool *pools;
    emu_worker *workers;
    emu_mover *movers;
    emu_barrier *barriers; /* per program barrier copy */
    int nworkers, nmovers;
    int nrtp_copies, nbarrier_copies;
    int ntasks;
    emu_lane *lanes;
    int nlanes, nlanes_cap;
    int threads;           /* the thread count the lanes were dealt for */
    int threads_asked;     /* what the last call asked for (0: default) */
    /* The automatic count (lanes.c): its progress, calls in this state,
     * whether the cut makes several lanes, the choice, and the best time
     * of a call on the cut and on one lane. */
    int tune, tune_n, tune_cuts, tune_one;
    uint64_t tune_cut_ns, tune_one_ns;
    /* Several lanes (handoff.c): the phase's state, shared by them all.
     * `owed` counts what the phase still awaits; `active` the lanes not
     * idle; `stop` why the lanes stop (an iron__emu_stop). */
    int multi;
    int owed, active, stop;
    int timeout_ms;        /* of the current run */
    int final_phase;       /* run until every op is done, not just awaited */
    int phase_group;       /* otherwise: the task group being finished */
    uint64_t deadline_ns;
    int started;           /* cores are running (persist across calls) */
    int broken;            /* a run failed: reset before the next */
    /* Observability of the current run (counters.c). */
    int profile;           /* measure times */
    struct iron__trace *trace;  /* record events (NULL: off) */
    int seq_track;
    struct emu_counters *counters;
    /* Timed runs (timing.c): the model's state, kept from call to call
     * once a call was timed, and whether this one is. */
    emu_timing *timing;
    int timed;
    /* The last stall's whole report (report.c), "" after a run that did
     * not stall: iron_run_counters.report. */
    iron__str report;
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

/* Why the lanes of a multi-lane phase stop (emu_inst.stop). */
enum {
    IRON__EMU_RUNNING,
    IRON__EMU_DONE,        /* nothing more is owed */
    IRON__EMU_DEADLOCK,    /* every lane idle, something still owed */
    IRON__EMU_TIMEOUT,
    IRON__EMU_FAILED       /* a lane failed: its status says why */
};

/* handoff.c: a wake of a task other lanes may wake too, the slow half
 * of a release (several writers or readers, or a shared pool), and the
 * end of a multi-lane phase. */
void iron__emu_wake_shared(emu_task *t);
void iron__pool_note_peak_shared(emu_pool *p, int used);
void iron__emu_block_shared(emu_task *t, emu_pool *p, int writer, int slot,
                            int count);
void iron__pool_release_multi(emu_pool *p, int writer, int slot, int n);
void iron__pool_release_shared(emu_pool *p, int writer, int slot, int n);
void iron__emu_stop(emu_inst *in, int why);

/* Puts a READY task at the back of lane l's ready ring, unless it is
 * there already (perhaps as a stale entry, see emu_task.queued).  Only
 * l's own thread, or the sequence's between phases, calls this. */
static inline void iron__emu_ready_push(emu_lane *l, emu_task *t)
{
    if (t->queued)
        return;
    IRON__ASSERT(l->rcount < l->in->ntasks,
                 "a task is on one ready ring at most once (t->queued), so "
                 "a ring of one slot per task never overflows");
    int at = l->rhead + l->rcount;
    if (at >= l->in->ntasks)
        at -= l->in->ntasks;
    l->ready[at] = t;
    l->rcount++;
    t->queued = 1;
}

/* Makes a blocked task runnable on its lane. */
static inline void iron__emu_wake(emu_task *t)
{
    if (!t)
        return;
    if (t->shared) {
        iron__emu_wake_shared(t);
        return;
    }
    if (t->state != EMU_BLOCKED)
        return;
    t->state = EMU_READY;
    iron__emu_ready_push(t->lane, t);
}

/* Marks the task blocked on `count` buffers of one side of p (p NULL:
 * on runtime ops or a barrier); the step then returns. */
static inline void iron__emu_block(emu_task *t, emu_pool *p, int writer,
                                   int slot, int count)
{
    t->wait_pool = p;
    t->wait_writer = writer;
    t->wait_slot = slot;
    t->wait_count = count;
    t->wait_barrier = NULL;
    if (t->shared)
        iron__emu_block_shared(t, p, writer, slot, count);
    else
        t->state = EMU_BLOCKED;
}

/* A shared pool's counters are read and changed atomically (sequentially
 * consistent: a release's counter update and its wake pair with a
 * blocking task's state store and its re-check, handoff.c). */
static inline int iron__pool_load(const emu_pool *p, const int *c)
{
    return p->shared ? __atomic_load_n(c, __ATOMIC_SEQ_CST) : *c;
}

static inline void iron__pool_add(emu_pool *p, int *c, int v)
{
    if (p->shared)
        __atomic_add_fetch(c, v, __ATOMIC_SEQ_CST);
    else
        *c += v;
}

static inline int iron__pool_avail(const emu_pool *p, int writer, int slot)
{
    return iron__pool_load(p, writer ? &p->free[slot] : &p->filled[slot]);
}

static inline int iron__pool_held(const emu_pool *p, int writer, int slot)
{
    return writer ? p->whold[slot] : p->rhold[slot];
}

/* Takes buffers until `slot` holds n (the caller checked availability;
 * only the slot's own task takes from its count, so it cannot shrink
 * meanwhile). */
static inline void iron__pool_take(emu_pool *p, int writer, int slot, int n)
{
    if (writer) {
        iron__pool_add(p, &p->free[slot], -(n - p->whold[slot]));
        p->whold[slot] = n;
    } else {
        iron__pool_add(p, &p->filled[slot], -(n - p->rhold[slot]));
        p->rhold[slot] = n;
    }
}

/* Index in p->buf of the k-th oldest buffer `slot` holds. */
static inline int iron__pool_index(const emu_pool *p, int writer, int slot,
                                   int k)
{
    int b = (writer ? p->wi[slot] : p->ri[slot]) + k;
    return b >= p->depth ? b % p->depth : b;
}

/* The k-th oldest buffer `slot` holds. */
static inline uint8_t *iron__pool_buf(const emu_pool *p, int writer, int slot,
                                      int k)
{
    return p->buf[iron__pool_index(p, writer, slot, k)];
}

/* The same buffer as kernels see it (another mapping in checked mode). */
static inline uint8_t *iron__pool_kbuf(const emu_pool *p, int writer,
                                       int slot, int k)
{
    return p->kbuf[iron__pool_index(p, writer, slot, k)];
}

/* The release below, for a pool known to be shared or not: `shared` is
 * a constant in each caller, so the lane-local one has no atomic
 * operation and no test of p->shared. */
static inline void iron__pool_release_as(emu_pool *p, int writer, int slot,
                                         int n, const int shared)
{
    if (writer) {
        p->wrel[slot] += (unsigned)n;
        /* Buffers in use as this writer sees them. */
        int used = p->depth - (shared ? __atomic_load_n(&p->free[slot],
                                                        __ATOMIC_SEQ_CST)
                                      : p->free[slot]);
        if (shared)
            iron__pool_note_peak_shared(p, used);
        else if (used > p->peak)
            p->peak = used;
    } else {
        p->rrel[slot] += (unsigned)n;
    }
    if (p->nw != 1 || p->nr != 1) {
        iron__pool_release_multi(p, writer, slot, n);
        return;
    }
    /* The common FIFO, one writer and one reader: two counters. */
    int *other = writer ? &p->filled[0] : &p->free[0];
    if (writer) {
        int b = p->wi[0] + n;
        p->wi[0] = b >= p->depth ? b - p->depth : b;
        p->whold[0] -= n;
    } else {
        int b = p->ri[0] + n;
        p->ri[0] = b >= p->depth ? b - p->depth : b;
        p->rhold[0] -= n;
    }
    if (shared)
        __atomic_add_fetch(other, n, __ATOMIC_SEQ_CST);
    else
        *other += n;
    iron__emu_wake(writer ? p->reader[0] : p->writer[0]);
}

/* Gives back the n oldest held buffers, waking whoever can now move
 * (several writers or readers: handoff.c). */
static inline void iron__pool_release(emu_pool *p, int writer, int slot,
                                      int n)
{
    if (p->shared)
        iron__pool_release_shared(p, writer, slot, n);
    else
        iron__pool_release_as(p, writer, slot, n, 0);
}

/* Sends the running task to the back of its lane's queue (it stays
 * runnable): a long step gives the others, and the clock, a turn. */
static inline void iron__emu_requeue(emu_task *t)
{
    iron__emu_block(t, NULL, 0, 0, 0);
    iron__emu_wake(t);
}

/* What a lane still owes in this phase: at a task group's end, its
 * awaited drains; at the end of the call, every op (then no task touches
 * the call's tensors after it returns). */
static inline int iron__emu_lane_owed(const emu_lane *l)
{
    return l->in->final_phase ? l->ops_left
                              : l->group_awaited[l->in->phase_group];
}

/* check.c: checked mode (see there) */
size_t iron__emu_check_stack_bytes(const emu_worker *ew, const emu_inst *in);
void iron__emu_check_prepare(emu_worker *ew);
void iron__emu_check_take(emu_worker *ew, emu_hstate *h, int from, int to);
void iron__emu_check_release(emu_worker *ew, emu_hstate *h, int n);
/* Poisons the fiber's stack again below `frame` (less a gap for the
 * caller's own locals and this call). */
void iron__emu_check_repoison(emu_worker *ew, char *frame);
/* Records how deep the fiber's stack has been used (after a kernel call,
 * or when a core body yields). */
void iron__emu_check_measure(emu_worker *ew);
/* 0 (and the task failed) when the worker overflowed its stack. */
int iron__emu_check_stack(emu_worker *ew);
void iron__emu_check_returned(emu_worker *ew);
/* After a checked run: the warnings noticed inside kernels. */
void iron__emu_check_report(emu_inst *in);

/* tilemem.c */
iron_status iron__emu_mem_map(emu_inst *in, int checked);
void iron__emu_mem_unmap(emu_inst *in);
void iron__emu_mem_reset(emu_inst *in);
/* Checked mode: opens or closes buffer b's pages to kernels. */
void iron__emu_mem_protect(emu_pool *p, int b, int writable);
void iron__emu_mem_poison(void *at, size_t n);
int iron__emu_mem_is_poison(const void *at, size_t n);
/* Poisons n bytes at base + from as iron__emu_mem_poison(base, ...) would
 * have (the pattern is aligned to base). */
void iron__emu_mem_poison_at(void *base, size_t from, size_t n);
/* Bytes from `at` that still hold the poison. */
size_t iron__emu_mem_poison_run(const void *at, size_t n);
/* "12 bytes past object 1 of fifo 'c' (consumer) on compute tile (0,2)",
 * "4 bytes before object 0 of ...", "NULL", "0x7f.., outside any tile's
 * memory": against the nearest buffer, on a tie one the faulting worker
 * ew (may be NULL) holds. */
void iron__emu_describe_addr(const emu_inst *in, const emu_worker *ew,
                             const void *addr, char *out, size_t n);

/* sched.c */
/* Stops the task's lane with an error (a misused FIFO, say). */
void iron__emu_task_fail(emu_task *t, iron_status s, const char *fmt, ...)
    IRON__PRINTF(3, 4);
/* Runs one lane until its phase is done; the outcome is left in the lane. */
void iron__emu_run_lane(void *lane);

/* handoff.c: the lane this thread runs, and a lane's idle protocol.
 * take_inbox returns how many woken tasks it queued; idle returns 1 when
 * work came, 0 when the phase is over. */
void iron__emu_lane_enter(emu_lane *l);
void iron__emu_lane_leave(void);
int iron__emu_lane_take_inbox(emu_lane *l);
int iron__emu_lane_idle(emu_lane *l);

/* lanes.c: deals tasks onto lanes for `threads` threads (0: the default;
 * at load, at a reset, and when a call asks for another count) and runs
 * the lanes of a phase of a call on the thread pool.  lanes_want says how
 * many threads a call asking for `threads` gets. */
int iron__emu_threads_default(void);
/* Cuts the used columns (weight > 0) into at most `want` contiguous blocks
 * of about equal weight: lane_of[c] is column c's lane (-1: unused);
 * returns the number of lanes. */
int iron__emu_cut_columns(const int *weight, int ncols, int want,
                          int *lane_of);
int iron__emu_lanes_want(const emu_inst *in, int threads);
/* The automatic thread count (see lanes.c): whether this call's count is
 * automatic, whether it is timed to choose it, and a successful automatic
 * call's time (0 when not timed). */
int iron__emu_lanes_auto(const emu_inst *in);
int iron__emu_lanes_tuning(const emu_inst *in);
void iron__emu_lanes_timed(emu_inst *in, uint64_t ns);
iron_status iron__emu_lanes_assign(emu_inst *in, int threads);
iron_status iron__emu_lanes_run(emu_inst *in, enum iron_run_state *state);
/* sched.c: words a multi-lane deadlock or timeout (over every task). */
void iron__emu_phase_fail(emu_inst *in, int why);

/* worker.c */
iron_status iron__emu_worker_init(emu_inst *in, emu_worker *ew, int index);
void iron__emu_worker_fini(emu_worker *ew);
void iron__emu_barrier_set(emu_barrier *b, int value);

/* Picks the worker's step for the call's modes (in->profile, in->timed). */
void iron__emu_worker_modes(emu_worker *ew, const emu_inst *in);

/* counters.c: counts and, in profiled runs, times and trace events. */
iron_status iron__emu_counters_new(emu_inst *in);
void iron__emu_counters_free(emu_inst *in);
/* Before and after each run (trace_path: NULL or where to write it;
 * label: what runs, named in the trace, valid until the run ends). */
void iron__emu_counters_begin(emu_inst *in, int profile,
                              const char *trace_path, const char *label);
void iron__emu_counters_end(emu_inst *in, iron_status s);
const iron_run_counters *iron__emu_counters_get(const emu_inst *in);
void iron__emu_prof_blocked(emu_worker *ew, int arg);
void iron__emu_prof_unblocked(emu_inst *in, emu_worker *ew);
void iron__emu_prof_kernel(emu_inst *in, emu_worker *ew, uint64_t t0,
                           uint64_t t1);
void iron__emu_prof_release(emu_inst *in, emu_worker *ew,
                            const emu_hstate *h, int n);
void iron__emu_prof_moved(emu_inst *in, emu_mover *em, uint64_t t0,
                          uint64_t t1, int64_t bytes);
/* The runtime sequence's track: an op issued, or a phase run. */
void iron__emu_prof_seq(emu_inst *in, const char *name, const char *what,
                        uint64_t t0, uint64_t t1);

/* timing.c: the timing model's clocks (see there).  begin and end
 * bracket every call (begin fails on a clock outside the device's range);
 * the rest run only in timed calls.  take: the task takes buffers
 * [from, to) of its endpoint (held by then), and waits for the latest's
 * stamp; give: it releases its n oldest at cycle `at`. */
iron_status iron__emu_timing_begin(emu_inst *in, int on, double clock_mhz);
void iron__emu_timing_end(emu_inst *in, iron_status s);
void iron__emu_timing_publish(const emu_inst *in, iron_run_counters *pub);
void iron__emu_timing_free(emu_inst *in);
void iron__emu_time_trace_tracks(emu_inst *in);
void iron__emu_time_kernel_begin(emu_worker *ew);
/* The timed worker whose kernel (or core body) runs on this thread, where
 * its kernel's counts go (trap.c's kernel-host hooks); NULL between
 * kernels.  kernel_begin sets it, kernel_end clears it, and a core body's
 * step sets it around each resume of its fiber. */
extern _Thread_local emu_worker *iron__emu_timed_worker;
/* A kernel call (or a stretch of a core body) ends: its cycles go on the
 * worker's clock.  -1 when the worker failed (a declared cost that cannot
 * be evaluated for the call): the step returns at once. */
int iron__emu_time_kernel_end(emu_worker *ew);
/* A core body calls the kernel of its argument `arg`: at the start (end
 * 0) the body's own time so far goes on its clock; at the end the call
 * costs the kernel's declared cycles, evaluated on `vals`, when it has
 * them (what it counted is dropped), else what it counted.  A declared
 * cost that cannot be evaluated stops the call as a kernel fault. */
void iron__emu_time_core_call(emu_worker *ew, int end, int arg, int n,
                              const long long *vals);
/* A core body's own time so far goes on its clock (before it waits,
 * releases, or calls a kernel); counting goes on. */
void iron__emu_time_core_flush(emu_worker *ew);
/* A mover starts serving op (after its issue, plus a shim's overhead);
 * then each object: its bytes' time; returns the cycle it lands. */
void iron__emu_time_op_start(emu_mover *em, emu_op *op);
uint64_t iron__emu_time_move(emu_mover *em, size_t bytes);
/* The sequence issues op now; after a phase finishing `group` (0: a
 * drain awaited where it stands), it goes on once those are done. */
void iron__emu_time_issue(emu_inst *in, emu_op *op);
void iron__emu_time_awaited(emu_inst *in, int group);
uint64_t iron__emu_timing_seq(const emu_inst *in);
void iron__emu_time_trace(emu_inst *in, emu_task *t, const char *name,
                          uint64_t c0, uint64_t c1);
/* A stamp, read or raised to v; atomically when other lanes may stamp it
 * too (the writers of a join, the readers of a split on several lanes).
 * A reader reads the stamp after it saw the buffer's counter change (a
 * sequentially consistent operation), so the writer's stamp is visible. */
static inline uint64_t iron__stamp_load(const uint64_t *at, int shared)
{
    return shared ? __atomic_load_n(at, __ATOMIC_RELAXED) : *at;
}

static inline void iron__stamp_max(uint64_t *at, uint64_t v, int shared)
{
    if (!shared) {
        if (v > *at)
            *at = v;
        return;
    }
    uint64_t cur = __atomic_load_n(at, __ATOMIC_RELAXED);
    while (cur < v && !__atomic_compare_exchange_n(at, &cur, v, 1,
                                                   __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
}

static inline void iron__emu_time_busy(emu_task *t, uint64_t cycles)
{
    t->tnow += cycles;
    t->tbusy += cycles;
}

/* The task has taken buffers [from, to) of its endpoint (held by now):
 * its clock waits for the latest one's stamp (filled for a reader, freed
 * for a writer), the wait counted as a stall on that side and on the
 * endpoint, then the lock operation. */
static inline void iron__emu_time_take(emu_task *t, emu_pool *p, int writer,
                                       int slot, int from, int to)
{
    uint64_t ready = 0;
    const uint64_t *stamps = writer ? p->tfree : p->tfill;
    for (int k = from; k < to; k++) {
        uint64_t v = iron__stamp_load(
            &stamps[iron__pool_index(p, writer, slot, k)], p->shared);
        if (v > ready)
            ready = v;
    }
    if (ready > t->tnow) {
        uint64_t wait = ready - t->tnow;
        if (writer) {
            t->tstall_out += wait;
            p->twait_w[slot] += wait;
        } else {
            t->tstall_in += wait;
            p->twait_r[slot] += wait;
        }
        t->tnow = ready;
    }
    iron__emu_time_busy(t, t->tlock);
}

/* The task releases its held buffers [from, to) (the oldest first),
 * done at cycle `at` (its own clock, or a transfer's landing): after the
 * lock operation they are stamped filled (a writer) or freed (a reader).
 * The batched paths, taking and releasing many buffers at once, give each
 * its own time with [k, k + 1). */
static inline void iron__emu_time_give(emu_task *t, emu_pool *p, int writer,
                                       int slot, int from, int to,
                                       uint64_t at)
{
    iron__emu_time_busy(t, t->tlock);
    at += t->tlock;
    uint64_t *stamps = writer ? p->tfill : p->tfree;
    for (int k = from; k < to; k++)
        iron__stamp_max(&stamps[iron__pool_index(p, writer, slot, k)], at,
                        p->shared);
}

/* counters.c: how many endpoints the counters list. */
int iron__emu_counters_endpoints(const emu_inst *in);

/* dma.c */
/* Picks the mover's step for the call's modes (in->profile, in->timed). */
void iron__emu_mover_modes(emu_mover *em, const emu_inst *in);
iron_status iron__emu_mover_init(emu_inst *in, emu_mover *em,
                                 const iron__mover *m);
iron_status iron__emu_mover_push(emu_mover *em, const iron__prog_op *op,
                                 uint8_t *tensor, int64_t shift);
void iron__tap_copy(uint8_t *tensor, size_t esz, const iron_tap *tap,
                    int64_t start, int64_t n, uint8_t *buf, int to_tensor);
/* Makes the drains' streaming stores visible to other threads. */
void iron__emu_stream_fence(void);

/* output.c: what kernels print, line by line, tagged with the worker,
 * its tile and iteration ("[w0 (0,2) #3] ..."), to the output handler. */
void iron__emu_output_write(emu_worker *ew, int fd, const char *buf,
                            size_t n);
/* Emits a last line that has no newline yet (at the end of a call). */
void iron__emu_output_flush(emu_worker *ew);
void iron__emu_output_free(emu_worker *ew);

/* trap.c: the worker whose kernel or core body runs on this thread (NULL
 * outside one). */
emu_worker *iron__emu_current_worker(void);
/* Ends the running kernel's call as a kernel fault with this message
 * (a kernel called exit, say).  Does not return when a kernel or core body
 * runs on this thread; returns at once otherwise (the caller then does
 * what libc would have done). */
void iron__emu_kernel_stop(const char *fmt, ...) IRON__PRINTF(1, 2);
/* The kernel runtime shim's hooks that route to the two above. */
extern const iron__kernel_host iron__emu_kernel_host;

/* emu_driver.c: registers the emulator's driver and the device models it
 * emulates (the built-in driver table, src/device/builtin.c, calls it once
 * when the registry starts). */
iron_status iron__emu_register(void);
/* The driver table (emu_driver.c). */
extern iron_driver iron__emu_driver;

/* report.c: makes in->report say why the phase stopped (`what`) and who
 * waits on what, one line per task, for the tasks of one lane (NULL: of
 * every lane); then the call's message is made from it: whole, or its
 * first lines and how many more there are. */
void iron__emu_report(emu_inst *in, const emu_lane *lane, const char *what);
iron_status iron__emu_report_fail(const emu_inst *in, iron_status s);

#endif
