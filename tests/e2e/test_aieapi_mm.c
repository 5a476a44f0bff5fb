/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_aieapi_mm.c - the aie::mmul kernels of examples/kernels/aie/mm.cc
 * (int16 8x2x8 and bfloat16 4x8x4, upstream's style) in the single-core
 * matmul design on npu1 and npu2: int16 bit for bit against the exact
 * product wrapped to int16 (the design's own C kernel's result); bfloat16
 * bit for bit against a scalar model of the host AIE API's arithmetic
 * (float sums in k order with subnormals flushed, rounded to nearest even
 * once per call) and within upstream's matmul tolerance (0.5 absolute or
 * 5% relative) of the double-precision product.  Also: a micro-tile the
 * kernel does not use, and an mmul shape the architecture lacks, are
 * compile errors naming them.
 */
#include <math.h>

#include "designs/designs.h"
#include "test.h"

#define MM_CC "examples/kernels/aie/mm.cc"

/* Not const: the jit's user pointer is not. */
static matmul_single_kernels k_i16 = { MM_CC, 8, 2, 8 };
static matmul_single_kernels k_bf16 = { MM_CC, 4, 8, 4 };

static iron_jit *mm_jit(matmul_single_kernels *k, const char *args)
{
    iron_jit_options o = matmul_single_options;
    o.user = k;
    o.args = args;
    return test_new_jit(matmul_single_design, &o);
}

/* int16 C = A * B modulo 2^16. */
static void ref_i16(const int16_t *a, const int16_t *b, int16_t *c, int64_t M,
                    int64_t K, int64_t N)
{
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            uint32_t s = 0;
            for (int64_t k = 0; k < K; k++)
                s += (uint32_t)((int32_t)a[i * K + k] * b[k * N + j]);
            c[i * N + j] = (int16_t)(uint16_t)s;
        }
}

static void run_i16(const char *device, int64_t M, int64_t K, int64_t N,
                    int nparams, const iron_param *params, uint64_t seed)
{
    iron_jit *j = mm_jit(&k_i16, "in a: int16[M, K], in b: int16[K, N], "
                                 "out c: int16[M, N]");
    iron_tensor *a = test_randint(IRON_INT16, IRON_SHAPE(M, K), INT16_MIN,
                                  INT16_MAX + 1, seed);
    iron_tensor *b = test_randint(IRON_INT16, IRON_SHAPE(K, N), INT16_MIN,
                                  INT16_MAX + 1, seed + 1);
    iron_tensor *c = test_zeros_shape(IRON_INT16, IRON_SHAPE(M, N));
    IRON_WITH_DEVICE(device)
    {
        ASSERT_OK(iron_jit_launch(j, NULL, nparams, params, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b, c)));
    }
    int16_t *want = malloc((size_t)(M * N) * sizeof *want);
    ref_i16(iron_tensor_data(a), iron_tensor_data(b), want, M, K, N);
    const int16_t *got = iron_tensor_data(c);
    for (int64_t i = 0; i < M * N; i++)
        if (got[i] != want[i])
            TEST_FAIL_("%s: C[%lld][%lld] = %d, want %d", device,
                       (long long)(i / N), (long long)(i % N), got[i],
                       want[i]);
    free(want);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

TEST_TIMEOUT(aieapi_mm_i16_npu1, 120)
{
    run_i16("npu1", 128, 192, 256, IRON_NO_PARAMS, 71);
}

TEST_TIMEOUT(aieapi_mm_i16_npu2, 120)
{
    run_i16("npu2", 64, 128, 64, IRON_NO_PARAMS, 73);
    /* Other tiles: 32 x 32 x 48 (an even number of micro-tiles each way). */
    run_i16("npu2", 64, 64, 96,
            IRON_PARAMS(iron_param_int("m", 32), iron_param_int("k", 32),
                        iron_param_int("n", 48)),
            75);
}

/* --- bfloat16 ------------------------------------------------------------- */

static float bf_f(uint16_t u)
{
    uint32_t w = (uint32_t)u << 16;
    float f;
    memcpy(&f, &w, 4);
    return f;
}

