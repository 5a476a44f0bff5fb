/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * entry.h - the cache layer's on-disk entry format: file names, the fixed
 * little-endian header, and reading plus validating an entry file.
 * Artifacts (kstore/artifact.c) are files in the same format.
 *
 * Layout of "<32 hex digits>.iron" (all integers little-endian), format 3:
 *
 *   offset  bytes  field
 *        0      8  magic "IRONCACH"
 *        8      4  format (IRON__CACHE_FORMAT)
 *       12      4  reserved, zero
 *       16     16  library version (iron_version()), NUL-padded
 *       32      8  key digest, high 64 bits
 *       40      8  key digest, low 64 bits
 *       48     64  name, NUL-padded (at most 63 bytes)
 *      112    512  signature, NUL-padded (at most 511 bytes)
 *      624      8  key text length (at most IRON__CACHE_KEY_TEXT_MAX)
 *      632      8  XXH3-64 of the key text
 *      640      8  payload length
 *      648      8  XXH3-64 of the payload
 *      656      8  XXH3-64 of bytes [0, 656): the header above
 *      664      -  key text (no NUL), then the payload
 *
 * The header is checked field by field before anything else is trusted;
 * the file's size must be exactly header + key text + payload.  The key
 * digest names the file; the key text is what decides a hit: a reader
 * that presents its own key text gets the payload only when the two are
 * byte for byte the same.
 */
#ifndef IRON_CACHE_ENTRY_H
#define IRON_CACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "cache/cache.h"
#include "cache/sha256.h"

#define IRON__CACHE_MAGIC "IRONCACH"
#define IRON__CACHE_OFF_FORMAT 8
#define IRON__CACHE_OFF_RESERVED 12
#define IRON__CACHE_OFF_VERSION 16
#define IRON__CACHE_OFF_KEY 32
#define IRON__CACHE_OFF_NAME 48
#define IRON__CACHE_OFF_SIGNATURE 112
#define IRON__CACHE_OFF_TEXT_LEN 624
#define IRON__CACHE_OFF_TEXT_SUM 632
#define IRON__CACHE_OFF_PAYLOAD_LEN 640
#define IRON__CACHE_OFF_PAYLOAD_SUM 648
#define IRON__CACHE_OFF_HEADER_SUM 656
#define IRON__CACHE_HEADER_BYTES 664

#define IRON__CACHE_VERSION_MAX 16
#define IRON__CACHE_NAME_MAX 64
#define IRON__CACHE_SIGNATURE_MAX 512

/* Entry files end in this; temporary files are "<key>.tmp.<pid>.<random>". */
#define IRON__CACHE_SUFFIX ".iron"
#define IRON__CACHE_TMP_INFIX ".tmp."
/* Room for any file name the cache makes, with its NUL; for an entry's. */
#define IRON__CACHE_FNAME_MAX 96
#define IRON__CACHE_ENTRY_FNAME_MAX 40

/* The header's fields, decoded. */
typedef struct iron__cache_header {
    uint32_t format;
    char version[IRON__CACHE_VERSION_MAX];    /* NUL-terminated */
    iron__cache_key key;
    char name[IRON__CACHE_NAME_MAX];          /* NUL-terminated */
    char signature[IRON__CACHE_SIGNATURE_MAX]; /* NUL-terminated */
    uint64_t text_len;
    uint64_t text_sum;
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
 * key's digest, the key text's length and checksum, name and signature
 * (cut to fit, ending in "..." when cut) and the payload's length and
 * checksum. */
void iron__cache_header_init(iron__cache_header *h, iron__cache_key key,
                             const char *text, size_t text_len,
                             const char *name, const char *signature,
                             const void *payload, size_t len);

/* The header as IRON__CACHE_HEADER_BYTES bytes, with its checksum. */
void iron__cache_header_encode(const iron__cache_header *h,
                               unsigned char *out);

/* What a read expects of an entry. */
typedef struct iron__cache_want {
    iron__cache_key key;       /* the digest it must carry ... */
    int any_key;               /* ... unless set (an artifact names its
                                  own key) */
    const char *text;          /* the exact key text it must carry; NULL:
                                  any (listing, verifying, artifacts) */
    size_t text_len;
    int header_only;           /* check the header and the file size only */
    int keep_text;             /* return the key text */
    iron__sha256 *hash;        /* if not NULL: fed every byte read, which
                                  on success is the whole file */
} iron__cache_want;

/* What a read found.  Free with iron__cache_got_free. */
typedef struct iron__cache_got {
    iron__cache_header h;      /* as far as decoding got, so a foreign
                                  entry still shows its name */
    char *text;                /* keep_text: the key text, NUL-terminated
                                  (iron__malloc) */
    void *payload;             /* unless header_only (iron__malloc) */
    size_t len;
    int foreign;               /* the entry is another format or library
                                  version's: a miss, but not damage */
    char why[IRON__CACHE_WHY_MAX];
} iron__cache_got;

/* Reads the entry open at fd (positioned at 0) and validates it against
 * *w: magic, format, header checksum, fields, version, digest, file size
 * (at most IRON__FILE_ENTRY_MAX), then (unless header_only) the key text's
 * checksum and its equality with w->text, and the payload's checksum.
 * Returns IRON_OK when valid; IRON_EIO with the reason in g->why when
 * damaged, truncated, foreign or made for another key ("key mismatch:
 * ..."); IRON_ENOMEM with why "out of memory".  On failure nothing is
 * left allocated in *g.  Sets no last-error message: the caller words
 * it. */
iron_status iron__cache_entry_read(int fd, const iron__cache_want *w,
                                   iron__cache_got *g);
void iron__cache_got_free(iron__cache_got *g);

#endif
