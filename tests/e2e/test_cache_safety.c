/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cache_safety.c - what the disk cache and artifacts refuse: a key
 * whose digest collides with another's (forced with the test hook
 * iron__kstore_test_digest) is a miss, never the other's kernel; files that
 * are not regular files, that are too large, owned by someone else or
 * writable by others are refused without blocking; temporary folders of
 * dead builds are swept; artifacts can be pinned to a SHA-256; and
 * IRON_CACHE_MAX is read strictly.
 *
 * Work that launches designs runs in forked children (run_child), so
 * that the test process never forks while emulator threads exist; the
 * child checks its own results and exits non-zero on failure.  Folders go
 * under the runner's private $IRON_CACHE_DIR.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "cache/dir.h"
#include "cache/entry.h"
#include "core/file.h"
#include "designs/designs.h"
#include "jit/jit.h"
#include "kstore/payload.h"
#include "test.h"

/* Any constant will do: every key digest becomes it. */
#define COLLIDE 0x5afe5afe5afe5afeull

/* ---- helpers ------------------------------------------------------------ */

/* The captured log ("topic\tline\n" ...); the handler may run on any
 * thread. */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static char log_buf[65536];
static size_t log_len;

static void capture(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    if (strcmp(topic, "emu") == 0)
        return;
    pthread_mutex_lock(&log_mu);
    size_t room = sizeof log_buf - log_len;
    int n = snprintf(log_buf + log_len, room, "%s\t%s\n", topic, line);
    if (n > 0 && (size_t)n < room)
        log_len += (size_t)n;
    pthread_mutex_unlock(&log_mu);
}

static void log_start(void)
{
    log_len = 0;
    log_buf[0] = '\0';
    iron_log_set_handler(capture, NULL);
}

/* Runs fn in a new process (which dies with this one and within 90 s);
 * fails the test unless it exits 0.  fn reports with the ASSERT macros,
 * which end the child with status 1 and a message on stderr. */
static void run_child(void (*fn)(const void *arg), const void *arg)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        alarm(90);
        fn(arg);
        fflush(stdout);
        fflush(stderr);
        _Exit(test_leaks() ? 3 : 0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(st))
        TEST_FAIL_("the child was killed by signal %d", WTERMSIG(st));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        TEST_FAIL_("the child failed (exit status %d)", WEXITSTATUS(st));
}

/* ---- a vector_op or add_constant call with every element checked -------- */

typedef struct call {
    const char *dir;          /* disk cache folder; NULL: cache off */
    int add_constant;         /* 0: vector_op with op; 1: add_constant c */
    const char *op;
    int64_t c;
    int64_t n;
    const char *load;         /* artifact to load first */
    const char *save;         /* artifact to save (before the call) */
    iron_status want;         /* the call's expected status */
} call;

static iron_jit *make_jit(const call *cl)
{
    iron_jit_options o = cl->add_constant ? add_constant_options
                                          : vector_op_options;
    o.disk_cache = cl->dir ? 1 : -1;
    o.cache_dir = cl->dir;
    iron_jit *j = NULL;
    ASSERT_OK(iron_jit_create(cl->add_constant ? add_constant_design
                                                   : vector_op_design,
                              &o, &j));
    return j;
}

/* One fresh jit, one call; returns its counters.  The jit is freed, so
 * the next call's jit finds nothing in memory: only the disk cache or an
 * artifact can give it kernels. */
