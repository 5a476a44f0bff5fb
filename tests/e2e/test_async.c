/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_async.c - asynchronous runs: iron_jit_start / iron_spec_start give
 * the synchronous result; runs of different jits overlap; a wait with a
 * limit gives up while the run goes on; the states a run goes through
 * (queued, running, completed, error, timeout, abort); runs freed without
 * a wait; a wait that executes a run nobody has taken; bad input;
 * allocation failures at the start; fork.
 *
 * The long runs use a kernel that spins until a file exists (named by
 * $IRON_TEST_ASYNC_FLAG), so the test decides when they end.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "designs/designs.h"
#include "test.h"

#define FLAG_ENV "IRON_TEST_ASYNC_FLAG"
#define N 16

static const char spin_src[] =
    "#define _DEFAULT_SOURCE\n"
    "#include <stdint.h>\n"
    "#include <stdlib.h>\n"
    "#include <time.h>\n"
    "#include <unistd.h>\n"
    "void spin_add1(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    const char *flag = getenv(\"" FLAG_ENV "\");\n"
    "    struct timespec ts = { 0, 1000000 };\n"
    "    while (flag && access(flag, F_OK) != 0)\n"
    "        nanosleep(&ts, 0);\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + 1;\n"
    "}\n";

/* b = a + 1, one kernel call per 16 elements, each spinning until the
 * flag file exists.  user != NULL: drains twice what it fills (a
 * deadlock). */
static int spin_design(iron_design *d, void *user)
{
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(N), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(N), 2);
    iron_kernel *k = iron_kernel_new(d, "spin_add1", spin_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "spin", k, n / N,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(N)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1,
                  iron_tap_linear(user ? 2 * n : n), IRON_WAIT);
    return 0;
}

static iron_jit *spin_jit(const char *name, void *user)
{
    iron_jit_options o = { .size = sizeof o, .name = name,
                           .args = "in a, out b", .user = user,
                           .disk_cache = -1 };
    return test_new_jit(spin_design, &o);
}

/* A fresh flag path for this test process; the file does not exist. */
static const char *flag_path(void)
{
    static char path[96];
    snprintf(path, sizeof path, "/tmp/iron-test-async-%d", (int)getpid());
    remove(path);
    setenv(FLAG_ENV, path, 1);
    return path;
}

