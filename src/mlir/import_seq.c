/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import_seq.c - the runtime sequence of an imported module: its
 * arguments (dtype and shape from each memref, role from what the
 * sequence does with it), and its steps as fills, drains, task-group
 * finishes, buffer writes and lock sets, in both eras of upstream's
 * syntax:
 *
 *   2024: aiex.npu.dma_memcpy_nd (metadata = the fifo) and
 *         aiex.npu.dma_wait {symbol = fifo} -- or, in the early 2024
 *         form (the sequence a func.func), aiex.npu.sync, which waits
 *         for the drains through the shim columns it names (direction
 *         0, S2MM) or only orders the sequence (direction 1);
 *   2025: aiex.dma_configure_task_for @fifo { aie.dma_bd ... },
 *         aiex.dma_start_task / dma_await_task / dma_free_task.
 *
 * Task groups follow the points where upstream's sequence blocks: each
 * run of consecutive waits (dma_wait, dma_await_task, dma_free_task) is
 * the finish of one group.  A memcpy belongs to the first run after it;
 * a started task to the first run after its start that names it (so the
 * ping-pong sequences IRON emits, which start group n before finishing
 * group n-1, keep their groups).  A drain is awaited when its run waits
 * for it (dma_wait naming its fifo, dma_await_task naming its task).
 * Whether a transfer fills or drains is whether the fifo's producer or a
 * consumer is a shim tile.
 */
#include <stdio.h>
#include <string.h>

#include "mlir/import.h"

/* ---- the arguments ------------------------------------------------------*/

static int valid_ident(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return strlen(s) < 64;
}

static iron_status read_args(iron_mlir *m, const iron__mlir_block *blk)
{
    m->nargs = blk->nargs;
    if (m->nargs < 1)
        return iron__imp_fail(m, IRON_EDESIGN, m->seq,
                              "the runtime sequence takes no tensor; it "
                              "needs at least one to move data");
    if (m->nargs > 64)
        return iron__imp_fail(m, IRON_ENOTSUP, m->seq,
                              "%d arguments; at most 64", m->nargs);
    m->args = iron__calloc((size_t)m->nargs, sizeof *m->args);
    if (!m->args)
        return iron__fail(IRON_ENOMEM, "out of memory");
    for (int i = 0; i < m->nargs; i++) {
        iron__imp_arg *a = &m->args[i];
        const iron__mlir_value *v = iron__mlir_value_at(m->mod, blk->args[i]);
        if (!v || iron__imp_memref(v->type, &a->dtype, &a->shape) != 0) {
            iron__str tt = { 0 };
            if (v && v->type)
                iron__mlir_type_text(v->type, &tt);
            iron_status s = iron__imp_fail(
                m, IRON_ENOTSUP, m->seq,
                "argument %d (%s) is %s; expected a static memref of 1 to "
                "%d dimensions of i8..i64 (or ui), bf16, f32 or f64",
                i, v && v->name ? v->name : "?", iron__str_get(&tt),
                IRON_MAX_DIMS);
            iron__str_free(&tt);
            return s;
        }
        const char *n = v->name && v->name[0] == '%' ? v->name + 1 : "";
        int taken = 0;
        for (int k = 0; k < i; k++)
            taken |= strcmp(m->args[k].name, n) == 0;
        char buf[32];
        if (!valid_ident(n) || taken) {
            snprintf(buf, sizeof buf, "arg%d", i);
            n = buf;
        }
        a->name = iron__strdup(n);
        if (!a->name)
            return iron__fail(IRON_ENOMEM, "out of memory");
    }
    return IRON_OK;
}

static iron_status write_decl(iron_mlir *m)
{
    iron__str s = { 0 };
    for (int i = 0; i < m->nargs; i++) {
        const iron__imp_arg *a = &m->args[i];
        const char *role = a->reads && a->writes ? "inout"
                           : a->writes           ? "out"
                                                 : "in";
        iron__str_printf(&s, "%s%s %s: %s[", i ? ", " : "", role, a->name,
                         iron_dtype_name(a->dtype));
        for (int k = 0; k < a->shape.ndim; k++)
            iron__str_printf(&s, "%s%lld", k ? ", " : "",
                             (long long)a->shape.dims[k]);
        iron__str_append(&s, "]");
    }
    m->args_decl = iron__str_take(&s);
    iron__str_free(&s);
    return m->args_decl ? IRON_OK : iron__fail(IRON_ENOMEM, "out of memory");
}

