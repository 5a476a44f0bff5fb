/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_algo.c - the generic algorithms of the public API (iron_algo_*):
 * each one on several dtypes against a plain C loop, the parallel forms
 * on 1, 2 and 4 columns, one jit switching operations by its kernel
 * parameter, and every error the API promises.
 */
#include "tensor/tensor.h"
#include "test.h"

/* A kernel built for one dtype: the strings live in the struct. */
typedef struct kbuf {
    char entry[32];
    char source[768];
    char types[96];
    iron_kernel_ref ref;
} kbuf;

static const iron_kernel_ref *finish(kbuf *k)
{
    k->ref.entry = k->entry;
    k->ref.source = k->source;
    k->ref.arg_types = k->types;
    return &k->ref;
}

/* void name(const C *in, C *out, int32_t n): out[i] = expr(x = in[i]). */
static const iron_kernel_ref *unary(kbuf *k, const char *name, iron_dtype dt,
                                    const char *expr)
{
    const char *c = iron__dtype_ctype(dt), *t = iron_dtype_name(dt);
    snprintf(k->entry, sizeof k->entry, "%s", name);
    snprintf(k->source, sizeof k->source,
             "#include <stdint.h>\n"
             "void %s(const %s *in, %s *out, int32_t n)\n"
             "{ for (int32_t i = 0; i < n; i++) { %s x = in[i];"
             " out[i] = (%s)(%s); } }\n",
             name, c, c, c, c, expr);
    snprintf(k->types, sizeof k->types, "%s*, %s*, int32", t, t);
    return finish(k);
}

/* void name(const C *a, const C *b, C *out, int32_t n). */
static const iron_kernel_ref *binary(kbuf *k, const char *name,
                                     iron_dtype dt, const char *expr)
{
    const char *c = iron__dtype_ctype(dt), *t = iron_dtype_name(dt);
    snprintf(k->entry, sizeof k->entry, "%s", name);
    snprintf(k->source, sizeof k->source,
             "#include <stdint.h>\n"
             "void %s(const %s *a, const %s *b, %s *out, int32_t n)\n"
             "{ for (int32_t i = 0; i < n; i++) { %s x = a[i], y = b[i];"
             " out[i] = (%s)(%s); } }\n",
             name, c, c, c, c, c, expr);
    snprintf(k->types, sizeof k->types, "%s*, %s*, %s*, int32", t, t, t);
    return finish(k);
}

static iron_jit *algo_jit(iron_algo kind)
{
    iron_jit *j = NULL;
    ASSERT_OK(iron_algo_jit_create(kind, NULL, &j));
    return j;
}

static iron_status launch(iron_jit *j, int cols, int nparams,
                          const iron_param *params, int nargs,
                          iron_tensor *const *args)
{
    iron_launch_config c = { .size = sizeof c, .cols = cols,
                             .timeout_ms = 10000 };
    return test_keep(iron_jit_launch(j, &c, nparams, params, IRON_NO_SCALARS,
                                     nargs, args));
}

/* --- transform and transform_binary -------------------------------------- */

TEST(algo_transform_dtypes)
{
    /* y = 3x - 1 on values in [-20, 20): exact in every signed dtype. */
    const iron_dtype dts[] = { IRON_INT8, IRON_INT16, IRON_INT32, IRON_INT64,
                               IRON_FLOAT32, IRON_FLOAT64 };
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM);
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++) {
        kbuf k;
        const iron_kernel_ref *f = unary(&k, "affine", dts[t], "3 * x - 1");
        iron_tensor *x =
            test_randint(dts[t], IRON_SHAPE(1024), -20, 20, t + 1);
        iron_tensor *y = test_zeros(dts[t], 1024);
        iron_param p = iron_param_kernel("f", f);
        ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, y)));
        for (int64_t i = 0; i < 1024; i++)
            ASSERT_DBL_NEAR(test_at(y, i), 3 * test_at(x, i) - 1, 0);
        iron_tensor_free(x);
        iron_tensor_free(y);
    }
    ASSERT_EQ(test_stats(j).builds, 6);
    iron_jit_free(j);
}

/* A kernel parameter's declaration may name its parameters, as
 * iron_kernel_new's may: the convention check reads the types alone. */
