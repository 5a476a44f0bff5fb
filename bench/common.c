/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * common.c - what the benchmark's files share (bench.h): the clock,
 * failing, jits without the disk cache, and the rows.
 */
#include <stdarg.h>
#include <time.h>

#include "bench.h"

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

iron_jit_options no_disk(iron_jit_options o)
{
    o.disk_cache = -1;
    return o;
}

iron_jit *jit_new(iron_design_fn design, const iron_jit_options *base)
{
    iron_jit *j;
    iron_jit_options o = no_disk(*base);
    o.cflags = "-O3";
    CHECK(iron_jit_create(design, &o, &j));
    return j;
}

FILE *bench_tsv;

void emit(bench_row r, const char *fmt, ...)
{
    double ratio = 0;
    if (r.baseline > 0)
        ratio = r.speedup ? r.baseline / r.value : r.value / r.baseline;
    printf("%-32s %10.3f %-5s", r.name, r.value, r.unit);
    if (r.baseline > 0)
        printf(" %10.3f %-5s %8.2fx%s\n", r.baseline, r.unit, ratio,
               r.speedup ? " speedup" : "");
    else
        printf(" %10s %-5s %9s\n", "-", "", "-");
    va_list ap;
    va_start(ap, fmt);
    fputs("    ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
    if (!bench_tsv)
        return;
    fprintf(bench_tsv, "%s\t%.6g\t%s\t", r.name, r.value, r.unit);
    if (r.baseline > 0)
        fprintf(bench_tsv, "%.6g\t%.6g\n", r.baseline, ratio);
    else
        fputs("-\t-\n", bench_tsv);
}

