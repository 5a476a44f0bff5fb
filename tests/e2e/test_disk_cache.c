/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_disk_cache.c - the jit's disk cache and ahead-of-time artifacts,
 * end to end.  Every jit call that should find (or miss) something on disk
 * runs in a forked child: a new process with a fresh jit and nothing in
 * memory, which reports its counters, each call's status and element-by-
 * element check, and the log lines it captured (iron_log_set_handler) back
 * through a pipe.  The test process itself never launches a design, so
 * that no emulator thread exists when it forks.
 *
 * Folders: each test makes its own under the runner's private cache folder
 * ($IRON_CACHE_DIR, which the runner removes even when a test fails) and
 * removes them when it passes.  A child that wants the cache sets
 * options.disk_cache = 1 and its folder, whatever the environment says.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "cache/entry.h"
#include "designs/designs.h"
#include "test.h"


/* ---- folders and files ------------------------------------------------- */

/* A fresh folder under the runner's private cache folder. */
/* Files in a folder (anything but . and ..); *temps counts the cache's
 * temporary files ("<key>.tmp.<...>").  -1 when it does not exist. */
static int count_files(const char *dir, int *temps)
{
    DIR *d = opendir(dir);
    if (temps)
        *temps = 0;
    if (!d)
        return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        n++;
        if (temps && strstr(de->d_name, IRON__CACHE_TMP_INFIX))
            (*temps)++;
    }
    closedir(d);
    return n;
}