TEST(algo_kernel_declaration_may_name_its_parameters)
{
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM);
    kbuf k;
    const iron_kernel_ref *f = unary(&k, "inc", IRON_INT32, "x + 1");
    snprintf(k.types, sizeof k.types, "int32* in, int32* out, int32 n");
    iron_tensor *x = test_arange(IRON_INT32, 256);
    iron_tensor *y = test_zeros(IRON_INT32, 256);
    iron_param p = iron_param_kernel("f", f);
    ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, y)));
    const int32_t *py = iron_tensor_data(y);
    for (int64_t i = 0; i < 256; i++)
        ASSERT_EQ(py[i], i + 1);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(algo_transform_any_shape_and_tile)
{
    /* A 2-D tensor is streamed flat; tile 16 gives 12 objects. */
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM);
    kbuf k;
    iron_tensor *x = test_randint(IRON_UINT8, IRON_SHAPE(12, 16), 0, 100, 3);
    iron_tensor *y = test_zeros_shape(IRON_UINT8, IRON_SHAPE(12, 16));
    iron_param p[] = { iron_param_kernel("f", unary(&k, "twice", IRON_UINT8,
                                                    "x * 2")),
                       iron_param_int("tile", 16) };
    ASSERT_OK(launch(j, 0, 2, p, IRON_TENSORS(x, y)));
    for (int64_t i = 0; i < 192; i++)
        ASSERT_DBL_NEAR(test_at(y, i), 2 * test_at(x, i), 0);
    const iron_run_counters *rc;
    ASSERT_OK(iron_jit_get_counters(j, &rc));
    ASSERT_EQ(rc->nworkers, 1);
    ASSERT_EQ(rc->workers[0].iterations, 12);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(algo_transform_bfloat16)
{
    /* Negation flips the sign bit: exact in bfloat16. */
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM);
    kbuf k;
    iron_tensor *x =
        test_randint(IRON_BFLOAT16, IRON_SHAPE(256), -100, 100, 9);
    iron_tensor *y = test_zeros(IRON_BFLOAT16, 256);
    iron_param p = iron_param_kernel("f", unary(&k, "neg", IRON_BFLOAT16,
                                                "x ^ 0x8000u"));
    ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, y)));
    for (int64_t i = 0; i < 256; i++)
        ASSERT_DBL_NEAR(test_at(y, i), -test_at(x, i), 0);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(algo_transform_binary_dtypes)
{
    /* c = a + 2b on values in [0, 20): exact in every dtype. */
    const iron_dtype dts[] = { IRON_INT8, IRON_UINT16, IRON_INT32,
                               IRON_UINT64, IRON_FLOAT32, IRON_FLOAT64 };
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM_BINARY);
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++) {
        kbuf k;
        const iron_kernel_ref *f = binary(&k, "axpy2", dts[t], "x + 2 * y");
        iron_tensor *a =
            test_randint(dts[t], IRON_SHAPE(512), 0, 20, 2 * t + 1);
        iron_tensor *b =
            test_randint(dts[t], IRON_SHAPE(512), 0, 20, 2 * t + 2);
        iron_tensor *c = test_zeros(dts[t], 512);
        iron_param p = iron_param_kernel("f", f);
        ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(a, b, c)));
        for (int64_t i = 0; i < 512; i++)
            ASSERT_DBL_NEAR(test_at(c, i), test_at(a, i) + 2 * test_at(b, i),
                            0);
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_tensor_free(c);
    }
    iron_jit_free(j);
}

/* One jit, the operation chosen per call by its kernel parameter: each
 * kernel is built once, a repeat finds its specialization. */
