/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * wrapper.h - the C or C++ text compiled for a kernel: its defines, the
 * user's source under its own #line name, then the uniform entry
 * wrapper.
 */
#ifndef IRON_COMPILE_WRAPPER_H
#define IRON_COMPILE_WRAPPER_H

#include "compile/compile.h"
#include "core/core.h"

/* The symbol the loader looks up in every kernel object. */
#define IRON__KWRAP_SYMBOL "iron__entry_wrapper"

/* Most pointer arguments for which const-qualified definitions are
 * accepted (the check lists 2^n signatures); beyond it the declared types
 * must match exactly. */
#define IRON__KWRAP_CONST_MAX 8


/*
 * Appends to *text the translation unit for k:
 *
 *   #include <stdint.h>
 *   #line 1 "<entry>-defines"          one #define per define
 *   #line 1 "<entry>.c"                the source, with its own line numbers
 *                                      (named by its path when read from a
 *                                      file)
 *   #line 1 "<entry>-declared-signature"
 *                                      a check that the entry's definition
 *                                      has the declared types (a mismatch is
 *                                      a "conflicting types" error), then
 *                                      void iron__entry_wrapper(const
 *                                      iron__kval *a) calling the entry.
 *   #line 1 "<entry>-runtime-shim"     only with with_shim: the kernel
 *                                      runtime shim's text (shim.h), for a
 *                                      compiler that cannot link the
 *                                      shim's object instead.
 *
 * A C++ kernel (k->is_cxx) gets the same parts as C++: its source named
 * "<entry>.cc", the check as a static_assert over templates, and the
 * wrapper, the raw entry and the shim's text inside extern "C" { ... }.
 *
 * The wrapper reads a[k].p for pointers, a[k].i for integer scalars and
 * a[k].f for float32, float64 and bfloat16 scalars (bfloat16 is rounded to
 * nearest even and passed as its uint16_t bits).  Pointed-to types may be
 * const-qualified in the source.
 *
 * k must already be checked (entry an identifier, args valid).  Define
 * names that are not identifiers and values with line breaks are
 * IRON_EINVAL naming the define; allocation failure is IRON_ENOMEM.  Text
 * may be partly appended on failure.
 */
iron_status iron__kwrap_generate(const iron__kernel_src *k, int with_shim,
                                 iron__str *text);

#endif
