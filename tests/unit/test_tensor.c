/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tensor.c - dtypes, bfloat16 rounding, the portable PRNG and every
 * tensor factory, accessor and error path (with allocation failures).
 */
#include <float.h>
#include <math.h>

#include "core/core.h"
#include "tensor/tensor.h"
#include "test.h"

/* Exact floating-point equality that prints both values (ASSERT_EQ would
 * compare them as integers). */
#define ASSERT_DBL_EQ(a, b) ASSERT_DBL_NEAR(a, b, 0.0)

static uint32_t fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float bitsf(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static double at(const iron_tensor *t, int64_t i)
{
    double v = -12345.0;
    ASSERT_OK(iron_tensor_get_element(t, i, &v));
    return v;
}

/* ------------------------------------------------------------------------
 * dtypes
 * ------------------------------------------------------------------------ */

TEST(dtype_names_and_sizes)
{
    static const struct {
        iron_dtype dt;
        const char *name;
        size_t size;
    } table[] = {
        { IRON_INT8, "int8", 1 },       { IRON_UINT8, "uint8", 1 },
        { IRON_INT16, "int16", 2 },     { IRON_UINT16, "uint16", 2 },
        { IRON_INT32, "int32", 4 },     { IRON_UINT32, "uint32", 4 },
        { IRON_INT64, "int64", 8 },     { IRON_UINT64, "uint64", 8 },
        { IRON_FLOAT32, "float32", 4 }, { IRON_FLOAT64, "float64", 8 },
        { IRON_BFLOAT16, "bfloat16", 2 },
    };
    ASSERT_EQ(sizeof table / sizeof table[0], IRON_DTYPE_COUNT_);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        iron_dtype parsed = IRON_DTYPE_COUNT_;
        ASSERT_STR_EQ(iron_dtype_name(table[i].dt), table[i].name);
        ASSERT_EQ(iron_dtype_size(table[i].dt), table[i].size);
        ASSERT_OK(iron_dtype_parse(table[i].name, &parsed));
        ASSERT_EQ(parsed, table[i].dt);
    }
    ASSERT(iron_dtype_name(IRON_DTYPE_COUNT_) == NULL);
    ASSERT(iron_dtype_name((iron_dtype)-1) == NULL);
    ASSERT_EQ(iron_dtype_size(IRON_DTYPE_COUNT_), 0);
    ASSERT_EQ(iron_dtype_size((iron_dtype)-1), 0);
}

TEST(dtype_parse_aliases)
{
    static const struct {
        const char *name;
        iron_dtype dt;
    } table[] = {
        { "i8", IRON_INT8 },       { "u8", IRON_UINT8 },
        { "i16", IRON_INT16 },     { "u16", IRON_UINT16 },
        { "i32", IRON_INT32 },     { "u32", IRON_UINT32 },
        { "i64", IRON_INT64 },     { "u64", IRON_UINT64 },
        { "f32", IRON_FLOAT32 },   { "float", IRON_FLOAT32 },
        { "f64", IRON_FLOAT64 },   { "double", IRON_FLOAT64 },
        { "bf16", IRON_BFLOAT16 }, { "int32_t", IRON_INT32 },
        { "uint8_t", IRON_UINT8 }, { "int16_t", IRON_INT16 },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        iron_dtype parsed = IRON_DTYPE_COUNT_;
        ASSERT_OK(iron_dtype_parse(table[i].name, &parsed));
        ASSERT_EQ(parsed, table[i].dt);
    }
}

TEST(dtype_parse_errors)
{
    iron_dtype dt = IRON_INT16;
    ASSERT_FAILS(iron_dtype_parse("int33", &dt), IRON_EDTYPE, "'int33'");
    ASSERT_CONTAINS(iron_last_error(), "bfloat16");
    ASSERT_EQ(dt, IRON_INT16);
    ASSERT_FAILS(iron_dtype_parse("", &dt), IRON_EDTYPE, "unknown dtype ''");
    ASSERT_FAILS(iron_dtype_parse("Int32", &dt), IRON_EDTYPE, "'Int32'");
    /* "int" is ambiguous (int32 in C, int64 in numpy), so it is refused. */
    ASSERT_FAILS(iron_dtype_parse("int", &dt), IRON_EDTYPE, "'int'");
    ASSERT_FAILS(iron_dtype_parse(NULL, &dt), IRON_EINVAL, "name is NULL");
    ASSERT_FAILS(iron_dtype_parse("int8", NULL), IRON_EINVAL, "out is NULL");
}

/* ------------------------------------------------------------------------
 * bfloat16
 * ------------------------------------------------------------------------ */

