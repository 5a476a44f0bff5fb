/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * baseline.h - the plain-C baselines the benchmark compares the emulator
 * with.  baseline.c is compiled apart with -O3 -march=native (see the
 * Makefile), so each baseline is the best the host's compiler makes of it.
 */
#ifndef IRON_BENCH_BASELINE_H
#define IRON_BENCH_BASELINE_H

#include <stdint.h>

/* c[i] = a[i] + b[i] for i < n, on the calling thread. */
void baseline_add(const int32_t *a, const int32_t *b, int32_t *c, int64_t n);

/* The same on `threads` pthreads, each one contiguous slice (the last
 * takes the remainder).  Returns 0, or -1 when a thread cannot start. */
int baseline_add_threads(const int32_t *a, const int32_t *b, int32_t *c,
                         int64_t n, int threads);

/* The least the emulator must do per `tile`-element object of a vector
 * add (tile a multiple of 16 up to BASELINE_FLOOR_MAX_TILE, n a multiple
 * of tile; other tiles do nothing): copy the object of a and of b into
 * buffers of their own (the fills), add them into a third (the kernel),
 * copy that out (the drain).  Not thread-safe: one set of buffers. */
#define BASELINE_FLOOR_MAX_TILE 1024
void baseline_add_floor(const int32_t *a, const int32_t *b, int32_t *c,
                        int64_t n, int64_t tile);

/* 1 when the bench was built with OpenBLAS (baseline_sgemm_1t works). */
int baseline_have_sgemm(void);

/* C = A x B, row-major float, A m x k, B k x n, with OpenBLAS's
 * cblas_sgemm on one thread.  Does nothing without OpenBLAS. */
void baseline_sgemm_1t(const float *a, const float *b, float *c, int m,
                       int k, int n);

#endif
