/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_upstream_basic.c - the ports of upstream mlir-aie IRON programming
 * examples (examples/designs/upstream_basic.h) end to end: each run on the
 * emulated NPU and compared bit for bit with a C reference computed as
 * upstream's test does, plus the placed designs' dumps.
 */
#include <stdio.h>

#include "designs/upstream_basic.h"
#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* Compares n elements of esz bytes; fails naming the first mismatches. */
#define ASSERT_SAME(what, got, want, esz, n)                                  \
    assert_same_((what), (got), (want), (esz), (n), __FILE__, __LINE__)

static long long value_at(const void *p, size_t esz, int64_t i)
{
    switch (esz) {
    case 1: return ((const uint8_t *)p)[i];
    case 2: return ((const uint16_t *)p)[i];
    case 4: return ((const int32_t *)p)[i];
    default: return (long long)((const int64_t *)p)[i];
    }
}

static void assert_same_(const char *what, const void *got, const void *want,
                         size_t esz, int64_t n, const char *file, int line)
{
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < n; i++)
        if (memcmp((const uint8_t *)got + (size_t)i * esz,
                   (const uint8_t *)want + (size_t)i * esz, esz) != 0) {
            if (bad < 5)
                fprintf(stderr, "  %s[%lld]: got %lld, want %lld\n", what,
                        (long long)i, value_at(got, esz, i),
                        value_at(want, esz, i));
            if (first < 0)
                first = i;
            bad++;
        }
    if (bad) {
        fprintf(stderr, "%s:%d: %s: %lld of %lld elements differ from the "
                        "C reference (first at %lld)\n",
                file, line, what, (long long)bad, (long long)n,
                (long long)first);
        _Exit(1);
    }
}

/* The placed design a launch with these tensors would use. */
static char *dump_of(iron_jit *j, int nargs, iron_tensor *const *args)
{
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, NULL, IRON_NO_PARAMS, nargs, args, &text));
    return text;
}

#define ASSERT_NOT_CONTAINS(hay, needle)                                      \
    do {                                                                      \
        const char *h2_ = (hay), *n2_ = (needle);                             \
        if (strstr(h2_, n2_))                                                 \
            TEST_FAIL_("%s contains \"%s\": \"%s\"", #hay, n2_, h2_);         \
    } while (0)

/* ------------------------------------------------------------------------
 * basic/passthrough_dmas
 * ------------------------------------------------------------------------ */

/* Upstream's test: input 1 .. N, the output equals it. */
static void check_passthrough_dmas(iron_jit *j, int64_t n)
{
    iron_tensor *a = NULL, *b = test_zeros_shape(IRON_INT32, IRON_SHAPE(n));
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(n));
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 1, n + 1, 1, &a));
    ASSERT_OK(IRON_CALL(j, a, b, c));
    ASSERT_SAME("passthrough_dmas", iron_tensor_data(c), iron_tensor_data(a),
                4, n);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

TEST(upstream_basic_passthrough_dmas)
{
    iron_jit *j =
        test_new_jit(passthrough_dmas_design, &passthrough_dmas_options);
    check_passthrough_dmas(j, 4096);
    check_passthrough_dmas(j, 4096); /* again, on the loaded design */
    IRON_WITH_DEVICE("npu1_1col")
    {
        check_passthrough_dmas(j, 4096);
        check_passthrough_dmas(j, 1024 * 9);
    }
    ASSERT_EQ(test_stats(j).builds, 3);
    /* Whole lines only, as upstream's test requires. */
    iron_tensor *a = test_zeros_shape(IRON_INT32, IRON_SHAPE(1000));
    iron_tensor *b = test_zeros_shape(IRON_INT32, IRON_SHAPE(1000));
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(1000));
    ASSERT_FAILS(IRON_CALL(j, a, b, c), IRON_ESHAPE,
                 "1000 elements are not a whole number of 1024-element "
                 "lines");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * basic/dma_transpose
 * ------------------------------------------------------------------------ */

/* Upstream's test: A random in [-1e6, 1e6), C == A.T flattened, i.e.
 * C[j * M + i] = A[i * K + j]. */
