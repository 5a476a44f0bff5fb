/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * str.c - a growable string for building messages, design dumps and
 * generated source.
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static int reserve(iron__str *s, size_t extra)
{
    if (s->oom)
        return 0;
    if (s->len + extra + 1 <= s->cap)
        return 1;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->len + extra + 1)
        cap *= 2;
    char *p = iron__realloc(s->p, cap);
    if (!p) {
        s->oom = 1;
        return 0;
    }
    s->p = p;
    s->cap = cap;
    return 1;
}

void iron__str_vprintf(iron__str *s, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || !reserve(s, (size_t)n))
        return;
    vsnprintf(s->p + s->len, (size_t)n + 1, fmt, ap);
    s->len += (size_t)n;
}

void iron__str_printf(iron__str *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    iron__str_vprintf(s, fmt, ap);
    va_end(ap);
}

void iron__str_append(iron__str *s, const char *text)
{
    size_t n = strlen(text);
    if (!reserve(s, n))
        return;
    memcpy(s->p + s->len, text, n + 1);
    s->len += n;
}

const char *iron__str_get(const iron__str *s)
{
    return s->p && !s->oom ? s->p : "";
}

size_t iron__lines_fit(const char *text, size_t len, size_t max, int *left)
{
    size_t keep = len;
    if (len > max) {
        /* The last line break at or before max ends the front. */
        keep = 0;
        for (size_t i = 1; i <= max; i++)
            if (text[i] == '\n')
                keep = i;
    }
    if (left) {
        /* A line starts after each break past the front (or, when nothing
         * is kept, at the start). */
        int n = keep == 0 && len > 0;
        for (size_t i = keep; i < len; i++)
            n += text[i] == '\n';
        *left = n;
    }
    return keep;
}

char *iron__str_take(iron__str *s)
{
    char *p = s->oom ? NULL : s->p;
    if (!p && !s->oom)
        p = iron__strdup("");
    if (s->oom)
        iron__free(s->p);
    s->p = NULL;
    s->len = s->cap = 0;
    s->oom = 0;
    return p;
}

void iron__str_free(iron__str *s)
{
    iron__free(s->p);
    s->p = NULL;
    s->len = s->cap = 0;
    s->oom = 0;
}
