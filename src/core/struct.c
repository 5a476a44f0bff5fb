/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * struct.c - the one size rule of versioned public structs (struct.h).
 */
#include <string.h>

#include "core/core.h"
#include "core/struct.h"

iron_status iron__struct_check(const char *what, const char *type,
                               size_t size, size_t first, size_t ours)
{
    if (size >= first)
        return IRON_OK;
    return iron__fail(IRON_EINVAL,
                      "%s.size is %zu; expected at least %zu (its first "
                      "version's size; set it to sizeof(%s) = %zu)",
                      what, size, first, type, ours);
}

void iron__struct_read(void *dst, size_t ours, const void *src, size_t size)
{
    memset(dst, 0, ours);
    memcpy(dst, src, size < ours ? size : ours);
}
