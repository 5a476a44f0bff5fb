// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// srs.cc - shift-round-saturate conversion with the AIE API: int32 lanes
// into an acc64 accumulator (from_vector), then back down to int8 or
// int16 with to_vector<T>(shift) under the rounding and saturation modes
// the kernel sets on its core.
//
// Entries srs_int32_to_int8 / srs_int32_to_int16 (in, out, ctl, n):
// ctl[0] the shift, ctl[1] the rounding mode and ctl[2] the saturation
// mode, each an index into the tables below (the modes by their AIE API
// names); any other index is handed to set_rounding / set_saturation as
// the mode's value itself, which is how a test reaches the "bad mode"
// fault.  n must be a multiple of 16.
#include <stdint.h>

#include <aie_api/aie.hpp>

static const aie::rounding_mode rounding_modes[] = {
    aie::rounding_mode::floor,          aie::rounding_mode::ceil,
    aie::rounding_mode::symmetric_floor, aie::rounding_mode::symmetric_ceil,
    aie::rounding_mode::positive_inf,   aie::rounding_mode::negative_inf,
    aie::rounding_mode::symmetric_inf,  aie::rounding_mode::symmetric_zero,
    aie::rounding_mode::conv_even,      aie::rounding_mode::conv_odd,
};

static const aie::saturation_mode saturation_modes[] = {
    aie::saturation_mode::none,
    aie::saturation_mode::saturate,
    aie::saturation_mode::symmetric,
};

template <typename Mode, unsigned N>
static Mode pick(const Mode (&table)[N], int32_t index)
{
    if (index >= 0 && (uint32_t)index < N)
        return table[index];
    return static_cast<Mode>(index);
}

template <typename T>
static void srs_vectorized(const int32_t *__restrict in, T *__restrict out,
                           const int32_t *ctl, int32_t n)
{
    constexpr unsigned N = 16;
    const int shift = ctl[0];
    aie::set_rounding(pick(rounding_modes, ctl[1]));
    aie::set_saturation(pick(saturation_modes, ctl[2]));
    for (int32_t i = 0; i < n; i += N) {
        aie::accum<acc64, N> acc;
        acc.from_vector(aie::load_v<N>(in + i), 0);
        aie::store_v(out + i, acc.template to_vector<T>(shift));
    }
}

extern "C" {

void srs_int32_to_int8(const int32_t *in, int8_t *out, const int32_t *ctl,
                       int32_t n)
{
    srs_vectorized<int8_t>(in, out, ctl, n);
}

void srs_int32_to_int16(const int32_t *in, int16_t *out, const int32_t *ctl,
                        int32_t n)
{
    srs_vectorized<int16_t>(in, out, ctl, n);
}

} // extern "C"
