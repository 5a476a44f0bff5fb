// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// config.hpp - which AIE generation the kernel is built for, the scalar
// type names the AIE compilers predefine, the accumulator tags, and the
// per-arch sizes (native vector length, load/store alignment) that the
// rest of the host AIE API reads from here and nowhere else.
#pragma once

#if __cplusplus < 202002L
#error "the host AIE API needs C++20 (-std=c++20)"
#endif

#if !defined(__AIE_ARCH__)
#error "__AIE_ARCH__ is not defined: define it as 20 (npu1, AIE2 / AIE-ML) or 21 (npu2, AIE2P / AIE-ML v2)"
#elif __AIE_ARCH__ != 20 && __AIE_ARCH__ != 21
#error "__AIE_ARCH__ must be 20 (npu1, AIE2 / AIE-ML) or 21 (npu2, AIE2P / AIE-ML v2)"
#endif

#include <cstdint>
#include <type_traits>

// The AIE compilers predefine these names; kernels use them unqualified.
// (A second identical alias, e.g. from the intrinsics header, is legal.)
using int8 = int8_t;
using int16 = int16_t;
using int32 = int32_t;
using int64 = int64_t;
using uint8 = uint8_t;
using uint16 = uint16_t;
using uint32 = uint32_t;
using uint64 = uint64_t;

// Accumulator element tags, global as the AIE compilers declare them.
// AIE2 and AIE2P have 32- and 64-bit integer accumulator lanes: acc16..acc32
// live in 32-bit lanes, acc40..acc64 in 64-bit lanes (see accum.hpp).
struct acc16 {};
struct acc24 {};
struct acc32 {};
struct acc40 {};
struct acc48 {};
struct acc56 {};
struct acc64 {};
struct accfloat {};
struct accauto;

#define IRON_AIE_INLINE __attribute__((always_inline)) inline
// Trailing parameters of every API function that can fault: the caller's
// file:line, so that the fault names the kernel's line, not this header's.
#define IRON_AIE_LOC                                                          \
    const char *iron_file_ = __builtin_FILE(),                               \
               unsigned iron_line_ = __builtin_LINE()
#define IRON_AIE_AT iron_file_, iron_line_

namespace aie {

enum class aie_dm_resource { none, a, b, c, d, stack };

namespace detail {

inline constexpr unsigned arch = __AIE_ARCH__;

template <typename T> inline constexpr unsigned type_bits_v = sizeof(T) * 8;

// Elements in one 512-bit vector register (both generations).
template <typename T>
inline constexpr unsigned native_vector_length_v = 512 / type_bits_v<T>;

// Alignment (bytes) load_v/store_v and the vector iterators need for a
// vector of Elems T: its own size, at most 32.  Both generations load and
// store through 256-bit ports, and their compilers align a compute tile's
// buffers to that width (32 bytes), not to the vector's size -- so a
// 512-bit load_v at a buffer's start must work on AIE2P too, and the
// emulator's buffer placement gives 32 bytes.  A smaller vector, which the
// hardware moves inside one port access, needs its own size (the largest
// power of two dividing it), so that an iterator can step over them.
constexpr unsigned ldst_align(unsigned bytes)
{
    unsigned a = 1;
    while (a < 32 && bytes % (2 * a) == 0)
        a *= 2;
    return a;
}
template <typename T, unsigned Elems>
inline constexpr unsigned vector_ldst_align_v = ldst_align(sizeof(T) * Elems);

// What the AIE API promises for declaring vector data (alignas): one
// register's worth where a 512-bit load may happen.  Not what load_v
// checks (above).
inline constexpr unsigned vector_decl_align = arch == 20 ? 32 : 64;

template <typename T, typename... U>
inline constexpr bool is_one_of_v = (std::is_same_v<T, U> || ...);

// For static_assert in templates that must fail only when instantiated.
template <typename... T> inline constexpr bool not_on_host = false;

} // namespace detail

template <typename T>
inline constexpr unsigned native_vector_length_v = detail::native_vector_length_v<T>;
inline constexpr unsigned vector_decl_align = detail::vector_decl_align;
template <typename T, unsigned Elems>
inline constexpr unsigned vector_ldst_align_v = detail::vector_ldst_align_v<T, Elems>;
template <typename T, unsigned Elems>
inline constexpr unsigned vector_ldst_align_elems_v = detail::vector_ldst_align_v<T, Elems> / sizeof(T);

} // namespace aie