static void raise_flag(const char *path)
{
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fclose(f);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Polls until r is in `state` (fails the test after 20 s). */
static void await_state(const iron_run *r, enum iron_run_state state)
{
    double t0 = now_ms();
    while (iron_run_state(r) != state) {
        if (now_ms() - t0 > 20000)
            TEST_FAIL_("run stayed in state %d, expected %d",
                       (int)iron_run_state(r), (int)state);
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
}

static void check_add1(iron_tensor *a, iron_tensor *b, int64_t n)
{
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    for (int64_t i = 0; i < n; i++)
        ASSERT_EQ(y[i], x[i] + 1);
}

static iron_run *start_ab(iron_jit *j, const iron_launch_config *cfg,
                          iron_tensor *a, iron_tensor *b)
{
    iron_run *r = NULL;
    ASSERT_OK(iron_jit_start(j, cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(a, b), &r));
    ASSERT(r != NULL);
    return r;
}

/* A run of j on fresh a (0..N-1) and b, spinning on the device until
 * the flag is raised. */
static iron_run *start_spinning(iron_jit *j, iron_tensor **a,
                                iron_tensor **b)
{
    *a = test_arange(IRON_INT32, N);
    *b = test_zeros(IRON_INT32, N);
    iron_run *r = start_ab(j, NULL, *a, *b);
    await_state(r, IRON_RUN_RUNNING);
    return r;
}

/* Lets the spinning run r of j end, checks its result, frees r, its
 * tensors and j, and removes the flag. */
static void finish_spinning(const char *flag, iron_jit *j, iron_run *r,
                            iron_tensor *a, iron_tensor *b)
{
    raise_flag(flag);
    ASSERT_OK(iron_run_wait(r, 20000));
    ASSERT_EQ(iron_run_state(r), IRON_RUN_COMPLETED);
    check_add1(a, b, N);
    iron_run_free(r);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    remove(flag);
}

/* vector_op without the disk cache, and x = y = 0..63, z = 0: a run that
 * ends at once (z = 2i). */
static iron_jit *quick_jit(iron_tensor **x, iron_tensor **y, iron_tensor **z)
{
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    *x = test_arange(IRON_INT32, 64);
    *y = test_arange(IRON_INT32, 64);
    *z = test_zeros(IRON_INT32, 64);
    return test_new_jit(vector_op_design, &o);
}

static void free_quick(iron_jit *quick, iron_tensor *x, iron_tensor *y,
                       iron_tensor *z)
{
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(z);
    iron_jit_free(quick);
}

TEST(async_start_wait_equals_launch)
{
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    iron_jit *j = test_new_jit(vector_op_design, &o);
    iron_tensor *a = test_randint(IRON_INT32, IRON_SHAPE(256), -1000, 1000, 1);
    iron_tensor *b = test_randint(IRON_INT32, IRON_SHAPE(256), -1000, 1000, 2);
    iron_tensor *sync = test_zeros(IRON_INT32, 256);
    iron_tensor *async = test_zeros(IRON_INT32, 256);
    /* The op string lives in a buffer changed right after the start: the
     * run, whose build comes later, keeps its own copy. */
    char op[2] = "-";
    iron_run *r = NULL;
    ASSERT_OK(iron_jit_start(j, NULL, IRON_PARAMS(iron_param_str("op", op)),
                             IRON_NO_SCALARS, IRON_TENSORS(a, b, async), &r));
    op[0] = '+';
    ASSERT_OK(iron_run_wait(r, -1));
    ASSERT_EQ(iron_run_state(r), IRON_RUN_COMPLETED);
    ASSERT_STR_EQ(iron_run_error(r), "");
    /* An ended run answers again with the same status. */
    ASSERT_OK(iron_run_wait(r, 0));
    iron_run_free(r);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "-")), a, b,
                             sync));
    ASSERT_EQ(memcmp(iron_tensor_data(sync), iron_tensor_data(async),
                     256 * sizeof(int32_t)), 0);
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b),
                  *z = iron_tensor_data(async);
    for (int i = 0; i < 256; i++)
        ASSERT_EQ(z[i], x[i] - y[i]);
    /* A warm start, then the same through the specialization. */
    memset(iron_tensor_data(async), 0, 256 * sizeof(int32_t));
    ASSERT_OK(iron_jit_start(j, NULL, IRON_PARAMS(iron_param_str("op", "-")),
                             IRON_NO_SCALARS, IRON_TENSORS(a, b, async), &r));
    ASSERT_OK(iron_run_wait(r, -1));
    iron_run_free(r);
    ASSERT_EQ(memcmp(iron_tensor_data(sync), iron_tensor_data(async),
                     256 * sizeof(int32_t)), 0);
    iron_spec *sp;
    ASSERT_OK(iron_jit_specialize(j, NULL,
                                  IRON_PARAMS(iron_param_str("op", "-")),
                                  IRON_TENSORS(a, b, async), &sp));
    memset(iron_tensor_data(async), 0, 256 * sizeof(int32_t));
    ASSERT_OK(iron_spec_start(sp, IRON_NO_SCALARS, IRON_TENSORS(a, b, async),
                              &r));
    ASSERT_OK(iron_run_wait(r, 5000));
    iron_run_free(r);
    ASSERT_EQ(memcmp(iron_tensor_data(sync), iron_tensor_data(async),
                     256 * sizeof(int32_t)), 0);
    ASSERT_OK(iron_spec_launch(sp, IRON_NO_SCALARS,
                               IRON_TENSORS(a, b, async)));
    /* The counters count runs like calls: 5 calls, one build, the rest
     * found in memory (the start's build counts its own second look). */
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.calls, 5);
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.specializations, 1);
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(sync);
    iron_tensor_free(async);
    iron_jit_free(j);
    test_assert_no_leaks();
}

