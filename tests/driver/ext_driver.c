/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ext_driver.c - a device driver written outside the library, built with
 * nothing but the public headers (<iron/iron.h>, <iron/iron_driver.h>):
 * tests/e2e/test_ext_driver.c compiles it with `-I include` only and runs
 * it.  It shows that a driver can read everything it loads through the
 * iron_program_* accessors and run it.
 *
 * The device, "ext_npu2", is a sequential interpreter for the simplest
 * designs: FIFOs with one producer and one consumer, workers running the
 * standard loop, fills and drains.  Each FIFO is an unbounded queue of
 * objects in host memory; a fill appends its tensor's elements (in its
 * access pattern's order) as objects, every worker whose inputs all hold
 * an object is called through its kernel entry until none can, and a
 * drain takes objects back out into its tensor.  Anything else is
 * refused at load with IRON_ENOTSUP naming what.
 *
 * At load it prints what it read, one line per table row ("fifo ...",
 * "worker ...", "pool ...", "mover ...", "op ..."), which the test
 * compares with the design; then the program creates a jit for an
 * add-one design, runs it on the device and checks every element.
 * Exits 0 when all went as expected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iron/iron.h>
#include <iron/iron_driver.h>

/* ---- the driver -------------------------------------------------------- */

typedef struct queue {
    unsigned char *data;
    size_t obj_bytes;
    int64_t head, count, cap;     /* objects */
} queue;

typedef struct inst {
    const iron_program *p;
    iron_program_info info;
    queue *q;                     /* per fifo */
    long calls;                   /* kernel calls, for the report */
} inst;

/* Refuses what this device cannot do, saying what. */
static iron_status refuse(iron_status code, const char *what)
{
    fprintf(stderr, "ext: refused: %s\n", what);
    return code;
}

static iron_status ext_buf_alloc(iron_driver *drv, size_t nbytes, void **host,
                                 void **handle)
{
    (void)drv;
    *host = *handle = calloc(1, nbytes ? nbytes : 1);
    return *host ? IRON_OK : IRON_ENOMEM;
}

static void ext_buf_free(iron_driver *drv, void *host, void *handle)
{
    (void)drv;
    (void)handle;
    free(host);
}

static iron_status ext_buf_sync(iron_driver *drv, void *host, void *handle,
                                size_t nbytes, iron_sync_dir dir)
{
    (void)drv;
    (void)host;
    (void)handle;
    (void)nbytes;
    (void)dir;
    return IRON_OK;   /* host memory is the device's */
}

static const char *kind_name(iron_arg_kind k)
{
    switch (k) {
    case IRON_ARG_HANDLE: return "fifo";
    case IRON_ARG_INT: return "int";
    case IRON_ARG_FLOAT: return "float";
    case IRON_ARG_RTP: return "rtp";
    case IRON_ARG_BARRIER: return "barrier";
    case IRON_ARG_KERNEL: return "kernel";
    }
    return "?";
}

/* Reads the whole program through the accessors, printing each row, and
 * refuses what this device cannot run. */
