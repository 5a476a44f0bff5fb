// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_bfloat16.cpp - bfloat16: the scalar conversion (nearest, ties to
// even), the vector narrowing from accfloat in every rounding mode, NaN,
// infinities, subnormals, and the flush of subnormals on the vector path.
// Expected values: the two bfloat16 neighbours of the float, chosen by the
// mode from the exact distances (long double).
#include "aieapi_test.hpp"

#include <limits>

namespace {

using aie::rounding_mode;

long double val(uint16_t b) { return (long double)f_of((uint32_t)b << 16); }

// The bfloat16 bits of finite normal f rounded by mode m.
uint16_t ref_bf16(float f, rounding_mode m)
{
    uint32_t u = u_of(f);
    uint16_t down = (uint16_t)(u >> 16); // towards zero
    if ((u & 0xffff) == 0)
        return down;
    uint16_t away = (uint16_t)(down + 1); // next magnitude (may be inf)
    // Past the largest finite the next step is 2^128 (it rounds to inf).
    long double va = (away & 0x7fff) == 0x7f80 ? copysignl(ldexpl(1, 128), f) : val(away);
    long double x = f, dd = fabsl(x - val(down)), da = fabsl(va - x);
    bool neg = f < 0;
    uint16_t lower = neg ? away : down, upper = neg ? down : away; // by value
    bool tie = dd == da;
    switch (m) {
    case rounding_mode::floor: return lower;
    case rounding_mode::ceil: return upper;
    case rounding_mode::symmetric_floor: return down;
    case rounding_mode::symmetric_ceil: return away;
    case rounding_mode::negative_inf: return tie ? lower : (dd < da ? down : away);
    case rounding_mode::positive_inf: return tie ? upper : (dd < da ? down : away);
    case rounding_mode::symmetric_zero: return tie ? down : (dd < da ? down : away);
    case rounding_mode::symmetric_inf: return tie ? away : (dd < da ? down : away);
    case rounding_mode::conv_even: return tie ? ((down & 1) ? away : down) : (dd < da ? down : away);
    case rounding_mode::conv_odd: return tie ? ((down & 1) ? down : away) : (dd < da ? down : away);
    }
    return 0;
}

const rounding_mode all_modes[] = {
    rounding_mode::floor,          rounding_mode::ceil,
    rounding_mode::symmetric_floor, rounding_mode::symmetric_ceil,
    rounding_mode::negative_inf,   rounding_mode::positive_inf,
    rounding_mode::symmetric_zero, rounding_mode::symmetric_inf,
    rounding_mode::conv_even,      rounding_mode::conv_odd,
};

} // namespace

AIE_TEST(bf16_scalar_conversion_nearest_even)
{
    CHECK_EQ(bfloat16(1.0f).bits_, 0x3f80);
    CHECK_EQ(bfloat16(f_of(0x3f808000)).bits_, 0x3f80); // tie, even stays
    CHECK_EQ(bfloat16(f_of(0x3f818000)).bits_, 0x3f82); // tie, odd goes up
    CHECK_EQ(bfloat16(f_of(0x3f808001)).bits_, 0x3f81);
    CHECK_EQ(bfloat16(f_of(0xbf808001)).bits_, 0xbf81);
    CHECK_EQ(bfloat16(f_of(0x7f7fffff)).bits_, 0x7f80); // rounds to inf
    CHECK_EQ(bfloat16(std::numeric_limits<float>::infinity()).bits_, 0x7f80);
    CHECK_EQ(bfloat16(-std::numeric_limits<float>::infinity()).bits_, 0xff80);
    CHECK_EQ(bfloat16(f_of(0x7f800001)).bits_, 0x7fc0);  // NaN payload only low: stays NaN
    CHECK_EQ(bfloat16(f_of(0xffc12345)).bits_, 0xffc1);
    CHECK_EQ(bfloat16(f_of(0x00010000)).bits_, 0x0001);  // subnormal kept (scalar path)
    CHECK_EQ(bfloat16(-0.0f).bits_, 0x8000);
    CHECK_EQ(bfloat16(3).bits_, 0x4040);
    CHECK_EQ((float)bfloat16::from_bits(0xc0a0), -5.0f);
    bfloat16 x = 1.5f;
    x += 1.0f;
    CHECK_EQ((float)x, 2.5f);
    CHECK_EQ(std::numeric_limits<bfloat16>::max().bits_, 0x7f7f);
    CHECK_EQ((float)std::numeric_limits<bfloat16>::lowest(), -(float)std::numeric_limits<bfloat16>::max());
    // Every tie and near-tie around a few binades against the reference.
    for (uint32_t hi : {0x3f80u, 0x3f81u, 0xbf80u, 0xbf81u, 0x4b7fu, 0x0080u})
        for (uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
            float f = f_of(hi << 16 | lo);
            CHECK_EQ(bfloat16(f).bits_, ref_bf16(f, rounding_mode::conv_even));
        }
}

