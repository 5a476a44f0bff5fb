/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* add_one: out = in + 1 on int32 (wrapping). */
#include <stdint.h>

void add_one(const int32_t *in, int32_t *out, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        out[i] = (int32_t)((uint32_t)in[i] + 1u);
}
