// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// lut.hpp - lookup tables on the host: aie::lut (a table in data memory),
// aie::parallel_lookup (index a table with a vector) and aie::linear_approx
// (piecewise-linear interpolation from slope/offset pairs), AIE2 and AIE2P.
//
// Memory layout, as the AIE API documents it: with 2 or 4 parallel
// accesses each table holds every 16-byte (bank-width) chunk twice in a
// row, c0 c0 c1 c1 ...; with 4 accesses a second such table (cd) sits in
// another bank.  The hardware reads one copy per lane; the host reads the
// first copy of the ab table.  Values of 8 bits are stored as 16-bit
// entries (the value is the entry narrowed with the saturation mode), a
// linear_approx entry is the pair (slope, offset), slope first.
//
// Index arithmetic follows the hardware: the shift that drops step_bits
// rounds with the core's rounding mode (the AIE API asks for floor, or for
// step bits that are zero), then the out-of-range policy applies.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"
#include "host.hpp"
#include "modes.hpp"
#include "bfloat16.hpp"
#include "vector.hpp"
#include "accum.hpp"
#include "arith.hpp"
#include "elementary.hpp"

namespace aie {

enum class lut_oor_policy {
    saturate, // indices clamp to the first / last entry
    truncate, // indices wrap: unsigned keep their low bits, signed wrap in [-bias, size - bias)
};

namespace detail::lutx {

// v * 2^-s rounded with the rounding mode m (the values of rounding_mode);
// s < 0 shifts left.
constexpr int64_t shift_round(int64_t v, int s, unsigned m)
{
    if (s <= 0)
        return v * (int64_t(1) << -s);
    const int64_t q = v >> s; // floor
    const int64_t r = v - (q << s); // 0 <= r < 2^s
    const int64_t half = int64_t(1) << (s - 1);
    if (r == 0)
        return q;
    const bool neg = v < 0;
    switch (m) {
    case 0: return q;                      // floor
    case 1: return q + 1;                  // ceil
    case 2: return neg ? q + 1 : q;        // towards zero
    case 3: return neg ? q : q + 1;        // away from zero
    default: break;
    }
    if (r != half)
        return r > half ? q + 1 : q;
    switch (m) {                           // a tie
    case 8: return q;                      // towards -inf
    case 9: return q + 1;                  // towards +inf
    case 10: return neg ? q + 1 : q;       // towards zero
    case 11: return neg ? q : q + 1;       // away from zero
    case 12: return (q & 1) ? q + 1 : q;   // to even
    default: return (q & 1) ? q : q + 1;   // 13: to odd
    }
}

// Byte address of the first copy of logical byte b in a table read with
// `par` parallel accesses.
constexpr std::size_t phys(unsigned par, std::size_t b)
{
    return par == 1 ? b : (b / 16) * 32 + b % 16;
}

template <typename T> inline constexpr unsigned entry_bytes_v = sizeof(T) < 2 ? 2 : sizeof(T);

// The hardware's address granularity per entry of T bytes (log2): the
// lookup shifts step_bits less this, then drops it again.
template <typename T>
inline constexpr int addr_shift_v = sizeof(T) <= 2 ? 2 : sizeof(T) == 4 ? 3 : 4;

template <typename T> T narrow_entry(int16_t e, unsigned sat)
{
    if constexpr (sizeof(T) == 1) {
        constexpr int lo = std::is_signed_v<T> ? -128 : 0, hi = std::is_signed_v<T> ? 127 : 255;
        if (sat == 0)
            return static_cast<T>(static_cast<uint8_t>(e));
        const int m = sat == 3 && std::is_signed_v<T> ? -hi : lo;
        return static_cast<T>(e < m ? m : e > hi ? hi : e);
    } else {
        return T(e);
    }
}

inline bool aligned(const void *p)
{
    return reinterpret_cast<uintptr_t>(p) % vector_decl_align == 0;
}

} // namespace detail::lutx

// A lookup table in data memory: the number of entries and the copies of
// it the parallel accesses read (see the layout above).  Construction
// checks the pointers: non-null and aligned to aie::vector_decl_align.
template <unsigned ParallelAccesses, typename OffsetType, typename SlopeType = OffsetType>
struct lut {
    static_assert(ParallelAccesses == 1 || ParallelAccesses == 2 || ParallelAccesses == 4,
                  "aie::lut<ParallelAccesses, ...>: ParallelAccesses must be 1, 2 or 4");
    using offset_type = OffsetType;
    using slope_type = SlopeType;
    using lut_impl = lut;
    static constexpr unsigned parallel_accesses = ParallelAccesses;

