/*
 * dma.c - DMA movers: each moves one FIFO's objects, from the host (the
 * runtime's fills, walked in access-pattern order) or a producer pool,
 * into consumer pools (every consumer gets every object: broadcast) or the
 * host (the runtime's drains).  An object moves only when the source has a
 * filled buffer and every destination a free one, as a DMA waits on locks.
 */
#include <string.h>

#include "emu/emu.h"

/* Copies elements [start, start + n) of the pattern's visiting order
 * between the tensor and a contiguous buffer.  Runs along the innermost
 * dimension are copied with memcpy when its stride is 1. */
void iron__tap_copy(uint8_t *tensor, size_t esz, const iron_tap *tap,
                    int64_t start, int64_t n, uint8_t *buf, int to_tensor)
{
    int nd = tap->ndim;
    if (nd == 1 && tap->strides[0] == 1) {
        /* The common linear pattern: one contiguous run. */
        uint8_t *t = tensor + (size_t)(tap->offset + start) * esz;
        if (to_tensor)
            memcpy(t, buf, (size_t)n * esz);
        else
            memcpy(buf, t, (size_t)n * esz);
        return;
    }
    int64_t idx[IRON_TAP_MAX_DIMS];
    int64_t rem = start;
    for (int k = nd - 1; k >= 0; k--) {
        idx[k] = rem % tap->sizes[k];
        rem /= tap->sizes[k];
    }
    const int64_t inner = tap->sizes[nd - 1], istride = tap->strides[nd - 1];
    while (n > 0) {
        int64_t off = tap->offset;
        for (int k = 0; k < nd; k++)
            off += idx[k] * tap->strides[k];
        int64_t run = inner - idx[nd - 1];
        if (run > n)
            run = n;
        uint8_t *t = tensor + (size_t)off * esz;
        if (istride == 1) {
            if (to_tensor)
                memcpy(t, buf, (size_t)run * esz);
            else
                memcpy(buf, t, (size_t)run * esz);
        } else {
            size_t step = (size_t)istride * esz;
            for (int64_t i = 0; i < run; i++) {
                if (to_tensor)
                    memcpy(t + (size_t)i * step, buf + (size_t)i * esz, esz);
                else
                    memcpy(buf + (size_t)i * esz, t + (size_t)i * step, esz);
            }
        }
        buf += (size_t)run * esz;
        n -= run;
        idx[nd - 1] += run;
        for (int k = nd - 1; k > 0 && idx[k] == tap->sizes[k]; k--) {
            idx[k] = 0;
            idx[k - 1]++;
        }
    }
}

static void op_progress(emu_mover *em, int64_t n)
{
    emu_op *op = &em->ops[em->head];
    op->done += n;
    if (op->done < op->total)
        return;
    em->head++;
    em->task.lane->ops_left--;
    if (op->op->wait)
        em->task.lane->awaited_left--;
}

static void mover_step(emu_inst *in, emu_task *t)
{
    (void)in;
    emu_mover *em = (emu_mover *)t;
    const size_t obj = em->fifo->obj_bytes;
    const int64_t numel = em->fifo->obj_numel;
    const size_t esz = iron_dtype_size(em->fifo->dtype);
    for (;;) {
        int have_op = em->head < em->nops;
        if (!em->src && !have_op) {
            iron__emu_block(t, NULL, 0);
            return;
        }
        if (em->src && em->src->filled == 0) {
            iron__emu_block(t, em->src, 0);
            return;
        }
        if (em->ndst == 0 && !have_op) {
            iron__emu_block(t, NULL, 1);
            return;
        }
        for (int k = 0; k < em->ndst; k++)
            if (em->dst[k]->free == 0) {
                iron__emu_block(t, em->dst[k], 1);
                return;
            }
        if (!em->src) {
            emu_op *op = &em->ops[em->head];
            uint8_t *first = em->dst[0]->buf[em->dst[0]->wi];
            iron__tap_copy(op->tensor, esz, &op->op->tap, op->done, numel,
                           first, 0);
            for (int k = 1; k < em->ndst; k++)
                memcpy(em->dst[k]->buf[em->dst[k]->wi], first, obj);
            op_progress(em, numel);
        } else if (em->ndst == 0) {
            emu_op *op = &em->ops[em->head];
            iron__tap_copy(op->tensor, esz, &op->op->tap, op->done, numel,
                           em->src->buf[em->src->ri], 1);
            op_progress(em, numel);
        } else {
            for (int k = 0; k < em->ndst; k++)
                memcpy(em->dst[k]->buf[em->dst[k]->wi],
                       em->src->buf[em->src->ri], obj);
        }
        if (em->src) {
            emu_pool *p = em->src;
            p->ri = p->ri + 1 == p->depth ? 0 : p->ri + 1;
            p->filled--;
            p->free++;
            iron__emu_wake(p->writer);
        }
        for (int k = 0; k < em->ndst; k++) {
            emu_pool *p = em->dst[k];
            p->wi = p->wi + 1 == p->depth ? 0 : p->wi + 1;
            p->free--;
            p->filled++;
            iron__emu_wake(p->reader);
        }
        em->objects++;
    }
}

void iron__emu_mover_init(emu_inst *in, emu_mover *em, const iron__mover *m)
{
    em->task.step = mover_step;
    em->task.state = EMU_BLOCKED;
    em->m = m;
    em->fifo = in->prog->d->fifos.v[m->fifo];
    em->src = m->src_pool >= 0 ? &in->pools[m->src_pool] : NULL;
    if (em->src)
        em->src->reader = &em->task;
    em->ndst = m->ndst;
    for (int k = 0; k < m->ndst; k++) {
        em->dst[k] = &in->pools[m->dst_pool[k]];
        em->dst[k]->writer = &em->task;
    }
    em->nops = em->head = 0;
    em->objects = 0;
}

iron_status iron__emu_mover_push(emu_mover *em, const iron__rt_op *op,
                                 uint8_t *tensor)
{
    if (em->nops == em->cap) {
        int cap = em->cap ? em->cap * 2 : 4;
        emu_op *v = iron__realloc(em->ops, (size_t)cap * sizeof *v);
        if (!v)
            return iron__fail(IRON_ENOMEM, "out of memory queueing a DMA op");
        em->ops = v;
        em->cap = cap;
    }
    emu_op *o = &em->ops[em->nops++];
    o->op = op;
    o->tensor = tensor;
    o->total = iron_tap_count(&op->tap);
    o->done = 0;
    return IRON_OK;
}