static void check_dma_transpose(iron_jit *j, int64_t m, int64_t k,
                                uint64_t seed)
{
    iron_tensor *a = test_randint(IRON_INT32, IRON_SHAPE(m, k), -1000000,
                               1000000, seed);
    iron_tensor *b = test_zeros_shape(IRON_INT32, IRON_SHAPE(m, k));
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(m, k));
    ASSERT_OK(IRON_CALL(j, a, b, c));
    const int32_t *x = iron_tensor_data(a);
    int32_t *want = malloc((size_t)(m * k) * sizeof *want);
    for (int64_t i = 0; i < m; i++)
        for (int64_t jj = 0; jj < k; jj++)
            want[jj * m + i] = x[i * k + jj];
    ASSERT_SAME("A.T", iron_tensor_data(c), want, 4, m * k);
    free(want);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

TEST(upstream_basic_dma_transpose)
{
    iron_jit *j = test_new_jit(dma_transpose_design, &dma_transpose_options);
    check_dma_transpose(j, 64, 64, 0);  /* upstream's default */
    check_dma_transpose(j, 64, 64, 1);
    check_dma_transpose(j, 64, 32, 2);  /* the former Makefile's M, K */
    IRON_WITH_DEVICE("npu1_1col")
    {
        check_dma_transpose(j, 64, 64, 3);
    }
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_jit_free(j);
}

/* The tiler's pattern the design fills with visits the host matrix in the
 * order of upstream's simple_tiler pattern, sizes [1, 1, K, M] strides
 * [0, 0, 1, K]. */
static void expand(const iron_tap *t, int64_t *out, int64_t n)
{
    int64_t idx[IRON_TAP_MAX_DIMS] = { 0 };
    ASSERT_EQ(iron_tap_count(t), n);
    for (int64_t e = 0; e < n; e++) {
        int64_t at = t->offset;
        for (int dd = 0; dd < t->ndim; dd++)
            at += idx[dd] * t->strides[dd];
        out[e] = at;
        for (int dd = t->ndim - 1; dd >= 0; dd--) {
            if (++idx[dd] < t->sizes[dd])
                break;
            idx[dd] = 0;
        }
    }
}

TEST(upstream_basic_dma_transpose_tap_is_upstream_order)
{
    const int64_t shapes[][2] = { { 64, 64 }, { 64, 32 } };
    for (int s = 0; s < 2; s++) {
        const int64_t m = shapes[s][0], k = shapes[s][1];
        iron_tiler2d tiler = { .size = sizeof tiler, .rows = m, .cols = k,
                               .tile_rows = m, .tile_cols = k,
                               .tile_col_major = 1 };
        iron_tap mine;
        ASSERT_OK(iron_tiler2d_tap(&tiler, 0, &mine));
        const int64_t sizes[4] = { 1, 1, k, m }, strides[4] = { 0, 0, 1, k };
        iron_tap upstream = iron_tap_make(0, 4, sizes, strides);
        int64_t *a = malloc((size_t)(m * k) * sizeof *a);
        int64_t *b = malloc((size_t)(m * k) * sizeof *b);
        expand(&mine, a, m * k);
        expand(&upstream, b, m * k);
        ASSERT_SAME("tiler order", a, b, 8, m * k);
        free(a);
        free(b);
    }
}

/* ------------------------------------------------------------------------
 * vision/vision_passthrough
 * ------------------------------------------------------------------------ */

/* Upstream's test: a random int8 image in [-128, 127); out == in. */
static void check_vision_passthrough(iron_jit *j, int64_t w, int64_t h,
                                     uint64_t seed)
{
    const int64_t n = w * h;
    iron_tensor *in = test_randint(IRON_INT8, IRON_SHAPE(n), -128, 127, seed);
    iron_tensor *unused = test_zeros_shape(IRON_INT8, IRON_SHAPE(n));
    iron_tensor *out = test_zeros_shape(IRON_INT8, IRON_SHAPE(n));
    ASSERT_OK(IRON_CALL_WITH(j,
                             IRON_PARAMS(iron_param_int("width", w),
                                         iron_param_int("height", h)),
                             in, unused, out));
    ASSERT_SAME("vision_passthrough", iron_tensor_data(out),
                iron_tensor_data(in), 1, n);
    iron_tensor_free(in);
    iron_tensor_free(unused);
    iron_tensor_free(out);
}

