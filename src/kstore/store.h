/*
 * store.h - the kernel store's insides, shared by its files: the handle,
 * keys (key.c), the compiler call (compiler.c), shared objects
 * (shared.c) and loaded artifacts (artifact.c).  Nothing outside
 * src/kstore includes it.
 */
#ifndef IRON_KSTORE_STORE_H
#define IRON_KSTORE_STORE_H

#include <pthread.h>
#include <xxhash.h>

#include "cache/cache.h"
#include "kstore/kstore.h"

struct iron__kstore {
    const char *name, *cflags;      /* the owner's */
    iron_jit_stats *stats;          /* the owner's */
    /* The disk cache: settings resolved at creation, the folder opened
     * at the first build that wants it (an unusable one is tried once). */
    iron__cache_settings cache_settings;
    iron__cache *cache;
    int cache_tried;
    /* Kernel objects shared between specializations (shared.c). */
    struct kstore_shared *shared;
    int nshared;
    /* Loaded artifacts, newest first (artifact.c); entries are only
     * added, and freed with the store. */
    pthread_mutex_t artifacts_lock;
    struct kstore_artifact *artifacts;
};

/* ---- keys (key.c) ----------------------------------------------------------
 * A key is a canonical text and its XXH3-128 digest.  The digest names a
 * disk entry and indexes the loaded artifacts; the text decides: an entry
 * or artifact is used only when the text it holds equals the key's byte
 * for byte, so a digest collision is a miss, never a wrong kernel.
 * With the test hook iron__kstore_test_digest set, every digest is that
 * constant (in both halves). */
typedef struct iron__kstore_key {
    const char *text;          /* not NUL-terminated inside a longer key */
    size_t len;
    XXH128_hash_t digest;
} iron__kstore_key;

/* The digest of text[0 .. len) (or the test constant). */
XXH128_hash_t iron__kstore_key_digest(const char *text, size_t len);

/* The compiler-independent spec key of a placed program -- its canonical
 * text, every kernel's source, defines, types and flags, the device
 * model, the library version and the entry format -- built into *buf
 * (free with iron__str_free), with out->text pointing into it.
 * IRON_ENOMEM when the text cannot be built. */
iron_status iron__kstore_spec_key(const iron__kstore *ks,
                                  const iron_program *p, iron__str *buf,
                                  iron__kstore_key *out);

/* Appends what identifies a compiled kernel (entry, source, argument
 * types, defines, flags; every field length-prefixed) to s: the kernel's
 * part of the spec key, and the identity shared objects match on. */
void iron__kstore_kernel_text(const iron__kstore *ks, const iron_kernel *k,
                              iron__str *s);

/* ---- the compiler (compiler.c) ---------------------------------------------
 * Compiles every distinct kernel of p into p->kobjs (kernels identical in
 * every field share one object); counts stats->kernel_compiles. */
iron_status iron__kstore_compile(iron__kstore *ks, iron_program *p);

/* ---- shared objects (shared.c) ---------------------------------------------
 * fill gives p every kernel object from the shared ones (1), or nothing
 * (0); add shares p's objects that have no writable state; sweep frees
 * the entries no specialization uses (all: every entry). */
int iron__kstore_shared_fill(iron__kstore *ks, iron_program *p);
void iron__kstore_shared_add(iron__kstore *ks, const iron_program *p);
void iron__kstore_shared_sweep(iron__kstore *ks, int all);

/* ---- artifacts (artifact.c) --------------------------------------------- */
/* The payload of the loaded artifact whose key text is key->text exactly.
 * *collided (if not NULL) is set to the path of an artifact with the same
 * digest but another text (NULL if none), for the log.  Returns 1 when
 * found.  The payload lives as long as the store. */
int iron__kstore_artifact_match(iron__kstore *ks, const iron__kstore_key *key,
                                const void **payload, size_t *len,
                                const char **collided);
/* Whether any artifact is loaded. */
int iron__kstore_has_artifacts(iron__kstore *ks);
/* "'a.iron' was made for vadd (...)" for each loaded artifact. */
void iron__kstore_artifacts_describe(iron__kstore *ks, iron__str *s);
void iron__kstore_artifacts_free(iron__kstore *ks);

#endif
