// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// reduce_max.cc - the maximum of a buffer with the AIE API, as the
// vector_reduce_max design calls it: reduce_max_vector(in, out, n) writes
// max(in[0 .. n)) to out[0]; compute_max(a, b, out) writes the larger of
// a[0] and b[0].  int32 entries, and bfloat16 ones with a _bfloat16
// suffix.
//
// The vector form keeps a vector of running maxima (one per lane), folds
// each loaded vector into it with aie::max, and reduces the lanes with
// aie::reduce_max at the end.  n must be a multiple of the vector length
// (16 int32 or 32 bfloat16 lanes).
#include <stdint.h>

#include <aie_api/aie.hpp>

template <typename T, unsigned N>
static void reduce_max_vectorized(const T *__restrict in, T *__restrict out,
                                  int32_t n, T lowest)
{
    aie::vector<T, N> running = aie::broadcast<T, N>(lowest);
    for (int32_t i = 0; i < n; i += N)
        running = aie::max(running, aie::load_v<N>(in + i));
    *out = aie::reduce_max(running);
}

// Ordered comparisons, one per element type: bfloat16 compares as the
// float it widens to exactly.
static bool greater(int32_t a, int32_t b) { return a > b; }
static bool greater(bfloat16 a, bfloat16 b) { return (float)a > (float)b; }

template <typename T>
static void reduce_max_scalar_impl(const T *in, T *out, int32_t n, T lowest)
{
    T running = lowest;
    for (int32_t i = 0; i < n; i++)
        if (greater(in[i], running))
            running = in[i];
    *out = running;
}

// The lowest bfloat16, -infinity: what the design's buffers start with.
static bfloat16 bf16_lowest()
{
    return bfloat16(-__builtin_inff());
}

extern "C" {

void reduce_max_vector(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    reduce_max_vectorized<int32_t, 16>(a_in, c_out, input_size, INT32_MIN);
}

void reduce_max_scalar(const int32_t *a_in, int32_t *c_out,
                       int32_t input_size)
{
    reduce_max_scalar_impl<int32_t>(a_in, c_out, input_size, INT32_MIN);
}

void compute_max(const int32_t *a_in, const int32_t *b_in, int32_t *c_out)
{
    *c_out = greater(*a_in, *b_in) ? *a_in : *b_in;
}

void reduce_max_vector_bfloat16(const bfloat16 *a_in, bfloat16 *c_out,
                                int32_t input_size)
{
    reduce_max_vectorized<bfloat16, 32>(a_in, c_out, input_size,
                                        bf16_lowest());
}

void reduce_max_scalar_bfloat16(const bfloat16 *a_in, bfloat16 *c_out,
                                int32_t input_size)
{
    reduce_max_scalar_impl<bfloat16>(a_in, c_out, input_size, bf16_lowest());
}

void compute_max_bfloat16(const bfloat16 *a_in, const bfloat16 *b_in,
                          bfloat16 *c_out)
{
    *c_out = greater(*a_in, *b_in) ? *a_in : *b_in;
}

} // extern "C"
