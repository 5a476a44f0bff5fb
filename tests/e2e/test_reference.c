/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_reference.c - the reference designs of upstream IRON
 * (examples/designs/) end to end: each run on the emulated NPU through its
 * jit object and compared element for element with a plain C reference,
 * on npu1 and npu2 device scopes and with non-default launch configs.
 */
#include <stdio.h>

#include "designs/designs.h"
#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */


/* Compares n elements of `got` with `want` (both esz-byte integers read as
 * int64 for the message); fails naming the first mismatches. */
static int64_t value_at(const void *p, size_t esz, int64_t i)
{
    switch (esz) {
    case 1: return ((const uint8_t *)p)[i];
    case 2: return ((const int16_t *)p)[i];
    case 4: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
    }
}

#define ASSERT_SAME(what, got, want, esz, n)                                  \
    assert_same_((what), (got), (want), (esz), (n), __FILE__, __LINE__)

static void assert_same_(const char *what, const void *got, const void *want,
                         size_t esz, int64_t n, const char *file, int line)
{
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < n; i++)
        if (memcmp((const uint8_t *)got + (size_t)i * esz,
                   (const uint8_t *)want + (size_t)i * esz, esz) != 0) {
            if (bad < 5)
                fprintf(stderr, "  %s[%lld]: got %lld, want %lld\n", what,
                        (long long)i, (long long)value_at(got, esz, i),
                        (long long)value_at(want, esz, i));
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

/* ------------------------------------------------------------------------
 * passthrough, vector add / sub, parallel elementwise (designs that were
 * there first; here so that all eleven run from one file)
 * ------------------------------------------------------------------------ */

TEST(ref_passthrough)
{
    iron_jit *j = test_new_jit(passthrough_design, &passthrough_options);
    const int64_t n = 4096;
    iron_tensor *in = test_randint(IRON_UINT8, IRON_SHAPE(n), 0, 256, 11);
    iron_tensor *out = test_zeros_shape(IRON_UINT8, IRON_SHAPE(n));
    ASSERT_OK(IRON_CALL(j, in, out));
    ASSERT_SAME("passthrough", iron_tensor_data(out), iron_tensor_data(in), 1,
                n);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST(ref_vector_add_and_sub)
{
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    const int64_t n = 4096;
    iron_tensor *a =
        test_randint(IRON_INT32, IRON_SHAPE(n), -100000, 100000, 1);
    iron_tensor *b =
        test_randint(IRON_INT32, IRON_SHAPE(n), -100000, 100000, 2);
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(n));
    int32_t *want = malloc((size_t)n * sizeof *want);
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    ASSERT_OK(IRON_CALL(j, a, b, c));
    for (int64_t i = 0; i < n; i++)
        want[i] = x[i] + y[i];
    ASSERT_SAME("a + b", iron_tensor_data(c), want, 4, n);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "-")), a, b,
                             c));
    for (int64_t i = 0; i < n; i++)
        want[i] = x[i] - y[i];
    ASSERT_SAME("a - b", iron_tensor_data(c), want, 4, n);
    ASSERT_EQ(test_stats(j).builds, 2);
    free(want);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

static void check_eltwise_parallel(iron_jit *j, const iron_launch_config *cfg,
                                   int64_t n)
{
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(n), -5000, 5000, 3);
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(n));
    ASSERT_OK(iron_jit_launch(j, cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(in, out)));
    int32_t *want = malloc((size_t)n * sizeof *want);
    const int32_t *x = iron_tensor_data(in);
    for (int64_t i = 0; i < n; i++)
        want[i] = x[i] * 3 + 1;
    ASSERT_SAME("3x + 1", iron_tensor_data(out), want, 4, n);
    free(want);
    iron_tensor_free(in);
    iron_tensor_free(out);
}

