/*
 * env.c - strict parsing of IRON_* variables (see env.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "core/env.h"
#include "core/log.h"

int iron__parse_int(const char *text, int64_t min, int64_t max, int64_t *out)
{
    if (!text || *text == '\0' || *text == ' ' || *text == '\t')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end != '\0' || v < min || v > max)
        return -1;
    *out = (int64_t)v;
    return 0;
}

int iron__parse_bytes(const char *text, uint64_t max, uint64_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (*end != '\0' || v > (max >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

int64_t iron__env_int(const char *name, int64_t min, int64_t max, int64_t def)
{
    const char *e = getenv(name);
    int64_t v;
    if (!e || !*e)
        return def;
    if (iron__parse_int(e, min, max, &v) == 0)
        return v;
    iron__warn("%s='%s' is not an integer from %" PRId64 " to %" PRId64
               "; using %" PRId64,
               name, e, min, max, def);
    return def;
}

uint64_t iron__env_bytes(const char *name, uint64_t max, uint64_t def)
{
    const char *e = getenv(name);
    uint64_t v;
    if (!e || !*e)
        return def;
    if (iron__parse_bytes(e, max, &v) == 0)
        return v;
    iron__warn("%s='%s' is not a byte count (digits with an optional K, M "
               "or G suffix, at most %" PRIu64 "); using %" PRIu64,
               name, e, max, def);
    return def;
}
