// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// test_env.cpp - the compiler environment kernels expect (env.hpp): the
// hints compile away without changing results, `restrict` works in C++,
// and a kernel helper header that defines the AIE_* hints itself (as
// upstream's kernel utility header does for a host compiler) can be seen
// before or after ours without a diagnostic (this file is built -Werror).
#include "aieapi_test.hpp"

// The kernels' helper header's host branch, spelled as it spells it: each
// line must be an identical redefinition of env.hpp's.
#define AIE_LOOP_UNROLL(x)
#define AIE_LOOP_UNROLL_FULL
#define AIE_LOOP_NO_UNROLL
#define AIE_LOOP_MIN_ITERATION_COUNT(x)
#define AIE_LOOP_MAX_ITERATION_COUNT(x)
#define AIE_LOOP_RANGE(a, ...)
#define AIE_PREPARE_FOR_PIPELINING
#define AIE_NO_PREPARE_FOR_PIPELINING
#define AIE_MODULO_SCHEDULING_BUDGET_RATIO(x)
#define AIE_KEEP_SW_LOOP
#define AIE_PEEL_PIPELINED_LOOP(x)
#define AIE_KEEP_FREE_FOR_PIPELINING(x)
#define AIE_ALLOCATE(x)
#define AIE_NO_HW_LOOP
#define AIE_TRY_INITIATION_INTERVAL(x)
#define AIE_PREPARE_FOR_POSTPIPELINING
#define AIE_LOOP_FLATTEN

// ...and env.hpp seen again after it (its #pragma once aside, the macros
// must not clash in this order either).
#include <aie_api/detail/env.hpp>

namespace {

// A scalar kernel in upstream's style: restrict pointers, trace events,
// every loop hint.
int32_t sum_kernel(const int32_t *restrict in, int32_t *restrict out, int n)
{
    event0();
    int32_t s = 0;
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(4)
    AIE_LOOP_RANGE(4, 64)
    AIE_LOOP_UNROLL(2)
    for (int i = 0; i < n; i++)
        chess_prepare_for_pipelining chess_loop_range(4, ) chess_unroll_loop(2) {
            s += chess_copy(in[i]);
            out[i] = s;
        }
    AIE_LOOP_FLATTEN
    for (int i = 0; i < 1; i++)
        chess_flatten_loop {}
    event1();
    return s;
}

} // namespace

AIE_TEST(env_hints_do_not_change_results)
{
    int32_t in[16], out[16], expect = 0;
    for (int i = 0; i < 16; i++)
        in[i] = 3 * i - 7;
    int32_t got = sum_kernel(in, out, 16);
    for (int i = 0; i < 16; i++) {
        expect += 3 * i - 7;
        CHECK_EQ(out[i], expect);
    }
    CHECK_EQ(got, expect);
}

AIE_TEST(env_dm_resource_qualifiers_are_plain_pointers)
{
    alignas(aie::vector_decl_align) int16_t table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int16_t __aie_dm_resource_a *a = (int16_t __aie_dm_resource_a *)table;
    int16_t __aie_dm_resource_b *b = (int16_t __aie_dm_resource_b *)table + 4;
    CHECK_EQ(a[1] + b[1], 2 + 6);
    CHECK(reinterpret_cast<uintptr_t>(table) % aie::vector_decl_align == 0);
    int x chess_storage(DM_bankA) = 5;
    CHECK_EQ(x, 5);
}

AIE_TEST(env_restrict_is_gnu_restrict)
{
    CHECK((std::is_same_v<int *restrict, int *__restrict>));
}

AIE_TEST(env_assert_is_a_kernel_fault)
{
    int n = 3;
    assert(n == 3); // holds: nothing happens
    CHECK_FAULT(assert(n > 4), "assert(n > 4) failed");
}
