/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_faults.c - a kernel or core body that faults, stops the process,
 * hangs or breaks its stack ends the call, not the process: the status is
 * IRON_EKERNEL (IRON_ETIMEOUT for a hang), the message names the kernel,
 * worker, tile, iteration and what happened, the call returns within its
 * timeout + 0.5 s, and the next call of the same jit, and of another,
 * gives the right result.
 *
 * Each faulting kernel misbehaves only when the first input element is -1,
 * so the same jit can be called again with good data.
 */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

TEST_SKIP_FILE_IF(
    TEST_UNDER_TSAN,
    "ThreadSanitizer defers signals and cannot follow a siglongjmp out of a "
    "handler; the plain and ASan builds run these")

enum { TILE = 16, N = 64, TIMEOUT_MS = 1500 };

/* The failed call's message (later good calls overwrite test_errmsg). */
static char fault_msg[8192];
#define ASSERT_FAULT(needle) ASSERT_CONTAINS(fault_msg, needle)

/* The kernel's text: `bad` runs when in[0] == -1 (at the first object),
 * otherwise it doubles its input. */
static char kernel_src[4096];

static void set_kernel(const char *prelude, const char *bad)
{
    snprintf(kernel_src, sizeof kernel_src,
             "#include <stdint.h>\n"
             "%s\n"
             "void twice(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    if (in[0] == -1) {\n"
             "        %s\n"
             "    }\n"
             "    for (int32_t i = 0; i < n; i++)\n"
             "        out[i] = 2 * in[i];\n"
             "}\n",
             prelude, bad);
}

static int twice_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k = iron_kernel_new(d, "twice", kernel_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "w0", k, n / TILE,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(TILE)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static iron_status launch(iron_jit *j, iron_tensor *a, iron_tensor *b,
                          int check)
{
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1,
                               .timeout_ms = TIMEOUT_MS, .check = check };
    return test_keep(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                     IRON_TENSORS(a, b)));
}