TEST(async_runs_of_four_jits_overlap)
{
    const char *flag = flag_path();
    iron_jit *j[4];
    iron_tensor *a[4], *b[4];
    iron_run *r[4];
    char name[16];
    for (int k = 0; k < 4; k++) {
        snprintf(name, sizeof name, "spin%d", k);
        j[k] = spin_jit(name, NULL);
        ASSERT_OK(iron_tensor_arange(IRON_INT32, 100 * k, 100 * k + N * 2, 1,
                                     &a[k]));
        b[k] = test_zeros(IRON_INT32, N * 2);
        r[k] = start_ab(j[k], NULL, a[k], b[k]);
    }
    /* All four on the device at once: none can end before the flag. */
    for (int k = 0; k < 4; k++)
        await_state(r[k], IRON_RUN_RUNNING);
    for (int k = 0; k < 4; k++)
        ASSERT_EQ(iron_run_state(r[k]), IRON_RUN_RUNNING);
    raise_flag(flag);
    for (int k = 0; k < 4; k++) {
        ASSERT_OK(iron_run_wait(r[k], -1));
        ASSERT_EQ(iron_run_state(r[k]), IRON_RUN_COMPLETED);
        check_add1(a[k], b[k], N * 2);
        iron_run_free(r[k]);
        iron_tensor_free(a[k]);
        iron_tensor_free(b[k]);
        ASSERT_EQ(test_stats(j[k]).calls, 1);
        iron_jit_free(j[k]);
    }
    remove(flag);
    test_assert_no_leaks();
}

TEST(async_wait_with_limit_gives_up_and_run_goes_on)
{
    const char *flag = flag_path();
    iron_jit *j = spin_jit("spin", NULL);
    iron_tensor *a, *b;
    iron_run *r = start_spinning(j, &a, &b);
    double t0 = now_ms();
    ASSERT_FAILS(iron_run_wait(r, 50), IRON_EPENDING,
                 "spin: the run is still running after 50 ms");
    ASSERT_GE(now_ms() - t0, 45);
    ASSERT_FAILS(iron_run_wait(r, 0), IRON_EPENDING, "after 0 ms");
    ASSERT_EQ(iron_run_state(r), IRON_RUN_RUNNING);
    ASSERT_STR_EQ(iron_run_error(r), "");
    finish_spinning(flag, j, r, a, b);
    test_assert_no_leaks();
}

typedef struct sync_call {
    iron_jit *j;
    iron_tensor *a, *b;
    iron_status s;
} sync_call;

static void *call_in_thread(void *arg)
{
    sync_call *c = arg;
    c->s = IRON_CALL(c->j, c->a, c->b);
    return NULL;
}

