/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * vec.h - growing the design's arrays (IRON__VEC) by one element.
 */
#ifndef IRON_DESIGN_VEC_H
#define IRON_DESIGN_VEC_H

#include "core/core.h"

/* Makes room for one more element; returns 0 on OOM (vec unchanged). */
static inline int iron__vec_grow(void **v, int *cap, int n, size_t elem)
{
    if (n < *cap)
        return 1;
    int ncap = *cap ? *cap * 2 : 8;
    void *p = iron__realloc(*v, (size_t)ncap * elem);
    if (!p)
        return 0;
    *v = p;
    *cap = ncap;
    return 1;
}

#define IRON__VEC_PUSH(vec, item)                                             \
    (iron__vec_grow((void **)&(vec).v, &(vec).cap, (vec).n,                   \
                    sizeof(*(vec).v))                                         \
         ? ((vec).v[(vec).n++] = (item), 1)                                   \
         : 0)

#endif
