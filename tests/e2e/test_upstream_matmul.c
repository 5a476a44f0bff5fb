/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_upstream_matmul.c - the ports of upstream mlir-aie's IRON matrix
 * multiplication examples (examples/designs/upstream_matmul.h) end to end
 * on the emulated NPU, bit for bit against a C reference computed as
 * upstream's test does (programming_examples/basic/matrix_multiplication/
 * common.h: matmul<Tin, Tout, Tacc> with Tacc = Tout, i.e. each product
 * converted to the output type and summed there, wrapping), plus the
 * placed designs from iron_jit_dump: link placements, the workers' tiles,
 * the layout transforms (the C memtile pattern wrapping x4), the taps and
 * the task groups.
 */
#include <stdio.h>

#include "designs/upstream_matmul.h"
#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* Upstream's get_random<int16_t>: any int16 value. */
static iron_tensor *rand_i16(iron_shape s, uint64_t seed)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_randint(IRON_INT16, s, -32768, 32768, seed, &t));
    return t;
}

/* common.h's matmul<int16_t, Tout, Tacc = Tout>: running_sum += Tacc(A *
 * B) per product, C = Tout(running_sum).  In unsigned arithmetic (the
 * wrap-around the int16 / int32 sums do on a two's-complement machine),
 * kept modulo 2^32 and cut to the output's width on the way out. */
static void reference(const int16_t *A, const int16_t *B, void *C,
                      iron_dtype out, int64_t M, int64_t K, int64_t N)
{
    uint32_t *row = malloc(sizeof(uint32_t) * (size_t)N);
    ASSERT(row != NULL);
    for (int64_t i = 0; i < M; i++) {
        memset(row, 0, sizeof(uint32_t) * (size_t)N);
        for (int64_t kk = 0; kk < K; kk++) {
            const int32_t a = A[i * K + kk];
            const int16_t *b = B + kk * N;
            if (out == IRON_INT16)
                for (int64_t j = 0; j < N; j++)
                    row[j] += (uint16_t)(a * b[j]);
            else
                for (int64_t j = 0; j < N; j++)
                    row[j] += (uint32_t)(a * b[j]);
        }
        for (int64_t j = 0; j < N; j++) {
            if (out == IRON_INT16)
                ((int16_t *)C)[i * N + j] = (int16_t)(uint16_t)row[j];
            else
                ((int32_t *)C)[i * N + j] = (int32_t)row[j];
        }
    }
    free(row);
}

/* C against the reference, naming the first mismatches by (row, col). */
static void assert_matmul(iron_tensor *A, iron_tensor *B, iron_tensor *C)
{
    const iron_shape sa = iron_tensor_shape(A), sb = iron_tensor_shape(B);
    const int64_t M = sa.dims[0], K = sa.dims[1], N = sb.dims[1];
    const iron_dtype out = iron_tensor_dtype(C);
    const size_t esz = iron_dtype_size(out);
    void *want = malloc(esz * (size_t)(M * N));
    ASSERT(want != NULL);
    reference(iron_tensor_data(A),
              iron_tensor_data(B), want, out, M, K, N);
    const uint8_t *got = iron_tensor_data(C);
    int64_t bad = 0;
    for (int64_t i = 0; i < M * N; i++)
        if (memcmp(got + (size_t)i * esz,
                   (const uint8_t *)want + (size_t)i * esz, esz) != 0) {
            if (bad < 5) {
                int64_t g, w;
                if (out == IRON_INT16) {
                    g = ((const int16_t *)(const void *)got)[i];
                    w = ((const int16_t *)want)[i];
                } else {
                    g = ((const int32_t *)(const void *)got)[i];
                    w = ((const int32_t *)want)[i];
                }
                fprintf(stderr, "  C[%lld, %lld]: got %lld, want %lld\n",
                        (long long)(i / N), (long long)(i % N), (long long)g,
                        (long long)w);
            }
            bad++;
        }
    free(want);
    if (bad)
        TEST_FAIL_("%lld of %lld elements of C differ from the reference",
                   (long long)bad, (long long)(M * N));
}

