/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * worker.c - worker cores.  A standard-loop worker is a state machine:
 * acquire one object from every handle, call the kernel with the object
 * pointers and scalars, release them all; repeat.  A custom core body runs
 * in a fiber and calls the FIFO API itself; blocking in it suspends the
 * fiber, not a thread.  Like cores on hardware, workers never stop between
 * calls: their FIFO positions and static data carry over.
 */
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"

/* Core bodies get a stack of their own; kernels written for a 1 KiB core
 * stack fit easily, and it leaves room for host-side library calls. */
#define CORE_STACK_BYTES (256u * 1024u)

/* --- the standard loop -------------------------------------------------- */

/* Each handle has one user, so nobody else can take a buffer between the
 * availability check and the acquire: checking all first is the same as
 * acquiring in order and waiting on the first that is empty. */
/* How a standard loop runs one round per acquire (loop_run): `mode` is a
 * set of these bits, a constant in each caller, so each variant compiles
 * to its own loop.  Profiled: times and trace events.  Checked (check.c):
 * buffers opened as they are taken and closed as they are released, and
 * the kernel called on the worker's fiber, whose stack is then measured.
 * Timed (timing.c): the model's clock waits for each buffer taken, runs
 * the kernel's cycles and stamps each buffer released.  The plain loop is
 * loop_step below. */
enum { LOOP_PROFILED = 1, LOOP_CHECKED = 2, LOOP_TIMED = 4 };

/* Iterations a standard loop runs in one step before it goes to the back
 * of the queue, so that the scheduler looks at the clock now and then. */
#define LOOP_BATCH 256

/* No queue round trip when the other side is a whole-object DMA on this
 * lane (dma.c): a worker about to wait for an object runs that mover's
 * step in place, which moves every object it can and blocks again.  Its
 * entry on the ready ring, if any, is left stale (emu_task.queued).  The
 * order of steps changes, not what any of them does. */
static int pump(emu_inst *in, const emu_hstate *h)
{
    const emu_pool *p = h->pool;
    if (p->nw != 1 || p->nr != 1)
        return 0;
    emu_task *o = h->writer ? p->reader[0] : p->writer[0];
    if (!o || !o->pump || o->shared || o->state == EMU_RUNNING)
        return 0;
    o->state = EMU_RUNNING;
    o->step(in, o);
    return iron__pool_avail(p, h->writer, h->slot) > 0;
}

static IRON__SPECIALIZED void loop_run(emu_inst *in, emu_task *t,
                                       const int mode)
{
    emu_worker *ew = (emu_worker *)t;
    const int prof = (mode & LOOP_PROFILED) != 0,
              checked = (mode & LOOP_CHECKED) != 0,
              timed = (mode & LOOP_TIMED) != 0;
    if (prof && ew->blocked_since)
        iron__emu_prof_unblocked(in, ew);
    for (int batch = 0;; batch++) {
        if (batch == LOOP_BATCH) {
            iron__emu_requeue(t);
            return;
        }
        for (int a = 0; a < ew->nargs; a++) {
            emu_hstate *h = &ew->h[a];
            if (h->pool && iron__pool_avail(h->pool, h->writer, h->slot) < 1) {
                iron__emu_block(t, h->pool, h->writer, h->slot, 1);
                if (prof)
                    iron__emu_prof_blocked(ew, a);
                return;
            }
        }
        for (int a = 0; a < ew->nargs; a++) {
            emu_hstate *h = &ew->h[a];
            if (!h->pool)
                continue;
            iron__pool_take(h->pool, h->writer, h->slot, 1);
            if (checked)
                iron__emu_check_take(ew, h, 0, 1);
            if (timed)
                iron__emu_time_take(t, h->pool, h->writer, h->slot, 0, 1);
            ew->val[a].p = iron__pool_kbuf(h->pool, h->writer, h->slot, 0);
        }
        if (timed)
            iron__emu_time_kernel_begin(ew);
        uint64_t t0 = prof ? iron__now_ns() : 0;
        if (checked) {
            iron__fiber_resume(ew->fiber);   /* checked_kernel_main */
            if (!iron__emu_check_stack(ew))
                return;
        } else {
            ew->fn(ew->val);
        }
        if (prof)
            iron__emu_prof_kernel(in, ew, t0, iron__now_ns());
        if (timed && iron__emu_time_kernel_end(ew) != 0)
            return;
        for (int a = 0; a < ew->nargs; a++) {
            emu_hstate *h = &ew->h[a];
            if (!h->pool)
                continue;
            if (checked)
                iron__emu_check_release(ew, h, 1);
            if (timed)
                iron__emu_time_give(t, h->pool, h->writer, h->slot, 0, 1,
                                    t->tnow);
            iron__pool_release(h->pool, h->writer, h->slot, 1);
            if (prof)
                iron__emu_prof_release(in, ew, h, 1);
        }
        ew->iterations++;
    }
}

