// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// accum.hpp - aie::accum<Tag, Elems> and the two conversions between
// vectors and accumulators the hardware defines:
//  - ups (from_vector): lane << shift into the accumulator's lane width;
//    when the core saturates the lane is first clamped to what survives
//    the shift (ups_lane below), otherwise the shifted value wraps;
//  - srs (to_vector): lane >> shift rounded with the core's rounding mode,
//    then clamped (saturate / symmetric) or wrapped (none) to the output
//    type.  Float accumulators narrow to bfloat16 with the rounding mode
//    (bfloat16.hpp) and ignore the shift.
// Integer lanes are two's complement and wrap on overflow, like the
// hardware's: acc16/acc24/acc32 in 32 bits, acc40..acc64 in 64 bits (AIE2
// and AIE2P have only those two integer lane widths).  accfloat lanes are
// IEEE floats.
#pragma once

#include <cstring>
#include <limits>
#include <type_traits>

#include "bfloat16.hpp"
#include "config.hpp"
#include "count.hpp"
#include "modes.hpp"
#include "vector.hpp"

namespace aie {

template <typename Tag, unsigned Elems> class accum;

namespace detail {

template <typename Tag> struct acc_lane;
template <> struct acc_lane<acc16> { using type = int32_t; static constexpr unsigned bits = 32; };
template <> struct acc_lane<acc24> { using type = int32_t; static constexpr unsigned bits = 32; };
template <> struct acc_lane<acc32> { using type = int32_t; static constexpr unsigned bits = 32; };
template <> struct acc_lane<acc40> { using type = int64_t; static constexpr unsigned bits = 64; };
template <> struct acc_lane<acc48> { using type = int64_t; static constexpr unsigned bits = 64; };
template <> struct acc_lane<acc56> { using type = int64_t; static constexpr unsigned bits = 64; };
template <> struct acc_lane<acc64> { using type = int64_t; static constexpr unsigned bits = 64; };
template <> struct acc_lane<accfloat> { using type = float; static constexpr unsigned bits = 32; };

template <typename Tag>
inline constexpr bool is_acc_tag_v =
    is_one_of_v<Tag, acc16, acc24, acc32, acc40, acc48, acc56, acc64, accfloat>;

template <typename Tag> inline constexpr unsigned acc_tag_bits_v = 0;
template <> inline constexpr unsigned acc_tag_bits_v<acc16> = 16;
template <> inline constexpr unsigned acc_tag_bits_v<acc24> = 24;
template <> inline constexpr unsigned acc_tag_bits_v<acc32> = 32;
template <> inline constexpr unsigned acc_tag_bits_v<acc40> = 40;
template <> inline constexpr unsigned acc_tag_bits_v<acc48> = 48;
template <> inline constexpr unsigned acc_tag_bits_v<acc56> = 56;
template <> inline constexpr unsigned acc_tag_bits_v<acc64> = 64;
template <> inline constexpr unsigned acc_tag_bits_v<accfloat> = 32;

template <typename T> struct is_accum : std::false_type {};
template <typename Tag, unsigned N> struct is_accum<accum<Tag, N>> : std::true_type {};
template <typename T>
inline constexpr bool is_accum_v = is_accum<std::remove_cvref_t<T>>::value;

// The accumulator the AIE API picks for a multiplication of A by B: 32
// bits for 8/16-bit integer operands, 48 for 32 x 16, 64 for 32 x 32
// (on AIE2 and AIE2P acc48 lives in 64-bit lanes), accfloat for floats.
template <typename A, typename B>
constexpr auto default_acc_tag()
{
    if constexpr (is_float_elem_v<A> || is_float_elem_v<B>)
        return accfloat{};
    else if constexpr (sizeof(A) == 4 && sizeof(B) == 4)
        return acc64{};
    else if constexpr (sizeof(A) == 4 || sizeof(B) == 4)
        return acc48{};
    else
        return acc32{};
}
template <typename A, typename B>
using default_acc_tag_t = decltype(default_acc_tag<A, B>());
// accauto (or no tag): the default; otherwise the tag given.
template <typename Tag, typename A, typename B>
using acc_tag_or_default_t =
    std::conditional_t<std::is_same_v<Tag, accauto>, default_acc_tag_t<A, B>, Tag>;

// Wrapping integer arithmetic on lanes (no UB on overflow).
template <typename L> IRON_AIE_INLINE constexpr L wrap_add(L a, L b)
{
    if constexpr (std::is_floating_point_v<L>)
        return a + b;
    else
        return static_cast<L>(static_cast<std::make_unsigned_t<L>>(a) +
                              static_cast<std::make_unsigned_t<L>>(b));
}
template <typename L> IRON_AIE_INLINE constexpr L wrap_sub(L a, L b)
{
    if constexpr (std::is_floating_point_v<L>)
        return a - b;
    else
        return static_cast<L>(static_cast<std::make_unsigned_t<L>>(a) -
                              static_cast<std::make_unsigned_t<L>>(b));
}
template <typename L> IRON_AIE_INLINE constexpr L wrap_neg(L a) { return wrap_sub(L(0), a); }

// Whether srs adds one to the floored quotient: the hardware's decision
// from the sign of the input, the quotient's low bit, the guard bit (the
// first bit shifted out) and the sticky bit (any bit below it).
template <unsigned R>
IRON_AIE_INLINE constexpr bool srs_round_up(bool sgn, bool lsb, bool grd, bool stk)
{
    if constexpr (R == 0) return false;                    // floor
    else if constexpr (R == 1) return grd || stk;          // ceil
    else if constexpr (R == 2) return sgn && (grd || stk); // symmetric_floor
    else if constexpr (R == 3) return !sgn && (grd || stk);// symmetric_ceil
    else if constexpr (R == 8) return grd && stk;          // negative_inf
    else if constexpr (R == 9) return grd;                 // positive_inf
    else if constexpr (R == 10) return grd && (sgn || stk);// symmetric_zero
    else if constexpr (R == 11) return grd && (!sgn || stk);// symmetric_inf
    else if constexpr (R == 12) return grd && (lsb || stk);// conv_even
    else return grd && (!lsb || stk);                      // conv_odd
}

// Calls f.template operator()<R>() with the rounding mode as a constant, so
// that each lane loop is compiled for one mode.
template <typename F> IRON_AIE_INLINE void with_rounding(unsigned rnd, F &&f)
{
    switch (rnd) {
    case 0: f.template operator()<0>(); break;
    case 1: f.template operator()<1>(); break;
    case 2: f.template operator()<2>(); break;
    case 3: f.template operator()<3>(); break;
    case 8: f.template operator()<8>(); break;
    case 9: f.template operator()<9>(); break;
    case 10: f.template operator()<10>(); break;
    case 11: f.template operator()<11>(); break;
    case 12: f.template operator()<12>(); break;
    default: f.template operator()<13>(); break;
    }
}

// Clamps (sat 1: the type's range; sat 3: symmetric for signed types) or
// wraps (sat 0) a value to the integer type T.
template <typename T>
IRON_AIE_INLINE constexpr T saturate_to(int64_t r, unsigned sat)
{
    if (sat != 0) {
        constexpr int64_t hi = static_cast<int64_t>(std::numeric_limits<T>::max());
        constexpr int64_t lo = static_cast<int64_t>(std::numeric_limits<T>::min());
        int64_t lo_s = (sat == 3 && std::is_signed_v<T>) ? -hi : lo;
        if (r > hi)
            return static_cast<T>(hi);
        if (r < lo_s)
            return static_cast<T>(lo_s);
    }
    return static_cast<T>(static_cast<uint64_t>(r)); // modular
}

// One lane of srs with mode R.  shift in [-4, 63]; a negative shift moves
// left (exactly) before saturation.
template <typename T, unsigned R>
IRON_AIE_INLINE constexpr T srs_lane(int64_t v, int shift, unsigned sat)
{
    static_assert(sizeof(T) <= 4, "srs: to 8-, 16- or 32-bit lanes");
    int64_t r;
    if (shift <= 0) {
        // Exact in 128 bits, then held in 64: clamping there first does not
        // change a clamp to T, and the low bits (all a wrap keeps) survive.
        __int128 w = static_cast<__int128>(v) * (static_cast<int64_t>(1) << -shift);
        r = sat == 0 ? static_cast<int64_t>(static_cast<uint64_t>(w))
            : w > INT64_MAX ? INT64_MAX
            : w < INT64_MIN ? INT64_MIN
                            : static_cast<int64_t>(w);
    } else {
        int64_t q = v >> shift; // |q| < 2^62: q + 1 cannot overflow
        uint64_t frac = static_cast<uint64_t>(v) & ((~0ull) >> (64 - shift));
        uint64_t half = 1ull << (shift - 1);
        bool grd = frac & half, stk = (frac & (half - 1)) != 0;
        r = q + srs_round_up<R>(v < 0, q & 1, grd, stk);
    }
    return saturate_to<T>(r, sat);
}

// The scalar forms, reading the core's modes (for the intrinsics layer and
// the scalar paths of other headers).
template <typename T>
IRON_AIE_INLINE T srs(int64_t v, int shift, IRON_AIE_LOC)
{
    if (shift < -4 || shift > 63) [[unlikely]]
        iron__aie_fault("srs: the shift is outside [-4, 63]", IRON_AIE_AT);
    unsigned rnd = rounding(IRON_AIE_AT), sat = saturation(IRON_AIE_AT);
    T out{};
    with_rounding(rnd, [&]<unsigned R>() { out = srs_lane<T, R>(v, shift, sat); });
    return out;
}

// v << shift into an accumulator lane of `Bits` bits.  As the hardware's
// UPS is documented: when the core saturates, the input is clamped first,
// to the range that survives the shift ([lo >> shift, hi >> shift], lo
// and hi the lane's bounds; symmetric saturation makes lo -hi), and then
// shifted -- so a positive overflow gives (hi >> shift) << shift, not hi,
// and symmetric differs from saturate only at shift 0 (where -hi - 1
// becomes -hi).  Without saturation the shifted value wraps.
template <typename L, unsigned Bits = sizeof(L) * 8>
IRON_AIE_INLINE constexpr L ups_lane(int64_t v, int shift, unsigned sat)
{
    __int128 x = v;
    if (sat != 0) {
        constexpr __int128 hi = (static_cast<__int128>(1) << (Bits - 1)) - 1;
        const __int128 lo = sat == 3 ? -hi : -hi - 1;
        const __int128 hi_s = hi >> shift, lo_s = lo >> shift; // floor
        x = x > hi_s ? hi_s : x < lo_s ? lo_s : x;
    }
    unsigned __int128 r = static_cast<unsigned __int128>(x) << shift;
    return static_cast<L>(r);
}

} // namespace detail

template <typename Tag, unsigned Elems>
class accum {
    static_assert(detail::is_acc_tag_v<Tag>,
                  "aie::accum: the tag is not one the host AIE API implements "
                  "(acc16..acc64, accfloat)");

