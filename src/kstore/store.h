/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * store.h - the kernel store's insides, shared by its files: the handle,
 * keys (key.c), the compiler call (compiler.c), the disk cache's kernel
 * entries (disk.c), objects kept in memory (shared.c, with deps.h) and
 * loaded artifacts (artifact.c).  Nothing outside src/kstore includes
 * it.
 */
#ifndef IRON_KSTORE_STORE_H
#define IRON_KSTORE_STORE_H

#include <pthread.h>
#include <xxhash.h>

#include "cache/cache.h"
#include "kstore/deps.h"
#include "kstore/kstore.h"

struct iron__kstore {
    const char *name, *cflags;      /* the owner's */
    iron_jit_stats *stats;          /* the owner's */
    /* The disk cache: settings resolved at creation, the folder opened
     * at the first build that wants it (an unusable one is tried once). */
    iron__cache_settings cache_settings;
    iron__cache *cache;
    int cache_tried;
    /* Kernel objects kept for other specializations (shared.c). */
    struct kstore_shared *shared;
    int nshared;
    /* Where the last build's kernels came from, for its log line. */
    char how[160];
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
 * (free with iron__str_free), with out->text pointing into it.  For
 * artifacts.  IRON_ENOMEM when the text cannot be built. */
iron_status iron__kstore_spec_key(const iron__kstore *ks,
                                  const iron_program *p, iron__str *buf,
                                  iron__kstore_key *out);

/* The kernel key of k, whose kernel text (iron__kstore_kernel_text,
 * built once by the caller) is `text`, compiled by the compiler of
 * `identity` (iron__compiler_identity): what names its entry in the disk
 * cache.  Built into *buf as above.  IRON_ENOMEM. */
iron_status iron__kstore_kernel_key(const iron__kstore *ks,
                                    const iron_kernel *k, const char *text,
                                    const char *identity, iron__str *buf,
                                    iron__kstore_key *out);

/* Appends what identifies a compiled kernel (entry, language, source,
 * argument types, defines, flags, the AIE architecture it is compiled
 * for, " timed" for a timed build -- nothing for an untimed one, so its
 * text is what it was before timed builds existed; every field
 * length-prefixed) to s: the kernel's
 * part of both keys, and the identity kept objects match on. */
void iron__kstore_kernel_text(const iron__kstore *ks, const iron_kernel *k,
                              int aie_arch, int timed, iron__str *s);
/* __AIE_ARCH__ for kernels on a device: 20 for npu1 (AIE2), 21 for npu2
 * (AIE2P); 0 (left undefined) for another. */
int iron__kstore_aie_arch(const iron_device_info *dev);

/* ---- the compiler (compiler.c) ---------------------------------------------
 * Compiles one kernel into *out, named `label` in messages ("kernel
 * 'eltwise'"), timed 1 as a timed build (compile.h); counts
 * stats->kernel_compiles. */
/* Whether kernel k of program p is a timed build: p is built for the
 * timing model and k's cost is not declared (iron_kernel_set_cycles wins
 * over anything counted, so its untimed object -- the one untimed calls
 * share -- serves, at full speed). */
int iron__kstore_kernel_timed(const iron_program *p, const iron_kernel *k);

iron_status iron__kstore_compile(iron__kstore *ks, const iron_kernel *k,
                                 const char *label, int aie_arch, int timed,
                                 iron__kobj **out);
/* Whether two kernels of one design are the same in every field, so that
 * they can share one object. */
int iron__kstore_same_kernel(const iron_kernel *a, const iron_kernel *b);

/* ---- the disk cache (disk.c) ----------------------------------------------
 * get: the kernel object under key in c, a fresh instance (1), with a
 * stat snapshot of its recorded headers in *deps (for keeping it in
 * memory); or 0 with why ("absent", "header changed: /path", "checksum
 * mismatch", ...).  put: publishes o under key, described as k; a
 * failure is only logged (the build itself succeeded).  Counts
 * stats->disk_writes. */
int iron__kstore_disk_get(iron__kstore *ks, iron__cache *c,
                          const iron__kstore_key *key, const char *label,
                          iron__kobj **out, iron__kstore_deps *deps,
                          char *why, size_t why_len);
void iron__kstore_disk_put(iron__kstore *ks, iron__cache *c,
                           const iron__kstore_key *key, const iron_kernel *k,
                           iron__kobj *o);

/* ---- objects kept in memory (shared.c) -------------------------------------
 * get: the kept object whose identity is id[0 .. len): a reference when
 * it has no writable state, else a fresh instance from its image; *out
 * NULL when none is kept or its headers changed since (then it is
 * dropped).  IRON_ENOMEM / IRON_ELOAD from making an instance.
 * put: keeps o (one more reference) with the snapshot of its headers,
 * which it takes over.  sweep frees the entries no specialization uses
 * (all: every entry). */
iron_status iron__kstore_shared_get(iron__kstore *ks, const char *id,
                                    size_t len, const char *label,
                                    iron__kobj **out);
void iron__kstore_shared_put(iron__kstore *ks, const char *id, size_t len,
                             iron__kobj *o, iron__kstore_deps *deps);
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
