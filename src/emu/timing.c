/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * timing.c - the emulator's clocks for the timing model (src/timing): per
 * task the modelled cycle it has reached, per pool buffer when it was
 * filled and freed, per runtime op when it was issued and done; at the
 * end of a timed call, each task's busy, stalled and idle cycles, the
 * call's time and the sentence naming its bottleneck.
 *
 * The invariant that makes the model cheap and deterministic: a task's
 * clock only moves forward, by its own work or to the stamp of a buffer
 * it takes, and a buffer's stamps only grow (it is freed after it was
 * filled, filled after it was freed).  So a task never needs to know
 * about any other task -- the buffers carry time between them exactly as
 * they carry data -- and the host's order of steps, its threads and its
 * speed change nothing.  A buffer with several writers (a join) is filled
 * at the latest writer's release; several readers free it at the latest
 * reader's.  Time spent before a call (tasks idle since the last one) is
 * not counted: every clock starts a call at least at the call's origin,
 * the end of the previous call.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/trace.h"

struct emu_timing {
    const iron__timing_rates *rates;
    const iron__timing_core *core;
    double clock_mhz;
    uint64_t origin, seq;  /* the call's first cycle, the sequence's now */
    uint64_t end;          /* the previous call's end, then this one's */
    uint64_t host_t0;      /* the call's host start (trace) */
    int unbounded;
    iron_time_counters *w, *d, *e;
    int *wtrack, *dtrack;  /* modelled trace tracks (-1: none) */
    char bottleneck[512];
    iron__str summary;
};

/* How a worker's kernel cycles were found in a call, from the sources
 * its calls had (emu_worker.ksources): the most trusted one -- declared,
 * counted, guess -- and "+guess" when scalar code guessed at too (a core
 * body's own code beside the kernels it calls). */
static const char *ksources_name(unsigned bits)
{
    int guess = (bits & (1u << IRON__EMU_KSRC_GUESS)) != 0;
    if (bits & (1u << IRON__EMU_KSRC_DECLARED))
        return guess ? "declared+guess" : "declared";
    if (bits & (1u << IRON__EMU_KSRC_COUNTED))
        return guess ? "counted+guess" : "counted";
    return guess ? "guess" : "none";
}

static int tile_kind(iron__tile t)
{
    return t.row == 0 ? IRON__TT_SHIM
                      : t.row == 1 ? IRON__TT_MEMTILE : IRON__TT_COMPUTE;
}

static int hops(iron__tile a, iron__tile b)
{
    int dc = a.col > b.col ? a.col - b.col : b.col - a.col;
    int dr = a.row > b.row ? a.row - b.row : b.row - a.row;
    return dc + dr + 1;
}

/* Each mover's rate, latency and per-task overhead.  A shim channel's
 * rate is also capped by its share of the device's DDR bandwidth: the
 * shim channels share it in proportion to the bytes each moves in a
 * call (so that streams that run side by side finish together, the
 * steady state of a streaming design, using the cap between them), but
 * no channel gets less than an equal share (a one-word transfer beside
 * megabytes would otherwise crawl). */
