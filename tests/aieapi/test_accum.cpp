// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_accum.cpp - accumulators: ups (from_vector) and srs (to_vector) in
// every rounding and saturation mode, the mode setters, and the faults.
// The expected values come from exact integer arithmetic (__int128): the
// quotient and remainder of v / 2^shift, and the rounding rule of each
// mode stated on them.
#include "aieapi_test.hpp"

#include <limits>

namespace {

using aie::rounding_mode;
using aie::saturation_mode;

const rounding_mode all_modes[] = {
    rounding_mode::floor,          rounding_mode::ceil,
    rounding_mode::symmetric_floor, rounding_mode::symmetric_ceil,
    rounding_mode::negative_inf,   rounding_mode::positive_inf,
    rounding_mode::symmetric_zero, rounding_mode::symmetric_inf,
    rounding_mode::conv_even,      rounding_mode::conv_odd,
};

// v / 2^shift rounded by mode, exactly.
__int128 ref_round(__int128 v, int shift, rounding_mode m)
{
    if (shift <= 0)
        return v * ((__int128)1 << -shift);
    __int128 d = (__int128)1 << shift;
    __int128 q = v / d, r = v % d; // truncated
    if (r < 0) {                   // make it floor
        q -= 1;
        r += d;
    }
    // now v = q*d + r, 0 <= r < d; the value is q + r/d
    bool exact = r == 0, tie = 2 * r == d, more = 2 * r > d;
    bool neg = v < 0;
    switch (m) {
    case rounding_mode::floor: return q;
    case rounding_mode::ceil: return exact ? q : q + 1;
    case rounding_mode::symmetric_floor: return (neg && !exact) ? q + 1 : q;
    case rounding_mode::symmetric_ceil: return (!neg && !exact) ? q + 1 : q;
    case rounding_mode::negative_inf: return more ? q + 1 : q;
    case rounding_mode::positive_inf: return (more || tie) ? q + 1 : q;
    case rounding_mode::symmetric_zero: return (more || (tie && neg)) ? q + 1 : q;
    case rounding_mode::symmetric_inf: return (more || (tie && !neg)) ? q + 1 : q;
    case rounding_mode::conv_even: return (more || (tie && (q & 1))) ? q + 1 : q;
    case rounding_mode::conv_odd: return (more || (tie && !(q & 1))) ? q + 1 : q;
    }
    return 0;
}

template <typename T> __int128 ref_sat(__int128 v, saturation_mode s)
{
    __int128 hi = std::numeric_limits<T>::max(), lo = std::numeric_limits<T>::min();
    if (s == saturation_mode::symmetric && std::is_signed_v<T>)
        lo = -hi;
    if (s == saturation_mode::none) {
        // keep the low bits, as a two's complement T
        __int128 mod = (__int128)1 << (8 * sizeof(T));
        __int128 w = v % mod;
        if (w < 0)
            w += mod;
        if (std::is_signed_v<T> && w > hi)
            w -= mod;
        return w;
    }
    return v > hi ? hi : v < lo ? lo : v;
}

// UPS of x by s into a `bits`-bit lane, as the hardware documents it:
// with saturation, x is first clamped to [floor(lo / 2^s), floor(hi / 2^s)]
// (lo = -hi under symmetric saturation), then multiplied by 2^s; without,
// the product wraps.
__int128 ref_ups(__int128 x, int s, unsigned bits, saturation_mode m)
{
    __int128 d = (__int128)1 << s;
    __int128 hi = ((__int128)1 << (bits - 1)) - 1;
    if (m != saturation_mode::none) {
        __int128 lo = m == saturation_mode::symmetric ? -hi : -hi - 1;
        auto fdiv = [d](__int128 a) { return a / d - ((a % d != 0) && a < 0); };
        __int128 hs = fdiv(hi), ls = fdiv(lo);
        x = x > hs ? hs : x < ls ? ls : x;
    }
    __int128 mod = (__int128)1 << bits, w = ((x * d) % mod + mod) % mod;
    return w > hi ? w - mod : w;
}

const saturation_mode all_sats[] = {saturation_mode::none, saturation_mode::saturate,
                                    saturation_mode::symmetric};

// srs of 16 acc64 lanes (values) into T, shift s, every mode pair.
template <typename T>
void check_srs64(const int64_t (&vals)[16], int shift)
{
    aie::accum<acc64, 16> acc;
    for (unsigned i = 0; i < 16; i++)
        acc.set(vals[i], i);
    for (auto m : all_modes)
        for (auto s : all_sats) {
            aie::set_rounding(m);
            aie::set_saturation(s);
            aie::vector<T, 16> v = acc.template to_vector<T>(shift);
            for (unsigned i = 0; i < 16; i++) {
                __int128 e = ref_sat<T>(ref_round(vals[i], shift, m), s);
                if (!aieapi_test::same(v[i], (long long)e)) {
                    fprintf(stderr, "srs<%s> mode %u sat %u shift %d of %lld:\n",
                            std::is_signed_v<T> ? "signed" : "unsigned", (unsigned)m,
                            (unsigned)s, shift, (long long)vals[i]);
                    CHECK_EQ(v[i], (long long)e);
                }
            }
        }
}

} // namespace

