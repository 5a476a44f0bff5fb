// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exp.cc - e^x on bfloat16, 16 lanes at a time, the building block of the
// softmax kernels: the input's integer and fractional parts each select
// e^part from a table (getExpBf16 from lut_based_ops.h, on npu1 and npu2
// alike), the two are multiplied in accfloat and the product rounded to
// bfloat16 to nearest even.  Built for the host by iron, written as a
// kernel for the AIE compilers is written.
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>
#include <stdint.h>

extern "C" {

// out[i] = e^in[i] for n elements, n a multiple of 16.
void exp_bf16(bfloat16 *__restrict in, bfloat16 *__restrict out, int32_t n)
{
    // The core resets to floor rounding; the narrowing of the product
    // should round to nearest.
    aie::set_rounding(aie::rounding_mode::conv_even);
    auto it_in = aie::cbegin_vector<16>(in);
    auto it_out = aie::begin_vector<16>(out);
    for (int32_t i = 0; i < n; i += 16) {
        aie::vector<bfloat16, 16> x = *it_in++;
        aie::accum<accfloat, 16> e = getExpBf16(x);
        *it_out++ = e.to_vector<bfloat16>();
    }
}

} // extern "C"