TEST(upstream_basic_vision_passthrough)
{
    iron_jit *j = test_new_jit(vision_passthrough_design,
                          &vision_passthrough_options);
    check_vision_passthrough(j, 1920, 1080, 0);   /* upstream's Makefile */
    check_vision_passthrough(j, 1920, 1080, 1);
    IRON_WITH_DEVICE("npu1_1col")
    {
        check_vision_passthrough(j, 512, 9, 2);   /* the script's default */
    }
    ASSERT_EQ(test_stats(j).builds, 2);
    /* The image must be width x height bytes. */
    iron_tensor *in = test_zeros_shape(IRON_INT8, IRON_SHAPE(1920 * 1079));
    iron_tensor *unused = test_zeros_shape(IRON_INT8, IRON_SHAPE(1920 * 1079));
    iron_tensor *out = test_zeros_shape(IRON_INT8, IRON_SHAPE(1920 * 1079));
    ASSERT_FAILS(IRON_CALL(j, in, unused, out), IRON_ESHAPE,
                 "the image has 2071680 bytes; width 1920 x height 1080 "
                 "needs 2073600");
    iron_tensor_free(in);
    iron_tensor_free(unused);
    iron_tensor_free(out);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * vision/color_threshold
 * ------------------------------------------------------------------------ */

/* threshold.cc at BIT_WIDTH=8 on one uint8 pixel. */
static uint8_t threshold_ref(uint8_t x, uint8_t t, uint8_t m, uint8_t type)
{
    switch (type) {
    case 0: return t < x ? m : 0;           /* binary */
    case 1: return t < x ? 0 : m;           /* binary inverted */
    case 3: return t < x ? x : 0;           /* to zero */
    case 4: return t < x ? 0 : x;           /* to zero inverted */
    default: return x < t ? x : t;          /* truncate */
    }
}

/* Upstream's test: a random int8 buffer in [-128, 127), thresholded on its
 * uint8 view; the RTP values default to upstream's 50, 255, 0 (binary). */
static void check_color_threshold(iron_jit *j, int64_t w, int64_t h,
                                  int64_t thresh, int64_t maxv, int64_t type,
                                  uint64_t seed)
{
    const int64_t n = w * h;
    iron_tensor *in = test_randint(IRON_INT8, IRON_SHAPE(n), -128, 127, seed);
    iron_tensor *unused = test_zeros_shape(IRON_INT32, IRON_SHAPE(32));
    iron_tensor *out = test_zeros_shape(IRON_INT8, IRON_SHAPE(n));
    ASSERT_OK(IRON_CALL_WITH(
        j,
        IRON_PARAMS(iron_param_int("width", w), iron_param_int("height", h),
                    iron_param_int("threshold_value", thresh),
                    iron_param_int("max_value", maxv),
                    iron_param_int("threshold_type", type)),
        in, unused, out));
    const uint8_t *x = iron_tensor_data(in);
    uint8_t *want = malloc((size_t)n);
    for (int64_t i = 0; i < n; i++)
        want[i] = threshold_ref(x[i], (uint8_t)thresh, (uint8_t)maxv,
                                (uint8_t)type);
    char what[128];
    snprintf(what, sizeof what, "threshold type %lld (%lld, %lld)",
             (long long)type, (long long)thresh, (long long)maxv);
    ASSERT_SAME(what, iron_tensor_data(out), want, 1, n);
    free(want);
    iron_tensor_free(in);
    iron_tensor_free(unused);
    iron_tensor_free(out);
}

TEST(upstream_basic_color_threshold)
{
    iron_jit *j =
        test_new_jit(color_threshold_design, &color_threshold_options);
    /* Upstream's reference: in > 50 ? 255 : 0 on the uint8 view. */
    const int64_t n = 1920 * 1080;
    iron_tensor *in = test_randint(IRON_INT8, IRON_SHAPE(n), -128, 127, 0);
    iron_tensor *unused = test_zeros_shape(IRON_INT32, IRON_SHAPE(32));
    iron_tensor *out = test_zeros_shape(IRON_INT8, IRON_SHAPE(n));
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(IRON_CALL(j, in, unused, out));
        const uint8_t *x = iron_tensor_data(in), *y = iron_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            if (y[i] != (x[i] > 50 ? 255 : 0))
                TEST_FAIL_("call %d, byte %lld: %u from %u", call,
                           (long long)i, y[i], x[i]);
    }
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_tensor_free(in);
    iron_tensor_free(unused);
    iron_tensor_free(out);
    IRON_WITH_DEVICE("npu1_1col")
    {
        check_color_threshold(j, 1920, 1080, 50, 255, 0, 1);
    }
    iron_jit_free(j);
}

