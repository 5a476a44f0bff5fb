/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * algo.h - internals of the algorithms layer (src/algo): generic designs
 * built only from the public design builder, parameterized by a kernel.
 * The checks every algorithm shares live in check.c, so that one mistake
 * reads the same whichever algorithm reports it.
 */
#ifndef IRON_ALGO_ALGO_H
#define IRON_ALGO_ALGO_H

#include "iron/iron.h"

/* The calling convention an algorithm gives its kernel, for checking the
 * kernel parameter `f` and for messages: ntypes arguments, each a dtype,
 * pointer (object) or not (the int32 size).  `text` spells it for the
 * user: "f(const T *in, T *out, int32_t n)". */
typedef struct iron__algo_call {
    int ntypes;
    iron_dtype dtypes[4];
    int is_ptr[4];
    const char *text;
} iron__algo_call;

/* Each check records a failure on the design (sticky, named after the
 * algorithm `algo`, the argument or the parameter, expected vs got) and
 * returns its status; IRON_OK otherwise. */

/* The jit declares exactly `want` tensor arguments. */
iron_status iron__algo_check_nargs(iron_design *d, const char *algo, int want);

/* Arguments first .. last all have argument `first`'s dtype and shape. */
iron_status iron__algo_check_alike(iron_design *d, const char *algo,
                                   int first, int last);

/* The shim DMA moves whole 4-byte words: the `elems` elements of argument
 * `arg` that one fill or drain moves (a slice, or the whole tensor) must
 * be a multiple of 4 bytes.  `what` names them in the message ("each of
 * the 8 workers' slices"). */
iron_status iron__algo_check_words(iron_design *d, const char *algo, int arg,
                                   int64_t elems, const char *what);

/* The kernel parameter `f`, checked against the convention: its declared
 * argument types must be exactly call->dtypes / is_ptr.  NULL (and the
 * sticky error) otherwise. */
const iron_kernel_ref *iron__algo_kernel(iron_design *d, const char *algo,
                                         const iron__algo_call *call);

/* The `tile` parameter: 1 .. INT32_MAX (the kernel receives it as int32).
 * 0 and the sticky error otherwise. */
int64_t iron__algo_tile(iron_design *d, const char *algo);

/* Bytes one buffer of obj_bytes takes in a compute tile's data memory
 * (aligned as the placer lays buffers out). */
int64_t iron__algo_buffer_bytes(int64_t obj_bytes);
/* The bytes a worker's buffers may take in all: its compute tile's memory
 * less the worker's stack. */
int64_t iron__algo_room(const iron_design *d);
/* The largest object (in bytes) of which nbufs buffers fit the room. */
int64_t iron__algo_max_object(const iron_design *d, int nbufs);

/* "int32[4, 8]" into buf. */
const char *iron__algo_describe(const iron_design *d, int arg, char *buf,
                                size_t len);
/* The declared name of tensor argument `arg` ("" if out of range). */
const char *iron__algo_arg_name(const iron_design *d, int arg);

#endif
