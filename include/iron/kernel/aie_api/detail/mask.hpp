// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// mask.hpp - aie::mask<Elems>: one bit per lane, the result of the
// comparisons (lt, eq, ...) and the selector of select().  Kept as one bool
// per lane so that select() and friends are plain lane loops; to_uint32 /
// from_uint32 give the hardware's packed form (lane i = bit i).
#pragma once

#include <cstdint>

#include "config.hpp"

namespace aie {

template <unsigned Elems>
class mask {
    static_assert(Elems >= 1 && Elems <= 128, "aie::mask: 1 to 128 lanes");

  public:
    bool lanes_[Elems];

    IRON_AIE_INLINE constexpr mask() : lanes_{} {}
    // mask(true): every lane set.
    IRON_AIE_INLINE constexpr explicit mask(bool all) : lanes_{}
    {
        for (unsigned i = 0; i < Elems; i++)
            lanes_[i] = all;
    }

    static constexpr unsigned size() { return Elems; }

    IRON_AIE_INLINE constexpr bool test(unsigned i) const { return lanes_[i]; }
    IRON_AIE_INLINE constexpr void set(unsigned i) { lanes_[i] = true; }
    IRON_AIE_INLINE constexpr void clear(unsigned i) { lanes_[i] = false; }
    IRON_AIE_INLINE constexpr unsigned count() const
    {
        unsigned n = 0;
        for (unsigned i = 0; i < Elems; i++)
            n += lanes_[i];
        return n;
    }
    IRON_AIE_INLINE constexpr bool empty() const { return count() == 0; }
    IRON_AIE_INLINE constexpr bool full() const { return count() == Elems; }
    // Lanes idx*32 .. idx*32+31 as the bits of a word (lane idx*32 = bit 0).
    IRON_AIE_INLINE constexpr uint32_t to_uint32(unsigned idx = 0) const
    {
        uint32_t w = 0;
        for (unsigned b = 0; b < 32 && idx * 32 + b < Elems; b++)
            w |= static_cast<uint32_t>(lanes_[idx * 32 + b]) << b;
        return w;
    }
    IRON_AIE_INLINE constexpr uint64_t to_uint64(unsigned idx = 0) const
    {
        return to_uint32(2 * idx) |
               (2 * idx + 1 < (Elems + 31) / 32 ? uint64_t(to_uint32(2 * idx + 1)) << 32 : 0);
    }
    static IRON_AIE_INLINE constexpr mask from_uint32(uint32_t w)
    {
        mask m;
        for (unsigned b = 0; b < 32 && b < Elems; b++)
            m.lanes_[b] = (w >> b) & 1u;
        return m;
    }
    static IRON_AIE_INLINE constexpr mask from_uint64(uint64_t w)
    {
        mask m;
        for (unsigned b = 0; b < 64 && b < Elems; b++)
            m.lanes_[b] = (w >> b) & 1u;
        return m;
    }

#define IRON_AIE_MASK_BINOP(op)                                               \
    IRON_AIE_INLINE constexpr mask operator op(const mask &o) const           \
    {                                                                         \
        mask r;                                                               \
        for (unsigned i = 0; i < Elems; i++)                                  \
            r.lanes_[i] = lanes_[i] op o.lanes_[i];                           \
        return r;                                                             \
    }                                                                         \
    IRON_AIE_INLINE constexpr mask &operator op##=(const mask &o)             \
    {                                                                         \
        return *this = *this op o;                                            \
    }
    IRON_AIE_MASK_BINOP(&)
    IRON_AIE_MASK_BINOP(|)
    IRON_AIE_MASK_BINOP(^)
#undef IRON_AIE_MASK_BINOP
    IRON_AIE_INLINE constexpr mask operator~() const
    {
        mask r;
        for (unsigned i = 0; i < Elems; i++)
            r.lanes_[i] = !lanes_[i];
        return r;
    }
    IRON_AIE_INLINE constexpr bool operator==(const mask &o) const
    {
        for (unsigned i = 0; i < Elems; i++)
            if (lanes_[i] != o.lanes_[i])
                return false;
        return true;
    }
};

} // namespace aie