AIE_TEST(modes_reset_values_and_swap)
{
    CHECK(aie::get_rounding() == rounding_mode::floor);
    CHECK(aie::get_saturation() == saturation_mode::none);
    CHECK_EQ((unsigned)rounding_mode::conv_even, 12u);
    CHECK_EQ((unsigned)rounding_mode::symmetric_inf, 11u);
    CHECK_EQ((unsigned)rounding_mode::positive_inf, 9u);
    CHECK_EQ((unsigned)saturation_mode::saturate, 1u);
    CHECK_EQ((unsigned)saturation_mode::symmetric, 3u);
    CHECK(aie::swap_rounding(rounding_mode::conv_even) == rounding_mode::floor);
    CHECK(aie::get_rounding() == rounding_mode::conv_even);
    CHECK_EQ(iron__aie_ctl()[0], 12u);
    CHECK(aie::swap_saturation(saturation_mode::symmetric) == saturation_mode::none);
    CHECK_EQ(iron__aie_ctl()[1], 3u);
}

AIE_TEST(modes_out_of_range_fault)
{
    CHECK_FAULT(aie::set_rounding(static_cast<rounding_mode>(5)), "aie::set_rounding");
    CHECK_FAULT(aie::set_rounding(static_cast<rounding_mode>(14)), "not an aie::rounding_mode");
    CHECK_FAULT(aie::set_saturation(static_cast<saturation_mode>(2)), "aie::set_saturation");
    CHECK(aie::get_rounding() == rounding_mode::floor);
    // A control word set behind the API's back faults where it is used.
    iron__aie_ctl()[0] = 7;
    aie::accum<acc32, 8> acc;
    CHECK_FAULT(acc.to_vector<int16>(2), "rounding mode");
    iron__aie_ctl()[0] = 0;
    iron__aie_ctl()[1] = 2;
    CHECK_FAULT(acc.to_vector<int16>(2), "saturation mode");
}

AIE_TEST(srs_ties_and_negatives_every_mode)
{
    // Ties (x.5), just above and below, negatives, exact values, for shift 1..4.
    const int64_t vals[16] = {0, 1, 2, 3, 5, 6, 7, 8, -1, -2, -3, -5, -6, -7, -8, 12};
    for (int shift = 0; shift <= 4; shift++) {
        check_srs64<int32>(vals, shift);
        check_srs64<int16>(vals, shift);
        check_srs64<int8>(vals, shift);
        check_srs64<uint8>(vals, shift);
    }
    // Named cases, so that a reader sees the modes differ.
    aie::accum<acc32, 8> acc;
    const int32_t t[8] = {5, -5, 7, -7, 6, -6, 3, -3}; // /2: 2.5 -2.5 3.5 -3.5 3 -3 1.5 -1.5
    for (unsigned i = 0; i < 8; i++)
        acc.set(t[i], i);
    struct {
        rounding_mode m;
        int16_t e[8];
    } named[] = {
        {rounding_mode::floor, {2, -3, 3, -4, 3, -3, 1, -2}},
        {rounding_mode::ceil, {3, -2, 4, -3, 3, -3, 2, -1}},
        {rounding_mode::symmetric_floor, {2, -2, 3, -3, 3, -3, 1, -1}},
        {rounding_mode::symmetric_ceil, {3, -3, 4, -4, 3, -3, 2, -2}},
        {rounding_mode::negative_inf, {2, -3, 3, -4, 3, -3, 1, -2}},
        {rounding_mode::positive_inf, {3, -2, 4, -3, 3, -3, 2, -1}},
        {rounding_mode::symmetric_zero, {2, -2, 3, -3, 3, -3, 1, -1}},
        {rounding_mode::symmetric_inf, {3, -3, 4, -4, 3, -3, 2, -2}},
        {rounding_mode::conv_even, {2, -2, 4, -4, 3, -3, 2, -2}},
        {rounding_mode::conv_odd, {3, -3, 3, -3, 3, -3, 1, -1}},
    };
    for (auto &n : named) {
        aie::set_rounding(n.m);
        aie::vector<int16, 8> v = acc.to_vector<int16>(1);
        CHECK_LANES(v, n.e[i]);
    }
}

