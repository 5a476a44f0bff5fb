/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * payload.c - encoding and decoding a specialization's kernel objects for
 * the disk cache and artifact files (layout in payload.h; little-endian,
 * every length bounds-checked on the way in).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/file.h"
#include "compile/compile.h"
#include "kstore/payload.h"

/* A small growable byte buffer (iron__str is for text). */
typedef struct bytes {
    unsigned char *p;
    size_t len, cap;
    int oom;
} bytes;

static void add(bytes *b, const void *data, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = iron__realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void add_u32(bytes *b, uint32_t v)
{
    unsigned char x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (unsigned char)(v >> (8 * i));
    add(b, x, 4);
}

static void add_u64(bytes *b, uint64_t v)
{
    unsigned char x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (unsigned char)(v >> (8 * i));
    add(b, x, 8);
}

/* Size and XXH3-64 of a file's contents; -1 with the reason in why if it
 * cannot be read.  The path comes from a cache entry, so it is opened as
 * file.h says: a FIFO, a device such as /dev/zero or a file over
 * IRON__FILE_HEADER_MAX is refused before a byte is read, and the read
 * stops at the limit even if the file grows meanwhile. */
static int hash_file(const char *path, uint64_t *size, uint64_t *hash,
                     char *why, size_t why_len)
{
    struct stat st;
    int err;
    int fd = iron__file_open(AT_FDCWD, path, 0, IRON__OWNER_ANY,
                             IRON__FILE_HEADER_MAX, &st, &err, why, why_len);
    if (fd < 0)
        return -1;
    XXH3_state_t *xs = XXH3_createState();
    if (!xs) {
        close(fd);
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    XXH3_64bits_reset(xs);
    unsigned char buf[16384];
    uint64_t total = 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        total += (uint64_t)n;
        if (total > IRON__FILE_HEADER_MAX)
            break;
        XXH3_64bits_update(xs, buf, (size_t)n);
    }
    int e = errno;
    close(fd);
    *hash = XXH3_64bits_digest(xs);
    *size = total;
    XXH3_freeState(xs);
    if (n < 0) {
        snprintf(why, why_len, "read error: %s", strerror(e));
        return -1;
    }
    if (total > IRON__FILE_HEADER_MAX) {
        snprintf(why, why_len, "grew past the %llu bytes accepted",
                 (unsigned long long)IRON__FILE_HEADER_MAX);
        return -1;
    }
    return 0;
}

static int distinct_index(iron__kobj *const *kobjs, int k)
{
    int idx = 0;
    for (int e = 0; e < k; e++) {
        int first = iron__kobjs_first(kobjs, e);
        if (first && kobjs[e] == kobjs[k])
            return idx;
        idx += first;
    }
    return idx;
}

iron_status iron__kstore_payload_encode(iron__kobj *const *kobjs,
                                        int nkernels, void **out,
                                        size_t *len)
{
    bytes b = { 0 };
    add(&b, IRON__KSTORE_PAYLOAD_MAGIC, 8);
    int nobjs = 0;
    for (int k = 0; k < nkernels; k++)
        nobjs += iron__kobjs_first(kobjs, k);
    add_u32(&b, (uint32_t)nkernels);
    add_u32(&b, (uint32_t)nobjs);
    for (int k = 0; k < nkernels; k++)
        add_u32(&b, (uint32_t)distinct_index(kobjs, k));
    for (int k = 0; k < nkernels; k++) {
        if (!iron__kobjs_first(kobjs, k))
            continue;
        int ndeps;
        const char *const *deps = iron__kobj_deps(kobjs[k], &ndeps);
        add_u32(&b, (uint32_t)ndeps);
        for (int d = 0; d < ndeps; d++) {
            uint64_t size = 0, hash = 0;
            char why[IRON__FILE_WHY_MAX];
            if (hash_file(deps[d], &size, &hash, why, sizeof why) != 0)
                size = hash = UINT64_MAX;  /* unreadable: always stale */
            add_u32(&b, (uint32_t)strlen(deps[d]));
            add(&b, deps[d], strlen(deps[d]));
            add_u64(&b, size);
            add_u64(&b, hash);
        }
        size_t ilen;
        const char *image = iron__kobj_image(kobjs[k], &ilen);
        add_u64(&b, ilen);
        add(&b, image, ilen);
    }
    if (b.oom) {
        iron__free(b.p);
        return iron__fail(IRON_ENOMEM, "out of memory encoding a cache entry");
    }
    *out = b.p;
    *len = b.len;
    return IRON_OK;
}

typedef struct reader {
    const unsigned char *p, *end;
    int bad;
} reader;

static uint64_t take(reader *r, int n)
{
    if (r->bad || r->end - r->p < n) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

static const void *take_bytes(reader *r, uint64_t n)
{
    if (r->bad || (uint64_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    const void *at = r->p;
    r->p += n;
    return at;
}

void iron__kstore_payload_free(iron__kstore_payload *pl)
{
    for (int i = 0; pl->objs && i < pl->nobjs; i++)
        iron__free(pl->objs[i].deps);
    iron__free(pl->objs);
    iron__free(pl->obj_of_kernel);
    memset(pl, 0, sizeof *pl);
}

iron_status iron__kstore_payload_decode(const void *buf, size_t len,
                                        iron__kstore_payload *out,
                                        const char **why)
{
    memset(out, 0, sizeof *out);
    reader r = { buf, (const unsigned char *)buf + len, 0 };
    const void *magic = take_bytes(&r, 8);
    if (!magic || memcmp(magic, IRON__KSTORE_PAYLOAD_MAGIC, 8) != 0) {
        *why = "not a kernel payload";
        return iron__fail(IRON_EIO, "cache payload: %s", *why);
    }
    uint64_t nk = take(&r, 4), no = take(&r, 4);
    if (r.bad || nk > 4096 || no > nk) {
        *why = "payload header out of range";
        return iron__fail(IRON_EIO, "cache payload: %s", *why);
    }
    out->nkernels = (int)nk;
    out->nobjs = (int)no;
    out->obj_of_kernel = iron__calloc(nk + 1, sizeof *out->obj_of_kernel);
    out->objs = iron__calloc(no + 1, sizeof *out->objs);
    if (!out->obj_of_kernel || !out->objs) {
        iron__kstore_payload_free(out);
        *why = "out of memory";
        return iron__fail(IRON_ENOMEM, "out of memory reading a cache entry");
    }
    for (uint64_t k = 0; k < nk; k++) {
        uint64_t o = take(&r, 4);
        if (o >= no)
            r.bad = 1;
        out->obj_of_kernel[k] = (int)o;
    }
    for (uint64_t o = 0; o < no && !r.bad; o++) {
        iron__kstore_payload_obj *ob = &out->objs[o];
        uint64_t nd = take(&r, 4);
        if (nd > 100000) {
            r.bad = 1;
            break;
        }
        ob->deps = iron__calloc(nd + 1, sizeof *ob->deps);
        if (!ob->deps) {
            iron__kstore_payload_free(out);
            *why = "out of memory";
            return iron__fail(IRON_ENOMEM, "out of memory");
        }
        ob->ndeps = (int)nd;
        for (uint64_t d = 0; d < nd && !r.bad; d++) {
            ob->deps[d].path_len = (uint32_t)take(&r, 4);
            ob->deps[d].path = take_bytes(&r, ob->deps[d].path_len);
            ob->deps[d].size = take(&r, 8);
            ob->deps[d].hash = take(&r, 8);
        }
        ob->image_len = take(&r, 8);
        ob->image = take_bytes(&r, ob->image_len);
    }
    if (r.bad || r.p != r.end) {
        iron__kstore_payload_free(out);
        *why = "payload truncated or malformed";
        return iron__fail(IRON_EIO, "cache payload: %s", *why);
    }
    return IRON_OK;
}

int iron__kstore_payload_deps_fresh(const iron__kstore_payload *pl,
                                    char *changed, size_t len)
{
    for (int o = 0; o < pl->nobjs; o++)
        for (int d = 0; d < pl->objs[o].ndeps; d++) {
            const iron__kstore_payload_dep *dep = &pl->objs[o].deps[d];
            char path[4096], why[IRON__FILE_WHY_MAX] = "";
            /* A path that does not fit, or with a NUL inside, would name
             * some other file: stale, not cut. */
            if (dep->path_len == 0 || dep->path_len >= sizeof path ||
                memchr(dep->path, '\0', dep->path_len)) {
                snprintf(changed, len, "a malformed path of %u bytes",
                         (unsigned)dep->path_len);
                return 0;
            }
            memcpy(path, dep->path, dep->path_len);
            path[dep->path_len] = '\0';
            uint64_t size = 0, hash = 0;
            if (hash_file(path, &size, &hash, why, sizeof why) != 0) {
                snprintf(changed, len, "%s (%s)", path, why);
                return 0;
            }
            if (size != dep->size || hash != dep->hash) {
                snprintf(changed, len, "%s", path);
                return 0;
            }
        }
    return 1;
}

int iron__kstore_payload_check(const void *buf, size_t len, char *why,
                               size_t why_len)
{
    iron__kstore_payload pl;
    const char *w = "";
    iron_status s = iron__kstore_payload_decode(buf, len, &pl, &w);
    if (s == IRON_OK)
        iron__kstore_payload_free(&pl);
    else
        snprintf(why, why_len, "%s", w);
    return s == IRON_OK ? 0 : -1;
}

iron_status iron__kstore_payload_load(const iron__kstore_payload *pl,
                                      int nkernels, const char *label,
                                      iron__kobj ***out)
{
    *out = NULL;
    if (pl->nkernels != nkernels)
        return iron__fail(IRON_EIO,
                          "cache payload holds %d kernels, expected %d",
                          pl->nkernels, nkernels);
    iron__kobj **kobjs =
        iron__calloc((size_t)pl->nkernels + 1, sizeof *kobjs);
    iron__kobj **objs = iron__calloc((size_t)pl->nobjs + 1, sizeof *objs);
    if (!kobjs || !objs) {
        iron__free(kobjs);
        iron__free(objs);
        return iron__fail(IRON_ENOMEM, "out of memory loading kernels");
    }
    iron_status s = IRON_OK;
    for (int o = 0; o < pl->nobjs && s == IRON_OK; o++)
        s = iron__kobj_load_image(pl->objs[o].image,
                                  (size_t)pl->objs[o].image_len, label,
                                  &objs[o]);
    if (s != IRON_OK) {
        for (int o = 0; o < pl->nobjs; o++)
            iron__kobj_free(objs[o]);
        iron__free(objs);
        iron__free(kobjs);
        return s;
    }
    for (int k = 0; k < pl->nkernels; k++)
        kobjs[k] = objs[pl->obj_of_kernel[k]];
    iron__free(objs);
    *out = kobjs;
    return IRON_OK;
}