static iron_status describe(inst *in)
{
    const iron_program *p = in->p;
    iron_program_info *pi = &in->info;
    iron_status s = IRON_OK;
    printf("program for %s: %d args, %d fifos, %d workers, %d pools, "
           "%d movers, %d ops, %d tiles\n",
           pi->device->name, pi->nargs, pi->nfifos, pi->nworkers, pi->npools,
           pi->nmovers, pi->nops, pi->ntiles);
    for (int i = 0; i < pi->nargs; i++) {
        iron_program_arg a = { .size = sizeof a };
        if ((s = iron_program_get_arg(p, i, &a)) != IRON_OK)
            return s;
        printf("arg %d %s %s\n", i, a.name, iron_dtype_name(a.dtype));
    }
    for (int i = 0; i < pi->nfifos; i++) {
        iron_program_fifo f = { .size = sizeof f };
        iron_program_endpoint prod = { .size = sizeof prod };
        if ((s = iron_program_get_fifo(p, i, &f)) != IRON_OK ||
            (s = iron_program_get_endpoint(p, i, -1, &prod)) != IRON_OK)
            return s;
        printf("fifo %s %s[%lld] depth %d consumers %d producer (%d,%d)\n",
               f.name, iron_dtype_name(f.dtype), (long long)f.obj_numel,
               f.depth, f.nconsumers, prod.col, prod.row);
        if (f.nconsumers != 1)
            return refuse(IRON_ENOTSUP, "a fifo with several consumers");
        in->q[i].obj_bytes = f.obj_bytes;
    }
    for (int w = 0; w < pi->nworkers; w++) {
        iron_program_worker wk = { .size = sizeof wk };
        if ((s = iron_program_get_worker(p, w, &wk)) != IRON_OK)
            return s;
        printf("worker %s on (%d,%d) kernel %s%s args", wk.name, wk.col,
               wk.row, wk.kernel_entry, wk.entry ? " (loaded)" : "");
        for (int a = 0; a < wk.nargs; a++) {
            iron_program_worker_arg ga = { .size = sizeof ga };
            if ((s = iron_program_get_worker_arg(p, w, a, &ga)) != IRON_OK)
                return s;
            if (ga.kind == IRON_ARG_HANDLE)
                printf(" %s", ga.label);
            else if (ga.kind == IRON_ARG_INT)
                printf(" int %lld", (long long)ga.i);
            else
                printf(" %s", kind_name(ga.kind));
            if (ga.kind != IRON_ARG_HANDLE && ga.kind != IRON_ARG_INT &&
                ga.kind != IRON_ARG_FLOAT)
                return refuse(IRON_ENOTSUP, "a worker argument other than a "
                                            "fifo or a number");
        }
        printf("\n");
        if (wk.is_core || !wk.entry)
            return refuse(IRON_ENOTSUP,
                          "a core body, or a kernel that is not loaded");
    }
    for (int i = 0; i < pi->npools; i++) {
        iron_program_pool pl = { .size = sizeof pl };
        if ((s = iron_program_get_pool(p, i, &pl)) != IRON_OK)
            return s;
        printf("pool %d %s on (%d,%d): %d x %zu bytes at %u, %d writer, "
               "%d reader\n",
               i, pl.label, pl.col, pl.row, pl.depth, pl.obj_bytes,
               (unsigned)pl.addr[0], pl.nwriters, pl.nreaders);
    }
    for (int i = 0; i < pi->nmovers; i++) {
        iron_program_mover m = { .size = sizeof m };
        iron_program_dma_end src = { .size = sizeof src };
        if ((s = iron_program_get_mover(p, i, &m)) != IRON_OK ||
            (s = iron_program_get_mover_end(p, i, -1, &src)) != IRON_OK)
            return s;
        printf("mover %d %s (source pool %d, %d destination%s)\n", i,
               m.label, src.pool, m.ndst, m.ndst == 1 ? "" : "s");
    }
    for (int i = 0; i < pi->nops; i++) {
        iron_program_op op = { .size = sizeof op };
        if ((s = iron_program_get_op(p, i, &op)) != IRON_OK)
            return s;
        if (op.kind == IRON_PROGRAM_OP_FILL)
            printf("op %d fill arg %d -> fifo %d\n", i, op.arg, op.fifo);
        else if (op.kind == IRON_PROGRAM_OP_DRAIN)
            printf("op %d drain fifo %d -> arg %d%s\n", i, op.fifo, op.arg,
                   op.wait ? " (wait)" : "");
        else
            return refuse(IRON_ENOTSUP,
                          "a runtime op other than fill and drain");
    }
    for (int i = 0; i < pi->ntiles; i++) {
        iron_program_tile t = { .size = sizeof t };
        if ((s = iron_program_get_tile(p, i, &t)) != IRON_OK)
            return s;
        printf("tile (%d,%d) uses %u of %u bytes\n", t.col, t.row,
               (unsigned)t.mem_used, (unsigned)t.memory_bytes);
    }
    fflush(stdout);
    return IRON_OK;
}

static void ext_unload(iron_driver *drv, void *loaded)
{
    (void)drv;
    inst *in = loaded;
    if (!in)
        return;
    for (int i = 0; in->q && i < in->info.nfifos; i++)
        free(in->q[i].data);
    free(in->q);
    printf("unloaded after %ld kernel calls\n", in->calls);
    fflush(stdout);
    free(in);
}

static iron_status ext_load(iron_driver *drv, const iron_device_info *dev,
                            const iron_program *prog, void **loaded)
{
    *loaded = NULL;
    inst *in = calloc(1, sizeof *in);
    if (!in)
        return IRON_ENOMEM;
    in->p = prog;
    in->info.size = sizeof in->info;
    iron_status s = iron_program_get_info(prog, &in->info);
    if (s == IRON_OK && (in->info.abi_version != IRON_DRIVER_ABI ||
                         strcmp(in->info.device->name, dev->name) != 0))
        s = refuse(IRON_ELOAD, "a program for another device or ABI");
    if (s == IRON_OK &&
        !(in->q = calloc((size_t)in->info.nfifos + 1, sizeof *in->q)))
        s = IRON_ENOMEM;
    if (s == IRON_OK)
        s = describe(in);
    if (s != IRON_OK) {
        ext_unload(drv, in);
        return s;
    }
    *loaded = in;
    return IRON_OK;
}

