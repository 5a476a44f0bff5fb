/*
 * list.c - the cache layer's inspection: listing entries (header only, no
 * payload read, no last-use refresh) and totals.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cache/dir.h"
#include "core/core.h"

typedef struct list_state {
    void (*fn)(const iron__cache_entry *e, void *ctx);
    void *ctx;
} list_state;

static iron_status list_one(iron__cache *c, const iron__cache_file *f,
                            void *ctx)
{
    list_state *ls = ctx;
    if (f->kind != IRON__CACHE_ENTRY)
        return IRON_OK;
    int fd = openat(c->dfd, f->fname, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return IRON_OK;        /* evicted since the scan saw it */
    iron__cache_entry e;
    iron__cache_header h;
    char why[IRON__CACHE_WHY_MAX];
    memset(&e, 0, sizeof e);
    e.key = f->key;
    e.bytes = f->bytes;
    e.last_use = f->mtime_ns / 1000000000;
    if (fd >= 0) {
        /* A foreign entry still shows its name when its header decodes. */
        e.valid = iron__cache_entry_read(fd, f->key, &h, NULL, NULL, why,
                                         sizeof why) == IRON_OK;
        close(fd);
        memcpy(e.name, h.name, sizeof e.name);
        memcpy(e.signature, h.signature, sizeof e.signature);
    }
    ls->fn(&e, ls->ctx);
    return IRON_OK;
}

iron_status iron__cache_list(iron__cache *c,
                             void (*fn)(const iron__cache_entry *e, void *ctx),
                             void *ctx)
{
    if (!fn)
        return iron__fail(IRON_EINVAL, "cache list: no callback");
    list_state ls = { fn, ctx };
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
