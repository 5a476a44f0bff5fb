/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * baseline.c - the benchmark's plain-C baselines, built with -O3
 * -march=native in a translation unit of their own.  The bench calls them
 * across that boundary (no LTO), so the compiler can neither see that a
 * result goes unused nor hoist the work out of the timing loop; the floor
 * loop also puts a compiler barrier after each copy, because there the
 * compiler could otherwise add straight from a and b and skip the copies.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"

#ifdef IRON_BENCH_OPENBLAS
#include <cblas.h>
#endif

void baseline_add(const int32_t *a, const int32_t *b, int32_t *c, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

typedef struct add_slice {
    const int32_t *a, *b;
    int32_t *c;
    int64_t n;
} add_slice;

static void *add_slice_main(void *arg)
{
    const add_slice *s = arg;
    baseline_add(s->a, s->b, s->c, s->n);
    return NULL;
}

/* Threads are started per call: that cost (tens of microseconds) is part
 * of what a C program doing this once would pay, and it is small beside
 * the milliseconds of a 16 Mi add. */
int baseline_add_threads(const int32_t *a, const int32_t *b, int32_t *c,
                         int64_t n, int threads)
{
    if (threads < 1)
        threads = 1;
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    add_slice *s = calloc((size_t)threads, sizeof *s);
    int started = 0, rc = 0;
    if (!tid || !s) {
        rc = -1;
        goto done;
    }
    const int64_t per = n / threads;
    for (int t = 0; t < threads; t++) {
        int64_t lo = per * t;
        s[t] = (add_slice){ a + lo, b + lo, c + lo,
                            t == threads - 1 ? n - lo : per };
    }
    /* Thread 0's slice runs on the caller, as the emulator's lane 0 does. */
    for (started = 1; started < threads; started++)
        if (pthread_create(&tid[started], NULL, add_slice_main,
                           &s[started]) != 0) {
            rc = -1;
            break;
        }
    add_slice_main(&s[0]);
    for (int t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
done:
    free(tid);
    free(s);
    return rc;
}

/* Empty asm with a memory clobber: the buffer's contents must exist in
 * memory here, so neither copy into it nor out of it can be dropped. */
#define KEEP(p) __asm__ volatile("" : : "r"(p) : "memory")

/* The cheapest copy there is, in 64-byte pieces that the compiler turns
 * into vector moves.  Not one memcpy of the object: for 4 KiB glibc takes
 * `rep movsb`, ~15% slower than vector moves on the reference machine
 * (AMD EPYC); and not an element loop, which GCC unrolls into scalar
 * moves for 16 elements.  n is a multiple of 16. */
static inline void copy_i32(int32_t *dst, const int32_t *src, int64_t n)
{
    for (int64_t i = 0; i < n; i += 16)
        memcpy(dst + i, src + i, 64);
}

/* One object: two fills, the kernel, one drain.  `tile` is a constant in
 * the callers below, so the copies are as cheap as the compiler can make
 * them: the floor, not what a general copy costs. */
static inline void floor_object(const int32_t *a, const int32_t *b,
                                int32_t *c, int64_t tile, int32_t *ba,
                                int32_t *bb, int32_t *bc)
{
    copy_i32(ba, a, tile);
    copy_i32(bb, b, tile);
    KEEP(ba);
    KEEP(bb);
    for (int64_t i = 0; i < tile; i++)
        bc[i] = ba[i] + bb[i];
    KEEP(bc);
    copy_i32(c, bc, tile);
}

#define FLOOR_LOOP(tile)                                                      \
    for (int64_t o = 0; o < n; o += (tile))                                   \
        floor_object(a + o, b + o, c + o, (tile), ba, bb, bc)

void baseline_add_floor(const int32_t *a, const int32_t *b, int32_t *c,
                        int64_t n, int64_t tile)
{
    /* The object buffers: small, aligned, reused, like a core's. */
    static _Alignas(64) int32_t ba[BASELINE_FLOOR_MAX_TILE],
        bb[BASELINE_FLOOR_MAX_TILE], bc[BASELINE_FLOOR_MAX_TILE];
    if (tile == 16)
        FLOOR_LOOP(16);
    else if (tile == 1024)
        FLOOR_LOOP(1024);
    else if (tile % 16 == 0 && tile >= 16 &&
             tile <= BASELINE_FLOOR_MAX_TILE)
        FLOOR_LOOP(tile);
}

#ifdef IRON_BENCH_OPENBLAS
int baseline_have_sgemm(void)
{
    return 1;
}

void baseline_sgemm_1t(const float *a, const float *b, float *c, int m,
                       int k, int n)
{
    openblas_set_num_threads(1);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a,
                k, b, n, 0.0f, c, n);
}
#else
int baseline_have_sgemm(void)
{
    return 0;
}

void baseline_sgemm_1t(const float *a, const float *b, float *c, int m,
                       int k, int n)
{
    (void)a;
    (void)b;
    (void)c;
    (void)m;
    (void)k;
    (void)n;
}
#endif
