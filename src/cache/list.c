/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * list.c - the cache layer's inspection: listing entries (header only, or
 * fully checked for the tools; never a last-use refresh) and totals.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cache/dir.h"
#include "core/file.h"
#include "core/core.h"

typedef struct list_state {
    int full;
    iron__cache_check_fn check;
    void (*fn)(const iron__cache_entry *e, void *ctx);
    void *ctx;
} list_state;

iron_status iron__cache_judge(iron__cache *c, const iron__cache_file *f,
                              int full, iron__cache_check_fn check,
                              iron__cache_entry *e)
{
    memset(e, 0, sizeof *e);
    e->key = f->key;
    e->bytes = f->bytes;
    e->last_use = f->mtime_ns / 1000000000;
    struct stat st;
    int err;
    char why[IRON__FILE_WHY_MAX];
    int fd = iron__file_open(c->dfd, f->fname, 1, IRON__OWNER_SELF,
                             IRON__FILE_ENTRY_MAX, &st, &err, why,
                             sizeof why);
    if (fd < 0) {
        if (err == ENOENT)
            return IRON_EIO;   /* evicted since the scan saw it */
        snprintf(e->why, sizeof e->why, "%s%s", err ? "" : "refused: ",
                 why);
        return IRON_OK;
    }
    iron__cache_want w = { .key = f->key, .header_only = !full };
    iron__cache_got g;
    iron_status s = iron__cache_entry_read(fd, &w, &g);
    close(fd);
    /* A foreign entry still shows its name when its header decodes. */
    memcpy(e->name, g.h.name, sizeof e->name);
    memcpy(e->signature, g.h.signature, sizeof e->signature);
    e->foreign = g.foreign;
    if (s == IRON_ENOMEM) {
        iron__cache_got_free(&g);
        return iron__fail(IRON_ENOMEM, "out of memory checking the cache "
                                       "entry '%s/%s'", c->dir, f->fname);
    }
    if (s != IRON_OK) {
        snprintf(e->why, sizeof e->why, "%s", g.why);
        return IRON_OK;
    }
    e->valid = 1;
    if (full && check &&
        check(g.payload, g.len, e->why, sizeof e->why) != 0)
        e->valid = 0;
    iron__cache_got_free(&g);
    return IRON_OK;
}

static iron_status list_one(iron__cache *c, const iron__cache_file *f,
                            void *ctx)
{
    list_state *ls = ctx;
    if (f->kind != IRON__CACHE_ENTRY)
        return IRON_OK;
    iron__cache_entry e;
    iron_status s = iron__cache_judge(c, f, ls->full, ls->check, &e);
    if (s == IRON_EIO)
        return IRON_OK;        /* gone */
    if (s != IRON_OK)
        return s;
    ls->fn(&e, ls->ctx);
    return IRON_OK;
}

iron_status iron__cache_list(iron__cache *c, int full,
                             iron__cache_check_fn check,
                             void (*fn)(const iron__cache_entry *e, void *ctx),
                             void *ctx)
{
    if (!fn)
        return iron__fail(IRON_EINVAL, "cache list: no callback");
    list_state ls = { full, check, fn, ctx };
    return iron__cache_scan(c, list_one, &ls);
}

typedef struct info_state {
    uint64_t entries, bytes;
} info_state;

static iron_status count_one(iron__cache *c, const iron__cache_file *f,
                             void *ctx)
{
    info_state *st = ctx;
    (void)c;
    if (f->kind == IRON__CACHE_ENTRY) {
        st->entries++;
        st->bytes += f->bytes;
    }
    return IRON_OK;
}

iron_status iron__cache_info(iron__cache *c, uint64_t *entries,
                             uint64_t *bytes)
{
    info_state st = { 0, 0 };
    iron_status s = iron__cache_scan(c, count_one, &st);
    if (entries)
        *entries = st.entries;
    if (bytes)
        *bytes = st.bytes;
    return s;
}
