/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_threads.c - one jit called from several threads at once, the log
 * handler swapped while others log, a forked child that uses the
 * emulator after its parent did, exact specialization keys under a forced
 * digest collision, and the resident cap.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "designs/designs.h"
#include "jit/jit.h"
#include "test.h"

static iron_jit_options no_disk(iron_jit_options o)
{
    o.disk_cache = -1;
    return o;
}

/* One vector_op call with op and length; 0 when the result is right. */
static int vector_op_once(iron_jit *j, const char *op, int64_t n, int seed)
{
    iron_tensor *a, *b, *c;
    if (iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -1000, 1000,
                            (uint64_t)seed, &a) != IRON_OK ||
        iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -1000, 1000,
                            (uint64_t)seed + 1, &b) != IRON_OK ||
        iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c) != IRON_OK)
        return -1;
    int bad =
        iron_jit_launch(j, NULL, IRON_PARAMS(iron_param_str("op", op)),
                        IRON_NO_SCALARS, IRON_TENSORS(a, b, c)) != IRON_OK;
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b),
                  *z = iron_tensor_data(c);
    for (int64_t i = 0; !bad && i < n; i++)
        bad = z[i] != (op[0] == '+' ? x[i] + y[i] : x[i] - y[i]);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    return bad;
}

typedef struct caller {
    iron_jit *j;
    int index, calls, failures;
    int same_spec;          /* every thread calls one signature */
    char error[256];
} caller;

static void *call_many(void *arg)
{
    caller *c = arg;
    for (int k = 0; k < c->calls; k++) {
        const char *op = c->same_spec || (k + c->index) % 2 ? "+" : "-";
        int64_t n = c->same_spec ? 256 : 64 * (1 + (k + c->index) % 3);
        if (vector_op_once(c->j, op, n, k * 7 + c->index) != 0) {
            if (!c->failures++)
                snprintf(c->error, sizeof c->error, "call %d (%s, %lld): %s",
                         k, op, (long long)n, iron_last_error());
        }
    }
    return NULL;
}

static void run_callers(int same_spec)
{
    iron_jit *j;
    iron_jit_options o = no_disk(vector_op_options);
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    enum { NT = 4 };
    pthread_t th[NT];
    caller c[NT];
    for (int t = 0; t < NT; t++) {
        c[t] = (caller){ .j = j, .index = t, .calls = 40,
                         .same_spec = same_spec };
        ASSERT_EQ(pthread_create(&th[t], NULL, call_many, &c[t]), 0);
    }
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < NT; t++)
        if (c[t].failures)
            TEST_FAIL_("thread %d: %d failed calls, first: %s", t,
                       c[t].failures, c[t].error);
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.calls, NT * 40);
    /* Every signature built once, however many threads missed at once. */
    ASSERT_EQ(st.builds, same_spec ? 1 : 6);
    ASSERT_EQ(st.memory_hits + st.builds, NT * 40);
    iron_jit_free(j);
}

TEST_TIMEOUT(threads_one_jit_many_signatures, 120)
{
    run_callers(0);
}

TEST_TIMEOUT(threads_one_jit_one_signature_takes_turns, 120)
{
    run_callers(1);
}

/* Two handlers, each with its own context: a line must never reach one
 * function with the other's context (or none). */
static int ctx_a, ctx_b;
static atomic_int wrong, lines;

static void handler_a(const char *topic, const char *line, void *ctx)
{
    (void)topic, (void)line;
    atomic_fetch_add(&lines, 1);
    if (ctx != &ctx_a)
        atomic_fetch_add(&wrong, 1);
}

static void handler_b(const char *topic, const char *line, void *ctx)
{
    (void)topic, (void)line;
    atomic_fetch_add(&lines, 1);
    if (ctx != &ctx_b)
        atomic_fetch_add(&wrong, 1);
}

static atomic_int stop_logging;

static void *log_lines(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_logging))
        iron__log(IRON__LOG_JIT, "a line");
    return NULL;
}

TEST(threads_log_handler_swaps_as_a_pair)
{
    iron_log_set_handler(handler_a, &ctx_a);
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        ASSERT_EQ(pthread_create(&th[t], NULL, log_lines, NULL), 0);
    /* Swap until the loggers have had plenty of lines through. */
    for (long k = 0; k < 20000 || (atomic_load(&lines) < 5000 &&
                                    k < 50000000); k++) {
        if (k % 2)
            iron_log_set_handler(handler_a, &ctx_a);
        else
            iron_log_set_handler(handler_b, &ctx_b);
    }
    atomic_store(&stop_logging, 1);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    iron_log_set_handler(NULL, NULL);
    ASSERT_GT(atomic_load(&lines), 0);
    ASSERT_EQ(atomic_load(&wrong), 0);
}

