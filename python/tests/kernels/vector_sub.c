/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* eltwise_sub: c = a - b on int32, wrapping (computed unsigned so that
 * no input makes it undefined). */
#include <stdint.h>

void eltwise_sub(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        c[i] = (int32_t)((uint32_t)a[i] - (uint32_t)b[i]);
}
