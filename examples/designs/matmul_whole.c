/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * matmul_whole.c - the whole-array matmul reference design: int16 A[M, K]
 * times B[K, N] into int32 C[M, N] on every compute tile of the granted
 * columns (rows x cols cores, rows = 4).
 *
 *   A  --fill--> memtile: objects of (rows*m) x k, split by core row
 *                 --> piece r broadcast to the cols cores of row r
 *   B  --fill--> per column c: k x n objects broadcast to the rows cores
 *                 of column c (straight from the shim)
 *   C  <--drain-- per column c: memtile joins the rows cores' m x n tiles
 *                 into one (rows*m) x n object
 *
 * Core (r, c) computes, for each group of rows*m rows (I) and each group of
 * cols*n columns (J), the C tile (I*rows + r, J*cols + c): K/k products of
 * an A tile (row-major m x k) and a B tile (row-major k x n).  Its core
 * body is described op by op, as upstream's matmul core functions: in the
 * Worker's endless loop, acquire C, call the kind's zero kernel on it,
 * then K/k times acquire A and B, call the kind's matmul kernel (A, B, C)
 * and release A and B; release C.
 *
 * C is joined per column, not per row: a row's join would take cols input
 * channels on one memtile, 8 on npu2, and a memtile has 6; a column's join
 * takes rows = 4.  With A's split on column 0's memtile that memtile uses
 * 1 + 4 inputs and 4 + 1 outputs of its 6 + 6.
 *
 * The float32 variant (matmul_whole_f32) is the same dataflow with float
 * tiles and a float kernel; the benchmark compares it with a BLAS sgemm.
 */
#include <stdio.h>

#include "designs/bodies.h"
#include "designs/designs.h"

#define MMW_MAX_ROWS 8
#define MMW_MAX_COLS 64

/* The kernels, built with -DM_, -DK_, -DN_ (the tile).  Sums are kept in
 * uint32 so that wrap-around is defined; the result is C modulo 2^32, as
 * a C reference computing in int64 and truncating. */
static const char matmul_whole_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void zero_i32(int32_t *c)\n"
    "{\n"
    "    memset(c, 0, sizeof(int32_t) * M_ * N_);\n"
    "}\n"
    "void matmul_i16_i32(const int16_t *a, const int16_t *b, int32_t *c)\n"
    "{\n"
    "    for (int i = 0; i < M_; i++) {\n"
    "        uint32_t acc[N_];\n"
    "        for (int j = 0; j < N_; j++)\n"
    "            acc[j] = (uint32_t)c[i * N_ + j];\n"
    "        for (int kk = 0; kk < K_; kk++) {\n"
    "            const int32_t aik = a[i * K_ + kk];\n"
    "            for (int j = 0; j < N_; j++)\n"
    "                acc[j] += (uint32_t)(aik * b[kk * N_ + j]);\n"
    "        }\n"
    "        for (int j = 0; j < N_; j++)\n"
    "            c[i * N_ + j] = (int32_t)acc[j];\n"
    "    }\n"
    "}\n";

/* The float32 kernels: the same plain loops, accumulating in float in k
 * order (no blocking, no vector intrinsics: what a straightforward port
 * would run). */
static const char matmul_whole_f32_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void zero_f32(float *c)\n"
    "{\n"
    "    memset(c, 0, sizeof(float) * M_ * N_);\n"
    "}\n"
    "void matmul_f32_f32(const float *a, const float *b, float *c)\n"
    "{\n"
    "    for (int i = 0; i < M_; i++) {\n"
    "        float acc[N_];\n"
    "        for (int j = 0; j < N_; j++)\n"
    "            acc[j] = c[i * N_ + j];\n"
    "        for (int kk = 0; kk < K_; kk++) {\n"
    "            const float aik = a[i * K_ + kk];\n"
    "            for (int j = 0; j < N_; j++)\n"
    "                acc[j] += aik * b[kk * N_ + j];\n"
    "        }\n"
    "        for (int j = 0; j < N_; j++)\n"
    "            c[i * N_ + j] = acc[j];\n"
    "    }\n"
    "}\n";

/* The int8 and bfloat16 kernels of the GEMM the timing model is
 * calibrated on (bench/timing): C of the input's type, accumulated in
 * place -- int8 modulo 2^8, bfloat16 through float, each product added
 * and rounded back per k step (truncated: the bits a core's srs would
 * round are not what the bench measures). */