TEST(algo_kernel_parameter_changes_the_operation)
{
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM_BINARY);
    kbuf kadd, ksub;
    const iron_kernel_ref *add = binary(&kadd, "add", IRON_INT32, "x + y");
    const iron_kernel_ref *sub = binary(&ksub, "sub", IRON_INT32, "x - y");
    iron_tensor *a =
        test_randint(IRON_INT32, IRON_SHAPE(2048), -1000, 1000, 1);
    iron_tensor *b =
        test_randint(IRON_INT32, IRON_SHAPE(2048), -1000, 1000, 2);
    iron_tensor *c = test_zeros(IRON_INT32, 2048);
    const int32_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    const int32_t *pc = iron_tensor_data(c);
    const iron_kernel_ref *order[] = { add, sub, add };
    for (int r = 0; r < 3; r++) {
        int is_add = order[r] == add;
        ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_kernel("f",
                                                                  order[r])),
                                 a, b, c));
        for (int64_t i = 0; i < 2048; i++)
            ASSERT_EQ(pc[i], is_add ? pa[i] + pb[i] : pa[i] - pb[i]);
    }
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.memory_hits, 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* --- the parallel forms -------------------------------------------------- */

/* The workers of the last call sit on columns 0 .. n-1, row 2, and each
 * made `iters` kernel calls. */
static void assert_spread(iron_jit *j, int n, uint64_t iters)
{
    const iron_run_counters *rc;
    ASSERT_OK(iron_jit_get_counters(j, &rc));
    ASSERT_EQ(rc->nworkers, n);
    int seen[8] = { 0 };
    for (int w = 0; w < rc->nworkers; w++) {
        ASSERT_EQ(rc->workers[w].row, 2);
        ASSERT(rc->workers[w].col >= 0 && rc->workers[w].col < n);
        seen[rc->workers[w].col]++;
        ASSERT_EQ(rc->workers[w].iterations, iters);
    }
    for (int c = 0; c < n; c++)
        ASSERT_EQ(seen[c], 1);
}

TEST(algo_transform_parallel_columns)
{
    const int64_t n = 4096;
    const iron_dtype dts[] = { IRON_INT16, IRON_FLOAT32 };
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM_PARALLEL);
    for (size_t t = 0; t < 2; t++) {
        kbuf k;
        iron_param p = iron_param_kernel("f", unary(&k, "sq", dts[t],
                                                    "x * x"));
        iron_tensor *x = test_randint(dts[t], IRON_SHAPE(n), -100, 100, t + 5);
        for (int cols = 1; cols <= 4; cols *= 2) {
            iron_tensor *y = test_zeros(dts[t], n);
            ASSERT_OK(launch(j, cols, 1, &p, IRON_TENSORS(x, y)));
            for (int64_t i = 0; i < n; i++)
                ASSERT_DBL_NEAR(test_at(y, i), test_at(x, i) * test_at(x, i),
                                0);
            assert_spread(j, cols, (uint64_t)(n / cols / 64));
            iron_tensor_free(y);
        }
        iron_tensor_free(x);
    }
    iron_jit_free(j);
}

TEST(algo_transform_parallel_binary_columns)
{
    const int64_t n = 8192;
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM_PARALLEL_BINARY);
    kbuf k;
    iron_param p[] = { iron_param_kernel("f", binary(&k, "mx", IRON_INT32,
                                                     "x > y ? x : y")),
                       iron_param_int("tile", 256) };
    iron_tensor *a = test_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 1);
    iron_tensor *b = test_randint(IRON_INT32, IRON_SHAPE(n), -9999, 9999, 2);
    const int32_t *pa = iron_tensor_data(a), *pb = iron_tensor_data(b);
    for (int cols = 1; cols <= 4; cols *= 2) {
        iron_tensor *c = test_zeros(IRON_INT32, n);
        ASSERT_OK(launch(j, cols, 2, p, IRON_TENSORS(a, b, c)));
        const int32_t *pc = iron_tensor_data(c);
        for (int64_t i = 0; i < n; i++)
            ASSERT_EQ(pc[i], pa[i] > pb[i] ? pa[i] : pb[i]);
        assert_spread(j, cols, (uint64_t)(n / cols / 256));
        iron_tensor_free(c);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(algo_parallel_defaults_to_every_column)
{
    /* npu2 has 8 columns, npu1 4; `workers` picks fewer. */
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM_PARALLEL);
    kbuf k;
    const iron_kernel_ref *f = unary(&k, "inc", IRON_INT32, "x + 1");
    iron_tensor *x = test_arange(IRON_INT32, 1024);
    iron_tensor *y = test_zeros(IRON_INT32, 1024);
    const int32_t *py = iron_tensor_data(y);
    iron_param p = iron_param_kernel("f", f);
    IRON_WITH_DEVICE("npu2")
    {
        ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, y)));
        assert_spread(j, 8, 2);
    }
    IRON_WITH_DEVICE("npu1")
    {
        memset(iron_tensor_data(y), 0, 4096);
        ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, y)));
        assert_spread(j, 4, 4);
    }
    for (int64_t i = 0; i < 1024; i++)
        ASSERT_EQ(py[i], i + 1);
    iron_param pw[] = { p, iron_param_int("workers", 2) };
    ASSERT_OK(launch(j, 0, 2, pw, IRON_TENSORS(x, y)));
    assert_spread(j, 2, 8);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

