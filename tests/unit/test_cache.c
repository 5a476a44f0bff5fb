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

#include "cache/cache.h"
#include "cache/entry.h"
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
    ASSERT_OK(iron__cache_put(c, k, name, "int32[64], tile=16", buf, len));
    free(buf);
}

/* Gets key n and checks the payload byte for byte. */
static void get_n_ok(iron__cache *c, unsigned n)
{
    iron__cache_key k = key_n(n);
    void *p = NULL;
    size_t len = 0;
    const char *why = NULL;
    ASSERT_OK(iron__cache_get(c, k, &p, &len, &why));
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
    ASSERT_FAILS(iron__cache_get(c, k, &p, &len, &why), IRON_EIO, reason);
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

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ASSERT(f != NULL);
    ASSERT_EQ(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ASSERT(n >= 0);
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    ASSERT(buf != NULL);
    ASSERT_EQ(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ASSERT(f != NULL);
    ASSERT_EQ(fwrite(data, 1, len, f), len);
    ASSERT_EQ(fclose(f), 0);
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

/* An entry file written by hand: header fields as given, a valid header
 * checksum, the payload after it. */
static void hand_entry(const char *path, uint32_t format,
                       const char *version, iron__cache_key k,
                       const char *name, const void *payload, size_t len)
{
    unsigned char *b = calloc(1, IRON__CACHE_HEADER_BYTES + len);
    ASSERT(b != NULL);
    memcpy(b, "IRONCACH", 8);
    le32(b + 8, format);
    memcpy(b + 16, version, strlen(version));
    le64(b + 32, k.hi);
    le64(b + 40, k.lo);
    memcpy(b + 48, name, strlen(name));
    memcpy(b + 112, "int32[4]", 8);
    le64(b + 624, len);
    le64(b + 632, XXH3_64bits(payload, len));
    le64(b + 640, XXH3_64bits(b, 640));
    memcpy(b + 648, payload, len);
    write_file(path, b, IRON__CACHE_HEADER_BYTES + len);
    free(b);
}

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
    ASSERT_OK(iron__cache_put(c, k, "empty", "", NULL, 0));
    ASSERT_OK(iron__cache_get(c, k, &p, &len, &why));
    ASSERT_EQ(len, 0);
    ASSERT(why == NULL);
    iron__free(p);

    /* A second put of a key replaces the entry as a whole. */
    ASSERT_OK(iron__cache_put(c, k, "empty", "", "new", 3));
    ASSERT_OK(iron__cache_get(c, k, &p, &len, &why));
    ASSERT_EQ(len, 3);
    ASSERT(memcmp(p, "new", 3) == 0);
    iron__free(p);

    /* Entries are private to the user; no temporary file remains. */
    struct stat st;
    ASSERT_EQ(stat(entry_path(dir, k), &st), 0);
    ASSERT_EQ(st.st_mode & 0777, 0600);
    ASSERT_EQ(st.st_size, IRON__CACHE_HEADER_BYTES + 3);
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
    ASSERT_FAILS(iron__cache_get(c, key_n(1), &p, &len, NULL), IRON_EIO,
                 "absent");
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
    unsigned char *bytes = read_file(path, &full);
    ASSERT_GT(full, IRON__CACHE_HEADER_BYTES + 100);
    /* In the magic, in the format, in the header, at its end, in the
     * payload, one byte short. */
    const size_t cuts[] = { 0, 1, 7, 8, 10, 12, 100, 640, 647,
                            IRON__CACHE_HEADER_BYTES,
                            IRON__CACHE_HEADER_BYTES + 1,
                            IRON__CACHE_HEADER_BYTES + 100, full - 1 };
    for (size_t i = 0; i < IRON__COUNT_OF(cuts); i++) {
        write_file(path, bytes, cuts[i]);
        get_miss(c, k, "truncated");
        ASSERT_CONTAINS(iron_last_error(), path);
    }
    /* Longer than announced is damage too. */
    unsigned char *longer = malloc(full + 1);
    ASSERT(longer != NULL);
    memcpy(longer, bytes, full);
    longer[full] = 0;
    write_file(path, longer, full + 1);
    get_miss(c, k, "size mismatch");
    free(longer);
    /* The whole file again: a hit. */
    write_file(path, bytes, full);
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
    unsigned char *bytes = read_file(path, &full);

    /* Payload bytes: first, middle, last. */
    const size_t at[] = { IRON__CACHE_HEADER_BYTES,
                          IRON__CACHE_HEADER_BYTES + 123, full - 1 };
    for (size_t i = 0; i < IRON__COUNT_OF(at); i++) {
        bytes[at[i]] ^= 0x10;
        write_file(path, bytes, full);
        get_miss(c, k, "checksum mismatch");
        bytes[at[i]] ^= 0x10;
    }
    /* Header fields the header checksum covers: name, length, version. */
    const size_t hat[] = { IRON__CACHE_OFF_NAME, IRON__CACHE_OFF_PAYLOAD_LEN,
                           IRON__CACHE_OFF_VERSION, IRON__CACHE_OFF_KEY + 3,
                           IRON__CACHE_OFF_HEADER_SUM };
    for (size_t i = 0; i < IRON__COUNT_OF(hat); i++) {
        bytes[hat[i]] ^= 0x01;
        write_file(path, bytes, full);
        get_miss(c, k, "header checksum mismatch");
        bytes[hat[i]] ^= 0x01;
    }
    bytes[2] ^= 0x20;
    write_file(path, bytes, full);
    get_miss(c, k, "bad magic");
    bytes[2] ^= 0x20;
    write_file(path, bytes, full);
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
    get_miss(c, k, "library 0.0.9, expected 0.1.0");

    /* The same hand-written layout with this library's version is a hit:
     * the documented layout is the one read. */
    hand_entry(path, IRON__CACHE_FORMAT, iron_version(), k, "mine", data,
               sizeof data);
    void *p = NULL;
    size_t len = 0;
    ASSERT_OK(iron__cache_get(c, k, &p, &len, NULL));
    ASSERT_EQ(len, sizeof data);
    ASSERT(memcmp(p, data, len) == 0);
    iron__free(p);

    /* A reserved field set (under a valid checksum) is malformed. */
    size_t n;
    unsigned char *b = read_file(path, &n);
    b[IRON__CACHE_OFF_RESERVED] = 1;
    le64(b + 640, XXH3_64bits(b, 640));
    write_file(path, b, n);
    get_miss(c, k, "malformed header");
    /* So is a name without its terminating NUL. */
    b[IRON__CACHE_OFF_RESERVED] = 0;
    memset(b + IRON__CACHE_OFF_NAME, 'x', IRON__CACHE_NAME_MAX);
    le64(b + 640, XXH3_64bits(b, 640));
    write_file(path, b, n);
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
    write_file(path, junk, sizeof junk);
    get_miss(c, k, "bad magic");
    write_file(path, "abc", 3);
    get_miss(c, k, "bad magic");
    /* A folder where the entry should be. */
    ASSERT_EQ(unlink(path), 0);
    ASSERT_EQ(mkdir(path, 0700), 0);
    get_miss(c, k, "Is a directory");
    ASSERT_EQ(rmdir(path), 0);
    /* A symbolic link is not followed. */
    ASSERT_EQ(symlink("/etc/passwd", path), 0);
    get_miss(c, k, "cannot open");
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
        iron_status s = iron__cache_get(c, k, &p, &got, &why);
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
        if (iron__cache_put(c, k, "stress", "shared", want, len) != IRON_OK) {
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
    ASSERT_OK(iron__cache_list(c, count_listed, &l));
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
        if (iron__cache_get(t->c, k, &p, &got, NULL) == IRON_OK &&
            (got != len || memcmp(p, want, len) != 0))
            t->bad++;
        iron__free(p);
        if (iron__cache_put(t->c, k, "t", "s", want, len) != IRON_OK)
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
    ASSERT_OK(iron__cache_put(c, key_n(n), "sized", "", buf, len));
}

static void get_sized(iron__cache *c, unsigned n)
{
    void *p = NULL;
    size_t len = 0;
    ASSERT_OK(iron__cache_get(c, key_n(n), &p, &len, NULL));
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
    const uint64_t entry = IRON__CACHE_HEADER_BYTES + 1000;
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
    const uint64_t entry = IRON__CACHE_HEADER_BYTES + 100;
    iron__cache *c = open_dir(dir, 0);
    for (unsigned n = 0; n < 10; n++)
        put_sized(c, n, 100);
    get_sized(c, 0);               /* 0 becomes the most recent */
    uint64_t removed = 99;
    ASSERT_OK(iron__cache_prune(c, 3 * entry + 10, &removed));
    ASSERT_EQ(removed, 7);
    for (unsigned n = 0; n < 10; n++)
        ASSERT_EQ(present(dir, n), n == 0 || n == 8 || n == 9);
    ASSERT_OK(iron__cache_prune(c, 3 * entry, &removed));
    ASSERT_EQ(removed, 0);
    ASSERT_OK(iron__cache_prune(c, 0, &removed));
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
    write_file(stale, "x", 1);
    write_file(fresh, "y", 1);
    write_file(other, "z", 1);
    set_age(stale, 3600);
    set_age(other, 3600);
    ASSERT_OK(iron__cache_prune(c, 0, &removed));
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
    write_file(stale, "x", 1);
    write_file(fresh, "y", 1);
    write_file(other, "z", 1);
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
    int n, valid;
    char names[8][64];
    char keys[8][33];
} pub_seen;

static void remember_pub(const iron_cache_entry_info *e, void *ctx)
{
    pub_seen *s = ctx;
    if (s->n < 8) {
        snprintf(s->names[s->n], 64, "%s", e->name);
        snprintf(s->keys[s->n], 33, "%s", e->key);
        s->valid += e->valid;
        s->n++;
    }
}

TEST(cache_list_and_info)
{
    const char *dir = temp_dir();
    iron__cache *c = open_dir(dir, 0);
    time_t t0 = time(NULL);
    ASSERT_OK(iron__cache_put(c, key_n(1), "vadd", "int32[64], tile=16",
                              "aaaa", 4));
    char long_name[100];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    ASSERT_OK(iron__cache_put(c, key_n(2), long_name, "float32[8]", "bb", 2));
    hand_entry(entry_path(dir, key_n(3)), IRON__CACHE_FORMAT, "0.0.1",
               key_n(3), "ancient", "c", 1);
    write_file(entry_path(dir, key_n(4)), "junk", 4);

    seen s = { 0 };
    ASSERT_OK(iron__cache_list(c, remember, &s));
    ASSERT_EQ(s.n, 4);
    const iron__cache_entry *e = find(&s, key_n(1));
    ASSERT(e != NULL);
    ASSERT_STR_EQ(e->name, "vadd");
    ASSERT_STR_EQ(e->signature, "int32[64], tile=16");
    ASSERT_EQ(e->bytes, IRON__CACHE_HEADER_BYTES + 4);
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
    e = find(&s, key_n(4));
    ASSERT(e != NULL);
    ASSERT_STR_EQ(e->name, "");
    ASSERT_EQ(e->valid, 0);
    ASSERT_EQ(e->bytes, 4);

    uint64_t entries, bytes;
    ASSERT_OK(iron__cache_info(c, &entries, &bytes));
    ASSERT_EQ(entries, 4);
    ASSERT_EQ(bytes, 3 * IRON__CACHE_HEADER_BYTES + 4 + 2 + 1 + 4);
    ASSERT_FAILS(iron__cache_list(c, NULL, NULL), IRON_EINVAL, "callback");

    /* The public tools see the same. */
    pub_seen ps = { 0 };
    ASSERT_OK(iron_cache_list(dir, remember_pub, &ps));
    ASSERT_EQ(ps.n, 4);
    ASSERT_EQ(ps.valid, 2);
    uint64_t pe, pb;
    ASSERT_OK(iron_cache_info(dir, &pe, &pb));
    ASSERT_EQ(pe, entries);
    ASSERT_EQ(pb, bytes);
    uint64_t removed;
    ASSERT_OK(iron_cache_prune(dir, bytes - 1, &removed));
    ASSERT_EQ(removed, 1);
    ASSERT_OK(iron_cache_clear(dir));
    ASSERT_OK(iron_cache_info(dir, &pe, &pb));
    ASSERT_EQ(pe, 0);
    char buf[256];
    ASSERT_STR_EQ(iron_cache_path(dir, buf, sizeof buf), dir);
    ASSERT_STR_EQ(iron_cache_path(dir, buf, 4), "");  /* does not fit */
    iron__cache_close(c);

    /* Inspecting a folder that does not exist finds it empty and leaves
     * it uncreated. */
    char missing[256];
    snprintf(missing, sizeof missing, "%s/not/here", dir);
    ASSERT_OK(iron_cache_info(missing, &pe, &pb));
    ASSERT_EQ(pe, 0);
    ASSERT_EQ(pb, 0);
    ps.n = 0;
    ASSERT_OK(iron_cache_list(missing, remember_pub, &ps));
    ASSERT_EQ(ps.n, 0);
    ASSERT_OK(iron_cache_clear(missing));
    ASSERT_OK(iron_cache_prune(missing, 0, &removed));
    ASSERT_EQ(removed, 0);
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
    write_file(file, "x", 1);
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
    ASSERT_FAILS(iron_cache_info(sub, &entries, &bytes), IRON_EIO, sub);
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
    ASSERT_FAILS(iron__cache_put(c, key_n(1), "big", "", big, sizeof big),
                 IRON_EIO, "File too large");
    ASSERT_CONTAINS(iron_last_error(), dir);
    ASSERT_FAILS(iron__cache_put(c, key_n(2), "big", "", big, sizeof big),
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
    ASSERT_STR_EQ(iron_cache_path(NULL, buf, sizeof buf), "/opt/iron-cache");
    ASSERT_STR_EQ(iron_cache_path("elsewhere", buf, sizeof buf),
                  "elsewhere");
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
    ASSERT_OK(iron_cache_info(NULL, &entries, &bytes));
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
            iron_status s = iron__cache_put(c, key_n(k), "a", "b", buf,
                                            sizeof buf);
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
        iron_status s = iron__cache_get(c, key_n(5), &p, &len, &why);
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
    char dir[] = "/tmp/iron-cache-perm-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
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
