/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_checked.c - checked mode (iron_launch_config.check, IRON_CHECK=1):
 * what plain runs let through is caught there, named, and contained; and
 * correct designs (all the reference designs) run clean.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

TEST_SKIP_FILE_IF(TEST_UNDER_TSAN,
                  "checked mode traps on protection faults; ThreadSanitizer "
                  "cannot follow a siglongjmp out of a handler")

enum { TILE = 16, N = 64 };

static char src[4096];
static char fault_msg[8192];
#define ASSERT_FAULT(needle) ASSERT_CONTAINS(fault_msg, needle)

/* Warnings reach the log handler with topic "warning". */
static char warnings[8192];

static void on_log(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    if (strcmp(topic, "warning") != 0)
        return;
    size_t n = strlen(warnings);
    snprintf(warnings + n, sizeof warnings - n, "%s\n", line);
}

/* in -> kernel(in, out, n) -> out; `body` is the kernel's text. */
static int kernel_design(iron_design *d, void *user)
{
    uint32_t stack = user ? *(const uint32_t *)user : 0;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k = iron_kernel_new(d, "kern", src, "int32*, int32*, int32");
    if (strstr(src, "aie_api"))
        iron_kernel_set_lang(k, IRON_KERNEL_LANG_CXX);
    iron_worker *w = iron_worker_new(
        d, "w0", k, n / TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(TILE)));
    if (stack)
        iron_worker_set_stack(w, stack);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* The same with a core body. */
static int body_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k = iron_kernel_new_core(d, "body", src, "fifo, fifo");
    iron_worker *w =
        iron_worker_new(d, "cb", k, 0,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                                  iron_arg_fifo(iron_fifo_prod(out))));
    iron_worker_set_stack(w, 4096);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* Runs once; with `verify`, a successful run must double every value. */
static iron_status run_v(iron_jit *j, int check, int values_from, int verify)
{
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_zeros(IRON_INT32, N);
    for (int i = 0; i < N; i++)
        ((int32_t *)iron_tensor_data(a))[i] = values_from + i;
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1,
                               .timeout_ms = 2000, .check = check };
    iron_status s = test_keep(iron_jit_launch(
        j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS, IRON_TENSORS(a, b)));
    if (s == IRON_OK && verify)
        for (int i = 0; i < N; i++)
            ASSERT_EQ(test_at(b, i), 2 * (values_from + i));
    iron_tensor_free(a);
    iron_tensor_free(b);
    return s;
}

static iron_status run(iron_jit *j, int check, int values_from)
{
    return run_v(j, check, values_from, 1);
}

/* The kernel passes unchecked (its bug corrupts silently or not at all),
 * fails checked with EKERNEL, and the jit still runs unchecked after. */
static void expect_caught(iron_design_fn fn, void *user)
{
    iron_jit_options o = { .size = sizeof o, .name = "checked",
                           .args = "in a, out b", .user = user };
    iron_jit *j = test_new_jit(fn, &o);
    /* Plain runs let the bug through (its result may be wrong). */
    ASSERT_OK(run_v(j, -1, 0, 0));
    iron_status s = run(j, 1, 0);
    snprintf(fault_msg, sizeof fault_msg, "%s", test_errmsg);
    if (s != IRON_EKERNEL)
        TEST_FAIL_("checked run: expected IRON_EKERNEL, got %s: %s",
                   iron_status_name(s), fault_msg);
    ASSERT_OK(run_v(j, -1, 100, 0));
    iron_jit_free(j);
}

TEST(checked_write_past_object)
{
    /* 12 bytes past the end of the output object: in plain runs that is
     * the next buffer of the same tile. */
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void kern(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    for (int32_t i = 0; i < n; i++) out[i] = 2 * in[i];\n"
             "    out[n + 3] = out[0];\n"
             "}\n");
    expect_caught(kernel_design, NULL);
    ASSERT_FAULT("kernel 'kern' of worker 'w0' on compute tile (0,2)");
    ASSERT_FAULT("writing 12 bytes past the end of object");
    ASSERT_FAULT("of fifo 'out' (producer) on compute tile (0,2)");
    ASSERT_FAULT("kern.c:5");
}

/* The AIE API's stores are plain accesses of the object's memory, so
 * checked mode bounds them as any other: a vector store one vector past
 * the output object is caught at the kernel's line. */
