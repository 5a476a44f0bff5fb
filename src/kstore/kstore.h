/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kstore.h - the kernel store: where a specialization's kernel objects
 * come from.  In order: objects already loaded for another specialization
 * of the same jit (shared.c), a loaded ahead-of-time artifact
 * (artifact.c), the disk cache (src/cache), and last the C compiler
 * (compiler.c), whose result is then published to the disk cache.  The
 * payload format (payload.h) is what entries and artifacts hold.
 *
 * The jit owns one store and includes only this header; the store knows
 * nothing of the jit (it never includes jit/jit.h): it is told the jit's
 * name, flags, cache options and counters once, at creation.
 *
 * Threads.  The owner serialises calls (the jit's build lock), except
 * iron__kstore_artifact_load and iron__kstore_artifact_save, which may
 * run at any time: the list of loaded artifacts has a lock of its own.
 */
#ifndef IRON_KSTORE_KSTORE_H
#define IRON_KSTORE_KSTORE_H

#include <stdint.h>

#include "iron/iron.h"
#include "program/program.h"

typedef struct iron__kstore iron__kstore;
struct iron__cache;

/* What the owner tells the store at creation.  The strings and the
 * counters are borrowed: they must outlive the store. */
typedef struct iron__kstore_config {
    const char *name;          /* the jit's: messages, logs, artifacts */
    const char *cflags;        /* flags for every kernel (NULL: -O2) */
    int disk_cache;            /* as iron_jit_options: 1 on, -1 off, 0 env */
    const char *cache_dir;     /* NULL: the default folder */
    uint64_t cache_max_bytes;  /* 0: IRON_CACHE_MAX or the default */
    iron_jit_stats *stats;     /* kernel_compiles, kernel_shares,
                                  artifact_hits, disk_* are counted here */
} iron__kstore_config;

/* Resolves the cache settings (cache.h: option, environment, default)
 * once, here; the folder is opened at the first build that wants it. */
iron_status iron__kstore_new(const iron__kstore_config *cfg,
                             iron__kstore **out);
/* Frees every shared object, artifact and the cache handle.  NULL is
 * fine. */
void iron__kstore_free(iron__kstore *ks);

/* Fills p->kobjs (one per design kernel) for the placed program p: shared
 * objects, an artifact, the disk cache or the compiler, in that order.
 * signature names the specialization in a new cache entry.  *how says
 * where they came from, for the log ("shared with a resident
 * specialization", "disk cache hit", ...). */
iron_status iron__kstore_kernels(iron__kstore *ks, iron_program *p,
                                 const char *signature, const char **how);

/* The one way kernel objects go away: drops p's references to its kernel
 * objects, and with them every shared object no specialization uses any
 * more.  For a program being freed (its device instance already
 * unloaded). */
void iron__kstore_release(iron__kstore *ks, iron_program *p);

/* Writes p's kernel objects with its spec key to path (atomically), the
 * disk cache's entry format.  IRON_EINVAL when too large for an artifact,
 * IRON_EIO naming the path. */
iron_status iron__kstore_artifact_save(iron__kstore *ks,
                                       const iron_program *p,
                                       const char *signature,
                                       const char *path);
/* Reads and checks the artifact at path (pin: its SHA-256 as 64
 * lower-case hex digits, or NULL) and adds it to the ones builds look in.
 * IRON_EIO saying why it is not usable; IRON_EINVAL when another jit made
 * it. */
iron_status iron__kstore_artifact_load(iron__kstore *ks, const char *path,
                                       const char *pin);

/* The disk cache in use: NULL before the first build that wants it, or
 * when it is off or unusable.  For tests. */
const struct iron__cache *iron__kstore_disk_cache(const iron__kstore *ks);

/* Test hook: when nonzero every disk-cache and artifact key digest is
 * this constant, so tests can prove that a digest collision is a miss and
 * never a wrong kernel (the jit's own for its in-memory keys is
 * iron__jit_test_digest). */
extern uint64_t iron__kstore_test_digest;

#endif
