// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// arith.hpp - element-wise arithmetic: zeros, broadcast, add / sub (and on
// accumulators), mul / mac / msc / negmul / mul_square / accumulate into
// accumulators, abs / neg / max / min / maxdiff, the bit operations and
// shifts, to_float / to_fixed, and the operators.  Operands are vectors or
// scalars (a scalar stands for every lane), as in the AIE API.
//
// Semantics (docs/kernels.md says the same for users):
//  - integer vector add / sub / neg / abs wrap in the lane type (abs of the
//    minimum is the minimum);
//  - products are exact and accumulate wrapping in the accumulator's lane
//    width (acc32: 32 bits, acc48/acc64: 64); the default accumulator per
//    type pair is the AIE API's (accum.hpp);
//  - bfloat16 operands are exact in float; products of two bfloat16 are
//    exact; sums are float sums (round to nearest even); subnormal
//    operands and results are flushed to zero (the float datapath has
//    none); bfloat16 add / sub round the float sum back with the core's
//    rounding mode, as the hardware does through an accfloat;
//  - float (fp32) vectors add, subtract and multiply as IEEE floats (the
//    AIE2 emulates fp32 products; the host's are correctly rounded);
//  - max / min of floats: max(a, b) is b when b > a, else a (so a NaN in b
//    gives a, a NaN in a gives the NaN).
#pragma once

#include <cmath>
#include <type_traits>

#include "accum.hpp"
#include "bfloat16.hpp"
#include "config.hpp"
#include "count.hpp"
#include "modes.hpp"
#include "vector.hpp"