TEST(bf16_round_to_nearest_even)
{
    static const struct {
        uint32_t in;
        uint16_t out;
    } cases[] = {
        { 0x3F800000u, 0x3F80 },  /* 1.0 exact */
        { 0x3F807FFFu, 0x3F80 },  /* below half: down */
        { 0x3F808000u, 0x3F80 },  /* tie, kept LSB even: down */
        { 0x3F808001u, 0x3F81 },  /* above half: up */
        { 0x3F818000u, 0x3F82 },  /* tie, kept LSB odd: up to even */
        { 0xBF818000u, 0xBF82 },  /* same with the sign */
        { 0x40490FDBu, 0x4049 },  /* pi */
        { 0x3F7FFFFFu, 0x3F80 },  /* carry into the exponent */
        { 0x7F7F7FFFu, 0x7F7F },  /* largest that stays finite */
        { 0x7F7F8000u, 0x7F80 },  /* tie at the top goes to infinity */
        { 0x7F7FFFFFu, 0x7F80 },  /* FLT_MAX overflows */
        { 0x7F800000u, 0x7F80 },  /* +inf */
        { 0xFF800000u, 0xFF80 },  /* -inf */
        { 0x00000000u, 0x0000 },  /* +0 */
        { 0x80000000u, 0x8000 },  /* -0 keeps its sign */
        { 0x00008000u, 0x0000 },  /* subnormal tie, even: down */
        { 0x00018000u, 0x0002 },  /* subnormal tie, odd: up */
        { 0x00010001u, 0x0001 },  /* subnormal below half */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint16_t got = iron_bf16_from_float(bitsf(cases[i].in));
        if (got != cases[i].out)
            TEST_FAIL_("bf16(0x%08x) = 0x%04x; expected 0x%04x",
                       cases[i].in, got, cases[i].out);
    }
    ASSERT_DBL_EQ(iron_bf16_to_float(0x4049), 3.140625f);
    ASSERT_DBL_EQ(iron_bf16_to_float(0xC000), -2.0f);
}

TEST(bf16_nan_stays_nan)
{
    /* Quiet NaN, signalling NaN whose payload lives only in the dropped
     * bits (truncation would give infinity), and a negative NaN. */
    static const uint32_t nans[] = { 0x7FC00000u, 0x7F800001u, 0x7FBFFFFFu,
                                     0xFFC00000u, 0xFF800001u };
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
        uint16_t h = iron_bf16_from_float(bitsf(nans[i]));
        ASSERT_EQ(h & 0x7F80, 0x7F80);
        ASSERT_NE(h & 0x007F, 0);
        ASSERT_EQ(h & 0x8000, (nans[i] >> 16) & 0x8000);
        ASSERT(isnan(iron_bf16_to_float(h)));
    }
    ASSERT_EQ(iron_bf16_from_float(NAN) & 0x7FC0, 0x7FC0);
}

TEST(bf16_round_trip_every_value)
{
    for (uint32_t h = 0; h <= 0xFFFF; h++) {
        float f = iron_bf16_to_float((iron_bf16)h);
        ASSERT_EQ(fbits(f), h << 16);
        uint16_t back = iron_bf16_from_float(f);
        if (isnan(f))
            ASSERT(isnan(iron_bf16_to_float(back)));
        else if (back != h)
            TEST_FAIL_("round trip of 0x%04x gave 0x%04x", h, back);
    }
}

/* A double just above a bfloat16 tie: rounding through float first would
 * land exactly on the tie and round down to even; one rounding goes up. */
TEST(bf16_store_from_double_rounds_once)
{
    iron_bf16 h;
    iron__dtype_store(IRON_BFLOAT16, &h, 1.0 + 0x1p-8 + 0x1p-30);
    ASSERT_EQ(h, 0x3F81);
    iron__dtype_store(IRON_BFLOAT16, &h, 1.0 + 0x1p-8);
    ASSERT_EQ(h, 0x3F80);
    iron__dtype_store(IRON_BFLOAT16, &h, -(1.0 + 0x1p-8 + 0x1p-30));
    ASSERT_EQ(h, 0xBF81);
    iron__dtype_store(IRON_BFLOAT16, &h, 1e300);
    ASSERT_EQ(h, 0x7F80);
    iron__dtype_store(IRON_BFLOAT16, &h, -1e300);
    ASSERT_EQ(h, 0xFF80);
    iron__dtype_store(IRON_BFLOAT16, &h, 0x1.fep127);
    ASSERT_EQ(h, 0x7F7F);
    iron__dtype_store(IRON_BFLOAT16, &h, 1e-300);
    ASSERT_EQ(h, 0x0000);
    iron__dtype_store(IRON_BFLOAT16, &h, 3.0);
    ASSERT_EQ(h, 0x4040);
    iron__dtype_store(IRON_BFLOAT16, &h, NAN);
    ASSERT(isnan(iron_bf16_to_float(h)));
}

/* The public double conversion is the one tensors store with, and
 * differs from going through float exactly on the doubles just off a
 * tie. */
TEST(bf16_from_double_is_the_store_s_rounding)
{
    static const double cases[] = {
        1.0 + 0x1p-8 + 0x1p-30, 1.0 + 0x1p-8, -(1.0 + 0x1p-8 + 0x1p-30),
        1e300, -1e300, 0x1.fep127, 0x1.ffp127, 1e-300, 3.0, -0.0, 0.1,
        INFINITY, -INFINITY,
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iron_bf16 stored;
        iron__dtype_store(IRON_BFLOAT16, &stored, cases[i]);
        ASSERT_EQ(iron_bf16_from_double(cases[i]), stored);
    }
    ASSERT_EQ(iron_bf16_from_double(1.0 + 0x1p-8 + 0x1p-30), 0x3F81);
    ASSERT_EQ(iron_bf16_from_float((float)(1.0 + 0x1p-8 + 0x1p-30)),
              0x3F80);
    ASSERT(isnan(iron_bf16_to_float(iron_bf16_from_double(NAN))));
}

