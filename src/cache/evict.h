/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * evict.h - the cache layer's size cap: least-recently-used eviction,
 * shared by put (after publishing) and prune.
 */
#ifndef IRON_CACHE_EVICT_H
#define IRON_CACHE_EVICT_H

#include <stdint.h>

#include "cache/cache.h"

/* A temporary file older than this belongs to a writer that died: no
 * write takes that long between creating its file and renaming it. */
#define IRON__CACHE_STALE_TMP_S 300

/* Deletes least-recently-used entries until the entry files total at most
 * max_bytes, never the entry for *keep (keep NULL: none may be spared),
 * and removes stale temporary files on the way.  An entry that another
 * process deletes first counts as gone (ENOENT is success); one that was
 * read or replaced since the scan is spared.  Takes no lock and allocates
 * nothing.  *removed (if not NULL) counts the entries this call deleted.
 * IRON_EIO naming a file that cannot be deleted or the folder. */
iron_status iron__cache_evict(iron__cache *c, uint64_t max_bytes,
                              const iron__cache_key *keep,
                              uint64_t *removed);

#endif
