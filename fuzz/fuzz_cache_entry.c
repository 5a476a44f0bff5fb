/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_cache_entry.c - libFuzzer target for reading disk-cache entries.
 *
 * A private cache folder is opened once (under /dev/shm when it exists,
 * else $TMPDIR or /tmp; removed at exit).  The first byte picks how the
 * entry file for a fixed key gets there:
 *   even: the rest of the input is the file, byte for byte (the seeds are
 *         real entries written for key FUZZ_KEY with key text
 *         FUZZ_KEY_TEXT);
 *   odd:  iron__cache_put writes a well-formed entry whose key text, name,
 *         signature and payload come from the input (so the payload decoder
 *         behind iron__kstore_verify_dir sees fuzzed payloads with good
 *         checksums), then up to 7 edits (flip a byte, truncate, append)
 *         are made to the file, and the entry is read back with its own key
 *         text or another one.
 *   3 (mod 4): a kernel object.  A real kernel, compiled once per run
 *         with the C compiler, is published the way the kernel store
 *         publishes one (its payload under a kernel key text naming a
 *         compiler), the input's edits are made to the file, and the
 *         kernel store's own lookup (iron__kstore_disk_get) reads it back
 *         with that key text or with the text another compiler's identity
 *         gives.  A hit must be the untouched entry of the same compiler,
 *         and the kernel it loads must compute what the compiled one does;
 *         anything else must be a miss with a reason.
 * Then iron__cache_get looks the key up, the folder is listed (cheaply and
 * fully), verified with the jit's payload decoder and pruned of damaged
 * entries, and the file is removed.  Only the functions cache.h and
 * entry.h declare are used, never the entry layout.
 * Properties: no crash, no undefined behaviour, no leak; a miss is
 * IRON_EIO-like with a reason and a message; an entry put and left alone
 * is a hit with the same payload; an edited entry, or one asked for with
 * another key text, is a miss; a hit entry is listed valid and is not
 * pruned as damaged.
 *
 * Seeds: FUZZ_WRITE_SEEDS=<folder> [FUZZ_SEED_PAYLOAD=<a kernel payload>]
 * build-fuzz/fuzz_cache_entry writes entries of both kinds around a small
 * payload (and the given one) into the folder and exits;
 * fuzz/corpus/fuzz_cache_entry was made that way, with the payload of
 * fuzz/corpus/fuzz_artifact.
 *
 * Run: make fuzz-cache_entry.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache.h"
#include "cache/entry.h"
#include "compile/compile.h"
#include "core/core.h"
#include "fuzz.h"
#include "kstore/payload.h"
#include "kstore/store.h"
#include "kstore/tools.h"

#define FUZZ_KEY_HI 0x0123456789abcdefull
#define FUZZ_KEY_LO 0xfedcba9876543210ull
#define FUZZ_KEY_TEXT "fuzz_cache_entry key text"

static char folder[256];
static iron__cache *cache;

static void remove_folder(void)
{
    if (cache)
        iron__cache_close(cache);
    cache = NULL;
    DIR *dp = opendir(folder);
    if (dp) {
        struct dirent *de;
        while ((de = readdir(dp)) != NULL)
            if (de->d_name[0] != '.')
                unlinkat(dirfd(dp), de->d_name, 0);
        closedir(dp);
    }
    rmdir(folder);
}

static int read_file(const char *path, unsigned char **data, size_t *len);