TEST(dtype_store_saturates)
{
    int8_t i8;
    uint8_t u8;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f32;

    iron__dtype_store(IRON_INT8, &i8, 300);
    ASSERT_EQ(i8, 127);
    iron__dtype_store(IRON_INT8, &i8, -300);
    ASSERT_EQ(i8, -128);
    iron__dtype_store(IRON_INT8, &i8, -2.9);
    ASSERT_EQ(i8, -2);
    iron__dtype_store(IRON_UINT8, &u8, -5);
    ASSERT_EQ(u8, 0);
    iron__dtype_store(IRON_UINT8, &u8, 255.9);
    ASSERT_EQ(u8, 255);
    iron__dtype_store(IRON_INT32, &i32, NAN);
    ASSERT_EQ(i32, 0);
    iron__dtype_store(IRON_INT32, &i32, INFINITY);
    ASSERT_EQ(i32, INT32_MAX);
    iron__dtype_store(IRON_INT32, &i32, -INFINITY);
    ASSERT_EQ(i32, INT32_MIN);
    iron__dtype_store(IRON_UINT32, &u32, 5e9);
    ASSERT_EQ(u32, UINT32_MAX);
    iron__dtype_store(IRON_INT64, &i64, 1e19);
    ASSERT_EQ(i64, INT64_MAX);
    iron__dtype_store(IRON_INT64, &i64, -1e19);
    ASSERT_EQ(i64, INT64_MIN);
    iron__dtype_store(IRON_INT64, &i64, -0x1p63);
    ASSERT_EQ(i64, INT64_MIN);
    iron__dtype_store(IRON_INT64, &i64, NAN);
    ASSERT_EQ(i64, 0);
    iron__dtype_store(IRON_UINT64, &u64, 1e20);
    ASSERT(u64 == UINT64_MAX);
    iron__dtype_store(IRON_UINT64, &u64, -1.0);
    ASSERT(u64 == 0);
    iron__dtype_store(IRON_UINT64, &u64, 0x1p63);
    ASSERT(u64 == (uint64_t)1 << 63);
    iron__dtype_store(IRON_FLOAT32, &f32, 1e39);
    ASSERT(isinf(f32) && f32 > 0);
    iron__dtype_store(IRON_FLOAT32, &f32, -1e39);
    ASSERT(isinf(f32) && f32 < 0);
    iron__dtype_store(IRON_FLOAT32, &f32, (double)FLT_MAX * (1 + 0x1p-30));
    ASSERT_DBL_EQ(f32, FLT_MAX);
    iron__dtype_store(IRON_FLOAT32, &f32, 0.1);
    ASSERT_DBL_EQ(f32, 0.1f);
}

/* ------------------------------------------------------------------------
 * PRNG
 * ------------------------------------------------------------------------ */

/* The published reference outputs of splitmix64 (seed 0) and xoshiro256**
 * (state 1, 2, 3, 4): the generator is the one its authors specified. */
TEST(rng_reference_vectors)
{
    uint64_t x = 0;
    ASSERT(iron__splitmix64(&x) == 0xE220A8397B1DCDAFu);
    ASSERT(iron__splitmix64(&x) == 0x6E789E6AA1B965F4u);
    ASSERT(iron__splitmix64(&x) == 0x06C45D188009454Fu);
    iron__rng r = { { 1, 2, 3, 4 } };
    ASSERT(iron__rng_next(&r) == 11520u);
    ASSERT(iron__rng_next(&r) == 0u);
    ASSERT(iron__rng_next(&r) == 1509978240u);
    ASSERT(iron__rng_next(&r) == 1215971899390074240u);
}

TEST(rng_seeded_stream_is_pinned)
{
    iron__rng r;
    iron__rng_seed(&r, 42);
    ASSERT(iron__rng_next(&r) == 0x15780B2E0C2EC716u);
    ASSERT(iron__rng_next(&r) == 0x6104D9866D113A7Eu);
    ASSERT(iron__rng_next(&r) == 0xAE17533239E499A1u);
    ASSERT(iron__rng_next(&r) == 0xECB8AD4703B360A1u);
}

TEST(rng_below_edges)
{
    iron__rng r;
    iron__rng_seed(&r, 5);
    for (int i = 0; i < 1000; i++)
        ASSERT(iron__rng_below(&r, 1) == 0);
    for (int i = 0; i < 1000; i++)
        ASSERT(iron__rng_below(&r, 3) < 3);
    /* A span just over 2^63 rejects almost half the draws; it must still
     * terminate and stay in range. */
    uint64_t n = ((uint64_t)1 << 63) + 1;
    for (int i = 0; i < 1000; i++)
        ASSERT(iron__rng_below(&r, n) < n);
    double u = iron__rng_unit(&r, 53);
    ASSERT(u >= 0.0 && u < 1.0);
}

/* ------------------------------------------------------------------------
 * Factories
 * ------------------------------------------------------------------------ */

