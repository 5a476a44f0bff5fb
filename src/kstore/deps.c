/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * deps.c - (kernel store) stat snapshots of the files a kernel object in
 * memory was made from (deps.h).  The modification and change times are
 * both compared, and in nanoseconds, so that an edit that keeps the size
 * is seen, as is a file replaced by a rename.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "kstore/deps.h"

static void take_stat(iron__kstore_dep *d)
{
    struct stat st;
    if (stat(d->path, &st) != 0) {
        d->dev = d->ino = d->size = UINT64_MAX;
        d->mtime_ns = d->ctime_ns = -1;
        return;
    }
    d->dev = (uint64_t)st.st_dev;
    d->ino = (uint64_t)st.st_ino;
    d->size = (uint64_t)st.st_size;
    d->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    d->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
}

iron_status iron__kstore_deps_snapshot(const char *const *paths,
                                       const uint32_t *path_lens, int n,
                                       iron__kstore_deps *out)
{
    out->n = 0;
    out->v = NULL;
    if (n <= 0)
        return IRON_OK;
    out->v = iron__calloc((size_t)n, sizeof *out->v);
    if (!out->v)
        return iron__fail(IRON_ENOMEM, "out of memory recording a kernel's "
                                       "headers");
    for (int i = 0; i < n; i++) {
        size_t len = path_lens ? path_lens[i] : strlen(paths[i]);
        char *path = iron__malloc(len + 1);
        if (!path) {
            iron__kstore_deps_free(out);
            return iron__fail(IRON_ENOMEM, "out of memory recording a "
                                           "kernel's headers");
        }
        memcpy(path, paths[i], len);
        path[len] = '\0';
        out->v[out->n].path = path;
        take_stat(&out->v[out->n]);
        out->n++;
    }
    return IRON_OK;
}

int iron__kstore_deps_unchanged(const iron__kstore_deps *d, char *changed,
                                size_t len)
{
    for (int i = 0; i < d->n; i++) {
        iron__kstore_dep now = { .path = d->v[i].path };
        take_stat(&now);
        const iron__kstore_dep *was = &d->v[i];
        if (now.dev != was->dev || now.ino != was->ino ||
            now.size != was->size || now.mtime_ns != was->mtime_ns ||
            now.ctime_ns != was->ctime_ns || now.mtime_ns < 0) {
            snprintf(changed, len, "%s", was->path);
            return 0;
        }
    }
    return 1;
}

void iron__kstore_deps_free(iron__kstore_deps *d)
{
    for (int i = 0; d->v && i < d->n; i++)
        iron__free(d->v[i].path);
    iron__free(d->v);
    d->v = NULL;
    d->n = 0;
}
