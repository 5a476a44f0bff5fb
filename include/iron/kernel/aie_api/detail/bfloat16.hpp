// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// bfloat16.hpp - the 16-bit brain float (sign, 8-bit exponent, 7-bit
// mantissa: the top half of an IEEE float), global as the AIE compilers
// name it.  Two conversions from float exist, as on the hardware:
//  - the scalar one (a constructor, `bfloat16 x = f;`) rounds to nearest,
//    ties to even, as the compilers' scalar conversion does;
//  - the vector one (accum<accfloat>::to_vector<bfloat16>) follows the
//    core's rounding mode (modes.hpp): f32_to_bf16_mode below.
// NaN stays NaN (quiet bit set); infinities stay; subnormals: see
// f32_to_bf16_mode.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include "config.hpp"

namespace aie::detail {

constexpr bool f32_is_nan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

// Round to nearest, ties to even.
constexpr uint16_t f32_to_bf16_rne(float f)
{
    uint32_t u = std::bit_cast<uint32_t>(f);
    if (f32_is_nan(u))
        return static_cast<uint16_t>((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
}

// Narrowing with the core's rounding mode `rnd` (a valid rounding_mode
// value), on the value (not the bit pattern): floor rounds -1.00390625
// to -1.0078125.  A carry out of the mantissa moves to the next binade, up
// to infinity.  Subnormal inputs and results are flushed to a zero of the
// same sign: the AIE2 / AIE2P float datapath has no subnormals.
constexpr uint16_t f32_to_bf16_mode(float f, unsigned rnd)
{
    uint32_t u = std::bit_cast<uint32_t>(f);
    if (f32_is_nan(u))
        return static_cast<uint16_t>((u >> 16) | 0x0040u);
    if ((u & 0x7f800000u) == 0)
        return static_cast<uint16_t>((u >> 16) & 0x8000u);
    uint32_t keep = u >> 16, low = u & 0xffffu;
    bool neg = u >> 31, odd = keep & 1u, any = low != 0;
    bool half = low == 0x8000u, above = low > 0x8000u;
    bool up; // away from zero (magnitude + 1 ulp)
    switch (rnd) {
    case 0: up = neg && any; break;                // floor
    case 1: up = !neg && any; break;               // ceil
    case 2: up = false; break;                     // symmetric_floor
    case 3: up = any; break;                       // symmetric_ceil
    case 8: up = above || (half && neg); break;    // negative_inf
    case 9: up = above || (half && !neg); break;   // positive_inf
    case 10: up = above; break;                    // symmetric_zero
    case 11: up = above || half; break;            // symmetric_inf
    case 12: up = above || (half && odd); break;   // conv_even
    default: up = above || (half && !odd); break;  // conv_odd
    }
    keep += up;
    return static_cast<uint16_t>(keep);
}

// Flushes a subnormal float to a zero of the same sign.
IRON_AIE_INLINE constexpr float ftz(float f)
{
    uint32_t u = std::bit_cast<uint32_t>(f);
    return (u & 0x7f800000u) == 0 ? std::bit_cast<float>(u & 0x80000000u) : f;
}

} // namespace aie::detail

struct bfloat16 {
    uint16_t bits_;

    bfloat16() = default;
    constexpr bfloat16(float f) : bits_(aie::detail::f32_to_bf16_rne(f)) {}
    // Integers and doubles convert through float, as `(bfloat16)(float)x`.
    template <typename T>
        requires(std::is_arithmetic_v<T> && !std::is_same_v<T, float>)
    constexpr bfloat16(T v) : bfloat16(static_cast<float>(v)) {}

    constexpr operator float() const
    {
        return std::bit_cast<float>(static_cast<uint32_t>(bits_) << 16);
    }

    static constexpr bfloat16 from_bits(uint16_t b)
    {
        bfloat16 r;
        r.bits_ = b;
        return r;
    }

    // Compound assignment computes in float and rounds back (to nearest even).
    constexpr bfloat16 &operator+=(float o) { return *this = float(*this) + o; }
    constexpr bfloat16 &operator-=(float o) { return *this = float(*this) - o; }
    constexpr bfloat16 &operator*=(float o) { return *this = float(*this) * o; }
    constexpr bfloat16 &operator/=(float o) { return *this = float(*this) / o; }
};

static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16>);

template <> class std::numeric_limits<bfloat16> {
  public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 8;
    static constexpr int radix = 2;
    static constexpr int min_exponent = -125;
    static constexpr int max_exponent = 128;
    static constexpr bfloat16 min() { return bfloat16::from_bits(0x0080); }
    static constexpr bfloat16 max() { return bfloat16::from_bits(0x7f7f); }
    static constexpr bfloat16 lowest() { return bfloat16::from_bits(0xff7f); }
    static constexpr bfloat16 epsilon() { return bfloat16::from_bits(0x3c00); }
    static constexpr bfloat16 infinity() { return bfloat16::from_bits(0x7f80); }
    static constexpr bfloat16 quiet_NaN() { return bfloat16::from_bits(0x7fc0); }
    static constexpr bfloat16 denorm_min() { return bfloat16::from_bits(0x0001); }
};
