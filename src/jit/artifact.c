/*
 * artifact.c - ahead-of-time artifacts: a specialization's kernel objects
 * in one self-contained file (the disk cache's entry format, keyed by the
 * compiler-independent spec key), written by iron_jit_save_artifact and
 * loaded by iron_jit_load_artifact in another process -- where no C
 * compiler needs to exist.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cache/entry.h"
#include "jit/jit.h"
#include "jit/payload.h"

struct jit_artifact {
    XXH128_hash_t spec;
    void *payload;
    size_t len;
    char *path;
    char signature[IRON__CACHE_SIGNATURE_MAX];
    struct jit_artifact *next;
};

int iron__jit_artifact_find(const iron_jit *j, XXH128_hash_t spec,
                            const void **payload, size_t *len)
{
    for (const struct jit_artifact *a = j->artifacts; a; a = a->next)
        if (XXH128_isEqual(a->spec, spec)) {
            *payload = a->payload;
            *len = a->len;
            return 1;
        }
    return 0;
}

void iron__jit_artifacts_describe(const iron_jit *j, iron__str *s)
{
    for (const struct jit_artifact *a = j->artifacts; a; a = a->next)
        iron__str_printf(s, "%s'%s' was made for %s", s->len ? "; " : "",
                         a->path, a->signature);
}

void iron__jit_artifacts_free(iron_jit *j)
{
    while (j->artifacts) {
        struct jit_artifact *a = j->artifacts;
        j->artifacts = a->next;
        iron__free(a->payload);
        iron__free(a->path);
        iron__free(a);
    }
}

static iron_status write_all(int fd, const void *p, size_t n, const char *path)
{
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return iron__fail(IRON_EIO, "cannot write artifact '%s': %s",
                              path, w < 0 ? strerror(errno) : "short write");
        b += w;
        n -= (size_t)w;
    }
    return IRON_OK;
}

IRON_API iron_status iron_jit_save_artifact(iron_jit *j,
                                            const iron_launch_config *config,
                                            int nparams,
                                            const iron_param *params,
                                            int nargs,
                                            iron_tensor *const *args,
                                            const char *path)
{
    if (!j || !path || !*path)
        return iron__fail(IRON_EINVAL, "iron_jit_save_artifact: %s is %s",
                          j ? "path" : "jit", j && path ? "empty" : "NULL");
    iron_spec *sp;
    iron_status s = iron_jit_specialize(j, config, nparams, params, nargs,
                                        args, &sp);
    if (s != IRON_OK)
        return s;
    XXH128_hash_t spec = iron__jit_spec_key(j, sp->prog);
    void *payload;
    size_t len;
    if ((s = iron__payload_encode(sp->prog, &payload, &len)) != IRON_OK)
        return s;
    iron__cache_header h;
    iron__cache_key key = { spec.high64, spec.low64 };
    iron__cache_header_init(&h, key, j->name, sp->signature, payload, len);
    unsigned char head[IRON__CACHE_HEADER_BYTES];
    iron__cache_header_encode(&h, head);
    /* Atomic like a cache entry: a reader never sees half a file. */
    /* pid and a process-wide count: two threads saving to one path each
     * write their own temporary file. */
    static atomic_ulong seq;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%lu", path, (long)getpid(),
             atomic_fetch_add(&seq, 1));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        iron__free(payload);
        return iron__fail(IRON_EIO, "cannot create artifact '%s': %s", path,
                          strerror(errno));
    }
    s = write_all(fd, head, sizeof head, path);
    if (s == IRON_OK)
        s = write_all(fd, payload, len, path);
    if (s == IRON_OK && fsync(fd) != 0)
        s = iron__fail(IRON_EIO, "cannot write artifact '%s': %s", path,
                       strerror(errno));
    if (close(fd) != 0 && s == IRON_OK)
        s = iron__fail(IRON_EIO, "cannot write artifact '%s': %s", path,
                       strerror(errno));
    if (s == IRON_OK && rename(tmp, path) != 0)
        s = iron__fail(IRON_EIO, "cannot write artifact '%s': %s", path,
                       strerror(errno));
    if (s != IRON_OK)
        unlink(tmp);
    iron__free(payload);
    return s;
}

IRON_API iron_status iron_jit_load_artifact(iron_jit *j, const char *path)
{
    if (!j || !path)
        return iron__fail(IRON_EINVAL, "iron_jit_load_artifact: %s is NULL",
                          j ? "path" : "jit");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return iron__fail(IRON_EIO, "cannot open artifact '%s': %s", path,
                          strerror(errno));
    /* The key is not known before reading: take it from the header, then
     * validate the whole entry against it. */
    unsigned char head[IRON__CACHE_HEADER_BYTES];
    ssize_t n = read(fd, head, sizeof head);
    iron__cache_key key = { 0, 0 };
    if (n == (ssize_t)sizeof head)
        for (int i = 0; i < 8; i++) {
            key.hi |= (uint64_t)head[IRON__CACHE_OFF_KEY + i] << (8 * i);
            key.lo |= (uint64_t)head[IRON__CACHE_OFF_KEY + 8 + i] << (8 * i);
        }
    iron__cache_header h;
    void *payload = NULL;
    size_t len = 0;
    char why[IRON__CACHE_WHY_MAX] = "";
    iron_status s = lseek(fd, 0, SEEK_SET) == 0
                        ? iron__cache_entry_read(fd, key, &h, &payload, &len,
                                                 why, sizeof why)
                        : IRON_EIO;
    close(fd);
    if (s != IRON_OK)
        return iron__fail(s == IRON_ENOMEM ? IRON_ENOMEM : IRON_EIO,
                          "artifact '%s' is not usable: %s", path,
                          why[0] ? why : "cannot read it");
    const char *pwhy = "";
    iron__payload check;
    if (iron__payload_decode(payload, len, &check, &pwhy) != IRON_OK) {
        iron__free(payload);
        return iron__fail(IRON_EIO, "artifact '%s' is not usable: %s", path,
                          pwhy);
    }
    iron__payload_free(&check);
    /* The header holds the name cut to its field ("...", entry.h), so
     * compare with this jit's name cut the same way: a long name would
     * otherwise never match its own artifact. */
    iron__cache_header mine;
    iron__cache_header_init(&mine, h.key, j->name, "", NULL, 0);
    if (strcmp(h.name, mine.name) != 0) {
        iron__free(payload);
        return iron__fail(IRON_EINVAL,
                          "artifact '%s' was made by jit '%s', not '%s'",
                          path, h.name, j->name);
    }
    struct jit_artifact *a = iron__calloc(1, sizeof *a);
    char *p = iron__strdup(path);
    if (!a || !p) {
        iron__free(a);
        iron__free(p);
        iron__free(payload);
        return iron__fail(IRON_ENOMEM, "out of memory loading an artifact");
    }
    a->spec.high64 = h.key.hi;
    a->spec.low64 = h.key.lo;
    a->payload = payload;
    a->len = len;
    a->path = p;
    snprintf(a->signature, sizeof a->signature, "%s", h.signature);
    a->next = j->artifacts;
    j->artifacts = a;
    return IRON_OK;
}
