/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * alloc.c - the library's allocator wrappers, with per-thread fault
 * injection so tests can prove every failure path returns cleanly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/core.h"

static _Thread_local long fail_at;  /* 0 = never; else countdown */
static _Thread_local long count;
static _Thread_local int exempt;

void iron__alloc_exempt(int delta)
{
    exempt += delta;
}

static int should_fail(void)
{
    if (exempt > 0)
        return 0;
    count++;
    if (fail_at > 0 && --fail_at == 0)
        return 1;
    return 0;
}

long iron__alloc_fail_at(long n)
{
    long c = count;
    fail_at = n > 0 ? n : 0;
    count = 0;
    return c;
}

void *iron__malloc(size_t n)
{
    return should_fail() ? NULL : malloc(n ? n : 1);
}

void *iron__calloc(size_t c, size_t size)
{
    return should_fail() ? NULL : calloc(c ? c : 1, size ? size : 1);
}

void *iron__realloc(void *p, size_t n)
{
    return should_fail() ? NULL : realloc(p, n ? n : 1);
}

char *iron__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = iron__malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void iron__free(void *p)
{
    free(p);
}

void *iron__aligned_alloc(size_t align, size_t n)
{
    void *p = NULL;
    IRON__ASSERT(align >= sizeof(void *) && (align & (align - 1)) == 0,
                 "callers pass a power of two of at least a pointer's "
                 "size, as posix_memalign requires");
    if (should_fail())
        return NULL;
    if (posix_memalign(&p, align, n ? n : 1) != 0)
        return NULL;
    return p;
}

void iron__free_aligned(void *p)
{
    free(p);
}

/* What iron__big_free needs, kept just below the buffer (inside the
 * mapping, which starts at least a header's size earlier). */
typedef struct big_header {
    void *base;
    size_t len;
} big_header;

void *iron__big_alloc(size_t align, size_t n)
{
    if (should_fail() || align < 64 || (align & (align - 1)) != 0 ||
        n > SIZE_MAX - align - 64)
        return NULL;
    size_t len = n + align + 64;
    void *base = mmap(NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
    uintptr_t p = ((uintptr_t)base + sizeof(big_header) + align - 1) &
                  ~(uintptr_t)(align - 1);
    big_header *h = (big_header *)(p - sizeof *h);
    h->base = base;
    h->len = len;
    return (void *)p;
}

void iron__big_free(void *p)
{
    if (!p)
        return;
    const big_header *h = (const big_header *)((uintptr_t)p - sizeof *h);
    munmap(h->base, h->len);
}
