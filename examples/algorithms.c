/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * algorithms.c - the library's generic algorithms (iron_algo_*): one
 * design each, the operation given per call as a kernel parameter, every
 * result checked against plain C.
 */
#include <stdio.h>

#include <iron/iron.h>

static const iron_kernel_ref relu = {
    "relu",
    "#include <stdint.h>\n"
    "void relu(const float *x, float *y, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f; }\n",
    "float32*, float32*, int32",
};

static const iron_kernel_ref square = {
    "square",
    "#include <stdint.h>\n"
    "void square(const float *x, float *y, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) y[i] = x[i] * x[i]; }\n",
    "float32*, float32*, int32",
};

static const iron_kernel_ref maximum = {
    "maximum",
    "#include <stdint.h>\n"
    "void maximum(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) c[i] = a[i] > b[i] ? a[i] : b[i]; }\n",
    "int32*, int32*, int32*, int32",
};

/* for_each: the kernel reads one object and writes the other. */
static const iron_kernel_ref halve = {
    "halve",
    "#include <stdint.h>\n"
    "void halve(const int32_t *in, int32_t *out, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) out[i] = in[i] / 2; }\n",
    "int32*, int32*, int32",
};

/* reduce: the whole input in one call, into a wider accumulator. */
static const iron_kernel_ref sum = {
    "sum",
    "#include <stdint.h>\n"
    "void sum(const int32_t *in, int64_t *out, int32_t n)\n"
    "{ int64_t s = 0; for (int32_t i = 0; i < n; i++) s += in[i];\n"
    "  out[0] = s; }\n",
    "int32*, int64*, int32",
};

static int check(const char *what, iron_status s, int64_t bad)
{
    if (s != IRON_OK) {
        printf("  %-36s FAILED: %s\n", what, iron_last_error());
        return 1;
    }
    printf("  %-36s %s\n", what, bad ? "MISMATCH" : "ok");
    return bad != 0;
}

#define KERNEL(k) IRON_PARAMS(iron_param_kernel("f", &(k)))

int main(void)
{
    const int64_t n = 1 << 14, nred = 4096;
    int failed = 0;
    iron_jit *t = NULL, *t2 = NULL, *each = NULL, *red = NULL;
    iron_tensor *x = NULL, *y = NULL, *a = NULL, *b = NULL, *c = NULL;
    iron_tensor *s64 = NULL;
    iron_status s = iron_algo_jit_create(IRON_ALGO_TRANSFORM, NULL, &t);
    if (s == IRON_OK)
        s = iron_algo_jit_create(IRON_ALGO_TRANSFORM_PARALLEL_BINARY, NULL,
                                 &t2);
    if (s == IRON_OK)
        s = iron_algo_jit_create(IRON_ALGO_FOR_EACH, NULL, &each);
    if (s == IRON_OK)
        s = iron_algo_jit_create(IRON_ALGO_REDUCE, NULL, &red);
    if (s == IRON_OK)
        s = iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(n), 42, &x);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_FLOAT32, IRON_SHAPE(n), &y);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -99, 99, 1, &a);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -99, 99, 2, &b);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_INT64, IRON_SHAPE(1), &s64);
    if (s != IRON_OK) {
        fprintf(stderr, "algorithms: %s\n", iron_last_error());
        return 1;
    }
    float *px = iron_tensor_data(x), *py = iron_tensor_data(y);
    for (int64_t i = 0; i < n; i++)
        px[i] -= 0.5f;

    s = IRON_CALL_WITH(t, KERNEL(relu), x, y);
    int64_t bad = 0;
    for (int64_t i = 0; s == IRON_OK && i < n; i++)
        bad += py[i] != (px[i] > 0.0f ? px[i] : 0.0f);
    failed |= check("transform(relu) float32", s, bad);

    s = IRON_CALL_WITH(t, KERNEL(square), x, y);
    bad = 0;
    for (int64_t i = 0; s == IRON_OK && i < n; i++)
        bad += py[i] != px[i] * px[i];
    failed |= check("transform(square) float32", s, bad);

    /* One worker per granted column, each a slice of n / columns. */
    s = IRON_CALL_WITH(t2, KERNEL(maximum), a, b, c);
    const int32_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    const int32_t *pc = iron_tensor_data(c);
    bad = 0;
    for (int64_t i = 0; s == IRON_OK && i < n; i++)
        bad += pc[i] != (pa[i] > pb[i] ? pa[i] : pb[i]);
    failed |= check("transform_parallel_binary(maximum)", s, bad);

    /* reduce hands the whole input to one call, so it must fit one
     * compute tile: 4096 int32 (16 KiB) do. */
    iron_tensor *v = NULL;
    s = iron_tensor_arange(IRON_INT32, 0, 3 * nred, 3, &v);
    if (s == IRON_OK)
        s = IRON_CALL_WITH(red, KERNEL(sum), v, s64);
    bad = s == IRON_OK &&
          *(int64_t *)iron_tensor_data(s64) != 3 * nred * (nred - 1) / 2;
    failed |= check("reduce(sum) int32 -> int64", s, bad);

    s = IRON_CALL_WITH(each, KERNEL(halve), v);
    const int32_t *pv = iron_tensor_data(v);
    bad = 0;
    for (int64_t i = 0; s == IRON_OK && i < nred; i++)
        bad += pv[i] != (int32_t)(3 * i / 2);
    failed |= check("for_each(halve) int32 in place", s, bad);

    iron_jit_stats st = { .size = sizeof st };
    iron_jit_get_stats(t, &st);
    printf("  transform: %llu specializations for 2 kernels\n",
           (unsigned long long)st.specializations);
    iron_tensor_free(v);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(s64);
    iron_jit_free(t);
    iron_jit_free(t2);
    iron_jit_free(each);
    iron_jit_free(red);
    return failed;
}
