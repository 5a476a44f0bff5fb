/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_core.c - core internals: failing with a message that wraps the
 * previous one, context prefixes, and the growable string.
 */
#include "core/core.h"
#include "test.h"

TEST(core_fail_may_wrap_the_current_message)
{
    iron__fail(IRON_EINVAL, "inner %d", 7);
    ASSERT_EQ(iron__fail(IRON_EBOUNDS, "outer: %s (again: %s)",
                         iron_last_error(), iron_last_error()),
              IRON_EBOUNDS);
    ASSERT_STR_EQ(iron_last_error(), "outer: inner 7 (again: inner 7)");
    iron__fail_context(IRON_EBOUNDS, "ctx %s", "x");
    ASSERT_STR_EQ(iron_last_error(), "ctx x: outer: inner 7 (again: inner 7)");
}

TEST(core_str_grows_and_hands_over)
{
    iron__str s = { 0 };
    ASSERT_STR_EQ(iron__str_get(&s), "");
    for (int i = 0; i < 1000; i++)
        iron__str_printf(&s, "%d,", i % 10);
    ASSERT_EQ(s.len, 2000);
    char *p = iron__str_take(&s);
    ASSERT(p && p[0] == '0' && p[1999] == ',');
    ASSERT_EQ(s.len, 0);
    iron__free(p);
    iron__alloc_fail_at(1);
    iron__str_append(&s, "x");
    iron__alloc_fail_at(0);
    ASSERT(s.oom);
    iron__str_append(&s, "y");
    ASSERT_STR_EQ(iron__str_get(&s), "");
    ASSERT(iron__str_take(&s) == NULL);
}

TEST(core_alloc_exempt_neither_fails_nor_counts)
{
    iron__alloc_fail_at(1);
    iron__alloc_exempt(1);
    iron__alloc_exempt(1);   /* nests */
    void *a = iron__malloc(8);
    iron__alloc_exempt(-1);
    void *b = iron__malloc(8);
    iron__alloc_exempt(-1);
    ASSERT(a != NULL);
    ASSERT(b != NULL);
    void *c = iron__malloc(8);   /* the first counted one */
    ASSERT(c == NULL);
    ASSERT_EQ(iron__alloc_fail_at(0), 1);
    iron__free(a);
    iron__free(b);
}

TEST(core_big_alloc_is_aligned_zeroed_and_given_back)
{
    const size_t sizes[] = { 1, 64 << 10, (3 << 20) + 5 };
    const size_t aligns[] = { 64, 4096, 2 << 20 };
    for (int s = 0; s < 3; s++)
        for (int a = 0; a < 3; a++) {
            unsigned char *p = iron__big_alloc(aligns[a], sizes[s]);
            ASSERT(p != NULL);
            ASSERT_EQ((uintptr_t)p % aligns[a], 0);
            for (size_t i = 0; i < sizes[s]; i += 4093)
                ASSERT_EQ(p[i], 0);
            ASSERT_EQ(p[sizes[s] - 1], 0);
            memset(p, 0xab, sizes[s]);
            iron__big_free(p);
        }
    iron__big_free(NULL);
    /* Not a power of two, too small, too big: refused. */
    ASSERT(iron__big_alloc(96, 100) == NULL);
    ASSERT(iron__big_alloc(32, 100) == NULL);
    ASSERT(iron__big_alloc(64, SIZE_MAX - 10) == NULL);
    /* Fault injection reaches it like any allocation. */
    iron__alloc_fail_at(1);
    ASSERT(iron__big_alloc(64, 1 << 20) == NULL);
    iron__alloc_fail_at(0);
}
