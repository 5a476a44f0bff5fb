/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * 04_multi_column.c - tutorial step 4: one design over several columns.
 * The launch configuration grants columns; the design asks how many it got
 * (iron_design_cols) and cuts the tensor into one chunk per column.  Each
 * chunk streams into a memtile, is split there over one worker per compute
 * tile of the column, and the workers' results are joined back on the
 * memtile: upstream IRON's whole-array pattern.  The design never names a
 * column or a tile: the placer fills the granted columns in order and puts
 * each link and shim channel next to the workers it serves.
 */
#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

#include "tutorial.h"

#define TILE 512 /* elements per worker object */
#define MAX_WORKERS 4 /* compute tiles per column, at most */

static const char scale_src[] =
    "#include <stdint.h>\n"
    "void scale(const int32_t *x, int32_t *y, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = 3 * x[i] + 1;\n"
    "}\n";

static int scale_cols(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int cols = iron_design_cols(d);
    int rows = iron_design_device(d)->compute_rows;
    if (rows > MAX_WORKERS)
        rows = MAX_WORKERS;
    int64_t group = (int64_t)rows * TILE; /* one memtile object */
    if (n % (cols * group) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "%lld elements do not split into %d "
                                "columns of whole %lld-element objects",
                                (long long)n, cols, (long long)group);
    int64_t chunk = n / cols;
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int32*, int32*, int32");
    int64_t offsets[MAX_WORKERS];
    iron_shape shapes[MAX_WORKERS];
    for (int r = 0; r < rows; r++) {
        offsets[r] = r * TILE;
        shapes[r] = IRON_SHAPE(TILE);
    }
    /* One task group: every column's fill and drain is issued before the
     * sequence waits, at the group's finish, for all the drains. */
    iron_rt_task_group_begin(d);
    for (int c = 0; c < cols; c++) {
        char in_name[32], out_name[32];
        snprintf(in_name, sizeof in_name, "in%d", c);
        snprintf(out_name, sizeof out_name, "out%d", c);
        iron_fifo *in = iron_fifo_new(d, in_name, IRON_INT32,
                                      IRON_SHAPE(group), 2);
        iron_fifo *out = iron_fifo_new(d, out_name, IRON_INT32,
                                       IRON_SHAPE(group), 2);
        /* On a memtile: each object of `in` cut into `rows` pieces, and
         * `rows` pieces assembled into each object of `out`. */
        iron_fifo *parts[MAX_WORKERS], *results[MAX_WORKERS];
        iron_fifo_split(d, iron_fifo_cons(in), rows, NULL, offsets, shapes,
                        NULL, parts);
        iron_fifo_join(d, iron_fifo_prod(out), rows, NULL, offsets, shapes,
                       NULL, results);
        for (int r = 0; r < rows; r++) {
            char w_name[32];
            snprintf(w_name, sizeof w_name, "scale%d_%d", c, r);
            iron_worker *w = iron_worker_new(
                d, w_name, k, chunk / group,
                IRON_ARGS(iron_arg_fifo(iron_fifo_cons(parts[r])),
                          iron_arg_fifo(iron_fifo_prod(results[r])),
                          iron_arg_int(TILE)));
            iron_rt_start(d, w);
        }
        /* Chunk c: `chunk` elements from element chunk * c. */
        int64_t sizes[1] = { chunk };
        int64_t strides[1] = { 1 };
        iron_tap part = iron_tap_make(chunk * c, 1, sizes, strides);
        iron_rt_fill(d, iron_fifo_prod(in), 0, part);
        iron_rt_drain(d, iron_fifo_cons(out), 1, part, IRON_WAIT);
    }
    iron_rt_task_group_end(d);
    return 0;
}

/* y == 3x + 1 everywhere?  Clears y for the next call. */
static int check(iron_tensor *x, iron_tensor *y)
{
    const int32_t *in = (const int32_t *)iron_tensor_data(x);
    int32_t *out = (int32_t *)iron_tensor_data(y);
    for (int64_t i = 0; i < iron_tensor_numel(y); i++) {
        if (out[i] != 3 * in[i] + 1) {
            fprintf(stderr, "y[%lld] = %d, expected %d\n", (long long)i,
                    out[i], 3 * in[i] + 1);
            return 0;
        }
        out[i] = 0;
    }
    return 1;
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "scale_cols",
        .args = "in x: int32[N], out y: int32[N]",
    };
    ok(iron_jit_create(scale_cols, &opts, &j), "iron_jit_create");

    iron_tensor *x = NULL, *y = NULL;
    ok(iron_tensor_randint(IRON_INT32, IRON_SHAPE(16384), -1000, 1000, 9, &x),
       "iron_tensor_randint");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(16384), &y),
       "iron_tensor_zeros");

    int col_counts[3] = { 1, 2, 4 };
    for (int c = 0; c < 3; c++) {
        iron_launch_config cfg = { .size = sizeof cfg,
                                   .cols = col_counts[c] };
        ok(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                           IRON_TENSORS(x, y)),
           "scale_cols");
        if (!check(x, y))
            return 1;
        /* Where the placer put the workers: workers per column. */
        const iron_run_counters *rc = NULL;
        ok(iron_jit_get_counters(j, &rc), "iron_jit_get_counters");
        int per_col[8] = { 0 };
        for (int w = 0; w < rc->nworkers; w++)
            per_col[rc->workers[w].col]++;
        printf("%d column(s): workers per column:", col_counts[c]);
        for (int col = 0; col < 8; col++)
            printf(" %d", per_col[col]);
        printf("\n");
    }

    /* No configuration: every column of the current device, here a
     * 4-column npu1 chosen for this block only. */
    IRON_WITH_DEVICE("npu1") {
        ok(IRON_CALL(j, x, y), "scale_cols on npu1");
    }
    if (!check(x, y))
        return 1;
    iron_jit_stats st = jit_stats(j);
    printf("specializations: %llu (one per column count and device)\n",
           (unsigned long long)st.specializations);

    /* Mistake: more columns than the device has. */
    iron_launch_config wide = { .size = sizeof wide, .cols = 16 };
    iron_status s = iron_jit_launch(j, &wide, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                    IRON_TENSORS(x, y));
    printf("16 columns: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s == IRON_OK)
        return 1;

    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    return 0;
}
