// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// intrinsics.hpp - the raw AIE2 / AIE2P vector types (v16int32, v16acc64,
// v32bfloat16, ...) and the intrinsics kernels call on them directly
// (add, shift_bytes, upd_elem, lups, lsrs, to_v16bfloat16, set_sat, ...),
// with the hardware's arithmetic.  A raw type is a plain lane array like
// aie::vector / aie::accum and converts to and from them implicitly, as
// the AIE API's types convert to and from the native ones; raw types of
// the same size convert explicitly (the same bits, as the compilers'
// vector casts do).
//
// What the hardware leaves undefined is defined here (and tested):
//  - undef_* and default-constructed raw types are all zeros;
//  - a lane index or shift outside the type is a kernel fault naming the
//    intrinsic, where the hardware would use the low bits;
//  - bfloat16 max/min return the first operand unless the second compares
//    greater/less as a float (so a NaN first operand is kept).
// Cascade and stream intrinsics are refused at compile time: cascade
// streams between cores are not modelled by the emulator.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "accum.hpp"
#include "bfloat16.hpp"
#include "config.hpp"
#include "host.hpp"
#include "modes.hpp"
#include "vector.hpp"

namespace iron_raw {

template <typename Tag> struct lane_of { using type = Tag; };
template <> struct lane_of<acc32> { using type = int32_t; };
template <> struct lane_of<acc64> { using type = int64_t; };
template <> struct lane_of<accfloat> { using type = float; };

template <typename Tag>
inline constexpr bool is_acc_v = aie::detail::is_one_of_v<Tag, acc32, acc64, accfloat>;

// Load/store alignment of the hardware for this many bytes: the AIE API's
// (config.hpp's vector_ldst_align_v: the size, at most the 32 bytes of the
// 256-bit load/store ports).  Kernels reach buffers through pointers to
// these types, and buffers are placed at 32 bytes on both generations, so
// a larger alignof would let the host compiler assume more than holds.
constexpr unsigned align_for(unsigned bytes)
{
    return aie::detail::ldst_align(bytes);
}

// Tag: the element type (int32, bfloat16, ...) or the accumulator tag
// (acc32, acc64, accfloat).  Lanes in lanes_ like aie::vector.
template <typename Tag, unsigned N>
struct raw {
    using lane_type = typename lane_of<Tag>::type;
    static constexpr unsigned size() { return N; }
    static constexpr unsigned bytes = N * sizeof(lane_type);

    alignas(align_for(bytes)) lane_type lanes_[N];

    IRON_AIE_INLINE constexpr raw() : lanes_{} {}

    // Another raw type of the same size: the same bits.
    template <typename Tag2, unsigned N2>
        requires(raw<Tag2, N2>::bytes == bytes && !(std::is_same_v<Tag2, Tag> && N2 == N))
    IRON_AIE_INLINE explicit raw(const raw<Tag2, N2> &o)
    {
        std::memcpy(lanes_, o.lanes_, bytes);
    }

    // aie::vector <-> raw vector type.
    template <typename T>
        requires(!is_acc_v<Tag> && std::is_same_v<T, Tag>)
    IRON_AIE_INLINE constexpr raw(const aie::vector<T, N> &v)
    {
        for (unsigned i = 0; i < N; i++)
            lanes_[i] = v.lanes_[i];
    }
    template <typename T>
        requires(!is_acc_v<Tag> && std::is_same_v<T, Tag>)
    IRON_AIE_INLINE constexpr operator aie::vector<T, N>() const
    {
        aie::vector<T, N> v;
        for (unsigned i = 0; i < N; i++)
            v.lanes_[i] = lanes_[i];
        return v;
    }