/* One launch of a matmul jit on fresh random A and B; C checked. */
static void run_matmul(iron_jit *j, const iron_launch_config *cfg,
                       int nparams, const iron_param *params, int64_t M,
                       int64_t K, int64_t N, iron_dtype out, uint64_t seed)
{
    iron_tensor *A = rand_i16(IRON_SHAPE(M, K), seed);
    iron_tensor *B = rand_i16(IRON_SHAPE(K, N), seed + 1);
    iron_tensor *C = test_zeros_shape(out, IRON_SHAPE(M, N));
    ASSERT_OK(iron_jit_launch(j, cfg, nparams, params, IRON_NO_SCALARS,
                              IRON_TENSORS(A, B, C)));
    assert_matmul(A, B, C);
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
}

/* The placed design of a launch with these shapes, as text. */
static char *dump_of(iron_jit *j, const iron_launch_config *cfg,
                     int nparams, const iron_param *params, int64_t M,
                     int64_t K, int64_t N, iron_dtype out)
{
    iron_tensor *A = test_zeros_shape(IRON_INT16, IRON_SHAPE(M, K));
    iron_tensor *B = test_zeros_shape(IRON_INT16, IRON_SHAPE(K, N));
    iron_tensor *C = test_zeros_shape(out, IRON_SHAPE(M, N));
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, cfg, nparams, params, IRON_TENSORS(A, B, C),
                            &text));
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
    return text;
}

/* The line of `text` that contains `needle` (copied into buf); fails the
 * test when there is none. */
static const char *line_with(const char *text, const char *needle, char *buf,
                             size_t len)
{
    const char *p = strstr(text, needle);
    if (!p)
        TEST_FAIL_("no \"%s\" in the dump:\n%s", needle, text);
    const char *b = p;
    while (b > text && b[-1] != '\n')
        b--;
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - b) : strlen(b);
    if (n >= len)
        n = len - 1;
    memcpy(buf, b, n);
    buf[n] = '\0';
    return buf;
}

/* The line holding `key` also holds `needle`. */
#define ASSERT_LINE(text, key, needle)                                        \
    do {                                                                      \
        char line_[1024];                                                     \
        ASSERT_CONTAINS(line_with((text), (key), line_, sizeof line_),        \
                        (needle));                                            \
    } while (0)

/* The needles occur in `text` in this order (each after the previous). */
static void assert_in_order(const char *text, char needles[][192], int n)
{
    const char *at = text;
    for (int i = 0; i < n; i++) {
        const char *p = strstr(at, needles[i]);
        if (!p)
            TEST_FAIL_("sequence item %d \"%s\" not found after item %d in "
                       "the dump:\n%s",
                       i, needles[i], i - 1, text);
        at = p + strlen(needles[i]);
    }
}

/* How many times `needle` occurs in `text`. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p;
         p = strstr(p + strlen(needle), needle))
        n++;
    return n;
}

/* ------------------------------------------------------------------------
 * whole_array
 * ------------------------------------------------------------------------ */

static iron_jit *whole_jit(void)
{
    return test_new_jit(upstream_matmul_whole_design,
                   &upstream_matmul_whole_options);
}

/* Upstream's defaults: --dev npu (npu1, micro-tile 4 x 4 x 4), 512 x 512 x
 * 512 in 64 x 64 x 32 tiles on 4 x 4 cores, i16 in and out. */
TEST(upstream_matmul_whole_512_npu1)
{
    iron_jit *j = whole_jit();
    IRON_WITH_DEVICE("npu1")
    {
        run_matmul(j, NULL, IRON_NO_PARAMS, 512, 512, 512, IRON_INT16, 1);
    }
    iron_jit_free(j);
}

