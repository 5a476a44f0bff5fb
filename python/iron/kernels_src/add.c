/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * add.c - C port of upstream's element-wise bfloat16 add
 * (iron.kernels.add): c = a + b on 1024 elements, the size upstream's
 * kernel is built for.  Each sum is formed in float (exact for two
 * bfloat16 values' widening) and rounded to bfloat16, nearest even.
 */
#include <iron/iron_kernel.h>

#define ADD_N 1024

static void add(const iron_bf16 *a, const iron_bf16 *b, iron_bf16 *c)
{
    for (int i = 0; i < ADD_N; i++)
        c[i] = iron_k_bf16_from_float(iron_k_bf16_to_float(a[i]) +
                                      iron_k_bf16_to_float(b[i]));
}

void eltwise_add_bf16_vector(const iron_bf16 *a_in, const iron_bf16 *b_in,
                             iron_bf16 *c_out)
{
    add(a_in, b_in, c_out);
}

void eltwise_add_bf16_scalar(const iron_bf16 *a_in, const iron_bf16 *b_in,
                             iron_bf16 *c_out)
{
    add(a_in, b_in, c_out);
}