AIE_TEST(srs_saturation_bounds)
{
    const int64_t vals[16] = {
        INT64_MAX, INT64_MIN, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1,
        32767, 32768, -32768, -32769, 127, 128, -128, -129, 255, 256, -1, 65535};
    for (int shift : {0, 1, 8, 31, 63}) {
        check_srs64<int32>(vals, shift);
        check_srs64<uint32>(vals, shift);
        check_srs64<int16>(vals, shift);
        check_srs64<uint16>(vals, shift);
        check_srs64<int8>(vals, shift);
        check_srs64<uint8>(vals, shift);
    }
    // Symmetric: the minimum is -max.
    aie::set_saturation(saturation_mode::symmetric);
    aie::accum<acc32, 8> acc;
    acc.set(-40000, 0);
    acc.set(-32768, 1);
    acc.set(40000, 2);
    aie::vector<int16, 8> v = acc.to_vector<int16>(0);
    CHECK_EQ(v[0], -32767);
    CHECK_EQ(v[1], -32767);
    CHECK_EQ(v[2], 32767);
    aie::set_saturation(saturation_mode::saturate);
    v = acc.to_vector<int16>(0);
    CHECK_EQ(v[0], -32768);
    CHECK_EQ(v[1], -32768);
    aie::set_saturation(saturation_mode::none);
    v = acc.to_vector<int16>(0);
    CHECK_EQ(v[0], (int16_t)(-40000 + 65536)); // wraps: 25536
    CHECK_EQ(v[2], (int16_t)(40000 - 65536));
}

AIE_TEST(srs_random_every_mode)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int round = 0; round < 40; round++) {
        int64_t vals[16];
        for (auto &v : vals) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v = (int64_t)x >> (x % 40);
        }
        int shift = (int)(x % 64);
        check_srs64<int32>(vals, shift);
        check_srs64<int16>(vals, shift);
        check_srs64<uint8>(vals, shift);
    }
}

AIE_TEST(srs_negative_shift_moves_left)
{
    aie::accum<acc32, 8> acc;
    acc.set(3, 0);
    acc.set(-3, 1);
    acc.set(5000, 2);
    aie::set_saturation(saturation_mode::saturate);
    aie::vector<int16, 8> v = acc.to_vector<int16>(-4);
    CHECK_EQ(v[0], 48);
    CHECK_EQ(v[1], -48);
    CHECK_EQ(v[2], 32767);
}

AIE_TEST(srs_shift_out_of_range_faults)
{
    aie::accum<acc32, 8> acc;
    CHECK_FAULT(acc.to_vector<int16>(64), "outside [-4, 63]");
    CHECK_FAULT(acc.to_vector<int16>(-5), "accum::to_vector");
    aie::vector<int16, 8> v;
    CHECK_FAULT(acc.from_vector(v, -1), "accum::from_vector");
    CHECK_FAULT(acc.from_vector(v, 64), "outside [0, 63]");
    CHECK_FAULT((void)aie::detail::srs<int16>(1, 70), "srs");
}

AIE_TEST(ups_shift_wrap_and_saturate)
{
    aie::vector<int16, 16> v;
    const int16_t in[16] = {1, -1, 32767, -32768, 100, -100, 0, 3, 16384, -16384, 7, -7, 255, -256, 1, 2};
    for (unsigned i = 0; i < 16; i++)
        v[i] = in[i];
    for (int shift : {0, 1, 4, 15, 16, 17, 20, 31, 40}) {
        for (auto s : all_sats) {
            aie::set_saturation(s);
            aie::accum<acc32, 16> a32;
            a32.from_vector(v, shift);
            aie::accum<acc64, 16> a64(v, shift);
            for (unsigned i = 0; i < 16; i++) {
                CHECK_EQ(a32.get(i), (long long)ref_ups(in[i], shift, 32, s));
                CHECK_EQ(a64.get(i), (long long)ref_ups(in[i], shift, 64, s));
            }
        }
    }
    // Saturation clamps before the shift (the largest result is
    // (INT32_MAX >> 20) << 20); symmetric bounds at -max only at shift 0.
    aie::set_saturation(saturation_mode::saturate);
    aie::accum<acc32, 16> big(v, 20);
    CHECK_EQ(big.get(2), (int32_t)0x7ff00000);
    CHECK_EQ(big.get(3), INT32_MIN);
    aie::set_saturation(saturation_mode::symmetric);
    big.from_vector(v, 20);
    CHECK_EQ(big.get(3), INT32_MIN);
    aie::vector<int32, 16> w(INT32_MIN, INT32_MAX);
    aie::accum<acc32, 16> same_width(w);
    CHECK_EQ(same_width.get(0), -INT32_MAX);
    CHECK_EQ(same_width.get(1), INT32_MAX);
    aie::set_saturation(saturation_mode::none);
    // Unsigned lanes are zero-extended.
    aie::vector<uint8, 32> u = aie::vector<uint8, 32>(255, 128, 1);
    aie::accum<acc32, 32> au;
    au.from_vector(u, 2);
    CHECK_EQ(au.get(0), 1020);
    CHECK_EQ(au.get(1), 512);
    CHECK_EQ(au.get(2), 4);
}