TEST(tensor_empty_and_zeros)
{
    iron_tensor *t = NULL, *z = NULL;
    ASSERT_OK(iron_tensor_empty(IRON_INT32, IRON_SHAPE(16, 4), &t));
    ASSERT_OK(iron_tensor_zeros(IRON_FLOAT64, IRON_SHAPE(2, 3, 5), &z));
    ASSERT(t && z);
    ASSERT_EQ(iron_tensor_dtype(t), IRON_INT32);
    ASSERT_EQ(iron_tensor_numel(t), 64);
    ASSERT_EQ(iron_tensor_nbytes(t), 256);
    iron_shape s = iron_tensor_shape(t);
    ASSERT_EQ(s.ndim, 2);
    ASSERT_EQ(s.dims[0], 16);
    ASSERT_EQ(s.dims[1], 4);
    ASSERT(iron_tensor_data(t) != NULL);
    /* The emulator's buffers are 64-byte aligned like XRT's. */
    ASSERT_EQ((uintptr_t)iron_tensor_data(t) % 64, 0);
    ASSERT_STR_EQ(iron_device_name(iron_tensor_device(t)), "npu2");

    ASSERT_EQ(iron_tensor_numel(z), 30);
    ASSERT_EQ(iron_tensor_nbytes(z), 240);
    const double *d = iron_tensor_data(z);
    for (int i = 0; i < 30; i++)
        ASSERT_DBL_EQ(d[i], 0.0);
    iron_tensor_free(t);
    iron_tensor_free(z);
    iron_tensor_free(NULL);
}

TEST(tensor_max_dims)
{
    iron_tensor *t;
    ASSERT_OK(iron_tensor_ones(IRON_UINT8, IRON_SHAPE(1, 2, 1, 3, 1, 2), &t));
    ASSERT_EQ(iron_tensor_numel(t), 12);
    char *text;
    ASSERT_OK(iron_tensor_describe(t, &text));
    ASSERT_STR_EQ(text, "uint8[1, 2, 1, 3, 1, 2]");
    iron_free(text);
    iron_tensor_free(t);
}

TEST(tensor_ones_every_dtype)
{
    for (int dt = 0; dt < IRON_DTYPE_COUNT_; dt++) {
        iron_tensor *t;
        ASSERT_OK(iron_tensor_ones((iron_dtype)dt, IRON_SHAPE(7), &t));
        for (int i = 0; i < 7; i++)
            ASSERT_DBL_EQ(at(t, i), 1.0);
        iron_tensor_free(t);
    }
    iron_tensor *b;
    ASSERT_OK(iron_tensor_ones(IRON_BFLOAT16, IRON_SHAPE(3), &b));
    ASSERT_EQ(((const iron_bf16 *)iron_tensor_data(b))[2], 0x3F80);
    iron_tensor_free(b);
}

TEST(tensor_full_converts_and_saturates)
{
    iron_tensor *t;
    ASSERT_OK(iron_tensor_full(IRON_INT8, IRON_SHAPE(3), 300.0, &t));
    ASSERT_DBL_EQ(at(t, 0), 127);
    ASSERT_DBL_EQ(at(t, 2), 127);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_full(IRON_UINT16, IRON_SHAPE(2), -1.0, &t));
    ASSERT_DBL_EQ(at(t, 1), 0);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(2), -7.9, &t));
    ASSERT_DBL_EQ(at(t, 1), -7);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(2), NAN, &t));
    ASSERT_DBL_EQ(at(t, 0), 0);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_full(IRON_FLOAT32, IRON_SHAPE(4), 0.1, &t));
    ASSERT_DBL_EQ(((const float *)iron_tensor_data(t))[3], 0.1f);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_full(IRON_BFLOAT16, IRON_SHAPE(4), 3.0, &t));
    ASSERT_EQ(((const iron_bf16 *)iron_tensor_data(t))[0], 0x4040);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_full(IRON_FLOAT64, IRON_SHAPE(5), -2.5, &t));
    ASSERT_DBL_EQ(at(t, 4), -2.5);
    iron_tensor_free(t);
}

/* numpy's np.arange(start, stop, step): ceil((stop - start) / step)
 * elements, start + i * step each. */