/* --dev npu2 (micro-tile 4 x 4 x 8) with i16 and i32 out; and upstream's
 * test.cpp input (B the identity: C = A). */
TEST(upstream_matmul_whole_512_npu2)
{
    iron_jit *j = whole_jit();
    IRON_WITH_DEVICE("npu2")
    {
        run_matmul(j, NULL, IRON_NO_PARAMS, 512, 512, 512, IRON_INT16, 2);
        run_matmul(j, NULL, IRON_NO_PARAMS, 512, 512, 512, IRON_INT32, 3);

        iron_tensor *A = rand_i16(IRON_SHAPE(512, 512), 4);
        iron_tensor *B = test_zeros_shape(IRON_INT16, IRON_SHAPE(512, 512));
        iron_tensor *C = test_zeros_shape(IRON_INT16, IRON_SHAPE(512, 512));
        int16_t *b = iron_tensor_data(B);
        for (int i = 0; i < 512; i++)
            b[i * 512 + i] = 1;
        ASSERT_OK(IRON_CALL(j, A, B, C));
        ASSERT(memcmp(iron_tensor_data(C), iron_tensor_data(A),
                      iron_tensor_nbytes(A)) == 0);
        assert_matmul(A, B, C);
        iron_tensor_free(A);
        iron_tensor_free(B);
        iron_tensor_free(C);
    }
    iron_jit_free(j);
}

/* Upstream's Makefile: M = 640, K = 896, N = 768, m = 16, k = 32, n = 48,
 * n_aie_cols = 2, --dtype_out i32 (makefile-common).  Two columns: each
 * A_L3L2 carries 2 rows' tiles, split two ways; 10 rows of 4m x N make
 * three transfer blocks, so several task groups are finished in turn. */
TEST(upstream_matmul_whole_makefile_640x896x768)
{
    iron_jit *j = whole_jit();
    IRON_WITH_DEVICE("npu1")
    {
        run_matmul(j, NULL,
                   IRON_PARAMS(iron_param_int("m", 16),
                               iron_param_int("k", 32),
                               iron_param_int("n", 48),
                               iron_param_int("n_aie_cols", 2)),
                   640, 896, 768, IRON_INT32, 5);
    }
    iron_jit_free(j);
}

/* n_aie_cols 1 (A_L3L2_0 split four ways on one memtile) and 8 (npu2: A
 * split on the even columns' memtiles).  M = 512 at least: C_tiles groups
 * two rows of 4m x N and upstream's tiler takes no partial group. */
TEST(upstream_matmul_whole_1_and_8_columns)
{
    iron_jit *j = whole_jit();
    IRON_WITH_DEVICE("npu1")
    {
        run_matmul(j, NULL, IRON_PARAMS(iron_param_int("n_aie_cols", 1)),
                   512, 256, 256, IRON_INT16, 6);
    }
    IRON_WITH_DEVICE("npu2")
    {
        run_matmul(j, NULL, IRON_PARAMS(iron_param_int("n_aie_cols", 8)),
                   512, 512, 512, IRON_INT16, 7);
    }
    iron_jit_free(j);
}

/* The placed default design: FIFO names, object types and depths, the
 * links on the memtiles upstream names, the memtiles' layout transforms
 * (C's wrapping x4 over the joined object), the workers on (col, 2 + row),
 * and the runtime sequence op by op with upstream's taps. */
