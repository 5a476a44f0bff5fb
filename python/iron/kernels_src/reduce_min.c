/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * reduce_min.c - C port of upstream's reduce_min kernel
 * (iron.kernels.reduce_min): c_out[0] = the least of a_in's input_size
 * int32 elements (INT32_MAX for none).
 */
#include <stdint.h>

static void reduce_min(const int32_t *a, int32_t *c, int32_t n)
{
    int32_t m = INT32_MAX;
    for (int32_t i = 0; i < n; i++)
        if (a[i] < m)
            m = a[i];
    *c = m;
}

void reduce_min_vector(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    reduce_min(a_in, c_out, input_size);
}

void reduce_min_scalar(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    reduce_min(a_in, c_out, input_size);
}
