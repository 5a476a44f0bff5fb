/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_kstate.c - telling kernels with state of their own (which need an
 * instance per core) from stateless ones (which can share one).
 */
#include "compile/compile.h"
#include "core/core.h"
#include "test.h"

static int state_of(const char *source, int is_core, const char *types)
{
    iron__ktype t[4];
    int n = 0;
    ASSERT_OK(iron__ktypes_parse(types, t, 4, &n));
    iron__kernel_src k = { .label = "k", .entry = "k", .source = source,
                           .nargs = n, .args = t, .is_core = is_core };
    iron__kobj *o;
    ASSERT_OK(iron__kernel_compile(&k, &o));
    int s = iron__kobj_has_state(o);
    iron__kobj_free(o);
    return s;
}

TEST(kstate_tells_kernels_with_state_apart)
{
    ASSERT_EQ(state_of("void k(int *a) { a[0]++; }", 0, "int32*"), 0);
    ASSERT_EQ(state_of("static const int t[4] = { 1, 2, 3, 4 };\n"
                       "void k(int *a) { a[0] = t[a[1] & 3]; }",
                       0, "int32*"),
              0);
    ASSERT_EQ(state_of("static int c;\nvoid k(int *a) { a[0] = c++; }", 0,
                       "int32*"),
              1);
    ASSERT_EQ(state_of("void k(int *a) { static int c; a[0] = c++; }", 0,
                       "int32*"),
              1);
    ASSERT_EQ(state_of("int total;\nvoid k(int *a) { total += a[0]; }", 0,
                       "int32*"),
              1);
    ASSERT_EQ(state_of("static _Thread_local int c;\n"
                       "void k(int *a) { a[0] = c++; }",
                       0, "int32*"),
              1);
    /* A core body's own API pointer is set alike in every instance. */
    ASSERT_EQ(state_of("void k(iron_objfifo *f) { iron_release(f, 0); }", 1,
                       "fifo"),
              0);
    ASSERT_EQ(state_of("static int n;\n"
                       "void k(iron_objfifo *f) { iron_release(f, n++ & 0); }",
                       1, "fifo"),
              1);
}
