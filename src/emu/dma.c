/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
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
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#define HAVE_STREAM_STORES 1
#endif

#include "emu/emu.h"

/* A drain of at least this many bytes writes past the caches: the host
 * reads the tensor after the call, long after these lines would have been
 * evicted, and a streaming store saves reading each line before writing
 * it (a third of the memory traffic of a copy). */
#define STREAM_MIN_BYTES ((size_t)4 << 20)

/* memcpy into memory the host reads later, with streaming stores where
 * the target allows (the caller fences once after a batch). */
static void copy_streaming(uint8_t *dst, const uint8_t *src, size_t n)
{
#ifdef HAVE_STREAM_STORES
    if (((uintptr_t)dst & 15) == 0 && n >= 64) {
        size_t whole = n & ~(size_t)63;
        for (size_t i = 0; i < whole; i += 64) {
            __m128i a =
                _mm_loadu_si128((const __m128i *)(const void *)(src + i));
            __m128i b =
                _mm_loadu_si128((const __m128i *)(const void *)(src + i + 16));
            __m128i c =
                _mm_loadu_si128((const __m128i *)(const void *)(src + i + 32));
            __m128i d =
                _mm_loadu_si128((const __m128i *)(const void *)(src + i + 48));
            _mm_stream_si128((__m128i *)(void *)(dst + i), a);
            _mm_stream_si128((__m128i *)(void *)(dst + i + 16), b);
            _mm_stream_si128((__m128i *)(void *)(dst + i + 32), c);
            _mm_stream_si128((__m128i *)(void *)(dst + i + 48), d);
        }
        if (whole < n)
            memcpy(dst + whole, src + whole, n - whole);
        return;
    }
#endif
    memcpy(dst, src, n);
}

/* memcpy of one object between a tensor and tile memory.  Objects of a
 * few cache lines (upstream's designs move 64-byte objects) are copied
 * inline in 16-byte pieces: a library call costs more than the copy.
 * (Larger ones measured faster through the C library.) */
static inline void copy_object(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n <= 256 && (n & 15) == 0) {
        for (size_t i = 0; i < n; i += 16)
            __builtin_memcpy(dst + i, src + i, 16);
        return;
    }
    memcpy(dst, src, n);
}

/* A fill reads the tensor in bursts of `depth` objects, too far apart
 * for the hardware's stream prefetcher to keep ahead of it: while it
 * copies a line it asks for the line PREFETCH_BYTES further on (a
 * prefetch never faults, so past the tensor's end is harmless). */
#define PREFETCH_BYTES ((size_t)8 << 10)

/* memcpy of one object from a tensor into tile memory, prefetching. */
static inline void copy_in(uint8_t *dst, const uint8_t *src, size_t n)
{
    if ((n & 63) != 0) {
        __builtin_prefetch(src + PREFETCH_BYTES, 0, 0);
        copy_object(dst, src, n);
        return;
    }
    for (size_t i = 0; i < n; i += 64) {
        __builtin_prefetch(src + i + PREFETCH_BYTES, 0, 0);
        __builtin_memcpy(dst + i, src + i, 64);
    }
}

/* Orders streaming stores before whatever tells another thread the data
 * is there: the end of a lane's run (its thread's own later loads see
 * them in order anyway; a fence per step would wait for memory). */
void iron__emu_stream_fence(void)
{
#ifdef HAVE_STREAM_STORES
    _mm_sfence();
#endif
}

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

/* An op finished: the lane's counts, and with several lanes the phase's
 * (the lane that finishes the last awaited op stops them all). */
static void op_finished(emu_inst *in, emu_lane *l, const iron__prog_op *op)
{
    l->ops_left--;
    if (op->wait) {
        l->awaited_left--;
        l->group_awaited[op->group]--;
    }
    if (in->multi &&
        (in->final_phase || (op->wait && op->group == in->phase_group)) &&
        __atomic_sub_fetch(&in->owed, 1, __ATOMIC_SEQ_CST) == 0)
        iron__emu_stop(in, IRON__EMU_DONE);
}