/* A good call: every output element is twice its input. */
static void assert_good_call(iron_jit *j, int check)
{
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_zeros(IRON_INT32, N);
    iron_status s = launch(j, a, b, check);
    if (s != IRON_OK)
        TEST_FAIL_("good call: %s: %s", iron_status_name(s), test_errmsg);
    for (int i = 0; i < N; i++)
        ASSERT_EQ(test_at(b, i), 2 * i);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* The call with the bad input (-1 first): it must return `status` within
 * the timeout + 0.5 s; its message goes to fault_msg. */
static void bad_call(iron_jit *j, int check, iron_status status)
{
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_zeros(IRON_INT32, N);
    ((int32_t *)iron_tensor_data(a))[0] = -1;
    double t0 = now_s();
    iron_status s = launch(j, a, b, check);
    double took = now_s() - t0;
    snprintf(fault_msg, sizeof fault_msg, "%s", test_errmsg);
    if (s != status)
        TEST_FAIL_("expected %s, got %s: %s", iron_status_name(status),
                   iron_status_name(s), fault_msg);
    ASSERT_LE(took * 1000, TIMEOUT_MS + 500);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* Runs the bad call: it must fail with `status` within the timeout + 0.5 s,
 * naming the kernel, worker and tile; then the same jit and a fresh one
 * must compute correctly.  The message stays in test_errmsg. */
static void expect_fault(iron_status status, int check)
{
    iron_jit *j = test_jit(twice_design, "twice", "in a, out b");
    /* Built and run once first: the timeout covers the run, not the
     * build. */
    assert_good_call(j, check);
    bad_call(j, check, status);
    ASSERT_FAULT("'twice'");
    ASSERT_FAULT("worker 'w0'");
    ASSERT_FAULT("compute tile (0,2)");
    ASSERT_EQ(iron_jit_last_state(j),
              status == IRON_ETIMEOUT ? IRON_RUN_TIMEOUT : IRON_RUN_ERROR);
    assert_good_call(j, check);
    iron_jit_free(j);
    /* Another jit, another kernel, after the fault. */
    set_kernel("", "");
    iron_jit *k = test_jit(twice_design, "twice_again", "in a, out b");
    assert_good_call(k, 0);
    iron_jit_free(k);
}

TEST(fault_null_pointer_write)
{
    set_kernel("", "*(volatile int32_t *)0 = 1;");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("SIGSEGV");
    ASSERT_FAULT("writing NULL");
    ASSERT_FAULT("at iteration 4");   /* after the good call's 4 objects */
    ASSERT_FAULT("twice.c:6");   /* the kernel's line, from its debug info */
}

TEST(fault_null_member_read)
{
    set_kernel("struct s { int32_t a[8]; };",
               "out[0] = ((volatile struct s *)0)->a[4];");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("reading NULL + 16");
}

TEST(fault_write_far_past_object)
{
    /* 64 KiB past the output object: beyond the tile, into its guard. */
    set_kernel("", "((volatile int32_t *)out)[n + 16384] = 7;");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("SIGSEGV");
    ASSERT_FAULT("past the end of object");
    ASSERT_FAULT("of fifo 'out' (producer) on compute tile (0,2)");
    ASSERT_FAULT("beyond the tile's 65536 bytes of memory");
}

TEST(fault_write_everywhere)
{
    /* Sweeps upward from its object: the first guard stops it before it
     * reaches anything of the emulator's. */
    set_kernel("", "for (volatile int32_t *p = out; ; p++) *p = 0x5a5a5a5a;");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("past the end of object");
}

TEST(fault_wild_pointer)
{
    set_kernel("", "*(volatile int32_t *)(uintptr_t)0x100000dead0ull = 1;");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("outside any tile's memory");
}

TEST(fault_integer_division_by_zero)
{
    set_kernel("static volatile int32_t zero;", "out[0] = in[1] / zero;");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("SIGFPE (integer division by zero)");
}

TEST(fault_illegal_instruction)
{
    set_kernel("", "__builtin_trap();");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("SIGILL");
}

TEST(fault_bus_error)
{
    /* Touching a file mapping past the file's end is SIGBUS. */
    set_kernel("#define _GNU_SOURCE\n#include <sys/mman.h>\n"
               "#include <unistd.h>\n#include <stdio.h>\n",
               "FILE *f = tmpfile();\n"
               "volatile int32_t *p = mmap(0, 8192, PROT_READ, MAP_SHARED,"
               " fileno(f), 0);\n"
               "out[0] = p[0];");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("SIGBUS");
}

TEST(fault_stack_overflow)
{
    set_kernel("static int32_t deep(volatile int32_t x)\n"
               "{ volatile char pad[512]; pad[0] = (char)x;\n"
               "  return deep(x + 1) + pad[0]; }",
               "out[0] = deep(1);");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("stack overflow");
}

TEST(fault_abort)
{
    set_kernel("#include <stdlib.h>", "abort();");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("the kernel called abort()");
}

TEST(fault_failed_assert)
{
    set_kernel("#include <assert.h>", "assert(in[0] != -1);");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("assertion 'in[0] != -1' failed at twice.c:6");
}

TEST(fault_exit)
{
    set_kernel("#include <stdlib.h>", "exit(3);");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("the kernel called exit(3)");
}

TEST(fault_underscore_exit)
{
    set_kernel("#include <unistd.h>", "_exit(4);");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("_exit(4)");
}

TEST(fault_kernel_installs_signal_handler)
{
    set_kernel("#include <signal.h>", "signal(SIGSEGV, SIG_IGN);");
    expect_fault(IRON_EKERNEL, 0);
    ASSERT_FAULT("may not change signal handlers");
}

TEST(fault_hang_is_interrupted_at_the_timeout)
{
    set_kernel("", "for (volatile int spin = 1; spin; ) { }");
    expect_fault(IRON_ETIMEOUT, 0);
    ASSERT_FAULT("did not finish within 1500 ms");
    ASSERT_FAULT("has been running for");
    ASSERT_FAULT("without returning");
}

TEST(fault_hang_in_a_system_call)
{
    set_kernel("#include <unistd.h>", "sleep(100);");
    expect_fault(IRON_ETIMEOUT, 0);
    ASSERT_FAULT("without returning");
}

/* --- core bodies ------------------------------------------------------- */

static char body_src[4096];

static int body_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k = iron_kernel_new_core(d, "body", body_src, "fifo, fifo");
    iron_worker_new(d, "cb", k, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out))));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static void set_body(const char *prelude, const char *bad)
{
    snprintf(body_src, sizeof body_src,
             "#include <stdint.h>\n"
             "%s\n"
             "void body(iron_objfifo *in, iron_objfifo *out)\n"
             "{\n"
             "    for (;;) {\n"
             "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
             "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
             "        if (x[0] == -1) {\n"
             "            %s\n"
             "        }\n"
             "        for (int i = 0; i < %d; i++) y[i] = 2 * x[i];\n"
             "        iron_release(in, 1);\n"
             "        iron_release(out, 1);\n"
             "    }\n"
             "}\n",
             prelude, bad, TILE);
}

