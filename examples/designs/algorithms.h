/*
 * algorithms.h - generic designs that take their kernel as a compile-time
 * parameter, as upstream IRON's algorithms module does: one design, any
 * elementwise operation; each distinct kernel is its own specialization.
 */
#ifndef IRON_EXAMPLES_ALGORITHMS_H
#define IRON_EXAMPLES_ALGORITHMS_H

#include <iron/iron.h>

/* transform: y = f(x) elementwise over a tensor of any dtype and shape,
 * streamed in objects of `tile` elements through one worker per granted
 * column (each column a contiguous slice).  The kernel parameter `f` has
 * the signature  void f(const T *x, T *y, int32_t n)  with arg_types
 * "T*, T*, int32" for the tensors' dtype T. */
int transform_design(iron_design *d, void *user);
extern const iron_jit_options transform_options;

/* transform2: z = f(x, y) elementwise; f is
 * void f(const T *x, const T *y, T *z, int32_t n). */
int transform2_design(iron_design *d, void *user);
extern const iron_jit_options transform2_options;

#endif
