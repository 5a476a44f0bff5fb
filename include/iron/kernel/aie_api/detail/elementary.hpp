// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// elementary.hpp - the AIE API's elementary functions on the host: sqrt,
// inv, invsqrt (AIE2 and AIE2P), tanh and exp2 (AIE2P only), and refusals
// naming what the AIE API does not offer on AIE2 / AIE2P (sin, cos, ...).
//
// The hardware's approximations are not documented bit for bit (AIE2P's
// tanh / exp2 / inv / invsqrt instructions; AIE2's inv / invsqrt are short
// Newton iterations in bfloat16).  Every function here therefore returns
// the exact result correctly rounded to the result type (round to nearest,
// ties to even; subnormal results kept, not flushed; NaN in gives a quiet
// NaN out), which is within the hardware's own error of what the device
// computes.  The vector forms, like the rest of the vector datapath
// (accum.hpp), flush subnormal inputs and results to zero of the same
// sign; the scalar forms keep them.  These results are therefore not
// bit-exact with the device's, only within its error.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "config.hpp"
#include "bfloat16.hpp"
#include "vector.hpp"
#include "accum.hpp"

namespace aie::detail::elem {

// long double -> float rounded to odd: truncate, and set the last bit if
// anything was cut.  Rounding that float to bfloat16 (8 significant bits,
// far fewer than float's 24) then gives the correctly rounded bfloat16,
// without the error of rounding twice to nearest.
inline float round_odd(long double x)
{
    float f = static_cast<float>(x);
    if (std::isnan(x) || static_cast<long double>(f) == x)
        return f;
    if (std::fabs(static_cast<long double>(f)) > std::fabs(x))
        f = std::nextafter(f, 0.0f);
    return std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
}

inline bfloat16 to_bf16(long double x)
{
    return bfloat16::from_bits(f32_to_bf16_rne(round_odd(x)));
}

inline long double from(float x) { return x; }
inline long double from(bfloat16 x) { return std::bit_cast<float>(uint32_t(x.bits_) << 16); }

// Each function once per result type: float results come from IEEE float
// arithmetic where that is already correctly rounded (1/x, sqrt), from a
// long double evaluation otherwise; bfloat16 ones through round_odd.
enum class fn { sqrt, inv, invsqrt };

template <fn F> inline long double eval(long double x)
{
    if constexpr (F == fn::sqrt)
        return std::sqrt(x);
    else if constexpr (F == fn::inv)
        return 1.0L / x;
    else
        return 1.0L / std::sqrt(x);
}

template <fn F> inline float apply(float x)
{
    if constexpr (F == fn::sqrt)
        return std::sqrt(x);
    else if constexpr (F == fn::inv)
        return 1.0f / x;
    else
        return static_cast<float>(eval<F>(x));
}

template <fn F> inline bfloat16 apply(bfloat16 x) { return to_bf16(eval<F>(from(x))); }

template <typename T>
inline constexpr bool is_real_float_v =
    std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;

// Subnormal to zero of the same sign (the vector datapath's rule).
inline float flush(float x) { return ftz(x); }
inline bfloat16 flush(bfloat16 x)
{
    return (x.bits_ & 0x7f80u) == 0 ? bfloat16::from_bits(x.bits_ & 0x8000u) : x;
}

template <fn F, typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> map(const vector<T, N> &v)
{
    vector<T, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = flush(apply<F>(flush(v.lanes_[i])));
    return r;
}

// tanh / exp2 lanes: float in, bfloat16 out, both flushed.
template <typename F>
IRON_AIE_INLINE bfloat16 lane_f2b(float x, F f)
{
    return flush(to_bf16(f(static_cast<long double>(flush(x)))));
}

// tanh and exp2 run 16 lanes at a time on AIE2P: fewer lanes must divide
// 16, more must be a multiple of it (the AIE API's own rule).
template <unsigned N>
inline constexpr bool lanes16_ok = N > 0 && (N < 16 ? 16 % N == 0 : N % 16 == 0);

} // namespace aie::detail::elem

