/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_aieapi_designs.c - the AIE API kernels of examples/kernels/aie/
 * (C++ against the host <aie_api/aie.hpp>) in the reference designs, on
 * npu1 and npu2, against scalar references computed here: bit for bit for
 * integers, within upstream's bfloat16 tolerance for bfloat16.  The
 * designs take the kernel through their `kernel_file` parameter
 * (examples/designs/kernel_choice.h).  Two kernels have no reference
 * design of their shape and run in small designs of this file: the int16
 * add (a binary transform) and the shift-round-saturate conversion, whose
 * shift and modes are dispatch-time scalars so that every mode runs
 * without a rebuild.
 */
#include <math.h>
#include <stdio.h>

#include "designs/designs.h"
#include "designs/upstream_basic.h"
#include "designs/upstream_ml.h"
#include "test.h"

#define KDIR "examples/kernels/aie/"

static const char *const devices[] = { "npu1", "npu2" };
#define NDEV 2

static iron_tensor *randint(iron_dtype dt, int64_t n, int64_t lo, int64_t hi,
                            uint64_t seed)
{
    return test_randint(dt, IRON_SHAPE(n), lo, hi, seed);
}

/* Element i of an integer tensor, sign-extended. */
static int64_t ival(const iron_tensor *t, int64_t i)
{
    const void *p = iron_tensor_data((iron_tensor *)(uintptr_t)t);
    switch (iron_tensor_dtype(t)) {
    case IRON_INT8: return ((const int8_t *)p)[i];
    case IRON_UINT8: return ((const uint8_t *)p)[i];
    case IRON_INT16: return ((const int16_t *)p)[i];
    case IRON_INT32: return ((const int32_t *)p)[i];
    default: TEST_FAIL_("ival: dtype %s", iron_dtype_name(iron_tensor_dtype(t)));
    }
    return 0;
}

/* Fails with the first few differences between an integer tensor and the
 * expected values. */
static void expect_ints(const char *what, const iron_tensor *got,
                        const int64_t *want, int64_t n)
{
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++)
        if (ival(got, i) != want[i] && bad++ < 5)
            fprintf(stderr, "  %s [%lld]: got %lld, want %lld\n", what,
                    (long long)i, (long long)ival(got, i),
                    (long long)want[i]);
    if (bad)
        TEST_FAIL_("%s: %lld of %lld elements differ", what, (long long)bad,
                   (long long)n);
}

static float bf16f(uint16_t b)
{
    return iron_bf16_to_float(b);
}

/* upstream's test_utils::nearly_equal(a, b, epsilon, abs_th = FLT_MIN),
 * with the bfloat16 epsilon its tests use (2^-8). */
#define BF16_EPS 0.00390625f
static int nearly_equal(float a, float b, float epsilon)
{
    if (a == b)
        return 1;
    float diff = fabsf(a - b);
    float norm = fminf(fabsf(a) + fabsf(b), 3.40282347e+38f);
    return diff < fmaxf(1.17549435e-38f, epsilon * norm);
}

/* Random bfloat16 in [lo, hi). */
static iron_tensor *rand_bf16(int64_t n, float lo, float hi, uint64_t seed)
{
    iron_tensor *u = NULL, *t = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(n));
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(n), seed, &u));
    const float *f = iron_tensor_data(u);
    uint16_t *b = iron_tensor_data(t);
    for (int64_t i = 0; i < n; i++)
        b[i] = iron_bf16_from_float(lo + (hi - lo) * f[i]);
    iron_tensor_free(u);
    return t;
}

/* ------------------------------------------------------------------------
 * passthrough.cc in the passthrough design
 * ------------------------------------------------------------------------ */

static void check_passthrough(iron_jit *j, int64_t n, int64_t obj,
                              uint64_t seed)
{
    iron_tensor *in = randint(IRON_UINT8, n, 0, 256, seed);
    iron_tensor *out = test_zeros(IRON_UINT8, n);
    ASSERT_OK(IRON_CALL_WITH(
        j,
        IRON_PARAMS(iron_param_int("obj", obj),
                    iron_param_str("kernel_file", KDIR "passthrough.cc")),
        in, out));
    ASSERT_EQ(memcmp(iron_tensor_data(in), iron_tensor_data(out),
                     (size_t)n),
              0);
    iron_tensor_free(in);
    iron_tensor_free(out);
}