/* The sequence argument value v is, or -1. */
static int arg_index(const iron__mlir_block *blk, int v)
{
    for (int i = 0; i < blk->nargs; i++)
        if (blk->args[i] == v)
            return i;
    return -1;
}

/* ---- events: the sequence's ops, classified -----------------------------*/

typedef enum ev_kind {
    EV_MEMCPY,          /* one transfer */
    EV_START,           /* a task's transfers */
    EV_WAIT,            /* dma_wait: fifo */
    EV_SYNC,            /* npu.sync: shim columns, direction */
    EV_AWAIT,           /* dma_await_task: task */
    EV_FREE,            /* dma_free_task: task */
    EV_RTP,
    EV_LOCK
} ev_kind;

/* One transfer of a memcpy or a task's buffer descriptor.  A descriptor
 * with four dimensions has an iteration dimension (the outermost): the
 * task's k-th repetition starts (k % iter) * iter_stride elements further
 * on, and tap is the inner three.  The raw dimensions are kept so that a
 * task repeated exactly `iter` times becomes one 4-D transfer again. */
typedef struct xfer {
    const iron__mlir_op *op;
    int arg;
    iron_tap tap;
    int64_t iter, iter_stride;
    int nraw;
    int64_t raw_size[IRON_TAP_MAX_DIMS], raw_stride[IRON_TAP_MAX_DIMS];
} xfer;

typedef struct task {
    const iron__mlir_op *op;  /* dma_configure_task_for */
    int value;
    int fifo;
    int repeat;               /* repeat_count + 1 */
    int nx;
    xfer *x;
} task;

typedef struct event {
    ev_kind kind;
    const iron__mlir_op *op;
    int fifo;                 /* MEMCPY, WAIT; START: the task's */
    int task;                 /* START, AWAIT, FREE */
    xfer x;                   /* MEMCPY */
    int col0, ncols, dir;     /* SYNC */
    int run;                  /* WAIT/SYNC/AWAIT/FREE: its run (0..) */
    int group;                /* MEMCPY, START: 1.., 0 none */
    int wait;                 /* MEMCPY, START: awaited (drains) */
} event;

typedef struct seq_state {
    iron_mlir *m;
    const iron__mlir_block *blk;
    int nev, ntask, nrun;
    event *ev;
    task *tasks;
} seq_state;

/* The fifo a transfer names, whether it fills (the fifo's producer is a
 * shim) or drains (a consumer is), and which consumer. */
static iron_status transfer_end(const iron_mlir *m, const iron__mlir_op *op,
                                int fifo, int *fill, int *end)
{
    const iron__imp_fifo *f = &m->fifos[fifo];
    if (f->prod.row == 0) {
        *fill = 1;
        *end = -1;
        return IRON_OK;
    }
    for (int i = 0; i < f->ncons; i++)
        if (f->cons[i].row == 0) {
            *fill = 0;
            *end = i;
            return IRON_OK;
        }
    return iron__imp_fail(m, IRON_EDESIGN, op,
                          "fifo @%s runs from (%d,%d) to %s(%d,%d): no shim "
                          "tile produces or consumes it, so the runtime "
                          "cannot fill or drain it",
                          f->name, f->prod.col, f->prod.row,
                          f->ncons > 1 ? "tiles like " : "", f->cons[0].col,
                          f->cons[0].row);
}

static iron_status fifo_symbol(const iron_mlir *m, const iron__mlir_op *op,
                               const char *attr, int *fifo)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, attr);
    *fifo = a && a->kind == IRON__MA_SYMREF ? iron__imp_fifo_at(m, a->s) : -1;
    if (*fifo < 0)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "%s: %s%s is not an object fifo of the module",
                              attr, a && a->s ? "@" : "",
                              a && a->s ? a->s : "(missing)");
    return IRON_OK;
}

