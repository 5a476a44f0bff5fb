// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// count.hpp - a timed build's operation counts (<iron_count.h>): every
// part of the host AIE API that issues an operation counts it here, with
// what the timing model needs (bits moved, 512-bit registers worked on,
// multiply-accumulates by element type).  A kernel built without
// IRON_COUNT (every build but the timing model's) compiles the counts
// away: IRON_AIE_COUNT expands to nothing that runs.
#pragma once

#include <type_traits>

#include "bfloat16.hpp"
#include "config.hpp"

#include "../../iron_count.h"

#if defined(IRON_COUNT) && IRON_COUNT
// Counted only when the operation runs, never while a constant is being
// evaluated (several operations are constexpr).
#define IRON_AIE_COUNT(kind, n)                                               \
    (std::is_constant_evaluated()                                             \
         ? static_cast<void>(0)                                               \
         : iron__count((kind), static_cast<unsigned long long>(n)))
#else
#define IRON_AIE_COUNT(kind, n) static_cast<void>(0)
#endif

namespace aie::detail {

// Register operations for `bits` of data: one per 512-bit register, at
// least one.
constexpr unsigned count_regs(unsigned bits) { return bits <= 512 ? 1 : (bits + 511) / 512; }

// 0 int8, 1 int16, 2 int32, 3 bfloat16, 4 float: the multiplier's element
// class of two operand types (the wider, floats over integers).
template <typename A, typename B> constexpr int count_mul_class()
{
    if constexpr (std::is_same_v<A, float> || std::is_same_v<B, float>)
        return 4;
    else if constexpr (std::is_same_v<A, bfloat16> || std::is_same_v<B, bfloat16>)
        return 3;
    else if constexpr (sizeof(A) <= 1 && sizeof(B) <= 1)
        return 0;
    else if constexpr (sizeof(A) <= 2 && sizeof(B) <= 2)
        return 1;
    else
        return 2;
}

} // namespace aie::detail

// The kinds of an elementwise and a matrix multiply of A by B.
namespace aie::detail {
template <typename A, typename B>
inline constexpr int count_emul_v = IRON_COUNT_EMUL_I8 + count_mul_class<A, B>();
template <typename A, typename B>
inline constexpr int count_mmul_v = IRON_COUNT_MMUL_I8 + count_mul_class<A, B>();
} // namespace aie::detail