TEST_TIMEOUT(aieapi_designs_passthrough, 120)
{
    iron_jit *j = test_new_jit(passthrough_design, &passthrough_options);
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            check_passthrough(j, 8192, 0, 1);    /* 2048-byte lines */
            check_passthrough(j, 6000, 1000, 2); /* a 40-byte tail each */
        }
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * scale.cc in the vector_scalar design
 * ------------------------------------------------------------------------ */

static void check_scale(iron_jit *j, iron_dtype dt, const char *entry,
                        int64_t n, int32_t factor, uint64_t seed)
{
    int64_t lo = dt == IRON_INT16 ? INT16_MIN : INT32_MIN;
    int64_t hi = dt == IRON_INT16 ? INT16_MAX : INT32_MAX;
    iron_tensor *in = randint(dt, n, lo, hi + 1, seed);
    iron_tensor *f = NULL, *out = test_zeros(dt, n);
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(1), factor, &f));
    ASSERT_OK(IRON_CALL_WITH(
        j,
        IRON_PARAMS(iron_param_str("kernel_file", KDIR "scale.cc"),
                    iron_param_str("kernel_entry", entry)),
        in, f, out));
    int64_t *want = malloc((size_t)n * sizeof *want);
    ASSERT(want != NULL);
    for (int64_t i = 0; i < n; i++) {
        /* The product's low bits: the design's wrap-around. */
        uint64_t p = (uint64_t)ival(in, i) * (uint64_t)(int64_t)factor;
        want[i] = dt == IRON_INT16 ? (int64_t)(int16_t)(uint16_t)p
                                   : (int64_t)(int32_t)(uint32_t)p;
    }
    char what[96];
    snprintf(what, sizeof what, "%s x %d", entry, (int)factor);
    expect_ints(what, out, want, n);
    free(want);
    iron_tensor_free(in);
    iron_tensor_free(f);
    iron_tensor_free(out);
}

TEST_TIMEOUT(aieapi_designs_scale, 180)
{
    iron_jit *j = test_new_jit(vector_scalar_design, &vector_scalar_options);
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            /* Factors that overflow the element type: the products wrap. */
            check_scale(j, IRON_INT16, "vector_scalar_mul_int16_vector",
                        4096, 3, 11);
            check_scale(j, IRON_INT16, "vector_scalar_mul_int16_vector",
                        4096, -3001, 12);
            check_scale(j, IRON_INT16, "vector_scalar_mul_int16_scalar",
                        1024, -3001, 13);
            check_scale(j, IRON_INT32, "vector_scalar_mul_int32_vector",
                        2048, 123457, 14);
            check_scale(j, IRON_INT32, "vector_scalar_mul_int32_vector",
                        2048, INT32_MIN, 15);
            check_scale(j, IRON_INT32, "vector_scalar_mul_int32_scalar",
                        2048, -77, 16);
        }
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * add.cc: int32 in the vector_op design, int16 in a binary transform,
 * bfloat16 in upstream's eltwise_add design
 * ------------------------------------------------------------------------ */

static void check_add_int(iron_jit *j, iron_dtype dt, int nparams,
                          const iron_param *params, int64_t n, uint64_t seed)
{
    int64_t lo = dt == IRON_INT16 ? INT16_MIN : INT32_MIN;
    int64_t hi = dt == IRON_INT16 ? INT16_MAX : INT32_MAX;
    iron_tensor *a = randint(dt, n, lo, hi + 1, seed);
    iron_tensor *b = randint(dt, n, lo, hi + 1, seed + 1);
    iron_tensor *c = test_zeros(dt, n);
    ASSERT_OK(iron_jit_launch(j, NULL, nparams, params, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, c)));
    int64_t *want = malloc((size_t)n * sizeof *want);
    ASSERT(want != NULL);
    for (int64_t i = 0; i < n; i++) {
        uint64_t s = (uint64_t)ival(a, i) + (uint64_t)ival(b, i);
        want[i] = dt == IRON_INT16 ? (int64_t)(int16_t)(uint16_t)s
                                   : (int64_t)(int32_t)(uint32_t)s;
    }
    expect_ints(iron_dtype_name(dt), c, want, n);
    free(want);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

TEST_TIMEOUT(aieapi_designs_add_int32, 120)
{
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            iron_param p[] = {
                iron_param_int("tile", 1024),
                iron_param_str("kernel_file", KDIR "add.cc"),
                iron_param_str("kernel_entry", "eltwise_add_int32_vector"),
            };
            check_add_int(j, IRON_INT32, 3, p, 16384, 21);
            p[2] = iron_param_str("kernel_entry", "eltwise_add_int32_scalar");
            check_add_int(j, IRON_INT32, 3, p, 4096, 22);
        }
    iron_jit_free(j);
}