TEST(checked_aie_api_store_past_object)
{
    snprintf(src, sizeof src,
             "#include <aie_api/aie.hpp>\n"
             "extern \"C\" void kern(const int32_t *in, int32_t *out, "
             "int32_t n)\n"
             "{\n"
             "    for (int32_t i = 0; i < n; i += 8)\n"
             "        aie::store_v(out + i, aie::add(aie::load_v<8>(in + i), "
             "aie::load_v<8>(in + i)));\n"
             "    aie::store_v(out + n, aie::load_v<8>(in));\n"
             "}\n");
    expect_caught(kernel_design, NULL);
    ASSERT_FAULT("kernel 'kern' of worker 'w0' on compute tile (0,2)");
    ASSERT_FAULT("writing the first byte past object");
    ASSERT_FAULT("of fifo 'out' (producer)");
    /* the kernel's own line, not the header's inlined store */
    ASSERT_FAULT("in kern at kern.cc:6 (in store_v");
}

TEST(checked_read_before_object)
{
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void kern(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    volatile int32_t x = in[n + 1]; (void)x;\n"
             "    for (int32_t i = 0; i < n; i++) out[i] = 2 * in[i];\n"
             "}\n");
    expect_caught(kernel_design, NULL);
    ASSERT_FAULT("reading 4 bytes past the end of object");
    ASSERT_FAULT("fifo 'in' (consumer)");
}

/* a -> kernel(a, b) -> b with objects of a page (1024 int32): in the
 * kernels' view of checked mode, object 0 of 'b' comes right after the
 * guard page that follows object 1 of 'a'. */
static int page_objects_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(1024), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(1024), 2);
    iron_kernel *k = iron_kernel_new(d, "kern", src, "int32*, int32*, int32");
    iron_worker_new(d, "w0", k, n / 1024,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(1024)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* out[-1] on object 0 of fifo 'b' is named against that object, not
 * against the buffer below it ("writing 4092 bytes past the end of object
 * 1 of fifo 'a'", which the kernel never meant). */
TEST(checked_write_before_object_names_that_object)
{
    ASSERT_EQ(sysconf(_SC_PAGESIZE), 4096);
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void kern(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    out[-1] = in[0];\n"
             "    for (int32_t i = 0; i < n; i++) out[i] = in[i];\n"
             "}\n");
    iron_jit *j = test_jit(page_objects_design, "before", "in a, out b");
    iron_tensor *a = test_arange(IRON_INT32, 2048),
                *b = test_zeros(IRON_INT32, 2048);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1,
                               .timeout_ms = 2000, .check = 1 };
    ASSERT_STATUS(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b)),
                  IRON_EKERNEL);
    ASSERT_MSG("kernel 'kern' of worker 'w0' on compute tile (0,2)");
    ASSERT_MSG("writing 4 bytes before object 0 of fifo 'b' (producer) on "
               "compute tile (0,2)");
    ASSERT(strstr(test_errmsg, "fifo 'a'") == NULL);
    ASSERT_MSG("kern.c:4");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(checked_use_after_release)
{
    /* Keeps the input pointer after releasing it and reads it again. */
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void body(iron_objfifo *in, iron_objfifo *out)\n"
             "{\n"
             "    for (;;) {\n"
             "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
             "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
             "        iron_release(in, 1);\n"
             "        for (int i = 0; i < %d; i++) y[i] = 2 * x[i];\n"
             "        iron_release(out, 1);\n"
             "    }\n"
             "}\n", TILE);
    expect_caught(body_design, NULL);
    ASSERT_FAULT("core body 'body' of worker 'cb'");
    ASSERT_FAULT("reading byte 0 of object");
    ASSERT_FAULT("of fifo 'in' (consumer)");
    ASSERT_FAULT("which the worker does not hold");
}

TEST(checked_write_to_object_not_acquired)
{
    /* Writes the next object of 'out' (the buffer after the one held)
     * through a pointer kept from the previous iteration. */
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void body(iron_objfifo *in, iron_objfifo *out)\n"
             "{\n"
             "    int32_t *last = 0;\n"
             "    for (;;) {\n"
             "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
             "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
             "        for (int i = 0; i < %d; i++) y[i] = 2 * x[i];\n"
             "        if (last) last[0] = y[0];\n"
             "        last = y;\n"
             "        iron_release(in, 1);\n"
             "        iron_release(out, 1);\n"
             "    }\n"
             "}\n", TILE);
    expect_caught(body_design, NULL);
    ASSERT_FAULT("writing byte 0 of object");
    ASSERT_FAULT("of fifo 'out' (producer)");
    ASSERT_FAULT("which the worker does not hold");
}