TEST(upstream_basic_color_threshold_other_types)
{
    iron_jit *j =
        test_new_jit(color_threshold_design, &color_threshold_options);
    for (int64_t type = 1; type <= 4; type++)
        check_color_threshold(j, 1920, 1080, 50, 255, type, (uint64_t)type);
    /* Other values, and one past the known types (truncates, as the
     * kernel's default case does). */
    check_color_threshold(j, 1920, 1080, 200, 100, 0, 10);
    check_color_threshold(j, 1920, 1080, 130, 7, 1, 11);
    check_color_threshold(j, 512, 36, 90, 255, 7, 12);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * basic/vector_reduce_max (single_column_designs, shared)
 * ------------------------------------------------------------------------ */

/* Upstream's test: int32 in [-1000, 1000); out[0] == max(in). */
static int32_t reduce_max_int32(iron_jit *j, iron_tensor *in)
{
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(1));
    ASSERT_OK(IRON_CALL(j, in, out));
    int32_t got = ((int32_t *)iron_tensor_data(out))[0];
    iron_tensor_free(out);
    return got;
}

static int32_t max_of(iron_tensor *t)
{
    const int32_t *x = iron_tensor_data(t);
    int32_t m = INT32_MIN;
    for (int64_t i = 0; i < iron_tensor_numel(t); i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

TEST(upstream_basic_vector_reduce_max_int32)
{
    /* 524288 bytes: upstream's default in1_size. */
    const int64_t n = 524288 / 4;
    iron_jit *j = test_new_jit(vector_reduce_max_design,
                          &vector_reduce_max_options);
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(n), -1000, 1000, 0);
    ASSERT_EQ(reduce_max_int32(j, in), max_of(in));
    iron_tensor_free(in);
    /* The maximum in each core's piece of the second object, growing from
     * call to call (the running maxima persist: see below). */
    IRON_WITH_DEVICE("npu1_1col")
    {
        for (int64_t at = 0; at < 2048; at += 512 + 97) {
            in = test_randint(IRON_INT32, IRON_SHAPE(4096), -1000000, 1000000,
                           (uint64_t)at);
            ((int32_t *)iron_tensor_data(in))[2048 + at] =
                (int32_t)(1000000 + at);
            ASSERT_EQ(reduce_max_int32(j, in), 1000000 + at);
            iron_tensor_free(in);
        }
        /* Everything at the minimum but the last element. */
        ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(2048),
                                   (double)INT32_MIN, &in));
        ((int32_t *)iron_tensor_data(in))[2047] = INT32_MIN + 1;
        ASSERT_EQ(reduce_max_int32(j, in), INT32_MIN + 1);
        iron_tensor_free(in);
    }
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_jit_free(j);
}

/* Upstream's nextC buffers start at the minimum when the design is loaded
 * and are never reset, so a second call on the same specialization
 * reports the maximum over both calls; a new specialization starts over. */
TEST(upstream_basic_vector_reduce_max_running_max_persists)
{
    iron_jit *j = test_new_jit(vector_reduce_max_design,
                          &vector_reduce_max_options);
    iron_tensor *high =
        test_randint(IRON_INT32, IRON_SHAPE(8192), 500, 1000, 1);
    iron_tensor *low = test_randint(IRON_INT32, IRON_SHAPE(8192), -1000, 0, 2);
    ASSERT_EQ(reduce_max_int32(j, high), max_of(high));
    ASSERT_EQ(reduce_max_int32(j, low), max_of(high));
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_jit *k = test_new_jit(vector_reduce_max_design,
                          &vector_reduce_max_options);
    ASSERT_EQ(reduce_max_int32(k, low), max_of(low));
    iron_tensor_free(high);
    iron_tensor_free(low);
    iron_jit_free(j);
    iron_jit_free(k);
}

/* Upstream's bf16 test: values in [-1000, 1000) as bfloat16; out[0] (of
 * two: out_size is 4 bytes) == max(in). */