namespace aie {

namespace detail {

template <typename X> using bare_t = std::remove_cvref_t<X>;
// A scalar operand: an element type or any arithmetic value.
template <typename X>
inline constexpr bool is_scalar_v = is_elem_v<bare_t<X>> || std::is_arithmetic_v<bare_t<X>>;

template <typename X> struct vec_traits { static constexpr unsigned size = 0; using type = void; };
template <typename T, unsigned N> struct vec_traits<vector<T, N>> { static constexpr unsigned size = N; using type = T; };

// The vector type of a (vector, vector|scalar) or (scalar, vector) pair.
template <typename A, typename B>
using pair_vec_t = std::conditional_t<is_vector_v<A>, bare_t<A>, bare_t<B>>;

template <typename A, typename B>
inline constexpr bool is_vec_pair_v =
    (is_vector_v<A> && is_vector_v<B> && std::is_same_v<bare_t<A>, bare_t<B>>) ||
    (is_vector_v<A> && is_scalar_v<B>) || (is_scalar_v<A> && is_vector_v<B>);

template <typename T, typename X> IRON_AIE_INLINE constexpr T lane(const X &x, unsigned i)
{
    if constexpr (is_vector_v<X>)
        return x.lanes_[i];
    else
        return static_cast<T>(x);
}

// As the float datapath reads it.
template <typename T> IRON_AIE_INLINE constexpr float fval(T v) { return ftz(static_cast<float>(v)); }

template <typename T> IRON_AIE_INLINE constexpr T iwrap_add(T a, T b)
{
    using U = std::make_unsigned_t<decltype(a + b)>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <typename T> IRON_AIE_INLINE constexpr T iwrap_sub(T a, T b)
{
    using U = std::make_unsigned_t<decltype(a - b)>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}

// a op b element-wise for the vector type V; the bfloat16 case reads the
// rounding mode once.
template <typename V, typename A, typename B, typename FI, typename FF>
IRON_AIE_INLINE V lanewise(const A &a, const B &b, FI fi, FF ff, const char *file, unsigned line)
{
    using T = typename V::value_type;
    constexpr unsigned N = V::size();
    V r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    if constexpr (std::is_same_v<T, bfloat16>) {
        unsigned rnd = rounding(file, line);
        with_rounding(rnd, [&]<unsigned R>() {
            for (unsigned i = 0; i < N; i++)
                r.lanes_[i] = bfloat16::from_bits(
                    f32_to_bf16_mode(ff(fval(lane<T>(a, i)), fval(lane<T>(b, i))), R));
        });
    } else if constexpr (std::is_same_v<T, float>) {
        for (unsigned i = 0; i < N; i++)
            r.lanes_[i] = ff(lane<T>(a, i), lane<T>(b, i));
    } else {
        for (unsigned i = 0; i < N; i++)
            r.lanes_[i] = fi(lane<T>(a, i), lane<T>(b, i));
    }
    return r;
}

// The exact product of two lanes as an accumulator lane L.
template <typename L, typename TA, typename TB>
IRON_AIE_INLINE constexpr L mul_lane(TA a, TB b)
{
    if constexpr (std::is_floating_point_v<L>) {
        return ftz(fval(a) * fval(b));
    } else {
        uint64_t p = static_cast<uint64_t>(static_cast<int64_t>(a)) *
                     static_cast<uint64_t>(static_cast<int64_t>(b));
        return static_cast<L>(p);
    }
}

template <typename L> IRON_AIE_INLINE constexpr L acc_add(L a, L b)
{
    if constexpr (std::is_floating_point_v<L>)
        return ftz(a + b);
    else
        return wrap_add(a, b);
}
template <typename L> IRON_AIE_INLINE constexpr L acc_sub(L a, L b)
{
    if constexpr (std::is_floating_point_v<L>)
        return ftz(a - b);
    else
        return wrap_sub(a, b);
}

// Element types of a mul operand pair and its vector size.
template <typename A, typename B> struct mul_types {
    using TA = std::conditional_t<is_vector_v<A>, typename vec_traits<bare_t<A>>::type,
                                  typename vec_traits<pair_vec_t<A, B>>::type>;
    using TB = std::conditional_t<is_vector_v<B>, typename vec_traits<bare_t<B>>::type,
                                  typename vec_traits<pair_vec_t<A, B>>::type>;
    static constexpr unsigned size =
        is_vector_v<A> ? vec_traits<bare_t<A>>::size : vec_traits<bare_t<B>>::size;
};

template <typename A, typename B>
inline constexpr bool is_mul_pair_v =
    (is_vector_v<A> && is_vector_v<B> && vec_traits<bare_t<A>>::size == vec_traits<bare_t<B>>::size) ||
    (is_vector_v<A> && is_scalar_v<B>) || (is_scalar_v<A> && is_vector_v<B>);

} // namespace detail

// ---- zeros / broadcast -------------------------------------------------------

template <typename T, unsigned Elems = detail::native_vector_length_v<T>>
IRON_AIE_INLINE constexpr auto zeros()
{
    if constexpr (detail::is_acc_tag_v<T>)
        return accum<T, Elems>();
    else
        return vector<T, Elems>();
}

template <typename T, unsigned Elems = detail::native_vector_length_v<T>, typename E>
IRON_AIE_INLINE constexpr vector<T, Elems> broadcast(E value)
{
    vector<T, Elems> r;
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(Elems * sizeof(T) * 8));
    for (unsigned i = 0; i < Elems; i++)
        r.lanes_[i] = static_cast<T>(value);
    return r;
}

// ---- add / sub -----------------------------------------------------------------

template <typename A, typename B>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE auto add(const A &a, const B &b, IRON_AIE_LOC)
{
    using V = detail::pair_vec_t<A, B>;
    return detail::lanewise<V>(
        a, b, [](auto x, auto y) { return detail::iwrap_add(x, y); },
        [](float x, float y) { return x + y; }, IRON_AIE_AT);
}

template <typename A, typename B>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE auto sub(const A &a, const B &b, IRON_AIE_LOC)
{
    using V = detail::pair_vec_t<A, B>;
    return detail::lanewise<V>(
        a, b, [](auto x, auto y) { return detail::iwrap_sub(x, y); },
        [](float x, float y) { return x - y; }, IRON_AIE_AT);
}

namespace detail {
// The sums without a count of their own: mac and msc add in the
// multiplier's one operation.
template <typename Tag, unsigned N>
IRON_AIE_INLINE accum<Tag, N> acc_plus(const accum<Tag, N> &a, const accum<Tag, N> &b)
{
    accum<Tag, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = acc_add(a.lanes_[i], b.lanes_[i]);
    return r;
}
template <typename Tag, unsigned N>
IRON_AIE_INLINE accum<Tag, N> acc_minus(const accum<Tag, N> &a, const accum<Tag, N> &b)
{
    accum<Tag, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = acc_sub(a.lanes_[i], b.lanes_[i]);
    return r;
}
} // namespace detail

// Accumulator + accumulator, or + a vector (taken in at shift 0).
template <typename Tag, unsigned N>
IRON_AIE_INLINE accum<Tag, N> add(const accum<Tag, N> &a, const accum<Tag, N> &b)
{
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(accum<Tag, N>::bits()));
    return detail::acc_plus(a, b);
}
template <typename Tag, unsigned N>
IRON_AIE_INLINE accum<Tag, N> sub(const accum<Tag, N> &a, const accum<Tag, N> &b)
{
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(accum<Tag, N>::bits()));
    return detail::acc_minus(a, b);
}
template <typename Tag, unsigned N, typename T>
IRON_AIE_INLINE accum<Tag, N> add(const accum<Tag, N> &a, const vector<T, N> &v)
{
    return add(a, accum<Tag, N>(v));
}
template <typename Tag, unsigned N, typename T>
IRON_AIE_INLINE accum<Tag, N> sub(const accum<Tag, N> &a, const vector<T, N> &v)
{
    return sub(a, accum<Tag, N>(v));
}

