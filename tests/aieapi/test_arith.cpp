// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_arith.cpp - element-wise arithmetic, multiplications into
// accumulators, comparisons and select, reductions.  Expected values from
// plain scalar code in wider types (int64_t, __int128, double).
#include "aieapi_test.hpp"

#include <limits>

namespace {
template <typename T> T wrapv(long long v) { return (T)(unsigned long long)v; }
} // namespace

AIE_TEST(zeros_broadcast)
{
    auto z = aie::zeros<int16, 32>();
    CHECK_LANES(z, 0);
    auto za = aie::zeros<acc64, 16>();
    CHECK_EQ(za.size(), 16u);
    CHECK_LANES(za, 0);
    auto b = aie::broadcast<bfloat16, 16>(1.5f);
    CHECK_LANES(b, bfloat16::from_bits(0x3fc0));
    auto n = aie::broadcast<int32>(7);
    CHECK_EQ(n.size(), 16u);
    CHECK_LANES(n, 7);
}

AIE_TEST(add_sub_wrap_integers)
{
    aie::vector<int8, 64> a, b;
    aie::vector<uint16, 32> ua, ub;
    aie::vector<int32, 16> ia, ib;
    for (unsigned i = 0; i < 64; i++)
        a[i] = (int8)(i * 7 - 100), b[i] = (int8)(127 - i * 5);
    for (unsigned i = 0; i < 32; i++)
        ua[i] = (uint16)(i * 4000), ub[i] = (uint16)(65535 - i);
    for (unsigned i = 0; i < 16; i++)
        ia[i] = INT32_MAX - (int32)i, ib[i] = (int32)i * 1000 - INT32_MAX;
    auto s = aie::add(a, b);
    CHECK_LANES(s, wrapv<int8>((long long)a[i] + b[i]));
    auto d = aie::sub(a, b);
    CHECK_LANES(d, wrapv<int8>((long long)a[i] - b[i]));
    auto us = aie::add(ua, ub);
    CHECK_LANES(us, wrapv<uint16>((long long)ua[i] + ub[i]));
    auto ud = aie::sub(ua, ub);
    CHECK_LANES(ud, wrapv<uint16>((long long)ua[i] - ub[i]));
    auto is = aie::add(ia, 5);
    CHECK_LANES(is, wrapv<int32>((long long)ia[i] + 5));
    auto id = aie::sub(-3, ib);
    CHECK_LANES(id, wrapv<int32>(-3 - (long long)ib[i]));
    // saturation mode does not change vector add
    aie::set_saturation(aie::saturation_mode::saturate);
    auto s2 = ia + ia;
    CHECK_LANES(s2, wrapv<int32>(2 * (long long)ia[i]));
    auto s3 = aie::operators::operator-(ia, ib);
    CHECK_LANES(s3, wrapv<int32>((long long)ia[i] - ib[i]));
}

AIE_TEST(add_bf16_rounds_with_the_mode)
{
    aie::vector<bfloat16, 16> a, b;
    a[0] = 1.0f, b[0] = bfloat16::from_bits(0x3b80);  // 1 + 2^-8: a tie between 1 and 1+2^-7
    a[1] = 1.0f, b[1] = bfloat16::from_bits(0x3c40);  // 1 + 3*2^-8: tie, odd below
    a[2] = -1.0f, b[2] = bfloat16::from_bits(0xbb80); // -1 - 2^-8
    a[3] = bfloat16::from_bits(0x0001), b[3] = 0.0f;  // subnormal in: flushed
    a[4] = std::numeric_limits<float>::infinity(), b[4] = 1.0f;
    a[5] = std::numeric_limits<bfloat16>::max(), b[5] = std::numeric_limits<bfloat16>::max();
    aie::set_rounding(aie::rounding_mode::conv_even);
    auto s = aie::add(a, b);
    CHECK_EQ(s[0].bits_, 0x3f80);
    CHECK_EQ(s[1].bits_, 0x3f82);
    CHECK_EQ(s[2].bits_, 0xbf80);
    CHECK_EQ(s[3].bits_, 0x0000);
    CHECK_EQ(s[4].bits_, 0x7f80);
    CHECK_EQ(s[5].bits_, 0x7f80);
    aie::set_rounding(aie::rounding_mode::floor); // the reset mode: towards -inf
    s = aie::add(a, b);
    CHECK_EQ(s[0].bits_, 0x3f80);
    CHECK_EQ(s[1].bits_, 0x3f81);
    CHECK_EQ(s[2].bits_, 0xbf81);
    CHECK_EQ(s[5].bits_, 0x7f80); // the float sum overflows first
    aie::set_rounding(aie::rounding_mode::positive_inf);
    auto d = aie::sub(a, aie::neg(b));
    CHECK_EQ(d[0].bits_, 0x3f81);
    CHECK_EQ(d[2].bits_, 0xbf80);
    aie::vector<float, 8> fa(1.0f, f_of(0x7f7fffff)), fb(f_of(0x33800000), f_of(0x7f7fffff));
    auto fs = aie::add(fa, fb); // float: IEEE, nearest even, whatever the mode
    CHECK_EQ(fs[0], 1.0f);
    CHECK_EQ(fs[1], std::numeric_limits<float>::infinity());
}