TEST(upstream_basic_vector_reduce_max_bf16)
{
    const int64_t n = 524288 / 2;
    iron_jit *j = test_new_jit(vector_reduce_max_design,
                          &vector_reduce_max_options);
    iron_tensor *r =
        test_randint(IRON_INT32, IRON_SHAPE(n), -100000, 100000, 3);
    iron_tensor *in = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(n));
    iron_tensor *out = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(2));
    const int32_t *ri = iron_tensor_data(r);
    iron_bf16 *x = iron_tensor_data(in);
    float want = -1e30f;
    for (int64_t i = 0; i < n; i++) {
        x[i] = iron_bf16_from_float((float)ri[i] / 100.0f);
        if (iron_bf16_to_float(x[i]) > want)
            want = iron_bf16_to_float(x[i]);
    }
    ASSERT_OK(IRON_CALL(j, in, out));
    iron_bf16 got = ((iron_bf16 *)iron_tensor_data(out))[0];
    ASSERT_EQ(got, iron_bf16_from_float(want));
    iron_tensor_free(r);
    iron_tensor_free(in);
    iron_tensor_free(out);
    /* Other dtypes, and lengths that are not whole objects, are refused. */
    iron_tensor *f = test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(2048));
    iron_tensor *fo = test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(1));
    ASSERT_FAILS(IRON_CALL(j, f, fo), IRON_EDTYPE,
                 "float32 elements; expected int32 or bfloat16");
    iron_tensor *s = test_zeros_shape(IRON_INT32, IRON_SHAPE(3000));
    iron_tensor *so = test_zeros_shape(IRON_INT32, IRON_SHAPE(1));
    ASSERT_FAILS(IRON_CALL(j, s, so), IRON_ESHAPE,
                 "3000 elements are not a whole number of 2048-element "
                 "objects");
    iron_tensor_free(f);
    iron_tensor_free(fo);
    iron_tensor_free(s);
    iron_tensor_free(so);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * The placed designs
 * ------------------------------------------------------------------------ */

/* Where the links went: passthrough_dmas forwards on a memtile, the
 * transpose on a compute tile that holds both of its buffers and runs no
 * worker, each with its fill's access pattern as upstream's. */
TEST(upstream_basic_dump_links)
{
    iron_jit *j =
        test_new_jit(passthrough_dmas_design, &passthrough_dmas_options);
    iron_tensor *a = test_zeros_shape(IRON_INT32, IRON_SHAPE(4096));
    iron_tensor *b = test_zeros_shape(IRON_INT32, IRON_SHAPE(4096));
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(4096));
    char *text = dump_of(j, IRON_TENSORS(a, b, c));
    ASSERT_CONTAINS(text, "0 forward on memtile (0,1): 'in' -> 'in_fwd'\n");
    ASSERT_CONTAINS(text, "workers (0):\n");
    ASSERT_CONTAINS(text, "fifo 'in': shim (0,0) -> memtile (0,1)\n");
    ASSERT_CONTAINS(text, "fifo 'in_fwd': memtile (0,1) -> shim (0,0)\n");
    ASSERT_CONTAINS(text, "memtile (0,1): 8192 bytes");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);

    j = test_new_jit(dma_transpose_design, &dma_transpose_options);
    iron_tensor *m[3];
    for (int i = 0; i < 3; i++)
        m[i] = test_zeros_shape(IRON_INT32, IRON_SHAPE(64, 32));
    text = dump_of(j, IRON_TENSORS(m[0], m[1], m[2]));
    ASSERT_CONTAINS(text, "0 forward on compute tile (0,2): 'in' -> "
                          "'in_fwd'\n");
    ASSERT_CONTAINS(text, "workers (0):\n");
    ASSERT_CONTAINS(text, "from argument 0 ('a_in') offset 0 sizes [32, 64] "
                          "strides [1, 32]");
    ASSERT_CONTAINS(text, "fifo 'in': shim (0,0) -> compute tile (0,2)\n");
    /* Two 64 x 32 int32 objects: the link's buffers, on the compute tile. */
    ASSERT_CONTAINS(text, "compute tile (0,2): 16384 bytes");
    ASSERT_NOT_CONTAINS(text, "memtile (0,1)");
    iron_free(text);
    for (int i = 0; i < 3; i++)
        iron_tensor_free(m[i]);
    iron_jit_free(j);
}

/* color_threshold: one split and one join on the memtile at upstream's
 * offsets; four workers in a column, each tile holding two input and two
 * output lines, its 16-int32 RTP and the default 1 KiB stack. */
