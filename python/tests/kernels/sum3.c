/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* sum3_line: out = a + b + c, element by element, on int32 lines (the
 * vertical 3-tap filter of the sliding-window program). */
#include <stdint.h>

void sum3_line(const int32_t *a, const int32_t *b, const int32_t *c,
               int32_t *out, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        out[i] = a[i] + b[i] + c[i];
}
