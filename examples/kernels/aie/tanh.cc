// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// tanh.cc - tanh on bfloat16, 16 lanes at a time, the building block of
// the gelu / silu kernels.  npu1 (AIE2) has no tanh unit: 32 linear
// segments read from a table (getTanhBf16 from lut_based_ops.h).  npu2
// (AIE2P) has one: aie::tanh of the lanes widened to float.
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>
#include <stdint.h>

extern "C" {

// out[i] = tanh(in[i]) for n elements, n a multiple of 16.
void tanh_bf16(bfloat16 *__restrict in, bfloat16 *__restrict out, int32_t n)
{
    aie::set_rounding(aie::rounding_mode::conv_even);
    auto it_in = aie::cbegin_vector<16>(in);
    auto it_out = aie::begin_vector<16>(out);
    for (int32_t i = 0; i < n; i += 16) {
        aie::vector<bfloat16, 16> x = *it_in++;
#if __AIE_ARCH__ == 21
        const aie::accum<accfloat, 16> wide(x);
        *it_out++ = aie::tanh<bfloat16>(wide.to_vector<float>());
#else
        *it_out++ = getTanhBf16(x);
#endif
    }
}

} // extern "C"
