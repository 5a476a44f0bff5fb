/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_lanes.c - one design on several threads: tasks dealt onto lanes by
 * column, FIFOs that cross a cut become shared pools.  Whatever the thread
 * count, results are bit-identical and a stall is reported in the same
 * words; a timeout stops every lane; the count may change between calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "designs/designs.h"
#include "emu/emu.h"
#include "test.h"

static const int thread_counts[] = { 1, 2, 3, 4, 8, 16 };
#define NCOUNTS (int)(sizeof thread_counts / sizeof thread_counts[0])

static iron_status launch_threads(iron_jit *j, int threads, int timeout_ms,
                                  int nargs, iron_tensor *const *args)
{
    iron_launch_config c = { .size = sizeof c,
                             .timeout_ms = timeout_ms,
                             .threads = threads };
    return test_keep(iron_jit_launch(j, &c, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                     nargs, args));
}

/* Runs `j` once per thread count and compares output `out` with the one
 * thread run, byte for byte. */
static void same_on_every_count(iron_jit *j, int nargs,
                                iron_tensor *const *args, int out)
{
    size_t bytes = iron_tensor_nbytes(args[out]);
    void *want = malloc(bytes);
    ASSERT(want != NULL);
    for (int k = 0; k < NCOUNTS; k++) {
        memset(iron_tensor_data(args[out]), 0x5a, bytes);
        ASSERT_OK(launch_threads(j, thread_counts[k], 0, nargs, args));
        if (k == 0)
            memcpy(want, iron_tensor_data(args[out]), bytes);
        else if (memcmp(want, iron_tensor_data(args[out]), bytes) != 0)
            TEST_FAIL_("%d threads: output differs from 1 thread's",
                       thread_counts[k]);
    }
    free(want);
}

/* The whole-array matmul crosses columns (A is broadcast along each row),
 * so on several lanes its broadcasts are shared pools. */
TEST_TIMEOUT(lanes_matmul_whole_identical_on_any_thread_count, 120)
{
    const int64_t M = 256, K = 128, N = 256;
    iron_tensor *a = test_randint(IRON_INT16, IRON_SHAPE(M, K), -300, 300, 1);
    iron_tensor *b = test_randint(IRON_INT16, IRON_SHAPE(K, N), -300, 300, 2);
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(M, N));
    iron_jit *j = test_new_jit(matmul_whole_design, &matmul_whole_options);
    ASSERT_OK(iron_device_push("npu2"));
    same_on_every_count(j, IRON_TENSORS(a, b, c), 2);
    /* ... and it is the product. */
    const int16_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    const int32_t *z = iron_tensor_data(c);
    for (int64_t i = 0; i < M; i += 37)
        for (int64_t jj = 0; jj < N; jj += 29) {
            int64_t s = 0;
            for (int64_t k = 0; k < K; k++)
                s += (int64_t)x[i * K + k] * y[k * N + jj];
            ASSERT_EQ(z[i * N + jj], (int32_t)(uint32_t)s);
        }
    ASSERT_OK(iron_device_pop());
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

TEST_TIMEOUT(lanes_matmul_whole_f32_identical_on_any_thread_count, 120)
{
    const int64_t M = 256, K = 128, N = 256;
    iron_tensor *a, *b;
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(M, K), 3, &a));
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(K, N), 4, &b));
    iron_tensor *c = test_zeros_shape(IRON_FLOAT32, IRON_SHAPE(M, N));
    iron_jit *j =
        test_new_jit(matmul_whole_f32_design, &matmul_whole_f32_options);
    ASSERT_OK(iron_device_push("npu1"));
    same_on_every_count(j, IRON_TENSORS(a, b, c), 2);
    ASSERT_OK(iron_device_pop());
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

/* Independent columns: no shared pool, the phase still ends for all. */
TEST(lanes_parallel_columns_identical_on_any_thread_count)
{
    const int64_t n = 8 * 16 * 64;
    iron_tensor *in = test_randint(IRON_INT32, IRON_SHAPE(n), -5000, 5000, 5);
    iron_tensor *out = test_zeros(IRON_INT32, n);
    iron_jit *j = test_new_jit(eltwise_parallel_design,
                               &eltwise_parallel_options);
    ASSERT_OK(iron_device_push("npu2"));
    same_on_every_count(j, IRON_TENSORS(in, out), 1);
    const int32_t *x = iron_tensor_data(in), *y = iron_tensor_data(out);
    for (int64_t i = 0; i < n; i++)
        ASSERT_EQ(y[i], x[i] * 3 + 1);
    ASSERT_OK(iron_device_pop());
    iron_jit_free(j);
    iron_tensor_free(in);
    iron_tensor_free(out);
}

