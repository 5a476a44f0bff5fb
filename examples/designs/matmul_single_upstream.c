/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * matmul_single_upstream.c - upstream mlir-aie programming_examples/basic/
 * matrix_multiplication/single_core/single_core_iron.py (the IRON version,
 * not single_core_placed.py): C = A * B on one core, with upstream's
 * defaults M = K = N = 256, m = 64, k = 64, n = 32, --dtype_in i16
 * --dtype_out i32.
 *
 * Kept as upstream:
 *   - inA (int16[m, k], default depth 2) forwarded through a memtile the
 *     placer picks into memA with dims_to_stream [(m/r, r*k), (k/s, s),
 *     (r, k), (s, 1)]; inB (int16[k, n]) into memB with [(k/s, s*n),
 *     (n/t, t), (s, n), (t, 1)]; the core's memC (out[m, n]) forwarded
 *     into outC with [(m/r, r*n), (r, t), (n/t, r*t), (t, 1)] -- the
 *     memtile un-blocks each C tile on its way to the shim;
 *   - one worker (not pinned, stack_size 0xD00) whose core body is
 *     described op by op as upstream's core_fn, calling the kernels
 *     zero_<out> and matmul_i16_<out>: tiles = (M/m) * (N/n) times acquire
 *     C, zero(C), K/k times acquire A and B, matmul(A, B, C), release A
 *     and B; release C (inside the endless loop of upstream's Worker);
 *   - the taps: A_tiles = group_tiler((M, K), (m, k), (1, K/k),
 *     pattern_repeat = N/n) (defaults: [8, 4, 64, 64] / [0, 64, 256, 1] at
 *     offset 64 * 256 * row), b_tap = group_tiler((K, N), (k, n), (K/k,
 *     N/n), tile_group_col_major)[0] ([8, 256, 32] / [32, 256, 1]) and
 *     C_tiles = group_tiler((M, N), (m, n), (rows_per_block / 2, N/n))
 *     ([2, 8, 64, 32] / [16384, 32, 256, 1] at offset 2 * 64 * 256 * i);
 *   - the runtime sequence: rows_per_block = 4 rows of C tiles per block,
 *     each block in ping and pong halves of 2 rows; each half opens its
 *     own task group (fills of A and B per row, then the C drain, wait),
 *     and every half but the very first then finishes the group before it
 *     -- two groups open at once, so one half's transfers run while the
 *     other's are awaited; the last group is finished at the end.
 *
 * Differences that had to stay:
 *   - the kernels are aie_kernels/aie2/mm.cc as scalar C on the blocked
 *     layouts, summing modulo 2^32 / 2^16 as mm.cc's matmul_scalar and the
 *     test's reference do (the AIE's aie::mmul::to_vector saturates an
 *     int16 result instead; the results differ only on overflow);
 *   - A, B, C are 2-D tensors (upstream: flat M*K, K*N, M*N);
 *   - upstream's --dev is the device (npu1: r x s x t = 4 x 4 x 4, npu2:
 *     4 x 4 x 8); --b-col-maj, --trace_size (rt.enable_trace) and
 *     --generate-taps and the bf16 / i8 dtypes are not ported.
 */
#include "designs/upstream_matmul.h"

#define UMS_STACK 0xD00   /* Worker(stack_size=0xD00) */

static int tiler_tap(iron_design *d, const iron_tiler2d *tl, int64_t index,
                     iron_tap *out, const char *what)
{
    iron_status st = iron_tiler2d_tap(tl, index, out);
    if (st != IRON_OK)
        return iron_design_fail(d, st, "single_core: %s tap %lld: %s", what,
                                (long long)index, iron_last_error());
    return 0;
}

