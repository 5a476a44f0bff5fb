/*
 * dma.c - DMA movers: each moves one FIFO's objects, from the host (the
 * runtime's fills, walked in access-pattern order) or a pool (a producer's,
 * or a piece of a memtile link's big object), into pools (every
 * destination gets every object: broadcast; a join input writes its piece)
 * or the host (the runtime's drains), applying the endpoints' layout
 * transforms.  An object moves only when the source has a filled buffer
 * and every destination a free one, as a DMA waits on locks.
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
    if (op->op->wait) {
        em->task.lane->awaited_left--;
        em->task.lane->group_awaited[op->op->group]--;
    }
}

/* Where one end's object data starts: the pool buffer at the end's
 * offset. */
static uint8_t *end_base(const emu_pool *p, const iron__end *e, int writer,
                         size_t esz, int piece, size_t obj_bytes)
{
    return iron__pool_buf(p, writer, e->slot, 0) + (size_t)e->offset * esz +
           (size_t)piece * obj_bytes;
}

/* Moves one object.  The source is read in stream order (its
 * dims_to_stream, or the host pattern) and every destination written from
 * the stream (its dims_from_stream, or the host pattern); without
 * transforms the stream is the source buffer itself. */
static void move_object(emu_mover *em, int64_t numel, size_t esz)
{
    const iron__mover *m = em->m;
    const size_t bytes = (size_t)numel * esz;
    uint8_t *stream;
    emu_op *op = em->head < em->nops ? &em->ops[em->head] : NULL;
    if (!em->src) {
        /* A fill: straight into the first in-order destination when there
         * is one, else through the stream buffer. */
        int direct = em->ndst > 0 && !m->dst[0].dims;
        stream = direct ? end_base(em->dst[0], &m->dst[0], 1, esz,
                                   em->dst_piece[0], bytes)
                        : em->stream;
        iron__tap_copy(op->tensor, op->esz, &op->tap, op->done, op->per_obj,
                       stream, 0);
        for (int k = direct; k < em->ndst; k++) {
            uint8_t *dst = end_base(em->dst[k], &m->dst[k], 1, esz,
                                    em->dst_piece[k], bytes);
            if (m->dst[k].dims)
                iron__tap_copy(dst, esz, m->dst[k].dims, 0, numel, stream, 1);
            else
                memcpy(dst, stream, bytes);
        }
        op_progress(em, op->per_obj);
        return;
    }
    uint8_t *src = end_base(em->src, &m->src, 0, esz, em->src_piece, bytes);
    stream = src;
    if (m->src.dims) {
        stream = em->stream;
        iron__tap_copy(src, esz, m->src.dims, 0, numel, stream, 0);
    }
    if (em->ndst == 0) {
        iron__tap_copy(op->tensor, op->esz, &op->tap, op->done, op->per_obj,
                       stream, 1);
        op_progress(em, op->per_obj);
        return;
    }
    for (int k = 0; k < em->ndst; k++) {
        uint8_t *dst = end_base(em->dst[k], &m->dst[k], 1, esz,
                                em->dst_piece[k], bytes);
        if (m->dst[k].dims)
            iron__tap_copy(dst, esz, m->dst[k].dims, 0, numel, stream, 1);
        else
            memcpy(dst, stream, bytes);
    }
}

/* `prof` is a constant in each caller (see loop_run in core.c). */
static inline void mover_run(emu_inst *in, emu_task *t, const int prof)
{
    emu_mover *em = (emu_mover *)t;
    const iron__mover *m = em->m;
    const int64_t numel = em->fifo->obj_numel;
    const size_t esz = iron_dtype_size(em->fifo->dtype);
    for (;;) {
        int have_op = em->head < em->nops;
        if ((!em->src || em->ndst == 0) && !have_op) {
            iron__emu_block(t, NULL, em->ndst == 0, 0, 0);
            return;
        }
        /* A buffer moved in pieces (a forward that changes the object
         * size) is taken at its first piece and released after its last. */
        if (em->src && em->src_piece == 0 &&
            iron__pool_avail(em->src, 0, m->src.slot) < 1) {
            iron__emu_block(t, em->src, 0, m->src.slot, 1);
            return;
        }
        for (int k = 0; k < em->ndst; k++)
            if (em->dst_piece[k] == 0 &&
                iron__pool_avail(em->dst[k], 1, m->dst[k].slot) < 1) {
                iron__emu_block(t, em->dst[k], 1, m->dst[k].slot, 1);
                return;
            }
        if (em->src && em->src_piece == 0)
            iron__pool_take(em->src, 0, m->src.slot, 1);
        for (int k = 0; k < em->ndst; k++)
            if (em->dst_piece[k] == 0)
                iron__pool_take(em->dst[k], 1, m->dst[k].slot, 1);
        uint64_t t0 = prof ? iron__now_ns() : 0;
        move_object(em, numel, esz);
        if (prof)
            iron__emu_prof_moved(in, em, t0, iron__now_ns(),
                                 numel * (int64_t)esz);
        if (em->src && ++em->src_piece >= m->src.pieces) {
            em->src_piece = 0;
            iron__pool_release(em->src, 0, m->src.slot, 1);
        }
        for (int k = 0; k < em->ndst; k++)
            if (++em->dst_piece[k] >= m->dst[k].pieces) {
                em->dst_piece[k] = 0;
                iron__pool_release(em->dst[k], 1, m->dst[k].slot, 1);
            }
        em->objects++;
    }
}

static void mover_step(emu_inst *in, emu_task *t)
{
    mover_run(in, t, 0);
}

static void mover_step_profiled(emu_inst *in, emu_task *t)
{
    mover_run(in, t, 1);
}

void iron__emu_mover_profile(emu_mover *em, int on)
{
    em->task.step = on ? mover_step_profiled : mover_step;
}

iron_status iron__emu_mover_init(emu_inst *in, emu_mover *em,
                                 const iron__mover *m)
{
    iron__free(em->ops);
    iron__free(em->stream);
    memset(em, 0, sizeof *em);
    em->task.step = mover_step;
    em->task.state = EMU_BLOCKED;
    em->m = m;
    em->fifo = &in->prog->fifos[m->fifo];
    em->src = m->src.pool >= 0 ? &in->pools[m->src.pool] : NULL;
    if (em->src)
        em->src->reader[m->src.slot] = &em->task;
    em->ndst = m->ndst;
    int dims = m->src.dims != NULL || m->src.pool < 0;
    for (int k = 0; k < m->ndst; k++) {
        em->dst[k] = &in->pools[m->dst[k].pool];
        em->dst[k]->writer[m->dst[k].slot] = &em->task;
        dims |= m->dst[k].dims != NULL;
    }
    if (dims) {
        em->stream = iron__malloc(em->fifo->obj_bytes);
        if (!em->stream)
            return iron__fail(IRON_ENOMEM, "emulator: out of memory");
    }
    return IRON_OK;
}

iron_status iron__emu_mover_push(emu_mover *em, const iron__prog_op *op,
                                 uint8_t *tensor, int64_t shift)
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
    o->tap = op->tap;
    o->tap.offset += shift;
    o->tensor = tensor;
    o->esz = iron_dtype_size(op->arg_dtype);
    o->per_obj = (int64_t)(em->fifo->obj_bytes / o->esz);
    o->total = iron_tap_count(&op->tap);
    o->done = 0;
    return IRON_OK;
}