/* A pattern from (size, stride) dims, outermost first, without its
 * leading size-1 dims: the shim check reads the rest right-aligned, as
 * upstream does, so inner size-1 dims keep their place (a [2, 1, 1, 1024]
 * transfer steps its outer dimension as the iteration count; as [2, 1024]
 * it would not fit). */
static iron_tap make_tap(int64_t offset, int n, const int64_t *sizes,
                         const int64_t *strides)
{
    int64_t sz[IRON_TAP_MAX_DIMS], st[IRON_TAP_MAX_DIMS];
    int k = 0, first = 0;
    while (first < n && sizes[first] == 1)
        first++;
    for (int i = first; i < n && k < IRON_TAP_MAX_DIMS; i++) {
        sz[k] = sizes[i];
        st[k++] = strides[i];
    }
    if (k == 0) {
        sz[0] = 1;
        st[0] = 1;
        k = 1;
    }
    return iron_tap_make(offset, k, sz, st);
}

static iron_status read_array4(const iron_mlir *m, const iron__mlir_op *op,
                               const char *name, int64_t *out)
{
    const iron__mlir_attr *a = iron__mlir_attr_get(op, name);
    if (!a || (a->kind != IRON__MA_DENSE_ARRAY && a->kind != IRON__MA_ARRAY))
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "%s: expected 4 static values (dynamic "
                              "offsets, sizes and strides are not "
                              "supported)",
                              name);
    if (a->n != 4)
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "%s has %d values; expected 4 (outermost "
                              "first)",
                              name, a->n);
    for (int i = 0; i < 4; i++) {
        if (a->items[i]->kind != IRON__MA_INT)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "%s: value %d is not an integer", name, i);
        out[i] = a->items[i]->i;
    }
    return IRON_OK;
}

static iron_status read_memcpy(seq_state *st, const iron__mlir_op *op,
                               event *e)
{
    iron_mlir *m = st->m;
    iron_status s = fifo_symbol(m, op, "metadata", &e->fifo);
    if (s != IRON_OK)
        return s;
    e->x.op = op;
    e->x.arg = op->noperands >= 1 ? arg_index(st->blk, op->operands[0])
                                  : -1;
    if (e->x.arg < 0)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "the transfer's memref is not an argument of "
                              "the runtime sequence");
    if (iron__mlir_attr_get(op, "packet"))
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "packet-switched transfers are not supported");
    int64_t off[4], size[4], stride[4];
    if ((s = read_array4(m, op, "static_offsets", off)) != IRON_OK ||
        (s = read_array4(m, op, "static_sizes", size)) != IRON_OK ||
        (s = read_array4(m, op, "static_strides", stride)) != IRON_OK)
        return s;
    int64_t offset = 0;
    for (int i = 0; i < 4; i++) {
        if (size[i] < 1 || off[i] < 0 || stride[i] < 0)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "dimension %d: offset %lld, size %lld, "
                                  "stride %lld; expected sizes >= 1 and no "
                                  "negative value",
                                  i, (long long)off[i], (long long)size[i],
                                  (long long)stride[i]);
        /* upstream: the element offset is sum(offset_i * stride_i) */
        offset += off[i] * stride[i];
    }
    e->x.tap = make_tap(offset, 4, size, stride);
    return IRON_OK;
}