static const char matmul_whole_i8_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void zero_i8(int8_t *c)\n"
    "{\n"
    "    memset(c, 0, (size_t)M_ * N_);\n"
    "}\n"
    "void matmul_i8_i8(const int8_t *a, const int8_t *b, int8_t *c)\n"
    "{\n"
    "    for (int i = 0; i < M_; i++) {\n"
    "        uint8_t acc[N_];\n"
    "        for (int j = 0; j < N_; j++)\n"
    "            acc[j] = (uint8_t)c[i * N_ + j];\n"
    "        for (int kk = 0; kk < K_; kk++) {\n"
    "            const uint8_t aik = (uint8_t)a[i * K_ + kk];\n"
    "            for (int j = 0; j < N_; j++)\n"
    "                acc[j] = (uint8_t)(acc[j] + aik * (uint8_t)b[kk * N_ + j]);\n"
    "        }\n"
    "        for (int j = 0; j < N_; j++)\n"
    "            c[i * N_ + j] = (int8_t)acc[j];\n"
    "    }\n"
    "}\n";

static const char matmul_whole_bf16_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "static inline float bf(uint16_t x)\n"
    "{\n"
    "    uint32_t u = (uint32_t)x << 16;\n"
    "    float f;\n"
    "    memcpy(&f, &u, 4);\n"
    "    return f;\n"
    "}\n"
    "void zero_bf16(uint16_t *c)\n"
    "{\n"
    "    memset(c, 0, sizeof(uint16_t) * M_ * N_);\n"
    "}\n"
    "void matmul_bf16_bf16(const uint16_t *a, const uint16_t *b, uint16_t *c)\n"
    "{\n"
    "    for (int i = 0; i < M_; i++) {\n"
    "        float acc[N_];\n"
    "        for (int j = 0; j < N_; j++)\n"
    "            acc[j] = bf(c[i * N_ + j]);\n"
    "        for (int kk = 0; kk < K_; kk++) {\n"
    "            const float aik = bf(a[i * K_ + kk]);\n"
    "            for (int j = 0; j < N_; j++)\n"
    "                acc[j] += aik * bf(b[kk * N_ + j]);\n"
    "        }\n"
    "        for (int j = 0; j < N_; j++) {\n"
    "            uint32_t u;\n"
    "            memcpy(&u, &acc[j], 4);\n"
    "            c[i * N_ + j] = (uint16_t)(u >> 16);\n"
    "        }\n"
    "    }\n"
    "}\n";

/* What differs between the int16 design and its variants.  `name` is the
 * core body's name and the prefix of every message. */
typedef struct mmw_kind {
    const char *name;
    const char *src;
    iron_dtype in, out;
    const char *zero, *matmul;          /* the kernels' entries */
    const char *zero_types, *matmul_types;
    int even_kn;   /* 1: k and n must be even (int16 rows in whole words) */
    /* 1: the params c_depth (a core's C buffers) and kernel_cycles (the
     * matmul kernel's declared cost, 0: none) exist, and A reaches each
     * core row through a shim of its own (row r through column r's), as
     * the published whole-array GEMMs spread A over the shims, instead of
     * one fill split on a memtile. */
    int tunable;
} mmw_kind;

static const mmw_kind mmw_int16 = { "matmul_whole", matmul_whole_src,
                                    IRON_INT16, IRON_INT32, "zero_i32",
                                    "matmul_i16_i32", "int32*",
                                    "int16*, int16*, int32*", 1, 0 };
static const mmw_kind mmw_f32 = { "matmul_whole_f32", matmul_whole_f32_src,
                                  IRON_FLOAT32, IRON_FLOAT32, "zero_f32",
                                  "matmul_f32_f32", "float32*",
                                  "float32*, float32*, float32*", 0, 0 };
static const mmw_kind mmw_i8 = { "matmul_whole_i8", matmul_whole_i8_src,
                                 IRON_INT8, IRON_INT8, "zero_i8",
                                 "matmul_i8_i8", "int8*",
                                 "int8*, int8*, int8*", 0, 1 };
static const mmw_kind mmw_bf16 = { "matmul_whole_bf16", matmul_whole_bf16_src,
                                   IRON_BFLOAT16, IRON_BFLOAT16, "zero_bf16",
                                   "matmul_bf16_bf16", "bfloat16*",
                                   "bfloat16*, bfloat16*, bfloat16*", 1, 1 };

