/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cache.c - the disk cache (src/cache): round trips, every kind of
 * damaged entry as a miss with its reason, concurrent writers in several
 * processes, LRU eviction, prune, clear, listing, folder resolution and
 * failures (unwritable folder, full disk, allocation).  Every test works
 * in its own mkdtemp folder, never in the user's cache.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/atomic.h"
#include "cache/cache.h"
#include "cache/entry.h"
#include "core/file.h"
#include "cache/sha256.h"
#include "core/core.h"
#include "test.h"

/* ---- helpers ---------------------------------------------------------- */

static const char *temp_dir(void)
{
    return test_temp_dir("cache");
}

static void done_dir(const char *dir)
{
    test_remove_dir(dir);
}

static iron__cache *open_dir(const char *dir, uint64_t max_bytes)
{
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, dir, max_bytes));
    ASSERT(c != NULL);
    return c;
}

/* The key text entries carry for a key in these tests: its own hex
 * digits (any fixed text per key will do; the jit's is a whole design).
 * A compound literal, so that threads each get their own. */
#define KT(k) iron__cache_key_hex((k), (char[33]){ 0 })

/* Keys spread over all 128 bits, as real ones are. */
static iron__cache_key key_n(unsigned n)
{
    XXH128_hash_t h = XXH3_128bits(&n, sizeof n);
    iron__cache_key k = { h.high64, h.low64 };
    return k;
}

/* The one right payload for a key: its bytes and length follow from it,
 * as a compiled kernel follows from its specialization. */
static size_t payload_len_for(iron__cache_key k)
{
    return 500 + (size_t)(k.lo % 6000);
}

static void payload_for(iron__cache_key k, unsigned char *buf, size_t len)
{
    uint64_t x = k.hi ^ k.lo;
    for (size_t i = 0; i < len; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        buf[i] = (unsigned char)(x >> 56);
    }
}

static void put_n(iron__cache *c, unsigned n)
{
    iron__cache_key k = key_n(n);
    size_t len = payload_len_for(k);
    unsigned char *buf = malloc(len);
    ASSERT(buf != NULL);
    payload_for(k, buf, len);
    char name[32];
    snprintf(name, sizeof name, "kernel%u", n);
    ASSERT_OK(iron__cache_put(c, k, KT(k), 32, name, "int32[64], tile=16",
                              buf, len));
    free(buf);
}

/* Gets key n and checks the payload byte for byte. */
static void get_n_ok(iron__cache *c, unsigned n)
{
    iron__cache_key k = key_n(n);
    void *p = NULL;
    size_t len = 0;
    const char *why = NULL;
    ASSERT_OK(iron__cache_get(c, k, KT(k), 32, &p, &len, &why));
    size_t want = payload_len_for(k);
    ASSERT_EQ(len, want);
    unsigned char *buf = malloc(want);
    ASSERT(buf != NULL);
    payload_for(k, buf, want);
    ASSERT(memcmp(p, buf, want) == 0);
    free(buf);
    iron__free(p);
}

/* A get that must miss with a reason containing `reason`. */
static void get_miss(iron__cache *c, iron__cache_key k, const char *reason)
{
    void *p = (void *)1;
    size_t len = 1;
    const char *why = NULL;
    ASSERT_FAILS(iron__cache_get(c, k, KT(k), 32, &p, &len, &why), IRON_EIO,
                 reason);
    ASSERT(p == NULL);
    ASSERT_EQ(len, 0);
    ASSERT_CONTAINS(why, reason);
}

static const char *entry_path(const char *dir, iron__cache_key k)
{
    static char path[512];
    char fname[IRON__CACHE_FNAME_MAX];
    snprintf(path, sizeof path, "%s/%s", dir,
             iron__cache_entry_fname(k, fname));
    return path;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Counts the folder's files by kind. */
static void count_files(const char *dir, int *entries, int *temps,
                        int *others)
{
    DIR *d = opendir(dir);
    ASSERT(d != NULL);
    *entries = *temps = 0;
    if (others)
        *others = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        switch (iron__cache_fname_kind(e->d_name, NULL)) {
        case IRON__CACHE_ENTRY: (*entries)++; break;
        case IRON__CACHE_TEMP: (*temps)++; break;
        default:
            if (others)
                (*others)++;
            break;
        }
    }
    closedir(d);
}

static void set_age(const char *path, int seconds_ago)
{
    struct timespec ts[2];
    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec -= seconds_ago;
    ts[1] = ts[0];
    ASSERT_EQ(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* Little-endian writers for hand-made headers: an encoder independent of
 * the library's, so the documented layout itself is under test. */
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

/* An entry file written by hand: header fields as given, the key text
 * KT(k), a valid header checksum, the payload after the text. */
static void hand_entry(const char *path, uint32_t format,
                       const char *version, iron__cache_key k,
                       const char *name, const void *payload, size_t len)
{
    const char *text = KT(k);
    unsigned char *b = calloc(1, 664 + 32 + len);
    ASSERT(b != NULL);
    memcpy(b, "IRONCACH", 8);
    le32(b + 8, format);
    memcpy(b + 16, version, strlen(version));
    le64(b + 32, k.hi);
    le64(b + 40, k.lo);
    memcpy(b + 48, name, strlen(name));
    memcpy(b + 112, "int32[4]", 8);
    le64(b + 624, 32);
    le64(b + 632, XXH3_64bits(text, 32));
    le64(b + 640, len);
    le64(b + 648, XXH3_64bits(payload, len));
    le64(b + 656, XXH3_64bits(b, 656));
    memcpy(b + 664, text, 32);
    memcpy(b + 664 + 32, payload, len);
    test_spit(path, b, 664 + 32 + len);
    free(b);
}

/* Header plus key text: what an entry of these tests costs besides its
 * payload. */
#define OVERHEAD (IRON__CACHE_HEADER_BYTES + 32)

/* ---- round trips ------------------------------------------------------ */

TEST(cache_put_get_round_trip)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    ASSERT_STR_EQ(iron__cache_dir(c), dir);
    for (unsigned n = 0; n < 5; n++)
        put_n(c, n);
    for (unsigned n = 0; n < 5; n++)
        get_n_ok(c, n);

    /* An empty payload is an entry like any other. */
    iron__cache_key k = key_n(100);
    void *p = NULL;
    size_t len = 7;
    const char *why = "x";
    ASSERT_OK(iron__cache_put(c, k, KT(k), 32, "empty", "", NULL, 0));
    ASSERT_OK(iron__cache_get(c, k, KT(k), 32, &p, &len, &why));
    ASSERT_EQ(len, 0);
    ASSERT(why == NULL);
    iron__free(p);

    /* A second put of a key replaces the entry as a whole. */
    ASSERT_OK(iron__cache_put(c, k, KT(k), 32, "empty", "", "new", 3));
    ASSERT_OK(iron__cache_get(c, k, KT(k), 32, &p, &len, &why));
    ASSERT_EQ(len, 3);
    ASSERT(memcmp(p, "new", 3) == 0);
    iron__free(p);

    /* Entries are private to the user; no temporary file remains. */
    struct stat st;
    ASSERT_EQ(stat(entry_path(dir, k), &st), 0);
    ASSERT_EQ(st.st_mode & 0777, 0600);
    ASSERT_EQ(st.st_size, OVERHEAD + 3);
    int entries, temps;
    count_files(dir, &entries, &temps, NULL);
    ASSERT_EQ(entries, 6);
    ASSERT_EQ(temps, 0);

    /* Another handle (another process, later) sees the same entries. */
    iron__cache_close(c);
    c = open_dir(dir, 0);
    get_n_ok(c, 3);
    iron__cache_close(c);
    iron__cache_close(NULL);
    done_dir(dir);
}

TEST(cache_get_absent)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    get_miss(c, key_n(1), "absent");
    ASSERT_CONTAINS(iron_last_error(), dir);
    /* The why pointer is also optional. */
    void *p;
    size_t len;
    ASSERT_FAILS(iron__cache_get(c, key_n(1), KT(key_n(1)), 32, &p, &len,
                                 NULL),
                 IRON_EIO, "absent");
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_key_hex_and_file_names)
{
    iron__cache_key k = { 0x0123456789abcdefull, 0xfedcba9876543210ull };
    char hex[33], fname[IRON__CACHE_FNAME_MAX];
    ASSERT_STR_EQ(iron__cache_key_hex(k, hex),
                  "0123456789abcdeffedcba9876543210");
    ASSERT_STR_EQ(iron__cache_entry_fname(k, fname),
                  "0123456789abcdeffedcba9876543210.iron");
    iron__cache_key back = { 0, 0 };
    ASSERT_EQ(iron__cache_fname_kind(fname, &back), IRON__CACHE_ENTRY);
    ASSERT(back.hi == k.hi && back.lo == k.lo);
    ASSERT_EQ(iron__cache_fname_kind(
                  "0123456789abcdeffedcba9876543210.tmp.12.ab", NULL),
              IRON__CACHE_TEMP);
    /* Only what the cache writes is the cache's. */
    ASSERT_EQ(iron__cache_fname_kind(
                  "0123456789ABCDEFFEDCBA9876543210.iron", NULL),
              IRON__CACHE_OTHER);
    ASSERT_EQ(iron__cache_fname_kind("0123.iron", NULL), IRON__CACHE_OTHER);
    ASSERT_EQ(iron__cache_fname_kind(
                  "0123456789abcdeffedcba9876543210.iron~", NULL),
              IRON__CACHE_OTHER);
    ASSERT_EQ(iron__cache_fname_kind("notes.txt", NULL), IRON__CACHE_OTHER);
}