// ---- multiplications into accumulators ---------------------------------------

template <typename AccTag = accauto, typename A, typename B>
    requires(detail::is_mul_pair_v<A, B>)
IRON_AIE_INLINE auto mul(const A &a, const B &b)
{
    using MT = detail::mul_types<A, B>;
    using TA = typename MT::TA;
    using TB = typename MT::TB;
    static_assert(detail::is_float_elem_v<TA> == detail::is_float_elem_v<TB>,
                  "aie::mul: both operands integer or both floating point");
    using Tag = detail::acc_tag_or_default_t<AccTag, TA, TB>;
    using L = typename detail::acc_lane<Tag>::type;
    accum<Tag, MT::size> r;
    IRON_AIE_COUNT((detail::count_emul_v<TA, TB>), MT::size);
    for (unsigned i = 0; i < MT::size; i++)
        r.lanes_[i] = detail::mul_lane<L>(detail::lane<TA>(a, i), detail::lane<TB>(b, i));
    return r;
}

template <typename AccTag = accauto, typename A, typename B>
    requires(detail::is_mul_pair_v<A, B>)
IRON_AIE_INLINE auto negmul(const A &a, const B &b)
{
    auto r = mul<AccTag>(a, b);
    for (unsigned i = 0; i < r.size(); i++)
        r.lanes_[i] = detail::acc_sub(typename decltype(r)::lane_type(0), r.lanes_[i]);
    return r;
}

template <typename AccTag = accauto, typename T, unsigned N>
IRON_AIE_INLINE auto mul_square(const vector<T, N> &v)
{
    return mul<AccTag>(v, v);
}

template <typename Tag, unsigned N, typename A, typename B>
    requires(detail::is_mul_pair_v<A, B>)
IRON_AIE_INLINE accum<Tag, N> mac(const accum<Tag, N> &acc, const A &a, const B &b)
{
    static_assert(detail::mul_types<A, B>::size == N, "aie::mac: the accumulator and the operands differ in size");
    return detail::acc_plus(acc, mul<Tag>(a, b));
}

template <typename Tag, unsigned N, typename A, typename B>
    requires(detail::is_mul_pair_v<A, B>)
IRON_AIE_INLINE accum<Tag, N> msc(const accum<Tag, N> &acc, const A &a, const B &b)
{
    static_assert(detail::mul_types<A, B>::size == N, "aie::msc: the accumulator and the operands differ in size");
    return detail::acc_minus(acc, mul<Tag>(a, b));
}

