// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// passthrough.cc - a line copied with the AIE API, one 512-bit vector per
// step: the vectorized counterpart of the passthrough design's C kernel.
//
// BIT_WIDTH (8, 16 or 32; 8 when not defined) picks the element type, as
// upstream's passthrough build does.  The line may be any length: whole
// vectors are copied with load_v / store_v, the rest element by element.
// The buffers must be aligned as the vector unit wants them (the AIE API's
// vector_ldst_align), which every ObjectFifo buffer is.
#include <stdint.h>

#include <aie_api/aie.hpp>

#ifndef BIT_WIDTH
#define BIT_WIDTH 8
#endif

#if BIT_WIDTH == 8
using elem_t = uint8_t;
#elif BIT_WIDTH == 16
using elem_t = int16_t;
#elif BIT_WIDTH == 32
using elem_t = int32_t;
#else
#error "passthrough.cc: BIT_WIDTH must be 8, 16 or 32"
#endif

// Lanes of a 512-bit vector of T.
template <typename T>
constexpr unsigned lanes_512 = 512 / (8 * sizeof(T));

template <typename T>
static void pass_through_vector(const T *__restrict in, T *__restrict out,
                                int32_t width)
{
    constexpr unsigned N = lanes_512<T>;
    int32_t i = 0;
    for (; i + (int32_t)N <= width; i += N) {
        aie::vector<T, N> v = aie::load_v<N>(in + i);
        aie::store_v(out + i, v);
    }
    for (; i < width; i++)
        out[i] = in[i];
}

extern "C" {

void passThroughLine(const elem_t *in, elem_t *out, int32_t lineWidth)
{
    pass_through_vector<elem_t>(in, out, lineWidth);
}

} // extern "C"