static iron_status setup_movers(emu_inst *in, emu_timing *tm)
{
    const iron_program *p = in->prog;
    const iron__timing_rates *r = tm->rates;
    double total = 0;
    double *bytes = iron__calloc((size_t)in->nmovers + 1, sizeof *bytes);
    if (!bytes)
        return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    for (int i = 0; i < p->nops; i++) {
        const iron__prog_op *op = &p->ops[i];
        if (op->kind != IRON__OP_FILL && op->kind != IRON__OP_DRAIN)
            continue;
        double b = (double)iron_tap_count(&op->tap) *
                   (double)iron_dtype_size(op->arg_dtype);
        bytes[op->mover] += b;
        total += b;
    }
    double ddr = r->ddr_bytes_per_ns * 1000.0 / tm->clock_mhz;
    int nshim = 0;
    for (int i = 0; i < in->nmovers; i++)
        nshim += in->movers[i].m->src.pool < 0 || in->movers[i].m->ndst == 0;
    for (int i = 0; i < in->nmovers; i++) {
        emu_mover *em = &in->movers[i];
        const iron__mover *m = em->m;
        iron__tile shim = { m->shim_col, 0 };
        iron__tile src = m->src.pool >= 0 ? p->pools[m->src.pool].tile : shim;
        iron__tile dst = m->ndst > 0 ? p->pools[m->dst[0].pool].tile : shim;
        double rate = r->stream_bytes[tile_kind(src)];
        rate = IRON__MIN(rate, r->stream_bytes[tile_kind(dst)]);
        int far = 0;
        for (int k = 0; k < m->ndst; k++)
            far = IRON__MAX(far, hops(src, p->pools[m->dst[k].pool].tile));
        if (m->ndst == 0)
            far = hops(src, shim);
        em->task_cycles = 0;
        if (m->src.pool < 0 || m->ndst == 0) {
            if (total > 0 && bytes[i] > 0)
                rate = IRON__MIN(rate, IRON__MAX(ddr * bytes[i] / total,
                                                 ddr / nshim));
            em->task_cycles = (uint32_t)(m->src.pool < 0 ? r->shim_mm2s_task
                                                         : r->shim_s2mm_task);
        }
        em->rate = rate;
        em->latency = (uint32_t)(far * r->hop_cycles + r->dma_start_cycles);
        /* Most moves are one whole object (a piece when ends differ). */
        em->tobj_bytes = em->fifo->obj_bytes;
        em->tobj_cycles = (uint64_t)ceil((double)em->tobj_bytes / rate);
    }
    iron__free(bytes);
    return IRON_OK;
}

static void free_results(emu_timing *tm)
{
    iron__free(tm->w);
    iron__free(tm->d);
    iron__free(tm->e);
    iron__free(tm->wtrack);
    iron__free(tm->dtrack);
    tm->w = tm->d = tm->e = NULL;
    tm->wtrack = tm->dtrack = NULL;
}

void iron__emu_timing_free(emu_inst *in)
{
    emu_timing *tm = in->timing;
    if (!tm)
        return;
    free_results(tm);
    iron__str_free(&tm->summary);
    iron__free(tm);
    in->timing = NULL;
    in->timed = 0;
}

static emu_task *task_at(emu_inst *in, int i)
{
    return i < in->nworkers ? &in->workers[i].task
                            : &in->movers[i - in->nworkers].task;
}

iron_status iron__emu_timing_begin(emu_inst *in, int on, double clock_mhz)
{
    in->timed = 0;
    if (!on)
        return IRON_OK;
    const iron_device_info *dev = &in->prog->dev;
    emu_timing *tm = in->timing;
    if (!tm) {
        tm = iron__calloc(1, sizeof *tm);
        if (!tm)
            return iron__fail(IRON_ENOMEM, "emulator: out of memory");
        in->timing = tm;
    }
    tm->rates = iron__timing_rates_for(dev->arch);
    if (!tm->rates)
        return iron__fail(IRON_ENOTSUP,
                          "timing: no model of architecture '%s' (device "
                          "'%s')", dev->arch, dev->name);
    tm->core = iron__timing_core_for(strcmp(dev->arch, "aie2p") == 0 ? 21
                                                                     : 20);
    iron_status s = iron__timing_clock(tm->rates, clock_mhz, dev->name,
                                       &tm->clock_mhz);
    if (s != IRON_OK)
        return s;
    free_results(tm);
    tm->w = iron__calloc((size_t)in->nworkers + 1, sizeof *tm->w);
    tm->d = iron__calloc((size_t)in->nmovers + 1, sizeof *tm->d);
    int ne = iron__emu_counters_endpoints(in);
    tm->e = iron__calloc((size_t)ne + 1, sizeof *tm->e);
    if (!tm->w || !tm->d || !tm->e)
        return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    if ((s = setup_movers(in, tm)) != IRON_OK)
        return s;
    /* The call starts where the last one ended; nothing a task did
     * before counts for this one. */
    tm->origin = tm->seq = tm->end;
    tm->unbounded = 0;
    tm->host_t0 = iron__now_ns();
    for (int i = 0; i < in->ntasks; i++) {
        emu_task *t = task_at(in, i);
        if (t->tnow < tm->origin)
            t->tnow = tm->origin;
        t->tbusy = t->tstall_in = t->tstall_out = 0;
        /* A core executes its lock operations; a DMA channel's overlap
         * its transfers (the next buffer descriptor's lock is taken while
         * the last one streams: a stream runs at its full rate, as
         * measured). */
        t->tlock = t->is_worker ? (uint32_t)tm->rates->lock_cycles : 0;
    }
    for (int i = 0; i < in->prog->npools; i++) {
        emu_pool *ep = &in->pools[i];
        memset(ep->twait_w, 0, sizeof ep->twait_w);
        memset(ep->twait_r, 0, sizeof ep->twait_r);
    }
    in->timed = 1;
    for (int i = 0; i < in->nworkers; i++) {
        in->workers[i].tkernel = in->workers[i].tcalls = 0;
        in->workers[i].ksources = 0;
        iron__kcount_begin(&in->workers[i].kc, tm->core);
    }
    return IRON_OK;
}

