/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_kernel_params.c - kernels as compile-time parameters: a generic
 * design (the library's transform) specialized per kernel, binding, and
 * the errors.
 */
#include "test.h"

static const iron_kernel_ref add1 = {
    "add1",
    "#include <stdint.h>\n"
    "void add1(const int32_t *x, int32_t *y, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) y[i] = x[i] + 1; }\n",
    "int32*, int32*, int32",
};

/* Same entry name, different body: must not share a specialization. */
static const iron_kernel_ref add1_really_add2 = {
    "add1",
    "#include <stdint.h>\n"
    "void add1(const int32_t *x, int32_t *y, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) y[i] = x[i] + 2; }\n",
    "int32*, int32*, int32",
};

static void run_and_check(iron_jit *j, const iron_kernel_ref *k,
                          iron_tensor *x, iron_tensor *y, int32_t delta)
{
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_kernel("f", k)), x, y));
    const int32_t *px = iron_tensor_data(x), *py = iron_tensor_data(y);
    for (int64_t i = 0; i < iron_tensor_numel(x); i++)
        ASSERT_EQ(py[i], px[i] + delta);
}

TEST(kparam_each_kernel_is_its_own_specialization)
{
    iron_jit *j;
    ASSERT_OK(iron_algo_jit_create(IRON_ALGO_TRANSFORM, NULL, &j));
    iron_tensor *x, *y;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 12288, 3, &x));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4096), &y));
    run_and_check(j, &add1, x, y, 1);
    run_and_check(j, &add1_really_add2, x, y, 2);
    run_and_check(j, &add1, x, y, 1);
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.memory_hits, 1);
    ASSERT_EQ(st.specializations, 2);
    /* A copy of the reference with the same strings is the same kernel. */
    iron_kernel_ref copy = add1;
    run_and_check(j, &copy, x, y, 1);
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 2);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(kparam_bound_kernel_and_copies)
{
    iron_jit *j;
    ASSERT_OK(iron_algo_jit_create(IRON_ALGO_TRANSFORM, NULL, &j));
    /* The bound strings are copied: the caller's buffer may change. */
    char src[512];
    snprintf(src, sizeof src, "%s", add1.source);
    iron_kernel_ref k = { "add1", src, "int32*, int32*, int32" };
    iron_param p = iron_param_kernel("f", &k);
    ASSERT_OK(iron_jit_bind(j, 1, &p));
    memset(src, 0, sizeof src);
    iron_tensor *x, *y;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 256, 1, &x));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(256), &y));
    ASSERT_OK(IRON_CALL(j, x, y));
    for (int i = 0; i < 256; i++)
        ASSERT_EQ(((int32_t *)iron_tensor_data(y))[i], i + 1);
    /* A per-call value wins over the bound one. */
    run_and_check(j, &add1_really_add2, x, y, 2);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(kparam_errors)
{
    iron_jit *j;
    ASSERT_OK(iron_algo_jit_create(IRON_ALGO_TRANSFORM, NULL, &j));
    iron_tensor *x, *y;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 256, 1, &x));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(256), &y));
    ASSERT_FAILS(IRON_CALL(j, x, y), IRON_EPARAM,
                 "parameter 'f' (kernel) has no default and was not given");
    ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_kernel("f", NULL)),
                                x, y),
                 IRON_EPARAM, "parameter 'f' (kernel) is NULL");
    iron_kernel_ref half = { "add1", NULL, "int32*, int32*, int32" };
    ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_kernel("f", &half)),
                                x, y),
                 IRON_EPARAM, "missing its entry, source or argument types");
    ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("f", "add1")),
                                x, y),
                 IRON_EPARAM, "parameter 'f' is declared kernel, got a str "
                              "value");
    iron_kernel_ref broken = { "add1", "void add1(int *x) { x[0] = ; }",
                               "int32*, int32*, int32" };
    ASSERT_FAILS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_kernel("f",
                                                                 &broken)),
                                x, y),
                 IRON_ECOMPILE, "kernel 'add1'");
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.specializations, 0);
    iron_jit *bad;
    iron_jit_options o = { .size = sizeof o, .name = "transform",
                           .args = iron_algo_args(IRON_ALGO_TRANSFORM),
                           .params = "f: kernel = 3" };
    ASSERT_FAILS(iron_jit_create(iron_algo_transform, &o, &bad), IRON_EINVAL,
                 "kernel parameter 'f' takes no default");
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}