static void op_progress(emu_mover *em, int64_t n)
{
    emu_op *op = &em->ops[em->head];
    op->done += n;
    if (op->done < op->total)
        return;
    em->head++;
    op_finished(em->task.lane->in, em->task.lane, op->op);
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

/* --- whole objects, many per step ---------------------------------------
 * The common movers -- a linear host fill straight into one pool, a drain
 * of one pool into a linear run of the tensor -- move every object both
 * sides allow in one step: take k buffers, copy k objects, release k (one
 * wake).  The result is the one moving them one by one gives; only the
 * order of the steps differs. */

/* Objects the current op still has, or 0 when it is not linear (the
 * general path then moves it). */
static int64_t linear_left(const emu_mover *em)
{
    const emu_op *op = &em->ops[em->head];
    return op->linear ? op->objs_left : 0;
}

static void mover_step(emu_inst *in, emu_task *t);
static void mover_step_profiled(emu_inst *in, emu_task *t);
static void mover_step_timed(emu_inst *in, emu_task *t);

/* `fill` is a constant in each caller: a fill writes its pool (the writer
 * side of its one destination), a drain reads its (the reader side of its
 * source). */
static IRON__SPECIALIZED void whole_run(emu_inst *in, emu_task *t,
                                        const int fill, const int timed)
{
    emu_mover *em = (emu_mover *)t;
    const iron__end *e = fill ? &em->m->dst[0] : &em->m->src;
    emu_pool *p = fill ? em->dst[0] : em->src;
    const int slot = e->slot;
    const size_t at = (size_t)e->offset * em->esz;
    const size_t bytes = em->fifo->obj_bytes;
    for (;;) {
        if (em->head >= em->nops) {
            iron__emu_block(t, NULL, 0, 0, 0);
            return;
        }
        int64_t left = linear_left(em);
        if (left < 1) {
            if (timed)
                mover_step_timed(in, t);
            else
                mover_step(in, t);
            return;
        }
        int avail = iron__pool_avail(p, fill, slot);
        if (avail < 1) {
            iron__emu_block(t, p, fill, slot, 1);
            return;
        }
        int k = left < avail ? (int)left : avail;
        emu_op *op = &em->ops[em->head];
        uint8_t *run =
            op->tensor + (size_t)(op->tap.offset + op->done) * op->esz;
        iron__pool_take(p, fill, slot, k);
        if (timed && op->done == 0)
            iron__emu_time_op_start(em, op);
        for (int i = 0; i < k; i++) {
            uint8_t *buf = iron__pool_buf(p, fill, slot, i) + at;
            uint8_t *obj = run + (size_t)i * bytes;
            if (fill)
                copy_in(buf, obj, bytes);
            else if (op->stream)
                copy_streaming(obj, buf, bytes);
            else
                copy_object(obj, buf, bytes);
            if (timed) {
                iron__emu_time_take(t, p, fill, slot, i, i + 1);
                uint64_t land = iron__emu_time_move(em, bytes);
                iron__emu_time_give(t, p, fill, slot, i, i + 1,
                                    fill ? land : t->tnow);
                op->t_done = land;
            }
        }
        op->done += (int64_t)k * op->per_obj;
        op->objs_left -= k;
        em->objects += (uint64_t)k;
        iron__pool_release(p, fill, slot, k);
        if (op->done >= op->total) {
            em->head++;
            op_finished(in, t->lane, op->op);
        } else if (k == avail && !p->shared) {
            /* It took every buffer the pool had for it, and nobody else
             * on this lane ran meanwhile: it waits now. */
            iron__emu_block(t, p, fill, slot, 1);
            return;
        }
    }
}

static void fill_step(emu_inst *in, emu_task *t)
{
    whole_run(in, t, 1, 0);
}

static void drain_step(emu_inst *in, emu_task *t)
{
    whole_run(in, t, 0, 0);
}

static void fill_step_timed(emu_inst *in, emu_task *t)
{
    whole_run(in, t, 1, 1);
}

static void drain_step_timed(emu_inst *in, emu_task *t)
{
    whole_run(in, t, 0, 1);
}

/* Picks the mover's step: the whole-object paths when its ends allow
 * (the general one otherwise, and always when profiled), each in its
 * timed form in a timed call. */
static void choose_step(emu_mover *em, int prof, int timed)
{
    const iron__mover *m = em->m;
    em->esz = iron_dtype_size(em->fifo->dtype);
    int fast_fill = !em->src && em->ndst == 1 && !m->dst[0].dims &&
                    m->dst[0].pieces <= 1;
    int fast_drain = em->src && em->ndst == 0 && !m->src.dims &&
                     m->src.pieces <= 1;
    em->task.pump = 0;
    if (prof) {
        em->task.step = timed ? mover_step_timed : mover_step_profiled;
    } else if (fast_fill) {
        em->task.step = timed ? fill_step_timed : fill_step;
        em->task.pump = 1;
    } else if (fast_drain) {
        em->task.step = timed ? drain_step_timed : drain_step;
        em->task.pump = 1;
    } else {
        em->task.step = timed ? mover_step_timed : mover_step;
    }
}

/* `mode` is a constant in each caller (see loop_run in worker.c):
 * profiled, timed, or both. */
enum { MOVE_PROFILED = 1, MOVE_TIMED = 2 };

static IRON__SPECIALIZED void mover_run(emu_inst *in, emu_task *t,
                                        const int mode)
{
    const int prof = (mode & MOVE_PROFILED) != 0,
              timed = (mode & MOVE_TIMED) != 0;
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
        emu_op *op = have_op ? &em->ops[em->head] : NULL;
        if (timed && op && op->done == 0)
            iron__emu_time_op_start(em, op);
        if (em->src && em->src_piece == 0) {
            iron__pool_take(em->src, 0, m->src.slot, 1);
            if (timed)
                iron__emu_time_take(t, em->src, 0, m->src.slot, 0, 1);
        }
        for (int k = 0; k < em->ndst; k++)
            if (em->dst_piece[k] == 0) {
                iron__pool_take(em->dst[k], 1, m->dst[k].slot, 1);
                if (timed)
                    iron__emu_time_take(t, em->dst[k], 1, m->dst[k].slot, 0,
                                        1);
            }
        uint64_t t0 = prof ? iron__now_ns() : 0;
        move_object(em, numel, esz);
        if (prof)
            iron__emu_prof_moved(in, em, t0, iron__now_ns(),
                                 numel * (int64_t)esz);
        uint64_t land = 0;
        if (timed) {
            land = iron__emu_time_move(em, (size_t)numel * esz);
            if (op && land > op->t_done)
                op->t_done = land;
        }
        if (em->src && ++em->src_piece >= m->src.pieces) {
            em->src_piece = 0;
            if (timed)
                iron__emu_time_give(t, em->src, 0, m->src.slot, 0, 1,
                                    t->tnow);
            iron__pool_release(em->src, 0, m->src.slot, 1);
        }
        for (int k = 0; k < em->ndst; k++)
            if (++em->dst_piece[k] >= m->dst[k].pieces) {
                em->dst_piece[k] = 0;
                if (timed)
                    iron__emu_time_give(t, em->dst[k], 1, m->dst[k].slot, 0,
                                        1, land);
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
    mover_run(in, t, MOVE_PROFILED);
}

static void mover_step_timed(emu_inst *in, emu_task *t)
{
    if (in->profile)
        mover_run(in, t, MOVE_TIMED | MOVE_PROFILED);
    else
        mover_run(in, t, MOVE_TIMED);
}

void iron__emu_mover_modes(emu_mover *em, const emu_inst *in)
{
    choose_step(em, in->profile, in->timed);
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
    choose_step(em, 0, 0);
    return IRON_OK;
}

/* Whether the pattern visits one contiguous run of elements in order. */
static int tap_is_linear(const iron_tap *tap)
{
    int64_t run = 1;
    for (int k = tap->ndim - 1; k >= 0; k--) {
        if (tap->sizes[k] != 1 && tap->strides[k] != run)
            return 0;
        run *= tap->sizes[k];
    }
    return 1;
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
    o->linear = tap_is_linear(&o->tap);
    o->objs_left = o->total / o->per_obj;
    o->stream = op->kind == IRON__OP_DRAIN &&
                (size_t)o->total * o->esz >= STREAM_MIN_BYTES;
    return IRON_OK;
}