TEST(upstream_matmul_whole_dump)
{
    iron_jit *j = whole_jit();
    char *text = NULL;
    IRON_WITH_DEVICE("npu1")
    {
        text = dump_of(j, NULL, IRON_NO_PARAMS, 512, 512, 512, IRON_INT16);
    }
    char key[192], want[512];
    for (int c = 0; c < 4; c++) {
        /* fifos */
        snprintf(key, sizeof key, "  A_L3L2_%d: ", c);
        ASSERT_LINE(text, key, "int16[4096] x 2");
        snprintf(key, sizeof key, "  A_L2L1_%d: ", c);
        ASSERT_LINE(text, key, "int16[64, 64] x 2");
        snprintf(key, sizeof key, "  B_L3L2_%d: ", c);
        ASSERT_LINE(text, key, "int16[2048] x 2");
        snprintf(key, sizeof key, "  B_L2L1_%d: ", c);
        ASSERT_LINE(text, key, "int16[64, 32] x 2");
        snprintf(key, sizeof key, "  C_L2L3_%d: ", c);
        ASSERT_LINE(text, key, "int16[8192] x 2");
        for (int r = 0; r < 4; r++) {
            snprintf(key, sizeof key, "  C_L1L2_%d_%d: ", c, r);
            ASSERT_LINE(text, key, "int16[64, 32] x 2");
        }
        /* fills and drains on the shims upstream places them */
        snprintf(key, sizeof key, "fill fifo 'B_L3L2_%d' (producer)", c);
        snprintf(want, sizeof want, "via shim (%d,0)", c);
        ASSERT_LINE(text, key, want);
        snprintf(key, sizeof key, "drain fifo 'C_L2L3_%d' (consumer)", c);
        ASSERT_LINE(text, key, want);
        /* links, on the memtiles upstream places them */
        snprintf(want, sizeof want,
                 "split on memtile (%d,1): 'A_L3L2_%d' -> 'A_L2L1_%d' "
                 "offsets [0]",
                 c, c, c);
        ASSERT_CONTAINS(text, want);
        snprintf(want, sizeof want,
                 "forward on memtile (%d,1): 'B_L3L2_%d' -> 'B_L2L1_%d'", c,
                 c, c);
        ASSERT_CONTAINS(text, want);
        snprintf(want, sizeof want,
                 "join on memtile (%d,1): 'C_L1L2_%d_0', 'C_L1L2_%d_1', "
                 "'C_L1L2_%d_2', 'C_L1L2_%d_3' -> 'C_L2L3_%d' offsets [0, "
                 "2048, 4096, 6144]",
                 c, c, c, c, c, c);
        ASSERT_CONTAINS(text, want);
        /* the memtiles' layout transforms */
        snprintf(key, sizeof key, "producer: memtile link %d @(%d,1)", c, c);
        ASSERT_LINE(text, key,
                    "dims_to_stream [(16, 256), (16, 4), (4, 64), (4, 1)]");
        snprintf(key, sizeof key, "producer: memtile link %d @(%d,1)",
                 4 + 2 * c, c);
        ASSERT_LINE(text, key,
                    "dims_to_stream [(16, 128), (8, 4), (4, 32), (4, 1)]");
        snprintf(key, sizeof key, "producer: memtile link %d @(%d,1)",
                 5 + 2 * c, c);
        ASSERT_LINE(text, key, "outermost size x4");
        ASSERT_LINE(text, key,
                    "dims_to_stream [(64, 128), (4, 4), (8, 16), (4, 1)] "
                    "(outermost size x4: the memtile DMA wraps it over the "
                    "whole object)");
        /* the workers, pinned on (col, 2 + row); their bodies name the
         * fifos and kernels they use (the loop counts, 8 tiles per core
         * and 8 k-steps, are constants in the bodies) */
        for (int r = 0; r < 4; r++) {
            snprintf(key, sizeof key, "  core_%d_%d: ", c, 2 + r);
            snprintf(want, sizeof want,
                     "core body 'core_fn' on tile (%d,%d) (pinned) stack "
                     "3328 B",
                     c, 2 + r);
            ASSERT_LINE(text, key, want);
            snprintf(key, sizeof key, "fifo 'C_L1L2_%d_%d' (producer)", c,
                     r);
            snprintf(want, sizeof want,
                     "args: fifo 'A_L2L1_%d' (consumer %d), fifo 'B_L2L1_%d' "
                     "(consumer %d), fifo 'C_L1L2_%d_%d' (producer), kernel "
                     "'zero_i16' (kernel 0), kernel 'matmul_i16_i16' "
                     "(kernel 1)",
                     r, c, c, r, c, r);
            ASSERT_LINE(text, key, want);
        }
    }
    /* The sequence: one task group; per column the C drain, then per row
     * of the half the A and B fills (taps as upstream's tilers give them:
     * A_tiles[(row * 4 + col) % 8], B_tiles[col], C_tiles[col]). */
    char seq[2 + 4 * 5][192];
    int n = 0;
    snprintf(seq[n++], sizeof seq[0], "0 task_group 1\n");
    for (int c = 0; c < 4; c++) {
        snprintf(seq[n++], sizeof seq[0],
                 "drain fifo 'C_L2L3_%d' (consumer) into argument 2 ('C') "
                 "offset %d sizes [2, 4, 256, 32] strides [131072, 128, 512, "
                 "1]",
                 c, 32 * c);
        for (int row = 0; row < 2; row++) {
            snprintf(seq[n++], sizeof seq[0],
                     "fill fifo 'A_L3L2_%d' (producer) from argument 0 ('A') "
                     "offset %d sizes [4, 8, 64, 64] strides [0, 64, 512, 1]",
                     c, (row * 4 + c) * 64 * 512);
            snprintf(seq[n++], sizeof seq[0],
                     "fill fifo 'B_L3L2_%d' (producer) from argument 1 ('B') "
                     "offset %d sizes [4, 8, 64, 32] strides [128, 32768, "
                     "512, 1]",
                     c, 32 * c);
        }
    }
    snprintf(seq[n++], sizeof seq[0], "21 finish_task_group 1\n");
    assert_in_order(text, seq, n);
    ASSERT_CONTAINS(text, "sequence (22 ops):");
    ASSERT_EQ(count_of(text, " wait (group 1)"), 4);
    iron_free(text);
    iron_jit_free(j);
}

