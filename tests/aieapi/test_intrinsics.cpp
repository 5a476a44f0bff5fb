// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_intrinsics.cpp - the raw AIE types and intrinsics (intrinsics.hpp):
// layout and interop with aie::vector / aie::accum, lane-wise arithmetic,
// byte shifts and shuffles, the accumulator conversions in every rounding
// and saturation mode, the bfloat16 conversions, the control registers,
// and the faults.  Expected values come from plain scalar code here
// (byte arrays, __int128, double), never from the header.
#include "aieapi_test.hpp"

#include <limits>

namespace {

using aie::rounding_mode;
using aie::saturation_mode;

const unsigned all_rnd[] = {0, 1, 2, 3, 8, 9, 10, 11, 12, 13};
const unsigned all_sat[] = {0, 1, 3};

// v / 2^s rounded by hardware rounding mode m: the value is q + r/d with
// 0 <= r < d; each mode stated on (q, r, sign of v).
__int128 ref_shift_round(__int128 v, int s, unsigned m)
{
    if (s <= 0)
        return v * ((__int128)1 << -s);
    __int128 d = (__int128)1 << s, q = v / d, r = v % d;
    if (r < 0) {
        q -= 1;
        r += d;
    }
    bool exact = r == 0, tie = 2 * r == d, above = 2 * r > d, neg = v < 0;
    switch (m) {
    case 0: return q;
    case 1: return q + !exact;
    case 2: return q + (neg && !exact);
    case 3: return q + (!neg && !exact);
    case 8: return q + above;
    case 9: return q + (above || tie);
    case 10: return q + (above || (tie && neg));
    case 11: return q + (above || (tie && !neg));
    case 12: return q + (above || (tie && (q & 1)));
    default: return q + (above || (tie && !(q & 1)));
    }
}

// Into a `bits`-bit integer, signed or not, by saturation mode.
__int128 ref_narrow(__int128 v, unsigned bits, bool is_signed, unsigned sat)
{
    __int128 lo = is_signed ? -((__int128)1 << (bits - 1)) : 0;
    __int128 hi = is_signed ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    if (sat == 3 && is_signed)
        lo = -hi;
    if (sat != 0)
        return v < lo ? lo : v > hi ? hi : v;
    __int128 mod = (__int128)1 << bits;
    __int128 w = ((v % mod) + mod) % mod;
    return is_signed && w > hi ? w - mod : w;
}

// UPS of x by s into a `bits`-bit signed lane, as the hardware documents
// it: with saturation, x is first clamped to [floor(lo / 2^s), floor(hi /
// 2^s)] (lo = -hi under symmetric saturation), then multiplied; without,
// the product wraps.
__int128 ref_ups(__int128 x, int s, unsigned bits, unsigned sat)
{
    __int128 d = (__int128)1 << s;
    if (sat != 0) {
        __int128 hi = ((__int128)1 << (bits - 1)) - 1;
        __int128 lo = sat == 3 ? -hi : -hi - 1;
        auto fdiv = [d](__int128 a) { return a / d - ((a % d != 0) && a < 0); };
        __int128 hs = fdiv(hi), ls = fdiv(lo);
        x = x > hs ? hs : x < ls ? ls : x;
    }
    return ref_narrow(x * d, bits, true, 0);
}

void set_modes(unsigned rnd, unsigned sat)
{
    iron__aie_ctl()[0] = rnd;
    iron__aie_ctl()[1] = sat;
}

uint16_t bits_of_bf16(bfloat16 b)
{
    uint16_t u;
    memcpy(&u, &b, 2);
    return u;
}
bfloat16 bf16_of_bits(uint16_t u)
{
    bfloat16 b;
    memcpy(&b, &u, 2);
    return b;
}

// float -> bfloat16 by rounding mode, on values: the two neighbours of f
// among bfloat16 values and the mode's choice by exact distances
// (subnormal inputs to a signed zero; NaN stays NaN).
uint16_t ref_bf16(float f, unsigned m)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0xffff; // any NaN: checked by class below
    if ((u & 0x7f800000u) == 0)
        return (uint16_t)((u >> 16) & 0x8000u);
    uint16_t toward0 = (uint16_t)(u >> 16), away = (uint16_t)(toward0 + 1);
    // past the largest finite value the next one up is 2^128 (infinity)
    double x = f, a = f_of((uint32_t)toward0 << 16);
    double b = (away & 0x7fff) == 0x7f80 ? std::copysign(std::ldexp(1.0, 128), x)
                                         : (double)f_of((uint32_t)away << 16);
    if (x == a)
        return toward0;
    bool neg = x < 0;
    double da = std::fabs(x - a), db = std::fabs(b - x);
    uint16_t up = neg ? toward0 : away, down = neg ? away : toward0; // towards +inf / -inf
    uint16_t nearest = da < db ? toward0 : away;
    bool tie = da == db;
    switch (m) {
    case 0: return down;
    case 1: return up;
    case 2: return toward0;
    case 3: return away;
    case 8: return tie ? down : nearest;
    case 9: return tie ? up : nearest;
    case 10: return tie ? toward0 : nearest;
    case 11: return tie ? away : nearest;
    case 12: return tie ? ((toward0 & 1) ? away : toward0) : nearest;
    default: return tie ? ((toward0 & 1) ? toward0 : away) : nearest;
    }
}

