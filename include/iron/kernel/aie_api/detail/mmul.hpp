// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// mmul.hpp - aie::mmul<M, K, N, TypeA, TypeB, AccumTag>: the blocked
// matrix multiply C (M x N) += A (M x K) * B (K x N) the AIE2 / AIE2P
// matrix units run, with the shapes each generation offers per type pair
// (mmul_modes below: one table drives the lookup, the compile errors and
// the unit tests), and the names of the sliding multiplications, which the
// host does not implement.
//
// Layouts, as the AIE API defines them: A is M x K row-major in a vector of
// M*K lanes, B is K x N row-major, C is M x N row-major.
//
// Arithmetic:
//  - integers: each product is exact and is added to its C lane in the
//    accumulator lane width the shape uses on the hardware (32 or 64 bits;
//    mmul_modes' `lane`), wrapping on overflow as the hardware's lanes do.
//    Sums wrap modulo 2^lane, so their order does not matter.
//  - bfloat16: each product is exact in float (8-bit mantissas), and is
//    added to its float C lane in k order, each add rounded to nearest
//    even; subnormal inputs, products and sums are flushed to zero of the
//    same sign, as the AIE2 / AIE2P float datapath has no subnormals (see
//    bfloat16.hpp).  The hardware's adder tree may order a mac's K adds
//    differently, so a sum can differ from it in the last bit.
//  - float (AIE2 only): computed in float, product then sum, each rounded
//    to nearest even, subnormals flushed.  The hardware emulates float
//    multiplies with bfloat16 pieces; results may differ in the last bits.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "accum.hpp"
#include "bfloat16.hpp"
#include "config.hpp"
#include "count.hpp"
#include "vector.hpp"

namespace aie::detail {

// The operand classes of the mode table.  Signed and unsigned lanes of one
// width share their modes, as they do on the hardware.
enum class mm_kind : unsigned char { none, i8, i16, i32, bf16, f32 };

template <typename T>
constexpr mm_kind mm_kind_of()
{
    if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>)
        return mm_kind::i8;
    else if constexpr (std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>)
        return mm_kind::i16;
    else if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>)
        return mm_kind::i32;
    else if constexpr (std::is_same_v<T, bfloat16>)
        return mm_kind::bf16;
    else if constexpr (std::is_same_v<T, float>)
        return mm_kind::f32;
    else
        return mm_kind::none;
}

// One matrix-multiply mode: operand classes, shape, the accumulator widths
// a kernel may ask for (`accepts`: 32, 64, or 0 = either), the lane width
// the products are summed in (`lane`), and whether the mmul's accum_type
// follows the width asked for (true) or the lane width (false).  On the
// hardware some 8 x 8 shapes sum in 64-bit lanes but still present an
// acc32 accumulator.
struct mm_mode {
    mm_kind a, b;
    unsigned char m, k, n;
    unsigned char accepts;
    unsigned char lane;
    bool tag_follows_request;
};

#define IRON_MM(A, B, M, K, N, ACC, LANE) \
    mm_mode{ mm_kind::A, mm_kind::B, M, K, N, ACC, LANE, false }
#define IRON_MM_REQ(A, B, M, K, N, ACC, LANE) \
    mm_mode{ mm_kind::A, mm_kind::B, M, K, N, ACC, LANE, true }