/* The 8-column npu2 case puts A's splits on the even columns' memtiles
 * (and its micro-tile is 4 x 4 x 8); one column splits A four ways. */
TEST(upstream_matmul_whole_dump_other_columns)
{
    iron_jit *j = whole_jit();
    IRON_WITH_DEVICE("npu2")
    {
        char *text = dump_of(j, NULL,
                             IRON_PARAMS(iron_param_int("n_aie_cols", 8)),
                             512, 512, 512, IRON_INT16);
        for (int i = 0; i < 4; i++) {
            char want[128];
            snprintf(want, sizeof want,
                     "split on memtile (%d,1): 'A_L3L2_%d' -> 'A_L2L1_%d' "
                     "offsets [0]",
                     2 * i, i, i);
            ASSERT_CONTAINS(text, want);
        }
        ASSERT_LINE(text, "producer: memtile link 0 @(0,1)",
                    "dims_to_stream [(16, 256), (16, 4), (4, 64), (4, 1)]");
        ASSERT_LINE(text, "producer: memtile link 4 @(0,1)",
                    "dims_to_stream [(16, 128), (4, 8), (4, 32), (8, 1)]");
        ASSERT_LINE(text, "producer: memtile link 5 @(0,1)",
                    "dims_to_stream [(64, 128), (4, 8), (4, 32), (8, 1)] "
                    "(outermost size x4");
        ASSERT_LINE(text, "  core_7_5: ",
                    "core body 'core_fn' on tile (7,5) (pinned)");
        iron_free(text);
    }
    IRON_WITH_DEVICE("npu1")
    {
        char *text = dump_of(j, NULL,
                             IRON_PARAMS(iron_param_int("n_aie_cols", 1)),
                             512, 256, 256, IRON_INT16);
        ASSERT_CONTAINS(text,
                        "split on memtile (0,1): 'A_L3L2_0' -> 'A_L2L1_0', "
                        "'A_L2L1_1', 'A_L2L1_2', 'A_L2L1_3' offsets [0, "
                        "4096, 8192, 12288]");
        ASSERT_LINE(text, "  A_L3L2_0: ", "int16[16384] x 2");
        iron_free(text);
    }
    iron_jit_free(j);
}

