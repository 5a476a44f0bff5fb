// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vector.hpp - aie::vector<T, Elems>: Elems lanes of T in a plain array
// (lanes_, public so that the other detail headers and the intrinsics
// layer can reach it; kernels should not), aligned like the hardware
// register, trivially copyable, so that loops over lanes compile to host
// SIMD code.  A default-constructed vector is all zeros (the hardware
// leaves it undefined; zeros keep runs repeatable).
#pragma once

#include <array>
#include <cstring>
#include <type_traits>

#include "bfloat16.hpp"
#include "config.hpp"

namespace aie {

template <typename T, unsigned Elems = detail::native_vector_length_v<T>>
class vector;

namespace detail {

template <typename T>
inline constexpr bool is_elem_v =
    is_one_of_v<T, int8, uint8, int16, uint16, int32, uint32, bfloat16, float>;

template <typename T> inline constexpr bool is_float_elem_v = is_one_of_v<T, bfloat16, float>;

template <typename T> struct is_vector : std::false_type {};
template <typename T, unsigned N> struct is_vector<vector<T, N>> : std::true_type {};
template <typename T>
inline constexpr bool is_vector_v = is_vector<std::remove_cvref_t<T>>::value;

// The largest power of two dividing `bytes`, at most 128.
constexpr unsigned lane_align(unsigned bytes)
{
    unsigned a = 1;
    while (a < 128 && bytes % (2 * a) == 0)
        a *= 2;
    return a;
}

} // namespace detail

template <typename T, unsigned Elems>
class vector {
    static_assert(detail::is_elem_v<T>,
                  "aie::vector: the element type is not one the host AIE API "
                  "implements (int8, uint8, int16, uint16, int32, uint32, "
                  "bfloat16, float)");
    static_assert(Elems >= 1 && Elems * sizeof(T) <= 256,
                  "aie::vector: 1 to 2048 bits");

  public:
    using value_type = T;
    using elem_type = T;

    alignas(detail::lane_align(Elems * sizeof(T))) T lanes_[Elems];

    IRON_AIE_INLINE constexpr vector() : lanes_{} {}

    // vector<int32, 4> v(1, 2, 3): the values, the rest zero.
    template <typename... V>
        requires(sizeof...(V) + 1 <= Elems && (std::is_convertible_v<V, T> && ...))
    IRON_AIE_INLINE constexpr explicit vector(T v, V... vs)
        : lanes_{v, static_cast<T>(vs)...}
    {}

    static constexpr unsigned size() { return Elems; }
    static constexpr unsigned bits() { return Elems * detail::type_bits_v<T>; }
    static constexpr bool is_signed() { return std::is_signed_v<T> || detail::is_float_elem_v<T>; }
    static constexpr bool is_floating_point() { return detail::is_float_elem_v<T>; }
    static constexpr bool is_complex() { return false; }
    static constexpr bool is_real() { return true; }

    IRON_AIE_INLINE constexpr T get(unsigned idx) const { return lanes_[idx]; }
    IRON_AIE_INLINE constexpr void set(T v, unsigned idx) { lanes_[idx] = v; }
    IRON_AIE_INLINE constexpr const T &operator[](unsigned idx) const { return lanes_[idx]; }
    IRON_AIE_INLINE constexpr T &operator[](unsigned idx) { return lanes_[idx]; }

    // Shifts every lane one up (the last is lost) and writes v into lane 0.
    IRON_AIE_INLINE constexpr vector &push(T v)
    {
        for (unsigned i = Elems - 1; i > 0; i--)
            lanes_[i] = lanes_[i - 1];
        lanes_[0] = v;
        return *this;
    }

    // This vector as part idx of a larger one (the rest zero).
    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr vector<T, ElemsOut> grow(unsigned idx = 0) const
    {
        static_assert(ElemsOut >= Elems && ElemsOut % Elems == 0,
                      "vector::grow: the output must be a multiple of the input");
        vector<T, ElemsOut> r;
        for (unsigned i = 0; i < Elems; i++)
            r.lanes_[idx * Elems + i] = lanes_[i];
        return r;
    }

    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr vector<T, ElemsOut> grow_replicate() const
    {
        static_assert(ElemsOut >= Elems && ElemsOut % Elems == 0,
                      "vector::grow_replicate: the output must be a multiple of the input");
        vector<T, ElemsOut> r;
        for (unsigned i = 0; i < ElemsOut; i++)
            r.lanes_[i] = lanes_[i % Elems];
        return r;
    }

