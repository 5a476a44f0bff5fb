/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * counters.c - what a run did: per worker, per fifo endpoint and per DMA
 * channel counts (always kept: a few additions on paths that already
 * touch the same cache lines), times in profiled runs, the trace-event
 * timeline when a trace is asked for, the wait-for graph of a deadlock,
 * and the IRON_LOG=emu summary.
 *
 * Counts since load live in the tasks and pools; a run's counters are the
 * differences from a snapshot taken when it starts.
 */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "emu/emu.h"
#include "emu/trace.h"

typedef struct emu_counters {
    iron_run_counters pub;
    iron_worker_counters *w;
    iron_endpoint_counters *e;
    iron_dma_counters *d;
    int *e_pool, *e_slot;
    unsigned char *e_writer;
    emu_task **e_task;
    uint64_t *w_iter0, *e_rel0, *d_obj0, *w_kns0, *d_bns0;
    uint64_t (*w_hns0)[IRON__MAX_KARGS];
    uint64_t t0;
    char *trace_path;
    const char *label;     /* of the current run, for its trace */
} emu_counters;

iron_status iron__emu_counters_new(emu_inst *in)
{
    const iron_program *p = in->prog;
    int ne = 0;
    for (int i = 0; i < p->npools; i++)
        ne += p->pools[i].nwriters + p->pools[i].nreaders;
    size_t nw = (size_t)in->nworkers + 1, nd = (size_t)in->nmovers + 1,
           nep = (size_t)ne + 1;
    emu_counters *c = iron__calloc(1, sizeof *c);
    if (!c)
        return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    in->counters = c;
    c->w = iron__calloc(nw, sizeof *c->w);
    c->e = iron__calloc(nep, sizeof *c->e);
    c->d = iron__calloc(nd, sizeof *c->d);
    c->e_pool = iron__calloc(nep, sizeof *c->e_pool);
    c->e_slot = iron__calloc(nep, sizeof *c->e_slot);
    c->e_writer = iron__calloc(nep, sizeof *c->e_writer);
    c->e_task = iron__calloc(nep, sizeof *c->e_task);
    c->w_iter0 = iron__calloc(nw, sizeof *c->w_iter0);
    c->w_kns0 = iron__calloc(nw, sizeof *c->w_kns0);
    c->w_hns0 = iron__calloc(nw, sizeof *c->w_hns0);
    c->e_rel0 = iron__calloc(nep, sizeof *c->e_rel0);
    c->d_obj0 = iron__calloc(nd, sizeof *c->d_obj0);
    c->d_bns0 = iron__calloc(nd, sizeof *c->d_bns0);
    if (!c->w || !c->e || !c->d || !c->e_pool || !c->e_slot ||
        !c->e_writer || !c->e_task || !c->w_iter0 || !c->w_kns0 ||
        !c->w_hns0 || !c->e_rel0 || !c->d_obj0 || !c->d_bns0)
        return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    c->pub.size = sizeof c->pub;
    c->pub.nworkers = in->nworkers;
    c->pub.ndma = in->nmovers;
    c->pub.nendpoints = ne;
    c->pub.workers = c->w;
    c->pub.endpoints = c->e;
    c->pub.dma = c->d;
    int k = 0;
    for (int i = 0; i < p->npools; i++)
        for (int s = 0; s < p->pools[i].nwriters + p->pools[i].nreaders;
             s++, k++) {
            c->e_pool[k] = i;
            c->e_writer[k] = s < p->pools[i].nwriters;
            c->e_slot[k] = s < p->pools[i].nwriters
                               ? s
                               : s - p->pools[i].nwriters;
        }
    return IRON_OK;
}