/* --- for_each and reduce ------------------------------------------------- */

TEST(algo_for_each_in_place)
{
    const iron_dtype dts[] = { IRON_INT8, IRON_INT32, IRON_FLOAT64 };
    iron_jit *j = algo_jit(IRON_ALGO_FOR_EACH);
    for (size_t t = 0; t < 3; t++) {
        kbuf k;
        iron_param p = iron_param_kernel("f", unary(&k, "dec", dts[t],
                                                    "x - 5"));
        iron_tensor *x =
            test_randint(dts[t], IRON_SHAPE(8, 64), -50, 50, t + 11);
        double before[512];
        for (int64_t i = 0; i < 512; i++)
            before[i] = test_at(x, i);
        ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x)));
        for (int64_t i = 0; i < 512; i++)
            ASSERT_DBL_NEAR(test_at(x, i), before[i] - 5, 0);
        /* Again: the worker keeps its place in both fifos. */
        ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x)));
        for (int64_t i = 0; i < 512; i++)
            ASSERT_DBL_NEAR(test_at(x, i), before[i] - 10, 0);
        iron_tensor_free(x);
    }
    iron_jit_free(j);
}

static const iron_kernel_ref sum_i32_to_i64 = {
    "sum",
    "#include <stdint.h>\n"
    "void sum(const int32_t *in, int64_t *out, int32_t n)\n"
    "{ int64_t s = 0; for (int32_t i = 0; i < n; i++) s += in[i];"
    " out[0] = s; }\n",
    "int32*, int64*, int32",
};

static const iron_kernel_ref minmax_f32 = {
    "minmax",
    "#include <stdint.h>\n"
    "void minmax(const float *in, float *out, int32_t n)\n"
    "{ float lo = in[0], hi = in[0];\n"
    "  for (int32_t i = 1; i < n; i++) {\n"
    "    if (in[i] < lo) lo = in[i];\n"
    "    if (in[i] > hi) hi = in[i]; }\n"
    "  out[0] = lo; out[1] = hi; }\n",
    "float32*, float32*, int32",
};

TEST(algo_reduce_sum_and_minmax)
{
    iron_jit *j = algo_jit(IRON_ALGO_REDUCE);
    /* int32 -> int64, twice: each launch is one kernel call. */
    for (uint64_t seed = 1; seed <= 2; seed++) {
        iron_tensor *x =
            test_randint(IRON_INT32, IRON_SHAPE(10000), -100000, 100000, seed);
        iron_tensor *s = test_zeros(IRON_INT64, 1);
        iron_param p = iron_param_kernel("f", &sum_i32_to_i64);
        ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, s)));
        const int32_t *px = iron_tensor_data(x);
        int64_t want = 0;
        for (int i = 0; i < 10000; i++)
            want += px[i];
        ASSERT_EQ(((int64_t *)iron_tensor_data(s))[0], want);
        const iron_run_counters *rc;
        ASSERT_OK(iron_jit_get_counters(j, &rc));
        ASSERT_EQ(rc->workers[0].iterations, 1);
        iron_tensor_free(x);
        iron_tensor_free(s);
    }
    /* A 2-D float input to a two-element output. */
    iron_tensor *x = NULL;
    ASSERT_OK(iron_tensor_rand(IRON_FLOAT32, IRON_SHAPE(30, 100), 4, &x));
    iron_tensor *mm = test_zeros(IRON_FLOAT32, 2);
    iron_param p = iron_param_kernel("f", &minmax_f32);
    ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, mm)));
    const float *px = iron_tensor_data(x), *pm = iron_tensor_data(mm);
    float lo = px[0], hi = px[0];
    for (int i = 1; i < 3000; i++) {
        lo = px[i] < lo ? px[i] : lo;
        hi = px[i] > hi ? px[i] : hi;
    }
    ASSERT(pm[0] == lo && pm[1] == hi);
    iron_tensor_free(x);
    iron_tensor_free(mm);
    iron_jit_free(j);
}