template <typename Tag, unsigned N, typename T>
IRON_AIE_INLINE accum<Tag, N> mac_square(const accum<Tag, N> &acc, const vector<T, N> &v)
{
    return mac(acc, v, v);
}
template <typename Tag, unsigned N, typename T>
IRON_AIE_INLINE accum<Tag, N> msc_square(const accum<Tag, N> &acc, const vector<T, N> &v)
{
    return msc(acc, v, v);
}

// out[i] = acc[i] + sum_k coeff[start + k] * data_k[i], for i < Lanes.
template <unsigned Lanes, typename Tag, typename TC, unsigned NC, typename TD, unsigned ND, typename... Next>
IRON_AIE_INLINE accum<Tag, Lanes> accumulate(const accum<Tag, Lanes> &acc, const vector<TC, NC> &coeff,
                                             unsigned coeff_start, const vector<TD, ND> &data,
                                             const Next &...next)
{
    static_assert(ND >= Lanes && ((detail::vec_traits<Next>::size == ND) && ...),
                  "aie::accumulate: the data vectors need Lanes elements and one size");
    if (coeff_start + 1 + sizeof...(Next) > NC) [[unlikely]]
        // (no caller's line: the data pack cannot be followed by defaults)
        iron__aie_fault("aie::accumulate: coeff_start leaves too few coefficients", __FILE__, __LINE__);
    using L = typename detail::acc_lane<Tag>::type;
    accum<Tag, Lanes> r = acc;
    IRON_AIE_COUNT((detail::count_emul_v<TC, TD>), Lanes * (1 + sizeof...(Next)));
    unsigned k = coeff_start;
    auto one = [&](const vector<TD, ND> &d) {
        TC c = coeff.lanes_[k++];
        for (unsigned i = 0; i < Lanes; i++)
            r.lanes_[i] = detail::acc_add(r.lanes_[i], detail::mul_lane<L>(c, d.lanes_[i]));
    };
    one(data);
    (one(next), ...);
    return r;
}

template <unsigned Lanes, typename AccTag = accauto, typename TC, unsigned NC, typename TD, unsigned ND,
          typename... Next>
IRON_AIE_INLINE auto accumulate(const vector<TC, NC> &coeff, unsigned coeff_start,
                                const vector<TD, ND> &data, const Next &...next)
{
    using Tag = detail::acc_tag_or_default_t<AccTag, TC, TD>;
    return accumulate<Lanes>(accum<Tag, Lanes>(), coeff, coeff_start, data, next...);
}

// ---- unary and min/max -----------------------------------------------------------

template <typename T, unsigned N>
IRON_AIE_INLINE constexpr vector<T, N> neg(const vector<T, N> &v)
{
    vector<T, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++) {
        if constexpr (std::is_same_v<T, bfloat16>)
            r.lanes_[i] = bfloat16::from_bits(v.lanes_[i].bits_ ^ 0x8000u);
        else if constexpr (std::is_same_v<T, float>)
            r.lanes_[i] = -v.lanes_[i];
        else
            r.lanes_[i] = detail::iwrap_sub(T(0), v.lanes_[i]);
    }
    return r;
}

template <typename T, unsigned N>
IRON_AIE_INLINE constexpr vector<T, N> abs(const vector<T, N> &v)
{
    vector<T, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++) {
        if constexpr (std::is_same_v<T, bfloat16>)
            r.lanes_[i] = bfloat16::from_bits(v.lanes_[i].bits_ & 0x7fffu);
        else if constexpr (std::is_same_v<T, float>)
            r.lanes_[i] = std::fabs(v.lanes_[i]);
        else if constexpr (std::is_signed_v<T>)
            r.lanes_[i] = v.lanes_[i] < 0 ? detail::iwrap_sub(T(0), v.lanes_[i]) : v.lanes_[i];
        else
            r.lanes_[i] = v.lanes_[i];
    }
    return r;
}

template <typename A, typename B>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE constexpr auto max(const A &a, const B &b)
{
    using V = detail::pair_vec_t<A, B>;
    using T = typename V::value_type;
    V r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(V::size() * sizeof(typename V::value_type) * 8));
    for (unsigned i = 0; i < V::size(); i++) {
        T x = detail::lane<T>(a, i), y = detail::lane<T>(b, i);
        r.lanes_[i] = y > x ? y : x;
    }
    return r;
}