  public:
    using value_type = Tag;
    using lane_type = typename detail::acc_lane<Tag>::type;
    using storage_type = lane_type;

    alignas(detail::lane_align(Elems * sizeof(lane_type))) lane_type lanes_[Elems];

    IRON_AIE_INLINE constexpr accum() : lanes_{} {}

    template <typename T>
    IRON_AIE_INLINE explicit accum(const vector<T, Elems> &v, int shift = 0, IRON_AIE_LOC)
        : lanes_{}
    {
        from_vector(v, shift, IRON_AIE_AT);
    }

    // Between integer tags: lanes sign-extended or wrapped to the new width.
    template <typename Tag2>
        requires(!std::is_same_v<Tag2, Tag> &&
                 std::is_same_v<Tag2, accfloat> == std::is_same_v<Tag, accfloat>)
    IRON_AIE_INLINE constexpr accum(const accum<Tag2, Elems> &o) : lanes_{}
    {
        for (unsigned i = 0; i < Elems; i++)
            lanes_[i] = static_cast<lane_type>(o.lanes_[i]);
    }

    static constexpr unsigned size() { return Elems; }
    static constexpr unsigned accum_bits() { return detail::acc_tag_bits_v<Tag>; }
    static constexpr unsigned bits() { return Elems * sizeof(lane_type) * 8; }
    static constexpr bool is_floating_point() { return std::is_same_v<Tag, accfloat>; }
    static constexpr bool is_complex() { return false; }
    static constexpr bool is_real() { return true; }

