/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * runner.c - runs the registered tests, each in a forked child with an
 * alarm as its time limit, several at once, and closes with "N passed, N
 * failed in S s".
 * Usage: iron-tests [-j JOBS] [NAME-OR-PREFIX ...]   (no name runs all)
 *        iron-tests --list [NAME-OR-PREFIX ...]   (names, files, limits)
 *
 * JOBS (else $IRON_TEST_JOBS, else the number of online CPUs) children
 * run at a time.  Each child's stdout and stderr go to a file of its own,
 * printed in one piece with its ok/FAIL line when it ends, so the log
 * never interleaves.  The longest tests start first (their times from the
 * last run, kept in $IRON_TEST_TIMES; a test not timed yet counts as long
 * as its time limit), so that none starts last and holds up the end.
 * Tests marked TEST_ALONE run first, one by one, with nothing beside
 * them.  -j 1 runs everything one at a time in file order with the
 * output going straight through, as a debugging session wants (and as
 * for a test run alone).
 */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/env.h"
#include "test.h"

#define MAX_TESTS 2048

static struct {
    const char *name, *file, *alone;
    test_fn fn;
    int timeout_s;
    double cost_ms;   /* expected time: the last run's, else the limit */
    int timed;        /* cost_ms is a time read from the last run */
    double ms;        /* this run's time (< 0: not run) */
    int failed;
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
                   int timeout_s, const char *alone)
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "too many tests (raise MAX_TESTS)\n");
        _Exit(2);
    }
    tests[ntests].name = name;
    tests[ntests].file = file;
    tests[ntests].fn = fn;
    tests[ntests].timeout_s = timeout_s;
    tests[ntests].alone = alone;
    tests[ntests].cost_ms = timeout_s * 1e3;
    tests[ntests].ms = -1;
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

/* Indexes into tests[], longest expected first; ties in file order. */
static int cmp_cost(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (tests[i].cost_ms != tests[j].cost_ms)
        return tests[i].cost_ms > tests[j].cost_ms ? -1 : 1;
    return i - j;
}

