/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dir.h - the cache layer's folder: the handle, where the folder is, how
 * it is created and opened, and walking the files in it.
 */
#ifndef IRON_CACHE_DIR_H
#define IRON_CACHE_DIR_H

#include <stdint.h>

#include "cache/cache.h"
#include "cache/entry.h"

/* The handle.  Immutable after open, so one handle may be used by several
 * threads at once: every operation works through dfd with *at() calls and
 * keeps its state on the stack. */
struct iron__cache {
    char *dir;                 /* the folder as given or resolved */
    int dfd;                   /* the folder, open (O_DIRECTORY) */
    uint64_t max_bytes;        /* the cap put() evicts down to */
};

/* Opens an existing folder for the tools (list, info, clear, prune):
 * neither creates it nor requires write access, so that inspecting a
 * cache has no side effect.  A folder that does not exist gives IRON_OK
 * with *out NULL: there is nothing in it. */
iron_status iron__cache_open_existing(iron__cache **out, const char *dir);

/* One file of the cache folder, as a scan sees it. */
typedef struct iron__cache_file {
    const char *fname;         /* valid during the callback only */
    iron__cache_fkind kind;    /* IRON__CACHE_ENTRY or IRON__CACHE_TEMP */
    iron__cache_key key;
    uint64_t bytes;
    int64_t mtime_ns;          /* last use (entries), creation (temps) */
    uint64_t ino;
} iron__cache_file;

typedef iron_status (*iron__cache_scan_fn)(iron__cache *c,
                                           const iron__cache_file *f,
                                           void *ctx);

/* Calls fn for every regular file of the folder that is an entry or a
 * temporary file (other files are not ours and are left alone).  Files
 * that vanish during the scan -- another process evicted them -- are
 * skipped.  A non-OK status from fn stops the scan and is returned;
 * IRON_EIO naming the folder when it cannot be read. */
iron_status iron__cache_scan(iron__cache *c, iron__cache_scan_fn fn,
                             void *ctx);

/* Judges one entry file a scan found, as a listing shows it: full 0
 * checks the header and the size, full 1 everything (check, if not NULL,
 * judges the payload).  IRON_OK with *e filled (valid or with its
 * reason); IRON_EIO when the file is gone (evicted meanwhile);
 * IRON_ENOMEM with the message set. */
iron_status iron__cache_judge(iron__cache *c, const iron__cache_file *f,
                              int full, iron__cache_check_fn check,
                              iron__cache_entry *e);

/* The wall clock in nanoseconds: the time base of file times. */
int64_t iron__cache_now_ns(void);

#endif
