/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * shim.h - the kernel runtime shim (rt.h) as libiron carries it: the
 * object the Makefile compiled from src/compile/shim/kernel_rt.c with the
 * library, and that file's text.  Linking the object costs a kernel
 * compile nothing; compiling the text behind every kernel cost about
 * twice the kernel's own compile.  The text is the fallback for a
 * compiler or flags that cannot link an object built for the library's
 * target.
 */
#ifndef IRON_COMPILE_SHIM_H
#define IRON_COMPILE_SHIM_H

#include <stddef.h>

/* The shim's C text (NUL-terminated; *len without the NUL). */
const char *iron__shim_text(size_t *len);

/* The prebuilt object's bytes, when a kernel compiled with cflags by the
 * compiler of `identity` (iron__cc_identity: "...; target
 * x86_64-linux-gnu", the target last) can link it: the compiler reports
 * the library's target (the vendor field aside, as gcc and clang spell
 * it differently) and no flag asks for another ABI (-m32, -mx32, -m16,
 * -mabi=, -target, --target=).  NULL otherwise: compile the text. */
const void *iron__shim_object(const char *identity, const char *cflags,
                              size_t *len);

#endif
