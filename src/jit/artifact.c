/*
 * artifact.c - ahead-of-time artifacts: a specialization's kernel objects
 * in one self-contained file (the disk cache's entry format, holding the
 * compiler-independent spec key's full text), written by
 * iron_jit_save_artifact and loaded by iron_jit_load_artifact in another
 * process -- where no C compiler needs to exist.
 *
 * An artifact is native code this process will run, so loading one
 * checks the file before reading it (cache/file.h: a regular file, owned
 * by this user or root, not writable by group or others, at most
 * IRON__FILE_ENTRY_MAX bytes; a FIFO or device fails at once instead of
 * blocking), then every field and checksum, and a build uses it only when
 * its key text is exactly the build's.  iron_jit_load_artifact_pinned
 * also requires the file's SHA-256 to be one the caller names.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/entry.h"
#include "cache/file.h"
#include "cache/sha256.h"
#include "jit/jit.h"
#include "jit/payload.h"

struct jit_artifact {
    XXH128_hash_t digest;      /* of text: the index */
    char *text;                /* the spec key text: the decision */
    size_t text_len;
    void *payload;
    size_t len;
    char *path;
    char signature[IRON__CACHE_SIGNATURE_MAX];
    struct jit_artifact *next;
};

int iron__jit_artifact_match(const iron_jit *j, const iron__jit_key *key,
                             const void **payload, size_t *len,
                             const char **collided)
{
    if (collided)
        *collided = NULL;
    for (const struct jit_artifact *a = j->artifacts; a; a = a->next) {
        if (!XXH128_isEqual(a->digest, key->digest))
            continue;
        if (a->text_len == key->len &&
            memcmp(a->text, key->text, key->len) == 0) {
            *payload = a->payload;
            *len = a->len;
            return 1;
        }
        if (collided && !*collided)
            *collided = a->path;
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
        iron__free(a->text);
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
    iron__str text = { 0 };
    iron__jit_key key;
    if ((s = iron__jit_spec_key_make(j, sp->prog, &text, &key)) != IRON_OK)
        return s;
    void *payload;
    size_t len;
    if ((s = iron__payload_encode(sp->prog, &payload, &len)) != IRON_OK) {
        iron__str_free(&text);
        return s;
    }
    if (key.len > IRON__CACHE_KEY_TEXT_MAX ||
        len > IRON__FILE_ENTRY_MAX - IRON__CACHE_HEADER_BYTES - key.len) {
        iron__free(payload);
        iron__str_free(&text);
        return iron__fail(IRON_EINVAL,
                          "cannot write artifact '%s': %zu bytes of key text "
                          "and %zu of kernels are more than an artifact may "
                          "hold (%llu in all)",
                          path, key.len, len,
                          (unsigned long long)IRON__FILE_ENTRY_MAX);
    }
    iron__cache_header h;
    iron__cache_key k = { key.digest.high64, key.digest.low64 };
    iron__cache_header_init(&h, k, key.text, key.len, j->name, sp->signature,
                            payload, len);
    unsigned char head[IRON__CACHE_HEADER_BYTES];
    iron__cache_header_encode(&h, head);
    /* Atomic like a cache entry: a reader never sees half a file. */
    /* pid and a process-wide count: two threads saving to one path each
     * write their own temporary file. */
    static atomic_ulong seq;
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%lu", path, (long)getpid(),
                     atomic_fetch_add(&seq, 1));
    int fd = n > 0 && (size_t)n < sizeof tmp
                 ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                 O_CLOEXEC, 0644)  /* loading refuses a
                                                      file others may
                                                      write: never 0664 */
                 : (errno = ENAMETOOLONG, -1);
    if (fd < 0) {
        iron__free(payload);
        iron__str_free(&text);
        return iron__fail(IRON_EIO, "cannot create artifact '%s': %s", path,
                          strerror(errno));
    }
    s = write_all(fd, head, sizeof head, path);
    if (s == IRON_OK)
        s = write_all(fd, key.text, key.len, path);
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
    iron__str_free(&text);
    return iron__public_result(s);
}

/* sha_hex as 64 lower-case hex digits into out; -1 when it is not 64 hex
 * digits (either case, nothing else). */
static int normalize_pin(const char *sha_hex, char *out)
{
    size_t n = strlen(sha_hex);
    if (n != 64)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)sha_hex[i]))
            return -1;
        out[i] = (char)tolower((unsigned char)sha_hex[i]);
    }
    out[64] = '\0';
    return 0;
}