static iron_status read_bd(seq_state *st, const iron__mlir_op *bd, xfer *x)
{
    iron_mlir *m = st->m;
    x->op = bd;
    x->arg = bd->noperands >= 1 ? arg_index(st->blk, bd->operands[0])
                                : -1;
    if (x->arg < 0)
        return iron__imp_fail(m, IRON_EDESIGN, bd,
                              "the buffer is not an argument of the runtime "
                              "sequence");
    if (iron__mlir_attr_get(bd, "pad_dimensions") ||
        iron__mlir_attr_get(bd, "packet"))
        return iron__imp_fail(m, IRON_ENOTSUP, bd,
                              "padding and packets are not supported");
    int ok = 0;
    int64_t offset = iron__imp_int_attr(bd, "offset", 0, &ok);
    int64_t len = iron__imp_int_attr(bd, "len", -1, &ok);
    if (ok < 0 || offset < 0 || len < 1)
        return iron__imp_fail(m, IRON_EDESIGN, bd,
                              "expected an offset >= 0 and a length >= 1");
    const iron__mlir_attr *dims = iron__mlir_attr_get(bd, "dimensions");
    x->iter = 1;
    x->iter_stride = 0;
    x->nraw = 0;
    if (!dims || (dims->kind == IRON__MA_ARRAY && dims->n == 0)) {
        x->tap = iron_tap_linear(len);
        x->tap.offset = offset;
        return IRON_OK;
    }
    if (dims->kind != IRON__MA_ARRAY || dims->n > IRON_TAP_MAX_DIMS)
        return iron__imp_fail(m, IRON_ENOTSUP, bd,
                              "dimensions: expected 1 to %d <size = s, "
                              "stride = t>",
                              IRON_TAP_MAX_DIMS);
    /* A fourth dimension is the shim descriptor's iteration: it steps
     * once per repetition of the task, and the length counts the inner
     * three (upstream's shim_dma_single_bd_task: repeat_count = sizes[0]
     * - 1, len = the product of sizes[1:]). */
    int inner0 = dims->n == IRON_TAP_MAX_DIMS;
    int64_t sz[IRON_TAP_MAX_DIMS], sd[IRON_TAP_MAX_DIMS], count = 1;
    for (int i = 0; i < dims->n; i++) {
        const iron__mlir_attr *d = dims->items[i];
        if (d->kind != IRON__MA_DIM || d->i < 1 || d->i > (1 << 20) ||
            d->stride < 0 || d->stride > ((int64_t)1 << 40))
            return iron__imp_fail(m, IRON_EDESIGN, bd,
                                  "dimension %d is not a <size = s, stride "
                                  "= t> with 1 <= s <= 2^20 and 0 <= t <= "
                                  "2^40",
                                  i);
        sz[i] = d->i;
        sd[i] = d->stride;
        x->raw_size[i] = d->i;
        x->raw_stride[i] = d->stride;
        if (i >= inner0)
            count *= d->i;
    }
    x->nraw = dims->n;
    if (count != len)
        return iron__imp_fail(m, IRON_EDESIGN, bd,
                              "the dimensions%s visit %lld elements, the "
                              "length is %lld",
                              inner0 ? " inside the iteration (the inner "
                                       "three)"
                                     : "",
                              (long long)count, (long long)len);
    if (inner0) {
        x->iter = sz[0];
        x->iter_stride = sd[0];
    }
    x->tap = make_tap(offset, dims->n - inner0, sz + inner0, sd + inner0);
    return IRON_OK;
}

static iron_status read_task(seq_state *st, const iron__mlir_op *op)
{
    iron_mlir *m = st->m;
    task *t = &st->tasks[st->ntask];
    memset(t, 0, sizeof *t);
    t->op = op;
    iron_status s = fifo_symbol(m, op, "tile", &t->fifo);
    if (s != IRON_OK)
        return s;
    if (op->nresults != 1)
        return iron__imp_fail(m, IRON_EDESIGN, op, "expected one result");
    t->value = op->results[0];
    int ok = 0;
    int64_t rep = iron__imp_int_attr(op, "repeat_count", 0, &ok);
    if (ok < 0 || rep < 0 || rep > 1023)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "repeat_count: expected 0 to 1023");
    t->repeat = (int)rep + 1;
    const iron__mlir_block *b = op->nregions > 0 &&
                                        op->regions[0]->nblocks == 1
                                    ? op->regions[0]->blocks[0]
                                    : NULL;
    if (!b)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "expected one block of aie.dma_bd ops");
    t->x = iron__calloc((size_t)b->nops + 1, sizeof *t->x);
    if (!t->x)
        return iron__fail(IRON_ENOMEM, "out of memory");
    for (int i = 0; i < b->nops; i++) {
        const iron__mlir_op *bd = b->ops[i];
        if (strcmp(bd->name, "aie.end") == 0)
            continue;
        if (strcmp(bd->name, "aie.dma_bd") != 0)
            return iron__imp_fail(m, IRON_ENOTSUP, bd,
                                  "in a DMA task: only aie.dma_bd (and "
                                  "aie.end)");
        if ((s = read_bd(st, bd, &t->x[t->nx])) != IRON_OK)
            return s;
        t->nx++;
    }
    if (t->nx == 0)
        return iron__imp_fail(m, IRON_EDESIGN, op,
                              "the task has no aie.dma_bd");
    st->ntask++;
    return IRON_OK;
}

