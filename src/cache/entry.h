/*
 * entry.h - the cache layer's on-disk entry format: file names, the fixed
 * little-endian header, and reading plus validating an entry file.
 *
 * Layout of "<32 hex digits>.iron" (all integers little-endian):
 *
 *   offset  bytes  field
 *        0      8  magic "IRONCACH"
 *        8      4  format (IRON__CACHE_FORMAT)
 *       12      4  reserved, zero
 *       16     16  library version (iron_version()), NUL-padded
 *       32      8  key, high 64 bits
 *       40      8  key, low 64 bits
 *       48     64  name, NUL-padded (at most 63 bytes)
 *      112    512  signature, NUL-padded (at most 511 bytes)
 *      624      8  payload length
 *      632      8  XXH3-64 of the payload
 *      640      8  XXH3-64 of bytes [0, 640): the header above
 *      648      -  payload
 *
 * The header is checked field by field before the payload is trusted; the
 * file's size must be exactly header + payload length.
 */
#ifndef IRON_CACHE_ENTRY_H
#define IRON_CACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "cache/cache.h"

#define IRON__CACHE_MAGIC "IRONCACH"
#define IRON__CACHE_OFF_FORMAT 8
#define IRON__CACHE_OFF_RESERVED 12
#define IRON__CACHE_OFF_VERSION 16
#define IRON__CACHE_OFF_KEY 32
#define IRON__CACHE_OFF_NAME 48
#define IRON__CACHE_OFF_SIGNATURE 112
#define IRON__CACHE_OFF_PAYLOAD_LEN 624
#define IRON__CACHE_OFF_PAYLOAD_SUM 632
#define IRON__CACHE_OFF_HEADER_SUM 640
#define IRON__CACHE_HEADER_BYTES 648

#define IRON__CACHE_VERSION_MAX 16
#define IRON__CACHE_NAME_MAX 64
#define IRON__CACHE_SIGNATURE_MAX 512

/* Entry files end in this; temporary files are "<key>.tmp.<pid>.<random>". */
#define IRON__CACHE_SUFFIX ".iron"
#define IRON__CACHE_TMP_INFIX ".tmp."
/* Room for any file name the cache makes, with its NUL; for an entry's. */
#define IRON__CACHE_FNAME_MAX 96
#define IRON__CACHE_ENTRY_FNAME_MAX 40
/* Room for a reason a read was a miss. */
#define IRON__CACHE_WHY_MAX 160

/* The header's fields, decoded. */
typedef struct iron__cache_header {
    uint32_t format;
    char version[IRON__CACHE_VERSION_MAX];    /* NUL-terminated */
    iron__cache_key key;
    char name[IRON__CACHE_NAME_MAX];          /* NUL-terminated */
    char signature[IRON__CACHE_SIGNATURE_MAX]; /* NUL-terminated */
    uint64_t payload_len;
    uint64_t payload_sum;
} iron__cache_header;

/* What a file in the cache folder is, judged by its name alone. */
typedef enum iron__cache_fkind {
    IRON__CACHE_OTHER,      /* not ours: left alone, not counted */
    IRON__CACHE_ENTRY,      /* "<key>.iron" */
    IRON__CACHE_TEMP        /* "<key>.tmp.<...>": a write in progress or
                               one that died */
} iron__cache_fkind;

/* "<key>.iron" into buf (IRON__CACHE_ENTRY_FNAME_MAX bytes or more);
 * returns buf. */
char *iron__cache_entry_fname(iron__cache_key key, char *buf);

/* Classifies a file name; for ENTRY and TEMP, *key (if not NULL) is the key
 * it names.  Only lower-case hex, as written, counts. */
iron__cache_fkind iron__cache_fname_kind(const char *fname,
                                         iron__cache_key *key);

/* Fills a header for a new entry: this library's format and version, the
 * key, name and signature (cut to fit, ending in "..." when cut) and the
 * payload's length and checksum. */
void iron__cache_header_init(iron__cache_header *h, iron__cache_key key,
                             const char *name, const char *signature,
                             const void *payload, size_t len);

/* The header as IRON__CACHE_HEADER_BYTES bytes, with its checksum. */
void iron__cache_header_encode(const iron__cache_header *h,
                               unsigned char *out);

/* Reads the entry open at fd (positioned at 0) whose file is named for
 * `expect`, and validates it.  With payload NULL only the header is read
 * and checked (listing); otherwise the payload is read into a new buffer
 * (iron__malloc, caller frees) and its checksum checked.  *h is filled as
 * far as decoding got, so a foreign entry still shows its name.
 * Returns IRON_OK when valid; IRON_EIO with the reason in why (at most
 * why_len bytes) when damaged, truncated or foreign; IRON_ENOMEM with
 * why "out of memory".  Sets no last-error message: the caller words it. */
iron_status iron__cache_entry_read(int fd, iron__cache_key expect,
                                   iron__cache_header *h, void **payload,
                                   size_t *len, char *why, size_t why_len);

#endif