TEST(ref_eltwise_parallel_npu1_npu2_and_2col)
{
    iron_jit *j =
        test_new_jit(eltwise_parallel_design, &eltwise_parallel_options);
    IRON_WITH_DEVICE("npu1")
    {
        check_eltwise_parallel(j, NULL, 1 << 14);
    }
    IRON_WITH_DEVICE("npu2")
    {
        check_eltwise_parallel(j, NULL, 1 << 14);
        iron_launch_config cfg = { .size = sizeof cfg, .cols = 2 };
        check_eltwise_parallel(j, &cfg, 1 << 14);
    }
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * add constant
 * ------------------------------------------------------------------------ */

static void check_add_constant(iron_jit *j, int64_t n, int64_t c)
{
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(n), INT32_MIN,
                                (int64_t)INT32_MAX + 1, (uint64_t)(c + 100));
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(n));
    ASSERT_OK(IRON_CALL_WITH(j,
                             IRON_PARAMS(iron_param_int("n", n),
                                         iron_param_int("c", c)),
                             in, out));
    int32_t *want = malloc((size_t)n * sizeof *want);
    const int32_t *x = iron_tensor_data(in);
    for (int64_t i = 0; i < n; i++)
        want[i] = (int32_t)((uint32_t)x[i] + (uint32_t)c);
    ASSERT_SAME("in + c", iron_tensor_data(out), want, 4, n);
    free(want);
    iron_tensor_free(in);
    iron_tensor_free(out);
}

/* Each constant is its own specialization: two builds for two values,
 * none for a value seen before, and results that never mix. */
TEST(ref_add_constant_specializes_per_constant)
{
    iron_jit_options o = test_in_memory(&add_constant_options);
    iron_jit *j = test_new_jit(add_constant_design, &o);
    check_add_constant(j, 1024, 5);
    check_add_constant(j, 1024, -7);
    ASSERT_EQ(test_stats(j).builds, 2);
    check_add_constant(j, 1024, 5);
    check_add_constant(j, 1024, -7);
    ASSERT_EQ(test_stats(j).builds, 2);
    ASSERT_EQ(test_stats(j).specializations, 2);
    ASSERT_EQ(test_stats(j).kernel_compiles, 2);
    /* Wrap-around at the int32 edge. */
    check_add_constant(j, 1024, INT32_MAX);
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_jit_free(j);
}

TEST(ref_add_constant_default_and_devices)
{
    iron_jit *j = test_new_jit(add_constant_design, &add_constant_options);
    /* c defaults to 1. */
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(512), -50, 50, 4);
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(512));
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("n", 512)), in,
                             out));
    for (int i = 0; i < 512; i++)
        ASSERT_EQ(((int32_t *)iron_tensor_data(out))[i],
                  ((int32_t *)iron_tensor_data(in))[i] + 1);
    IRON_WITH_DEVICE("npu1")
    {
        check_add_constant(j, 2048, 42);
    }
    IRON_WITH_DEVICE("npu2_1col")
    {
        check_add_constant(j, 2048, 42);
    }
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST(ref_add_constant_errors)
{
    iron_jit *j = test_new_jit(add_constant_design, &add_constant_options);
    iron_tensor *in = test_zeros_shape(IRON_INT32, IRON_SHAPE(256));
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(256));
    /* n has no default: the message names it. */
    ASSERT_FAILS(IRON_CALL(j, in, out), IRON_EPARAM, "'n'");
    ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("c", 3)), in,
                                out),
                 IRON_EPARAM, "'n'");
    /* n must be the tensors' length. */
    ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("n", 512)), in,
                                out),
                 IRON_ESHAPE, "n = 512 but the tensors have 256");
    ASSERT_FAILS(IRON_CALL_WITH(j,
                                IRON_PARAMS(iron_param_int("n", 256),
                                            iron_param_int("c",
                                                           (int64_t)1 << 40)),
                                in, out),
                 IRON_EPARAM, "does not fit int32");
    ASSERT_EQ(test_stats(j).builds, 0);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * vector x scalar
 * ------------------------------------------------------------------------ */

static void check_vector_scalar(iron_jit *j, int64_t n, int32_t f,
                                uint64_t seed)
{
    iron_tensor *in = test_randint(IRON_INT16, IRON_SHAPE(n), INT16_MIN,
                                INT16_MAX + 1, seed);
    iron_tensor *factor = NULL;
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(1), f, &factor));
    iron_tensor *out = test_zeros_shape(IRON_INT16, IRON_SHAPE(n));
    ASSERT_OK(IRON_CALL(j, in, factor, out));
    int16_t *want = malloc((size_t)n * sizeof *want);
    const int16_t *x = iron_tensor_data(in);
    for (int64_t i = 0; i < n; i++)
        want[i] = (int16_t)(uint16_t)((uint32_t)x[i] * (uint32_t)f);
    ASSERT_SAME("in * factor", iron_tensor_data(out), want, 2, n);
    free(want);
    iron_tensor_free(in);
    iron_tensor_free(factor);
    iron_tensor_free(out);
}

