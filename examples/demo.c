/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * demo.c - the main job: reference designs called through jit objects on
 * the emulated NPU, each checked against plain C and timed cold (first
 * call: design, verify, place, compile, load, run) and warm (run only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "designs/designs.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int failed;

/* Where the first call's kernels came from: the C compiler, or the disk
 * cache a previous run filled (run the demo twice to see it). */
static const char *kernels_source(const iron_jit *j)
{
    iron_jit_stats st = { .size = sizeof st };
    if (!j || iron_jit_get_stats(j, &st) != IRON_OK)
        return "";
    return st.disk_hits ? "(kernels from the disk cache)" : "(compiled)";
}

static void report(const iron_jit *j, const char *what, iron_status s,
                   double cold, double warm, int64_t bad, int64_t n)
{
    if (s != IRON_OK) {
        printf("  %-34s FAILED: %s\n", what, iron_last_error());
        failed = 1;
        return;
    }
    printf("  %-34s %s  cold %8.2f ms  warm %8.3f ms  %s\n", what,
           bad ? "MISMATCH" : "ok      ", cold, warm, kernels_source(j));
    if (bad) {
        printf("    %lld of %lld elements differ from the C reference\n",
               (long long)bad, (long long)n);
        failed = 1;
    }
}

/* Calls twice (cold, then warm) and returns the status of the last. */
static iron_status call_twice(iron_jit *j, int np, const iron_param *p,
                              int nt, iron_tensor *const *t, double *cold,
                              double *warm)
{
    double t0 = now_ms();
    iron_status s = iron_jit_launch(j, NULL, np, p, IRON_NO_SCALARS, nt, t);
    *cold = now_ms() - t0;
    if (s != IRON_OK)
        return s;
    t0 = now_ms();
    s = iron_jit_launch(j, NULL, np, p, IRON_NO_SCALARS, nt, t);
    *warm = now_ms() - t0;
    return s;
}

static void demo_passthrough(void)
{
    const int64_t n = 4096;
    iron_jit *j = NULL;
    iron_tensor *in = NULL, *out = NULL;
    double cold = 0, warm = 0;
    iron_status s = iron_jit_create(passthrough_design,
                                    &passthrough_options, &j);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_UINT8, IRON_SHAPE(n), 0, 256, 7, &in);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(n), &out);
    if (s == IRON_OK)
        s = call_twice(j, IRON_NO_PARAMS, IRON_TENSORS(in, out), &cold,
                       &warm);
    int64_t bad = 0;
    if (s == IRON_OK) {
        const uint8_t *a = iron_tensor_data(in), *b = iron_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            bad += a[i] != b[i];
    }
    report(j, "passthrough uint8[4096]", s, cold, warm, bad, n);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

static void demo_vector_op(const char *op, const char *label)
{
    const int64_t n = 1 << 16;
    iron_jit *j = NULL;
    iron_tensor *a = NULL, *b = NULL, *c = NULL;
    double cold = 0, warm = 0;
    iron_status s = iron_jit_create(vector_op_design, &vector_op_options, &j);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -1000, 1000, 1, &a);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -1000, 1000, 2, &b);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c);
    if (s == IRON_OK)
        s = call_twice(j, IRON_PARAMS(iron_param_str("op", op)),
                       IRON_TENSORS(a, b, c), &cold, &warm);
    int64_t bad = 0;
    if (s == IRON_OK) {
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        const int32_t *z = iron_tensor_data(c);
        for (int64_t i = 0; i < n; i++)
            bad += z[i] != (op[0] == '+' ? x[i] + y[i] : x[i] - y[i]);
    }
    report(j, label, s, cold, warm, bad, n);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