template <typename A, typename B>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE constexpr auto min(const A &a, const B &b)
{
    using V = detail::pair_vec_t<A, B>;
    using T = typename V::value_type;
    V r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(V::size() * sizeof(typename V::value_type) * 8));
    for (unsigned i = 0; i < V::size(); i++) {
        T x = detail::lane<T>(a, i), y = detail::lane<T>(b, i);
        r.lanes_[i] = y < x ? y : x;
    }
    return r;
}

// a > b ? a - b : 0 (integers wrap; floats as sub)
template <typename A, typename B>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE auto maxdiff(const A &a, const B &b, IRON_AIE_LOC)
{
    using V = detail::pair_vec_t<A, B>;
    using T = typename V::value_type;
    V d = sub(a, b, IRON_AIE_AT);
    V r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(V::size() * sizeof(typename V::value_type) * 8));
    for (unsigned i = 0; i < V::size(); i++)
        r.lanes_[i] = detail::lane<T>(a, i) > detail::lane<T>(b, i) ? d.lanes_[i] : T(0);
    return r;
}

// ---- bits and shifts (integer lanes) -------------------------------------------

#define IRON_AIE_BITOP(name, op)                                              \
    template <typename A, typename B>                                         \
        requires(detail::is_vec_pair_v<A, B>)                                 \
    IRON_AIE_INLINE constexpr auto name(const A &a, const B &b)               \
    {                                                                         \
        using V = detail::pair_vec_t<A, B>;                                   \
        using T = typename V::value_type;                                     \
        static_assert(std::is_integral_v<T>, "aie::" #name ": integer lanes"); \
        V r;                                                                  \
        IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(V::size() * sizeof(T) * 8)); \
        for (unsigned i = 0; i < V::size(); i++)                              \
            r.lanes_[i] = static_cast<T>(detail::lane<T>(a, i) op detail::lane<T>(b, i)); \
        return r;                                                             \
    }
IRON_AIE_BITOP(bit_and, &)
IRON_AIE_BITOP(bit_or, |)
IRON_AIE_BITOP(bit_xor, ^)
#undef IRON_AIE_BITOP

template <typename T, unsigned N>
IRON_AIE_INLINE constexpr vector<T, N> bit_not(const vector<T, N> &v)
{
    static_assert(std::is_integral_v<T>, "aie::bit_not: integer lanes");
    vector<T, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = static_cast<T>(~v.lanes_[i]);
    return r;
}

// Shifts by 0 .. bits-1 (other amounts fault): upshift left, downshift
// arithmetic right (logical for unsigned lanes), logical_downshift logical.
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> upshift(const vector<T, N> &v, unsigned shift, IRON_AIE_LOC)
{
    static_assert(std::is_integral_v<T>, "aie::upshift: integer lanes");
    if (shift >= sizeof(T) * 8) [[unlikely]]
        iron__aie_fault("aie::upshift: the shift is not less than the lane's bits", IRON_AIE_AT);
    vector<T, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(v.lanes_[i]) << shift);
    return r;
}
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> downshift(const vector<T, N> &v, unsigned shift, IRON_AIE_LOC)
{
    static_assert(std::is_integral_v<T>, "aie::downshift: integer lanes");
    if (shift >= sizeof(T) * 8) [[unlikely]]
        iron__aie_fault("aie::downshift: the shift is not less than the lane's bits", IRON_AIE_AT);
    vector<T, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = static_cast<T>(v.lanes_[i] >> shift);
    return r;
}
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> logical_downshift(const vector<T, N> &v, unsigned shift, IRON_AIE_LOC)
{
    static_assert(std::is_integral_v<T>, "aie::logical_downshift: integer lanes");
    if (shift >= sizeof(T) * 8) [[unlikely]]
        iron__aie_fault("aie::logical_downshift: the shift is not less than the lane's bits", IRON_AIE_AT);
    vector<T, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(v.lanes_[i]) >> shift);
    return r;
}

