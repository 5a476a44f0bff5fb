/*
 * entry.c - the cache layer's entry format (see entry.h for the layout):
 * names, encoding a header, and reading an entry file back with every
 * field checked.  Nothing here touches the folder or the error message.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "cache/entry.h"
#include "core/core.h"

static const char hexdigits[] = "0123456789abcdef";

_Static_assert(32 + sizeof IRON__CACHE_SUFFIX <= IRON__CACHE_ENTRY_FNAME_MAX,
               "an entry's file name fits IRON__CACHE_ENTRY_FNAME_MAX");
_Static_assert(IRON__CACHE_OFF_HEADER_SUM + 8 == IRON__CACHE_HEADER_BYTES,
               "the header checksum ends the header");

char *iron__cache_key_hex(iron__cache_key k, char *buf)
{
    for (int i = 0; i < 16; i++) {
        buf[i] = hexdigits[(k.hi >> (60 - 4 * i)) & 15];
        buf[16 + i] = hexdigits[(k.lo >> (60 - 4 * i)) & 15];
    }
    buf[32] = '\0';
    return buf;
}

char *iron__cache_entry_fname(iron__cache_key key, char *buf)
{
    iron__cache_key_hex(key, buf);
    memcpy(buf + 32, IRON__CACHE_SUFFIX, sizeof IRON__CACHE_SUFFIX);
    return buf;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

iron__cache_fkind iron__cache_fname_kind(const char *fname,
                                         iron__cache_key *key)
{
    iron__cache_key k = { 0, 0 };
    for (int i = 0; i < 32; i++) {
        int v = hex_value(fname[i]);
        if (v < 0)
            return IRON__CACHE_OTHER;
        if (i < 16)
            k.hi = k.hi << 4 | (uint64_t)v;
        else
            k.lo = k.lo << 4 | (uint64_t)v;
    }
    const char *rest = fname + 32;
    iron__cache_fkind kind;
    if (strcmp(rest, IRON__CACHE_SUFFIX) == 0)
        kind = IRON__CACHE_ENTRY;
    else if (strncmp(rest, IRON__CACHE_TMP_INFIX,
                     sizeof IRON__CACHE_TMP_INFIX - 1) == 0)
        kind = IRON__CACHE_TEMP;
    else
        return IRON__CACHE_OTHER;
    if (key)
        *key = k;
    return kind;
}

/* ---- encoding ---------------------------------------------------------- */

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Copies src into a field of cap bytes; a text too long keeps its start
 * and ends in "..." so that a listing shows it was cut. */
static void copy_cut(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    memset(dst, 0, cap);
    if (n < cap) {
        if (n)
            memcpy(dst, src, n);
        return;
    }
    memcpy(dst, src, cap - 4);
    memcpy(dst + cap - 4, "...", 3);
}

static uint64_t checksum(const void *p, size_t len)
{
    return XXH3_64bits(len ? p : "", len);
}

void iron__cache_header_init(iron__cache_header *h, iron__cache_key key,
                             const char *name, const char *signature,
                             const void *payload, size_t len)
{
    memset(h, 0, sizeof *h);
    h->format = IRON__CACHE_FORMAT;
    copy_cut(h->version, sizeof h->version, iron_version());
    h->key = key;
    copy_cut(h->name, sizeof h->name, name);
    copy_cut(h->signature, sizeof h->signature, signature);
    h->payload_len = len;
    h->payload_sum = checksum(payload, len);
}

void iron__cache_header_encode(const iron__cache_header *h,
                               unsigned char *out)
{
    memset(out, 0, IRON__CACHE_HEADER_BYTES);
    memcpy(out, IRON__CACHE_MAGIC, 8);
    put_u32(out + IRON__CACHE_OFF_FORMAT, h->format);
    memcpy(out + IRON__CACHE_OFF_VERSION, h->version,
           strnlen(h->version, IRON__CACHE_VERSION_MAX - 1));
    put_u64(out + IRON__CACHE_OFF_KEY, h->key.hi);
    put_u64(out + IRON__CACHE_OFF_KEY + 8, h->key.lo);
    memcpy(out + IRON__CACHE_OFF_NAME, h->name,
           strnlen(h->name, IRON__CACHE_NAME_MAX - 1));
    memcpy(out + IRON__CACHE_OFF_SIGNATURE, h->signature,
           strnlen(h->signature, IRON__CACHE_SIGNATURE_MAX - 1));
    put_u64(out + IRON__CACHE_OFF_PAYLOAD_LEN, h->payload_len);
    put_u64(out + IRON__CACHE_OFF_PAYLOAD_SUM, h->payload_sum);
    put_u64(out + IRON__CACHE_OFF_HEADER_SUM,
            checksum(out, IRON__CACHE_OFF_HEADER_SUM));
}

/* ---- reading ----------------------------------------------------------- */

/* Reads up to len bytes; returns the count (short only at end of file) or
 * -1 with errno set. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

/* A text field must end inside the field: "abc\0\0..." */
static int copy_text(char *dst, const unsigned char *src, size_t cap)
{
    const unsigned char *nul = memchr(src, 0, cap);
    if (!nul)
        return 0;
    memcpy(dst, src, (size_t)(nul - src) + 1);
    return 1;
}

static iron_status miss(char *why, size_t why_len, const char *fmt, ...)
    IRON__PRINTF(3, 4);