TEST(async_runs_of_one_specialization_take_turns)
{
    const char *flag = flag_path();
    iron_jit *j = spin_jit("spin", NULL);
    iron_tensor *a = test_arange(IRON_INT32, N), *b[6];
    iron_run *r[6];
    for (int k = 0; k < 6; k++)
        b[k] = test_zeros(IRON_INT32, N);
    r[0] = start_ab(j, NULL, a, b[0]);
    await_state(r[0], IRON_RUN_RUNNING);
    /* The same signature: the others wait for their turn, queued ... */
    for (int k = 1; k < 6; k++)
        r[k] = start_ab(j, NULL, a, b[k]);
    struct timespec ts = { 0, 100 * 1000000L };
    nanosleep(&ts, NULL);
    for (int k = 1; k < 6; k++)
        ASSERT_EQ(iron_run_state(r[k]), IRON_RUN_QUEUED);
    ASSERT_EQ(iron_run_state(r[0]), IRON_RUN_RUNNING);
    /* ... without tying up the launcher threads: a run of another jit
     * started behind them goes ahead (a limited wait never executes it
     * itself). */
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    iron_jit *quick = test_new_jit(vector_op_design, &o);
    iron_tensor *x = test_arange(IRON_INT32, 64),
                *z = test_zeros(IRON_INT32, 64);
    iron_run *q = NULL;
    ASSERT_OK(iron_jit_start(quick, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(x, x, z), &q));
    ASSERT_OK(iron_run_wait(q, 20000));
    ASSERT_EQ(((int32_t *)iron_tensor_data(z))[63], 126);
    ASSERT_EQ(iron_run_state(r[0]), IRON_RUN_RUNNING);
    iron_run_free(q);
    raise_flag(flag);
    for (int k = 0; k < 6; k++) {
        ASSERT_OK(iron_run_wait(r[k], 20000));
        check_add1(a, b[k], N);
        iron_run_free(r[k]);
    }
    ASSERT_EQ(test_stats(j).builds, 1);
    /* A synchronous call of the specialization on another thread has
     * the turn: a started run waits, and goes once the call is over. */
    remove(flag);
    sync_call c = { j, a, b[0], IRON_EINVAL };
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, call_in_thread, &c), 0);
    double t0 = now_ms();
    while (test_stats(j).calls < 7)
        ASSERT_LT(now_ms() - t0, 20000);
    nanosleep(&ts, NULL);      /* the call is on the device by now */
    iron_run *after = start_ab(j, NULL, a, b[1]);
    nanosleep(&ts, NULL);
    ASSERT_EQ(iron_run_state(after), IRON_RUN_QUEUED);
    raise_flag(flag);
    pthread_join(th, NULL);
    ASSERT_OK(c.s);
    ASSERT_OK(iron_run_wait(after, 20000));
    iron_run_free(after);
    for (int k = 0; k < 6; k++)
        iron_tensor_free(b[k]);
    iron_tensor_free(a);
    iron_tensor_free(x);
    iron_tensor_free(z);
    iron_jit_free(j);
    iron_jit_free(quick);
    remove(flag);
    test_assert_no_leaks();
}

TEST(async_error_state_keeps_its_message)
{
    /* Fills N, drains 2N: the drain waits for objects never made. */
    static int deadlock = 1;
    flag_path();
    setenv(FLAG_ENV, "/", 1);  /* exists: the kernel does not spin */
    iron_jit *j = spin_jit("stuck", &deadlock);
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_zeros(IRON_INT32, 2 * N);
    iron_run *r = start_ab(j, NULL, a, b);
    ASSERT_FAILS(iron_run_wait(r, -1), IRON_EDEADLOCK, "stuck (");
    ASSERT_EQ(iron_run_state(r), IRON_RUN_ERROR);
    ASSERT_CONTAINS(iron_run_error(r), "1 awaited drain");
    ASSERT_CONTAINS(iron_run_error(r), "16 of 32 elements moved");
    /* The run's message outlives this thread's next failure. */
    ASSERT_FAILS(iron_run_wait(NULL, -1), IRON_EINVAL, "run is NULL");
    ASSERT_CONTAINS(iron_run_error(r), "1 awaited drain");
    ASSERT_FAILS(iron_run_wait(r, 0), IRON_EDEADLOCK, "1 awaited drain");
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    iron_run_free(r);
    /* On a launcher thread (this one does not wait without a limit),
     * the message is the same. */
    r = start_ab(j, NULL, a, b);
    double t0 = now_ms();
    while (iron_run_wait(r, 100) == IRON_EPENDING)
        ASSERT_LT(now_ms() - t0, 20000);
    ASSERT_EQ(iron_run_state(r), IRON_RUN_ERROR);
    ASSERT_CONTAINS(iron_run_error(r), "16 of 32 elements moved");
    ASSERT_CONTAINS(iron_last_error(), "16 of 32 elements moved");
    iron_run_free(r);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    test_assert_no_leaks();
}