// ---- fixed <-> float -------------------------------------------------------------

// a / 2^shift as a float (rounded to nearest even).
template <typename TR = float>
IRON_AIE_INLINE float to_float(int a, int shift = 0)
{
    return static_cast<float>(std::ldexp(static_cast<double>(a), -shift));
}
template <typename TR = float, typename T, unsigned N>
    requires(std::is_integral_v<T>)
IRON_AIE_INLINE vector<TR, N> to_float(const vector<T, N> &v, int shift = 0)
{
    vector<TR, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VCONVERT, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = static_cast<TR>(static_cast<float>(std::ldexp(static_cast<double>(v.lanes_[i]), -shift)));
    return r;
}

namespace detail {
// f * 2^shift rounded to nearest (ties to even) and saturated to TR; NaN -> 0.
template <typename TR> IRON_AIE_INLINE TR fixed_lane(float f, int shift)
{
    double x = std::nearbyint(std::ldexp(static_cast<double>(f), shift));
    if (x != x)
        return 0;
    if (x >= static_cast<double>(std::numeric_limits<TR>::max()))
        return std::numeric_limits<TR>::max();
    if (x <= static_cast<double>(std::numeric_limits<TR>::min()))
        return std::numeric_limits<TR>::min();
    return static_cast<TR>(x);
}
} // namespace detail

template <typename TR = int32, typename T>
    requires(detail::is_float_elem_v<T>)
IRON_AIE_INLINE TR to_fixed(T a, int shift = 0)
{
    return detail::fixed_lane<TR>(static_cast<float>(a), shift);
}
template <typename TR = int32, typename T, unsigned N>
    requires(detail::is_float_elem_v<T>)
IRON_AIE_INLINE vector<TR, N> to_fixed(const vector<T, N> &v, int shift = 0)
{
    vector<TR, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VCONVERT, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = detail::fixed_lane<TR>(static_cast<float>(v.lanes_[i]), shift);
    return r;
}

// ---- operators ----------------------------------------------------------------------
// The AIE API offers these in aie::operators; here they are also found by
// argument-dependent lookup.

template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator+(const vector<T, N> &a, const vector<T, N> &b) { return add(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator-(const vector<T, N> &a, const vector<T, N> &b) { return sub(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator-(const vector<T, N> &a) { return neg(a); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator&(const vector<T, N> &a, const vector<T, N> &b) { return bit_and(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator|(const vector<T, N> &a, const vector<T, N> &b) { return bit_or(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator^(const vector<T, N> &a, const vector<T, N> &b) { return bit_xor(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator~(const vector<T, N> &a) { return bit_not(a); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator<<(const vector<T, N> &a, unsigned s) { return upshift(a, s); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> operator>>(const vector<T, N> &a, unsigned s) { return downshift(a, s); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> &operator+=(vector<T, N> &a, const vector<T, N> &b) { return a = add(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE vector<T, N> &operator-=(vector<T, N> &a, const vector<T, N> &b) { return a = sub(a, b); }
template <typename Tag, unsigned N> IRON_AIE_INLINE accum<Tag, N> operator+(const accum<Tag, N> &a, const accum<Tag, N> &b) { return add(a, b); }
template <typename Tag, unsigned N> IRON_AIE_INLINE accum<Tag, N> operator-(const accum<Tag, N> &a, const accum<Tag, N> &b) { return sub(a, b); }
template <typename Tag, unsigned N> IRON_AIE_INLINE accum<Tag, N> &operator+=(accum<Tag, N> &a, const accum<Tag, N> &b) { return a = add(a, b); }
template <typename Tag, unsigned N> IRON_AIE_INLINE accum<Tag, N> &operator-=(accum<Tag, N> &a, const accum<Tag, N> &b) { return a = sub(a, b); }

namespace operators {
using aie::operator+;
using aie::operator-;
using aie::operator&;
using aie::operator|;
using aie::operator^;
using aie::operator~;
using aie::operator<<;
using aie::operator>>;
using aie::operator+=;
using aie::operator-=;
} // namespace operators

} // namespace aie