/* ---- damaged entries are misses with a reason ------------------------- */

TEST(cache_truncated_entry_is_miss)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    iron__cache_key k = key_n(7);
    put_n(c, 7);
    const char *path = entry_path(dir, k);
    size_t full;
    unsigned char *bytes = test_slurp(path, &full);
    ASSERT_GT(full, OVERHEAD + 100);
    /* In the magic, in the format, in the header, at its end, in the key
     * text, in the payload, one byte short. */
    const size_t cuts[] = { 0, 1, 7, 8, 10, 12, 100, 640, 663,
                            IRON__CACHE_HEADER_BYTES,
                            IRON__CACHE_HEADER_BYTES + 1, OVERHEAD - 1,
                            OVERHEAD, OVERHEAD + 100, full - 1 };
    for (size_t i = 0; i < IRON__COUNT_OF(cuts); i++) {
        test_spit(path, bytes, cuts[i]);
        get_miss(c, k, "truncated");
        ASSERT_CONTAINS(iron_last_error(), path);
    }
    /* Longer than announced is damage too. */
    unsigned char *longer = malloc(full + 1);
    ASSERT(longer != NULL);
    memcpy(longer, bytes, full);
    longer[full] = 0;
    test_spit(path, longer, full + 1);
    get_miss(c, k, "size mismatch");
    free(longer);
    /* The whole file again: a hit. */
    test_spit(path, bytes, full);
    get_n_ok(c, 7);
    free(bytes);
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_flipped_byte_is_miss)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    iron__cache_key k = key_n(8);
    put_n(c, 8);
    const char *path = entry_path(dir, k);
    size_t full;
    unsigned char *bytes = test_slurp(path, &full);

    /* Payload bytes: first, middle, last. */
    const size_t at[] = { OVERHEAD, OVERHEAD + 123, full - 1 };
    for (size_t i = 0; i < IRON__COUNT_OF(at); i++) {
        bytes[at[i]] ^= 0x10;
        test_spit(path, bytes, full);
        get_miss(c, k, "checksum mismatch");
        bytes[at[i]] ^= 0x10;
    }
    /* Key text bytes: first and last. */
    const size_t tat[] = { IRON__CACHE_HEADER_BYTES, OVERHEAD - 1 };
    for (size_t i = 0; i < IRON__COUNT_OF(tat); i++) {
        bytes[tat[i]] ^= 0x04;
        test_spit(path, bytes, full);
        get_miss(c, k, "key text checksum mismatch");
        bytes[tat[i]] ^= 0x04;
    }
    /* Header fields the header checksum covers: name, lengths, version,
     * key, the text's checksum. */
    const size_t hat[] = { IRON__CACHE_OFF_NAME, IRON__CACHE_OFF_PAYLOAD_LEN,
                           IRON__CACHE_OFF_TEXT_LEN, IRON__CACHE_OFF_TEXT_SUM,
                           IRON__CACHE_OFF_VERSION, IRON__CACHE_OFF_KEY + 3,
                           IRON__CACHE_OFF_HEADER_SUM };
    for (size_t i = 0; i < IRON__COUNT_OF(hat); i++) {
        bytes[hat[i]] ^= 0x01;
        test_spit(path, bytes, full);
        get_miss(c, k, "header checksum mismatch");
        bytes[hat[i]] ^= 0x01;
    }
    bytes[2] ^= 0x20;
    test_spit(path, bytes, full);
    get_miss(c, k, "bad magic");
    bytes[2] ^= 0x20;
    test_spit(path, bytes, full);
    get_n_ok(c, 8);
    free(bytes);
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_foreign_format_and_version_are_misses)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    iron__cache_key k = key_n(9);
    const char *path = entry_path(dir, k);
    static const char data[] = "compiled kernel bytes";

    char why[64];
    hand_entry(path, 0, iron_version(), k, "old", data, sizeof data);
    snprintf(why, sizeof why, "format 0, expected %d", IRON__CACHE_FORMAT);
    get_miss(c, k, why);
    hand_entry(path, IRON__CACHE_FORMAT + 1, iron_version(), k, "new", data,
               sizeof data);
    snprintf(why, sizeof why, "format %d, expected %d",
             IRON__CACHE_FORMAT + 1, IRON__CACHE_FORMAT);
    get_miss(c, k, why);
    hand_entry(path, IRON__CACHE_FORMAT, "0.0.9", k, "older", data,
               sizeof data);
    get_miss(c, k, "library 0.0.9, expected 0.4.0");

    /* The same hand-written layout with this library's version is a hit:
     * the documented layout is the one read. */
    hand_entry(path, IRON__CACHE_FORMAT, iron_version(), k, "mine", data,
               sizeof data);
    void *p = NULL;
    size_t len = 0;
    ASSERT_OK(iron__cache_get(c, k, KT(k), 32, &p, &len, NULL));
    ASSERT_EQ(len, sizeof data);
    ASSERT(memcmp(p, data, len) == 0);
    iron__free(p);

    /* A reserved field set (under a valid checksum) is malformed. */
    size_t n;
    unsigned char *b = test_slurp(path, &n);
    b[IRON__CACHE_OFF_RESERVED] = 1;
    le64(b + 656, XXH3_64bits(b, 656));
    test_spit(path, b, n);
    get_miss(c, k, "malformed header");
    b[IRON__CACHE_OFF_RESERVED] = 0;
    /* So is a key text longer than any reader accepts (announced: it is
     * refused before a byte of it is read or allocated). */
    le64(b + 624, IRON__CACHE_KEY_TEXT_MAX + 1);
    le64(b + 656, XXH3_64bits(b, 656));
    test_spit(path, b, n);
    get_miss(c, k, "malformed header: a key text of");
    le64(b + 624, 32);
    /* So is a name without its terminating NUL. */
    memset(b + IRON__CACHE_OFF_NAME, 'x', IRON__CACHE_NAME_MAX);
    le64(b + 656, XXH3_64bits(b, 656));
    test_spit(path, b, n);
    get_miss(c, k, "malformed header");
    free(b);
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_key_mismatch_is_miss)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    put_n(c, 1);
    char from[512], hex[33];
    snprintf(from, sizeof from, "%s", entry_path(dir, key_n(1)));
    ASSERT_EQ(rename(from, entry_path(dir, key_n(2))), 0);
    get_miss(c, key_n(2), "key mismatch");
    ASSERT_CONTAINS(iron_last_error(), iron__cache_key_hex(key_n(1), hex));
    get_miss(c, key_n(1), "absent");
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_garbage_file_is_miss)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    iron__cache_key k = key_n(3);
    const char *path = entry_path(dir, k);
    unsigned char junk[2000];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 7 + 3);
    test_spit(path, junk, sizeof junk);
    get_miss(c, k, "bad magic");
    test_spit(path, "abc", 3);
    get_miss(c, k, "bad magic");
    /* A folder where the entry should be. */
    ASSERT_EQ(unlink(path), 0);
    ASSERT_EQ(mkdir(path, 0700), 0);
    get_miss(c, k, "refused: not a regular file (a folder)");
    ASSERT_EQ(rmdir(path), 0);
    /* A symbolic link is not followed. */
    ASSERT_EQ(symlink("/etc/passwd", path), 0);
    get_miss(c, k, "refused: not a regular file (a symbolic link)");
    ASSERT_EQ(unlink(path), 0);
    /* A FIFO would block open() and read() forever: refused at once. */
    ASSERT_EQ(mkfifo(path, 0600), 0);
    get_miss(c, k, "refused: not a regular file (a FIFO)");
    ASSERT_EQ(unlink(path), 0);
    /* A good put replaces whatever was there. */
    put_n(c, 3);
    get_n_ok(c, 3);
    iron__cache_close(c);
    done_dir(dir);
}