    // Part idx of ElemsOut lanes.
    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr vector<T, ElemsOut> extract(unsigned idx) const
    {
        static_assert(ElemsOut <= Elems && Elems % ElemsOut == 0,
                      "vector::extract: the input must be a multiple of the output");
        vector<T, ElemsOut> r;
        for (unsigned i = 0; i < ElemsOut; i++)
            r.lanes_[i] = lanes_[idx * ElemsOut + i];
        return r;
    }

    // extract when ElemsOut <= Elems, grow(0) of this vector otherwise.
    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr vector<T, ElemsOut> grow_extract(unsigned idx) const
    {
        if constexpr (ElemsOut <= Elems)
            return extract<ElemsOut>(idx);
        else
            return grow<ElemsOut>(idx);
    }

    template <unsigned ElemsOut>
    IRON_AIE_INLINE constexpr std::array<vector<T, ElemsOut>, Elems / ElemsOut> split() const
    {
        std::array<vector<T, ElemsOut>, Elems / ElemsOut> r;
        for (unsigned k = 0; k < Elems / ElemsOut; k++)
            r[k] = extract<ElemsOut>(k);
        return r;
    }

    // Overwrites part idx (of ElemsIn lanes) with v.
    template <unsigned ElemsIn>
    IRON_AIE_INLINE constexpr vector &insert(unsigned idx, const vector<T, ElemsIn> &v)
    {
        static_assert(ElemsIn <= Elems && Elems % ElemsIn == 0,
                      "vector::insert: the vector must be a multiple of the part");
        for (unsigned i = 0; i < ElemsIn; i++)
            lanes_[idx * ElemsIn + i] = v.lanes_[i];
        return *this;
    }

    // Overwrites the whole vector with the given parts, in order.
    template <unsigned ElemsIn, typename... Rest>
    IRON_AIE_INLINE constexpr vector &upd_all(const vector<T, ElemsIn> &first, const Rest &...rest)
    {
        static_assert(ElemsIn * (1 + sizeof...(Rest)) == Elems,
                      "vector::upd_all: the parts must fill the vector");
        unsigned k = 0;
        insert(k++, first);
        (insert(k++, rest), ...);
        return *this;
    }

    // The same bits seen as lanes of DstT.
    template <typename DstT>
    IRON_AIE_INLINE vector<DstT, Elems * sizeof(T) / sizeof(DstT)> cast_to() const
    {
        static_assert((Elems * sizeof(T)) % sizeof(DstT) == 0,
                      "vector::cast_to: the bits do not divide into the new lanes");
        vector<DstT, Elems * sizeof(T) / sizeof(DstT)> r;
        std::memcpy(r.lanes_, lanes_, sizeof lanes_);
        return r;
    }

    // Widening and narrowing (integers): unpack sign- or zero-extends by the
    // element type; pack narrows with the core's saturation mode (accum.hpp).
    template <typename T2 = std::conditional_t<sizeof(T) == 1,
                                               std::conditional_t<std::is_signed_v<T>, int16, uint16>,
                                               std::conditional_t<std::is_signed_v<T>, int32, uint32>>>
    IRON_AIE_INLINE constexpr vector<T2, Elems> unpack() const
    {
        static_assert(std::is_integral_v<T> && std::is_integral_v<T2> && sizeof(T2) > sizeof(T),
                      "vector::unpack: integer lanes, to a wider type");
        vector<T2, Elems> r;
        for (unsigned i = 0; i < Elems; i++)
            r.lanes_[i] = static_cast<T2>(lanes_[i]);
        return r;
    }

    template <typename T2 = std::conditional_t<sizeof(T) == 4,
                                               std::conditional_t<std::is_signed_v<T>, int16, uint16>,
                                               std::conditional_t<std::is_signed_v<T>, int8, uint8>>>
    vector<T2, Elems> pack(IRON_AIE_LOC) const;

    // Memory (memory.hpp): aligned like load_v / store_v.
    void load(const T *ptr, IRON_AIE_LOC);
    void store(T *ptr, IRON_AIE_LOC) const;
};

} // namespace aie