namespace aie {

// ---- sqrt, inv, invsqrt: float and bfloat16, scalar and vector ------------

IRON_AIE_INLINE float sqrt(float a) { return detail::elem::apply<detail::elem::fn::sqrt>(a); }
IRON_AIE_INLINE bfloat16 sqrt(bfloat16 a) { return detail::elem::apply<detail::elem::fn::sqrt>(a); }
IRON_AIE_INLINE float inv(float a) { return detail::elem::apply<detail::elem::fn::inv>(a); }
IRON_AIE_INLINE bfloat16 inv(bfloat16 a) { return detail::elem::apply<detail::elem::fn::inv>(a); }
IRON_AIE_INLINE float invsqrt(float a) { return detail::elem::apply<detail::elem::fn::invsqrt>(a); }
IRON_AIE_INLINE bfloat16 invsqrt(bfloat16 a) { return detail::elem::apply<detail::elem::fn::invsqrt>(a); }

template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> sqrt(const vector<T, N> &v)
{
    static_assert(detail::elem::is_real_float_v<T> || detail::not_on_host<T>,
                  "aie::sqrt(vector<T, N>): iron implements T = float and bfloat16 only");
    return detail::elem::map<detail::elem::fn::sqrt>(v);
}

template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> inv(const vector<T, N> &v)
{
    static_assert(detail::elem::is_real_float_v<T> || detail::not_on_host<T>,
                  "aie::inv(vector<T, N>): iron implements T = float and bfloat16 only");
    return detail::elem::map<detail::elem::fn::inv>(v);
}

template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> invsqrt(const vector<T, N> &v)
{
    static_assert(detail::elem::is_real_float_v<T> || detail::not_on_host<T>,
                  "aie::invsqrt(vector<T, N>): iron implements T = float and bfloat16 only");
    return detail::elem::map<detail::elem::fn::invsqrt>(v);
}

// The accumulator forms exist in the AIE API for AIE1 only.
template <typename AccT, unsigned N>
accum<AccT, N> sqrt(const accum<AccT, N> &)
{
    static_assert(detail::not_on_host<AccT>,
                  "aie::sqrt(accum): the AIE API has no accumulator sqrt on AIE2 / AIE2P (AIE1 only)");
    return {};
}
template <typename AccT, unsigned N>
accum<AccT, N> inv(const accum<AccT, N> &)
{
    static_assert(detail::not_on_host<AccT>,
                  "aie::inv(accum): the AIE API has no accumulator inv on AIE2 / AIE2P (AIE1 only)");
    return {};
}
template <typename AccT, unsigned N>
accum<AccT, N> invsqrt(const accum<AccT, N> &)
{
    static_assert(detail::not_on_host<AccT>,
                  "aie::invsqrt(accum): the AIE API has no accumulator invsqrt on AIE2 / AIE2P (AIE1 only)");
    return {};
}

// ---- tanh, exp2: vector<float, N> -> vector<bfloat16, N>, AIE2P only -------

template <typename TR = bfloat16, unsigned N>
IRON_AIE_INLINE vector<TR, N> tanh(const vector<float, N> &v)
{
    static_assert(detail::arch == 21 || detail::not_on_host<TR>,
                  "aie::tanh is not available on AIE2 (__AIE_ARCH__ 20, npu1): only AIE2P "
                  "(__AIE_ARCH__ 21) has it; AIE2 kernels use getTanhBf16 from lut_based_ops.h");
    static_assert(std::is_same_v<TR, bfloat16> || detail::not_on_host<TR>,
                  "aie::tanh<TR>: TR must be bfloat16 on AIE2P");
    static_assert(detail::elem::lanes16_ok<N> || detail::not_on_host<TR>,
                  "aie::tanh(vector<float, N>): N must divide 16 or be a multiple of 16");
    vector<TR, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = detail::elem::lane_f2b(v.lanes_[i], [](long double x) { return std::tanh(x); });
    return r;
}

template <typename TR = bfloat16, unsigned N>
IRON_AIE_INLINE vector<TR, N> exp2(const vector<float, N> &v)
{
    static_assert(detail::arch == 21 || detail::not_on_host<TR>,
                  "aie::exp2 is not available on AIE2 (__AIE_ARCH__ 20, npu1): only AIE2P "
                  "(__AIE_ARCH__ 21) has it; AIE2 kernels use getExpBf16 from lut_based_ops.h");
    static_assert(std::is_same_v<TR, bfloat16> || detail::not_on_host<TR>,
                  "aie::exp2<TR>: TR must be bfloat16 on AIE2P (float results are AIE2PS only)");
    static_assert(detail::elem::lanes16_ok<N> || detail::not_on_host<TR>,
                  "aie::exp2(vector<float, N>): N must divide 16 or be a multiple of 16");
    vector<TR, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = detail::elem::lane_f2b(v.lanes_[i], [](long double x) { return std::exp2(x); });
    return r;
}

// A tanh / exp2 of anything but a float vector: the AIE API declares none.
template <typename TR = bfloat16, typename T, unsigned N>
    requires(!std::is_same_v<T, float>)
vector<TR, N> tanh(const vector<T, N> &)
{
    static_assert(detail::not_on_host<T>,
                  "aie::tanh takes aie::vector<float, N> (convert bfloat16 lanes with "
                  "accum<accfloat, N>(v).to_vector<float>() first)");
    return {};
}
template <typename TR = bfloat16, typename T, unsigned N>
    requires(!std::is_same_v<T, float>)
vector<TR, N> exp2(const vector<T, N> &)
{
    static_assert(detail::not_on_host<T>,
                  "aie::exp2 takes aie::vector<float, N> (convert bfloat16 lanes with "
                  "accum<accfloat, N>(v).to_vector<float>() first)");
    return {};
}

// ---- sin, cos, sincos, sincos_complex: AIE1 only in the AIE API -----------
// Only the vector forms are declared: a scalar aie::sin would capture plain
// sin(x) calls in kernels that say `using namespace aie`.

#define IRON_AIE_AIE1_ONLY(name)                                               \
    template <typename T, unsigned N>                                          \
    vector<T, N> name(const vector<T, N> &)                                    \
    {                                                                          \
        static_assert(detail::not_on_host<T>,                                  \
                      "aie::" #name " is not available on AIE2 / AIE2P (the AIE API offers it on "   \
                      "AIE1 only); compute it with a LUT (aie::parallel_lookup) or scalar code"); \
        return {};                                                             \
    }
IRON_AIE_AIE1_ONLY(sin)
IRON_AIE_AIE1_ONLY(cos)
IRON_AIE_AIE1_ONLY(sincos)
IRON_AIE_AIE1_ONLY(sincos_complex)
#undef IRON_AIE_AIE1_ONLY

} // namespace aie