TEST(ref_vector_scalar_times_3)
{
    iron_jit *j = test_new_jit(vector_scalar_design, &vector_scalar_options);
    check_vector_scalar(j, 1024, 3, 21);
    /* The factor is data, not a parameter: the same specialization takes
     * another one, and the core body's place in its loop carries over. */
    check_vector_scalar(j, 1024, -7, 22);
    check_vector_scalar(j, 1024, 3, 23);
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_jit_free(j);
}

TEST(ref_vector_scalar_npu1_npu2_sizes)
{
    iron_jit *j = test_new_jit(vector_scalar_design, &vector_scalar_options);
    IRON_WITH_DEVICE("npu1")
    {
        check_vector_scalar(j, 512, 3, 24);
        check_vector_scalar(j, 4096, 3, 25);
    }
    IRON_WITH_DEVICE("npu2")
    {
        check_vector_scalar(j, 512, 3, 26);
    }
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_jit_free(j);
}

TEST(ref_vector_scalar_rejects_bad_shapes)
{
    iron_jit *j = test_new_jit(vector_scalar_design, &vector_scalar_options);
    iron_tensor *in = test_zeros_shape(IRON_INT16, IRON_SHAPE(448));
    iron_tensor *out = test_zeros_shape(IRON_INT16, IRON_SHAPE(448));
    iron_tensor *f = test_zeros_shape(IRON_INT32, IRON_SHAPE(1));
    ASSERT_FAILS(IRON_CALL(j, in, f, out), IRON_ESHAPE,
                 "at least 512 and a multiple of 64");
    iron_tensor_free(in);
    iron_tensor_free(out);
    in = test_zeros_shape(IRON_INT16, IRON_SHAPE(544));
    out = test_zeros_shape(IRON_INT16, IRON_SHAPE(544));
    ASSERT_FAILS(IRON_CALL(j, in, f, out), IRON_ESHAPE,
                 "at least 512 and a multiple of 64");
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_tensor_free(f);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * SAXPY in bfloat16
 * ------------------------------------------------------------------------ */

/* Finite bfloat16 values with random sign and mantissa and exponents
 * around 1 (2^-7 .. 2^7), so that both the product and the sum round. */
static iron_tensor *rand_bf16(int64_t n, uint64_t seed)
{
    iron_tensor *t = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(n));
    uint16_t *v = iron_tensor_data(t);
    uint64_t s = seed * 0x9E3779B97F4A7C15u + 1;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(s >> 33);
        uint16_t sign = (uint16_t)((r & 1u) << 15);
        uint16_t exp = (uint16_t)(120 + (r >> 1) % 15);
        uint16_t man = (uint16_t)((r >> 5) & 0x7f);
        v[i] = (uint16_t)(sign | (uint16_t)(exp << 7) | man);
    }
    return t;
}

/* The C reference: the product rounded to float, the sum rounded to
 * float, then to bfloat16 (this file is compiled -std=c11, where GCC does
 * not contract a * x + y into an FMA). */
static void check_saxpy_bf16(iron_jit *j, const iron_param *a, int64_t n,
                             uint64_t seed)
{
    iron_tensor *x = rand_bf16(n, seed), *y = rand_bf16(n, seed + 1);
    iron_tensor *z = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(n));
    if (a)
        ASSERT_OK(iron_jit_launch(j, NULL, 1, a, IRON_NO_SCALARS,
                                  IRON_TENSORS(x, y, z)));
    else
        ASSERT_OK(IRON_CALL(j, x, y, z));
    const float af = a ? (float)a->f : 3.0f;
    const uint16_t *xv = iron_tensor_data(x), *yv = iron_tensor_data(y);
    uint16_t *want = malloc((size_t)n * sizeof *want);
    int64_t inexact = 0;
    for (int64_t i = 0; i < n; i++) {
        float ax = af * iron_bf16_to_float(xv[i]);
        float sum = ax + iron_bf16_to_float(yv[i]);
        want[i] = iron_bf16_from_float(sum);
        inexact += iron_bf16_to_float(want[i]) != sum;
    }
    /* The data must exercise rounding, or the test proves little. */
    ASSERT_GT(inexact, n / 2);
    ASSERT_SAME("a * x + y", iron_tensor_data(z), want, 2, n);
    free(want);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(z);
}