/* A kernel file's entry and argument types, for this file's designs. */
typedef struct file_kernel {
    const char *path, *entry, *arg_types;
} file_kernel;

/* c = f(a, b) over T[N] in objects of 512, one worker (the standard
 * loop); the kernel is `user`'s, called (a, b, c, 512). */
static int binary_design(iron_design *d, void *user)
{
    const file_kernel *fk = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", dt, IRON_SHAPE(512), 2);
    iron_fifo *b = iron_fifo_new(d, "b", dt, IRON_SHAPE(512), 2);
    iron_fifo *c = iron_fifo_new(d, "c", dt, IRON_SHAPE(512), 2);
    iron_kernel *k = iron_kernel_new_file(d, fk->entry, fk->path,
                                          fk->arg_types, 0, NULL);
    iron_worker_new(d, "binary", k, n / 512,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_cons(b)),
                              iron_arg_fifo(iron_fifo_prod(c)),
                              iron_arg_int(512)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(b), 1, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(aieapi_designs_add_int16, 120)
{
    static const file_kernel add16 = { KDIR "add.cc",
                                       "eltwise_add_int16_vector",
                                       "int16*, int16*, int16*, int32" };
    iron_jit_options o = {
        .size = sizeof o,
        .name = "add_int16",
        .args = "in a: int16[N], in b: int16[N], out c: int16[N]",
        .user = (void *)(uintptr_t)&add16,
    };
    iron_jit *j = test_new_jit(binary_design, &o);
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            check_add_int(j, IRON_INT16, IRON_NO_PARAMS, 8192, 31);
        }
    iron_jit_free(j);
}

static void check_add_bf16(iron_jit *j, uint64_t seed)
{
    const int64_t n = 65536;
    iron_tensor *A = rand_bf16(n, -0.5f, 0.5f, seed);
    iron_tensor *B = rand_bf16(n, -0.5f, 0.5f, seed + 1);
    iron_tensor *C = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(n));
    ASSERT_OK(IRON_CALL_WITH(
        j, IRON_PARAMS(iron_param_str("kernel_file", KDIR "add.cc")), A, B,
        C));
    const uint16_t *a = iron_tensor_data(A), *b = iron_tensor_data(B);
    const uint16_t *c = iron_tensor_data(C);
    int64_t errors = 0;
    for (int64_t i = 0; i < n; i++) {
        float ref = bf16f(a[i]) + bf16f(b[i]);
        if (!nearly_equal(ref, bf16f(c[i]), BF16_EPS) && errors++ < 5)
            fprintf(stderr, "  bf16 add [%lld] %g + %g: got %g, want %g\n",
                    (long long)i, (double)bf16f(a[i]), (double)bf16f(b[i]),
                    (double)bf16f(c[i]), (double)ref);
    }
    ASSERT_EQ(errors, 0);
    iron_tensor_free(A);
    iron_tensor_free(B);
    iron_tensor_free(C);
}

/* Upstream's devices for this design: NPU1Col1 and NPU2. */
TEST_TIMEOUT(aieapi_designs_add_bf16, 120)
{
    iron_jit *j = test_new_jit(upstream_eltwise_add_design,
                               &upstream_eltwise_add_options);
    IRON_WITH_DEVICE("npu1_1col")
    {
        check_add_bf16(j, 41);
    }
    IRON_WITH_DEVICE("npu2")
    {
        check_add_bf16(j, 43);
    }
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * relu.cc in upstream's relu design
 * ------------------------------------------------------------------------ */

static void check_relu(iron_jit *j, uint64_t seed)
{
    const int64_t n = 16384;
    iron_tensor *A = rand_bf16(n, -4.0f, 4.0f, seed);
    uint16_t *a = iron_tensor_data(A);
    a[0] = 0x8000u; /* -0 */
    a[1] = 0xff80u; /* -inf */
    a[2] = 0x7f80u; /* +inf */
    a[3] = 0x0001u; /* the smallest denormal */
    a[4] = 0x8001u;
    iron_tensor *C = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(n));
    ASSERT_OK(IRON_CALL_WITH(
        j, IRON_PARAMS(iron_param_str("kernel_file", KDIR "relu.cc")), A,
        C));
    const uint16_t *c = iron_tensor_data(C);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        /* max(x, 0) is x or zero: exact, whatever the sign of a zero. */
        float want = bf16f(a[i]) > 0.0f ? bf16f(a[i]) : 0.0f;
        if (bf16f(c[i]) != want && bad++ < 5)
            fprintf(stderr, "  relu [%lld] %g: got %g, want %g\n",
                    (long long)i, (double)bf16f(a[i]), (double)bf16f(c[i]),
                    (double)want);
    }
    ASSERT_EQ(bad, 0);
    iron_tensor_free(A);
    iron_tensor_free(C);
}

