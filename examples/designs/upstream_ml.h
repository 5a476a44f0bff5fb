/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * upstream_ml.h - ports of upstream mlir-aie IRON programming examples
 * (programming_examples/ml/..., basic/..., vision/...) as iron design
 * functions with the jit options that go with each.  Each keeps upstream's
 * structure: FIFO topology, depths, object types, workers, links, layout
 * transforms, access patterns and problem size; the kernels are plain
 * scalar C doing the upstream kernels' arithmetic, called from core bodies
 * described op by op (iron_body_*) as upstream's core functions, so every
 * design can be exported as MLIR-AIE.  tests/e2e/
 * test_upstream_ml.c runs them against C references computed as
 * upstream's tests do.
 */
#ifndef IRON_EXAMPLES_UPSTREAM_ML_H
#define IRON_EXAMPLES_UPSTREAM_ML_H

#include <iron/iron.h>

/* ml/relu (relu.py): bfloat16[N] in -> out = max(in, 0), N = 16384 by
 * upstream's Makefile.  cols x chans workers (4 x 2), each with its own
 * in/out FIFOs of bfloat16[1024] objects; worker (i, j) streams the chunk
 * at offset chunk * (i * chans + j), chunk = N / cols / chans.  Every fill
 * and every drain is in one task group.
 * params: "cols: int = 4, chans: int = 2". */
int upstream_relu_design(iron_design *d, void *user);
extern const iron_jit_options upstream_relu_options;

/* ml/eltwise_add (eltwise_add.py, 2-core version): bfloat16 a[N], b[N] ->
 * c = a + b (float add, rounded to bfloat16 to nearest even), N = 65536.
 * inA / inB carry bfloat16[2048] objects split on a memtile at [0, 1024]
 * to two workers; their bfloat16[1024] results are joined the same way
 * into outC. */
int upstream_eltwise_add_design(iron_design *d, void *user);
extern const iron_jit_options upstream_eltwise_add_options;

/* basic/row_wise_bias_add (row_wise_bias_add.py): float32 in[M, N] and
 * bias[N] -> out = in + bias[col], M = 768, N = 2304, tiles m x n =
 * 96 x 32.  One worker: per column strip it acquires the strip's bias once
 * and runs the kernel on the M/m tiles down the strip.  The input and
 * output move with upstream's group_tiler pattern (tiles column-major).
 * params: "m: int = 96, n: int = 32". */
int upstream_row_wise_bias_add_design(iron_design *d, void *user);
extern const iron_jit_options upstream_row_wise_bias_add_options;

/* vision/edge_detect (edge_detect.py): an RGBA image int8[H * W * 4]
 * (1920 x 1080 by upstream's Makefile), an unused int32[16, 16] and the
 * RGBA output int8[H * W * 4].  Four workers, one line at a time:
 * rgba2gray -> filter2d (3x3 Laplacian, sliding window of 3 lines, border
 * lines replicated) -> threshold (> 10 -> 255) -> gray2rgba + addWeighted
 * with the original line (forwarded through a memtile, depth 7).
 * params: "width: int = 1920, height: int = 1080". */
int upstream_edge_detect_design(iron_design *d, void *user);
extern const iron_jit_options upstream_edge_detect_options;

#endif
