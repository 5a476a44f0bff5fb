// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// aieapi_test.hpp - the harness of the host AIE API's unit tests.  Each
// tests/aieapi/*.cpp is one program (built per arch and compiler by the
// Makefile, run by tests/unit/test_aieapi.c): AIE_TEST(name) { ... }
// registers a test; host_stub.cpp holds main(), the control words and the
// fault hook.  Checks print both operands and go on (a test reports every
// failing lane); the program ends with "N passed, N failed" and fails if
// any check did.  Expected values are computed by plain scalar code in
// the test, never by the header under test.
#pragma once

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <csetjmp>
#include <type_traits>

#include <aie_api/aie.hpp>

namespace aieapi_test {

using fn = void (*)();
void add(const char *name, fn f);
void fail_check();
// Fault capture (host_stub.cpp): arm() before a call expected to fault.
extern jmp_buf fault_jmp;
extern bool fault_armed;
extern char fault_what[256];
extern char fault_file[256];
extern unsigned fault_line;
void reset_modes();

struct reg {
    reg(const char *name, fn f) { add(name, f); }
};

// Operand printing: integers as integers, floats with their bits.
template <typename T> inline void show(char *buf, size_t n, const T &v)
{
    if constexpr (std::is_same_v<T, bfloat16>)
        snprintf(buf, n, "bf16 0x%04x (%.9g)", v.bits_, (double)(float)v);
    else if constexpr (std::is_same_v<T, float>) {
        uint32_t u;
        memcpy(&u, &v, 4);
        snprintf(buf, n, "0x%08x (%.9g)", u, (double)v);
    } else if constexpr (std::is_same_v<T, double>)
        snprintf(buf, n, "%.17g", v);
    else if constexpr (std::is_same_v<T, bool>)
        snprintf(buf, n, "%s", v ? "true" : "false");
    else if constexpr (std::is_signed_v<T>)
        snprintf(buf, n, "%lld", (long long)v);
    else
        snprintf(buf, n, "%llu", (unsigned long long)v);
}

template <typename T> inline uint64_t bits_of(const T &v)
{
    uint64_t u = 0;
    memcpy(&u, &v, sizeof v);
    return u;
}

// Equal as values of the same kind; floats and bfloat16 compare by bits
// (so NaN == NaN with the same payload, and -0 != +0).
template <typename A, typename B>
inline bool same(const A &a, const B &b)
{
    if constexpr (std::is_same_v<A, B> && (std::is_floating_point_v<A> || std::is_same_v<A, bfloat16>))
        return bits_of(a) == bits_of(b);
    else if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
        return (std::is_signed_v<A> ? (__int128)(long long)a : (__int128)(unsigned long long)a) ==
               (std::is_signed_v<B> ? (__int128)(long long)b : (__int128)(unsigned long long)b);
    else
        return a == b;
}

template <typename A, typename B>
inline void check_eq(const A &a, const B &b, const char *ea, const char *eb,
                     const char *file, int line)
{
    if (same(a, b))
        return;
    char sa[96], sb[96];
    show(sa, sizeof sa, a);
    show(sb, sizeof sb, b);
    fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s): %s vs %s\n", file, line, ea, eb, sa, sb);
    fail_check();
}

} // namespace aieapi_test

// fp32 values by their bits and back, for expected values written as bits.
inline float f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
inline uint32_t u_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

#define AIE_TEST(name)                                                        \
    static void aie_test_##name();                                            \
    static aieapi_test::reg aie_test_reg_##name(#name, aie_test_##name);      \
    static void aie_test_##name()

#define CHECK_EQ(a, b) aieapi_test::check_eq((a), (b), #a, #b, __FILE__, __LINE__)
#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            aieapi_test::fail_check();                                        \
        }                                                                     \
    } while (0)
// Lane by lane: vector/accum x against an array or a function of the lane.
#define CHECK_LANES(x, expect_of_i)                                           \
    do {                                                                      \
        for (unsigned i = 0; i < (x).size(); i++)                             \
            aieapi_test::check_eq((x).lanes_[i], (expect_of_i), #x "[i]",     \
                                  #expect_of_i, __FILE__, __LINE__);          \
    } while (0)

// stmt must fault with a message containing `what`; with at_here, the
// fault must name this file and line (the kernel's, not the header's).
#define CHECK_FAULT_AT_(stmt, what, at_here)                                  \
    do {                                                                      \
        aieapi_test::fault_armed = true;                                      \
        if (setjmp(aieapi_test::fault_jmp) == 0) {                            \
            stmt;                                                             \
            aieapi_test::fault_armed = false;                                 \
            fprintf(stderr, "%s:%d: %s did not fault\n", __FILE__, __LINE__, #stmt); \
            aieapi_test::fail_check();                                        \
        } else {                                                              \
            aieapi_test::fault_armed = false;                                 \
            CHECK(strstr(aieapi_test::fault_what, (what)) != nullptr);        \
            if (at_here) {                                                    \
                CHECK(strcmp(aieapi_test::fault_file, __FILE__) == 0);        \
                CHECK_EQ(aieapi_test::fault_line, (unsigned)__LINE__);        \
            }                                                                 \
        }                                                                     \
    } while (0)
#define CHECK_FAULT_ANYWHERE(stmt, what) CHECK_FAULT_AT_(stmt, what, false)
#define CHECK_FAULT(stmt, what) CHECK_FAULT_AT_(stmt, what, true)
