// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// permute.hpp - moving lanes: concat, filter_even / filter_odd,
// interleave_zip / interleave_unzip, the shuffles (up / down, with fill,
// replicate or rotate), reverse and transpose.  Lanes the AIE API leaves
// undefined (shuffle_up / shuffle_down's new lanes) are zero here.  Counts
// and chunk sizes out of range fault with the kernel's line.
#pragma once

#include <utility>

#include "accum.hpp"
#include "count.hpp"
#include "vector.hpp"

namespace aie {

// ---- concat ------------------------------------------------------------------------

template <typename T, unsigned N, typename... Rest>
    requires((std::is_same_v<Rest, vector<T, N>> && ...))
IRON_AIE_INLINE constexpr vector<T, N * (1 + sizeof...(Rest))> concat(const vector<T, N> &first, const Rest &...rest)
{
    vector<T, N * (1 + sizeof...(Rest))> r;
    r.upd_all(first, rest...);
    return r;
}

template <typename Tag, unsigned N, typename... Rest>
    requires((std::is_same_v<Rest, accum<Tag, N>> && ...))
IRON_AIE_INLINE constexpr accum<Tag, N * (1 + sizeof...(Rest))> concat(const accum<Tag, N> &first, const Rest &...rest)
{
    accum<Tag, N * (1 + sizeof...(Rest))> r;
    r.upd_all(first, rest...);
    return r;
}

namespace detail {
IRON_AIE_INLINE void check_chunk(unsigned chunk, unsigned limit, const char *what, const char *file, unsigned line)
{
    if (chunk == 0 || (chunk & (chunk - 1)) != 0 || chunk > limit) [[unlikely]]
        iron__aie_fault(what, file, line);
}
} // namespace detail

// ---- filter ----------------------------------------------------------------------------

// The even (odd) chunks of chunk_size lanes, in order: half the lanes.
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N / 2> filter_even(const vector<T, N> &v, unsigned chunk_size = 1, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_chunk(chunk_size, N / 2, "aie::filter_even: chunk_size must be a power of two up to half the lanes", IRON_AIE_AT);
    vector<T, N / 2> r;
    for (unsigned i = 0; i < N / 2; i++)
        r.lanes_[i] = v.lanes_[(i / chunk_size) * 2 * chunk_size + i % chunk_size];
    return r;
}

template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N / 2> filter_odd(const vector<T, N> &v, unsigned chunk_size = 1, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_chunk(chunk_size, N / 2, "aie::filter_odd: chunk_size must be a power of two up to half the lanes", IRON_AIE_AT);
    vector<T, N / 2> r;
    for (unsigned i = 0; i < N / 2; i++)
        r.lanes_[i] = v.lanes_[(i / chunk_size) * 2 * chunk_size + chunk_size + i % chunk_size];
    return r;
}

// ---- interleave -----------------------------------------------------------------------

// Chunks of a and b taken in turn (a0 b0 a1 b1 ...); the first N lanes of
// that in .first, the rest in .second.
template <typename T, unsigned N>
IRON_AIE_INLINE std::pair<vector<T, N>, vector<T, N>> interleave_zip(const vector<T, N> &a, const vector<T, N> &b,
                                                                     unsigned chunk_size = 1, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_chunk(chunk_size, N, "aie::interleave_zip: chunk_size must be a power of two up to the lanes", IRON_AIE_AT);
    T z[2 * N];
    for (unsigned i = 0; i < 2 * N; i++) {
        unsigned c = i / chunk_size, k = i % chunk_size;
        const vector<T, N> &src = (c & 1) ? b : a;
        z[i] = src.lanes_[(c / 2) * chunk_size + k];
    }
    std::pair<vector<T, N>, vector<T, N>> r;
    for (unsigned i = 0; i < N; i++) {
        r.first.lanes_[i] = z[i];
        r.second.lanes_[i] = z[N + i];
    }
    return r;
}

// The inverse: a then b read as chunks; the even chunks in .first, the odd in .second.
template <typename T, unsigned N>
IRON_AIE_INLINE std::pair<vector<T, N>, vector<T, N>> interleave_unzip(const vector<T, N> &a, const vector<T, N> &b,
                                                                       unsigned chunk_size = 1, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_chunk(chunk_size, N, "aie::interleave_unzip: chunk_size must be a power of two up to the lanes", IRON_AIE_AT);
    std::pair<vector<T, N>, vector<T, N>> r;
    for (unsigned i = 0; i < N; i++) {
        unsigned c = i / chunk_size, k = i % chunk_size;
        unsigned ev = 2 * c * chunk_size + k, od = ev + chunk_size;
        r.first.lanes_[i] = ev < N ? a.lanes_[ev] : b.lanes_[ev - N];
        r.second.lanes_[i] = od < N ? a.lanes_[od] : b.lanes_[od - N];
    }
    return r;
}

// ---- shuffles ---------------------------------------------------------------------------

namespace detail {
IRON_AIE_INLINE void check_shift(unsigned n, unsigned limit, const char *what, const char *file, unsigned line)
{
    if (n > limit) [[unlikely]]
        iron__aie_fault(what, file, line);
}
} // namespace detail

// out[i + n] = v[i]; the n new lanes zero.
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> shuffle_up(const vector<T, N> &v, unsigned n, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_shift(n, N, "aie::shuffle_up: n is larger than the lanes", IRON_AIE_AT);
    vector<T, N> r;
    for (unsigned i = n; i < N; i++)
        r.lanes_[i] = v.lanes_[i - n];
    return r;
}

// out[i] = v[i + n]; the n new lanes zero.
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> shuffle_down(const vector<T, N> &v, unsigned n, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_shift(n, N, "aie::shuffle_down: n is larger than the lanes", IRON_AIE_AT);
    vector<T, N> r;
    for (unsigned i = 0; i + n < N; i++)
        r.lanes_[i] = v.lanes_[i + n];
    return r;
}

// The new lanes from the top (bottom) of fill.
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> shuffle_up_fill(const vector<T, N> &v, const vector<T, N> &fill, unsigned n, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_shift(n, N, "aie::shuffle_up_fill: n is larger than the lanes", IRON_AIE_AT);
    vector<T, N> r = shuffle_up(v, n, IRON_AIE_AT);
    for (unsigned i = 0; i < n; i++)
        r.lanes_[i] = fill.lanes_[i + N - n];
    return r;
}

template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> shuffle_down_fill(const vector<T, N> &v, const vector<T, N> &fill, unsigned n, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_shift(n, N, "aie::shuffle_down_fill: n is larger than the lanes", IRON_AIE_AT);
    vector<T, N> r = shuffle_down(v, n, IRON_AIE_AT);
    for (unsigned i = 0; i < n; i++)
        r.lanes_[i + N - n] = fill.lanes_[i];
    return r;
}

// The new lanes copies of the first (last) lane.
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> shuffle_up_replicate(const vector<T, N> &v, unsigned n, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_shift(n, N, "aie::shuffle_up_replicate: n is larger than the lanes", IRON_AIE_AT);
    vector<T, N> r = shuffle_up(v, n, IRON_AIE_AT);
    for (unsigned i = 0; i < n; i++)
        r.lanes_[i] = v.lanes_[0];
    return r;
}

template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> shuffle_down_replicate(const vector<T, N> &v, unsigned n, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    detail::check_shift(n, N, "aie::shuffle_down_replicate: n is larger than the lanes", IRON_AIE_AT);
    vector<T, N> r = shuffle_down(v, n, IRON_AIE_AT);
    for (unsigned i = 0; i < n; i++)
        r.lanes_[i + N - n] = v.lanes_[N - 1];
    return r;
}

// Rotations: any n (taken modulo the lanes).
template <typename T, unsigned N>
IRON_AIE_INLINE constexpr vector<T, N> shuffle_up_rotate(const vector<T, N> &v, unsigned n)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    vector<T, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[(i + n) % N] = v.lanes_[i];
    return r;
}

