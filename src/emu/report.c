/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * report.c - says who waits on what when a run stalls or times out, the
 * diagnosis that hardware cannot give (it just hangs): one line per
 * waiting task, kept whole for iron_run_counters.report and cut to its
 * first lines for the call's message.
 */
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"

/* The pool as the waiting party sees it: a writer counts the buffers not
 * free to it, a reader the buffers filled for it. */
static void pool_state(const emu_pool *p, int writer, int slot, iron__str *s)
{
    char tn[48];
    iron__str_printf(s, "%s on %s (%d of %d buffer%s filled)", p->def->label,
                     iron__tile_name(p->def->tile, tn, sizeof tn),
                     writer ? p->depth - p->free[slot] : p->filled[slot],
                     p->depth, p->depth == 1 ? "" : "s");
}

static void task_wait(const emu_task *t, iron__str *s)
{
    if (t->state == EMU_DONE) {
        iron__str_append(s, " has returned from its core body");
    } else if (t->state != EMU_BLOCKED) {
        iron__str_append(s, " is runnable");
    } else if (t->wait_barrier) {
        iron__str_printf(s, " waits for barrier '%s' to hold %d (it holds %d)",
                         t->wait_barrier->name, t->wait_value,
                         t->wait_barrier->value);
    } else if (t->wait_pool) {
        iron__str_printf(s, " waits to acquire %d %s buffer%s of ",
                         t->wait_count, t->wait_writer ? "free" : "filled",
                         t->wait_count == 1 ? "" : "s");
        pool_state(t->wait_pool, t->wait_writer, t->wait_slot, s);
    } else {
        iron__str_append(s, " waits for runtime ops");
    }
}

static void report_tasks(const emu_inst *in, const emu_lane *lane,
                         iron__str *s)
{
    int any = 0;
    for (int i = 0; i < in->nworkers; i++) {
        const emu_worker *ew = &in->workers[i];
        if (lane && ew->task.lane != lane)
            continue;
        iron__str_printf(s, "%sworker '%s' on tile (%d,%d)",
                         any++ ? "\n" : "", ew->w->name, ew->w->tile.col,
                         ew->w->tile.row);
        if (!ew->is_core)
            iron__str_printf(s, " after %llu iteration%s",
                             (unsigned long long)ew->iterations,
                             ew->iterations == 1 ? "" : "s");
        task_wait(&ew->task, s);
    }
    for (int i = 0; i < in->nmovers; i++) {
        const emu_mover *em = &in->movers[i];
        if (lane && em->task.lane != lane)
            continue;
        int pending = em->head < em->nops;
        if (!pending && em->task.wait_pool == NULL)
            continue;  /* an idle host mover: nothing to say */
        iron__str_printf(s, "%sDMA %s", any++ ? "\n" : "", em->m->label);
        if (pending) {
            const emu_op *op = &em->ops[em->head];
            iron__str_printf(s, " (%s of argument %d '%s': %lld of %lld "
                                "elements moved)",
                             op->op->kind == IRON__OP_FILL ? "fill" : "drain",
                             op->op->arg, op->op->arg_name, (long long)op->done,
                             (long long)op->total);
        }
        task_wait(&em->task, s);
    }
}

void iron__emu_report(emu_inst *in, const emu_lane *lane, const char *what)
{
    iron__str *r = &in->report;
    iron__str_free(r);
    iron__str_printf(r, "%s:\n", what);
    report_tasks(in, lane, r);
}

/* The message leaves room for what the sequence (a diagnosis of at most
 * 1 KiB) and the jit (its signature, at most 512 bytes) put in front. */
#define REPORT_MSG_MAX (IRON__MSG_MAX - 1600)

iron_status iron__emu_report_fail(const emu_inst *in, iron_status s)
{
    const char *r = iron__str_get(&in->report);
    if (in->report.oom)
        return iron__fail(s, "the run stalled (deadlock or timeout); out of "
                             "memory for the report of who waits on what");
    int left = 0;
    size_t len = strlen(r);
    size_t keep = iron__lines_fit(r, len, REPORT_MSG_MAX - 160, &left);
    if (left == 0)
        return iron__fail(s, "%s", r);
    return iron__fail(s, "%.*s\n... and %d more line%s (the whole report: "
                         "the report field of iron_jit_get_counters, or "
                         "IRON_LOG=emu)",
                      (int)keep, r, left, left == 1 ? "" : "s");
}
