/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_upstream_ml.c - the ports of upstream mlir-aie IRON programming
 * examples (examples/designs/upstream_ml.h) end to end on the emulated
 * NPU, each against a C reference computed as upstream's test computes it
 * (and, where upstream's test has a tolerance, also bit for bit against the
 * kernels' own arithmetic), plus the placed designs' buffers from
 * iron_jit_dump.
 */
#include <math.h>
#include <stdio.h>

#include "designs/upstream_ml.h"
#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static float bf16f(uint16_t b)
{
    return iron_bf16_to_float(b);
}

/* upstream's test_utils::nearly_equal(a, b, epsilon, abs_th = FLT_MIN) */
static int nearly_equal(float a, float b, float epsilon)
{
    if (a == b)
        return 1;
    float diff = fabsf(a - b);
    float norm = fminf(fabsf(a) + fabsf(b), 3.40282347e+38f);
    return diff < fmaxf(1.17549435e-38f, epsilon * norm);
}

#define FLT_EPSILON_ 1.1920929e-07f

/* The placed design of a launch with these tensors, as text. */
static char *dump_of(iron_jit *j, const iron_launch_config *cfg,
                     int nparams, const iron_param *params, int nargs,
                     iron_tensor *const *args)
{
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, cfg, nparams, params, nargs, args, &text));
    return text;
}

/* The line of fifo `fifo`'s block in a dump (its "  name: type x depth"
 * line and the endpoint lines under it) that contains `who`, copied into
 * buf; fails the test when there is none. */
static const char *endpoint_line(const char *text, const char *fifo,
                                 const char *who, char *buf, size_t len)
{
    char head[96];
    snprintf(head, sizeof head, "\n  %s: ", fifo);
    const char *p = strstr(text, head);
    if (!p)
        TEST_FAIL_("no fifo '%s' in the dump:\n%s", fifo, text);
    p = strchr(p + 1, '\n');
    while (p && strncmp(p, "\n    ", 5) == 0) {
        const char *e = strchr(p + 1, '\n');
        size_t n = e ? (size_t)(e - p - 1) : strlen(p + 1);
        if (n < len) {
            memcpy(buf, p + 1, n);
            buf[n] = '\0';
            if (strstr(buf, who))
                return buf;
        }
        p = e;
    }
    TEST_FAIL_("fifo '%s' has no endpoint with \"%s\" in the dump:\n%s",
               fifo, who, text);
    return NULL;
}

#define ASSERT_ENDPOINT(text, fifo, who, needle)                              \
    do {                                                                      \
        char line_[256];                                                      \
        ASSERT_CONTAINS(endpoint_line((text), (fifo), (who), line_,           \
                                      sizeof line_),                          \
                        (needle));                                            \
    } while (0)

/* How many times `needle` occurs in `text`. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p;
         p = strstr(p + strlen(needle), needle))
        n++;
    return n;
}

/* The element indices a pattern visits, in order (n = its count). */
static int64_t *tap_order(const iron_tap *t, int64_t *n)
{
    *n = iron_tap_count(t);
    int64_t *v = malloc(sizeof(int64_t) * (size_t)*n);
    ASSERT(v != NULL);
    int64_t idx[IRON_TAP_MAX_DIMS] = { 0 };
    for (int64_t k = 0; k < *n; k++) {
        int64_t at = t->offset;
        for (int d = 0; d < t->ndim; d++)
            at += idx[d] * t->strides[d];
        v[k] = at;
        for (int d = t->ndim - 1; d >= 0; d--) {
            if (++idx[d] < t->sizes[d])
                break;
            idx[d] = 0;
        }
    }
    return v;
}

/* Pattern `got` visits the same elements in the same order as the one
 * upstream writes (offset 0, sizes and strides as given). */
