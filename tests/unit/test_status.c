/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_status.c - the status table (names, descriptions) and the
 * per-thread last-error message, which a successful call clears.
 */
#include <pthread.h>

#include "core/core.h"
#include "designs/designs.h"
#include "test.h"

TEST(status_names_cover_every_code)
{
    static const struct {
        iron_status s;
        const char *name, *text;
    } table[] = {
        { IRON_OK, "IRON_OK", "success" },
        { IRON_EINVAL, "IRON_EINVAL", "invalid argument" },
        { IRON_ENOMEM, "IRON_ENOMEM", "out of memory" },
        { IRON_EDTYPE, "IRON_EDTYPE", "wrong or unsupported dtype" },
        { IRON_ESHAPE, "IRON_ESHAPE", "wrong or unsupported shape" },
        { IRON_EDEVICE, "IRON_EDEVICE", "unknown or unusable device" },
        { IRON_EPARAM, "IRON_EPARAM", "bad compile-time parameter" },
        { IRON_EARG, "IRON_EARG", "call arguments do not match the design" },
        { IRON_EDESIGN, "IRON_EDESIGN", "malformed design" },
        { IRON_EBOUNDS, "IRON_EBOUNDS", "access pattern goes out of bounds" },
        { IRON_ERESOURCE, "IRON_ERESOURCE", "design does not fit the device" },
        { IRON_ECOMPILE, "IRON_ECOMPILE", "kernel compilation failed" },
        { IRON_ELOAD, "IRON_ELOAD", "loading a compiled object failed" },
        { IRON_EDEADLOCK, "IRON_EDEADLOCK",
          "the design stopped making progress" },
        { IRON_ETIMEOUT, "IRON_ETIMEOUT", "the run did not finish in time" },
        { IRON_ERUNTIME, "IRON_ERUNTIME", "run-time error on the device" },
        { IRON_EIO, "IRON_EIO", "input/output error" },
        { IRON_ESTATE, "IRON_ESTATE", "call not valid in this state" },
        { IRON_ENOTSUP, "IRON_ENOTSUP", "not supported" },
        { IRON_EKERNEL, "IRON_EKERNEL", "a kernel or core body faulted" },
        { IRON_EPENDING, "IRON_EPENDING", "the run is still going on" },
        { IRON_ESYNTAX, "IRON_ESYNTAX", "the text does not parse" },
    };
    ASSERT_EQ(sizeof table / sizeof table[0], IRON_STATUS_COUNT_);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        ASSERT_EQ(table[i].s, i);
        ASSERT_STR_EQ(iron_status_name(table[i].s), table[i].name);
        ASSERT_STR_EQ(iron_status_message(table[i].s), table[i].text);
    }
}

TEST(status_unknown_values)
{
    ASSERT_STR_EQ(iron_status_name(IRON_STATUS_COUNT_), "IRON_UNKNOWN");
    ASSERT_STR_EQ(iron_status_name((iron_status)-1), "IRON_UNKNOWN");
    ASSERT_STR_EQ(iron_status_name((iron_status)1000), "IRON_UNKNOWN");
    ASSERT_STR_EQ(iron_status_message((iron_status)-1), "unknown status");
    ASSERT_STR_EQ(iron_status_message((iron_status)1000), "unknown status");
}

TEST(status_version)
{
    ASSERT_STR_EQ(iron_version(), IRON_VERSION_STRING);
    ASSERT_STR_EQ(IRON_VERSION_STRING, "0.4.0");
}

TEST(status_last_error_starts_empty)
{
    ASSERT_STR_EQ(iron_last_error(), "");
}

TEST(status_last_error_after_failure)
{
    iron_device *d = (iron_device *)&d;
    ASSERT_EQ(iron_device_get("npu9", &d), IRON_EDEVICE);
    ASSERT(d == NULL);
    ASSERT_CONTAINS(iron_last_error(), "unknown device 'npu9'");
    ASSERT_CONTAINS(iron_last_error(), "npu2_7col");

    /* A later failure replaces the message. */
    iron_dtype dt;
    ASSERT_EQ(iron_dtype_parse("complex64", &dt), IRON_EDTYPE);
    ASSERT_CONTAINS(iron_last_error(), "complex64");
    ASSERT(strstr(iron_last_error(), "npu9") == NULL);
}