/* The parent runs a design on several lanes (the thread pool starts),
 * then forks: the child's call must complete, not wait for threads it
 * does not have. */
static void parallel_call(iron_jit *j, int64_t n, int *ok)
{
    iron_tensor *in, *out;
    *ok = 0;
    if (iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -500, 500, 3, &in) ||
        iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &out))
        return;
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 8 };
    if (iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                        IRON_TENSORS(in, out)) ==
        IRON_OK) {
        const int32_t *x = iron_tensor_data(in), *y = iron_tensor_data(out);
        *ok = 1;
        for (int64_t i = 0; i < n; i++)
            *ok &= y[i] == x[i] * 3 + 1;
    }
    iron_tensor_free(in);
    iron_tensor_free(out);
}

TEST(threads_fork_child_uses_the_emulator)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* TSan refuses threads after a multi-threaded fork, and ASan's
     * runtime can block in pthread_create in such a child (its own
     * locks); the plain build runs this test. */
    return;
#endif
    setenv("IRON_THREADS", "2", 1);
    ASSERT_OK(iron_device_push("npu2"));
    iron_jit *j;
    iron_jit_options o = no_disk(eltwise_parallel_options);
    ASSERT_OK(iron_jit_create(eltwise_parallel_design, &o, &j));
    int ok;
    int64_t n = 8 * 16 * 64;
    parallel_call(j, n, &ok);
    ASSERT(ok);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        alarm(20);  /* a hang is a failure, not a stuck suite */
        parallel_call(j, n, &ok);
        iron_jit *k;
        if (ok &&
            iron_jit_create(eltwise_parallel_design, &o, &k) == IRON_OK) {
            parallel_call(k, n, &ok);
            iron_jit_free(k);
        }
        _exit(ok ? 0 : 1);
    }
    test_child_exits_ok(pid);
    ASSERT_OK(iron_device_pop());
    iron_jit_free(j);
}

/* With every digest equal, lookups must still tell signatures apart by
 * their values: '+' and '-' are different kernels. */
TEST(threads_forced_digest_collision_is_a_miss)
{
    iron__jit_test_digest = 0x5eed;
    iron_jit *j;
    iron_jit_options o = no_disk(vector_op_options);
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    for (int round = 0; round < 2; round++) {
        ASSERT_EQ(vector_op_once(j, "+", 256, 1), 0);
        ASSERT_EQ(vector_op_once(j, "-", 256, 2), 0);
        ASSERT_EQ(vector_op_once(j, "-", 512, 3), 0);
    }
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 3);
    ASSERT_EQ(st.memory_hits, 3);
    iron_jit_free(j);
    iron__jit_test_digest = 0;
}

/* Beyond the resident cap the least recently used specialization is
 * unloaded; calling it again rebuilds it, with the right result. */
TEST_TIMEOUT(threads_resident_cap_evicts_lru, 120)
{
    setenv("IRON_RESIDENT_MAX", "3", 1);
    iron_jit *j;
    iron_jit_options o = no_disk(vector_op_options);
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    for (int k = 1; k <= 6; k++)
        ASSERT_EQ(vector_op_once(j, "+", 64 * k, k), 0);
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 6);
    ASSERT_EQ(st.specializations, 3);
    /* 384 was used last: still resident.  64 was evicted: rebuilt. */
    ASSERT_EQ(vector_op_once(j, "+", 384, 9), 0);
    ASSERT_EQ(vector_op_once(j, "+", 64, 9), 0);
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 7);
    ASSERT_EQ(st.specializations, 3);
    iron_jit_free(j);
}

/* 100,000 specializations of one jit in one process: the kernel is
 * compiled once and shared, and at most max_resident stay loaded, so
 * neither memory nor mappings grow with the count. */
