/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * matmul_whole_upstream.c - upstream mlir-aie programming_examples/basic/
 * matrix_multiplication/whole_array/whole_array_iron.py (the IRON version,
 * not whole_array_placed.py): C = A * B on n_aie_cols x 4 cores, with
 * upstream's defaults M = K = N = 512, m = 64, k = 64, n = 32,
 * n_aie_cols = 4, --dtype_in i16 --dtype_out i16.
 *
 * Kept as upstream:
 *   - A_L3L2_i (i < n_shim_mem_A; int16[m * k * n_A_tiles_per_shim],
 *     depth 2) split on memtile Tile(i, 1) (Tile(2i, 1) with 8 columns)
 *     at offsets m*k*j into A_L2L1_row (int16[m, k], the input's depth),
 *     each with dims_to_stream [(m/r, r*k), (k/s, s), (r, k), (s, 1)];
 *     A_L2L1_row is consumed by the n_aie_cols cores of its row;
 *   - B_L3L2_col (int16[k * n], depth 2) forwarded on Tile(col, 1) into
 *     B_L2L1_col of obj_type int16[k, n] with dims_to_stream
 *     [(k/s, s*n), (n/t, t), (s, n), (t, 1)], consumed by the 4 cores of
 *     the column;
 *   - C_L2L3_col (out[m * n * 4], depth 2, dims_to_stream
 *     [(m/r, r*n), (r, t), (n/t, r*t), (t, 1)]) joined on Tile(col, 1)
 *     from C_L1L2_col_row (out[m, n], depths [2, 2, 2, 2]) at offsets
 *     [0, m*n, 2*m*n, 3*m*n].  The pattern describes one m x n tile of the
 *     4m x n object; the memtile DMA wraps its outermost dimension over
 *     the rest (x4), as upstream relies on;
 *   - the core body, described op by op as upstream's core_fn:
 *     n_tiles_per_core times (once if that is 0 or 1) acquire C, zero(C),
 *     K/k times acquire A and B, matmul(A, B, C), release A and B; release
 *     C -- inside the endless loop of upstream's Worker (while_true).  zero
 *     and matmul are the kernels it calls (zero_<out>, matmul_i16_<out>);
 *     the worker of (row, col) is pinned on Tile(col, 2 + row), stack_size
 *     0xD00;
 *   - the taps: A_tiles = group_tiler((M, K), (m * n_A_tiles_per_shim, k),
 *     (1, K/k), pattern_repeat = N/n/n_aie_cols, prune_step = False)
 *     (defaults: sizes [4, 8, 64, 64] strides [0, 64, 512, 1], offset
 *     i * 64 * 512); B_tiles = step_tiler((K, N), (k, n), (K/k,
 *     N/n/n_aie_cols), steps (1, n_aie_cols), tile_group_col_major,
 *     prune_step = False) ([4, 8, 64, 32] / [128, 32768, 512, 1], offset
 *     32 col); C_tiles = step_tiler((M, N), (4m, n), (tb_n_rows = 2,
 *     N/n/n_aie_cols), steps (1, n_aie_cols), prune_step = False)
 *     ([2, 4, 256, 32] / [131072, 128, 512, 1], offset 32 col);
 *   - the runtime sequence: one task group open; for each transfer block
 *     tb of 4 rows of 4m x N and its ping/pong halves (stopping once the C
 *     taps run out): per column the C drain (wait) then, per row of the
 *     half, the A fill (columns < 4) of tap ((row_base + tile_row) *
 *     n_shim_mem_A + col) % len(A_tiles) and the B fill of B_tiles[col];
 *     after every half but the very first, finish the group and open the
 *     next; finish the last at the end.
 *
 * Differences that had to stay:
 *   - the kernels are aie_kernels/aie2/mm.cc as scalar C on the same
 *     blocked layouts (A in r x s blocks, B in s x t, C in r x t, blocks
 *     row-major), summing modulo 2^16 / 2^32 as mm.cc's matmul_scalar and
 *     the test's reference do.  On an AIE the vectorized kernel's
 *     aie::mmul::to_vector (srs) saturates instead; the results differ
 *     only where a partial sum overflows;
 *   - A, B, C are 2-D tensors [M, K], [K, N], [M, N] (upstream: flat
 *     M*K, K*N, M*N; the same memory);
 *   - each fill and drain goes through shim Tile(col, 0) (Tile(2col, 0)
 *     for A with 8 columns), as upstream places them (iron_handle_set_shim);
 *   - upstream's --dev flag is the device: npu1 devices take "npu"'s
 *     micro-tile (4 x 4 x 4 for i16), npu2 devices "npu2"'s (4 x 4 x 8);
 *     --b-col-maj, --trace_size, --generate-taps and the bf16 / i8
 *     dtypes are not ported.
 */
#include <stdio.h>
#include <string.h>

#include "designs/bodies.h"
#include "designs/upstream_matmul.h"

#define UMW_ROWS 4        /* n_aie_rows */
#define UMW_MAX_COLS 8
#define UMW_DEPTH 2       /* fifo_depth */
#define UMW_STACK 0xD00   /* Worker(stack_size=0xD00) */

/* ------------------------------------------------------------------------
 * aie_kernels/aie2/mm.cc (and zero.cc), shared with the single-core port
 * ------------------------------------------------------------------------ */

/* Built with -DDIM_M, -DDIM_K, -DDIM_N (the tile) and -DDIM_R, -DDIM_S,
 * -DDIM_T (the micro-tile), as upstream builds mm_{m}x{k}x{n}.o.  The
 * blocked layouts are mm.cc's matmul_vectorized's: A is [m/r][k/s][r][s],
 * B [k/s][n/t][s][t], C [m/r][n/t][r][t].  For each r x t block of C the
 * products of its k/s block pairs are summed (running_sum) and added to C,
 * in unsigned arithmetic so that the wrap-around is defined. */
static const char mm_src[] =
    "#include <stdint.h>\n"
    "#define RA (DIM_M / DIM_R)\n"
    "#define CA (DIM_K / DIM_S)\n"
    "#define CB (DIM_N / DIM_T)\n"
    "#define MATMUL_BLOCKED(name, T_out, U_out)                        \\\n"
    "void name(int16_t *a, int16_t *b, T_out *c)                      \\\n"
    "{                                                                \\\n"
    "    for (int z = 0; z < RA; z++)                                 \\\n"
    "        for (int j = 0; j < CB; j++) {                           \\\n"
    "            uint32_t acc[DIM_R][DIM_T] = { { 0 } };              \\\n"
    "            for (int i = 0; i < CA; i++) {                       \\\n"
    "                const int16_t *pa = a + (z * CA + i) * DIM_R * DIM_S; "
    "\\\n"
    "                const int16_t *pb = b + (i * CB + j) * DIM_S * DIM_T; "
    "\\\n"
    "                for (int x = 0; x < DIM_R; x++)                  \\\n"
    "                    for (int y = 0; y < DIM_S; y++) {            \\\n"
    "                        const int32_t av = pa[x * DIM_S + y];    \\\n"
    "                        for (int w = 0; w < DIM_T; w++)          \\\n"
    "                            acc[x][w] += (uint32_t)(av * pb[y * DIM_T + "
    "w]); \\\n"
    "                    }                                            \\\n"
    "            }                                                    \\\n"
    "            T_out *pc = c + (z * CB + j) * DIM_R * DIM_T;        \\\n"
    "            for (int x = 0; x < DIM_R; x++)                      \\\n"
    "                for (int w = 0; w < DIM_T; w++)                  \\\n"
    "                    pc[x * DIM_T + w] = (T_out)(U_out)(          \\\n"
    "                        (uint32_t)(U_out)pc[x * DIM_T + w] + acc[x][w]); "
    "\\\n"
    "        }                                                        \\\n"
    "}\n"
    "#define ZERO(name, T_out)                                         \\\n"
    "void name(T_out *c)                                              \\\n"
    "{                                                                \\\n"
    "    for (int i = 0; i < DIM_M * DIM_N; i++)                      \\\n"
    "        c[i] = 0;                                                \\\n"
    "}\n"
    "MATMUL_BLOCKED(matmul_i16_i16, int16_t, uint16_t)\n"
    "MATMUL_BLOCKED(matmul_i16_i32, int32_t, uint32_t)\n"
    "ZERO(zero_i16, int16_t)\n"
    "ZERO(zero_i32, int32_t)\n";

int upstream_mm_mac_dims(iron_design *d, int64_t *r, int64_t *s, int64_t *t)
{
    const iron_device_info *dev = iron_design_device(d);
    /* microkernel_mac_dim_map[dev]["i16"] */
    if (dev && dev->family && strcmp(dev->family, "npu1") == 0) {
        *r = 4, *s = 4, *t = 4;
        return 0;
    }
    if (dev && dev->family && strcmp(dev->family, "npu2") == 0) {
        *r = 4, *s = 4, *t = 8;
        return 0;
    }
    return iron_design_fail(d, IRON_EDEVICE,
                            "upstream matmul: no micro-tile for device "
                            "family '%s' (upstream's --dev is npu or npu2)",
                            dev && dev->family ? dev->family : "?");
}

int upstream_mm_kernels(iron_design *d, int64_t m, int64_t k, int64_t n,
                        iron_dtype out, iron_kernel **zero,
                        iron_kernel **matmul)
{
    int64_t r = 0, s = 0, t = 0;
    *zero = *matmul = NULL;
    if (upstream_mm_mac_dims(d, &r, &s, &t))
        return 1;
    if (out != IRON_INT16 && out != IRON_INT32)
        return iron_design_fail(d, IRON_EDTYPE,
                                "upstream matmul: C is %s; upstream's i16 "
                                "kernels write int16 or int32",
                                iron_dtype_name(out));
    const int i32 = out == IRON_INT32;
    *zero = iron_kernel_new(d, i32 ? "zero_i32" : "zero_i16", mm_src,
                            i32 ? "int32*" : "int16*");
    *matmul = iron_kernel_new(d, i32 ? "matmul_i16_i32" : "matmul_i16_i16",
                              mm_src,
                              i32 ? "int16*, int16*, int32*"
                                  : "int16*, int16*, int16*");
    iron_kernel *ks[2] = { *zero, *matmul };
    for (int i = 0; i < 2; i++) {
        iron_kernel_define_int(ks[i], "DIM_M", m);
        iron_kernel_define_int(ks[i], "DIM_K", k);
        iron_kernel_define_int(ks[i], "DIM_N", n);
        iron_kernel_define_int(ks[i], "DIM_R", r);
        iron_kernel_define_int(ks[i], "DIM_S", s);
        iron_kernel_define_int(ks[i], "DIM_T", t);
    }
    return iron_design_status(d) != IRON_OK;
}

iron_body *upstream_mm_core_fn(iron_design *d, iron_handle *a,
                               iron_handle *b_in, iron_handle *c,
                               iron_kernel *zero, iron_kernel *matmul,
                               int64_t tiles, int64_t k_tiles)
{
    iron_body *b = iron_body_new(d, "core_fn");
    body_mm mm = body_mm_params(b, a, b_in, c, zero, matmul);
    body_forever(b);
    body_for(b, 0, tiles > 1 ? tiles : 1);
    body_mm_tile(b, &mm, k_tiles);
    body_end_for(b);
    body_end_for(b);
    return b;
}

static int64_t ceildiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Pattern `index` of a tiler, or the design's failure naming `what`. */
static int tiler_tap(iron_design *d, const iron_tiler2d *tl, int64_t index,
                     iron_tap *out, const char *what)
{
    iron_status st = iron_tiler2d_tap(tl, index, out);
    if (st != IRON_OK)
        return iron_design_fail(d, st, "whole_array: %s tap %lld: %s", what,
                                (long long)index, iron_last_error());
    return 0;
}

static int tiler_count(iron_design *d, const iron_tiler2d *tl, int64_t *n,
                       const char *what)
{
    iron_status st = iron_tiler2d_count(tl, n);
    if (st != IRON_OK)
        return iron_design_fail(d, st, "whole_array: %s: %s", what,
                                iron_last_error());
    return 0;
}

/* my_matmul's assertions. */
static int check_sizes(iron_design *d, int64_t M, int64_t K, int64_t N,
                       int64_t m, int64_t k, int64_t n, int64_t cols,
                       int64_t r, int64_t s, int64_t t)
{
    if (cols != 1 && cols != 2 && cols != 4 && cols != 8)
        return iron_design_fail(d, IRON_EPARAM,
                                "whole_array: n_aie_cols = %lld; upstream's "
                                "choices are 1, 2, 4 and 8",
                                (long long)cols);
    if (cols > iron_design_cols(d))
        return iron_design_fail(d, IRON_ERESOURCE,
                                "whole_array: n_aie_cols = %lld but the "
                                "launch grants %d columns",
                                (long long)cols, iron_design_cols(d));
    if (m < 1 || k < 1 || n < 1 || M % (m * UMW_ROWS) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "whole_array: A must be tileable into (m * "
                                "n_aie_rows, k)-sized blocks: M = %lld, "
                                "m * 4 = %lld",
                                (long long)M, (long long)(m * UMW_ROWS));
    if (K % k != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "whole_array: K = %lld is not a multiple of "
                                "k = %lld",
                                (long long)K, (long long)k);
    if (N % (n * cols) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "whole_array: B must be tileable into (k, n "
                                "* n_aie_cols)-sized blocks: N = %lld, n * "
                                "n_aie_cols = %lld",
                                (long long)N, (long long)(n * cols));
    if (m % r != 0 || k % s != 0 || n % t != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "whole_array: tile %lld x %lld x %lld is not "
                                "made of the device's %lld x %lld x %lld "
                                "micro-tiles",
                                (long long)m, (long long)k, (long long)n,
                                (long long)r, (long long)s, (long long)t);
    return 0;
}

int upstream_matmul_whole_design(iron_design *d, void *user)
{
    (void)user;
    const iron_shape sa = iron_design_arg_shape(d, 0);
    const iron_shape sb = iron_design_arg_shape(d, 1);
    const iron_dtype dtype_out = iron_design_arg_dtype(d, 2);
    const int64_t m = iron_design_param_int(d, "m");
    const int64_t k = iron_design_param_int(d, "k");
    const int64_t n = iron_design_param_int(d, "n");
    const int64_t n_aie_cols = iron_design_param_int(d, "n_aie_cols");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    const int64_t M = sa.dims[0], K = sa.dims[1], N = sb.dims[1];
    int64_t r = 0, s = 0, t = 0;
    if (upstream_mm_mac_dims(d, &r, &s, &t) ||
        check_sizes(d, M, K, N, m, k, n, n_aie_cols, r, s, t))
        return iron_design_status(d);

    const int n_aie_rows = UMW_ROWS;
    const int cols = (int)n_aie_cols;
    const int64_t n_aie_cores = n_aie_rows * n_aie_cols;
    const int64_t n_tiles_per_core = (M / m) * (N / n) / n_aie_cores;
    const int n_shim_mem_A = cols > n_aie_rows ? n_aie_rows : cols;
    const int n_A_tiles_per_shim = cols < 4 ? n_aie_rows / cols : 1;

    iron_kernel *zero_kernel, *matmul_kernel;
    if (upstream_mm_kernels(d, m, k, n, dtype_out, &zero_kernel,
                            &matmul_kernel))
        return iron_design_status(d);

    iron_fifo *A_l3l2_fifos[UMW_ROWS] = { NULL };
    iron_fifo *A_l2l1_fifos[UMW_ROWS] = { NULL };
    iron_fifo *B_l3l2_fifos[UMW_MAX_COLS] = { NULL };
    iron_fifo *B_l2l1_fifos[UMW_MAX_COLS] = { NULL };
    iron_fifo *C_l1l2_fifos[UMW_ROWS][UMW_MAX_COLS] = { { NULL } };
    iron_fifo *C_l2l3_fifos[UMW_MAX_COLS] = { NULL };
    char name[32];

    /* Input A */
    const int64_t a_sizes[4] = { m / r, k / s, r, s };
    const int64_t a_strides[4] = { r * k, s, k, 1 };
    for (int i = 0; i < n_shim_mem_A; i++) {
        snprintf(name, sizeof name, "A_L3L2_%d", i);
        A_l3l2_fifos[i] = iron_fifo_new(d, name, IRON_INT16,
                                        IRON_SHAPE(m * k * n_A_tiles_per_shim),
                                        UMW_DEPTH);
        const int start_row = i * n_A_tiles_per_shim;
        const int stop_row = start_row + n_A_tiles_per_shim;
        char names[UMW_ROWS][32];
        const char *name_p[UMW_ROWS];
        int64_t of_offsets[UMW_ROWS];
        iron_shape obj_types[UMW_ROWS];
        for (int j = 0; j < stop_row - start_row; j++) {
            snprintf(names[j], sizeof names[j], "A_L2L1_%d", start_row + j);
            name_p[j] = names[j];
            of_offsets[j] = m * k * j;
            obj_types[j] = IRON_SHAPE(m, k);
        }
        /* alternate columns in the full 4 x 8 NPU2 case */
        const iron_link_options placement = {
            .size = sizeof placement, .place = IRON_LINK_TILE,
            .col = cols == 8 ? 2 * i : i, .row = 1
        };
        iron_fifo *a_tmp_fifos[UMW_ROWS] = { NULL };
        iron_fifo_split_with(d, iron_fifo_cons(A_l3l2_fifos[i]),
                             stop_row - start_row, name_p, of_offsets,
                             obj_types, NULL, a_tmp_fifos, &placement);
        for (int j = 0; j < stop_row - start_row; j++) {
            A_l2l1_fifos[j + start_row] = a_tmp_fifos[j];
            if (a_tmp_fifos[j])
                iron_handle_set_dims(iron_fifo_prod(a_tmp_fifos[j]), 4,
                                     a_sizes, a_strides);
        }
    }
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);

    const int64_t b_sizes[4] = { k / s, n / t, s, t };
    const int64_t b_strides[4] = { s * n, t, n, 1 };
    const int64_t c_sizes[4] = { m / r, r, n / t, t };
    const int64_t c_strides[4] = { r * n, t, r * t, 1 };
    for (int col = 0; col < cols; col++) {
        /* Input B */
        snprintf(name, sizeof name, "B_L3L2_%d", col);
        B_l3l2_fifos[col] = iron_fifo_new(d, name, IRON_INT16,
                                          IRON_SHAPE(k * n), UMW_DEPTH);
        const iron_link_options fwd = {
            .size = sizeof fwd, .place = IRON_LINK_TILE, .col = col,
            .row = 1, .dtype = IRON_INT16, .obj_shape = IRON_SHAPE(k, n)
        };
        snprintf(name, sizeof name, "B_L2L1_%d", col);
        B_l2l1_fifos[col] = iron_fifo_forward_with(
            d, iron_fifo_cons(B_l3l2_fifos[col]), name, 0, &fwd);
        if (!B_l2l1_fifos[col])
            return iron_design_status(d);
        iron_handle_set_dims(iron_fifo_prod(B_l2l1_fifos[col]), 4, b_sizes,
                             b_strides);

        /* Output C */
        snprintf(name, sizeof name, "C_L2L3_%d", col);
        C_l2l3_fifos[col] = iron_fifo_new(d, name, dtype_out,
                                          IRON_SHAPE(m * n * n_aie_rows),
                                          UMW_DEPTH);
        iron_handle_set_dims(iron_fifo_prod(C_l2l3_fifos[col]), 4, c_sizes,
                             c_strides);
        char names[UMW_ROWS][32];
        const char *name_p[UMW_ROWS];
        int64_t of_offsets[UMW_ROWS];
        iron_shape obj_types[UMW_ROWS];
        int depths[UMW_ROWS];
        for (int i = 0; i < n_aie_rows; i++) {
            snprintf(names[i], sizeof names[i], "C_L1L2_%d_%d", col, i);
            name_p[i] = names[i];
            of_offsets[i] = m * n * i;
            obj_types[i] = IRON_SHAPE(m, n);
            depths[i] = UMW_DEPTH;
        }
        /* join along one column */
        const iron_link_options placement = {
            .size = sizeof placement, .place = IRON_LINK_TILE, .col = col,
            .row = 1
        };
        iron_fifo *c_tmp_fifos[UMW_ROWS] = { NULL };
        iron_fifo_join_with(d, iron_fifo_prod(C_l2l3_fifos[col]), n_aie_rows,
                            name_p, of_offsets, obj_types, depths,
                            c_tmp_fifos, &placement);
        for (int j = 0; j < n_aie_rows; j++)
            C_l1l2_fifos[j][col] = c_tmp_fifos[j];
    }
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);

    /* Set up compute tiles */
    for (int row = 0; row < n_aie_rows; row++)
        for (int col = 0; col < cols; col++) {
            snprintf(name, sizeof name, "core_%d_%d", col, 2 + row);
            iron_worker *w = iron_worker_new_body(
                d, name,
                upstream_mm_core_fn(d, iron_fifo_cons(A_l2l1_fifos[row]),
                                    iron_fifo_cons(B_l2l1_fifos[col]),
                                    iron_fifo_prod(C_l1l2_fifos[row][col]),
                                    zero_kernel, matmul_kernel,
                                    n_tiles_per_core, K / k));
            iron_worker_place(w, col, 2 + row);
            iron_worker_set_stack(w, UMW_STACK);
            iron_rt_start(d, w);
        }

    /* We are limited in the number of BDs: transfer blocks of
     * tb_max_n_rows rows of 4m x N, half of them before each sync. */
    const int64_t tb_max_n_rows = 4;
    const int64_t tb_n_rows = tb_max_n_rows / 2;
    const iron_tiler2d A_tiles = {
        .size = sizeof A_tiles, .rows = M, .cols = K,
        .tile_rows = m * n_A_tiles_per_shim, .tile_cols = k,
        .group_rows = 1, .group_cols = K / k,
        .repeat = N / n / n_aie_cols, .no_prune_step = 1
    };
    const iron_tiler2d B_tiles = {
        .size = sizeof B_tiles, .rows = K, .cols = N, .tile_rows = k,
        .tile_cols = n, .group_rows = K / k,
        .group_cols = N / n / n_aie_cols, .step_rows = 1,
        .step_cols = n_aie_cols, .group_col_major = 1, .no_prune_step = 1
    };
    const iron_tiler2d C_tiles = {
        .size = sizeof C_tiles, .rows = M, .cols = N,
        .tile_rows = m * n_aie_rows, .tile_cols = n, .group_rows = tb_n_rows,
        .group_cols = N / n / n_aie_cols, .step_rows = 1,
        .step_cols = n_aie_cols, .no_prune_step = 1
    };
    int64_t n_A_tiles, n_B_tiles, n_C_tiles;
    if (tiler_count(d, &A_tiles, &n_A_tiles, "A_tiles") ||
        tiler_count(d, &B_tiles, &n_B_tiles, "B_tiles") ||
        tiler_count(d, &C_tiles, &n_C_tiles, "C_tiles"))
        return iron_design_status(d);
    if (n_B_tiles < cols)   /* the fills take B_tiles[col] */
        return iron_design_fail(d, IRON_ESHAPE,
                                "whole_array: B_tiles has %lld patterns, "
                                "fewer than the %d columns",
                                (long long)n_B_tiles, cols);
    int64_t c_index = 0;

    /* Task groups decide when to sync / await / free the DMA tasks. */
    iron_task_group *tg = iron_rt_task_group_new(d);
    const int64_t row_blocks = M / m / n_aie_rows;
    for (int64_t tb = 0; tb < ceildiv(row_blocks, tb_max_n_rows); tb++) {
        for (int pingpong = 0; pingpong < 2; pingpong++) {
            if (c_index >= n_C_tiles)
                break;   /* may not have a pong iteration */
            const int64_t row_base =
                tb * tb_max_n_rows + pingpong * tb_max_n_rows / 2;
            const int64_t rest = row_blocks - row_base;
            const int64_t current_tb_n_rows =
                rest < tb_max_n_rows / 2 ? rest : tb_max_n_rows / 2;
            for (int col = 0; col < cols; col++) {
                iron_tap tap;
                if (tiler_tap(d, &C_tiles, c_index, &tap, "C_tiles"))
                    return iron_design_status(d);
                iron_handle *drain = iron_fifo_cons(C_l2l3_fifos[col]);
                iron_handle_set_shim(drain, col);
                iron_rt_drain(d, drain, 2, tap, IRON_WAIT);
                c_index++;
                for (int64_t tile_row = 0; tile_row < current_tb_n_rows;
                     tile_row++) {
                    const int64_t tile_offset =
                        ((row_base + tile_row) * n_shim_mem_A + col) %
                        n_A_tiles;
                    if (col < n_aie_rows) {
                        if (tiler_tap(d, &A_tiles, tile_offset, &tap,
                                      "A_tiles"))
                            return iron_design_status(d);
                        iron_handle *a = iron_fifo_prod(A_l3l2_fifos[col]);
                        iron_handle_set_shim(a, cols == 8 ? 2 * col : col);
                        iron_rt_fill(d, a, 0, tap);
                    }
                    if (tiler_tap(d, &B_tiles, col, &tap, "B_tiles"))
                        return iron_design_status(d);
                    iron_handle *b = iron_fifo_prod(B_l3l2_fifos[col]);
                    iron_handle_set_shim(b, col);
                    iron_rt_fill(d, b, 1, tap);
                }
            }
            if (tb > 0 || pingpong > 0) {
                iron_rt_task_group_finish(d, tg);
                tg = iron_rt_task_group_new(d);
            }
        }
    }
    iron_rt_task_group_finish(d, tg);
    return 0;
}

const iron_jit_options upstream_matmul_whole_options = {
    .size = sizeof(iron_jit_options),
    .name = "whole_array",
    .args = "in A: int16[M, K], in B: int16[K, N], out C: T[M, N]",
    .params = "m: int = 64, k: int = 64, n: int = 32, n_aie_cols: int = 4",
    .cflags = "-O3",
};
