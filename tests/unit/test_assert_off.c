/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_assert_off.c - IRON__ASSERT compiled out (the default build, the
 * one installed): the condition is type-checked but never evaluated, and
 * a broken invariant costs nothing and says nothing.  test_assert.c has
 * the compiled-in form.
 */
#undef IRON_ASSERTS
#include "core/core.h"
#include "test.h"

TEST(assert_compiled_out_evaluates_nothing)
{
    int evaluated = 0;
    IRON__ASSERT((evaluated = 1) == 1, "an assignment, to see it run");
    IRON__ASSERT(evaluated == 42, "broken, and silent");
    ASSERT_EQ(evaluated, 0);
}