    lut(unsigned LUT_elems, const void *LUT_ab, const void *LUT_cd, IRON_AIE_LOC)
        requires(ParallelAccesses == 4)
        : elems_(LUT_elems), ab_(LUT_ab), cd_(LUT_cd)
    {
        check(IRON_AIE_AT);
        if (!LUT_cd || !detail::lutx::aligned(LUT_cd)) [[unlikely]]
            iron__aie_fault("aie::lut: LUT_cd is NULL or not aligned to aie::vector_decl_align",
                            IRON_AIE_AT);
    }
    lut(unsigned LUT_elems, const void *LUT_ab, IRON_AIE_LOC)
        requires(ParallelAccesses == 2)
        : elems_(LUT_elems), ab_(LUT_ab), cd_(nullptr)
    {
        check(IRON_AIE_AT);
    }
    lut(unsigned LUT_elems, const void *LUT_a, IRON_AIE_LOC)
        requires(ParallelAccesses == 1)
        : elems_(LUT_elems), ab_(LUT_a), cd_(nullptr)
    {
        check(IRON_AIE_AT);
    }

    unsigned elems_;
    const void *ab_;
    const void *cd_;

  private:
    void check(const char *file, unsigned line) const
    {
        if (elems_ == 0) [[unlikely]]
            iron__aie_fault("aie::lut: LUT_elems is 0", file, line);
        if (!ab_ || !detail::lutx::aligned(ab_)) [[unlikely]]
            iron__aie_fault("aie::lut: the table pointer is NULL or not aligned to "
                            "aie::vector_decl_align", file, line);
    }
};

// Reads lut entries by index vector.  T is the index type (signed or
// unsigned integers of 8 to 32 bits); each index is (input >> step_bits),
// then bias for signed indices, then the out-of-range policy.
template <typename T, typename MyLUT, lut_oor_policy oor_policy = lut_oor_policy::saturate>
struct parallel_lookup {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 4,
                  "aie::parallel_lookup<T, ...>: T (the index type) must be an integer of 8 to 32 bits");
    static_assert(MyLUT::parallel_accesses == 4 || detail::not_on_host<T>,
                  "aie::parallel_lookup: the AIE API implements lookups on aie::lut<4, ...> only");
    using value_type = typename MyLUT::offset_type;

    template <typename U = T>
        requires(std::is_signed_v<U>)
    parallel_lookup(const MyLUT &l, unsigned step_bits = 0, unsigned bias = 0, IRON_AIE_LOC)
        : lut_(l), step_bits_(int(step_bits)), bias_(bias)
    {
        if (bias & (bias - 1)) [[unlikely]]
            iron__aie_fault("aie::parallel_lookup: bias must be 0 or a power of 2", IRON_AIE_AT);
        if (step_bits > 31) [[unlikely]]
            iron__aie_fault("aie::parallel_lookup: step_bits must be 0..31", IRON_AIE_AT);
    }
    template <typename U = T>
        requires(std::is_unsigned_v<U>)
    parallel_lookup(const MyLUT &l, unsigned step_bits = 0, IRON_AIE_LOC)
        : lut_(l), step_bits_(int(step_bits)), bias_(0)
    {
        if (step_bits > 31) [[unlikely]]
            iron__aie_fault("aie::parallel_lookup: step_bits must be 0..31", IRON_AIE_AT);
    }

    // The table index lane i of `input` selects (exposed for tests and for
    // kernels that print what they look up).
    template <typename Vec>
    unsigned index_of(const Vec &input, unsigned i, unsigned rnd) const
    {
        constexpr int off = detail::lutx::addr_shift_v<value_type>;
        const int64_t elems = lut_.elems_;
        const int64_t v = static_cast<int64_t>(input.lanes_[i]);
        // The hardware forms a byte address with `off` low bits and drops them.
        int64_t a = detail::lutx::shift_round(v, step_bits_ - off, rnd);
        const int64_t amax = (elems << off) - 1, ub = int64_t(bias_) << off;
        if constexpr (std::is_signed_v<T>) {
            if constexpr (oor_policy == lut_oor_policy::truncate)
                a = (a + ub) & amax;
            else
                a = (a < -ub ? -ub : a > amax - ub ? amax - ub : a) + ub;
        } else {
            if constexpr (oor_policy == lut_oor_policy::truncate)
                a &= amax;
            else
                a = a > amax ? amax : a;
        }
        return static_cast<unsigned>(a >> off);
    }