TEST(async_timeout_state_when_the_config_limit_fires)
{
    /* The kernel never returns: the watchdog's trap ends it, which
     * ThreadSanitizer cannot follow (as in test_faults.c). */
    if (TEST_UNDER_TSAN)
        return;
    flag_path();               /* never raised: the kernel spins */
    iron_jit *j = spin_jit("spin", NULL);
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_zeros(IRON_INT32, N);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1,
                               .timeout_ms = 100 };
    iron_run *r = start_ab(j, &cfg, a, b);
    ASSERT_FAILS(iron_run_wait(r, -1), IRON_ETIMEOUT,
                 "did not finish within 100 ms");
    ASSERT_EQ(iron_run_state(r), IRON_RUN_TIMEOUT);
    ASSERT_CONTAINS(iron_run_error(r), "worker 'spin'");
    iron_run_free(r);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* With one launcher thread: a run started behind a spinning one stays
 * queued; a wait without a limit executes it on the waiting thread; a
 * free cancels it. */
TEST(async_wait_executes_a_queued_run_and_free_cancels_one)
{
    setenv("IRON_LAUNCH_THREADS", "1", 1);
    const char *flag = flag_path();
    iron_jit *slow = spin_jit("slow", NULL);
    iron_tensor *x, *y, *z;
    iron_jit *quick = quick_jit(&x, &y, &z);
    iron_tensor *a, *b;
    iron_run *spinning = start_spinning(slow, &a, &b);
    iron_run *r = NULL;
    ASSERT_OK(iron_jit_start(quick, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(x, y, z), &r));
    ASSERT_EQ(iron_run_state(r), IRON_RUN_QUEUED);
    ASSERT_FAILS(iron_run_wait(r, 20), IRON_EPENDING, "still queued");
    /* Executed here, while the one launcher thread is still busy. */
    ASSERT_OK(iron_run_wait(r, -1));
    ASSERT_EQ(iron_run_state(spinning), IRON_RUN_RUNNING);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(((int32_t *)iron_tensor_data(z))[i], 2 * i);
    iron_run_free(r);
    /* Queued and freed: cancelled, its tensors let go at once (a free of
     * a held tensor would wait for the spinning run's end). */
    iron_tensor *w = test_zeros(IRON_INT32, 64);
    ASSERT_OK(iron_jit_start(quick, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(x, y, w), &r));
    ASSERT_EQ(iron_run_state(r), IRON_RUN_QUEUED);
    iron_run_free(r);
    iron_tensor_free(w);
    ASSERT_EQ(iron_run_state(spinning), IRON_RUN_RUNNING);
    ASSERT_EQ(test_stats(quick).calls, 2);
    ASSERT_EQ(test_stats(quick).builds, 1);
    finish_spinning(flag, slow, spinning, a, b);
    free_quick(quick, x, y, z);
    test_assert_no_leaks();
}

static char flag_buf[96];

static void *raise_later(void *path)
{
    struct timespec ts = { 0, 200 * 1000000L };
    nanosleep(&ts, NULL);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
    return NULL;
}

TEST(async_running_run_freed_without_wait_finishes_unattended)
{
    const char *flag = flag_path();
    snprintf(flag_buf, sizeof flag_buf, "%s", flag);
    iron_jit *j = spin_jit("spin", NULL);
    iron_tensor *a, *b;
    iron_run *r = start_spinning(j, &a, &b);
    iron_run_free(r);
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, raise_later, flag_buf), 0);
    /* The run still holds b: its free waits for the run's end, after
     * which b holds the result. */
    double t0 = now_ms();
    iron_tensor_free(a);
    ASSERT_GE(now_ms() - t0, 150);
    ASSERT_EQ(((int32_t *)iron_tensor_data(b))[N - 1], N);
    iron_tensor_free(b);
    /* And the jit's free waits for runs in flight (none left here). */
    iron_jit_free(j);
    pthread_join(th, NULL);
    /* Again, now freeing the jit while the unattended run goes on. */
    remove(flag);
    j = spin_jit("spin", NULL);
    r = start_spinning(j, &a, &b);
    iron_run_free(r);
    ASSERT_EQ(pthread_create(&th, NULL, raise_later, flag_buf), 0);
    t0 = now_ms();
    iron_jit_free(j);
    ASSERT_GE(now_ms() - t0, 150);
    check_add1(a, b, N);
    iron_tensor_free(a);
    iron_tensor_free(b);
    pthread_join(th, NULL);
    remove(flag);
    test_assert_no_leaks();
}