AIE_TEST(mul_default_accumulators_and_wrap)
{
    aie::vector<int8, 32> a, b;
    aie::vector<int16, 32> c, d;
    aie::vector<int32, 16> e, f;
    aie::vector<uint8, 32> ua;
    for (unsigned i = 0; i < 32; i++) {
        a[i] = (int8)(i * 9 - 128), b[i] = (int8)(127 - i * 8);
        c[i] = (int16)(i * 2000 - 32768), d[i] = (int16)(32767 - i * 1500);
        ua[i] = (uint8)(255 - i);
    }
    for (unsigned i = 0; i < 16; i++)
        e[i] = INT32_MIN + (int32)i * 12345, f[i] = INT32_MAX - (int32)i;
    auto m8 = aie::mul(a, b);
    CHECK((std::is_same_v<decltype(m8), aie::accum<acc32, 32>>));
    CHECK_LANES(m8, (int32_t)a[i] * b[i]);
    auto m16 = aie::mul(c, d);
    CHECK((std::is_same_v<decltype(m16), aie::accum<acc32, 32>>));
    CHECK_LANES(m16, (int32_t)c[i] * d[i]);
    auto mu = aie::mul(ua, a);
    CHECK_LANES(mu, (int32_t)ua[i] * a[i]);
    auto m32 = aie::mul(e, f);
    CHECK((std::is_same_v<decltype(m32), aie::accum<acc64, 16>>));
    CHECK_LANES(m32, (int64_t)e[i] * f[i]);
    auto m3216 = aie::mul(e, c.extract<16>(0));
    CHECK((std::is_same_v<decltype(m3216), aie::accum<acc48, 16>>));
    CHECK_LANES(m3216, (int64_t)e[i] * c[i]);
    auto m64 = aie::mul<acc64>(c, d);
    CHECK_LANES(m64, (int64_t)c[i] * d[i]);
    auto ms = aie::mul(c, (int16)-3);
    CHECK_LANES(ms, (int32_t)c[i] * -3);
    auto sm = aie::mul((int16)5, c);
    CHECK_LANES(sm, (int32_t)c[i] * 5);
    // acc32 accumulation wraps at 32 bits: (-32768)^2 * 3 = 3 * 2^30
    aie::vector<int16, 32> mn = aie::broadcast<int16, 32>(-32768);
    auto acc = aie::mul(mn, mn);
    acc = aie::mac(acc, mn, mn);
    acc = aie::mac(acc, mn, mn);
    CHECK_LANES(acc, wrapv<int32_t>(3LL << 30));
    auto sq = aie::mul_square(c);
    CHECK_LANES(sq, (int32_t)c[i] * c[i]);
    auto ms2 = aie::msc(sq, c, d);
    CHECK_LANES(ms2, wrapv<int32_t>((long long)c[i] * c[i] - (long long)c[i] * d[i]));
    auto nm = aie::negmul(c, d);
    CHECK_LANES(nm, -(int32_t)c[i] * d[i]);
    auto mq = aie::mac_square(nm, d);
    CHECK_LANES(mq, (int32_t)d[i] * d[i] - c[i] * d[i]);
    auto mq2 = aie::msc_square(mq, d);
    CHECK_LANES(mq2, -(int32_t)c[i] * d[i]);
    // accumulator add/sub and operators, accumulator + vector
    auto s = sq + nm;
    CHECK_LANES(s, wrapv<int32_t>((long long)c[i] * c[i] - (long long)c[i] * d[i]));
    s -= sq;
    CHECK_LANES(s, -(int32_t)c[i] * d[i]);
    auto av = aie::add(s, c);
    CHECK_LANES(av, -(int32_t)c[i] * d[i] + c[i]);
    auto sv = aie::sub(s, c);
    CHECK_LANES(sv, -(int32_t)c[i] * d[i] - c[i]);
}

