/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tools.h - (kernel store) the disk-cache tools for `iron cache`: the
 * cache layer's listing and pruning, with payloads judged by the kernel
 * store's decoder (payload.c).  The public iron_cache_* calls are in
 * tools.c as well.
 */
#ifndef IRON_KSTORE_TOOLS_H
#define IRON_KSTORE_TOOLS_H

#include "cache/cache.h"

/* For `iron cache verify`: opens the existing folder dir (NULL: the
 * default) and lists it fully checked, payloads judged by the payload
 * decoder.  A folder that does not exist has no entries. */
iron_status iron__kstore_verify_dir(const char *dir,
                                    void (*fn)(const iron__cache_entry *e,
                                               void *ctx),
                                    void *ctx);
/* For `iron cache prune`: iron__cache_prune on the existing folder dir,
 * with the payload decoder. */
iron_status iron__kstore_prune_dir(const char *dir, uint64_t max_bytes,
                                   uint64_t *removed, uint64_t *damaged);

#endif