static void spit_text(const char *path, const char *text)
{
    test_spit(path, text, strlen(text));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Recomputes the header checksum after patching header bytes by hand. */
static void fix_header_sum(unsigned char *buf)
{
    put_u64(buf + IRON__CACHE_OFF_HEADER_SUM,
            XXH3_64bits(buf, IRON__CACHE_OFF_HEADER_SUM));
}

/* ---- listing the cache -------------------------------------------------- */

#define LIST_MAX 64

typedef struct listing {
    int n;
    iron_cache_entry_info e[LIST_MAX];
} listing;

static void collect(const iron_cache_entry_info *e, void *ctx)
{
    listing *l = ctx;
    if (l->n < LIST_MAX)
        l->e[l->n++] = *e;
}

static listing *list_dir(const char *dir)
{
    listing *l = calloc(1, sizeof *l);
    ASSERT(l != NULL);
    ASSERT_OK(iron_cache_list(dir, collect, l));
    return l;
}

/* The one entry whose signature contains both needles (NULL: none). */
static const iron_cache_entry_info *entry_with(const listing *l,
                                               const char *n1,
                                               const char *n2)
{
    const iron_cache_entry_info *found = NULL;
    for (int i = 0; i < l->n; i++)
        if (strstr(l->e[i].signature, n1) &&
            (!n2 || strstr(l->e[i].signature, n2))) {
            if (found)
                TEST_FAIL_("two entries match \"%s\" \"%s\": %s and %s", n1,
                           n2 ? n2 : "", found->signature,
                           l->e[i].signature);
            found = &l->e[i];
        }
    return found;
}

static uint64_t entry_count(const char *dir)
{
    uint64_t n = 0, bytes = 0;
    ASSERT_OK(iron_cache_get_usage(dir, &n, &bytes));
    return n;
}

/* The path of the folder's only entry file. */
static char *only_entry(const char *dir)
{
    listing *l = list_dir(dir);
    if (l->n != 1)
        TEST_FAIL_("%s holds %d entries, expected 1", dir, l->n);
    char *p = malloc(1024);
    ASSERT(p != NULL);
    snprintf(p, 1024, "%s/%s%s", dir, l->e[0].key, IRON__CACHE_SUFFIX);
    free(l);
    return p;
}

/* ---- a design whose kernel includes a header ---------------------------- */

static const char addk_src[] =
    "#include <stdint.h>\n"
    "#include \"iron_test_k.h\"\n"
    "void addk(const int32_t *a, int32_t *c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = a[i] + IRON_TEST_K;\n"
    "}\n";

static int addk_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    const int64_t tile = 16;
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_kernel *k = iron_kernel_new(d, "addk", addk_src,
                                     "int32*, int32*, int32");
    iron_worker *w = iron_worker_new(
        d, "addk", k, n / tile,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                  iron_arg_fifo(iron_fifo_prod(c)), iron_arg_int(tile)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static const iron_jit_options addk_options = {
    .size = sizeof(iron_jit_options),
    .name = "addk",
    .args = "in a: int32[N], out c: int32[N]",
};

/* ---- children ----------------------------------------------------------- */

#define MAX_CALLS 8

typedef struct call_spec {
    const char *op;           /* vector_op's op; NULL for addk */
    int64_t n;
    int64_t tile;             /* 0: the default */
} call_spec;

/* What a child does: create one jit, optionally load or save an artifact,
 * make the calls in order, check every element of every result. */
typedef struct job {
    int addk;                 /* addk design (expects c = a + addk_value) */
    int32_t addk_value;
    const char *name;         /* NULL: the design's */
    const char *dir;          /* options.cache_dir */
    int disk_cache;
    uint64_t max_bytes;
    const char *cflags;
    const char *env[4][2];    /* setenv(name, value); value NULL: unsetenv */
    const char *load_artifact;
    const char *save_artifact; /* saves calls[0]'s specialization first */
    int ncalls;
    call_spec calls[MAX_CALLS];
} job;

typedef struct call_result {
    int status;
    char error[1536];
    int64_t wrong;            /* elements not as expected */
    int64_t first_bad;
    int32_t got, want;
    double done_ms;           /* since the child started */
    iron_jit_stats st;        /* right after this call */
} call_result;

typedef struct result {
    int complete;
    int create_status, load_status, save_status;
    char error[1024];         /* of create / load / save */
    iron_jit_stats st;        /* at the end */
    call_result call[MAX_CALLS];
    double start_abs_ms;      /* CLOCK_MONOTONIC when the child started */
    size_t log_len;
    char log[32768];          /* "topic\tline\n" ... */
} result;

static void add_call(job *jb, const char *op, int64_t n)
{
    ASSERT(jb->ncalls < MAX_CALLS);
    jb->calls[jb->ncalls].op = op;
    jb->calls[jb->ncalls].n = n;
    jb->calls[jb->ncalls].tile = 0;
    jb->ncalls++;
}

/* A vector_op child with the cache on in dir. */
static job vjob(const char *dir)
{
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.dir = dir;
    jb.disk_cache = 1;
    return jb;
}

/* The child's captured log.  The handler may run on any thread. */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static result *log_into;

static void capture(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    if (strcmp(topic, "emu") == 0)
        return;  /* run-time detail; not what these tests look at */
    pthread_mutex_lock(&log_mu);
    result *r = log_into;
    if (r) {
        size_t room = sizeof r->log - r->log_len;
        int n = snprintf(r->log + r->log_len, room, "%s\t%s\n", topic, line);
        if (n > 0 && (size_t)n < room)
            r->log_len += (size_t)n;
    }
    pthread_mutex_unlock(&log_mu);
}

static void copy_error(char *dst, size_t len)
{
    snprintf(dst, len, "%s", iron_last_error());
}

static void child_call(iron_jit *j, const job *jb, int i, result *r)
{
    const call_spec *cs = &jb->calls[i];
    call_result *cr = &r->call[i];
    iron_tensor *a, *b, *c;
    iron_shape sh = { .ndim = 1, .dims = { cs->n } };
    ASSERT_OK(iron_tensor_randint(IRON_INT32, sh, -100000, 100000,
                                  (uint64_t)(11 + i), &a));
    ASSERT_OK(iron_tensor_randint(IRON_INT32, sh, -100000, 100000,
                                  (uint64_t)(23 + i), &b));
    ASSERT_OK(iron_tensor_full(IRON_INT32, sh, -7, &c));
    iron_param p[2];
    int np = 0;
    if (cs->op)
        p[np++] = iron_param_str("op", cs->op);
    if (cs->tile)
        p[np++] = iron_param_int("tile", cs->tile);
    iron_tensor *const three[] = { a, b, c };
    iron_tensor *const two[] = { a, c };
    int nt = jb->addk ? 2 : 3;
    iron_tensor *const *ts = jb->addk ? two : three;
    if (i == 0 && jb->save_artifact) {
        r->save_status = iron_jit_save_artifact(j, NULL, np, p, nt, ts,
                                                jb->save_artifact);
        if (r->save_status != IRON_OK)
            copy_error(r->error, sizeof r->error);
    }
    cr->status = iron_jit_launch(j, NULL, np, p, IRON_NO_SCALARS, nt, ts);
    if (cr->status != IRON_OK) {
        copy_error(cr->error, sizeof cr->error);
    } else {
        const int32_t *va = iron_tensor_data(a), *vb = iron_tensor_data(b),
                      *vc = iron_tensor_data(c);
        for (int64_t e = 0; e < cs->n; e++) {
            int32_t want = jb->addk               ? va[e] + jb->addk_value
                           : cs->op[0] == '-'     ? va[e] - vb[e]
                                                  : va[e] + vb[e];
            if (vc[e] != want && cr->wrong++ == 0) {
                cr->first_bad = e;
                cr->got = vc[e];
                cr->want = want;
            }
        }
    }
    cr->done_ms = test_now_ms() - r->start_abs_ms;
    cr->st.size = sizeof cr->st;
    ASSERT_OK(iron_jit_get_stats(j, &cr->st));
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

static void child_run(const job *jb, result *r)
{
    for (int i = 0; i < 4; i++)
        if (jb->env[i][0]) {
            if (jb->env[i][1])
                setenv(jb->env[i][0], jb->env[i][1], 1);
            else
                unsetenv(jb->env[i][0]);
        }
    log_into = r;
    iron_log_set_handler(capture, NULL);
    iron_jit_options o = jb->addk ? addk_options : vector_op_options;
    if (jb->name)
        o.name = jb->name;
    o.cache_dir = jb->dir;
    o.disk_cache = jb->disk_cache;
    o.cache_max_bytes = jb->max_bytes;
    o.cflags = jb->cflags;
    iron_jit *j = NULL;
    r->create_status =
        iron_jit_create(jb->addk ? addk_design : vector_op_design, &o, &j);
    if (r->create_status != IRON_OK) {
        copy_error(r->error, sizeof r->error);
    } else {
        if (jb->load_artifact) {
            r->load_status = iron_jit_load_artifact(j, jb->load_artifact);
            if (r->load_status != IRON_OK)
                copy_error(r->error, sizeof r->error);
        }
        for (int i = 0; i < jb->ncalls; i++)
            child_call(j, jb, i, r);
        r->st.size = sizeof r->st;
        ASSERT_OK(iron_jit_get_stats(j, &r->st));
        iron_jit_free(j);
    }
    iron_log_set_handler(NULL, NULL);
    log_into = NULL;
    r->complete = 1;
}

static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static size_t read_all(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

/* The child's side of a fork: dies with its parent, bounded in time, and
 * leak-checked under ASan. */
static void child_setup(void)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    alarm(90);
}

static void child_exit(int code)
{
    fflush(stdout);
    fflush(stderr);
    /* Children end with _Exit, which skips LeakSanitizer's exit-time
     * check: run it here (0 leaks without ASan). */
    if (code == 0 && test_leaks())
        _Exit(3);
    _Exit(code);
}

static int child_status_ok(pid_t pid, char *why, size_t len)
{
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 1;
    if (WIFSIGNALED(st))
        snprintf(why, len, "killed by signal %d", WTERMSIG(st));
    else
        snprintf(why, len, "exit status %d", WEXITSTATUS(st));
    return 0;
}

/* Runs a job in a new process; *fork_to_first_ms (if not NULL) is the
 * time from just before fork to the first call's checked result. */
static result *run_child(const job *jb, double *fork_to_first_ms)
{
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    double t0 = test_now_ms();
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        static result r;
        close(fds[0]);
        child_setup();
        memset(&r, 0, sizeof r);
        r.start_abs_ms = test_now_ms();
        child_run(jb, &r);
        int rc = write_all(fds[1], &r, sizeof r);
        close(fds[1]);
        child_exit(rc == 0 ? 0 : 4);
    }
    close(fds[1]);
    result *r = calloc(1, sizeof *r);
    ASSERT(r != NULL);
    size_t got = read_all(fds[0], r, sizeof *r);
    close(fds[0]);
    char why[64];
    if (!child_status_ok(pid, why, sizeof why))
        TEST_FAIL_("the child process failed (%s)", why);
    if (got != sizeof *r || !r->complete)
        TEST_FAIL_("the child reported %zu of %zu bytes", got, sizeof *r);
    if (fork_to_first_ms)
        *fork_to_first_ms = r->start_abs_ms + r->call[0].done_ms - t0;
    return r;
}

/* Every call of the child succeeded with every element right. */
static void expect_all_ok_(const result *r, int ncalls, const char *file,
                           int line)
{
    if (r->create_status != IRON_OK)
        TEST_FAIL_("(%s:%d) iron_jit_create: %s", file, line, r->error);
    for (int i = 0; i < ncalls; i++) {
        const call_result *c = &r->call[i];
        if (c->status != IRON_OK)
            TEST_FAIL_("(%s:%d) call %d: %s: %s", file, line, i,
                       iron_status_name((iron_status)c->status), c->error);
        if (c->wrong)
            TEST_FAIL_("(%s:%d) call %d: %lld wrong elements, first at %lld: "
                       "got %d, want %d",
                       file, line, i, (long long)c->wrong,
                       (long long)c->first_bad, (int)c->got, (int)c->want);
    }
}
#define expect_all_ok(r, n) expect_all_ok_((r), (n), __FILE__, __LINE__)

/* The captured line of `topic` containing both needles, copied into a
 * static buffer; NULL if there is none. */
static const char *log_line(const result *r, const char *topic,
                            const char *n1, const char *n2)
{
    static char line[4096];
    const char *p = r->log, *end = r->log + r->log_len;
    size_t tl = strlen(topic);
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > tl && strncmp(p, topic, tl) == 0 && p[tl] == '\t') {
            snprintf(line, sizeof line, "%.*s", (int)(len - tl - 1),
                     p + tl + 1);
            if (strstr(line, n1) && (!n2 || strstr(line, n2)))
                return line;
        }
        p += len + 1;
    }
    return NULL;
}

static int log_count(const result *r, const char *topic, const char *needle)
{
    int n = 0;
    const char *p = r->log, *end = r->log + r->log_len;
    size_t tl = strlen(topic);
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[4096];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        if (len > tl && strncmp(line, topic, tl) == 0 && line[tl] == '\t' &&
            strstr(line + tl + 1, needle))
            n++;
        p += len + 1;
    }
    return n;
}