    // aie::accum <-> raw accumulator type, for every tag with these lanes
    // (acc40..acc64 are v*acc64 lanes, acc16..acc32 v*acc32 lanes).
    template <typename AccT>
        requires(is_acc_v<Tag> &&
                 std::is_same_v<typename aie::detail::acc_lane<AccT>::type, lane_type> &&
                 std::is_same_v<AccT, accfloat> == std::is_same_v<Tag, accfloat>)
    IRON_AIE_INLINE constexpr raw(const aie::accum<AccT, N> &a)
    {
        for (unsigned i = 0; i < N; i++)
            lanes_[i] = a.lanes_[i];
    }
    template <typename AccT>
        requires(is_acc_v<Tag> &&
                 std::is_same_v<typename aie::detail::acc_lane<AccT>::type, lane_type> &&
                 std::is_same_v<AccT, accfloat> == std::is_same_v<Tag, accfloat>)
    IRON_AIE_INLINE constexpr operator aie::accum<AccT, N>() const
    {
        aie::accum<AccT, N> a;
        for (unsigned i = 0; i < N; i++)
            a.lanes_[i] = lanes_[i];
        return a;
    }
};

template <typename T> struct is_raw : std::false_type {};
template <typename Tag, unsigned N> struct is_raw<raw<Tag, N>> : std::true_type {};
template <typename T> inline constexpr bool is_raw_v = is_raw<std::remove_cvref_t<T>>::value;

// Unsigned lane arithmetic: wraps like the hardware, no UB.
template <typename L> IRON_AIE_INLINE constexpr L wadd(L a, L b)
{
    using U = std::make_unsigned_t<L>;
    return static_cast<L>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename L> IRON_AIE_INLINE constexpr L wsub(L a, L b)
{
    using U = std::make_unsigned_t<L>;
    return static_cast<L>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}

template <typename V, typename F> IRON_AIE_INLINE V map2(const V &a, const V &b, F f)
{
    V r;
    for (unsigned i = 0; i < V::size(); i++)
        r.lanes_[i] = f(a.lanes_[i], b.lanes_[i]);
    return r;
}

template <typename V> IRON_AIE_INLINE void check_index(int idx, const char *what, const char *file, unsigned line)
{
    if (idx < 0 || static_cast<unsigned>(idx) >= V::size()) [[unlikely]]
        iron__aie_fault(what, file, line);
}

// shift_bytes: bytes [s, s + 64) of the 128-byte concatenation a:b.
template <typename V>
IRON_AIE_INLINE V shift_bytes(const V &a, const V &b, unsigned s, const char *file, unsigned line)
{
    static_assert(V::bytes == 64, "shift_bytes: 512-bit vectors");
    if (s > 63) [[unlikely]]
        iron__aie_fault("shift_bytes / shift: the shift is outside [0, 63] bytes", file, line);
    unsigned char cat[128];
    std::memcpy(cat, a.lanes_, 64);
    std::memcpy(cat + 64, b.lanes_, 64);
    V r;
    std::memcpy(r.lanes_, cat + s, 64);
    return r;
}

// One SRS of every lane of an integer accumulator into Out (signed or
// unsigned by `sign`, as the intrinsics' dynamic sign), with the core's
// modes.
template <typename Out, typename Acc>
IRON_AIE_INLINE Out srs_vec(const Acc &acc, int shift, int sign, const char *file, unsigned line)
{
    if (shift < -4 || shift > 59) [[unlikely]]
        iron__aie_fault("lsrs / ssrs / srs_to_*: the shift is outside [-4, 59]", file, line);
    unsigned rnd = aie::detail::rounding(file, line), sat = aie::detail::saturation(file, line);
    Out r;
    using L = typename Out::lane_type;
    using LU = std::make_unsigned_t<L>;
    aie::detail::with_rounding(rnd, [&]<unsigned R>() {
        for (unsigned i = 0; i < Out::size(); i++)
            r.lanes_[i] = sign ? aie::detail::srs_lane<L, R>(acc.lanes_[i], shift, sat)
                               : static_cast<L>(aie::detail::srs_lane<LU, R>(acc.lanes_[i], shift, sat));
    });
    return r;
}

// One UPS of every lane into an integer accumulator: sign- or
// zero-extended by `sign`, shifted left; when the core saturates the
// input is clamped first to what survives the shift (accum.hpp's
// ups_lane, as accum::from_vector), otherwise the shifted value wraps.
template <typename Acc, typename In>
IRON_AIE_INLINE Acc ups_vec(const In &v, int shift, int sign, const char *file, unsigned line)
{
    if (shift < 0 || shift > 63) [[unlikely]]
        iron__aie_fault("lups / sups / ups_to_*: the shift is outside [0, 63]", file, line);
    unsigned sat = aie::detail::saturation(file, line);
    using L = typename In::lane_type;
    using LU = std::make_unsigned_t<L>;
    Acc r;
    for (unsigned i = 0; i < Acc::size(); i++) {
        int64_t x = sign ? static_cast<int64_t>(v.lanes_[i])
                         : static_cast<int64_t>(static_cast<LU>(v.lanes_[i]));
        r.lanes_[i] = aie::detail::ups_lane<typename Acc::lane_type>(x, shift, sat);
    }
    return r;
}

template <typename Out, typename In>
IRON_AIE_INLINE Out to_bf16_vec(const In &acc, const char *file, unsigned line)
{
    unsigned rnd = aie::detail::rounding(file, line);
    Out r;
    aie::detail::with_rounding(rnd, [&]<unsigned R>() {
        for (unsigned i = 0; i < Out::size(); i++)
            r.lanes_[i] = bfloat16::from_bits(aie::detail::f32_to_bf16_mode(acc.lanes_[i], R));
    });
    return r;
}

// shuffle: modes of the form T<bits>_<r>x<c>[_lo|_hi] see their input (the
// 1024-bit a:b for the _lo/_hi modes, a alone otherwise) as an r x c matrix
// of <bits>-bit elements in row-major order and return its transpose
// (the low or high 512 bits of it).  T16_1x2_flip swaps neighbouring
// 16-bit elements.
struct shuffle_mode {
    unsigned bits, rows, cols;
    int half; // -1: one operand; 0: lo; 1: hi
};

// Indexed by the AIE2 mode numbers (the same numbers on AIE2P here).
inline constexpr shuffle_mode shuffle_modes[] = {
    {8, 64, 2, 0},  {8, 64, 2, 1},  {16, 32, 2, 0}, {16, 32, 2, 1},   // 0-3
    {32, 16, 2, 0}, {32, 16, 2, 1}, {64, 8, 2, 0},  {64, 8, 2, 1},    // 4-7
    {128, 4, 2, 0}, {128, 4, 2, 1}, {256, 2, 2, 0}, {256, 2, 2, 1},   // 8-11
    {128, 2, 4, 0}, {128, 2, 4, 1}, {64, 2, 8, 0},  {64, 2, 8, 1},    // 12-15
    {32, 2, 16, 0}, {32, 2, 16, 1}, {16, 2, 32, 0}, {16, 2, 32, 1},   // 16-19
    {8, 2, 64, 0},  {8, 2, 64, 1},  {512, 1, 2, 0}, {512, 1, 2, 1},   // 20-23
    {16, 16, 4, 0}, {16, 16, 4, 1}, {16, 4, 16, 0}, {16, 4, 16, 1},   // 24-27
    {16, 8, 4, -1}, {16, 4, 8, -1}, {32, 8, 4, 0},  {32, 8, 4, 1},    // 28-31
    {32, 4, 8, 0},  {32, 4, 8, 1},  {32, 4, 4, -1}, {8, 8, 8, -1},    // 32-35
    {8, 16, 4, -1}, {8, 4, 16, -1},                                   // 36-37
    {16, 1, 2, -2},                                                   // 38: flip
    {16, 4, 4, -1}, {16, 4, 2, -1}, {16, 2, 4, -1}, {16, 8, 2, -1},   // 39-42
    {16, 2, 8, -1}, {16, 16, 2, -1}, {16, 2, 16, -1}, {8, 8, 4, -1},  // 43-46
    {8, 4, 8, -1},                                                    // 47
};

template <typename V>
IRON_AIE_INLINE V shuffle(const V &a, const V &b, unsigned mode, bool two, const char *file, unsigned line)
{
    static_assert(V::bytes == 64, "shuffle: 512-bit vectors");
    if (mode >= sizeof shuffle_modes / sizeof shuffle_modes[0]) [[unlikely]]
        iron__aie_fault("shuffle: the mode is not a shuffle mode (T8_64x2_lo .. T8_4x8)", file, line);
    shuffle_mode m = shuffle_modes[mode];
    unsigned eb = m.bits / 8;
    unsigned char in[128], out[128];
    std::memcpy(in, a.lanes_, 64);
    std::memcpy(in + 64, b.lanes_, 64);
    if (m.half == -2) { // 16-bit pair flip
        for (unsigned i = 0; i < 64; i += 4) {
            std::memcpy(out + i, in + i + 2, 2);
            std::memcpy(out + i + 2, in + i, 2);
        }
    } else {
        if (m.half == -1 && m.rows * m.cols * eb != 64) [[unlikely]]
            iron__aie_fault("shuffle: this transpose mode works on blocks smaller than the "
                            "vector; it is not modelled by iron's emulator", file, line);
        if (m.half >= 0 && !two) [[unlikely]]
            iron__aie_fault("shuffle: a _lo / _hi mode needs two vectors", file, line);
        for (unsigned i = 0; i < m.rows; i++)
            for (unsigned j = 0; j < m.cols; j++)
                std::memcpy(out + (j * m.rows + i) * eb, in + (i * m.cols + j) * eb, eb);
    }
    V r;
    std::memcpy(r.lanes_, out + (m.half == 1 ? 64 : 0), 64);
    return r;
}

template <typename Out, typename In>
IRON_AIE_INLINE Out extract(const In &v, int idx, const char *file, unsigned line)
{
    static_assert(In::bytes % Out::bytes == 0 && In::bytes > Out::bytes,
                  "extract_*: the part must divide the vector");
    if (idx < 0 || static_cast<unsigned>(idx) >= In::bytes / Out::bytes) [[unlikely]]
        iron__aie_fault("extract_*: the part index is outside the vector", file, line);
    Out r;
    std::memcpy(r.lanes_, reinterpret_cast<const unsigned char *>(v.lanes_) + idx * Out::bytes, Out::bytes);
    return r;
}

template <typename Out, typename In>
IRON_AIE_INLINE Out insert(Out v, int idx, const In &part, const char *file, unsigned line)
{
    static_assert(Out::bytes % In::bytes == 0 && Out::bytes > In::bytes,
                  "insert / set_*: the part must divide the vector");
    if (idx < 0 || static_cast<unsigned>(idx) >= Out::bytes / In::bytes) [[unlikely]]
        iron__aie_fault("insert / set_*: the part index is outside the vector", file, line);
    std::memcpy(reinterpret_cast<unsigned char *>(v.lanes_) + idx * In::bytes, part.lanes_, In::bytes);
    return v;
}

template <typename Out, typename In>
IRON_AIE_INLINE Out concat(const In &a, const In &b)
{
    static_assert(Out::bytes == 2 * In::bytes);
    Out r;
    std::memcpy(r.lanes_, a.lanes_, In::bytes);
    std::memcpy(reinterpret_cast<unsigned char *>(r.lanes_) + In::bytes, b.lanes_, In::bytes);
    return r;
}

// For the refused intrinsics below: the static_assert fires when one is
// called; the result converts to whatever the call site expects, so that
// the assertion is the only error.
template <typename... T> inline constexpr bool refused = false;
struct refused_value {
    template <typename T> operator T() const { __builtin_unreachable(); }
};

} // namespace iron_raw

// ---------------------------------------------------------------------------
// The types.  Vectors: v<N><elem>; accumulators: v<N>acc32 / acc64 / accfloat.

#define IRON_RAW_TYPE(name, Tag, N)                                                      \
    using name = iron_raw::raw<Tag, N>;                                                  \
    IRON_AIE_INLINE name undef_##name() { return name(); }

#define IRON_RAW_VEC(name, T, N)                                                         \
    IRON_RAW_TYPE(name, T, N)                                                            \
    IRON_AIE_INLINE name broadcast_to_##name(T x)                                        \
    {                                                                                    \
        name r;                                                                          \
        for (unsigned i = 0; i < N; i++)                                                 \
            r.lanes_[i] = x;                                                             \
        return r;                                                                        \
    }                                                                                    \
    IRON_AIE_INLINE name broadcast_zero_to_##name() { return name(); }                   \
    IRON_AIE_INLINE name broadcast_one_to_##name() { return broadcast_to_##name(T(1)); }

#define IRON_RAW_VEC_SIZES(elem, T, n1, n2, n3, n4)                                      \
    IRON_RAW_VEC(v##n1##elem, T, n1)                                                     \
    IRON_RAW_VEC(v##n2##elem, T, n2)                                                     \
    IRON_RAW_VEC(v##n3##elem, T, n3)                                                     \
    IRON_RAW_VEC(v##n4##elem, T, n4)

IRON_RAW_VEC_SIZES(int8, int8_t, 16, 32, 64, 128)
IRON_RAW_VEC_SIZES(uint8, uint8_t, 16, 32, 64, 128)
IRON_RAW_VEC_SIZES(int16, int16_t, 8, 16, 32, 64)
IRON_RAW_VEC_SIZES(uint16, uint16_t, 8, 16, 32, 64)
IRON_RAW_VEC_SIZES(int32, int32_t, 4, 8, 16, 32)
IRON_RAW_VEC_SIZES(uint32, uint32_t, 4, 8, 16, 32)
IRON_RAW_VEC_SIZES(float, float, 4, 8, 16, 32)
IRON_RAW_VEC_SIZES(bfloat16, bfloat16, 8, 16, 32, 64)
IRON_RAW_VEC(v4bfloat16, bfloat16, 4)
IRON_RAW_VEC(v4int16, int16_t, 4)
IRON_RAW_VEC(v4uint16, uint16_t, 4)
IRON_RAW_TYPE(v8acc32, acc32, 8)
IRON_RAW_TYPE(v16acc32, acc32, 16)
IRON_RAW_TYPE(v32acc32, acc32, 32)
IRON_RAW_TYPE(v64acc32, acc32, 64)
IRON_RAW_TYPE(v4acc64, acc64, 4)
IRON_RAW_TYPE(v8acc64, acc64, 8)
IRON_RAW_TYPE(v16acc64, acc64, 16)
IRON_RAW_TYPE(v32acc64, acc64, 32)
IRON_RAW_TYPE(v4accfloat, accfloat, 4)
IRON_RAW_TYPE(v8accfloat, accfloat, 8)
IRON_RAW_TYPE(v16accfloat, accfloat, 16)
IRON_RAW_TYPE(v32accfloat, accfloat, 32)
IRON_RAW_TYPE(v64accfloat, accfloat, 64)

#undef IRON_RAW_VEC_SIZES
#undef IRON_RAW_VEC
#undef IRON_RAW_TYPE

IRON_AIE_INLINE v16accfloat broadcast_to_v16accfloat(float x)
{
    v16accfloat r;
    for (unsigned i = 0; i < 16; i++)
        r.lanes_[i] = aie::detail::ftz(x);
    return r;
}

// Scalar-named broadcasts (512-bit results).
IRON_AIE_INLINE v64int8 broadcast_s8(int8_t x) { return broadcast_to_v64int8(x); }
IRON_AIE_INLINE v32int16 broadcast_s16(int16_t x) { return broadcast_to_v32int16(x); }
IRON_AIE_INLINE v16int32 broadcast_s32(int32_t x) { return broadcast_to_v16int32(x); }
IRON_AIE_INLINE v64uint8 broadcast_u8(uint8_t x) { return broadcast_to_v64uint8(x); }
IRON_AIE_INLINE v32uint16 broadcast_u16(uint16_t x) { return broadcast_to_v32uint16(x); }
IRON_AIE_INLINE v16uint32 broadcast_u32(uint32_t x) { return broadcast_to_v16uint32(x); }
IRON_AIE_INLINE v32bfloat16 broadcast_bfloat16(bfloat16 x) { return broadcast_to_v32bfloat16(x); }
IRON_AIE_INLINE v16float broadcast_float(float x) { return broadcast_to_v16float(x); }
IRON_AIE_INLINE v64int8 broadcast_zero_s8() { return v64int8(); }
IRON_AIE_INLINE v32int16 broadcast_zero_s16() { return v32int16(); }
IRON_AIE_INLINE v16int32 broadcast_zero_s32() { return v16int32(); }
IRON_AIE_INLINE v64uint8 broadcast_zero_u8() { return v64uint8(); }
IRON_AIE_INLINE v32uint16 broadcast_zero_u16() { return v32uint16(); }
IRON_AIE_INLINE v16uint32 broadcast_zero_u32() { return v16uint32(); }
IRON_AIE_INLINE v32bfloat16 broadcast_zero_bfloat16() { return v32bfloat16(); }
IRON_AIE_INLINE v16float broadcast_zero_float() { return v16float(); }
IRON_AIE_INLINE v32bfloat16 broadcast_one_bfloat16() { return broadcast_one_to_v32bfloat16(); }
IRON_AIE_INLINE v16float broadcast_one_float() { return broadcast_one_to_v16float(); }

// ---------------------------------------------------------------------------
// Lane-wise operations on 512-bit vectors, one plain overload per type so
// that aie::vector arguments convert implicitly, as with the compilers.

#define IRON_RAW_ELEM_OPS(V, L)                                                          \
    IRON_AIE_INLINE V upd_elem(V v, int idx, L x, IRON_AIE_LOC)                          \
    {                                                                                    \
        iron_raw::check_index<V>(idx, "upd_elem: the lane index is outside the vector",  \
                                 IRON_AIE_AT);                                           \
        v.lanes_[idx] = x;                                                               \
        return v;                                                                        \
    }                                                                                    \
    IRON_AIE_INLINE L ext_elem(V v, int idx, IRON_AIE_LOC)                               \
    {                                                                                    \
        iron_raw::check_index<V>(idx, "ext_elem: the lane index is outside the vector",  \
                                 IRON_AIE_AT);                                           \
        return v.lanes_[idx];                                                            \
    }                                                                                    \
    IRON_AIE_INLINE L extract_elem(V v, int idx, IRON_AIE_LOC)                           \
    {                                                                                    \
        iron_raw::check_index<V>(idx,                                                    \
                                 "extract_elem: the lane index is outside the vector",   \
                                 IRON_AIE_AT);                                           \
        return v.lanes_[idx];                                                            \
    }                                                                                    \
    IRON_AIE_INLINE V shift_bytes(V a, V b, unsigned s, IRON_AIE_LOC)                    \
    {                                                                                    \
        return iron_raw::shift_bytes(a, b, s, IRON_AIE_AT);                              \
    }                                                                                    \
    IRON_AIE_INLINE V shift(V a, V b, unsigned n, IRON_AIE_LOC)                          \
    {                                                                                    \
        return iron_raw::shift_bytes(a, b, n > 64 ? 64u : n * unsigned(sizeof(L)),       \
                                     IRON_AIE_AT);                                       \
    }                                                                                    \
    IRON_AIE_INLINE V shuffle(V a, V b, unsigned mode, IRON_AIE_LOC)                     \
    {                                                                                    \
        return iron_raw::shuffle(a, b, mode, true, IRON_AIE_AT);                         \
    }                                                                                    \
    IRON_AIE_INLINE V shuffle(V a, unsigned mode, IRON_AIE_LOC)                          \
    {                                                                                    \
        return iron_raw::shuffle(a, a, mode, false, IRON_AIE_AT);                        \
    }                                                                                    \
    IRON_AIE_INLINE V max(V a, V b)                                                      \
    {                                                                                    \
        return iron_raw::map2(a, b, [](L x, L y) { return x < y ? y : x; });             \
    }                                                                                    \
    IRON_AIE_INLINE V min(V a, V b)                                                      \
    {                                                                                    \
        return iron_raw::map2(a, b, [](L x, L y) { return y < x ? y : x; });             \
    }

#define IRON_RAW_INT_OPS(V, L)                                                           \
    IRON_RAW_ELEM_OPS(V, L)                                                              \
    IRON_AIE_INLINE V add(V a, V b) { return iron_raw::map2(a, b, iron_raw::wadd<L>); }  \
    IRON_AIE_INLINE V sub(V a, V b) { return iron_raw::map2(a, b, iron_raw::wsub<L>); }  \
    IRON_AIE_INLINE V band(V a, V b)                                                     \
    {                                                                                    \
        return iron_raw::map2(a, b, [](L x, L y) { return L(x & y); });                  \
    }                                                                                    \
    IRON_AIE_INLINE V bor(V a, V b)                                                      \
    {                                                                                    \
        return iron_raw::map2(a, b, [](L x, L y) { return L(x | y); });                  \
    }                                                                                    \
    IRON_AIE_INLINE V bxor(V a, V b)                                                     \
    {                                                                                    \
        return iron_raw::map2(a, b, [](L x, L y) { return L(x ^ y); });                  \
    }                                                                                    \
    IRON_AIE_INLINE V bneg(V a)                                                          \
    {                                                                                    \
        V r;                                                                             \
        for (unsigned i = 0; i < V::size(); i++)                                           \
            r.lanes_[i] = L(~a.lanes_[i]);                                               \
        return r;                                                                        \
    }

IRON_RAW_INT_OPS(v64int8, int8_t)
IRON_RAW_INT_OPS(v64uint8, uint8_t)
IRON_RAW_INT_OPS(v32int16, int16_t)
IRON_RAW_INT_OPS(v32uint16, uint16_t)
IRON_RAW_INT_OPS(v16int32, int32_t)
IRON_RAW_INT_OPS(v16uint32, uint32_t)
IRON_RAW_ELEM_OPS(v32bfloat16, bfloat16)
IRON_RAW_ELEM_OPS(v16float, float)

#undef IRON_RAW_INT_OPS
#undef IRON_RAW_ELEM_OPS

// ext_elem with an explicit sign: 8/16-bit lanes sign- or zero-extended.
#define IRON_RAW_EXT_SIGN(V)                                                             \
    IRON_AIE_INLINE int ext_elem(V v, int idx, int sign, IRON_AIE_LOC)                   \
    {                                                                                    \
        iron_raw::check_index<V>(idx, "ext_elem: the lane index is outside the vector",  \
                                 IRON_AIE_AT);                                           \
        using U = std::make_unsigned_t<V::lane_type>;                                    \
        return sign ? int(std::make_signed_t<V::lane_type>(v.lanes_[idx]))              \
                    : int(U(v.lanes_[idx]));                                             \
    }
IRON_RAW_EXT_SIGN(v64int8)
IRON_RAW_EXT_SIGN(v64uint8)
IRON_RAW_EXT_SIGN(v32int16)
IRON_RAW_EXT_SIGN(v32uint16)
#undef IRON_RAW_EXT_SIGN

// ---------------------------------------------------------------------------
// Parts: extract_<part>(v, idx), set_<whole>(idx, part), insert(v, idx, part),
// concat(a, b).

#define IRON_RAW_PART(Whole, Part)                                                       \
    IRON_AIE_INLINE Part extract_##Part(Whole v, int idx, IRON_AIE_LOC)                  \
    {                                                                                    \
        return iron_raw::extract<Part>(v, idx, IRON_AIE_AT);                             \
    }                                                                                    \
    IRON_AIE_INLINE Whole set_##Whole(int idx, Part p, IRON_AIE_LOC)                     \
    {                                                                                    \
        return iron_raw::insert(Whole(), idx, p, IRON_AIE_AT);                           \
    }                                                                                    \
    IRON_AIE_INLINE Whole insert(Whole v, int idx, Part p, IRON_AIE_LOC)                 \
    {                                                                                    \
        return iron_raw::insert(v, idx, p, IRON_AIE_AT);                                 \
    }

#define IRON_RAW_PARTS(elem, n1, n2, n3, n4)                                             \
    IRON_RAW_PART(v##n2##elem, v##n1##elem)                                              \
    IRON_RAW_PART(v##n3##elem, v##n1##elem)                                              \
    IRON_RAW_PART(v##n3##elem, v##n2##elem)                                              \
    IRON_RAW_PART(v##n4##elem, v##n1##elem)                                              \
    IRON_RAW_PART(v##n4##elem, v##n2##elem)                                              \
    IRON_RAW_PART(v##n4##elem, v##n3##elem)                                              \
    IRON_AIE_INLINE v##n2##elem concat(v##n1##elem a, v##n1##elem b)                     \
    {                                                                                    \
        return iron_raw::concat<v##n2##elem>(a, b);                                      \
    }                                                                                    \
    IRON_AIE_INLINE v##n3##elem concat(v##n2##elem a, v##n2##elem b)                     \
    {                                                                                    \
        return iron_raw::concat<v##n3##elem>(a, b);                                      \
    }                                                                                    \
    IRON_AIE_INLINE v##n4##elem concat(v##n3##elem a, v##n3##elem b)                     \
    {                                                                                    \
        return iron_raw::concat<v##n4##elem>(a, b);                                      \
    }

IRON_RAW_PARTS(int8, 16, 32, 64, 128)
IRON_RAW_PARTS(uint8, 16, 32, 64, 128)
IRON_RAW_PARTS(int16, 8, 16, 32, 64)
IRON_RAW_PARTS(uint16, 8, 16, 32, 64)
IRON_RAW_PARTS(int32, 4, 8, 16, 32)
IRON_RAW_PARTS(uint32, 4, 8, 16, 32)
IRON_RAW_PARTS(float, 4, 8, 16, 32)
IRON_RAW_PARTS(bfloat16, 8, 16, 32, 64)
IRON_RAW_PARTS(acc32, 8, 16, 32, 64)
IRON_RAW_PARTS(acc64, 4, 8, 16, 32)
IRON_RAW_PARTS(accfloat, 8, 16, 32, 64)
IRON_RAW_PART(v8bfloat16, v4bfloat16)
IRON_RAW_PART(v16bfloat16, v4bfloat16)
IRON_RAW_PART(v32bfloat16, v4bfloat16)
IRON_RAW_PART(v8int16, v4int16)
IRON_RAW_PART(v16int16, v4int16)
IRON_RAW_PART(v32int16, v4int16)

#undef IRON_RAW_PARTS
#undef IRON_RAW_PART

// ---------------------------------------------------------------------------
// Accumulator conversions.  lsrs / ssrs (and the srs_to_* names) shift,
// round and saturate with the core's modes; `sign` picks a signed (1) or
// unsigned (0) result range, signed when left out.  lups / sups (and
// ups_to_*) extend (signed or by `sign`), shift left and saturate into
// the accumulator lanes.

#define IRON_RAW_SRS(name, Out, Acc, dflt)                                               \
    IRON_AIE_INLINE Out name(Acc acc, int shft, int sign = dflt, IRON_AIE_LOC)           \
    {                                                                                    \
        return iron_raw::srs_vec<Out>(acc, shft, sign, IRON_AIE_AT);                     \
    }

IRON_RAW_SRS(lsrs, v16int32, v16acc64, 1)
IRON_RAW_SRS(lsrs, v8int32, v8acc64, 1)
IRON_RAW_SRS(lsrs, v32int16, v32acc32, 1)
IRON_RAW_SRS(lsrs, v16int16, v16acc32, 1)
IRON_RAW_SRS(ssrs, v16int16, v16acc64, 1)
IRON_RAW_SRS(ssrs, v32int8, v32acc32, 1)
IRON_RAW_SRS(ulsrs, v16uint32, v16acc64, 0)
IRON_RAW_SRS(ulsrs, v8uint32, v8acc64, 0)
IRON_RAW_SRS(ulsrs, v32uint16, v32acc32, 0)
IRON_RAW_SRS(ulsrs, v16uint16, v16acc32, 0)
IRON_RAW_SRS(ussrs, v16uint16, v16acc64, 0)
IRON_RAW_SRS(ussrs, v32uint8, v32acc32, 0)
IRON_RAW_SRS(srs_to_v16int32, v16int32, v16acc64, 1)
IRON_RAW_SRS(srs_to_v16uint32, v16uint32, v16acc64, 0)
IRON_RAW_SRS(srs_to_v8int32, v8int32, v8acc64, 1)
IRON_RAW_SRS(srs_to_v8uint32, v8uint32, v8acc64, 0)
IRON_RAW_SRS(srs_to_v32int16, v32int16, v32acc32, 1)
IRON_RAW_SRS(srs_to_v32uint16, v32uint16, v32acc32, 0)
IRON_RAW_SRS(srs_to_v32int8, v32int8, v32acc32, 1)
IRON_RAW_SRS(srs_to_v32uint8, v32uint8, v32acc32, 0)
#undef IRON_RAW_SRS

// srs_to_v16int16 reads both 32- and 64-bit accumulators.
IRON_AIE_INLINE v16int16 srs_to_v16int16(v16acc32 acc, int shft, int sign = 1, IRON_AIE_LOC)
{
    return iron_raw::srs_vec<v16int16>(acc, shft, sign, IRON_AIE_AT);
}
IRON_AIE_INLINE v16int16 srs_to_v16int16(v16acc64 acc, int shft, int sign = 1, IRON_AIE_LOC)
{
    return iron_raw::srs_vec<v16int16>(acc, shft, sign, IRON_AIE_AT);
}
IRON_AIE_INLINE v16uint16 srs_to_v16uint16(v16acc32 acc, int shft, int sign = 0, IRON_AIE_LOC)
{
    return iron_raw::srs_vec<v16uint16>(acc, shft, sign, IRON_AIE_AT);
}
IRON_AIE_INLINE v16uint16 srs_to_v16uint16(v16acc64 acc, int shft, int sign = 0, IRON_AIE_LOC)
{
    return iron_raw::srs_vec<v16uint16>(acc, shft, sign, IRON_AIE_AT);
}

#define IRON_RAW_UPS(name, Acc, In, dflt)                                                \
    IRON_AIE_INLINE Acc name(In v, int shft, int sign = dflt, IRON_AIE_LOC)              \
    {                                                                                    \
        return iron_raw::ups_vec<Acc>(v, shft, sign, IRON_AIE_AT);                       \
    }

IRON_RAW_UPS(lups, v16acc64, v16int32, 1)
IRON_RAW_UPS(lups, v16acc64, v16uint32, 0)
IRON_RAW_UPS(lups, v16acc64, v16int16, 1)
IRON_RAW_UPS(lups, v16acc64, v16uint16, 0)
IRON_RAW_UPS(lups, v8acc64, v8int32, 1)
IRON_RAW_UPS(lups, v8acc64, v8uint32, 0)
IRON_RAW_UPS(sups, v32acc32, v32int16, 1)
IRON_RAW_UPS(sups, v32acc32, v32uint16, 0)
IRON_RAW_UPS(sups, v16acc32, v16int16, 1)
IRON_RAW_UPS(sups, v16acc32, v16uint16, 0)
IRON_RAW_UPS(sups, v32acc32, v32int8, 1)
IRON_RAW_UPS(sups, v32acc32, v32uint8, 0)
IRON_RAW_UPS(ups_to_v16acc64, v16acc64, v16int32, 1)
IRON_RAW_UPS(ups_to_v16acc64, v16acc64, v16uint32, 0)
IRON_RAW_UPS(ups_to_v16acc64, v16acc64, v16int16, 1)
IRON_RAW_UPS(ups_to_v16acc64, v16acc64, v16uint16, 0)
IRON_RAW_UPS(ups_to_v8acc64, v8acc64, v8int32, 1)
IRON_RAW_UPS(ups_to_v8acc64, v8acc64, v8uint32, 0)
IRON_RAW_UPS(ups_to_v32acc32, v32acc32, v32int16, 1)
IRON_RAW_UPS(ups_to_v32acc32, v32acc32, v32uint16, 0)
IRON_RAW_UPS(ups_to_v32acc32, v32acc32, v32int8, 1)
IRON_RAW_UPS(ups_to_v32acc32, v32acc32, v32uint8, 0)
IRON_RAW_UPS(ups_to_v16acc32, v16acc32, v16int16, 1)
IRON_RAW_UPS(ups_to_v16acc32, v16acc32, v16uint16, 0)
#undef IRON_RAW_UPS

// Float accumulators: bfloat16 widens exactly (subnormals flushed, as the
// float datapath does); narrowing rounds with the core's rounding mode,
// as accum<accfloat>::to_vector<bfloat16> does.
IRON_AIE_INLINE v16accfloat ups_to_v16accfloat(v16bfloat16 v)
{
    v16accfloat r;
    for (unsigned i = 0; i < 16; i++)
        r.lanes_[i] = aie::detail::ftz(static_cast<float>(v.lanes_[i]));
    return r;
}
IRON_AIE_INLINE v16accfloat ups(v16bfloat16 v) { return ups_to_v16accfloat(v); }
IRON_AIE_INLINE v32accfloat ups_to_v32accfloat(v32bfloat16 v)
{
    v32accfloat r;
    for (unsigned i = 0; i < 32; i++)
        r.lanes_[i] = aie::detail::ftz(static_cast<float>(v.lanes_[i]));
    return r;
}
IRON_AIE_INLINE v16bfloat16 to_v16bfloat16(v16accfloat acc, IRON_AIE_LOC)
{
    return iron_raw::to_bf16_vec<v16bfloat16>(acc, IRON_AIE_AT);
}
IRON_AIE_INLINE v32bfloat16 to_v32bfloat16(v32accfloat acc, IRON_AIE_LOC)
{
    return iron_raw::to_bf16_vec<v32bfloat16>(acc, IRON_AIE_AT);
}
IRON_AIE_INLINE v16bfloat16 srs(v16accfloat acc, IRON_AIE_LOC)
{
    return iron_raw::to_bf16_vec<v16bfloat16>(acc, IRON_AIE_AT);
}

// bfloat16 to 32-bit fixed point: floor(x * 2^shft) (AIE2's native vector
// conversion rounds towards -inf), clamped to the int32 range; NaN gives 0.
IRON_AIE_INLINE v16int32 bfloat16_to_int(v16bfloat16 a, int shft, IRON_AIE_LOC)
{
    if (shft < -128 || shft > 127) [[unlikely]]
        iron__aie_fault("bfloat16_to_int: the shift is outside [-128, 127]", IRON_AIE_AT);
    v16int32 r;
    for (unsigned i = 0; i < 16; i++) {
        double x = std::ldexp(static_cast<double>(static_cast<float>(a.lanes_[i])), shft);
        if (std::isnan(x))
            r.lanes_[i] = 0;
        else if (x >= 2147483647.0)
            r.lanes_[i] = std::numeric_limits<int32_t>::max();
        else if (x <= -2147483648.0)
            r.lanes_[i] = std::numeric_limits<int32_t>::min();
        else
            r.lanes_[i] = static_cast<int32_t>(std::floor(x));
    }
    return r;
}

#if __AIE_ARCH__ == 21
// AIE2P: lane-wise bfloat16 products into a float accumulator.  The
// product of two bfloat16 values is exact in a float; subnormal inputs
// and results are flushed to zero, as the float datapath does.
IRON_AIE_INLINE v64accfloat mul_elem_64(v64bfloat16 a, v64bfloat16 b)
{
    v64accfloat r;
    for (unsigned i = 0; i < 64; i++)
        r.lanes_[i] = aie::detail::ftz(aie::detail::ftz(static_cast<float>(a.lanes_[i])) *
                                       aie::detail::ftz(static_cast<float>(b.lanes_[i])));
    return r;
}
#endif

// ---------------------------------------------------------------------------
// Control registers: the saturation and rounding modes of the running
// core (the words aie::set_saturation / aie::set_rounding write).

IRON_AIE_INLINE void set_satmode(unsigned val, IRON_AIE_LOC)
{
    if (!aie::detail::valid_saturation(val)) [[unlikely]]
        iron__aie_fault("set_satmode: the value is not a saturation mode (0, 1, 3)", IRON_AIE_AT);
    iron__aie_ctl()[aie::detail::ctl_saturation] = val;
}
IRON_AIE_INLINE void set_sat() { iron__aie_ctl()[aie::detail::ctl_saturation] = 1; }
IRON_AIE_INLINE void set_symsat() { iron__aie_ctl()[aie::detail::ctl_saturation] = 3; }
IRON_AIE_INLINE void clr_sat() { iron__aie_ctl()[aie::detail::ctl_saturation] = 0; }
IRON_AIE_INLINE unsigned get_sat() { return iron__aie_ctl()[aie::detail::ctl_saturation]; }
IRON_AIE_INLINE unsigned get_satmode() { return iron__aie_ctl()[aie::detail::ctl_saturation]; }
IRON_AIE_INLINE void set_rnd(unsigned val, IRON_AIE_LOC)
{
    if (!aie::detail::valid_rounding(val)) [[unlikely]]
        iron__aie_fault("set_rnd: the value is not a rounding mode (0-3, 8-13)", IRON_AIE_AT);
    iron__aie_ctl()[aie::detail::ctl_rounding] = val;
}
IRON_AIE_INLINE unsigned get_rnd() { return iron__aie_ctl()[aie::detail::ctl_rounding]; }

// Mode numbers of set_rnd, as the compilers name them.
inline constexpr unsigned rnd_floor = 0, rnd_ceil = 1, rnd_sym_floor = 2, rnd_sym_ceil = 3,
                          rnd_neg_inf = 8, rnd_pos_inf = 9, rnd_sym_zero = 10,
                          rnd_sym_inf = 11, rnd_conv_even = 12, rnd_conv_odd = 13;

// Shuffle modes (numbers index iron_raw::shuffle_modes).
inline constexpr unsigned T8_64x2_lo = 0, T8_64x2_hi = 1, T16_32x2_lo = 2, T16_32x2_hi = 3,
    T32_16x2_lo = 4, T32_16x2_hi = 5, T64_8x2_lo = 6, T64_8x2_hi = 7, T128_4x2_lo = 8,
    T128_4x2_hi = 9, T256_2x2_lo = 10, T256_2x2_hi = 11, T128_2x4_lo = 12, T128_2x4_hi = 13,
    T64_2x8_lo = 14, T64_2x8_hi = 15, T32_2x16_lo = 16, T32_2x16_hi = 17, T16_2x32_lo = 18,
    T16_2x32_hi = 19, T8_2x64_lo = 20, T8_2x64_hi = 21, T512_1x2_lo = 22, T512_1x2_hi = 23,
    T16_16x4_lo = 24, T16_16x4_hi = 25, T16_4x16_lo = 26, T16_4x16_hi = 27, T16_8x4 = 28,
    T16_4x8 = 29, T32_8x4_lo = 30, T32_8x4_hi = 31, T32_4x8_lo = 32, T32_4x8_hi = 33,
    T32_4x4 = 34, T8_8x8 = 35, T8_16x4 = 36, T8_4x16 = 37, T16_1x2_flip = 38, T16_4x4 = 39,
    T16_4x2 = 40, T16_2x4 = 41, T16_8x2 = 42, T16_2x8 = 43, T16_16x2 = 44, T16_2x16 = 45,
    T8_8x4 = 46, T8_4x8 = 47;

// ---------------------------------------------------------------------------
// Refused: cascade and stream intrinsics.  Using one is a compile error
// that names it.

#define IRON_RAW_REFUSE(name, what)                                                      \
    template <typename... A> inline auto name(A &&...)                                   \
    {                                                                                    \
        static_assert(iron_raw::refused<A...>, #name ": " what);                         \
        return iron_raw::refused_value{};                                                \
    }
#define IRON_RAW_CASCADE(name)                                                           \
    IRON_RAW_REFUSE(name, "cascade streams between cores are not modelled by iron's "    \
                          "emulator")
#define IRON_RAW_STREAM(name)                                                            \
    IRON_RAW_REFUSE(name, "core stream ports are not modelled by iron's emulator (use "  \
                          "ObjectFifos)")

IRON_RAW_CASCADE(put_mcd)
IRON_RAW_CASCADE(get_scd)
IRON_RAW_CASCADE(get_scd_v16int32)
IRON_RAW_CASCADE(get_scd_v16uint32)
IRON_RAW_CASCADE(get_scd_v32int16)
IRON_RAW_CASCADE(get_scd_v32uint16)
IRON_RAW_CASCADE(get_scd_v64int8)
IRON_RAW_CASCADE(get_scd_v64uint8)
IRON_RAW_CASCADE(get_scd_v32bfloat16)
IRON_RAW_CASCADE(get_scd_v16float)
IRON_RAW_CASCADE(get_scd_v16acc64)
IRON_RAW_CASCADE(get_scd_v8acc64)
IRON_RAW_CASCADE(get_scd_v16acc32)
IRON_RAW_CASCADE(get_scd_v32acc32)
IRON_RAW_CASCADE(get_scd_v16accfloat)
IRON_RAW_CASCADE(get_scd_v8accfloat)
IRON_RAW_STREAM(put_ms)
IRON_RAW_STREAM(get_ss)
IRON_RAW_STREAM(put_ms_packet_header)
IRON_RAW_STREAM(get_ss_int)
IRON_RAW_STREAM(get_ss_float)

#undef IRON_RAW_STREAM
#undef IRON_RAW_CASCADE
#undef IRON_RAW_REFUSE
