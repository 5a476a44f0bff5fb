/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * vector_op.c - vector add, and through the compile-time parameter `op`
 * the same design as vector sub (or any C binary operator): one worker,
 * three FIFOs of `tile`-element objects.  The kernel is C, or the file
 * named by `kernel_file` (entry `kernel_entry`, eltwise(a, b, c, n) by
 * default; the file sees OP too).
 */
#include <stdio.h>

#include "designs/designs.h"
#include "designs/kernel_choice.h"

const char vector_op_kernel_src[] =
    "#include <stdint.h>\n"
    "void eltwise(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = a[i] OP b[i];\n"
    "}\n";

int vector_op_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t tile = iron_design_param_int(d, "tile");
    const char *op = iron_design_param_str(d, "op");
    if (tile < 1 || n % tile != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_op: %lld elements are not a multiple "
                                "of tile=%lld",
                                (long long)n, (long long)tile);
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", dt, IRON_SHAPE(tile), 2);
    iron_fifo *b = iron_fifo_new(d, "b", dt, IRON_SHAPE(tile), 2);
    iron_fifo *c = iron_fifo_new(d, "c", dt, IRON_SHAPE(tile), 2);
    iron_kernel *k = design_kernel(d, "eltwise", vector_op_kernel_src,
                                   design_kernel_entry(d),
                                   "int32*, int32*, int32*, int32");
    iron_kernel_define(k, "OP", op);
    iron_worker *w = iron_worker_new(
        d, "eltwise", k, n / tile,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                  iron_arg_fifo(iron_fifo_cons(b)),
                  iron_arg_fifo(iron_fifo_prod(c)), iron_arg_int(tile)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(b), 1, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

const iron_jit_options vector_op_options = {
    .size = sizeof(iron_jit_options),
    .name = "vector_op",
    .args = "in a: int32[N], in b: int32[N], out c: int32[N]",
    .params = "tile: int = 16, op: str = '+', " KERNEL_FILE_PARAM ", "
              KERNEL_ENTRY_PARAM("eltwise"),
};
