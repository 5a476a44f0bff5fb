/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * memcpy_cols.c - the multi-column memcpy reference design: every granted
 * column runs two copy workers, each streaming its own contiguous chunk of
 * the tensor through its own pair of FIFOs.  It measures how the array
 * scales with columns: the columns share nothing, so the emulator runs
 * them in parallel lanes.
 */
#include <stdio.h>

#include "designs/designs.h"

/* Two workers per column: a shim has two MM2S and two S2MM channels, so
 * two in/out FIFO pairs per column is what the shims can feed. */
#define MEMCPY_PER_COL 2

static const char copy_line_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void copy_line(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    memcpy(out, in, (size_t)n * sizeof *in);\n"
    "}\n";

int memcpy_cols_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t line = iron_design_param_int(d, "line");
    int cols = iron_design_cols(d);
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    if (cols > 64)
        return iron_design_fail(d, IRON_ERESOURCE,
                                "memcpy_cols: %d columns; at most 64", cols);
    const int64_t workers = (int64_t)cols * MEMCPY_PER_COL;
    if (line < 1 || n % (workers * line) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "memcpy_cols: %lld elements do not split "
                                "into %d columns x %d workers of whole "
                                "%lld-element lines",
                                (long long)n, cols, MEMCPY_PER_COL,
                                (long long)line);
    const int64_t chunk = n / workers;
    iron_kernel *k = iron_kernel_new(d, "copy_line", copy_line_src,
                                     "int32*, int32*, int32");
    iron_handle *fills[MEMCPY_PER_COL * 64], *drains[MEMCPY_PER_COL * 64];
    for (int i = 0; i < cols; i++)
        for (int j = 0; j < MEMCPY_PER_COL; j++) {
            int w = MEMCPY_PER_COL * i + j;
            char in_name[32], out_name[32], w_name[32];
            snprintf(in_name, sizeof in_name, "in%d_%d", i, j);
            snprintf(out_name, sizeof out_name, "out%d_%d", i, j);
            snprintf(w_name, sizeof w_name, "copy%d_%d", i, j);
            iron_fifo *in = iron_fifo_new(d, in_name, IRON_INT32,
                                          IRON_SHAPE(line), 2);
            iron_fifo *out = iron_fifo_new(d, out_name, IRON_INT32,
                                           IRON_SHAPE(line), 2);
            iron_worker *wk =
                iron_worker_new(d, w_name, k, chunk / line,
                                IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                                          iron_arg_fifo(iron_fifo_prod(out)),
                                          iron_arg_int(line)));
            /* Pinned so that worker (i, j) really is in column i: its
             * FIFOs then take column i's shim channels. */
            iron_worker_place(wk, i, 2 + j);
            iron_rt_start(d, wk);
            fills[w] = iron_fifo_prod(in);
            drains[w] = iron_fifo_cons(out);
        }
    /* One task group: every fill is issued before any drain, and the
     * group ends when every drain is done. */
    iron_rt_task_group_begin(d);
    for (int w = 0; w < workers; w++) {
        int64_t sizes[1] = { chunk }, strides[1] = { 1 };
        iron_rt_fill(d, fills[w], 0, iron_tap_make(chunk * w, 1, sizes,
                                                   strides));
    }
    for (int w = 0; w < workers; w++) {
        int64_t sizes[1] = { chunk }, strides[1] = { 1 };
        iron_rt_drain(d, drains[w], 1,
                      iron_tap_make(chunk * w, 1, sizes, strides), IRON_WAIT);
    }
    iron_rt_task_group_end(d);
    return 0;
}

const iron_jit_options memcpy_cols_options = {
    .size = sizeof(iron_jit_options),
    .name = "memcpy_cols",
    .args = "in input: int32[N], out output: int32[N]",
    .params = "line: int = 1024",
};