    // ups: lanes of v, shifted left, into the accumulator (see the file's
    // head).  shift in [0, 63]; ignored for float lanes.  Float lanes
    // (bfloat16, float) into an integer accumulator of 32-bit lanes give
    // what the hardware's register then holds: the fp32 bits of the
    // values (its float "ups" moves fp32 whatever the accumulator's tag);
    // to_vector<float / bfloat16> reads them back as fp32.
    template <typename T>
    IRON_AIE_INLINE void from_vector(const vector<T, Elems> &v, int shift = 0, IRON_AIE_LOC)
    {
        if constexpr (std::is_same_v<Tag, accfloat>) {
            static_assert(detail::is_float_elem_v<T>,
                          "accum<accfloat>::from_vector: bfloat16 or float lanes");
            IRON_AIE_COUNT(IRON_COUNT_VCONVERT, detail::count_regs(Elems * sizeof(T) * 8));
            for (unsigned i = 0; i < Elems; i++)
                lanes_[i] = detail::ftz(static_cast<float>(v.lanes_[i]));
        } else if constexpr (detail::is_float_elem_v<T>) {
            static_assert(sizeof(lane_type) == 4,
                          "accum<accN>::from_vector: float lanes only into 32-bit accumulator "
                          "lanes (acc16 / acc24 / acc32), as fp32 bits");
            accum<accfloat, Elems> f;
            f.from_vector(v, shift, IRON_AIE_AT);
            std::memcpy(lanes_, f.lanes_, sizeof lanes_);
        } else {
            static_assert(std::is_integral_v<T>,
                          "accum<accN>::from_vector: integer lanes");
            IRON_AIE_COUNT(IRON_COUNT_VCONVERT, detail::count_regs(Elems * sizeof(T) * 8));
            if (shift < 0 || shift > 63) [[unlikely]]
                iron__aie_fault("accum::from_vector: the shift is outside [0, 63]", IRON_AIE_AT);
            if (shift == 0 && sizeof(T) < sizeof(lane_type)) {
                for (unsigned i = 0; i < Elems; i++)
                    lanes_[i] = static_cast<lane_type>(v.lanes_[i]);
                return;
            }
            unsigned sat = detail::saturation(IRON_AIE_AT);
            for (unsigned i = 0; i < Elems; i++)
                lanes_[i] = detail::ups_lane<lane_type>(static_cast<int64_t>(v.lanes_[i]), shift, sat);
        }
    }

