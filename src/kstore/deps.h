/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * deps.h - (kernel store) what a kernel object kept in memory knows of
 * the files its source included: each one's device, inode, size and
 * modification time when the object was made.  An object shared with a
 * later specialization must still be what its headers say, as a disk
 * entry must (payload.h checks those by content); a stat per file tells
 * it here without reading anything, so sharing stays a matter of
 * microseconds.  A changed or vanished file makes the object stale.
 */
#ifndef IRON_KSTORE_DEPS_H
#define IRON_KSTORE_DEPS_H

#include <stddef.h>
#include <stdint.h>

#include "iron/iron.h"

typedef struct iron__kstore_dep {
    char *path;
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
} iron__kstore_dep;

typedef struct iron__kstore_deps {
    int n;
    iron__kstore_dep *v;
} iron__kstore_deps;

/* Records what stat says now of each of paths[0 .. n) (path_lens[i]
 * bytes each, or NUL-terminated when path_lens is NULL).  A file that
 * cannot be stat'ed is recorded as absent, so the object is stale until
 * it exists.  IRON_ENOMEM; *out is empty on failure. */
iron_status iron__kstore_deps_snapshot(const char *const *paths,
                                       const uint32_t *path_lens, int n,
                                       iron__kstore_deps *out);
/* 1 when every file still stats as recorded; else 0 with the first that
 * does not in changed. */
int iron__kstore_deps_unchanged(const iron__kstore_deps *d, char *changed,
                                size_t len);
void iron__kstore_deps_free(iron__kstore_deps *d);

#endif