/* Core (r, c)'s body: per C tile, zero it and accumulate K/k products. */
static iron_body *core_body(iron_design *d, const mmw_kind *kind,
                            iron_handle *a, iron_handle *b_in,
                            iron_handle *c, iron_kernel *zero,
                            iron_kernel *matmul, int64_t ksteps)
{
    iron_body *b = iron_body_new(d, kind->name);
    body_mm mm = body_mm_params(b, a, b_in, c, zero, matmul);
    body_forever(b);
    body_mm_tile(b, &mm, ksteps);
    body_end_for(b);
    return b;
}

static int check_shapes(iron_design *d, const mmw_kind *kind, int rows,
                        int cols, int64_t M, int64_t K, int64_t N, int64_t m,
                        int64_t k, int64_t n)
{
    if (rows < 1 || rows > MMW_MAX_ROWS || cols > MMW_MAX_COLS)
        return iron_design_fail(d, IRON_ERESOURCE,
                                "%s: %d x %d cores; expected at most %d x %d",
                                kind->name, rows, cols, MMW_MAX_ROWS,
                                MMW_MAX_COLS);
    /* int16 rows of A and B tiles must be whole 32-bit words. */
    if (kind->even_kn && (m < 1 || k < 2 || k % 2 || n < 2 || n % 2))
        return iron_design_fail(d, IRON_ESHAPE,
                                "%s: tile %lld x %lld x %lld; k and n must "
                                "be even (int16 rows of whole 32-bit words)",
                                kind->name, (long long)m, (long long)k,
                                (long long)n);
    if (m < 1 || k < 1 || n < 1)
        return iron_design_fail(d, IRON_ESHAPE,
                                "%s: tile %lld x %lld x %lld; every size "
                                "must be at least 1",
                                kind->name, (long long)m, (long long)k,
                                (long long)n);
    if (M % (rows * m) || N % (cols * n) || K % k)
        return iron_design_fail(d, IRON_ESHAPE,
                                "%s: %lld x %lld x %lld does not "
                                "split into %d x %d cores of %lld x %lld x "
                                "%lld tiles (M must be a multiple of %lld, "
                                "N of %lld, K of %lld)",
                                kind->name, (long long)M, (long long)K,
                                (long long)N, rows, cols, (long long)m,
                                (long long)k, (long long)n,
                                (long long)(rows * m), (long long)(cols * n),
                                (long long)k);
    /* The A fill and the B fills visit their tiles once per column group:
     * that is the shim's repeat count (or outermost loop). */
    if (N / (cols * n) > 64)
        return iron_design_fail(d, IRON_ESHAPE,
                                "%s: %lld column groups of %d x %lld; the "
                                "fills repeat per column group and the shim "
                                "repeats at most 64 times",
                                kind->name, (long long)(N / (cols * n)), cols,
                                (long long)n);
    return 0;
}

/* The design for either kind: same dataflow, the kind's dtypes and
 * kernels. */