/* --- the clocks --------------------------------------------------------
 * take, give and busy are inline in emu.h (the hot path of a timed run);
 * each task's lock cost and each mover's cycles per object are set here
 * at the start of a call. */

/* --- kernels ------------------------------------------------------------ */

_Thread_local emu_worker *iron__emu_timed_worker;

void iron__emu_time_kernel_begin(emu_worker *ew)
{
    iron__kcount_begin(&ew->kc, ew->task.lane->in->timing->core);
    iron__emu_timed_worker = ew;
}

/* Puts `cycles` of kernel time found from `source` (an iron__emu_ksrc)
 * on the worker's clock, its report and its trace track. */
static void charge(emu_worker *ew, uint64_t cycles, int source,
                   const char *what)
{
    if (source != IRON__EMU_KSRC_NONE)
        ew->ksources |= 1u << source;
    uint64_t t0 = ew->task.tnow;
    iron__emu_time_busy(&ew->task, cycles);
    ew->tkernel += cycles;
    if (ew->task.lane->in->trace)
        iron__emu_time_trace(ew->task.lane->in, &ew->task, what, t0,
                             ew->task.tnow);
}

int iron__emu_time_kernel_end(emu_worker *ew)
{
    iron__emu_timed_worker = NULL;
    int src;
    uint64_t cycles = iron__kcount_end(&ew->kc, &src);
    int source = src == IRON__KSRC_COUNTED  ? IRON__EMU_KSRC_COUNTED
                 : src == IRON__KSRC_BLOCKS ? IRON__EMU_KSRC_GUESS
                                            : IRON__EMU_KSRC_NONE;
    /* A standard loop's kernel with a declared cost: what the user
     * measured or knows wins over what the model counted. */
    if (!ew->is_core && ew->w->cycles) {
        int64_t c;
        if (iron__kexpr_eval(ew->w->cycles, ew->val, &c) != IRON_OK) {
            char tl[48];
            iron__emu_task_fail(&ew->task, IRON_EINVAL,
                                "worker '%s' on %s at iteration %llu: %s",
                                ew->w->name,
                                iron__tile_name(ew->w->tile, tl, sizeof tl),
                                (unsigned long long)ew->iterations,
                                iron_last_error());
            return -1;
        }
        cycles = (uint64_t)c;
        source = IRON__EMU_KSRC_DECLARED;
    }
    charge(ew, cycles, source, ew->w->kernel_entry);
    ew->tcalls += !ew->is_core;
    return 0;
}

void iron__emu_time_core_flush(emu_worker *ew)
{
    (void)iron__emu_time_kernel_end(ew);   /* a core body's never fails */
    iron__emu_time_kernel_begin(ew);
}

void iron__emu_time_core_call(emu_worker *ew, int end, int arg, int n,
                              const long long *vals)
{
    const emu_inst *in = ew->task.lane->in;
    const iron__kexpr *cost =
        end && arg >= 0 && arg < ew->nargs
            ? in->prog->wargs[ew - in->workers][arg].cycles
            : NULL;
    if (!cost) {
        /* A call begins, or one with no declared cost ends: the body's
         * time, or the kernel's counts, go on the clock as they are. */
        iron__emu_time_core_flush(ew);
        return;
    }
    iron_kernel_value kv[IRON__MAX_KARGS] = { { 0 } };
    for (int i = 0; vals && i < n && i < IRON__MAX_KARGS; i++)
        kv[i].i = vals[i];
    int64_t c;
    if (iron__kexpr_eval(cost, kv, &c) != IRON_OK) {
        char tl[48];
        iron__emu_kernel_stop("worker '%s' on %s: %s", ew->w->name,
                              iron__tile_name(ew->w->tile, tl, sizeof tl),
                              iron_last_error());
        return;
    }
    /* Declared: what the call counted is dropped. */
    iron__emu_time_kernel_begin(ew);
    charge(ew, (uint64_t)c, IRON__EMU_KSRC_DECLARED, "declared kernel");
}