// AIE2 (AIE-ML, npu1, __AIE_ARCH__ 20): the dense modes of the AIE API for
// this generation.  Some are several hardware operations under one name;
// that changes nothing of the result.
inline constexpr mm_mode mmul_modes_aie2[] = {
    IRON_MM_REQ(i8, i8, 4, 8, 4, 32, 64),
    IRON_MM_REQ(i8, i8, 4, 16, 4, 32, 64),
    IRON_MM_REQ(i8, i8, 8, 8, 4, 32, 64),
    IRON_MM(i8, i8, 2, 8, 8, 32, 32),
    IRON_MM(i8, i8, 4, 8, 8, 32, 32),
    IRON_MM(i8, i8, 8, 8, 8, 32, 32),
    IRON_MM(i8, i8, 1, 16, 8, 32, 32),
    IRON_MM(i8, i8, 2, 16, 8, 32, 32),
    IRON_MM(i8, i8, 4, 16, 8, 32, 32),
    IRON_MM(i8, i8, 8, 16, 8, 32, 32),
    IRON_MM(i16, i8, 4, 4, 4, 32, 32),
    IRON_MM(i16, i8, 8, 4, 4, 32, 32),
    IRON_MM(i16, i8, 4, 4, 8, 32, 32),
    IRON_MM(i16, i8, 8, 4, 8, 32, 32),
    IRON_MM(i16, i8, 4, 8, 4, 32, 64),
    IRON_MM(i16, i8, 2, 8, 8, 32, 64),
    IRON_MM(i16, i8, 2, 16, 8, 32, 64),
    IRON_MM(i16, i8, 4, 16, 8, 32, 64),
    IRON_MM(i8, i16, 4, 4, 4, 32, 64),
    IRON_MM(i8, i16, 4, 4, 8, 32, 64),
    IRON_MM(i16, i16, 4, 2, 8, 32, 32),
    IRON_MM(i16, i16, 8, 2, 8, 32, 32),
    IRON_MM(i16, i16, 8, 1, 8, 32, 32),
    IRON_MM(i16, i16, 4, 4, 4, 0, 64),
    IRON_MM(i16, i16, 2, 4, 8, 0, 64),
    IRON_MM(i16, i16, 4, 4, 8, 0, 64),
    IRON_MM(i16, i16, 2, 8, 8, 0, 64),
    IRON_MM(i16, i16, 4, 8, 8, 0, 64),
    IRON_MM(i32, i16, 4, 2, 4, 64, 64),
    IRON_MM(i32, i16, 4, 4, 4, 64, 64),
    IRON_MM(i32, i16, 2, 4, 8, 64, 64),
    IRON_MM(i32, i16, 4, 4, 8, 64, 64),
    IRON_MM(i32, i16, 4, 1, 8, 64, 64),
    IRON_MM(i16, i32, 4, 4, 4, 64, 64),
    IRON_MM(i16, i32, 2, 4, 8, 64, 64),
    IRON_MM(i32, i32, 4, 2, 4, 64, 64),
    IRON_MM(i32, i32, 4, 4, 4, 64, 64),
    IRON_MM(i32, i32, 8, 2, 4, 64, 64),
    IRON_MM(i32, i32, 4, 1, 8, 64, 64),
    IRON_MM(bf16, bf16, 4, 8, 4, 32, 32),
    IRON_MM(bf16, bf16, 8, 8, 4, 32, 32),
    IRON_MM(bf16, bf16, 4, 16, 4, 32, 32),
    IRON_MM(bf16, bf16, 4, 8, 8, 32, 32),
    IRON_MM(bf16, bf16, 8, 8, 8, 32, 32),
    IRON_MM(bf16, bf16, 8, 1, 8, 32, 32),
    IRON_MM(f32, f32, 4, 8, 4, 32, 32),
    IRON_MM(f32, f32, 4, 1, 4, 32, 32),
    IRON_MM(f32, f32, 4, 1, 8, 32, 32),
};

