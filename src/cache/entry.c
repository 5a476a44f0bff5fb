/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
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
#include "core/file.h"
#include "core/core.h"

static const char hexdigits[] = "0123456789abcdef";

_Static_assert(32 + sizeof IRON__CACHE_SUFFIX <= IRON__CACHE_ENTRY_FNAME_MAX,
               "an entry's file name fits IRON__CACHE_ENTRY_FNAME_MAX");
_Static_assert(IRON__CACHE_OFF_HEADER_SUM + 8 == IRON__CACHE_HEADER_BYTES,
               "the header checksum ends the header");
/* Sizes below add up without overflow: each term is bounded first. */
_Static_assert(IRON__CACHE_KEY_TEXT_MAX < (1ull << 40) &&
                   IRON__FILE_ENTRY_MAX < (1ull << 40),
               "entry sizes are far from overflowing 64 bits");

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
                             const char *text, size_t text_len,
                             const char *name, const char *signature,
                             const void *payload, size_t len)
{
    memset(h, 0, sizeof *h);
    h->format = IRON__CACHE_FORMAT;
    copy_cut(h->version, sizeof h->version, iron_version());
    h->key = key;
    copy_cut(h->name, sizeof h->name, name);
    copy_cut(h->signature, sizeof h->signature, signature);
    h->text_len = text_len;
    h->text_sum = checksum(text, text_len);
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
    put_u64(out + IRON__CACHE_OFF_TEXT_LEN, h->text_len);
    put_u64(out + IRON__CACHE_OFF_TEXT_SUM, h->text_sum);
    put_u64(out + IRON__CACHE_OFF_PAYLOAD_LEN, h->payload_len);
    put_u64(out + IRON__CACHE_OFF_PAYLOAD_SUM, h->payload_sum);
    put_u64(out + IRON__CACHE_OFF_HEADER_SUM,
            checksum(out, IRON__CACHE_OFF_HEADER_SUM));
}

/* ---- reading ----------------------------------------------------------- */

/* A text field must end inside the field: "abc\0\0..." */
static int copy_text(char *dst, const unsigned char *src, size_t cap)
{
    const unsigned char *nul = memchr(src, 0, cap);
    if (!nul)
        return 0;
    memcpy(dst, src, (size_t)(nul - src) + 1);
    return 1;
}

static iron_status miss(iron__cache_got *g, const char *fmt, ...)
    IRON__PRINTF(2, 3);

static iron_status miss(iron__cache_got *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->why, sizeof g->why, fmt, ap);
    va_end(ap);
    return IRON_EIO;
}

/* Checks the header bytes in order of trust: magic, then format (a later
 * format may lay out everything after it differently), then the header
 * checksum, and only then the fields it covers. */
static iron_status decode_header(const unsigned char *b, size_t n,
                                 const iron__cache_want *w,
                                 iron__cache_got *g)
{
    const size_t hb = IRON__CACHE_HEADER_BYTES;
    iron__cache_header *h = &g->h;
    if (n < 8)
        return memcmp(b, IRON__CACHE_MAGIC, n) == 0
                   ? miss(g, "truncated: header is %zu of %zu bytes", n, hb)
                   : miss(g, "bad magic: not a cache entry");
    if (memcmp(b, IRON__CACHE_MAGIC, 8) != 0)
        return miss(g, "bad magic: not a cache entry");
    if (n < IRON__CACHE_OFF_RESERVED)
        return miss(g, "truncated: header is %zu of %zu bytes", n, hb);
    h->format = get_u32(b + IRON__CACHE_OFF_FORMAT);
    if (h->format != IRON__CACHE_FORMAT) {
        g->foreign = 1;
        return miss(g, "format %" PRIu32 ", expected %d", h->format,
                    IRON__CACHE_FORMAT);
    }
    if (n < hb)
        return miss(g, "truncated: header is %zu of %zu bytes", n, hb);
    if (get_u64(b + IRON__CACHE_OFF_HEADER_SUM) !=
        checksum(b, IRON__CACHE_OFF_HEADER_SUM))
        return miss(g, "header checksum mismatch");
    if (get_u32(b + IRON__CACHE_OFF_RESERVED) != 0)
        return miss(g, "malformed header: reserved field is set");
    if (!copy_text(h->version, b + IRON__CACHE_OFF_VERSION,
                   IRON__CACHE_VERSION_MAX) ||
        !copy_text(h->name, b + IRON__CACHE_OFF_NAME,
                   IRON__CACHE_NAME_MAX) ||
        !copy_text(h->signature, b + IRON__CACHE_OFF_SIGNATURE,
                   IRON__CACHE_SIGNATURE_MAX))
        return miss(g, "malformed header: unterminated text");
    h->key.hi = get_u64(b + IRON__CACHE_OFF_KEY);
    h->key.lo = get_u64(b + IRON__CACHE_OFF_KEY + 8);
    h->text_len = get_u64(b + IRON__CACHE_OFF_TEXT_LEN);
    h->text_sum = get_u64(b + IRON__CACHE_OFF_TEXT_SUM);
    h->payload_len = get_u64(b + IRON__CACHE_OFF_PAYLOAD_LEN);
    h->payload_sum = get_u64(b + IRON__CACHE_OFF_PAYLOAD_SUM);
    if (strcmp(h->version, iron_version()) != 0) {
        g->foreign = 1;
        return miss(g, "library %s, expected %s", h->version,
                    iron_version());
    }
    if (h->text_len > IRON__CACHE_KEY_TEXT_MAX)
        return miss(g,
                    "malformed header: a key text of %" PRIu64 " bytes, "
                    "more than the %llu accepted",
                    h->text_len, (unsigned long long)IRON__CACHE_KEY_TEXT_MAX);
    if (h->payload_len > IRON__FILE_ENTRY_MAX)
        return miss(g,
                    "malformed header: a payload of %" PRIu64 " bytes, "
                    "more than the %llu accepted",
                    h->payload_len, (unsigned long long)IRON__FILE_ENTRY_MAX);
    if (!w->any_key && (h->key.hi != w->key.hi || h->key.lo != w->key.lo)) {
        char hex[33];
        return miss(g, "key mismatch: the entry holds key %s",
                    iron__cache_key_hex(h->key, hex));
    }
    return IRON_OK;
}