static void expect_body_fault(iron_status status, int acquires)
{
    iron_jit *j = test_jit(body_design, "body", "in a, out b");
    assert_good_call(j, 0);
    bad_call(j, 0, status);
    ASSERT_FAULT("core body 'body' of worker 'cb' on compute tile (0,2)");
    char after[48];
    /* The good call made 2 per object before this one. */
    snprintf(after, sizeof after, "after %d acquires",
             2 * N / TILE + acquires);
    ASSERT_FAULT(after);
    assert_good_call(j, 0);
    iron_jit_free(j);
}

TEST(fault_core_body_null_pointer)
{
    set_body("", "*(volatile int32_t *)0 = 1;");
    expect_body_fault(IRON_EKERNEL, 2);
    ASSERT_FAULT("writing NULL");
    ASSERT_FAULT("body.c:9");
}

TEST(fault_core_body_endless_recursion)
{
    set_body("static int32_t deep(volatile int32_t x)\n"
             "{ volatile char pad[512]; pad[0] = (char)x;\n"
             "  return deep(x + 1) + pad[0]; }",
             "y[0] = deep(1);");
    expect_body_fault(IRON_EKERNEL, 2);
    ASSERT_FAULT("stack overflow (its stack is 262144 bytes)");
}

TEST(fault_core_body_frame_larger_than_its_stack)
{
    /* 270 KiB of locals on a 256 KiB stack: stack-clash probes touch each
     * page, so the guard is hit instead of jumped over. */
    set_body("static __attribute__((noinline)) int32_t big_frame(void)\n"
             "{ volatile char big[270 * 1024]; big[0] = 1; return big[0]; }",
             "y[0] = big_frame();");
    expect_body_fault(IRON_EKERNEL, 2);
    ASSERT_FAULT("stack overflow");
}

TEST(fault_core_body_exit)
{
    set_body("#include <stdlib.h>", "exit(9);");
    expect_body_fault(IRON_EKERNEL, 2);
    ASSERT_FAULT("the kernel called exit(9)");
}

TEST(fault_core_body_spins_without_the_api)
{
    set_body("", "for (volatile int spin = 1; spin; ) { }");
    expect_body_fault(IRON_ETIMEOUT, 2);
    ASSERT_FAULT("without returning");
}

/* --- the user's own handlers keep working ------------------------------ */

static volatile sig_atomic_t user_handler_ran;

static void user_handler(int sig)
{
    (void)sig;
    user_handler_ran = 1;
}

TEST(fault_user_signal_handlers_still_run)
{
    /* A handler the program installed before the emulator's first run is
     * chained: signals outside kernels still reach it. */
    signal(SIGFPE, user_handler);
    set_kernel("", "");
    iron_jit *j = test_jit(twice_design, "twice", "in a, out b");
    assert_good_call(j, 0);
    raise(SIGFPE);
    ASSERT_EQ(user_handler_ran, 1);
    /* And a kernel's own SIGFPE is still contained. */
    iron_jit_free(j);
    set_kernel("static volatile int32_t zero;", "out[0] = in[1] / zero;");
    expect_fault(IRON_EKERNEL, 0);
    user_handler_ran = 0;
    raise(SIGFPE);
    ASSERT_EQ(user_handler_ran, 1);
}

