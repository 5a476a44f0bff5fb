/*
 * core.c - a worker core running the standard loop: acquire one object
 * from every handle, call the kernel with the object pointers and scalars,
 * release them all; repeat.  Like a core on hardware it never stops, so
 * its FIFO positions carry over from one call to the next.
 */
#include "emu/emu.h"

/* Each handle has one user, so nobody else can take a buffer between the
 * availability check and the acquire: checking all first is the same as
 * acquiring in order and waiting on the first that is empty. */
static void worker_step(emu_inst *in, emu_task *t)
{
    (void)in;
    emu_worker *ew = (emu_worker *)t;
    for (;;) {
        for (int a = 0; a < ew->nargs; a++) {
            emu_pool *p = ew->pool[a];
            if (!p)
                continue;
            if (ew->is_prod[a] ? p->free == 0 : p->filled == 0) {
                iron__emu_block(t, p, ew->is_prod[a]);
                return;
            }
        }
        for (int a = 0; a < ew->nargs; a++) {
            emu_pool *p = ew->pool[a];
            if (p)
                ew->val[a].p = ew->is_prod[a] ? p->buf[p->wi] : p->buf[p->ri];
        }
        ew->fn(ew->val);
        for (int a = 0; a < ew->nargs; a++) {
            emu_pool *p = ew->pool[a];
            if (!p)
                continue;
            if (ew->is_prod[a]) {
                p->wi = p->wi + 1 == p->depth ? 0 : p->wi + 1;
                p->free--;
                p->filled++;
                iron__emu_wake(p->reader);
            } else {
                p->ri = p->ri + 1 == p->depth ? 0 : p->ri + 1;
                p->filled--;
                p->free++;
                iron__emu_wake(p->writer);
            }
        }
        ew->iterations++;
    }
}

void iron__emu_worker_init(emu_inst *in, emu_worker *ew,
                           const iron_worker *w, int index)
{
    const iron_program *prog = in->prog;
    ew->task.step = worker_step;
    ew->task.state = EMU_BLOCKED;
    ew->w = w;
    ew->fn = prog->wfns[index];
    ew->nargs = w->nargs;
    ew->iterations = 0;
    for (int a = 0; a < w->nargs; a++) {
        const iron_arg *arg = &w->args[a];
        ew->pool[a] = NULL;
        ew->is_prod[a] = 0;
        switch (arg->kind) {
        case IRON_ARG_HANDLE: {
            emu_pool *p = &in->pools[prog->worker_pool[index][a]];
            ew->pool[a] = p;
            ew->is_prod[a] = arg->handle->is_prod;
            if (arg->handle->is_prod)
                p->writer = &ew->task;
            else
                p->reader = &ew->task;
            break;
        }
        case IRON_ARG_INT:
        case IRON_ARG_FLOAT: {
            /* Scalars reach the wrapper in the slot its declared type
             * reads: .f for float types (it rounds to bfloat16 itself),
             * .i for integers. */
            iron_dtype dt = w->kernel->args[a].dtype;
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
}