const int32_t i32_samples[16] = {0, 1, -1, 7, -7, 8, -8, 12, -12, 2147483647, -2147483647 - 1,
                                 123456789, -123456789, 0x40000000, -0x40000001, 65535};
const int64_t i64_samples[16] = {0, 1, -1, 6, -6, 10, -10, 0x7fffffffffffffffLL,
                                 -0x7fffffffffffffffLL - 1, 0x180000000LL, -0x180000000LL,
                                 0x123456789abLL, -0x123456789abLL, 3LL << 40, -(5LL << 38), 0x7fffffff};

} // namespace

AIE_TEST(raw_layout_and_zero_default)
{
    CHECK_EQ(sizeof(v16int32), (size_t)64);
    CHECK_EQ(sizeof(v16acc64), (size_t)128);
    CHECK_EQ(sizeof(v32bfloat16), (size_t)64);
    CHECK_EQ(sizeof(v16bfloat16), (size_t)32);
    CHECK_EQ(sizeof(v64uint8), (size_t)64);
    CHECK_EQ(sizeof(v16accfloat), (size_t)64);
    CHECK(std::is_trivially_copyable_v<v16int32>);
    CHECK(std::is_trivially_copyable_v<v16acc64>);
    CHECK_EQ(alignof(v16int32), 32u); // buffers are placed at 32 bytes on both arches
    CHECK_EQ(alignof(v32int32), 32u);
    CHECK_EQ(alignof(v4int32), 16u);
    v16int32 z;
    CHECK_LANES(z, 0);
    v16acc64 u = undef_v16acc64();
    CHECK_LANES(u, (int64_t)0);
    v16int32 arr[4] = {};
    CHECK_LANES(arr[3], 0);
}

AIE_TEST(raw_interop_with_vector_and_accum)
{
    aie::vector<int32, 16> v;
    for (unsigned i = 0; i < 16; i++)
        v[i] = (int32)(i * 1000 - 5000);
    v16int32 r = v; // implicit, as with the native types
    CHECK_LANES(r, (int32)(i * 1000 - 5000));
    aie::vector<int32, 16> back = r;
    CHECK_LANES(back, (int32)(i * 1000 - 5000));
    aie::vector<int32, 16> direct(r);
    CHECK_LANES(direct, (int32)(i * 1000 - 5000));

    // the same bits, as another raw type: little-endian halves
    v32int16 h = v32int16(r);
    for (unsigned i = 0; i < 16; i++) {
        uint32_t w = (uint32_t)(i * 1000 - 5000);
        CHECK_EQ(h.lanes_[2 * i], (int16_t)(w & 0xffff));
        CHECK_EQ(h.lanes_[2 * i + 1], (int16_t)(w >> 16));
    }

    aie::accum<acc64, 16> a;
    for (unsigned i = 0; i < 16; i++)
        a.lanes_[i] = (int64_t)i << 40;
    v16acc64 ra = a;
    CHECK_LANES(ra, (int64_t)i << 40);
    aie::accum<acc48, 16> a48 = ra; // acc40..acc64 share the 64-bit lanes
    CHECK_LANES(a48, (int64_t)i << 40);
    aie::accum<accfloat, 16> af;
    for (unsigned i = 0; i < 16; i++)
        af.lanes_[i] = 0.5f * (float)i;
    v16accfloat rf(af);
    CHECK_LANES(rf, 0.5f * (float)i);

    // loads through a pointer cast, as kernels write them
    alignas(64) int32_t mem[32];
    for (int i = 0; i < 32; i++)
        mem[i] = 3 * i;
    v16int32 ld = *(v16int32 *)(mem + 16);
    CHECK_LANES(ld, (int32_t)(3 * (i + 16)));
    *(v16int32 *)mem = ld;
    CHECK_EQ(mem[5], 3 * 21);
}