/* --- the API around the designs ------------------------------------------ */

TEST(algo_table_and_custom_options)
{
    ASSERT_STR_EQ(iron_algo_name(IRON_ALGO_FOR_EACH), "for_each");
    ASSERT_STR_EQ(iron_algo_args(IRON_ALGO_TRANSFORM_BINARY),
                  "in a: T, in b: T, out c: T");
    ASSERT_STR_EQ(iron_algo_params(IRON_ALGO_TRANSFORM_PARALLEL),
                  "f: kernel, tile: int = 64, workers: int = 0");
    ASSERT(iron_algo_design(IRON_ALGO_REDUCE) == iron_algo_reduce);
    ASSERT(iron_algo_name(IRON_ALGO_COUNT_) == NULL);
    ASSERT(iron_algo_design((iron_algo)-1) == NULL);
    ASSERT(iron_algo_args((iron_algo)99) == NULL);
    ASSERT(iron_algo_params(IRON_ALGO_COUNT_) == NULL);

    /* The pieces compose with iron_jit_create for other options. */
    iron_jit_options o = { .size = sizeof o, .name = "relu_o3",
                           .args = iron_algo_args(IRON_ALGO_TRANSFORM),
                           .params = iron_algo_params(IRON_ALGO_TRANSFORM),
                           .cflags = "-O3", .disk_cache = -1 };
    iron_jit *j = test_new_jit(iron_algo_design(IRON_ALGO_TRANSFORM), &o);
    kbuf k;
    iron_tensor *x = test_randint(IRON_FLOAT32, IRON_SHAPE(128), -5, 5, 1);
    iron_tensor *y = test_zeros(IRON_FLOAT32, 128);
    iron_param p = iron_param_kernel("f", unary(&k, "relu", IRON_FLOAT32,
                                                "x > 0 ? x : 0"));
    ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, y)));
    for (int64_t i = 0; i < 128; i++)
        ASSERT_DBL_NEAR(test_at(y, i), test_at(x, i) > 0 ? test_at(x, i) : 0,
                        0);
    /* Its name is the one given. */
    iron_tensor *z = test_zeros(IRON_FLOAT32, 100);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(x, z)), IRON_ESHAPE);
    ASSERT_MSG("relu_o3 (");
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(z);
    iron_jit_free(j);
}