TEST(upstream_basic_dump_color_threshold)
{
    iron_jit *j =
        test_new_jit(color_threshold_design, &color_threshold_options);
    iron_tensor *in = test_zeros_shape(IRON_INT8, IRON_SHAPE(1920 * 1080));
    iron_tensor *unused = test_zeros_shape(IRON_INT32, IRON_SHAPE(32));
    iron_tensor *out = test_zeros_shape(IRON_INT8, IRON_SHAPE(1920 * 1080));
    char *text = dump_of(j, IRON_TENSORS(in, unused, out));
    ASSERT_CONTAINS(text, "0 split on memtile (0,1): 'inOOB_L3L2' -> "
                          "'inOOB_L2L1_0', 'inOOB_L2L1_1', 'inOOB_L2L1_2', "
                          "'inOOB_L2L1_3' offsets [0, 1920, 3840, 5760]\n");
    ASSERT_CONTAINS(text, "1 join on memtile (0,1): 'outOOB_L1L2_0', "
                          "'outOOB_L1L2_1', 'outOOB_L1L2_2', 'outOOB_L1L2_3' "
                          "-> 'outOOB_L2L3' offsets [0, 1920, 3840, 5760]\n");
    for (int w = 0; w < 4; w++) {
        char line[512];
        snprintf(line, sizeof line,
                 "threshold%d: core body 'core_fn' on tile (0,%d)\n"
                 "    args: fifo 'inOOB_L2L1_%d' (consumer), fifo "
                 "'outOOB_L1L2_%d' (producer), rtp 'rtp%d', kernel "
                 "'thresholdLine' (kernel 0), barrier 'barrier%d'\n",
                 w, 2 + w, w, w, w, w);
        ASSERT_CONTAINS(text, line);
        snprintf(line, sizeof line, "compute tile (0,%d): %d bytes", 2 + w,
                 4 * 1920 + 16 * 4 + 1024);
        ASSERT_CONTAINS(text, line);
        snprintf(line, sizeof line, "set_rtp 'rtp%d'[2] = 0\n", w);
        ASSERT_CONTAINS(text, line);
        snprintf(line, sizeof line, "set_barrier 'barrier%d' = 1\n", w);
        ASSERT_CONTAINS(text, line);
    }
    iron_free(text);
    iron_tensor_free(in);
    iron_tensor_free(unused);
    iron_tensor_free(out);
    iron_jit_free(j);
}

/* vector_reduce_max: workers placed (0,2) .. (0,5) in order; the gathering
 * worker 1's memory neighbours (workers 0 and 2) hand it their partials
 * through shared memory -- no DMA for memC0 and memC2 -- while worker 3's
 * partial crosses by DMA with buffers on both tiles. */
TEST(upstream_basic_dump_vector_reduce_max_shared_memory)
{
    iron_jit *j = test_new_jit(vector_reduce_max_design,
                          &vector_reduce_max_options);
    iron_tensor *in = test_zeros_shape(IRON_INT32, IRON_SHAPE(131072));
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(1));
    char *text = dump_of(j, IRON_TENSORS(in, out));
    ASSERT_CONTAINS(text, "0 split on memtile (0,1): 'of_in' -> 'memA0', "
                          "'memA1', 'memA2', 'memA3' offsets [0, 512, 1024, "
                          "1536]\n");
    ASSERT_CONTAINS(text, "reduce1: core body 'core_body' on tile (0,3)\n"
                          "    args: fifo 'memA1' (consumer), fifo 'memC1' "
                          "(producer), fifo 'memC0' (consumer), fifo 'memC2' "
                          "(consumer), fifo 'memC3' (consumer), rtp "
                          "'nextC_buffer' (initial xxh64 ");
    /* The running maximum and the scratch are tile buffers with upstream's
     * initial value, one copy per worker. */
    ASSERT_CONTAINS(text, "rtp 'tmp_buffer' (initial xxh64 ");
    ASSERT_CONTAINS(text, "memC0: int32[1] x 2\n"
                          "    producer: worker 'reduce0' @(0,2) buffers 2 "
                          "(declared depth 2, shared memory on compute tile "
                          "(0,2))\n");
    ASSERT_CONTAINS(text, "memC2: int32[1] x 2\n"
                          "    producer: worker 'reduce2' @(0,4) buffers 2 "
                          "(declared depth 2, shared memory on compute tile "
                          "(0,4))\n");
    ASSERT_NOT_CONTAINS(text, "fifo 'memC0':");
    ASSERT_NOT_CONTAINS(text, "fifo 'memC2':");
    ASSERT_CONTAINS(text, "fifo 'memC3': compute tile (0,5) -> compute tile "
                          "(0,3)\n");
    ASSERT_CONTAINS(text, "    consumer 0: worker 'reduce1' @(0,3) buffers 2 "
                          "(max acquire 1 + 1; declared depth 2)\n");
    ASSERT_CONTAINS(text, "fifo 'memC1' (consumer) into argument 1 ('c_out') "
                          "offset 0 sizes [1] strides [1]");
    iron_free(text);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}
