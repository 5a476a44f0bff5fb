/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * artifact.c - (kernel store) ahead-of-time artifacts: a specialization's
 * kernel objects in one self-contained file (the disk cache's entry
 * format, holding the compiler-independent spec key's full text), written
 * for iron_jit_save_artifact and loaded for iron_jit_load_artifact in
 * another process -- where no C compiler needs to exist.  (The public
 * calls check their arguments in src/jit/artifact.c.)
 *
 * An artifact is native code this process will run, so loading one
 * checks the file before reading it (core/file.h: a regular file, owned
 * by this user or root, not writable by group or others, at most
 * IRON__FILE_ENTRY_MAX bytes; a FIFO or device fails at once instead of
 * blocking), then every field and checksum, and a build uses it only when
 * its key text is exactly the build's.  iron_jit_load_artifact_pinned
 * also requires the file's SHA-256 to be one the caller names.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic.h"
#include "cache/entry.h"
#include "core/file.h"
#include "cache/sha256.h"
#include "kstore/payload.h"
#include "kstore/store.h"

struct kstore_artifact {
    XXH128_hash_t digest;      /* of text: the index */
    char *text;                /* the spec key text: the decision */
    size_t text_len;
    void *payload;
    size_t len;
    char *path;
    char signature[IRON__CACHE_SIGNATURE_MAX];
    struct kstore_artifact *next;
};

int iron__kstore_artifact_match(iron__kstore *ks, const iron__kstore_key *key,
                                const void **payload, size_t *len,
                                const char **collided)
{
    int found = 0;
    if (collided)
        *collided = NULL;
    pthread_mutex_lock(&ks->artifacts_lock);
    for (const struct kstore_artifact *a = ks->artifacts; a && !found;
         a = a->next) {
        if (!XXH128_isEqual(a->digest, key->digest))
            continue;
        if (a->text_len == key->len &&
            memcmp(a->text, key->text, key->len) == 0) {
            *payload = a->payload;
            *len = a->len;
            found = 1;
        } else if (collided && !*collided) {
            *collided = a->path;
        }
    }
    pthread_mutex_unlock(&ks->artifacts_lock);
    return found;
}

int iron__kstore_has_artifacts(iron__kstore *ks)
{
    pthread_mutex_lock(&ks->artifacts_lock);
    int any = ks->artifacts != NULL;
    pthread_mutex_unlock(&ks->artifacts_lock);
    return any;
}

void iron__kstore_artifacts_describe(iron__kstore *ks, iron__str *s)
{
    pthread_mutex_lock(&ks->artifacts_lock);
    for (const struct kstore_artifact *a = ks->artifacts; a; a = a->next)
        iron__str_printf(s, "%s'%s' was made for %s", s->len ? "; " : "",
                         a->path, a->signature);
    pthread_mutex_unlock(&ks->artifacts_lock);
}

void iron__kstore_artifacts_free(iron__kstore *ks)
{
    while (ks->artifacts) {
        struct kstore_artifact *a = ks->artifacts;
        ks->artifacts = a->next;
        iron__free(a->text);
        iron__free(a->payload);
        iron__free(a->path);
        iron__free(a);
    }
}

/* What an artifact file holds, for the body of the atomic write. */
typedef struct artifact_parts {
    const unsigned char *head;
    const iron__kstore_key *key;
    const void *payload;
    size_t len;
} artifact_parts;

static iron_status artifact_body(iron__atomic_out *o, void *ctx)
{
    const artifact_parts *a = ctx;
    iron__atomic_put(o, a->head, IRON__CACHE_HEADER_BYTES);
    iron__atomic_put(o, a->key->text, a->key->len);
    iron__atomic_put(o, a->payload, a->len);
    return IRON_OK;
}

iron_status iron__kstore_artifact_save(iron__kstore *ks,
                                       const iron_program *p,
                                       const char *signature,
                                       const char *path)
{
    iron__str text = { 0 };
    iron__kstore_key key;
    iron_status s = iron__kstore_spec_key(ks, p, &text, &key);
    if (s != IRON_OK)
        return s;
    void *payload;
    size_t len;
    if ((s = iron__kstore_payload_encode(p->kobjs, p->nkernels, &payload,
                                           &len)) != IRON_OK) {
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
    iron__cache_header_init(&h, k, key.text, key.len, ks->name, signature,
                            payload, len);
    unsigned char head[IRON__CACHE_HEADER_BYTES];
    iron__cache_header_encode(&h, head);
    /* Atomic like a cache entry: a reader never sees half a file.  Mode
     * 0644, never 0664: loading refuses a file others may write. */
    artifact_parts parts = { head, &key, payload, len };
    iron__atomic_file a = { .dirfd = AT_FDCWD, .name = path,
                             .what = "artifact", .mode = 0644 };
    s = iron__atomic_write(&a, artifact_body, &parts);
    iron__free(payload);
    iron__str_free(&text);
    return s;
}

iron_status iron__kstore_artifact_load(iron__kstore *ks, const char *path,
                                       const char *pin)
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
    iron__kstore_payload check;
    if (iron__kstore_payload_decode(g.payload, g.len, &check, &pwhy) !=
        IRON_OK) {
        iron__cache_got_free(&g);
        return iron__fail(IRON_EIO, "artifact '%s' is not usable: %s", path,
                          pwhy);
    }
    iron__kstore_payload_free(&check);
    /* The header holds the name cut to its field ("...", entry.h), so
     * compare with this jit's name cut the same way: a long name would
     * otherwise never match its own artifact. */
    iron__cache_header mine;
    iron__cache_header_init(&mine, g.h.key, NULL, 0, ks->name, "", NULL, 0);
    if (strcmp(g.h.name, mine.name) != 0) {
        iron__cache_got_free(&g);
        return iron__fail(IRON_EINVAL,
                          "artifact '%s' was made by jit '%s', not '%s'",
                          path, g.h.name, ks->name);
    }
    struct kstore_artifact *a = iron__calloc(1, sizeof *a);
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
    a->digest = iron__kstore_key_digest(a->text, a->text_len);
    a->payload = g.payload;
    a->len = g.len;
    a->path = p;
    snprintf(a->signature, sizeof a->signature, "%s", g.h.signature);
    /* Builds on other threads read the list. */
    pthread_mutex_lock(&ks->artifacts_lock);
    a->next = ks->artifacts;
    ks->artifacts = a;
    pthread_mutex_unlock(&ks->artifacts_lock);
    return IRON_OK;
}
