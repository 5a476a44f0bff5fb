/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * scale.c - C port of upstream's scale kernel (iron.kernels.scale):
 * c_out[i] = a_in[i] * factor on int16 (-DBIT_WIDTH=16) or int32 (the
 * default) elements, the factor taken from a one-element int32 tensor.
 * Both entries compute the same thing: the product wraps to the element
 * type, as the AIE's accumulator-to-vector move without saturation does
 * (the multiply is done unsigned so that no factor makes it undefined).
 */
#include <stdint.h>

#ifndef BIT_WIDTH
#define BIT_WIDTH 32
#endif

#if BIT_WIDTH == 16
typedef int16_t sc_elem;
typedef uint16_t sc_uelem;
#elif BIT_WIDTH == 32
typedef int32_t sc_elem;
typedef uint32_t sc_uelem;
#else
#error "BIT_WIDTH must be 16 or 32"
#endif

static void scale(const sc_elem *a, sc_elem *c, int32_t factor, int32_t n)
{
    const sc_uelem f = (sc_uelem)factor;
    for (int32_t i = 0; i < n; i++)
        c[i] = (sc_elem)(sc_uelem)((uint32_t)(sc_uelem)a[i] * (uint32_t)f);
}

void vector_scalar_mul_vector(const sc_elem *a_in, sc_elem *c_out,
                              const int32_t *factor, int32_t N)
{
    scale(a_in, c_out, *factor, N);
}

void vector_scalar_mul_scalar(const sc_elem *a_in, sc_elem *c_out,
                              const int32_t *factor, int32_t N)
{
    scale(a_in, c_out, *factor, N);
}
