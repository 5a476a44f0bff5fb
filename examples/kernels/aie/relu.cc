// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// relu.cc - ReLU on bfloat16 with the AIE API: each lane the larger of
// itself and zero (aie::max), on the relu design's 1024-element lines.
// No rounding happens: every output lane is an input lane or zero.
#include <stdint.h>

#include <aie_api/aie.hpp>

template <unsigned N>
static void relu_vectorized(const bfloat16 *__restrict a,
                            bfloat16 *__restrict c, int32_t n)
{
    const aie::vector<bfloat16, N> zero = aie::zeros<bfloat16, N>();
    for (int32_t i = 0; i < n; i += N) {
        aie::vector<bfloat16, N> v = aie::load_v<N>(a + i);
        aie::store_v(c + i, aie::max(v, zero));
    }
}

extern "C" {

void bf16_relu(const bfloat16 *a_in, bfloat16 *c_out)
{
    relu_vectorized<32>(a_in, c_out, 1024);
}

} // extern "C"
