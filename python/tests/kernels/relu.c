/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bf16_relu: c = max(a, 0) on 1024 bfloat16 (the input's bits or +0). */
#include <iron/iron_kernel.h>

void bf16_relu(const uint16_t *a_in, uint16_t *c_out)
{
    for (int i = 0; i < 1024; i++)
        c_out[i] = iron_k_bf16_to_float(a_in[i]) > 0.0f ? a_in[i]
                                                        : (uint16_t)0;
}