static void assert_log_(const result *r, const char *topic, const char *n1,
                        const char *n2, const char *file, int line)
{
    if (!log_line(r, topic, n1, n2))
        TEST_FAIL_("(%s:%d) no '%s' log line with \"%s\"%s%s%s; the log:\n%s",
                   file, line, topic, n1, n2 ? " and \"" : "", n2 ? n2 : "",
                   n2 ? "\"" : "", r->log);
}
#define ASSERT_LOG2(r, topic, n1, n2)                                         \
    assert_log_((r), (topic), (n1), (n2), __FILE__, __LINE__)
#define ASSERT_LOG(r, topic, n1) ASSERT_LOG2(r, topic, n1, (const char *)NULL)

/* The stats that say where the kernels of the child's builds came from. */
#define ASSERT_STATS(s, hits, misses, writes, compiles)                       \
    do {                                                                      \
        ASSERT_EQ((s).disk_hits, hits);                                       \
        ASSERT_EQ((s).disk_misses, misses);                                   \
        ASSERT_EQ((s).disk_writes, writes);                                   \
        ASSERT_EQ((s).kernel_compiles, compiles);                             \
    } while (0)

/* ---- 1. a hit in a new process ------------------------------------------ */

TEST_ALONE(dcache_hit_in_new_process, 60,
           "measures and prints the time to a first result")
{
    char *dir = test_cache_temp_dir("dcache", "hit");
    job jb = vjob(dir);
    add_call(&jb, "+", 256);

    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    ASSERT_EQ(r->st.builds, 1);
    ASSERT_EQ(r->st.artifact_hits, 0);
    uint64_t n = 0, bytes = 0;
    ASSERT_OK(iron_cache_get_usage(dir, &n, &bytes));
    ASSERT_EQ(n, 1);
    ASSERT_GT(bytes, IRON__CACHE_HEADER_BYTES);
    listing *l = list_dir(dir);
    ASSERT_EQ(l->n, 1);
    ASSERT(l->e[0].valid);
    ASSERT_STR_EQ(l->e[0].name, "vector_op");
    /* The entry is the kernel object, described by its declaration and
     * defines. */
    ASSERT_STR_EQ(l->e[0].signature,
                  "kernel eltwise(int32*, int32*, int32*, int32) -DOP=+");
    double cold_ms = r->call[0].done_ms;
    free(r);

    /* Another new process: the kernels come from the disk. */
    double fork_ms = 0;
    r = run_child(&jb, &fork_ms);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    ASSERT_EQ(r->st.builds, 1);
    ASSERT_LOG2(r, "cache", "hit", l->e[0].key);
    ASSERT_LOG(r, "jit", "disk cache hit");
    ASSERT_EQ(entry_count(dir), 1);
    printf("  disk hit in a new process: first result %.2f ms after fork "
           "(%.2f ms inside the child; the compiling child took %.2f ms)\n",
           fork_ms, r->call[0].done_ms, cold_ms);
    free(r);
    free(l);
    test_drop_dir(dir);
}

/* ---- 2. one entry per kernel, not per specialization ------------------- */

/* Each variant runs in a process of its own, so that nothing is kept in
 * memory: what one finds, it finds on the disk.  The kernel's text
 * changes with `op` (its OP define) and with nothing else here: shapes
 * and `tile` (a value the kernel takes as an argument) make new
 * specializations of the same kernel, which need no compile. */
TEST_TIMEOUT(dcache_entry_per_kernel_not_per_shape, 60)
{
    char *dir = test_cache_temp_dir("dcache", "distinct");
    static const struct {
        const char *op;
        int64_t n, tile;
        int hit;
    } v[5] = {
        { "+", 64, 0, 0 },
        { "-", 64, 0, 0 },
        { "+", 128, 0, 1 },
        { "-", 128, 0, 1 },
        { "+", 128, 32, 1 },
    };
    for (int i = 0; i < 5; i++) {
        job jb = vjob(dir);
        add_call(&jb, v[i].op, v[i].n);
        jb.calls[0].tile = v[i].tile;
        result *r = run_child(&jb, NULL);
        expect_all_ok(r, 1);
        if (v[i].hit)
            ASSERT_STATS(r->st, 1, 0, 0, 0);
        else
            ASSERT_STATS(r->st, 0, 1, 1, 1);
        free(r);
    }
    ASSERT_EQ(entry_count(dir), 2);
    listing *l = list_dir(dir);
    ASSERT_EQ(l->n, 2);
    const iron_cache_entry_info *plus = entry_with(l, "-DOP=+", NULL),
                                *minus = entry_with(l, "-DOP=-", NULL);
    ASSERT(plus != NULL && plus->valid);
    ASSERT(minus != NULL && minus->valid);
    free(l);

    /* The default spelled out is the same specialization, in memory. */
    job jb = vjob(dir);
    add_call(&jb, "+", 64);
    add_call(&jb, "+", 64);
    jb.calls[1].tile = 16;
    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 2);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    ASSERT_EQ(r->st.builds, 1);
    ASSERT_EQ(r->st.memory_hits, 1);
    free(r);
    test_drop_dir(dir);
}

/* ---- 3. damaged entries ------------------------------------------------- */

/* Puts `bytes` in place of the entry, runs the child, and checks that it
 * missed for `reason`, rebuilt, got the right result and left one valid
 * entry behind. */
static void damaged(const char *dir, const char *path, const job *jb,
                    const void *bytes, size_t len, const char *reason,
                    const char *what)
{
    test_spit(path, bytes, len);
    result *r = run_child(jb, NULL);
    expect_all_ok(r, jb->ncalls);
    if (r->st.disk_hits != 0 || r->st.disk_misses != 1 ||
        r->st.kernel_compiles != 1 || r->st.disk_writes != 1)
        TEST_FAIL_("%s: hits %llu misses %llu compiles %llu writes %llu",
                   what, (unsigned long long)r->st.disk_hits,
                   (unsigned long long)r->st.disk_misses,
                   (unsigned long long)r->st.kernel_compiles,
                   (unsigned long long)r->st.disk_writes);
    if (!log_line(r, "cache", "miss", reason))
        TEST_FAIL_("%s: no cache miss line naming \"%s\"; the log:\n%s", what,
                   reason, r->log);
    ASSERT_LOG(r, "jit", "disk cache entry unusable, recompiled");
    listing *l = list_dir(dir);
    if (l->n != 1 || !l->e[0].valid)
        TEST_FAIL_("%s: %d entries after the rebuild, first valid=%d", what,
                   l->n, l->n ? l->e[0].valid : -1);
    int temps;
    count_files(dir, &temps);
    ASSERT_EQ(temps, 0);
    free(l);
    free(r);
}

/* A payload with one kernel object whose image is not a shared object:
 * the structure decodes, loading fails. */