/* ---- many writers ----------------------------------------------------- */

#define STRESS_PROCS 8
#define STRESS_ITERS 200
#define STRESS_SHARED 16
#define STRESS_OWN 12

/* The j-th use of a key of process id's own. */
static unsigned own_key(int id, int j)
{
    return 1000u + (unsigned)id * 1000u + (unsigned)(j % STRESS_OWN);
}

/* One process of the stress test: alternately a shared key (every
 * process writes it) and one of its own, each a get then a put, with a cap
 * that keeps every process evicting.  Returns the number of wrong
 * results: a get must be a hit with exactly the right bytes or "absent"
 * (never damaged or torn), and every put must succeed. */
static int stress_child(const char *dir, int id, uint64_t cap)
{
    iron__cache *c = NULL;
    if (iron__cache_open(&c, dir, cap) != IRON_OK) {
        fprintf(stderr, "child %d: open: %s\n", id, iron_last_error());
        return 1;
    }
    int bad = 0;
    unsigned char want[8192];
    for (int i = 0; i < STRESS_ITERS && !bad; i++) {
        unsigned n = (i % 2) ? (unsigned)(i * 7 + id) % STRESS_SHARED
                             : own_key(id, i / 2);
        iron__cache_key k = key_n(n);
        size_t len = payload_len_for(k);
        payload_for(k, want, len);
        void *p = NULL;
        size_t got = 0;
        const char *why = NULL;
        iron_status s = iron__cache_get(c, k, KT(k), 32, &p, &got, &why);
        if (s == IRON_OK) {
            if (got != len || memcmp(p, want, len) != 0) {
                fprintf(stderr, "child %d: key %u: wrong payload\n", id, n);
                bad++;
            }
        } else if (s != IRON_EIO || !why || strcmp(why, "absent") != 0) {
            fprintf(stderr, "child %d: key %u: get: %s\n", id, n,
                    iron_last_error());
            bad++;
        }
        iron__free(p);
        if (iron__cache_put(c, k, KT(k), 32, "stress", "shared", want,
                            len) != IRON_OK) {
            fprintf(stderr, "child %d: key %u: put: %s\n", id, n,
                    iron_last_error());
            bad++;
        }
    }
    iron__cache_close(c);
    return bad;
}

typedef struct listed {
    int n, invalid;
    uint64_t bytes;
} listed;

static void count_listed(const iron__cache_entry *e, void *ctx)
{
    listed *l = ctx;
    l->n++;
    l->bytes += e->bytes;
    if (!e->valid)
        l->invalid++;
}

TEST_TIMEOUT(cache_concurrent_processes, 120)
{
    const char *dir = temp_dir();
    /* Small enough that eviction runs all the time, in every process. */
    const uint64_t cap = 256 << 10;
    pid_t pids[STRESS_PROCS];
    for (int i = 0; i < STRESS_PROCS; i++) {
        pids[i] = fork();
        ASSERT(pids[i] >= 0);
        if (pids[i] == 0)
            _Exit(stress_child(dir, i, cap) ? 1 : 0);
    }
    for (int i = 0; i < STRESS_PROCS; i++) {
        int st;
        ASSERT_EQ(waitpid(pids[i], &st, 0), pids[i]);
        ASSERT(WIFEXITED(st));
        ASSERT_EQ(WEXITSTATUS(st), 0);
    }
    int entries, temps, others;
    count_files(dir, &entries, &temps, &others);
    ASSERT_EQ(temps, 0);
    ASSERT_EQ(others, 0);
    ASSERT_GT(entries, 0);

    iron__cache *c = open_dir(dir, cap);
    listed l = { 0, 0, 0 };
    ASSERT_OK(iron__cache_list(c, 1, NULL, count_listed, &l));
    ASSERT_EQ(l.n, entries);
    ASSERT_EQ(l.invalid, 0);
    ASSERT_LE(l.bytes, cap);
    /* Every entry left reads back whole and right. */
    for (unsigned n = 0; n < STRESS_SHARED; n++)
        if (exists(entry_path(dir, key_n(n))))
            get_n_ok(c, n);
    for (int id = 0; id < STRESS_PROCS; id++)
        for (int j = 0; j < STRESS_OWN; j++)
            if (exists(entry_path(dir, key_n(own_key(id, j)))))
                get_n_ok(c, own_key(id, j));
    iron__cache_close(c);
    done_dir(dir);
}

/* One handle shared by threads (the jit shares one per process). */
typedef struct thread_arg {
    iron__cache *c;
    int id, bad;
} thread_arg;

static void *share_body(void *arg)
{
    thread_arg *t = arg;
    unsigned char want[8192];
    for (int i = 0; i < 60; i++) {
        unsigned n = (unsigned)(i % 10);
        iron__cache_key k = key_n(n);
        size_t len = payload_len_for(k);
        payload_for(k, want, len);
        void *p = NULL;
        size_t got = 0;
        if (iron__cache_get(t->c, k, KT(k), 32, &p, &got, NULL) == IRON_OK &&
            (got != len || memcmp(p, want, len) != 0))
            t->bad++;
        iron__free(p);
        if (iron__cache_put(t->c, k, KT(k), 32, "t", "s", want, len) !=
            IRON_OK)
            t->bad++;
    }
    return NULL;
}

TEST_TIMEOUT(cache_threads_share_a_handle, 60)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    pthread_t th[4];
    thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i].c = c;
        args[i].id = i;
        args[i].bad = 0;
        ASSERT_EQ(pthread_create(&th[i], NULL, share_body, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
        ASSERT_EQ(args[i].bad, 0);
    }
    int entries, temps;
    count_files(dir, &entries, &temps, NULL);
    ASSERT_EQ(entries, 10);
    ASSERT_EQ(temps, 0);
    for (unsigned n = 0; n < 10; n++)
        get_n_ok(c, n);
    iron__cache_close(c);
    done_dir(dir);
}

