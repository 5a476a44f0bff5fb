// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// scale.cc - vector x scalar: c = a * factor, as the vector_scalar design
// calls it (a_in, c_out, factor, N), for int16 and int32 data.
//
// The vector form multiplies into an accumulator (acc32 for int16 data,
// acc64 for int32) and brings the products back with to_vector<T>(shift).
// SCALE_SHIFT (0 when not defined) is that shift; with 0 and the modes a
// core starts a call with (no saturation) the products wrap to T, which
// is what the scalar form and the design's C kernel compute.  N must be a
// multiple of the vector length (32 int16 or 16 int32 lanes).
#include <stdint.h>

#include <aie_api/aie.hpp>

#ifndef SCALE_SHIFT
#define SCALE_SHIFT 0
#endif

template <typename T, unsigned N, typename Acc>
static void scale_vectorized(const T *__restrict a, T *__restrict c,
                             T factor, int32_t n)
{
    for (int32_t i = 0; i < n; i += N) {
        aie::vector<T, N> va = aie::load_v<N>(a + i);
        aie::accum<Acc, N> prod = aie::mul(va, factor);
        aie::store_v(c + i, prod.template to_vector<T>(SCALE_SHIFT));
    }
}

// The same product in plain C++: computed in 64 bits, shifted (flooring,
// as the core's default rounding does) and wrapped to T.
template <typename T>
static void scale_scalar(const T *a, T *c, T factor, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        int64_t p = (int64_t)a[i] * (int64_t)factor;
        c[i] = (T)(uint64_t)(p >> SCALE_SHIFT);
    }
}

extern "C" {

void vector_scalar_mul_int16_vector(const int16_t *a_in, int16_t *c_out,
                                    const int32_t *factor, int32_t N)
{
    scale_vectorized<int16_t, 32, acc32>(a_in, c_out, (int16_t)*factor, N);
}

void vector_scalar_mul_int16_scalar(const int16_t *a_in, int16_t *c_out,
                                    const int32_t *factor, int32_t N)
{
    scale_scalar<int16_t>(a_in, c_out, (int16_t)*factor, N);
}

void vector_scalar_mul_int32_vector(const int32_t *a_in, int32_t *c_out,
                                    const int32_t *factor, int32_t N)
{
    scale_vectorized<int32_t, 16, acc64>(a_in, c_out, *factor, N);
}

void vector_scalar_mul_int32_scalar(const int32_t *a_in, int32_t *c_out,
                                    const int32_t *factor, int32_t N)
{
    scale_scalar<int32_t>(a_in, c_out, *factor, N);
}

} // extern "C"