TEST(ref_saxpy_bf16_4096)
{
    iron_jit *j = test_new_jit(saxpy_bf16_design, &saxpy_bf16_options);
    check_saxpy_bf16(j, NULL, 4096, 31);
    check_saxpy_bf16(j, NULL, 4096, 33);
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_jit_free(j);
}

TEST(ref_saxpy_bf16_other_scale_and_devices)
{
    iron_jit *j = test_new_jit(saxpy_bf16_design, &saxpy_bf16_options);
    const iron_param a = iron_param_float("a", 0.1);
    check_saxpy_bf16(j, &a, 4096, 35);
    IRON_WITH_DEVICE("npu1")
    {
        check_saxpy_bf16(j, NULL, 4096, 37);
    }
    ASSERT_EQ(test_stats(j).builds, 2);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * multi-column memcpy
 * ------------------------------------------------------------------------ */

#define MEMCPY_N ((int64_t)16 << 20)

/* Copies a random n-element tensor twice (cold, then warm) and compares
 * both times. */
static void check_memcpy(iron_jit *j, const iron_launch_config *cfg,
                         int64_t n, uint64_t seed)
{
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(n), INT32_MIN,
                                (int64_t)INT32_MAX + 1, seed);
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(n));
    for (int call = 0; call < 2; call++) {
        memset(iron_tensor_data(out), 0, iron_tensor_nbytes(out));
        ASSERT_OK(iron_jit_launch(j, cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(in, out)));
        ASSERT_SAME("memcpy", iron_tensor_data(out), iron_tensor_data(in), 4,
                    n);
    }
    iron_tensor_free(in);
    iron_tensor_free(out);
}

TEST_TIMEOUT(ref_memcpy_cols_npu1_16mi, 120)
{
    iron_jit *j = test_new_jit(memcpy_cols_design, &memcpy_cols_options);
    IRON_WITH_DEVICE("npu1")
    {
        check_memcpy(j, NULL, MEMCPY_N, 41);
    }
    char *text = NULL;
    iron_tensor *in = test_zeros_shape(IRON_INT32, IRON_SHAPE(MEMCPY_N));
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(MEMCPY_N));
    IRON_WITH_DEVICE("npu1")
    {
        ASSERT_OK(iron_jit_dump(j, NULL, IRON_NO_PARAMS,
                                IRON_TENSORS(in, out), &text));
    }
    /* Eight workers, two in each of the four columns. */
    ASSERT_CONTAINS(text, "copy3_1");
    ASSERT_CONTAINS(text, "(3,3)");
    iron_free(text);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST_TIMEOUT(ref_memcpy_cols_npu2_16mi, 120)
{
    iron_jit *j = test_new_jit(memcpy_cols_design, &memcpy_cols_options);
    IRON_WITH_DEVICE("npu2")
    {
        check_memcpy(j, NULL, MEMCPY_N, 43);
    }
    iron_jit_free(j);
}

TEST_TIMEOUT(ref_memcpy_cols_launch_configs, 120)
{
    iron_jit *j = test_new_jit(memcpy_cols_design, &memcpy_cols_options);
    IRON_WITH_DEVICE("npu2")
    {
        for (int cols = 1; cols <= 8; cols *= 2) {
            iron_launch_config cfg = { .size = sizeof cfg, .cols = cols };
            check_memcpy(j, &cfg, (int64_t)1 << 20, 45 + (uint64_t)cols);
        }
        /* Shorter lines: another specialization, same answers. */
        iron_launch_config cfg = { .size = sizeof cfg, .cols = 3 };
        iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(6 * 256 * 10), 0,
                                    1000, 47);
        iron_tensor *out =
            test_zeros_shape(IRON_INT32, IRON_SHAPE(6 * 256 * 10));
        ASSERT_OK(iron_jit_launch(j, &cfg,
                                  IRON_PARAMS(iron_param_int("line", 256)),
                                  IRON_NO_SCALARS, IRON_TENSORS(in, out)));
        ASSERT_SAME("memcpy line=256", iron_tensor_data(out),
                    iron_tensor_data(in), 4, 6 * 256 * 10);
        /* Not a whole number of lines per worker. */
        ASSERT_FAILS(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                     IRON_TENSORS(in, out)),
                     IRON_ESHAPE, "3 columns x 2 workers");
        iron_tensor_free(in);
        iron_tensor_free(out);
    }
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * split and join through a memtile
 * ------------------------------------------------------------------------ */