AIE_TEST(accum_tags_and_parts)
{
    CHECK_EQ((aie::accum<acc48, 8>::accum_bits()), 48u);
    CHECK((std::is_same_v<aie::accum<acc48, 8>::lane_type, int64_t>));
    CHECK((std::is_same_v<aie::accum<acc24, 8>::lane_type, int32_t>));
    CHECK((std::is_same_v<aie::detail::default_acc_tag_t<int8, int8>, acc32>));
    CHECK((std::is_same_v<aie::detail::default_acc_tag_t<int16, int16>, acc32>));
    CHECK((std::is_same_v<aie::detail::default_acc_tag_t<int16, int8>, acc32>));
    CHECK((std::is_same_v<aie::detail::default_acc_tag_t<int32, int16>, acc48>));
    CHECK((std::is_same_v<aie::detail::default_acc_tag_t<int16, int32>, acc48>));
    CHECK((std::is_same_v<aie::detail::default_acc_tag_t<int32, int32>, acc64>));
    CHECK((std::is_same_v<aie::detail::default_acc_tag_t<bfloat16, bfloat16>, accfloat>));
    aie::accum<acc32, 16> a;
    for (unsigned i = 0; i < 16; i++)
        a.set((int32_t)i * 3 - 20, i);
    aie::accum<acc32, 8> hi = a.extract<8>(1);
    CHECK_LANES(hi, (int32_t)(i + 8) * 3 - 20);
    aie::accum<acc32, 32> g = a.grow<32>(1);
    CHECK_LANES(g, i < 16 ? 0 : (int32_t)(i - 16) * 3 - 20);
    aie::accum<acc32, 16> b;
    b.insert(0, hi).insert(1, hi);
    CHECK_LANES(b, (int32_t)(i % 8 + 8) * 3 - 20);
    aie::accum<acc64, 16> wide = a; // sign-extends
    CHECK_EQ(wide.get(0), -20);
    auto c = wide.cast_to<acc32>();
    CHECK_EQ(c.size(), 32u);
    CHECK_EQ(c.get(0), -20);
    CHECK_EQ(c.get(1), -1); // the high word of -20
    aie::accum<acc32, 32> r = a.grow_replicate<32>();
    CHECK_LANES(r, (int32_t)(i % 16) * 3 - 20);
    aie::accum<acc32, 32> u;
    u.upd_all(a, a);
    CHECK_LANES(u, (int32_t)(i % 16) * 3 - 20);
}

AIE_TEST(vector_pack_saturates_with_the_mode)
{
    aie::vector<int16, 16> v(300, -300, 127, -128, 200);
    aie::vector<int8, 16> p = v.pack();
    CHECK_EQ(p[0], (int8_t)(300 - 256));
    CHECK_EQ(p[1], (int8_t)(-300 + 256));
    aie::set_saturation(saturation_mode::saturate);
    p = v.pack();
    CHECK_EQ(p[0], 127);
    CHECK_EQ(p[1], -128);
    CHECK_EQ(p[4], 127);
    aie::set_saturation(saturation_mode::symmetric);
    p = v.pack();
    CHECK_EQ(p[1], -127);
    CHECK_EQ(p[3], -127);
    aie::vector<uint8, 16> pu = v.pack<uint8>();
    CHECK_EQ(pu[0], 255);
    CHECK_EQ(pu[1], 0);
    aie::vector<int32, 16> w = v.unpack();
    CHECK_EQ(w[1], -300);
    aie::vector<uint8, 16> b(255, 1);
    aie::vector<uint16, 16> bw = b.unpack();
    CHECK_EQ(bw[0], 255);
}