static iron_jit_stats do_call(const call *cl)
{
    iron_jit *j = make_jit(cl);
    if (cl->load)
        ASSERT_OK(iron_jit_load_artifact(j, cl->load));
    iron_tensor *a, *b, *c;
    iron_shape sh = { .ndim = 1, .dims = { cl->n } };
    ASSERT_OK(iron_tensor_randint(IRON_INT32, sh, -1000, 1000, 5, &a));
    ASSERT_OK(iron_tensor_randint(IRON_INT32, sh, -1000, 1000, 6, &b));
    ASSERT_OK(iron_tensor_full(IRON_INT32, sh, -7, &c));
    iron_param p[2];
    int np = 0;
    if (cl->add_constant) {
        p[np++] = iron_param_int("n", cl->n);
        p[np++] = iron_param_int("c", cl->c);
    } else {
        p[np++] = iron_param_str("op", cl->op);
    }
    iron_tensor *const three[] = { a, b, c }, *const two[] = { a, c };
    iron_tensor *const *ts = cl->add_constant ? two : three;
    int nt = cl->add_constant ? 2 : 3;
    if (cl->save)
        ASSERT_OK(iron_jit_save_artifact(j, NULL, np, p, nt, ts, cl->save));
    iron_status s = test_keep(iron_jit_launch(j, NULL, np, p, IRON_NO_SCALARS,
                                              nt, ts));
    if (s != cl->want)
        TEST_FAIL_("%s %s%lld: expected %s, got %s: %s",
                   cl->add_constant ? "add_constant c=" : "vector_op op=",
                   cl->add_constant ? "" : cl->op,
                   (long long)(cl->add_constant ? cl->c : cl->n),
                   iron_status_name(cl->want), iron_status_name(s),
                   test_errmsg);
    if (s == IRON_OK) {
        const int32_t *va = iron_tensor_data(a), *vb = iron_tensor_data(b),
                      *vc = iron_tensor_data(c);
        for (int64_t e = 0; e < cl->n; e++) {
            int32_t want = cl->add_constant   ? va[e] + (int32_t)cl->c
                           : cl->op[0] == '-' ? va[e] - vb[e]
                                              : va[e] + vb[e];
            if (vc[e] != want)
                TEST_FAIL_("%s: element %lld is %d, expected %d (another "
                           "specialization's kernel ran)",
                           cl->add_constant ? "add_constant" : cl->op,
                           (long long)e, (int)vc[e], (int)want);
        }
    }
    iron_jit_stats st = test_stats(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    return st;
}

/* ---- 1. digest collisions ----------------------------------------------- */

static void collide_disk_child(const void *arg)
{
    const char *dir = arg;
    iron__jit_test_digest = iron__kstore_test_digest = COLLIDE;
    log_start();
    /* vector_op: the str parameter op is the kernel's OP define. */
    call plus = { .dir = dir, .op = "+", .n = 128, .want = IRON_OK };
    call minus = plus;
    minus.op = "-";
    iron_jit_stats st = do_call(&plus);
    ASSERT_EQ(st.disk_misses, 1);
    ASSERT_EQ(st.disk_writes, 1);
    ASSERT_EQ(test_count_files(dir), 1);
    /* Same digest, same file name, other key text: a miss, compiled. */
    st = do_call(&minus);
    ASSERT_EQ(st.disk_hits, 0);
    ASSERT_EQ(st.disk_misses, 1);
    ASSERT_EQ(st.kernel_compiles, 1);
    ASSERT_CONTAINS(log_buf, "key mismatch");
    /* And back: the entry is minus's now; plus misses again. */
    st = do_call(&plus);
    ASSERT_EQ(st.disk_hits, 0);
    ASSERT_EQ(st.kernel_compiles, 1);
    /* The entry holds plus: an exact match is still a hit. */
    st = do_call(&plus);
    ASSERT_EQ(st.disk_hits, 1);
    ASSERT_EQ(st.kernel_compiles, 0);
    ASSERT_EQ(test_count_files(dir), 1);

    /* add_constant: the int parameter c is the kernel's ADD_C define. */
    call c1 = { .dir = dir, .add_constant = 1, .c = 1, .n = 64,
                .want = IRON_OK };
    call c2 = c1;
    c2.c = 1000;
    st = do_call(&c1);
    ASSERT_EQ(st.disk_hits, 0);
    st = do_call(&c2);
    ASSERT_EQ(st.disk_hits, 0);
    ASSERT_EQ(st.kernel_compiles, 1);
    st = do_call(&c2);
    ASSERT_EQ(st.disk_hits, 1);
    st = do_call(&c1);
    ASSERT_EQ(st.disk_hits, 0);
    ASSERT_EQ(test_count_files(dir), 1);
    iron_log_set_handler(NULL, NULL);
}

TEST_TIMEOUT(safety_disk_key_collision_is_a_miss, 90)
{
    char *dir = test_cache_temp_dir("safety", "collide");
    run_child(collide_disk_child, dir);
    test_drop_dir(dir);
}

typedef struct art_args {
    const char *dir, *art;
} art_args;

static void save_plus_child(const void *arg)
{
    const art_args *a = arg;
    iron__jit_test_digest = iron__kstore_test_digest = COLLIDE;
    call plus = { .op = "+", .n = 128, .save = a->art, .want = IRON_OK };
    do_call(&plus);
}

/* An artifact made for op='+' loaded into a jit called with op='-', the
 * two digests equal: compiled, never the artifact's kernel. */
static void load_minus_child(const void *arg)
{
    const art_args *a = arg;
    iron__jit_test_digest = iron__kstore_test_digest = COLLIDE;
    log_start();
    call minus = { .op = "-", .n = 128, .load = a->art, .want = IRON_OK };
    iron_jit_stats st = do_call(&minus);
    ASSERT_EQ(st.artifact_hits, 0);
    ASSERT_EQ(st.kernel_compiles, 1);
    ASSERT_CONTAINS(log_buf, "key mismatch");
    ASSERT_CONTAINS(log_buf, a->art);
    /* The one it was made for still comes from it. */
    call plus = { .op = "+", .n = 128, .load = a->art, .want = IRON_OK };
    st = do_call(&plus);
    ASSERT_EQ(st.artifact_hits, 1);
    ASSERT_EQ(st.kernel_compiles, 0);
    iron_log_set_handler(NULL, NULL);
}

/* The same without a compiler: the call fails, naming the artifact. */
static void load_minus_no_cc_child(const void *arg)
{
    const art_args *a = arg;
    iron__jit_test_digest = iron__kstore_test_digest = COLLIDE;
    setenv("IRON_CC", "/nonexistent/iron-test-cc", 1);
    call minus = { .op = "-", .n = 128, .load = a->art,
                   .want = IRON_ECOMPILE };
    iron_jit_stats st = do_call(&minus);
    ASSERT_EQ(st.artifact_hits, 0);
    ASSERT_CONTAINS(test_errmsg, "no loaded artifact matches");
    ASSERT_CONTAINS(test_errmsg, a->art);
    ASSERT_CONTAINS(test_errmsg, "op='+'");
}

TEST_TIMEOUT(safety_artifact_key_collision_is_not_used, 90)
{
    char *dir = test_cache_temp_dir("safety", "artcollide");
    char art[600];
    snprintf(art, sizeof art, "%s/plus.iron-artifact", dir);
    art_args a = { dir, art };
    run_child(save_plus_child, &a);
    run_child(load_minus_child, &a);
    run_child(load_minus_no_cc_child, &a);
    test_drop_dir(dir);
}

/* ---- 2. files that are not what they seem ------------------------------- */

static void load_fails(const char *path, iron_status want,
                       const char *needle)
{
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    double t0 = test_now_ms();
    iron_status s = iron_jit_load_artifact(j, path);
    double ms = test_now_ms() - t0;
    if (s != want || !strstr(iron_last_error(), needle) ||
        !strstr(iron_last_error(), path))
        TEST_FAIL_("loading %s: expected %s naming \"%s\" and the path, "
                   "got %s: %s",
                   path, iron_status_name(want), needle, iron_status_name(s),
                   iron_last_error());
    if (ms > 2000)
        TEST_FAIL_("loading %s took %.0f ms: it must fail at once", path, ms);
    iron_jit_free(j);
}

/* A FIFO used to block open() forever, /dev/zero to be read to no end. */
TEST_TIMEOUT(safety_artifact_not_a_regular_file, 20)
{
    char *dir = test_cache_temp_dir("safety", "fifo");
    char fifo[600];
    snprintf(fifo, sizeof fifo, "%s/art.fifo", dir);
    ASSERT_EQ(mkfifo(fifo, 0600), 0);
    load_fails(fifo, IRON_EIO, "not a regular file (a FIFO)");
    load_fails("/dev/zero", IRON_EIO,
               "not a regular file (a character device)");
    load_fails(dir, IRON_EIO, "not a regular file (a folder)");
    /* A link to a FIFO: followed, and the FIFO refused. */
    char link[600];
    snprintf(link, sizeof link, "%s/art.link", dir);
    ASSERT_EQ(symlink(fifo, link), 0);
    load_fails(link, IRON_EIO, "not a regular file (a FIFO)");
    /* Over the size limit (sparse: costs no disk). */
    char big[600];
    snprintf(big, sizeof big, "%s/big.iron-artifact", dir);
    test_spit(big, "IRONCACH", 8);
    ASSERT_EQ(truncate(big, (off_t)IRON__FILE_ENTRY_MAX + 1), 0);
    load_fails(big, IRON_EIO, "more than the 268435456 accepted");
    test_drop_dir(dir);
}

static void save_artifact_child(const void *arg)
{
    const char *art = arg;
    call plus = { .op = "+", .n = 128, .save = art, .want = IRON_OK };
    do_call(&plus);
    struct stat st;
    ASSERT_EQ(stat(art, &st), 0);
    ASSERT_EQ(st.st_mode & (S_IWGRP | S_IWOTH), 0);
}

TEST_TIMEOUT(safety_artifact_owner_and_mode, 60)
{
    char *dir = test_cache_temp_dir("safety", "owner");
    char art[600];
    snprintf(art, sizeof art, "%s/a.iron-artifact", dir);
    run_child(save_artifact_child, art);
    iron_jit *j;
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    ASSERT_OK(iron_jit_load_artifact(j, art));
    ASSERT_EQ(chmod(art, 0666), 0);
    load_fails(art, IRON_EIO, "mode 0666 lets others write it; accepted: "
                              "files only their owner can write");
    ASSERT_EQ(chmod(art, 0664), 0);
    load_fails(art, IRON_EIO, "mode 0664 lets the group write it");
    ASSERT_EQ(chmod(art, 0444), 0);
    ASSERT_OK(iron_jit_load_artifact(j, art));
    if (geteuid() == 0) {
        ASSERT_EQ(chown(art, 4242, 4242), 0);
        char want[128];
        snprintf(want, sizeof want,
                 "owned by uid 4242; accepted: files of this user (uid %lu) "
                 "or of root", (unsigned long)geteuid());
        load_fails(art, IRON_EIO, want);
    }
    iron_jit_free(j);
    test_drop_dir(dir);
}

/* ---- 3. files a cache entry names --------------------------------------- */

static void le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The payload `pl` with one more included file, `path`, recorded first
 * for its first object. */
static unsigned char *add_dep(const unsigned char *pl, size_t len,
                              const char *path, size_t *out_len)
{
    uint32_t nk = get32(pl + 8);
    size_t at = 16 + 4 * (size_t)nk;           /* object 0's dep count */
    ASSERT_LT(at + 4, len);
    size_t plen = strlen(path), add = 4 + plen + 16;
    unsigned char *b = malloc(len + add);
    ASSERT(b != NULL);
    memcpy(b, pl, at);
    le32(b + at, get32(pl + at) + 1);
    unsigned char *q = b + at + 4;
    le32(q, (uint32_t)plen);
    memcpy(q + 4, path, plen);
    le64(q + 4 + plen, 0);
    le64(q + 12 + plen, 0);
    memcpy(b + at + 4 + add, pl + at + 4, len - at - 4);
    *out_len = len + add;
    return b;
}

/* Rewrites the entry file at path with `payload`: key, key text and name
 * kept, checksums valid. */
static void rewrite_entry(const char *path, const unsigned char *orig,
                          const void *payload, size_t plen)
{
    iron__cache_key key = { get64(orig + IRON__CACHE_OFF_KEY),
                            get64(orig + IRON__CACHE_OFF_KEY + 8) };
    size_t tlen = (size_t)get64(orig + IRON__CACHE_OFF_TEXT_LEN);
    const char *text = (const char *)orig + IRON__CACHE_HEADER_BYTES;
    iron__cache_header h;
    iron__cache_header_init(&h, key, text, tlen,
                            (const char *)orig + IRON__CACHE_OFF_NAME,
                            "rewritten by test_cache_safety", payload, plen);
    size_t n = IRON__CACHE_HEADER_BYTES + tlen + plen;
    unsigned char *buf = malloc(n);
    ASSERT(buf != NULL);
    iron__cache_header_encode(&h, buf);
    memcpy(buf + IRON__CACHE_HEADER_BYTES, text, tlen);
    memcpy(buf + IRON__CACHE_HEADER_BYTES + tlen, payload, plen);
    test_spit(path, buf, n);
    free(buf);
}

static void plus_child(const void *arg)
{
    call plus = { .dir = arg, .op = "+", .n = 128, .want = IRON_OK };
    iron_jit_stats st = do_call(&plus);
    ASSERT_EQ(st.disk_writes, 1);
}

static const char *dep_path;
static const char *dep_reason;

/* The entry names dep_path as an included file: the call must not hang
 * on it, and must miss (naming it) and rebuild. */
static void dep_miss_child(const void *arg)
{
    log_start();
    call plus = { .dir = arg, .op = "+", .n = 128, .want = IRON_OK };
    iron_jit_stats st = do_call(&plus);
    ASSERT_EQ(st.disk_hits, 0);
    ASSERT_EQ(st.disk_misses, 1);
    ASSERT_EQ(st.kernel_compiles, 1);
    ASSERT_CONTAINS(log_buf, "header changed");
    ASSERT_CONTAINS(log_buf, dep_path);
    ASSERT_CONTAINS(log_buf, dep_reason);
    iron_log_set_handler(NULL, NULL);
}

static char *only_entry(const char *dir)
{
    DIR *d = opendir(dir);
    ASSERT(d != NULL);
    char *found = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (iron__cache_fname_kind(e->d_name, NULL) == IRON__CACHE_ENTRY) {
            ASSERT(found == NULL);
            found = malloc(1024);
            ASSERT(found != NULL);
            snprintf(found, 1024, "%s/%s", dir, e->d_name);
        }
    closedir(d);
    ASSERT(found != NULL);
    return found;
}

TEST_TIMEOUT(safety_entry_naming_a_device_or_fifo, 120)
{
    char *dir = test_cache_temp_dir("safety", "deps");
    char fifo[600], big[600];
    snprintf(fifo, sizeof fifo, "%s/header.fifo", dir);
    snprintf(big, sizeof big, "%s/huge.h", dir);
    ASSERT_EQ(mkfifo(fifo, 0600), 0);
    test_spit(big, "", 0);
    ASSERT_EQ(truncate(big, (off_t)IRON__FILE_HEADER_MAX + 1), 0);
    char cache[600];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    ASSERT_EQ(mkdir(cache, 0700), 0);
    const struct {
        const char *path, *reason;
    } deps[] = {
        { "/dev/zero", "not a regular file (a character device)" },
        { fifo, "not a regular file (a FIFO)" },
        { big, "more than the 67108864 accepted" },
    };
    run_child(plus_child, cache);
    for (size_t i = 0; i < IRON__COUNT_OF(deps); i++) {
        /* The entry there (the first, or the one the last rebuild
         * wrote) with one more included file. */
        char *entry = only_entry(cache);
        size_t len;
        unsigned char *orig = test_slurp(entry, &len);
        size_t tlen = (size_t)get64(orig + IRON__CACHE_OFF_TEXT_LEN);
        size_t off = IRON__CACHE_HEADER_BYTES + tlen;
        size_t plen;
        unsigned char *pl = add_dep(orig + off, len - off, deps[i].path,
                                    &plen);
        rewrite_entry(entry, orig, pl, plen);
        dep_path = deps[i].path;
        dep_reason = deps[i].reason;
        run_child(dep_miss_child, cache);
        free(pl);
        free(orig);
        free(entry);
    }
    test_drop_dir(dir);
}

/* The same checks at the payload level, and a regular file that is
 * unchanged is fresh. */
TEST(safety_payload_deps_fresh)
{
    char *dir = test_cache_temp_dir("safety", "fresh");
    char hdr[600];
    snprintf(hdr, sizeof hdr, "%s/k.h", dir);
    test_spit(hdr, "#define K 1\n", 12);
    /* One kernel, one object, one included file, an empty image. */
    const char *paths[] = { hdr, "/dev/zero", "/dev/null" };
    for (size_t i = 0; i < IRON__COUNT_OF(paths); i++) {
        size_t pl = strlen(paths[i]);
        size_t n = 8 + 4 + 4 + 4 + 4 + 4 + pl + 16 + 8;
        unsigned char *b = calloc(1, n), *q = b;
        ASSERT(b != NULL);
        memcpy(q, "IRONPAY1", 8), q += 8;
        le32(q, 1), q += 4;
        le32(q, 1), q += 4;
        le32(q, 0), q += 4;
        le32(q, 1), q += 4;
        le32(q, (uint32_t)pl), q += 4;
        memcpy(q, paths[i], pl), q += pl;
        le64(q, 12), q += 8;
        le64(q, XXH3_64bits("#define K 1\n", 12)), q += 8;
        le64(q, 0);
        iron__kstore_payload p;
        const char *why = "";
        ASSERT_OK(iron__kstore_payload_decode(b, n, &p, &why));
        char changed[512] = "";
        int fresh = iron__kstore_payload_deps_fresh(&p, changed,
                                                    sizeof changed);
        ASSERT_EQ(fresh, i == 0);
        if (i > 0) {
            ASSERT_CONTAINS(changed, paths[i]);
            ASSERT_CONTAINS(changed, "not a regular file (a character "
                                     "device)");
        }
        iron__kstore_payload_free(&p);
        free(b);
    }
    test_drop_dir(dir);
}

/* ---- 4. pinned artifacts ------------------------------------------------ */

static void sha256sum(const char *path, char *hex)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    ASSERT(fgets(hex, 65, p) != NULL);
    pclose(p);
    ASSERT_EQ(strlen(hex), 64);
}