AIE_TEST(raw_broadcasts)
{
    v16int32 b = broadcast_to_v16int32(-9);
    CHECK_LANES(b, -9);
    v32bfloat16 z = broadcast_zero_bfloat16();
    for (unsigned i = 0; i < 32; i++)
        CHECK_EQ(bits_of_bf16(z.lanes_[i]), (uint16_t)0x0000);
    v32bfloat16 one = broadcast_one_to_v32bfloat16();
    for (unsigned i = 0; i < 32; i++)
        CHECK_EQ(bits_of_bf16(one.lanes_[i]), (uint16_t)0x3f80);
    v64uint8 u = broadcast_u8(200);
    CHECK_LANES(u, (uint8_t)200);
    CHECK_LANES(broadcast_zero_to_v32int16(), (int16_t)0);
    CHECK_LANES(broadcast_s16(-3), (int16_t)-3);
}

AIE_TEST(raw_integer_lanewise)
{
    v16int32 a, b;
    for (unsigned i = 0; i < 16; i++) {
        a.lanes_[i] = i32_samples[i];
        b.lanes_[i] = i32_samples[15 - i];
    }
    v16int32 s = add(a, b), d = sub(a, b), mx = max(a, b), mn = min(a, b);
    for (unsigned i = 0; i < 16; i++) {
        int64_t x = i32_samples[i], y = i32_samples[15 - i];
        CHECK_EQ(s.lanes_[i], (int32_t)ref_narrow(x + y, 32, true, 0));
        CHECK_EQ(d.lanes_[i], (int32_t)ref_narrow(x - y, 32, true, 0));
        CHECK_EQ(mx.lanes_[i], (int32_t)(x > y ? x : y));
        CHECK_EQ(mn.lanes_[i], (int32_t)(x < y ? x : y));
    }
    v64uint8 p = broadcast_to_v64uint8(0xf0), q = broadcast_to_v64uint8(0x3c);
    CHECK_LANES(bor(p, q), (uint8_t)0xfc);
    CHECK_LANES(band(p, q), (uint8_t)0x30);
    CHECK_LANES(bxor(p, q), (uint8_t)0xcc);
    CHECK_LANES(bneg(p), (uint8_t)0x0f);
    CHECK_LANES(add(p, q), (uint8_t)((0xf0 + 0x3c) & 0xff));
    // unsigned compare
    CHECK_LANES(max(p, q), (uint8_t)0xf0);
    // aie::vector arguments convert, as with the compilers' native types
    aie::vector<uint8, 64> vp = p, vq = q;
    v64uint8 o = bor(vp, vq);
    CHECK_LANES(o, (uint8_t)0xfc);
}

