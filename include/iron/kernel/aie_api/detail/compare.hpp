// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// compare.hpp - lane comparisons into masks (lt, le, gt, ge, eq, neq),
// whole-vector equal / not_equal, and select.  Floats compare as IEEE
// values (a NaN lane is unequal to everything and not less or greater).
#pragma once

#include "arith.hpp"
#include "mask.hpp"

namespace aie {

#define IRON_AIE_CMP(name, op)                                                \
    template <typename A, typename B>                                         \
        requires(detail::is_vec_pair_v<A, B>)                                 \
    IRON_AIE_INLINE constexpr auto name(const A &a, const B &b)               \
    {                                                                         \
        using V = detail::pair_vec_t<A, B>;                                   \
        using T = typename V::value_type;                                     \
        mask<V::size()> m;                                                    \
        IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(V::size() * sizeof(T) * 8)); \
        for (unsigned i = 0; i < V::size(); i++)                              \
            m.lanes_[i] = detail::lane<T>(a, i) op detail::lane<T>(b, i);     \
        return m;                                                             \
    }
IRON_AIE_CMP(lt, <)
IRON_AIE_CMP(le, <=)
IRON_AIE_CMP(gt, >)
IRON_AIE_CMP(ge, >=)
IRON_AIE_CMP(eq, ==)
IRON_AIE_CMP(neq, !=)
#undef IRON_AIE_CMP

// Every lane equal (a scalar: equal to every lane).
template <typename A, typename B>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE constexpr bool equal(const A &a, const B &b) { return eq(a, b).full(); }
template <typename A, typename B>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE constexpr bool not_equal(const A &a, const B &b) { return !equal(a, b); }

// out[i] = m[i] ? b[i] : a[i]; a or b may be a scalar (both: below).
template <typename A, typename B, unsigned N>
    requires(detail::is_vec_pair_v<A, B>)
IRON_AIE_INLINE constexpr auto select(const A &a, const B &b, const mask<N> &m)
{
    using V = detail::pair_vec_t<A, B>;
    using T = typename V::value_type;
    static_assert(V::size() == N, "aie::select: the mask and the vectors differ in size");
    V r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = m.lanes_[i] ? detail::lane<T>(b, i) : detail::lane<T>(a, i);
    return r;
}

// Two scalars: out[i] = m[i] ? b : a, lanes of a's type.
template <typename E1, typename E2, unsigned N>
    requires(detail::is_scalar_v<E1> && detail::is_scalar_v<E2>)
IRON_AIE_INLINE constexpr vector<detail::bare_t<E1>, N> select(const E1 &a, const E2 &b, const mask<N> &m)
{
    using T = detail::bare_t<E1>;
    vector<T, N> r;
    IRON_AIE_COUNT(IRON_COUNT_VALU, detail::count_regs(N * sizeof(T) * 8));
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = m.lanes_[i] ? static_cast<T>(b) : a;
    return r;
}

template <typename T, unsigned N> IRON_AIE_INLINE constexpr mask<N> operator<(const vector<T, N> &a, const vector<T, N> &b) { return lt(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE constexpr mask<N> operator<=(const vector<T, N> &a, const vector<T, N> &b) { return le(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE constexpr mask<N> operator>(const vector<T, N> &a, const vector<T, N> &b) { return gt(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE constexpr mask<N> operator>=(const vector<T, N> &a, const vector<T, N> &b) { return ge(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE constexpr bool operator==(const vector<T, N> &a, const vector<T, N> &b) { return equal(a, b); }
template <typename T, unsigned N> IRON_AIE_INLINE constexpr bool operator!=(const vector<T, N> &a, const vector<T, N> &b) { return not_equal(a, b); }

namespace operators {
using aie::operator<;
using aie::operator<=;
using aie::operator>;
using aie::operator>=;
using aie::operator==;
using aie::operator!=;
} // namespace operators

} // namespace aie