/* Reads exactly len bytes into buf, feeding the hash; a miss (truncated,
 * naming `what`) when the file ends first -- its size was checked, so
 * that is a file that changed under us. */
static iron_status read_part(int fd, void *buf, size_t len,
                             const iron__cache_want *w, iron__cache_got *g,
                             const char *what)
{
    ptrdiff_t n = iron__file_read(fd, buf, len);
    if (n < 0)
        return miss(g, "read error: %s", strerror(errno));
    if ((size_t)n != len)
        return miss(g, "truncated: %s is %td of %zu bytes", what, n, len);
    if (w->hash)
        iron__sha256_update(w->hash, buf, len);
    return IRON_OK;
}

static iron_status out_of_memory(iron__cache_got *g)
{
    snprintf(g->why, sizeof g->why, "out of memory");
    return IRON_ENOMEM;
}

void iron__cache_got_free(iron__cache_got *g)
{
    iron__free(g->text);
    iron__free(g->payload);
    g->text = NULL;
    g->payload = NULL;
    g->len = 0;
}

/* The key text: its checksum first (damage), then whether it is the one
 * expected (a digest collision, or a file renamed under another key's
 * name).  Kept only when asked for. */
static iron_status read_text(int fd, const iron__cache_want *w,
                             iron__cache_got *g)
{
    const iron__cache_header *h = &g->h;
    size_t tlen = (size_t)h->text_len;   /* bounded by decode_header */
    char *t = iron__malloc(tlen + 1);
    if (!t)
        return out_of_memory(g);
    iron_status s = read_part(fd, t, tlen, w, g, "key text");
    if (s == IRON_OK && checksum(t, tlen) != h->text_sum)
        s = miss(g, "key text checksum mismatch");
    if (s == IRON_OK && w->text) {
        size_t at = 0;
        while (at < tlen && at < w->text_len && t[at] == w->text[at])
            at++;
        if (at < tlen || at < w->text_len)
            s = miss(g,
                     "key mismatch: the entry was made for another key "
                     "with the same digest (key text of %zu bytes, "
                     "expected %zu; they differ from byte %zu)",
                     tlen, w->text_len, at);
    }
    if (s != IRON_OK || !w->keep_text) {
        iron__free(t);
        return s;
    }
    t[tlen] = '\0';
    g->text = t;
    return IRON_OK;
}

iron_status iron__cache_entry_read(int fd, const iron__cache_want *w,
                                   iron__cache_got *g)
{
    unsigned char b[IRON__CACHE_HEADER_BYTES];
    struct stat st;
    memset(g, 0, sizeof *g);
    if (fstat(fd, &st) != 0)
        return miss(g, "cannot stat: %s", strerror(errno));
    /* The caller opened it through iron__file_open, which checked this;
     * this layer does not rely on it. */
    if (!S_ISREG(st.st_mode) || st.st_size < 0 ||
        (uint64_t)st.st_size > IRON__FILE_ENTRY_MAX)
        return miss(g, "not a regular file of at most %llu bytes",
                    (unsigned long long)IRON__FILE_ENTRY_MAX);
    ptrdiff_t n = iron__file_read(fd, b, sizeof b);
    if (n < 0)
        return miss(g, "read error: %s", strerror(errno));
    iron_status s = decode_header(b, (size_t)n, w, g);
    if (s != IRON_OK)
        return s;
    if (w->hash)
        iron__sha256_update(w->hash, b, sizeof b);

    const iron__cache_header *h = &g->h;
    /* Both lengths are bounded (decode_header), so neither sum wraps. */
    uint64_t size = (uint64_t)st.st_size;
    uint64_t after = size - sizeof b;   /* n == sizeof b: size >= that */
    if (after < h->text_len)
        return miss(g,
                    "truncated: key text is %" PRIu64 " of %" PRIu64
                    " bytes", after, h->text_len);
    after -= h->text_len;
    if (after < h->payload_len)
        return miss(g,
                    "truncated: payload is %" PRIu64 " of %" PRIu64 " bytes",
                    after, h->payload_len);
    if (after > h->payload_len)
        return miss(g,
                    "size mismatch: %" PRIu64 " bytes follow the key text, "
                    "which the header announces as %" PRIu64,
                    after, h->payload_len);
    /* A different length is a mismatch without reading a byte. */
    if (w->text && h->text_len != w->text_len)
        return miss(g,
                    "key mismatch: the entry was made for another key with "
                    "the same digest (key text of %" PRIu64 " bytes, "
                    "expected %zu)",
                    h->text_len, w->text_len);
    if (w->header_only)
        return IRON_OK;

    if ((s = read_text(fd, w, g)) != IRON_OK)
        return s;
    size_t plen = (size_t)h->payload_len;
    char *p = iron__malloc(plen ? plen : 1);
    if (!p) {
        iron__cache_got_free(g);
        return out_of_memory(g);
    }
    s = read_part(fd, p, plen, w, g, "payload");
    if (s == IRON_OK && checksum(p, plen) != h->payload_sum)
        s = miss(g, "checksum mismatch");
    if (s != IRON_OK) {
        iron__free(p);
        iron__cache_got_free(g);
        return s;
    }
    g->payload = p;
    g->len = plen;
    return IRON_OK;
}