TEST(tensor_arange)
{
    iron_tensor *t;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 16, 1, &t));
    iron_shape sh = iron_tensor_shape(t);
    ASSERT_EQ(sh.ndim, 1);
    ASSERT_EQ(sh.dims[0], 16);
    const int32_t *p = iron_tensor_data(t);
    for (int i = 0; i < 16; i++)
        ASSERT_EQ(p[i], i);
    iron_tensor_free(t);

    /* The stop is excluded; a step that does not divide the range ends
     * before it: 0, 10, 3 is 0 3 6 9. */
    ASSERT_OK(iron_tensor_arange(IRON_INT64, 0, 10, 3, &t));
    ASSERT_EQ(iron_tensor_numel(t), 4);
    ASSERT_DBL_EQ(at(t, 3), 9);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_arange(IRON_INT64, 0, 9, 3, &t));
    ASSERT_EQ(iron_tensor_numel(t), 3);
    iron_tensor_free(t);

    ASSERT_OK(iron_tensor_arange(IRON_FLOAT32, 1.0, 3.5, 0.5, &t));
    ASSERT_EQ(iron_tensor_numel(t), 5);
    ASSERT_DBL_EQ(at(t, 0), 1.0);
    ASSERT_DBL_EQ(at(t, 4), 3.0);
    iron_tensor_free(t);

    /* Counting down: 5, 0, -2 is 5 3 1. */
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 5, 0, -2, &t));
    ASSERT_EQ(iron_tensor_numel(t), 3);
    ASSERT_DBL_EQ(at(t, 0), 5);
    ASSERT_DBL_EQ(at(t, 2), 1);
    iron_tensor_free(t);

    /* Fractional bounds, as numpy: arange(0.5, 3) is 0.5 1.5 2.5. */
    ASSERT_OK(iron_tensor_arange(IRON_FLOAT64, 0.5, 3, 1, &t));
    ASSERT_EQ(iron_tensor_numel(t), 3);
    ASSERT_DBL_EQ(at(t, 2), 2.5);
    iron_tensor_free(t);
    /* numpy's length rule, floating point and all: (1 - 0) / 0.1 is 10. */
    ASSERT_OK(iron_tensor_arange(IRON_FLOAT64, 0, 1, 0.1, &t));
    ASSERT_EQ(iron_tensor_numel(t), 10);
    iron_tensor_free(t);

    /* Down counting into an unsigned type saturates at 0. */
    ASSERT_OK(iron_tensor_arange(IRON_UINT8, 3, -3, -1, &t));
    ASSERT_EQ(iron_tensor_numel(t), 6);
    ASSERT_DBL_EQ(at(t, 0), 3);
    ASSERT_DBL_EQ(at(t, 3), 0);
    ASSERT_DBL_EQ(at(t, 5), 0);
    iron_tensor_free(t);

    /* Large tensors keep exact values: start + i*step, no running sum. */
    ASSERT_OK(iron_tensor_arange(IRON_FLOAT64, 0, 10000, 0.1, &t));
    ASSERT_EQ(iron_tensor_numel(t), 100000);
    ASSERT_DBL_EQ(at(t, 99999), 99999 * 0.1);
    iron_tensor_free(t);

    /* Another shape is a reshape of it. */
    iron_tensor *m;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 12, 1, &t));
    ASSERT_OK(iron_tensor_reshape(t, IRON_SHAPE(3, 4), &m));
    iron_tensor_free(t);
    ASSERT_DBL_EQ(at(m, 7), 7);
    iron_tensor_free(m);
}

TEST(tensor_rand_pinned_values)
{
    iron_tensor *a, *b, *f, *h;
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT64, IRON_SHAPE(4), 7, &a));
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT64, IRON_SHAPE(4), 7, &b));
    const double *pa = iron_tensor_data(a);
    /* Literal constants: the same seed gives these on every machine. */
    ASSERT_DBL_EQ(pa[0], 0.7005764821796896);
    ASSERT_DBL_EQ(pa[1], 0.27875122947378428);
    ASSERT_DBL_EQ(pa[2], 0.83962746187641979);
    ASSERT_DBL_EQ(pa[3], 0.98109772501493508);
    ASSERT_EQ(memcmp(pa, iron_tensor_data(b), 32), 0);

    /* Narrower types take fewer top bits of the same draws. */
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(4), 7, &f));
    const float *pf = iron_tensor_data(f);
    ASSERT_DBL_EQ(pf[0], 0.700576425f);
    ASSERT_DBL_EQ(pf[1], 0.278751194f);
    ASSERT_DBL_EQ(pf[2], 0.839627445f);
    ASSERT_DBL_EQ(pf[3], 0.981097698f);
    ASSERT_OK(iron_tensor_rand(IRON_BFLOAT16, IRON_SHAPE(4), 7, &h));
    const iron_bf16 *ph = iron_tensor_data(h);
    ASSERT_EQ(ph[0], 0x3F33);
    ASSERT_EQ(ph[1], 0x3E8E);
    ASSERT_EQ(ph[2], 0x3F56);
    ASSERT_EQ(ph[3], 0x3F7B);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(f);
    iron_tensor_free(h);
}

TEST(tensor_rand_range_and_seeds)
{
    static const iron_dtype dts[] = { IRON_FLOAT32, IRON_FLOAT64,
                                      IRON_BFLOAT16 };
    for (size_t k = 0; k < 3; k++) {
        iron_tensor *t, *u;
        ASSERT_OK(iron_tensor_rand(dts[k], IRON_SHAPE(64, 64), 1, &t));
        ASSERT_OK(iron_tensor_rand(dts[k], IRON_SHAPE(64, 64), 2, &u));
        double sum = 0;
        for (int64_t i = 0; i < 4096; i++) {
            double v = at(t, i);
            ASSERT(v >= 0.0 && v < 1.0);
            sum += v;
        }
        ASSERT_DBL_NEAR(sum / 4096, 0.5, 0.03);
        ASSERT_NE(memcmp(iron_tensor_data(t), iron_tensor_data(u),
                         iron_tensor_nbytes(t)), 0);
        iron_tensor_free(t);
        iron_tensor_free(u);
    }
}

TEST(tensor_randint_pinned_values)
{
    static const int32_t expect[8] = { 57, 22, 0, 83, 71, 62, 86, 29 };
    iron_tensor *t;
    ASSERT_OK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(8), 0, 100, 1, &t));
    const int32_t *p = iron_tensor_data(t);
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(p[i], expect[i]);
    iron_tensor_free(t);

    /* The whole int64 range keeps every bit (no trip through double). */
    ASSERT_OK(iron_tensor_randint(IRON_INT64, IRON_SHAPE(3), INT64_MIN,
                                  INT64_MAX, 3, &t));
    const int64_t *q = iron_tensor_data(t);
    ASSERT(q[0] == INT64_C(3516655840686148800));
    ASSERT(q[1] == INT64_C(2593261852873483502));
    ASSERT(q[2] == INT64_C(-5197141895990870703));
    iron_tensor_free(t);
}

