/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * support.c - helpers shared by the tests: the leak check a forked test
 * child must run itself, keeping a failed call's message, counters, and a
 * zeroed tensor, private temporary folders, reading and writing whole
 * files, the clock, running the `iron` command.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

#include "test.h"

#if defined(__SANITIZE_ADDRESS__)
#define SUPPORT_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SUPPORT_LSAN 1
#endif
#endif
#ifdef SUPPORT_LSAN
#include <sanitizer/lsan_interface.h>
#endif

char test_errmsg[8192];

int test_leaks(void)
{
#ifdef SUPPORT_LSAN
    return __lsan_do_recoverable_leak_check();
#else
    return 0;
#endif
}

void test_assert_no_leaks(void)
{
    ASSERT_EQ(test_leaks(), 0);
}

/* A failure whose message is already gone was kept by a helper that
 * made more calls after it (a successful call clears the message): the
 * helper's copy stays. */
iron_status test_keep(iron_status s)
{
    if (s != IRON_OK && iron_last_error()[0] == '\0')
        return s;
    snprintf(test_errmsg, sizeof test_errmsg, "%s",
             s == IRON_OK ? "" : iron_last_error());
    return s;
}

iron_jit_stats test_stats(const iron_jit *j)
{
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    return st;
}

iron_tensor *test_zeros(iron_dtype dt, int64_t n)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_zeros(dt, IRON_SHAPE(n), &t));
    return t;
}

iron_tensor *test_arange(iron_dtype dt, int64_t n)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_arange(dt, 0, n, 1, &t));
    return t;
}

iron_tensor *test_arange_shape(iron_dtype dt, iron_shape s, double start,
                               double step)
{
    int64_t n = 1;
    for (int k = 0; k < s.ndim; k++)
        n *= s.dims[k];
    /* A stop half a step short of the next element, so that the count is
     * n however the division rounds (numpy's rule: ceil((stop - start) /
     * step)). */
    iron_tensor *flat = NULL, *t = NULL;
    ASSERT_OK(iron_tensor_arange(dt, start, start + ((double)n - 0.5) * step,
                                 step, &flat));
    ASSERT_OK(iron_tensor_reshape(flat, s, &t));
    iron_tensor_free(flat);
    return t;
}

double test_at(const iron_tensor *t, int64_t i)
{
    double v = 0;
    ASSERT_OK(iron_tensor_get_element(t, i, &v));
    return v;
}

iron_jit *test_jit(iron_design_fn fn, const char *name, const char *args)
{
    iron_jit *j = NULL;
    iron_jit_options o = { .size = sizeof o, .name = name, .args = args };
    ASSERT_OK(iron_jit_create(fn, &o, &j));
    return j;
}

iron_status test_launch(iron_jit *j, int cols, int nargs,
                        iron_tensor *const *args)
{
    iron_launch_config c = { .size = sizeof c, .cols = cols,
                             .timeout_ms = 5000 };
    return test_keep(iron_jit_launch(j, &c, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                     nargs, args));
}

char *test_dump(iron_jit *j, int cols, int nargs, iron_tensor *const *args)
{
    char *text = NULL;
    iron_launch_config c = { .size = sizeof c, .cols = cols };
    ASSERT_OK(iron_jit_dump(j, &c, IRON_NO_PARAMS, nargs, args, &text));
    return text;
}

iron_jit *test_new_jit(iron_design_fn fn, const iron_jit_options *o)
{
    iron_jit *j = NULL;
    ASSERT_OK(iron_jit_create(fn, o, &j));
    return j;
}

iron_jit_options test_in_memory(const iron_jit_options *o)
{
    iron_jit_options m = *o;
    m.disk_cache = -1;
    return m;
}

iron_tensor *test_zeros_shape(iron_dtype dt, iron_shape s)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_zeros(dt, s, &t));
    return t;
}

iron_tensor *test_randint(iron_dtype dt, iron_shape s, int64_t lo,
                          int64_t hi, uint64_t seed)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_randint(dt, s, lo, hi, seed, &t));
    return t;
}

