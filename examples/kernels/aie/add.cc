// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// add.cc - elementwise c = a + b with the AIE API: bfloat16 on fixed
// 1024-element tiles (the eltwise_add design's kernel), and int32 / int16
// on n elements (the vector_op design's).
//
// Integer lanes wrap, as aie::add does.  bfloat16 lanes are added as the
// vector unit adds them and rounded back to bfloat16 (see
// docs/kernels.md for how close that is to a float add).  n must be a
// multiple of the vector length (16 int32 or 32 int16 lanes).
#include <stdint.h>

#include <aie_api/aie.hpp>

template <typename T, unsigned N>
static void add_vectorized(const T *__restrict a, const T *__restrict b,
                           T *__restrict c, int32_t n)
{
    for (int32_t i = 0; i < n; i += N) {
        aie::vector<T, N> va = aie::load_v<N>(a + i);
        aie::vector<T, N> vb = aie::load_v<N>(b + i);
        aie::store_v(c + i, aie::add(va, vb));
    }
}

// Integer add in unsigned arithmetic: wraps, never undefined.
template <typename T, typename U>
static void add_scalar_int(const T *a, const T *b, T *c, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        c[i] = (T)(U)((U)a[i] + (U)b[i]);
}

extern "C" {

void eltwise_add_bf16_vector(const bfloat16 *a_in, const bfloat16 *b_in,
                             bfloat16 *c_out)
{
    add_vectorized<bfloat16, 16>(a_in, b_in, c_out, 1024);
}

void eltwise_add_bf16_scalar(const bfloat16 *a_in, const bfloat16 *b_in,
                             bfloat16 *c_out)
{
    for (int i = 0; i < 1024; i++)
        c_out[i] = (bfloat16)((float)a_in[i] + (float)b_in[i]);
}

void eltwise_add_int32_vector(const int32_t *a, const int32_t *b,
                              int32_t *c, int32_t n)
{
    add_vectorized<int32_t, 16>(a, b, c, n);
}

void eltwise_add_int32_scalar(const int32_t *a, const int32_t *b,
                              int32_t *c, int32_t n)
{
    add_scalar_int<int32_t, uint32_t>(a, b, c, n);
}

void eltwise_add_int16_vector(const int16_t *a, const int16_t *b,
                              int16_t *c, int32_t n)
{
    add_vectorized<int16_t, 32>(a, b, c, n);
}

void eltwise_add_int16_scalar(const int16_t *a, const int16_t *b,
                              int16_t *c, int32_t n)
{
    add_scalar_int<int16_t, uint16_t>(a, b, c, n);
}

} // extern "C"
