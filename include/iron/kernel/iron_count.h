/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iron_count.h - what a timed kernel counts (C and C++).
 *
 * A kernel built for the timing model (a "timed build": compiled with
 * IRON_COUNT defined to 1 and with -fsanitize-coverage=trace-pc) reports
 * the operations it issues to the host as it runs: the host AIE API
 * (<aie_api/aie.hpp>) counts every vector load, store, ALU, shuffle,
 * conversion and multiply it issues, the pipelining hints
 * (chess_prepare_for_pipelining, AIE_PREPARE_FOR_PIPELINING) open and
 * close pipelined regions, and every basic block of scalar code counts
 * one IRON_COUNT_BLOCK.  The timing model (src/timing/kernel.c) turns the
 * counts of one call into the core's cycles.  An untimed build counts
 * nothing and references neither function.
 *
 * The kinds are numbered for good: the host reads them by value.
 */
#ifndef IRON_KERNEL_IRON_COUNT_H
#define IRON_KERNEL_IRON_COUNT_H

enum iron_count_kind {
    IRON_COUNT_BLOCK = 0,      /* n basic blocks of scalar code */
    IRON_COUNT_SCALAR = 1,     /* n scalar operations */
    IRON_COUNT_VLOAD = 2,      /* one vector load of n bits */
    IRON_COUNT_VSTORE = 3,     /* one vector store of n bits */
    IRON_COUNT_VALU = 4,       /* n vector ALU operations (add, sub,
                                  compare, min/max, logic, shift, select),
                                  one per 512-bit register */
    IRON_COUNT_VSHUFFLE = 5,   /* n shuffles, permutes, broadcasts */
    IRON_COUNT_VCONVERT = 6,   /* n conversions: accumulator to vector
                                  (srs), vector to accumulator (ups),
                                  between element types; one per 512-bit
                                  vector register */
    /* Matrix multiplies (aie::mmul): n multiply-accumulates, M*K*N per
     * mul or mac, by the wider operand's element type. */
    IRON_COUNT_MMUL_I8 = 7,
    IRON_COUNT_MMUL_I16 = 8,
    IRON_COUNT_MMUL_I32 = 9,
    IRON_COUNT_MMUL_BF16 = 10,
    IRON_COUNT_MMUL_F32 = 11,
    /* Elementwise multiplies (aie::mul, mac, msc, accumulate): n lanes. */
    IRON_COUNT_EMUL_I8 = 12,
    IRON_COUNT_EMUL_I16 = 13,
    IRON_COUNT_EMUL_I32 = 14,
    IRON_COUNT_EMUL_BF16 = 15,
    IRON_COUNT_EMUL_F32 = 16,
    IRON_COUNT_KINDS = 17
};

#ifdef __cplusplus
extern "C" {
#endif
/* Counts n of `kind` for the running kernel call.  Defined by the kernel
 * runtime shim linked into every kernel object; outside the emulator (no
 * host bound, or a host that keeps no counts) the count is dropped. */
void iron__count(int kind, unsigned long long n);
/* Opens (begin 1) or closes (begin 0) a region of code; pipelined 1: a
 * loop marked for software pipelining.  Regions nest. */
void iron__count_region(int begin, int pipelined);
/* A core body calls the kernel it was given as its argument `arg`: the
 * call begins (end 0, n 0, vals NULL) or ends (end 1; vals[i] for i < n
 * the call's i-th argument when it is an integer, else 0), so that the
 * host can charge a
 * cost declared for that kernel (iron_kernel_set_cycles) instead of what
 * the call counted.  Generated core bodies call it around each kernel
 * call in a timed build (src/body/to_c.c). */
void iron__count_call(int end, int arg, int n, const long long *vals);
#ifdef __cplusplus
}
#endif

#endif
