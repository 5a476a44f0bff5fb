// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// reduce.hpp - reductions of a vector to one value: reduce_add,
// reduce_max, reduce_min (and reduce_mul).  Integers: the sum wraps in the
// lane type (the order does not matter).  Floats: the order does, and the
// host follows the hardware's tree -- the upper half added to the lower
// half until one lane is left -- in float; a bfloat16 sum is rounded back
// once, at the end, with the core's rounding mode.
#pragma once

#include "arith.hpp"

namespace aie {

namespace detail {
// A reduction is a tree: log2(N) steps, each a shuffle of the upper half
// onto the lower and one lane operation.
template <typename T, unsigned N> IRON_AIE_INLINE constexpr void count_reduce(int kind)
{
    unsigned steps = 0;
    for (unsigned n = N; n > 1; n /= 2)
        steps++;
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, steps);
    IRON_AIE_COUNT(kind, steps);
    (void)kind;
    (void)steps;
}
} // namespace detail

template <typename T, unsigned N>
IRON_AIE_INLINE T reduce_add(const vector<T, N> &v, IRON_AIE_LOC)
{
    detail::count_reduce<T, N>(IRON_COUNT_VALU);
    if constexpr (detail::is_float_elem_v<T>) {
        float f[N];
        for (unsigned i = 0; i < N; i++)
            f[i] = detail::fval(v.lanes_[i]);
        for (unsigned n = N; n > 1; n /= 2)
            for (unsigned i = 0; i < n / 2; i++)
                f[i] = detail::ftz(f[i] + f[i + n / 2]);
        if constexpr (std::is_same_v<T, float>) {
            return f[0];
        } else {
            unsigned rnd = detail::rounding(IRON_AIE_AT);
            return bfloat16::from_bits(detail::f32_to_bf16_mode(f[0], rnd));
        }
    } else {
        T s = 0;
        for (unsigned i = 0; i < N; i++)
            s = detail::iwrap_add(s, v.lanes_[i]);
        return s;
    }
}

template <typename T, unsigned N>
IRON_AIE_INLINE T reduce_mul(const vector<T, N> &v)
{
    detail::count_reduce<T, N>(IRON_COUNT_VALU);
    static_assert(std::is_integral_v<T>, "aie::reduce_mul: integer lanes on the host");
    using U = std::make_unsigned_t<decltype(v.lanes_[0] * v.lanes_[0])>;
    U p = 1;
    for (unsigned i = 0; i < N; i++)
        p = static_cast<U>(p * static_cast<U>(v.lanes_[i]));
    return static_cast<T>(p);
}

// As max / min (arith.hpp), folded from lane 0 up.
template <typename T, unsigned N>
IRON_AIE_INLINE constexpr T reduce_max(const vector<T, N> &v)
{
    detail::count_reduce<T, N>(IRON_COUNT_VALU);
    T m = v.lanes_[0];
    for (unsigned i = 1; i < N; i++)
        m = v.lanes_[i] > m ? v.lanes_[i] : m;
    return m;
}

template <typename T, unsigned N>
IRON_AIE_INLINE constexpr T reduce_min(const vector<T, N> &v)
{
    detail::count_reduce<T, N>(IRON_COUNT_VALU);
    T m = v.lanes_[0];
    for (unsigned i = 1; i < N; i++)
        m = v.lanes_[i] < m ? v.lanes_[i] : m;
    return m;
}

} // namespace aie
