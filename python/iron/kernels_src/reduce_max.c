/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * reduce_max.c - C port of upstream's reduce_max kernels
 * (iron.kernels.reduce_max and compute_max share it, as upstream's share
 * one source): c_out[0] = the greatest of a_in's input_size elements, on
 * int32 or on bfloat16 (compared as float; the lowest finite bfloat16 for
 * none), and compute_max, the greater of two one-element tensors.
 */
#include <iron/iron_kernel.h>

static int bf16_gt(iron_bf16 a, iron_bf16 b)
{
    return iron_k_bf16_to_float(a) > iron_k_bf16_to_float(b);
}

static void max_i32(const int32_t *a, int32_t *c, int32_t n)
{
    int32_t m = INT32_MIN;
    for (int32_t i = 0; i < n; i++)
        if (a[i] > m)
            m = a[i];
    *c = m;
}

static void max_bf16(const iron_bf16 *a, iron_bf16 *c, int32_t n)
{
    iron_bf16 m = 0xff7fu;   /* -3.3895e38, the lowest finite bfloat16 */
    for (int32_t i = 0; i < n; i++)
        if (bf16_gt(a[i], m))
            m = a[i];
    *c = m;
}

void reduce_max_vector(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    max_i32(a_in, c_out, input_size);
}

void reduce_max_scalar(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    max_i32(a_in, c_out, input_size);
}

void reduce_max_vector_bfloat16(const iron_bf16 *a_in, iron_bf16 *c_out,
                                int32_t input_size)
{
    max_bf16(a_in, c_out, input_size);
}

void reduce_max_scalar_bfloat16(const iron_bf16 *a_in, iron_bf16 *c_out,
                                int32_t input_size)
{
    max_bf16(a_in, c_out, input_size);
}

void compute_max(const int32_t *a_in, const int32_t *b_in, int32_t *c_out)
{
    *c_out = *a_in > *b_in ? *a_in : *b_in;
}

void compute_max_bfloat16(const iron_bf16 *a_in, const iron_bf16 *b_in,
                          iron_bf16 *c_out)
{
    *c_out = bf16_gt(*a_in, *b_in) ? *a_in : *b_in;
}