void iron__emu_counters_free(emu_inst *in)
{
    emu_counters *c = in->counters;
    if (!c)
        return;
    iron__trace_free(in->trace);
    in->trace = NULL;
    iron__free(c->w);
    iron__free(c->e);
    iron__free(c->d);
    iron__free(c->e_pool);
    iron__free(c->e_slot);
    iron__free(c->e_writer);
    iron__free(c->e_task);
    iron__free(c->w_iter0);
    iron__free(c->w_kns0);
    iron__free(c->w_hns0);
    iron__free(c->e_rel0);
    iron__free(c->d_obj0);
    iron__free(c->d_bns0);
    iron__free(c->trace_path);
    iron__free(c);
    in->counters = NULL;
    iron__str_free(&in->report);
}

static uint64_t released(const emu_inst *in, const emu_counters *c, int k)
{
    const emu_pool *p = &in->pools[c->e_pool[k]];
    return c->e_writer[k] ? p->wrel[c->e_slot[k]] : p->rrel[c->e_slot[k]];
}

static void open_trace(emu_inst *in, const char *path)
{
    emu_counters *c = in->counters;
    if (iron__trace_new(&in->trace) != IRON_OK)
        return;
    iron__free(c->trace_path);
    c->trace_path = iron__strdup(path);
    char name[160], tn[48];
    for (int i = 0; i < in->nworkers; i++) {
        emu_worker *ew = &in->workers[i];
        snprintf(name, sizeof name, "%s: worker '%s'",
                 iron__tile_name(ew->w->tile, tn, sizeof tn), ew->w->name);
        ew->track = iron__trace_track(in->trace, IRON__TRACE_TILES, name);
    }
    for (int i = 0; i < in->nmovers; i++) {
        snprintf(name, sizeof name, "DMA %s", in->movers[i].m->label);
        in->movers[i].track =
            iron__trace_track(in->trace, IRON__TRACE_DMA, name);
    }
    in->seq_track = iron__trace_track(in->trace, IRON__TRACE_SEQUENCE,
                                      "runtime sequence");
}

void iron__emu_counters_begin(emu_inst *in, int profile,
                              const char *trace_path, const char *label)
{
    emu_counters *c = in->counters;
    c->label = label;
    const iron_program *p = in->prog;
    iron__trace_free(in->trace);
    in->trace = NULL;
    if (in->report.p || in->report.oom)
        iron__str_free(&in->report);
    in->profile = profile || trace_path;
    if (trace_path)
        open_trace(in, trace_path);
    c->t0 = iron__now_ns();
    for (int i = 0; i < in->nworkers; i++) {
        emu_worker *ew = &in->workers[i];
        iron__emu_worker_modes(ew, in);
        /* A worker blocked since the last call waits from now on. */
        if (in->profile && ew->task.state == EMU_BLOCKED)
            ew->blocked_since = c->t0;
        c->w_iter0[i] = ew->iterations;
        c->w_kns0[i] = ew->kernel_ns;
        memcpy(c->w_hns0[i], ew->hblocked_ns, sizeof c->w_hns0[i]);
    }
    for (int i = 0; i < in->nmovers; i++) {
        iron__emu_mover_modes(&in->movers[i], in);
        c->d_obj0[i] = in->movers[i].objects;
        c->d_bns0[i] = in->movers[i].busy_ns;
    }
    for (int i = 0; i < p->npools; i++) {
        emu_pool *ep = &in->pools[i];
        ep->peak = ep->nw ? ep->depth - ep->free[0] : 0;
    }
    for (int k = 0; k < c->pub.nendpoints; k++) {
        const emu_pool *ep = &in->pools[c->e_pool[k]];
        c->e_task[k] = c->e_writer[k] ? ep->writer[c->e_slot[k]]
                                      : ep->reader[c->e_slot[k]];
        c->e_rel0[k] = released(in, c, k);
    }
}

/* --- profiled events ---------------------------------------------------- */

void iron__emu_prof_blocked(emu_worker *ew, int arg)
{
    ew->blocked_since = iron__now_ns();
    ew->blocked_arg = arg;
}

