/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tools.c - (kernel store) the public disk-cache tools (iron_cache_*),
 * thin wrappers over the cache layer.  They live here, above both the
 * cache layer and the payload format, because they judge payloads.
 * Inspecting a folder that does not exist finds it empty and does not
 * create it.  Listing and pruning check every entry whole -- checksums
 * and the kernel payload's structure (payload.c), not only the header --
 * so that a damaged entry is never shown as valid and prune can remove
 * it.
 */
#include <stdio.h>
#include <string.h>

#include "cache/dir.h"
#include "core/core.h"
#include "kstore/payload.h"
#include "kstore/tools.h"

IRON_API iron_status iron_cache_get_path(const char *dir, char **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_cache_get_path: out is NULL");
    *out = NULL;
    char buf[4096];
    if (!dir && !iron__cache_default_dir(buf, sizeof buf)[0])
        return iron__fail(IRON_EIO, "iron_cache_get_path: no cache folder: "
                          "set IRON_CACHE_DIR, XDG_CACHE_HOME or HOME");
    if (!(*out = iron__strdup(dir ? dir : buf)))
        return iron__fail(IRON_ENOMEM, "iron_cache_get_path: out of memory");
    return iron__public_result(IRON_OK);
}

typedef struct list_adapter {
    iron_cache_entry_fn fn;
    void *ctx;
} list_adapter;

static void list_entry(const iron__cache_entry *e, void *ctx)
{
    const list_adapter *a = ctx;
    iron_cache_entry_info info;
    memset(&info, 0, sizeof info);
    iron__cache_key_hex(e->key, info.key);
    memcpy(info.name, e->name, sizeof info.name);
    memcpy(info.signature, e->signature, sizeof info.signature);
    info.bytes = e->bytes;
    info.last_use = e->last_use;
    info.valid = e->valid;
    info.foreign = e->foreign;
    if (!e->valid)
        snprintf(info.why, sizeof info.why, "%s", e->why);
    a->fn(&info, a->ctx);
}

IRON_API iron_status iron_cache_list(const char *dir, iron_cache_entry_fn fn,
                                     void *ctx)
{
    if (!fn)
        return iron__fail(IRON_EINVAL, "iron_cache_list: fn is NULL");
    iron__cache *c;
    iron_status s = iron__cache_open_existing(&c, dir);
    if (s != IRON_OK || !c)
        return s;
    list_adapter a = { fn, ctx };
    s = iron__cache_list(c, 1, iron__kstore_payload_check, list_entry, &a);
    iron__cache_close(c);
    return iron__public_result(s);
}

IRON_API iron_status iron_cache_get_usage(const char *dir, uint64_t *entries,
                                          uint64_t *bytes)
{
    iron__cache *c;
    if (entries)
        *entries = 0;
    if (bytes)
        *bytes = 0;
    iron_status s = iron__cache_open_existing(&c, dir);
    if (s != IRON_OK || !c)
        return s;
    s = iron__cache_info(c, entries, bytes);
    iron__cache_close(c);
    return iron__public_result(s);
}

IRON_API iron_status iron_cache_clear(const char *dir)
{
    iron__cache *c;
    iron_status s = iron__cache_open_existing(&c, dir);
    if (s != IRON_OK || !c)
        return s;
    s = iron__cache_clear(c);
    iron__cache_close(c);
    return iron__public_result(s);
}

IRON_API iron_status iron_cache_prune(const char *dir, uint64_t max_bytes,
                                      uint64_t *removed)
{
    iron_status s = iron__kstore_prune_dir(dir, max_bytes, removed, NULL);
    return iron__public_result(s);
}

IRON_API iron_status iron_cache_prune_v2(const char *dir, uint64_t max_bytes,
                                         uint64_t *removed,
                                         uint64_t *damaged)
{
    iron_status s = iron__kstore_prune_dir(dir, max_bytes, removed, damaged);
    return iron__public_result(s);
}

/* The cap as a program decides it without an option of its own: the one
 * place is the cache layer's settings. */
IRON_API iron_status iron_cache_get_max_size(uint64_t *max_bytes,
                                             const char **source)
{
    if (source)
        *source = NULL;
    if (!max_bytes)
        return iron__fail(IRON_EINVAL,
                          "iron_cache_get_max_size: max_bytes is NULL");
    iron__cache_settings cs;
    iron__cache_settings_resolve(1, NULL, 0, &cs);
    *max_bytes = cs.max_bytes;
    if (source)
        *source = strcmp(cs.max_from, "IRON_CACHE_MAX") == 0
                      ? "IRON_CACHE_MAX"
                      : "default";
    return iron__public_result(IRON_OK);
}

iron_status iron__kstore_prune_dir(const char *dir, uint64_t max_bytes,
                                   uint64_t *removed, uint64_t *damaged)
{
    iron__cache *c;
    if (removed)
        *removed = 0;
    if (damaged)
        *damaged = 0;
    iron_status s = iron__cache_open_existing(&c, dir);
    if (s != IRON_OK || !c)
        return s;
    s = iron__cache_prune(c, max_bytes, iron__kstore_payload_check, removed,
                          damaged);
    iron__cache_close(c);
    return s;
}

iron_status iron__kstore_verify_dir(const char *dir,
                                    void (*fn)(const iron__cache_entry *e,
                                               void *ctx),
                                    void *ctx)
{
    if (!fn)
        return iron__fail(IRON_EINVAL, "cache verify: no callback");
    iron__cache *c;
    iron_status s = iron__cache_open_existing(&c, dir);
    if (s != IRON_OK || !c)
        return s;
    s = iron__cache_list(c, 1, iron__kstore_payload_check, fn, ctx);
    iron__cache_close(c);
    return s;
}
