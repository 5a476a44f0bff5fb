/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * shim.c - the kernel runtime shim's object and text, built into the
 * library (compile layer; see shim.h).  The Makefile generates the two
 * included files from src/compile/shim/kernel_rt.c: the object compiled
 * with the library's compiler (as byte values) and the source (as a
 * string literal), and the compiler's target (-dumpmachine).
 */
#include <ctype.h>
#include <string.h>

#include "compile/shim.h"

static const unsigned char object[] = {
#include "kernel_rt_o.inc"
};

static const char text[] =
#include "kernel_rt_c.inc"
    ;

static const char build_target[] =
#include "kernel_rt_target.inc"
    ;

const char *iron__shim_text(size_t *len)
{
    *len = sizeof text - 1;
    return text;
}

/* A target triple's architecture (before the first '-') and its system
 * (the last two fields: "linux-gnu"), so that x86_64-linux-gnu (gcc)
 * and x86_64-pc-linux-gnu (clang) agree.  Empty on anything shorter. */
static void split_target(const char *t, size_t n, char *arch, char *sys,
                         size_t cap)
{
    arch[0] = sys[0] = '\0';
    const char *first = memchr(t, '-', n);
    if (!first)
        return;
    /* Back from the end over at most two dashes, the first one included. */
    const char *s = t + n;
    int dashes = 0;
    for (const char *p = t + n; p > first && dashes < 2;)
        if (*--p == '-') {
            dashes++;
            s = p + 1;
        }
    size_t alen = (size_t)(first - t), slen = (size_t)(t + n - s);
    if (alen == 0 || alen >= cap || slen == 0 || slen >= cap)
        return;
    memcpy(arch, t, alen);
    arch[alen] = '\0';
    memcpy(sys, s, slen);
    sys[slen] = '\0';
}

static int same_target(const char *a, size_t alen, const char *b,
                       size_t blen)
{
    char aa[64], as[64], ba[64], bs[64];
    split_target(a, alen, aa, as, sizeof aa);
    split_target(b, blen, ba, bs, sizeof ba);
    return aa[0] && as[0] && strcmp(aa, ba) == 0 && strcmp(as, bs) == 0;
}

/* Whether a flag word asks for another ABI than the compiler's default. */
static int abi_flag(const char *w, size_t n)
{
    static const char *const exact[] = { "-m32", "-mx32", "-m16", "-target" };
    static const char *const prefix[] = { "-mabi=", "--target=" };
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (n == strlen(exact[i]) && memcmp(w, exact[i], n) == 0)
            return 1;
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
        if (n >= strlen(prefix[i]) && memcmp(w, prefix[i], strlen(prefix[i])) == 0)
            return 1;
    return 0;
}

const void *iron__shim_object(const char *identity, const char *cflags,
                              size_t *len)
{
    *len = 0;
    if (!identity)
        return NULL;
    /* The target is the identity's last word. */
    size_t n = strlen(identity);
    while (n > 0 && isspace((unsigned char)identity[n - 1]))
        n--;
    size_t start = n;
    while (start > 0 && !isspace((unsigned char)identity[start - 1]))
        start--;
    if (!same_target(identity + start, n - start, build_target,
                     sizeof build_target - 1))
        return NULL;
    for (const char *p = cflags ? cflags : ""; *p;) {
        while (isspace((unsigned char)*p))
            p++;
        const char *w = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (p > w && abi_flag(w, (size_t)(p - w)))
            return NULL;
    }
    *len = sizeof object;
    return object;
}