/* The plain standard loop runs several rounds per acquire: when every
 * handle has k objects (or free buffers) at hand, it takes k of each,
 * calls the kernel k times in order, then releases k of each -- what k
 * rounds of acquire, call, release compute, with one lock update and one
 * wake per handle instead of k.  (Profiled and checked runs keep one
 * round per acquire: their events and buffer windows are per call.) */
static IRON__SPECIALIZED void loop_batched(emu_inst *in, emu_task *t,
                                           const int timed)
{
    emu_worker *ew = (emu_worker *)t;
    for (int rounds = 0;;) {
        int k = LOOP_BATCH - rounds;
        if (k <= 0) {
            iron__emu_requeue(t);
            return;
        }
        for (int a = 0; a < ew->nargs; a++) {
            emu_hstate *h = &ew->h[a];
            if (!h->pool)
                continue;
            int n = iron__pool_avail(h->pool, h->writer, h->slot);
            if (n < 1 && pump(in, h))
                n = iron__pool_avail(h->pool, h->writer, h->slot);
            if (n < 1) {
                iron__emu_block(t, h->pool, h->writer, h->slot, 1);
                return;
            }
            if (n < k)
                k = n;
        }
        for (int a = 0; a < ew->nargs; a++)
            if (ew->h[a].pool)
                iron__pool_take(ew->h[a].pool, ew->h[a].writer, ew->h[a].slot,
                                k);
        for (int i = 0; i < k; i++) {
            for (int a = 0; a < ew->nargs; a++) {
                emu_hstate *h = &ew->h[a];
                if (!h->pool)
                    continue;
                ew->val[a].p = iron__pool_kbuf(h->pool, h->writer, h->slot, i);
                if (timed)
                    iron__emu_time_take(t, h->pool, h->writer, h->slot, i,
                                        i + 1);
            }
            if (timed)
                iron__emu_time_kernel_begin(ew);
            ew->fn(ew->val);
            if (timed) {
                if (iron__emu_time_kernel_end(ew) != 0)
                    return;
                for (int a = 0; a < ew->nargs; a++) {
                    emu_hstate *h = &ew->h[a];
                    if (h->pool)
                        iron__emu_time_give(t, h->pool, h->writer, h->slot,
                                            i, i + 1, t->tnow);
                }
            }
            ew->iterations++;
        }
        for (int a = 0; a < ew->nargs; a++)
            if (ew->h[a].pool)
                iron__pool_release(ew->h[a].pool, ew->h[a].writer,
                                   ew->h[a].slot, k);
        rounds += k;
    }
}

static void loop_step(emu_inst *in, emu_task *t)
{
    loop_batched(in, t, 0);
}

static void loop_step_profiled(emu_inst *in, emu_task *t)
{
    loop_run(in, t, LOOP_PROFILED);
}

static void checked_loop_step(emu_inst *in, emu_task *t)
{
    loop_run(in, t, LOOP_CHECKED);
}

/* Timed runs are rarer and slower: one timed step serves the profiled and
 * checked variants too, choosing at run time. */
static void loop_step_timed(emu_inst *in, emu_task *t)
{
    if (((emu_worker *)t)->checked)
        loop_run(in, t, LOOP_TIMED | LOOP_CHECKED);
    else if (in->profile)
        loop_run(in, t, LOOP_TIMED | LOOP_PROFILED);
    else
        loop_batched(in, t, 1);
}

/* --- core bodies --------------------------------------------------------- */

/* A misused FIFO or barrier stops the lane with a message; the fiber is
 * left suspended for good (C has nothing to unwind). */