TEST(fault_outside_a_kernel_still_kills)
{
    /* The emulator's handlers change nothing for the program's own bugs:
     * a fault outside any kernel ends the process with that signal. */
    set_kernel("", "");
    iron_jit *j = test_jit(twice_design, "twice", "in a, out b");
    assert_good_call(j, 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* Not NULL itself: UBSan would stop that store first. */
        volatile uintptr_t sixteen = 16;
        *(volatile int *)sixteen = 1;
        _Exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
#if defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer's own handler reports the fault and exits. */
    ASSERT(WIFEXITED(st) && WEXITSTATUS(st) != 0);
#else
    ASSERT(WIFSIGNALED(st));
    ASSERT_EQ(WTERMSIG(st), SIGSEGV);
#endif
    iron_jit_free(j);
}

/* --- a fault on a pool thread, and stale jumps --------------------------- */

/* Two independent pipelines: the second one's lane runs on a pool thread
 * (with IRON_THREADS >= 2), and only its kernel faults. */
static int two_pipes_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_kernel *k = iron_kernel_new(d, "twice", kernel_src,
                                     "int32*, int32*, int32");
    for (int p = 0; p < 2; p++) {
        char nin[16], nout[16], nw[16];
        snprintf(nin, sizeof nin, "in%d", p);
        snprintf(nout, sizeof nout, "out%d", p);
        snprintf(nw, sizeof nw, "w%d", p);
        iron_fifo *in = iron_fifo_new(d, nin, IRON_INT32, IRON_SHAPE(TILE), 2);
        iron_fifo *out = iron_fifo_new(d, nout, IRON_INT32, IRON_SHAPE(TILE),
                                       2);
        iron_worker *w = iron_worker_new(
            d, nw, k, n / TILE,
            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                      iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(TILE)));
        iron_worker_place(w, p, 2);
        iron_rt_fill(d, iron_fifo_prod(in), p, iron_tap_linear(n));
        iron_rt_drain(d, iron_fifo_cons(out), 2 + p, iron_tap_linear(n),
                      IRON_WAIT);
    }
    return 0;
}

TEST(fault_on_a_pool_thread)
{
    setenv("IRON_THREADS", "2", 1);
    set_kernel("", "*(volatile int32_t *)0 = 1;");
    iron_jit *j = test_jit(two_pipes_design, "pipes",
                           "in a, in b, out x, out y");
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_arange(IRON_INT32, N),
                *x = test_zeros(IRON_INT32, N), *y = test_zeros(IRON_INT32, N);
    ((int32_t *)iron_tensor_data(b))[0] = -1;
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 2,
                               .timeout_ms = TIMEOUT_MS };
    ASSERT_STATUS(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b, x, y)),
                  IRON_EKERNEL);
    ASSERT_MSG("kernel 'twice' of worker 'w1' on compute tile (1,2)");
    ASSERT_MSG("writing NULL");
    /* Good data: both pipelines compute. */
    ((int32_t *)iron_tensor_data(b))[0] = 0;
    ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, x, y)));
    for (int i = 0; i < N; i++) {
        ASSERT_EQ(test_at(x, i), 2 * i);
        ASSERT_EQ(test_at(y, i), 2 * i);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

/* One pipeline across two columns: 'w0' on (0,2) copies a into mid, 'w1'
 * on (1,2) runs `twice` on mid into b.  On two threads mid is a shared
 * pool and w1 runs on the pool thread while the caller's lane waits. */
static const char copy_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void copy(const int32_t *in, int32_t *out, int32_t n)\n"
    "{ memcpy(out, in, (size_t)n * sizeof *in); }\n";

static int cross_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_kernel *c = iron_kernel_new(d, "copy", copy_src,
                                     "int32*, int32*, int32");
    iron_kernel *k = iron_kernel_new(d, "twice", kernel_src,
                                     "int32*, int32*, int32");
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *mid = iron_fifo_new(d, "mid", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_worker *w0 = iron_worker_new(
        d, "w0", c, n / TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(mid)), iron_arg_int(TILE)));
    iron_worker *w1 = iron_worker_new(
        d, "w1", k, n / TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(mid)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(TILE)));
    iron_worker_place(w0, 0, 2);
    iron_worker_place(w1, 1, 2);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* The bad call fails with `status` within the timeout + 0.5 s on one
 * thread and on two; a good call works after each. */