static unsigned char *push(queue *q)
{
    if (q->head + q->count == q->cap) {
        int64_t cap = q->cap ? 2 * q->cap : 8;
        unsigned char *d = realloc(q->data, (size_t)cap * q->obj_bytes);
        if (!d)
            return NULL;
        q->data = d;
        q->cap = cap;
    }
    return q->data + (size_t)(q->head + q->count++) * q->obj_bytes;
}

static unsigned char *front(queue *q)
{
    return q->count ? q->data + (size_t)q->head * q->obj_bytes : NULL;
}

/* The element offsets an access pattern visits, in order, through fn. */
static void visit(const iron_tap *t, int64_t shift,
                  void (*fn)(int64_t at, void *ctx), void *ctx)
{
    int64_t idx[IRON_TAP_MAX_DIMS] = { 0 };
    int64_t total = 1;
    for (int k = 0; k < t->ndim; k++)
        total *= t->sizes[k];
    for (int64_t n = 0; n < total; n++) {
        int64_t at = t->offset + shift;
        for (int k = 0; k < t->ndim; k++)
            at += idx[k] * t->strides[k];
        fn(at, ctx);
        for (int k = t->ndim - 1; k >= 0 && ++idx[k] == t->sizes[k]; k--)
            idx[k] = 0;
    }
}

typedef struct stream {
    unsigned char *tensor, *obj;
    size_t esz, at, obj_bytes;
    queue *q;
    int fill, short_of;
} stream;

/* One element between the tensor and the current object. */
static void step(int64_t at, void *ctx)
{
    stream *st = ctx;
    if (st->short_of)
        return;
    if (!st->obj) {
        st->obj = st->fill ? push(st->q) : front(st->q);
        st->at = 0;
        if (!st->obj) {
            st->short_of = 1;
            return;
        }
    }
    unsigned char *t = st->tensor + (size_t)at * st->esz;
    if (st->fill)
        memcpy(st->obj + st->at, t, st->esz);
    else
        memcpy(t, st->obj + st->at, st->esz);
    if ((st->at += st->esz) == st->obj_bytes) {
        if (!st->fill) {
            st->q->head++;
            st->q->count--;
        }
        st->obj = NULL;
    }
}

/* Calls every worker whose input fifos all hold an object, until none
 * can go on. */
static iron_status run_workers(inst *in)
{
    const iron_program *p = in->p;
    for (int progress = 1; progress;) {
        progress = 0;
        for (int w = 0; w < in->info.nworkers; w++) {
            iron_program_worker wk = { .size = sizeof wk };
            iron_status s = iron_program_get_worker(p, w, &wk);
            if (s != IRON_OK)
                return s;
            iron_kernel_value args[16];
            int ready = wk.nargs <= 16, outs[16], nouts = 0, ins[16],
                nins = 0;
            for (int a = 0; ready && a < wk.nargs; a++) {
                iron_program_worker_arg ga = { .size = sizeof ga };
                iron_program_pool pl = { .size = sizeof pl };
                if ((s = iron_program_get_worker_arg(p, w, a, &ga)) !=
                    IRON_OK)
                    return s;
                if (ga.kind == IRON_ARG_INT) {
                    args[a].i = ga.i;
                    continue;
                }
                if (ga.kind == IRON_ARG_FLOAT) {
                    args[a].f = ga.f;
                    continue;
                }
                if ((s = iron_program_get_pool(p, ga.pool, &pl)) != IRON_OK)
                    return s;
                queue *q = &in->q[pl.fifo];
                if (ga.is_writer) {
                    outs[nouts++] = pl.fifo;
                    continue;
                }
                ready = q->count > 0;
                args[a].p = front(q);
                ins[nins++] = pl.fifo;
            }
            if (!ready)
                continue;
            /* The outputs last, so that a realloc moves no input. */
            for (int a = 0, o = 0; a < wk.nargs; a++) {
                iron_program_worker_arg ga = { .size = sizeof ga };
                iron_program_get_worker_arg(p, w, a, &ga);
                if (ga.kind == IRON_ARG_HANDLE && ga.is_writer &&
                    !(args[a].p = push(&in->q[outs[o++]])))
                    return IRON_ENOMEM;
            }
            wk.entry(args);
            in->calls++;
            for (int k = 0; k < nins; k++) {
                in->q[ins[k]].head++;
                in->q[ins[k]].count--;
            }
            progress = 1;
        }
    }
    return IRON_OK;
}

