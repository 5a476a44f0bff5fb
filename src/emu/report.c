/*
 * report.c - says who waits on what when a run stalls or times out, the
 * diagnosis that hardware cannot give (it just hangs).
 */
#include <stdio.h>

#include "emu/emu.h"

static void pool_state(const emu_pool *p, iron__str *s)
{
    iron__str_printf(s, "%s on tile (%d,%d): %d of %d buffer%s filled",
                     p->def->label, p->def->tile.col, p->def->tile.row,
                     p->filled, p->depth, p->depth == 1 ? "" : "s");
}

void iron__emu_report(const emu_lane *lane, iron__str *s)
{
    const emu_inst *in = lane->in;
    const iron_design *d = in->prog->d;
    int any = 0;
    for (int i = 0; i < in->nworkers; i++) {
        const emu_worker *ew = &in->workers[i];
        const emu_task *t = &ew->task;
        if (t->lane != lane)
            continue;
        iron__str_printf(s, "%sworker '%s' on tile (%d,%d) after %llu "
                            "iteration%s ",
                         any++ ? "; " : "", ew->w->name, ew->w->tile.col,
                         ew->w->tile.row, (unsigned long long)ew->iterations,
                         ew->iterations == 1 ? "" : "s");
        if (t->state != EMU_BLOCKED || !t->wait_pool) {
            iron__str_append(s, "is runnable");
            continue;
        }
        iron__str_printf(s, "waits to acquire a %s buffer of ",
                         t->wait_prod ? "free" : "filled");
        pool_state(t->wait_pool, s);
    }
    for (int i = 0; i < in->nmovers; i++) {
        const emu_mover *em = &in->movers[i];
        if (em->task.lane != lane)
            continue;
        int pending = em->head < em->nops;
        if (!pending && em->task.wait_pool == NULL)
            continue;  /* an idle host mover: nothing to say */
        iron__str_printf(s, "%sDMA of fifo '%s'", any++ ? "; " : "",
                         em->fifo->name);
        if (pending) {
            const emu_op *op = &em->ops[em->head];
            const iron__argsig *a = &d->args[op->op->arg];
            iron__str_printf(s, " (%s of argument %d '%s': %lld of %lld "
                                "elements moved)",
                             op->op->kind == IRON__RT_FILL ? "fill" : "drain",
                             op->op->arg, a->name, (long long)op->done,
                             (long long)op->total);
        }
        if (em->task.wait_pool) {
            iron__str_printf(s, " waits for a %s buffer of ",
                             em->task.wait_prod ? "free" : "filled");
            pool_state(em->task.wait_pool, s);
        } else if (em->task.state == EMU_BLOCKED) {
            iron__str_append(s, " waits for runtime ops");
        }
    }
}
