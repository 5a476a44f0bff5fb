/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * eltwise_parallel.c - the parallel elementwise reference design: one
 * worker per column, each streaming its own contiguous slice of the tensor
 * through its own FIFOs.  Independent columns run in parallel lanes.
 *
 * The workers are pinned to row 2 of their columns (the placer would fill
 * column 0 first), and every fill and drain is in one task group: a drain
 * awaited outside a group is waited for where it stands, which would run
 * the columns one after another.
 */
#include <stdio.h>

#include "designs/designs.h"

static const char axpb_src[] =
    "#include <stdint.h>\n"
    "void axpb(const int32_t *in, int32_t *out, int32_t n, int32_t a,\n"
    "          int32_t b)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] * a + b;\n"
    "}\n";

int eltwise_parallel_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t tile = 16;
    int64_t n = iron_design_arg_numel(d, 0);
    int cols = iron_design_cols(d);
    int64_t per = n / cols;
    if (n % (cols * tile) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "eltwise_parallel: %lld elements do not split "
                                "into %d columns of whole %lld-element "
                                "objects",
                                (long long)n, cols, (long long)tile);
    iron_kernel *k = iron_kernel_new(d, "axpb", axpb_src,
                                     "int32*, int32*, int32, int32, int32");
    iron_task_group *all = iron_rt_task_group_new(d);
    for (int c = 0; c < cols; c++) {
        char in_name[32], out_name[32], w_name[32];
        snprintf(in_name, sizeof in_name, "in%d", c);
        snprintf(out_name, sizeof out_name, "out%d", c);
        snprintf(w_name, sizeof w_name, "col%d", c);
        iron_fifo *in = iron_fifo_new(d, in_name, IRON_INT32,
                                      IRON_SHAPE(tile), 2);
        iron_fifo *out = iron_fifo_new(d, out_name, IRON_INT32,
                                       IRON_SHAPE(tile), 2);
        iron_worker *w = iron_worker_new(
            d, w_name, k, per / tile,
            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                      iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(tile),
                      iron_arg_int(iron_design_param_int(d, "scale")),
                      iron_arg_int(iron_design_param_int(d, "bias"))));
        int64_t sizes[1] = { per }, strides[1] = { 1 };
        iron_tap tap = iron_tap_make(per * c, 1, sizes, strides);
        iron_worker_place(w, c, 2);
        iron_rt_start(d, w);
        iron_rt_fill(d, iron_fifo_prod(in), 0, tap);
        iron_rt_drain(d, iron_fifo_cons(out), 1, tap, IRON_WAIT);
    }
    iron_rt_task_group_finish(d, all);
    return 0;
}

const iron_jit_options eltwise_parallel_options = {
    .size = sizeof(iron_jit_options),
    .name = "eltwise_parallel",
    .args = "in input: int32[N], out output: int32[N]",
    .params = "scale: int = 3, bias: int = 1",
};
