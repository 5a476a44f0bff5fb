/*
 * report.c - says who waits on what when a run stalls or times out, the
 * diagnosis that hardware cannot give (it just hangs).
 */
#include <stdio.h>

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

void iron__emu_report(const emu_inst *in, const emu_lane *lane,
                      iron__str *s)
{
    int any = 0;
    for (int i = 0; i < in->nworkers; i++) {
        const emu_worker *ew = &in->workers[i];
        if (lane && ew->task.lane != lane)
            continue;
        iron__str_printf(s, "%sworker '%s' on tile (%d,%d)",
                         any++ ? "; " : "", ew->w->name, ew->w->tile.col,
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
        iron__str_printf(s, "%sDMA %s", any++ ? "; " : "", em->m->label);
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