static unsigned char *garbage_image_payload(size_t *len)
{
    static const char junk[] = "this is not an ELF shared object";
    size_t n = 8 + 4 + 4 + 4 + 4 + 8 + sizeof junk;
    unsigned char *p = calloc(1, n), *q = p;
    ASSERT(p != NULL);
    memcpy(q, "IRONPAY1", 8), q += 8;
    put_u32(q, 1), q += 4;   /* kernels */
    put_u32(q, 1), q += 4;   /* objects */
    put_u32(q, 0), q += 4;   /* kernel 0 -> object 0 */
    put_u32(q, 0), q += 4;   /* no included files */
    put_u64(q, sizeof junk), q += 8;
    memcpy(q, junk, sizeof junk);
    *len = n;
    return p;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The length of the key text in an entry or artifact file's bytes; the
 * payload starts after it. */
static size_t text_len_of(const unsigned char *file)
{
    return (size_t)get_u64(file + IRON__CACHE_OFF_TEXT_LEN);
}

/* The entry or artifact file `orig` with `payload` in place of its own:
 * the same key, key text and name, valid checksums. */
static unsigned char *rewrap(const unsigned char *orig, const void *payload,
                             size_t plen, size_t *len)
{
    iron__cache_key key = { get_u64(orig + IRON__CACHE_OFF_KEY),
                            get_u64(orig + IRON__CACHE_OFF_KEY + 8) };
    size_t tlen = text_len_of(orig);
    const char *text = (const char *)orig + IRON__CACHE_HEADER_BYTES;
    iron__cache_header h;
    iron__cache_header_init(&h, key, text, tlen,
                            (const char *)orig + IRON__CACHE_OFF_NAME,
                            "crafted by test_disk_cache", payload, plen);
    unsigned char *buf = malloc(IRON__CACHE_HEADER_BYTES + tlen + plen);
    ASSERT(buf != NULL);
    iron__cache_header_encode(&h, buf);
    memcpy(buf + IRON__CACHE_HEADER_BYTES, text, tlen);
    memcpy(buf + IRON__CACHE_HEADER_BYTES + tlen, payload, plen);
    *len = IRON__CACHE_HEADER_BYTES + tlen + plen;
    return buf;
}

TEST_TIMEOUT(dcache_damaged_entry_is_a_miss, 90)
{
    char *dir = test_cache_temp_dir("dcache", "damaged");
    job jb = vjob(dir);
    add_call(&jb, "-", 128);
    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    char *path = only_entry(dir);
    listing *l;
    size_t len;
    unsigned char *orig = test_slurp(path, &len);
    ASSERT_GT(len, IRON__CACHE_HEADER_BYTES + 100);
    const size_t hb = IRON__CACHE_HEADER_BYTES, plen = len - hb;
    const size_t tlen = text_len_of(orig);
    ASSERT_GT(tlen, 100);
    ASSERT_LT(tlen, plen);

    /* Truncated at every kind of place: nothing, inside the magic, inside
     * the header, right before its checksum, header only, mid-payload,
     * one byte short. */
    const size_t cuts[] = { 0, 5, 8, 300, hb - 1, hb, hb + plen / 2,
                            len - 1 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "cut at %zu of %zu bytes", cuts[i], len);
        damaged(dir, path, &jb, orig, cuts[i], "truncated", what);
    }

    unsigned char *bad = malloc(len + 16);
    ASSERT(bad != NULL);
    /* One payload byte flipped; one key text byte flipped. */
    memcpy(bad, orig, len);
    bad[hb + tlen + (plen - tlen) / 3] ^= 0x5a;
    damaged(dir, path, &jb, bad, len, "checksum mismatch", "payload byte");
    memcpy(bad, orig, len);
    bad[hb + tlen / 2] ^= 0x5a;
    damaged(dir, path, &jb, bad, len, "key text checksum mismatch",
            "key text byte");
    /* One header byte flipped (inside the signature text). */
    memcpy(bad, orig, len);
    bad[IRON__CACHE_OFF_SIGNATURE + 3] ^= 0x01;
    damaged(dir, path, &jb, bad, len, "header checksum mismatch",
            "header byte");
    /* Bytes appended. */
    memcpy(bad, orig, len);
    memcpy(bad + len, "trailing", 8);
    damaged(dir, path, &jb, bad, len + 8, "size mismatch", "appended");
    /* Another format and another library version (checksum fixed up). */
    memcpy(bad, orig, len);
    put_u32(bad + IRON__CACHE_OFF_FORMAT, IRON__CACHE_FORMAT + 1);
    char fmt[64];
    snprintf(fmt, sizeof fmt, "format %d, expected %d", IRON__CACHE_FORMAT + 1,
             IRON__CACHE_FORMAT);
    damaged(dir, path, &jb, bad, len, fmt, "format");
    memcpy(bad, orig, len);
    memset(bad + IRON__CACHE_OFF_VERSION, 0, IRON__CACHE_VERSION_MAX);
    memcpy(bad + IRON__CACHE_OFF_VERSION, "0.0.9", 5);
    fix_header_sum(bad);
    damaged(dir, path, &jb, bad, len, "library 0.0.9, expected", "version");
    free(bad);

    /* Garbage under the entry's name. */
    unsigned char junk[5000];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 131u + 7u);
    damaged(dir, path, &jb, junk, sizeof junk, "bad magic", "garbage");
    /* A valid entry file whose payload is not a kernel payload, and one
     * whose kernel image does not load: the jit's checks, not the store's. */
    size_t wlen, glen;
    unsigned char *w = rewrap(orig, junk, 300, &wlen);
    damaged(dir, path, &jb, w, wlen, "not a kernel payload", "payload");
    free(w);
    unsigned char *g = garbage_image_payload(&glen);
    w = rewrap(orig, g, glen, &wlen);
    damaged(dir, path, &jb, w, wlen, "kernel image does not load", "image");
    free(w);
    free(g);

    /* Garbage under another entry's name: listed as invalid, counted, and
     * harmless to the call, which hits its own entry. */
    char other[1024];
    snprintf(other, sizeof other, "%s/%s%s", dir,
             "0123456789abcdef0123456789abcdef", IRON__CACHE_SUFFIX);
    test_spit(other, junk, sizeof junk);
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);
    l = list_dir(dir);
    ASSERT_EQ(l->n, 2);
    int valid = 0;
    for (int i = 0; i < l->n; i++)
        valid += l->e[i].valid;
    ASSERT_EQ(valid, 1);
    free(l);

    free(orig);
    free(path);
    test_drop_dir(dir);
}

/* ---- 4. the size cap ---------------------------------------------------- */

/* Whether an entry's kernel has the define OP=op. */
static int has_entry(const char *dir, const char *op)
{
    char define[32];
    snprintf(define, sizeof define, "-DOP=%s", op);
    listing *l = list_dir(dir);
    int found = 0;
    for (int i = 0; i < l->n; i++) {
        const char *at = strstr(l->e[i].signature, define);
        found |= at && at[strlen(define)] == '\0';
    }
    free(l);
    return found;
}