static void park(emu_worker *ew)
{
    for (;;)
        iron__fiber_yield(ew->fiber);
}

static char *tile_of(const emu_worker *ew, char *buf, size_t len)
{
    snprintf(buf, len, "(%d,%d)", ew->w->tile.col, ew->w->tile.row);
    return buf;
}

/* A core body that keeps calling the API without ever having to wait (it
 * spins on a fifo it both fills and drains, say) would keep its lane, and
 * the lane's clock, from ever running again: every so many calls it goes
 * back to the end of its lane's ready queue, so other tasks move and the
 * run's timeout is honoured. */
#define CORE_YIELD_EVERY 64

static void core_maybe_yield(emu_worker *ew)
{
    if (++ew->api_calls % CORE_YIELD_EVERY != 0)
        return;
    iron__emu_requeue(&ew->task);
    iron__fiber_yield(ew->fiber);
}

static void **core_acquire(void *fp, int n)
{
    emu_hstate *h = fp;
    emu_worker *ew = h->worker;
    char tl[32];
    core_maybe_yield(ew);
    if (n < 1 || n > h->depth) {
        iron__emu_task_fail(&ew->task, IRON_ERUNTIME,
                            "worker '%s' on tile %s: acquire(%d) on %s; the "
                            "endpoint has %d buffer%s (1 <= n <= depth)",
                            ew->w->name, tile_of(ew, tl, sizeof tl), n,
                            h->label, h->depth, h->depth == 1 ? "" : "s");
        park(ew);
    }
    if (n > h->max_acquire) {
        iron__emu_task_fail(&ew->task, IRON_ERUNTIME,
                            "worker '%s' on tile %s: acquire(%d) on %s; the "
                            "worker declared it holds at most %d at once "
                            "(iron_arg_fifo_acquire(h, %d) gives the endpoint "
                            "the buffers for %d)",
                            ew->w->name, tile_of(ew, tl, sizeof tl), n,
                            h->label, h->max_acquire, n, n);
        park(ew);
    }
    int held = iron__pool_held(h->pool, h->writer, h->slot);
    emu_inst *in = ew->task.lane->in;
    if (in->timed)
        iron__emu_time_core_flush(ew);
    while (n > held &&
           iron__pool_avail(h->pool, h->writer, h->slot) < n - held) {
        iron__emu_block(&ew->task, h->pool, h->writer, h->slot, n);
        if (in->profile)
            iron__emu_prof_blocked(ew, (int)(h - ew->h));
        iron__fiber_yield(ew->fiber);
        if (in->profile)
            iron__emu_prof_unblocked(ew->task.lane->in, ew);
    }
    if (n > held) {
        iron__pool_take(h->pool, h->writer, h->slot, n);
        if (ew->checked)
            iron__emu_check_take(ew, h, held, n);
        if (in->timed)
            iron__emu_time_take(&ew->task, h->pool, h->writer, h->slot, held,
                                n);
        if (ew->is_core)
            ew->iterations++;
    }
    held = iron__pool_held(h->pool, h->writer, h->slot);
    for (int k = 0; k < held; k++)
        h->ptrs[k] = iron__pool_kbuf(h->pool, h->writer, h->slot, k);
    return h->ptrs;
}

static void core_release(void *fp, int n)
{
    emu_hstate *h = fp;
    emu_worker *ew = h->worker;
    char tl[32];
    core_maybe_yield(ew);
    int held = iron__pool_held(h->pool, h->writer, h->slot);
    if (n < 0 || n > held) {
        iron__emu_task_fail(&ew->task, IRON_ERUNTIME,
                            "worker '%s' on tile %s: release(%d) on %s, "
                            "which holds %d",
                            ew->w->name, tile_of(ew, tl, sizeof tl), n,
                            h->label, held);
        park(ew);
    }
    if (ew->checked)
        iron__emu_check_release(ew, h, n);
    if (ew->task.lane->in->timed) {
        iron__emu_time_core_flush(ew);
        iron__emu_time_give(&ew->task, h->pool, h->writer, h->slot, 0, n,
                            ew->task.tnow);
    }
    iron__pool_release(h->pool, h->writer, h->slot, n);
    if (ew->task.lane->in->profile)
        iron__emu_prof_release(ew->task.lane->in, ew, h, n);
    /* The pointer array keeps naming what is still held, oldest first. */
    for (int k = 0; k < held - n; k++)
        h->ptrs[k] = iron__pool_kbuf(h->pool, h->writer, h->slot, k);
}

