/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* axpb: out = in * a + b on int32. */
#include <stdint.h>

void axpb(const int32_t *in, int32_t *out, int32_t n, int32_t a, int32_t b)
{
    for (int32_t i = 0; i < n; i++)
        out[i] = in[i] * a + b;
}