TEST_TIMEOUT(aieapi_designs_relu, 120)
{
    iron_jit *j = test_new_jit(upstream_relu_design, &upstream_relu_options);
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            check_relu(j, 51 + (uint64_t)d);
        }
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * reduce_max.cc in the vector_reduce_max design
 * ------------------------------------------------------------------------ */

/* One call on a fresh jit: the design's running maxima live across calls
 * of one specialization. */
static void check_reduce_max_i32(int64_t n, int64_t lo, int64_t hi,
                                 uint64_t seed, int64_t plant_at)
{
    iron_jit *j = test_new_jit(vector_reduce_max_design,
                               &vector_reduce_max_options);
    iron_tensor *in = randint(IRON_INT32, n, lo, hi, seed);
    if (plant_at >= 0)
        ((int32_t *)iron_tensor_data(in))[plant_at] = (int32_t)hi;
    iron_tensor *out = test_zeros(IRON_INT32, 1);
    ASSERT_OK(IRON_CALL_WITH(
        j, IRON_PARAMS(iron_param_str("kernel_file", KDIR "reduce_max.cc")),
        in, out));
    int64_t want = INT32_MIN;
    for (int64_t i = 0; i < n; i++)
        want = ival(in, i) > want ? ival(in, i) : want;
    ASSERT_EQ(ival(out, 0), want);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

static void check_reduce_max_bf16(uint64_t seed)
{
    const int64_t n = 8192;
    iron_jit *j = test_new_jit(vector_reduce_max_design,
                               &vector_reduce_max_options);
    iron_tensor *in = rand_bf16(n, -100.0f, -1.0f, seed);
    iron_tensor *out = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(2));
    ASSERT_OK(IRON_CALL_WITH(
        j, IRON_PARAMS(iron_param_str("kernel_file", KDIR "reduce_max.cc")),
        in, out));
    const uint16_t *a = iron_tensor_data(in);
    float want = -INFINITY;
    for (int64_t i = 0; i < n; i++)
        want = bf16f(a[i]) > want ? bf16f(a[i]) : want;
    ASSERT_DBL_NEAR(bf16f(((const uint16_t *)iron_tensor_data(out))[0]),
                    want, 0);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST_TIMEOUT(aieapi_designs_reduce_max, 180)
{
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            /* All negative, the maximum in the last vector's last lane. */
            check_reduce_max_i32(16384, INT32_MIN, -5, 61, 16383);
            /* The maximum in the first lane of the first piece. */
            check_reduce_max_i32(8192, -1000000, 1000000, 62, 0);
            check_reduce_max_i32(2048, INT32_MIN, INT32_MAX, 63, -1);
            check_reduce_max_bf16(64);
        }
}

/* ------------------------------------------------------------------------
 * srs.cc: int32 -> int8 / int16 under every rounding and saturation mode
 * ------------------------------------------------------------------------ */

/* srs.cc's tables: the index of each mode. */
enum {
    R_FLOOR, R_CEIL, R_SYM_FLOOR, R_SYM_CEIL, R_POS_INF, R_NEG_INF,
    R_SYM_INF, R_SYM_ZERO, R_CONV_EVEN, R_CONV_ODD, NROUND
};
enum { S_NONE, S_SATURATE, S_SYMMETRIC, NSAT };
static const char *const round_names[NROUND] = {
    "floor",        "ceil",           "symmetric_floor", "symmetric_ceil",
    "positive_inf", "negative_inf",   "symmetric_inf",   "symmetric_zero",
    "conv_even",    "conv_odd",
};
static const char *const sat_names[NSAT] = { "none", "saturate",
                                             "symmetric" };

/* The AIE API's shift-round-saturate of one lane, from its definition:
 * x / 2^shift rounded by `rnd`, then wrapped to `bits` bits (none) or
 * clamped to the type's range (saturate) or to +-max (symmetric). */