TEST(algo_jit_create_errors)
{
    iron_jit *j = (iron_jit *)&j;
    ASSERT_FAILS(iron_algo_jit_create(IRON_ALGO_COUNT_, "x", &j), IRON_EINVAL,
                 "kind 6 is no algorithm; expected an iron_algo, 0 .. 5");
    ASSERT(j == NULL);
    ASSERT_FAILS(iron_algo_jit_create((iron_algo)-3, NULL, &j), IRON_EINVAL,
                 "kind -3");
    ASSERT_FAILS(iron_algo_jit_create(IRON_ALGO_TRANSFORM, NULL, NULL),
                 IRON_EINVAL, "out is NULL");
    /* The jit takes the algorithm's name when none is given. */
    ASSERT_OK(iron_algo_jit_create(IRON_ALGO_REDUCE, NULL, &j));
    iron_tensor *x = test_zeros(IRON_INT32, 16);
    iron_tensor *y = test_zeros(IRON_INT32, 1);
    ASSERT_STATUS(IRON_CALL(j, x, y), IRON_EPARAM);
    ASSERT_MSG("reduce");
    ASSERT_MSG("parameter 'f' (kernel) has no default and was not given");
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

/* --- design errors ------------------------------------------------------- */

TEST(algo_error_dtypes_and_shapes)
{
    kbuf k;
    iron_param p = iron_param_kernel("f", binary(&k, "add", IRON_INT32,
                                                 "x + y"));
    iron_tensor *a = test_zeros(IRON_INT32, 64);
    iron_tensor *bf = test_zeros(IRON_FLOAT32, 64);
    iron_tensor *b2 = test_zeros_shape(IRON_INT32, IRON_SHAPE(8, 8));
    iron_tensor *c = test_zeros(IRON_INT32, 64);
    /* Declared with T: the jit refuses before the design runs. */
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM_BINARY);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(a, bf, c)), IRON_EARG);
    ASSERT_MSG("argument 1 ('b'): expected int32, got float32[64]");
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(a, b2, c)), IRON_ESHAPE);
    ASSERT_MSG("transform_binary: argument 1 ('b') is int32[8, 8]; expected "
               "the shape of argument 0 ('a'), int32[64]");
    iron_jit_free(j);
    /* Declared by roles only: the design checks the dtypes itself. */
    iron_jit_options o = { .size = sizeof o, .name = "loose",
                           .args = "in a, in b, out c",
                           .params = iron_algo_params(
                               IRON_ALGO_TRANSFORM_BINARY) };
    j = test_new_jit(iron_algo_transform_binary, &o);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(a, bf, c)), IRON_EDTYPE);
    ASSERT_MSG("transform_binary: argument 1 ('b') is float32[64]; expected "
               "the dtype of argument 0 ('a'), int32[64]");
    iron_jit_free(j);
    /* Another number of tensors than the algorithm takes. */
    o.args = "in a, out c";
    j = test_new_jit(iron_algo_transform_binary, &o);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(a, c)), IRON_EDESIGN);
    ASSERT_MSG("transform_binary: the jit declares 2 tensor arguments, the "
               "algorithm takes 3");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(bf);
    iron_tensor_free(b2);
    iron_tensor_free(c);
}

