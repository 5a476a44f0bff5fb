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

/* One argument value passed to a kernel through the uniform wrapper. */
typedef union iron__kval {
    void *p;
    int64_t i;
    double f;
    void (*fp)(void);          /* a kernel passed to a core body */
} iron__kval;

/* The uniform entry: args[k] is the k-th declared argument. */
typedef void (*iron__kernel_fn)(const iron__kval *args);

/* The functions a core body calls, handed to its object after loading
 * (iron__kobj_bind_core).  Handles are opaque to the compiled code. */
typedef struct iron__core_api {
    void **(*acquire)(void *fifo, int n);
    void (*release)(void *fifo, int n);
    void (*barrier_wait)(void *barrier, int value);
    void (*barrier_release)(void *barrier, int value);
} iron__core_api;

typedef struct iron__kobj iron__kobj;   /* a loaded kernel object */

#endif
