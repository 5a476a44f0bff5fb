// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// calib.cc - the kernels the timing model is calibrated with: the unit
// tests (tests/unit/test_timing_kernel.c) build each entry as a timed
// build and compare its modelled cycles with the measurements the model
// was fitted to, and make bench's timing anchors (anchors.c) run them in
// designs.  Written for these: the same work as the published measured
// kernels -- an int16 vector times a scalar, 1024 elements per call, three
// ways, and an int16 matrix product with 4x4x4 mmul blocks -- in this
// project's own code.
#include <stdint.h>

#include <aie_api/aie.hpp>

namespace {

constexpr int lanes = 32;   // int16 lanes in one 512-bit register

} // namespace

extern "C" {

// Vectorized, and marked for software pipelining.
void vsm_pipelined(const int16_t *__restrict in, int16_t *__restrict out,
                   int32_t factor, int32_t n)
{
    const int16_t f = static_cast<int16_t>(factor);
    for (int32_t done = 0; done < n; done += lanes)
        chess_prepare_for_pipelining chess_loop_range(16, ) {
            aie::vector<int16_t, lanes> x = aie::load_v<lanes>(in + done);
            aie::accum<acc32, lanes> y = aie::mul(x, f);
            aie::store_v(out + done, y.to_vector<int16_t>(0));
        }
}

// The same loop without the hint.
void vsm_plain(const int16_t *__restrict in, int16_t *__restrict out,
               int32_t factor, int32_t n)
{
    const int16_t f = static_cast<int16_t>(factor);
    for (int32_t done = 0; done < n; done += lanes) {
        aie::vector<int16_t, lanes> x = aie::load_v<lanes>(in + done);
        aie::accum<acc32, lanes> y = aie::mul(x, f);
        aie::store_v(out + done, y.to_vector<int16_t>(0));
    }
}

// One element at a time.
void vsm_scalar(const int16_t *__restrict in, int16_t *__restrict out,
                int32_t factor, int32_t n)
{
    for (int32_t k = 0; k < n; k++)
        out[k] = static_cast<int16_t>(in[k] * factor);
}

#if __AIE_ARCH__ == 20
// (AIE2 only: AIE2P multiplies int16 in 4x4x8 blocks.)
// out (m x n) = a (m x k) * b (k x n), int16, every matrix stored as
// 4x4 blocks (block-row-major, each block row-major), m and n multiples
// of 8, k of 4.  Two by two output blocks per pass keep four
// accumulators busy, as kernels for the hardware do.
void mm_i16(const int16_t *__restrict a, const int16_t *__restrict b,
            int16_t *__restrict out, int32_t m, int32_t k, int32_t n)
{
    using MM = aie::mmul<4, 4, 4, int16_t, int16_t>;
    const int32_t rows = m / 4, inner = k / 4, cols = n / 4;
    for (int32_t r = 0; r < rows; r += 2)
        for (int32_t c = 0; c < cols; c += 2)
            chess_prepare_for_pipelining {
                MM acc00, acc01, acc10, acc11;
                const int16_t *pa0 = a + (r * inner) * MM::size_A;
                const int16_t *pa1 = a + ((r + 1) * inner) * MM::size_A;
                for (int32_t i = 0; i < inner; i++)
                    chess_prepare_for_pipelining {
                        auto a0 = aie::load_v<MM::size_A>(pa0 + i * MM::size_A);
                        auto a1 = aie::load_v<MM::size_A>(pa1 + i * MM::size_A);
                        auto b0 = aie::load_v<MM::size_B>(b + (i * cols + c) * MM::size_B);
                        auto b1 = aie::load_v<MM::size_B>(b + (i * cols + c + 1) * MM::size_B);
                        acc00.mac(a0, b0);
                        acc01.mac(a0, b1);
                        acc10.mac(a1, b0);
                        acc11.mac(a1, b1);
                    }
                int16_t *o0 = out + (r * cols + c) * MM::size_C;
                int16_t *o1 = out + ((r + 1) * cols + c) * MM::size_C;
                aie::store_v(o0, acc00.to_vector<int16_t>(0));
                aie::store_v(o0 + MM::size_C, acc01.to_vector<int16_t>(0));
                aie::store_v(o1, acc10.to_vector<int16_t>(0));
                aie::store_v(o1 + MM::size_C, acc11.to_vector<int16_t>(0));
            }
}
#endif

} // extern "C"