static int task_of(const seq_state *st, const iron__mlir_op *op)
{
    for (int i = 0; op->noperands == 1 && i < st->ntask; i++)
        if (st->tasks[i].value == op->operands[0])
            return i;
    return -1;
}

static iron_status read_event(seq_state *st, const iron__mlir_op *op)
{
    iron_mlir *m = st->m;
    const char *n = op->name;
    event *e = &st->ev[st->nev];
    memset(e, 0, sizeof *e);
    e->op = op;
    e->fifo = e->task = -1;
    iron_status s = IRON_OK;
    int ok = 0;
    if (strcmp(n, "arith.constant") == 0 || strcmp(n, "aie.end") == 0 ||
        strcmp(n, "func.return") == 0 || strcmp(n, "aiex.end") == 0)
        return IRON_OK;   /* operands folded into attributes; terminators */
    if (strcmp(n, "aiex.npu.dma_memcpy_nd") == 0) {
        e->kind = EV_MEMCPY;
        s = read_memcpy(st, op, e);
    } else if (strcmp(n, "aiex.dma_configure_task_for") == 0) {
        return read_task(st, op);
    } else if (strcmp(n, "aiex.dma_start_task") == 0 ||
               strcmp(n, "aiex.dma_await_task") == 0 ||
               strcmp(n, "aiex.dma_free_task") == 0) {
        e->kind = n[9] == 's' ? EV_START : n[9] == 'a' ? EV_AWAIT : EV_FREE;
        e->task = task_of(st, op);
        if (e->task < 0)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "the operand is not a task made by "
                                  "aiex.dma_configure_task_for");
        e->fifo = st->tasks[e->task].fifo;
    } else if (strcmp(n, "aiex.npu.dma_wait") == 0) {
        e->kind = EV_WAIT;
        s = fifo_symbol(m, op, "symbol", &e->fifo);
    } else if (strcmp(n, "aiex.npu.sync") == 0) {
        e->kind = EV_SYNC;
        e->col0 = (int)iron__imp_int_attr(op, "column", 0, &ok);
        e->ncols = (int)iron__imp_int_attr(op, "column_num", 1, &ok);
        e->dir = (int)iron__imp_int_attr(op, "direction", 0, &ok);
        if (ok < 0 || e->col0 < 0 || e->ncols < 1 || e->dir < 0 ||
            e->dir > 1)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "expected column >= 0, column_num >= 1 "
                                  "and direction 0 or 1");
    } else if (strcmp(n, "aiex.npu.rtp_write") == 0) {
        e->kind = EV_RTP;
        const iron__mlir_attr *a = iron__mlir_attr_get(op, "buffer_sym_name");
        const iron__mlir_attr *v = iron__mlir_attr_get(op, "value");
        int64_t index = iron__imp_int_attr(op, "index", -1, &ok);
        if (!a || a->kind != IRON__MA_SYMREF ||
            iron__imp_buf_at(m, a->s) < 0)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "%s%s is not an aie.buffer of the module",
                                  a && a->s ? "@" : "buffer ",
                                  a && a->s ? a->s : "(missing)");
        if (ok < 0 || index < 0 || !v ||
            (v->kind != IRON__MA_INT && v->kind != IRON__MA_FLOAT))
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "expected an index >= 0 and a number");
        const iron__imp_buf *b = &m->bufs[iron__imp_buf_at(m, a->s)];
        if (index >= b->count)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "index %lld of @%s, which has %lld "
                                  "elements",
                                  (long long)index, a->s,
                                  (long long)b->count);
    } else if (strcmp(n, "aiex.set_lock") == 0) {
        e->kind = EV_LOCK;
        int64_t v = iron__imp_int_attr(op, "value", -1, &ok);
        if (op->noperands != 1 || m->lock_of[op->operands[0]] < 0)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "the operand is not an aie.lock");
        if (ok < 0 || v < 0 || v > 63)
            return iron__imp_fail(m, IRON_EDESIGN, op,
                                  "value %lld; a lock holds 0..63",
                                  (long long)v);
    } else {
        return iron__imp_fail(m, IRON_ENOTSUP, op,
                              "not read in the runtime sequence (it "
                              "reads dma_memcpy_nd, dma_wait, "
                              "dma_configure_task_for, dma_start_task, "
                              "dma_await_task, dma_free_task, npu.sync, "
                              "rtp_write, set_lock)");
    }
    if (s == IRON_OK)
        st->nev++;
    return s;
}