static void assert_same_order(const iron_tap *got, const int64_t *sizes,
                              const int64_t *strides, int ndim)
{
    iron_tap want = iron_tap_make(0, ndim, sizes, strides);
    int64_t ng, nw;
    int64_t *g = tap_order(got, &ng), *w = tap_order(&want, &nw);
    ASSERT_EQ(ng, nw);
    for (int64_t k = 0; k < ng; k++)
        if (g[k] != w[k])
            TEST_FAIL_("pattern element %lld: %lld, upstream's %lld",
                       (long long)k, (long long)g[k], (long long)w[k]);
    free(g);
    free(w);
}

/* ------------------------------------------------------------------------
 * ml/relu
 * ------------------------------------------------------------------------ */

#define RELU_N 16384

/* Upstream's test feeds every bfloat16 bit pattern in ascending order and
 * skips NaN inputs; 65536 patterns are four calls of 16384 here. */
static void check_relu(iron_jit *j, int nparams, const iron_param *params)
{
    iron_tensor *in = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(RELU_N));
    iron_tensor *out = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(RELU_N));
    uint16_t *a = iron_tensor_data(in), *b = iron_tensor_data(out);
    int64_t errors = 0, exact_bad = 0, nans = 0;
    for (int call = 0; call < 4; call++) {
        for (int i = 0; i < RELU_N; i++)
            a[i] = (uint16_t)(call * RELU_N + i);
        memset(b, 0xA5, (size_t)RELU_N * 2);
        ASSERT_OK(iron_jit_launch(j, NULL, nparams, params, IRON_NO_SCALARS,
                                  IRON_TENSORS(in, out)));
        for (int i = 0; i < RELU_N; i++) {
            float x = bf16f(a[i]);
            if (isnan(x)) {
                nans++;
                continue;
            }
            float ref = x > 0.0f ? x : 0.0f;
            if (!nearly_equal(ref, bf16f(b[i]), 128 * FLT_EPSILON_)) {
                if (errors < 5)
                    fprintf(stderr, "relu(0x%04x = %g): got 0x%04x = %g\n",
                            a[i], (double)x, b[i], (double)bf16f(b[i]));
                errors++;
            }
            /* The scalar kernel: the input's bits or +0, exactly. */
            uint16_t want = x > 0.0f ? a[i] : 0;
            if (b[i] != want)
                exact_bad++;
        }
    }
    ASSERT_EQ(errors, 0);
    ASSERT_EQ(exact_bad, 0);
    ASSERT_EQ(nans, 2 * 127);   /* 0x7f81..0x7fff, 0xff81..0xffff */
    iron_tensor_free(in);
    iron_tensor_free(out);
}

/* Upstream's devices: NPU1 (four columns) and NPU2; and its one-channel
 * option. */
TEST(upstream_ml_relu)
{
    iron_jit *j = test_new_jit(upstream_relu_design, &upstream_relu_options);
    IRON_WITH_DEVICE("npu1")
    {
        check_relu(j, IRON_NO_PARAMS);
        check_relu(j, IRON_PARAMS(iron_param_int("chans", 1)));
    }
    IRON_WITH_DEVICE("npu2")
    {
        check_relu(j, IRON_NO_PARAMS);
    }
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * ml/eltwise_add
 * ------------------------------------------------------------------------ */

#define EADD_N 65536

/* upstream: random_bfloat16_t(1.0, -0.5) = bf16(rand()/RAND_MAX - 0.5) */
static iron_tensor *rand_bf16_centered(int64_t n, uint64_t seed)
{
    iron_tensor *u = NULL, *t = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(n));
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(n), seed, &u));
    const float *f = iron_tensor_data(u);
    uint16_t *b = iron_tensor_data(t);
    for (int64_t i = 0; i < n; i++)
        b[i] = iron_bf16_from_float(f[i] - 0.5f);
    iron_tensor_free(u);
    return t;
}

