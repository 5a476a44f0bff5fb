/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * sha256.c - SHA-256 through Nettle (see sha256.h).
 */
#include "cache/sha256.h"

void iron__sha256_init(iron__sha256 *s)
{
    sha256_init(s);
}

void iron__sha256_update(iron__sha256 *s, const void *data, size_t len)
{
    sha256_update(s, len, data);
}

void iron__sha256_hex(iron__sha256 *s, char *hex)
{
    static const char digits[] = "0123456789abcdef";
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(s, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[2 * sizeof d] = '\0';
}
