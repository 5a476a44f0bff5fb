/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kabi.h - the kernel calling convention (compile layer): how a driver
 * calls a compiled kernel through its uniform wrapper and what a core body
 * calls back.  The one part of compile/ a driver sees (through
 * program/program.h); compiling and loading stay in compile.h.
 */
#ifndef IRON_COMPILE_KABI_H
#define IRON_COMPILE_KABI_H

#include <stdint.h>

#include "iron/iron_driver.h"

/* The convention is public (include/iron/iron_driver.h: drivers outside
 * the library call kernels too); these are its names inside.
 * One argument value passed to a kernel through the uniform wrapper; a
 * kernel passed to a core body is fp. */
typedef iron_kernel_value iron__kval;

/* The uniform entry: args[k] is the k-th declared argument. */
typedef iron_kernel_entry iron__kernel_fn;

/* The functions a core body calls, handed to its object after loading
 * (iron__kobj_bind_core).  Handles are opaque to the compiled code. */
typedef iron_core_api iron__core_api;

typedef struct iron__kobj iron__kobj;   /* a loaded kernel object */

#endif