AIE_TEST(raw_bfloat16_max_min)
{
    v32bfloat16 a, b;
    const float av[] = {1.0f, -2.0f, 0.0f, -0.0f, 3.5f, -1e30f};
    const float bv[] = {0.5f, -1.0f, -0.0f, 0.0f, 3.5f, 1e-30f};
    for (unsigned i = 0; i < 32; i++) {
        a.lanes_[i] = bfloat16(av[i % 6]);
        b.lanes_[i] = bfloat16(bv[i % 6]);
    }
    a.lanes_[30] = bf16_of_bits(0x7fc0); // NaN first: kept
    b.lanes_[31] = bf16_of_bits(0x7fc0); // NaN second: first kept
    v32bfloat16 mx = max(a, b), mn = min(a, b);
    for (unsigned i = 0; i < 30; i++) {
        float x = (float)a.lanes_[i], y = (float)b.lanes_[i];
        CHECK_EQ(bits_of_bf16(mx.lanes_[i]), bits_of_bf16(x < y ? b.lanes_[i] : a.lanes_[i]));
        CHECK_EQ(bits_of_bf16(mn.lanes_[i]), bits_of_bf16(y < x ? b.lanes_[i] : a.lanes_[i]));
    }
    CHECK_EQ(bits_of_bf16(mx.lanes_[30]), (uint16_t)0x7fc0);
    CHECK_EQ(bits_of_bf16(mx.lanes_[31]), bits_of_bf16(a.lanes_[31]));
    // relu as upstream writes it
    v32bfloat16 r = max(a, broadcast_zero_bfloat16());
    CHECK_EQ((float)r.lanes_[1], 0.0f);
    CHECK_EQ((float)r.lanes_[0], 1.0f);
}

AIE_TEST(raw_elements)
{
    v16int32 v = broadcast_to_v16int32(4);
    v = upd_elem(v, 15, -1);
    CHECK_EQ(ext_elem(v, 15), -1);
    CHECK_EQ(extract_elem(v, 14U), 4);
    v64int8 c = broadcast_to_v64int8(-2);
    CHECK_EQ(ext_elem(c, 3, 1), -2);
    CHECK_EQ(ext_elem(c, 3, 0), 254);
    CHECK_FAULT(upd_elem(v, 16, 0), "upd_elem");
    CHECK_FAULT((void)ext_elem(v, -1), "ext_elem");
    CHECK_FAULT((void)extract_elem(v, 16), "extract_elem");
}

AIE_TEST(raw_shift_bytes)
{
    v64uint8 a, b;
    for (unsigned i = 0; i < 64; i++) {
        a.lanes_[i] = (uint8_t)i;
        b.lanes_[i] = (uint8_t)(100 + i);
    }
    const unsigned shifts[] = {0, 1, 4, 32, 63};
    for (unsigned s : shifts) {
        v64uint8 r = shift_bytes(a, b, s);
        for (unsigned i = 0; i < 64; i++)
            CHECK_EQ(r.lanes_[i], (uint8_t)(i + s < 64 ? i + s : 100 + i + s - 64));
    }
    CHECK_FAULT(shift_bytes(a, b, 64U), "shift_bytes");
    // shift counts lanes
    v16int32 x, y;
    for (unsigned i = 0; i < 16; i++) {
        x.lanes_[i] = (int32_t)i;
        y.lanes_[i] = (int32_t)(16 + i);
    }
    CHECK_LANES(shift(x, y, 3U), (int32_t)(i + 3));
    // the reduction upstream's reduce_add kernel performs
    int64_t total = 0;
    for (unsigned i = 0; i < 16; i++)
        total += x.lanes_[i];
    v16int32 t = x;
    for (unsigned s = 32; s >= 4; s /= 2)
        t = add(t, shift_bytes(t, t, s));
    CHECK_EQ(extract_elem(t, 0U), (int32_t)total);
}

