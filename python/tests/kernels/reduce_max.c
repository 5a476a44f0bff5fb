/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* reduce_max_vector (the maximum of a piece) and compute_max (the larger
 * of two values) on int32. */
#include <stdint.h>

void reduce_max_vector(const int32_t *in, int32_t *out, int32_t input_size)
{
    int32_t running_max = INT32_MIN;
    for (int32_t i = 0; i < input_size; i++)
        if (in[i] > running_max)
            running_max = in[i];
    *out = running_max;
}

void compute_max(const int32_t *in1, const int32_t *in2, int32_t *out)
{
    *out = *in1 > *in2 ? *in1 : *in2;
}