const char *test_temp_dir(const char *tag)
{
    static char dir[128];
    snprintf(dir, sizeof dir, "/tmp/iron-test-%s-XXXXXX", tag);
    ASSERT(mkdtemp(dir) != NULL);
    return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void test_remove_dir(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

unsigned char *test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        TEST_FAIL_("cannot open %s: %s", path, strerror(errno));
    ASSERT_EQ(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ASSERT(n >= 0);
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    ASSERT(buf != NULL);
    ASSERT_EQ(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = '\0';          /* text files read as strings */
    if (len)
        *len = (size_t)n;
    return buf;
}

void test_spit(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        TEST_FAIL_("cannot create %s: %s", path, strerror(errno));
    if (len)
        ASSERT_EQ(fwrite(buf, 1, len, f), len);
    ASSERT_EQ(fclose(f), 0);
}

double test_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

char *test_cache_temp_dir(const char *prefix, const char *tag)
{
    const char *base = getenv("IRON_CACHE_DIR");
    char *p = malloc(512);
    ASSERT(p != NULL);
    snprintf(p, 512, "%s/%s-%s-XXXXXX", base && *base ? base : "/tmp",
             prefix, tag);
    ASSERT(mkdtemp(p) != NULL);
    return p;
}

void test_drop_dir(char *dir)
{
    test_remove_dir(dir);
    free(dir);
}

int test_count_files(const char *dir)
{
    DIR *d = opendir(dir);
    ASSERT(d != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

char test_warning[2048];

static void keep_warning(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    if (strcmp(topic, "warning") == 0)
        snprintf(test_warning, sizeof test_warning, "%s", line);
}

void test_catch_warnings(void)
{
    test_warning[0] = '\0';
    iron_log_set_handler(keep_warning, NULL);
}

static void *run_slow_call(void *arg)
{
    test_slow_call *sc = arg;
    atomic_store(&sc->started, 1);
    sc->status = IRON_CALL(sc->j, sc->a, sc->b, sc->c);
    return NULL;
}

void test_slow_call_start(test_slow_call *sc, pthread_t *th)
{
    atomic_store(&sc->started, 0);
    ASSERT_EQ(pthread_create(th, NULL, run_slow_call, sc), 0);
    while (!atomic_load(&sc->started))
        ;
}

static atomic_int wait_lines;

static void count_wait_line(const char *topic, const char *line, void *ctx)
{
    (void)topic, (void)ctx;
    if (strstr(line, "is used by a running call; waiting"))
        atomic_fetch_add(&wait_lines, 1);
}

void test_count_wait_lines(void)
{
    atomic_store(&wait_lines, 0);
    iron_log_set_handler(count_wait_line, NULL);
}

int test_wait_lines(void)
{
    return atomic_load(&wait_lines);
}

void test_child_exits_ok(pid_t pid)
{
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status))
        TEST_FAIL_("the child was killed by signal %d (a hang ends with "
                   "SIGALRM = %d)", WTERMSIG(status), SIGALRM);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
}

int test_run_cli(const char *args, int keep_stderr, char *out, size_t len)
{
    const char *cli = getenv("IRON_CLI");
    if (!cli || !cli[0])
        TEST_FAIL_("IRON_CLI is not set (run through `make test`)");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s %s", cli, args,
             keep_stderr ? "2>&1" : "2>/dev/null");
    return test_run_shell(cmd, out, len);
}

int test_run_shell(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        TEST_FAIL_("popen(%s) failed", cmd);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (st == -1 || !WIFEXITED(st))
        TEST_FAIL_("%s did not exit normally (status %d)", cmd, st);
    return WEXITSTATUS(st);
}

int test_variant_built(const char *env, const char *variant)
{
    const char *built = getenv(env);
    if (!built)
        TEST_FAIL_("%s is not set (run through `make test`)", env);
    size_t len = strlen(variant);
    for (const char *p = strstr(built, variant); p; p = strstr(p + 1, variant))
        if ((p == built || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return 1;
    if (strncmp(variant, "clang++", 7) == 0) {
        printf("clang++ is not installed: nothing to check\n");
        return 0;
    }
    TEST_FAIL_("%s was not built (%s = \"%s\")", variant, env, built);
}

const iron_device_info *test_npu2_info(void)
{
    static iron_device_info info;
    iron_device *dev;
    info.size = sizeof info;
    if (iron_device_get("npu2", &dev) != IRON_OK ||
        iron_device_get_info(dev, &info) != IRON_OK)
        TEST_FAIL_("npu2: %s", iron_last_error());
    return &info;
}