AIE_TEST(raw_shuffle)
{
    v64uint8 a, b;
    for (unsigned i = 0; i < 64; i++) {
        a.lanes_[i] = (uint8_t)i;
        b.lanes_[i] = (uint8_t)(64 + i);
    }
    // interleave / deinterleave of bytes
    v64uint8 lo = shuffle(a, b, T8_2x64_lo), hi = shuffle(a, b, T8_2x64_hi);
    for (unsigned i = 0; i < 64; i++) {
        unsigned k = i / 2, src = (i % 2) ? 64 + k : k;
        CHECK_EQ(lo.lanes_[i], (uint8_t)src);
        k = (64 + i) / 2;
        src = (i % 2) ? 64 + k : k;
        CHECK_EQ(hi.lanes_[i], (uint8_t)src);
    }
    v64uint8 ev = shuffle(a, b, T8_64x2_lo), od = shuffle(a, b, T8_64x2_hi);
    CHECK_LANES(ev, (uint8_t)(2 * i));
    CHECK_LANES(od, (uint8_t)(2 * i + 1));
    // upstream's gray2rgba: each of the first 16 bytes four times
    v64uint8 g = a;
    g = shuffle(g, g, T8_2x64_lo);
    g = shuffle(g, g, T8_2x64_lo);
    CHECK_LANES(g, (uint8_t)(i / 4));
    // 32-bit 4x8 transpose: blocks [j, j+8, j+16, j+24]
    v16int32 x, y;
    for (unsigned i = 0; i < 16; i++) {
        x.lanes_[i] = (int32_t)i;
        y.lanes_[i] = (int32_t)(16 + i);
    }
    v16int32 t = shuffle(x, y, T32_4x8_lo), th = shuffle(x, y, T32_4x8_hi);
    CHECK_LANES(t, (int32_t)((i % 4) * 8 + i / 4));
    CHECK_LANES(th, (int32_t)((i % 4) * 8 + i / 4 + 4));
    CHECK_LANES(shuffle(x, y, T512_1x2_hi), (int32_t)(16 + i));
    // one operand: 16-bit 8x4 transpose and the pair flip
    v32int16 s;
    for (unsigned i = 0; i < 32; i++)
        s.lanes_[i] = (int16_t)i;
    CHECK_LANES(shuffle(s, T16_8x4), (int16_t)((i % 8) * 4 + i / 8));
    CHECK_LANES(shuffle(s, T16_1x2_flip), (int16_t)(i ^ 1));
    CHECK_FAULT(shuffle(s, T16_4x4), "not modelled");
    CHECK_FAULT(shuffle(s, 48U), "not a shuffle mode");
    CHECK_FAULT(shuffle(s, T16_2x32_lo), "two vectors");
}

AIE_TEST(raw_srs_every_mode)
{
    v16acc64 acc;
    for (unsigned i = 0; i < 16; i++)
        acc.lanes_[i] = i64_samples[i];
    const int shifts[] = {0, 1, 2, 3, 17, 33, 59};
    for (unsigned rnd : all_rnd)
        for (unsigned sat : all_sat)
            for (int s : shifts) {
                set_modes(rnd, sat);
                v16int32 r = lsrs(acc, s);            // signed
                v16int32 u = lsrs(acc, s, 0);         // unsigned range
                v16uint32 uu = ulsrs(acc, s);
                v16int16 n = ssrs(acc, s);
                for (unsigned i = 0; i < 16; i++) {
                    __int128 q = ref_shift_round(i64_samples[i], s, rnd);
                    CHECK_EQ(r.lanes_[i], (int32_t)ref_narrow(q, 32, true, sat));
                    CHECK_EQ((uint32_t)u.lanes_[i], (uint32_t)ref_narrow(q, 32, false, sat));
                    CHECK_EQ(uu.lanes_[i], (uint32_t)ref_narrow(q, 32, false, sat));
                    CHECK_EQ(n.lanes_[i], (int16_t)ref_narrow(q, 16, true, sat));
                }
            }
    v32acc32 a32;
    for (unsigned i = 0; i < 32; i++)
        a32.lanes_[i] = i32_samples[i % 16] ^ (int32_t)i;
    for (unsigned rnd : all_rnd)
        for (unsigned sat : all_sat) {
            set_modes(rnd, sat);
            v32int16 r = lsrs(a32, 5);
            v32int8 b = ssrs(a32, 9);
            v32uint8 ub = srs_to_v32uint8(a32, 9);
            for (unsigned i = 0; i < 32; i++) {
                int32_t x = i32_samples[i % 16] ^ (int32_t)i;
                CHECK_EQ(r.lanes_[i], (int16_t)ref_narrow(ref_shift_round(x, 5, rnd), 16, true, sat));
                CHECK_EQ(b.lanes_[i], (int8_t)ref_narrow(ref_shift_round(x, 9, rnd), 8, true, sat));
                CHECK_EQ(ub.lanes_[i], (uint8_t)ref_narrow(ref_shift_round(x, 9, rnd), 8, false, sat));
            }
        }
    CHECK_FAULT(lsrs(acc, 60), "shift");
    CHECK_FAULT(lsrs(acc, -5), "shift");
    set_modes(5, 0);
    CHECK_FAULT(lsrs(acc, 1), "rounding mode");
}

