// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// modes.hpp - the core's rounding and saturation modes.  They live in the
// running core's control words (iron__aie_ctl, host.hpp), as they live in
// the core's control registers on the hardware: per core, 0 (floor
// rounding, no saturation) from the core's reset (the design loaded, or
// reset after a fault), kept across calls of the design, and read by every
// shift-round-saturate and float narrowing.
#pragma once

#include "config.hpp"
#include "host.hpp"

namespace aie {

// The values are the hardware's (the control register's encoding on AIE2
// and AIE2P); 4..7 are not modes.
enum class rounding_mode : unsigned {
    floor = 0,            // towards -inf
    ceil = 1,             // towards +inf
    symmetric_floor = 2,  // towards zero
    symmetric_ceil = 3,   // away from zero
    negative_inf = 8,     // nearest, ties towards -inf
    positive_inf = 9,     // nearest, ties towards +inf
    symmetric_zero = 10,  // nearest, ties towards zero
    symmetric_inf = 11,   // nearest, ties away from zero
    conv_even = 12,       // nearest, ties to even
    conv_odd = 13,        // nearest, ties to odd
};

enum class saturation_mode : unsigned {
    none = 0,       // wrap (keep the low bits)
    truncate [[deprecated("use saturate")]] = 1,
    saturate = 1,   // clamp to the type's range
    symmetric = 3,  // clamp to [-max, max] (signed types; unsigned as saturate)
};

namespace detail {

inline constexpr unsigned ctl_rounding = 0;
inline constexpr unsigned ctl_saturation = 1;

constexpr bool valid_rounding(unsigned m)
{
    return m <= 3 || (m >= 8 && m <= 13);
}
constexpr bool valid_saturation(unsigned m)
{
    return m == 0 || m == 1 || m == 3;
}

// The current modes, checked: a word out of the enum (set through a raw
// control-register write, or memory corruption) is the caller's fault.
IRON_AIE_INLINE unsigned rounding(const char *file, unsigned line)
{
    unsigned m = iron__aie_ctl()[ctl_rounding];
    if (!valid_rounding(m)) [[unlikely]]
        iron__aie_fault("the core's rounding mode is not an aie::rounding_mode "
                        "value (0-3, 8-13)", file, line);
    return m;
}
IRON_AIE_INLINE unsigned saturation(const char *file, unsigned line)
{
    unsigned m = iron__aie_ctl()[ctl_saturation];
    if (!valid_saturation(m)) [[unlikely]]
        iron__aie_fault("the core's saturation mode is not an "
                        "aie::saturation_mode value (0, 1, 3)", file, line);
    return m;
}

} // namespace detail

IRON_AIE_INLINE void set_rounding(rounding_mode m, IRON_AIE_LOC)
{
    if (!detail::valid_rounding(static_cast<unsigned>(m))) [[unlikely]]
        iron__aie_fault("aie::set_rounding: the mode is not an "
                        "aie::rounding_mode value (0-3, 8-13)", IRON_AIE_AT);
    iron__aie_ctl()[detail::ctl_rounding] = static_cast<unsigned>(m);
}

IRON_AIE_INLINE rounding_mode get_rounding()
{
    return static_cast<rounding_mode>(iron__aie_ctl()[detail::ctl_rounding]);
}

IRON_AIE_INLINE void set_saturation(saturation_mode m, IRON_AIE_LOC)
{
    if (!detail::valid_saturation(static_cast<unsigned>(m))) [[unlikely]]
        iron__aie_fault("aie::set_saturation: the mode is not an "
                        "aie::saturation_mode value (0, 1, 3)", IRON_AIE_AT);
    iron__aie_ctl()[detail::ctl_saturation] = static_cast<unsigned>(m);
}

IRON_AIE_INLINE saturation_mode get_saturation()
{
    return static_cast<saturation_mode>(iron__aie_ctl()[detail::ctl_saturation]);
}

// Sets the mode and returns the one it replaces.
IRON_AIE_INLINE rounding_mode swap_rounding(rounding_mode m, IRON_AIE_LOC)
{
    rounding_mode old = get_rounding();
    set_rounding(m, IRON_AIE_AT);
    return old;
}

IRON_AIE_INLINE saturation_mode swap_saturation(saturation_mode m, IRON_AIE_LOC)
{
    saturation_mode old = get_saturation();
    set_saturation(m, IRON_AIE_AT);
    return old;
}

} // namespace aie
