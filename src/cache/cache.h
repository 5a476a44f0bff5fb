/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cache.h - the on-disk cache: a folder of entries, each one file named by
 * its key's digest, published atomically and read without locks.
 *
 * An entry file is a fixed header (magic, format version, library version,
 * key digest, name, signature text, key text length and checksum, payload
 * size and checksum) followed by the full key text and the payload bytes.
 * The digest only names the file: an entry is used only when the key text
 * it holds is exactly the caller's, so two keys whose digests collide are
 * a miss ("key mismatch"), never one's payload for the other.  Writers
 * write a temporary file in the same folder, fsync it, and rename it over
 * the final name (rename is atomic, so readers see the old entry, the new
 * one or none -- never a torn one); two processes publishing the same key
 * both succeed and one valid entry remains.  Any short read, bad magic,
 * foreign format or library version, key mismatch or checksum mismatch is
 * a miss (with a reason for the debug log), never a crash; so is a file
 * that is not a regular file of this user's, one group or others may
 * write, or one larger than IRON__FILE_ENTRY_MAX (core/file.h).  Size is
 * capped: after a put, least-recently-used entries (by last use, which
 * reads refresh) are evicted until the folder fits.  The key is computed
 * by the caller and covers everything that changes the output; it never
 * involves file times.
 */
#ifndef IRON_CACHE_CACHE_H
#define IRON_CACHE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "iron/iron.h"

/* Bump when the entry layout changes, or what a compiled kernel object
 * must contain: older entries become misses.
 * 2: kernel objects carry the runtime shim (compile/rt.h).
 * 3: entries and artifacts carry their full key text, which must match.
 * 4: a disk-cache entry holds one kernel object under its own key, not a
 *    specialization's kernels (artifacts still hold a specialization's). */
#define IRON__CACHE_FORMAT 4
#define IRON__CACHE_DEFAULT_MAX_BYTES (256ull << 20)
/* The longest key text an entry may hold: a placed design's canonical
 * text and its kernels' sources are far smaller; a header announcing more
 * is malformed. */
#define IRON__CACHE_KEY_TEXT_MAX (16ull << 20)
/* Room for a reason a read was a miss. */
#define IRON__CACHE_WHY_MAX 256

typedef struct iron__cache_key {
    uint64_t hi, lo;           /* 128 bits */
} iron__cache_key;

typedef struct iron__cache iron__cache;

/* Opens (creating if needed, mode 0700) the cache folder `dir`; max_bytes 0
 * means the default cap.  dir NULL means the default location: $IRON_CACHE_DIR,
 * else $XDG_CACHE_HOME/iron, else $HOME/.cache/iron.  IRON_EIO naming the
 * folder and the system's reason when it cannot be created or written
 * (the caller falls back to memory with a warning). */
iron_status iron__cache_open(iron__cache **out, const char *dir,
                             uint64_t max_bytes);
void iron__cache_close(iron__cache *c);
const char *iron__cache_dir(const iron__cache *c);

/* The default folder as above, into buf; returns buf. */
char *iron__cache_default_dir(char *buf, size_t len);

/* The cap in force when the caller gives none: $IRON_CACHE_MAX (digits
 * with an optional K, M or G suffix), else IRON__CACHE_DEFAULT_MAX_BYTES.
 * A value that is not a byte count is a warning naming the variable, and
 * the default applies. */
uint64_t iron__cache_env_max_bytes(void);

/* ---- settings (settings.c) ------------------------------------------------
 * Whether a program uses the disk cache, where, and how large it may
 * grow: the caller's choice (a jit's options, the CLI's --dir), else the
 * environment (IRON_CACHE, IRON_CACHE_DIR, IRON_CACHE_MAX), else the
 * defaults -- decided here and nowhere else. */
typedef struct iron__cache_settings {
    int enabled;               /* 1: use the disk cache */
    char dir[4096];            /* the folder; "" when none can be named */
    const char *no_dir;        /* then why not (static text), else NULL */
    uint64_t max_bytes;        /* the cap, never 0 */
    const char *max_from;      /* "option", "IRON_CACHE_MAX" or "default" */
} iron__cache_settings;