/* --- DMA ------------------------------------------------------------------ */

void iron__emu_time_op_start(emu_mover *em, emu_op *op)
{
    emu_task *t = &em->task;
    /* Waiting for the sequence to issue the op is idle time: nothing in
     * the design holds the channel back. */
    if (op->t_issue > t->tnow)
        t->tnow = op->t_issue;
    iron__emu_time_busy(t, em->task_cycles);
}

uint64_t iron__emu_time_move(emu_mover *em, size_t bytes)
{
    emu_task *t = &em->task;
    uint64_t t0 = t->tnow;
    iron__emu_time_busy(t, bytes == em->tobj_bytes
                               ? em->tobj_cycles
                               : (uint64_t)ceil((double)bytes / em->rate));
    if (t->lane->in->trace)
        iron__emu_time_trace(t->lane->in, t, "transfer", t0, t->tnow);
    return t->tnow + em->latency;
}

/* --- the sequence ---------------------------------------------------------- */

void iron__emu_time_issue(emu_inst *in, emu_op *op)
{
    op->t_issue = in->timing->seq;
    op->t_done = 0;
}

uint64_t iron__emu_timing_seq(const emu_inst *in)
{
    return in->timing->seq;
}

/* After a phase: the sequence goes on once what it awaited is done. */
void iron__emu_time_awaited(emu_inst *in, int group)
{
    emu_timing *tm = in->timing;
    for (int i = 0; i < in->nmovers; i++) {
        const emu_mover *em = &in->movers[i];
        for (int k = 0; k < em->nops; k++) {
            const emu_op *op = &em->ops[k];
            if (op->op->wait && op->op->group == group && op->t_done > tm->seq)
                tm->seq = op->t_done;
        }
    }
}

/* --- the modelled trace ------------------------------------------------------ */

void iron__emu_time_trace(emu_inst *in, emu_task *t, const char *name,
                          uint64_t c0, uint64_t c1)
{
    emu_timing *tm = in->timing;
    if (!in->trace || !tm->wtrack)
        return;
    int track;
    if (t->is_worker)
        track = tm->wtrack[(emu_worker *)t - in->workers];
    else
        track = tm->dtrack[(emu_mover *)t - in->movers];
    double ns0 = iron__timing_ns(c0 - tm->origin, tm->clock_mhz);
    double ns1 = iron__timing_ns(c1 - tm->origin, tm->clock_mhz);
    t->lane->no_jump++;
    iron__trace_span(in->trace, track, name, tm->host_t0 + (uint64_t)ns0,
                     tm->host_t0 + (uint64_t)ns1, 0, NULL);
    t->lane->no_jump--;
}

void iron__emu_time_trace_tracks(emu_inst *in)
{
    emu_timing *tm = in->timing;
    if (!in->trace || !in->timed)
        return;
    tm->wtrack = iron__calloc((size_t)in->nworkers + 1, sizeof *tm->wtrack);
    tm->dtrack = iron__calloc((size_t)in->nmovers + 1, sizeof *tm->dtrack);
    if (!tm->wtrack || !tm->dtrack) {
        iron__free(tm->wtrack);
        iron__free(tm->dtrack);
        tm->wtrack = tm->dtrack = NULL;
        return;
    }
    char name[192], tn[48];
    for (int i = 0; i < in->nworkers; i++) {
        const emu_worker *ew = &in->workers[i];
        snprintf(name, sizeof name, "%s: worker '%s'",
                 iron__tile_name(ew->w->tile, tn, sizeof tn), ew->w->name);
        tm->wtrack[i] = iron__trace_track(in->trace, IRON__TRACE_MODEL, name);
    }
    for (int i = 0; i < in->nmovers; i++) {
        snprintf(name, sizeof name, "DMA %s", in->movers[i].m->label);
        tm->dtrack[i] = iron__trace_track(in->trace, IRON__TRACE_MODEL, name);
    }
}

/* --- the end of a call ------------------------------------------------------- */