TEST_TIMEOUT(threads_100k_specializations, 600)
{
    iron_jit *j;
    /* The passthrough design with a parameter it ignores: every value is
     * a specialization of its own, all with one kernel text.  Its own
     * parameters stay declared (it reads kernel_file / kernel_entry). */
    iron_jit_options o = no_disk(passthrough_options);
    char params[256];
    snprintf(params, sizeof params, "%s, tag: int = 0",
             passthrough_options.params);
    o.params = params;
    o.max_resident = 32;
    ASSERT_OK(iron_jit_create(passthrough_design, &o, &j));
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    int count = 10000;  /* the plain build runs all 100,000 */
#else
    int count = 100000;
#endif
    if (getenv("IRON_TEST_SPECS"))
        count = atoi(getenv("IRON_TEST_SPECS"));
    iron_tensor *in, *out;
    const int64_t n = 64;
    for (int k = 1; k <= count; k++) {
        ASSERT_OK(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(n), 0, 255,
                                      (uint64_t)k, &in));
        ASSERT_OK(iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(n), &out));
        iron_status s =
            iron_jit_launch(j, NULL,
                            IRON_PARAMS(iron_param_int("obj", 16),
                                        iron_param_int("tag", k)),
                            IRON_NO_SCALARS, IRON_TENSORS(in, out));
        if (s != IRON_OK)
            TEST_FAIL_("specialization %d: %s", k, iron_last_error());
        if (memcmp(iron_tensor_data(in), iron_tensor_data(out), (size_t)n))
            TEST_FAIL_("specialization %d: wrong output", k);
        iron_tensor_free(in);
        iron_tensor_free(out);
    }
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, count);
    ASSERT_EQ(st.kernel_compiles + st.disk_hits, 1);
    ASSERT_LE(st.specializations, 32);
    iron_jit_free(j);
}

/* A tensor freed on another thread while a call moves its data: the free
 * waits for the call, the call completes, nothing crashes. */
TEST_TIMEOUT(threads_free_waits_for_the_call, 60)
{
    iron_jit *j;
    iron_jit_options o = no_disk(vector_op_options);
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    const int64_t n = 4 << 20;  /* 262,144 objects: tens of ms */
    test_slow_call sc = { .j = j };
    ASSERT_OK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9, 9, 1, &sc.a));
    ASSERT_OK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9, 9, 2, &sc.b));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &sc.c));
    ASSERT_EQ(vector_op_once(j, "+", n, 3), 0);  /* built: the next is warm */
    test_count_wait_lines();
    for (int round = 0; round < 5 && !test_wait_lines(); round++) {
        iron_tensor *c = sc.c;
        pthread_t th;
        test_slow_call_start(&sc, &th);
        usleep(2000);
        iron_tensor_free(c);      /* waits while the call uses it */
        pthread_join(th, NULL);
        ASSERT_OK(sc.status);
        ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &sc.c));
    }
    iron_log_set_handler(NULL, NULL);
    ASSERT_GT(test_wait_lines(), 0);
    iron_tensor_free(sc.a);
    iron_tensor_free(sc.b);
    iron_tensor_free(sc.c);
    iron_jit_free(j);
}

static int count_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    int n = 0, ch;
    if (!f)
        return -1;
    while ((ch = fgetc(f)) != EOF)
        n += ch == '\n';
    fclose(f);
    return n;
}

/* Every value of c is its own kernel text: each specialization compiles
 * and maps its own object.  With the cap, the mappings stay bounded (they
 * used to grow until dlopen failed after about 13,000). */
TEST_TIMEOUT(threads_distinct_kernels_stay_bounded, 180)
{
    iron_jit *j;
    iron_jit_options o = no_disk(add_constant_options);
    o.max_resident = 4;
    ASSERT_OK(iron_jit_create(add_constant_design, &o, &j));
    const int64_t n = 64;
    iron_tensor *in, *out;
    ASSERT_OK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -99, 99, 5, &in));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &out));
    int after_warmup = 0;
    for (int c = 1; c <= 24; c++) {
        ASSERT_OK(iron_jit_launch(j, NULL,
                                  IRON_PARAMS(iron_param_int("n", n),
                                              iron_param_int("c", c)),
                                  IRON_NO_SCALARS, IRON_TENSORS(in, out)));
        const int32_t *x = iron_tensor_data(in), *y = iron_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            ASSERT_EQ(y[i], x[i] + c);
        if (c == 8)
            after_warmup = count_maps();
    }
    /* Specializations 9..24 replaced evicted ones: no net growth beyond
     * noise (the allocator may map an arena or two).  ThreadSanitizer
     * keeps shadow mappings of unloaded objects, so only the plain and
     * ASan builds can count. */
#if !defined(__SANITIZE_THREAD__)
    ASSERT_LE(count_maps(), after_warmup + 16);
#else
    (void)after_warmup;
#endif
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.kernel_compiles, 24);
    ASSERT_LE(st.specializations, 4);
    ASSERT_EQ(st.evictions, 20);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}