int upstream_matmul_single_design(iron_design *d, void *user)
{
    (void)user;
    const iron_shape sa = iron_design_arg_shape(d, 0);
    const iron_shape sb = iron_design_arg_shape(d, 1);
    const iron_dtype dtype_out = iron_design_arg_dtype(d, 2);
    const int64_t m = iron_design_param_int(d, "m");
    const int64_t k = iron_design_param_int(d, "k");
    const int64_t n = iron_design_param_int(d, "n");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    const int64_t M = sa.dims[0], K = sa.dims[1], N = sb.dims[1];
    if (m < 1 || k < 1 || n < 1 || M % m || K % k || N % n)
        return iron_design_fail(d, IRON_ESHAPE,
                                "single_core: %lld x %lld x %lld is not a "
                                "whole number of %lld x %lld x %lld tiles",
                                (long long)M, (long long)K, (long long)N,
                                (long long)m, (long long)k, (long long)n);
    /* r, s, t are the dimensions required by the microkernel MAC
     * instructions. */
    int64_t r = 0, s = 0, t = 0;
    if (upstream_mm_mac_dims(d, &r, &s, &t))
        return iron_design_status(d);
    if (m % r || k % s || n % t)
        return iron_design_fail(d, IRON_ESHAPE,
                                "single_core: tile %lld x %lld x %lld is not "
                                "made of the device's %lld x %lld x %lld "
                                "micro-tiles",
                                (long long)m, (long long)k, (long long)n,
                                (long long)r, (long long)s, (long long)t);

    const int64_t M_div_m = M / m, K_div_k = K / k, N_div_n = N / n;
    const int64_t tiles = M_div_m * N_div_n;

    iron_kernel *zero_kernel, *matmul_kernel;
    if (upstream_mm_kernels(d, m, k, n, dtype_out, &zero_kernel,
                            &matmul_kernel))
        return iron_design_status(d);

    /* Input A */
    iron_fifo *inA = iron_fifo_new(d, "inA", IRON_INT16, IRON_SHAPE(m, k), 2);
    iron_fifo *memA = iron_fifo_forward(d, iron_fifo_cons(inA), "memA", 0);
    const int64_t a_sizes[4] = { m / r, k / s, r, s };
    const int64_t a_strides[4] = { r * k, s, k, 1 };
    if (memA)
        iron_handle_set_dims(iron_fifo_prod(memA), 4, a_sizes, a_strides);

    /* Input B */
    iron_fifo *inB = iron_fifo_new(d, "inB", IRON_INT16, IRON_SHAPE(k, n), 2);
    iron_fifo *memB = iron_fifo_forward(d, iron_fifo_cons(inB), "memB", 0);
    const int64_t b_sizes[4] = { k / s, n / t, s, t };
    const int64_t b_strides[4] = { s * n, t, n, 1 };
    if (memB)
        iron_handle_set_dims(iron_fifo_prod(memB), 4, b_sizes, b_strides);

    /* Output C */
    iron_fifo *memC = iron_fifo_new(d, "memC", dtype_out, IRON_SHAPE(m, n),
                                    2);
    iron_fifo *outC = iron_fifo_forward(d, iron_fifo_cons(memC), "outC", 0);
    const int64_t c_sizes[4] = { m / r, r, n / t, t };
    const int64_t c_strides[4] = { r * n, t, r * t, 1 };
    if (outC)
        iron_handle_set_dims(iron_fifo_prod(outC), 4, c_sizes, c_strides);
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);

    /* Worker from the task: single_core_iron.py's core_fn (shared with the
     * whole-array design) */
    iron_worker *worker = iron_worker_new_body(
        d, "worker",
        upstream_mm_core_fn(d, iron_fifo_cons(memA), iron_fifo_cons(memB),
                            iron_fifo_prod(memC), zero_kernel, matmul_kernel,
                            tiles, K_div_k > 1 ? K_div_k : 1));
    iron_worker_set_stack(worker, UMS_STACK);

    /* only do 4 tile rows at a time before synchronizing, so we can reuse
     * BDs */
    const int64_t rows_per_block = 4;
    const iron_tiler2d A_tiles = {
        .size = sizeof A_tiles, .rows = M, .cols = K, .tile_rows = m,
        .tile_cols = k, .group_rows = 1, .group_cols = K_div_k,
        .repeat = N_div_n
    };
    /* There is only one access pattern for B: it tiles the entire matrix
     * in k x n tiles. */
    const iron_tiler2d B_tiles = {
        .size = sizeof B_tiles, .rows = K, .cols = N, .tile_rows = k,
        .tile_cols = n, .group_rows = K_div_k, .group_cols = N_div_n,
        .group_col_major = 1
    };
    const iron_tiler2d C_tiles = {
        .size = sizeof C_tiles, .rows = M, .cols = N, .tile_rows = m,
        .tile_cols = n, .group_rows = rows_per_block / 2,
        .group_cols = N_div_n
    };
    int64_t n_A_tiles, n_C_tiles;
    iron_tap b_tap, tap;
    iron_status st;
    if ((st = iron_tiler2d_count(&A_tiles, &n_A_tiles)) != IRON_OK ||
        (st = iron_tiler2d_count(&C_tiles, &n_C_tiles)) != IRON_OK)
        return iron_design_fail(d, st, "single_core: %s", iron_last_error());
    if (tiler_tap(d, &B_tiles, 0, &b_tap, "b"))
        return iron_design_status(d);
    int64_t c_index = 0;

    iron_rt_start(d, worker);
    /* At most two groups are open: tgs[0] the older, tgs[1] the newer. */
    iron_task_group *tgs[2] = { NULL, NULL };
    int ntgs = 0;
    const int64_t blocks = (M_div_m + rows_per_block - 1) / rows_per_block;
    for (int64_t tile_row_block = 0; tile_row_block < blocks;
         tile_row_block++) {
        /* We only sync on half the BDs before reusing them, so the other
         * half can keep running concurrently. */
        for (int pingpong = 0; pingpong < 2; pingpong++) {
            const int64_t row_base = tile_row_block * rows_per_block +
                                     pingpong * rows_per_block / 2;
            const int64_t rest = M_div_m - row_base;
            const int64_t num_tile_rows =
                rest < rows_per_block / 2 ? rest : rows_per_block / 2;
            if (num_tile_rows <= 0)
                break;   /* the very last iteration may need no 'pong' */
            tgs[ntgs++] = iron_rt_task_group_new(d);
            for (int64_t tile_row = 0; tile_row < num_tile_rows;
                 tile_row++) {
                /* -- A -- */
                const int64_t tile_offset = (row_base + tile_row) % n_A_tiles;
                if (tiler_tap(d, &A_tiles, tile_offset, &tap, "A_tiles"))
                    return iron_design_status(d);
                iron_rt_fill(d, iron_fifo_prod(inA), 0, tap);
                /* -- B -- */
                iron_rt_fill(d, iron_fifo_prod(inB), 1, b_tap);
            }
            /* -- C -- */
            if (c_index >= n_C_tiles)
                return iron_design_fail(d, IRON_ESHAPE,
                                        "single_core: C_tiles has %lld "
                                        "patterns; the sequence needs more",
                                        (long long)n_C_tiles);
            if (tiler_tap(d, &C_tiles, c_index, &tap, "C_tiles"))
                return iron_design_status(d);
            iron_rt_drain(d, iron_fifo_cons(outC), 2, tap, IRON_WAIT);
            c_index++;

            if (tile_row_block > 0 || pingpong > 0) {
                iron_rt_task_group_finish(d, tgs[0]);   /* tgs[-2] */
                tgs[0] = tgs[1];
                ntgs = 1;
            }
        }
    }
    iron_rt_task_group_finish(d, tgs[ntgs - 1]);
    return 0;
}

const iron_jit_options upstream_matmul_single_options = {
    .size = sizeof(iron_jit_options),
    .name = "single_core",
    .args = "in A: int16[M, K], in B: int16[K, N], out C: T[M, N]",
    .params = "m: int = 64, k: int = 64, n: int = 32",
    .cflags = "-O3",
};