AIE_TEST(raw_ups_and_round_trip)
{
    v16int32 v;
    for (unsigned i = 0; i < 16; i++)
        v.lanes_[i] = i32_samples[i];
    for (unsigned sat : all_sat)
        for (int s : {0, 5, 31, 40}) {
            set_modes(0, sat);
            v16acc64 a = lups(v, s), au = lups(v, s, 0);
            for (unsigned i = 0; i < 16; i++) {
                CHECK_EQ(a.lanes_[i], (int64_t)ref_ups(i32_samples[i], s, 64, sat));
                CHECK_EQ(au.lanes_[i], (int64_t)ref_ups((uint32_t)i32_samples[i], s, 64, sat));
            }
        }
    // 16-bit into 32-bit lanes, where a shift can overflow
    v32int16 h;
    for (unsigned i = 0; i < 32; i++)
        h.lanes_[i] = (int16_t)(i * 2047 - 30000);
    for (unsigned sat : all_sat) {
        set_modes(0, sat);
        v32acc32 a = sups(h, 18);
        for (unsigned i = 0; i < 32; i++)
            CHECK_EQ(a.lanes_[i], (int32_t)ref_ups((int16_t)(i * 2047 - 30000), 18, 32, sat));
    }
    // Saturation clamps before the shift: 32767 << 18 gives
    // (INT32_MAX >> 18) << 18 = 0x7ffc0000, not INT32_MAX; the low end
    // -2^31 is reached under symmetric saturation too (it bounds at -max
    // only before a shift of 0).
    v32int16 e;
    e.lanes_[0] = 32767, e.lanes_[1] = -32768, e.lanes_[2] = 8191, e.lanes_[3] = -8192;
    for (unsigned sat : {1u, 3u}) {
        set_modes(0, sat);
        v32acc32 a = sups(e, 18);
        CHECK_EQ(a.lanes_[0], (int32_t)0x7ffc0000);
        CHECK_EQ(a.lanes_[1], INT32_MIN);
        CHECK_EQ(a.lanes_[2], (int32_t)0x7ffc0000);
        CHECK_EQ(a.lanes_[3], INT32_MIN);
    }
    // lups then lsrs with shift 0 is the identity (bottleneck kernels)
    set_modes(0, 0);
    CHECK_LANES(lsrs(lups(v, 0), 0, 0), i32_samples[i]);
    CHECK_FAULT(lups(v, 64), "shift");
}

AIE_TEST(raw_float_accumulators)
{
    const uint32_t fbits[16] = {0x3f800000, 0x3f808000, 0x3f818000, 0xbf808000, 0xbf818000,
                                0x3f80ffff, 0xbf80ffff, 0x3f800001, 0x7f7fffff, 0x00400000,
                                0x80400000, 0x7f800000, 0xff800000, 0x3e2aaaab, 0xc2f6e979,
                                0x00000000};
    v16accfloat acc;
    for (unsigned i = 0; i < 16; i++)
        acc.lanes_[i] = f_of(fbits[i]);
    for (unsigned rnd : all_rnd) {
        set_modes(rnd, 0);
        v16bfloat16 b = to_v16bfloat16(acc);
        for (unsigned i = 0; i < 16; i++)
            CHECK_EQ(bits_of_bf16(b.lanes_[i]), ref_bf16(f_of(fbits[i]), rnd));
    }
    set_modes(12, 0);
    acc.lanes_[0] = f_of(0x7fc00001); // NaN stays NaN
    v16bfloat16 nb = to_v16bfloat16(acc);
    CHECK((bits_of_bf16(nb.lanes_[0]) & 0x7fff) > 0x7f80);

    // widening is exact; subnormals flush to a signed zero
    v16bfloat16 w;
    const uint16_t wb[4] = {0x3f81, 0xc2f7, 0x0040, 0x8001};
    for (unsigned i = 0; i < 16; i++)
        w.lanes_[i] = bf16_of_bits(wb[i % 4]);
    v16accfloat up = ups(w);
    for (unsigned i = 0; i < 16; i++) {
        uint32_t e = (wb[i % 4] & 0x7f80) == 0 ? (uint32_t)(wb[i % 4] & 0x8000) << 16
                                               : (uint32_t)wb[i % 4] << 16;
        CHECK_EQ(up.lanes_[i], f_of(e));
    }
    // through aie::accum, as upstream's bf16_exp kernel does
    aie::accum<accfloat, 16> ac = up;
    v16bfloat16 back = to_v16bfloat16(ac);
    CHECK_EQ(bits_of_bf16(back.lanes_[0]), (uint16_t)0x3f81);
}