static int selected(const char *name, int nnames, char **names)
{
    if (nnames == 0)
        return 1;
    for (int i = 0; i < nnames; i++)
        if (strncmp(name, names[i], strlen(names[i])) == 0)
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
 * (every variable of the library's table) do not reach them, and the
 * disk cache lives in a folder made for this run and removed at its end
 * -- whatever IRON_CACHE_DIR the user has, even one that does not exist.
 * IRON_CC and IRON_CXX stay: which compilers work is the machine's business.  The
 * one folder serves every test of the run, those running at the same
 * time included. */
static char cache_dir[64];

static void private_environment(void)
{
    for (int i = 0; i < IRON__ENV_COUNT; i++)
        if (i != IRON__ENV_CC && i != IRON__ENV_CXX)
            unsetenv(iron__env_var_of((iron__env_id)i)->name);
    /* On, in the run's own folder: every test that compiles a kernel
     * another test compiled already loads it from there, as a user's
     * processes would.  Tests that count compiles turn it off
     * (test_in_memory), those about the cache use folders of their own. */
    setenv("IRON_CACHE", "1", 1);
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

/* ---- the times of the last run ($IRON_TEST_TIMES: "name<TAB>ms" lines) */

static int find_test(const char *name)
{
    for (int i = 0; i < ntests; i++)
        if (strcmp(tests[i].name, name) == 0)
            return i;
    return -1;
}

static void read_times(const char *path)
{
    FILE *f = path && *path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[256], name[200];
    double ms;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%199[^\t]\t%lf", name, &ms) == 2 && ms >= 0) {
            int i = find_test(name);
            if (i >= 0) {
                tests[i].cost_ms = ms;
                tests[i].timed = 1;
            }
        }
    fclose(f);
}

/* Every test's time: this run's if it passed, else the one read before.
 * Written whole, then renamed. */
static void write_times(const char *path)
{
    if (!path || !*path)
        return;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    for (int i = 0; i < ntests; i++) {
        if (tests[i].ms >= 0 && !tests[i].failed)
            fprintf(f, "%s\t%.1f\n", tests[i].name, tests[i].ms);
        else if (tests[i].timed)
            fprintf(f, "%s\t%.1f\n", tests[i].name, tests[i].cost_ms);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        remove(tmp);
}

/* ---- running the children --------------------------------------------- */

static sigset_t parent_mask;   /* the mask children get back */
static int capture;            /* 0: output goes straight through */

typedef struct slot {
    pid_t pid;
    int test, out;             /* out: the child's output file, or -1 */
    double t0;
} slot;

static int passed, failed;
static slot *slots;            /* the running children, jobs of them */
static int nslots;

/* A passing test's output up to this many lines is shown whole; past it,
 * the first lines and a count.  A failing test's is shown whole. */
enum { SHOW_LINES = 40 };

static void show_output(int fd, int whole)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0)
        return;
    size_t n = (size_t)st.st_size;
    char *buf = malloc(n + 1);
    if (!buf)
        return;
    ssize_t got = pread(fd, buf, n, 0);
    n = got > 0 ? (size_t)got : 0;
    buf[n] = '\0';
    size_t cut = n;
    int lines = 0, more = 0;
    for (size_t k = 0; k < n; k++)
        if (buf[k] == '\n' && ++lines == SHOW_LINES && !whole)
            cut = k + 1;
    if (cut < n)
        for (size_t k = cut; k < n; k++)
            more += buf[k] == '\n';
    fwrite(buf, 1, cut, stdout);
    if (cut > 0 && buf[cut - 1] != '\n')
        fputc('\n', stdout);
    if (cut < n)
        printf("  ... %d more lines of output (run this test alone to see "
               "them all)\n", more ? more : 1);
    free(buf);
}

static void start(slot *s, int t)
{
    int out = -1;
    if (capture) {
        out = memfd_create("iron-test-output", MFD_CLOEXEC);
        if (out < 0) {
            perror("runner: memfd_create");
            exit(2);
        }
    }
    fflush(stdout);
    fflush(stderr);
    s->test = t;
    s->out = out;
    s->t0 = now_s();
    s->pid = fork();
    if (s->pid < 0) {
        perror("fork");
        exit(2);
    }
    if (s->pid == 0) {
        sigprocmask(SIG_SETMASK, &parent_mask, NULL);
        for (int k = 0; k < nslots; k++)   /* the other tests' output */
            if (slots[k].pid > 0 && slots[k].out >= 0)
                close(slots[k].out);
        if (out >= 0) {
            dup2(out, STDOUT_FILENO);
            dup2(out, STDERR_FILENO);
            close(out);
        }
        /* As on a terminal: what was printed before a failure (which ends
         * the child at once) is kept, in order with stderr.  A buffer of
         * its own: glibc ignores the mode of a stream already used (by the
         * runner) when given none. */
        static char line_buf[BUFSIZ];
        setvbuf(stdout, line_buf, _IOLBF, sizeof line_buf);
        alarm((unsigned)tests[t].timeout_s);
        tests[t].fn();
        fflush(stdout);
        /* _Exit skips LeakSanitizer's exit-time check: run it here. */
        if (test_leaks())
            _Exit(1);
        _Exit(0);
    }
}

/* The child in s ended with status st (killed: the runner killed it). */
static void finish(slot *s, int st, int killed)
{
    int t = s->test;
    double ms = (now_s() - s->t0) * 1e3;
    int ok = !killed && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    show_output(s->out, !ok);
    if (s->out >= 0)
        close(s->out);
    s->pid = 0;
    tests[t].ms = ms;
    if (ok) {
        passed++;
        printf("ok   %-48s %8.1f ms\n", tests[t].name, ms);
    } else {
        failed++;
        tests[t].failed = 1;
        if (killed || (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM))
            printf("FAIL %-48s timed out after %d s\n", tests[t].name,
                   tests[t].timeout_s);
        else if (WIFSIGNALED(st))
            printf("FAIL %-48s killed by signal %d\n", tests[t].name,
                   WTERMSIG(st));
        else
            printf("FAIL %-48s (%s)\n", tests[t].name, tests[t].file);
    }
    fflush(stdout);
}

/* Runs the n tests of order[], at most jobs at a time, in that order. */
static void run_all(const int *order, int n, int jobs)
{
    slots = calloc((size_t)jobs, sizeof *slots);
    nslots = jobs;
    if (!slots) {
        perror("runner");
        exit(2);
    }
    int next = 0, running = 0;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    while (next < n || running > 0) {
        for (int k = 0; k < jobs && next < n; k++)
            if (slots[k].pid == 0) {
                start(&slots[k], order[next++]);
                running++;
            }
        int st, reaped = 0;
        pid_t pid;
        while (running > 0 && (pid = waitpid(-1, &st, WNOHANG)) > 0)
            for (int k = 0; k < jobs; k++)
                if (slots[k].pid == pid) {
                    finish(&slots[k], st, 0);
                    running--;
                    reaped++;
                }
        if (reaped || running == 0)
            continue;
        /* A child's alarm ends it; should the test have blocked or
         * caught SIGALRM, it is killed 10 s later. */
        double now = now_s();
        for (int k = 0; k < jobs; k++)
            if (slots[k].pid > 0 &&
                now - slots[k].t0 > tests[slots[k].test].timeout_s + 10) {
                kill(slots[k].pid, SIGKILL);
                while (waitpid(slots[k].pid, &st, 0) < 0 && errno == EINTR)
                    ;
                finish(&slots[k], st, 1);
                running--;
            }
        struct timespec wait = { 1, 0 };
        sigtimedwait(&chld, NULL, &wait);
    }
    free(slots);
    slots = NULL;
    nslots = 0;
}

#if TEST_UNDER_TSAN
/* ThreadSanitizer reports a race and lets the process go on, to fail it
 * with exit status 66 at exit -- which the child's _Exit skips.  Halting
 * at the first report fails the test that made it, the report above its
 * FAIL line.  $TSAN_OPTIONS still wins. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
    return "halt_on_error=1";
}
#endif

static int jobs_from(const char *text, const char *from)
{
    char *end;
    long j = strtol(text, &end, 10);
    if (end == text || *end || j < 1 || j > 1024) {
        fprintf(stderr, "runner: %s is '%s'; expected a number of jobs "
                        "from 1 to 1024\n", from, text);
        exit(2);
    }
    return (int)j;
}

int main(int argc, char **argv)
{
    double t0 = now_s();
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = cpus > 0 ? (int)cpus : 1;
    const char *env_jobs = getenv("IRON_TEST_JOBS");
    if (env_jobs && *env_jobs)
        jobs = jobs_from(env_jobs, "IRON_TEST_JOBS");
    char **names = calloc((size_t)argc, sizeof *names);
    int nnames = 0, list = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0)
            list = 1;
        else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc)
            jobs = jobs_from(argv[++i], "-j");
        else if (strncmp(argv[i], "-j", 2) == 0 && argv[i][2])
            jobs = jobs_from(argv[i] + 2, "-j");
        else
            names[nnames++] = argv[i];
    }
    qsort(tests, (size_t)ntests, sizeof tests[0], cmp_test);
    if (list) {
        for (int i = 0; i < ntests; i++)
            if (selected(tests[i].name, nnames, names))
                printf("%-56s %-36s %4d s%s%s\n", tests[i].name,
                       tests[i].file, tests[i].timeout_s,
                       tests[i].alone ? "  alone: " : "",
                       tests[i].alone ? tests[i].alone : "");
        free(names);
        return 0;
    }
    const char *times = getenv("IRON_TEST_TIMES");
    private_environment();
    read_times(times);

    /* The selected tests: skipped ones reported now; with one job all in
     * file order, else those that run alone first, then the rest
     * longest first. */
    int *order = malloc((size_t)(ntests + 1) * sizeof *order);
    int n = 0, nalone = 0, skipped = 0;
    for (int i = 0; i < ntests; i++) {
        if (!selected(tests[i].name, nnames, names))
            continue;
        const char *why = skip_reason(tests[i].file);
        if (why) {
            skipped++;
            printf("skip %-48s %s\n", tests[i].name, why);
            continue;
        }
        order[n++] = i;
    }
    if (jobs > 1) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (tests[order[i]].alone) {
                int t = order[i];
                memmove(order + k + 1, order + k,
                        (size_t)(i - k) * sizeof *order);
                order[k++] = t;
            }
        nalone = k;
        qsort(order + nalone, (size_t)(n - nalone), sizeof *order,
              cmp_cost);
    }
    capture = jobs > 1 && n > 1;
    if (jobs > 1 && n > 1)
        printf("running %d tests, %d at a time (%d of them alone)\n", n,
               jobs, nalone);
    fflush(stdout);

    /* Children are reaped as they end: SIGCHLD wakes the runner. */
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &parent_mask);
    run_all(order, nalone, 1);
    run_all(order + nalone, n - nalone, jobs);
    sigprocmask(SIG_SETMASK, &parent_mask, NULL);

    remove_private_cache();
    if (n > 0)
        write_times(times);
    if (failed) {
        printf("failed:");
        for (int i = 0; i < ntests; i++)
            if (tests[i].failed)
                printf(" %s", tests[i].name);
        printf("\n");
    }
    double wall = now_s() - t0;
    if (skipped)
        printf("%d passed, %d failed, %d skipped in %.1f s\n", passed, failed,
               skipped, wall);
    else
        printf("%d passed, %d failed in %.1f s\n", passed, failed, wall);
    free(order);
    free(names);
    return failed ? 1 : 0;
}