void iron__emu_prof_unblocked(emu_inst *in, emu_worker *ew)
{
    if (!ew->blocked_since)
        return;
    uint64_t now = iron__now_ns();
    ew->hblocked_ns[ew->blocked_arg] += now - ew->blocked_since;
    if (in->trace) {
        const emu_hstate *h = &ew->h[ew->blocked_arg];
        iron__trace_arg args[2] = {
            { "fifo", h->label, 0 },
            { "count", NULL, ew->task.wait_count ? ew->task.wait_count : 1 },
        };
        ew->task.lane->no_jump++;
        iron__trace_span(in->trace, ew->track, "acquire wait",
                         ew->blocked_since, now, 2, args);
        ew->task.lane->no_jump--;
    }
    ew->blocked_since = 0;
}

void iron__emu_prof_kernel(emu_inst *in, emu_worker *ew, uint64_t t0,
                           uint64_t t1)
{
    ew->kernel_ns += t1 - t0;
    if (in->trace) {
        iron__trace_arg args[1] = {
            { "iteration", NULL, (int64_t)ew->iterations },
        };
        ew->task.lane->no_jump++;
        iron__trace_span(in->trace, ew->track, ew->w->kernel_entry, t0, t1,
                         1, args);
        ew->task.lane->no_jump--;
    }
}

void iron__emu_prof_release(emu_inst *in, emu_worker *ew,
                            const emu_hstate *h, int n)
{
    if (!in->trace)
        return;
    iron__trace_arg args[2] = { { "fifo", h->label, 0 },
                                { "count", NULL, n } };
    ew->task.lane->no_jump++;
    iron__trace_instant(in->trace, ew->track, "release", iron__now_ns(), 2,
                        args);
    ew->task.lane->no_jump--;
}

void iron__emu_prof_moved(emu_inst *in, emu_mover *em, uint64_t t0,
                          uint64_t t1, int64_t bytes)
{
    em->busy_ns += t1 - t0;
    if (!in->trace)
        return;
    iron__trace_arg args[3] = {
        { "fifo", em->fifo->name, 0 },
        { "object", NULL, (int64_t)em->objects },
        { "bytes", NULL, bytes },
    };
    em->task.lane->no_jump++;
    iron__trace_span(in->trace, em->track, "transfer", t0, t1, 3, args);
    em->task.lane->no_jump--;
}

void iron__emu_prof_seq(emu_inst *in, const char *name, const char *what,
                        uint64_t t0, uint64_t t1)
{
    if (!in->trace)
        return;
    iron__trace_arg args[1] = { { "op", what, 0 } };
    if (t1 > t0)
        iron__trace_span(in->trace, in->seq_track, name, t0, t1,
                         what ? 1 : 0, args);
    else
        iron__trace_instant(in->trace, in->seq_track, name, t0, what ? 1 : 0,
                            args);
}

/* --- the end of a run ------------------------------------------------------ */

static const char *task_name(const emu_task *t)
{
    if (!t)
        return "the runtime sequence";
    return t->is_worker ? ((const emu_worker *)t)->w->name
                        : ((const emu_mover *)t)->m->label;
}

/* The wait-for graph: each blocked task points at the tasks on the other
 * side of what it waits for. */
