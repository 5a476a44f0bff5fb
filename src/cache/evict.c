/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * evict.c - the cache layer's trimming: least-recently-used eviction down
 * to a size, prune, clear, and removing temporary files of dead writers.
 *
 * Nothing here locks.  Several processes may evict at once; each one only
 * deletes files it saw as old, and a file another process deleted first
 * counts as deleted.  The worst outcome of a race is deleting a little
 * more than needed, which costs a rebuild, never a wrong result: readers
 * hold their own descriptor, so an entry deleted mid-read still reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/dir.h"
#include "cache/evict.h"
#include "core/core.h"
#include "core/log.h"

/* A pass collects at most this many of the oldest entries; a cap that
 * needs more deletions takes more passes.  Keeps eviction off the heap,
 * so that it cannot fail for want of memory. */
#define VICTIMS 128

typedef struct victim {
    char fname[IRON__CACHE_ENTRY_FNAME_MAX];
    int64_t mtime_ns;
    uint64_t ino;
    uint64_t bytes;
} victim;

typedef struct evict_pass {
    const iron__cache_key *keep;
    int64_t stale_before_ns;
    uint64_t total;            /* bytes of every entry file */
    int n;                     /* victims, oldest first */
    victim v[VICTIMS];
} evict_pass;

static int older(int64_t mtime_ns, const char *fname, const victim *than)
{
    if (mtime_ns != than->mtime_ns)
        return mtime_ns < than->mtime_ns;
    return strcmp(fname, than->fname) < 0;
}

/* Temporary files older than this (wall clock, ns) are stale. */
static int64_t stale_before(void)
{
    return iron__cache_now_ns() -
           (int64_t)IRON__CACHE_STALE_TMP_S * 1000000000;
}

/* Temporary files are created and renamed within one put; an old one was
 * left by a process that died (or lost its disk) mid-write. */
static void drop_if_stale(iron__cache *c, const iron__cache_file *f,
                          int64_t stale_before_ns)
{
    if (f->kind == IRON__CACHE_TEMP && f->mtime_ns < stale_before_ns)
        unlinkat(c->dfd, f->fname, 0);
}

static iron_status collect(iron__cache *c, const iron__cache_file *f,
                           void *ctx)
{
    evict_pass *p = ctx;
    if (f->kind != IRON__CACHE_ENTRY) {
        drop_if_stale(c, f, p->stale_before_ns);
        return IRON_OK;
    }
    p->total += f->bytes;
    if (p->keep && f->key.hi == p->keep->hi && f->key.lo == p->keep->lo)
        return IRON_OK;
    if (p->n == VICTIMS && !older(f->mtime_ns, f->fname, &p->v[VICTIMS - 1]))
        return IRON_OK;
    /* Insertion into the sorted list; the youngest falls off a full one. */
    int i = p->n < VICTIMS ? p->n++ : VICTIMS - 1;
    while (i > 0 && older(f->mtime_ns, f->fname, &p->v[i - 1])) {
        p->v[i] = p->v[i - 1];
        i--;
    }
    snprintf(p->v[i].fname, sizeof p->v[i].fname, "%s", f->fname);
    p->v[i].mtime_ns = f->mtime_ns;
    p->v[i].ino = f->ino;
    p->v[i].bytes = f->bytes;
    return IRON_OK;
}

/* Deletes one victim unless it changed since the scan.  Returns 1 when it
 * is gone (deleted here, or by someone else), 0 when it was spared, -1 on
 * an error (message set). */
