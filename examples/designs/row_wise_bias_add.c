/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * row_wise_bias_add.c - upstream mlir-aie programming_examples/basic/
 * row_wise_bias_add/row_wise_bias_add.py (IRON): out = in + bias[col] on
 * a float32 M x N matrix, M = 768, N = 2304 (upstream's Makefile), tiles
 * of m x n = 96 x 32.
 *
 * Kept as upstream:
 *   - in_fifo and out_fifo of float32[m * n] objects, bias_fifo of
 *     float32[n], all default depth 2;
 *   - the kernel row_wise_bias_add_f32_f32 (built with -DDIM_m, -DDIM_n)
 *     is its own kernel, called by one worker (not pinned) whose core
 *     body, described op by op as upstream's core_fn, for each of the N/n
 *     column strips acquires the strip's bias once and then, M/m times,
 *     acquires an input and an output tile, calls the kernel, and
 *     releases the output, then the input; the bias is released after the
 *     strip (inside the endless loop of upstream's Worker);
 *   - the input fill and the output drain use TensorTiler2D.group_tiler(
 *     (M, N), (m, n), (M/m, N/n), tile_group_col_major=True)[0] -- the
 *     tiles of each column strip top to bottom, strip after strip
 *     (upstream: sizes [1, 72, 768, 32] strides [0, 32, 2304, 1] after
 *     prune_step); the bias fill uses group_tiler((1, N), (1, n),
 *     (1, N/n))[0] (upstream: [1, 72, 1, 32] / [0, 32, 2304, 1]);
 *   - the sequence: fill in, fill bias, drain out (wait).
 * The form of the patterns differs, not their order: the library's tiler
 * drops size-1 loops and merges loops that continue each other, giving
 * [72, 768, 32] / [32, 2304, 1] and, for the bias, [2304] / [1] (the test
 * checks both visit upstream's elements in upstream's order).
 * Upstream's @iron.jit function takes M, N, m, n as compile-time values;
 * here M and N are the tensors' shape and m, n the parameters.
 * The kernel is upstream's kernel.cc (DIM_m, DIM_n defines; vectors of
 * t = 32 floats) as scalar C: for each 32-column block of the tile and
 * each row, out = in + bias, one float add per element.
 */
#include "designs/bodies.h"
#include "designs/upstream_ml.h"

/* kernel.cc: row_wise_bias_add_f32_f32 on an m x n tile, compiled with
 * -DDIM_m and -DDIM_n (upstream's compile_flags). */
static const char kernel_src[] =
    "#include <stdint.h>\n"
    "static void row_wise_bias_add(const float *in, const float *bias,\n"
    "                              float *out, int m, int n, int t)\n"
    "{\n"
    "    for (int j = 0; j < n / t; j++)\n"
    "        for (int i = 0; i < m; i++)\n"
    "            for (int k = 0; k < t; k++)\n"
    "                out[i * n + j * t + k] =\n"
    "                    in[i * n + j * t + k] + bias[j * t + k];\n"
    "}\n"
    "_Static_assert(DIM_n % 32 == 0, \"DIM_n: whole 32-float vectors\");\n"
    "void row_wise_bias_add_f32_f32(const float *in, const float *bias,\n"
    "                               float *out)\n"
    "{\n"
    "    row_wise_bias_add(in, bias, out, DIM_m, DIM_n, 32);\n"
    "}\n";

/* row_wise_bias_add.py's core_fn(in_fifo, bias_fifo, out_fifo,
 * kernel_func), in the Worker's endless loop. */
static iron_body *core_fn(iron_design *d, iron_handle *in, iron_handle *bias,
                          iron_handle *out, iron_kernel *k, int64_t strips,
                          int64_t tiles)
{
    iron_body *b = iron_body_new(d, "core_fn");
    iron_val in_fifo = iron_body_fifo(b, in);
    iron_val bias_fifo = iron_body_fifo(b, bias);
    iron_val out_fifo = iron_body_fifo(b, out);
    iron_val kernel_func = iron_body_kernel(b, k);
    body_forever(b);
    body_for(b, 0, strips);
    iron_val elem_bias = body_acquire1(b, bias_fifo);
    body_for(b, 0, tiles);
    iron_val elem_in = body_acquire1(b, in_fifo);
    iron_val elem_out = body_acquire1(b, out_fifo);
    iron_body_call(b, kernel_func, 3,
                   (const iron_val[]){ elem_in, elem_bias, elem_out });
    iron_body_release(b, out_fifo, 1);
    iron_body_release(b, in_fifo, 1);
    body_end_for(b);
    iron_body_release(b, bias_fifo, 1);
    body_end_for(b);
    body_end_for(b);
    return b;
}

static int tiler_tap(iron_design *d, const iron_tiler2d *t, iron_tap *out,
                     const char *what)
{
    iron_status s = iron_tiler2d_tap(t, 0, out);
    if (s != IRON_OK)
        return iron_design_fail(d, s, "row_wise_bias_add: %s: %s", what,
                                iron_last_error());
    return 0;
}

int upstream_row_wise_bias_add_design(iron_design *d, void *user)
{
    (void)user;
    iron_shape si = iron_design_arg_shape(d, 0);
    int64_t m = iron_design_param_int(d, "m");
    int64_t n = iron_design_param_int(d, "n");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    const int64_t M = si.dims[0], N = si.dims[1];
    if (m < 1 || n < 32 || n % 32 != 0 || M % m != 0 || N % n != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "row_wise_bias_add: %lld x %lld does not "
                                "split into %lld x %lld tiles (n must be a "
                                "multiple of the kernel's 32-float vectors)",
                                (long long)M, (long long)N, (long long)m,
                                (long long)n);

    iron_fifo *in_fifo = iron_fifo_new(d, "in_fifo", IRON_FLOAT32,
                                       IRON_SHAPE(m * n), 2);
    iron_fifo *bias_fifo = iron_fifo_new(d, "bias_fifo", IRON_FLOAT32,
                                         IRON_SHAPE(n), 2);
    iron_fifo *out_fifo = iron_fifo_new(d, "out_fifo", IRON_FLOAT32,
                                        IRON_SHAPE(m * n), 2);

    iron_kernel *kernel_func = iron_kernel_new(
        d, "row_wise_bias_add_f32_f32", kernel_src,
        "float32*, float32*, float32*");
    iron_kernel_define_int(kernel_func, "DIM_m", m);
    iron_kernel_define_int(kernel_func, "DIM_n", n);
    iron_worker *worker = iron_worker_new_body(
        d, "bias_add",
        core_fn(d, iron_fifo_cons(in_fifo), iron_fifo_cons(bias_fifo),
                iron_fifo_prod(out_fifo), kernel_func, N / n, M / m));

    iron_tiler2d tiler = { .size = sizeof tiler, .rows = M, .cols = N,
                           .tile_rows = m, .tile_cols = n,
                           .group_rows = M / m, .group_cols = N / n,
                           .group_col_major = 1 };
    iron_tiler2d bias_tiler = { .size = sizeof bias_tiler, .rows = 1,
                                .cols = N, .tile_rows = 1, .tile_cols = n,
                                .group_rows = 1, .group_cols = N / n };
    iron_tap tap, bias_tap;
    if (tiler_tap(d, &tiler, &tap, "input/output pattern") ||
        tiler_tap(d, &bias_tiler, &bias_tap, "bias pattern"))
        return iron_design_status(d);

    iron_rt_start(d, worker);
    iron_rt_fill(d, iron_fifo_prod(in_fifo), 0, tap);
    iron_rt_fill(d, iron_fifo_prod(bias_fifo), 1, bias_tap);
    iron_rt_drain(d, iron_fifo_cons(out_fifo), 2, tap, IRON_WAIT);
    return 0;
}

const iron_jit_options upstream_row_wise_bias_add_options = {
    .size = sizeof(iron_jit_options),
    .name = "row_wise_bias_add",
    .args = "in inp: float32[M, N], in bias: float32[N], "
            "out out: float32[M, N]",
    .params = "m: int = 96, n: int = 32",
    .cflags = "-O2 -ffp-contract=off",
};
