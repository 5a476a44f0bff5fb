/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* row_wise_bias_add_f32_f32: out = in + bias[column] on a DIM_m x DIM_n
 * float tile (DIM_m, DIM_n given with -D). */
#include <stdint.h>

#if !defined(DIM_m) || !defined(DIM_n)
#error "compile with -DDIM_m=... -DDIM_n=..."
#endif

void row_wise_bias_add_f32_f32(const float *in, const float *bias, float *out)
{
    for (int i = 0; i < DIM_m; i++)
        for (int j = 0; j < DIM_n; j++)
            out[i * DIM_n + j] = in[i * DIM_n + j] + bias[j];
}
