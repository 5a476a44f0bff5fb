/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_seq.c - the runtime sequence as ops of the tree (mlir/build.h),
 * one block argument per tensor in argument order, the ops in the
 * design's order:
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

typedef iron__mlir_op O;

/* A DMA task waiting for its group's finish. */
typedef struct pending {
    int group;
    int wait;
    int task;                 /* era 2025: its value */
    const char *sym;          /* era 2024: the fifo awaited */
    int col, bd;              /* era 2024: the descriptor it holds */
    int done;
} pending;

typedef struct seq {
    const iron__mlx_plan *pl;
    iron__mlir_b *b;
    O *op;                    /* the runtime sequence */
    int *args;                /* its block arguments */
    pending *v;
    int n;
    int ntasks;
    unsigned bds[MAX_COLS];   /* era 2024: ids in use per shim column */
} seq;

static iron__mlir_attr *num(seq *q, int64_t v, int width, int sign)
{
    return iron__mlir_b_int(q->b, IRON__MA_INT, v,
                            iron__mlir_b_scalar(q->b, IRON__MT_INT, width,
                                                sign));
}

static iron__mlir_attr *symref(seq *q, const char *s)
{
    return iron__mlir_b_text(q->b, IRON__MA_SYMREF, s);
}

static iron__mlir_attr *yes(seq *q)
{
    return iron__mlir_b_int(q->b, IRON__MA_BOOL, 1, NULL);
}

/* era 2025 */
static void task_2025(seq *q, const iron__rt_op *op)
{
    iron__mlir_b *b = q->b;
    int64_t sz[4], st[4];
    /* the four dimensions the shim check read the pattern as
     * (design/layout.h) */
    iron__tap_shim_dims(&op->tap, sz, st);
    int64_t repeat = sz[0] > 1 ? sz[0] - 1 : 0;
    char name[32];
    snprintf(name, sizeof name, "%%%d", q->ntasks++);
    O *t = iron__mlir_b_op(b, q->op, "aiex.dma_configure_task_for");
    iron__mlir_b_set(b, t, "tile",
                     symref(q, q->pl->fifo_sym[op->h->fifo->index]));
    iron__mlir_b_region(b, t, 1);
    O *bd = iron__mlir_b_op(b, t, "aie.dma_bd");
    iron__mlir_b_operand(b, bd, q->args[op->arg]);
    iron__mlir_b_set(b, bd, "offset", num(q, op->tap.offset, 32, 0));
    iron__mlir_b_set(b, bd, "len", num(q, sz[1] * sz[2] * sz[3], 32, 0));
    iron__mlir_attr *d = iron__mlir_b_list(b, IRON__MA_ARRAY, NULL);
    for (int i = 0; i < 4; i++)
        iron__mlir_b_item(b, d, NULL, iron__mlir_b_dim(b, sz[i], st[i]));
    iron__mlir_b_set(b, bd, "dimensions", d);
    iron__mlir_b_set(b, bd, "burst_length", num(q, 0, 32, 0));
    iron__mlir_b_op(b, t, "aie.end");
    int wait = op->kind == IRON__RT_DRAIN && op->wait;
    if (wait)
        iron__mlir_b_set(b, t, "issue_token", yes(q));
    if (repeat)
        iron__mlir_b_set(b, t, "repeat_count", num(q, repeat, 32, 0));
    int task = iron__mlir_b_result(
        b, t, iron__mlir_b_scalar(b, IRON__MT_INDEX, 0, 0), name);
    iron__mlir_b_operand(b, iron__mlir_b_op(b, q->op, "aiex.dma_start_task"),
                         task);
    q->v[q->n++] = (pending){ op->group, wait, task, NULL, 0, 0, 0 };
}

static void finish(seq *q, int group);

