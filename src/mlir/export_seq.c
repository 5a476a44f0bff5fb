/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_seq.c - the runtime sequence as ops of the tree (mlir/build.h),
 * one block argument per tensor in argument order, the ops in the
 * design's order:
 *
 *   each fill and drain is a DMA task (upstream IRON's Runtime.resolve)
 *     -- aiex.dma_configure_task_for @fifo { aie.dma_bd ... } then
 *     aiex.dma_start_task -- whose end is deferred to its task group:
 *     awaited (issue_token) drains are awaited and every other task freed
 *     when the group finishes, awaits first (upstream's finish_task_group);
 *     tasks outside groups belong to the default group, finished at the
 *     end.  The access pattern is written as the four dimensions the
 *     shim check read it as (design/layout.h: right-aligned, size 1 and
 *     stride 0 in front, a repeat outermost); an outermost size above 1
 *     becomes the task's repeat_count and len counts the inner three.
 *     Every export target reads this form.
 *
 * Run-time parameters are aiex.npu.rtp_write on each worker's buffer,
 * barriers aiex.set_lock on each worker's lock.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "design/layout.h"
#include "mlir/export.h"

typedef iron__mlir_op O;

/* A DMA task waiting for its group's finish. */
typedef struct pending {
    int group;
    int wait;
    int task;                 /* its value */
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
} seq;

static void transfer(seq *q, const iron__rt_op *op)
{
    iron__mlir_b *b = q->b;
    int64_t sz[4], st[4];
    iron__tap_shim_dims(&op->tap, sz, st);
    iron__mlir_attr *d = iron__mlir_b_attr(b, IRON__MA_ARRAY, 0, NULL);
    for (int i = 0; i < 4; i++)
        iron__mlir_b_item(b, d, NULL, iron__mlir_b_dim(b, sz[i], st[i]));
    int wait = op->kind == IRON__RT_DRAIN && op->wait;
    char name[32];
    snprintf(name, sizeof name, "%%%d", q->ntasks++);
    O *t = iron__mlir_b_op(
        b, q->op, "aiex.dma_configure_task_for",
        "tile:sym ?issue_token:bool ?repeat_count:i32 =",
        q->pl->fifo_sym[op->h->fifo->index], wait,
        (int64_t)(sz[0] > 1 ? sz[0] - 1 : 0),
        iron__mlir_b_scalar(b, "index"), name);
    iron__mlir_b_region(b, t, 1);
    iron__mlir_b_op(b, t, "aie.dma_bd",
                    "% offset:i32 len:i32 dimensions:attr burst_length:i32",
                    q->args[op->arg], op->tap.offset, sz[1] * sz[2] * sz[3],
                    d, (int64_t)0);
    iron__mlir_b_op(b, t, "aie.end", NULL);
    int task = t && t->nresults ? t->results[0] : -1;
    iron__mlir_b_op(b, q->op, "aiex.dma_start_task", "%", task);
    q->v[q->n++] = (pending){ op->group, wait, task, 0 };
}

/* Upstream's finish_task_group: the awaits, then the frees, each in the
 * order the tasks were issued. */
static void finish(seq *q, int group)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < q->n; i++) {
            pending *t = &q->v[i];
            if (t->done || t->group != group || t->wait != (pass == 0))
                continue;
            iron__mlir_b_op(q->b, q->op,
                            t->wait ? "aiex.dma_await_task"
                                    : "aiex.dma_free_task",
                            "%", t->task);
        }
    for (int i = 0; i < q->n; i++)
        if (q->v[i].group == group)
            q->v[i].done = 1;
}

/* aiex.npu.rtp_write on each worker's buffer: 32-bit words (a float's
 * bits). */
static void set_rtp(seq *q, const iron__rt_op *op)
{
    const iron__mlx_plan *pl = q->pl;
    int64_t v = (int64_t)op->value;
    if (op->rtp->dtype == IRON_FLOAT32) {
        float f = (float)op->value;
        int32_t bits;
        memcpy(&bits, &f, sizeof bits);
        v = bits;
    } else if (op->rtp->dtype == IRON_UINT32) {
        v = (int32_t)(uint32_t)v;
    }
    for (int b = 0; b < pl->nbufs; b++)
        if (pl->bufs[b].obj == op->rtp->index)
            iron__mlir_b_op(q->b, q->op, "aiex.npu.rtp_write",
                            "buffer_sym_name:sym index:ui32 value:i32",
                            pl->bufs[b].sym, (int64_t)op->index, v);
}

/* aiex.set_lock on each worker's lock. */
static void set_barrier(seq *q, const iron__rt_op *op)
{
    const iron__mlx_plan *pl = q->pl;
    for (int l = 0; l < pl->nlocks; l++)
        if (pl->locks[l].obj == op->barrier->index)
            iron__mlir_b_op(q->b, q->op, "aiex.set_lock", "% value:i32",
                            iron__mlx_named(q->b, pl->locks[l].ssa, NULL),
                            (int64_t)(int)op->value);
}

void iron__mlx_sequence(const iron__mlx_plan *plan, iron__mlir_b *b,
                        iron__mlir_op *device)
{
    const iron_design *d = plan->d;
    seq q = { plan, b, iron__mlir_b_op(b, device, "aie.runtime_sequence", NULL),
              iron__calloc((size_t)d->nargs + 1, sizeof *q.args),
              iron__calloc((size_t)d->ops.n + 1, sizeof *q.v), 0, 0 };
    iron__mlir_block *blk = iron__mlir_b_region(b, q.op, 1);
    b->failed |= !q.args || !q.v;
    for (int a = 0; !b->failed && a < d->nargs; a++) {
        char name[32];
        snprintf(name, sizeof name, "%%arg%d", a);
        q.args[a] = iron__mlir_b_arg(
            b, blk, iron__mlx_memref(b, d->args[a].dtype, &d->args[a].shape),
            name);
    }
    for (int i = 0; i < d->ops.n && !b->failed; i++) {
        const iron__rt_op *op = &d->ops.v[i];
        if (op->kind == IRON__RT_FILL || op->kind == IRON__RT_DRAIN) {
            transfer(&q, op);
        } else if (op->kind == IRON__RT_SET_RTP) {
            set_rtp(&q, op);
        } else if (op->kind == IRON__RT_SET_BARRIER) {
            set_barrier(&q, op);
        } else if (op->kind == IRON__RT_GROUP_FINISH) {
            finish(&q, op->group);
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
}
