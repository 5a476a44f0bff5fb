/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_run_states.c - completion states of a run: completed, timeout
 * (the launch configuration's limit), and recovery on the next call.
 */
#include "test.h"

static const char slow_src[] =
    "#define _DEFAULT_SOURCE\n"
    "#include <stdint.h>\n"
    "#include <time.h>\n"
    "void slow_copy(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    struct timespec ts = { 0, 2000000 };\n"
    "    nanosleep(&ts, 0);\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "}\n";

static int slow_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new(d, "slow_copy", slow_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "slow", k, n / 16,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(16)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(run_timeout_reports_state_and_recovers)
{
    iron_jit *j;
    iron_jit_options o = { .size = sizeof o, .name = "slow",
                           .args = "in a, out b" };
    ASSERT_OK(iron_jit_create(slow_design, &o, &j));
    iron_tensor *a, *b;
    /* 2048 objects x 2 ms = 4 s of kernel time; the limit is 100 ms. */
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 16 * 2048, 1, &a));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(16 * 2048), &b));
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1,
                               .timeout_ms = 100 };
    ASSERT_FAILS(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                 IRON_TENSORS(a, b)),
                 IRON_ETIMEOUT, "did not finish within 100 ms");
    ASSERT_CONTAINS(iron_last_error(), "worker 'slow'");
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_TIMEOUT);
    iron_tensor_free(a);
    iron_tensor_free(b);
    /* The instance is reset: a small call on the same jit completes. */
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 64, 1, &a));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(64), &b));
    ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(((int32_t *)iron_tensor_data(b))[i], i);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* The states have the numbers of XRT's ert_cmd_state (the enum said it
 * was XRT's states, with other numbers), and each has a name. */
TEST(run_states_are_xrts_and_named)
{
    static const struct {
        enum iron_run_state s;
        int xrt;
        const char *name;
    } t[] = {
        { IRON_RUN_NEW, 1, "IRON_RUN_NEW" },
        { IRON_RUN_QUEUED, 2, "IRON_RUN_QUEUED" },
        { IRON_RUN_RUNNING, 3, "IRON_RUN_RUNNING" },
        { IRON_RUN_COMPLETED, 4, "IRON_RUN_COMPLETED" },
        { IRON_RUN_ERROR, 5, "IRON_RUN_ERROR" },
        { IRON_RUN_ABORT, 6, "IRON_RUN_ABORT" },
        { IRON_RUN_TIMEOUT, 8, "IRON_RUN_TIMEOUT" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ASSERT_EQ(t[i].s, t[i].xrt);
        ASSERT_STR_EQ(iron_run_state_name(t[i].s), t[i].name);
    }
    /* XRT's SUBMITTED (7) has no counterpart; nothing outside the table
     * has a name, and none is NULL. */
    const int unknown[] = { 0, 7, 9, 12, -1, 1000 };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        ASSERT_STR_EQ(iron_run_state_name((enum iron_run_state)unknown[i]),
                      "IRON_RUN_UNKNOWN");
    /* A jit that has not run, and a NULL jit or run. */
    ASSERT_STR_EQ(iron_run_state_name(iron_jit_last_state(NULL)),
                  "IRON_RUN_ERROR");
    ASSERT_STR_EQ(iron_run_state_name(iron_run_state(NULL)),
                  "IRON_RUN_ERROR");
}