/* A message longer than the buffer keeps its whole lines and says how
 * many it left out (a deadlock report of many workers was cut mid-word
 * with no marker). */
TEST(status_long_message_keeps_whole_lines)
{
    iron__str s = { 0 };
    for (int i = 0; i < 200; i++)
        iron__str_printf(&s, "%sline %03d says something long enough", i ? "\n" : "", i);
    ASSERT_GT(strlen(iron__str_get(&s)), IRON__MSG_MAX);
    ASSERT_EQ(iron__fail(IRON_EDEADLOCK, "%s", iron__str_get(&s)),
              IRON_EDEADLOCK);
    const char *m = iron_last_error();
    ASSERT_LT(strlen(m), IRON__MSG_MAX);
    const char *note = strstr(m, "\n... and ");
    ASSERT(note != NULL);
    /* Every line before the note is whole, and they are the first ones. */
    int kept = 0;
    for (const char *l = m; l < note; kept++) {
        char want[64];
        snprintf(want, sizeof want, "line %03d says something long enough",
                 kept);
        ASSERT_EQ(strncmp(l, want, strlen(want)), 0);
        l += strlen(want);
        ASSERT(*l == '\n');
        l++;
    }
    char tail[64];
    snprintf(tail, sizeof tail, "\n... and %d more lines", 200 - kept);
    ASSERT_STR_EQ(note, tail);
    /* The context an outer layer puts in front is kept, and the lines it
     * pushes out are counted. */
    ASSERT_EQ(iron__fail_context(IRON_EDEADLOCK, "outer (%s)", "ctx"),
              IRON_EDEADLOCK);
    m = iron_last_error();
    ASSERT_EQ(strncmp(m, "outer (ctx): line 000 ", 22), 0);
    note = strstr(m, "\n... and ");
    ASSERT(note != NULL);
    int left = atoi(note + 9);
    ASSERT_GE(left, 200 - kept);
    ASSERT_EQ(note[-1], 'h');  /* "... enough" */
    iron__str_free(&s);

    /* One line too long is cut between words and says so. */
    for (int i = 0; i < 1000; i++)
        iron__str_append(&s, "word ");
    iron__fail(IRON_EINVAL, "%s", iron__str_get(&s));
    m = iron_last_error();
    size_t n = strlen(m);
    ASSERT_LT(n, IRON__MSG_MAX);
    ASSERT_STR_EQ(m + n - 9, " word ...");
    iron__str_free(&s);
    /* A short message is left alone. */
    iron__fail(IRON_EINVAL, "a\nb");
    ASSERT_STR_EQ(iron_last_error(), "a\nb");
}

static void *other_thread_error(void *arg)
{
    /* The main thread failed; this thread has seen no failure. */
    return strcmp(iron_last_error(), "") == 0 ? NULL : arg;
}

TEST(status_last_error_is_per_thread)
{
    iron_tensor *t;
    ASSERT_EQ(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(0), &t), IRON_ESHAPE);
    ASSERT_CONTAINS(iron_last_error(), "dim 0 is 0");
    pthread_t th;
    static int token;
    void *res = &token;
    ASSERT_EQ(pthread_create(&th, NULL, other_thread_error, &token), 0);
    ASSERT_EQ(pthread_join(th, &res), 0);
    ASSERT(res == NULL);
    ASSERT_CONTAINS(iron_last_error(), "dim 0 is 0");
}

/* A successful call clears the message of the failed one before it: the
 * message always belongs to the last call. */