template <typename T, unsigned N>
IRON_AIE_INLINE constexpr vector<T, N> shuffle_down_rotate(const vector<T, N> &v, unsigned n)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    vector<T, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = v.lanes_[(i + n) % N];
    return r;
}

template <typename T, unsigned N>
IRON_AIE_INLINE constexpr vector<T, N> reverse(const vector<T, N> &v)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    vector<T, N> r;
    for (unsigned i = 0; i < N; i++)
        r.lanes_[i] = v.lanes_[N - 1 - i];
    return r;
}

// v read as a row-major Row x Col matrix; the result is its transpose,
// row-major (Col x Row).
template <typename T, unsigned N>
IRON_AIE_INLINE vector<T, N> transpose(const vector<T, N> &v, unsigned Row, unsigned Col, IRON_AIE_LOC)
{
    IRON_AIE_COUNT(IRON_COUNT_VSHUFFLE, detail::count_regs(N * sizeof(T) * 8));
    if (Row * Col != N) [[unlikely]]
        iron__aie_fault("aie::transpose: Row * Col is not the vector's size", IRON_AIE_AT);
    vector<T, N> r;
    for (unsigned i = 0; i < Row; i++)
        for (unsigned j = 0; j < Col; j++)
            r.lanes_[j * Row + i] = v.lanes_[i * Col + j];
    return r;
}

} // namespace aie
