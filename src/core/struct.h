/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * struct.h - versioned public structs.  A struct the caller passes in
 * begins with size_t size = sizeof(the struct as the caller's header
 * declared it).  The library takes any size at least that of the struct's
 * first version: fields past the caller's size read as 0 (a program built
 * against an older header keeps working), and a caller's struct larger
 * than ours (a newer header) is read up to the fields we know.  The same
 * rule everywhere, so that adding a field never breaks a caller.
 */
#ifndef IRON_CORE_STRUCT_H
#define IRON_CORE_STRUCT_H

#include <stddef.h>

#include "iron/iron.h"

/* The size of a struct's first version, which ended at field `last`. */
#define IRON__FIRST_SIZE(type, last)                                          \
    (offsetof(type, last) + sizeof(((type *)0)->last))

/* Whether the caller's struct *p (of `type`) has `field`. */
#define IRON__HAS_FIELD(p, type, field)                                       \
    ((p)->size >= offsetof(type, field) + sizeof (p)->field)

/* IRON_EINVAL when size is below first: "WHAT.size is N; expected at
 * least F (its first version's size; set it to sizeof(TYPE) = S)". */
iron_status iron__struct_check(const char *what, const char *type,
                               size_t size, size_t first, size_t ours);

/* *dst (ours bytes) = the caller's struct src (its size field says how
 * big), fields it lacks zeroed. */
void iron__struct_read(void *dst, size_t ours, const void *src,
                       size_t size);

#endif
