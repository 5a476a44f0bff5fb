// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_elementary.cpp - aie::sqrt / inv / invsqrt (both arches) and
// aie::tanh / exp2 (AIE2P): every bfloat16 input, float samples, special
// values, lane counts.  The documented choice is the exact result
// correctly rounded (nearest, ties to even); vector forms flush subnormal
// inputs and results.  Expected values: long double math, rounded by the
// test's own search for the nearest bfloat16 / float.
#include "aieapi_test.hpp"

#include <limits>

namespace {

long double bval(uint16_t b) { return f_of((uint32_t)b << 16); }
bool bnan(uint16_t b) { return (b & 0x7fff) > 0x7f80; }

// Nearest bfloat16 to x, ties to even: the candidates around x's
// truncation, compared by exact distance.
uint16_t ref_bf16(long double x)
{
    if (std::isnan(x))
        return 0x7fc0;
    if (std::isinf(x))
        return x > 0 ? 0x7f80 : 0xff80;
    const long double big = bval(0x7f7f) + (bval(0x7f7f) - bval(0x7f7e)) / 2;
    if (fabsl(x) >= big)
        return x > 0 ? 0x7f80 : 0xff80;
    uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    long double a = fabsl(x);
    uint16_t t = (uint16_t)(u_of((float)(double)a) >> 16);
    uint16_t best = t;
    for (int d = -1; d <= 2; d++) {
        int c = (int)t + d;
        if (c < 0 || c > 0x7f7f)
            continue;
        long double dc = fabsl(bval((uint16_t)c) - a), db = fabsl(bval(best) - a);
        if (dc < db || (dc == db && !(c & 1)))
            best = (uint16_t)c;
    }
    return (uint16_t)(best | sign);
}
uint16_t flushb(uint16_t b) { return (b & 0x7f80) == 0 ? (uint16_t)(b & 0x8000) : b; }
long double ref_in(uint16_t b, bool flush) { return bval(flush ? flushb(b) : b); }

long double r_sqrt(long double x) { return sqrtl(x); }
long double r_inv(long double x) { return 1.0L / x; }
long double r_invsqrt(long double x) { return 1.0L / sqrtl(x); }

// Every bfloat16 through the scalar and the 16-lane vector form of f.
template <typename Scalar, typename Vec>
void all_bf16(Scalar scalar, Vec vec, long double (*ref)(long double), const char *name)
{
    unsigned bad = 0;
    for (uint32_t base = 0; base < 0x10000; base += 16) {
        aie::vector<bfloat16, 16> v;
        for (unsigned i = 0; i < 16; i++)
            v.lanes_[i] = bfloat16::from_bits((uint16_t)(base + i));
        aie::vector<bfloat16, 16> r = vec(v);
        for (unsigned i = 0; i < 16; i++) {
            uint16_t in = (uint16_t)(base + i);
            uint16_t want_v = flushb(ref_bf16(ref(ref_in(in, true))));
            uint16_t want_s = ref_bf16(ref(ref_in(in, false)));
            uint16_t got_v = r.lanes_[i].bits_, got_s = scalar(bfloat16::from_bits(in)).bits_;
            bool ok_v = bnan(want_v) ? bnan(got_v) : got_v == want_v;
            bool ok_s = bnan(want_s) ? bnan(got_s) : got_s == want_s;
            if ((!ok_v || !ok_s) && bad++ < 8)
                fprintf(stderr, "%s(bf16 0x%04x): vector 0x%04x want 0x%04x, scalar 0x%04x want 0x%04x\n",
                        name, in, got_v, want_v, got_s, want_s);
        }
    }
    CHECK_EQ(bad, 0u);
}

AIE_TEST(sqrt_inv_invsqrt_every_bfloat16)
{
    all_bf16([](bfloat16 x) { return aie::sqrt(x); },
             [](const aie::vector<bfloat16, 16> &v) { return aie::sqrt(v); }, r_sqrt, "sqrt");
    all_bf16([](bfloat16 x) { return aie::inv(x); },
             [](const aie::vector<bfloat16, 16> &v) { return aie::inv(v); }, r_inv, "inv");
    all_bf16([](bfloat16 x) { return aie::invsqrt(x); },
             [](const aie::vector<bfloat16, 16> &v) { return aie::invsqrt(v); }, r_invsqrt, "invsqrt");
}

// Floats: a spread of magnitudes and mantissas, plus the edges.
const float float_samples[] = {
    1.0f, 2.0f, 3.0f, 0.1f, 1e-3f, 7.25f, 1.17549435e-38f, 3.40282347e38f, 1.5e-45f, 123456.789f,
    0.333333343f, 9.99999975e-06f, 65504.0f, 1.00000012f, 0.99999994f, 16777215.0f, 6.02214e23f,
};

// x is within half an ulp of exact (the float neighbours of got are not closer).
bool nearest_float(float got, long double exact)
{
    if (std::isnan(exact))
        return std::isnan(got);
    if (std::isinf(got) || std::isinf(exact))
        return got == exact || (std::isinf(got) && fabsl(exact) > 3.4028235677973366e38L);
    long double d = fabsl((long double)got - exact);
    float up = nextafterf(got, INFINITY), dn = nextafterf(got, -INFINITY);
    return d <= fabsl((long double)up - exact) && d <= fabsl((long double)dn - exact);
}

AIE_TEST(float_scalar_and_vector)
{
    for (float s : float_samples)
        for (float x : {s, -s}) {
            CHECK(nearest_float(aie::inv(x), 1.0L / x));
            if (x > 0) {
                CHECK(nearest_float(aie::sqrt(x), sqrtl(x)));
                CHECK(nearest_float(aie::invsqrt(x), 1.0L / sqrtl(x)));
            } else {
                CHECK(std::isnan(aie::sqrt(x)));
                CHECK(std::isnan(aie::invsqrt(x)));
            }
        }
    // Scalars keep subnormals; vectors flush them (input and result).
    const float sub = 1.5e-45f;
    CHECK(std::isinf(aie::inv(3e-39f)) == false);
    CHECK_EQ(aie::sqrt(sub), f_of(u_of(sqrtf(sub))));
    aie::vector<float, 16> v;
    for (unsigned i = 0; i < 16; i++)
        v.lanes_[i] = float_samples[i];
    aie::vector<float, 16> r = aie::inv(v), q = aie::sqrt(v), w = aie::invsqrt(v);
    for (unsigned i = 0; i < 16; i++) {
        float x = float_samples[i];
        if ((u_of(x) & 0x7f800000u) == 0) { // subnormal: flushed to +0
            CHECK_EQ(r.lanes_[i], INFINITY);
            CHECK_EQ(q.lanes_[i], 0.0f);
            CHECK_EQ(w.lanes_[i], INFINITY);
            continue;
        }
        long double e = 1.0L / x;
        CHECK(nearest_float(r.lanes_[i], fabsl(e) < 1.1754943508222875e-38L ? 0.0L : e));
        CHECK(nearest_float(q.lanes_[i], sqrtl(x)));
        CHECK(nearest_float(w.lanes_[i], 1.0L / sqrtl(x)));
    }
}

AIE_TEST(special_values)
{
    const float inf = std::numeric_limits<float>::infinity();
    CHECK_EQ(aie::inv(0.0f), inf);
    CHECK_EQ(aie::inv(-0.0f), -inf);
    CHECK_EQ(aie::inv(inf), 0.0f);
    CHECK_EQ(aie::invsqrt(0.0f), inf);
    CHECK_EQ(aie::invsqrt(inf), 0.0f);
    CHECK_EQ(aie::sqrt(-0.0f), -0.0f);
    CHECK(std::isnan(aie::inv(std::numeric_limits<float>::quiet_NaN())));
    CHECK_EQ(aie::inv(bfloat16::from_bits(0x0000)).bits_, (uint16_t)0x7f80);
    CHECK_EQ(aie::inv(bfloat16::from_bits(0x8000)).bits_, (uint16_t)0xff80);
    CHECK_EQ(aie::invsqrt(bfloat16::from_bits(0x7f80)).bits_, (uint16_t)0x0000);
    CHECK(bnan(aie::invsqrt(bfloat16::from_bits(0xbf80)).bits_)); // 1/sqrt(-1)
    // Lane counts other than 16 take the same path.
    aie::vector<bfloat16, 32> v32;
    for (unsigned i = 0; i < 32; i++)
        v32.lanes_[i] = bfloat16::from_bits((uint16_t)(0x3f80 + 3 * i));
    aie::vector<bfloat16, 32> r32 = aie::inv(v32);
    CHECK_LANES(r32, bfloat16::from_bits(ref_bf16(1.0L / bval((uint16_t)(0x3f80 + 3 * i)))));
}

#if __AIE_ARCH__ == 21

// tanh / exp2 of float vectors: each bfloat16 value as a float, and floats
// between them (which need rounding of their own).
template <unsigned N, typename F>
unsigned float_to_bf16_all(F f, long double (*ref)(long double), const char *name)
{
    unsigned bad = 0;
    for (uint32_t base = 0; base < 0x10000; base += N) {
        aie::vector<float, N> v;
        for (unsigned i = 0; i < N; i++) {
            uint32_t u = (base + i) << 16 | ((base + i) * 2654435761u >> 16 & 0xffff);
            v.lanes_[i] = f_of(u);
        }
        aie::vector<bfloat16, N> r = f(v);
        for (unsigned i = 0; i < N; i++) {
            float x = v.lanes_[i];
            long double xin = (u_of(x) & 0x7f800000u) == 0 ? (std::signbit(x) ? -0.0L : 0.0L) : x;
            uint16_t want = flushb(ref_bf16(ref(xin))), got = r.lanes_[i].bits_;
            bool ok = bnan(want) ? bnan(got) : got == want;
            if (!ok && bad++ < 8)
                fprintf(stderr, "%s(0x%08x = %.9g): 0x%04x want 0x%04x\n", name, u_of(x), (double)x, got, want);
        }
    }
    return bad;
}

long double r_tanh(long double x) { return tanhl(x); }
long double r_exp2(long double x) { return exp2l(x); }

AIE_TEST(tanh_exp2_aie2p)
{
    CHECK_EQ((float_to_bf16_all<16>([](const aie::vector<float, 16> &v) { return aie::tanh(v); }, r_tanh, "tanh")), 0u);
    CHECK_EQ((float_to_bf16_all<16>([](const aie::vector<float, 16> &v) { return aie::exp2(v); }, r_exp2, "exp2")), 0u);
    CHECK_EQ((float_to_bf16_all<8>([](const aie::vector<float, 8> &v) { return aie::tanh<bfloat16>(v); }, r_tanh, "tanh8")), 0u);
    CHECK_EQ((float_to_bf16_all<32>([](const aie::vector<float, 32> &v) { return aie::exp2<bfloat16>(v); }, r_exp2, "exp2_32")), 0u);
}

AIE_TEST(tanh_exp2_special_aie2p)
{
    const float inf = std::numeric_limits<float>::infinity();
    aie::vector<float, 16> v;
    const float in[16] = {inf, -inf, 0.0f, -0.0f, 128.0f, -126.0f, -133.0f, 20.0f,
                          -20.0f, 1.0f, 0.5f, -1.0f, 127.99f, 1e-40f, std::numeric_limits<float>::quiet_NaN(), 3.0f};
    for (unsigned i = 0; i < 16; i++)
        v.lanes_[i] = in[i];
    aie::vector<bfloat16, 16> t = aie::tanh(v), e = aie::exp2(v);
    const uint16_t want_t[16] = {0x3f80, 0xbf80, 0x0000, 0x8000, 0x3f80, 0xbf80, 0xbf80, 0x3f80,
                                 0xbf80, ref_bf16(tanhl(1.0L)), ref_bf16(tanhl(0.5L)), ref_bf16(tanhl(-1.0L)),
                                 0x3f80, 0x0000, 0x7fc0, ref_bf16(tanhl(3.0L))};
    const uint16_t want_e[16] = {0x7f80, 0x0000, 0x3f80, 0x3f80, 0x7f80, 0x0080, 0x0000, ref_bf16(exp2l(20.0L)),
                                 ref_bf16(exp2l(-20.0L)), 0x4000, ref_bf16(sqrtl(2.0L)), 0x3f00,
                                 ref_bf16(exp2l(127.99f)), 0x3f80, 0x7fc0, 0x4100};
    for (unsigned i = 0; i < 16; i++) {
        if (bnan(want_t[i])) {
            CHECK(bnan(t.lanes_[i].bits_));
            CHECK(bnan(e.lanes_[i].bits_));
            continue;
        }
        CHECK_EQ(t.lanes_[i].bits_, want_t[i]);
        CHECK_EQ(e.lanes_[i].bits_, want_e[i]);
    }
}

#endif

} // namespace