static void demo_parallel(int cols)
{
    const int64_t n = 1 << 20;
    iron_jit *j = NULL;
    iron_tensor *in = NULL, *out = NULL;
    double cold = 0, warm = 0;
    iron_launch_config cfg = { .size = sizeof cfg, .cols = cols };
    iron_status s = iron_jit_create(eltwise_parallel_design,
                                    &eltwise_parallel_options, &j);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999,
                                5, &in);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &out);
    if (s == IRON_OK) {
        double t0 = now_ms();
        s = iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                            IRON_TENSORS(in, out));
        cold = now_ms() - t0;
    }
    if (s == IRON_OK) {
        double t0 = now_ms();
        s = iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                            IRON_TENSORS(in, out));
        warm = now_ms() - t0;
    }
    int64_t bad = 0;
    if (s == IRON_OK) {
        const int32_t *x = iron_tensor_data(in), *y = iron_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            bad += y[i] != x[i] * 3 + 1;
    }
    char label[64];
    snprintf(label, sizeof label, "parallel 3x+1 int32[1Mi], %d cols", cols);
    report(j, label, s, cold, warm, bad, n);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

/* The whole-array matmul: every compute tile of the device (4 x columns
 * cores), A split per core row on a memtile, B broadcast down each column,
 * C joined per column.  The C reference computes in int64 and wraps to
 * int32, as the design's kernel does. */
static void demo_matmul_whole(int cores)
{
    const int64_t M = 512, K = 512, N = 512;
    iron_jit *j = NULL;
    iron_tensor *a = NULL, *b = NULL, *c = NULL;
    int64_t *acc = NULL;
    double cold = 0, warm = 0;
    iron_status s = iron_jit_create(matmul_whole_design,
                                    &matmul_whole_options, &j);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT16, IRON_SHAPE(M, K), -32768,
                                32768, 8, &a);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT16, IRON_SHAPE(K, N), -32768,
                                32768, 9, &b);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(M, N), &c);
    if (s == IRON_OK) {
        double t0 = now_ms();
        s = IRON_CALL(j, a, b, c);
        cold = now_ms() - t0;
    }
    /* Cleared between the calls, so the check sees the warm call's C. */
    if (s == IRON_OK) {
        memset(iron_tensor_data(c), 0, iron_tensor_nbytes(c));
        double t0 = now_ms();
        s = IRON_CALL(j, a, b, c);
        warm = now_ms() - t0;
    }
    int64_t bad = 0;
    if (s == IRON_OK && (acc = calloc((size_t)N, sizeof *acc)) != NULL) {
        const int16_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        const int32_t *z = iron_tensor_data(c);
        for (int64_t i = 0; i < M; i++) {
            memset(acc, 0, (size_t)N * sizeof *acc);
            for (int64_t k = 0; k < K; k++)
                for (int64_t n = 0; n < N; n++)
                    acc[n] += (int64_t)x[i * K + k] * y[k * N + n];
            for (int64_t n = 0; n < N; n++)
                bad += z[i * N + n] != (int32_t)(uint32_t)acc[n];
        }
    } else if (s == IRON_OK) {
        bad = M * N;
    }
    char label[64];
    snprintf(label, sizeof label, "matmul int16 512^3, %d cores",
             cores);
    report(j, label, s, cold, warm, bad, M * N);
    free(acc);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

int main(void)
{
    iron_device *dev = NULL;
    iron_device_info info = { .size = sizeof info };
    if (iron_device_get_current(&dev) != IRON_OK ||
        iron_device_get_info(dev, &info) != IRON_OK) {
        fprintf(stderr, "demo: %s\n", iron_last_error());
        return 1;
    }
    printf("iron %s on %s (%s, %d columns, %d compute tiles, emulated)\n",
           iron_version(), info.name, info.arch, info.columns,
           info.compute_tiles);
    demo_passthrough();
    demo_vector_op("+", "vector add int32[65536]");
    demo_vector_op("-", "vector sub int32[65536] (op='-')");
    demo_parallel(info.columns);
    demo_matmul_whole(info.compute_tiles);
    printf(failed ? "demo FAILED\n" : "demo passed\n");
    return failed;
}