/* era 2024 */
static iron_status task_2024(seq *q, int i, const iron__rt_op *op)
{
    iron__mlir_b *b = q->b;
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
    int64_t v[3][4];
    iron__tap_shim_dims(&op->tap, v[1], v[2]);
    memset(v[0], 0, sizeof v[0]);
    v[0][3] = op->tap.offset;
    O *o = iron__mlir_b_op(b, q->op, "aiex.npu.dma_memcpy_nd");
    iron__mlir_b_operand(b, o, q->args[op->arg]);
    static const char *const names[] = { "static_offsets", "static_sizes",
                                         "static_strides" };
    for (int k = 0; k < 3; k++) {
        iron__mlir_attr *a = iron__mlir_b_list(
            b, IRON__MA_DENSE_ARRAY,
            iron__mlir_b_scalar(b, IRON__MT_INT, 64, 0));
        for (int j = 0; j < 4; j++)
            iron__mlir_b_item(b, a, NULL,
                              iron__mlir_b_int(b, IRON__MA_INT, v[k][j],
                                               NULL));
        iron__mlir_b_set(b, o, names[k], a);
    }
    int wait = op->kind == IRON__RT_DRAIN && op->wait;
    iron__mlir_b_set(b, o, "id", num(q, bd, 64, 0));
    if (wait)
        iron__mlir_b_set(b, o, "issue_token", yes(q));
    iron__mlir_b_set(b, o, "metadata", symref(q, sym));
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
    iron__mlir_b *b = q->b;
    int modern = q->pl->era >= IRON__MLIR_ERA_2025;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < q->n; i++) {
            pending *t = &q->v[i];
            if (t->done || t->group != group || t->wait != (pass == 0))
                continue;
            if (modern)
                iron__mlir_b_operand(
                    b,
                    iron__mlir_b_op(b, q->op, t->wait ? "aiex.dma_await_task"
                                                      : "aiex.dma_free_task"),
                    t->task);
            else if (t->wait)
                iron__mlir_b_set(b,
                                 iron__mlir_b_op(b, q->op, "aiex.npu.dma_wait"),
                                 "symbol", symref(q, t->sym));
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
    for (int b = 0; b < pl->nbufs; b++) {
        if (pl->bufs[b].obj != op->rtp->index)
            continue;
        O *o = iron__mlir_b_op(q->b, q->op, "aiex.npu.rtp_write");
        iron__mlir_b_set(q->b, o, "buffer_sym_name",
                         symref(q, pl->bufs[b].sym));
        iron__mlir_b_set(q->b, o, "index", num(q, op->index, 32, 2));
        iron__mlir_b_set(q->b, o, "value", num(q, v, 32, 0));
    }
}

static void set_barrier(seq *q, const iron__rt_op *op)
{
    const iron__mlx_plan *pl = q->pl;
    for (int l = 0; l < pl->nlocks; l++) {
        if (pl->locks[l].obj != op->barrier->index)
            continue;
        O *o = iron__mlir_b_op(q->b, q->op, "aiex.set_lock");
        iron__mlir_b_operand(q->b, o,
                             iron__mlx_named(q->b, pl->locks[l].ssa, NULL));
        iron__mlir_b_set(q->b, o, "value", num(q, (int)op->value, 32, 0));
    }
}

iron_status iron__mlx_sequence(const iron__mlx_plan *plan, iron__mlir_b *b,
                               iron__mlir_op *device)
{
    const iron_design *d = plan->d;
    int modern = plan->era >= IRON__MLIR_ERA_2025;
    seq q = { plan, b,
              /* era: the op moved from aiex to aie */
              iron__mlir_b_op(b, device, modern ? "aie.runtime_sequence"
                                                : "aiex.runtime_sequence"),
              iron__calloc((size_t)d->nargs + 1, sizeof *q.args),
              iron__calloc((size_t)d->ops.n + 1, sizeof *q.v), 0, 0, { 0 } };
    iron__mlir_block *blk = iron__mlir_b_region(b, q.op, 1);
    if (!q.args || !q.v)
        b->failed = 1;
    for (int a = 0; q.args && a < d->nargs; a++) {
        char name[32];
        snprintf(name, sizeof name, "%%arg%d", a);
        q.args[a] = iron__mlir_b_arg(
            b, blk, iron__mlx_memref(b, d->args[a].dtype, &d->args[a].shape),
            name);
    }
    iron_status st = IRON_OK;
    for (int i = 0; i < d->ops.n && q.args && q.v && st == IRON_OK; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        switch (op->kind) {
        case IRON__RT_FILL:
        case IRON__RT_DRAIN:
            if (modern)
                task_2025(&q, op);
            else
                st = task_2024(&q, i, op);
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
    /* The default group; then any group left open (verification refuses
     * those, so this is only for safety). */
    finish(&q, 0);
    for (int i = 0; i < q.n; i++)
        if (!q.v[i].done)
            finish(&q, q.v[i].group);
    iron__free(q.args);
    iron__free(q.v);
    return st;
}