static void check_split_join(iron_jit *j, int64_t n)
{
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(n), -1000000,
                                   1000000, (uint64_t)n);
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(n));
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(IRON_CALL(j, in, out));
        const int32_t *x = iron_tensor_data(in), *y = iron_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            if (y[i] != x[i] + 1)
                TEST_FAIL_("split_join n=%lld [%lld]: %d, want %d",
                           (long long)n, (long long)i, y[i], x[i] + 1);
    }
    iron_tensor_free(in);
    iron_tensor_free(out);
}

TEST(ref_split_join_48)
{
    iron_jit *j = test_new_jit(split_join_design, &split_join_options);
    /* The reference design's case with arange input: out[i] = i + 1. */
    iron_tensor *in = NULL,
                *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(48));
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 48, 1, &in));
    ASSERT_OK(IRON_CALL(j, in, out));
    for (int i = 0; i < 48; i++)
        ASSERT_EQ(((int32_t *)iron_tensor_data(out))[i], i + 1);
    check_split_join(j, 48);
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(in, out),
                            &text));
    ASSERT_CONTAINS(text, "split on memtile");
    ASSERT_CONTAINS(text, "join on memtile");
    iron_free(text);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST(ref_split_join_npu1_npu2_sizes)
{
    iron_jit *j = test_new_jit(split_join_design, &split_join_options);
    IRON_WITH_DEVICE("npu1")
    {
        check_split_join(j, 48);
        check_split_join(j, 24 * 100);
    }
    IRON_WITH_DEVICE("npu2_2col")
    {
        check_split_join(j, 24 * 7);
    }
    iron_tensor *in = test_zeros_shape(IRON_INT32, IRON_SHAPE(50));
    iron_tensor *out = test_zeros_shape(IRON_INT32, IRON_SHAPE(50));
    ASSERT_FAILS(IRON_CALL(j, in, out), IRON_ESHAPE,
                 "not a whole number of 24-element objects");
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * layout transform on a joined FIFO
 * ------------------------------------------------------------------------ */

TEST(ref_joined_layout_48)
{
    iron_jit *j = test_new_jit(joined_layout_design, &joined_layout_options);
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(48));
    for (int call = 0; call < 3; call++) {
        memset(iron_tensor_data(c), 0, iron_tensor_nbytes(c));
        ASSERT_OK(IRON_CALL(j, c));
        const int32_t *v = iron_tensor_data(c);
        for (int i = 0; i < 48; i++)
            ASSERT_EQ(v[i], i < 24 ? i % 3 + 1 : i % 3 + 2);
    }
    iron_tensor_free(c);
    iron_jit_free(j);
}

TEST(ref_joined_layout_longer_and_npu1)
{
    iron_jit *j = test_new_jit(joined_layout_design, &joined_layout_options);
    IRON_WITH_DEVICE("npu1_1col")
    {
        iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(48 * 5));
        ASSERT_OK(IRON_CALL(j, c));
        ASSERT_OK(IRON_CALL(j, c));
        const int32_t *v = iron_tensor_data(c);
        for (int i = 0; i < 48 * 5; i++)
            ASSERT_EQ(v[i], i % 3 + 1 + (i / 24) % 2);
        iron_tensor_free(c);
        c = test_zeros_shape(IRON_INT32, IRON_SHAPE(24));
        ASSERT_FAILS(IRON_CALL(j, c), IRON_ESHAPE, "pairs of 24-element");
        iron_tensor_free(c);
    }
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * matmuls
 * ------------------------------------------------------------------------ */

/* C = A * B in int64, then truncated to the output's width (2 or 4
 * bytes): the wrap-around the designs promise. */
