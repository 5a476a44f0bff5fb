/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kbuild.h - a kernel source description for the compile layer's tests
 * (test_compile.c, test_compile_cxx.c): the entry, the source and its
 * declared types, compiled with iron__kernel_compile.
 */
#ifndef IRON_TESTS_KBUILD_H
#define IRON_TESTS_KBUILD_H

#include <string.h>

#include "compile/compile.h"
#include "test.h"

typedef struct kbuild {
    iron__kernel_src src;
    iron__ktype types[16];
} kbuild;

/* Fills b for entry/source/decl; the declaration must parse. */
static inline void kb_init(kbuild *b, const char *entry, const char *source,
                           const char *decl)
{
    memset(b, 0, sizeof *b);
    ASSERT_OK(iron__ktypes_parse(decl, b->types, 16, &b->src.nargs));
    b->src.entry = entry;
    b->src.source = source;
    b->src.args = b->types;
}

/* Compiles b; the test fails with the compiler's message otherwise. */
static inline iron__kobj *kb_compile(const kbuild *b)
{
    iron__kobj *o = NULL;
    ASSERT_OK(iron__kernel_compile(&b->src, &o));
    ASSERT(o != NULL);
    ASSERT(iron__kobj_entry(o) != NULL);
    return o;
}

#endif