TEST(status_last_error_cleared_by_success)
{
    iron_device *d;
    ASSERT_EQ(iron_device_get("npu9", &d), IRON_EDEVICE);
    ASSERT_OK(iron_device_get("npu2", &d));
    ASSERT_STR_EQ(iron_last_error(), "");

    iron_dtype dt;
    ASSERT_EQ(iron_dtype_parse("complex64", &dt), IRON_EDTYPE);
    ASSERT_OK(iron_dtype_parse("int16", &dt));
    ASSERT_STR_EQ(iron_last_error(), "");

    iron_tensor *t;
    ASSERT_EQ(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(0), &t), IRON_ESHAPE);
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4), &t));
    ASSERT_STR_EQ(iron_last_error(), "");
    iron_tensor_free(t);

    ASSERT_EQ(iron_device_set_default("tpu"), IRON_EDEVICE);
    ASSERT_OK(iron_device_set_default(NULL));
    ASSERT_STR_EQ(iron_last_error(), "");

    iron_jit *j;
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    ASSERT_EQ(iron_jit_create(NULL, &o, &j), IRON_EINVAL);
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    ASSERT_STR_EQ(iron_last_error(), "");

    /* A failed call of a jit, then a good one (cold, then warm). */
    iron_tensor *a = test_arange(IRON_INT32, 64);
    iron_tensor *b = test_arange(IRON_INT32, 64);
    iron_tensor *c = test_zeros(IRON_INT32, 64);
    ASSERT_EQ(IRON_CALL(j, a, b), IRON_EARG);
    ASSERT(iron_last_error()[0] != '\0');
    ASSERT_OK(IRON_CALL(j, a, b, c));
    ASSERT_STR_EQ(iron_last_error(), "");
    ASSERT_EQ(IRON_CALL(j, a, b), IRON_EARG);
    ASSERT_OK(IRON_CALL(j, a, b, c));
    ASSERT_STR_EQ(iron_last_error(), "");

    /* The direct path of a specialization. */
    iron_spec *sp;
    ASSERT_OK(iron_jit_specialize(j, NULL, IRON_NO_PARAMS,
                                  IRON_TENSORS(a, b, c), &sp));
    ASSERT_EQ(iron_spec_launch(sp, IRON_NO_SCALARS, IRON_TENSORS(a, b)),
              IRON_EARG);
    ASSERT_OK(iron_spec_launch(sp, IRON_NO_SCALARS, IRON_TENSORS(a, b, c)));
    ASSERT_STR_EQ(iron_last_error(), "");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

static char cache_lines[4096];

static void keep_cache_lines(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    if (strcmp(topic, "cache") == 0 &&
        strlen(cache_lines) + strlen(line) + 2 < sizeof cache_lines) {
        strcat(cache_lines, line);
        strcat(cache_lines, "\n");
    }
}

/* A cold call whose disk-cache lookup misses compiles and succeeds: the
 * miss is in the log (cache topic), never the error text.  So with
 * iron_jit_specialize, and with a hit by a second jit. */
TEST(status_last_error_empty_after_disk_cache_miss)
{
    char *dir = test_cache_temp_dir("status", "miss");
    iron_log_set_handler(keep_cache_lines, NULL);
    iron_jit_options o = vector_op_options;
    o.disk_cache = 1;
    o.cache_dir = dir;
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    iron_tensor *a = test_arange(IRON_INT32, 64);
    iron_tensor *b = test_arange(IRON_INT32, 64);
    iron_tensor *c = test_zeros(IRON_INT32, 64);
    ASSERT_OK(IRON_CALL(j, a, b, c));
    ASSERT_STR_EQ(iron_last_error(), "");
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.disk_misses, 1);
    ASSERT_CONTAINS(cache_lines, "miss");
    ASSERT_CONTAINS(cache_lines, "absent");

    /* Another signature, built ahead of its first call. */
    iron_tensor *a2 = test_arange(IRON_INT32, 128);
    iron_tensor *b2 = test_arange(IRON_INT32, 128);
    iron_tensor *c2 = test_zeros(IRON_INT32, 128);
    iron_spec *sp;
    ASSERT_OK(iron_jit_specialize(j, NULL, IRON_NO_PARAMS,
                                  IRON_TENSORS(a2, b2, c2), &sp));
    ASSERT_STR_EQ(iron_last_error(), "");

    /* A second jit finds the entry. */
    iron_jit *j2;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j2));
    ASSERT_OK(IRON_CALL(j2, a, b, c));
    ASSERT_STR_EQ(iron_last_error(), "");
    ASSERT_OK(iron_jit_get_stats(j2, &st));
    ASSERT_EQ(st.disk_hits, 1);
    iron_log_set_handler(NULL, NULL);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(a2);
    iron_tensor_free(b2);
    iron_tensor_free(c2);
    iron_jit_free(j);
    iron_jit_free(j2);
    test_drop_dir(dir);
}

