/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vector_scalar_mul_int16: c = a * factor[0], wrapping to int16. */
#include <stdint.h>

void vector_scalar_mul_int16(const int16_t *a_in, int16_t *c_out,
                             const int32_t *factor, int32_t n)
{
    const uint32_t scale = (uint32_t)factor[0];
    for (int32_t i = 0; i < n; i++)
        c_out[i] = (int16_t)(uint16_t)((uint32_t)a_in[i] * scale);
}