/* ---- size cap, prune, clear ------------------------------------------- */

/* Entries of one size, so a cap counts them. */
static void put_sized(iron__cache *c, unsigned n, size_t len)
{
    unsigned char buf[1000];
    ASSERT_LE(len, sizeof buf);
    memset(buf, (int)n, len);
    ASSERT_OK(iron__cache_put(c, key_n(n), KT(key_n(n)), 32, "sized", "",
                              buf, len));
}

static void get_sized(iron__cache *c, unsigned n)
{
    void *p = NULL;
    size_t len = 0;
    ASSERT_OK(iron__cache_get(c, key_n(n), KT(key_n(n)), 32, &p, &len,
                              NULL));
    iron__free(p);
}

/* Presence without a get (a get would refresh the entry's last use). */
static int present(const char *dir, unsigned n)
{
    return exists(entry_path(dir, key_n(n)));
}

TEST(cache_cap_evicts_least_recently_used)
{
    const char *dir = temp_dir();
    const uint64_t entry = OVERHEAD + 1000;
    iron__cache *c = open_dir(dir, 4 * entry);
    for (unsigned n = 0; n < 4; n++)
        put_sized(c, n, 1000);
    for (unsigned n = 0; n < 4; n++)
        ASSERT(present(dir, n));
    /* Use order now, oldest first: 1, 3, 0, 2. */
    get_sized(c, 0);
    get_sized(c, 2);
    put_sized(c, 4, 1000);
    ASSERT(!present(dir, 1));
    ASSERT(present(dir, 0) && present(dir, 2) && present(dir, 3) &&
           present(dir, 4));
    /* Oldest first: 3, 0, 2, 4; reading 3 makes 0 the oldest. */
    get_sized(c, 3);
    put_sized(c, 5, 1000);
    ASSERT(!present(dir, 0));
    ASSERT(present(dir, 2) && present(dir, 3) && present(dir, 4) &&
           present(dir, 5));
    uint64_t entries, bytes;
    ASSERT_OK(iron__cache_info(c, &entries, &bytes));
    ASSERT_EQ(entries, 4);
    ASSERT_EQ(bytes, 4 * entry);

    /* Replacing an entry swaps its bytes for the same amount: nothing
     * else has to go. */
    put_sized(c, 5, 1000);
    ASSERT(present(dir, 2) && present(dir, 3) && present(dir, 4));

    /* An entry larger than the cap stays (the newest is never evicted),
     * and everything else makes room for it. */
    iron__cache_close(c);
    c = open_dir(dir, 100);
    put_sized(c, 6, 10);
    ASSERT(present(dir, 6));
    ASSERT_OK(iron__cache_info(c, &entries, &bytes));
    ASSERT_EQ(entries, 1);
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_prune_to_a_size)
{
    const char *dir = temp_dir();
    const uint64_t entry = OVERHEAD + 100;
    iron__cache *c = open_dir(dir, 0);
    for (unsigned n = 0; n < 10; n++)
        put_sized(c, n, 100);
    get_sized(c, 0);               /* 0 becomes the most recent */
    uint64_t removed = 99;
    ASSERT_OK(iron__cache_prune(c, 3 * entry + 10, NULL, &removed, NULL));
    ASSERT_EQ(removed, 7);
    for (unsigned n = 0; n < 10; n++)
        ASSERT_EQ(present(dir, n), n == 0 || n == 8 || n == 9);
    ASSERT_OK(iron__cache_prune(c, 3 * entry, NULL, &removed, NULL));
    ASSERT_EQ(removed, 0);
    ASSERT_OK(iron__cache_prune(c, 0, NULL, &removed, NULL));
    ASSERT_EQ(removed, 3);
    uint64_t entries, bytes;
    ASSERT_OK(iron__cache_info(c, &entries, &bytes));
    ASSERT_EQ(entries, 0);
    ASSERT_EQ(bytes, 0);

    /* Temporary files of dead writers go; a live writer's stays; files
     * that are not the cache's are left alone. */
    char stale[256], fresh[256], other[256];
    char hex[33];
    iron__cache_key_hex(key_n(1), hex);
    snprintf(stale, sizeof stale, "%s/%s.tmp.999.0123", dir, hex);
    snprintf(fresh, sizeof fresh, "%s/%s.tmp.999.4567", dir, hex);
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    test_spit(stale, "x", 1);
    test_spit(fresh, "y", 1);
    test_spit(other, "z", 1);
    set_age(stale, 3600);
    set_age(other, 3600);
    ASSERT_OK(iron__cache_prune(c, 0, NULL, &removed, NULL));
    ASSERT_EQ(removed, 0);
    ASSERT(!exists(stale));
    ASSERT(exists(fresh));
    ASSERT(exists(other));
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_clear)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    ASSERT_OK(iron__cache_clear(c));       /* empty: fine */
    for (unsigned n = 0; n < 5; n++)
        put_n(c, n);
    char stale[256], fresh[256], other[256], hex[33];
    iron__cache_key_hex(key_n(1), hex);
    snprintf(stale, sizeof stale, "%s/%s.tmp.1.aa", dir, hex);
    snprintf(fresh, sizeof fresh, "%s/%s.tmp.1.bb", dir, hex);
    snprintf(other, sizeof other, "%s/keep-me", dir);
    test_spit(stale, "x", 1);
    test_spit(fresh, "y", 1);
    test_spit(other, "z", 1);
    set_age(stale, 3600);
    ASSERT_OK(iron__cache_clear(c));
    int entries, temps, others;
    count_files(dir, &entries, &temps, &others);
    ASSERT_EQ(entries, 0);
    ASSERT_EQ(temps, 1);
    ASSERT(exists(fresh));
    ASSERT_EQ(others, 1);
    get_miss(c, key_n(2), "absent");
    /* The folder stays usable. */
    put_n(c, 2);
    get_n_ok(c, 2);
    iron__cache_close(c);
    done_dir(dir);
}

/* ---- listing ---------------------------------------------------------- */

typedef struct seen {
    int n;
    iron__cache_entry e[8];
} seen;

static void remember(const iron__cache_entry *e, void *ctx)
{
    seen *s = ctx;
    if (s->n < 8)
        s->e[s->n++] = *e;
}

static const iron__cache_entry *find(const seen *s, iron__cache_key k)
{
    for (int i = 0; i < s->n; i++)
        if (s->e[i].key.hi == k.hi && s->e[i].key.lo == k.lo)
            return &s->e[i];
    return NULL;
}

typedef struct pub_seen {
    int n, valid, foreign;
    char names[8][64];
    char keys[8][33];
    char why[8][256];
} pub_seen;

static void remember_pub(const iron_cache_entry_info *e, void *ctx)
{
    pub_seen *s = ctx;
    if (s->n < 8) {
        snprintf(s->names[s->n], 64, "%s", e->name);
        snprintf(s->keys[s->n], 33, "%s", e->key);
        snprintf(s->why[s->n], 256, "%s", e->why);
        s->valid += e->valid;
        s->foreign += e->foreign;
        s->n++;
    }
}

/* The reason the public listing gives for entry `name` ("" if none). */
static const char *pub_why(const pub_seen *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0)
            return s->why[i];
    return "(not listed)";
}

/* The smallest payload the jit's decoder accepts: no kernels. */
static const unsigned char empty_payload[16] = { 'I', 'R', 'O', 'N',
                                                 'P', 'A', 'Y', '1' };