static void write_dot(const emu_inst *in, const char *path)
{
    int cap = 4 * (in->ntasks + 1) * IRON__MAX_CONS, n = 0;
    iron__dot_edge *e = iron__calloc((size_t)cap, sizeof *e);
    char (*labels)[160] = iron__calloc((size_t)cap, sizeof *labels);
    if (!e || !labels) {
        iron__free(e);
        iron__free(labels);
        return;
    }
    for (int i = 0; i < in->ntasks && n < cap; i++) {
        const emu_task *t = i < in->nworkers
                                ? &in->workers[i].task
                                : &in->movers[i - in->nworkers].task;
        if (t->state != EMU_BLOCKED)
            continue;
        const emu_pool *p = t->wait_pool;
        if (t->wait_barrier) {
            snprintf(labels[n], sizeof labels[n], "barrier '%s' == %d",
                     t->wait_barrier->name, t->wait_value);
            e[n] = (iron__dot_edge){ task_name(t), "the runtime sequence",
                                     labels[n] };
            n++;
            continue;
        }
        if (!p) {
            if (t->is_worker)
                continue;
            const emu_mover *em = (const emu_mover *)t;
            if (em->head >= em->nops)
                continue;  /* idle host DMA: waits for nothing this call */
            snprintf(labels[n], sizeof labels[n], "runtime op");
            e[n] = (iron__dot_edge){ task_name(t), "the runtime sequence",
                                     labels[n] };
            n++;
            continue;
        }
        int others = t->wait_writer ? p->nr : p->nw;
        for (int k = 0; k < others && n < cap; k++) {
            const emu_task *o = t->wait_writer ? p->reader[k] : p->writer[k];
            snprintf(labels[n], sizeof labels[n], "%d %s of %s",
                     t->wait_count, t->wait_writer ? "free" : "filled",
                     p->def->label);
            e[n] = (iron__dot_edge){ task_name(t), task_name(o), labels[n] };
            n++;
        }
    }
    if (iron__dot_write(path, "wait-for graph at the deadlock", n, e) !=
        IRON_OK)
        iron__warn("trace: %s", iron_last_error());
    iron__free(e);
    iron__free(labels);
}

static void fill(emu_inst *in)
{
    emu_counters *c = in->counters;
    const iron_program *p = in->prog;
    c->pub.profiled = in->profile;
    c->pub.wall_ns = iron__now_ns() - c->t0;
    c->pub.report = in->report.len && !in->report.oom
                        ? iron__str_get(&in->report)
                        : NULL;
    for (int i = 0; i < in->nworkers; i++) {
        const emu_worker *ew = &in->workers[i];
        iron_worker_counters *w = &c->w[i];
        w->worker = ew->w->name;
        w->col = ew->w->tile.col;
        w->row = ew->w->tile.row;
        w->iterations = ew->iterations - c->w_iter0[i];
        w->kernel_ns = ew->kernel_ns - c->w_kns0[i];
        w->blocked_ns = 0;
        for (int a = 0; a < IRON__MAX_KARGS; a++)
            w->blocked_ns += ew->hblocked_ns[a] - c->w_hns0[i][a];
    }
    for (int k = 0; k < c->pub.nendpoints; k++) {
        const emu_pool *ep = &in->pools[c->e_pool[k]];
        iron_endpoint_counters *e = &c->e[k];
        e->fifo = p->fifos[ep->def->fifo].name;
        e->endpoint = ep->def->label;
        e->by = task_name(c->e_task[k]);
        e->writes = c->e_writer[k];
        e->col = ep->def->tile.col;
        e->row = ep->def->tile.row;
        e->depth = ep->depth;
        e->objects = released(in, c, k) - c->e_rel0[k];
        e->bytes = e->objects * ep->def->obj_bytes;
        e->peak = ep->peak;
        e->blocked_ns = 0;
        const emu_task *t = c->e_task[k];
        if (t && t->is_worker) {
            const emu_worker *ew = (const emu_worker *)t;
            int wi = (int)(ew - in->workers);
            for (int a = 0; a < ew->nargs; a++)
                if (ew->h[a].pool == ep &&
                    ew->h[a].writer == c->e_writer[k] &&
                    ew->h[a].slot == c->e_slot[k])
                    e->blocked_ns += ew->hblocked_ns[a] - c->w_hns0[wi][a];
        }
    }
    for (int i = 0; i < in->nmovers; i++) {
        const emu_mover *em = &in->movers[i];
        iron_dma_counters *d = &c->d[i];
        d->channel = em->m->label;
        d->fifo = em->fifo->name;
        d->objects = em->objects - c->d_obj0[i];
        d->bytes = d->objects * em->fifo->obj_bytes;
        d->busy_ns = em->busy_ns - c->d_bns0[i];
    }
}

/* Logs text (may be NULL) line by line, each line after "tag: ". */
static void log_lines(const char *tag, const char *text)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        iron__log(IRON__LOG_EMU, "%s: %.*s", tag,
                  (int)(end ? end - line : (ptrdiff_t)strlen(line)), line);
        line = end ? end + 1 : NULL;
    }
}

