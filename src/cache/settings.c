/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * settings.c - the disk cache's settings (on or off, folder, size cap),
 * resolved in one place from the caller's choice, the environment and
 * the defaults (cache layer; used by the kernel store and `iron cache`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "core/env.h"

/* Strict (core/env.h): "1e400" or "100MB" is a warning and the default,
 * never a half-read number or an out-of-range conversion. */
uint64_t iron__cache_env_max_bytes(void)
{
    return iron__env_get_bytes(IRON__ENV_CACHE_MAX);
}

void iron__cache_settings_resolve(int disk_cache, const char *dir,
                                  uint64_t max_bytes,
                                  iron__cache_settings *out)
{
    memset(out, 0, sizeof *out);
    /* The caller's choice wins; then IRON_CACHE=0 turns the cache off. */
    out->enabled = disk_cache > 0   ? 1
                   : disk_cache < 0 ? 0
                                    : (int)iron__env_get_int(IRON__ENV_CACHE);
    out->max_from = "default";
    out->max_bytes = IRON__CACHE_DEFAULT_MAX_BYTES;
    if (!out->enabled)
        return;
    if (dir && !*dir)
        out->no_dir = "cache folder: empty path";
    else if (dir && strlen(dir) >= sizeof out->dir)
        out->no_dir = "cache folder: path too long";  /* never cut it */
    else if (dir)
        memcpy(out->dir, dir, strlen(dir) + 1);
    else if (!iron__cache_default_dir(out->dir, sizeof out->dir)[0])
        out->no_dir = "no cache folder: set IRON_CACHE_DIR, XDG_CACHE_HOME "
                      "or HOME";
    if (max_bytes) {
        out->max_bytes = max_bytes;
        out->max_from = "option";
        return;
    }
    iron__env_value env;
    if (iron__env_get(IRON__ENV_CACHE_MAX, &env) && env.u != 0)
        out->max_from = "IRON_CACHE_MAX";
    out->max_bytes = iron__cache_env_max_bytes();
    if (!out->max_bytes)
        out->max_bytes = IRON__CACHE_DEFAULT_MAX_BYTES;
}