TEST(cache_list_and_info)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    time_t t0 = time(NULL);
    ASSERT_OK(iron__cache_put(c, key_n(1), KT(key_n(1)), 32, "vadd",
                              "int32[64], tile=16", empty_payload,
                              sizeof empty_payload));
    char long_name[100];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    /* Checksums right, but not a kernel payload: only a full check with
     * the jit's decoder (the public tools) finds that. */
    ASSERT_OK(iron__cache_put(c, key_n(2), KT(key_n(2)), 32, long_name,
                              "float32[8]", "bb", 2));
    hand_entry(entry_path(dir, key_n(3)), IRON__CACHE_FORMAT, "0.0.1",
               key_n(3), "ancient", "c", 1);
    test_spit(entry_path(dir, key_n(4)), "junk", 4);

    seen s = { 0 };
    ASSERT_OK(iron__cache_list(c, 0, NULL, remember, &s));
    ASSERT_EQ(s.n, 4);
    const iron__cache_entry *e = find(&s, key_n(1));
    ASSERT(e != NULL);
    ASSERT_STR_EQ(e->name, "vadd");
    ASSERT_STR_EQ(e->signature, "int32[64], tile=16");
    ASSERT_EQ(e->bytes, OVERHEAD + sizeof empty_payload);
    ASSERT_EQ(e->valid, 1);
    ASSERT_GE(e->last_use, (int64_t)t0 - 1);
    ASSERT_LE(e->last_use, (int64_t)time(NULL) + 1);
    e = find(&s, key_n(2));
    ASSERT(e != NULL);
    ASSERT_EQ(strlen(e->name), 63);      /* cut to fit, marked as cut */
    ASSERT_CONTAINS(e->name, "nnn...");
    ASSERT_EQ(e->valid, 1);
    e = find(&s, key_n(3));             /* another version: shown, invalid */
    ASSERT(e != NULL);
    ASSERT_STR_EQ(e->name, "ancient");
    ASSERT_EQ(e->valid, 0);
    ASSERT_EQ(e->foreign, 1);
    ASSERT_CONTAINS(e->why, "library 0.0.1");
    e = find(&s, key_n(4));
    ASSERT(e != NULL);
    ASSERT_STR_EQ(e->name, "");
    ASSERT_EQ(e->valid, 0);
    ASSERT_EQ(e->foreign, 0);
    ASSERT_CONTAINS(e->why, "bad magic");
    ASSERT_EQ(e->bytes, 4);

    uint64_t entries, bytes;
    ASSERT_OK(iron__cache_info(c, &entries, &bytes));
    ASSERT_EQ(entries, 4);
    ASSERT_EQ(bytes, 3 * OVERHEAD + sizeof empty_payload + 2 + 1 + 4);
    ASSERT_FAILS(iron__cache_list(c, 0, NULL, NULL, NULL), IRON_EINVAL,
                 "callback");

    /* The public tools check every entry whole: the payload that does not
     * decode is not valid there. */
    pub_seen ps = { 0 };
    ASSERT_OK(iron_cache_list(dir, remember_pub, &ps));
    ASSERT_EQ(ps.n, 4);
    ASSERT_EQ(ps.valid, 1);
    /* ... and say why, as `iron cache verify` prints it: another
     * version's entry is foreign, not damaged. */
    ASSERT_EQ(ps.foreign, 1);
    ASSERT_STR_EQ(pub_why(&ps, "vadd"), "");
    ASSERT_CONTAINS(pub_why(&ps, "ancient"), "library 0.0.1");
    ASSERT_CONTAINS(pub_why(&ps, ""), "bad magic");
    ASSERT_FAILS(iron_cache_list(dir, NULL, NULL), IRON_EINVAL,
                 "iron_cache_list: fn is NULL");
    uint64_t pe, pb;
    ASSERT_OK(iron_cache_get_usage(dir, &pe, &pb));
    ASSERT_EQ(pe, entries);
    ASSERT_EQ(pb, bytes);
    /* Prune removes the two damaged entries first (the other version's
     * stays: it is not damage), after which everything fits. */
    uint64_t removed, damaged;
    ASSERT_OK(iron_cache_prune_v2(dir, bytes - 1, &removed, &damaged));
    ASSERT_EQ(removed, 2);
    ASSERT_EQ(damaged, 2);
    ASSERT(exists(entry_path(dir, key_n(1))));
    ASSERT(!exists(entry_path(dir, key_n(2))));
    ASSERT(exists(entry_path(dir, key_n(3))));
    ASSERT(!exists(entry_path(dir, key_n(4))));
    ASSERT_OK(iron_cache_clear(dir));
    ASSERT_OK(iron_cache_get_usage(dir, &pe, &pb));
    ASSERT_EQ(pe, 0);
    char *path;
    ASSERT_OK(iron_cache_get_path(dir, &path));
    ASSERT_STR_EQ(path, dir);
    iron_free(path);
    ASSERT_FAILS(iron_cache_get_path(dir, NULL), IRON_EINVAL, "out is NULL");
    iron__cache_close(c);

    /* Inspecting a folder that does not exist finds it empty and leaves
     * it uncreated. */
    char missing[256];
    snprintf(missing, sizeof missing, "%s/not/here", dir);
    ASSERT_OK(iron_cache_get_usage(missing, &pe, &pb));
    ASSERT_EQ(pe, 0);
    ASSERT_EQ(pb, 0);
    ps.n = 0;
    ASSERT_OK(iron_cache_list(missing, remember_pub, &ps));
    ASSERT_EQ(ps.n, 0);
    ASSERT_OK(iron_cache_clear(missing));
    ASSERT_OK(iron_cache_prune(missing, 0, &removed));
    ASSERT_EQ(removed, 0);
    ASSERT_OK(iron_cache_prune_v2(missing, 0, NULL, &damaged));
    ASSERT_EQ(damaged, 0);
    ASSERT(!exists(missing));
    done_dir(dir);
}

/* ---- the folder ------------------------------------------------------- */

TEST(cache_unwritable_folder)
{
    /* Tests run as root, who may write anywhere; a path through a regular
     * file fails for everyone. */
    const char *dir = temp_dir();
    char file[256], sub[300];
    snprintf(file, sizeof file, "%s/plain-file", dir);
    test_spit(file, "x", 1);
    snprintf(sub, sizeof sub, "%s/sub", file);
    iron__cache *c = (iron__cache *)1;
    ASSERT_FAILS(iron__cache_open(&c, sub, 0), IRON_EIO, sub);
    ASSERT_CONTAINS(iron_last_error(), strerror(ENOTDIR));
    ASSERT(c == NULL);
    ASSERT_FAILS(iron__cache_open(&c, file, 0), IRON_EIO, file);
    ASSERT_CONTAINS(iron_last_error(), strerror(ENOTDIR));
    snprintf(sub, sizeof sub, "%s/sub/deeper", file);
    ASSERT_FAILS(iron__cache_open(&c, sub, 0), IRON_EIO, sub);
    /* The tools say the same. */
    uint64_t entries, bytes;
    ASSERT_FAILS(iron_cache_get_usage(sub, &entries, &bytes), IRON_EIO, sub);
    ASSERT_FAILS(iron_cache_clear(file), IRON_EIO, file);
    /* An empty path is a caller's mistake. */
    ASSERT_FAILS(iron__cache_open(&c, "", 0), IRON_EINVAL, "empty");
    done_dir(dir);
}

/* A full disk (here: the file size limit, which fails write() the same
 * way) in the middle of a put leaves nothing behind and the old entry
 * as it was. */
