// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// utils.hpp - the AIE API's utilities for kernels: printing vectors,
// accumulators and masks (aie::print, print_fixed, print_matrix) and the
// compile-time loop helpers (aie::unroll_for, unroll_times and their 2-D
// forms).  Printing goes through printf, so in the emulator each line is
// tagged with the worker that printed it, as any kernel output is.
//
// The formats are the AIE API's: each element followed by one space;
// floating-point lanes (bfloat16, float, accfloat) as "%f", signed
// integers as "%d", unsigned as "%u"; integer accumulator lanes as the
// hexadecimal bits of their storage ("0x" and 8 digits for acc16..acc32,
// 16 for acc40..acc64); mask bits as 1 or 0.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

#include "aie.hpp"

namespace aie {

namespace detail {

template <typename T> IRON_AIE_INLINE void print_lane(const T &e)
{
    if constexpr (is_float_elem_v<T> || std::is_floating_point_v<T>)
        printf("%f ", static_cast<double>(static_cast<float>(e)));
    else if constexpr (std::is_signed_v<T>)
        printf("%d ", static_cast<int>(e));
    else
        printf("%u ", static_cast<unsigned>(e));
}

template <typename T, unsigned N>
IRON_AIE_INLINE void print_elem(const vector<T, N> &v, unsigned i)
{
    print_lane(v.lanes_[i]);
}

template <typename Tag, unsigned N>
IRON_AIE_INLINE void print_elem(const accum<Tag, N> &a, unsigned i)
{
    using L = typename accum<Tag, N>::lane_type;
    if constexpr (std::is_floating_point_v<L>)
        print_lane(a.lanes_[i]);
    else if constexpr (sizeof(L) == 4)
        printf("0x%08x ", static_cast<unsigned>(static_cast<uint32_t>(a.lanes_[i])));
    else
        printf("0x%016llx ", static_cast<unsigned long long>(static_cast<uint64_t>(a.lanes_[i])));
}

template <typename C> inline constexpr bool is_printable_v = is_vector_v<C> || is_accum_v<C>;

} // namespace detail

// The elements of a vector or an accumulator on one line: `prefix` first
// when given, a newline at the end when nl.
template <typename C>
    requires(detail::is_printable_v<C>)
inline void print(const C &c, bool nl = false, const char *prefix = nullptr)
{
    if (prefix)
        printf("%s", prefix);
    for (unsigned i = 0; i < C::size(); i++)
        detail::print_elem(c, i);
    if (nl)
        printf("\n");
}

// The bits of a mask, lane 0 first.
template <unsigned N>
inline void print(const mask<N> &m, bool nl = false, const char *prefix = nullptr)
{
    if (prefix)
        printf("%s", prefix);
    for (unsigned i = 0; i < N; i++)
        printf("%d ", m.test(i) ? 1 : 0);
    if (nl)
        printf("\n");
}

// Integer lanes read as fixed point: each printed as lane * 2^scale.
template <typename T, unsigned N>
    requires(std::is_integral_v<T>)
inline void print_fixed(const vector<T, N> &v, int scale, bool nl = false, const char *prefix = nullptr)
{
    if (prefix)
        printf("%s", prefix);
    for (unsigned i = 0; i < N; i++)
        printf("%f ", std::ldexp(static_cast<double>(v.lanes_[i]), scale));
    if (nl)
        printf("\n");
}

// The elements as a matrix of `cols` columns (a power of two, at most the
// size; otherwise a kernel fault), one row per line.  Rows after the first
// are indented by the prefix's width -- at least one space, as the AIE
// API's layout does (it pads an empty indent to one column).
template <typename C>
    requires(detail::is_printable_v<C>)
inline void print_matrix(const C &m, unsigned cols, const char *prefix = nullptr, IRON_AIE_LOC)
{
    if (cols == 0 || (cols & (cols - 1)) != 0 || cols > C::size()) [[unlikely]]
        iron__aie_fault("aie::print_matrix: cols must be a power of two, at most the number of elements",
                        IRON_AIE_AT);
    const unsigned rows = C::size() / cols;
    int indent = 0;
    if (prefix) {
        printf("%s", prefix);
        indent = static_cast<int>(std::strlen(prefix));
    }
    for (unsigned r = 0; r < rows; r++) {
        for (unsigned c = 0; c < cols; c++)
            detail::print_elem(m, r * cols + c);
        printf("\n");
        if (r + 1 < rows)
            printf("%*c", indent, ' ');
    }
}

// ---- compile-time loops -----------------------------------------------------
// fn is called with each index (as an integral constant's value), or with
// no argument when it takes none.

namespace detail {
template <typename T, T I, typename Fn> IRON_AIE_INLINE constexpr void call_at(Fn &fn)
{
    if constexpr (std::is_invocable_v<Fn &, T>)
        fn(I);
    else
        fn();
}
template <typename T, T Start, T End, T Step, typename Fn>
IRON_AIE_INLINE constexpr void unroll_for(Fn &fn)
{
    static_assert(Step > 0, "aie::unroll_for: the step must be positive");
    if constexpr (Start < End) {
        call_at<T, Start>(fn);
        unroll_for<T, static_cast<T>(Start + Step), End, Step>(fn);
    }
}
template <typename T, T Y, T EndY, T StepY, T StartX, T EndX, T StepX, typename Fn>
IRON_AIE_INLINE constexpr void unroll_for_2d(Fn &fn)
{
    static_assert(StepY > 0 && StepX > 0, "aie::unroll_for_2d: the steps must be positive");
    if constexpr (Y < EndY) {
        auto row = [&](T x) {
            if constexpr (std::is_invocable_v<Fn &, T, T>)
                fn(Y, x);
            else
                fn();
        };
        unroll_for<T, StartX, EndX, StepX>(row);
        unroll_for_2d<T, static_cast<T>(Y + StepY), EndY, StepY, StartX, EndX, StepX>(fn);
    }
}
} // namespace detail

// fn(i) for i = Start, Start + Step, ... below End.
template <typename T, T Start, T End, T Step = 1, typename Fn>
IRON_AIE_INLINE constexpr void unroll_for(Fn &&fn)
{
    detail::unroll_for<T, Start, End, Step>(fn);
}

// fn(y, x) over the 2-D index space, y outermost.
template <typename T, T StartY, T EndY, T StepY, T StartX, T EndX, T StepX, typename Fn>
IRON_AIE_INLINE constexpr void unroll_for_2d(Fn &&fn)
{
    detail::unroll_for_2d<T, StartY, EndY, StepY, StartX, EndX, StepX>(fn);
}

// fn(i) for i = 0 .. Times - 1.
template <unsigned Times, typename Fn>
IRON_AIE_INLINE constexpr void unroll_times(Fn &&fn)
{
    detail::unroll_for<unsigned, 0u, Times, 1u>(fn);
}

// fn(y, x) for y < TimesY, x < TimesX, y outermost.
template <unsigned TimesY, unsigned TimesX, typename Fn>
IRON_AIE_INLINE constexpr void unroll_times_2d(Fn &&fn)
{
    detail::unroll_for_2d<unsigned, 0u, TimesY, 1u, 0u, TimesX, 1u>(fn);
}

} // namespace aie