static void check_eltwise_add(iron_jit *j)
{
    iron_tensor *A = rand_bf16_centered(EADD_N, 71);
    iron_tensor *B = rand_bf16_centered(EADD_N, 72);
    iron_tensor *C = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(EADD_N));
    const uint16_t *a = iron_tensor_data(A), *b = iron_tensor_data(B);
    const uint16_t *c = iron_tensor_data(C);
    for (int call = 0; call < 2; call++) {
        memset(iron_tensor_data(C), 0, (size_t)EADD_N * 2);
        ASSERT_OK(IRON_CALL(j, A, B, C));
        int64_t errors = 0, exact_bad = 0;
        for (int i = 0; i < EADD_N; i++) {
            /* std::bfloat16_t's +: float add, rounded to bfloat16. */
            uint16_t ref = iron_bf16_from_float(bf16f(a[i]) + bf16f(b[i]));
            if (!nearly_equal(bf16f(ref), bf16f(c[i]), 0.00390625f))
                errors++;
            if (c[i] != ref) {
                if (exact_bad < 5)
                    fprintf(stderr, "[%d] %g + %g: got %g, want %g\n", i,
                            (double)bf16f(a[i]), (double)bf16f(b[i]),
                            (double)bf16f(c[i]), (double)bf16f(ref));
                exact_bad++;
            }
        }
        ASSERT_EQ(errors, 0);
        ASSERT_EQ(exact_bad, 0);
    }
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
}

/* Upstream's devices: NPU1Col1 and NPU2. */
TEST(upstream_ml_eltwise_add)
{
    iron_jit *j = test_new_jit(upstream_eltwise_add_design,
                          &upstream_eltwise_add_options);
    IRON_WITH_DEVICE("npu1_1col")
    {
        check_eltwise_add(j);
    }
    IRON_WITH_DEVICE("npu2")
    {
        check_eltwise_add(j);
    }
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * basic/row_wise_bias_add
 * ------------------------------------------------------------------------ */

#define RWB_M 768
#define RWB_N 2304

/* upstream: in = arange(M * N), bias = 3 * arange(N), memcmp with
 * in + bias per row. */
static void check_row_wise_bias_add(iron_jit *j, iron_tensor *in,
                                    iron_tensor *bias)
{
    iron_tensor *out =
        test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(RWB_M, RWB_N));
    ASSERT_OK(IRON_CALL(j, in, bias, out));
    const float *x = iron_tensor_data(in), *bb = iron_tensor_data(bias);
    float *ref = malloc(sizeof(float) * RWB_M * RWB_N);
    ASSERT(ref != NULL);
    for (int i = 0; i < RWB_M; i++)
        for (int k = 0; k < RWB_N; k++)
            ref[i * RWB_N + k] = x[i * RWB_N + k] + bb[k];
    if (memcmp(ref, iron_tensor_data(out), sizeof(float) * RWB_M * RWB_N)) {
        const float *y = iron_tensor_data(out);
        for (int i = 0; i < RWB_M * RWB_N; i++)
            if (ref[i] != y[i])
                TEST_FAIL_("row_wise_bias_add [%d][%d]: got %g, want %g",
                           i / RWB_N, i % RWB_N, (double)y[i],
                           (double)ref[i]);
    }
    free(ref);
    iron_tensor_free(out);
}

/* upstream: in = arange(M * N), bias = 3 * arange(N), memcmp with
 * in + bias per row; then random data on the same (still running) worker. */
TEST(upstream_ml_row_wise_bias_add)
{
    iron_jit *j = test_new_jit(upstream_row_wise_bias_add_design,
                          &upstream_row_wise_bias_add_options);
    iron_tensor *in = NULL, *bias = NULL;
    in = test_arange_shape(IRON_FLOAT32, IRON_SHAPE(RWB_M, RWB_N), 0, 1);
    ASSERT_OK(iron_tensor_arange(IRON_FLOAT32, 0, 3 * RWB_N, 3, &bias));
    check_row_wise_bias_add(j, in, bias);
    iron_tensor_free(in);
    iron_tensor_free(bias);
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(RWB_M, RWB_N),
                               91, &in));
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(RWB_N), 92, &bias));
    check_row_wise_bias_add(j, in, bias);
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_tensor_free(in);
    iron_tensor_free(bias);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * vision/edge_detect
 * ------------------------------------------------------------------------ */