    template <typename Vec, unsigned N = Vec::size()>
    vector<value_type, N> fetch(const Vec &input, IRON_AIE_LOC) const
    {
        static_assert(std::is_same_v<typename Vec::value_type, T>,
                      "aie::parallel_lookup<T, ...>::fetch: the input must be a vector of T");
        static_assert(Vec::size() <= 32 && N <= Vec::size() &&
                          N <= native_vector_length_v<value_type>,
                      "aie::parallel_lookup::fetch: at most 32 indices and one 512-bit vector of values");
        const unsigned rnd = detail::rounding(IRON_AIE_AT);
        const unsigned sat = detail::saturation(IRON_AIE_AT);
        const auto *base = static_cast<const unsigned char *>(lut_.ab_);
        constexpr unsigned eb = detail::lutx::entry_bytes_v<value_type>;
        vector<value_type, N> r;
        for (unsigned i = 0; i < N; i++) {
            const std::size_t at = detail::lutx::phys(MyLUT::parallel_accesses,
                                                      std::size_t(index_of(input, i, rnd)) * eb);
            if constexpr (sizeof(value_type) == 1) {
                int16_t e;
                std::memcpy(&e, base + at, 2);
                r.lanes_[i] = detail::lutx::narrow_entry<value_type>(e, sat);
            } else {
                std::memcpy(&r.lanes_[i], base + at, sizeof(value_type));
            }
        }
        return r;
    }

    template <unsigned N, typename Vec>
    vector<value_type, N> fetch(const Vec &input, IRON_AIE_LOC) const
    {
        return fetch<Vec, N>(input, IRON_AIE_AT);
    }

  private:
    MyLUT lut_;
    int step_bits_;
    unsigned bias_;
};

// Linear approximation from (slope, offset) pairs:
//   integer input:  index = (input >> step_bits) + bias,
//                   out = slope * (input & (2^step_bits - 1)) + (offset << shift_offset)
//   bfloat16 input: index = floor(input * 2^-step_bits) + bias (step_bits may be
//                   negative: finer segments), out = slope * input + offset
// The index clamps to the table; a negative integer index becomes the last
// entry when saturation is off (the hardware converts it to unsigned) and
// the first when it is on.  Types (input, offset, slope -> accumulator,
// lanes): int8, int8, int8 -> acc32, 32; int16, int16, int16 -> acc64, 16;
// int16, int32, int32 -> acc64, 16; bfloat16, float, bfloat16 -> accfloat, 16.
template <typename T, typename MyLUT>
struct linear_approx {
    using offset_type = typename MyLUT::offset_type;
    using slope_type = typename MyLUT::slope_type;
    static constexpr bool is_i8 = std::is_same_v<T, int8> && std::is_same_v<offset_type, int8> &&
                                  std::is_same_v<slope_type, int8>;
    static constexpr bool is_i16 = std::is_same_v<T, int16> &&
                                   (std::is_same_v<offset_type, int16> || std::is_same_v<offset_type, int32>) &&
                                   std::is_same_v<slope_type, offset_type>;
    static constexpr bool is_bf16 = std::is_same_v<T, bfloat16> && std::is_same_v<offset_type, float> &&
                                    std::is_same_v<slope_type, bfloat16>;
    static_assert(is_i8 || is_i16 || is_bf16 || detail::not_on_host<T>,
                  "aie::linear_approx<T, lut<4, Offset, Slope>>: the AIE API supports (int8, int8, int8), "
                  "(int16, int16, int16), (int16, int32, int32) and (bfloat16, float, bfloat16)");
    static_assert(MyLUT::parallel_accesses == 4 || detail::not_on_host<T>,
                  "aie::linear_approx: the AIE API implements linear approximation on aie::lut<4, ...> only");
    using acc_tag = std::conditional_t<is_i8, acc32, std::conditional_t<is_i16, acc64, accfloat>>;
    static constexpr int min_step_bits = is_i8 ? 2 : is_bf16 ? INT32_MIN : sizeof(offset_type) == 2 ? 3 : 4;