static int64_t srs_ref(int64_t x, int shift, int rnd, int sat, int bits)
{
    int64_t q = x;
    if (shift > 0) {
        q = x >> shift; /* floor (arithmetic shift) */
        int64_t r = x - q * ((int64_t)1 << shift);   /* in [0, 2^shift) */
        int64_t half = (int64_t)1 << (shift - 1);
        int up = 0; /* q + 1 rather than q */
        switch (rnd) {
        case R_FLOOR: up = 0; break;
        case R_CEIL: up = r != 0; break;
        case R_SYM_FLOOR: up = x < 0 && r != 0; break;
        case R_SYM_CEIL: up = x >= 0 && r != 0; break;
        default: /* to nearest; the modes differ on ties only */
            if (r != half) {
                up = r > half;
                break;
            }
            switch (rnd) {
            case R_POS_INF: up = 1; break;
            case R_NEG_INF: up = 0; break;
            case R_SYM_INF: up = x >= 0; break;
            case R_SYM_ZERO: up = x < 0; break;
            case R_CONV_EVEN: up = (q & 1) != 0; break;
            case R_CONV_ODD: up = (q & 1) == 0; break;
            }
        }
        q += up;
    }
    int64_t max = ((int64_t)1 << (bits - 1)) - 1, min = -max - 1;
    if (sat == S_NONE) {
        uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)q & m;
        return u > (uint64_t)max ? (int64_t)u - (int64_t)(m + 1) : (int64_t)u;
    }
    if (sat == S_SYMMETRIC)
        min = -max;
    return q < min ? min : q > max ? max : q;
}

/* out = srs(in) over int32[N] -> T[N] in objects of 256, one worker; the
 * kernel (`user`'s) reads shift and modes from a 3-word run-time
 * parameter buffer that the sequence fills from the call's scalars. */
static int srs_design(iron_design *d, void *user)
{
    const file_kernel *fk = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_dtype ot = iron_design_arg_dtype(d, 1);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(256), 2);
    iron_fifo *out = iron_fifo_new(d, "out", ot, IRON_SHAPE(256), 2);
    iron_rtp *ctl = iron_rtp_new(d, "ctl", IRON_INT32, 3);
    const char *entry = ot == IRON_INT8 ? "srs_int32_to_int8"
                                        : "srs_int32_to_int16";
    char types[48];
    snprintf(types, sizeof types, "int32*, %s*, int32*, int32",
             iron_dtype_name(ot));
    iron_kernel *k = iron_kernel_new_file(d, entry, fk->path, types, 0, NULL);
    iron_worker_new(d, "srs", k, n / 256,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_rtp(ctl), iron_arg_int(256)));
    iron_rt_set_rtp_scalar(d, ctl, 0, iron_design_scalar_index(d, "shift"));
    iron_rt_set_rtp_scalar(d, ctl, 1, iron_design_scalar_index(d, "rnd"));
    iron_rt_set_rtp_scalar(d, ctl, 2, iron_design_scalar_index(d, "sat"));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static const file_kernel srs_kernel = { KDIR "srs.cc", NULL, NULL };

static iron_jit *srs_jit(void)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "srs",
        .args = "in x: int32[N], out y: T[N]",
        .user = (void *)(uintptr_t)&srs_kernel,
        .scalars = "shift, rnd, sat",
    };
    return test_new_jit(srs_design, &o);
}

#define SRS_N 1024

/* Inputs that exercise a shift: for a spread of k, k * 2^shift plus the
 * tie (half), just below and above it, and 0, both signs; then the int32
 * extremes and values that overflow int8 / int16 after the shift. */
static iron_tensor *srs_inputs(int shift)
{
    iron_tensor *t = test_zeros(IRON_INT32, SRS_N);
    int32_t *x = iron_tensor_data(t);
    int64_t unit = (int64_t)1 << shift, half = unit / 2;
    int i = 0;
    for (int64_t k = -60; k < 60 && i + 5 <= SRS_N - 64; k++) {
        int64_t base = k * unit;
        const int64_t v[5] = { base, base + half, base + half - 1,
                               base + half + 1, base + unit - 1 };
        for (int e = 0; e < 5; e++) {
            int64_t c = v[e] < INT32_MIN ? INT32_MIN
                      : v[e] > INT32_MAX ? INT32_MAX : v[e];
            x[i++] = (int32_t)c;
        }
    }
    const int64_t edge[] = { INT32_MIN, INT32_MAX, INT32_MIN + 1,
                             INT32_MAX - 1, 127 * unit, 128 * unit,
                             -128 * unit, -129 * unit, 32767 * unit,
                             32768 * unit, -32768 * unit, -32769 * unit,
                             300 * unit + half, -300 * unit - half };
    for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++) {
        int64_t c = edge[e] < INT32_MIN ? INT32_MIN
                  : edge[e] > INT32_MAX ? INT32_MAX : edge[e];
        x[i++] = (int32_t)c;
    }
    /* The rest: random over the whole range. */
    iron_tensor *r = randint(IRON_INT32, SRS_N, INT32_MIN,
                             (int64_t)INT32_MAX + 1, 70 + (uint64_t)shift);
    const int32_t *rx = iron_tensor_data(r);
    for (; i < SRS_N; i++)
        x[i] = rx[i];
    iron_tensor_free(r);
    return t;
}