AIE_TEST(mul_bf16_exact_products_float_sums)
{
    aie::vector<bfloat16, 16> a, b;
    for (unsigned i = 0; i < 16; i++) {
        a[i] = bfloat16::from_bits((uint16_t)(0x3f81 + i * 3));
        b[i] = bfloat16::from_bits((uint16_t)(0xc07f - i * 5));
    }
    auto p = aie::mul(a, b);
    CHECK((std::is_same_v<decltype(p), aie::accum<accfloat, 16>>));
    CHECK_LANES(p, (float)((double)(float)a[i] * (double)(float)b[i])); // exact in float
    auto m = aie::mac(p, a, a);
    CHECK_LANES(m, (float)((double)(float)a[i] * (float)b[i] + (double)((double)(float)a[i] * (float)a[i])));
    // subnormal products flush to zero
    aie::vector<bfloat16, 16> tiny = aie::broadcast<bfloat16, 16>(bfloat16::from_bits(0x0200)); // 2^-123
    auto t = aie::mul(tiny, tiny);
    CHECK_LANES(t, 0.0f);
    auto ts = aie::mul(tiny, aie::broadcast<bfloat16, 16>(-1.0f));
    CHECK_LANES(ts, f_of(0x82000000)); // -2^-123: normal, kept
    // accumulate: weighted sum of data vectors
    aie::vector<int16, 16> coeff(1, 2, 3, 4);
    aie::vector<int16, 16> d0 = aie::broadcast<int16, 16>(10), d1 = aie::broadcast<int16, 16>(-100);
    auto w = aie::accumulate<16>(coeff, 1, d0, d1);
    CHECK_LANES(w, 2 * 10 + 3 * -100);
    auto w2 = aie::accumulate<8>(aie::zeros<acc64, 8>(), coeff, 0, d0, d1, d0);
    CHECK_LANES(w2, (int64_t)(10 - 200 + 30));
    // (this fault names the header's line: the data pack cannot be followed
    // by the defaulted location parameters)
    CHECK_FAULT_ANYWHERE((void)aie::accumulate<16>(coeff, 15, d0, d1), "coeff_start");
}

AIE_TEST(abs_neg_max_min_maxdiff)
{
    aie::vector<int8, 16> a(-128, -1, 0, 1, 127, -50), b(5, -5, 0, 2, -128, -60);
    auto ab = aie::abs(a);
    CHECK_EQ(ab[0], -128); // wraps
    CHECK_EQ(ab[1], 1);
    CHECK_EQ(ab[5], 50);
    auto ng = aie::neg(a);
    CHECK_EQ(ng[0], -128);
    CHECK_EQ(ng[4], -127);
    auto mx = aie::max(a, b);
    CHECK_LANES(mx, a[i] > b[i] ? a[i] : b[i]);
    auto mn = aie::min(a, (int8)0);
    CHECK_LANES(mn, a[i] < 0 ? a[i] : 0);
    auto md = aie::maxdiff(a, b);
    CHECK_LANES(md, a[i] > b[i] ? wrapv<int8>((long long)a[i] - b[i]) : 0);
    aie::vector<bfloat16, 16> f, g;
    f[0] = -2.0f, g[0] = 1.0f;
    f[1] = std::numeric_limits<bfloat16>::quiet_NaN(), g[1] = 1.0f;
    f[2] = 3.0f, g[2] = std::numeric_limits<bfloat16>::quiet_NaN();
    f[3] = -0.0f, g[3] = 0.0f;
    auto fm = aie::max(f, g);
    CHECK_EQ(fm[0].bits_, 0x3f80);
    CHECK_EQ(fm[1].bits_, 0x7fc0); // NaN in a stays
    CHECK_EQ(fm[2].bits_, 0x4040); // NaN in b gives a
    CHECK_EQ(fm[3].bits_, 0x8000); // equal: a
    auto fa = aie::abs(f);
    CHECK_EQ(fa[0].bits_, 0x4000);
    CHECK_EQ(fa[3].bits_, 0x0000);
    auto fn = aie::neg(f);
    CHECK_EQ(fn[2].bits_, 0xc040);
    auto relu = aie::max(f, bfloat16(0.0f));
    CHECK_EQ(relu[0].bits_, 0x0000);
}