TEST(lanes_thread_count_may_change_between_calls)
{
    const int64_t M = 256, K = 64, N = 128;
    iron_tensor *a = test_randint(IRON_INT16, IRON_SHAPE(M, K), -9, 9, 6);
    iron_tensor *b = test_randint(IRON_INT16, IRON_SHAPE(K, N), -9, 9, 7);
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(M, N));
    iron_tensor *ref = test_zeros_shape(IRON_INT32, IRON_SHAPE(M, N));
    iron_jit *j = test_new_jit(matmul_whole_design, &matmul_whole_options);
    ASSERT_OK(iron_device_push("npu2_4col"));
    ASSERT_OK(launch_threads(j, 1, 0, IRON_TENSORS(a, b, ref)));
    const int order[] = { 2, 1, 4, 0, 3, 1 };
    for (int k = 0; k < (int)(sizeof order / sizeof order[0]); k++) {
        memset(iron_tensor_data(c), 0, (size_t)(M * N * 4));
        ASSERT_OK(launch_threads(j, order[k], 0, IRON_TENSORS(a, b, c)));
        ASSERT(memcmp(iron_tensor_data(c), iron_tensor_data(ref),
                      (size_t)(M * N * 4)) == 0);
    }
    ASSERT_OK(iron_device_pop());
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(ref);
}

TEST(lanes_negative_thread_count_is_refused)
{
    iron_tensor *in = test_arange(IRON_UINT8, 256),
                *out = test_zeros(IRON_UINT8, 256);
    iron_jit *j = test_new_jit(passthrough_design, &passthrough_options);
    ASSERT_STATUS(launch_threads(j, -2, 0, IRON_TENSORS(in, out)),
                  IRON_EINVAL);
    ASSERT_MSG("asks for -2 threads; expected 0 (the default) or more");
    iron_jit_free(j);
    iron_tensor_free(in);
    iron_tensor_free(out);
}

/* --- stalls across a cut --------------------------------------------------
 * Two workers in two columns: 'first' on (0,2) copies a into b, 'second'
 * on (1,2) copies b into c; b crosses from column 0 to column 1.  g_mode
 * 0: the drain asks for twice what is produced (a deadlock); 1: two core
 * bodies pass objects back and forth for ever while the drain waits for
 * a FIFO nobody fills (a timeout). */
static int g_mode;

static const char copy_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void copy16(const int32_t *in, int32_t *out)\n"
    "{\n"
    "    memcpy(out, in, 16 * sizeof *in);\n"
    "}\n";

static const char ping_src[] =
    "void ping(iron_objfifo *out, iron_objfifo *in)\n"
    "{\n"
    "    for (;;) {\n"
    "        iron_acquire(out, 1);\n"
    "        iron_release(out, 1);\n"
    "        iron_acquire(in, 1);\n"
    "        iron_release(in, 1);\n"
    "    }\n"
    "}\n";

static const char pong_src[] =
    "void pong(iron_objfifo *in, iron_objfifo *out)\n"
    "{\n"
    "    for (;;) {\n"
    "        iron_acquire(in, 1);\n"
    "        iron_release(in, 1);\n"
    "        iron_acquire(out, 1);\n"
    "        iron_release(out, 1);\n"
    "    }\n"
    "}\n";

static int cut_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(16), 2);
    if (g_mode == 0) {
        iron_kernel *k = iron_kernel_new(d, "copy16", copy_src,
                                         "int32*, int32*");
        iron_worker *w0 =
            iron_worker_new(d, "first", k, n / 16,
                            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                                      iron_arg_fifo(iron_fifo_prod(b))));
        iron_worker *w1 =
            iron_worker_new(d, "second", k, n / 16,
                            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(b)),
                                      iron_arg_fifo(iron_fifo_prod(c))));
        iron_worker_place(w0, 0, 2);
        iron_worker_place(w1, 1, 2);
        iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
        iron_rt_drain(d, iron_fifo_cons(c), 1, iron_tap_linear(2 * n),
                      IRON_WAIT);
        return 0;
    }
    iron_fifo *back = iron_fifo_new(d, "back", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *pk = iron_kernel_new_core(d, "ping", ping_src, "fifo, fifo");
    iron_kernel *qk = iron_kernel_new_core(d, "pong", pong_src, "fifo, fifo");
    iron_worker *w0 =
        iron_worker_new(d, "ping", pk, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_prod(b)),
                                  iron_arg_fifo(iron_fifo_cons(back))));
    iron_worker *w1 =
        iron_worker_new(d, "pong", qk, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(b)),
                                  iron_arg_fifo(iron_fifo_prod(back))));
    iron_worker_place(w0, 0, 2);
    iron_worker_place(w1, 1, 2);
    /* 'copy' moves a into c, but the drain wants twice as much. */
    iron_kernel *k = iron_kernel_new(d, "copy16", copy_src, "int32*, int32*");
    iron_worker *w2 =
        iron_worker_new(d, "copy", k, n / 16,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                                  iron_arg_fifo(iron_fifo_prod(c))));
    iron_worker_place(w2, 1, 3);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 1, iron_tap_linear(2 * n), IRON_WAIT);
    return 0;
}

