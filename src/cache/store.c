/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * store.c - the cache layer's reads and writes: get (lock-free, validated,
 * refreshes last use) and put (published by the one atomic write,
 * atomic.h, then eviction down to the cap).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/atomic.h"
#include "cache/dir.h"
#include "cache/evict.h"
#include "core/file.h"
#include "core/core.h"

/* The reason of this thread's last miss: *why points here, valid until the
 * next iron__cache_get on the same thread. */
static _Thread_local char why_buf[IRON__CACHE_WHY_MAX];

/* Marks the entry open at fd as used now.  The time is set explicitly
 * (not UTIME_NOW, which the kernel rounds to its tick) so that uses a
 * millisecond apart still order correctly for eviction.  Setting an
 * explicit time needs ownership; a cache shared through group permissions
 * falls back to UTIME_NOW, which write access allows.  Failure is not an
 * error: it only makes this entry look older than it is. */
static void touch(int fd)
{
    struct timespec ts[2];
    ts[0].tv_sec = 0;
    ts[0].tv_nsec = UTIME_OMIT;
    clock_gettime(CLOCK_REALTIME, &ts[1]);
    if (futimens(fd, ts) != 0 && errno == EPERM) {
        ts[1].tv_nsec = UTIME_NOW;
        futimens(fd, ts);
    }
}

/* Readers take no lock: a file name only ever points at a complete entry
 * (writers publish by rename), and the open descriptor keeps reading the
 * same file even if a writer replaces it or an evictor deletes it.  A bad
 * entry is not deleted here -- a writer may have just replaced it with a
 * good one under the same name; the caller's rebuild and put replace it.
 * The file is opened as one that someone else may have placed
 * (core/file.h): regular, this user's, not writable by group or others,
 * bounded in size -- the folder's own checks (dir.c) make such a file
 * unlikely, and an entry is code this process will run. */
iron_status iron__cache_get(iron__cache *c, iron__cache_key key,
                            const char *text, size_t text_len,
                            void **payload, size_t *len, const char **why)
{
    char fname[IRON__CACHE_FNAME_MAX];
    const char *ignored;
    if (!why)
        why = &ignored;
    *payload = NULL;
    *len = 0;
    *why = NULL;
    iron__cache_entry_fname(key, fname);
    struct stat st;
    int err;
    char refused[IRON__FILE_WHY_MAX];
    int fd = iron__file_open(c->dfd, fname, 1, IRON__OWNER_SELF,
                             IRON__FILE_ENTRY_MAX, &st, &err, refused,
                             sizeof refused);
    if (fd < 0) {
        if (err == ENOENT)
            snprintf(why_buf, sizeof why_buf, "absent");
        else if (err)
            snprintf(why_buf, sizeof why_buf, "%s", refused);
        else
            snprintf(why_buf, sizeof why_buf, "refused: %s", refused);
        *why = why_buf;
        return iron__fail(IRON_EIO, "cache entry '%s/%s': %s", c->dir, fname,
                          why_buf);
    }
    /* A get always presents a key text (NULL is the empty one): an entry
     * is never taken on its digest alone. */
    iron__cache_want w = { .key = key, .text = text ? text : "",
                           .text_len = text ? text_len : 0 };
    iron__cache_got g;
    iron_status s = iron__cache_entry_read(fd, &w, &g);
    if (s == IRON_OK)
        touch(fd);
    close(fd);
    if (s != IRON_OK) {
        snprintf(why_buf, sizeof why_buf, "%s", g.why);
        *why = why_buf;
        return iron__fail(s, "cache entry '%s/%s': %s", c->dir, fname,
                          why_buf);
    }
    *payload = g.payload;
    *len = g.len;
    return IRON_OK;
}

/* What an entry file holds, for the body of the atomic write. */
typedef struct entry_parts {
    const unsigned char *head;
    const char *text;
    size_t text_len;
    const void *payload;
    size_t len;
} entry_parts;

static iron_status entry_body(iron__atomic_out *o, void *ctx)
{
    const entry_parts *e = ctx;
    iron__atomic_put(o, e->head, IRON__CACHE_HEADER_BYTES);
    iron__atomic_put(o, e->text, e->text_len);
    iron__atomic_put(o, e->payload, e->len);
    /* Last use is the entry's creation: set once everything is written
     * (and flushed, so that no later write moves the time again). */
    if (!o->err && fflush(o->f) != 0)
        o->err = errno ? errno : EIO;
    if (!o->err)
        touch(fileno(o->f));
    return IRON_OK;
}

/* On any failure the temporary file is removed, and the old entry for the
 * key (if any) is left as it was: the rename is the only step that makes
 * anything visible.  Eviction runs after publishing and cannot undo it, so
 * its failure (a file another user owns, say) is not the put's: the entry
 * is in place and the next put or prune trims again. */
iron_status iron__cache_put(iron__cache *c, iron__cache_key key,
                            const char *text, size_t text_len,
                            const char *name, const char *signature,
                            const void *payload, size_t len)
{
    char fname[IRON__CACHE_FNAME_MAX];
    unsigned char head[IRON__CACHE_HEADER_BYTES];
    iron__cache_header h;
    if ((!payload && len) || (!text && text_len))
        return iron__fail(IRON_EINVAL, "cache put: %s NULL with length %zu",
                          !payload && len ? "payload" : "key text",
                          !payload && len ? len : text_len);
    iron__cache_entry_fname(key, fname);
    /* An entry no reader would accept is not worth writing. */
    if (text_len > IRON__CACHE_KEY_TEXT_MAX ||
        len > IRON__FILE_ENTRY_MAX - IRON__CACHE_HEADER_BYTES - text_len)
        return iron__fail(IRON_EINVAL,
                          "cannot write the cache entry '%s/%s': %zu bytes "
                          "of key text and %zu of payload are more than an "
                          "entry may hold (%llu bytes of key text, %llu in "
                          "all)",
                          c->dir, fname, text_len, len,
                          (unsigned long long)IRON__CACHE_KEY_TEXT_MAX,
                          (unsigned long long)IRON__FILE_ENTRY_MAX);
    iron__cache_header_init(&h, key, text, text_len, name, signature,
                            payload, len);
    iron__cache_header_encode(&h, head);

    char hex[33], shown[4096 + IRON__CACHE_FNAME_MAX];
    iron__cache_key_hex(key, hex);
    snprintf(shown, sizeof shown, "%s/%s", c->dir, fname);
    entry_parts parts = { head, text, text_len, payload, len };
    /* Temporaries are "<key>.tmp.<pid>.<random>": eviction recognises
     * them (entry.h) and removes those a crash left behind. */
    iron__atomic_file a = { .dirfd = c->dfd, .name = fname, .stem = hex,
                             .what = "cache entry", .shown = shown,
                             .mode = 0600, .sync_folder = 1 };
    iron_status s = iron__atomic_write(&a, entry_body, &parts);
    if (s != IRON_OK)
        return s;
    iron__cache_evict(c, c->max_bytes, &key, NULL);
    return IRON_OK;
}