static const char *pinned_art, *pinned_sha;

static void pinned_call_child(const void *arg)
{
    (void)arg;
    setenv("IRON_CC", "/nonexistent/iron-test-cc", 1);
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    ASSERT_OK(iron_jit_load_artifact_pinned(j, pinned_art, pinned_sha));
    iron_tensor *a = test_arange(IRON_INT32, 128);
    iron_tensor *b = test_arange(IRON_INT32, 128);
    iron_tensor *c = test_zeros(IRON_INT32, 128);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "+")), a, b,
                             c));
    for (int i = 0; i < 128; i++)
        ASSERT_EQ(test_at(c, i), 2 * i);
    ASSERT_EQ(test_stats(j).artifact_hits, 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

TEST_TIMEOUT(safety_pinned_artifact, 90)
{
    char *dir = test_cache_temp_dir("safety", "pin");
    char art[600], other[600];
    snprintf(art, sizeof art, "%s/plus.iron-artifact", dir);
    snprintf(other, sizeof other, "%s/minus.iron-artifact", dir);
    run_child(save_artifact_child, art);
    char sha[80];
    sha256sum(art, sha);            /* an independent implementation */
    pinned_art = art;
    pinned_sha = sha;
    run_child(pinned_call_child, NULL);

    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &o, &j));
    /* Upper case is the same digest. */
    char upper[80];
    for (size_t i = 0; i <= strlen(sha); i++)
        upper[i] = (char)((sha[i] >= 'a' && sha[i] <= 'f') ? sha[i] - 32
                                                          : sha[i]);
    ASSERT_OK(iron_jit_load_artifact_pinned(j, art, upper));
    /* One digit off: refused, naming both digests. */
    char wrong[80];
    snprintf(wrong, sizeof wrong, "%s", sha);
    wrong[10] = wrong[10] == '0' ? '1' : '0';
    ASSERT_FAILS(iron_jit_load_artifact_pinned(j, art, wrong), IRON_EIO,
                 "is not the pinned one");
    ASSERT_CONTAINS(iron_last_error(), sha);
    ASSERT_CONTAINS(iron_last_error(), wrong);
    ASSERT_CONTAINS(iron_last_error(), art);
    /* A file replaced by another valid artifact: refused. */
    size_t len;
    unsigned char *bytes = test_slurp(art, &len);
    bytes[IRON__CACHE_OFF_SIGNATURE] ^= 1;   /* header sum now wrong */
    test_spit(other, bytes, len);
    ASSERT_FAILS(iron_jit_load_artifact_pinned(j, other, sha), IRON_EIO,
                 "header checksum mismatch");
    bytes[IRON__CACHE_OFF_SIGNATURE] ^= 1;
    le64(bytes + IRON__CACHE_OFF_HEADER_SUM,
         XXH3_64bits(bytes, IRON__CACHE_OFF_HEADER_SUM));
    bytes[IRON__CACHE_OFF_SIGNATURE + 1] ^= 1;
    le64(bytes + IRON__CACHE_OFF_HEADER_SUM,
         XXH3_64bits(bytes, IRON__CACHE_OFF_HEADER_SUM));
    test_spit(other, bytes, len);
    ASSERT_OK(iron_jit_load_artifact(j, other));   /* valid, but ... */
    ASSERT_FAILS(iron_jit_load_artifact_pinned(j, other, sha), IRON_EIO,
                 "is not the pinned one");         /* ... not the one */
    free(bytes);
    /* Not a digest at all. */
    ASSERT_FAILS(iron_jit_load_artifact_pinned(j, art, "abc"), IRON_EINVAL,
                 "not a SHA-256 digest");
    char nonhex[80];
    snprintf(nonhex, sizeof nonhex, "%s", sha);
    nonhex[3] = 'g';
    ASSERT_FAILS(iron_jit_load_artifact_pinned(j, art, nonhex), IRON_EINVAL,
                 "64 hex digits");
    ASSERT_FAILS(iron_jit_load_artifact_pinned(j, art, NULL), IRON_EINVAL,
                 "sha256_hex is NULL");
    ASSERT_FAILS(iron_jit_load_artifact_pinned(NULL, art, sha), IRON_EINVAL,
                 "jit is NULL");
    iron_jit_free(j);
    test_drop_dir(dir);
}