AIE_TEST(bits_and_shifts)
{
    aie::vector<uint8, 32> a, b;
    for (unsigned i = 0; i < 32; i++)
        a[i] = (uint8)(i * 37), b[i] = (uint8)(0xf0 ^ i);
    CHECK_LANES(aie::bit_and(a, b), (uint8)(a[i] & b[i]));
    CHECK_LANES(aie::bit_or(a, b), (uint8)(a[i] | b[i]));
    CHECK_LANES(aie::bit_xor(a, (uint8)0x55), (uint8)(a[i] ^ 0x55));
    CHECK_LANES(aie::bit_not(a), (uint8)~a[i]);
    CHECK_LANES((a & b), (uint8)(a[i] & b[i]));
    CHECK_LANES((~a), (uint8)~a[i]);
    aie::vector<int16, 16> s(-32768, -1, 3, 16384);
    CHECK_LANES(aie::upshift(s, 1), (int16)(uint16)(s[i] << 1));
    CHECK_LANES(aie::downshift(s, 2), (int16)(s[i] >> 2));
    CHECK_LANES(aie::logical_downshift(s, 2), (int16)((uint16)s[i] >> 2));
    CHECK_FAULT((void)aie::upshift(s, 16), "aie::upshift");
}

AIE_TEST(to_float_to_fixed)
{
    CHECK_EQ(aie::to_float(-3, 1), -1.5f);
    aie::vector<int32, 16> v(1, -1, 3, 1 << 30);
    auto f = aie::to_float(v, 2);
    CHECK_LANES(f, (float)((double)v[i] / 4));
    aie::vector<float, 16> x(2.5f, -2.5f, 1.49f, 1e20f, -1e20f, f_of(0x7fc00000), 0.125f);
    auto q = aie::to_fixed<int16>(x, 1);
    CHECK_EQ(q[0], 5);
    CHECK_EQ(q[1], -5);
    CHECK_EQ(q[2], 3);
    CHECK_EQ(q[3], 32767);
    CHECK_EQ(q[4], -32768);
    CHECK_EQ(q[5], 0);
    auto q0 = aie::to_fixed<int32>(x);
    CHECK_EQ(q0[0], 2); // ties to even
    CHECK_EQ(q0[1], -2);
    CHECK_EQ(aie::to_fixed(bfloat16(3.5f)), 4);
}