static iron_status miss(char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    return IRON_EIO;
}

/* Checks the header bytes in order of trust: magic, then format (a later
 * format may lay out everything after it differently), then the header
 * checksum, and only then the fields it covers. */
static iron_status decode_header(const unsigned char *b, size_t n,
                                 iron__cache_key expect,
                                 iron__cache_header *h, char *why,
                                 size_t why_len)
{
    const size_t hb = IRON__CACHE_HEADER_BYTES;
    if (n < 8)
        return memcmp(b, IRON__CACHE_MAGIC, n) == 0
                   ? miss(why, why_len,
                          "truncated: header is %zu of %zu bytes", n, hb)
                   : miss(why, why_len, "bad magic: not a cache entry");
    if (memcmp(b, IRON__CACHE_MAGIC, 8) != 0)
        return miss(why, why_len, "bad magic: not a cache entry");
    if (n < IRON__CACHE_OFF_RESERVED)
        return miss(why, why_len, "truncated: header is %zu of %zu bytes",
                    n, hb);
    h->format = get_u32(b + IRON__CACHE_OFF_FORMAT);
    if (h->format != IRON__CACHE_FORMAT)
        return miss(why, why_len, "format %" PRIu32 ", expected %d",
                    h->format, IRON__CACHE_FORMAT);
    if (n < hb)
        return miss(why, why_len, "truncated: header is %zu of %zu bytes",
                    n, hb);
    if (get_u64(b + IRON__CACHE_OFF_HEADER_SUM) !=
        checksum(b, IRON__CACHE_OFF_HEADER_SUM))
        return miss(why, why_len, "header checksum mismatch");
    if (get_u32(b + IRON__CACHE_OFF_RESERVED) != 0)
        return miss(why, why_len, "malformed header: reserved field is set");
    if (!copy_text(h->version, b + IRON__CACHE_OFF_VERSION,
                   IRON__CACHE_VERSION_MAX) ||
        !copy_text(h->name, b + IRON__CACHE_OFF_NAME,
                   IRON__CACHE_NAME_MAX) ||
        !copy_text(h->signature, b + IRON__CACHE_OFF_SIGNATURE,
                   IRON__CACHE_SIGNATURE_MAX))
        return miss(why, why_len, "malformed header: unterminated text");
    h->key.hi = get_u64(b + IRON__CACHE_OFF_KEY);
    h->key.lo = get_u64(b + IRON__CACHE_OFF_KEY + 8);
    h->payload_len = get_u64(b + IRON__CACHE_OFF_PAYLOAD_LEN);
    h->payload_sum = get_u64(b + IRON__CACHE_OFF_PAYLOAD_SUM);
    if (strcmp(h->version, iron_version()) != 0)
        return miss(why, why_len, "library %s, expected %s", h->version,
                    iron_version());
    if (h->key.hi != expect.hi || h->key.lo != expect.lo) {
        char hex[33];
        return miss(why, why_len, "key mismatch: the entry holds key %s",
                    iron__cache_key_hex(h->key, hex));
    }
    return IRON_OK;
}

iron_status iron__cache_entry_read(int fd, iron__cache_key expect,
                                   iron__cache_header *h, void **payload,
                                   size_t *len, char *why, size_t why_len)
{
    unsigned char b[IRON__CACHE_HEADER_BYTES];
    struct stat st;
    memset(h, 0, sizeof *h);
    if (payload)
        *payload = NULL;
    if (len)
        *len = 0;
    if (fstat(fd, &st) != 0)
        return miss(why, why_len, "cannot stat: %s", strerror(errno));
    ssize_t n = read_full(fd, b, sizeof b);
    if (n < 0)
        return miss(why, why_len, "read error: %s", strerror(errno));
    iron_status s = decode_header(b, (size_t)n, expect, h, why, why_len);
    if (s != IRON_OK)
        return s;

    uint64_t size = (uint64_t)st.st_size;
    uint64_t after = size > sizeof b ? size - sizeof b : 0;
    if (after < h->payload_len)
        return miss(why, why_len,
                    "truncated: payload is %" PRIu64 " of %" PRIu64 " bytes",
                    after, h->payload_len);
    if (after > h->payload_len)
        return miss(why, why_len,
                    "size mismatch: %" PRIu64 " bytes follow the header, "
                    "which announces %" PRIu64, after, h->payload_len);
    if (!payload)
        return IRON_OK;
    if (h->payload_len > SIZE_MAX)
        return miss(why, why_len, "payload of %" PRIu64 " bytes is too large",
                    h->payload_len);

    size_t plen = (size_t)h->payload_len;
    char *p = iron__malloc(plen);
    if (!p) {
        snprintf(why, why_len, "out of memory");
        return IRON_ENOMEM;
    }
    n = read_full(fd, p, plen);
    if (n < 0 || (size_t)n != plen) {
        iron__free(p);
        /* The size was checked above, so this is a file that changed
         * under us (damage, or someone writing into it). */
        return n < 0 ? miss(why, why_len, "read error: %s", strerror(errno))
                     : miss(why, why_len,
                            "truncated: payload is %zd of %zu bytes", n,
                            plen);
    }
    if (checksum(p, plen) != h->payload_sum) {
        iron__free(p);
        return miss(why, why_len, "checksum mismatch");
    }
    *payload = p;
    *len = plen;
    return IRON_OK;
}