/* Counts a task's cycles in the call's span; a task whose clock ran past
 * the end (it never waits: a worker that loops forever) is cut there,
 * its time past the end taken from busy first. */
static void clip(iron_time_counters *c, const emu_task *t, uint64_t span,
                 uint64_t past)
{
    uint64_t busy = t->tbusy, in = t->tstall_in, out = t->tstall_out;
    uint64_t cut = IRON__MIN(past, busy);
    busy -= cut;
    past -= cut;
    cut = IRON__MIN(past, in);
    in -= cut;
    past -= cut;
    out -= IRON__MIN(past, out);
    c->busy = IRON__MIN(busy, span);
    c->stall_in = IRON__MIN(in, span - c->busy);
    c->stall_out = IRON__MIN(out, span - c->busy - c->stall_in);
    c->idle = span - c->busy - c->stall_in - c->stall_out;
}

static void summarize(emu_inst *in, uint64_t span)
{
    emu_timing *tm = in->timing;
    int n = in->ntasks;
    iron__timing_row *rows = iron__calloc((size_t)n + 1, sizeof *rows);
    char (*names)[160] = iron__calloc((size_t)n + 1, sizeof *names);
    iron__str *s = &tm->summary;
    iron__str_free(s);
    tm->bottleneck[0] = '\0';
    if (!rows || !names) {
        iron__free(rows);
        iron__free(names);
        return;
    }
    char tn[48];
    for (int i = 0; i < n; i++) {
        iron__timing_row *r = &rows[i];
        const iron_time_counters *c;
        if (i < in->nworkers) {
            const emu_worker *ew = &in->workers[i];
            c = &tm->w[i];
            r->kind = "worker";
            snprintf(names[i], sizeof names[i], "'%s' %s", ew->w->name,
                     iron__tile_name(ew->w->tile, tn, sizeof tn));
            r->kernel_source = c->kernel_time;
            /* The handle that held it back most, and whether its inputs
             * ever ran dry. */
            for (int a = 0; a < ew->nargs; a++) {
                const emu_hstate *h = &ew->h[a];
                if (!h->pool)
                    continue;
                uint64_t w = h->writer ? h->pool->twait_w[h->slot]
                                       : h->pool->twait_r[h->slot];
                if (!r->worst_fifo || w > r->worst_cycles) {
                    r->worst_fifo = in->prog->fifos[h->pool->def->fifo].name;
                    r->worst_is_input = !h->writer;
                    r->worst_cycles = w;
                }
            }
        } else {
            const emu_mover *em = &in->movers[i - in->nworkers];
            c = &tm->d[i - in->nworkers];
            r->kind = "DMA";
            snprintf(names[i], sizeof names[i], "%s", em->m->label);
        }
        r->name = names[i];
        r->busy = c->busy;
        r->stall_in = c->stall_in;
        r->stall_out = c->stall_out;
    }
    iron__timing_bottleneck(rows, n, span, tm->bottleneck,
                            sizeof tm->bottleneck);
    double us = iron__timing_ns(span, tm->clock_mhz) / 1000.0;
    iron__str_printf(s, "modelled NPU time: %llu cycles = %.3f us at %g MHz "
                     "(%s)\n",
                     (unsigned long long)span, us, tm->clock_mhz,
                     tm->rates->chips);
    if (tm->unbounded)
        iron__str_printf(s, "  (a worker still runs when the sequence "
                            "completes: its time is counted to that point)\n");
    iron__str_printf(s, "bottleneck: %s\n", tm->bottleneck);
    iron__str_printf(s, "  %-48s %6s %6s %6s %6s  %s\n", "", "busy",
                     "in", "out", "idle", "kernel time");
    for (int i = 0; i < n; i++) {
        const iron__timing_row *r = &rows[i];
        const iron_time_counters *c = i < in->nworkers
                                          ? &tm->w[i]
                                          : &tm->d[i - in->nworkers];
        char who[200];
        snprintf(who, sizeof who, "%s %s", r->kind, r->name);
        iron__str_printf(s, "  %-48.48s %5d%% %5d%% %5d%% %5d%%  %s\n", who,
                         iron__timing_percent(c->busy, span),
                         iron__timing_percent(c->stall_in, span),
                         iron__timing_percent(c->stall_out, span),
                         iron__timing_percent(c->idle, span),
                         r->kernel_source ? r->kernel_source : "");
    }
    int guesses = 0;
    for (int i = 0; i < in->nworkers; i++)
        guesses += !in->workers[i].ksources ||
                   (in->workers[i].ksources & 1u << IRON__EMU_KSRC_GUESS);
    if (guesses)
        iron__str_printf(s, "  kernel time 'guess': scalar code at a default "
                            "cost per basic block; 'none': nothing counted "
                            "(declare it with iron_kernel_set_cycles)\n");
    iron__free(rows);
    iron__free(names);
}