static iron_status ext_run(iron_driver *drv, void *loaded,
                           const iron_run_args *args,
                           enum iron_run_state *state)
{
    (void)drv;
    inst *in = loaded;
    *state = IRON_RUN_ERROR;
    for (int i = 0; i < in->info.nops; i++) {
        iron_program_op op = { .size = sizeof op };
        iron_program_arg a = { .size = sizeof a };
        iron_program_fifo f = { .size = sizeof f };
        iron_status s;
        if ((s = iron_program_get_op(in->p, i, &op)) != IRON_OK ||
            (s = iron_program_get_arg(in->p, op.arg, &a)) != IRON_OK ||
            (s = iron_program_get_fifo(in->p, op.fifo, &f)) != IRON_OK)
            return s;
        int fill = op.kind == IRON_PROGRAM_OP_FILL;
        if (!fill && (s = run_workers(in)) != IRON_OK)
            return s;
        stream st = { args->host[op.arg], NULL, iron_dtype_size(a.dtype), 0,
                      f.obj_bytes, &in->q[op.fifo], fill, 0 };
        int64_t shift = op.scalar >= 0 && op.scalar < args->nscalars
                            ? args->scalars[op.scalar]
                            : 0;
        visit(&op.tap, shift, step, &st);
        if (st.short_of || (!fill && st.obj)) {
            fprintf(stderr, "ext: op %d drains fifo '%s', which holds too "
                            "few objects\n", i, f.name);
            return IRON_EDEADLOCK;
        }
        if (fill && (s = run_workers(in)) != IRON_OK)
            return s;
    }
    *state = IRON_RUN_COMPLETED;
    return IRON_OK;
}

static iron_driver ext_driver = {
    .abi_version = IRON_DRIVER_ABI,
    .size = sizeof(iron_driver),
    .name = "ext",
    .buf_alloc = ext_buf_alloc,
    .buf_free = ext_buf_free,
    .buf_sync = ext_buf_sync,
    .load = ext_load,
    .run = ext_run,
    .unload = ext_unload,
};

/* ---- a program using it ------------------------------------------------ */

static const char add_src[] =
    "#include <stdint.h>\n"
    "void add_one(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + 1;\n"
    "}\n";

static int design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), obj = 16;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(obj), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(obj), 2);
    iron_kernel *k = iron_kernel_new(d, "add_one", add_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "w", k, n / obj,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(obj)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

#define CHECK(call)                                                           \
    do {                                                                      \
        iron_status s_ = (call);                                              \
        if (s_ != IRON_OK) {                                                  \
            printf("failed: %s: %s: %s\n", #call, iron_status_name(s_),       \
                   iron_last_error());                                        \
            return 1;                                                         \
        }                                                                     \
    } while (0)

int main(void)
{
    iron_device *npu;
    iron_device_info info = { .size = sizeof info };
    CHECK(iron_device_get("npu2_1col", &npu));
    CHECK(iron_device_get_info(npu, &info));
    info.name = "ext_npu2";
    CHECK(iron_driver_register(&ext_driver, &info));
    CHECK(iron_device_push("ext_npu2"));

    /* The accessors refuse what is wrong, by name. */
    iron_program_info pi = { .size = sizeof pi };
    if (iron_program_get_info(NULL, &pi) != IRON_EINVAL)
        return printf("iron_program_get_info(NULL) accepted\n"), 1;
    printf("refused: %s\n", iron_last_error());

    const int64_t n = 64;
    iron_jit_options opts = { .size = sizeof opts, .name = "add_one",
                              .args = "in x: int32[N], out y: int32[N]" };
    iron_jit *j;
    iron_tensor *x, *y;
    CHECK(iron_jit_create(design, &opts, &j));
    CHECK(iron_tensor_arange(IRON_INT32, 0, (double)n, 1, &x));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &y));
    CHECK(IRON_CALL(j, x, y));
    const int32_t *out = iron_tensor_data(y);
    int bad = 0;
    for (int64_t i = 0; i < n; i++)
        bad += out[i] != (int32_t)i + 1;
    printf("add_one on %s: %s\n", info.name, bad ? "WRONG RESULT" : "ok");
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    CHECK(iron_device_pop());
    return bad ? 1 : 0;
}