/* 2048 x 128 x 256: 8 rows of 4m x N, two transfer blocks.  Upstream's
 * chain of groups: the first holds both halves of block 0, then one group
 * per half; the group opened after the last half is empty and finished at
 * the end. */
TEST(upstream_matmul_whole_task_groups)
{
    iron_jit *j = whole_jit();
    IRON_WITH_DEVICE("npu1")
    {
        run_matmul(j, NULL, IRON_NO_PARAMS, 2048, 128, 256, IRON_INT16, 8);
        char *text = dump_of(j, NULL, IRON_NO_PARAMS, 2048, 128, 256,
                             IRON_INT16);
        char seq[8][192];
        int n = 0;
        for (int g = 1; g <= 4; g++) {
            snprintf(seq[n++], sizeof seq[0], " task_group %d\n", g);
            snprintf(seq[n++], sizeof seq[0], " finish_task_group %d\n", g);
        }
        assert_in_order(text, seq, n);
        /* A drain per column and half: 8 in group 1 (two halves), 4 in
         * each of groups 2 and 3, none in group 4. */
        ASSERT_EQ(count_of(text, " wait (group 1)"), 8);
        ASSERT_EQ(count_of(text, " wait (group 2)"), 4);
        ASSERT_EQ(count_of(text, " wait (group 3)"), 4);
        ASSERT_EQ(count_of(text, "(group 4)"), 0);
        iron_free(text);
    }
    iron_jit_free(j);
}

/* Upstream's assertions, as design errors. */
TEST(upstream_matmul_whole_errors)
{
    iron_jit *j = whole_jit();
    iron_tensor *A = test_zeros_shape(IRON_INT16, IRON_SHAPE(512, 512));
    iron_tensor *B = test_zeros_shape(IRON_INT16, IRON_SHAPE(512, 512));
    iron_tensor *C = test_zeros_shape(IRON_INT16, IRON_SHAPE(512, 512));
    IRON_WITH_DEVICE("npu1")
    {
        ASSERT_FAILS(IRON_CALL_WITH(j,
                                    IRON_PARAMS(iron_param_int("n_aie_cols",
                                                               8)),
                                    A, B, C),
                     IRON_ERESOURCE, "n_aie_cols = 8 but the launch grants 4");
        ASSERT_FAILS(IRON_CALL_WITH(j,
                                    IRON_PARAMS(iron_param_int("n_aie_cols",
                                                               3)),
                                    A, B, C),
                     IRON_EPARAM, "choices are 1, 2, 4 and 8");
        ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("m", 48)),
                                    A, B, C),
                     IRON_ESHAPE, "(m * n_aie_rows, k)-sized blocks");
        ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("n", 2)),
                                    A, B, C),
                     IRON_ESHAPE, "micro-tiles");
    }
    iron_tensor *C8 = test_zeros_shape(IRON_INT8, IRON_SHAPE(512, 512));
    ASSERT_FAILS(IRON_CALL(j, A, B, C8), IRON_EDTYPE, "int16 or int32");
    iron_tensor_free(C8);
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * single_core
 * ------------------------------------------------------------------------ */

static iron_jit *single_jit(void)
{
    return test_new_jit(upstream_matmul_single_design,
                   &upstream_matmul_single_options);
}

/* Upstream's defaults: --dev npu, 256 x 256 x 256 in 64 x 64 x 32 tiles,
 * i16 in, i32 out; and i16 out. */
TEST(upstream_matmul_single_256_npu1)
{
    iron_jit *j = single_jit();
    IRON_WITH_DEVICE("npu1")
    {
        run_matmul(j, NULL, IRON_NO_PARAMS, 256, 256, 256, IRON_INT32, 11);
        run_matmul(j, NULL, IRON_NO_PARAMS, 256, 256, 256, IRON_INT16, 12);
    }
    iron_jit_free(j);
}