static void core_barrier_wait(void *bp, int value)
{
    emu_barrier *b = bp;
    emu_worker *ew = b->owner;
    char tl[32];
    core_maybe_yield(ew);
    if (value < 0 || value > ew->task.lane->in->prog->dev.lock_max_value) {
        iron__emu_task_fail(&ew->task, IRON_ERUNTIME,
                            "worker '%s' on tile %s: waits for value %d on "
                            "barrier '%s'; a lock holds 0..%d",
                            ew->w->name, tile_of(ew, tl, sizeof tl), value,
                            b->name,
                            ew->task.lane->in->prog->dev.lock_max_value);
        park(ew);
    }
    /* Acquire-equal: the lock must hold exactly `value`; it is left as
     * it is, so the next wait for the same value passes at once. */
    while (b->value != value) {
        iron__emu_block(&ew->task, NULL, 0, 0, 0);
        ew->task.wait_barrier = b;
        ew->task.wait_value = value;
        iron__fiber_yield(ew->fiber);
    }
    /* Set by the sequence: not before the sequence set it. */
    if (ew->task.lane->in->timed) {
        iron__emu_time_core_flush(ew);
        if (b->tset > ew->task.tnow) {
            ew->task.tstall_in += b->tset - ew->task.tnow;
            ew->task.tnow = b->tset;
        }
    }
}

static void core_barrier_release(void *bp, int value)
{
    emu_barrier *b = bp;
    emu_worker *ew = b->owner;
    int max = ew->task.lane->in->prog->dev.lock_max_value;
    char tl[32];
    core_maybe_yield(ew);
    if (value < 0 || b->value + value > max) {
        iron__emu_task_fail(&ew->task, IRON_ERUNTIME,
                            "worker '%s' on tile %s: releasing %d on barrier "
                            "'%s' (at %d) passes the lock's maximum %d",
                            ew->w->name, tile_of(ew, tl, sizeof tl), value,
                            b->name, b->value, max);
        park(ew);
    }
    b->value += value;
}

static const iron__core_api core_api = {
    .acquire = core_acquire,
    .release = core_release,
    .barrier_wait = core_barrier_wait,
    .barrier_release = core_barrier_release,
};

void iron__emu_barrier_set(emu_barrier *b, int value)
{
    b->value = value;
    if (b->owner)
        iron__emu_wake(&b->owner->task);
}

static void fiber_main(void *arg)
{
    emu_worker *ew = arg;
    ew->fn(ew->val);
}

/* The standard loop's kernel in checked mode: on the worker's fiber, one
 * call per resume, so the stack it measures holds the kernel's frames and
 * nothing of the emulator's. */
static void checked_kernel_main(void *arg)
{
    emu_worker *ew = arg;
    for (;;) {
        /* The switch into this fiber wrote below this frame (deeply,
         * under a sanitizer): that is not the kernel's. */
        iron__emu_check_repoison(ew, __builtin_frame_address(0));
        ew->kstack_top = __builtin_frame_address(0);
        ew->fn(ew->val);
        iron__emu_check_measure(ew);
        iron__fiber_yield(ew->fiber);
    }
}

static void core_step(emu_inst *in, emu_task *t)
{
    emu_worker *ew = (emu_worker *)t;
    /* The fiber blocks by marking the task blocked and yielding; anything
     * else that returns here is a finished body. */
    uint64_t t0 = in->profile ? iron__now_ns() : 0;
    if (in->timed)
        iron__emu_timed_worker = ew;
    int finished = iron__fiber_resume(ew->fiber);
    iron__emu_timed_worker = NULL;
    if (in->profile)
        iron__emu_prof_kernel(in, ew, t0, iron__now_ns());
    if (ew->checked) {
        iron__emu_check_measure(ew);
        if (!iron__emu_check_stack(ew))
            return;
    }
    if (finished && in->timed)
        (void)iron__emu_time_kernel_end(ew);   /* its last stretch */
    if (finished) {
        if (t->shared)
            __atomic_store_n(&t->state, EMU_DONE, __ATOMIC_SEQ_CST);
        else
            t->state = EMU_DONE;
        if (ew->checked)
            iron__emu_check_returned(ew);
    }
}