AIE_TEST(bf16_vector_narrowing_every_mode)
{
    const uint32_t lows[] = {0x0000, 0x0001, 0x4000, 0x7fff, 0x8000, 0x8001, 0xc000, 0xffff};
    const uint32_t highs[] = {0x3f80, 0x3f81, 0xbf80, 0xbf81, 0x7f7f, 0xff7f, 0x0080, 0x4049};
    for (auto m : all_modes) {
        aie::set_rounding(m);
        for (uint32_t h : highs) {
            aie::accum<accfloat, 8> acc;
            for (unsigned i = 0; i < 8; i++)
                acc.set(f_of(h << 16 | lows[i]), i);
            aie::vector<bfloat16, 8> v = acc.to_vector<bfloat16>();
            for (unsigned i = 0; i < 8; i++) {
                uint16_t e = ref_bf16(f_of(h << 16 | lows[i]), m);
                if (v[i].bits_ != e)
                    fprintf(stderr, "mode %u, 0x%08x:\n", (unsigned)m, h << 16 | lows[i]);
                CHECK_EQ(v[i].bits_, e);
            }
        }
    }
    // The hardware's reset mode (floor) rounds towards -inf on the value.
    aie::set_rounding(rounding_mode::floor);
    aie::accum<accfloat, 8> a;
    a.set(f_of(0xbf800001), 0);
    a.set(f_of(0x3f80ffff), 1);
    auto v = a.to_vector<bfloat16>();
    CHECK_EQ(v[0].bits_, 0xbf81);
    CHECK_EQ(v[1].bits_, 0x3f80);
}

AIE_TEST(bf16_vector_narrowing_specials)
{
    for (auto m : all_modes) {
        aie::set_rounding(m);
        aie::accum<accfloat, 8> a;
        a.set(std::numeric_limits<float>::infinity(), 0);
        a.set(-std::numeric_limits<float>::infinity(), 1);
        a.set(f_of(0x7f800001), 2);  // signalling NaN, payload in the low half
        a.set(f_of(0x00400000), 3);  // subnormal: flushed
        a.set(f_of(0x80000001), 4);  // negative subnormal: -0
        a.set(0.0f, 5);
        a.set(-0.0f, 6);
        a.set(f_of(0x00800000), 7);  // smallest normal stays
        auto v = a.to_vector<bfloat16>();
        CHECK_EQ(v[0].bits_, 0x7f80);
        CHECK_EQ(v[1].bits_, 0xff80);
        CHECK_EQ(v[2].bits_, 0x7fc0);
        CHECK_EQ(v[3].bits_, 0x0000);
        CHECK_EQ(v[4].bits_, 0x8000);
        CHECK_EQ(v[5].bits_, 0x0000);
        CHECK_EQ(v[6].bits_, 0x8000);
        CHECK_EQ(v[7].bits_, 0x0080);
    }
    // Overflow: the largest finite rounds to inf in the modes that go up,
    // stays in those that do not.
    aie::accum<accfloat, 8> a;
    a.set(f_of(0x7f7fffff), 0);
    aie::set_rounding(rounding_mode::conv_even);
    CHECK_EQ(a.to_vector<bfloat16>()[0].bits_, 0x7f80);
    aie::set_rounding(rounding_mode::floor);
    CHECK_EQ(a.to_vector<bfloat16>()[0].bits_, 0x7f7f);
}

AIE_TEST(bf16_from_vector_to_accfloat)
{
    aie::vector<bfloat16, 16> v;
    v[0] = bfloat16::from_bits(0x4049);
    v[1] = bfloat16::from_bits(0x0001); // subnormal: flushed in the datapath
    v[2] = bfloat16::from_bits(0x8001);
    v[3] = bfloat16::from_bits(0xffc0);
    aie::accum<accfloat, 16> a(v);
    CHECK_EQ(a.get(0), f_of(0x40490000));
    CHECK_EQ(a.get(1), 0.0f);
    CHECK_EQ(a.get(2), -0.0f);
    CHECK(a.get(3) != a.get(3));
    aie::vector<float, 16> f = a.to_vector<float>();
    CHECK_EQ(f[0], f_of(0x40490000));
}