static int is_finish(const event *e)
{
    return e->kind == EV_WAIT || e->kind == EV_SYNC || e->kind == EV_AWAIT ||
           e->kind == EV_FREE;
}

/* Whether finish event w waits for memcpy e (a drain of its fifo, or
 * through a shim column it syncs). */
static int waits_for(const seq_state *st, const event *w, const event *e)
{
    if (w->kind == EV_WAIT)
        return w->fifo == e->fifo;
    if (w->kind != EV_SYNC || w->dir != 0)
        return 0;
    const iron__imp_fifo *f = &st->m->fifos[e->fifo];
    for (int k = 0; k < f->ncons; k++)
        if (f->cons[k].row == 0 && f->cons[k].col >= w->col0 &&
            f->cons[k].col < w->col0 + w->ncols)
            return 1;
    return 0;
}

/* Runs of waits, and each transfer's group and wait. */
static void assign_groups(seq_state *st)
{
    int run = -1;
    for (int i = 0; i < st->nev; i++) {
        event *e = &st->ev[i];
        if (is_finish(e) && (i == 0 || !is_finish(&st->ev[i - 1])))
            run++;
        if (is_finish(e))
            e->run = run;
    }
    st->nrun = run + 1;
    for (int i = 0; i < st->nev; i++) {
        event *e = &st->ev[i];
        if (e->kind != EV_MEMCPY && e->kind != EV_START)
            continue;
        for (int k = i + 1; k < st->nev && !e->group; k++) {
            const event *w = &st->ev[k];
            if (e->kind == EV_MEMCPY &&
                (w->kind == EV_WAIT || w->kind == EV_SYNC)) {
                /* the first run after it; awaited if the run waits for
                 * it */
                e->group = w->run + 1;
                for (int j = k; j < st->nev && is_finish(&st->ev[j]); j++)
                    e->wait |= waits_for(st, &st->ev[j], e);
            } else if (e->kind == EV_START &&
                       (w->kind == EV_AWAIT || w->kind == EV_FREE) &&
                       w->task == e->task) {
                e->group = w->run + 1;
                e->wait = w->kind == EV_AWAIT;
            } else if (e->kind == EV_START && w->kind == EV_START &&
                       w->task == e->task) {
                break;   /* restarted before any wait: no group */
            }
        }
    }
}

static iron_status add_item(iron_mlir *m, const iron__imp_item *it)
{
    iron__imp_item *n =
        iron__realloc(m->items, (size_t)(m->nitems + 1) * sizeof *n);
    if (!n)
        return iron__fail(IRON_ENOMEM, "out of memory");
    m->items = n;
    m->items[m->nitems++] = *it;
    return IRON_OK;
}

static iron_status add_transfer(iron_mlir *m, const event *e, const xfer *x,
                                int fifo)
{
    iron__imp_item it;
    memset(&it, 0, sizeof it);
    int fill = 0;
    iron_status s = transfer_end(m, x->op, fifo, &fill, &it.end);
    if (s != IRON_OK)
        return s;
    it.kind = fill ? IRON__IMP_FILL : IRON__IMP_DRAIN;
    it.op = x->op;
    it.fifo = fifo;
    it.arg = x->arg;
    it.tap = x->tap;
    it.group = e->group;
    it.wait = !fill && e->wait;
    if (fill)
        m->args[x->arg].reads = 1;
    else
        m->args[x->arg].writes = 1;
    return add_item(m, &it);
}