static int build(iron_design *d, const mmw_kind *kind)
{
    iron_shape sa = iron_design_arg_shape(d, 0),
               sb = iron_design_arg_shape(d, 1);
    int64_t m = iron_design_param_int(d, "m");
    int64_t k = iron_design_param_int(d, "k");
    int64_t n = iron_design_param_int(d, "n");
    int64_t c_depth = kind->tunable ? iron_design_param_int(d, "c_depth") : 0;
    int64_t kcycles =
        kind->tunable ? iron_design_param_int(d, "kernel_cycles") : 0;
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    const int rows = iron_design_device(d)->compute_rows;
    const int cols = iron_design_cols(d);
    int64_t M = sa.dims[0], K = sa.dims[1], N = sb.dims[1];
    if (check_shapes(d, kind, rows, cols, M, K, N, m, k, n))
        return iron_design_status(d);
    const int64_t col_groups = N / (cols * n);

    iron_kernel *zero = iron_kernel_new(d, kind->zero, kind->src,
                                        kind->zero_types);
    iron_kernel *matmul = iron_kernel_new(d, kind->matmul, kind->src,
                                          kind->matmul_types);
    iron_kernel *ks[2] = { zero, matmul };
    for (int i = 0; i < 2; i++) {
        iron_kernel_define_int(ks[i], "M_", m);
        iron_kernel_define_int(ks[i], "K_", k);
        iron_kernel_define_int(ks[i], "N_", n);
    }
    if (kcycles > 0) {
        /* The matmul kernel's cost per call, as measured elsewhere
         * (bench/timing declares the published kernels' rates). */
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)kcycles);
        iron_kernel_set_cycles(matmul, text);
    }

    /* A: one FIFO from the shim; the memtile cuts each (rows*m) x k object
     * into the rows' m x k tiles (row-major, so piece r starts at r*m*k).
     * The tunable kinds: a FIFO per row, each from its own shim. */
    iron_fifo *a = kind->tunable ? NULL
                                 : iron_fifo_new(d, "a", kind->in,
                                                 IRON_SHAPE(rows * m, k), 2);
    char a_names[MMW_MAX_ROWS][16];
    const char *a_name_p[MMW_MAX_ROWS];
    int64_t a_offsets[MMW_MAX_ROWS], c_offsets[MMW_MAX_ROWS];
    int c_depths[MMW_MAX_ROWS];
    iron_shape a_shapes[MMW_MAX_ROWS], c_shapes[MMW_MAX_ROWS];
    for (int r = 0; r < rows; r++) {
        snprintf(a_names[r], sizeof a_names[r], "a%d", r);
        a_name_p[r] = a_names[r];
        a_offsets[r] = r * m * k;
        a_shapes[r] = IRON_SHAPE(m, k);
        c_offsets[r] = r * m * n;
        c_shapes[r] = IRON_SHAPE(m, n);
        c_depths[r] = (int)c_depth;
    }
    iron_fifo *a_rows[MMW_MAX_ROWS];
    if (a)
        iron_fifo_split(d, iron_fifo_cons(a), rows, a_name_p, a_offsets,
                        a_shapes, NULL, a_rows);
    else
        for (int r = 0; r < rows; r++)
            a_rows[r] = iron_fifo_new(d, a_name_p[r], kind->in,
                                      IRON_SHAPE(m, k), 2);

    iron_fifo *b_cols[MMW_MAX_COLS], *c_cols[MMW_MAX_COLS];
    iron_handle *c_drains[MMW_MAX_COLS];
    for (int c = 0; c < cols; c++) {
        char name[24];
        snprintf(name, sizeof name, "b%d", c);
        b_cols[c] = iron_fifo_new(d, name, kind->in, IRON_SHAPE(k, n), 2);
        snprintf(name, sizeof name, "c%d", c);
        c_cols[c] = iron_fifo_new(d, name, kind->out,
                                  IRON_SHAPE(rows * m, n), 2);
        c_drains[c] = iron_fifo_cons(c_cols[c]);
        char c_names[MMW_MAX_ROWS][32];
        const char *c_name_p[MMW_MAX_ROWS];
        for (int r = 0; r < rows; r++) {
            snprintf(c_names[r], sizeof c_names[r], "c%d_%d", r, c);
            c_name_p[r] = c_names[r];
        }
        iron_fifo *c_tiles[MMW_MAX_ROWS];
        iron_fifo_join(d, iron_fifo_prod(c_cols[c]), rows, c_name_p,
                       c_offsets, c_shapes, c_depth > 0 ? c_depths : NULL,
                       c_tiles);
        for (int r = 0; r < rows; r++) {
            char wname[32];
            snprintf(wname, sizeof wname, "mm%d_%d", r, c);
            iron_worker *w = iron_worker_new_body(
                d, wname,
                core_body(d, kind, iron_fifo_cons(a_rows[r]),
                          iron_fifo_cons(b_cols[c]),
                          iron_fifo_prod(c_tiles[r]), zero, matmul, K / k));
            /* Core (r, c) on tile (c, 2 + r): the design's geometry is the
             * array's, so the join of column c sits on column c. */
            iron_worker_place(w, c, 2 + r);
            iron_rt_start(d, w);
        }
    }

    /* One task group per row group I: 1 + cols fills and cols drains, at
     * most 3 tasks on any shim. */
    iron_tiler2d at = { .size = sizeof at, .rows = M, .cols = K,
                        .tile_rows = rows * m, .tile_cols = k,
                        .group_rows = 1, .group_cols = K / k,
                        .repeat = col_groups };
    for (int64_t I = 0; I < M / (rows * m); I++) {
        iron_tap a_tap;
        iron_status s = iron_tiler2d_tap(&at, I, &a_tap);
        if (s != IRON_OK)
            return iron_design_fail(d, s, "%s: A fill: %s", kind->name,
                                    iron_last_error());
        iron_rt_task_group_begin(d);
        if (a) {
            iron_rt_fill(d, iron_fifo_prod(a), 0, a_tap);
        } else {
            for (int r = 0; r < rows; r++) {
                /* Row r's tiles of row group I: for each column group,
                 * the K/k tiles along rows (I*rows + r)*m. */
                const int64_t sizes[4] = { col_groups, K / k, m, k };
                const int64_t strides[4] = { 0, k, K, 1 };
                iron_handle *h = iron_fifo_prod(a_rows[r]);
                iron_handle_set_shim(h, r % cols);
                iron_rt_fill(d, h, 0,
                             iron_tap_make((I * rows + r) * m * K, 4, sizes,
                                           strides));
            }
        }
        for (int c = 0; c < cols; c++) {
            /* Column c's B tiles: for each column group J, the K/k tiles
             * down tile column J*cols + c. */
            const int64_t sizes[4] = { col_groups, K / k, k, n };
            const int64_t strides[4] = { cols * n, k * N, N, 1 };
            iron_rt_fill(d, iron_fifo_prod(b_cols[c]), 1,
                         iron_tap_make(c * n, 4, sizes, strides));
        }
        for (int c = 0; c < cols; c++) {
            /* Column c's joined objects, one per column group: rows*m rows
             * of n elements at column (J*cols + c)*n. */
            const int64_t sizes[3] = { col_groups, rows * m, n };
            const int64_t strides[3] = { cols * n, N, 1 };
            iron_rt_drain(d, c_drains[c], 2,
                          iron_tap_make(I * rows * m * N + c * n, 3, sizes,
                                        strides),
                          IRON_WAIT);
        }
        iron_rt_task_group_end(d);
    }
    return 0;
}