static float ftz(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static uint16_t bf_rne(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fff + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

/* Random bfloat16 in [-2, 2) on a 1/64 grid: exact in bfloat16. */
static iron_tensor *rand_bf16(iron_shape s, uint64_t seed)
{
    iron_tensor *t = test_randint(IRON_INT16, s, -128, 128, seed);
    iron_tensor *out = test_zeros_shape(IRON_BFLOAT16, s);
    const int16_t *v = iron_tensor_data(t);
    uint16_t *o = iron_tensor_data(out);
    for (int64_t i = 0; i < iron_tensor_numel(t); i++)
        o[i] = bf_rne((float)v[i] / 64);
    iron_tensor_free(t);
    return out;
}

/* Whether the library yet accepts a C++ entry taking the AIE API's
 * bfloat16 * for a declared "bfloat16*" argument (its signature check
 * spells that uint16_t * for now, which a C++ kernel's bfloat16 * does
 * not match).  Until it does, the bfloat16 runs say so and stop. */
static void run_bf16(const char *device, int64_t M, int64_t K, int64_t N,
                     int64_t k_tile, uint64_t seed)
{
    iron_jit *j = mm_jit(&k_bf16, "in a: bfloat16[M, K], in b: bfloat16[K, "
                                  "N], out c: bfloat16[M, N]");
    iron_tensor *a = rand_bf16(IRON_SHAPE(M, K), seed);
    iron_tensor *b = rand_bf16(IRON_SHAPE(K, N), seed + 1);
    iron_tensor *c = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(M, N));
    IRON_WITH_DEVICE(device)
    {
        iron_status st = iron_jit_launch(
            j, NULL, IRON_PARAMS(iron_param_int("k", k_tile)),
            IRON_NO_SCALARS, IRON_TENSORS(a, b, c));
        ASSERT_OK(st);
    }
    const uint16_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    const uint16_t *pc = iron_tensor_data(c);
    double worst = 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t jj = 0; jj < N; jj++) {
            /* The model: per call (k tile) C to float, products added in k
             * order, rounded to bfloat16 (conv_even) at the call's end. */
            uint16_t model = 0;
            double exact = 0;
            for (int64_t k0 = 0; k0 < K; k0 += k_tile) {
                float s = bf_f(model);
                for (int64_t k = k0; k < k0 + k_tile; k++) {
                    float p = bf_f(pa[i * K + k]) * bf_f(pb[k * N + jj]);
                    s = ftz(s + ftz(p));
                    exact += (double)bf_f(pa[i * K + k]) *
                             bf_f(pb[k * N + jj]);
                }
                model = bf_rne(s);
            }
            uint16_t got = pc[i * N + jj];
            if (got != model)
                TEST_FAIL_("C[%lld][%lld] = bf16 0x%04x (%g), model 0x%04x "
                           "(%g)",
                           (long long)i, (long long)jj, got, bf_f(got), model,
                           bf_f(model));
            double diff = fabs(bf_f(got) - exact);
            double tol = fmax(0.5, 0.05 * fabs(exact));
            if (diff > tol)
                TEST_FAIL_("C[%lld][%lld] = %g, exact %g: off by %g, "
                           "upstream's tolerance %g",
                           (long long)i, (long long)jj, bf_f(got), exact, diff,
                           tol);
            worst = diff > worst ? diff : worst;
        }
    ASSERT(worst > 0); /* bfloat16 rounding happened */
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

TEST_TIMEOUT(aieapi_mm_bf16_npu1, 120)
{
    run_bf16("npu1", 128, 256, 128, 64, 81);
}

TEST_TIMEOUT(aieapi_mm_bf16_npu2, 120)
{
    run_bf16("npu2", 64, 128, 128, 32, 83);
}

/* --- compile errors ---------------------------------------------------- */

/* The kernel's micro-tile differs from the one the design blocks for. */
TEST_TIMEOUT(aieapi_mm_wrong_micro_tile, 60)
{
    static matmul_single_kernels wrong = { MM_CC, 4, 4, 8 };
    iron_jit *j = mm_jit(&wrong, "in a: int16[M, K], in b: int16[K, N], "
                                 "out c: int16[M, N]");
    iron_tensor *a = test_zeros_shape(IRON_INT16, IRON_SHAPE(64, 64));
    iron_tensor *b = test_zeros_shape(IRON_INT16, IRON_SHAPE(64, 64));
    iron_tensor *c = test_zeros_shape(IRON_INT16, IRON_SHAPE(64, 64));
    ASSERT_FAILS(IRON_CALL(j, a, b, c), IRON_ECOMPILE,
                 "another micro-tile than this kernel's");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* aie::mmul<4, 4, 4, int16, int16> exists on AIE2 and not on AIE2P: the
 * npu2 build fails naming the shape, the types and the architecture. */
static const char shape_cc[] =
    "#include <aie_api/aie.hpp>\n"
    "extern \"C\" void mm4(const int16 *a, const int16 *b, int16 *c)\n"
    "{\n"
    "    aie::mmul<4, 4, 4, int16, int16> m;\n"
    "    m.mul(aie::load_v<16>(a), aie::load_v<16>(b));\n"
    "    aie::store_v(c, m.to_vector<int16>());\n"
    "}\n";

static int shape_design(iron_design *d, void *user)
{
    const char *path = user;
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT16, IRON_SHAPE(16), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT16, IRON_SHAPE(16), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT16, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new_file(d, "mm4", path,
                                          "int16*, int16*, int16*", 0, NULL);
    iron_worker *w = iron_worker_new(
        d, "w", k, 1,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                  iron_arg_fifo(iron_fifo_cons(b)),
                  iron_arg_fifo(iron_fifo_prod(c))));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(16));
    iron_rt_fill(d, iron_fifo_prod(b), 1, iron_tap_linear(16));
    iron_rt_drain(d, iron_fifo_cons(c), 2, iron_tap_linear(16), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(aieapi_mm_shape_not_on_arch, 60)
{
    const char *dir = test_temp_dir("mmshape");
    char path[512];
    snprintf(path, sizeof path, "%s/mm4.cc", dir);
    test_spit(path, shape_cc, strlen(shape_cc));
    iron_jit_options o = { .size = sizeof o, .name = "mm4",
                           .args = "in a, in b, out c", .user = path };
    iron_jit *j = test_new_jit(shape_design, &o);
    iron_tensor *a = test_arange(IRON_INT16, 16);
    iron_tensor *b = test_arange(IRON_INT16, 16);
    iron_tensor *c = test_zeros(IRON_INT16, 16);
    IRON_WITH_DEVICE("npu1")
    {
        ASSERT_OK(IRON_CALL(j, a, b, c));
    }
    /* Row 0 of A (0 1 2 3) times column 0 of B (0 4 8 12). */
    ASSERT_EQ(((int16_t *)iron_tensor_data(c))[0], 56);
    IRON_WITH_DEVICE("npu2")
    {
        ASSERT_FAILS(IRON_CALL(j, a, b, c), IRON_ECOMPILE,
                     "mmul_shape_not_on_aie2p_npu2<4, 4, 4, short");
        ASSERT_CONTAINS(iron_last_error(), "AIE2P (npu2, __AIE_ARCH__ 21)");
        ASSERT_CONTAINS(iron_last_error(), "mm4.cc:4");
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    test_remove_dir(dir);
}

/* The design's new errors: a dtype its kernels do not take, and a
 * micro-tile that is not one. */
TEST_TIMEOUT(aieapi_mm_design_errors, 60)
{
    static matmul_single_kernels zero_tile = { MM_CC, 0, 2, 8 };
    const char *any = "in a: T[M, K], in b: T[K, N], out c: T[M, N]";
    iron_jit *own = mm_jit(NULL, any);
    iron_jit *file = mm_jit(&k_i16, any);
    iron_jit *bad = mm_jit(&zero_tile, any);
    iron_tensor *a = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(64, 64));
    iron_tensor *b = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(64, 64));
    iron_tensor *c = test_zeros_shape(IRON_BFLOAT16, IRON_SHAPE(64, 64));
    ASSERT_FAILS(IRON_CALL(own, a, b, c), IRON_EDTYPE,
                 "its own kernels are int16; got bfloat16");
    iron_tensor *a32 = test_zeros_shape(IRON_INT32, IRON_SHAPE(64, 64));
    iron_tensor *b32 = test_zeros_shape(IRON_INT32, IRON_SHAPE(64, 64));
    iron_tensor *c32 = test_zeros_shape(IRON_INT32, IRON_SHAPE(64, 64));
    ASSERT_FAILS(IRON_CALL(file, a32, b32, c32), IRON_EDTYPE,
                 "must be int16 or bfloat16; got int32");
    ASSERT_FAILS(IRON_CALL(bad, a, b, c), IRON_EINVAL,
                 "micro-tile 0 x 2 x 8: each must be at least 1");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(a32);
    iron_tensor_free(b32);
    iron_tensor_free(c32);
    iron_jit_free(own);
    iron_jit_free(file);
    iron_jit_free(bad);
}
