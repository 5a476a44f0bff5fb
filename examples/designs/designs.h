/*
 * designs.h - the reference designs of IRON-MODEL.md §4, written as iron
 * design functions with the jit options that go with each.  The demo, the
 * end-to-end tests and the benchmarks all use these.
 */
#ifndef IRON_EXAMPLES_DESIGNS_H
#define IRON_EXAMPLES_DESIGNS_H

#include <iron/iron.h>

/* passthrough: uint8[N] -> uint8[N] through one worker that copies each
 * object.  params: "obj: int = 0" (object elements; 0 = N/4). */
int passthrough_design(iron_design *d, void *user);
extern const iron_jit_options passthrough_options;

/* vector add / sub: int32[N] a, b -> c = a OP b, objects of `tile`.
 * params: "tile: int = 16, op: str = '+'". */
int vector_op_design(iron_design *d, void *user);
extern const iron_jit_options vector_op_options;

/* parallel elementwise: int32[N] in -> out = in * scale + bias, one worker
 * per granted column, column c handling the contiguous range starting at
 * (N / cols) * c, objects of 16.  params: "scale: int = 3, bias: int = 1". */
int eltwise_parallel_design(iron_design *d, void *user);
extern const iron_jit_options eltwise_parallel_options;

#endif