static iron_status load(iron_jit *j, const char *path, const char *pin)
{
    struct stat st;
    int err;
    char why[IRON__CACHE_WHY_MAX];
    /* Links are followed: an installed artifact may well be one.  What is
     * checked is the file reached, on the open descriptor. */
    int fd = iron__file_open(AT_FDCWD, path, 0, IRON__OWNER_SELF_OR_ROOT,
                             IRON__FILE_ENTRY_MAX, &st, &err, why,
                             sizeof why);
    if (fd < 0)
        return iron__fail(IRON_EIO, "artifact '%s' is not usable: %s", path,
                          why);
    /* The key is not known before reading: the header names it, and the
     * whole file is validated against it.  With a pin every byte read is
     * hashed, and the size check makes that the whole file: what was
     * hashed is exactly what gets used. */
    iron__sha256 sha;
    iron__sha256_init(&sha);
    iron__cache_want w = { .any_key = 1, .keep_text = 1,
                           .hash = pin ? &sha : NULL };
    iron__cache_got g;
    iron_status s = iron__cache_entry_read(fd, &w, &g);
    close(fd);
    if (s != IRON_OK)
        return iron__fail(s == IRON_ENOMEM ? IRON_ENOMEM : IRON_EIO,
                          "artifact '%s' is not usable: %s", path,
                          g.why[0] ? g.why : "cannot read it");
    if (pin) {
        char got[65];
        iron__sha256_hex(&sha, got);
        if (strcmp(got, pin) != 0) {
            iron__cache_got_free(&g);
            return iron__fail(IRON_EIO,
                              "artifact '%s' is not the pinned one: its "
                              "SHA-256 is %s, expected %s; not loaded",
                              path, got, pin);
        }
    }
    const char *pwhy = "";
    iron__payload check;
    if (iron__payload_decode(g.payload, g.len, &check, &pwhy) != IRON_OK) {
        iron__cache_got_free(&g);
        return iron__fail(IRON_EIO, "artifact '%s' is not usable: %s", path,
                          pwhy);
    }
    iron__payload_free(&check);
    /* The header holds the name cut to its field ("...", entry.h), so
     * compare with this jit's name cut the same way: a long name would
     * otherwise never match its own artifact. */
    iron__cache_header mine;
    iron__cache_header_init(&mine, g.h.key, NULL, 0, j->name, "", NULL, 0);
    if (strcmp(g.h.name, mine.name) != 0) {
        iron__cache_got_free(&g);
        return iron__fail(IRON_EINVAL,
                          "artifact '%s' was made by jit '%s', not '%s'",
                          path, g.h.name, j->name);
    }
    struct jit_artifact *a = iron__calloc(1, sizeof *a);
    char *p = iron__strdup(path);
    if (!a || !p) {
        iron__free(a);
        iron__free(p);
        iron__cache_got_free(&g);
        return iron__fail(IRON_ENOMEM, "out of memory loading an artifact");
    }
    /* The index is recomputed from the text rather than taken from the
     * header, so that the test hook's constant digest applies here too
     * (and a header digest that disagrees with its text finds nothing). */
    a->text = g.text;
    a->text_len = (size_t)g.h.text_len;
    a->digest = iron__jit_key_digest(a->text, a->text_len);
    a->payload = g.payload;
    a->len = g.len;
    a->path = p;
    snprintf(a->signature, sizeof a->signature, "%s", g.h.signature);
    /* Builds on other threads read the list (under build_lock). */
    pthread_mutex_lock(&j->build_lock);
    a->next = j->artifacts;
    j->artifacts = a;
    pthread_mutex_unlock(&j->build_lock);
    return IRON_OK;
}

IRON_API iron_status iron_jit_load_artifact(iron_jit *j, const char *path)
{
    if (!j || !path)
        return iron__fail(IRON_EINVAL, "iron_jit_load_artifact: %s is NULL",
                          j ? "path" : "jit");
    return iron__public_result(load(j, path, NULL));
}

IRON_API iron_status iron_jit_load_artifact_pinned(iron_jit *j,
                                                   const char *path,
                                                   const char *sha256_hex)
{
    if (!j || !path || !sha256_hex)
        return iron__fail(IRON_EINVAL,
                          "iron_jit_load_artifact_pinned: %s is NULL",
                          !j ? "jit" : !path ? "path" : "sha256_hex");
    char pin[65];
    if (normalize_pin(sha256_hex, pin) != 0)
        return iron__fail(IRON_EINVAL,
                          "iron_jit_load_artifact_pinned: '%s' is not a "
                          "SHA-256 digest (64 hex digits, as sha256sum "
                          "prints)", sha256_hex);
    return iron__public_result(load(j, path, pin));
}