// AIE2P (AIE-ML v2 as in XDNA2, npu2, __AIE_ARCH__ 21).  float x float is
// not offered by default on this generation.
inline constexpr mm_mode mmul_modes_aie2p[] = {
    IRON_MM(i8, i8, 2, 8, 8, 32, 32),
    IRON_MM(i8, i8, 4, 8, 8, 32, 32),
    IRON_MM(i8, i8, 8, 8, 8, 32, 32),
    IRON_MM(i8, i8, 4, 16, 8, 32, 32),
    IRON_MM(i8, i8, 8, 16, 8, 32, 32),
    IRON_MM(i16, i8, 4, 4, 8, 32, 32),
    IRON_MM(i16, i8, 8, 4, 8, 32, 32),
    IRON_MM(i16, i8, 4, 8, 8, 0, 64),
    IRON_MM(i16, i8, 2, 16, 8, 0, 64),
    IRON_MM(i16, i8, 4, 16, 8, 0, 64),
    IRON_MM(i8, i16, 8, 2, 8, 32, 32),
    IRON_MM(i8, i16, 4, 4, 8, 32, 64),
    IRON_MM(i16, i16, 4, 2, 8, 32, 32),
    IRON_MM(i16, i16, 8, 2, 8, 32, 32),
    IRON_MM(i16, i16, 8, 1, 8, 32, 32),
    IRON_MM(i16, i16, 2, 4, 8, 0, 64),
    IRON_MM(i16, i16, 4, 4, 8, 0, 64),
    IRON_MM(i16, i16, 2, 8, 8, 0, 64),
    IRON_MM(i16, i16, 4, 8, 8, 0, 64),
    IRON_MM(i32, i16, 4, 2, 8, 64, 64),
    IRON_MM(i32, i16, 2, 4, 8, 64, 64),
    IRON_MM(i32, i16, 4, 4, 8, 64, 64),
    IRON_MM(i32, i16, 4, 1, 8, 64, 64),
    IRON_MM(i16, i32, 4, 4, 8, 64, 64),
    IRON_MM(i32, i32, 4, 2, 8, 64, 64),
    IRON_MM(i32, i32, 4, 4, 8, 64, 64),
    IRON_MM(i32, i32, 4, 4, 4, 64, 64),
    IRON_MM(i32, i32, 8, 2, 8, 64, 64),
    IRON_MM(i32, i32, 4, 1, 8, 64, 64),
    IRON_MM(bf16, bf16, 4, 8, 4, 32, 32),
    IRON_MM(bf16, bf16, 8, 8, 4, 32, 32),
    IRON_MM(bf16, bf16, 4, 8, 8, 32, 32),
    IRON_MM(bf16, bf16, 8, 8, 8, 32, 32),
    IRON_MM(bf16, bf16, 8, 1, 8, 32, 32),
};

#undef IRON_MM
#undef IRON_MM_REQ

template <unsigned Arch>
constexpr const auto &mmul_modes()
{
    if constexpr (Arch == 20)
        return mmul_modes_aie2;
    else
        return mmul_modes_aie2p;
}

// The accumulator width a kernel asks for: the AIE API's default for the
// type pair (accauto), or the tag's native width -- acc16..acc32 and
// accfloat are 32-bit lanes, acc40..acc64 64-bit (as on the hardware,
// which has no other widths).
template <typename Tag, typename A, typename B>
constexpr unsigned mm_request_bits()
{
    using T = acc_tag_or_default_t<Tag, A, B>;
    return acc_lane<T>::bits == 64 ? 64 : 32;
}

struct mm_found {
    bool ok;
    unsigned lane;     // bits the products are summed in
    unsigned tag_bits; // bits of accum_type
};

template <unsigned Arch>
constexpr mm_found mm_find(mm_kind a, mm_kind b, unsigned m, unsigned k, unsigned n,
                           unsigned req)
{
    for (const mm_mode &e : mmul_modes<Arch>())
        if (e.a == a && e.b == b && e.m == m && e.k == k && e.n == n &&
            (e.accepts == 0 || e.accepts == req))
            return { true, e.lane, e.tag_follows_request ? req : e.lane };
    return { false, 0, 0 };
}

// Named in the compile error of a shape the architecture lacks: the
// compiler prints its arguments, which are the shape and the types.
template <unsigned M, unsigned K, unsigned N, typename TypeA, typename TypeB,
          unsigned AccumBits>
struct mmul_shape_not_on_aie2_npu1 {
    static_assert(M == 0 && M != 0,
                  "aie::mmul: AIE2 (npu1, __AIE_ARCH__ 20) has no matrix multiply of "
                  "this M x K x N shape for these types and accumulator bits -- see "
                  "'mmul_shape_not_on_aie2_npu1<M, K, N, TypeA, TypeB, AccumBits>' "
                  "in the instantiation note");
};
template <unsigned M, unsigned K, unsigned N, typename TypeA, typename TypeB,
          unsigned AccumBits>
struct mmul_shape_not_on_aie2p_npu2 {
    static_assert(M == 0 && M != 0,
                  "aie::mmul: AIE2P (npu2, __AIE_ARCH__ 21) has no matrix multiply of "
                  "this M x K x N shape for these types and accumulator bits -- see "
                  "'mmul_shape_not_on_aie2p_npu2<M, K, N, TypeA, TypeB, AccumBits>' "
                  "in the instantiation note");
};

