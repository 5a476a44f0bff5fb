/*
 * runner.c - runs the registered tests, each in a forked child with an
 * alarm as its time limit, and closes with "N passed, N failed".
 * Usage: iron-tests [NAME-OR-PREFIX ...]   (no argument runs all)
 */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/env.h"
#include "test.h"

#define MAX_TESTS 2048

static struct {
    const char *name, *file;
    test_fn fn;
    int timeout_s;
} tests[MAX_TESTS];
static int ntests;

static struct {
    const char *file, *reason;
} skips[16];
static int nskips;

void test_skip_file(const char *file, const char *reason)
{
    if (nskips < (int)(sizeof skips / sizeof skips[0])) {
        skips[nskips].file = file;
        skips[nskips].reason = reason;
        nskips++;
    }
}

static const char *skip_reason(const char *file)
{
    for (int i = 0; i < nskips; i++)
        if (strcmp(skips[i].file, file) == 0)
            return skips[i].reason;
    return NULL;
}

void test_register(const char *name, const char *file, test_fn fn,
                   int timeout_s)
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "too many tests (raise MAX_TESTS)\n");
        _Exit(2);
    }
    tests[ntests].name = name;
    tests[ntests].file = file;
    tests[ntests].fn = fn;
    tests[ntests].timeout_s = timeout_s;
    ntests++;
}

static int cmp_test(const void *a, const void *b)
{
    const char *fa = ((const __typeof__(tests[0]) *)a)->file;
    const char *fb = ((const __typeof__(tests[0]) *)b)->file;
    int c = strcmp(fa, fb);
    return c ? c : strcmp(((const __typeof__(tests[0]) *)a)->name,
                          ((const __typeof__(tests[0]) *)b)->name);
}

static int selected(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strncmp(name, argv[i], strlen(argv[i])) == 0)
            return 1;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Tests run in an environment of their own: the user's IRON_* settings
 * (every variable of the library's table) do not reach them, the disk
 * cache is off unless a test turns it on, and then it lives in a folder
 * made for this run and removed at its end -- whatever IRON_CACHE_DIR the
 * user has, even one that does not exist.  IRON_CC stays: which compiler
 * works is the machine's business. */
static char cache_dir[64];

static void private_environment(void)
{
    for (int i = 0; i < IRON__ENV_COUNT; i++)
        if (i != IRON__ENV_CC)
            unsetenv(iron__env_var_of((iron__env_id)i)->name);
    setenv("IRON_CACHE", "0", 1);
    snprintf(cache_dir, sizeof cache_dir, "/tmp/iron-tests-cache-XXXXXX");
    if (!mkdtemp(cache_dir)) {
        perror("runner: cannot make the tests' cache folder in /tmp");
        exit(2);
    }
    setenv("IRON_CACHE_DIR", cache_dir, 1);
}

static void remove_private_cache(void)
{
    if (!cache_dir[0])
        return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "runner: could not remove %s\n", cache_dir);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0;
    private_environment();
    qsort(tests, (size_t)ntests, sizeof tests[0], cmp_test);
    for (int i = 0; i < ntests; i++) {
        if (!selected(tests[i].name, argc, argv))
            continue;
        const char *why = skip_reason(tests[i].file);
        if (why) {
            skipped++;
            printf("skip %-48s %s\n", tests[i].name, why);
            continue;
        }
        fflush(stdout);
        double t0 = now_s();
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        if (pid == 0) {
            alarm((unsigned)tests[i].timeout_s);
            tests[i].fn();
            fflush(stdout);
            /* _Exit skips LeakSanitizer's exit-time check: run it here. */
            if (test_leaks())
                _Exit(1);
            _Exit(0);
        }
        int st = 0;
        while (waitpid(pid, &st, 0) < 0)
            ;
        double ms = (now_s() - t0) * 1e3;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            passed++;
            printf("ok   %-48s %8.1f ms\n", tests[i].name, ms);
        } else {
            failed++;
            if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
                printf("FAIL %-48s timed out after %d s\n", tests[i].name,
                       tests[i].timeout_s);
            else if (WIFSIGNALED(st))
                printf("FAIL %-48s killed by signal %d\n", tests[i].name,
                       WTERMSIG(st));
            else
                printf("FAIL %-48s (%s)\n", tests[i].name, tests[i].file);
        }
    }
    remove_private_cache();
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