TEST_TIMEOUT(dcache_lru_eviction_under_cap, 60)
{
    char *dir = test_cache_temp_dir("dcache", "lru");
    job a = vjob(dir), b = vjob(dir), c = vjob(dir);
    /* Three kernels: "+0+" adds as "+" does, in another text. */
    add_call(&a, "+", 64);
    add_call(&b, "-", 64);
    add_call(&c, "+0+", 128);

    result *r = run_child(&a, NULL);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    uint64_t n = 0, one = 0;
    ASSERT_OK(iron_cache_get_usage(dir, &n, &one));
    ASSERT_EQ(n, 1);
    /* Room for two entries and a half: three never fit. */
    uint64_t cap = one * 2 + one / 2;
    a.max_bytes = b.max_bytes = c.max_bytes = cap;

    r = run_child(&b, NULL);                 /* B written: A, B */
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    ASSERT_EQ(entry_count(dir), 2);
    r = run_child(&a, NULL);                 /* A used: B is now the LRU */
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);
    r = run_child(&c, NULL);                 /* C written: B evicted */
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    uint64_t bytes = 0;
    ASSERT_OK(iron_cache_get_usage(dir, &n, &bytes));
    ASSERT_EQ(n, 2);
    ASSERT_LE(bytes, cap);
    ASSERT(has_entry(dir, "+"));
    ASSERT(!has_entry(dir, "-"));
    ASSERT(has_entry(dir, "+0+"));

    r = run_child(&b, NULL);                 /* B again: a miss; A evicted */
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    ASSERT_LOG2(r, "cache", "miss", "absent");
    free(r);
    ASSERT_OK(iron_cache_get_usage(dir, &n, &bytes));
    ASSERT_EQ(n, 2);
    ASSERT_LE(bytes, cap);
    ASSERT(!has_entry(dir, "+"));
    ASSERT(has_entry(dir, "-"));
    ASSERT(has_entry(dir, "+0+"));
    test_drop_dir(dir);
}

/* ---- 5. an edited header ------------------------------------------------ */

TEST_TIMEOUT(dcache_header_edit_rebuilds, 60)
{
    char *dir = test_cache_temp_dir("dcache", "hdr-cache");
    char *inc = test_cache_temp_dir("dcache", "hdr-include");
    char header[1024], cflags[1100];
    snprintf(header, sizeof header, "%s/iron_test_k.h", inc);
    snprintf(cflags, sizeof cflags, "-O2 -I%s", inc);
    spit_text(header, "#define IRON_TEST_K 5\n");
    job jb = vjob(dir);
    jb.addk = 1;
    jb.addk_value = 5;
    jb.cflags = cflags;
    add_call(&jb, NULL, 256);

    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    r = run_child(&jb, NULL);                /* unchanged: a hit */
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);

    /* Same size, other contents: only the content hash tells. */
    spit_text(header, "#define IRON_TEST_K 9\n");
    jb.addk_value = 9;
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    ASSERT_LOG2(r, "cache", "header changed", header);
    free(r);
    r = run_child(&jb, NULL);                /* the rebuilt entry hits */
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);
    ASSERT_EQ(entry_count(dir), 1);

    /* A header that grew: also noticed. */
    spit_text(header, "/* a comment */\n#define IRON_TEST_K (-3)\n");
    jb.addk_value = -3;
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    ASSERT_LOG2(r, "cache", "header changed", "iron_test_k.h");
    free(r);
    test_drop_dir(inc);
    test_drop_dir(dir);
}

/* ---- 6. compile flags --------------------------------------------------- */

TEST_TIMEOUT(dcache_cflags_are_part_of_the_key, 60)
{
    char *dir = test_cache_temp_dir("dcache", "cflags");
    job o1 = vjob(dir), o2 = vjob(dir), dflt = vjob(dir);
    o1.cflags = "-O1";
    o2.cflags = "-O2";
    add_call(&o1, "+", 64);
    add_call(&o2, "+", 64);
    add_call(&dflt, "+", 64);

    result *r = run_child(&o1, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    r = run_child(&o2, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    ASSERT_EQ(entry_count(dir), 2);
    r = run_child(&o1, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);
    r = run_child(&o2, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);
    /* No flags means -O2 (iron.h): the -O2 entry serves it. */
    r = run_child(&dflt, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);
    ASSERT_EQ(entry_count(dir), 2);
    test_drop_dir(dir);
}

/* ---- 7. switching the cache off and on -------------------------------------
 *
 * Precedence (src/jit/jit.c, iron_jit_create): options.disk_cache > 0 turns
 * the cache on whatever the environment says; < 0 turns it off; 0 leaves
 * it to the environment, where IRON_CACHE off (0, no, false, off) turns
 * it off and anything else, or no variable, leaves it on.  So disk_cache = 1 does
 * override IRON_CACHE=0.  The folder is options.cache_dir, else
 * $IRON_CACHE_DIR, else the XDG default. */

TEST_TIMEOUT(dcache_env_and_option_switches, 60)
{
    char *base = test_cache_temp_dir("dcache", "switch");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/cache", base);
    job jb = vjob(dir);
    add_call(&jb, "+", 64);

    /* IRON_CACHE=0 with the option left to the environment: off. */
    jb.disk_cache = 0;
    jb.env[0][0] = "IRON_CACHE";
    jb.env[0][1] = "0";
    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 0, 0, 1);
    ASSERT_EQ(log_count(r, "cache", ""), 0);
    free(r);
    ASSERT_EQ(count_files(dir, NULL), -1);   /* not even created */

    /* disk_cache = -1, with no IRON_CACHE at all: off. */
    jb.disk_cache = -1;
    jb.env[0][1] = NULL;
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 0, 0, 1);
    free(r);
    /* ... and with IRON_CACHE=1: still off. */
    jb.env[0][1] = "1";
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 0, 0, 1);
    free(r);
    ASSERT_EQ(count_files(dir, NULL), -1);

    /* disk_cache = 1 overrides IRON_CACHE=0. */
    jb.disk_cache = 1;
    jb.env[0][1] = "0";
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    ASSERT_EQ(count_files(dir, NULL), 1);
    ASSERT_EQ(entry_count(dir), 1);

    /* disk_cache = 0, IRON_CACHE unset, no cache_dir: on, in
     * $IRON_CACHE_DIR -- where the entry just written is found. */
    jb.disk_cache = 0;
    jb.dir = NULL;
    jb.env[0][1] = NULL;
    jb.env[1][0] = "IRON_CACHE_DIR";
    jb.env[1][1] = dir;
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    ASSERT_LOG2(r, "cache", "hit", dir);
    free(r);
    /* IRON_CACHE=1 is on too: a new kernel lands in the same folder. */
    jb.env[0][1] = "1";
    jb.calls[0].op = "-";
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    ASSERT_EQ(entry_count(dir), 2);
    test_drop_dir(base);
}

/* ---- 8. an unusable folder ---------------------------------------------- */

static void unusable(const char *cache_dir, const char *named)
{
    job jb = vjob(cache_dir);
    add_call(&jb, "+", 64);
    add_call(&jb, "-", 64);
    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 2);
    ASSERT_STATS(r->st, 0, 0, 0, 2);
    ASSERT_EQ(r->st.builds, 2);
    /* One warning per jit, naming the folder. */
    ASSERT_EQ(log_count(r, "warning", ""), 1);
    ASSERT_LOG2(r, "warning", "disk cache disabled", named);
    free(r);
}