static void matmul_ref(const int16_t *a, const int16_t *b, void *c,
                       size_t esz, int64_t M, int64_t K, int64_t N)
{
    int64_t *row = malloc((size_t)N * sizeof *row);
    for (int64_t i = 0; i < M; i++) {
        memset(row, 0, (size_t)N * sizeof *row);
        for (int64_t k = 0; k < K; k++) {
            int64_t aik = a[i * K + k];
            const int16_t *bk = b + k * N;
            for (int64_t j = 0; j < N; j++)
                row[j] += aik * bk[j];
        }
        for (int64_t j = 0; j < N; j++) {
            if (esz == 2)
                ((int16_t *)c)[i * N + j] = (int16_t)(uint16_t)row[j];
            else
                ((int32_t *)c)[i * N + j] = (int32_t)(uint32_t)row[j];
        }
    }
    free(row);
}

/* Runs a matmul jit on random full-range int16 A, B and compares C
 * (dtype out_dt) with matmul_ref, twice (cold, then warm on new data). */
static void check_matmul(iron_jit *j, const iron_launch_config *cfg,
                         int nparams, const iron_param *params, int64_t M,
                         int64_t K, int64_t N, iron_dtype out_dt,
                         uint64_t seed)
{
    for (int call = 0; call < 2; call++) {
        iron_tensor *a = test_randint(IRON_INT16, IRON_SHAPE(M, K), INT16_MIN,
                                   INT16_MAX + 1, seed + 2 * (uint64_t)call);
        iron_tensor *b =
            test_randint(IRON_INT16, IRON_SHAPE(K, N), INT16_MIN,
                         INT16_MAX + 1, seed + 1 + 2 * (uint64_t)call);
        iron_tensor *c = test_zeros_shape(out_dt, IRON_SHAPE(M, N));
        ASSERT_OK(iron_jit_launch(j, cfg, nparams, params, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b, c)));
        size_t esz = iron_dtype_size(out_dt);
        void *want = malloc((size_t)(M * N) * esz);
        matmul_ref(iron_tensor_data(a), iron_tensor_data(b), want, esz, M, K,
                   N);
        ASSERT_SAME("C = A * B", iron_tensor_data(c), want, esz, M * N);
        free(want);
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_tensor_free(c);
    }
}

TEST_TIMEOUT(ref_matmul_single_512, 120)
{
    iron_jit *j = test_new_jit(matmul_single_design, &matmul_single_options);
    check_matmul(j, NULL, IRON_NO_PARAMS, 512, 512, 512, IRON_INT16, 51);
    ASSERT_EQ(test_stats(j).builds, 1);
    iron_jit_free(j);
}

TEST_TIMEOUT(ref_matmul_single_shapes_and_tiles, 120)
{
    iron_jit *j = test_new_jit(matmul_single_design, &matmul_single_options);
    IRON_WITH_DEVICE("npu1")
    {
        /* Not square: every index order mistake shows. */
        check_matmul(j, NULL, IRON_NO_PARAMS, 128, 192, 256, IRON_INT16, 53);
        /* Smaller tiles, non-square too. */
        check_matmul(j, NULL,
                     IRON_PARAMS(iron_param_int("m", 16),
                                 iron_param_int("k", 32),
                                 iron_param_int("n", 24)),
                     48, 96, 72, IRON_INT16, 55);
    }
    iron_tensor *a = test_zeros_shape(IRON_INT16, IRON_SHAPE(100, 64));
    iron_tensor *b = test_zeros_shape(IRON_INT16, IRON_SHAPE(64, 64));
    iron_tensor *c = test_zeros_shape(IRON_INT16, IRON_SHAPE(100, 64));
    ASSERT_FAILS(IRON_CALL(j, a, b, c), IRON_ESHAPE,
                 "100 x 64 x 64 is not a whole number of 64 x 64 x 64 tiles");
    ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("k", 63)), a, b,
                                c),
                 IRON_ESHAPE, "micro-tiles");
    /* Tiles too big for a core's 64 KiB: the verifier names the tile and
     * its buffers. */
    iron_tensor *a2 = test_zeros_shape(IRON_INT16, IRON_SHAPE(256, 256));
    iron_tensor *b2 = test_zeros_shape(IRON_INT16, IRON_SHAPE(256, 256));
    iron_tensor *c2 = test_zeros_shape(IRON_INT16, IRON_SHAPE(256, 256));
    ASSERT_FAILS(IRON_CALL_WITH(j,
                                IRON_PARAMS(iron_param_int("m", 128),
                                            iron_param_int("k", 128),
                                            iron_param_int("n", 128)),
                                a2, b2, c2),
                 IRON_ERESOURCE,
                 "data memory needs 197632 bytes, the tile has 65536");
    /* A row of C tiles must fit one task group on the shim. */
    iron_tensor_free(b2);
    iron_tensor_free(c2);
    b2 = test_zeros_shape(IRON_INT16, IRON_SHAPE(256, 1024));
    c2 = test_zeros_shape(IRON_INT16, IRON_SHAPE(256, 1024));
    ASSERT_FAILS(IRON_CALL(j, a2, b2, c2), IRON_ESHAPE,
                 "the shim has 16 buffer descriptors");
    iron_tensor_free(a2);
    iron_tensor_free(b2);
    iron_tensor_free(c2);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* Every compute tile of the granted columns runs a worker. */