TEST(tensor_randint_range_and_uniformity)
{
    enum { N = 100000, BUCKETS = 10 };
    iron_tensor *t;
    ASSERT_OK(iron_tensor_randint(IRON_INT8, IRON_SHAPE(N), -5, 5, 11, &t));
    const int8_t *p = iron_tensor_data(t);
    int count[BUCKETS] = { 0 };
    for (int i = 0; i < N; i++) {
        ASSERT(p[i] >= -5 && p[i] < 5);
        count[p[i] + 5]++;
    }
    /* Expected 10000 each; 5 sigma is about 475. */
    for (int b = 0; b < BUCKETS; b++)
        ASSERT(count[b] > N / BUCKETS - 500 && count[b] < N / BUCKETS + 500);
    iron_tensor_free(t);

    /* A span of 3 is where modulo bias would show with a biased method at
     * 64 bits only negligibly; this checks the mean over 3 buckets. */
    ASSERT_OK(iron_tensor_randint(IRON_UINT16, IRON_SHAPE(N), 0, 3, 12, &t));
    const uint16_t *q = iron_tensor_data(t);
    int c3[3] = { 0 };
    for (int i = 0; i < N; i++) {
        ASSERT(q[i] < 3);
        c3[q[i]]++;
    }
    for (int b = 0; b < 3; b++)
        ASSERT(c3[b] > N / 3 - 700 && c3[b] < N / 3 + 700);
    iron_tensor_free(t);

    /* The exclusive high may be one past the dtype's max. */
    ASSERT_OK(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(4096), 0, 256,
                                  13, &t));
    const uint8_t *u = iron_tensor_data(t);
    int seen0 = 0, seen255 = 0;
    for (int i = 0; i < 4096; i++) {
        seen0 |= u[i] == 0;
        seen255 |= u[i] == 255;
    }
    ASSERT(seen0 && seen255);
    iron_tensor_free(t);
}

TEST(tensor_randint_float_dtypes)
{
    iron_tensor *t;
    ASSERT_OK(iron_tensor_randint(IRON_BFLOAT16, IRON_SHAPE(512), -256,
                                  257, 4, &t));
    for (int i = 0; i < 512; i++) {
        double v = at(t, i);
        ASSERT(v == floor(v) && v >= -256 && v <= 256);
    }
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_randint(IRON_FLOAT32, IRON_SHAPE(8), 0, 10, 4, &t));
    iron_tensor_free(t);
    ASSERT_FAILS(iron_tensor_randint(IRON_BFLOAT16, IRON_SHAPE(4), 0, 258,
                                     4, &t),
                 IRON_EINVAL, "[0, 258) does not fit bfloat16");
    ASSERT(t == NULL);
}

/* ------------------------------------------------------------------------
 * Access
 * ------------------------------------------------------------------------ */

TEST(tensor_get_set)
{
    iron_tensor *t;
    double v;
    ASSERT_OK(iron_tensor_zeros(IRON_INT16, IRON_SHAPE(2, 5), &t));
    ASSERT_OK(iron_tensor_set_element(t, 9, -3));
    ASSERT_OK(iron_tensor_set_element(t, 0, 40000));
    ASSERT_DBL_EQ(at(t, 9), -3);
    ASSERT_DBL_EQ(at(t, 0), 32767);
    ASSERT_EQ(((const int16_t *)iron_tensor_data(t))[9], -3);
    ASSERT_FAILS(iron_tensor_get_element(t, 10, &v), IRON_EBOUNDS,
                 "index 10 is outside int16[2, 5] (valid 0..9)");
    ASSERT_FAILS(iron_tensor_get_element(t, -1, &v), IRON_EBOUNDS, "index -1");
    ASSERT_FAILS(iron_tensor_set_element(t, 10, 1), IRON_EBOUNDS, "index 10");
    ASSERT_FAILS(iron_tensor_get_element(t, 0, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT_FAILS(iron_tensor_get_element(NULL, 0, &v), IRON_EINVAL,
                 "tensor is NULL");
    ASSERT_FAILS(iron_tensor_set_element(NULL, 0, 1), IRON_EINVAL,
                 "tensor is NULL");
    iron_tensor_free(t);
}

TEST(tensor_describe)
{
    iron_tensor *t;
    char *text;
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(16, 4), &t));
    ASSERT_OK(iron_tensor_describe(t, &text));
    ASSERT_STR_EQ(text, "int32[16, 4]");
    iron_free(text);
    ASSERT_FAILS(iron_tensor_describe(t, NULL), IRON_EINVAL, "out is NULL");
    text = (char *)t;
    ASSERT_FAILS(iron_tensor_describe(NULL, &text), IRON_EINVAL,
                 "tensor is NULL");
    ASSERT(text == NULL);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_zeros(IRON_BFLOAT16, IRON_SHAPE(4096), &t));
    ASSERT_OK(iron_tensor_describe(t, &text));
    ASSERT_STR_EQ(text, "bfloat16[4096]");
    iron_free(text);
    iron_tensor_free(t);
}

TEST(tensor_null_accessors)
{
    ASSERT(iron_tensor_data(NULL) == NULL);
    ASSERT_EQ(iron_tensor_dtype(NULL), IRON_DTYPE_COUNT_);
    ASSERT_EQ(iron_tensor_shape(NULL).ndim, 0);
    ASSERT_EQ(iron_tensor_numel(NULL), 0);
    ASSERT_EQ(iron_tensor_nbytes(NULL), 0);
    ASSERT(iron_tensor_device(NULL) == NULL);
}