TEST(lanes_deadlock_is_reported_alike_on_any_thread_count)
{
    g_mode = 0;
    iron_tensor *a = test_arange(IRON_INT32, 64);
    iron_tensor *c = test_zeros(IRON_INT32, 128);
    iron_jit *j = test_jit(cut_design, "cut",
                           "in a: int32[64], out c: int32[128]");
    char first[sizeof test_errmsg];
    for (int k = 0; k < NCOUNTS; k++) {
        ASSERT_STATUS(launch_threads(j, thread_counts[k], 5000,
                                     IRON_TENSORS(a, c)),
                      IRON_EDEADLOCK);
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
        ASSERT_MSG("no task can make progress with 1 awaited drain");
        ASSERT_MSG("worker 'second' on tile (1,2) after 4 iterations waits "
                   "to acquire 1 filled buffer of fifo 'b'");
        ASSERT_MSG("(drain of argument 1 'c': 64 of 128 elements moved)");
        if (k == 0)
            snprintf(first, sizeof first, "%s", test_errmsg);
        else
            ASSERT_STR_EQ(test_errmsg, first);
    }
    /* The instance is reset after the failure: a right-sized call works. */
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(c);
}

/* Alone: the report is the lanes' own only if each lane thread gets the
 * CPU within the watchdog's 10 ms tick after the deadline; on a busy
 * machine the watchdog interrupts a step instead ("running without
 * returning"). */
TEST_ALONE(lanes_timeout_stops_every_lane, 30,
           "the timeout's report depends on the lane threads getting the CPU")
{
    g_mode = 1;
    iron_tensor *a = test_arange(IRON_INT32, 64);
    iron_tensor *c = test_zeros(IRON_INT32, 128);
    iron_jit *j = test_jit(cut_design, "pingpong",
                           "in a: int32[64], out c: int32[128]");
    for (int threads = 1; threads <= 2; threads++) {
        ASSERT_STATUS(launch_threads(j, threads, 300, IRON_TENSORS(a, c)),
                      IRON_ETIMEOUT);
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_TIMEOUT);
        ASSERT_MSG("the run did not finish within 300 ms");
        ASSERT_MSG("worker 'copy' on tile (1,3) after 4 iterations waits to "
                   "acquire 1 filled buffer of fifo 'a'");
        ASSERT_MSG("(drain of argument 1 'c': 64 of 128 elements moved)");
    }
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(c);
}

/* --- dealing columns onto lanes ------------------------------------------ */

TEST(lanes_columns_are_cut_into_balanced_blocks)
{
    int lane[8];
    const int even[4] = { 8, 8, 8, 8 };
    ASSERT_EQ(iron__emu_cut_columns(even, 4, 2, lane), 2);
    ASSERT(lane[0] == 0 && lane[1] == 0 && lane[2] == 1 && lane[3] == 1);
    ASSERT_EQ(iron__emu_cut_columns(even, 4, 1, lane), 1);
    ASSERT(lane[0] == 0 && lane[3] == 0);
    /* More threads than columns: a lane per column, no more. */
    ASSERT_EQ(iron__emu_cut_columns(even, 4, 16, lane), 4);
    ASSERT(lane[0] == 0 && lane[1] == 1 && lane[2] == 2 && lane[3] == 3);
    /* Unused columns belong to no lane; heavy columns get lanes of their
     * own. */
    const int mixed[6] = { 0, 40, 0, 1, 1, 40 };
    ASSERT_EQ(iron__emu_cut_columns(mixed, 6, 2, lane), 2);
    ASSERT(lane[0] == -1 && lane[2] == -1);
    ASSERT(lane[1] == 0 && lane[5] == 1);
    const int none[2] = { 0, 0 };
    ASSERT_EQ(iron__emu_cut_columns(none, 2, 4, lane), 1);
}