static void log_summary(const emu_inst *in)
{
    const emu_counters *c = in->counters;
    const iron_run_counters *r = &c->pub;
    iron__log(IRON__LOG_EMU, "run: %.3f ms, %d worker%s, %d DMA channel%s%s",
              (double)r->wall_ns / 1e6, r->nworkers,
              r->nworkers == 1 ? "" : "s", r->ndma, r->ndma == 1 ? "" : "s",
              r->profiled ? "" : " (not profiled: no times)");
    for (int i = 0; i < r->nworkers; i++) {
        const iron_worker_counters *w = &r->workers[i];
        iron__log(IRON__LOG_EMU, "worker '%s' (%d,%d): %llu iteration%s, "
                  "%.3f ms in kernels, %.3f ms blocked",
                  w->worker, w->col, w->row,
                  (unsigned long long)w->iterations,
                  w->iterations == 1 ? "" : "s", (double)w->kernel_ns / 1e6,
                  (double)w->blocked_ns / 1e6);
    }
    for (int i = 0; i < r->nendpoints; i++) {
        const iron_endpoint_counters *e = &r->endpoints[i];
        iron__log(IRON__LOG_EMU, "%s on (%d,%d) used by %s: %llu object%s, "
                  "%llu bytes, peak %d of %d buffer%s, %.3f ms blocked",
                  e->endpoint, e->col, e->row, e->by,
                  (unsigned long long)e->objects, e->objects == 1 ? "" : "s",
                  (unsigned long long)e->bytes, e->peak, e->depth,
                  e->depth == 1 ? "" : "s", (double)e->blocked_ns / 1e6);
    }
    for (int i = 0; i < r->ndma; i++) {
        const iron_dma_counters *d = &r->dma[i];
        iron__log(IRON__LOG_EMU, "DMA %s: %llu object%s, %llu bytes, %.3f ms "
                  "copying",
                  d->channel, (unsigned long long)d->objects,
                  d->objects == 1 ? "" : "s", (unsigned long long)d->bytes,
                  (double)d->busy_ns / 1e6);
    }
    /* The timing model's summary, and a stall's report in full, whatever
     * the call's message kept. */
    log_lines("timing", r->timed ? r->summary : NULL);
    log_lines("stall", r->report);
}

void iron__emu_counters_end(emu_inst *in, iron_status s)
{
    emu_counters *c = in->counters;
    /* Waits still open at the end (a deadlock, say) count up to now. */
    if (in->profile)
        for (int i = 0; i < in->nworkers; i++)
            iron__emu_prof_unblocked(in, &in->workers[i]);
    fill(in);
    iron__emu_timing_publish(in, &c->pub);
    if (iron__log_on(IRON__LOG_EMU))
        log_summary(in);
    if (!in->trace || !c->trace_path)
        return;
    /* Writing may fail (a bad path): the call's own status stands, the
     * user is told by a warning. */
    iron_status keep = s;
    char msg[IRON__MSG_MAX];
    snprintf(msg, sizeof msg, "%s", s != IRON_OK ? iron_last_error() : "");
    if (iron__trace_append(in->trace, c->trace_path, c->label) != IRON_OK)
        iron__warn("trace: %s", iron_last_error());
    if (s == IRON_EDEADLOCK) {
        size_t n = strlen(c->trace_path) + 5;
        char *dot = iron__malloc(n);
        if (dot) {
            snprintf(dot, n, "%s.dot", c->trace_path);
            write_dot(in, dot);
            iron__free(dot);
        }
    }
    if (keep != IRON_OK)
        iron__fail(keep, "%s", msg);
}

int iron__emu_counters_endpoints(const emu_inst *in)
{
    return in->counters->pub.nendpoints;
}

const iron_run_counters *iron__emu_counters_get(const emu_inst *in)
{
    return in->counters ? &in->counters->pub : NULL;
}
