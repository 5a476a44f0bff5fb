/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bench.h - what the benchmark's files share (bench/common.c): the clock,
 * failing, jits without the disk cache, and the rows every figure is
 * printed and written as.
 */
#ifndef IRON_BENCH_BENCH_H
#define IRON_BENCH_BENCH_H

#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

/* Monotonic seconds. */
double now_s(void);

/* Prints "bench: " and the message to stderr and exits 1. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#define CHECK(call)                                                           \
    do {                                                                      \
        iron_status s_ = (call);                                              \
        if (s_ != IRON_OK) {                                                  \
            fprintf(stderr, "bench: %s: %s\n", #call, iron_last_error());    \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

/* Best of `reps` timings of fn: the minimum is the least noisy figure on a
 * shared machine. */
#define BEST_OF(reps, out, body)                                              \
    do {                                                                      \
        (out) = 1e30;                                                         \
        for (int r_ = 0; r_ < (reps); r_++) {                                 \
            double t0_ = now_s();                                             \
            body;                                                             \
            double t_ = now_s() - t0_;                                        \
            if (t_ < (out))                                                   \
                (out) = t_;                                                   \
        }                                                                     \
    } while (0)

/* A design's options with the disk cache off. */
iron_jit_options no_disk(iron_jit_options o);
/* A jit of the design with the disk cache off and -O3 kernels. */
iron_jit *jit_new(iron_design_fn design, const iron_jit_options *base);

/* One figure = one row.  emit() prints it (value, baseline, ratio, then a
 * line saying what was measured) and appends it to the TSV (bench_tsv,
 * when open), so the two never disagree. */
typedef struct bench_row {
    const char *name;   /* the TSV's name: stable, scripts key on it */
    const char *unit;   /* of value and baseline alike */
    double value;
    double baseline;    /* measured in this run; 0 = the row has none */
    /* 1: ratio = baseline / value, a speedup (higher is better), for rows
     * whose value is the improved figure.  0: ratio = value / baseline. */
    int speedup;
} bench_row;

extern FILE *bench_tsv;
void emit(bench_row r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The groups in other files. */
void bench_timing(void);     /* bench/timing/anchors.c */

#endif