    linear_approx(const MyLUT &l, unsigned step_bits, int bias = 0, int shift_offset = 0, IRON_AIE_LOC)
        : lut_(l), step_bits_(int(step_bits)), bias_(bias), shift_offset_(shift_offset)
    {
        if constexpr (!is_bf16) {
            if (step_bits_ < min_step_bits || step_bits_ > 31) [[unlikely]]
                iron__aie_fault(is_i8 ? "aie::linear_approx: step_bits must be 2..31 for int8 input"
                                : sizeof(offset_type) == 2
                                    ? "aie::linear_approx: step_bits must be 3..31 for int16 input with int16 values"
                                    : "aie::linear_approx: step_bits must be 4..31 for int16 input with int32 values",
                                IRON_AIE_AT);
            if (shift_offset < 0 || shift_offset > 31) [[unlikely]]
                iron__aie_fault("aie::linear_approx: shift_offset must be 0..31", IRON_AIE_AT);
        } else {
            if (shift_offset != 0) [[unlikely]]
                iron__aie_fault("aie::linear_approx: shift_offset must be 0 for bfloat16 input", IRON_AIE_AT);
            if (step_bits_ < -31 || step_bits_ > 31) [[unlikely]]
                iron__aie_fault("aie::linear_approx: step_bits must be -31..31 for bfloat16 input",
                                IRON_AIE_AT);
        }
    }

    // The table index lane value v selects.
    unsigned index_of(int64_t v, unsigned sat) const
    {
        const int64_t last = int64_t(lut_.elems_) - 1;
        int64_t i = (v >> step_bits_) + bias_;
        if (i < 0)
            i = sat == 0 ? last : 0;
        return static_cast<unsigned>(i > last ? last : i);
    }
    unsigned index_of(bfloat16 x) const
    {
        const long double f = detail::elem::from(x);
        const int64_t last = int64_t(lut_.elems_) - 1;
        long double s = std::isnan(f) ? 0.0L : std::floor(std::ldexp(f, -step_bits_)) + bias_;
        return static_cast<unsigned>(s < 0 ? 0 : s > last ? last : static_cast<int64_t>(s));
    }

    template <typename Vec>
    accum<acc_tag, Vec::size()> compute(const Vec &input, IRON_AIE_LOC) const
    {
        constexpr unsigned N = Vec::size();
        static_assert(std::is_same_v<typename Vec::value_type, T>,
                      "aie::linear_approx<T, ...>::compute: the input must be a vector of T");
        static_assert(N == (is_i8 ? 32u : 16u) || (!is_i8 && N == 32u),
                      "aie::linear_approx::compute: 32 lanes for int8 input, 16 or 32 otherwise");
        const auto *base = static_cast<const unsigned char *>(lut_.ab_);
        constexpr unsigned vb = sizeof(offset_type) < 2 ? 1 : sizeof(offset_type);
        if constexpr (is_bf16) {
            (void)iron_file_, (void)iron_line_;
            vector<bfloat16, N> slope;
            accum<accfloat, N> acc; // the offsets, as the accfloat lanes they are

            for (unsigned i = 0; i < N; i++) {
                const std::size_t at = detail::lutx::phys(4, std::size_t(index_of(input.lanes_[i])) * 8);
                uint32_t s;
                float o;
                std::memcpy(&s, base + at, 4);
                std::memcpy(&o, base + at + 4, 4);
                slope.lanes_[i] = bfloat16::from_bits(static_cast<uint16_t>(s >> 16));
                acc.lanes_[i] = detail::ftz(o);
            }
            return mac(acc, slope, input);
        } else {
            const unsigned sat = detail::saturation(IRON_AIE_AT);
            const int64_t rem_mask = (int64_t(1) << step_bits_) - 1;
            accum<acc_tag, N> r;
            for (unsigned i = 0; i < N; i++) {
                const int64_t v = input.lanes_[i];
                const std::size_t at = detail::lutx::phys(4, std::size_t(index_of(v, sat)) * 2 * vb);
                offset_type s, o;
                std::memcpy(&s, base + at, vb);
                std::memcpy(&o, base + at + vb, vb);
                const uint64_t out = uint64_t(int64_t(s)) * uint64_t(v & rem_mask) +
                                     (uint64_t(int64_t(o)) << shift_offset_);
                r.lanes_[i] = static_cast<decltype(r.lanes_[0] + 0)>(
                    is_i8 ? int64_t(int32_t(uint32_t(out))) : int64_t(out));
            }
            return r;
        }
    }

  private:
    MyLUT lut_;
    int step_bits_;
    int bias_;
    int shift_offset_;
};

} // namespace aie
