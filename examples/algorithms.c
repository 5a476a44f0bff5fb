/*
 * algorithms.c - kernels as compile-time parameters: one generic design
 * (transform / transform2) specialized with different kernels, each a
 * specialization of its own, checked against plain C.
 */
#include <stdio.h>

#include "designs/algorithms.h"

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

static int check(const char *what, iron_status s, int64_t bad)
{
    if (s != IRON_OK) {
        printf("  %-28s FAILED: %s\n", what, iron_last_error());
        return 1;
    }
    printf("  %-28s %s\n", what, bad ? "MISMATCH" : "ok");
    return bad != 0;
}

int main(void)
{
    const int64_t n = 1 << 14;
    int failed = 0;
    iron_jit *t = NULL, *t2 = NULL;
    iron_tensor *x = NULL, *y = NULL, *a = NULL, *b = NULL, *c = NULL;
    iron_status s = iron_jit_create(&t, transform_design, &transform_options);
    if (s == IRON_OK)
        s = iron_jit_create(&t2, transform2_design, &transform2_options);
    if (s == IRON_OK)
        s = iron_tensor_rand(&x, IRON_FLOAT32, IRON_SHAPE(n), 42);
    if (s == IRON_OK)
        s = iron_tensor_zeros(&y, IRON_FLOAT32, IRON_SHAPE(n));
    if (s == IRON_OK)
        s = iron_tensor_randint(&a, IRON_INT32, IRON_SHAPE(n), -99, 99, 1);
    if (s == IRON_OK)
        s = iron_tensor_randint(&b, IRON_INT32, IRON_SHAPE(n), -99, 99, 2);
    if (s == IRON_OK)
        s = iron_tensor_zeros(&c, IRON_INT32, IRON_SHAPE(n));
    if (s != IRON_OK) {
        fprintf(stderr, "algorithms: %s\n", iron_last_error());
        return 1;
    }
    float *px = iron_tensor_data(x), *py = iron_tensor_data(y);
    for (int64_t i = 0; i < n; i++)
        px[i] -= 0.5f;

    s = IRON_CALL_WITH(t, IRON_PARAMS(iron_param_kernel("f", &relu)), x, y);
    int64_t bad = 0;
    for (int64_t i = 0; s == IRON_OK && i < n; i++)
        bad += py[i] != (px[i] > 0.0f ? px[i] : 0.0f);
    failed |= check("transform(relu) float32", s, bad);

    s = IRON_CALL_WITH(t, IRON_PARAMS(iron_param_kernel("f", &square)), x, y);
    bad = 0;
    for (int64_t i = 0; s == IRON_OK && i < n; i++)
        bad += py[i] != px[i] * px[i];
    failed |= check("transform(square) float32", s, bad);

    s = IRON_CALL_WITH(t2, IRON_PARAMS(iron_param_kernel("f", &maximum)), a,
                       b, c);
    const int32_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    const int32_t *pc = iron_tensor_data(c);
    bad = 0;
    for (int64_t i = 0; s == IRON_OK && i < n; i++)
        bad += pc[i] != (pa[i] > pb[i] ? pa[i] : pb[i]);
    failed |= check("transform2(maximum) int32", s, bad);

    iron_jit_stats st = { .size = sizeof st };
    iron_jit_get_stats(t, &st);
    printf("  transform: %llu specializations for 2 kernels\n",
           (unsigned long long)st.specializations);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(t);
    iron_jit_free(t2);
    return failed;
}