namespace {
// fp32 -> bfloat16 bits, by rule: round by the mode on the 16 dropped
// bits (floor / nearest-even here), independently of the header.
uint16_t ref_bf16(float f, bool nearest_even)
{
    uint32_t u = u_of(f);
    uint32_t lo = u & 0xffffu, q = u >> 16;
    if (nearest_even) {
        if (lo > 0x8000u || (lo == 0x8000u && (q & 1)))
            q++;
    } else if ((u >> 31) && lo) { // floor of a negative value moves away from zero
        q++;
    }
    return (uint16_t)q;
}

// Takes a vector: an accumulator passed here converts implicitly.
float first_lane(const aie::vector<float, 16> &v) { return v[0]; }
} // namespace

AIE_TEST(accum_to_vector_implicit_and_assign_from_vector)
{
    aie::vector<bfloat16, 16> a, b;
    for (unsigned i = 0; i < 16; i++) {
        a[i] = bfloat16(1.0f + (float)i / 128.0f);
        b[i] = bfloat16(-3.0f - (float)i / 64.0f);
    }
    // Float accumulators convert as to_vector<T>(): bfloat16 with the
    // rounding mode, float exactly.
    for (bool ne : {false, true}) {
        aie::set_rounding(ne ? rounding_mode::conv_even : rounding_mode::floor);
        aie::vector<bfloat16, 16> p = aie::mul(a, b);
        aie::vector<float, 16> pf = aie::mul(a, b);
        for (unsigned i = 0; i < 16; i++) {
            float exact = (float)a[i] * (float)b[i]; // exact: 8 x 8 bits
            CHECK_EQ(pf[i], exact);
            CHECK_EQ(p[i].bits_, ref_bf16(exact, ne));
        }
    }
    aie::set_rounding(rounding_mode::floor);
    aie::vector<float, 16> sq;
    sq = aie::mul_square(a); // assignment converts too
    CHECK_EQ(sq[3], (float)a[3] * (float)a[3]);
    CHECK_EQ(first_lane(aie::mul(a, b)), (float)a[0] * (float)b[0]);
    aie::vector<bfloat16, 8> small = aie::mul(a.extract<8>(1), b.extract<8>(1));
    CHECK_EQ(small[0].bits_, ref_bf16((float)a[8] * (float)b[8], false)); // floor mode
    // Integer accumulators do not convert implicitly (they need a shift).
    CHECK((!std::is_convertible_v<aie::accum<acc32, 16>, aie::vector<int16, 16>>));
    CHECK((std::is_convertible_v<aie::accum<accfloat, 16>, aie::vector<bfloat16, 16>>));
    CHECK((std::is_convertible_v<aie::accum<accfloat, 32>, aie::vector<float, 32>>));
    CHECK((!std::is_convertible_v<aie::accum<accfloat, 64>, aie::vector<bfloat16, 64>>));
    CHECK((!std::is_convertible_v<aie::vector<float, 16>, aie::accum<accfloat, 16>>));

    // Assigning a vector: from_vector at shift 0.
    aie::accum<accfloat, 16> fa;
    fa = a;
    CHECK_LANES(fa, (float)a[i]);
    aie::vector<int16, 16> iv(-5, 7, 32767, -32768);
    aie::accum<acc32, 16> ia;
    aie::set_saturation(saturation_mode::saturate);
    ia = iv;
    CHECK_LANES(ia, (int32_t)iv[i]);
    aie::accum<acc64, 16> la;
    la = iv;
    CHECK_LANES(la, (int64_t)iv[i]);
    aie::set_saturation(saturation_mode::none);
}

AIE_TEST(accum_integer_tag_holds_float_bits)
{
    // As upstream's rms_norm: a float vector through an acc32 accumulator
    // and back is the same bits; to_vector<bfloat16> narrows them.
    aie::vector<float, 16> v;
    for (unsigned i = 0; i < 16; i++)
        v[i] = (float)i * -1.37f + 0.5f;
    aie::accum<acc32, 16> acc;
    acc = v;
    for (unsigned i = 0; i < 16; i++) {
        int32_t bits;
        memcpy(&bits, &v.lanes_[i], 4);
        CHECK_EQ(acc.get(i), bits);
    }
    aie::vector<float, 16> back = acc.to_vector<float>();
    CHECK_LANES(back, v[i]);
    aie::set_rounding(rounding_mode::conv_even);
    aie::vector<bfloat16, 16> nb = acc.to_vector<bfloat16>();
    CHECK_LANES(nb, bfloat16::from_bits(ref_bf16(v[i], true)));
    aie::set_rounding(rounding_mode::floor);
    aie::vector<bfloat16, 16> h;
    h[1] = bfloat16(2.5f);
    aie::accum<acc32, 16> hb(h);
    CHECK_EQ(hb.get(1), 0x40200000);
}
