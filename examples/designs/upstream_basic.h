/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * upstream_basic.h - ports of upstream mlir-aie IRON programming examples
 * (programming_examples/basic/... and programming_examples/vision/...) as
 * iron design functions with their jit options.  Each keeps upstream's
 * structure: FIFO topology, depths, object types, workers, links, layout
 * transforms, access patterns and problem size; kernels are plain scalar C
 * with upstream's arithmetic, and a core function of upstream's is a
 * described core body (iron_body_*) calling them, so every design can be
 * exported as MLIR-AIE.  Every design's file names its upstream path
 * and any difference that had to stay.  tests/e2e/test_upstream_basic.c
 * runs each against a C reference computed as upstream's test does.
 */
#ifndef IRON_EXAMPLES_UPSTREAM_BASIC_H
#define IRON_EXAMPLES_UPSTREAM_BASIC_H

#include <iron/iron.h>

/* basic/passthrough_dmas: int32[N] -> int32[N] with no worker: 1024-element
 * lines go shim -> memtile (a forward) -> shim.  The second argument is
 * upstream's unused buffer.  N a multiple of 1024 (upstream: 4096). */
int passthrough_dmas_design(iron_design *d, void *user);
extern const iron_jit_options passthrough_dmas_options;

/* basic/dma_transpose: int32 A[M, K] -> C holding A transposed (C viewed
 * as K x M: C[j * M + i] = A[i * K + j]).  One M x K object, read from the
 * host column by column (the column-major simple tiler pattern), forwarded
 * through a compute tile with no worker.  The second argument is unused.
 * Upstream's defaults: M = K = 64. */
int dma_transpose_design(iron_design *d, void *user);
extern const iron_jit_options dma_transpose_options;

/* vision/vision_passthrough: an int8[W * H] image copied line by line
 * (uint8[W] objects) by one worker.  The second argument is unused.
 * params: "width: int = 1920, height: int = 1080" (upstream's Makefile). */
int vision_passthrough_design(iron_design *d, void *user);
extern const iron_jit_options vision_passthrough_options;

/* vision/color_threshold: an int8[W * H] buffer read as RGBA lines of 4W
 * uint8 (W * H / (4W) of them); each line is split into four W-byte
 * pieces at 0, W, 2W, 3W, thresholded by four workers that read
 * threshold / max / type from their run-time parameter buffers after a
 * barrier, and joined back.  The second argument (int32[32]) is unused.
 * params: "width: int = 1920, height: int = 1080, threshold_value: int =
 * 50, max_value: int = 255, threshold_type: int = 0" -- the last three
 * are the values the runtime sequence writes into every RTP (upstream's
 * constants 50, 255, 0; type 0 binary, 1 binary inverted, 2 truncate,
 * 3 to zero, 4 to zero inverted). */
int color_threshold_design(iron_design *d, void *user);
extern const iron_jit_options color_threshold_options;

/* basic/vector_reduce_max, single_column_designs/vector_reduce_max_shared:
 * T[N] -> T[4 / sizeof(T)] with out[0] = max(in), T int32 or bfloat16.
 * 2048-element objects split four ways on a memtile; four workers reduce
 * their 512-element pieces, and worker 1 gathers the other three partials
 * (its memory neighbours' through shared memory) into the final result.
 * N a multiple of 2048 (upstream: 524288 bytes). */
int vector_reduce_max_design(iron_design *d, void *user);
extern const iron_jit_options vector_reduce_max_options;

#endif