TEST_TIMEOUT(dcache_unwritable_folder_falls_back, 60)
{
    char *base = test_cache_temp_dir("dcache", "unusable");
    char file[1024], sub[1100];
    snprintf(file, sizeof file, "%s/plain", base);
    snprintf(sub, sizeof sub, "%s/sub", file);
    spit_text(file, "a regular file where a folder should be\n");
    unusable(sub, "plain/sub");
    unusable(file, "plain");
    /* Nothing was written anywhere. */
    ASSERT_EQ(count_files(base, NULL), 1);
    size_t len;
    unsigned char *text = test_slurp(file, &len);
    ASSERT_EQ(len, strlen("a regular file where a folder should be\n"));
    free(text);
    /* A folder others could write into is refused (entries are loaded as
     * code), whoever runs the test. */
    char open_dir[1024];
    snprintf(open_dir, sizeof open_dir, "%s/shared", base);
    ASSERT_EQ(mkdir(open_dir, 0700), 0);
    ASSERT_EQ(chmod(open_dir, 0777), 0);
    unusable(open_dir, "writable by group or others");
    ASSERT_EQ(count_files(open_dir, NULL), 0);
    if (geteuid() != 0) {
        /* Read-only folder (root writes anyway, so only as a user). */
        char ro[1024];
        snprintf(ro, sizeof ro, "%s/ro", base);
        ASSERT_EQ(mkdir(ro, 0500), 0);
        unusable(ro, "not writable");
        ASSERT_EQ(count_files(ro, NULL), 0);
        chmod(ro, 0700);
    }
    test_drop_dir(base);
}

/* ---- 9. many processes, one folder -------------------------------------- */

typedef struct stress_report {
    uint64_t calls, builds, memory_hits, hits, misses, writes, compiles,
        shares;
} stress_report;

static void stress_worker(const char *dir, int p, int wfd)
{
    static const char *ops[] = { "+", "-" };
    static const int64_t ns[] = { 64, 128, 256 };
    stress_report rep;
    memset(&rep, 0, sizeof rep);
    for (int iter = 0; iter < 6; iter++) {
        /* Every process calls spec 0 each time (the same entry) and two
         * others that rotate with the process and the iteration (and at
         * times coincide: a hit in memory). */
        job jb = vjob(dir);
        int picks[3] = { 0, (p + iter) % 5 + 1, (p * 2 + iter + 3) % 6 };
        for (int k = 0; k < 3; k++)
            add_call(&jb, ops[picks[k] % 2], ns[picks[k] / 2]);
        static result r;
        memset(&r, 0, sizeof r);
        r.start_abs_ms = test_now_ms();
        child_run(&jb, &r);
        expect_all_ok(&r, 3);
        rep.calls += 3;
        rep.builds += r.st.builds;
        rep.memory_hits += r.st.memory_hits;
        rep.hits += r.st.disk_hits;
        rep.misses += r.st.disk_misses;
        rep.writes += r.st.disk_writes;
        rep.compiles += r.st.kernel_compiles;
        rep.shares += r.st.kernel_shares;
        /* A miss here is an absent entry (another process may still be
         * compiling it), never a damaged one. */
        if (log_line(&r, "cache", "miss", "truncated") ||
            log_line(&r, "cache", "miss", "checksum") ||
            log_line(&r, "cache", "could not store", ""))
            TEST_FAIL_("process %d: unexpected cache line:\n%s", p, r.log);
    }
    ASSERT_EQ(write_all(wfd, &rep, sizeof rep), 0);
}

TEST_TIMEOUT(dcache_stress_many_processes, 120)
{
    enum { PROCS = 8 };
    char *dir = test_cache_temp_dir("dcache", "stress");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pids[PROCS];
    fflush(stdout);
    fflush(stderr);
    for (int p = 0; p < PROCS; p++) {
        pids[p] = fork();
        ASSERT(pids[p] >= 0);
        if (pids[p] == 0) {
            close(fds[0]);
            child_setup();
            stress_worker(dir, p, fds[1]);
            close(fds[1]);
            child_exit(0);
        }
    }
    close(fds[1]);
    stress_report total, rep;
    memset(&total, 0, sizeof total);
    int reports = 0;
    while (read_all(fds[0], &rep, sizeof rep) == sizeof rep) {
        reports++;
        total.calls += rep.calls;
        total.builds += rep.builds;
        total.memory_hits += rep.memory_hits;
        total.hits += rep.hits;
        total.misses += rep.misses;
        total.writes += rep.writes;
        total.compiles += rep.compiles;
        total.shares += rep.shares;
    }
    close(fds[0]);
    for (int p = 0; p < PROCS; p++) {
        char why[64];
        if (!child_status_ok(pids[p], why, sizeof why))
            TEST_FAIL_("stress process %d failed (%s)", p, why);
    }
    ASSERT_EQ(reports, PROCS);
    ASSERT_EQ(total.calls, PROCS * 6 * 3);
    /* Each jit builds each of its distinct specs once, and each build is
     * a disk hit, a miss, or (a shape-only variant of one it built
     * already) shares that one's kernels without touching the disk. */
    ASSERT_EQ(total.builds + total.memory_hits, total.calls);
    ASSERT_EQ(total.hits + total.misses + total.shares, total.builds);
    ASSERT_EQ(total.writes, total.misses);
    ASSERT_EQ(total.compiles, total.misses);
    ASSERT_GE(total.writes, 2);
    ASSERT_GT(total.hits, 0);
    int temps = 0;
    int files = count_files(dir, &temps);
    ASSERT_EQ(temps, 0);
    ASSERT_EQ(files, 2);   /* the two kernels, whoever wrote them */
    listing *l = list_dir(dir);
    ASSERT_EQ(l->n, files);
    for (int i = 0; i < l->n; i++) {
        if (!l->e[i].valid)
            TEST_FAIL_("entry %s (%s) is not valid", l->e[i].key,
                       l->e[i].signature);
        ASSERT_STR_EQ(l->e[i].name, "vector_op");
    }
    /* One entry per kernel, whichever process wrote it: the addition's
     * and the subtraction's. */
    ASSERT(entry_with(l, "-DOP=+", NULL) != NULL);
    ASSERT(entry_with(l, "-DOP=-", NULL) != NULL);
    printf("  %d processes, %llu calls, %llu builds: %llu disk hits, %llu "
           "compiles\n",
           PROCS, (unsigned long long)total.calls,
           (unsigned long long)total.builds, (unsigned long long)total.hits,
           (unsigned long long)total.compiles);
    free(l);
    test_drop_dir(dir);
}

/* ---- 10. artifacts ------------------------------------------------------ */

/* Saves the artifact of vector_op '+' on int32[256] at path, in a child
 * (no disk cache). */
static void save_artifact(const char *path)
{
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.disk_cache = -1;
    jb.save_artifact = path;
    add_call(&jb, "+", 256);
    result *r = run_child(&jb, NULL);
    if (r->save_status != IRON_OK)
        TEST_FAIL_("iron_jit_save_artifact: %s", r->error);
    expect_all_ok(r, 1);
    /* Saving built it; the call found it in memory. */
    ASSERT_EQ(r->st.kernel_compiles, 1);
    ASSERT_EQ(r->st.builds, 1);
    ASSERT_EQ(r->st.memory_hits, 1);
    free(r);
}

