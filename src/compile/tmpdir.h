/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tmpdir.h - the private temporary directory one kernel build works in:
 * created with mkdtemp, emptied and removed whatever the outcome.
 */
#ifndef IRON_COMPILE_TMPDIR_H
#define IRON_COMPILE_TMPDIR_H

#include <stddef.h>

#include "iron/iron.h"

typedef struct iron__ktmp {
    char *dir;                 /* NULL until created */
} iron__ktmp;

/* Creates "<$TMPDIR or /tmp>/iron-<pid>-XXXXXX" (mode 0700) into t->dir.
 * The process's first call also removes folders of that pattern left by
 * builds that were killed: owned by this user, unchanged for 30 minutes,
 * and whose process no longer exists.
 * IRON_EIO naming the parent and the system's reason; IRON_ENOMEM. */
iron_status iron__ktmp_create(iron__ktmp *t);

/* "<dir>/<name>", allocated with iron__malloc; NULL when out of memory. */
char *iron__ktmp_path(const iron__ktmp *t, const char *name);

/* Writes data[0 .. len) to a new file (mode 0600).  IRON_EIO naming the
 * path and the system's reason. */
iron_status iron__ktmp_write(const char *path, const char *data, size_t len);

/* Reads a whole file into a new buffer (iron__malloc).  IRON_EIO naming
 * the path and the system's reason; IRON_ENOMEM. */
iron_status iron__ktmp_read(const char *path, char **data, size_t *len);

/* Removes every file and folder in the directory, then the directory,
 * and frees t->dir.  Does nothing for a directory never created.  Errors
 * are ignored: there is nothing better to do with them at this point. */
void iron__ktmp_remove(iron__ktmp *t);

#endif
