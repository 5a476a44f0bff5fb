// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_lut.cpp - aie::lut, aie::parallel_lookup (index types, step bits,
// bias, both out-of-range policies, 8/16/32-bit values, fetch<N>),
// aie::linear_approx (int8, int16/int16, int16/int32, bfloat16/float) and
// the lut_based_ops.h functions, on both arches; the faults the
// constructors promise.  Tables are built by the test in the documented
// layout (each 16-byte chunk twice); expected values come from the test's
// own logical table and the documented formulas, exp / tanh from long
// double math with the tolerances lut_based_ops.h states.
#include "aieapi_test.hpp"

#include <lut_based_ops.h>

namespace {

// A table of `n` entries of `bytes` bytes laid out for 2/4 parallel
// accesses: logical byte b at (b / 16) * 32 + b % 16, both copies.
struct table {
    alignas(64) unsigned char mem[4096];
    void put(unsigned bytes, unsigned k, const void *v)
    {
        const unsigned b = k * bytes, at = (b / 16) * 32 + b % 16;
        memcpy(mem + at, v, bytes);
        memcpy(mem + at + 16, v, bytes);
    }
};

long double bval(uint16_t b) { return f_of((uint32_t)b << 16); }

// int16 values 1000 + 7k for k < 64: unsigned indices, both policies.
AIE_TEST(parallel_lookup_unsigned)
{
    static table ab, cd;
    for (unsigned k = 0; k < 64; k++) {
        int16_t v = (int16_t)(1000 + 7 * k);
        ab.put(2, k, &v), cd.put(2, k, &v);
    }
    using L = aie::lut<4, int16, int16>;
    L l(64, ab.mem, cd.mem);
    aie::parallel_lookup<uint16, L, aie::lut_oor_policy::saturate> sat(l, 2);
    aie::parallel_lookup<uint16, L, aie::lut_oor_policy::truncate> tru(l, 2);
    aie::vector<uint16, 32> in;
    for (unsigned i = 0; i < 32; i++)
        in.lanes_[i] = (uint16_t)(i * 37 + (i & 3)); // up to 1150: past the table
    aie::vector<int16, 32> rs = sat.fetch(in), rt = tru.fetch(in);
    for (unsigned i = 0; i < 32; i++) {
        unsigned q = in.lanes_[i] >> 2;
        CHECK_EQ(rs.lanes_[i], (int16_t)(1000 + 7 * (q > 63 ? 63 : q)));
        CHECK_EQ(rt.lanes_[i], (int16_t)(1000 + 7 * (q & 63)));
    }
    aie::vector<int16, 8> r8 = sat.fetch<8>(in);
    CHECK_LANES(r8, rs.lanes_[i]);
    // Zero step bits are exact in every rounding mode.
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::vector<uint16, 16> z;
    for (unsigned i = 0; i < 16; i++)
        z.lanes_[i] = (uint16_t)(i * 4 * 3);
    aie::vector<int16, 16> rz = sat.fetch(z);
    CHECK_LANES(rz, (int16_t)(1000 + 7 * 3 * i));
}

// Signed int8 indices with bias: saturate clamps to [-bias, n - bias),
// truncate wraps into it.  32-bit values.
AIE_TEST(parallel_lookup_signed_bias)
{
    static table ab, cd;
    for (unsigned k = 0; k < 32; k++) {
        int32_t v = 100000 * (int32_t)k - 7;
        ab.put(4, k, &v), cd.put(4, k, &v);
    }
    using L = aie::lut<4, int32, int32>;
    L l(32, ab.mem, cd.mem);
    aie::parallel_lookup<int8, L> sat(l, 1, 16);
    aie::parallel_lookup<int8, L, aie::lut_oor_policy::truncate> tru(l, 1, 16);
    aie::vector<int8, 16> in;
    const int8 vals[16] = {0, 1, 2, -1, -2, -31, -32, -33, -34, 30, 31, 32, 33, 127, -128, 64};
    for (unsigned i = 0; i < 16; i++)
        in.lanes_[i] = vals[i];
    aie::vector<int32, 16> rs = sat.fetch(in), rt = tru.fetch(in);
    for (unsigned i = 0; i < 16; i++) {
        int q = vals[i] >> 1; // floor
        int s = (q < -16 ? -16 : q > 15 ? 15 : q) + 16;
        int t = ((q + 16) % 32 + 32) % 32;
        CHECK_EQ(rs.lanes_[i], 100000 * s - 7);
        CHECK_EQ(rt.lanes_[i], 100000 * t - 7);
    }
}

// 8-bit values are stored as 16-bit entries; with saturation off the
// value is the entry's low byte, with it on the entry clamps.
AIE_TEST(parallel_lookup_8bit_values)
{
    static table ab, cd;
    for (unsigned k = 0; k < 256; k++) {
        int16_t v = (int16_t)((int)k - 100); // -100..155
        ab.put(2, k, &v), cd.put(2, k, &v);
    }
    using L = aie::lut<4, int8, int8>;
    L l(256, ab.mem, cd.mem);
    aie::parallel_lookup<uint8, L> look(l);
    aie::vector<uint8, 32> in;
    for (unsigned i = 0; i < 32; i++)
        in.lanes_[i] = (uint8_t)(i * 8 + 3);
    aie::vector<int8, 32> r = look.fetch(in);
    CHECK_LANES(r, (int8)(uint8_t)((int)(i * 8 + 3) - 100));
    aie::set_saturation(aie::saturation_mode::saturate);
    r = look.fetch(in);
    CHECK_LANES(r, (int8)((int)(i * 8 + 3) - 100 > 127 ? 127 : (int)(i * 8 + 3) - 100));
}

AIE_TEST(lut_faults)
{
    static table ab;
    using L = aie::lut<4, int16, int16>;
    CHECK_FAULT(L bad(64, ab.mem, nullptr), "LUT_cd");
    CHECK_FAULT(L bad(64, ab.mem + 2, ab.mem), "aligned");
    CHECK_FAULT(L bad(0, ab.mem, ab.mem), "LUT_elems is 0");
    CHECK_FAULT((aie::lut<1, int16>(8, nullptr)), "NULL");
    L l(64, ab.mem, ab.mem);
    CHECK_FAULT((aie::parallel_lookup<int16, L>(l, 0, 3)), "power of 2");
    CHECK_FAULT((aie::parallel_lookup<uint16, L>(l, 40)), "step_bits");
    using L16 = aie::lut<4, int16, int16>;
    CHECK_FAULT((aie::linear_approx<int16, L16>(l, 2)), "3..31");
    CHECK_FAULT((aie::linear_approx<int8, aie::lut<4, int8, int8>>(aie::lut<4, int8, int8>(8, ab.mem, ab.mem), 1)),
                "2..31");
    using LF = aie::lut<4, float, bfloat16>;
    CHECK_FAULT((aie::linear_approx<bfloat16, LF>(LF(8, ab.mem, ab.mem), 0, 0, 1)), "shift_offset");
}

// int16 input, int16 (slope, offset) pairs: out = slope * rem + (offset << shift).
AIE_TEST(linear_approx_int16)
{
    static table ab, cd;
    for (unsigned k = 0; k < 16; k++) {
        int16_t so[2] = {(int16_t)(3 * k - 20), (int16_t)(1000 * k - 8000)};
        ab.put(4, k, so), cd.put(4, k, so);
    }
    using L = aie::lut<4, int16, int16>;
    L l(16, ab.mem, cd.mem);
    aie::linear_approx<int16, L> la(l, 5, 8, 2);
    aie::vector<int16, 16> in;
    const int16 vals[16] = {0, 1, 31, 32, 33, -1, -32, -256, -257, 255, 256, 300, -300, 1000, -1000, 17};
    for (unsigned i = 0; i < 16; i++)
        in.lanes_[i] = vals[i];
    aie::accum<acc64, 16> r = la.compute(in);
    for (unsigned i = 0; i < 16; i++) {
        int64_t idx = (vals[i] >> 5) + 8; // floor + bias
        idx = idx < 0 ? 15 : idx > 15 ? 15 : idx; // negative: unsigned, saturation off
        int64_t rem = vals[i] & 31;
        CHECK_EQ(r.lanes_[i], (int64_t)(3 * idx - 20) * rem + ((int64_t)(1000 * idx - 8000) << 2));
    }
    // With saturation on, a negative index clamps to the first entry.
    aie::set_saturation(aie::saturation_mode::saturate);
    aie::accum<acc64, 16> rsat = la.compute(in);
    for (unsigned i = 0; i < 16; i++) {
        int64_t idx = (vals[i] >> 5) + 8;
        idx = idx < 0 ? 0 : idx > 15 ? 15 : idx;
        int64_t rem = vals[i] & 31;
        CHECK_EQ(rsat.lanes_[i], (int64_t)(3 * idx - 20) * rem + ((int64_t)(1000 * idx - 8000) << 2));
    }
}

AIE_TEST(linear_approx_int16_int32_and_int8)
{
    static table ab, cd, ab8, cd8;
    for (unsigned k = 0; k < 8; k++) {
        int32_t so[2] = {(int32_t)(100000 * k + 1), -(int32_t)(7 * k)};
        ab.put(8, k, so), cd.put(8, k, so);
        int8_t so8[2] = {(int8_t)(k * 5), (int8_t)(k * 16 - 64)};
        ab8.put(2, k, so8), cd8.put(2, k, so8);
    }
    using L = aie::lut<4, int32, int32>;
    aie::linear_approx<int16, L> la(L(8, ab.mem, cd.mem), 12);
    aie::vector<int16, 16> in;
    for (unsigned i = 0; i < 16; i++)
        in.lanes_[i] = (int16)(i * 2100 + 5);
    aie::accum<acc64, 16> r = la.compute(in);
    for (unsigned i = 0; i < 16; i++) {
        int64_t v = i * 2100 + 5, idx = v >> 12;
        idx = idx > 7 ? 7 : idx;
        CHECK_EQ(r.lanes_[i], (int64_t)(100000 * idx + 1) * (v & 4095) - 7 * idx);
    }
    using L8 = aie::lut<4, int8, int8>;
    aie::linear_approx<int8, L8> la8(L8(8, ab8.mem, cd8.mem), 4, 0, 3);
    aie::vector<int8, 32> in8;
    for (unsigned i = 0; i < 32; i++)
        in8.lanes_[i] = (int8)(i * 4);
    aie::accum<acc32, 32> r8 = la8.compute(in8);
    for (unsigned i = 0; i < 32; i++) {
        int32_t v = i * 4, idx = v >> 4;
        CHECK_EQ(r8.lanes_[i], (int32_t)(idx * 5) * (v & 15) + ((int32_t)(int8_t)(idx * 16 - 64) << 3));
    }
}

// bfloat16 input, (bf16 slope in a float, float offset): slope * x + offset
// in accfloat; the index floors x * 2^-step_bits (negative step bits:
// segments narrower than 1) and clamps.
AIE_TEST(linear_approx_bfloat16)
{
    static table ab, cd;
    for (unsigned k = 0; k < 16; k++) {
        uint32_t su = (uint32_t)(0x3f80 + 16 * k) << 16; // bf16 slope 1 + k/8
        float so[2];
        memcpy(&so[0], &su, 4);
        so[1] = 0.125f * (float)k - 1.0f;
        ab.put(8, k, so), cd.put(8, k, so);
    }
    using L = aie::lut<4, float, bfloat16>;
    aie::linear_approx<bfloat16, L> la(L(16, ab.mem, cd.mem), (unsigned)-1, 8);
    aie::vector<bfloat16, 16> in;
    const float vals[16] = {0.0f, 0.25f, 0.5f, 0.75f, -0.5f, -0.25f, -4.0f, -3.75f,
                            3.5f, 3.75f, 100.0f, -100.0f, 1.0f, -1.0f, 2.25f, -2.75f};
    for (unsigned i = 0; i < 16; i++)
        in.lanes_[i] = bfloat16(vals[i]);
    aie::accum<accfloat, 16> r = la.compute(in);
    for (unsigned i = 0; i < 16; i++) {
        long double x = bval(in.lanes_[i].bits_);
        long double q = floorl(x * 2) + 8;
        int idx = q < 0 ? 0 : q > 15 ? 15 : (int)q;
        long double slope = bval((uint16_t)(0x3f80 + 16 * idx)), off = 0.125L * idx - 1.0L;
        CHECK_EQ(r.lanes_[i], (float)(slope * x + off));
    }
}

// getExpBf16: e^x within 1.2% (relative) for x in [-80, 80].
AIE_TEST(lut_ops_exp)
{
    unsigned bad = 0;
    long double worst = 0;
    for (uint32_t b = 0; b < 0x10000; b += 16) {
        aie::vector<bfloat16, 16> x;
        for (unsigned i = 0; i < 16; i++)
            x.lanes_[i] = bfloat16::from_bits((uint16_t)(b + i));
        aie::accum<accfloat, 16> r = getExpBf16(x);
        for (unsigned i = 0; i < 16; i++) {
            long double xv = bval((uint16_t)(b + i));
            if (std::isnan(xv)) {
                CHECK(std::isnan(r.lanes_[i]));
                continue;
            }
            if (!(fabsl(xv) <= 80))
                continue;
            long double want = expl(xv), rel = fabsl(r.lanes_[i] - want) / want;
            worst = rel > worst ? rel : worst;
            if (rel > 0.012L && bad++ < 8)
                fprintf(stderr, "getExpBf16(%Lg) = %g, want %Lg\n", xv, (double)r.lanes_[i], want);
        }
    }
    CHECK_EQ(bad, 0u);
    // Past the table: saturated to e^128 (inf) and e^-128 (0).
    aie::vector<bfloat16, 16> x;
    for (unsigned i = 0; i < 16; i++)
        x.lanes_[i] = bfloat16(200.0f);
    x.lanes_[1] = bfloat16(-200.0f);
    x.lanes_[2] = bfloat16::from_bits(0xff80);
    aie::accum<accfloat, 16> r = getExpBf16(x);
    CHECK(std::isinf(r.lanes_[0]) && r.lanes_[0] > 0);
    CHECK_EQ(r.lanes_[1], 0.0f);
    CHECK_EQ(r.lanes_[2], 0.0f);
    fprintf(stderr, "getExpBf16: worst relative error %.4Lf over [-80, 80]\n", worst);
}

// getTanhBf16: within 0.0085 of tanh for every bfloat16 (table error below
// 0.004, plus the rounding to bfloat16); getInvBf16: 1/x correctly rounded.
AIE_TEST(lut_ops_tanh_inv)
{
    unsigned bad = 0;
    long double worst = 0;
    for (uint32_t b = 0; b < 0x10000; b += 16) {
        aie::vector<bfloat16, 16> x;
        for (unsigned i = 0; i < 16; i++)
            x.lanes_[i] = bfloat16::from_bits((uint16_t)(b + i));
        aie::vector<bfloat16, 16> r = getTanhBf16(x);
        for (unsigned i = 0; i < 16; i++) {
            long double xv = bval((uint16_t)(b + i));
            if (std::isnan(xv) || std::isinf(xv))
                continue;
            long double err = fabsl(bval(r.lanes_[i].bits_) - tanhl(xv));
            worst = err > worst ? err : worst;
            if (err > 0.0085L && bad++ < 8)
                fprintf(stderr, "getTanhBf16(%Lg) = %Lg, want %Lg\n", xv, bval(r.lanes_[i].bits_), tanhl(xv));
        }
    }
    CHECK_EQ(bad, 0u);
    fprintf(stderr, "getTanhBf16: worst absolute error %.5Lf\n", worst);
    CHECK_EQ(getInvBf16(4.0f).bits_, (uint16_t)0x3e80);
    CHECK_EQ(getInvBf16(3.0f).bits_, (uint16_t)0x3eab); // 0.333984375
    CHECK_EQ(getInvBf16(-0.0f).bits_, (uint16_t)0xff80);
    // lut_map_bf16 applies a 16-lane function over n elements.
    alignas(64) static bfloat16 in[64], out[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = bfloat16((float)i / 8 - 4);
    lut_map_bf16(in, out, 64, [](aie::vector<bfloat16, 16> v) { return getTanhBf16(v); });
    for (unsigned i = 0; i < 64; i++)
        CHECK(fabsl(bval(out[i].bits_) - tanhl((long double)i / 8 - 4)) <= 0.0085L);
}

} // namespace