/* FUZZ_WRITE_SEEDS=<folder>: seeds of both kinds around `payload`. */
static void write_seeds(const char *dir, const char *tag,
                        const unsigned char *payload, size_t plen)
{
    iron__cache_key key = { FUZZ_KEY_HI, FUZZ_KEY_LO };
    char fname[IRON__CACHE_FNAME_MAX], path[512], out[512];
    iron__cache_entry_fname(key, fname);
    snprintf(path, sizeof path, "%s/%s", folder, fname);
    if (iron__cache_put(cache, key, FUZZ_KEY_TEXT, strlen(FUZZ_KEY_TEXT),
                        "fuzz", "fuzz (a: int32[16])", payload,
                        plen) != IRON_OK) {
        fprintf(stderr, "fuzz_cache_entry: %s\n", iron_last_error());
        exit(1);
    }
    unsigned char *file;
    size_t flen;
    if (read_file(path, &file, &flen) != 0)
        exit(1);
    unsigned char *seed = malloc(flen + 1 + 64 + plen);
    if (!seed)
        exit(1);
    /* raw: mode 0, then the file */
    seed[0] = 0;
    memcpy(seed + 1, file, flen);
    snprintf(out, sizeof out, "%s/raw_%s", dir, tag);
    fuzz_write_file(out, seed, flen + 1);
    /* put: mode 1, flags, key text, name, signature, payload */
    for (int edits = 0; edits < 2; edits++) {
        size_t n = 0;
        seed[n++] = 1;
        seed[n++] = (unsigned char)edits;
        const char *parts[3] = { FUZZ_KEY_TEXT, "fuzz", "fuzz (a: i32[4])" };
        for (int k = 0; k < 3; k++) {
            seed[n++] = (unsigned char)strlen(parts[k]);
            memcpy(seed + n, parts[k], strlen(parts[k]));
            n += strlen(parts[k]);
        }
        memcpy(seed + n, payload, plen);
        n += plen;
        if (edits) {
            /* flip one byte near the start */
            const unsigned char edit[6] = { 0, 10, 0, 0, 0, 0x40 };
            memcpy(seed + n, edit, sizeof edit);
            n += sizeof edit;
        }
        snprintf(out, sizeof out, "%s/put%s_%s", dir, edits ? "_edit" : "",
                 tag);
        fuzz_write_file(out, seed, n);
    }
    free(seed);
    free(file);
    unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *base = fuzz_scratch_base();
    snprintf(folder, sizeof folder, "%s/iron-fuzz-cache-XXXXXX", base);
    if (!mkdtemp(folder)) {
        perror("fuzz_cache_entry: mkdtemp");
        exit(1);
    }
    if (iron__cache_open(&cache, folder, 0) != IRON_OK) {
        fprintf(stderr, "fuzz_cache_entry: %s\n", iron_last_error());
        exit(1);
    }
    atexit(remove_folder);
    const char *seeds = getenv("FUZZ_WRITE_SEEDS");
    if (seeds && *seeds) {
        write_seeds(seeds, "small", (const unsigned char *)"payload", 7);
        const char *pf = getenv("FUZZ_SEED_PAYLOAD");
        unsigned char *pl;
        size_t plen;
        if (pf && read_file(pf, &pl, &plen) == 0) {
            write_seeds(seeds, "kernel", pl, plen);
            free(pl);
        }
        exit(0);
    }
    return 0;
}

typedef struct listing {
    int entries, valid;
} listing;

static void count_entry(const iron__cache_entry *e, void *ctx)
{
    listing *l = ctx;
    l->entries++;
    l->valid += e->valid != 0;
    FUZZ_CHECK(memchr(e->name, '\0', sizeof e->name) &&
                   memchr(e->signature, '\0', sizeof e->signature) &&
                   memchr(e->why, '\0', sizeof e->why),
               "a listed entry's strings are not terminated");
    FUZZ_CHECK(e->valid || e->why[0] != '\0',
               "an invalid entry is listed without a reason");
}