template <unsigned M, unsigned K, unsigned N, typename TypeA, typename TypeB,
          unsigned AccumBits, bool Ok>
struct mmul_check : std::true_type {};
template <unsigned M, unsigned K, unsigned N, typename TypeA, typename TypeB,
          unsigned AccumBits>
struct mmul_check<M, K, N, TypeA, TypeB, AccumBits, false>
    : std::bool_constant<sizeof(std::conditional_t<
                             arch == 20,
                             mmul_shape_not_on_aie2_npu1<M, K, N, TypeA, TypeB, AccumBits>,
                             mmul_shape_not_on_aie2p_npu2<M, K, N, TypeA, TypeB,
                                                          AccumBits>>) != 0> {};

template <unsigned Bits, bool Float>
using mm_tag_t = std::conditional_t<Float, accfloat, std::conditional_t<Bits == 64, acc64, acc32>>;

// C (M x N, lanes L) += A (M x K) * B (K x N), integer lanes wrapping.
// The j loop is innermost so that the host compiler vectorizes it.
template <unsigned M, unsigned K, unsigned N, typename L, typename TA, typename TB>
IRON_AIE_INLINE void mm_mac_int(L *__restrict c, const TA *__restrict a,
                                const TB *__restrict b)
{
    using U = std::make_unsigned_t<L>;
    for (unsigned i = 0; i < M; i++)
        for (unsigned k = 0; k < K; k++) {
            const U av = static_cast<U>(static_cast<L>(a[i * K + k]));
            for (unsigned j = 0; j < N; j++)
                c[i * N + j] = static_cast<L>(
                    static_cast<U>(c[i * N + j]) +
                    av * static_cast<U>(static_cast<L>(b[k * N + j])));
        }
}

IRON_AIE_INLINE float mm_f32_of(bfloat16 x)
{
    return ftz(std::bit_cast<float>(static_cast<uint32_t>(x.bits_) << 16));
}
IRON_AIE_INLINE float mm_f32_of(float x) { return ftz(x); }

// C (float lanes) += A * B, in k order per lane, subnormals flushed.
template <unsigned M, unsigned K, unsigned N, typename TA, typename TB>
IRON_AIE_INLINE void mm_mac_float(float *__restrict c, const TA *__restrict a,
                                  const TB *__restrict b)
{
    for (unsigned i = 0; i < M; i++)
        for (unsigned k = 0; k < K; k++) {
            const float av = mm_f32_of(a[i * K + k]);
            for (unsigned j = 0; j < N; j++) {
                const float p = ftz(av * mm_f32_of(b[k * N + j]));
                c[i * N + j] = ftz(c[i * N + j] + p);
            }
        }
}

} // namespace aie::detail

namespace aie {

template <unsigned M_Elems, unsigned K_Elems, unsigned N_Elems, typename TypeA,
          typename TypeB = TypeA, typename AccumTag = accauto>
struct mmul {
  private:
    static constexpr bool is_float_ =
        detail::mm_kind_of<TypeA>() == detail::mm_kind::bf16 ||
        detail::mm_kind_of<TypeA>() == detail::mm_kind::f32;
    static_assert(detail::mm_kind_of<TypeA>() != detail::mm_kind::none &&
                      detail::mm_kind_of<TypeB>() != detail::mm_kind::none,
                  "aie::mmul: TypeA and TypeB must be int8, uint8, int16, uint16, int32, "
                  "uint32, bfloat16 or float (int4 and the complex and block types are "
                  "not implemented on the host by iron)");
    static_assert(std::is_same_v<AccumTag, accauto> || detail::is_acc_tag_v<AccumTag>,
                  "aie::mmul: AccumTag must be accauto or an accumulator tag");
    static constexpr unsigned req_bits_ = detail::mm_request_bits<AccumTag, TypeA, TypeB>();
    static constexpr detail::mm_found found_ =
        detail::mm_find<detail::arch>(detail::mm_kind_of<TypeA>(), detail::mm_kind_of<TypeB>(),
                                      M_Elems, K_Elems, N_Elems, req_bits_);
    static_assert(detail::mmul_check<M_Elems, K_Elems, N_Elems, TypeA, TypeB, req_bits_,
                                     found_.ok>::value);
    // Lanes the sums live in, and the accumulator the API presents.
    using lane_tag_ = detail::mm_tag_t<found_.ok ? found_.lane : 32, is_float_>;
    using lane_accum_ = accum<lane_tag_, M_Elems * N_Elems>;

