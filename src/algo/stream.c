/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * stream.c - the tiled elementwise algorithms: transform, transform_binary,
 * their parallel forms and for_each.  One body serves them all: each
 * worker gets a contiguous slice of the tensors, streamed through it in
 * objects of `tile` elements, and calls the kernel once per object with
 * the objects and the tile size.  Workers are pinned to row 2 of columns
 * 0, 1, ... and the sequence is one task group, so the columns run side by
 * side (a drain awaited outside a group would be waited for before the
 * next column's fills).
 */
#include <stdio.h>

#include "algo/algo.h"

typedef struct stream {
    const char *algo;   /* for messages: "transform_parallel" */
    int nin;            /* inputs read: 1 or 2 */
    int out_arg;        /* the argument drained: nin, or 0 (for_each) */
    int parallel;       /* takes the `workers` parameter */
    const char *call;   /* the kernel's convention, for messages */
} stream;

/* The `workers` parameter: 0 means every granted column. */
static int workers_of(iron_design *d, const stream *st)
{
    if (!st->parallel)
        return 1;
    int64_t w = iron_design_param_int(d, "workers");
    int cols = iron_design_cols(d);
    if (iron_design_status(d) != IRON_OK)
        return 0;
    if (w == 0)
        return cols;
    if (w < 0 || w > cols) {
        iron_design_fail(d, IRON_EPARAM,
                         "%s: parameter 'workers' = %lld: expected 0 (every "
                         "granted column) or 1 .. %d, the columns granted "
                         "(one worker per column; launch config cols)",
                         st->algo, (long long)w, cols);
        return 0;
    }
    return (int)w;
}

/* The whole input must cut into tile x workers pieces, each worker's
 * slice must be whole DMA words, and one worker's buffers (two of each
 * fifo) must fit its compute tile. */
static iron_status check_sizes(iron_design *d, const stream *st,
                               int64_t tile, int workers)
{
    int64_t n = iron_design_arg_numel(d, 0);
    if (n % (tile * workers) != 0) {
        if (workers == 1)
            return iron_design_fail(d, IRON_ESHAPE,
                                    "%s: argument 0 ('%s') has %lld "
                                    "elements, not a multiple of parameter "
                                    "'tile' = %lld",
                                    st->algo, iron__algo_arg_name(d, 0),
                                    (long long)n, (long long)tile);
        return iron_design_fail(d, IRON_ESHAPE,
                                "%s: argument 0 ('%s') has %lld elements, "
                                "not a multiple of parameters 'tile' x "
                                "'workers' = %lld x %d = %lld",
                                st->algo, iron__algo_arg_name(d, 0),
                                (long long)n, (long long)tile, workers,
                                (long long)(tile * workers));
    }
    char what[64] = "the whole tensor";
    if (workers > 1)
        snprintf(what, sizeof what, "each of the %d workers' slices",
                 workers);
    if (iron__algo_check_words(d, st->algo, 0, n / workers, what) !=
        IRON_OK)
        return iron_design_status(d);
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    int64_t es = (int64_t)iron_dtype_size(dt);
    int nbufs = 2 * (st->nin + 1);
    int64_t room = iron__algo_room(d);
    /* tile <= INT32_MAX and es <= 8: the product cannot overflow. */
    int64_t need = nbufs * iron__algo_buffer_bytes(tile * es);
    if (need <= room)
        return IRON_OK;
    int64_t max_tile = iron__algo_max_object(d, nbufs) / es;
    const iron_device_info *info = iron_design_device(d);
    return iron_design_fail(d, IRON_ERESOURCE,
                            "%s: parameter 'tile' = %lld: a worker holds %d "
                            "fifos x 2 buffers of %lld %s = %lld bytes, "
                            "over the %lld its compute tile has beside the "
                            "stack (%u of %u bytes); tile <= %lld fits",
                            st->algo, (long long)tile, st->nin + 1,
                            (long long)tile, iron_dtype_name(dt),
                            (long long)need, (long long)room,
                            info->compute.stack_bytes,
                            info->compute.memory_bytes, (long long)max_tile);
}

static iron_status check_kernel(iron_design *d, const stream *st,
                                const iron_kernel_ref **f)
{
    /* The objects of the inputs and the output, then the size. */
    iron__algo_call call = { .ntypes = st->nin + 2, .text = st->call };
    for (int i = 0; i <= st->nin; i++) {
        call.dtypes[i] = iron_design_arg_dtype(d, 0);
        call.is_ptr[i] = 1;
    }
    call.dtypes[st->nin + 1] = IRON_INT32;
    *f = iron__algo_kernel(d, st->algo, &call);
    return iron_design_status(d);
}

static int build(iron_design *d, const stream *st)
{
    int nargs = st->out_arg == 0 ? 1 : st->nin + 1;
    const iron_kernel_ref *f = NULL;
    if (iron__algo_check_nargs(d, st->algo, nargs) != IRON_OK ||
        iron__algo_check_alike(d, st->algo, 0, nargs - 1) != IRON_OK ||
        check_kernel(d, st, &f) != IRON_OK)
        return iron_design_status(d);
    int64_t tile = iron__algo_tile(d, st->algo);
    int workers = workers_of(d, st);
    if (iron_design_status(d) != IRON_OK ||
        check_sizes(d, st, tile, workers) != IRON_OK)
        return iron_design_status(d);

    int64_t per = iron_design_arg_numel(d, 0) / workers;
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    iron_kernel *k = iron_kernel_new(d, f->entry, f->source, f->arg_types);
    iron_task_group *all = iron_rt_task_group_new(d);
    for (int c = 0; c < workers; c++) {
        char name[32];
        iron_fifo *in[2] = { NULL, NULL };
        iron_arg args[4];
        for (int i = 0; i < st->nin; i++) {
            snprintf(name, sizeof name, "in%d_%d", i, c);
            in[i] = iron_fifo_new(d, name, dt, IRON_SHAPE(tile), 2);
            args[i] = iron_arg_fifo(iron_fifo_cons(in[i]));
        }
        snprintf(name, sizeof name, "out_%d", c);
        iron_fifo *out = iron_fifo_new(d, name, dt, IRON_SHAPE(tile), 2);
        args[st->nin] = iron_arg_fifo(iron_fifo_prod(out));
        args[st->nin + 1] = iron_arg_int(tile);
        snprintf(name, sizeof name, "col%d", c);
        iron_worker *w =
            iron_worker_new(d, name, k, per / tile, st->nin + 2, args);
        iron_worker_place(w, c, 2);
        const int64_t sizes[1] = { per }, strides[1] = { 1 };
        iron_tap slice = iron_tap_make(per * c, 1, sizes, strides);
        iron_rt_start(d, w);
        for (int i = 0; i < st->nin; i++)
            iron_rt_fill(d, iron_fifo_prod(in[i]), i, slice);
        iron_rt_drain(d, iron_fifo_cons(out), st->out_arg, slice, IRON_WAIT);
    }
    iron_rt_task_group_finish(d, all);
    return iron_design_status(d);
}

#define UNARY "f(const T *in, T *out, int32_t n)"
#define BINARY "f(const T *a, const T *b, T *out, int32_t n)"

IRON_API int iron_algo_transform(iron_design *d, void *user)
{
    (void)user;
    static const stream st = { "transform", 1, 1, 0, UNARY };
    return build(d, &st);
}

IRON_API int iron_algo_transform_binary(iron_design *d, void *user)
{
    (void)user;
    static const stream st = { "transform_binary", 2, 2, 0, BINARY };
    return build(d, &st);
}

IRON_API int iron_algo_transform_parallel(iron_design *d, void *user)
{
    (void)user;
    static const stream st = { "transform_parallel", 1, 1, 1, UNARY };
    return build(d, &st);
}

IRON_API int iron_algo_transform_parallel_binary(iron_design *d, void *user)
{
    (void)user;
    static const stream st = { "transform_parallel_binary", 2, 2, 1,
                               BINARY };
    return build(d, &st);
}

/* for_each reads the tensor through one fifo and writes it back through
 * another: the kernel sees separate input and output objects (as
 * upstream's), and the drain of object i only follows its fill. */
IRON_API int iron_algo_for_each(iron_design *d, void *user)
{
    (void)user;
    static const stream st = { "for_each", 1, 0, 0, UNARY };
    return build(d, &st);
}