TEST(tensor_sync)
{
    iron_tensor *t;
    ASSERT_OK(iron_tensor_ones(IRON_INT32, IRON_SHAPE(8), &t));
    ASSERT_OK(iron_tensor_sync(t, IRON_SYNC_TO_DEVICE));
    ASSERT_OK(iron_tensor_sync(t, IRON_SYNC_TO_HOST));
    ASSERT_DBL_EQ(at(t, 7), 1);
    ASSERT_FAILS(iron_tensor_sync(t, (iron_sync_dir)7), IRON_EINVAL,
                 "direction 7");
    ASSERT_FAILS(iron_tensor_sync(NULL, IRON_SYNC_TO_HOST), IRON_EINVAL,
                 "tensor is NULL");
    iron_tensor_free(t);
}

TEST(tensor_on_scoped_device)
{
    iron_tensor *t;
    IRON_WITH_DEVICE("npu1_2col") {
        ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4), &t));
    }
    ASSERT_STR_EQ(iron_device_name(iron_tensor_device(t)), "npu1_2col");
    iron_tensor_free(t);
}

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------ */

static const iron_tensor sentinel_storage;
#define SENTINEL ((iron_tensor *)(uintptr_t)&sentinel_storage)

/* Every argument arange cannot use is an error saying why, with *out
 * NULL. */
TEST(tensor_arange_errors)
{
    iron_tensor *t = SENTINEL;
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 0, 4, 0, &t), IRON_EINVAL,
                 "iron_tensor_arange: step is 0; expected a finite, nonzero "
                 "number");
    ASSERT(t == NULL);
    t = SENTINEL;
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 0, 4, NAN, &t), IRON_EINVAL,
                 "step is nan");
    ASSERT(t == NULL);
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 0, 4, INFINITY, &t),
                 IRON_EINVAL, "step is inf");
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, NAN, 4, 1, &t), IRON_EINVAL,
                 "start nan and stop 4: both must be finite");
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 0, -INFINITY, -1, &t),
                 IRON_EINVAL, "stop -inf");
    /* Empty ranges: numpy returns an empty array; an iron tensor has at
     * least one element. */
    t = SENTINEL;
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 0, -4, 1, &t), IRON_ESHAPE,
                 "iron_tensor_arange: start 0, stop -4, step 1 give no "
                 "elements; a tensor has at least one");
    ASSERT(t == NULL);
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 3, 3, 1, &t), IRON_ESHAPE,
                 "give no elements");
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 0, 4, -1, &t), IRON_ESHAPE,
                 "start 0, stop 4, step -1 give no elements");
    ASSERT_FAILS(iron_tensor_arange((iron_dtype)42, 0, 4, 1, &t),
                 IRON_EDTYPE, "dtype 42 is not an iron_dtype");
    ASSERT_FAILS(iron_tensor_arange(IRON_INT32, 0, 4, 1, NULL), IRON_EINVAL,
                 "iron_tensor_arange: out is NULL");
}

TEST(tensor_errors_out_is_null)
{
    iron_shape s = IRON_SHAPE(4);
    ASSERT_FAILS(iron_tensor_empty(IRON_INT32, s, NULL), IRON_EINVAL,
                 "iron_tensor_empty: out is NULL");
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT32, s, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT_FAILS(iron_tensor_ones(IRON_INT32, s, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT_FAILS(iron_tensor_full(IRON_INT32, s, 1, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT_FAILS(iron_tensor_rand(IRON_FLOAT32, s, 1, NULL), IRON_EINVAL,
                 "iron_tensor_rand: out is NULL");
    ASSERT_FAILS(iron_tensor_randint(IRON_INT32, s, 0, 9, 1, NULL),
                 IRON_EINVAL, "iron_tensor_randint: out is NULL");
}

TEST(tensor_errors_dtype)
{
    iron_tensor *t = SENTINEL;
    ASSERT_FAILS(iron_tensor_zeros((iron_dtype)42, IRON_SHAPE(4), &t),
                 IRON_EDTYPE, "dtype 42 is not an iron_dtype");
    ASSERT(t == NULL);
    t = SENTINEL;
    ASSERT_FAILS(iron_tensor_full((iron_dtype)-3, IRON_SHAPE(4), 0, &t),
                 IRON_EDTYPE, "dtype -3");
    ASSERT(t == NULL);
    t = SENTINEL;
    ASSERT_FAILS(iron_tensor_rand(IRON_INT32, IRON_SHAPE(4), 1, &t),
                 IRON_EDTYPE, "dtype int32 is not a float type");
    ASSERT(t == NULL);
    t = SENTINEL;
    ASSERT_FAILS(iron_tensor_randint(IRON_DTYPE_COUNT_, IRON_SHAPE(4), 0,
                                     1, 1, &t),
                 IRON_EDTYPE, "dtype 11");
    ASSERT(t == NULL);
}

TEST(tensor_errors_shape)
{
    iron_tensor *t = SENTINEL;
    iron_shape s = { 0, { 0 } };
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT32, s, &t), IRON_ESHAPE,
                 "shape has 0 dims; expected 1..6");
    ASSERT(t == NULL);
    s.ndim = 7;
    for (int i = 0; i < IRON_MAX_DIMS; i++)
        s.dims[i] = 1;
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT32, s, &t), IRON_ESHAPE,
                 "shape has 7 dims");
    s.ndim = -1;
    ASSERT_FAILS(iron_tensor_ones(IRON_INT32, s, &t), IRON_ESHAPE,
                 "shape has -1 dims");
    t = SENTINEL;
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4, 0), &t),
                 IRON_ESHAPE, "shape dim 1 is 0; dims must be >= 1");
    ASSERT(t == NULL);
    t = SENTINEL;
    ASSERT_FAILS(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(2, 3, 0), 1, &t),
                 IRON_ESHAPE, "shape dim 2 is 0");
    ASSERT(t == NULL);
    ASSERT_FAILS(iron_tensor_randint(IRON_INT8, IRON_SHAPE(1, 0), 0, 2,
                                     1, &t),
                 IRON_ESHAPE, "shape dim 1 is 0");
}