  public:
    static constexpr unsigned M = M_Elems;
    static constexpr unsigned K = K_Elems;
    static constexpr unsigned N = N_Elems;
    static constexpr unsigned size_A = M * K;
    static constexpr unsigned size_B = K * N;
    static constexpr unsigned size_C = M * N;
    static constexpr unsigned size() { return size_C; }
    static constexpr unsigned accum_bits = req_bits_;

    using accum_type =
        accum<detail::mm_tag_t<found_.ok ? found_.tag_bits : 32, is_float_>, size_C>;

    // The sums (public for the other detail headers and tests, like
    // vector::lanes_; not an AIE API member).
    lane_accum_ c_;

    // The first mul or mac sees zeros: the AIE API's "zero-initialised for
    // the first operation".  (The host zeroes at once; the result is the
    // same.)
    IRON_AIE_INLINE mmul() : c_{} {}
    IRON_AIE_INLINE explicit mmul(bool to_zero) : c_{} { (void)to_zero; }
    IRON_AIE_INLINE mmul(const accum_type &acc) : c_(widen_(acc)) {}
    // C from a row-major vector, shifted left into the accumulator (integer
    // lanes; ignored for floats), as accum::from_vector.
    template <typename T>
    IRON_AIE_INLINE mmul(const vector<T, size_C> &v, int shift = 0, IRON_AIE_LOC) : c_{}
    {
        c_.from_vector(v, shift, IRON_AIE_AT);
    }

    IRON_AIE_INLINE mmul &operator=(const accum_type &acc)
    {
        c_ = widen_(acc);
        return *this;
    }

    IRON_AIE_INLINE accum_type to_accum() const
    {
        if constexpr (std::is_same_v<accum_type, lane_accum_>)
            return c_;
        else
            return accum_type(c_);
    }
    IRON_AIE_INLINE operator accum_type() const { return to_accum(); }

    // C narrowed to T (srs with the core's modes for integers, rounding
    // mode for bfloat16), as accum::to_vector.
    template <typename T>
    IRON_AIE_INLINE vector<T, size_C> to_vector(int shift = 0, IRON_AIE_LOC) const
    {
        return c_.template to_vector<T>(shift, IRON_AIE_AT);
    }

    // C = A * B.
    IRON_AIE_INLINE mmul &mul(const vector<TypeA, size_A> &a, const vector<TypeB, size_B> &b)
    {
        c_ = lane_accum_{};
        return mac(a, b);
    }

    // C += A * B.
    IRON_AIE_INLINE mmul &mac(const vector<TypeA, size_A> &a, const vector<TypeB, size_B> &b)
    {
        IRON_AIE_COUNT((detail::count_mmul_v<TypeA, TypeB>), M * K * N);
        if constexpr (is_float_)
            detail::mm_mac_float<M, K, N>(c_.lanes_, a.lanes_, b.lanes_);
        else
            detail::mm_mac_int<M, K, N>(c_.lanes_, a.lanes_, b.lanes_);
        return *this;
    }

