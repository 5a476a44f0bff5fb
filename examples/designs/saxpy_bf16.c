/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * saxpy_bf16.c - the SAXPY reference design in bfloat16: z = a * x + y.
 * The kernel widens to float, multiplies and adds with a rounding after
 * each (the jit compiles it with -ffp-contract=off, so no FMA can fuse
 * them) and rounds the sum to bfloat16 to nearest even; a C reference
 * doing the same steps agrees bit for bit.
 */
#include "designs/designs.h"

/* bfloat16 travels as its bits (uint16_t); <iron/iron_kernel.h> converts
 * bit for bit as iron_bf16_from_float / iron_bf16_to_float do, so the C
 * reference can use those. */
static const char saxpy_bf16_src[] =
    "#include <iron/iron_kernel.h>\n"
    "void saxpy_bf16(const uint16_t *x, const uint16_t *y, uint16_t *z,\n"
    "                float a, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++) {\n"
    "        float ax = a * iron_k_bf16_to_float(x[i]);\n"
    "        z[i] = iron_k_bf16_from_float(ax + iron_k_bf16_to_float(y[i]));\n"
    "    }\n"
    "}\n";

int saxpy_bf16_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t tile = iron_design_param_int(d, "tile");
    double a = iron_design_param_float(d, "a");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    /* bfloat16 objects must be whole 32-bit words for the DMAs. */
    if (tile < 2 || tile % 2 != 0 || n % tile != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "saxpy_bf16: %lld elements do not split "
                                "into objects of tile=%lld (an even number)",
                                (long long)n, (long long)tile);
    iron_fifo *x = iron_fifo_new(d, "x", IRON_BFLOAT16, IRON_SHAPE(tile), 2);
    iron_fifo *y = iron_fifo_new(d, "y", IRON_BFLOAT16, IRON_SHAPE(tile), 2);
    iron_fifo *z = iron_fifo_new(d, "z", IRON_BFLOAT16, IRON_SHAPE(tile), 2);
    iron_kernel *k = iron_kernel_new(d, "saxpy_bf16", saxpy_bf16_src,
                                     "bfloat16*, bfloat16*, bfloat16*, "
                                     "float32, int32");
    iron_worker *w =
        iron_worker_new(d, "saxpy", k, n / tile,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                                  iron_arg_fifo(iron_fifo_cons(y)),
                                  iron_arg_fifo(iron_fifo_prod(z)),
                                  iron_arg_float(a), iron_arg_int(tile)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(x), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(y), 1, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(z), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* -ffp-contract=off is a compile-time attribute of the jit: it changes the
 * generated code (no fused multiply-add), so it lives in the options. */
const iron_jit_options saxpy_bf16_options = {
    .size = sizeof(iron_jit_options),
    .name = "saxpy_bf16",
    .args = "in x: bfloat16[N], in y: bfloat16[N], out z: bfloat16[N]",
    .params = "a: float = 3.0, tile: int = 1024",
    .cflags = "-O2 -ffp-contract=off",
};