/* ---- 5. temporary folders of dead builds -------------------------------- */

static pid_t dead_pid(void)
{
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0)
        _Exit(0);
    int st;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    ASSERT(kill(pid, 0) == -1 && errno == ESRCH);
    return pid;
}

static void make_tree(const char *path, int seconds_ago)
{
    ASSERT_EQ(mkdir(path, 0700), 0);
    char f[900];
    snprintf(f, sizeof f, "%s/kernel.c", path);
    test_spit(f, "int x;\n", 7);
    snprintf(f, sizeof f, "%s/sub", path);
    ASSERT_EQ(mkdir(f, 0700), 0);
    snprintf(f, sizeof f, "%s/sub/deeper.o", path);
    test_spit(f, "o", 1);
    struct timespec ts[2];
    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec -= seconds_ago;
    ts[1] = ts[0];
    ASSERT_EQ(utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW), 0);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void build_child(const void *arg)
{
    setenv("TMPDIR", arg, 1);
    log_start();
    call plus = { .op = "+", .n = 64, .want = IRON_OK };
    iron_jit_stats st = do_call(&plus);
    ASSERT_EQ(st.kernel_compiles, 1);
    iron_log_set_handler(NULL, NULL);
}

TEST_TIMEOUT(safety_stale_temp_folders_are_swept, 60)
{
    char *tmp = test_cache_temp_dir("safety", "tmp");
    char *keep = test_cache_temp_dir("safety", "keep");
    pid_t dead = dead_pid();
    char stale[600], young[600], live[600], link[600], zero[600],
        longname[600], file[600], foreign[600], target[600];
    const int hour = 3600;
    snprintf(stale, sizeof stale, "%s/iron-%ld-aB3xY9", tmp, (long)dead);
    make_tree(stale, hour);
    /* Dead but changed recently: maybe a pid of another namespace. */
    snprintf(young, sizeof young, "%s/iron-%ld-young1", tmp, (long)dead);
    make_tree(young, 60);
    /* Alive (the test runner), however old. */
    snprintf(live, sizeof live, "%s/iron-%ld-live01", tmp, (long)getppid());
    make_tree(live, hour);
    /* Not exactly our pattern: a leading zero, seven letters, a file. */
    snprintf(zero, sizeof zero, "%s/iron-0%ld-zero01", tmp, (long)dead);
    make_tree(zero, hour);
    snprintf(longname, sizeof longname, "%s/iron-%ld-seven77", tmp,
             (long)dead);
    make_tree(longname, hour);
    snprintf(file, sizeof file, "%s/iron-%ld-file01", tmp, (long)dead);
    test_spit(file, "f", 1);
    /* A link that matches, pointing at a folder that must stay whole. */
    snprintf(target, sizeof target, "%s/target", keep);
    make_tree(target, hour);
    snprintf(link, sizeof link, "%s/iron-%ld-link01", tmp, (long)dead);
    ASSERT_EQ(symlink(target, link), 0);
    /* Another user's (only root can make one). */
    snprintf(foreign, sizeof foreign, "%s/iron-%ld-other1", tmp, (long)dead);
    int root = geteuid() == 0;
    if (root) {
        make_tree(foreign, hour);
        ASSERT_EQ(lchown(foreign, 4242, 4242), 0);
        struct timespec ts[2];
        clock_gettime(CLOCK_REALTIME, &ts[0]);
        ts[0].tv_sec -= hour;
        ts[1] = ts[0];
        ASSERT_EQ(utimensat(AT_FDCWD, foreign, ts, 0), 0);
    }

    run_child(build_child, tmp);

    ASSERT(!exists(stale));
    ASSERT(exists(young));
    ASSERT(exists(live));
    ASSERT(exists(zero));
    ASSERT(exists(longname));
    ASSERT(exists(file));
    ASSERT(exists(link));
    char inside[700];
    snprintf(inside, sizeof inside, "%s/sub/deeper.o", target);
    ASSERT(exists(inside));
    if (root)
        ASSERT(exists(foreign));
    /* The build cleaned up its own folder as well: only ours remain. */
    ASSERT_EQ(test_count_files(tmp), root ? 7 : 6);
    test_drop_dir(tmp);
    test_drop_dir(keep);
}

