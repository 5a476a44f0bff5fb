/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * upstream_matmul.h - ports of upstream mlir-aie's IRON matrix
 * multiplication examples (programming_examples/basic/
 * matrix_multiplication/...) as iron design functions with their jit
 * options.  Each keeps upstream's structure: FIFO names, topology, depths
 * and object types, link placements, layout transforms, workers and their
 * tiles, the core body (described op by op, as upstream's core_fn) with
 * the zero and matmul kernels it calls, the tilers' access
 * patterns and the runtime sequence with its task groups.  The kernels are
 * plain scalar C doing upstream's aie_kernels/aie2/mm.cc arithmetic on
 * its blocked layouts.  Every design's file names its upstream path and the
 * differences that had to stay.  tests/e2e/test_upstream_matmul.c runs
 * each against a C reference computed as upstream's test does.
 *
 * Both designs take int16 A[M, K] and B[K, N] (row-major) and write C[M, N]
 * as int16 or int32 (the C tensor's dtype picks upstream's --dtype_out,
 * i16 or i32, and with it the kernels matmul_i16_i16 / matmul_i16_i32 and
 * zero_i16 / zero_i32).  The device picks upstream's --dev: an npu1 device
 * is upstream's "npu" (AIE2, micro-tiles r x s x t = 4 x 4 x 4 for i16),
 * an npu2 device is "npu2" (AIE2P, 4 x 4 x 8).  The sums wrap around
 * modulo 2^16 or 2^32, as upstream's scalar kernel and its test's
 * reference (common.h matmul with DTYPE_ACC = DTYPE_OUT) compute them.
 */
#ifndef IRON_EXAMPLES_UPSTREAM_MATMUL_H
#define IRON_EXAMPLES_UPSTREAM_MATMUL_H

#include <iron/iron.h>

/* basic/matrix_multiplication/whole_array (whole_array_iron.py):
 * n_aie_cols x 4 cores, core (row, col) pinned on tile (col, 2 + row).
 * A_L3L2_i is split on memtile (i, 1) into the rows' A_L2L1_row (m x k,
 * re-laid into r x s blocks), B_L3L2_col is forwarded on memtile (col, 1)
 * into B_L2L1_col (k x n in s x t blocks), and the 4 cores' C_L1L2_col_row
 * (m x n in r x t blocks) are joined on memtile (col, 1) into C_L2L3_col,
 * whose producer un-blocks each m x n tile for the shim.
 * params: "m: int = 64, k: int = 64, n: int = 32, n_aie_cols: int = 4"
 * (upstream's argparse defaults; M = K = N = 512 by its defaults too). */
int upstream_matmul_whole_design(iron_design *d, void *user);
extern const iron_jit_options upstream_matmul_whole_options;

/* basic/matrix_multiplication/single_core (single_core_iron.py): one core
 * (placed by the placer).  inA / inB (m x k, k x n) are forwarded through
 * a memtile into memA / memB re-laid into r x s / s x t blocks; the core's
 * memC (m x n in r x t blocks) is forwarded into outC, un-blocked on the
 * way.  The runtime sequence runs two rows of C tiles per task group and
 * keeps two groups open at once (ping-pong).
 * params: "m: int = 64, k: int = 64, n: int = 32" (upstream's argparse
 * defaults; M = K = N = 256 and --dtype_out i32 by its defaults). */
int upstream_matmul_single_design(iron_design *d, void *user);
extern const iron_jit_options upstream_matmul_single_options;

/* Shared by the two designs (matmul_whole_upstream.c): upstream's
 * microkernel_mac_dim_map for int16 input on the design's device (r, s, t
 * of the AIE's matrix-multiply instruction), and the two kernels of
 * aie_kernels/aie2/mm.cc built for m x k x n tiles and output dtype `out`
 * (IRON_INT16 or IRON_INT32): zero_<out>(C) and matmul_i16_<out>(A, B, C)
 * on the blocked layouts.  Both record a design failure (sticky) and
 * return nonzero on bad input. */
int upstream_mm_mac_dims(iron_design *d, int64_t *r, int64_t *s, int64_t *t);
int upstream_mm_kernels(iron_design *d, int64_t m, int64_t k, int64_t n,
                        iron_dtype out, iron_kernel **zero,
                        iron_kernel **matmul);

/* Both designs' core_fn as a described body (core_fn(of_a, of_b, of_c,
 * zero, matmul) in the Worker's endless loop): max(tiles, 1) times acquire
 * C from c, zero(C), k_tiles times acquire A and B from a and b_in,
 * matmul(A, B, C) and release them; release C.  Give it to
 * iron_worker_new_body.  NULL on failure (sticky). */
iron_body *upstream_mm_core_fn(iron_design *d, iron_handle *a,
                               iron_handle *b_in, iron_handle *c,
                               iron_kernel *zero, iron_kernel *matmul,
                               int64_t tiles, int64_t k_tiles);

#endif