static int read_file(const char *path, unsigned char **data, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    *len = (size_t)st.st_size;
    *data = malloc(*len + 1);
    size_t got = 0;
    while (*data && got < *len) {
        ssize_t n = read(fd, *data + got, *len - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!*data || got != *len) {
        free(*data);
        return -1;
    }
    return 0;
}

/* A string of up to max bytes from the input (may hold any byte but NUL
 * ends it early, as C strings do). */
static char *take_str(fuzz_in *in, size_t max)
{
    size_t n = fuzz_u8(in);
    if (n > max)
        n = max;
    if (n > in->n)
        n = in->n;
    char *s = malloc(n + 1);
    FUZZ_CHECK(s, "out of memory");
    memcpy(s, in->p, n);
    s[n] = '\0';
    in->p += n;
    in->n -= n;
    return s;
}

/* ---- kernel objects (mode 3) --------------------------------------------- */

/* The kernel: out[i] = 3 * i + n. */
static const char kernel_src[] =
    "#include <stdint.h>\n"
    "void fuzz_k(int32_t *out, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) out[i] = 3 * i + n; }\n";
/* Its key text as one compiler and as another would make it: the same
 * digest (the entry's file name), different texts. */
#define KOBJ_KEY_HEAD "iron-kobj fuzz\nkernel fuzz_k\n"
#define KOBJ_COMPILER "compiler cc: gcc version 12.2.0; target x86_64-linux-gnu\n"
#define KOBJ_OTHER "compiler cc: clang version 14.0.6; target x86_64-pc-linux-gnu\n"

static unsigned char *kobj_payload;
static size_t kobj_payload_len;
static iron__kstore *kstore;
static iron_jit_stats kstore_stats = { .size = sizeof kstore_stats };

static void kobj_setup(void)
{
    if (kobj_payload)
        return;
    iron__ktype args[2];
    int n = 0;
    FUZZ_CHECK(iron__ktypes_parse("int32*, int32", args, 2, &n) == IRON_OK,
               "kernel types");
    iron__kernel_src src = { .label = "fuzz kernel", .entry = "fuzz_k",
                             .source = kernel_src, .nargs = n,
                             .args = args };
    iron__kobj *o = NULL;
    FUZZ_CHECK(iron__kernel_compile(&src, &o) == IRON_OK,
               "compiling the fuzz kernel: %s", iron_last_error());
    void *pl;
    FUZZ_CHECK(iron__kstore_payload_encode(&o, 1, &pl, &kobj_payload_len) ==
                   IRON_OK,
               "encoding the fuzz kernel");
    kobj_payload = pl;
    iron__kobj_free(o);
    iron__kstore_config cfg = { .name = "fuzz", .disk_cache = -1,
                                .stats = &kstore_stats };
    FUZZ_CHECK(iron__kstore_new(&cfg, &kstore) == IRON_OK, "kernel store");
}

/* Runs a loaded fuzz kernel and checks what it computed. */
static void kobj_check(iron__kobj *o)
{
    int32_t out[8] = { 0 };
    iron__kval a[2];
    a[0].p = out;
    a[1].i = 8;
    iron__kobj_entry(o)(a);
    for (int i = 0; i < 8; i++)
        FUZZ_CHECK(out[i] == 3 * i + 8, "the loaded kernel computed out[%d] "
                                        "= %d, want %d", i, (int)out[i],
                   3 * i + 8);
}

/* Mode 3: publish, damage (maybe), look up as the kernel store does. */
static void kobj_one(fuzz_in *in, iron__cache_key key, const char *path)
{
    kobj_setup();
    uint8_t flags = fuzz_u8(in);
    const char *put_text = KOBJ_KEY_HEAD KOBJ_COMPILER;
    const char *get_text = flags & 8 ? KOBJ_KEY_HEAD KOBJ_OTHER : put_text;
    FUZZ_CHECK(iron__cache_put(cache, key, put_text, strlen(put_text),
                               "fuzz", "kernel fuzz_k(int32*, int32)",
                               kobj_payload, kobj_payload_len) == IRON_OK,
               "iron__cache_put: %s", iron_last_error());
    unsigned char *file;
    size_t flen;
    FUZZ_CHECK(read_file(path, &file, &flen) == 0, "no file %s", path);
    size_t olen = flen;
    unsigned char *orig = malloc(flen + 1);
    FUZZ_CHECK(orig, "out of memory");
    memcpy(orig, file, flen);
    for (int e = 0; e < (flags & 7); e++) {
        uint8_t op = fuzz_u8(in);
        uint32_t at = (uint32_t)fuzz_u16(in) | (uint32_t)fuzz_u16(in) << 16;
        uint8_t v = fuzz_u8(in);
        size_t pos = flen ? at % flen : 0;
        if (op % 3 == 0 && flen)
            file[pos] ^= v ? v : 1;
        else if (op % 3 == 1)
            flen = pos;
        else if (flen)
            file[pos] = v;
    }
    if (flags & 7)
        fuzz_write_file(path, file, flen);
    int expect_hit = flen == olen && memcmp(file, orig, flen) == 0 &&
                     !(flags & 8);
    free(orig);
    free(file);

    iron__kstore_key k = { get_text, strlen(get_text),
                           { key.lo, key.hi } };
    iron__kobj *o = (iron__kobj *)(uintptr_t)1;
    iron__kstore_deps deps = { 7, NULL };
    char why[512] = "";
    int hit = iron__kstore_disk_get(kstore, cache, &k, "fuzz kernel", &o,
                                    &deps, why, sizeof why);
    if (hit) {
        FUZZ_CHECK(expect_hit, "a damaged entry, or another compiler's, "
                               "was a hit");
        kobj_check(o);
        iron__kobj_free(o);
        iron__kstore_deps_free(&deps);
    } else {
        FUZZ_CHECK(o == NULL && deps.n == 0 && deps.v == NULL,
                   "a miss left an object or headers behind");
        FUZZ_CHECK(why[0], "a miss without a reason");
        FUZZ_CHECK(!expect_hit, "an untouched entry of the same compiler "
                                "was a miss: %s", why);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = { data, size };
    iron__cache_key key = { FUZZ_KEY_HI, FUZZ_KEY_LO };
    char fname[IRON__CACHE_FNAME_MAX], path[512];
    iron__cache_entry_fname(key, fname);
    snprintf(path, sizeof path, "%s/%s", folder, fname);

    uint8_t mode = fuzz_u8(&in);
    const char *text = FUZZ_KEY_TEXT;
    size_t text_len = strlen(FUZZ_KEY_TEXT);
    char *own_text = NULL, *name = NULL, *sig = NULL;
    unsigned char *put_payload = NULL;
    size_t put_len = 0;
    int expect_hit = 0;

    if ((mode & 3) == 3) {
        kobj_one(&in, key, path);
    } else if (!(mode & 1)) {
        fuzz_write_file(path, in.p, in.n);
    } else {
        uint8_t flags = fuzz_u8(&in);
        /* key text: binary, may hold NULs (it has a length) */
        size_t tl = fuzz_u8(&in);
        if (tl > in.n)
            tl = in.n;
        own_text = malloc(tl + 1);
        FUZZ_CHECK(own_text, "out of memory");
        memcpy(own_text, in.p, tl);
        in.p += tl;
        in.n -= tl;
        name = take_str(&in, 200);
        sig = take_str(&in, 1000);
        int nedits = flags & 7;
        /* the payload: what the edits leave of the rest */
        size_t edit_bytes = (size_t)nedits * 6;
        put_len = in.n > edit_bytes ? in.n - edit_bytes : 0;
        put_payload = malloc(put_len + 1);
        FUZZ_CHECK(put_payload, "out of memory");
        memcpy(put_payload, in.p, put_len);
        in.p += put_len;
        in.n -= put_len;
        iron_status st = iron__cache_put(cache, key, own_text, tl, name, sig,
                                         put_payload, put_len);
        FUZZ_FAILED_WITH_MESSAGE(st, "iron__cache_put");
        FUZZ_CHECK(st == IRON_OK, "iron__cache_put failed: %s",
                   iron_last_error());
        unsigned char *file;
        size_t flen;
        FUZZ_CHECK(read_file(path, &file, &flen) == 0,
                   "iron__cache_put left no file %s", path);
        unsigned char *orig = malloc(flen + 1);
        FUZZ_CHECK(orig, "out of memory");
        memcpy(orig, file, flen);
        size_t olen = flen;
        for (int e = 0; e < nedits; e++) {
            uint8_t op = fuzz_u8(&in);
            uint32_t at = (uint32_t)fuzz_u16(&in) |
                          (uint32_t)fuzz_u16(&in) << 16;
            uint8_t v = fuzz_u8(&in);
            size_t pos = flen ? at % flen : 0;
            if (op % 3 == 0 && flen) {
                file[pos] ^= v ? v : 1;
            } else if (op % 3 == 1) {
                flen = pos;
            } else {
                unsigned char *g = realloc(file, flen + v + 1);
                FUZZ_CHECK(g, "out of memory");
                file = g;
                memset(file + flen, v, (size_t)v + 1);
                flen += (size_t)v + 1;
            }
        }
        if (nedits)
            fuzz_write_file(path, file, flen);
        int same = flen == olen && memcmp(file, orig, flen) == 0;
        free(orig);
        free(file);
        /* Another key text: the entry's with one byte more. */
        if (flags & 8) {
            own_text[tl] = 'x';
            tl++;
        }
        text = own_text;
        text_len = tl;
        expect_hit = same && !(flags & 8);
    }

    void *payload = (void *)(uintptr_t)1;
    size_t len = 12345;
    const char *why = NULL;
    iron_status st = iron__cache_get(cache, key, text, text_len, &payload,
                                     &len, &why);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron__cache_get");
    if (st == IRON_OK) {
        FUZZ_CHECK(payload != NULL || len == 0,
                   "a hit returned no payload for %zu bytes", len);
        if (mode & 1) {
            FUZZ_CHECK(expect_hit, "an edited entry, or another key text, "
                                   "was a hit");
            FUZZ_CHECK(
                len == put_len &&
                    (len == 0 || memcmp(payload, put_payload, len) == 0),
                "the hit's payload (%zu bytes) is not the %zu put", len,
                put_len);
        }
        iron__free(payload);
    } else {
        FUZZ_CHECK(payload == NULL && len == 0,
                   "a miss left payload %p, len %zu", payload, len);
        FUZZ_CHECK(why && why[0], "a miss without a reason");
        FUZZ_CHECK(!expect_hit, "an entry put and left alone was a miss: "
                                "%s (%s)", why, iron_last_error());
    }

    listing cheap = { 0, 0 }, full = { 0, 0 }, verified = { 0, 0 };
    iron_status sl = iron__cache_list(cache, 0, NULL, count_entry, &cheap);
    FUZZ_FAILED_WITH_MESSAGE(sl, "iron__cache_list");
    sl = iron__cache_list(cache, 1, NULL, count_entry, &full);
    FUZZ_FAILED_WITH_MESSAGE(sl, "iron__cache_list");
    if (st == IRON_OK)
        FUZZ_CHECK(full.entries == 1 && full.valid == 1,
                   "a hit entry is listed as %d entries, %d valid",
                   full.entries, full.valid);
    sl = iron__kstore_verify_dir(folder, count_entry, &verified);
    FUZZ_FAILED_WITH_MESSAGE(sl, "iron__kstore_verify_dir");
    uint64_t entries = 0, bytes = 0;
    sl = iron__cache_info(cache, &entries, &bytes);
    FUZZ_FAILED_WITH_MESSAGE(sl, "iron__cache_info");
    uint64_t removed = 0, damaged = 0;
    sl = iron__cache_prune(cache, UINT64_MAX, NULL, &removed, &damaged);
    FUZZ_FAILED_WITH_MESSAGE(sl, "iron__cache_prune");
    if (st == IRON_OK)
        FUZZ_CHECK(removed == 0, "a hit entry was pruned as damaged");

    unlink(path);
    free(own_text);
    free(name);
    free(sig);
    free(put_payload);
    return 0;
}