AIE_TEST(compare_select)
{
    aie::vector<int32, 16> a, b;
    for (unsigned i = 0; i < 16; i++)
        a[i] = (int32)i - 8, b[i] = 8 - (int32)i;
    auto m = aie::lt(a, b);
    for (unsigned i = 0; i < 16; i++) {
        CHECK_EQ(m.test(i), a[i] < b[i]);
        CHECK_EQ(aie::le(a, b).test(i), a[i] <= b[i]);
        CHECK_EQ(aie::gt(a, 0).test(i), a[i] > 0);
        CHECK_EQ(aie::ge(0, a).test(i), 0 >= a[i]);
        CHECK_EQ(aie::eq(a, b).test(i), a[i] == b[i]);
        CHECK_EQ(aie::neq(a, b).test(i), a[i] != b[i]);
        CHECK_EQ((a < b).test(i), a[i] < b[i]);
    }
    auto s = aie::select(a, b, m); // m ? b : a
    CHECK_LANES(s, a[i] < b[i] ? b[i] : a[i]);
    auto s2 = aie::select(0, a, aie::gt(a, 0));
    CHECK_LANES(s2, a[i] > 0 ? a[i] : 0);
    auto s3 = aie::select(a, -1, aie::gt(a, 0));
    CHECK_LANES(s3, a[i] > 0 ? -1 : a[i]);
    // Two scalars (upstream's threshold kernel): lanes of the first's type.
    aie::vector<uint8, 64> px;
    for (unsigned i = 0; i < 64; i++)
        px[i] = (uint8)(i * 4);
    aie::vector<uint8, 64> k(0, 100, 255);
    auto s4 = aie::select(k[0], k[2], aie::lt(k[1], px)); // px > 100 ? 255 : 0
    CHECK((std::is_same_v<decltype(s4), aie::vector<uint8, 64>>));
    CHECK_LANES(s4, px[i] > 100 ? 255 : 0);
    auto s5 = aie::select(k[2], px, aie::lt(k[1], px)); // px > 100 ? px : 255
    CHECK_LANES(s5, px[i] > 100 ? px[i] : 255);
    auto s6 = aie::select(bfloat16(1.5f), bfloat16(-2.0f), aie::gt(a, 0));
    CHECK_LANES(s6, a[i] > 0 ? bfloat16(-2.0f) : bfloat16(1.5f));
    CHECK(aie::equal(a, a));
    CHECK(aie::not_equal(a, b));
    CHECK(a == a);
    aie::vector<bfloat16, 16> f;
    f[0] = std::numeric_limits<bfloat16>::quiet_NaN();
    CHECK(!aie::eq(f, f).test(0));
    CHECK(aie::eq(f, f).test(1));
}

AIE_TEST(reductions)
{
    aie::vector<int16, 32> a;
    long long sum = 0;
    int mx = -100000, mn = 100000;
    for (unsigned i = 0; i < 32; i++) {
        a[i] = (int16)(i * 3001 - 40000);
        sum += a[i];
        mx = a[i] > mx ? a[i] : mx;
        mn = a[i] < mn ? a[i] : mn;
    }
    CHECK_EQ(aie::reduce_add(a), wrapv<int16>(sum));
    CHECK_EQ(aie::reduce_max(a), mx);
    CHECK_EQ(aie::reduce_min(a), mn);
    aie::vector<int32, 16> big = aie::broadcast<int32, 16>(INT32_MAX);
    CHECK_EQ(aie::reduce_add(big), wrapv<int32>(16LL * INT32_MAX));
    CHECK_EQ(aie::reduce_mul(aie::vector<int32, 4>(2, 3, 4, 5)), 120);
    // float: the halving tree, then one rounding to bfloat16
    aie::vector<bfloat16, 8> f;
    const float vals[8] = {1.0f, 1.0f / 256, 1.0f / 256, 1.0f / 256, -1.0f, 3.0f, 0.5f, 1.0f / 512};
    for (unsigned i = 0; i < 8; i++)
        f[i] = vals[i];
    float t[8];
    for (unsigned i = 0; i < 8; i++)
        t[i] = vals[i];
    for (unsigned n = 8; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++)
            t[i] += t[i + n / 2];
    aie::set_rounding(aie::rounding_mode::conv_even);
    CHECK_EQ((float)aie::reduce_add(f), (float)bfloat16(t[0]));
    aie::set_rounding(aie::rounding_mode::floor);
    // the tree gives 3.513671875, between 3.5 and 3.515625
    CHECK_EQ(t[0], 3.513671875f);
    CHECK_EQ(aie::reduce_add(f).bits_, 0x4060);
    aie::vector<float, 8> ff;
    for (unsigned i = 0; i < 8; i++)
        ff[i] = vals[i];
    CHECK_EQ(aie::reduce_add(ff), t[0]);
    CHECK_EQ((float)aie::reduce_max(f), 3.0f);
    CHECK_EQ((float)aie::reduce_min(f), -1.0f);
}