TEST(cache_put_write_failure_leaves_nothing)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    put_n(c, 1);
    struct rlimit lim = { 2000, 2000 };
    signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
    unsigned char big[5000];
    memset(big, 1, sizeof big);
    ASSERT_FAILS(iron__cache_put(c, key_n(1), KT(key_n(1)), 32, "big", "",
                                 big, sizeof big),
                 IRON_EIO, "File too large");
    ASSERT_CONTAINS(iron_last_error(), dir);
    ASSERT_FAILS(iron__cache_put(c, key_n(2), KT(key_n(2)), 32, "big", "",
                                 big, sizeof big),
                 IRON_EIO, "nothing was published");
    int entries, temps;
    count_files(dir, &entries, &temps, NULL);
    ASSERT_EQ(entries, 1);
    ASSERT_EQ(temps, 0);
    get_n_ok(c, 1);
    get_miss(c, key_n(2), "absent");
    iron__cache_close(c);
    done_dir(dir);
}

TEST(cache_default_folder)
{
    char buf[512];
    unsetenv("IRON_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/someone", 1);
    ASSERT_STR_EQ(iron__cache_default_dir(buf, sizeof buf),
                  "/home/someone/.cache/iron");
    setenv("XDG_CACHE_HOME", "relative/path", 1);  /* invalid: ignored */
    ASSERT_STR_EQ(iron__cache_default_dir(buf, sizeof buf),
                  "/home/someone/.cache/iron");
    setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
    ASSERT_STR_EQ(iron__cache_default_dir(buf, sizeof buf),
                  "/xdg/cache/iron");
    setenv("IRON_CACHE_DIR", "/opt/iron-cache", 1);
    ASSERT_STR_EQ(iron__cache_default_dir(buf, sizeof buf),
                  "/opt/iron-cache");
    char *path;
    ASSERT_OK(iron_cache_get_path(NULL, &path));
    ASSERT_STR_EQ(path, "/opt/iron-cache");
    iron_free(path);
    ASSERT_OK(iron_cache_get_path("elsewhere", &path));
    ASSERT_STR_EQ(path, "elsewhere");
    iron_free(path);
    /* Too long for the buffer: no folder rather than a cut one. */
    ASSERT_STR_EQ(iron__cache_default_dir(buf, 8), "");
    setenv("IRON_CACHE_DIR", "", 1);             /* empty: not set */
    ASSERT_STR_EQ(iron__cache_default_dir(buf, sizeof buf),
                  "/xdg/cache/iron");

    /* dir NULL opens the default, creating it (and its parents) 0700. */
    const char *dir = temp_dir();
    char deep[256];
    snprintf(deep, sizeof deep, "%s/a/b/iron/", dir);
    setenv("IRON_CACHE_DIR", deep, 1);
    iron__cache *c = NULL;
    ASSERT_OK(iron__cache_open(&c, NULL, 0));
    deep[strlen(deep) - 1] = '\0';              /* the trailing slash goes */
    ASSERT_STR_EQ(iron__cache_dir(c), deep);
    struct stat st;
    ASSERT_EQ(stat(deep, &st), 0);
    ASSERT(S_ISDIR(st.st_mode));
    ASSERT_EQ(st.st_mode & 0777, 0700);
    put_n(c, 1);
    iron__cache_close(c);
    uint64_t entries, bytes;
    ASSERT_OK(iron_cache_get_usage(NULL, &entries, &bytes));
    ASSERT_EQ(entries, 1);

    /* XDG_CACHE_HOME and HOME in turn. */
    unsetenv("IRON_CACHE_DIR");
    setenv("XDG_CACHE_HOME", dir, 1);
    ASSERT_OK(iron__cache_open(&c, NULL, 0));
    snprintf(deep, sizeof deep, "%s/iron", dir);
    ASSERT_STR_EQ(iron__cache_dir(c), deep);
    iron__cache_close(c);
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", dir, 1);
    ASSERT_OK(iron__cache_open(&c, NULL, 0));
    snprintf(deep, sizeof deep, "%s/.cache/iron", dir);
    ASSERT_STR_EQ(iron__cache_dir(c), deep);
    ASSERT(exists(deep));
    iron__cache_close(c);
    done_dir(dir);
}

/* ---- allocation failures ---------------------------------------------- */

/* Fails allocation 1, 2, ... of each call until it succeeds; every failure
 * must be a clean IRON_ENOMEM with nothing leaked (the runner's leak check
 * under ASan) and no file left behind. */
TEST(cache_allocation_failures)
{
    const char *dir = temp_dir();
    char sub[256];
    snprintf(sub, sizeof sub, "%s/c", dir);
    iron__cache *c = NULL;
    long n;
    for (n = 1;; n++) {
        iron__alloc_fail_at(n);
        iron_status s = iron__cache_open(&c, sub, 4096);
        long made = iron__alloc_fail_at(0);
        if (made < n) {
            ASSERT_OK(s);
            break;
        }
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT_CONTAINS(iron_last_error(), "out of memory");
        ASSERT(c == NULL);
    }
    ASSERT_GT(n, 1);

    /* put: with eviction at work (4 KiB cap, 1 KiB entries). */
    unsigned char buf[1024];
    memset(buf, 5, sizeof buf);
    for (unsigned k = 0; k < 6; k++) {
        for (n = 1;; n++) {
            iron__alloc_fail_at(n);
            iron_status s = iron__cache_put(c, key_n(k), KT(key_n(k)), 32,
                                            "a", "b", buf, sizeof buf);
            long made = iron__alloc_fail_at(0);
            if (made < n) {
                ASSERT_OK(s);
                break;
            }
            ASSERT_EQ(s, IRON_ENOMEM);
        }
        int entries, temps;
        count_files(sub, &entries, &temps, NULL);
        ASSERT_EQ(temps, 0);
        ASSERT_LE(entries, 3);
        ASSERT(present(sub, k));
    }

    for (n = 1;; n++) {
        void *p = (void *)1;
        size_t len = 1;
        const char *why = NULL;
        iron__alloc_fail_at(n);
        iron_status s = iron__cache_get(c, key_n(5), KT(key_n(5)), 32, &p,
                                        &len, &why);
        long made = iron__alloc_fail_at(0);
        if (made < n) {
            ASSERT_OK(s);
            ASSERT_EQ(len, sizeof buf);
            iron__free(p);
            break;
        }
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT(p == NULL);
        ASSERT_STR_EQ(why, "out of memory");
    }
    ASSERT_GT(n, 1);
    iron__cache_close(c);
    done_dir(dir);
}

/* Entries are loaded as code: a folder others can write into is refused
 * (the jit then keeps its kernels in memory, with a warning). */
TEST(cache_refuses_a_folder_others_can_write)
{
    const char *dir = temp_dir();
    ASSERT_EQ(chmod(dir, 0777), 0);
    iron__cache *c = (iron__cache *)1;
    ASSERT_FAILS(iron__cache_open(&c, dir, 0), IRON_EIO,
                 "writable by group or others");
    ASSERT(c == NULL);
    ASSERT_EQ(chmod(dir, 0700), 0);
    ASSERT_OK(iron__cache_open(&c, dir, 0));
    iron__cache_close(c);
    rmdir(dir);
}

/* ---- exact keys, file checks, limits ------------------------------------ */

/* The digest only names the file: an entry made for another key text
 * with the same digest is a miss, never a hit with the wrong payload. */
