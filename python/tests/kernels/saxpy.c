/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* saxpy_bf16: z = a * x + y; the product and the sum each rounded to
 * float (build with -ffp-contract=off), the result to bfloat16. */
#include <iron/iron_kernel.h>

void saxpy_bf16(const uint16_t *x, const uint16_t *y, uint16_t *z, float a,
                int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        float ax = a * iron_k_bf16_to_float(x[i]);
        z[i] = iron_k_bf16_from_float(ax + iron_k_bf16_to_float(y[i]));
    }
}