TEST(async_bad_input_is_named)
{
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    o.scalars = NULL;
    iron_jit *j = test_new_jit(vector_op_design, &o);
    iron_tensor *a = test_arange(IRON_INT32, 64),
                *b = test_zeros(IRON_INT32, 64);
    iron_run *r = (iron_run *)&o;   /* must become NULL on failure */
    ASSERT_FAILS(iron_jit_start(NULL, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                IRON_TENSORS(a, a, b), &r),
                 IRON_EINVAL, "iron_jit_start: jit is NULL");
    ASSERT(r == NULL);
    ASSERT_FAILS(iron_jit_start(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                IRON_TENSORS(a, a, b), NULL),
                 IRON_EINVAL, "iron_jit_start: out is NULL");
    r = (iron_run *)&o;
    ASSERT_FAILS(iron_jit_start(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                IRON_TENSORS(a, b), &r),
                 IRON_EARG, "2 tensor arguments given, expected 3");
    ASSERT(r == NULL);
    ASSERT_FAILS(iron_jit_start(j, NULL, IRON_NO_PARAMS,
                                IRON_SCALARS(iron_scalar_value("n", 1)),
                                IRON_TENSORS(a, a, b), &r),
                 IRON_EPARAM, "'n'");
    ASSERT(r == NULL);
    ASSERT_FAILS(iron_jit_start(j, NULL,
                                IRON_PARAMS(iron_param_int("tlie", 8)),
                                IRON_NO_SCALARS, IRON_TENSORS(a, a, b), &r),
                 IRON_EPARAM, "did you mean 'tile'");
    ASSERT(r == NULL);
    ASSERT_FAILS(iron_spec_start(NULL, IRON_NO_SCALARS, IRON_TENSORS(a, a, b),
                                 &r),
                 IRON_EINVAL, "iron_spec_start: spec is NULL");
    ASSERT_FAILS(
        iron_spec_launch(NULL, IRON_NO_SCALARS, IRON_TENSORS(a, a, b)),
        IRON_EINVAL, "iron_spec_launch: spec is NULL");
    iron_spec *sp;
    ASSERT_OK(iron_jit_specialize(j, NULL, IRON_NO_PARAMS,
                                  IRON_TENSORS(a, a, b), &sp));
    ASSERT_FAILS(iron_spec_start(sp, IRON_NO_SCALARS, IRON_TENSORS(a, a, b),
                                 NULL),
                 IRON_EINVAL, "iron_spec_start: out is NULL");
    ASSERT_FAILS(iron_spec_start(sp, IRON_NO_SCALARS, IRON_TENSORS(a, a), &r),
                 IRON_EARG, "2 tensor arguments given, the specialization "
                            "takes 3");
    ASSERT(r == NULL);
    ASSERT_FAILS(iron_run_wait(NULL, -1), IRON_EINVAL,
                 "iron_run_wait: run is NULL");
    ASSERT_OK(iron_jit_start(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(a, a, b), &r));
    ASSERT_FAILS(iron_run_wait(r, -2), IRON_EINVAL,
                 "timeout_ms is -2; expected -1 (as long as it takes)");
    ASSERT_OK(iron_run_wait(r, -1));
    ASSERT_EQ(iron_run_state(NULL), IRON_RUN_ERROR);
    ASSERT_STR_EQ(iron_run_error(NULL), "");
    iron_run_free(NULL);
    iron_run_free(r);
    /* Nothing is held by the failed starts: the tensors free at once. */
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 1);
    iron_jit_free(j);
    test_assert_no_leaks();
}

