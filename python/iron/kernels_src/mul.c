/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * mul.c - C port of upstream's element-wise bfloat16 multiply
 * (iron.kernels.mul): c = a * b on 1024 elements.  The float product of
 * two bfloat16 values is exact (8-bit significands), then rounded to
 * bfloat16, nearest even.
 */
#include <iron/iron_kernel.h>

#define MUL_N 1024

static void mul(const iron_bf16 *a, const iron_bf16 *b, iron_bf16 *c)
{
    for (int i = 0; i < MUL_N; i++)
        c[i] = iron_k_bf16_from_float(iron_k_bf16_to_float(a[i]) *
                                      iron_k_bf16_to_float(b[i]));
}

void eltwise_mul_bf16_vector(const iron_bf16 *a_in, const iron_bf16 *b_in,
                             iron_bf16 *c_out)
{
    mul(a_in, b_in, c_out);
}

void eltwise_mul_bf16_scalar(const iron_bf16 *a_in, const iron_bf16 *b_in,
                             iron_bf16 *c_out)
{
    mul(a_in, b_in, c_out);
}