TEST(cache_same_digest_other_text_is_miss)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    iron__cache_key k = key_n(11);
    static const char a[] = "specialization A: op='+'";
    static const char b[] = "specialization A: op='-'";
    static const char longer[] = "specialization A: op='+', tile=32";
    ASSERT_OK(iron__cache_put(c, k, a, strlen(a), "A", "", "payload A", 9));
    void *p = NULL;
    size_t len = 0;
    const char *why = NULL;
    ASSERT_FAILS(iron__cache_get(c, k, b, strlen(b), &p, &len, &why),
                 IRON_EIO, "key mismatch");
    ASSERT_CONTAINS(why, "they differ from byte 22");
    ASSERT(p == NULL);
    ASSERT_FAILS(iron__cache_get(c, k, longer, strlen(longer), &p, &len,
                                 &why),
                 IRON_EIO, "key mismatch");
    ASSERT_CONTAINS(why, "key text of 24 bytes, expected 33");
    ASSERT_CONTAINS(iron_last_error(), dir);
    ASSERT_OK(iron__cache_get(c, k, a, strlen(a), &p, &len, &why));
    ASSERT_EQ(len, 9);
    ASSERT(memcmp(p, "payload A", 9) == 0);
    iron__free(p);
    /* The other key's put replaces the entry; now A misses. */
    ASSERT_OK(iron__cache_put(c, k, b, strlen(b), "B", "", "payload B", 9));
    get_miss(c, k, "key mismatch");   /* KT(k) is neither text */
    ASSERT_FAILS(iron__cache_get(c, k, a, strlen(a), &p, &len, &why),
                 IRON_EIO, "key mismatch");
    /* An empty key text is a text like any other. */
    ASSERT_OK(iron__cache_put(c, key_n(12), "", 0, "E", "", "e", 1));
    ASSERT_OK(iron__cache_get(c, key_n(12), "", 0, &p, &len, NULL));
    iron__free(p);
    iron__cache_close(c);
    done_dir(dir);
}

/* Entries are code this process will run: one that another user owns or
 * that group or others may write is refused (a miss naming what was found
 * and what is accepted), and prune removes it. */
TEST(cache_refuses_foreign_or_writable_entries)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    put_n(c, 1);
    const char *path = entry_path(dir, key_n(1));
    ASSERT_EQ(chmod(path, 0660), 0);
    get_miss(c, key_n(1), "refused: mode 0660 lets the group write it");
    ASSERT_CONTAINS(iron_last_error(), path);
    ASSERT_CONTAINS(iron_last_error(), "accepted: files only their owner");
    ASSERT_EQ(chmod(path, 0602), 0);
    get_miss(c, key_n(1), "refused: mode 0602 lets others write it");
    /* Readable by others is fine: only writing matters. */
    ASSERT_EQ(chmod(path, 0644), 0);
    get_n_ok(c, 1);
    if (geteuid() == 0) {
        /* Only root can give a file away. */
        ASSERT_EQ(chown(path, 4242, 4242), 0);
        ASSERT_EQ(chmod(path, 0600), 0);
        char want[128];
        snprintf(want, sizeof want,
                 "refused: owned by uid 4242; accepted: files of this user "
                 "(uid %lu)", (unsigned long)geteuid());
        get_miss(c, key_n(1), want);
        seen s = { 0 };
        ASSERT_OK(iron__cache_list(c, 0, NULL, remember, &s));
        ASSERT_EQ(s.n, 1);
        ASSERT_EQ(s.e[0].valid, 0);
        ASSERT_CONTAINS(s.e[0].why, "owned by uid 4242");
        uint64_t removed = 0, damaged = 0;
        ASSERT_OK(iron__cache_prune(c, UINT64_MAX, NULL, &removed,
                                    &damaged));
        ASSERT_EQ(removed, 1);
        ASSERT_EQ(damaged, 1);
        ASSERT(!exists(path));
    }
    iron__cache_close(c);
    done_dir(dir);
}

/* A file over the entry limit is refused before a byte is read (a sparse
 * file: no disk space needed). */
TEST(cache_oversized_entry_is_refused)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    put_n(c, 1);
    const char *path = entry_path(dir, key_n(1));
    ASSERT_EQ(truncate(path, (off_t)IRON__FILE_ENTRY_MAX + 1), 0);
    char want[128];
    snprintf(want, sizeof want, "refused: %llu bytes, more than the %llu "
             "accepted", (unsigned long long)IRON__FILE_ENTRY_MAX + 1,
             (unsigned long long)IRON__FILE_ENTRY_MAX);
    get_miss(c, key_n(1), want);
    /* And a put that could never be read back is refused up front. */
    static char huge_text[1];
    ASSERT_FAILS(iron__cache_put(c, key_n(2), huge_text,
                                 (size_t)IRON__CACHE_KEY_TEXT_MAX + 1, "x",
                                 "", "p", 1),
                 IRON_EINVAL, "more than an entry may hold");
    ASSERT(!exists(entry_path(dir, key_n(2))));
    iron__cache_close(c);
    done_dir(dir);
}


/* IRON_CACHE_MAX is read strictly: "1e400" used to go through strtod and
 * an out-of-range double-to-integer conversion (undefined behaviour); now
 * it is a warning naming the variable, and the default cap applies. */
TEST(cache_env_max_is_strict)
{
    test_catch_warnings();
    unsetenv("IRON_CACHE_MAX");
    ASSERT_EQ(iron__cache_env_max_bytes(), IRON__CACHE_DEFAULT_MAX_BYTES);
    setenv("IRON_CACHE_MAX", "100M", 1);
    ASSERT_EQ(iron__cache_env_max_bytes(), 100ull << 20);
    setenv("IRON_CACHE_MAX", "4096", 1);
    ASSERT_EQ(iron__cache_env_max_bytes(), 4096);
    ASSERT_STR_EQ(test_warning, "");
    static const char *const bad[] = { "1e400", "1.5G", "-1", "0x100",
                                       "99999999999999999999", "20000000000G",
                                       "12X", "inf", "nan" };
    for (size_t i = 0; i < IRON__COUNT_OF(bad); i++) {
        test_warning[0] = '\0';
        setenv("IRON_CACHE_MAX", bad[i], 1);
        ASSERT_EQ(iron__cache_env_max_bytes(), IRON__CACHE_DEFAULT_MAX_BYTES);
        ASSERT_CONTAINS(test_warning, "IRON_CACHE_MAX");
        ASSERT_CONTAINS(test_warning, bad[i]);
        ASSERT_CONTAINS(test_warning, "268435456");
    }
    iron_log_set_handler(NULL, NULL);
}

/* The cap a program would use, for tools (`iron cache info`): the same
 * decision, and where it came from. */
TEST(cache_public_max_size)
{
    test_catch_warnings();
    uint64_t cap = 1;
    const char *from = "x";
    unsetenv("IRON_CACHE_MAX");
    ASSERT_OK(iron_cache_get_max_size(&cap, &from));
    ASSERT_EQ(cap, IRON__CACHE_DEFAULT_MAX_BYTES);
    ASSERT_STR_EQ(from, "default");
    setenv("IRON_CACHE_MAX", "100M", 1);
    ASSERT_OK(iron_cache_get_max_size(&cap, NULL));
    ASSERT_EQ(cap, 100ull << 20);
    ASSERT_OK(iron_cache_get_max_size(&cap, &from));
    ASSERT_STR_EQ(from, "IRON_CACHE_MAX");
    setenv("IRON_CACHE_MAX", "lots", 1);
    ASSERT_OK(iron_cache_get_max_size(&cap, &from));
    ASSERT_EQ(cap, IRON__CACHE_DEFAULT_MAX_BYTES);
    ASSERT_STR_EQ(from, "default");
    ASSERT_CONTAINS(test_warning, "IRON_CACHE_MAX");
    unsetenv("IRON_CACHE_MAX");
    ASSERT_FAILS(iron_cache_get_max_size(NULL, &from), IRON_EINVAL,
                 "iron_cache_get_max_size: max_bytes is NULL");
    ASSERT(from == NULL);
    iron_log_set_handler(NULL, NULL);
}