/* A random BGR image as upstream's test makes it (cv::randu in [0, 255))
 * and its RGBA form (alpha 255), the design's input. */
static uint8_t *random_bgr(int w, int h, uint64_t seed)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_randint(IRON_UINT8,
                                  IRON_SHAPE((int64_t)w * h * 3), 0, 255,
                                  seed, &t));
    uint8_t *bgr = malloc((size_t)w * h * 3);
    ASSERT(bgr != NULL);
    memcpy(bgr, iron_tensor_data(t), (size_t)w * h * 3);
    iron_tensor_free(t);
    return bgr;
}

static uint8_t sat_u8(int32_t v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* 3x3 Laplacian {0 1 0; 1 -4 1; 0 1 0} with replicated borders,
 * saturated to uint8: cv::filter2D(..., BORDER_REPLICATE) on 8U, and
 * also what the kernel's Q12 coefficients (>> 8, then >> 4) compute. */
static void laplacian(const uint8_t *g, uint8_t *f, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int yu = y > 0 ? y - 1 : 0, yd = y < h - 1 ? y + 1 : h - 1;
            int xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;
            int32_t v = g[yu * w + x] + g[yd * w + x] + g[y * w + xl] +
                        g[y * w + xr] - 4 * g[y * w + x];
            f[y * w + x] = sat_u8(v);
        }
}

/* out (RGBA) = saturate(threshold(laplacian(gray)) + in), alpha 255.
 * `weights` are the gray weights (R, G, B) over 2^15 with 2^14 to round:
 * the AIE kernel's (9798, 19235, 3736) or OpenCV 4's BGR2GRAY (9798,
 * 19235, 3735). */
static void edge_detect_ref(const uint8_t *rgba, uint8_t *out, int w, int h,
                            const int32_t weights[3])
{
    uint8_t *gray = malloc((size_t)w * h), *filt = malloc((size_t)w * h);
    ASSERT(gray && filt);
    for (int64_t p = 0; p < (int64_t)w * h; p++)
        gray[p] = sat_u8((weights[0] * rgba[4 * p] +
                          weights[1] * rgba[4 * p + 1] +
                          weights[2] * rgba[4 * p + 2] + (1 << 14)) >> 15);
    laplacian(gray, filt, w, h);
    for (int64_t p = 0; p < (int64_t)w * h; p++) {
        uint8_t t = filt[p] > 10 ? 255 : 0;
        for (int c = 0; c < 3; c++)
            out[4 * p + c] = sat_u8(t + rgba[4 * p + c]);
        out[4 * p + 3] = 255;
    }
    free(gray);
    free(filt);
}

/* Runs the design on a random w x h image; checks it bit for bit against
 * the kernels' arithmetic and as upstream's test does against the OpenCV
 * pipeline (cvtColor, filter2D, threshold, addWeighted): the L1 error per
 * pixel (all four channels, divided by w * h) below 2.0. */