/* Every allocation a start makes on the calling thread, failing in turn:
 * the start fails with IRON_ENOMEM, leaves *out NULL and holds nothing;
 * then one succeeds and its run gives the right result. */
TEST(async_start_out_of_memory_leaves_nothing)
{
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    iron_jit *j = test_new_jit(vector_op_design, &o);
    iron_tensor *a = test_arange(IRON_INT32, 64),
                *b = test_zeros(IRON_INT32, 64),
                *c = test_zeros(IRON_INT32, 64);
    char trace[96];
    snprintf(trace, sizeof trace, "/tmp/iron-test-async-trace-%d.json",
             (int)getpid());
    iron_launch_config cfg = { .size = sizeof cfg, .trace = trace };
    iron_run *r = NULL;
    int failures = 0;
    for (long n = 1; n < 1000; n++) {
        iron__alloc_fail_at(n);
        /* A miss (its values are copied) with a trace name (copied). */
        iron_status s = iron_jit_start(j, &cfg,
                                       IRON_PARAMS(iron_param_str("op", "-")),
                                       IRON_NO_SCALARS, IRON_TENSORS(a, b, c),
                                       &r);
        iron__alloc_fail_at(0);
        if (s == IRON_OK)
            break;
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT(r == NULL);
        failures++;
    }
    ASSERT_GE(failures, 3);    /* the run, the value, the trace name */
    ASSERT(r != NULL);
    /* The run writes its trace under the copied name. */
    ASSERT_OK(iron_run_wait(r, -1));
    iron_run_free(r);
    ASSERT_EQ(remove(trace), 0);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(((int32_t *)iron_tensor_data(c))[i], i);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    test_assert_no_leaks();
}

TEST(async_fork_child_after_runs)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* As threads_fork_child_uses_the_emulator: the sanitizers' runtimes
     * do not survive a multi-threaded fork reliably. */
    return;
#endif
    const char *flag = flag_path();
    iron_tensor *x, *y, *z;
    iron_jit *quick = quick_jit(&x, &y, &z);
    iron_run *r = NULL;
    ASSERT_OK(iron_jit_start(quick, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(x, y, z), &r));
    ASSERT_OK(iron_run_wait(r, 20000));
    iron_run_free(r);
    /* One run in flight at the fork. */
    iron_jit *slow = spin_jit("slow", NULL);
    iron_tensor *a, *b;
    iron_run *spinning = start_spinning(slow, &a, &b);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        alarm(20);  /* a hang is a failure, not a stuck suite */
        int bad = 0;
        /* The parent's run is not the child's: it ended as ABORT. */
        bad |= iron_run_wait(spinning, -1) != IRON_ESTATE;
        bad |= iron_run_state(spinning) != IRON_RUN_ABORT;
        bad |= strstr(iron_run_error(spinning), "forked") == NULL;
        iron_run_free(spinning);
        iron_tensor_free(a);   /* not held any more in the child */
        /* New runs work: on a launcher thread and inline. */
        memset(iron_tensor_data(z), 0, 64 * sizeof(int32_t));
        iron_run *c = NULL;
        bad |= iron_jit_start(quick, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(x, y, z), &c) != IRON_OK;
        while (!bad && iron_run_wait(c, 50) == IRON_EPENDING)
            ;
        bad |= !c || iron_run_state(c) != IRON_RUN_COMPLETED;
        iron_run_free(c);
        bad |= ((int32_t *)iron_tensor_data(z))[63] != 126;
        bad |= IRON_CALL(quick, x, y, z) != IRON_OK;
        iron_jit_free(quick);
        _exit(bad ? 1 : 0);
    }
    test_child_exits_ok(pid);
    /* The parent's run goes on and completes. */
    ASSERT_EQ(iron_run_state(spinning), IRON_RUN_RUNNING);
    finish_spinning(flag, slow, spinning, a, b);
    free_quick(quick, x, y, z);
}
