/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * designs.h - upstream IRON's reference designs (README.md, "The IRON
 * model"), and ports of its programming examples, written as iron
 * design functions with the jit options that go with each.  The demo, the
 * end-to-end tests and the benchmarks all use these.  Workers run the
 * standard loop or a core body described op by op (iron_body_*, helpers in
 * bodies.h), never C-source core bodies, so that every design can be
 * exported as MLIR-AIE (tests/e2e/test_designs_bodies.c checks it).
 */
#ifndef IRON_EXAMPLES_DESIGNS_H
#define IRON_EXAMPLES_DESIGNS_H

#include <iron/iron.h>

/* passthrough: uint8[N] -> uint8[N] through one worker that copies each
 * object.  params: "obj: int = 0" (object elements; 0 = N/4), and
 * kernel_file / kernel_entry (kernel_choice.h; entry (in, out, n),
 * upstream's passThroughLine by default). */
int passthrough_design(iron_design *d, void *user);
extern const iron_jit_options passthrough_options;

/* vector add / sub: int32[N] a, b -> c = a OP b, objects of `tile`.
 * params: "tile: int = 16, op: str = '+'", and kernel_file /
 * kernel_entry (kernel_choice.h; entry (a, b, c, n), "eltwise" by
 * default). */
int vector_op_design(iron_design *d, void *user);
extern const iron_jit_options vector_op_options;
/* Its kernel's source (entry "eltwise", the operator as the define OP),
 * for the benchmark that compiles it with cc alone. */
extern const char vector_op_kernel_src[];

/* parallel elementwise: int32[N] in -> out = in * scale + bias, one worker
 * per granted column, column c handling the contiguous range starting at
 * (N / cols) * c, objects of 16.  params: "scale: int = 3, bias: int = 1". */
int eltwise_parallel_design(iron_design *d, void *user);
extern const iron_jit_options eltwise_parallel_options;

/* add constant: int32[N] in -> out = in + c.  Both the length and the
 * constant are compile-time parameters, "n: int, c: int = 1": c is baked
 * into the kernel, so each (n, c) is its own specialization.  n must equal
 * the tensors' length; objects of 16. */
int add_constant_design(iron_design *d, void *user);
extern const iron_jit_options add_constant_options;

/* vector x scalar: int16[N] or int32[N] in, int32[1] factor -> out = in *
 * factor (wrapping to the data's type).  N >= 512, a multiple of 64;
 * objects of N/4.  The factor comes through its own FIFO and a core body
 * holds it across all four objects of a call.  params: kernel_file /
 * kernel_entry (kernel_choice.h; entry (in, out, factor, n), by default
 * upstream's vector_scalar_mul_int16_vector or _int32_vector). */
int vector_scalar_design(iron_design *d, void *user);
extern const iron_jit_options vector_scalar_options;

/* SAXPY in bfloat16: z = a * x + y, computed in float (product and sum
 * each rounded to float, no FMA: the jit compiles with -ffp-contract=off)
 * and rounded to bfloat16 to nearest even, like iron_bf16_from_float.
 * params: "a: float = 3.0, tile: int = 1024" (object elements). */
int saxpy_bf16_design(iron_design *d, void *user);
extern const iron_jit_options saxpy_bf16_options;

/* multi-column memcpy: int32[N] in -> out, cols x 2 workers copying
 * `line`-element objects; worker (i, j) is pinned to column i, row 2 + j,
 * and copies the chunk at offset chunk * (2i + j), chunk = N / cols / 2.
 * Every fill, then every drain, in one task group.
 * params: "line: int = 1024". */
int memcpy_cols_design(iron_design *d, void *user);
extern const iron_jit_options memcpy_cols_options;

/* split and join through a memtile: int32[N] (N a multiple of 24) in ->
 * out = in + 1; each 24-element object is split at 0, 8, 16 to three
 * workers that add 1, and their results are joined back. */
int split_join_design(iron_design *d, void *user);
extern const iron_jit_options split_join_options;

/* layout transform on a joined FIFO: no input; int32[N] out (N a multiple
 * of 48).  Three workers fill 8-element objects (worker w, its object j of
 * each pair: j + 1 + w); a memtile joins them into 24-element objects
 * whose producer reads them out with dims_to_stream [(8, 1), (3, 8)],
 * interleaving the three workers: out[i] = i % 3 + 1 + (i / 24) % 2. */
int joined_layout_design(iron_design *d, void *user);
extern const iron_jit_options joined_layout_options;

/* single-core matmul: int16 A[M, K] x B[K, N] -> C[M, N] (int16
 * wrap-around) on one core, in m x k, k x n, m x n tiles.  A and B are
 * re-laid into r x s and s x t blocks on memtiles; the kernel produces C
 * in r x t blocks and the drain's access pattern restores row-major.
 * params: "m: int = 64, k: int = 64, n: int = 64" (r, s, t = 8, 2, 8).
 *
 * The jit's user pointer may give other kernels (matmul_single_kernels):
 * then A, B and C may also be bfloat16 (args "in a: T[M, K], in b: T[K,
 * N], out c: T[M, N]" with T int16 or bfloat16), and the design calls
 * zero_i16 / matmul_i16_i16 or zero_bf16 / matmul_bf16_bf16 from that
 * file, built with the same defines, in the file's micro-tile. */
int matmul_single_design(iron_design *d, void *user);
extern const iron_jit_options matmul_single_options;

typedef struct matmul_single_kernels {
    const char *path;   /* the kernel source file (C or C++) */
    int r, s, t;        /* micro-tile: A in r x s blocks, B s x t, C r x t */
} matmul_single_kernels;

/* whole-array matmul: int16 A[M, K] x B[K, N] -> int32 C[M, N] on 4 x cols
 * cores (every compute tile of the granted columns).  A is split per core
 * row on a memtile and broadcast along the row, B is broadcast down each
 * column, C is joined per column on that column's memtile.
 * params: "m: int = 64, k: int = 64, n: int = 32" (per-core tile). */
int matmul_whole_design(iron_design *d, void *user);
extern const iron_jit_options matmul_whole_options;

/* whole-array matmul in float32: the same design on float A[M, K] x
 * B[K, N] -> float C[M, N]; the kernel sums in float, in k order, with
 * plain C loops.  params: "m: int = 64, k: int = 32, n: int = 32" (k
 * halved so that float tiles fit a core's data memory). */
int matmul_whole_f32_design(iron_design *d, void *user);
extern const iron_jit_options matmul_whole_f32_options;

/* whole-array matmul in int8 (C int8, modulo 2^8) and bfloat16 (summed
 * through float): the GEMMs the timing model is calibrated on
 * (bench/timing).  params: "m, k, n" (per-core tile), "c_depth" (a core's
 * C buffers, 2 by default; 1 lets 112 x 112 x 112 int8 tiles fit) and
 * "kernel_cycles" (the matmul kernel's declared cost in cycles per call,
 * iron_kernel_set_cycles; 0: none). */
int matmul_whole_i8_design(iron_design *d, void *user);
extern const iron_jit_options matmul_whole_i8_options;
int matmul_whole_bf16_design(iron_design *d, void *user);
extern const iron_jit_options matmul_whole_bf16_options;

#endif