    // Assigning a vector: from_vector with shift 0.
    template <typename T>
    IRON_AIE_INLINE accum &operator=(const vector<T, Elems> &v)
    {
        from_vector(v);
        return *this;
    }

    // A float accumulator converts implicitly to a float or bfloat16 vector
    // of its size (up to 32 lanes), as to_vector<T>() does: so
    // `aie::vector<bfloat16, 16> v = aie::mul(a, b);` narrows with the
    // core's rounding mode.  Integer accumulators need to_vector(shift).
    template <typename T>
        requires(std::is_same_v<Tag, accfloat> && detail::is_float_elem_v<T> && Elems <= 32)
    IRON_AIE_INLINE operator vector<T, Elems>() const
    {
        return to_vector<T>();
    }

    // srs: the lanes shifted right, rounded and saturated into T (see the
    // file's head).  shift in [-4, 63]; ignored for float accumulators.
    template <typename T>
    IRON_AIE_INLINE vector<T, Elems> to_vector(int shift = 0, IRON_AIE_LOC) const
    {
        vector<T, Elems> r;
        if constexpr (!std::is_same_v<Tag, accfloat> && detail::is_float_elem_v<T>) {
            static_assert(sizeof(lane_type) == 4,
                          "accum<accN>::to_vector: float lanes only from 32-bit accumulator "
                          "lanes (acc16 / acc24 / acc32), read as fp32 bits");
            return cast_to<accfloat>().template to_vector<T>(shift, IRON_AIE_AT);
        } else if constexpr (std::is_same_v<Tag, accfloat>) {
            static_assert(detail::is_float_elem_v<T>,
                          "accum<accfloat>::to_vector: to bfloat16 or float");
            IRON_AIE_COUNT(IRON_COUNT_VCONVERT, detail::count_regs(Elems * sizeof(T) * 8));
            if constexpr (std::is_same_v<T, float>) {
                for (unsigned i = 0; i < Elems; i++)
                    r.lanes_[i] = lanes_[i];
            } else {
                unsigned rnd = detail::rounding(IRON_AIE_AT);
                detail::with_rounding(rnd, [&]<unsigned R>() {
                    for (unsigned i = 0; i < Elems; i++)
                        r.lanes_[i] = bfloat16::from_bits(detail::f32_to_bf16_mode(lanes_[i], R));
                });
            }
        } else {
            static_assert(std::is_integral_v<T>, "accum<accN>::to_vector: to integer lanes");
            IRON_AIE_COUNT(IRON_COUNT_VCONVERT, detail::count_regs(Elems * sizeof(T) * 8));
            if (shift < -4 || shift > 63) [[unlikely]]
                iron__aie_fault("accum::to_vector: the shift is outside [-4, 63]", IRON_AIE_AT);
            unsigned rnd = detail::rounding(IRON_AIE_AT), sat = detail::saturation(IRON_AIE_AT);
            detail::with_rounding(rnd, [&]<unsigned R>() {
                for (unsigned i = 0; i < Elems; i++)
                    r.lanes_[i] = detail::srs_lane<T, R>(lanes_[i], shift, sat);
            });
        }
        return r;
    }

    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr accum<Tag, ElemsOut> extract(unsigned idx) const
    {
        static_assert(ElemsOut <= Elems && Elems % ElemsOut == 0,
                      "accum::extract: the input must be a multiple of the output");
        accum<Tag, ElemsOut> r;
        for (unsigned i = 0; i < ElemsOut; i++)
            r.lanes_[i] = lanes_[idx * ElemsOut + i];
        return r;
    }

