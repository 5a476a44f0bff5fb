/*
 * cache.h - the on-disk cache: a folder of entries, each one file named by
 * its key, published atomically and read without locks.
 *
 * An entry file is a fixed header (magic, format version, library version,
 * key, name, signature text, payload size, payload checksum) followed by
 * the payload bytes.  Writers write a temporary file in the same folder,
 * fsync it, and rename it over the final name (rename is atomic, so readers
 * see the old entry, the new one or none -- never a torn one); two
 * processes publishing the same key both succeed and one valid entry
 * remains.  Any short read, bad magic, foreign format or library version,
 * key mismatch or checksum mismatch is a miss (with a reason for the debug
 * log), never a crash.  Size is capped: after a put, least-recently-used
 * entries (by last use, which reads refresh) are evicted until the folder
 * fits.  The key is computed by the caller and covers everything that
 * changes the output; it never involves file times.
 */
#ifndef IRON_CACHE_CACHE_H
#define IRON_CACHE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "iron/iron.h"

/* Bump when the entry layout changes, or what a compiled kernel object
 * must contain: older entries become misses.
 * 2: kernel objects carry the runtime shim (compile/rt.h). */
#define IRON__CACHE_FORMAT 2
#define IRON__CACHE_DEFAULT_MAX_BYTES (256ull << 20)

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

/* Reads the entry for key.  On a hit, *payload (iron__malloc'd, caller
 * frees) and *len are set and IRON_OK is returned; the entry's last use is
 * refreshed.  A missing entry is IRON_EIO with *why "absent"; a damaged,
 * truncated or foreign one is IRON_EIO with *why saying what was wrong
 * ("truncated", "checksum mismatch", "format 0, expected 1", "library
 * 0.0.9, expected 0.1.0", "key mismatch") -- the caller rebuilds. */
iron_status iron__cache_get(iron__cache *c, iron__cache_key key,
                            void **payload, size_t *len, const char **why);

/* Publishes an entry atomically (temp file in the folder, fsync, rename),
 * then evicts least-recently-used entries while the folder is over its
 * cap (never the entry just written).  name and signature are stored for
 * listing.  IRON_EIO naming the path on failure (disk full, ...); nothing
 * half-written is left behind. */
iron_status iron__cache_put(iron__cache *c, iron__cache_key key,
                            const char *name, const char *signature,
                            const void *payload, size_t len);

/* One entry, for listing. */
typedef struct iron__cache_entry {
    iron__cache_key key;
    char name[64];
    char signature[512];
    uint64_t bytes;            /* file size */
    int64_t last_use;          /* seconds since the epoch */
    int valid;                 /* header checks out */
} iron__cache_entry;

/* Calls fn for every entry file (valid or not), in no particular order. */
iron_status iron__cache_list(iron__cache *c,
                             void (*fn)(const iron__cache_entry *e, void *ctx),
                             void *ctx);
/* Totals: entries and bytes. */
iron_status iron__cache_info(iron__cache *c, uint64_t *entries,
                             uint64_t *bytes);
/* Removes every entry (and stray temporary files). */
iron_status iron__cache_clear(iron__cache *c);
/* Evicts least-recently-used entries until the folder holds at most
 * max_bytes; *removed counts them. */
iron_status iron__cache_prune(iron__cache *c, uint64_t max_bytes,
                              uint64_t *removed);

/* "0123...ef" (32 hex digits) into buf (33 bytes). */
char *iron__cache_key_hex(iron__cache_key k, char *buf);

#endif