static void cross_lanes(iron_status status, const char *needle)
{
    iron_jit *j = test_jit(cross_design, "cross", "in a, out b");
    for (int threads = 1; threads <= 2; threads++) {
        iron_tensor *a = test_arange(IRON_INT32, N);
        iron_tensor *b = test_zeros(IRON_INT32, N);
        iron_launch_config cfg = { .size = sizeof cfg, .cols = 2,
                                   .timeout_ms = TIMEOUT_MS,
                                   .threads = threads };
        ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b)));
        ((int32_t *)iron_tensor_data(a))[0] = -1;
        double t0 = now_s();
        ASSERT_STATUS(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                      IRON_TENSORS(a, b)),
                      status);
        ASSERT_LE((now_s() - t0) * 1000, TIMEOUT_MS + 500);
        ASSERT_MSG("kernel 'twice' of worker 'w1' on compute tile (1,2)");
        ASSERT_MSG(needle);
        ((int32_t *)iron_tensor_data(a))[0] = 0;
        ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b)));
        for (int i = 0; i < N; i++)
            ASSERT_EQ(test_at(b, i), 2 * i);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
    iron_jit_free(j);
}

TEST(fault_across_lanes_stops_every_lane)
{
    set_kernel("", "*(volatile int32_t *)0 = 1;");
    cross_lanes(IRON_EKERNEL, "writing NULL");
}

TEST(fault_hang_across_lanes_is_interrupted)
{
    set_kernel("", "for (volatile int spin = 1; spin; ) { }");
    cross_lanes(IRON_ETIMEOUT, "without returning");
}

TEST(fault_kernel_longjmps_to_a_stale_frame)
{
    /* The first call saves a jump buffer in its frame; a later one jumps
     * to it after that frame is gone.  Undefined in C; what matters is
     * that the process survives and later calls compute. */
    set_kernel("#include <setjmp.h>\nstatic jmp_buf saved;\n"
               "static int have;\n",
               "if (!have) { have = 1; if (setjmp(saved)) return; }\n"
               "        else longjmp(saved, 1);");
    iron_jit *j = test_jit(twice_design, "twice", "in a, out b");
    for (int call = 0; call < 3; call++) {
        iron_tensor *a = test_arange(IRON_INT32, N),
                    *b = test_zeros(IRON_INT32, N);
        ((int32_t *)iron_tensor_data(a))[0] = -1;
        iron_status s = launch(j, a, b, 0);
        ASSERT(s == IRON_OK || s == IRON_EKERNEL);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
    assert_good_call(j, 0);
    iron_jit_free(j);
}

TEST(fault_hang_in_a_forked_child_is_interrupted)
{
    /* The watchdog thread does not survive fork: the child starts its
     * own at its first run. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* A sanitizer's runtime in a child forked from a threaded process can
     * block in pthread_create (its own locks); not this library's. */
    return;
#endif
    set_kernel("", "for (volatile int spin = 1; spin; ) { }");
    iron_jit *j = test_jit(twice_design, "twice", "in a, out b");
    assert_good_call(j, 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        iron_tensor *a = test_arange(IRON_INT32, N),
                    *b = test_zeros(IRON_INT32, N);
        ((int32_t *)iron_tensor_data(a))[0] = -1;
        _Exit(launch(j, a, b, 0) == IRON_ETIMEOUT ? 0 : 1);
    }
    /* A child left hanging would outlive the test: it is killed. */
    int st = 0;
    pid_t got = 0;
    for (int k = 0; k < 1000 && got == 0; k++) {
        got = waitpid(pid, &st, WNOHANG);
        if (got == 0)
            usleep(10000);
    }
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        TEST_FAIL_("the child's hung kernel was not interrupted in 10 s");
    }
    ASSERT(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 0);
    iron_jit_free(j);
}