/* Every public function returning a status clears the thread's last error
 * when it succeeds: its body goes through iron__public_result (only
 * iron_design_fail, which records a failure, is exempt).  Read from the
 * sources, so that a new function cannot forget it. */
TEST(status_every_public_function_clears_on_success)
{
    FILE *ls = popen("ls src/*/*.c", "r");
    ASSERT(ls != NULL);
    char path[256];
    int functions = 0;
    while (fgets(path, sizeof path, ls)) {
        path[strcspn(path, "\n")] = '\0';
        char *text = (char *)test_slurp(path, NULL);
        ASSERT(text != NULL);
        const char *p = text;
        while ((p = strstr(p, "IRON_API iron_status ")) != NULL) {
            const char *name = p + strlen("IRON_API iron_status ");
            const char *open = strchr(p, '{');
            const char *semi = strchr(p, ';');
            p = name;
            if (!open || (semi && semi < open))
                continue;           /* a declaration */
            int depth = 0;
            const char *q = open;
            do {
                depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
                q++;
            } while (depth > 0 && *q);
            char fn[96];
            snprintf(fn, sizeof fn, "%.*s", (int)strcspn(name, "( \n"),
                     name);
            functions++;
            /* iron_device_pop leaves the message alone on success (it
             * ends IRON_WITH_DEVICE blocks; see below). */
            if (strcmp(fn, "iron_design_fail") == 0 ||
                strcmp(fn, "iron_device_pop") == 0)
                continue;
            const char *hit = strstr(open, "iron__public_result");
            if (!hit || hit > q)
                TEST_FAIL_("%s: %s does not clear the last error on success "
                           "(return through iron__public_result)", path, fn);
        }
        free(text);
    }
    pclose(ls);
    ASSERT_GT(functions, 80);
}

/* IRON_WITH_DEVICE pops its device at the block's end; the message of the
 * failing call inside the block survives it (the pop used to clear it). */
TEST(status_message_survives_device_scope)
{
    iron_jit *j = NULL;
    ASSERT_OK(iron_jit_create(vector_op_design, &vector_op_options, &j));
    iron_tensor *a = test_zeros(IRON_INT32, 64), *b = test_zeros(IRON_INT32, 64),
                *c = test_zeros(IRON_INT32, 64);
    iron_status s = IRON_OK;
    IRON_WITH_DEVICE("npu3") { s = IRON_CALL(j, a, b, c); }
    ASSERT_EQ(s, IRON_EDEVICE);
    ASSERT_CONTAINS(iron_last_error(), "scoped device 'npu3' is unknown");
    /* A pop with nothing to pop still fails, with its own message. */
    ASSERT_EQ(iron_device_pop(), IRON_ESTATE);
    ASSERT_CONTAINS(iron_last_error(), "no device scope is open");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* The functions the header lists as leaving the message untouched. */
TEST(status_message_left_by_names_and_destructors)
{
    iron_device *d = NULL;
    iron_tensor *t = test_zeros(IRON_INT32, 8);
    iron_jit *j = NULL;
    ASSERT_OK(iron_jit_create(vector_op_design, &vector_op_options, &j));
    char *text = malloc(4);
    ASSERT_EQ(iron_device_get("npu9", &d), IRON_EDEVICE);
    char want[1024];
    snprintf(want, sizeof want, "%s", iron_last_error());
    ASSERT(want[0] != '\0');
    (void)iron_status_name(IRON_EINVAL);
    (void)iron_status_message(IRON_EINVAL);
    (void)iron_run_state_name(IRON_RUN_ERROR);
    (void)iron_dtype_name(IRON_INT32);
    (void)iron_version();
    ASSERT_OK(iron_device_push("npu2"));
    ASSERT_STR_EQ(iron_last_error(), "");   /* push is an ordinary call */
    ASSERT_EQ(iron_device_get("npu9", &d), IRON_EDEVICE);
    ASSERT_OK(iron_device_pop());
    ASSERT_STR_EQ(iron_last_error(), want);
    iron_tensor_free(t);
    iron_jit_free(j);
    iron_run_free(NULL);
    iron_mlir_free(NULL);
    iron_free(text);
    ASSERT_STR_EQ(iron_last_error(), want);
}
