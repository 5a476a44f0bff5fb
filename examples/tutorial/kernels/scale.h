/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* scale.h - shared by the kernels in this folder (recipe_kernel_files.c). */
#ifndef TUTORIAL_SCALE_H
#define TUTORIAL_SCALE_H

#include <stdint.h>

#define SCALE_FACTOR 3

static inline int32_t scale_one(int32_t x)
{
    return SCALE_FACTOR * x;
}

#endif