TEST(checked_stack_overflow_names_worker_and_size)
{
    /* 8 KiB of locals: fine on the host's stacks, not in a core's 1 KiB. */
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void kern(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    volatile int32_t scratch[2048];\n"
             "    for (int32_t i = 0; i < 2048; i++) scratch[i] = i;\n"
             "    for (int32_t i = 0; i < n; i++) out[i] = 2 * in[i] + "
             "scratch[i] - i;\n"
             "}\n");
    expect_caught(kernel_design, NULL);
    ASSERT_FAULT("kernel 'kern' of worker 'w0' on compute tile (0,2) "
                 "overflowed its stack");
    ASSERT_FAULT("and the worker's stack is 1024 bytes");
    /* With a stack that fits, the same kernel runs clean. */
    uint32_t stack = 16384;
    iron_jit_options o = { .size = sizeof o, .name = "fits",
                           .args = "in a, out b", .user = &stack };
    iron_jit *j = test_new_jit(kernel_design, &o);
    ASSERT_OK(run(j, 1, 0));
    iron_jit_free(j);
}

TEST(checked_warns_released_unwritten_object)
{
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void kern(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    if (in[0] == 16) return;   /* forgets its second object */\n"
             "    for (int32_t i = 0; i < n; i++) out[i] = 2 * in[i];\n"
             "}\n");
    iron_log_set_handler(on_log, NULL);
    iron_jit *j = test_jit(kernel_design, "unwritten", "in a, out b");
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_zeros(IRON_INT32, N);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1, .check = 1 };
    ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    ASSERT_CONTAINS(warnings, "worker 'w0' on tile (0,2) released object");
    ASSERT_CONTAINS(warnings, "of fifo 'out' (producer) without writing it "
                              "(iteration 1");
    /* The consumer sees the poison, not stale data. */
    ASSERT_EQ((uint32_t)test_at(b, 16), 0xA5EFBEADu);
    iron_log_set_handler(NULL, NULL);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(checked_warns_core_body_returning_with_objects)
{
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void body(iron_objfifo *in, iron_objfifo *out)\n"
             "{\n"
             "    for (int k = 0; k < %d; k++) {\n"
             "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
             "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
             "        for (int i = 0; i < %d; i++) y[i] = 2 * x[i];\n"
             "        iron_release(out, 1);\n"
             "        if (k + 1 < %d) iron_release(in, 1);\n"
             "    }\n"
             "}\n", N / TILE, TILE, N / TILE);
    iron_log_set_handler(on_log, NULL);
    iron_jit *j = test_jit(body_design, "holds", "in a, out b");
    ASSERT_OK(run(j, 1, 0));
    ASSERT_CONTAINS(warnings, "the core body of worker 'cb' on tile (0,2) "
                              "returned holding 1 object of fifo 'in' "
                              "(consumer)");
    iron_log_set_handler(NULL, NULL);
    iron_jit_free(j);
}

TEST(checked_environment_variable_turns_it_on)
{
    setenv("IRON_CHECK", "1", 1);
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void kern(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    for (int32_t i = 0; i < n; i++) out[i] = 2 * in[i];\n"
             "    out[n] = 0;\n"
             "}\n");
    iron_jit *j = test_jit(kernel_design, "env", "in a, out b");
    ASSERT_STATUS(run(j, 0, 0), IRON_EKERNEL);
    ASSERT_MSG("the first byte past object");
    /* The configuration's -1 wins over the environment. */
    ASSERT_OK(run(j, -1, 0));
    iron_jit_free(j);
}

/* IRON_CHECK=yes, as other booleans are spelled (it was refused with a
 * warning, and the call ran unchecked). */
TEST(checked_environment_variable_yes)
{
    setenv("IRON_CHECK", "yes", 1);
    snprintf(src, sizeof src,
             "#include <stdint.h>\n"
             "void kern(const int32_t *in, int32_t *out, int32_t n)\n"
             "{\n"
             "    for (int32_t i = 0; i < n; i++) out[i] = 2 * in[i];\n"
             "    out[n] = 0;\n"
             "}\n");
    iron_log_set_handler(on_log, NULL);
    warnings[0] = '\0';
    iron_jit *j = test_jit(kernel_design, "env", "in a, out b");
    ASSERT_STATUS(run(j, 0, 0), IRON_EKERNEL);
    ASSERT_MSG("the first byte past object");
    iron_log_set_handler(NULL, NULL);
    ASSERT_STR_EQ(warnings, "");
    iron_jit_free(j);
}

TEST_TIMEOUT(checked_reference_designs_run_clean, 240)
{
    const char *ref = getenv("IRON_REFERENCE");
    if (!ref || !ref[0])
        TEST_FAIL_("IRON_REFERENCE is not set (run through `make test`)");
    char cmd[1024], out[65536];
    snprintf(cmd, sizeof cmd, "IRON_CHECK=1 '%s' 2>&1", ref);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        TEST_FAIL_("%s failed:\n%s", cmd, out);
    ASSERT_CONTAINS(out, "reference passed");
    if (strstr(out, "checked mode") || strstr(out, "warning"))
        TEST_FAIL_("warnings in checked mode:\n%s", out);
}