    template <unsigned ElemsIn>
    IRON_AIE_INLINE constexpr accum &insert(unsigned idx, const accum<Tag, ElemsIn> &a)
    {
        static_assert(ElemsIn <= Elems && Elems % ElemsIn == 0,
                      "accum::insert: the accumulator must be a multiple of the part");
        for (unsigned i = 0; i < ElemsIn; i++)
            lanes_[idx * ElemsIn + i] = a.lanes_[i];
        return *this;
    }

    template <unsigned ElemsIn, typename... Rest>
    IRON_AIE_INLINE constexpr accum &upd_all(const accum<Tag, ElemsIn> &first, const Rest &...rest)
    {
        static_assert(ElemsIn * (1 + sizeof...(Rest)) == Elems,
                      "accum::upd_all: the parts must fill the accumulator");
        unsigned k = 0;
        insert(k++, first);
        (insert(k++, rest), ...);
        return *this;
    }

    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr accum<Tag, ElemsOut> grow(unsigned idx = 0) const
    {
        static_assert(ElemsOut >= Elems && ElemsOut % Elems == 0,
                      "accum::grow: the output must be a multiple of the input");
        accum<Tag, ElemsOut> r;
        r.insert(idx, *this);
        return r;
    }

    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr accum<Tag, ElemsOut> grow_replicate() const
    {
        accum<Tag, ElemsOut> r;
        for (unsigned i = 0; i < ElemsOut; i++)
            r.lanes_[i] = lanes_[i % Elems];
        return r;
    }

    // The same bits seen as lanes of another accumulator tag.
    template <typename Tag2>
    IRON_AIE_INLINE auto cast_to() const
    {
        using L2 = typename detail::acc_lane<Tag2>::type;
        static_assert((Elems * sizeof(lane_type)) % sizeof(L2) == 0,
                      "accum::cast_to: the bits do not divide into the new lanes");
        accum<Tag2, Elems * sizeof(lane_type) / sizeof(L2)> r;
        std::memcpy(r.lanes_, lanes_, sizeof lanes_);
        return r;
    }

    // Lane access (an extension of the host AIE API, for tests and the
    // other detail headers; the hardware has no per-lane accumulator access).
    IRON_AIE_INLINE constexpr lane_type get(unsigned idx) const { return lanes_[idx]; }
    IRON_AIE_INLINE constexpr void set(lane_type v, unsigned idx) { lanes_[idx] = v; }
};

// vector::pack: narrow each lane to T2 with the core's saturation mode.
template <typename T, unsigned Elems>
template <typename T2>
IRON_AIE_INLINE vector<T2, Elems> vector<T, Elems>::pack(const char *iron_file_,
                                                         unsigned iron_line_) const
{
    static_assert(std::is_integral_v<T> && std::is_integral_v<T2> && sizeof(T2) < sizeof(T),
                  "vector::pack: integer lanes, to a narrower type");
    unsigned sat = detail::saturation(IRON_AIE_AT);
    vector<T2, Elems> r;
    for (unsigned i = 0; i < Elems; i++)
        r.lanes_[i] = detail::saturate_to<T2>(lanes_[i], sat);
    return r;
}

} // namespace aie