static void check_edge_detect(iron_jit *j, int w, int h, uint64_t seed)
{
    const int64_t bytes = (int64_t)w * h * 4;
    uint8_t *bgr = random_bgr(w, h, seed);
    iron_tensor *I = test_zeros_shape(IRON_INT8, IRON_SHAPE(bytes));
    iron_tensor *B = test_zeros_shape(IRON_INT32, IRON_SHAPE(16, 16));
    iron_tensor *O = test_zeros_shape(IRON_INT8, IRON_SHAPE(bytes));
    uint8_t *rgba = iron_tensor_data(I);
    for (int64_t p = 0; p < (int64_t)w * h; p++) {
        rgba[4 * p] = bgr[3 * p + 2];
        rgba[4 * p + 1] = bgr[3 * p + 1];
        rgba[4 * p + 2] = bgr[3 * p];
        rgba[4 * p + 3] = 255;
    }
    free(bgr);
    ASSERT_OK(IRON_CALL_WITH(j,
                             IRON_PARAMS(iron_param_int("width", w),
                                         iron_param_int("height", h)),
                             I, B, O));
    const uint8_t *got = iron_tensor_data(O);
    uint8_t *want = malloc((size_t)bytes);
    ASSERT(want != NULL);

    static const int32_t aie_weights[3] = { 9798, 19235, 3736 };
    edge_detect_ref(rgba, want, w, h, aie_weights);
    int64_t bad = 0;
    for (int64_t i = 0; i < bytes; i++)
        if (got[i] != want[i]) {
            if (bad < 5)
                fprintf(stderr, "edge_detect %dx%d: pixel (%lld, %lld) "
                                "channel %lld: got %d, want %d\n",
                        w, h, (long long)(i / 4 / w),
                        (long long)(i / 4 % w), (long long)(i % 4), got[i],
                        want[i]);
            bad++;
        }
    ASSERT_EQ(bad, 0);

    static const int32_t cv_weights[3] = { 9798, 19235, 3735 };
    edge_detect_ref(rgba, want, w, h, cv_weights);
    double l1 = 0;
    for (int64_t i = 0; i < bytes; i++)
        l1 += abs((int)got[i] - (int)want[i]);
    double error_per_pixel = l1 / ((double)w * h);
    fprintf(stderr, "edge_detect %dx%d: average L1 error per pixel %f\n", w,
            h, error_per_pixel);
    ASSERT(error_per_pixel < 2.0);
    free(want);
    iron_tensor_free(I);
    iron_tensor_free(B);
    iron_tensor_free(O);
}

/* Upstream's size on its devices, NPU1Col1 and NPU2 (one test each: a
 * build compiles nine kernels). */
TEST(upstream_ml_edge_detect_1920x1080_npu1)
{
    iron_jit *j = test_new_jit(upstream_edge_detect_design,
                          &upstream_edge_detect_options);
    IRON_WITH_DEVICE("npu1_1col")
    {
        check_edge_detect(j, 1920, 1080, 81);
    }
    iron_jit_free(j);
}

TEST(upstream_ml_edge_detect_1920x1080_npu2)
{
    iron_jit *j = test_new_jit(upstream_edge_detect_design,
                          &upstream_edge_detect_options);
    IRON_WITH_DEVICE("npu2")
    {
        check_edge_detect(j, 1920, 1080, 85);
    }
    iron_jit_free(j);
}

/* Upstream's Makefile's smaller sizes; the second image of a size runs on
 * workers that already went through one (they never stop). */
TEST(upstream_ml_edge_detect_64x36)
{
    iron_jit *j = test_new_jit(upstream_edge_detect_design,
                          &upstream_edge_detect_options);
    check_edge_detect(j, 64, 36, 82);
    check_edge_detect(j, 64, 36, 83);
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_jit_free(j);
}