static const char *sha_hex_of(const void *data, size_t len, char *hex)
{
    iron__sha256 s;
    iron__sha256_init(&s);
    /* In uneven pieces, to cross block boundaries every way. */
    const unsigned char *p = data;
    size_t piece = 1;
    while (len) {
        size_t n = piece < len ? piece : len;
        iron__sha256_update(&s, p, n);
        p += n;
        len -= n;
        piece = piece * 3 + 1;
    }
    iron__sha256_hex(&s, hex);
    return hex;
}

/* FIPS 180-4 test vectors, and lengths around the padding boundary. */
TEST(cache_sha256_vectors)
{
    char hex[65];
    ASSERT_STR_EQ(sha_hex_of("", 0, hex),
                  "e3b0c44298fc1c149afbf4c8996fb924"
                  "27ae41e4649b934ca495991b7852b855");
    ASSERT_STR_EQ(sha_hex_of("abc", 3, hex),
                  "ba7816bf8f01cfea414140de5dae2223"
                  "b00361a396177a9cb410ff61f20015ad");
    static const char two[] =
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ASSERT_STR_EQ(sha_hex_of(two, strlen(two), hex),
                  "248d6a61d20638b8e5c026930c3e6039"
                  "a33ce45964ff2167f6ecedd419db06c1");
    char *million = malloc(1000000);
    ASSERT(million != NULL);
    memset(million, 'a', 1000000);
    ASSERT_STR_EQ(sha_hex_of(million, 1000000, hex),
                  "cdc76e5c9914fb9281a1c7e284d73e67"
                  "f1809a48a497200e046d39ccc7112cd0");
    free(million);
    /* 55, 56 and 64 bytes: one or two padding blocks. */
    ASSERT_STR_EQ(sha_hex_of(two, 55, hex),
                  "aa353e009edbaebfc6e494c8d8476968"
                  "96cb8b398e0173a4b5c1b636292d87c7");
    char buf[64];
    memset(buf, 'a', sizeof buf);
    ASSERT_STR_EQ(sha_hex_of(buf, 56, hex),
                  "b35439a4ac6f0948b6d6f9e3c6af0f5f"
                  "590ce20f1bde7090ef7970686ec6738a");
    ASSERT_STR_EQ(sha_hex_of(buf, 64, hex),
                  "ffe054fe7ae0cb6dc65c3af9b61d5209"
                  "f439851db43d0ba5997337df154668eb");
}

/* ---- the one atomic write (cache/atomic.c) ------------------------------ */

static iron_status write_hello(iron__atomic_out *o, void *ctx)
{
    (void)ctx;
    iron__atomic_puts(o, "hello");
    return IRON_OK;
}

static iron_status fail_midway(iron__atomic_out *o, void *ctx)
{
    (void)ctx;
    iron__atomic_puts(o, "half");
    return iron__fail(IRON_ENOMEM, "body gave up");
}

/* Replaces the file whole, with the mode asked for; a failing body or a
 * missing folder publish nothing and leave no temporary file behind (a
 * failed write: cache_put_write_failure_leaves_nothing). */
TEST(cache_atomic_write_all_or_nothing)
{
    const char *dir = temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    test_spit(path, "old", 3);
    iron__atomic_file a = { .dirfd = AT_FDCWD, .name = path,
                             .what = "test file", .mode = 0600 };
    ASSERT_OK(iron__atomic_write(&a, write_hello, NULL));
    size_t n;
    unsigned char *got = test_slurp(path, &n);
    ASSERT_EQ(n, 5);
    ASSERT(memcmp(got, "hello", 5) == 0);
    free(got);
    struct stat st;
    ASSERT_EQ(stat(path, &st), 0);
    ASSERT_EQ(st.st_mode & 0777, 0600);
    ASSERT_EQ(test_count_files(dir), 1);

    /* The body's own failure is returned as it is; the old file stays. */
    ASSERT_FAILS(iron__atomic_write(&a, fail_midway, NULL),
                 IRON_ENOMEM, "body gave up");
    got = test_slurp(path, &n);
    ASSERT_EQ(n, 5);
    free(got);
    ASSERT_EQ(test_count_files(dir), 1);

    /* No folder: the step, the file and nothing published. */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/no/such/file", dir);
    a.name = missing;
    ASSERT_FAILS(iron__atomic_write(&a, write_hello, NULL), IRON_EIO,
                 "cannot write the test file");
    ASSERT_CONTAINS(iron_last_error(), "create of");
    ASSERT_CONTAINS(iron_last_error(), "nothing was published");

    done_dir(dir);
}

/* ---- the cache settings, resolved in one place (cache/settings.c) ------- */

TEST(cache_settings_option_then_environment_then_default)
{
    test_catch_warnings();
    iron__cache_settings cs;
    /* The option wins over IRON_CACHE, either way. */
    setenv("IRON_CACHE", "0", 1);
    iron__cache_settings_resolve(0, NULL, 0, &cs);
    ASSERT_EQ(cs.enabled, 0);
    iron__cache_settings_resolve(1, "/some/where", 0, &cs);
    ASSERT_EQ(cs.enabled, 1);
    ASSERT_STR_EQ(cs.dir, "/some/where");
    unsetenv("IRON_CACHE");
    iron__cache_settings_resolve(-1, NULL, 0, &cs);
    ASSERT_EQ(cs.enabled, 0);
    iron__cache_settings_resolve(0, NULL, 0, &cs);
    ASSERT_EQ(cs.enabled, 1);

    /* The folder: the option, else the default one. */
    setenv("IRON_CACHE_DIR", "/opt/iron-cache", 1);
    iron__cache_settings_resolve(0, NULL, 0, &cs);
    ASSERT_STR_EQ(cs.dir, "/opt/iron-cache");
    ASSERT(cs.no_dir == NULL);
    iron__cache_settings_resolve(0, "", 0, &cs);
    ASSERT_STR_EQ(cs.no_dir, "cache folder: empty path");
    unsetenv("IRON_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "", 1);
    iron__cache_settings_resolve(0, NULL, 0, &cs);
    /* With no HOME the password database may still name one. */
    if (!cs.dir[0])
        ASSERT_CONTAINS(cs.no_dir, "set IRON_CACHE_DIR");

    /* The cap: the option, else IRON_CACHE_MAX, else the default. */
    setenv("IRON_CACHE_MAX", "3M", 1);
    iron__cache_settings_resolve(0, "/x", 5000, &cs);
    ASSERT_EQ(cs.max_bytes, 5000);
    ASSERT_STR_EQ(cs.max_from, "option");
    iron__cache_settings_resolve(0, "/x", 0, &cs);
    ASSERT_EQ(cs.max_bytes, 3ull << 20);
    ASSERT_STR_EQ(cs.max_from, "IRON_CACHE_MAX");
    ASSERT_STR_EQ(test_warning, "");
    setenv("IRON_CACHE_MAX", "1e400", 1);
    iron__cache_settings_resolve(0, "/x", 0, &cs);
    ASSERT_EQ(cs.max_bytes, IRON__CACHE_DEFAULT_MAX_BYTES);
    ASSERT_STR_EQ(cs.max_from, "default");
    ASSERT_CONTAINS(test_warning, "IRON_CACHE_MAX='1e400'");

    /* Off: neither the folder nor the cap is looked up, so a bad value
     * warns nobody. */
    test_warning[0] = '\0';
    iron__cache_settings_resolve(-1, NULL, 0, &cs);
    ASSERT_EQ(cs.enabled, 0);
    ASSERT_STR_EQ(cs.dir, "");
    ASSERT_STR_EQ(test_warning, "");
    iron_log_set_handler(NULL, NULL);
}