AIE_TEST(raw_bfloat16_to_int)
{
    const float xs[16] = {1.5f, -1.5f, 2.0f, -0.25f, 100.75f, -100.75f, 0.0f, -0.0f,
                          3e9f, -3e9f, 1e-3f, -1e-3f, 65504.0f, -7.0f, 0.5f, 127.0f};
    v16bfloat16 v;
    for (unsigned i = 0; i < 16; i++)
        v.lanes_[i] = bfloat16(xs[i]);
    for (int s : {0, 3, 8, -2}) {
        v16int32 r = bfloat16_to_int(v, s);
        for (unsigned i = 0; i < 16; i++) {
            double x = std::ldexp((double)(float)v.lanes_[i], s);
            double f = std::floor(x);
            int32_t e = f >= 2147483647.0 ? 2147483647 : f <= -2147483648.0 ? (int32_t)(-2147483647 - 1) : (int32_t)f;
            CHECK_EQ(r.lanes_[i], e);
        }
    }
    v.lanes_[0] = bf16_of_bits(0x7fc0);
    v.lanes_[1] = bf16_of_bits(0x7f80);
    v.lanes_[2] = bf16_of_bits(0xff80);
    v16int32 r = bfloat16_to_int(v, 0);
    CHECK_EQ(r.lanes_[0], 0);
    CHECK_EQ(r.lanes_[1], 2147483647);
    CHECK_EQ(r.lanes_[2], (int32_t)(-2147483647 - 1));
    // as upstream's LUT exp uses it: the low halves as int16 lanes
    aie::vector<int16, 32> halves = v32int16(bfloat16_to_int(v, 8));
    CHECK_EQ(halves[2 * 3], (int16_t)std::floor(-0.25 * 256));
}

#if __AIE_ARCH__ == 21
AIE_TEST(raw_mul_elem_64)
{
    v64bfloat16 a, b;
    for (unsigned i = 0; i < 64; i++) {
        a.lanes_[i] = bf16_of_bits((uint16_t)(0x3f80 + 37 * i));
        b.lanes_[i] = bf16_of_bits((uint16_t)(0xc000 + 11 * i));
    }
    v64accfloat p = mul_elem_64(a, b);
    for (unsigned i = 0; i < 64; i++) {
        double e = (double)(float)a.lanes_[i] * (double)(float)b.lanes_[i];
        CHECK_EQ(p.lanes_[i], (float)e); // exact: 8 x 8 significant bits
    }
    // times one is the identity (upstream's bfp conversion path)
    v64accfloat id = mul_elem_64(a, concat(broadcast_one_to_v32bfloat16(), broadcast_one_to_v32bfloat16()));
    CHECK_LANES(id, (float)a.lanes_[i]);
}
#endif