static iron_status make_items(seq_state *st)
{
    iron_mlir *m = st->m;
    iron_status s = IRON_OK;
    int awaited = 0;
    for (int i = 0; i < st->nev && s == IRON_OK; i++) {
        const event *e = &st->ev[i];
        iron__imp_item it;
        memset(&it, 0, sizeof it);
        it.op = e->op;
        switch (e->kind) {
        case EV_MEMCPY:
            s = add_transfer(m, e, &e->x, e->fifo);
            awaited += m->nitems && m->items[m->nitems - 1].wait;
            break;
        case EV_START: {
            const task *t = &st->tasks[e->task];
            if (t->nx == 1 && t->repeat > 1 && t->x[0].iter == t->repeat) {
                /* the usual form: one 4-D pattern, its outermost
                 * dimension stepped by the repetitions */
                xfer whole = t->x[0];
                whole.tap = make_tap(t->x[0].tap.offset, whole.nraw,
                                     whole.raw_size, whole.raw_stride);
                s = add_transfer(m, e, &whole, t->fifo);
                awaited += s == IRON_OK && m->items[m->nitems - 1].wait;
                break;
            }
            for (int r = 0; r < t->repeat && s == IRON_OK; r++)
                for (int k = 0; k < t->nx && s == IRON_OK; k++) {
                    xfer one = t->x[k];
                    /* both factors are bounded (r < 1024, stride <=
                     * 2^40), so the step cannot overflow */
                    one.tap.offset += (r % one.iter) * one.iter_stride;
                    s = add_transfer(m, e, &one, t->fifo);
                    awaited += s == IRON_OK && m->items[m->nitems - 1].wait;
                }
            break;
        }
        case EV_WAIT:
        case EV_SYNC:
        case EV_AWAIT:
        case EV_FREE:
            if (i > 0 && is_finish(&st->ev[i - 1]))
                break;   /* one finish per run */
            it.kind = IRON__IMP_FINISH;
            it.group = e->run + 1;
            s = add_item(m, &it);
            break;
        case EV_RTP: {
            const iron__mlir_attr *a =
                iron__mlir_attr_get(e->op, "buffer_sym_name");
            const iron__mlir_attr *v = iron__mlir_attr_get(e->op, "value");
            int ok = 0;
            it.kind = IRON__IMP_SET_RTP;
            it.buf = iron__imp_buf_at(m, a->s);
            it.index = iron__imp_int_attr(e->op, "index", 0, &ok);
            it.value = v->kind == IRON__MA_INT ? (double)v->i : v->f;
            s = add_item(m, &it);
            break;
        }
        case EV_LOCK: {
            int ok = 0;
            it.kind = IRON__IMP_SET_LOCK;
            it.lock = m->lock_of[e->op->operands[0]];
            it.value = (double)iron__imp_int_attr(e->op, "value", 0, &ok);
            s = add_item(m, &it);
            break;
        }
        }
    }
    if (s == IRON_OK && awaited == 0)
        return iron__imp_fail(m, IRON_EDESIGN, m->seq,
                              "the runtime sequence awaits no drain: wait "
                              "for an output (aiex.npu.dma_wait on its fifo, "
                              "or aiex.dma_await_task on its task) so that "
                              "a call knows when it is done");
    m->ngroups = st->nrun;
    return s;
}

iron_status iron__imp_sequence(iron_mlir *m)
{
    const iron__mlir_op *seq = m->seq;
    if (seq->nregions < 1 || seq->regions[0]->nblocks != 1)
        return iron__imp_fail(m, IRON_EDESIGN, seq,
                              "expected one block (the sequence's body)");
    seq_state st;
    memset(&st, 0, sizeof st);
    st.m = m;
    st.blk = seq->regions[0]->blocks[0];
    iron_status s = read_args(m, st.blk);
    if (s != IRON_OK)
        return s;
    st.ev = iron__calloc((size_t)st.blk->nops + 1, sizeof *st.ev);
    st.tasks = iron__calloc((size_t)st.blk->nops + 1, sizeof *st.tasks);
    if (!st.ev || !st.tasks)
        s = iron__fail(IRON_ENOMEM, "out of memory");
    for (int i = 0; s == IRON_OK && i < st.blk->nops; i++)
        s = read_event(&st, st.blk->ops[i]);
    if (s == IRON_OK) {
        assign_groups(&st);
        s = make_items(&st);
    }
    if (s == IRON_OK)
        s = write_decl(m);
    for (int i = 0; st.tasks && i < st.ntask; i++)
        iron__free(st.tasks[i].x);
    iron__free(st.tasks);
    iron__free(st.ev);
    return s;
}

