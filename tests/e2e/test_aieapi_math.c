/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_aieapi_math.c - the AIE-API math kernels (examples/kernels/aie/
 * exp.cc and tanh.cc, C++ on the host AIE API and lut_based_ops.h) in a
 * one-worker bfloat16 stream design, on npu1 (the LUT paths) and npu2
 * (tanh by aie::tanh), compared with libm: e^x within 1.6% relative
 * (two table entries rounded to bfloat16, the input's 1/256 grid, the
 * result's rounding), tanh within 0.01 absolute (the table's 0.004 and
 * the result's rounding) -- the order of the bfloat16 tolerances
 * upstream's kernel tests use.
 */
#include <math.h>

#include "test.h"

#define MATH_TILE 256

typedef struct math_kernel {
    const char *entry, *path;
} math_kernel;

/* x -> worker(entry) -> y, in objects of MATH_TILE bfloat16. */
static int math_design(iron_design *d, void *user)
{
    const math_kernel *mk = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_BFLOAT16, IRON_SHAPE(MATH_TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_BFLOAT16, IRON_SHAPE(MATH_TILE), 2);
    iron_kernel *k = iron_kernel_new_file(d, mk->entry, mk->path,
                                          "bfloat16*, bfloat16*, int32", 0, NULL);
    iron_worker *w = iron_worker_new(
        d, mk->entry, k, n / MATH_TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(MATH_TILE)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* Runs the kernel over x = lo + (hi - lo) * i / n (as bfloat16) on
 * `device`; returns the largest error (relative if rel) and counts the
 * elements over tol. */
static double run_math(const math_kernel *mk, const char *device, double lo,
                       double hi, int rel, double tol, double (*ref)(double),
                       int64_t *bad)
{
    const int64_t n = 4096;
    iron_jit_options o = { .size = sizeof o, .name = mk->entry,
                           .args = "in x: bfloat16[N], out y: bfloat16[N]",
                           .user = (void *)(uintptr_t)mk };
    iron_jit *j = test_new_jit(math_design, &o);
    iron_tensor *x = test_zeros(IRON_BFLOAT16, n), *y = test_zeros(IRON_BFLOAT16, n);
    iron_bf16 *xv = iron_tensor_data(x);
    for (int64_t i = 0; i < n; i++)
        xv[i] = iron_bf16_from_double(lo + (hi - lo) * (double)i / (double)n);
    iron_status s = IRON_OK;
    IRON_WITH_DEVICE(device)
    {
        s = test_keep(IRON_CALL(j, x, y));
    }
    ASSERT_OK(s);
    const iron_bf16 *yv = iron_tensor_data(y);
    double worst = 0;
    *bad = 0;
    for (int64_t i = 0; i < n; i++) {
        double xi = iron_bf16_to_float(xv[i]), got = iron_bf16_to_float(yv[i]);
        double want = ref(xi), err = fabs(got - want) / (rel ? fabs(want) : 1.0);
        if (err > worst)
            worst = err;
        if (!(err <= tol) && (*bad)++ < 5)
            fprintf(stderr, "  %s on %s: x %.6g: got %.6g want %.6g\n", mk->entry,
                    device, xi, got, want);
    }
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    return worst;
}

static const math_kernel exp_k = { "exp_bf16", "examples/kernels/aie/exp.cc" };
static const math_kernel tanh_k = { "tanh_bf16", "examples/kernels/aie/tanh.cc" };

TEST(aieapi_math_exp_npu1_npu2)
{
    const char *devs[] = { "npu1", "npu2" };
    for (int d = 0; d < 2; d++) {
        int64_t bad;
        double worst = run_math(&exp_k, devs[d], -20.0, 20.0, 1, 0.016, exp, &bad);
        ASSERT_EQ(bad, 0);
        ASSERT(worst > 0); /* the bfloat16 result is not exact */
    }
}

TEST(aieapi_math_tanh_npu1_npu2)
{
    const char *devs[] = { "npu1", "npu2" };
    double worst[2];
    for (int d = 0; d < 2; d++) {
        int64_t bad;
        worst[d] = run_math(&tanh_k, devs[d], -6.0, 6.0, 0, 0.01, tanh, &bad);
        ASSERT_EQ(bad, 0);
    }
    /* npu2's aie::tanh is correctly rounded: at most half a bfloat16 ulp
     * below 1 (2^-9); npu1's table is coarser. */
    ASSERT(worst[1] <= 1.0 / 512);
    ASSERT(worst[0] > worst[1]);
}