  private:
    static IRON_AIE_INLINE lane_accum_ widen_(const accum_type &acc)
    {
        if constexpr (std::is_same_v<accum_type, lane_accum_>)
            return acc;
        else
            return lane_accum_(acc);
    }
};

// ---- sliding multiplications: not implemented on the host ---------------
// Declared so that a kernel using them fails to compile with a message
// naming them, never with a link error or a wrong result.

#define IRON_AIE_SLIDING_OPS(NAME)                                              \
    template <unsigned Lanes, unsigned Points, int CoeffStep = 1, int DataStepX = 1, \
              int DataStepY = DataStepX, typename CoeffType = int16,             \
              typename DataType = int16, typename AccumTag = accauto>            \
    struct NAME {                                                                \
        static_assert(detail::not_on_host<CoeffType, DataType, AccumTag>,        \
                      "aie::" #NAME " is not implemented on the host by iron");  \
        template <typename... Args> static void mul(const Args &...);            \
        template <typename... Args> static void mac(const Args &...);            \
        template <typename... Args> static void negmul(const Args &...);         \
    };

IRON_AIE_SLIDING_OPS(sliding_mul_ops)
IRON_AIE_SLIDING_OPS(sliding_mul_sym_ops)
IRON_AIE_SLIDING_OPS(sliding_mul_antisym_ops)
IRON_AIE_SLIDING_OPS(sliding_mul_sym_uct_ops)
#undef IRON_AIE_SLIDING_OPS

// The one-step forms are aliases with the API's own parameter lists (the
// types follow the steps they keep), so a kernel naming one reaches the
// message above rather than a template-argument mismatch.
#define IRON_AIE_SLIDING_STEPS(OPS)                                                  template <unsigned Lanes, unsigned Points, int CoeffStep, int DataStepX,                   typename CoeffType, typename DataType, typename AccumTag = accauto>     using OPS##_x_ops = OPS##_ops<Lanes, Points, CoeffStep, DataStepX, 1,                                          CoeffType, DataType, AccumTag>;                    template <unsigned Lanes, unsigned Points, int CoeffStep, int DataStepY,                   typename CoeffType, typename DataType, typename AccumTag = accauto>     using OPS##_y_ops = OPS##_ops<Lanes, Points, CoeffStep, 1, DataStepY,                                          CoeffType, DataType, AccumTag>;                    template <unsigned Lanes, unsigned Points, int CoeffStep, int DataStepXY,                  typename CoeffType, typename DataType, typename AccumTag = accauto>     using OPS##_xy_ops = OPS##_ops<Lanes, Points, CoeffStep, DataStepXY,                                            DataStepXY, CoeffType, DataType, AccumTag>;

IRON_AIE_SLIDING_STEPS(sliding_mul)
IRON_AIE_SLIDING_STEPS(sliding_mul_sym)
#undef IRON_AIE_SLIDING_STEPS

template <unsigned Outputs, unsigned Channels, unsigned Points, int CoeffStep = 1,
          int DataStepX = 1, int DataStepY = DataStepX, typename CoeffType = int16,
          typename DataType = int16, typename AccumTag = accauto>
struct sliding_mul_ch_ops {
    static_assert(detail::not_on_host<CoeffType, DataType, AccumTag>,
                  "aie::sliding_mul_ch_ops is not implemented on the host by iron");
    template <typename... Args> static void mul(const Args &...);
    template <typename... Args> static void mac(const Args &...);
};

#define IRON_AIE_SLIDING_FN(NAME)                                                \
    template <unsigned Lanes, unsigned Points, int... Steps, typename... Args>   \
    void NAME(const Args &...)                                                   \
    {                                                                            \
        static_assert(detail::not_on_host<Args...>,                              \
                      "aie::" #NAME " is not implemented on the host by iron");  \
    }                                                                            \
    template <unsigned Lanes, unsigned Points, int CoeffStep, int DataStepX,     \
              int DataStepY, typename AccumTag, typename... Args>                \
    void NAME(const Args &...)                                                   \
    {                                                                            \
        static_assert(detail::not_on_host<AccumTag, Args...>,                    \
                      "aie::" #NAME " is not implemented on the host by iron");  \
    }

IRON_AIE_SLIDING_FN(sliding_mul)
IRON_AIE_SLIDING_FN(sliding_mac)
IRON_AIE_SLIDING_FN(sliding_mul_sym)
IRON_AIE_SLIDING_FN(sliding_mac_sym)
IRON_AIE_SLIDING_FN(sliding_mul_antisym)
IRON_AIE_SLIDING_FN(sliding_mac_antisym)
IRON_AIE_SLIDING_FN(sliding_mul_sym_uct)
IRON_AIE_SLIDING_FN(sliding_mac_sym_uct)
IRON_AIE_SLIDING_FN(sliding_mul_ch)
IRON_AIE_SLIDING_FN(sliding_mac_ch)
#undef IRON_AIE_SLIDING_FN

} // namespace aie