TEST(algo_error_kernel_convention)
{
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM);
    iron_tensor *x = test_zeros(IRON_INT32, 64);
    iron_tensor *y = test_zeros(IRON_INT32, 64);
    kbuf k;
    /* A binary kernel given to a unary algorithm. */
    iron_param p = iron_param_kernel("f", binary(&k, "add", IRON_INT32,
                                                 "x + y"));
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(x, y)), IRON_EPARAM);
    ASSERT_MSG("transform: parameter 'f' (kernel 'add') declares \"int32*, "
               "int32*, int32*, int32\"; transform calls it as f(const T "
               "*in, T *out, int32_t n), so expected \"int32*, int32*, "
               "int32\"");
    /* A float32 kernel on int32 tensors. */
    p = iron_param_kernel("f", unary(&k, "inc", IRON_FLOAT32, "x + 1"));
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(x, y)), IRON_EPARAM);
    ASSERT_MSG("declares \"float32*, float32*, int32\"");
    ASSERT_MSG("expected \"int32*, int32*, int32\"");
    /* Types the kernel parser refuses. */
    iron_kernel_ref bad = { "inc", "void inc(void) {}", "int32*, banana" };
    p = iron_param_kernel("f", &bad);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(x, y)), IRON_EPARAM);
    ASSERT_MSG("transform: parameter 'f' (kernel 'inc'): arg_types "
               "\"int32*, banana\"");
    iron_jit_free(j);
    /* reduce: the output's dtype is part of the convention. */
    j = algo_jit(IRON_ALGO_REDUCE);
    iron_tensor *s = test_zeros(IRON_INT32, 1);
    p = iron_param_kernel("f", &sum_i32_to_i64);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(x, s)), IRON_EPARAM);
    ASSERT_MSG("reduce: parameter 'f' (kernel 'sum') declares \"int32*, "
               "int64*, int32\"; reduce calls it as f(const T *in, U *out, "
               "int32_t n), so expected \"int32*, int32*, int32\"");
    iron_tensor_free(s);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(algo_error_tile_and_workers)
{
    kbuf k;
    const iron_kernel_ref *f = unary(&k, "inc", IRON_INT32, "x + 1");
    iron_tensor *x = test_zeros(IRON_INT32, 1000);
    iron_tensor *y = test_zeros(IRON_INT32, 1000);
    iron_tensor *x2 = test_zeros(IRON_INT32, 1024);
    iron_tensor *y2 = test_zeros(IRON_INT32, 1024);
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM);
    iron_param p[] = { iron_param_kernel("f", f), iron_param_int("tile", 0) };
    ASSERT_STATUS(launch(j, 0, 2, p, IRON_TENSORS(x, y)), IRON_EPARAM);
    ASSERT_MSG("transform: parameter 'tile' = 0: expected 1 .. 2147483647");
    p[1] = iron_param_int("tile", (int64_t)1 << 31);
    ASSERT_STATUS(launch(j, 0, 2, p, IRON_TENSORS(x, y)), IRON_EPARAM);
    ASSERT_MSG("parameter 'tile' = 2147483648");
    ASSERT_STATUS(launch(j, 0, 1, p, IRON_TENSORS(x, y)), IRON_ESHAPE);
    ASSERT_MSG("transform: argument 0 ('x') has 1000 elements, not a "
               "multiple of parameter 'tile' = 64");
    iron_jit_free(j);

    j = algo_jit(IRON_ALGO_TRANSFORM_PARALLEL);
    ASSERT_STATUS(launch(j, 0, 1, p, IRON_TENSORS(x2, y2)), IRON_OK);
    iron_param pw[] = { iron_param_kernel("f", f),
                        iron_param_int("tile", 256) };
    ASSERT_STATUS(launch(j, 0, 2, pw, IRON_TENSORS(x2, y2)), IRON_ESHAPE);
    ASSERT_MSG("transform_parallel: argument 0 ('x') has 1024 elements, not "
               "a multiple of parameters 'tile' x 'workers' = 256 x 8 = "
               "2048");
    ASSERT_STATUS(launch(j, 4, 2, pw, IRON_TENSORS(x2, y2)), IRON_OK);
    iron_param pn[] = { iron_param_kernel("f", f),
                        iron_param_int("workers", 5) };
    ASSERT_STATUS(launch(j, 4, 2, pn, IRON_TENSORS(x2, y2)), IRON_EPARAM);
    ASSERT_MSG("transform_parallel: parameter 'workers' = 5: expected 0 "
               "(every granted column) or 1 .. 4, the columns granted");
    pn[1] = iron_param_int("workers", -1);
    ASSERT_STATUS(launch(j, 0, 2, pn, IRON_TENSORS(x2, y2)), IRON_EPARAM);
    ASSERT_MSG("parameter 'workers' = -1: expected 0 (every granted column) "
               "or 1 .. 8");
    iron_jit_free(j);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(x2);
    iron_tensor_free(y2);
}

/* The largest tile the message offers fits; one more element does not. */
TEST(algo_error_tile_memory)
{
    iron_jit *j = algo_jit(IRON_ALGO_TRANSFORM_BINARY);
    kbuf k;
    const iron_kernel_ref *f = binary(&k, "add", IRON_INT32, "x + y");
    iron_tensor *a = test_zeros(IRON_INT32, 5376 * 2);
    iron_tensor *c = test_zeros(IRON_INT32, 5376 * 2);
    iron_param p[] = { iron_param_kernel("f", f),
                       iron_param_int("tile", 5377) };
    ASSERT_STATUS(launch(j, 0, 2, p, IRON_TENSORS(a, a, c)), IRON_ESHAPE);
    p[1] = iron_param_int("tile", 5376 * 2);
    ASSERT_STATUS(launch(j, 0, 2, p, IRON_TENSORS(a, a, c)), IRON_ERESOURCE);
    /* 65536 bytes less the 1024-byte stack, over 3 fifos x 2 buffers:
     * 10752 bytes a buffer, 2688 int32. */
    ASSERT_MSG("transform_binary: parameter 'tile' = 10752: a worker holds "
               "3 fifos x 2 buffers of 10752 int32 = 258048 bytes, over the "
               "64512 its compute tile has beside the stack (1024 of 65536 "
               "bytes); tile <= 2688 fits");
    iron_tensor *a2 = test_zeros(IRON_INT32, 2688 * 2);
    iron_tensor *c2 = test_zeros(IRON_INT32, 2688 * 2);
    p[1] = iron_param_int("tile", 2688);
    ASSERT_OK(launch(j, 1, 2, p, IRON_TENSORS(a2, a2, c2)));
    iron_tensor_free(a);
    iron_tensor_free(c);
    iron_tensor_free(a2);
    iron_tensor_free(c2);
    iron_jit_free(j);
}