/* --dev npu2 (4 x 4 x 8), and 10 rows of C tiles: three blocks, the last
 * without a pong half. */
TEST(upstream_matmul_single_npu2)
{
    iron_jit *j = single_jit();
    IRON_WITH_DEVICE("npu2")
    {
        run_matmul(j, NULL, IRON_NO_PARAMS, 256, 256, 256, IRON_INT32, 13);
        run_matmul(j, NULL, IRON_NO_PARAMS, 640, 128, 256, IRON_INT32, 14);
    }
    iron_jit_free(j);
}

/* The placed default design: the forwards and their layout transforms,
 * and the ping-pong task groups -- group 2 opens before group 1 finishes. */
TEST(upstream_matmul_single_dump)
{
    iron_jit *j = single_jit();
    char *text = NULL;
    IRON_WITH_DEVICE("npu1")
    {
        text = dump_of(j, NULL, IRON_NO_PARAMS, 256, 256, 256, IRON_INT32);
    }
    ASSERT_LINE(text, "  inA: ", "int16[64, 64] x 2");
    ASSERT_LINE(text, "  memA: ", "int16[64, 64] x 2");
    ASSERT_LINE(text, "  inB: ", "int16[64, 32] x 2");
    ASSERT_LINE(text, "  memB: ", "int16[64, 32] x 2");
    ASSERT_LINE(text, "  memC: ", "int32[64, 32] x 2");
    ASSERT_LINE(text, "  outC: ", "int32[64, 32] x 2");
    ASSERT_LINE(text, "forward on memtile", "'inA' -> 'memA'");
    ASSERT_LINE(text, "1 forward on memtile", "'inB' -> 'memB'");
    ASSERT_LINE(text, "2 forward on memtile", "'memC' -> 'outC'");
    ASSERT_LINE(text, "producer: memtile link 0",
                "dims_to_stream [(16, 256), (16, 4), (4, 64), (4, 1)]");
    ASSERT_LINE(text, "producer: memtile link 1",
                "dims_to_stream [(16, 128), (8, 4), (4, 32), (4, 1)]");
    ASSERT_LINE(text, "producer: memtile link 2",
                "dims_to_stream [(16, 128), (4, 4), (8, 16), (4, 1)]");
    ASSERT_LINE(text, "  worker: ", "core body 'core_fn' on tile");
    ASSERT_LINE(text, "  worker: ", "stack 3328 B");
    char seq[14][192];
    int n = 0;
    for (int half = 0; half < 2; half++) {
        snprintf(seq[n++], sizeof seq[0], " task_group %d\n", half + 1);
        for (int row = 0; row < 2; row++) {
            snprintf(seq[n++], sizeof seq[0],
                     "fill fifo 'inA' (producer) from argument 0 ('A') "
                     "offset %d sizes [8, 4, 64, 64] strides [0, 64, 256, 1]",
                     (half * 2 + row) * 64 * 256);
            snprintf(seq[n++], sizeof seq[0],
                     "fill fifo 'inB' (producer) from argument 1 ('B') "
                     "offset 0 sizes [8, 256, 32] strides [32, 256, 1]");
        }
        snprintf(seq[n++], sizeof seq[0],
                 "drain fifo 'outC' (consumer) into argument 2 ('C') offset "
                 "%d sizes [2, 8, 64, 32] strides [16384, 32, 256, 1]",
                 half * 2 * 64 * 256);
    }
    snprintf(seq[n++], sizeof seq[0], " finish_task_group 1\n");
    snprintf(seq[n++], sizeof seq[0], " finish_task_group 2\n");
    assert_in_order(text, seq, n);
    ASSERT_CONTAINS(text, "sequence (14 ops):");
    iron_free(text);
    iron_jit_free(j);
}