int matmul_whole_design(iron_design *d, void *user)
{
    (void)user;
    return build(d, &mmw_int16);
}

int matmul_whole_f32_design(iron_design *d, void *user)
{
    (void)user;
    return build(d, &mmw_f32);
}

int matmul_whole_i8_design(iron_design *d, void *user)
{
    (void)user;
    return build(d, &mmw_i8);
}

int matmul_whole_bf16_design(iron_design *d, void *user)
{
    (void)user;
    return build(d, &mmw_bf16);
}

const iron_jit_options matmul_whole_options = {
    .size = sizeof(iron_jit_options),
    .name = "matmul_whole",
    .args = "in a: int16[M, K], in b: int16[K, N], out c: int32[M, N]",
    .params = "m: int = 64, k: int = 64, n: int = 32",
    .cflags = "-O3",
};

/* Float tiles are twice int16's: k = 32 keeps the double-buffered A, B
 * and C tiles at 40 KiB of a core's 64 KiB (k = 64 would need 64 KiB
 * before the stack). */
const iron_jit_options matmul_whole_f32_options = {
    .size = sizeof(iron_jit_options),
    .name = "matmul_whole_f32",
    .args = "in a: float32[M, K], in b: float32[K, N], out c: float32[M, N]",
    .params = "m: int = 64, k: int = 32, n: int = 32",
    .cflags = "-O3",
};

/* The GEMMs the timing model is calibrated on take their tiles as the
 * published ones (bench/timing): the A and B tiles double-buffered and C
 * once (c_depth = 1), as 112 x 112 x 112 int8 fits a core's 64 KiB only
 * so. */
const iron_jit_options matmul_whole_i8_options = {
    .size = sizeof(iron_jit_options),
    .name = "matmul_whole_i8",
    .args = "in a: int8[M, K], in b: int8[K, N], out c: int8[M, N]",
    .params = "m: int = 64, k: int = 64, n: int = 64, c_depth: int = 2, "
              "kernel_cycles: int = 0",
    .cflags = "-O3",
};

const iron_jit_options matmul_whole_bf16_options = {
    .size = sizeof(iron_jit_options),
    .name = "matmul_whole_bf16",
    .args = "in a: bfloat16[M, K], in b: bfloat16[K, N], "
            "out c: bfloat16[M, N]",
    .params = "m: int = 64, k: int = 32, n: int = 64, c_depth: int = 2, "
              "kernel_cycles: int = 0",
    .cflags = "-O3",
};
