/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_seq.c - the runtime sequence, one block argument per tensor in
 * argument order, the ops in the design's order:
 *
 *   era 2025 (upstream IRON's Runtime.resolve): each fill and drain is a
 *     DMA task -- aiex.dma_configure_task_for @fifo { aie.dma_bd ... }
 *     then aiex.dma_start_task -- whose end is deferred to its task group:
 *     awaited (issue_token) drains are awaited and every other task freed
 *     when the group finishes, awaits first (upstream's finish_task_group);
 *     tasks outside groups belong to the default group, finished at the
 *     end.  The access pattern is written as the four dimensions the
 *     shim check read it as (design/layout.h: right-aligned, size 1 and
 *     stride 0 in front, a repeat outermost); an outermost size above 1
 *     becomes the task's repeat_count and len counts the inner three.
 *   era 2024: each fill and drain is an aiex.npu.dma_memcpy_nd with a
 *     buffer descriptor id of its shim tile (ids are free again once the
 *     task's group has finished), and a group's finish is one
 *     aiex.npu.dma_wait per awaited drain; an awaited drain outside every
 *     group is waited for right after it (as hand-written 2024 sequences
 *     do, and as the placer counts descriptors).
 *
 * Run-time parameters are aiex.npu.rtp_write on each worker's buffer,
 * barriers aiex.set_lock on each worker's lock, in both eras.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "design/layout.h"
#include "mlir/export.h"

#define MAX_COLS 64

/* A DMA task waiting for its group's finish. */
typedef struct pending {
    int group;
    int wait;
    int task;                 /* era 2025: its SSA number */
    const char *sym;          /* era 2024: the fifo awaited */
    int col, bd;              /* era 2024: the descriptor it holds */
    int done;
} pending;

typedef struct seq {
    const iron__mlx_plan *pl;
    iron__str *s;
    pending *v;
    int n;
    int ntasks;
    unsigned bds[MAX_COLS];   /* era 2024: ids in use per shim column */
} seq;

/* The pattern as four (size, stride) pairs, outermost first: the reading
 * the shim check judged (design/layout.h). */
static void pad4(const iron_tap *t, int64_t sizes[4], int64_t strides[4])
{
    iron__tap_shim_dims(t, sizes, strides);
}

static void arg_type(const seq *q, int arg, iron__str *s)
{
    const iron__argsig *a = &q->pl->d->args[arg];
    iron__mlx_memref(s, a->dtype, &a->shape);
}

static iron_status task_2025(seq *q, const iron__rt_op *op)
{
    iron__str *s = q->s;
    int64_t sz[4], st[4];
    pad4(&op->tap, sz, st);
    int64_t len = sz[1] * sz[2] * sz[3];
    int64_t repeat = sz[0] > 1 ? sz[0] - 1 : 0;
    int t = q->ntasks++;
    iron__str_printf(s, "      %%%d = aiex.dma_configure_task_for @%s {\n",
                     t, q->pl->fifo_sym[op->h->fifo->index]);
    iron__str_printf(s, "        aie.dma_bd(%%arg%d : ", op->arg);
    arg_type(q, op->arg, s);
    iron__str_printf(s, ", %lld, %lld, [", (long long)op->tap.offset,
                     (long long)len);
    for (int i = 0; i < 4; i++)
        iron__str_printf(s, "%s<size = %lld, stride = %lld>", i ? ", " : "",
                         (long long)sz[i], (long long)st[i]);
    iron__str_append(s, "]) {burst_length = 0 : i32}\n"
                        "        aie.end\n      }");
    int wait = op->kind == IRON__RT_DRAIN && op->wait;
    if (wait && repeat)
        iron__str_printf(s, " {issue_token = true, repeat_count = %lld : "
                            "i32}",
                         (long long)repeat);
    else if (wait)
        iron__str_append(s, " {issue_token = true}");
    else if (repeat)
        iron__str_printf(s, " {repeat_count = %lld : i32}",
                         (long long)repeat);
    iron__str_printf(s, "\n      aiex.dma_start_task(%%%d)\n", t);
    q->v[q->n++] = (pending){ op->group, wait, t, NULL, 0, 0, 0 };
    return IRON_OK;
}

static void finish(seq *q, int group);

static iron_status task_2024(seq *q, int i, const iron__rt_op *op)
{
    iron__str *s = q->s;
    const iron__prog_op *po = &q->pl->p->ops[i];
    int col = po->shim_col >= 0 && po->shim_col < MAX_COLS ? po->shim_col : 0;
    int nbd = q->pl->p->dev.shim.buffer_descriptors;
    if (nbd <= 0 || nbd > 32)
        nbd = 16;
    int bd = 0;
    while (bd < nbd && (q->bds[col] >> bd & 1u))
        bd++;
    const char *sym = q->pl->fifo_sym[op->h->fifo->index];
    if (bd == nbd)
        return iron__fail(
            IRON_ENOTSUP,
            "MLIR export (era 2024): runtime sequence op %d (%s of fifo "
            "'%s') would be the %dth transfer in flight on shim (%d,0), "
            "which has %d buffer descriptor ids; finish a task group "
            "before it, or export era 2025",
            i, op->kind == IRON__RT_FILL ? "fill" : "drain",
            op->h->fifo->name, nbd + 1, col, nbd);
    q->bds[col] |= 1u << bd;
    int64_t sz[4], st[4];
    pad4(&op->tap, sz, st);
    iron__str_printf(s, "      aiex.npu.dma_memcpy_nd(%%arg%d[0, 0, 0, %lld]",
                     op->arg, (long long)op->tap.offset);
    iron__str_printf(s, "[%lld, %lld, %lld, %lld]", (long long)sz[0],
                     (long long)sz[1], (long long)sz[2], (long long)sz[3]);
    iron__str_printf(s, "[%lld, %lld, %lld, %lld])", (long long)st[0],
                     (long long)st[1], (long long)st[2], (long long)st[3]);
    int wait = op->kind == IRON__RT_DRAIN && op->wait;
    iron__str_printf(s, " {id = %d : i64, %smetadata = @%s} : ", bd,
                     wait ? "issue_token = true, " : "", sym);
    arg_type(q, op->arg, s);
    iron__str_append(s, "\n");
    q->v[q->n++] = (pending){ op->group, wait, 0, sym, col, bd, 0 };
    /* Outside every group an awaited drain is waited for where it stands
     * (as the placer counts descriptors: that frees the ones issued
     * outside groups so far). */
    if (wait && op->group == 0)
        finish(q, 0);
    return IRON_OK;
}

/* Upstream's finish_task_group: the awaits, then the frees, each in the
 * order the tasks were issued. */
static void finish(seq *q, int group)
{
    iron__str *s = q->s;
    int modern = q->pl->era >= IRON__MLIR_ERA_2025;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < q->n; i++) {
            pending *t = &q->v[i];
            if (t->done || t->group != group || t->wait != (pass == 0))
                continue;
            if (modern)
                iron__str_printf(s, "      aiex.dma_%s_task(%%%d)\n",
                                 t->wait ? "await" : "free", t->task);
            else if (t->wait)
                iron__str_printf(s, "      aiex.npu.dma_wait {symbol = @%s}\n",
                                 t->sym);
        }
    for (int i = 0; i < q->n; i++) {
        pending *t = &q->v[i];
        if (t->done || t->group != group)
            continue;
        t->done = 1;
        if (!modern)
            q->bds[t->col] &= ~(1u << t->bd);
    }
}

static void set_rtp(seq *q, const iron__rt_op *op)
{
    const iron__mlx_plan *pl = q->pl;
    long long v;
    if (op->rtp->dtype == IRON_FLOAT32) {
        float f = (float)op->value;
        int32_t bits;
        memcpy(&bits, &f, sizeof bits);
        v = bits;
    } else {
        v = (long long)op->value;
        if (op->rtp->dtype == IRON_UINT32)
            v = (int32_t)(uint32_t)v;
    }
    for (int b = 0; b < pl->nbufs; b++)
        if (pl->bufs[b].obj == op->rtp->index)
            iron__str_printf(q->s,
                             "      aiex.npu.rtp_write(@%s, %lld, %lld)\n",
                             pl->bufs[b].sym, (long long)op->index, v);
}

static void set_barrier(seq *q, const iron__rt_op *op)
{
    const iron__mlx_plan *pl = q->pl;
    for (int l = 0; l < pl->nlocks; l++)
        if (pl->locks[l].obj == op->barrier->index)
            iron__str_printf(q->s, "      aiex.set_lock(%s, %d)\n",
                             pl->locks[l].ssa, (int)op->value);
}

iron_status iron__mlx_print_sequence(const iron__mlx_plan *plan,
                                     iron__str *out)
{
    const iron_design *d = plan->d;
    seq q = { plan, out, iron__calloc((size_t)d->ops.n + 1, sizeof *q.v), 0,
              0, { 0 } };
    if (!q.v)
        return iron__fail(IRON_ENOMEM, "MLIR export: out of memory");
    int modern = plan->era >= IRON__MLIR_ERA_2025;
    iron__str_printf(out, "    %s.runtime_sequence(",
                     modern ? "aie" : "aiex");
    for (int a = 0; a < d->nargs; a++) {
        iron__str_printf(out, "%s%%arg%d: ", a ? ", " : "", a);
        arg_type(&q, a, out);
    }
    iron__str_append(out, ") {\n");
    iron_status st = IRON_OK;
    for (int i = 0; i < d->ops.n && st == IRON_OK; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        switch (op->kind) {
        case IRON__RT_FILL:
        case IRON__RT_DRAIN:
            st = modern ? task_2025(&q, op) : task_2024(&q, i, op);
            break;
        case IRON__RT_SET_RTP:
            set_rtp(&q, op);
            break;
        case IRON__RT_SET_BARRIER:
            set_barrier(&q, op);
            break;
        case IRON__RT_GROUP_START:
            break;
        case IRON__RT_GROUP_FINISH:
            finish(&q, op->group);
            break;
        }
    }
    if (st == IRON_OK) {
        /* The default group; then any group left open (verification
         * refuses those, so this is only for safety). */
        finish(&q, 0);
        for (int i = 0; i < q.n; i++)
            if (!q.v[i].done)
                finish(&q, q.v[i].group);
        iron__str_append(out, "    }\n");
    }
    iron__free(q.v);
    return st;
}
