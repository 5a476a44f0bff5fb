/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * atomic.h - writing a file all or nothing: a temporary file in the same
 * folder, written whole, synced, then renamed over the name.  A reader
 * (or a crash) sees the old file, the new one or none -- never half of
 * one.  On any failure the temporary file is removed and the old file is
 * left as it was.  Cache entries, artifacts, exported designs, .npy files
 * and the emulator's traces and graphs are all written through this one
 * routine; it lives in the base layer so that every module writing a file
 * can reach it without depending on the cache.
 */
#ifndef IRON_CORE_ATOMIC_H
#define IRON_CORE_ATOMIC_H

#include <stdio.h>
#include <sys/types.h>

#include "iron/iron.h"

/* The temporary file being written.  Writes go through stdio (a trace is
 * many small pieces); the first failure's errno is kept, because stdio's
 * error flag alone would lose the reason (ENOSPC, EDQUOT...).  Later
 * writes after a failure do nothing. */
typedef struct iron__atomic_out {
    FILE *f;
    int err;                   /* errno of the first failed write, or 0 */
} iron__atomic_out;

void iron__atomic_put(iron__atomic_out *o, const void *p, size_t n);
void iron__atomic_puts(iron__atomic_out *o, const char *s);

/* Writes the file's contents to o.  A failed write needs no report (the
 * routine finds it in o->err); any other failure returns its status with
 * the message set, and nothing is published. */
typedef iron_status (*iron__atomic_body_fn)(iron__atomic_out *o, void *ctx);

/* Where and how.  Temporary files are "<stem>.tmp.<pid>.<random>",
 * created exclusively (never through a link), so that concurrent writers
 * -- other processes, or threads of this one -- never share one, and the
 * cache's eviction can recognise a cache entry's leftovers by name. */
typedef struct iron__atomic_file {
    int dirfd;                 /* AT_FDCWD, or the open folder of name */
    const char *name;          /* the file to replace, relative to dirfd */
    const char *stem;          /* NULL: name */
    const char *what;          /* "cache entry", "artifact", "trace" */
    const char *shown;         /* the file as messages name it (NULL: name) */
    mode_t mode;               /* of the new file (the umask applies) */
    int sync_folder;           /* after the rename, fsync dirfd (a folder)
                                  so that the rename itself is durable */
    int *keep_fd;              /* non-NULL: on success, a descriptor of the
                                  published file, open for writing (the
                                  caller closes it); -1 on failure */
} iron__atomic_file;

/* Creates the temporary file, calls body, then flushes, fsyncs (the data
 * must be on disk before the name points at it), closes (which can report
 * a delayed write error) and renames.  IRON_EIO naming the file, the step
 * that failed and the system's reason, ending "(nothing was published)";
 * or body's own status. */
iron_status iron__atomic_write(const iron__atomic_file *a,
                                     iron__atomic_body_fn body, void *ctx);

#endif