static const iron_kernel_ref sum_i8 = {
    "sum8",
    "#include <stdint.h>\n"
    "void sum8(const int8_t *in, int32_t *out, int32_t n)\n"
    "{ int32_t s = 0; for (int32_t i = 0; i < n; i++) s += in[i];"
    " out[0] = s; }\n",
    "int8*, int32*, int32",
};

TEST(algo_error_reduce_memory)
{
    iron_jit *j = algo_jit(IRON_ALGO_REDUCE);
    iron_param p = iron_param_kernel("f", &sum_i8);
    iron_tensor *s = test_zeros(IRON_INT32, 1);
    /* 64480 bytes of input + one 32-byte buffer for the output: exactly
     * the 64512 beside the stack. */
    iron_tensor *fits = test_zeros(IRON_INT8, 64480);
    ASSERT_OK(iron_tensor_set_element(fits, 0, 7));
    ASSERT_OK(iron_tensor_set_element(fits, 64479, 5));
    ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(fits, s)));
    ASSERT_DBL_NEAR(test_at(s, 0), 12, 0);
    iron_tensor *big = test_zeros(IRON_INT8, 64481);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(big, s)), IRON_ERESOURCE);
    ASSERT_MSG("reduce: the whole input is one kernel call's object, so it "
               "must fit one compute tile: argument 0 ('x') int8[64481] is "
               "64481 bytes and argument 1 ('y') int32[1] 4, together 64544 "
               "bytes (aligned), over the 64512 the tile has beside the "
               "stack (1024 of 65536 bytes)");
    iron_tensor_free(fits);
    iron_tensor_free(big);
    iron_tensor_free(s);
    iron_jit_free(j);
}

/* Every fill and drain moves whole 4-byte words. */
TEST(algo_error_dma_words)
{
    static const iron_kernel_ref first = {
        "first",
        "#include <stdint.h>\n"
        "void first(const int8_t *in, int8_t *out, int32_t n)\n"
        "{ (void)n; out[0] = in[0]; }\n",
        "int8*, int8*, int32",
    };
    iron_jit *j = algo_jit(IRON_ALGO_REDUCE);
    iron_param p = iron_param_kernel("f", &first);
    iron_tensor *x = test_zeros(IRON_INT8, 64);
    iron_tensor *y1 = test_zeros(IRON_INT8, 1);
    iron_tensor *y4 = test_zeros(IRON_INT8, 4);
    ASSERT_STATUS(launch(j, 0, 1, &p, IRON_TENSORS(x, y1)), IRON_ESHAPE);
    ASSERT_MSG("reduce: argument 1 ('y') int8[1]: the whole tensor is 1 "
               "int8 element = 1 byte, not a whole number of the 4-byte "
               "words the shim DMA moves");
    ASSERT_OK(launch(j, 0, 1, &p, IRON_TENSORS(x, y4)));
    iron_jit_free(j);

    j = algo_jit(IRON_ALGO_TRANSFORM_PARALLEL);
    kbuf k;
    iron_param pt[] = { iron_param_kernel("f", unary(&k, "inc", IRON_INT8,
                                                     "x + 1")),
                        iron_param_int("tile", 2) };
    iron_tensor *a = test_zeros(IRON_INT8, 24);
    iron_tensor *b = test_zeros(IRON_INT8, 24);
    ASSERT_STATUS(launch(j, 4, 2, pt, IRON_TENSORS(a, b)), IRON_ESHAPE);
    ASSERT_MSG("transform_parallel: argument 0 ('x') int8[24]: each of the 4 "
               "workers' slices is 6 int8 elements = 6 bytes");
    ASSERT_OK(launch(j, 3, 2, pt, IRON_TENSORS(a, b)));
    ASSERT_DBL_NEAR(test_at(b, 23), 1, 0);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(x);
    iron_tensor_free(y1);
    iron_tensor_free(y4);
    iron_jit_free(j);
}
