/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * reduce_add.c - C port of upstream's reduce_add kernel
 * (iron.kernels.reduce_add): c_out[0] = the sum of a_in's input_size
 * int32 elements, wrapping modulo 2^32 (summed unsigned, where wrapping is
 * defined; the order of the additions does not matter then).
 */
#include <stdint.h>

static void reduce_add(const int32_t *a, int32_t *c, int32_t n)
{
    uint32_t sum = 0;
    for (int32_t i = 0; i < n; i++)
        sum += (uint32_t)a[i];
    *c = (int32_t)sum;
}

void reduce_add_vector(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    reduce_add(a_in, c_out, input_size);
}

void reduce_add_scalar(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    reduce_add(a_in, c_out, input_size);
}