TEST_TIMEOUT(dcache_artifact_runs_without_compiler, 60)
{
    char *base = test_cache_temp_dir("dcache", "artifact");
    char art[1024], cache[1024];
    snprintf(art, sizeof art, "%s/vadd.iron-artifact", base);
    snprintf(cache, sizeof cache, "%s/cache", base);
    save_artifact(art);
    struct stat st;
    ASSERT_EQ(stat(art, &st), 0);
    ASSERT_GT(st.st_size, IRON__CACHE_HEADER_BYTES);
    ASSERT_EQ(count_files(base, NULL), 1);  /* no temporary file left */

    /* A new process where the C compiler does not exist, disk cache on. */
    job jb = vjob(cache);
    jb.env[0][0] = "IRON_CC";
    jb.env[0][1] = "/nonexistent/iron-test-cc";
    jb.load_artifact = art;
    add_call(&jb, "+", 256);   /* what the artifact was made for */
    add_call(&jb, "-", 256);   /* another parameter value */
    add_call(&jb, "-", 512);   /* and another shape */
    add_call(&jb, "+", 512);   /* the artifact's kernel, another shape:
                                  shared, no compiler needed */
    result *r = run_child(&jb, NULL);
    ASSERT_EQ(r->load_status, IRON_OK);
    expect_all_ok(r, 1);
    const iron_jit_stats *s0 = &r->call[0].st;
    ASSERT_EQ(s0->artifact_hits, 1);
    ASSERT_EQ(s0->kernel_compiles, 0);
    ASSERT_EQ(s0->builds, 1);
    ASSERT_EQ(s0->disk_hits, 0);
    ASSERT_LOG(r, "jit", "from an artifact");
    for (int i = 1; i < 3; i++) {
        const call_result *c = &r->call[i];
        if (c->status != IRON_ECOMPILE)
            TEST_FAIL_("call %d: expected IRON_ECOMPILE, got %s: %s", i,
                       iron_status_name((iron_status)c->status), c->error);
        ASSERT_CONTAINS(c->error, "no loaded artifact matches");
        ASSERT_CONTAINS(c->error, art);
        ASSERT_CONTAINS(c->error, "was made for vector_op (a: int32[256]");
        ASSERT_CONTAINS(c->error, "op='+'");
        ASSERT_CONTAINS(c->error, "IRON_CC");
    }
    ASSERT_CONTAINS(r->call[2].error, "a: int32[512]");
    const call_result *c3 = &r->call[3];
    if (c3->status != IRON_OK || c3->wrong)
        TEST_FAIL_("call 3: %s: %s (%lld wrong)",
                   iron_status_name((iron_status)c3->status), c3->error,
                   (long long)c3->wrong);
    ASSERT_EQ(c3->st.kernel_shares, 1);
    ASSERT_EQ(r->st.artifact_hits, 1);
    ASSERT_EQ(r->st.kernel_compiles, 0);
    ASSERT_EQ(r->st.disk_writes, 0);
    ASSERT_EQ(r->st.builds, 2);
    free(r);
    ASSERT_EQ(entry_count(cache), 0);
    test_drop_dir(base);
}

/* Saving goes through the one atomic write: a folder that is not there
 * is IRON_EIO naming the artifact, and nothing is left behind. */
TEST_TIMEOUT(dcache_artifact_save_failure_leaves_nothing, 60)
{
    char *base = test_cache_temp_dir("dcache", "artsave");
    char art[1024];
    snprintf(art, sizeof art, "%s/missing/vadd.iron-artifact", base);
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.disk_cache = -1;
    jb.save_artifact = art;
    add_call(&jb, "+", 256);
    result *r = run_child(&jb, NULL);
    ASSERT_EQ(r->save_status, IRON_EIO);
    ASSERT_CONTAINS(r->error, "cannot write the artifact");
    ASSERT_CONTAINS(r->error, art);
    ASSERT_CONTAINS(r->error, "nothing was published");
    free(r);
    ASSERT_EQ(count_files(base, NULL), 0);
    test_drop_dir(base);
}

/* Loads path into a fresh jit named `name` in this process (loading
 * launches nothing) and expects failure with `status` and `needle`. */
static void load_fails(const char *name, const char *path, iron_status status,
                       const char *needle)
{
    iron_jit_options o = vector_op_options;
    o.name = name;
    o.disk_cache = -1;
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    iron_status s = iron_jit_load_artifact(j, path);
    if (s != status || !strstr(iron_last_error(), needle) ||
        !strstr(iron_last_error(), path))
        TEST_FAIL_("loading %s: expected %s naming \"%s\" and the path, "
                   "got %s: %s",
                   path, iron_status_name(status), needle,
                   iron_status_name(s), iron_last_error());
    iron_jit_free(j);
}

TEST_TIMEOUT(dcache_artifact_damaged_or_foreign, 60)
{
    char *base = test_cache_temp_dir("dcache", "artifact-bad");
    char art[1024], bad_path[1100];
    snprintf(art, sizeof art, "%s/vadd.iron-artifact", base);
    snprintf(bad_path, sizeof bad_path, "%s/bad.iron-artifact", base);
    save_artifact(art);
    size_t len;
    unsigned char *orig = test_slurp(art, &len);
    const size_t hb = IRON__CACHE_HEADER_BYTES, plen = len - hb;
    unsigned char *bad = malloc(len);
    ASSERT(bad != NULL);

    const size_t cuts[] = { 0, 6, 200, hb - 1, hb, hb + plen / 2, len - 1 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        test_spit(bad_path, orig, cuts[i]);
        load_fails("vector_op", bad_path, IRON_EIO, "truncated");
    }
    memcpy(bad, orig, len);
    bad[hb + plen / 2] ^= 0x40;
    test_spit(bad_path, bad, len);
    load_fails("vector_op", bad_path, IRON_EIO, "checksum mismatch");

    /* Another format (checked before the header checksum). */
    char want[128];
    memcpy(bad, orig, len);
    put_u32(bad + IRON__CACHE_OFF_FORMAT, 7);
    test_spit(bad_path, bad, len);
    snprintf(want, sizeof want, "format 7, expected %d", IRON__CACHE_FORMAT);
    load_fails("vector_op", bad_path, IRON_EIO, want);
    /* Another library version: without fixing the header checksum it is
     * damage; with it, a named version mismatch. */
    memcpy(bad, orig, len);
    memset(bad + IRON__CACHE_OFF_VERSION, 0, IRON__CACHE_VERSION_MAX);
    memcpy(bad + IRON__CACHE_OFF_VERSION, "9.8.7", 5);
    test_spit(bad_path, bad, len);
    load_fails("vector_op", bad_path, IRON_EIO, "header checksum mismatch");
    fix_header_sum(bad);
    test_spit(bad_path, bad, len);
    snprintf(want, sizeof want, "library 9.8.7, expected %s",
             iron_version());
    load_fails("vector_op", bad_path, IRON_EIO, want);
    /* Not an artifact at all. */
    spit_text(bad_path, "#!/bin/sh\necho hello\n");
    load_fails("vector_op", bad_path, IRON_EIO, "bad magic");
    /* A well-formed file whose payload is not a kernel payload. */
    size_t wlen;
    unsigned char *w = rewrap(orig, "nonsense", 8, &wlen);
    test_spit(bad_path, w, wlen);
    free(w);
    load_fails("vector_op", bad_path, IRON_EIO, "not a kernel payload");
    /* Another jit's artifact. */
    load_fails("vector_other", art, IRON_EINVAL,
               "was made by jit 'vector_op', not 'vector_other'");
    /* No such file. */
    char missing[1100];
    snprintf(missing, sizeof missing, "%s/missing.iron-artifact", base);
    load_fails("vector_op", missing, IRON_EIO, "No such file");
    load_fails("vector_op", base, IRON_EIO, "not usable");  /* a folder */

    /* After all that, the good one still loads. */
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &vector_op_options, &j));
    ASSERT_OK(iron_jit_load_artifact(j, art));
    ASSERT_FAILS(iron_jit_load_artifact(NULL, art), IRON_EINVAL, "jit");
    ASSERT_FAILS(iron_jit_load_artifact(j, NULL), IRON_EINVAL, "path");
    iron_jit_free(j);
    free(bad);
    free(orig);
    test_drop_dir(base);
}

