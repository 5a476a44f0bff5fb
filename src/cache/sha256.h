/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * sha256.h - SHA-256 for pinning an artifact to the exact file its user
 * reviewed: unlike the XXH3 checksums of the entry format, which only
 * detect accidental damage, nobody can make another file with a given
 * SHA-256.  The digest is the one `sha256sum FILE` prints.  Nettle does
 * the hashing; this is the library's one place that names it.
 */
#ifndef IRON_CACHE_SHA256_H
#define IRON_CACHE_SHA256_H

#include <stddef.h>

#include <nettle/sha2.h>

typedef struct sha256_ctx iron__sha256;

void iron__sha256_init(iron__sha256 *s);
void iron__sha256_update(iron__sha256 *s, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL (65 bytes). */
void iron__sha256_hex(iron__sha256 *s, char *hex);

#endif