AIE_TEST(raw_parts)
{
    v32bfloat16 w;
    for (unsigned i = 0; i < 32; i++)
        w.lanes_[i] = bf16_of_bits((uint16_t)i);
    v16bfloat16 hi = extract_v16bfloat16(w, 1);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ(bits_of_bf16(hi.lanes_[i]), (uint16_t)(16 + i));
    v8bfloat16 q = extract_v8bfloat16(w, 3);
    CHECK_EQ(bits_of_bf16(q.lanes_[0]), (uint16_t)24);
    v32bfloat16 s = set_v32bfloat16(1, hi);
    CHECK_EQ(bits_of_bf16(s.lanes_[0]), (uint16_t)0);
    CHECK_EQ(bits_of_bf16(s.lanes_[16]), (uint16_t)16);
    v32bfloat16 ins = insert(w, 0, hi);
    CHECK_EQ(bits_of_bf16(ins.lanes_[0]), (uint16_t)16);
    v32bfloat16 c = concat(hi, extract_v16bfloat16(w, 0));
    CHECK_EQ(bits_of_bf16(c.lanes_[0]), (uint16_t)16);
    CHECK_EQ(bits_of_bf16(c.lanes_[16]), (uint16_t)0);
    CHECK_FAULT(extract_v16bfloat16(w, 2), "extract_");
    CHECK_FAULT(set_v32bfloat16(-1, hi), "set_");
}

AIE_TEST(raw_control_registers)
{
    CHECK_EQ(get_sat(), 0u);
    set_sat();
    CHECK_EQ((unsigned)aie::get_saturation(), (unsigned)saturation_mode::saturate);
    set_symsat();
    CHECK_EQ((unsigned)aie::get_saturation(), (unsigned)saturation_mode::symmetric);
    clr_sat();
    CHECK_EQ((unsigned)aie::get_saturation(), (unsigned)saturation_mode::none);
    set_rnd(rnd_conv_even);
    CHECK_EQ((unsigned)aie::get_rounding(), (unsigned)rounding_mode::conv_even);
    CHECK_EQ(get_rnd(), 12u);
    aie::set_saturation(saturation_mode::saturate);
    CHECK_EQ(get_satmode(), 1u);
    // set_sat makes a later srs saturate (upstream's filter2d relies on it)
    set_sat();
    v16acc64 big;
    for (unsigned i = 0; i < 16; i++)
        big.lanes_[i] = (int64_t)1 << 40;
    CHECK_LANES(lsrs(big, 0), (int32_t)0x7fffffff);
    CHECK_FAULT(set_rnd(4), "set_rnd");
    CHECK_FAULT(set_satmode(2), "set_satmode");
}

AIE_TEST(raw_accumulator_add_sub_neg)
{
    // upstream's magika gelu: sub(ups_to_v32acc32(b, 0), offset)
    v32acc32 a, b;
    for (unsigned i = 0; i < 32; i++) {
        a.lanes_[i] = (int32_t)(i * 100000007u);
        b.lanes_[i] = (int32_t)(0x7fffffffu - i * 3u);
    }
    v32acc32 s = add(a, b), d = sub(a, b), n = neg(a);
    for (unsigned i = 0; i < 32; i++) {
        __int128 x = a.lanes_[i], y = b.lanes_[i];
        CHECK_EQ(s.lanes_[i], (int32_t)ref_narrow(x + y, 32, true, 0));
        CHECK_EQ(d.lanes_[i], (int32_t)ref_narrow(x - y, 32, true, 0));
        CHECK_EQ(n.lanes_[i], (int32_t)ref_narrow(-x, 32, true, 0));
    }
    v16acc64 l, m;
    for (unsigned i = 0; i < 16; i++)
        l.lanes_[i] = INT64_MAX - (int64_t)i, m.lanes_[i] = (int64_t)i + 1;
    v16acc64 ls = add(l, m);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ(ls.lanes_[i], INT64_MIN); // wraps
    CHECK_EQ(sub(m, l).lanes_[0], (int64_t)(1 - (__int128)INT64_MAX));
    v16accfloat f, g;
    for (unsigned i = 0; i < 16; i++)
        f.lanes_[i] = 1.5f * (float)i, g.lanes_[i] = 0.25f;
    CHECK_LANES(add(f, g), 1.5f * (float)i + 0.25f);
    CHECK_LANES(sub(f, g), 1.5f * (float)i - 0.25f);
    CHECK_LANES(neg(g), -0.25f);
}