/* A jit name longer than the header's name field (63 bytes) is stored
 * cut; loading compares it the same way, so the artifact still loads --
 * and a name that differs only past the cut is still refused by the
 * spec key, which it never matches. */
TEST_TIMEOUT(dcache_artifact_long_jit_name, 60)
{
    char *base = test_cache_temp_dir("dcache", "artifact-long");
    char art[1024];
    snprintf(art, sizeof art, "%s/long.iron-artifact", base);
    static const char long_name[] =
        "vector_op_with_a_rather_long_name_that_does_not_fit_the_header_field"
        "_of_sixty_four_bytes";
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.name = long_name;
    jb.disk_cache = -1;
    jb.save_artifact = art;
    add_call(&jb, "+", 128);
    result *r = run_child(&jb, NULL);
    if (r->save_status != IRON_OK)
        TEST_FAIL_("iron_jit_save_artifact: %s", r->error);
    expect_all_ok(r, 1);
    free(r);

    jb.save_artifact = NULL;
    jb.load_artifact = art;
    jb.env[0][0] = "IRON_CC";
    jb.env[0][1] = "/nonexistent/iron-test-cc";
    r = run_child(&jb, NULL);
    if (r->load_status != IRON_OK)
        TEST_FAIL_("iron_jit_load_artifact: %s", r->error);
    expect_all_ok(r, 1);
    ASSERT_EQ(r->st.artifact_hits, 1);
    ASSERT_EQ(r->st.kernel_compiles, 0);
    free(r);
    load_fails("vector_op", art, IRON_EINVAL, "was made by jit");
    test_drop_dir(base);
}

/* An artifact saved by a process whose kernels came from the disk cache
 * (loaded images, not compiled ones) is as good as any. */
TEST_TIMEOUT(dcache_artifact_saved_from_a_disk_hit, 60)
{
    char *base = test_cache_temp_dir("dcache", "artifact-hit");
    char art[1024], cache[1024];
    snprintf(art, sizeof art, "%s/hit.iron-artifact", base);
    snprintf(cache, sizeof cache, "%s/cache", base);
    job jb = vjob(cache);
    add_call(&jb, "-", 192);
    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 0, 1, 1, 1);
    free(r);
    jb.save_artifact = art;
    r = run_child(&jb, NULL);
    if (r->save_status != IRON_OK)
        TEST_FAIL_("iron_jit_save_artifact: %s", r->error);
    expect_all_ok(r, 1);
    ASSERT_STATS(r->st, 1, 0, 0, 0);
    free(r);

    job ld;
    memset(&ld, 0, sizeof ld);
    ld.disk_cache = -1;
    ld.load_artifact = art;
    ld.env[0][0] = "IRON_CC";
    ld.env[0][1] = "/nonexistent/iron-test-cc";
    add_call(&ld, "-", 192);
    r = run_child(&ld, NULL);
    ASSERT_EQ(r->load_status, IRON_OK);
    expect_all_ok(r, 1);
    ASSERT_EQ(r->st.artifact_hits, 1);
    ASSERT_EQ(r->st.kernel_compiles, 0);
    free(r);
    test_drop_dir(base);
}

/* An artifact whose structure is right but whose kernel image does not
 * load: the build says so in the log and compiles instead. */
TEST_TIMEOUT(dcache_artifact_unloadable_image_compiles, 60)
{
    char *base = test_cache_temp_dir("dcache", "artifact-image");
    char art[1024], bad_path[1100];
    snprintf(art, sizeof art, "%s/vadd.iron-artifact", base);
    snprintf(bad_path, sizeof bad_path, "%s/image.iron-artifact", base);
    save_artifact(art);
    size_t len;
    unsigned char *orig = test_slurp(art, &len);
    size_t glen, wlen;
    unsigned char *g = garbage_image_payload(&glen);
    unsigned char *w = rewrap(orig, g, glen, &wlen);
    test_spit(bad_path, w, wlen);

    job jb;
    memset(&jb, 0, sizeof jb);
    jb.disk_cache = -1;
    jb.load_artifact = bad_path;
    add_call(&jb, "+", 256);
    result *r = run_child(&jb, NULL);
    ASSERT_EQ(r->load_status, IRON_OK);
    expect_all_ok(r, 1);
    ASSERT_EQ(r->st.artifact_hits, 0);
    ASSERT_EQ(r->st.kernel_compiles, 1);
    ASSERT_LOG2(r, "cache", "artifact unusable",
                "kernel image does not load");
    free(r);
    free(w);
    free(g);
    free(orig);
    test_drop_dir(base);
}

/* ---- 11. what the log says ---------------------------------------------- */

static void expect_stage_times(const char *line)
{
    static const char *stages[] = { "design ", "verify ", "place ",
                                    "kernels ", "load " };
    ASSERT_CONTAINS(line, " ms: ");
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
        const char *p = strstr(line, stages[i]);
        if (!p || p[strlen(stages[i])] < '0' || p[strlen(stages[i])] > '9')
            TEST_FAIL_("no time for stage '%s' in: %s", stages[i], line);
    }
}

TEST_TIMEOUT(dcache_log_lines, 60)
{
    char *dir = test_cache_temp_dir("dcache", "log");
    job jb = vjob(dir);
    add_call(&jb, "+", 64);
    add_call(&jb, "-", 64);
    add_call(&jb, "+", 128);
    add_call(&jb, "+", 128);   /* found in memory: no line */
    result *r = run_child(&jb, NULL);
    expect_all_ok(r, 4);
    const char *line = log_line(r, "jit", "first call", NULL);
    ASSERT(line != NULL);
    ASSERT_CONTAINS(line, "a: int32[64]");
    ASSERT_CONTAINS(line, "disk cache miss, compiled");
    expect_stage_times(line);
    line = log_line(r, "jit", "new value for parameter 'op'", NULL);
    ASSERT(line != NULL);
    ASSERT_CONTAINS(line, "'-' (was '+')");
    expect_stage_times(line);
    line = log_line(r, "jit", "new shape for argument 'a'", NULL);
    ASSERT(line != NULL);
    ASSERT_CONTAINS(line, "int32[128] (was int32[64])");
    expect_stage_times(line);
    ASSERT_EQ(log_count(r, "jit", "built ("), 3);
    /* The new shape shares the kernels of the first build (src/kstore/shared.c):
     * only the two others reach the disk. */
    ASSERT_EQ(r->st.kernel_shares, 1);
    ASSERT_EQ(log_count(r, "cache", "miss"), 2);
    ASSERT_EQ(log_count(r, "cache", "(absent)"), 2);
    ASSERT_EQ(log_count(r, "cache", "stored"), 2);
    free(r);

    /* A new process: a hit, with its own build line. */
    jb.ncalls = 1;
    r = run_child(&jb, NULL);
    expect_all_ok(r, 1);
    line = log_line(r, "cache", "hit", dir);
    ASSERT(line != NULL);
    ASSERT_CONTAINS(line, "vector_op: hit ");
    line = log_line(r, "jit", "first call", "disk cache hit");
    ASSERT(line != NULL);
    ASSERT_CONTAINS(line, "0 compiled");
    expect_stage_times(line);
    ASSERT_EQ(log_count(r, "cache", "miss"), 0);
    free(r);
    test_drop_dir(dir);
}