/* ---- building the sequence (in the design function) --------------------- */

/* "1st", "2nd", "3rd", "4th" ... */
static const char *ordinal(int n)
{
    static _Thread_local char buf[16];
    int t = n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10;
    snprintf(buf, sizeof buf, "%d%s", n,
             t == 1 ? "st" : t == 2 ? "nd" : t == 3 ? "rd" : "th");
    return buf;
}

static iron_status build_transfer(iron__imp_ctx *c, const iron__imp_item *it)
{
    iron_design *d = c->d;
    const iron_mlir *m = c->m;
    if (it->group > 0) {
        iron_task_group *g = c->group[it->group];
        if (!g) {
            g = iron_rt_task_group_new(d);
            if (iron__imp_check(c, it->op))
                return d->status;
            c->group[it->group] = g;
        } else if (d->current != g) {
            int now = 0;
            for (int k = 1; k <= m->ngroups; k++)
                if (c->group[k] && c->group[k] == d->current)
                    now = k;
            return iron__imp_dfail(
                c, IRON_ENOTSUP, it->op,
                "this transfer belongs to task group %d (finished by the "
                "sequence's %s run of waits), but group %d was opened "
                "after it and is still open: interleaved task groups are "
                "not supported",
                it->group, ordinal(it->group), now);
        }
    }
    int fill = it->kind == IRON__IMP_FILL;
    iron_handle *h = fill ? c->prod[it->fifo] : c->cons[it->fifo][it->end];
    const iron__imp_fifo *f = &m->fifos[it->fifo];
    iron__tile shim = fill ? f->prod : f->cons[it->end];
    if (fill)
        c->prod_used[it->fifo] = 1;
    else
        c->cons_used[it->fifo][it->end] = 1;
    if (!h->shim_pinned) {
        iron_handle_set_shim(h, shim.col);
        if (iron__imp_check(c, it->op))
            return d->status;
    }
    if (fill)
        iron_rt_fill(d, h, it->arg, it->tap);
    else
        iron_rt_drain(d, h, it->arg, it->tap, it->wait);
    iron__imp_check(c, it->op);
    return d->status;
}

iron_status iron__imp_build_sequence(iron__imp_ctx *c)
{
    const iron_mlir *m = c->m;
    iron_design *d = c->d;
    for (int i = 0; i < m->nitems && d->status == IRON_OK; i++) {
        const iron__imp_item *it = &m->items[i];
        switch (it->kind) {
        case IRON__IMP_FILL:
        case IRON__IMP_DRAIN:
            build_transfer(c, it);
            break;
        case IRON__IMP_FINISH:
            if (c->group[it->group]) {
                iron_rt_task_group_finish(d, c->group[it->group]);
                iron__imp_check(c, it->op);
            }
            break;
        case IRON__IMP_SET_RTP:
            /* A buffer no core reads: the write cannot be seen. */
            if (c->rtp[it->buf]) {
                iron_rt_set_rtp(d, c->rtp[it->buf], it->index, it->value);
                iron__imp_check(c, it->op);
            }
            break;
        case IRON__IMP_SET_LOCK:
            if (c->barrier[it->lock]) {
                iron_rt_set_barrier(d, c->barrier[it->lock],
                                    (int)it->value);
                iron__imp_check(c, it->op);
            }
            break;
        }
    }
    /* Groups the file opened but never waited for end with the sequence. */
    for (int g = 1; g <= m->ngroups && d->status == IRON_OK; g++)
        if (c->group[g] && !c->group[g]->finished) {
            iron_rt_task_group_finish(d, c->group[g]);
            iron__imp_check(c, m->seq);
        }
    return d->status;
}