/* Whether a worker could still move when every op of the call is done:
 * then it never stops (in a bounded design each worker waits for input
 * by then).  Its state alone does not say: a release may have woken a
 * worker that would block again at once. */
static int could_run(const emu_inst *in, const emu_worker *ew)
{
    const emu_task *t = &ew->task;
    int state = __atomic_load_n(&t->state, __ATOMIC_RELAXED);
    if (state == EMU_DONE)
        return 0;
    if (!ew->is_core) {
        for (int a = 0; a < ew->nargs; a++) {
            const emu_hstate *h = &ew->h[a];
            if (h->pool && iron__pool_avail(h->pool, h->writer, h->slot) < 1)
                return 0;
        }
        return 1;
    }
    if (t->wait_barrier)
        return t->wait_barrier->value == t->wait_value;
    if (t->wait_pool)
        return iron__pool_held(t->wait_pool, t->wait_writer, t->wait_slot) +
                   iron__pool_avail(t->wait_pool, t->wait_writer,
                                    t->wait_slot) >=
               t->wait_count;
    (void)in;
    return state != EMU_BLOCKED;
}

void iron__emu_timing_end(emu_inst *in, iron_status s)
{
    emu_timing *tm = in->timing;
    if (!in->timed)
        return;
    uint64_t end = tm->seq;
    for (int i = 0; i < in->nmovers; i++) {
        const emu_mover *em = &in->movers[i];
        for (int k = 0; k < em->nops; k++)
            end = IRON__MAX(end, em->ops[k].t_done);
    }
    uint64_t span = end - tm->origin;
    for (int i = 0; i < in->ntasks; i++) {
        const emu_task *t = task_at(in, i);
        uint64_t past = t->tnow > end ? t->tnow - end : 0;
        if (t->is_worker && s == IRON_OK &&
            could_run(in, (const emu_worker *)t))
            tm->unbounded = 1;
        iron_time_counters *c = i < in->nworkers ? &tm->w[i]
                                                 : &tm->d[i - in->nworkers];
        clip(c, t, span, past);
        if (i < in->nworkers) {
            const emu_worker *ew = &in->workers[i];
            c->kernel_time = ksources_name(ew->ksources);
            c->kernel = IRON__MIN(ew->tkernel, c->busy);
            c->calls = ew->tcalls;
        }
    }
    int k = 0;
    for (int i = 0; i < in->prog->npools; i++) {
        const emu_pool *ep = &in->pools[i];
        for (int w = 0; w < ep->nw; w++, k++)
            tm->e[k].stall_out = IRON__MIN(ep->twait_w[w], span);
        for (int r = 0; r < ep->nr; r++, k++)
            tm->e[k].stall_in = IRON__MIN(ep->twait_r[r], span);
    }
    tm->end = end;
    summarize(in, span);
}

void iron__emu_timing_publish(const emu_inst *in, iron_run_counters *pub)
{
    const emu_timing *tm = in->timing;
    pub->timed = in->timed;
    if (!in->timed) {
        pub->cycles = 0;
        pub->clock_mhz = pub->seconds = 0;
        pub->unbounded = 0;
        pub->worker_time = pub->dma_time = pub->endpoint_time = NULL;
        pub->bottleneck = pub->summary = NULL;
        return;
    }
    pub->cycles = tm->end - tm->origin;
    pub->clock_mhz = tm->clock_mhz;
    pub->seconds = iron__timing_ns(pub->cycles, tm->clock_mhz) * 1e-9;
    pub->unbounded = tm->unbounded;
    pub->worker_time = tm->w;
    pub->dma_time = tm->d;
    pub->endpoint_time = tm->e;
    pub->bottleneck = tm->bottleneck;
    pub->summary = tm->summary.p ? tm->summary.p : "";
}
