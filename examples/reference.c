/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * reference.c - runs the eleven reference designs of upstream IRON on
 * the emulated NPU (the current device: $IRON_DEVICE or npu2), checks
 * each against plain C and prints a table: name, ok / MISMATCH, cold
 * (first call: design, verify, place, compile, load, run) and warm (run
 * only) milliseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "designs/designs.h"

static int failed;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* One design's call: the jit, its launch configuration and parameters,
 * and the tensors, which the case owns. */
typedef struct call {
    iron_jit *j;
    const iron_launch_config *cfg;
    int np;
    const iron_param *p;
    int nt;
    iron_tensor *t[4];
} call;

/* Calls twice, cold then warm; clears the outputs (last tensor) between
 * the two so that the check sees the warm call's work. */
static iron_status run_twice(call *c, double *cold, double *warm)
{
    double t0 = now_ms();
    iron_status s = iron_jit_launch(c->j, c->cfg, c->np, c->p, IRON_NO_SCALARS,
                                    c->nt, c->t);
    *cold = now_ms() - t0;
    if (s != IRON_OK)
        return s;
    iron_tensor *out = c->t[c->nt - 1];
    memset(iron_tensor_data(out), 0, iron_tensor_nbytes(out));
    t0 = now_ms();
    s = iron_jit_launch(c->j, c->cfg, c->np, c->p, IRON_NO_SCALARS,
                        c->nt, c->t);
    *warm = now_ms() - t0;
    return s;
}

static void row(const char *name, iron_status s, int64_t bad, int64_t n,
                double cold, double warm)
{
    if (s != IRON_OK) {
        printf("  %-40s FAILED    %s\n", name, iron_last_error());
        failed = 1;
        return;
    }
    printf("  %-40s %-9s %9.2f %9.3f\n", name, bad ? "MISMATCH" : "ok", cold,
           warm);
    if (bad) {
        printf("    %lld of %lld elements differ from the C reference\n",
               (long long)bad, (long long)n);
        failed = 1;
    }
}

static void free_call(call *c)
{
    for (int i = 0; i < c->nt; i++)
        iron_tensor_free(c->t[i]);
    iron_jit_free(c->j);
}

/* Counts differing elements of two arrays of n esz-byte elements. */
static int64_t count_diff(const void *got, const void *want, size_t esz,
                          int64_t n)
{
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++)
        bad += memcmp((const uint8_t *)got + (size_t)i * esz,
                      (const uint8_t *)want + (size_t)i * esz, esz) != 0;
    return bad;
}

/* Builds the jit and the tensors; any failure is reported by the row. */
static iron_status start(call *c, iron_design_fn fn,
                         const iron_jit_options *o)
{
    memset(c, 0, sizeof *c);
    return iron_jit_create(fn, o, &c->j);
}