/* --- setup --------------------------------------------------------------- */

/* The step for the worker's kind and the call's modes. */
static void choose_step(emu_worker *ew, const emu_inst *in)
{
    ew->task.step = ew->is_core    ? core_step
                    : in->timed    ? loop_step_timed
                    : ew->checked  ? checked_loop_step
                    : in->profile  ? loop_step_profiled
                                   : loop_step;
}

iron_status iron__emu_worker_init(emu_inst *in, emu_worker *ew, int index)
{
    const iron_program *prog = in->prog;
    const iron__prog_worker *w = &prog->workers[index];
    iron__emu_worker_fini(ew);
    memset(ew, 0, sizeof *ew);
    ew->task.state = EMU_BLOCKED;
    ew->task.is_worker = 1;
    ew->w = w;
    ew->fn = prog->wfns[index];
    ew->is_core = w->is_core;
    ew->checked = in->checked;
    choose_step(ew, in);
    ew->nargs = w->nargs;
    int tile = iron__program_tile(prog, w->tile);
    uint8_t *mem = in->tile_mem[tile];
    for (int a = 0; a < w->nargs; a++) {
        const iron__warg *wa = &prog->wargs[index][a];
        const iron__warg *arg = wa;
        switch (arg->kind) {
        case IRON_ARG_HANDLE: {
            emu_hstate *h = &ew->h[a];
            h->worker = ew;
            h->pool = &in->pools[wa->pool];
            h->writer = wa->is_writer;
            h->slot = wa->slot;
            h->depth = h->pool->depth;
            h->max_acquire = arg->max_acquire;
            snprintf(h->label, sizeof h->label, "%s", arg->label);
            if (h->writer)
                h->pool->writer[h->slot] = &ew->task;
            else
                h->pool->reader[h->slot] = &ew->task;
            ew->val[a].p = h;   /* a core body's iron_objfifo * */
            break;
        }
        case IRON_ARG_RTP:
            ew->val[a].p = mem + prog->rtp_copies[wa->copy].addr;
            break;
        case IRON_ARG_BARRIER:
            ew->barrier[a] = &in->barriers[wa->copy];
            ew->barrier[a]->owner = ew;
            ew->val[a].p = ew->barrier[a];
            break;
        case IRON_ARG_KERNEL:
            ew->val[a].fp = wa->kfn;
            break;
        case IRON_ARG_INT:
        case IRON_ARG_FLOAT: {
            /* Scalars reach the wrapper in the slot its declared type
             * reads: .f for float types (it rounds to bfloat16 itself),
             * .i for integers. */
            iron_dtype dt = arg->dtype;
            double f = arg->kind == IRON_ARG_INT ? (double)arg->i : arg->f;
            if (dt == IRON_FLOAT32 || dt == IRON_FLOAT64 ||
                dt == IRON_BFLOAT16)
                ew->val[a].f = f;
            else
                ew->val[a].i = arg->i;
            break;
        }
        }
    }
    if (!ew->is_core && !ew->checked)
        return IRON_OK;
    iron_status s = IRON_OK;
    if (ew->is_core)
        s = iron__program_bind_core(prog, index, &core_api);
    if (s == IRON_OK)
        s = iron__fiber_new(&ew->fiber,
                            ew->checked ? iron__emu_check_stack_bytes(ew, in)
                                        : CORE_STACK_BYTES,
                            ew->is_core ? fiber_main : checked_kernel_main,
                            ew);
    if (s != IRON_OK)
        return iron__fail_context(s, "worker '%s'", w->name);
    if (ew->checked)
        iron__emu_check_prepare(ew);
    return IRON_OK;
}

void iron__emu_worker_modes(emu_worker *ew, const emu_inst *in)
{
    choose_step(ew, in);
    ew->blocked_since = 0;
}

void iron__emu_worker_fini(emu_worker *ew)
{
    iron__fiber_free(ew->fiber);
    ew->fiber = NULL;
    iron__emu_output_free(ew);
}