/* disk_cache: 1 on, -1 off, 0 on unless IRON_CACHE=0.  dir: NULL for the
 * default folder (iron__cache_default_dir).  max_bytes: 0 for
 * $IRON_CACHE_MAX or the default.  When the cache is off, the folder and
 * the cap are not looked up (a bad IRON_CACHE_MAX warns only a program
 * that uses the cache). */
void iron__cache_settings_resolve(int disk_cache, const char *dir,
                                  uint64_t max_bytes,
                                  iron__cache_settings *out);

/* Reads the entry for key, whose full key text must be text[0 .. text_len)
 * exactly.  On a hit, *payload (iron__malloc'd, caller frees) and *len
 * are set and IRON_OK is returned; the entry's last use is refreshed.  A
 * missing entry is IRON_EIO with *why "absent"; a damaged, truncated,
 * foreign or refused one is IRON_EIO with *why saying what was wrong
 * ("truncated", "checksum mismatch", "format 0, expected 1", "library
 * 0.0.9, expected 0.1.0", "key mismatch: ...", "refused: owned by uid
 * ...") -- the caller rebuilds. */
iron_status iron__cache_get(iron__cache *c, iron__cache_key key,
                            const char *text, size_t text_len,
                            void **payload, size_t *len, const char **why);

/* Publishes an entry atomically (temp file in the folder, fsync, rename),
 * then evicts least-recently-used entries while the folder is over its
 * cap (never the entry just written).  text is the key's full text (what
 * a get must present); name and signature are stored for listing.
 * IRON_EIO naming the path on failure (disk full, ...); nothing
 * half-written is left behind.  IRON_EINVAL for a key text or entry over
 * the limits a reader accepts. */
iron_status iron__cache_put(iron__cache *c, iron__cache_key key,
                            const char *text, size_t text_len,
                            const char *name, const char *signature,
                            const void *payload, size_t len);

/* A check of a payload beyond its checksum (the kernel store's decoder,
 * for the tools): 0 when usable, else -1 with the reason in why. */
typedef int (*iron__cache_check_fn)(const void *payload, size_t len,
                                    char *why, size_t why_len);

/* One entry, for listing. */
typedef struct iron__cache_entry {
    iron__cache_key key;
    char name[64];
    char signature[512];
    uint64_t bytes;            /* file size */
    int64_t last_use;          /* seconds since the epoch */
    int valid;                 /* every check made passed */
    int foreign;               /* invalid because another format or library
                                  version wrote it: not damage */
    char why[IRON__CACHE_WHY_MAX]; /* when invalid: what is wrong */
} iron__cache_entry;

/* Calls fn for every entry file (valid or not), in no particular order,
 * refreshing nothing.  full 0: only the header and the file's size are
 * checked (cheap); full 1: the key text and payload are read and their
 * checksums checked, and check (if not NULL) judges the payload. */
iron_status iron__cache_list(iron__cache *c, int full,
                             iron__cache_check_fn check,
                             void (*fn)(const iron__cache_entry *e, void *ctx),
                             void *ctx);
/* Totals: entries and bytes. */
iron_status iron__cache_info(iron__cache *c, uint64_t *entries,
                             uint64_t *bytes);
/* Removes every entry (and stray temporary files). */
iron_status iron__cache_clear(iron__cache *c);
/* Removes every damaged entry (fully checked as by a full list, with
 * check judging payloads; entries of another format or library version
 * are not damage and stay), then evicts least-recently-used entries
 * until the folder holds at most max_bytes (UINT64_MAX: no eviction).
 * *removed counts every entry removed, *damaged (if not NULL) those
 * removed as damaged. */
iron_status iron__cache_prune(iron__cache *c, uint64_t max_bytes,
                              iron__cache_check_fn check, uint64_t *removed,
                              uint64_t *damaged);

/* "0123...ef" (32 hex digits) into buf (33 bytes). */
char *iron__cache_key_hex(iron__cache_key k, char *buf);

#endif
