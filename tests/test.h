/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test.h - the test harness: TEST(name) registers a test at load time;
 * tests/runner.c forks each one with a time limit, several at once, and
 * prints a summary.
 * Asserts print both operands and stop the test (it runs in its own child).
 */
#ifndef IRON_TEST_H
#define IRON_TEST_H

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iron/iron.h"

typedef void (*test_fn)(void);
/* alone: NULL for a test that may share the machine with others, else why
 * it may not (the runner then runs it with no other test beside it). */
void test_register(const char *name, const char *file, test_fn fn,
                   int timeout_s, const char *alone);

#define TEST_DEFINE_(name, seconds, alone)                                    \
    static void test_##name(void);                                            \
    __attribute__((constructor)) static void test_reg_##name(void)            \
    {                                                                         \
        test_register(#name, __FILE__, test_##name, seconds, alone);          \
    }                                                                         \
    static void test_##name(void)

#define TEST_TIMEOUT(name, seconds) TEST_DEFINE_(name, seconds, NULL)

/* A test that cannot share the machine: it measures wall time, or needs
 * something the others would disturb.  The runner runs tests in parallel
 * (tests/runner.c) but this one alone; `reason` says why, in a few words. */
#define TEST_ALONE(name, seconds, reason) TEST_DEFINE_(name, seconds, reason)

/* Every test of this file is reported as skipped (with the reason) when
 * cond holds, e.g. under a sanitizer whose runtime cannot host what the
 * file tests.  The summary counts them apart. */
void test_skip_file(const char *file, const char *reason);
#define TEST_SKIP_FILE_IF(cond, reason)                                       \
    __attribute__((constructor)) static void test_skip_this_file(void)        \
    {                                                                         \
        if (cond)                                                             \
            test_skip_file(__FILE__, reason);                                 \
    }

/* Built with ThreadSanitizer (which cannot host some tests): gcc says so
 * with __SANITIZE_THREAD__, clang with __has_feature (nested: gcc 12 has
 * no __has_feature). */
#if defined(__SANITIZE_THREAD__)
#define TEST_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_UNDER_TSAN 1
#endif
#endif
#ifndef TEST_UNDER_TSAN
#define TEST_UNDER_TSAN 0
#endif

/* Default limit: 30 s per test. */
#define TEST(name) TEST_TIMEOUT(name, 30)

#define TEST_FAIL_(...)                                                       \
    do {                                                                      \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                       \
        fprintf(stderr, __VA_ARGS__);                                         \
        fprintf(stderr, "\n");                                                \
        fflush(stderr);                                                       \
        _Exit(1);                                                             \
    } while (0)

#define ASSERT(cond)                                                          \
    do {                                                                      \
        if (!(cond))                                                          \
            TEST_FAIL_("assertion failed: %s", #cond);                        \
    } while (0)

#define ASSERT_INT_OP_(a, op, b)                                              \
    do {                                                                      \
        long long a_ = (long long)(a), b_ = (long long)(b);                   \
        if (!(a_ op b_))                                                      \
            TEST_FAIL_("%s %s %s: %lld vs %lld", #a, #op, #b, a_, b_);        \
    } while (0)

#define ASSERT_EQ(a, b) ASSERT_INT_OP_(a, ==, b)
#define ASSERT_NE(a, b) ASSERT_INT_OP_(a, !=, b)
#define ASSERT_LT(a, b) ASSERT_INT_OP_(a, <, b)
#define ASSERT_LE(a, b) ASSERT_INT_OP_(a, <=, b)
#define ASSERT_GT(a, b) ASSERT_INT_OP_(a, >, b)
#define ASSERT_GE(a, b) ASSERT_INT_OP_(a, >=, b)

#define ASSERT_DBL_NEAR(a, b, eps)                                            \
    do {                                                                      \
        double a_ = (double)(a), b_ = (double)(b);                            \
        if (!(a_ - b_ <= (eps) && b_ - a_ <= (eps)))                          \
            TEST_FAIL_("%s ~ %s: %.9g vs %.9g", #a, #b, a_, b_);              \
    } while (0)

#define ASSERT_STR_EQ(a, b)                                                   \
    do {                                                                      \
        const char *a_ = (a), *b_ = (b);                                      \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                \
            TEST_FAIL_("%s == %s: \"%s\" vs \"%s\"", #a, #b,                  \
                       a_ ? a_ : "(null)", b_ ? b_ : "(null)");               \
    } while (0)

/* haystack contains needle */
#define ASSERT_CONTAINS(hay, needle)                                          \
    do {                                                                      \
        const char *h_ = (hay), *n_ = (needle);                               \
        if (!h_ || !strstr(h_, n_))                                           \
            TEST_FAIL_("%s does not contain \"%s\": \"%s\"", #hay, n_,        \
                       h_ ? h_ : "(null)");                                   \
    } while (0)

/* A call that must succeed; prints the library's message if not. */
#define ASSERT_OK(call)                                                       \
    do {                                                                      \
        iron_status s_ = (call);                                              \
        if (s_ != IRON_OK)                                                    \
            TEST_FAIL_("%s: %s: %s", #call, iron_status_name(s_),             \
                       iron_last_error());                                    \
    } while (0)

/* A call that must fail with `status` and a message containing `needle`. */
#define ASSERT_FAILS(call, status, needle)                                    \
    do {                                                                      \
        iron_status s_ = (call);                                              \
        if (s_ != (status))                                                   \
            TEST_FAIL_("%s: expected %s, got %s (%s)", #call,                 \
                       iron_status_name(status), iron_status_name(s_),        \
                       iron_last_error());                                    \
        ASSERT_CONTAINS(iron_last_error(), needle);                           \
    } while (0)

/* --- shared helpers (support.c) ------------------------------------------
 * The runner ends each test's child with _Exit, which skips LeakSanitizer's
 * exit-time check: tests about cleanup ask for it (no-op without ASan). */
int test_leaks(void);               /* leaks found (0 without ASan) */
void test_assert_no_leaks(void);
/* Saves the message of a call's status before anything else touches it. */
extern char test_errmsg[8192];
iron_status test_keep(iron_status s);
iron_jit_stats test_stats(const iron_jit *j);
iron_tensor *test_zeros(iron_dtype dt, int64_t n);
iron_tensor *test_arange(iron_dtype dt, int64_t n);   /* 0, 1, 2, ... */
/* start, start + step, ... in shape s (iron_tensor_arange is 1-D). */
iron_tensor *test_arange_shape(iron_dtype dt, iron_shape s, double start,
                               double step);
double test_at(const iron_tensor *t, int64_t i);
iron_jit *test_jit(iron_design_fn fn, const char *name, const char *args);
iron_jit *test_new_jit(iron_design_fn fn, const iron_jit_options *o);
/* o with the disk cache off: for tests that count compiles, which the
 * run's shared disk cache (tests/runner.c) would otherwise serve. */
iron_jit_options test_in_memory(const iron_jit_options *o);
iron_tensor *test_zeros_shape(iron_dtype dt, iron_shape s);
iron_tensor *test_randint(iron_dtype dt, iron_shape s, int64_t lo,
                          int64_t hi, uint64_t seed);
/* A fresh private folder /tmp/iron-test-<tag>-XXXXXX (a static buffer,
 * overwritten by the next call), and removing a folder with everything
 * in it. */
const char *test_temp_dir(const char *tag);
void test_remove_dir(const char *dir);
/* One launch on `cols` columns (0: all) with a 5 s timeout; the message
 * is kept in test_errmsg. */
iron_status test_launch(iron_jit *j, int cols, int nargs,
                        iron_tensor *const *args);
/* A whole file (malloc'd and NUL-terminated; len may be NULL) and writing one;
 * failures end the test naming the file. */
unsigned char *test_slurp(const char *path, size_t *len);
void test_spit(const char *path, const void *buf, size_t len);
/* Monotonic milliseconds. */
double test_now_ms(void);
/* A fresh folder <IRON_CACHE_DIR or /tmp>/<prefix>-<tag>-XXXXXX
 * (malloc'd), and removing one with all it holds and freeing its name. */
char *test_cache_temp_dir(const char *prefix, const char *tag);
void test_drop_dir(char *dir);
/* Entries of a folder other than . and .. (the folder must exist). */
int test_count_files(const char *dir);
/* Keeps the last "warning" line the library logs in test_warning (from
 * now on, emptied now). */
extern char test_warning[2048];
void test_catch_warnings(void);
/* The placed design's text (iron_free it). */
char *test_dump(iron_jit *j, int cols, int nargs, iron_tensor *const *args);

/* A call of j on a, b, c made on a thread of its own, for tests that free
 * a tensor while the call uses it: test_slow_call_start returns once the
 * thread is about to launch; status holds the call's result after the
 * join. */
typedef struct test_slow_call {
    iron_jit *j;
    iron_tensor *a, *b, *c;
    atomic_int started;
    iron_status status;
} test_slow_call;
void test_slow_call_start(test_slow_call *sc, pthread_t *th);
/* Counts, from zero, the log lines of frees that wait for a running call
 * (test_wait_lines); iron_log_set_handler(NULL, NULL) stops it. */
void test_count_wait_lines(void);
int test_wait_lines(void);
/* Waits for a forked child and fails the test unless it exited with 0
 * (a child that hangs should alarm(): SIGALRM is named as such). */
void test_child_exits_ok(pid_t pid);
/* Runs `$IRON_CLI args` (the `iron` command that `make test` names)
 * through the shell with stderr folded into stdout (or dropped); returns
 * the exit status and the output in out. */
int test_run_cli(const char *args, int keep_stderr, char *out, size_t len);
/* Runs a shell command line as given (redirections included); returns
 * its exit status and its standard output in out.  A command that does
 * not exit normally fails the test. */
int test_run_shell(const char *cmd, char *out, size_t len);
/* Whether `variant` ("g++-c++20") is a word of $env, the builds `make
 * test` made.  A clang++ variant missing there (clang++ is optional)
 * prints so and gives 0; any other missing one fails the test. */
int test_variant_built(const char *env, const char *variant);
/* The npu2 device's description, for designs made without a jit. */
const iron_device_info *test_npu2_info(void);

/* A call that must return `status`; its message stays in test_errmsg for
 * ASSERT_MSG to look into. */
#define ASSERT_STATUS(expr, status)                                           \
    do {                                                                      \
        iron_status st_ = test_keep(expr);                                    \
        if (st_ != (status))                                                  \
            TEST_FAIL_("%s: expected %s, got %s (%s)", #expr,                 \
                       iron_status_name(status), iron_status_name(st_),       \
                       test_errmsg);                                          \
    } while (0)

#define ASSERT_MSG(needle) ASSERT_CONTAINS(test_errmsg, needle)

#endif
