/*
 * algorithms.c - generic elementwise designs parameterized by a kernel:
 * the design decides the dataflow (one worker per column, each a
 * contiguous slice, objects of `tile`), the caller decides the operation.
 * Workers are pinned to row 2 of their columns and the sequence is one
 * task group, so the columns run side by side (a drain awaited outside a
 * group would be waited for before the next column's fills).
 */
#include <stdio.h>

#include "designs/algorithms.h"

/* Columns to use: as many as divide the work into whole objects. */
static int columns_for(iron_design *d, int64_t n, int64_t tile)
{
    int cols = iron_design_cols(d);
    while (cols > 1 && n % (cols * tile) != 0)
        cols--;
    return cols;
}

/* The shared body: `nin` inputs (1 or 2), one output, per column. */
static int elementwise(iron_design *d, int nin)
{
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t tile = iron_design_param_int(d, "tile");
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    const iron_kernel_ref *f = iron_design_param_kernel(d, "f");
    if (tile < 1 || n % tile != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "transform: %lld elements are not a whole "
                                "number of tile=%lld objects",
                                (long long)n, (long long)tile);
    int cols = columns_for(d, n, tile);
    int64_t per = n / cols;
    iron_kernel *k = iron_kernel_new(d, f->entry, f->source, f->arg_types);
    iron_task_group *all = iron_rt_task_group_new(d);
    for (int c = 0; c < cols; c++) {
        char name[32];
        iron_fifo *in[2] = { NULL, NULL };
        for (int i = 0; i < nin; i++) {
            snprintf(name, sizeof name, "in%d_%d", i, c);
            in[i] = iron_fifo_new(d, name, dt, IRON_SHAPE(tile), 2);
        }
        snprintf(name, sizeof name, "out_%d", c);
        iron_fifo *out = iron_fifo_new(d, name, dt, IRON_SHAPE(tile), 2);
        snprintf(name, sizeof name, "col%d", c);
        iron_worker *w =
            nin == 1 ? iron_worker_new(d, name, k, per / tile,
                                       IRON_ARGS(iron_use(iron_fifo_cons(in[0])),
                                                 iron_use(iron_fifo_prod(out)),
                                                 iron_int(tile)))
                     : iron_worker_new(d, name, k, per / tile,
                                       IRON_ARGS(iron_use(iron_fifo_cons(in[0])),
                                                 iron_use(iron_fifo_cons(in[1])),
                                                 iron_use(iron_fifo_prod(out)),
                                                 iron_int(tile)));
        const int64_t sizes[1] = { per }, strides[1] = { 1 };
        iron_tap slice = iron_tap_make(per * c, 1, sizes, strides);
        iron_worker_place(w, c, 2);
        iron_rt_start(d, w);
        for (int i = 0; i < nin; i++)
            iron_rt_fill(d, iron_fifo_prod(in[i]), i, slice);
        iron_rt_drain(d, iron_fifo_cons(out), nin, slice, IRON_WAIT);
    }
    iron_rt_task_group_finish(d, all);
    return 0;
}

int transform_design(iron_design *d, void *user)
{
    (void)user;
    return elementwise(d, 1);
}

int transform2_design(iron_design *d, void *user)
{
    (void)user;
    return elementwise(d, 2);
}

const iron_jit_options transform_options = {
    .size = sizeof(iron_jit_options),
    .name = "transform",
    .args = "in x: T[N], out y: T[N]",
    .params = "f: kernel, tile: int = 64",
};

const iron_jit_options transform2_options = {
    .size = sizeof(iron_jit_options),
    .name = "transform2",
    .args = "in x: T[N], in y: T[N], out z: T[N]",
    .params = "f: kernel, tile: int = 64",
};