static void check_srs(iron_jit *j, iron_dtype ot, int shift)
{
    const int bits = ot == IRON_INT8 ? 8 : 16;
    iron_tensor *in = srs_inputs(shift);
    iron_tensor *out = test_zeros(ot, SRS_N);
    int64_t want[SRS_N];
    for (int rnd = 0; rnd < NROUND; rnd++)
        for (int sat = 0; sat < NSAT; sat++) {
            memset(iron_tensor_data(out), 0x5a, iron_tensor_nbytes(out));
            ASSERT_OK(iron_jit_launch(
                j, NULL, IRON_NO_PARAMS,
                IRON_SCALARS(iron_scalar_value("shift", shift),
                             iron_scalar_value("rnd", rnd),
                             iron_scalar_value("sat", sat)),
                IRON_TENSORS(in, out)));
            for (int i = 0; i < SRS_N; i++)
                want[i] = srs_ref(ival(in, i), shift, rnd, sat, bits);
            char what[96];
            snprintf(what, sizeof what, "int32 -> %s, shift %d, %s, %s",
                     iron_dtype_name(ot), shift, round_names[rnd],
                     sat_names[sat]);
            expect_ints(what, out, want, SRS_N);
        }
    iron_tensor_free(in);
    iron_tensor_free(out);
}

TEST_TIMEOUT(aieapi_designs_srs_modes, 240)
{
    static const int shifts[] = { 0, 1, 2, 5, 12, 31 };
    iron_jit *j = srs_jit();
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
                check_srs(j, IRON_INT8, shifts[s]);
                check_srs(j, IRON_INT16, shifts[s]);
            }
        }
    /* One build per device and output type; the modes are scalars. */
    ASSERT_EQ(test_stats(j).builds, 2 * NDEV);
    iron_jit_free(j);
}

/* A bad mode or shift is a kernel fault naming the API call and the
 * kernel's line, and the next call of the design runs normally. */
static void expect_srs_fault(iron_jit *j, iron_tensor *in, iron_tensor *out,
                             int shift, int rnd, int sat, const char *needle)
{
    ASSERT_STATUS(iron_jit_launch(
                      j, NULL, IRON_NO_PARAMS,
                      IRON_SCALARS(iron_scalar_value("shift", shift),
                                   iron_scalar_value("rnd", rnd),
                                   iron_scalar_value("sat", sat)),
                      IRON_TENSORS(in, out)),
                  IRON_EKERNEL);
    ASSERT_MSG(needle);
    ASSERT_MSG("srs.cc:");
}

TEST_TIMEOUT(aieapi_designs_srs_faults, 120)
{
    iron_jit *j = srs_jit();
    iron_tensor *in = srs_inputs(3), *out = test_zeros(IRON_INT8, SRS_N);
    for (int d = 0; d < NDEV; d++)
        IRON_WITH_DEVICE(devices[d])
        {
            expect_srs_fault(j, in, out, 3, 99, S_NONE, "set_rounding");
            expect_srs_fault(j, in, out, 3, R_FLOOR, 7, "set_saturation");
            expect_srs_fault(j, in, out, 64, R_FLOOR, S_NONE, "shift");
            expect_srs_fault(j, in, out, -5, R_FLOOR, S_NONE, "shift");
            ASSERT_OK(iron_jit_launch(
                j, NULL, IRON_NO_PARAMS,
                IRON_SCALARS(iron_scalar_value("shift", 3),
                             iron_scalar_value("rnd", R_CONV_EVEN),
                             iron_scalar_value("sat", S_SATURATE)),
                IRON_TENSORS(in, out)));
            for (int i = 0; i < SRS_N; i++)
                ASSERT_EQ(ival(out, i), srs_ref(ival(in, i), 3, R_CONV_EVEN,
                                                S_SATURATE, 8));
        }
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}
