/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* eltwise_add_bf16_vector: c = a + b on 1024 bfloat16 (float add, one
 * rounding to nearest even). */
#include <iron/iron_kernel.h>

void eltwise_add_bf16_vector(const uint16_t *a_in, const uint16_t *b_in,
                             uint16_t *c_out)
{
    for (int i = 0; i < 1024; i++)
        c_out[i] = iron_k_bf16_from_float(iron_k_bf16_to_float(a_in[i]) +
                                          iron_k_bf16_to_float(b_in[i]));
}
