/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_parallel.c - designs whose columns are independent run in parallel
 * lanes; results must match plain C whatever the lane count.
 */
#include <stdlib.h>

#include "designs/designs.h"
#include "test.h"

static void run_parallel(const char *device, int cols, int64_t n)
{
    iron_jit *j;
    iron_tensor *in, *out;
    ASSERT_OK(iron_jit_create(eltwise_parallel_design,
                              &eltwise_parallel_options, &j));
    ASSERT_OK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -50000,
                                  50000, 11, &in));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &out));
    iron_launch_config cfg = { .size = sizeof cfg, .cols = cols };
    ASSERT_OK(iron_device_push(device));
    for (int call = 0; call < 3; call++) {
        ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(in, out)));
        const int32_t *x = iron_tensor_data(in), *y = iron_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            if (y[i] != x[i] * 3 + 1)
                TEST_FAIL_("call %d: out[%lld] = %d, expected %d", call,
                           (long long)i, y[i], x[i] * 3 + 1);
    }
    ASSERT_OK(iron_device_pop());
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST(e2e_parallel_eltwise_npu2_8col)
{
    run_parallel("npu2", 8, 8 * 16 * 64);
}

TEST(e2e_parallel_eltwise_npu1_4col)
{
    run_parallel("npu1", 4, 4 * 16 * 1000);
}

TEST(e2e_parallel_eltwise_one_thread)
{
    setenv("IRON_THREADS", "1", 1);
    run_parallel("npu2_2col", 2, 2 * 16 * 100);
}