TEST(upstream_ml_edge_detect_640x480)
{
    iron_jit *j = test_new_jit(upstream_edge_detect_design,
                          &upstream_edge_detect_options);
    check_edge_detect(j, 640, 480, 84);
    check_edge_detect(j, 640, 480, 86);
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * The placed designs: buffers per endpoint, links, task groups, patterns
 * ------------------------------------------------------------------------ */

/* The buffer lowering on upstream's edge detection: a DMA-fed compute
 * endpoint declared with depth 7 gets max acquire + 1 = 2 buffers, the
 * memtile end keeps 7, per-endpoint depths are taken as they are, the
 * filter's 3-line window is 4 buffers, and fifos between workers whose
 * memories touch are one pool of shared memory (OF_local is on one tile). */
TEST(upstream_ml_dump_edge_detect_buffers)
{
    iron_jit *j = test_new_jit(upstream_edge_detect_design,
                          &upstream_edge_detect_options);
    iron_tensor *I = test_zeros_shape(IRON_INT8, IRON_SHAPE(1920 * 1080 * 4));
    iron_tensor *B = test_zeros_shape(IRON_INT32, IRON_SHAPE(16, 16));
    iron_tensor *O = test_zeros_shape(IRON_INT8, IRON_SHAPE(1920 * 1080 * 4));
    char *text = dump_of(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(I, B, O));

    ASSERT_CONTAINS(text, "  inOF_L2L1: uint8[7680] x 7\n");
    ASSERT_ENDPOINT(text, "inOF_L2L1", "worker 'gray2rgba_addWeighted'",
                    "buffers 2 (max acquire 1 + 1; declared depth 7)");
    ASSERT_ENDPOINT(text, "inOF_L2L1", "producer: memtile link",
                    "buffers 7");
    ASSERT_ENDPOINT(text, "inOF_L3L2", "memtile link", "depth 7 buffers 7");
    ASSERT_ENDPOINT(text, "inOF_L3L2", "worker 'rgba2gray'",
                    "buffers 2 (per-endpoint depth 2)");
    ASSERT_ENDPOINT(text, "OF_2to3", "worker 'filter2d'", "max acquire 3");
    ASSERT_ENDPOINT(text, "OF_2to3", "worker 'filter2d'", "buffers 4");
    ASSERT_ENDPOINT(text, "OF_2to3", "worker 'filter2d'", "shared memory");
    ASSERT_ENDPOINT(text, "OF_3to4", "worker 'threshold'",
                    "buffers 2 (declared depth 2, shared memory");
    ASSERT_ENDPOINT(text, "OF_4to5", "worker 'gray2rgba_addWeighted'",
                    "buffers 2 (declared depth 2, shared memory");
    ASSERT_ENDPOINT(text, "OF_local", "producer: worker",
                    "buffers 1 (declared depth 1, shared memory");
    ASSERT_ENDPOINT(text, "OF_local", "consumer 0: worker",
                    "buffers 1 (declared depth 1, shared memory");
    ASSERT_ENDPOINT(text, "outOF_L1L2", "worker 'gray2rgba_addWeighted'",
                    "buffers 2 (max acquire 1 + 1; declared depth 2)");
    ASSERT_EQ(count_of(text, " forward on memtile "), 2);
    ASSERT_CONTAINS(text, ": 'inOF_L3L2' -> 'inOF_L2L1'");
    ASSERT_CONTAINS(text, ": 'outOF_L1L2' -> 'outOF_L2L3'");
    /* The described bodies name upstream's Kernel objects they call (in
     * upstream's argument order; the widths are constants in the
     * bodies), and the filter's coefficients are a local buffer with
     * initial values. */
    ASSERT_CONTAINS(text, "fifo 'OF_3to4' (producer), rtp 'kernel' "
                          "(initial ");
    ASSERT_CONTAINS(text, "), kernel 'filter2dLine' (kernel 1)\n");
    ASSERT_CONTAINS(text, "kernel 'gray2rgbaLine' (kernel 3), kernel "
                          "'addWeightedLine' (kernel 4)\n");
    /* The int8 tensors feed and drain the uint8 lines whole. */
    ASSERT_CONTAINS(text, "fill fifo 'inOF_L3L2' (producer) from argument 0 "
                          "('I') offset 0 sizes [8294400] strides [1]");
    ASSERT_CONTAINS(text, "drain fifo 'outOF_L2L3' (consumer) into argument "
                          "2 ('O') offset 0 sizes [8294400] strides [1]");
    iron_free(text);
    iron_tensor_free(I);
    iron_tensor_free(B);
    iron_tensor_free(O);
    iron_jit_free(j);
}

TEST(upstream_ml_dump_relu)
{
    iron_jit *j = test_new_jit(upstream_relu_design, &upstream_relu_options);
    iron_tensor *in = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(RELU_N));
    iron_tensor *out = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(RELU_N));
    char *text = dump_of(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(in, out));
    ASSERT_CONTAINS(text, "workers (8):");
    ASSERT_CONTAINS(text, "fifos (16):");
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 2; c++) {
            char f[40], who[64], tap[192];
            snprintf(who, sizeof who, "worker 'relu%d_%d'", i, c);
            snprintf(f, sizeof f, "in%d_%d", i, c);
            ASSERT_ENDPOINT(text, f, who, "buffers 2 (max acquire 1 + 1; "
                                          "declared depth 2)");
            snprintf(tap, sizeof tap, "fill fifo '%s' (producer) from "
                     "argument 0 ('a_in') offset %d sizes [1, 1, 1, 2048] "
                     "strides [0, 0, 0, 1]", f, 2048 * (2 * i + c));
            ASSERT_CONTAINS(text, tap);
            snprintf(f, sizeof f, "out%d_%d", i, c);
            ASSERT_ENDPOINT(text, f, who, "buffers 2 (max acquire 1 + 1; "
                                          "declared depth 2)");
            snprintf(tap, sizeof tap, "drain fifo '%s' (consumer) into "
                     "argument 1 ('b_out') offset %d sizes [1, 1, 1, 2048] "
                     "strides [0, 0, 0, 1]", f, 2048 * (2 * i + c));
            ASSERT_CONTAINS(text, tap);
        }
    /* One group: opened first, 8 fills and 8 drains in it, then finished. */
    ASSERT_CONTAINS(text, "sequence (18 ops):\n  0 task_group 1\n");
    ASSERT_CONTAINS(text, "  17 finish_task_group 1\n");
    ASSERT_EQ(count_of(text, " (group 1)\n"), 16);
    ASSERT_EQ(count_of(text, " wait (group 1)\n"), 8);
    iron_free(text);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST(upstream_ml_dump_eltwise_add)
{
    iron_jit *j = test_new_jit(upstream_eltwise_add_design,
                          &upstream_eltwise_add_options);
    iron_tensor *A = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(EADD_N));
    iron_tensor *B = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(EADD_N));
    iron_tensor *C = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(EADD_N));
    char *text = dump_of(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(A, B, C));
    ASSERT_CONTAINS(text, "  inA: bfloat16[2048] x 2\n");
    ASSERT_CONTAINS(text, "  memA0: bfloat16[1024] x 2\n");
    ASSERT_CONTAINS(text, "  outC: bfloat16[2048] x 2\n");
    ASSERT_CONTAINS(text, ": 'inA' -> 'memA0', 'memA1' offsets [0, 1024]");
    ASSERT_CONTAINS(text, ": 'inB' -> 'memB0', 'memB1' offsets [0, 1024]");
    ASSERT_CONTAINS(text, ": 'memC0', 'memC1' -> 'outC' offsets [0, 1024]");
    ASSERT_EQ(count_of(text, " split on memtile "), 2);
    ASSERT_EQ(count_of(text, " join on memtile "), 1);
    ASSERT_ENDPOINT(text, "inA", "memtile link", "buffers 2");
    ASSERT_ENDPOINT(text, "memB1", "worker 'add1'",
                    "buffers 2 (max acquire 1 + 1; declared depth 2)");
    ASSERT_ENDPOINT(text, "memC0", "worker 'add0'",
                    "buffers 2 (max acquire 1 + 1; declared depth 2)");
    ASSERT_CONTAINS(text, "workers (2):");
    iron_free(text);
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
    iron_jit_free(j);
}

