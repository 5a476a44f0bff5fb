// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_permute.cpp - concat, filter, interleave, the shuffles, reverse and
// transpose, with index arithmetic written out in the test.
#include "aieapi_test.hpp"

namespace {
aie::vector<int16, 16> iota16(int base)
{
    aie::vector<int16, 16> v;
    for (unsigned i = 0; i < 16; i++)
        v[i] = (int16)(base + (int)i);
    return v;
}
} // namespace

AIE_TEST(concat_vectors_and_accums)
{
    auto a = iota16(0), b = iota16(100);
    auto c = aie::concat(a, b);
    CHECK_EQ(c.size(), 32u);
    CHECK_LANES(c, i < 16 ? (int)i : 100 + (int)i - 16);
    auto c4 = aie::concat(a.extract<4>(0), a.extract<4>(1), b.extract<4>(0), b.extract<4>(1));
    CHECK_LANES(c4, i < 8 ? (int)i : 100 + (int)i - 8);
    aie::accum<acc32, 16> x(a), y(b);
    auto ca = aie::concat(x, y);
    CHECK_EQ(ca.size(), 32u);
    CHECK_LANES(ca, i < 16 ? (int)i : 100 + (int)i - 16);
}

AIE_TEST(filter_even_odd)
{
    auto v = iota16(0);
    for (unsigned step : {1u, 2u, 4u, 8u}) {
        auto e = aie::filter_even(v, step), o = aie::filter_odd(v, step);
        for (unsigned i = 0; i < 8; i++) {
            unsigned chunk = i / step, k = i % step;
            CHECK_EQ(e[i], (int)(2 * chunk * step + k));
            CHECK_EQ(o[i], (int)((2 * chunk + 1) * step + k));
        }
    }
    CHECK_FAULT((void)aie::filter_even(v, 3), "aie::filter_even");
    CHECK_FAULT((void)aie::filter_odd(v, 16), "aie::filter_odd");
}

AIE_TEST(interleave_zip_unzip)
{
    auto a = iota16(0), b = iota16(100);
    for (unsigned step : {1u, 2u, 4u, 16u}) {
        auto [lo, hi] = aie::interleave_zip(a, b, step);
        int seq[32];
        unsigned n = 0;
        for (unsigned c = 0; c < 16 / step; c++) {
            for (unsigned k = 0; k < step; k++)
                seq[n++] = a[c * step + k];
            for (unsigned k = 0; k < step; k++)
                seq[n++] = b[c * step + k];
        }
        CHECK_LANES(lo, seq[i]);
        CHECK_LANES(hi, seq[16 + i]);
        auto [ev, od] = aie::interleave_unzip(lo, hi, step);
        CHECK_LANES(ev, a[i]);
        CHECK_LANES(od, b[i]);
    }
    CHECK_FAULT((void)aie::interleave_zip(a, b, 5), "aie::interleave_zip");
    CHECK_FAULT((void)aie::interleave_unzip(a, b, 0), "aie::interleave_unzip");
}

AIE_TEST(shuffles)
{
    auto v = iota16(1), f = iota16(100);
    for (unsigned n : {0u, 1u, 5u, 16u}) {
        auto up = aie::shuffle_up(v, n);
        CHECK_LANES(up, i >= n ? v[i - n] : 0);
        auto dn = aie::shuffle_down(v, n);
        CHECK_LANES(dn, i + n < 16 ? v[i + n] : 0);
        auto uf = aie::shuffle_up_fill(v, f, n);
        CHECK_LANES(uf, i >= n ? v[i - n] : f[i + 16 - n]);
        auto df = aie::shuffle_down_fill(v, f, n);
        CHECK_LANES(df, i + n < 16 ? v[i + n] : f[i + n - 16]);
        auto ur = aie::shuffle_up_replicate(v, n);
        CHECK_LANES(ur, i >= n ? v[i - n] : v[0]);
        auto dr = aie::shuffle_down_replicate(v, n);
        CHECK_LANES(dr, i + n < 16 ? v[i + n] : v[15]);
    }
    for (unsigned n : {0u, 3u, 17u}) {
        auto ro = aie::shuffle_up_rotate(v, n);
        CHECK_LANES(ro, v[(i + 16 - n % 16) % 16]);
        auto rd = aie::shuffle_down_rotate(v, n);
        CHECK_LANES(rd, v[(i + n) % 16]);
    }
    CHECK_FAULT((void)aie::shuffle_up(v, 17), "aie::shuffle_up");
    CHECK_FAULT((void)aie::shuffle_down_fill(v, f, 40), "aie::shuffle_down_fill");
    auto r = aie::reverse(v);
    CHECK_LANES(r, v[15 - i]);
}

AIE_TEST(transpose_shapes)
{
    auto v = iota16(0);
    for (unsigned rows : {1u, 2u, 4u, 8u, 16u}) {
        unsigned cols = 16 / rows;
        auto t = aie::transpose(v, rows, cols);
        for (unsigned r = 0; r < rows; r++)
            for (unsigned c = 0; c < cols; c++)
                CHECK_EQ(t[c * rows + r], v[r * cols + c]);
    }
    CHECK_FAULT((void)aie::transpose(v, 3, 5), "aie::transpose");
}
