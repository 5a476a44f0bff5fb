/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * matmul_single.c - the single-core matmul reference design: int16
 * C = A * B (wrapping to int16) on one compute tile, tile by tile.
 *
 * Data path, per C tile (mt, nt):
 *   A row-major --fill--> memtile --(r x s blocks)--> core  } K/k times
 *   B row-major --fill--> memtile --(s x t blocks)--> core  }
 *   core: C tile = 0; C += A tile * B tile; --> drain (r x t blocks
 *   un-blocked by the drain's access pattern) --> C row-major
 * The kernel works on blocked tiles because that is what the AIE's
 * matrix-multiply instructions consume (r x s times s x t); the memtile's
 * DMA does the re-layout for free while forwarding.
 *
 * The core body is described op by op, as upstream's matmul core
 * functions: in the Worker's endless loop, for each C tile acquire it,
 * call the kernel zero_i16(C), then K/k times acquire an A and a B tile,
 * call matmul_i16_i16(A, B, C) and release both; release C.
 *
 * Its kernels are its own int16 C ports unless the jit's user pointer
 * names a kernel file (matmul_single_kernels: upstream-style AIE API
 * kernels such as examples/kernels/aie/mm.cc, int16 or bfloat16, in their
 * own micro-tile); the data path is the same.
 */
#include "designs/bodies.h"
#include "designs/designs.h"

/* Micro-tile sizes of the blocked layouts of the design's own kernels
 * (AIE2 int16: 8x2 * 2x8); kernels from a file bring their own. */
#define MM_R_C 8
#define MM_S_C 2
#define MM_T_C 8

/* The kernels, built with -DM_, -DK_, -DN_ (the tile) and -DR, -DS, -DT
 * (the micro-tile).  matmul_i16_i16 adds the product of an A tile in
 * [M_/R][K_/S][R][S] blocks and a B tile in [K_/S][N_/T][S][T] blocks to
 * a C tile in [M_/R][N_/T][R][T] blocks.  Sums are kept in uint32
 * (wrap-around is defined there) and stored modulo 2^16, which equals
 * the int16 wrap of the exact product. */
static const char matmul_single_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void zero_i16(int16_t *c)\n"
    "{\n"
    "    memset(c, 0, sizeof(int16_t) * M_ * N_);\n"
    "}\n"
    "void matmul_i16_i16(const int16_t *a, const int16_t *b, int16_t *c)\n"
    "{\n"
    "    for (int bi = 0; bi < M_ / R; bi++)\n"
    "        for (int bj = 0; bj < N_ / T; bj++) {\n"
    "            uint32_t acc[R][T] = { { 0 } };\n"
    "            for (int bk = 0; bk < K_ / S; bk++) {\n"
    "                const int16_t *ab = a + (bi * (K_ / S) + bk) * R * S;\n"
    "                const int16_t *bb = b + (bk * (N_ / T) + bj) * S * T;\n"
    "                for (int i = 0; i < R; i++)\n"
    "                    for (int s = 0; s < S; s++)\n"
    "                        for (int j = 0; j < T; j++)\n"
    "                            acc[i][j] += (uint32_t)(ab[i * S + s] *\n"
    "                                                    bb[s * T + j]);\n"
    "            }\n"
    "            int16_t *cb = c + (bi * (N_ / T) + bj) * R * T;\n"
    "            for (int i = 0; i < R; i++)\n"
    "                for (int j = 0; j < T; j++)\n"
    "                    cb[i * T + j] = (int16_t)(uint16_t)(\n"
    "                        (uint32_t)(uint16_t)cb[i * T + j] + acc[i][j]);\n"
    "        }\n"
    "}\n";

/* Checks the shapes against the tiles and the micro-tiles. */
static int check_shapes(iron_design *d, int64_t M, int64_t K, int64_t N,
                        int64_t m, int64_t k, int64_t n, int64_t ur,
                        int64_t us, int64_t ut)
{
    iron_shape sa = iron_design_arg_shape(d, 0),
               sb = iron_design_arg_shape(d, 1);
    iron_shape sc = iron_design_arg_shape(d, 2);
    if (sa.ndim != 2 || sb.ndim != 2 || sc.ndim != 2)
        return iron_design_fail(d, IRON_ESHAPE,
                                "matmul_single: A, B and C must be 2-D; got "
                                "%d-D, %d-D, %d-D",
                                sa.ndim, sb.ndim, sc.ndim);
    if (m < ur || m % ur || k < us || k % us || n < ut ||
        n % ut)
        return iron_design_fail(d, IRON_ESHAPE,
                                "matmul_single: tile %lld x %lld x %lld is "
                                "not made of %lld x %lld x %lld micro-tiles",
                                (long long)m, (long long)k, (long long)n,
                                (long long)ur, (long long)us,
                                (long long)ut);
    if (M % m || K % k || N % n)
        return iron_design_fail(d, IRON_ESHAPE,
                                "matmul_single: %lld x %lld x %lld is not a "
                                "whole number of %lld x %lld x %lld tiles",
                                (long long)M, (long long)K, (long long)N,
                                (long long)m, (long long)k, (long long)n);
    /* The A fill visits a row of A tiles once per C tile of the row; that
     * is the shim's repeat count. */
    if (N / n > 64)
        return iron_design_fail(d, IRON_ESHAPE,
                                "matmul_single: %lld column tiles; the A "
                                "fill repeats each row of A tiles once per "
                                "column tile and the shim repeats at most "
                                "64 times",
                                (long long)(N / n));
    /* Each row of C tiles is one task group of 2 fills + N/n drains on
     * one shim, which has 16 buffer descriptors. */
    if (2 + N / n > 16)
        return iron_design_fail(d, IRON_ESHAPE,
                                "matmul_single: %lld column tiles; a row of "
                                "C tiles takes 2 fills + %lld drains and the "
                                "shim has 16 buffer descriptors (at most 14 "
                                "column tiles)",
                                (long long)(N / n), (long long)(N / n));
    return 0;
}

/* The names of the tile's and the micro-tile's defines. */
static const char *const c_names[6] = { "M_", "K_", "N_", "R", "S", "T" };
static const char *const file_names[6] = { "DIM_M",  "DIM_K",  "DIM_N",
                                           "MMUL_R", "MMUL_S", "MMUL_T" };

/* The zero and matmul kernels: the design's own (int16, C source) or
 * those of the file `user` names, for the arguments' dtype. */
static int make_kernels(iron_design *d, const matmul_single_kernels *user,
                        iron_dtype dt, iron_kernel **zero,
                        iron_kernel **matmul)
{
    if (!user) {
        if (dt != IRON_INT16)
            return iron_design_fail(d, IRON_EDTYPE,
                                    "matmul_single: its own kernels are "
                                    "int16; got %s",
                                    iron_dtype_name(dt));
        *zero = iron_kernel_new(d, "zero_i16", matmul_single_src, "int16*");
        *matmul = iron_kernel_new(d, "matmul_i16_i16", matmul_single_src,
                                  "int16*, int16*, int16*");
        return 0;
    }
    if (dt != IRON_INT16 && dt != IRON_BFLOAT16)
        return iron_design_fail(d, IRON_EDTYPE,
                                "matmul_single: A, B and C must be int16 or "
                                "bfloat16; got %s",
                                iron_dtype_name(dt));
    int bf = dt == IRON_BFLOAT16;
    *zero = iron_kernel_new_file(d, bf ? "zero_bf16" : "zero_i16", user->path,
                                 bf ? "bfloat16*" : "int16*", 0, NULL);
    *matmul = iron_kernel_new_file(d,
                                   bf ? "matmul_bf16_bf16" : "matmul_i16_i16",
                                   user->path,
                                   bf ? "bfloat16*, bfloat16*, bfloat16*"
                                      : "int16*, int16*, int16*",
                                   0, NULL);
    return 0;
}

int matmul_single_design(iron_design *d, void *user)
{
    const matmul_single_kernels *mk = user;
    iron_shape sa = iron_design_arg_shape(d, 0),
               sb = iron_design_arg_shape(d, 1);
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    int64_t m = iron_design_param_int(d, "m");
    int64_t k = iron_design_param_int(d, "k");
    int64_t n = iron_design_param_int(d, "n");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    const int64_t ur = mk ? mk->r : MM_R_C, us = mk ? mk->s : MM_S_C,
                  ut = mk ? mk->t : MM_T_C;
    if (ur < 1 || us < 1 || ut < 1)
        return iron_design_fail(d, IRON_EINVAL,
                                "matmul_single: micro-tile %lld x %lld x "
                                "%lld: each must be at least 1",
                                (long long)ur, (long long)us,
                                (long long)ut);
    int64_t M = sa.dims[0], K = sa.dims[1], N = sb.dims[1];
    if (check_shapes(d, M, K, N, m, k, n, ur, us, ut))
        return iron_design_status(d);

    /* A and B come in row-major tiles and leave the memtile blocked: the
     * forwarded FIFO's producer (the memtile's DMA) reads each tile in
     * block order.  A: for each block row, block column, row, column. */
    iron_fifo *a_l3 =
        iron_fifo_new(d, "a_l3", dt, IRON_SHAPE(m, k), 2);
    iron_fifo *a_l2 = iron_fifo_forward(d, iron_fifo_cons(a_l3), "a_l2", 2);
    const int64_t a_sizes[4] = { m / ur, k / us, ur, us };
    const int64_t a_strides[4] = { ur * k, us, k, 1 };
    iron_handle_set_dims(iron_fifo_prod(a_l2), 4, a_sizes, a_strides);
    iron_fifo *b_l3 =
        iron_fifo_new(d, "b_l3", dt, IRON_SHAPE(k, n), 2);
    iron_fifo *b_l2 = iron_fifo_forward(d, iron_fifo_cons(b_l3), "b_l2", 2);
    const int64_t b_sizes[4] = { k / us, n / ut, us, ut };
    const int64_t b_strides[4] = { us * n, ut, n, 1 };
    iron_handle_set_dims(iron_fifo_prod(b_l2), 4, b_sizes, b_strides);
    iron_fifo *c = iron_fifo_new(d, "c", dt, IRON_SHAPE(m, n), 2);
    iron_handle *c_drain = iron_fifo_cons(c);

    iron_kernel *zero = NULL, *matmul = NULL;
    if (make_kernels(d, mk, dt, &zero, &matmul))
        return iron_design_status(d);
    /* The design's own C kernels take the tile as M_, K_, N_ and the
     * micro-tile as R, S, T.  A file's kernels get upstream's names (DIM_M,
     * DIM_K, DIM_N and the type pair's <in>_<out>_ONLY) and the micro-tile
     * as MMUL_R, MMUL_S, MMUL_T to check: one-letter macros would break
     * C++ headers, whose template parameters are named so. */
    iron_kernel *ks[2] = { zero, matmul };
    for (int i = 0; i < 2; i++) {
        const char *const *names = mk ? file_names : c_names;
        iron_kernel_define_int(ks[i], names[0], m);
        iron_kernel_define_int(ks[i], names[1], k);
        iron_kernel_define_int(ks[i], names[2], n);
        iron_kernel_define_int(ks[i], names[3], ur);
        iron_kernel_define_int(ks[i], names[4], us);
        iron_kernel_define_int(ks[i], names[5], ut);
        if (mk)
            iron_kernel_define(ks[i],
                               dt == IRON_BFLOAT16 ? "bf16_bf16_ONLY"
                                                   : "i16_i16_ONLY",
                               "1");
    }

    /* The core body: per C tile, zero it and accumulate K/k products. */
    iron_body *b = iron_body_new(d, "matmul_single");
    iron_handle *cons_a = iron_fifo_cons(a_l2);
    iron_handle *cons_b = iron_fifo_cons(b_l2);
    iron_handle *prod_c = iron_fifo_prod(c);
    body_mm mm = body_mm_params(b, cons_a, cons_b, prod_c, zero, matmul);
    body_forever(b);
    body_mm_tile(b, &mm, K / k);
    body_end_for(b);
    iron_worker *w = iron_worker_new_body(d, "matmul", b);
    iron_rt_start(d, w);

    /* One task group per row of C tiles: the A fill (that row of A tiles,
     * once per C tile), the B fill (every B tile, column by column) and one
     * drain per C tile -- 2 + N/n shim tasks, within the shim's 16 buffer
     * descriptors (checked above).  One pattern cannot un-block a whole
     * row of C tiles: [N/n][m/r][n/t][r][t] is five dimensions. */
    iron_tiler2d at = { .size = sizeof at, .rows = M, .cols = K,
                        .tile_rows = m, .tile_cols = k, .group_rows = 1,
                        .group_cols = K / k, .repeat = N / n };
    iron_tiler2d bt = { .size = sizeof bt, .rows = K, .cols = N,
                        .tile_rows = k, .tile_cols = n, .group_rows = K / k,
                        .group_cols = N / n, .group_col_major = 1 };
    iron_tap a_tap, b_tap;
    iron_status s = iron_tiler2d_tap(&bt, 0, &b_tap);
    if (s != IRON_OK)
        return iron_design_fail(d, s, "matmul_single: B fill: %s",
                                iron_last_error());
    for (int64_t mt = 0; mt < M / m; mt++) {
        if ((s = iron_tiler2d_tap(&at, mt, &a_tap)) != IRON_OK)
            return iron_design_fail(d, s, "matmul_single: A fill: %s",
                                    iron_last_error());
        iron_rt_task_group_begin(d);
        iron_rt_fill(d, iron_fifo_prod(a_l3), 0, a_tap);
        iron_rt_fill(d, iron_fifo_prod(b_l3), 1, b_tap);
        for (int64_t nt = 0; nt < N / n; nt++) {
            /* The stream is [m/r][n/t][r][t]; write each element back to
             * its row-major place in C. */
            const int64_t sizes[4] = { m / ur, n / ut, ur, ut };
            const int64_t strides[4] = { ur * N, ut, N, 1 };
            iron_rt_drain(d, c_drain, 2,
                          iron_tap_make(mt * m * N + nt * n, 4, sizes,
                                        strides),
                          IRON_WAIT);
        }
        iron_rt_task_group_end(d);
    }
    return 0;
}

/* -O3: the matmul kernel is the whole cost of a call, and vectorizing
 * the micro-tile loops pays back its compile time at once. */
const iron_jit_options matmul_single_options = {
    .size = sizeof(iron_jit_options),
    .name = "matmul_single",
    .args = "in a: int16[M, K], in b: int16[K, N], out c: int16[M, N]",
    .params = "m: int = 64, k: int = 64, n: int = 64",
    .cflags = "-O3",
};