static void assert_whole_array(iron_jit *j, const iron_launch_config *cfg,
                               int64_t M, int64_t K, int64_t N, int cols)
{
    iron_tensor *a = test_zeros_shape(IRON_INT16, IRON_SHAPE(M, K));
    iron_tensor *b = test_zeros_shape(IRON_INT16, IRON_SHAPE(K, N));
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(M, N));
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, cfg, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                            &text));
    char name[32];
    snprintf(name, sizeof name, "mm3_%d", cols - 1);
    ASSERT_CONTAINS(text, name);
    snprintf(name, sizeof name, "(%d,5)", cols - 1);
    ASSERT_CONTAINS(text, name);
    ASSERT_CONTAINS(text, "split on memtile");
    ASSERT_CONTAINS(text, "join on memtile");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

TEST_TIMEOUT(ref_matmul_whole_npu1_256, 120)
{
    iron_jit *j = test_new_jit(matmul_whole_design, &matmul_whole_options);
    IRON_WITH_DEVICE("npu1")
    {
        check_matmul(j, NULL, IRON_NO_PARAMS, 256, 256, 256, IRON_INT32, 61);
        assert_whole_array(j, NULL, 256, 256, 256, 4);
    }
    iron_jit_free(j);
}

TEST_TIMEOUT(ref_matmul_whole_npu2_256, 120)
{
    iron_jit *j = test_new_jit(matmul_whole_design, &matmul_whole_options);
    IRON_WITH_DEVICE("npu2")
    {
        check_matmul(j, NULL, IRON_NO_PARAMS, 256, 256, 256, IRON_INT32, 63);
        assert_whole_array(j, NULL, 256, 256, 256, 8);
    }
    iron_jit_free(j);
}

TEST_TIMEOUT(ref_matmul_whole_launch_configs, 120)
{
    iron_jit *j = test_new_jit(matmul_whole_design, &matmul_whole_options);
    IRON_WITH_DEVICE("npu2")
    {
        iron_launch_config one = { .size = sizeof one, .cols = 1 };
        check_matmul(j, &one, IRON_NO_PARAMS, 256, 256, 256, IRON_INT32, 65);
        assert_whole_array(j, &one, 256, 256, 256, 1);
        /* Three columns, two row groups, non-square, smaller tiles. */
        iron_launch_config three = { .size = sizeof three, .cols = 3 };
        check_matmul(j, &three,
                     IRON_PARAMS(iron_param_int("m", 16),
                                 iron_param_int("k", 32),
                                 iron_param_int("n", 16)),
                     128, 96, 192, IRON_INT32, 67);
    }
    IRON_WITH_DEVICE("npu1")
    {
        iron_launch_config one = { .size = sizeof one, .cols = 1 };
        check_matmul(j, &one, IRON_NO_PARAMS, 256, 128, 64, IRON_INT32, 69);
        /* N must split over the columns. */
        iron_tensor *a = test_zeros_shape(IRON_INT16, IRON_SHAPE(256, 64));
        iron_tensor *b = test_zeros_shape(IRON_INT16, IRON_SHAPE(64, 96));
        iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(256, 96));
        ASSERT_FAILS(IRON_CALL(j, a, b, c), IRON_ESHAPE,
                     "N of 128");
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_tensor_free(c);
    }
    iron_jit_free(j);
}
