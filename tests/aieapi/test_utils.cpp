// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_utils.cpp - <aie_api/utils.hpp>: what aie::print / print_fixed /
// print_matrix write to stdout (captured through a temporary file), the
// print_matrix fault, and the unroll helpers' index sequences.
#include "aieapi_test.hpp"

#include <aie_api/utils.hpp>

#include <unistd.h>

namespace {

// Runs f with stdout sent to a temporary file; returns what it printed.
template <typename F> void capture(char *out, size_t n, F f)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    f();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(tmp);
    size_t got = fread(out, 1, n - 1, tmp);
    out[got] = '\0';
    fclose(tmp);
}

#define CHECK_STR(got, want)                                                  \
    do {                                                                      \
        if (strcmp((got), (want)) != 0) {                                     \
            fprintf(stderr, "%s:%d: printed \"%s\", expected \"%s\"\n",       \
                    __FILE__, __LINE__, (got), (want));                       \
            aieapi_test::fail_check();                                        \
        }                                                                     \
    } while (0)

} // namespace

AIE_TEST(print_vectors_accums_masks)
{
    char buf[512];
    aie::vector<int16, 4> v(-3, 0, 7, 32767);
    capture(buf, sizeof buf, [&] { aie::print(v); });
    CHECK_STR(buf, "-3 0 7 32767 ");
    capture(buf, sizeof buf, [&] { aie::print(v, true, "v: "); });
    CHECK_STR(buf, "v: -3 0 7 32767 \n");
    aie::vector<uint8, 4> u(255, 1);
    capture(buf, sizeof buf, [&] { aie::print(u, true); });
    CHECK_STR(buf, "255 1 0 0 \n");
    aie::vector<bfloat16, 4> b(bfloat16(1.5f), bfloat16(-2.0f));
    capture(buf, sizeof buf, [&] { aie::print(b); });
    CHECK_STR(buf, "1.500000 -2.000000 0.000000 0.000000 ");
    aie::accum<acc32, 4> a32;
    a32.set(-1, 0);
    a32.set(0x1234, 1);
    capture(buf, sizeof buf, [&] { aie::print(a32); });
    CHECK_STR(buf, "0xffffffff 0x00001234 0x00000000 0x00000000 ");
    aie::accum<acc48, 2> a48;
    a48.set(-2, 0);
    a48.set(0x123456789aLL, 1);
    capture(buf, sizeof buf, [&] { aie::print(a48, true); });
    CHECK_STR(buf, "0xfffffffffffffffe 0x000000123456789a \n");
    aie::accum<accfloat, 2> af;
    af.set(0.25f, 1);
    capture(buf, sizeof buf, [&] { aie::print(af); });
    CHECK_STR(buf, "0.000000 0.250000 ");
    aie::mask<4> m;
    m.set(1);
    m.set(3);
    capture(buf, sizeof buf, [&] { aie::print(m, true, "m="); });
    CHECK_STR(buf, "m=0 1 0 1 \n");
    aie::vector<int32, 2> fx(3, -1);
    capture(buf, sizeof buf, [&] { aie::print_fixed(fx, -2); });
    CHECK_STR(buf, "0.750000 -0.250000 ");
}

AIE_TEST(print_matrix_layout_and_fault)
{
    char buf[512];
    aie::vector<int32, 8> v(0, 1, 2, 3, 4, 5, 6, 7);
    capture(buf, sizeof buf, [&] { aie::print_matrix(v, 4, "M = "); });
    CHECK_STR(buf, "M = 0 1 2 3 \n    4 5 6 7 \n");
    capture(buf, sizeof buf, [&] { aie::print_matrix(v, 2); });
    CHECK_STR(buf, "0 1 \n 2 3 \n 4 5 \n 6 7 \n"); // an empty indent is one column
    CHECK_FAULT(aie::print_matrix(v, 3), "aie::print_matrix");
    CHECK_FAULT(aie::print_matrix(v, 16), "power of two");
}

AIE_TEST(unroll_helpers)
{
    int seen[16] = {}, n = 0;
    aie::unroll_for<int, 2, 11, 3>([&](int i) { seen[n++] = i; });
    CHECK_EQ(n, 3);
    CHECK_EQ(seen[0], 2);
    CHECK_EQ(seen[1], 5);
    CHECK_EQ(seen[2], 8);
    n = 0;
    aie::unroll_times<4>([&](unsigned i) { seen[n++] = (int)i * 10; });
    CHECK_EQ(n, 4);
    CHECK_EQ(seen[3], 30);
    int calls = 0;
    aie::unroll_times<5>([&]() { calls++; });
    CHECK_EQ(calls, 5);
    n = 0;
    aie::unroll_times_2d<2, 3>([&](unsigned y, unsigned x) { seen[n++] = (int)(y * 10 + x); });
    CHECK_EQ(n, 6);
    CHECK_EQ(seen[0], 0);
    CHECK_EQ(seen[2], 2);
    CHECK_EQ(seen[3], 10);
    CHECK_EQ(seen[5], 12);
    n = 0;
    aie::unroll_for_2d<int, 0, 4, 2, 1, 3, 1>([&](int y, int x) { seen[n++] = y * 10 + x; });
    CHECK_EQ(n, 4);
    CHECK_EQ(seen[0], 1);
    CHECK_EQ(seen[1], 2);
    CHECK_EQ(seen[2], 21);
    CHECK_EQ(seen[3], 22);
}