/* Upstream's group_tiler gives sizes [1, 72, 768, 32] strides [0, 32,
 * 2304, 1] for the matrix (after prune_step merges the 8 tiles of a strip
 * into one 768-row tile) and [1, 72, 1, 32] / [0, 32, 2304, 1] for the
 * bias; the library's tiler drops size-1 loops and merges loops that
 * continue each other, so the patterns must visit the same elements in
 * the same order. */
TEST(upstream_ml_dump_row_wise_bias_add)
{
    iron_jit *j = test_new_jit(upstream_row_wise_bias_add_design,
                          &upstream_row_wise_bias_add_options);
    iron_tensor *in = test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(RWB_M, RWB_N));
    iron_tensor *bias = test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(RWB_N));
    iron_tensor *out =
        test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(RWB_M, RWB_N));
    char *text = dump_of(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(in, bias, out));
    ASSERT_CONTAINS(text, "fill fifo 'in_fifo' (producer) from argument 0 "
                          "('inp') offset 0 sizes [72, 768, 32] strides "
                          "[32, 2304, 1]");
    ASSERT_CONTAINS(text, "fill fifo 'bias_fifo' (producer) from argument 1 "
                          "('bias') offset 0 sizes [2304] strides [1]");
    ASSERT_CONTAINS(text, "drain fifo 'out_fifo' (consumer) into argument 2 "
                          "('out') offset 0 sizes [72, 768, 32] strides "
                          "[32, 2304, 1]");
    ASSERT_CONTAINS(text, "  in_fifo: float32[3072] x 2\n");
    ASSERT_CONTAINS(text, "  bias_fifo: float32[32] x 2\n");
    ASSERT_ENDPOINT(text, "bias_fifo", "worker 'bias_add'",
                    "buffers 2 (max acquire 1 + 1; declared depth 2)");
    ASSERT_ENDPOINT(text, "in_fifo", "worker 'bias_add'", "buffers 2");
    ASSERT_ENDPOINT(text, "out_fifo", "worker 'bias_add'", "buffers 2");
    /* The body's loop counts (72 strips, 8 tiles) are constants in it. */
    ASSERT_CONTAINS(text, "args: fifo 'in_fifo' (consumer), fifo "
                          "'bias_fifo' (consumer), fifo 'out_fifo' "
                          "(producer), kernel 'row_wise_bias_add_f32_f32' "
                          "(kernel 0)\n");
    iron_free(text);

    /* The same tiler calls as the design's, against upstream's forms. */
    iron_tiler2d t = { .size = sizeof t, .rows = RWB_M, .cols = RWB_N,
                       .tile_rows = 96, .tile_cols = 32,
                       .group_rows = RWB_M / 96, .group_cols = RWB_N / 32,
                       .group_col_major = 1 };
    int64_t count = 0;
    iron_tap tap;
    ASSERT_OK(iron_tiler2d_count(&t, &count));
    ASSERT_EQ(count, 1);
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    const int64_t sz[4] = { 1, 72, 768, 32 }, st[4] = { 0, 32, 2304, 1 };
    assert_same_order(&tap, sz, st, 4);
    iron_tiler2d bt = { .size = sizeof bt, .rows = 1, .cols = RWB_N,
                        .tile_rows = 1, .tile_cols = 32, .group_rows = 1,
                        .group_cols = RWB_N / 32 };
    ASSERT_OK(iron_tiler2d_count(&bt, &count));
    ASSERT_EQ(count, 1);
    ASSERT_OK(iron_tiler2d_tap(&bt, 0, &tap));
    const int64_t bsz[4] = { 1, 72, 1, 32 }, bst[4] = { 0, 32, 2304, 1 };
    assert_same_order(&tap, bsz, bst, 4);
    /* Without the merging (prune_step=False): the 8 tiles of a strip stay
     * their own loop, same order. */
    t.no_prune_step = 1;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    assert_same_order(&tap, sz, st, 4);

    iron_tensor_free(in);
    iron_tensor_free(bias);
    iron_tensor_free(out);
    iron_jit_free(j);
}