/* ---- 6. IRON_CACHE_MAX -------------------------------------------------- */


static void cache_max_child(const void *arg)
{
    /* Before the first cache open.  strtod made this infinity, and the
     * cast to uint64_t was undefined (UBSan) -- in practice a cap of 2^63,
     * that is none. */
    setenv("IRON_CACHE_MAX", "1e400", 1);
    test_catch_warnings();
    call plus = { .dir = arg, .op = "+", .n = 64, .want = IRON_OK };
    iron_jit *j = make_jit(&plus);
    iron_tensor *a = test_arange(IRON_INT32, 64);
    iron_tensor *b = test_arange(IRON_INT32, 64);
    iron_tensor *c = test_zeros(IRON_INT32, 64);
    ASSERT_OK(IRON_CALL(j, a, b, c));
    const iron__cache *cache = iron__kstore_disk_cache(j->kstore);
    ASSERT(cache != NULL);
    ASSERT_EQ(cache->max_bytes, IRON__CACHE_DEFAULT_MAX_BYTES);
    ASSERT_CONTAINS(test_warning,
                    "IRON_CACHE_MAX='1e400' is not a byte count");
    ASSERT_CONTAINS(test_warning, "using 268435456");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);

    /* A good value is the cap. */
    setenv("IRON_CACHE_MAX", "3M", 1);
    j = make_jit(&plus);
    a = test_arange(IRON_INT32, 64);
    b = test_arange(IRON_INT32, 64);
    c = test_zeros(IRON_INT32, 64);
    ASSERT_OK(IRON_CALL(j, a, b, c));
    cache = iron__kstore_disk_cache(j->kstore);
    ASSERT(cache != NULL);
    ASSERT_EQ(cache->max_bytes, 3ull << 20);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    iron_log_set_handler(NULL, NULL);
}

TEST_TIMEOUT(safety_cache_max_env_is_strict, 60)
{
    char *dir = test_cache_temp_dir("safety", "max");
    run_child(cache_max_child, dir);
    test_drop_dir(dir);
}