static int delete_victim(iron__cache *c, const victim *v, int *mine)
{
    struct stat st;
    *mine = 0;
    if (fstatat(c->dfd, v->fname, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 1 : 0;
    int64_t mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
                       st.st_mtim.tv_nsec;
    /* Read since (its last use moved) or replaced by a new entry for the
     * same key (another inode): no longer the least recently used. */
    if (mtime_ns != v->mtime_ns || (uint64_t)st.st_ino != v->ino)
        return 0;
    if (unlinkat(c->dfd, v->fname, 0) == 0) {
        *mine = 1;
        return 1;
    }
    if (errno == ENOENT)
        return 1;
    iron__fail(IRON_EIO, "cannot remove the cache entry '%s/%s': %s",
               c->dir, v->fname, strerror(errno));
    return -1;
}

iron_status iron__cache_evict(iron__cache *c, uint64_t max_bytes,
                              const iron__cache_key *keep,
                              uint64_t *removed)
{
    evict_pass p;
    uint64_t count = 0;
    iron_status s = IRON_OK;
    /* Each pass deletes something or stops; the bound only guards against
     * other processes filling the folder as fast as this one empties it. */
    for (int pass = 0; pass < 10000; pass++) {
        p.keep = keep;
        p.stale_before_ns = stale_before();
        p.total = 0;
        p.n = 0;
        s = iron__cache_scan(c, collect, &p);
        if (s != IRON_OK || p.total <= max_bytes)
            break;
        int progress = 0;
        for (int i = 0; i < p.n && p.total > max_bytes; i++) {
            int mine;
            int r = delete_victim(c, &p.v[i], &mine);
            if (r < 0) {
                s = IRON_EIO;
                goto done;
            }
            if (r > 0) {
                p.total -= IRON__MIN(p.total, p.v[i].bytes);
                count += (uint64_t)mine;
                progress = 1;
            }
        }
        if (p.total <= max_bytes || !progress)
            break;
    }
done:
    if (removed)
        *removed = count;
    return s;
}

/* ---- prune ------------------------------------------------------------ */

typedef struct damage_state {
    iron__cache_check_fn check;
    uint64_t removed;
} damage_state;

/* Removes the entry if a full check finds it damaged.  An entry of
 * another format or library version is not damage: another installed
 * version of the library may use it, and eviction ages it out.  Deleted
 * only if the name still holds the file that was checked: a writer may
 * have replaced it with a good entry meanwhile (a lost race costs one
 * rebuild, never a wrong result). */
static iron_status drop_damaged(iron__cache *c, const iron__cache_file *f,
                                void *ctx)
{
    damage_state *ds = ctx;
    if (f->kind != IRON__CACHE_ENTRY)
        return IRON_OK;
    iron__cache_entry e;
    iron_status s = iron__cache_judge(c, f, 1, ds->check, &e);
    if (s == IRON_EIO)
        return IRON_OK;        /* gone already */
    if (s != IRON_OK)
        return s;
    if (e.valid || e.foreign)
        return IRON_OK;
    struct stat st;
    if (fstatat(c->dfd, f->fname, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        (uint64_t)st.st_ino != f->ino)
        return IRON_OK;
    if (unlinkat(c->dfd, f->fname, 0) == 0) {
        ds->removed++;
        iron__log(IRON__LOG_CACHE, "prune: removed the damaged entry "
                  "'%s/%s' (%s)", c->dir, f->fname, e.why);
    } else if (errno != ENOENT) {
        return iron__fail(IRON_EIO, "cannot remove the damaged cache entry "
                                    "'%s/%s': %s",
                          c->dir, f->fname, strerror(errno));
    }
    return IRON_OK;
}

iron_status iron__cache_prune(iron__cache *c, uint64_t max_bytes,
                              iron__cache_check_fn check, uint64_t *removed,
                              uint64_t *damaged)
{
    damage_state ds = { check, 0 };
    uint64_t evicted = 0;
    iron_status s = iron__cache_scan(c, drop_damaged, &ds);
    if (s == IRON_OK)
        s = iron__cache_evict(c, max_bytes, NULL, &evicted);
    if (removed)
        *removed = ds.removed + evicted;
    if (damaged)
        *damaged = ds.removed;
    return s;
}

/* ---- clear ------------------------------------------------------------- */

typedef struct clear_state {
    int64_t stale_before_ns;
    iron_status first_error;
} clear_state;

/* Goes on past a file it cannot delete, so that one bad file does not
 * keep the rest; the first failure is reported. */
static iron_status clear_one(iron__cache *c, const iron__cache_file *f,
                             void *ctx)
{
    clear_state *st = ctx;
    if (f->kind != IRON__CACHE_ENTRY) {
        drop_if_stale(c, f, st->stale_before_ns);
        return IRON_OK;
    }
    if (unlinkat(c->dfd, f->fname, 0) != 0 && errno != ENOENT &&
        st->first_error == IRON_OK)
        st->first_error =
            iron__fail(IRON_EIO, "cannot remove the cache entry '%s/%s': %s",
                       c->dir, f->fname, strerror(errno));
    return IRON_OK;
}

/* A temporary file still young may belong to a live writer; removing it
 * would only make that writer's put fail, so clear leaves it for the
 * next prune. */
iron_status iron__cache_clear(iron__cache *c)
{
    clear_state st = { stale_before(), IRON_OK };
    iron_status s = iron__cache_scan(c, clear_one, &st);
    return s != IRON_OK ? s : st.first_error;
}