TEST(tensor_errors_overflow)
{
    iron_tensor *t = SENTINEL;
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT64,
                                   IRON_SHAPE(INT64_C(1) << 20,
                                              INT64_C(1) << 20,
                                              INT64_C(1) << 30), &t),
                 IRON_ESHAPE, "overflows at dim 2");
    ASSERT(t == NULL);
    ASSERT_FAILS(iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(INT64_MAX, 2), &t),
                 IRON_ESHAPE, "too large");
    /* Exactly at the limit in elements, but not in bytes. */
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT32,
                                   IRON_SHAPE(INT64_C(1) << 62), &t),
                 IRON_ESHAPE, "overflows at dim 0");
}

TEST(tensor_errors_randint_range)
{
    iron_tensor *t = SENTINEL;
    ASSERT_FAILS(iron_tensor_randint(IRON_INT32, IRON_SHAPE(4), 5, 5, 1, &t),
                 IRON_EINVAL, "low (5) must be < high (5)");
    ASSERT(t == NULL);
    ASSERT_FAILS(iron_tensor_randint(IRON_INT32, IRON_SHAPE(4), 9, -9, 1, &t),
                 IRON_EINVAL, "low (9) must be < high (-9)");
    ASSERT_FAILS(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(4), -1, 10,
                                     1, &t),
                 IRON_EINVAL, "range [-1, 10) does not fit uint8");
    ASSERT_FAILS(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(4), 0, 257,
                                     1, &t),
                 IRON_EINVAL, "[0, 257) does not fit uint8, whose exact "
                 "integers are 0 .. 255");
    ASSERT_FAILS(iron_tensor_randint(IRON_INT8, IRON_SHAPE(4), -129, 0,
                                     1, &t),
                 IRON_EINVAL, "-128 .. 127");
    ASSERT_FAILS(iron_tensor_randint(IRON_INT16, IRON_SHAPE(4), 0, 40000,
                                     1, &t),
                 IRON_EINVAL, "[0, 40000) does not fit int16");
    ASSERT(t == NULL);
}

/* Fail the 1st, 2nd, ... allocation until the constructor succeeds; every
 * failure must be a clean IRON_ENOMEM with *out NULL. */
static void alloc_failure_loop(iron_status (*make)(iron_tensor **))
{
    long n;
    int failures = 0;
    for (n = 1; n < 100; n++) {
        iron_tensor *t = SENTINEL;
        iron__alloc_fail_at(n);
        iron_status s = make(&t);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            ASSERT(t != NULL);
            iron_tensor_free(t);
            break;
        }
        failures++;
        if (s != IRON_ENOMEM)
            TEST_FAIL_("allocation %ld failing gave %s: %s", n,
                       iron_status_name(s), iron_last_error());
        ASSERT(t == NULL);
        ASSERT(iron_last_error()[0] != '\0');
    }
    ASSERT_LT(n, 100);
    ASSERT_GE(failures, 2);   /* the tensor struct and its buffer */
}

static iron_status make_zeros(iron_tensor **t)
{
    return iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), t);
}

static iron_status make_randint(iron_tensor **t)
{
    return iron_tensor_randint(IRON_INT16, IRON_SHAPE(8, 8), -3, 3, 1, t);
}

static iron_status make_rand(iron_tensor **t)
{
    return iron_tensor_rand(IRON_BFLOAT16, IRON_SHAPE(64), 1, t);
}

TEST(tensor_alloc_failure_loop)
{
    alloc_failure_loop(make_zeros);
    alloc_failure_loop(make_randint);
    alloc_failure_loop(make_rand);
}

/* Big tensors are mappings of their own (huge-page aligned from 16 MiB):
 * zeroed, writable, freed back. */
TEST(tensor_big_ones_are_zeroed_and_aligned)
{
    const int64_t sizes[] = { 16 << 10, 1 << 20, 5 << 20 };
    for (int k = 0; k < 3; k++) {
        iron_tensor *t;
        ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(sizes[k]), &t));
        int32_t *d = iron_tensor_data(t);
        ASSERT_EQ((uintptr_t)d % 64, 0);
        if (sizes[k] * 4 >= (16 << 20))
            ASSERT_EQ((uintptr_t)d % (2 << 20), 0);
        for (int64_t i = 0; i < sizes[k]; i += 1021)
            ASSERT_EQ(d[i], 0);
        ASSERT_EQ(d[sizes[k] - 1], 0);
        d[sizes[k] - 1] = 7;
        iron_tensor_free(t);
    }
}
