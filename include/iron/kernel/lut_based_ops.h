// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// lut_based_ops.h - the table-driven bfloat16 functions AIE kernels take
// from the AIE runtime library (getExpBf16, getTanhBf16, getInvBf16,
// lut_map_bf16), written for the host on aie::parallel_lookup and
// aie::linear_approx.  The tables are iron's own, computed here from the
// functions they approximate when a kernel first uses them; they have the
// AIE API's parallel-access layout (each 16-byte chunk twice).
//
// Results (npu1 and npu2 alike):
//   getExpBf16(x)  = bf16(e^i) * bf16(e^(f/256)) as accfloat lanes, where
//                    i + f/256 = floor(256 x) / 256 (x clamped to [-128, 128));
//                    each factor correctly rounded; NaN gives NaN.
//   getTanhBf16(x) = 32 linear segments of width 1/4 over [-4, 4), flat -1 / +1
//                    in the outer two; each segment's line is its chord moved to
//                    halve the largest error (< 0.004 over all bfloat16 inputs).
//   getInvBf16(x)  = 1/x correctly rounded to bfloat16.
// The runtime library's own tables differ in the last bit here and there;
// kernels' tests compare with tolerances that cover both.
#ifndef IRON_LUT_BASED_OPS_H
#define IRON_LUT_BASED_OPS_H

#include <aie_api/aie.hpp>

#include <cmath>
#include <cstdint>

// Where upstream's exp clamps its input (some kernels use the name).
static constexpr float EXP_BF16_CLAMP = 88.0f;

namespace iron_lut_ops {

// Stores value `v` of entry k (2-byte entries) into both copies of a table
// of 16-bit entries laid out for 4 parallel accesses.
inline void put16(int16_t *t, unsigned k, int16_t v)
{
    const unsigned at = (k / 8) * 16 + k % 8;
    t[at] = v;
    t[at + 8] = v;
}

inline int16_t bf16_bits(long double x)
{
    return static_cast<int16_t>(aie::detail::elem::to_bf16(x).bits_);
}

struct exp_tables {
    // e^i for the integer part i = -128..127 (entry i & 255), e^(f/256)
    // for the fraction f = 0..255.
    alignas(aie::vector_decl_align) int16_t i_ab[512], i_cd[512];
    alignas(aie::vector_decl_align) int16_t f_ab[512], f_cd[512];
    exp_tables()
    {
        for (unsigned k = 0; k < 256; k++) {
            const int16_t iv = bf16_bits(std::exp(static_cast<long double>(static_cast<int8_t>(k))));
            const int16_t fv = bf16_bits(std::exp(static_cast<long double>(k) / 256));
            put16(i_ab, k, iv), put16(i_cd, k, iv);
            put16(f_ab, k, fv), put16(f_cd, k, fv);
        }
    }
};

struct tanh_tables {
    // 32 (slope, offset) float pairs for x in [(k - 16) / 4, (k - 15) / 4);
    // the slope is a bfloat16 in the upper half of its float.
    alignas(aie::vector_decl_align) float ab[128], cd[128];
    tanh_tables()
    {
        for (unsigned k = 0; k < 32; k++) {
            float slope = 0, offset = k < 16 ? -1.0f : 1.0f;
            if (k != 0 && k != 31) {
                const long double a = (static_cast<long double>(k) - 16) / 4, b = a + 0.25L;
                const bfloat16 s = aie::detail::elem::to_bf16((std::tanh(b) - std::tanh(a)) / (b - a));
                slope = static_cast<float>(aie::detail::elem::from(s));
                long double lo = 0, hi = 0; // error range of the chord through tanh(a)
                const long double o = std::tanh(a) - slope * a;
                for (int j = 0; j <= 64; j++) {
                    const long double x = a + (b - a) * j / 64;
                    const long double e = std::tanh(x) - (slope * x + o);
                    lo = e < lo ? e : lo, hi = e > hi ? e : hi;
                }
                offset = static_cast<float>(o + (lo + hi) / 2);
            }
            for (unsigned c = 0; c < 2; c++) {
                const unsigned at = (k / 2) * 8 + c * 4 + (k % 2) * 2;
                ab[at] = cd[at] = slope;
                ab[at + 1] = cd[at + 1] = offset;
            }
        }
    }
};

inline const exp_tables &exp_lut()
{
    static const exp_tables t;
    return t;
}

inline const tanh_tables &tanh_lut()
{
    static const tanh_tables t;
    return t;
}

} // namespace iron_lut_ops

// e^x of 16 bfloat16 lanes, as 16 accfloat lanes.  The fraction's lookup
// index has its low bits cleared first, so the result does not depend on
// the core's rounding mode.
inline aie::accum<accfloat, 16> getExpBf16(const aie::vector<bfloat16, 16> &x)
{
    const iron_lut_ops::exp_tables &t = iron_lut_ops::exp_lut();
    using lut_type = aie::lut<4, bfloat16, bfloat16>;
    const lut_type lut_i(256, t.i_ab, t.i_cd), lut_f(256, t.f_ab, t.f_cd);
    const aie::parallel_lookup<uint16, lut_type, aie::lut_oor_policy::truncate> lookup_i(lut_i, 8),
        lookup_f(lut_f, 0);
    aie::vector<uint16, 16> hi, lo;
    for (unsigned i = 0; i < 16; i++) {
        const long double v = std::floor(aie::detail::elem::from(x.lanes_[i]) * 256);
        const int32_t q = std::isnan(v) ? 0 : v < -32768 ? -32768 : v > 32767 ? 32767 : int32_t(v);
        hi.lanes_[i] = static_cast<uint16_t>(q) & 0xff00u;
        lo.lanes_[i] = static_cast<uint16_t>(q) & 0x00ffu;
    }
    const aie::vector<bfloat16, 16> ei = lookup_i.fetch(hi), ef = lookup_f.fetch(lo);
    aie::accum<accfloat, 16> r = aie::mul(ei, ef);
    for (unsigned i = 0; i < 16; i++)
        if (std::isnan(aie::detail::elem::from(x.lanes_[i])))
            r.lanes_[i] = NAN;
    return r;
}

// tanh of 16 bfloat16 lanes (see the top of the file for the segments).
inline aie::vector<bfloat16, 16> getTanhBf16(const aie::vector<bfloat16, 16> &x)
{
    const iron_lut_ops::tanh_tables &t = iron_lut_ops::tanh_lut();
    using lut_type = aie::lut<4, float, bfloat16>;
    const lut_type l(32, t.ab, t.cd);
    const aie::linear_approx<bfloat16, lut_type> approx(l, static_cast<unsigned>(-2), 16, 0);
    return approx.compute(x).template to_vector<bfloat16>();
}

// 1/x correctly rounded to bfloat16.
inline bfloat16 getInvBf16(float x)
{
    return aie::detail::elem::to_bf16(1.0L / x);
}

// Applies f (16 bfloat16 lanes to 16) to n elements, n a multiple of 16.
// K and Prefetch are the runtime library's loop-shape knobs; the host
// computes the same result either way.
template <int K = 4, bool Prefetch = true, typename F>
inline void lut_map_bf16(const bfloat16 *in, bfloat16 *out, int n, F f)
{
    for (int i = 0; i + 16 <= n; i += 16)
        aie::store_v(out + i, f(aie::load_v<16>(in + i)));
}

#endif // IRON_LUT_BASED_OPS_H