static void ref_passthrough(void)
{
    const int64_t n = 4096;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, passthrough_design, &passthrough_options);
    c.nt = 2;
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_UINT8, IRON_SHAPE(n), 0, 256, 1, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(n), &c.t[1]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK)
        bad = count_diff(iron_tensor_data(c.t[1]), iron_tensor_data(c.t[0]),
                         1, n);
    row("passthrough uint8[4096]", s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_vector_op(const char *op, const char *name)
{
    const int64_t n = 1 << 16;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    const iron_param p = iron_param_str("op", op);
    iron_status s = start(&c, vector_op_design, &vector_op_options);
    c.np = 1;
    c.p = &p;
    c.nt = 3;
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -1000,
                                1000, 2, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -1000,
                                1000, 3, &c.t[1]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c.t[2]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        const int32_t *x = iron_tensor_data(c.t[0]),
                      *y = iron_tensor_data(c.t[1]),
                      *z = iron_tensor_data(c.t[2]);
        for (int64_t i = 0; i < n; i++)
            bad += z[i] != (op[0] == '+' ? x[i] + y[i] : x[i] - y[i]);
    }
    row(name, s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_add_constant(void)
{
    const int64_t n = 1 << 16;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    const iron_param p[2] = { iron_param_int("n", n),
                              iron_param_int("c", 42) };
    iron_status s = start(&c, add_constant_design, &add_constant_options);
    c.np = 2;
    c.p = p;
    c.nt = 2;
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -1000,
                                1000, 4, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c.t[1]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        const int32_t *x = iron_tensor_data(c.t[0]),
                      *y = iron_tensor_data(c.t[1]);
        for (int64_t i = 0; i < n; i++)
            bad += y[i] != x[i] + 42;
    }
    row("add constant int32[65536], c=42", s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_vector_scalar(void)
{
    const int64_t n = 4096;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, vector_scalar_design, &vector_scalar_options);
    c.nt = 3;
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT16, IRON_SHAPE(n), -10000,
                                10000, 5, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_full(IRON_INT32, IRON_SHAPE(1), 3, &c.t[1]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT16, IRON_SHAPE(n), &c.t[2]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        const int16_t *x = iron_tensor_data(c.t[0]),
                      *y = iron_tensor_data(c.t[2]);
        for (int64_t i = 0; i < n; i++)
            bad += y[i] != (int16_t)(uint16_t)((uint32_t)x[i] * 3u);
    }
    row("vector x scalar int16[4096] x 3", s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_saxpy_bf16(void)
{
    const int64_t n = 4096;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, saxpy_bf16_design, &saxpy_bf16_options);
    c.nt = 3;
    if (s == IRON_OK)
        s = iron_tensor_rand(IRON_BFLOAT16, IRON_SHAPE(n), 6, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_rand(IRON_BFLOAT16, IRON_SHAPE(n), 7, &c.t[1]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_BFLOAT16, IRON_SHAPE(n), &c.t[2]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        const uint16_t *x = iron_tensor_data(c.t[0]),
                       *y = iron_tensor_data(c.t[1]),
                       *z = iron_tensor_data(c.t[2]);
        for (int64_t i = 0; i < n; i++) {
            float ax = 3.0f * iron_bf16_to_float(x[i]);
            bad += z[i] != iron_bf16_from_float(ax + iron_bf16_to_float(y[i]));
        }
    }
    row("saxpy bfloat16[4096], a=3", s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_memcpy_cols(int cols)
{
    const int64_t n = (int64_t)16 << 20;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, memcpy_cols_design, &memcpy_cols_options);
    c.nt = 2;
    if (s == IRON_OK)
        s = iron_tensor_arange(IRON_INT32, 1, n + 1, 1, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c.t[1]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK)
        bad = count_diff(iron_tensor_data(c.t[1]), iron_tensor_data(c.t[0]),
                         4, n);
    char name[64];
    snprintf(name, sizeof name, "memcpy int32[16Mi], %d cols x 2", cols);
    row(name, s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_eltwise_parallel(int cols)
{
    const int64_t n = 1 << 20;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, eltwise_parallel_design,
                          &eltwise_parallel_options);
    c.nt = 2;
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -9999,
                                9999, 8, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c.t[1]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        const int32_t *x = iron_tensor_data(c.t[0]),
                      *y = iron_tensor_data(c.t[1]);
        for (int64_t i = 0; i < n; i++)
            bad += y[i] != x[i] * 3 + 1;
    }
    char name[64];
    snprintf(name, sizeof name, "parallel 3x+1 int32[1Mi], %d cols", cols);
    row(name, s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_split_join(void)
{
    const int64_t n = 48;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, split_join_design, &split_join_options);
    c.nt = 2;
    if (s == IRON_OK)
        s = iron_tensor_arange(IRON_INT32, 0, n, 1, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c.t[1]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        const int32_t *y = iron_tensor_data(c.t[1]);
        for (int64_t i = 0; i < n; i++)
            bad += y[i] != i + 1;
    }
    row("split/join int32[48] + 1", s, bad, n, cold, warm);
    free_call(&c);
}

static void ref_joined_layout(void)
{
    const int64_t n = 48;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, joined_layout_design, &joined_layout_options);
    c.nt = 1;
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c.t[0]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        const int32_t *y = iron_tensor_data(c.t[0]);
        for (int64_t i = 0; i < n; i++)
            bad += y[i] != (i < 24 ? i % 3 + 1 : i % 3 + 2);
    }
    row("layout on joined fifo int32[48]", s, bad, n, cold, warm);
    free_call(&c);
}

/* C = A * B computed in int64 and truncated to esz bytes. */
static void *matmul_ref(const int16_t *a, const int16_t *b, size_t esz,
                        int64_t M, int64_t K, int64_t N)
{
    uint8_t *c = malloc((size_t)(M * N) * esz);
    int64_t *acc = calloc((size_t)N, sizeof *acc);
    if (!c || !acc) {
        free(c);
        free(acc);
        return NULL;
    }
    for (int64_t i = 0; i < M; i++) {
        memset(acc, 0, (size_t)N * sizeof *acc);
        for (int64_t k = 0; k < K; k++)
            for (int64_t j = 0; j < N; j++)
                acc[j] += (int64_t)a[i * K + k] * b[k * N + j];
        for (int64_t j = 0; j < N; j++) {
            if (esz == 2) {
                int16_t v = (int16_t)(uint16_t)acc[j];
                memcpy(c + (size_t)(i * N + j) * esz, &v, esz);
            } else {
                int32_t v = (int32_t)(uint32_t)acc[j];
                memcpy(c + (size_t)(i * N + j) * esz, &v, esz);
            }
        }
    }
    free(acc);
    return c;
}

static void ref_matmul(const char *name, iron_design_fn fn,
                       const iron_jit_options *o, iron_dtype out_dt,
                       int64_t size)
{
    const int64_t M = size, K = size, N = size;
    call c;
    double cold = 0, warm = 0;
    int64_t bad = 0;
    iron_status s = start(&c, fn, o);
    c.nt = 3;
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT16, IRON_SHAPE(M, K),
                                INT16_MIN, INT16_MAX + 1, 9, &c.t[0]);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT16, IRON_SHAPE(K, N),
                                INT16_MIN, INT16_MAX + 1, 10, &c.t[1]);
    if (s == IRON_OK)
        s = iron_tensor_zeros(out_dt, IRON_SHAPE(M, N), &c.t[2]);
    if (s == IRON_OK)
        s = run_twice(&c, &cold, &warm);
    if (s == IRON_OK) {
        size_t esz = iron_dtype_size(out_dt);
        void *want = matmul_ref(iron_tensor_data(c.t[0]),
                                iron_tensor_data(c.t[1]), esz, M, K, N);
        bad = want ? count_diff(iron_tensor_data(c.t[2]), want, esz, M * N)
                   : M * N;
        free(want);
    }
    row(name, s, bad, M * N, cold, warm);
    free_call(&c);
}

int main(void)
{
    iron_device *dev = NULL;
    iron_device_info info = { .size = sizeof info };
    if (iron_device_get_current(&dev) != IRON_OK ||
        iron_device_get_info(dev, &info) != IRON_OK) {
        fprintf(stderr, "reference: %s\n", iron_last_error());
        return 1;
    }
    printf("Reference designs of upstream IRON on %s (%d columns, "
           "emulated)\n",
           info.name, info.columns);
    printf("  %-40s %-9s %9s %9s\n", "design", "result", "cold ms",
           "warm ms");
    ref_passthrough();
    ref_vector_op("+", "vector add int32[65536]");
    ref_vector_op("-", "vector sub int32[65536] (op='-')");
    ref_add_constant();
    ref_vector_scalar();
    ref_saxpy_bf16();
    ref_memcpy_cols(info.columns);
    ref_eltwise_parallel(info.columns);
    ref_split_join();
    ref_joined_layout();
    ref_matmul("matmul 1 core int16 512^3", matmul_single_design,
               &matmul_single_options, IRON_INT16, 512);
    char name[64];
    snprintf(name, sizeof name, "matmul %d cores int16->int32 512^3",
             info.compute_tiles);
    ref_matmul(name, matmul_whole_design, &matmul_whole_options, IRON_INT32,
               512);
    printf(failed ? "reference FAILED\n" : "reference passed\n");
    return failed;
}
