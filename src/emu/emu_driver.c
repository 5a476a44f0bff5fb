/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * emu_driver.c - the emulator's driver table: host buffers, loading a
 * program into emulated tile memory, and running its runtime sequence.
 *
 * The sequence (the program's op table) is interpreted on the caller's
 * thread between phases: fills and drains are queued on their movers,
 * run-time parameters and barriers are written while every lane is idle,
 * and at the end of each task group (and of the sequence) the lanes run
 * until what the phase awaits is done.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "emu/emu.h"

/* Host buffers from this size on are mappings of their own (given back
 * to the system when freed: from the heap, a process that makes and
 * frees many tensors of growing sizes would keep the freed memory);
 * from HUGE_TENSOR_BYTES on they are aligned to and ask for huge pages
 * (where the system grants them on request): the DMA streams through
 * them, and 4 KiB pages would cost a TLB miss every 4 KiB and a page
 * fault each when first written. */
#define MAPPED_TENSOR_BYTES ((size_t)64 << 10)
#define HUGE_TENSOR_BYTES ((size_t)16 << 20)
#define HUGE_PAGE_BYTES ((size_t)2 << 20)

/* 64-byte alignment at least: whole cache lines, and any vector type a
 * kernel might use on the host.  A mapped buffer's handle is its host
 * pointer's neighbour, which is how emu_buf_free tells them apart. */
static iron_status emu_buf_alloc(iron_driver *drv, size_t nbytes, void **host,
                                 void **handle)
{
    (void)drv;
    void *p;
    int mapped = nbytes >= MAPPED_TENSOR_BYTES;
    if (mapped) {
        int huge = nbytes >= HUGE_TENSOR_BYTES;
        p = iron__big_alloc(huge ? HUGE_PAGE_BYTES : 64, nbytes);
#ifdef MADV_HUGEPAGE
        if (p && huge)
            (void)madvise(p, (nbytes + HUGE_PAGE_BYTES - 1) &
                                 ~(HUGE_PAGE_BYTES - 1),
                          MADV_HUGEPAGE);  /* advice: may be refused */
#endif
    } else {
        size_t n = (nbytes + 63) & ~(size_t)63;
        p = iron__aligned_alloc(64, n ? n : 64);
        if (p)
            memset(p, 0, n ? n : 64);
    }
    if (!p)
        return iron__fail(IRON_ENOMEM,
                          "emulator: out of memory allocating %zu bytes",
                          nbytes);
    *host = p;
    *handle = mapped ? (uint8_t *)p - 1 : p;
    return IRON_OK;
}

static void emu_buf_free(iron_driver *drv, void *host, void *handle)
{
    (void)drv;
    if (handle != host)
        iron__big_free(host);
    else
        iron__free_aligned(host);
}

/* Host and device share memory in the emulator, so any host memory is
 * buffer memory: the handle is the pointer itself, and there is nothing
 * to give back. */
static iron_status emu_buf_wrap(iron_driver *drv, void *host, size_t nbytes,
                                void **handle)
{
    (void)drv;
    (void)nbytes;
    *handle = host;
    return IRON_OK;
}

static void emu_buf_unwrap(iron_driver *drv, void *host, void *handle)
{
    (void)drv;
    (void)host;
    (void)handle;
}

/* Host and device share memory in the emulator: syncing is free. */
static iron_status emu_buf_sync(iron_driver *drv, void *host, void *handle,
                                size_t nbytes, iron_sync_dir dir)
{
    (void)drv;
    (void)host;
    (void)handle;
    (void)nbytes;
    (void)dir;
    return IRON_OK;
}

/* (Re)initialises every lock, buffer position, barrier and task: the
 * state of a freshly loaded program.  The run-time parameters' initial
 * values and the barriers' are read as any driver reads them, through
 * the public accessors (iron_driver.h); the pools, workers and movers
 * keep pointers into the program's own tables, which the hot path reads
 * on every step. */
static iron_status reset(emu_inst *in)
{
    const iron_program *p = in->prog;
    for (int i = 0; i < p->npools; i++) {
        emu_pool *ep = &in->pools[i];
        const iron__pool *pl = &p->pools[i];
        memset(ep, 0, sizeof *ep);
        ep->def = pl;
        ep->depth = pl->depth;
        ep->nw = pl->nwriters;
        ep->nr = pl->nreaders;
        for (int w = 0; w < ep->nw; w++)
            ep->free[w] = pl->depth;
    }
    iron__emu_mem_reset(in);
    iron_status s = IRON_OK;
    for (int i = 0; i < in->nrtp_copies && s == IRON_OK; i++) {
        iron_program_copy c = { .size = sizeof c };
        iron_program_rtp r = { .size = sizeof r };
        if ((s = iron_program_get_rtp_copy(p, i, &c)) == IRON_OK &&
            (s = iron_program_get_rtp(p, c.of, &r)) == IRON_OK && r.initial)
            memcpy(in->tile_mem[c.tile] + c.addr, r.initial,
                   (size_t)r.count * iron_dtype_size(r.dtype));
    }
    for (int i = 0; i < in->nbarrier_copies && s == IRON_OK; i++) {
        iron_program_copy c = { .size = sizeof c };
        iron_program_barrier b = { .size = sizeof b };
        if ((s = iron_program_get_barrier_copy(p, i, &c)) != IRON_OK ||
            (s = iron_program_get_barrier(p, c.of, &b)) != IRON_OK)
            break;
        in->barriers[i].name = b.name;
        in->barriers[i].value = b.initial;
        in->barriers[i].owner = NULL;
    }
    for (int i = 0; i < in->nworkers && s == IRON_OK; i++)
        s = iron__emu_worker_init(in, &in->workers[i], i);
    for (int i = 0; i < in->nmovers && s == IRON_OK; i++)
        s = iron__emu_mover_init(in, &in->movers[i], &p->movers[i]);
    if (s != IRON_OK)
        return s;
    in->started = 0;
    in->broken = 0;
    return iron__emu_lanes_assign(in, in->threads_asked);
}

static void emu_unload(iron_driver *drv, void *loaded)
{
    (void)drv;
    emu_inst *in = loaded;
    if (!in)
        return;
    for (int i = 0; in->movers && i < in->nmovers; i++) {
        iron__free(in->movers[i].ops);
        iron__free(in->movers[i].stream);
    }
    for (int i = 0; in->workers && i < in->nworkers; i++)
        iron__emu_worker_fini(&in->workers[i]);
    iron__emu_counters_free(in);
    iron__emu_timing_free(in);
    iron__emu_mem_unmap(in);
    iron__free(in->tile_mem);
    iron__free_aligned(in->pools);
    iron__free(in->workers);
    iron__free(in->movers);
    iron__free(in->barriers);
    if (in->lanes)
        for (int l = 0; l < in->nlanes_cap; l++) {
            iron__free(in->lanes[l].ready);
            iron__free(in->lanes[l].group_awaited);
        }
    iron__free_aligned(in->lanes);
    iron__free(in);
}

static void *zalloc_aligned(size_t align, size_t n)
{
    void *p = iron__aligned_alloc(align, n);
    if (p)
        memset(p, 0, n);
    return p;
}

static iron_status emu_load(iron_driver *drv, const iron_device_info *dev,
                            const iron_program *prog, void **loaded)
{
    *loaded = NULL;
    /* What the program holds, as any driver learns it. */
    iron_program_info info = { .size = sizeof info };
    iron_status s = iron_program_get_info(prog, &info);
    if (s != IRON_OK)
        return s;
    if (info.abi_version != IRON_DRIVER_ABI)
        return iron__fail(IRON_ELOAD,
                          "emulator: program format %d, expected %d",
                          info.abi_version, IRON_DRIVER_ABI);
    if (strcmp(dev->name, info.device->name) != 0)
        return iron__fail(IRON_ELOAD,
                          "emulator: program was placed for '%s', not '%s'",
                          info.device->name, dev->name);
    emu_inst *in = iron__calloc(1, sizeof *in);
    if (!in)
        return iron__fail(IRON_ENOMEM, "emulator: out of memory loading");
    in->prog = prog;
    in->nworkers = info.nworkers;
    in->nmovers = info.nmovers;
    in->nrtp_copies = info.nrtp_copies;
    in->nbarrier_copies = info.nbarrier_copies;
    in->ntasks = in->nworkers + in->nmovers;
    in->tile_mem = iron__calloc((size_t)info.ntiles + 1,
                                sizeof *in->tile_mem);
    /* Aligned as emu_pool and emu_lane ask (parts that different
     * threads write sit on cache lines of their own). */
    in->pools = zalloc_aligned(_Alignof(emu_pool),
                               ((size_t)info.npools + 1) * sizeof *in->pools);
    in->workers = iron__calloc((size_t)in->nworkers + 1, sizeof *in->workers);
    in->movers = iron__calloc((size_t)in->nmovers + 1, sizeof *in->movers);
    in->barriers = iron__calloc((size_t)info.nbarrier_copies + 1,
                                sizeof *in->barriers);
    /* One lane per task at most; each lane's ring can hold every task. */
    in->nlanes_cap = in->ntasks ? in->ntasks : 1;
    in->lanes = zalloc_aligned(_Alignof(emu_lane),
                               (size_t)in->nlanes_cap * sizeof *in->lanes);
    int ok = in->tile_mem && in->pools && in->workers && in->movers &&
             in->barriers && in->lanes;
    for (int l = 0; ok && l < in->nlanes_cap; l++)
        ok = (in->lanes[l].ready = iron__calloc((size_t)in->ntasks + 1,
                                                sizeof(emu_task *))) &&
             (in->lanes[l].group_awaited =
                  iron__calloc((size_t)info.ngroups + 1, sizeof(int)));
    if (!ok) {
        emu_unload(drv, in);
        return iron__fail(IRON_ENOMEM, "emulator: out of memory loading");
    }
    s = iron__emu_mem_map(in, 0);
    if (s == IRON_OK)
        s = iron__emu_counters_new(in);
    if (s == IRON_OK)
        s = reset(in);
    if (s != IRON_OK) {
        emu_unload(drv, in);
        return s;
    }
    *loaded = in;
    return IRON_OK;
}

/* Writes a run-time parameter into every worker's copy of the buffer. */
static void set_rtp(emu_inst *in, const iron__prog_op *op, double value)
{
    const iron_program *p = in->prog;
    iron_dtype dt = p->rtps[op->rtp].dtype;
    size_t esz = iron_dtype_size(dt);
    for (int i = 0; i < p->nrtp_copies; i++) {
        const iron__rtp_copy *c = &p->rtp_copies[i];
        if (c->rtp != op->rtp)
            continue;
        int tile = iron__program_tile(p, p->workers[c->worker].tile);
        uint8_t *at = in->tile_mem[tile] + c->addr + (size_t)op->index * esz;
        iron__program_store(dt, at, value);
    }
}

static void set_barrier(emu_inst *in, const iron__prog_op *op)
{
    const iron_program *p = in->prog;
    for (int i = 0; i < p->nbarrier_copies; i++)
        if (p->barrier_copies[i].barrier == op->barrier) {
            if (in->timed)
                in->barriers[i].tset = iron__emu_timing_seq(in);
            iron__emu_barrier_set(&in->barriers[i], (int)op->value);
        }
}

/* Runs the lanes until task group g's awaited drains are done (g 0: the
 * drains awaited outside groups). */
static iron_status run_group(emu_inst *in, int g, enum iron_run_state *state)
{
    in->final_phase = 0;
    in->phase_group = g;
    uint64_t t0 = in->trace ? iron__now_ns() : 0;
    iron_status s = iron__emu_lanes_run(in, state);
    if (in->trace)
        iron__emu_prof_seq(in, g ? "await task group" : "await drain",
                           NULL, t0, iron__now_ns());
    if (s == IRON_OK && in->timed)
        iron__emu_time_awaited(in, g);
    return s;
}

/* The trace's name for a runtime op. */
static const char *op_name(const iron__prog_op *op)
{
    switch (op->kind) {
    case IRON__OP_FILL: return "fill";
    case IRON__OP_DRAIN: return "drain";
    case IRON__OP_SET_RTP: return "set run-time parameter";
    case IRON__OP_SET_BARRIER: return "set barrier";
    case IRON__OP_GROUP_START: return "task group start";
    case IRON__OP_GROUP_FINISH: return "task group finish";
    }
    return "op";
}

/* After a stall at op `at`: the later fills and drains whose DMA sits in a
 * stalled lane, i.e. the ops the stalled tasks were waiting to see. */
static void unissued(const emu_inst *in, int at, char *out, size_t n)
{
    const iron_program *p = in->prog;
    size_t len = 0;
    int named = 0;
    out[0] = '\0';
    for (int j = at + 1; j < p->nops && len + 1 < n; j++) {
        const iron__prog_op *op = &p->ops[j];
        if (op->kind != IRON__OP_FILL && op->kind != IRON__OP_DRAIN)
            continue;
        const emu_mover *em = &in->movers[op->mover];
        if (em->task.lane->status != IRON_EDEADLOCK)
            continue;
        int k = snprintf(out + len, n - len, "%s op %d (%s of fifo '%s', "
                         "argument %d '%s')",
                         named ? "," : ": the stalled tasks need", j,
                         op->kind == IRON__OP_FILL ? "fill" : "drain",
                         op->subject, op->arg, op->arg_name);
        if (k < 0 || (size_t)k >= n - len)
            break;
        len += (size_t)k;
        named++;
    }
    if (named && len + 1 < n)
        snprintf(out + len, n - len, ", never issued: issue %s before this "
                 "wait, or put %s in one task group with it",
                 named == 1 ? "it" : "them", named == 1 ? "it" : "them");
}

static iron_status emu_run(iron_driver *drv, void *loaded,
                           const iron_run_args *args,
                           enum iron_run_state *state)
{
    (void)drv;
    emu_inst *in = loaded;
    const iron_program *p = in->prog;
    *state = IRON_RUN_ERROR;
    unsigned flags = args->size >= offsetof(iron_run_args, flags) +
                                       sizeof args->flags
                         ? args->flags
                         : 0;
    int checked = (flags & IRON_RUN_CHECK) != 0;
    in->threads_asked = args->size >= offsetof(iron_run_args, threads) +
                                           sizeof args->threads
                            ? args->threads
                            : 0;
    if (checked != in->checked) {
        /* Checked mode lays the buffers out differently: start over. */
        for (int i = 0; i < in->nworkers; i++)
            iron__emu_worker_fini(&in->workers[i]);
        iron__emu_mem_unmap(in);
        iron_status s = iron__emu_mem_map(in, checked);
        if (s != IRON_OK) {
            iron__emu_mem_unmap(in);
            (void)iron__emu_mem_map(in, 0);
            in->broken = 1;
            return s;
        }
        in->broken = 1;
    }
    if (in->broken) {
        iron_status s = reset(in);
        if (s != IRON_OK)
            return s;
    } else if (iron__emu_lanes_want(in, in->threads_asked) != in->threads) {
        /* Another thread count than the last call's: deal again (tasks
         * keep their state; queued ones stay queued). */
        iron_status s = iron__emu_lanes_assign(in, in->threads_asked);
        if (s != IRON_OK)
            return s;
    }
    int tuning = iron__emu_lanes_tuning(in);
    uint64_t began = tuning ? iron__now_ns() : 0;
    in->timeout_ms = args->timeout_ms;
    in->deadline_ns =
        iron__now_coarse_ns() + (uint64_t)args->timeout_ms * 1000000u;
    const char *trace_path =
        args->size >= offsetof(iron_run_args, trace_path) +
                          sizeof args->trace_path
            ? args->trace_path
            : NULL;
    const char *label =
        args->size >= offsetof(iron_run_args, label) + sizeof args->label
            ? args->label
            : NULL;
    double clock_mhz =
        args->size >= offsetof(iron_run_args, clock_mhz) +
                          sizeof args->clock_mhz
            ? args->clock_mhz
            : 0;
    iron_status ts = iron__emu_timing_begin(
        in, (flags & IRON_RUN_TIMING) != 0, clock_mhz);
    if (ts != IRON_OK)
        return ts;
    iron__emu_counters_begin(in, (flags & IRON_RUN_PROFILE) != 0,
                             trace_path, label);
    iron__emu_time_trace_tracks(in);
    for (int i = 0; i < in->nmovers; i++)
        in->movers[i].nops = in->movers[i].head = 0;
    if (!in->started) {
        for (int i = 0; i < in->nworkers; i++)
            iron__emu_wake(&in->workers[i].task);
        in->started = 1;
    }
    iron_status s = IRON_OK;
    for (int i = 0; i < p->nops && s == IRON_OK; i++) {
        const iron__prog_op *op = &p->ops[i];
        if (in->trace)
            iron__emu_prof_seq(in, op_name(op), op->subject, iron__now_ns(),
                               0);
        switch (op->kind) {
        case IRON__OP_FILL:
        case IRON__OP_DRAIN: {
            emu_mover *em = &in->movers[op->mover];
            int64_t shift = op->scalar >= 0 && op->scalar < args->nscalars
                                ? args->scalars[op->scalar]
                                : 0;
            s = iron__emu_mover_push(em, op, args->host[op->arg], shift);
            if (s != IRON_OK)
                break;
            if (in->timed)
                iron__emu_time_issue(in, &em->ops[em->nops - 1]);
            em->task.lane->ops_left++;
            em->task.lane->awaited_left += op->wait;
            em->task.lane->group_awaited[op->group] += op->wait;
            iron__emu_wake(&em->task);
            /* Outside task groups an awaited drain is waited for where
             * it stands (upstream emits dma_await_task right after it):
             * the sequence goes on only once it is done. */
            if (op->wait && op->group == 0) {
                s = run_group(in, 0, state);
                if (s == IRON_EDEADLOCK && i + 1 < p->nops) {
                    char later[768];
                    unissued(in, i, later, sizeof later);
                    s = iron__fail_context(
                        s,
                        "the sequence waits at op %d (drain of fifo '%s', "
                        "awaited where it stands, outside any task group) "
                        "and has not issued its %d later op%s%s",
                        i, op->subject, p->nops - i - 1,
                        p->nops - i - 1 == 1 ? "" : "s", later);
                }
            }
            break;
        }
        case IRON__OP_SET_RTP:
            set_rtp(in, op,
                    op->scalar >= 0 && op->scalar < args->nscalars
                        ? (double)args->scalars[op->scalar]
                        : op->value);
            break;
        case IRON__OP_SET_BARRIER:
            set_barrier(in, op);
            break;
        case IRON__OP_GROUP_START:
            break;
        case IRON__OP_GROUP_FINISH:
            s = run_group(in, op->group, state);
            if (s == IRON_EDEADLOCK && i + 1 < p->nops) {
                char later[768];
                unissued(in, i, later, sizeof later);
                if (later[0])
                    s = iron__fail_context(
                        s, "the sequence waits at op %d (finish of task "
                           "group %d)%s", i, op->group, later);
            }
            break;
        }
    }
    if (s == IRON_OK) {
        /* Every op may already be done (the last op was an awaited drain
         * outside groups, or a group's finish): then there is nothing to
         * run, and no thread to wake. */
        int owed = 0;
        for (int l = 0; l < in->nlanes; l++)
            owed += in->lanes[l].ops_left;
        in->final_phase = 1;
        uint64_t t0 = in->trace ? iron__now_ns() : 0;
        if (owed > 0)
            s = iron__emu_lanes_run(in, state);
        else
            *state = IRON_RUN_COMPLETED;
        if (in->trace && owed > 0)
            iron__emu_prof_seq(in, "finish every op", NULL, t0,
                               iron__now_ns());
    }
    /* A last line printed without a newline belongs to this call. */
    for (int i = 0; i < in->nworkers; i++)
        iron__emu_output_flush(&in->workers[i]);
    if (in->checked)
        iron__emu_check_report(in);
    iron__emu_timing_end(in, s);
    iron__emu_counters_end(in, s);
    if (s != IRON_OK)
        in->broken = 1;
    else if (iron__emu_lanes_auto(in))
        iron__emu_lanes_timed(in, tuning ? iron__now_ns() - began : 0);
    return s;
}

static const iron_run_counters *emu_counters(iron_driver *drv, void *loaded)
{
    (void)drv;
    return loaded ? iron__emu_counters_get(loaded) : NULL;
}

iron_driver iron__emu_driver = {
    .abi_version = IRON_DRIVER_ABI,
    .size = sizeof(iron_driver),
    .name = "emulator",
    .buf_alloc = emu_buf_alloc,
    .buf_free = emu_buf_free,
    .buf_sync = emu_buf_sync,
    .buf_wrap = emu_buf_wrap,
    .buf_unwrap = emu_buf_unwrap,
    .load = emu_load,
    .run = emu_run,
    .unload = emu_unload,
    .counters = emu_counters,
};
