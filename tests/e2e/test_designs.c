/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_designs.c - end-to-end tests: designs built through jit objects,
 * verified, placed, compiled and run on the emulated NPU, each result
 * compared element by element with plain C.  Also the specialization
 * cache (stats), persistence of loaded objects across calls, scoped and
 * default devices, launch configurations, multi-worker dataflow
 * (chains, broadcast, one worker per column), N-D access patterns, and
 * float / bfloat16 / integer scalar kernel arguments.
 */
#include <stdio.h>

#include "designs/designs.h"
#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static iron_tensor *randint_1d(iron_dtype dt, int64_t n, int64_t lo,
                               int64_t hi, uint64_t seed)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_randint(dt, IRON_SHAPE(n), lo, hi, seed, &t));
    return t;
}

static iron_tensor *zeros_shape(iron_dtype dt, iron_shape s)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_zeros(dt, s, &t));
    return t;
}

static iron_tensor *zeros_1d(iron_dtype dt, int64_t n)
{
    return zeros_shape(dt, IRON_SHAPE(n));
}

static iron_jit *make_jit(iron_design_fn fn, const iron_jit_options *o)
{
    iron_jit *j = NULL;
    ASSERT_OK(iron_jit_create(fn, o, &j));
    ASSERT(j != NULL);
    return j;
}


static int64_t count_i32_mismatch(const iron_tensor *got,
                                  const int32_t *want, int64_t n)
{
    int64_t bad = 0;
    const int32_t *g = iron_tensor_data((iron_tensor *)(uintptr_t)got);
    for (int64_t i = 0; i < n; i++)
        if (g[i] != want[i]) {
            if (bad < 5)
                fprintf(stderr, "  [%lld] got %d want %d\n", (long long)i,
                        g[i], want[i]);
            bad++;
        }
    return bad;
}

static const char add_const_i32_src[] =
    "#include <stdint.h>\n"
    "void add_const(const int32_t *in, int32_t *out, int32_t c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + c;\n"
    "}\n";

static const char mul_const_i32_src[] =
    "#include <stdint.h>\n"
    "void mul_const(const int32_t *in, int32_t *out, int32_t c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] * c;\n"
    "}\n";

#define OBJ 16

/* ------------------------------------------------------------------------
 * Passthrough (reference design)
 * ------------------------------------------------------------------------ */

static void run_passthrough(int64_t n, int64_t obj, uint64_t seed)
{
    iron_jit *j = make_jit(passthrough_design, &passthrough_options);
    iron_tensor *in = randint_1d(IRON_UINT8, n, 0, 256, seed);
    iron_tensor *out = zeros_1d(IRON_UINT8, n);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("obj", obj)), in,
                             out));
    const uint8_t *a = iron_tensor_data(in), *b = iron_tensor_data(out);
    for (int64_t i = 0; i < n; i++)
        if (a[i] != b[i])
            TEST_FAIL_("passthrough n=%lld obj=%lld: [%lld] %u != %u",
                       (long long)n, (long long)obj, (long long)i, a[i], b[i]);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
}

TEST(e2e_passthrough_sizes)
{
    run_passthrough(512, 0, 1);     /* objects of N/4 = 128 */
    run_passthrough(4096, 0, 2);    /* objects of 1024 */
    run_passthrough(16384, 0, 3);   /* objects of 4096 */
}

TEST(e2e_passthrough_object_sizes)
{
    run_passthrough(4096, 64, 4);
    run_passthrough(4096, 256, 5);
    run_passthrough(4096, 4096, 6); /* one object per call */
    run_passthrough(1024, 1, 7);    /* one byte per object */
    run_passthrough(960, 320, 8);   /* not a power of two */
}

/* The same passthrough jit over several shapes: each is its own build and
 * each keeps working when revisited. */
TEST(e2e_passthrough_shapes_revisited)
{
    iron_jit *j = make_jit(passthrough_design, &passthrough_options);
    const int64_t sizes[] = { 512, 1024, 2048, 512, 2048 };
    for (int k = 0; k < 5; k++) {
        int64_t n = sizes[k];
        iron_tensor *in = randint_1d(IRON_UINT8, n, 0, 256, (uint64_t)k);
        iron_tensor *out = zeros_1d(IRON_UINT8, n);
        ASSERT_OK(IRON_CALL(j, in, out));
        ASSERT_EQ(memcmp(iron_tensor_data(in), iron_tensor_data(out),
                         (size_t)n),
                  0);
        iron_tensor_free(in);
        iron_tensor_free(out);
    }
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.calls, 5);
    ASSERT_EQ(st.builds, 3);
    ASSERT_EQ(st.memory_hits, 2);
    ASSERT_EQ(st.specializations, 3);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Vector add / sub (reference design, compile-time op and tile)
 * ------------------------------------------------------------------------ */

static void check_vector_op(iron_jit *j, int64_t n, const char *op,
                            int64_t tile, int use_params)
{
    /* Small enough that no product overflows (in the kernel or here). */
    const int64_t r = op[0] == '*' ? 30000 : 100000;
    iron_tensor *a = randint_1d(IRON_INT32, n, -r, r, 11);
    iron_tensor *b = randint_1d(IRON_INT32, n, -r, r, 12);
    iron_tensor *c = zeros_1d(IRON_INT32, n);
    if (use_params)
        ASSERT_OK(IRON_CALL_WITH(j,
                                 IRON_PARAMS(iron_param_str("op", op),
                                             iron_param_int("tile", tile)),
                                 a, b, c));
    else
        ASSERT_OK(IRON_CALL(j, a, b, c));
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    const int32_t *z = iron_tensor_data(c);
    for (int64_t i = 0; i < n; i++) {
        int32_t want = op[0] == '+' ? x[i] + y[i]
                       : op[0] == '-' ? x[i] - y[i]
                                      : x[i] * y[i];
        if (z[i] != want)
            TEST_FAIL_("op '%s' tile %lld n %lld: [%lld] %d %s %d = %d, "
                       "want %d",
                       op, (long long)tile, (long long)n, (long long)i, x[i],
                       op, y[i], z[i], want);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

TEST(e2e_vector_add)
{
    iron_jit *j = make_jit(vector_op_design, &vector_op_options);
    check_vector_op(j, 16, "+", 16, 0);
    check_vector_op(j, 1024, "+", 16, 0);
    check_vector_op(j, 1 << 16, "+", 16, 0);
    iron_jit_free(j);
}

TEST(e2e_vector_sub_via_param)
{
    iron_jit *j = make_jit(vector_op_design, &vector_op_options);
    check_vector_op(j, 4096, "-", 16, 1);
    /* Any C binary operator: the param is a define seen by the kernel. */
    check_vector_op(j, 4096, "*", 16, 1);
    iron_jit_free(j);
}

TEST(e2e_vector_op_other_tiles)
{
    iron_jit *j = make_jit(vector_op_design, &vector_op_options);
    check_vector_op(j, 4096, "+", 64, 1);
    check_vector_op(j, 4096, "-", 256, 1);
    check_vector_op(j, 4096, "+", 1024, 1);
    check_vector_op(j, 4800, "-", 48, 1);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 4);
    ASSERT_EQ(st.specializations, 4);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * The specialization cache
 * ------------------------------------------------------------------------ */

TEST(e2e_cache_same_call_twice)
{
    iron_jit_options o = test_in_memory(&vector_op_options);
    iron_jit *j = make_jit(vector_op_design, &o);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.calls, 0);
    ASSERT_EQ(st.builds, 0);
    ASSERT_EQ(st.specializations, 0);
    check_vector_op(j, 1024, "+", 16, 0);
    st = test_stats(j);
    ASSERT_EQ(st.calls, 1);
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.memory_hits, 0);
    ASSERT(st.last_build_ms > 0.0);
    check_vector_op(j, 1024, "+", 16, 0);
    st = test_stats(j);
    ASSERT_EQ(st.calls, 2);
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.design_runs, 1);
    ASSERT_EQ(st.kernel_compiles, 1);
    ASSERT_EQ(st.memory_hits, 1);
    ASSERT_EQ(st.specializations, 1);
    /* Explicit defaults are the same specialization as implicit ones. */
    check_vector_op(j, 1024, "+", 16, 1);
    /* A launch config with cols = 0 means every column: same again. */
    iron_tensor *a = randint_1d(IRON_INT32, 1024, -5, 5, 1);
    iron_tensor *b = randint_1d(IRON_INT32, 1024, -5, 5, 2);
    iron_tensor *c = zeros_1d(IRON_INT32, 1024);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 0 };
    ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, c)));
    st = test_stats(j);
    ASSERT_EQ(st.calls, 4);
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.memory_hits, 3);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

TEST(e2e_cache_new_shape_builds_again)
{
    iron_jit_options o = test_in_memory(&vector_op_options);
    iron_jit *j = make_jit(vector_op_design, &o);
    check_vector_op(j, 1024, "+", 16, 0);
    check_vector_op(j, 2048, "+", 16, 0);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.design_runs, 2);
    /* The kernel text does not depend on the length: compiled once and
     * shared by the second specialization. */
    ASSERT_EQ(st.kernel_compiles, 1);
    ASSERT_EQ(st.kernel_shares, 1);
    ASSERT_EQ(st.memory_hits, 0);
    ASSERT_EQ(st.specializations, 2);
    check_vector_op(j, 1024, "+", 16, 0);
    check_vector_op(j, 2048, "+", 16, 0);
    st = test_stats(j);
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.memory_hits, 2);
    iron_jit_free(j);
}

/* Each parameter value is its own specialization: '+' and '-' never share
 * an entry, and revisiting '+' after '-' still adds. */
TEST(e2e_cache_param_values_are_distinct)
{
    iron_jit *j = make_jit(vector_op_design, &vector_op_options);
    check_vector_op(j, 1024, "+", 16, 1);
    check_vector_op(j, 1024, "-", 16, 1);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.specializations, 2);
    ASSERT_EQ(st.memory_hits, 0);
    check_vector_op(j, 1024, "+", 16, 1);
    check_vector_op(j, 1024, "-", 16, 1);
    check_vector_op(j, 1024, "+", 32, 1);
    st = test_stats(j);
    ASSERT_EQ(st.builds, 3);
    ASSERT_EQ(st.specializations, 3);
    ASSERT_EQ(st.memory_hits, 2);
    iron_jit_free(j);
}

/* Values bound on the jit act as defaults; a call's own value wins. */
TEST(e2e_bind_params)
{
    iron_jit *j = make_jit(vector_op_design, &vector_op_options);
    ASSERT_OK(iron_jit_bind(j, IRON_PARAMS(iron_param_str("op", "-"))));
    check_vector_op(j, 512, "-", 16, 0);
    check_vector_op(j, 512, "+", 16, 1);
    /* Rebinding replaces the earlier value. */
    ASSERT_OK(iron_jit_bind(j, IRON_PARAMS(iron_param_str("op", "+"),
                                           iron_param_int("tile", 32))));
    check_vector_op(j, 512, "+", 32, 0);
    check_vector_op(j, 512, "+", 32, 0);
    /* The call's value wins over the bound one. */
    check_vector_op(j, 512, "-", 16, 1);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 3);
    ASSERT_EQ(st.memory_hits, 2);
    iron_jit_free(j);
}

/* A string parameter given from a buffer the caller then changes: the
 * specialization must have kept its own copy (keyed by content). */
TEST(e2e_param_string_copied)
{
    iron_jit *j = make_jit(vector_op_design, &vector_op_options);
    char op[2] = "-";
    iron_tensor *a = randint_1d(IRON_INT32, 256, -50, 50, 3);
    iron_tensor *b = randint_1d(IRON_INT32, 256, -50, 50, 4);
    iron_tensor *c = zeros_1d(IRON_INT32, 256);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", op)), a, b,
                             c));
    op[0] = '+';
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", op)), a, b,
                             c));
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b),
                  *z = iron_tensor_data(c);
    for (int i = 0; i < 256; i++)
        ASSERT_EQ(z[i], x[i] + y[i]);
    ASSERT_EQ(test_stats(j).builds, 2);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Persistence: loaded objects and workers live across calls
 * ------------------------------------------------------------------------ */

static const char bump_src[] =
    "#include <stdint.h>\n"
    "void bump(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    static int32_t calls;\n"
    "    calls++;\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + calls;\n"
    "}\n";

static int bump_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "bump", bump_src,
                                     "int32*, int32*, int32");
    iron_worker *w = iron_worker_new(
        d, "bump", k, n / OBJ,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                  iron_arg_fifo(iron_fifo_prod(b)), iron_arg_int(OBJ)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static const iron_jit_options bump_options = {
    .size = sizeof(iron_jit_options),
    .name = "bump",
    .args = "in a: int32[N], out b: int32[N]",
};

/* The kernel counts its invocations in a static: every object is one
 * invocation, so call k sees counts continuing from call k-1. */
static void check_bump(iron_jit *j, int64_t n, int first_count)
{
    iron_tensor *a = randint_1d(IRON_INT32, n, -1000, 1000, 5);
    iron_tensor *b = zeros_1d(IRON_INT32, n);
    ASSERT_OK(IRON_CALL(j, a, b));
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    for (int64_t i = 0; i < n; i++)
        if (y[i] != x[i] + first_count + (int32_t)(i / OBJ))
            TEST_FAIL_("bump [%lld]: %d, want %d + %d", (long long)i, y[i],
                       x[i], first_count + (int32_t)(i / OBJ));
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(e2e_persistence_static_counter)
{
    iron_jit *j = make_jit(bump_design, &bump_options);
    check_bump(j, 64, 1);   /* objects 1..4 */
    check_bump(j, 64, 5);   /* the loaded object persisted: 5..8 */
    check_bump(j, 64, 9);
    /* A new shape is a new specialization with its own object. */
    check_bump(j, 32, 1);
    check_bump(j, 64, 13);
    iron_jit_free(j);

    /* A new jit compiles anew: the count restarts. */
    j = make_jit(bump_design, &bump_options);
    check_bump(j, 64, 1);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Devices: default, scoped, and specialization per device
 * ------------------------------------------------------------------------ */

typedef struct probe {
    int runs;
    int cols;
    char dev[32];
    int dev_columns;
} probe;

static const char copy_i32_src[] =
    "#include <stdint.h>\n"
    "void copy_i32(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "}\n";

/* A copy that records what the design function saw. */
static int probe_design(iron_design *d, void *user)
{
    probe *pr = user;
    pr->runs++;
    pr->cols = iron_design_cols(d);
    const iron_device_info *info = iron_design_device(d);
    snprintf(pr->dev, sizeof pr->dev, "%s", info ? info->name : "?");
    pr->dev_columns = info ? info->columns : -1;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "copy_i32", copy_i32_src,
                                     "int32*, int32*, int32");
    iron_worker *w = iron_worker_new(
        d, "copy", k, n / OBJ,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                  iron_arg_fifo(iron_fifo_prod(b)), iron_arg_int(OBJ)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_jit *probe_jit(probe *pr)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "probe",
        .args = "in a: int32[N], out b: int32[N]",
        .user = pr,
    };
    return make_jit(probe_design, &o);
}

static void probe_call(iron_jit *j, const iron_launch_config *cfg)
{
    iron_tensor *a = randint_1d(IRON_INT32, 128, -9, 9, 21);
    iron_tensor *b = zeros_1d(IRON_INT32, 128);
    ASSERT_OK(iron_jit_launch(j, cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    ASSERT_EQ(memcmp(iron_tensor_data(a), iron_tensor_data(b), 128 * 4), 0);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(e2e_scoped_device_specializes_per_device)
{
    probe pr = { 0 };
    iron_jit *j = probe_jit(&pr);
    probe_call(j, NULL);
    ASSERT_STR_EQ(pr.dev, "npu2");
    ASSERT_EQ(pr.cols, 8);
    IRON_WITH_DEVICE("npu1_1col")
    {
        iron_device *dev = NULL;
        ASSERT_OK(iron_device_get_current(&dev));
        ASSERT_STR_EQ(iron_device_name(dev), "npu1_1col");
        probe_call(j, NULL);
    }
    ASSERT_STR_EQ(pr.dev, "npu1_1col");
    ASSERT_EQ(pr.cols, 1);
    ASSERT_EQ(pr.dev_columns, 1);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.specializations, 2);
    /* Back outside the scope: the npu2 specialization is found again. */
    probe_call(j, NULL);
    st = test_stats(j);
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.memory_hits, 1);
    ASSERT_EQ(pr.runs, 2);
    iron_jit_free(j);
}

TEST(e2e_default_device_and_nested_scopes)
{
    probe pr = { 0 };
    iron_jit *j = probe_jit(&pr);
    ASSERT_OK(iron_device_set_default("npu1"));
    ASSERT_STR_EQ(iron_device_name(iron_device_default()), "npu1");
    probe_call(j, NULL);
    ASSERT_STR_EQ(pr.dev, "npu1");
    ASSERT_EQ(pr.cols, 4);
    IRON_WITH_DEVICE("npu2_3col")
    {
        probe_call(j, NULL);
        ASSERT_STR_EQ(pr.dev, "npu2_3col");
        ASSERT_EQ(pr.cols, 3);
        IRON_WITH_DEVICE("npu1_2col")
        {
            probe_call(j, NULL);
            ASSERT_STR_EQ(pr.dev, "npu1_2col");
        }
        probe_call(j, NULL); /* npu2_3col again: a hit */
    }
    probe_call(j, NULL);     /* npu1 again: a hit */
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 3);
    ASSERT_EQ(st.memory_hits, 2);
    ASSERT_EQ(st.specializations, 3);
    ASSERT_EQ(pr.runs, 3);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Launch configuration: columns
 * ------------------------------------------------------------------------ */

TEST(e2e_launch_config_cols)
{
    probe pr = { 0 };
    iron_jit *j = probe_jit(&pr);
    iron_launch_config one = { .size = sizeof one, .cols = 1 };
    iron_launch_config two = { .size = sizeof two, .cols = 2 };
    probe_call(j, &one);
    ASSERT_EQ(pr.cols, 1);
    probe_call(j, &two);
    ASSERT_EQ(pr.cols, 2);
    probe_call(j, &one);
    probe_call(j, NULL);
    ASSERT_EQ(pr.cols, 8);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 3);
    ASSERT_EQ(st.memory_hits, 1);
    iron_jit_free(j);
}

/* One worker per granted column (times per_col), worker w handling the
 * contiguous range starting at (N / workers) * w and adding w + 1, so the
 * result shows which worker handled which element. */
static int parallel_design(iron_design *d, void *user)
{
    probe *pr = user;
    int cols = iron_design_cols(d);
    pr->cols = cols;
    pr->runs++;
    int64_t per_col = iron_design_param_int(d, "per_col");
    int64_t nw = cols * per_col;
    int64_t n = iron_design_arg_numel(d, 0);
    if (n % (nw * OBJ) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "parallel: %lld not a multiple of %lld",
                                (long long)n, (long long)(nw * OBJ));
    int64_t chunk = n / nw;
    iron_kernel *k = iron_kernel_new(d, "add_const", add_const_i32_src,
                                     "int32*, int32*, int32, int32");
    iron_fifo *in[64], *out[64];
    for (int w = 0; w < nw; w++) {
        char nm[32];
        snprintf(nm, sizeof nm, "in%d", w);
        in[w] = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
        snprintf(nm, sizeof nm, "out%d", w);
        out[w] = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
        snprintf(nm, sizeof nm, "w%d", w);
        iron_worker *wk =
            iron_worker_new(d, nm, k, chunk / OBJ,
                            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in[w])),
                                      iron_arg_fifo(iron_fifo_prod(out[w])),
                                      iron_arg_int(w + 1), iron_arg_int(OBJ)));
        iron_rt_start(d, wk);
    }
    /* All fills, then all drains, as one task group. */
    for (int w = 0; w < nw; w++) {
        iron_tap t = iron_tap_make(chunk * w, 1, (int64_t[]){ chunk },
                                   (int64_t[]){ 1 });
        iron_rt_fill(d, iron_fifo_prod(in[w]), 0, t);
    }
    for (int w = 0; w < nw; w++) {
        iron_tap t = iron_tap_make(chunk * w, 1, (int64_t[]){ chunk },
                                   (int64_t[]){ 1 });
        iron_rt_drain(d, iron_fifo_cons(out[w]), 1, t, IRON_WAIT);
    }
    return 0;
}

static void check_parallel(iron_jit *j, probe *pr, int cols, int per_col,
                           int64_t n)
{
    iron_tensor *a = randint_1d(IRON_INT32, n, -1000, 1000, 31);
    iron_tensor *b = zeros_1d(IRON_INT32, n);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = cols };
    pr->cols = -1;
    ASSERT_OK(iron_jit_launch(j, &cfg,
                              IRON_PARAMS(iron_param_int("per_col", per_col)),
                              IRON_NO_SCALARS, IRON_TENSORS(a, b)));
    if (pr->cols != -1)  /* the design ran: it saw the granted columns */
        ASSERT_EQ(pr->cols, cols);
    int64_t nw = (int64_t)cols * per_col, chunk = n / nw;
    const int32_t *x = iron_tensor_data(a);
    int32_t *want = malloc((size_t)n * sizeof *want);
    ASSERT(want);
    for (int64_t i = 0; i < n; i++)
        want[i] = x[i] + (int32_t)(i / chunk) + 1;
    ASSERT_EQ(count_i32_mismatch(b, want, n), 0);
    free(want);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(e2e_parallel_one_worker_per_column)
{
    probe pr = { 0 };
    iron_jit_options o = {
        .size = sizeof o,
        .name = "parallel",
        .args = "in a: int32[N], out b: int32[N]",
        .params = "per_col: int = 1",
        .user = &pr,
    };
    iron_jit *j = make_jit(parallel_design, &o);
    check_parallel(j, &pr, 1, 1, 1024);
    check_parallel(j, &pr, 2, 1, 1024);
    check_parallel(j, &pr, 4, 1, 1024);
    check_parallel(j, &pr, 8, 1, 1024);
    /* Multi-column memcpy shape: cols x 2 workers. */
    check_parallel(j, &pr, 4, 2, 4096);
    check_parallel(j, &pr, 1, 2, 4096);   /* both shim channels */
    ASSERT_EQ(test_stats(j).builds, 6);
    check_parallel(j, &pr, 2, 1, 1024);
    ASSERT_EQ(test_stats(j).builds, 6);
    ASSERT_EQ(test_stats(j).memory_hits, 1);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Several workers: chains and broadcast
 * ------------------------------------------------------------------------ */

/* worker 1 adds 1, worker 2 multiplies by 2, through a compute-to-compute
 * FIFO. */
static int chain2_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *mid = iron_fifo_new(d, "mid", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k1 = iron_kernel_new(d, "add_const", add_const_i32_src,
                                      "int32*, int32*, int32, int32");
    iron_kernel *k2 = iron_kernel_new(d, "mul_const", mul_const_i32_src,
                                      "int32*, int32*, int32, int32");
    iron_worker *w1 =
        iron_worker_new(d, "add1", k1, n / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                                  iron_arg_fifo(iron_fifo_prod(mid)),
                                  iron_arg_int(1), iron_arg_int(OBJ)));
    iron_worker *w2 =
        iron_worker_new(d, "mul2", k2, n / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(mid)),
                                  iron_arg_fifo(iron_fifo_prod(b)),
                                  iron_arg_int(2), iron_arg_int(OBJ)));
    iron_rt_start(d, w1);
    iron_rt_start(d, w2);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static void check_chain2(iron_jit *j, const iron_launch_config *cfg,
                         int64_t n)
{
    iron_tensor *a = randint_1d(IRON_INT32, n, -100000, 100000, 41);
    iron_tensor *b = zeros_1d(IRON_INT32, n);
    ASSERT_OK(iron_jit_launch(j, cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    for (int64_t i = 0; i < n; i++)
        if (y[i] != (x[i] + 1) * 2)
            TEST_FAIL_("chain [%lld]: %d, want (%d + 1) * 2", (long long)i,
                       y[i], x[i]);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(e2e_chain_two_workers)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "chain2",
        .args = "in a: int32[N], out b: int32[N]",
        .disk_cache = -1,  /* counts compiles */
    };
    iron_jit *j = make_jit(chain2_design, &o);
    check_chain2(j, NULL, 1024);       /* two columns */
    check_chain2(j, NULL, 1024);
    iron_launch_config one = { .size = sizeof one, .cols = 1 };
    check_chain2(j, &one, 1024);       /* one column, two rows */
    check_chain2(j, &one, 16);         /* a single object */
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 3);
    /* Two distinct kernels, the same texts in every build: compiled once,
     * shared by the other two specializations. */
    ASSERT_EQ(st.kernel_compiles, 2);
    ASSERT_EQ(st.kernel_shares, 2);
    iron_jit_free(j);
}

/* A pipeline of `stages` workers that each add 1. */
static int pipeline_design(iron_design *d, void *user)
{
    (void)user;
    int64_t stages = iron_design_param_int(d, "stages");
    int64_t n = iron_design_arg_numel(d, 0);
    if (stages < 1 || stages > 32)
        return iron_design_fail(d, IRON_EPARAM, "stages=%lld",
                                (long long)stages);
    iron_kernel *k = iron_kernel_new(d, "add_const", add_const_i32_src,
                                     "int32*, int32*, int32, int32");
    iron_fifo *f[33];
    for (int s = 0; s <= stages; s++) {
        char nm[16];
        snprintf(nm, sizeof nm, "f%d", s);
        f[s] = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
    }
    for (int s = 0; s < stages; s++) {
        char nm[32];
        snprintf(nm, sizeof nm, "stage%d", s);
        iron_worker_new(d, nm, k, n / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f[s])),
                                  iron_arg_fifo(iron_fifo_prod(f[s + 1])),
                                  iron_arg_int(1), iron_arg_int(OBJ)));
    }
    /* No iron_rt_start: every worker starts. */
    iron_rt_fill(d, iron_fifo_prod(f[0]), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(f[stages]), 1, iron_tap_linear(n),
                  IRON_WAIT);
    return 0;
}

TEST(e2e_pipeline_across_columns)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "pipeline",
        .args = "in a: int32[N], out b: int32[N]",
        .params = "stages: int = 2",
        .disk_cache = -1,  /* counts compiles */
    };
    iron_jit *j = make_jit(pipeline_design, &o);
    const int stages[] = { 1, 4, 5, 12 };
    const int cols[] = { 1, 1, 2, 3 };
    for (int t = 0; t < 4; t++) {
        iron_tensor *a = randint_1d(IRON_INT32, 512, -1000, 1000, 51);
        iron_tensor *b = zeros_1d(IRON_INT32, 512);
        iron_launch_config cfg = { .size = sizeof cfg, .cols = cols[t] };
        ASSERT_OK(iron_jit_launch(
            j, &cfg, IRON_PARAMS(iron_param_int("stages", stages[t])),
            IRON_NO_SCALARS, IRON_TENSORS(a, b)));
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        for (int i = 0; i < 512; i++)
            ASSERT_EQ(y[i], x[i] + stages[t]);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
    /* One kernel shared by all the workers of every build. */
    ASSERT_EQ(test_stats(j).kernel_compiles, 1);
    ASSERT_EQ(test_stats(j).kernel_shares, 3);
    iron_jit_free(j);
}

/* Broadcast: one fill feeds two workers (two consumer handles); each
 * drains to its own output. */
static int broadcast_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *x = iron_fifo_new(d, "x", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *y = iron_fifo_new(d, "y", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *z = iron_fifo_new(d, "z", IRON_INT32, IRON_SHAPE(OBJ), 3);
    iron_kernel *ka = iron_kernel_new(d, "add_const", add_const_i32_src,
                                      "int32*, int32*, int32, int32");
    iron_kernel *km = iron_kernel_new(d, "mul_const", mul_const_i32_src,
                                      "int32*, int32*, int32, int32");
    iron_worker_new(d, "adder", ka, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                              iron_arg_fifo(iron_fifo_prod(y)),
                              iron_arg_int(1), iron_arg_int(OBJ)));
    iron_worker_new(d, "tripler", km, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                              iron_arg_fifo(iron_fifo_prod(z)),
                              iron_arg_int(3), iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(x), 0, iron_tap_linear(n));
    /* Only the last drain waits: outside task groups a drain is awaited
     * where it stands, and z's producer would stall x's broadcast while
     * the sequence waited for y before issuing z's drain. */
    iron_rt_drain(d, iron_fifo_cons(y), 1, iron_tap_linear(n), IRON_NOWAIT);
    iron_rt_drain(d, iron_fifo_cons(z), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(e2e_broadcast_two_consumers)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "broadcast",
        .args = "in x: int32[N], out y: int32[N], out z: int32[N]",
    };
    iron_jit *j = make_jit(broadcast_design, &o);
    const int cols[] = { 0, 1, 0 };
    for (int t = 0; t < 3; t++) {
        const int64_t n = 2048;
        iron_tensor *x = randint_1d(IRON_INT32, n, -10000, 10000, 61);
        iron_tensor *y = zeros_1d(IRON_INT32, n);
        iron_tensor *z = zeros_1d(IRON_INT32, n);
        iron_launch_config cfg = { .size = sizeof cfg, .cols = cols[t] };
        ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(x, y, z)));
        const int32_t *xv = iron_tensor_data(x), *yv = iron_tensor_data(y),
                      *zv = iron_tensor_data(z);
        for (int64_t i = 0; i < n; i++) {
            ASSERT_EQ(yv[i], xv[i] + 1);
            ASSERT_EQ(zv[i], xv[i] * 3);
        }
        iron_tensor_free(x);
        iron_tensor_free(y);
        iron_tensor_free(z);
    }
    ASSERT_EQ(test_stats(j).builds, 2);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * N-D tensor access patterns
 * ------------------------------------------------------------------------ */

/* A copy worker between a fill and a drain with arbitrary patterns. */
typedef struct tap_case {
    iron_tap fill, drain;
    int64_t obj;
} tap_case;

static int tap_design(iron_design *d, void *user)
{
    const tap_case *tc = user;
    int64_t count = iron_tap_count(&tc->fill);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(tc->obj), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(tc->obj), 2);
    iron_kernel *k = iron_kernel_new(d, "copy_i32", copy_i32_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "copy", k, count / tc->obj,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(tc->obj)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, tc->fill);
    iron_rt_drain(d, iron_fifo_cons(b), 1, tc->drain, IRON_WAIT);
    return 0;
}

static void run_tap_case(tap_case *tc, iron_tensor *in, iron_tensor *out)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "taps",
        .args = "in a, out b",
        .user = tc,
    };
    iron_jit *j = make_jit(tap_design, &o);
    ASSERT_OK(IRON_CALL(j, in, out));
    iron_jit_free(j);
}

static iron_tensor *arange_2d(int64_t r, int64_t c)
{
    return test_arange_shape(IRON_INT32, IRON_SHAPE(r, c), 1000, 1);
}

/* The drain writes the transpose: a is R x C, b is C x R. */
TEST(e2e_tap_drain_transpose)
{
    const int64_t R = 8, C = 16;
    /* Objects of a row, half a row, two rows, everything. */
    const int64_t objs[] = { C, C / 2, 2 * C, R * C };
    for (int o = 0; o < 4; o++) {
        iron_tensor *a = arange_2d(R, C);
        iron_tensor *b = zeros_shape(IRON_INT32, IRON_SHAPE(C, R));
        tap_case tc = {
            .fill = iron_tap_linear(R * C),
            .drain = iron_tap_make(0, 2, (int64_t[]){ R, C },
                                   (int64_t[]){ 1, R }),
            .obj = objs[o],
        };
        run_tap_case(&tc, a, b);
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        for (int64_t r = 0; r < R; r++)
            for (int64_t c = 0; c < C; c++)
                if (y[c * R + r] != x[r * C + c])
                    TEST_FAIL_("obj %lld: b[%lld][%lld] = %d, want "
                               "a[%lld][%lld] = %d",
                               (long long)objs[o], (long long)c, (long long)r,
                               y[c * R + r], (long long)r, (long long)c,
                               x[r * C + c]);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
}

/* The fill reads every other row, starting at row `first`. */
TEST(e2e_tap_fill_every_other_row)
{
    const int64_t R = 16, C = 12;
    for (int64_t first = 0; first < 2; first++) {
        iron_tensor *a = arange_2d(R, C);
        iron_tensor *b = zeros_shape(IRON_INT32, IRON_SHAPE(R / 2, C));
        tap_case tc = {
            .fill = iron_tap_make(first * C, 2, (int64_t[]){ R / 2, C },
                                  (int64_t[]){ 2 * C, 1 }),
            .drain = iron_tap_linear(R / 2 * C),
            .obj = C,
        };
        run_tap_case(&tc, a, b);
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        for (int64_t r = 0; r < R / 2; r++)
            for (int64_t c = 0; c < C; c++)
                ASSERT_EQ(y[r * C + c], x[(2 * r + first) * C + c]);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
}

/* 4-D: the fill cuts an R x C matrix into 4 x 4 blocks, block-major (one
 * block per object); a second design's drain restores row-major. */
TEST(e2e_tap_blocks_4d_round_trip)
{
    const int64_t R = 8, C = 12, B = 4;
    iron_tensor *a = arange_2d(R, C);
    iron_tensor *blocked = zeros_1d(IRON_INT32, R * C);
    iron_tensor *back = zeros_shape(IRON_INT32, IRON_SHAPE(R, C));
    iron_tap blocks = iron_tap_make(0, 4, (int64_t[]){ R / B, C / B, B, B },
                                    (int64_t[]){ B * C, B, C, 1 });
    tap_case to_blocks = {
        .fill = blocks, .drain = iron_tap_linear(R * C), .obj = B * B
    };
    run_tap_case(&to_blocks, a, blocked);
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(blocked);
    for (int64_t br = 0; br < R / B; br++)
        for (int64_t bc = 0; bc < C / B; bc++)
            for (int64_t r = 0; r < B; r++)
                for (int64_t c = 0; c < B; c++) {
                    int64_t at = ((br * (C / B) + bc) * B + r) * B + c;
                    ASSERT_EQ(y[at], x[(br * B + r) * C + bc * B + c]);
                }
    tap_case to_rows = {
        .fill = iron_tap_linear(R * C), .drain = blocks, .obj = B * B
    };
    run_tap_case(&to_rows, blocked, back);
    ASSERT_EQ(memcmp(iron_tensor_data(a), iron_tensor_data(back),
                     (size_t)(R * C) * 4),
              0);
    iron_tensor_free(a);
    iron_tensor_free(blocked);
    iron_tensor_free(back);
}

/* A stride-0 dimension repeats data: the fill sends the same row 4 times;
 * with 16-element objects and 12-element rows, objects straddle the
 * pattern's rows. */
TEST(e2e_tap_repeat_stride_zero)
{
    const int64_t C = 12;
    const int64_t objs[] = { 4, 16, 48 };
    for (int o = 0; o < 3; o++) {
        iron_tensor *a = arange_2d(2, C);
        iron_tensor *b = zeros_1d(IRON_INT32, 4 * C);
        tap_case tc = {
            .fill = iron_tap_make(C, 2, (int64_t[]){ 4, C },
                                  (int64_t[]){ 0, 1 }),
            .drain = iron_tap_linear(4 * C),
            .obj = objs[o],
        };
        run_tap_case(&tc, a, b);
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        for (int64_t k = 0; k < 4 * C; k++)
            ASSERT_EQ(y[k], x[C + k % C]);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
}

/* The drain scatters with a strided innermost dimension (every other
 * element), leaving the rest of the output untouched. */
TEST(e2e_tap_strided_inner_drain)
{
    const int64_t n = 64;
    iron_tensor *a = arange_2d(1, n);
    iron_tensor *b = NULL;
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(2 * n), -1, &b));
    tap_case tc = {
        .fill = iron_tap_linear(n),
        .drain = iron_tap_make(1, 1, (int64_t[]){ n }, (int64_t[]){ 2 }),
        .obj = 16,
    };
    run_tap_case(&tc, a, b);
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    for (int64_t k = 0; k < 2 * n; k++)
        ASSERT_EQ(y[k], k % 2 ? x[k / 2] : -1);
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* ------------------------------------------------------------------------
 * Floating point kernels with scalar float arguments
 * ------------------------------------------------------------------------ */

static const char saxpy_f_src[] =
    "#include <stdint.h>\n"
    "void saxpy(const T *x, const T *y, T *z, T a, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        z[i] = a * x[i] + y[i];\n"
    "}\n";

static const char saxpy_bf16_src[] =
    "#include <stdint.h>\n"
    "static float bf2f(uint16_t b)\n"
    "{\n"
    "    union { uint32_t u; float f; } c;\n"
    "    c.u = (uint32_t)b << 16;\n"
    "    return c.f;\n"
    "}\n"
    "static uint16_t f2bf(float f)\n"
    "{\n"
    "    union { float f; uint32_t u; } c;\n"
    "    c.f = f;\n"
    "    if ((c.u & 0x7fffffffu) > 0x7f800000u)\n"
    "        return (uint16_t)((c.u >> 16) | 0x40u);\n"
    "    c.u += 0x7fffu + ((c.u >> 16) & 1u);\n"
    "    return (uint16_t)(c.u >> 16);\n"
    "}\n"
    "void saxpy(const uint16_t *x, const uint16_t *y, uint16_t *z,\n"
    "           uint16_t a, int32_t n)\n"
    "{\n"
    "    float af = bf2f(a);\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        z[i] = f2bf(af * bf2f(x[i]) + bf2f(y[i]));\n"
    "}\n";

/* z = a * x + y in float32, float64 or bfloat16 (T from the arguments);
 * a is a compile-time float parameter passed as a scalar argument. */
static int saxpy_design(iron_design *d, void *user)
{
    (void)user;
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    int64_t n = iron_design_arg_numel(d, 0);
    double a = iron_design_param_float(d, "a");
    const int64_t obj = 256;
    if (n % obj)
        return iron_design_fail(d, IRON_ESHAPE, "saxpy: n %% 256");
    iron_kernel *k;
    if (dt == IRON_BFLOAT16) {
        k = iron_kernel_new(d, "saxpy", saxpy_bf16_src,
                            "bfloat16*, bfloat16*, bfloat16*, bfloat16, "
                            "int32");
    } else if (dt == IRON_FLOAT32 || dt == IRON_FLOAT64) {
        const char *types = dt == IRON_FLOAT32
                                ? "float32*, float32*, float32*, float32, "
                                  "int32"
                                : "float64*, float64*, float64*, float64, "
                                  "int32";
        k = iron_kernel_new(d, "saxpy", saxpy_f_src, types);
        iron_kernel_define(k, "T", dt == IRON_FLOAT32 ? "float" : "double");
    } else {
        return iron_design_fail(d, IRON_EDTYPE, "saxpy: %s",
                                iron_dtype_name(dt));
    }
    /* Keep the kernel's arithmetic exactly as the C reference's. */
    iron_kernel_add_cflags(k, "-ffp-contract=off");
    iron_fifo *x = iron_fifo_new(d, "x", dt, IRON_SHAPE(obj), 2);
    iron_fifo *y = iron_fifo_new(d, "y", dt, IRON_SHAPE(obj), 2);
    iron_fifo *z = iron_fifo_new(d, "z", dt, IRON_SHAPE(obj), 2);
    iron_worker_new(d, "saxpy", k, n / obj,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                              iron_arg_fifo(iron_fifo_cons(y)),
                              iron_arg_fifo(iron_fifo_prod(z)),
                              iron_arg_float(a), iron_arg_int(obj)));
    iron_rt_fill(d, iron_fifo_prod(x), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(y), 1, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(z), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static const iron_jit_options saxpy_options = {
    .size = sizeof(iron_jit_options),
    .name = "saxpy",
    .args = "in x: T[N], in y: T[N], out z: T[N]",
    .params = "a: float = 3.0",
};

static iron_tensor *rand_1d(iron_dtype dt, int64_t n, uint64_t seed)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_rand(dt, IRON_SHAPE(n), seed, &t));
    return t;
}

static void check_saxpy_f32(iron_jit *j, double a, int give)
{
    const int64_t n = 4096;
    iron_tensor *x = rand_1d(IRON_FLOAT32, n, 71);
    iron_tensor *y = rand_1d(IRON_FLOAT32, n, 72);
    iron_tensor *z = zeros_1d(IRON_FLOAT32, n);
    if (give)
        ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_float("a", a)), x,
                                 y, z));
    else
        ASSERT_OK(IRON_CALL(j, x, y, z));
    const float *xv = iron_tensor_data(x), *yv = iron_tensor_data(y),
                *zv = iron_tensor_data(z);
    const float af = (float)a;
    for (int64_t i = 0; i < n; i++) {
        float p = af * xv[i];
        float want = p + yv[i];
        if (zv[i] != want)
            TEST_FAIL_("saxpy f32 a=%g [%lld]: %.9g, want %.9g", a,
                       (long long)i, zv[i], want);
    }
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(z);
}

TEST(e2e_saxpy_float32)
{
    iron_jit *j = make_jit(saxpy_design, &saxpy_options);
    check_saxpy_f32(j, 3.0, 0);
    check_saxpy_f32(j, -0.3, 1);   /* not exact in binary: a float param */
    check_saxpy_f32(j, 1e-3, 1);
    ASSERT_EQ(test_stats(j).builds, 3);
    iron_jit_free(j);
}

TEST(e2e_saxpy_float64)
{
    iron_jit *j = make_jit(saxpy_design, &saxpy_options);
    const int64_t n = 1024;
    iron_tensor *x = rand_1d(IRON_FLOAT64, n, 73);
    iron_tensor *y = rand_1d(IRON_FLOAT64, n, 74);
    iron_tensor *z = zeros_1d(IRON_FLOAT64, n);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_float("a", 0.1)), x,
                             y, z));
    const double *xv = iron_tensor_data(x), *yv = iron_tensor_data(y),
                 *zv = iron_tensor_data(z);
    for (int64_t i = 0; i < n; i++) {
        double p = 0.1 * xv[i];
        ASSERT(zv[i] == p + yv[i]);
    }
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(z);
    iron_jit_free(j);
}

static void check_saxpy_bf16(iron_jit *j, double a, int64_t n)
{
    iron_tensor *x = rand_1d(IRON_BFLOAT16, n, 81);
    iron_tensor *y = rand_1d(IRON_BFLOAT16, n, 82);
    iron_tensor *z = zeros_1d(IRON_BFLOAT16, n);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_float("a", a)), x, y,
                             z));
    const iron_bf16 *xv = iron_tensor_data(x), *yv = iron_tensor_data(y),
                    *zv = iron_tensor_data(z);
    /* The scalar arrives rounded to bfloat16, as the kernel declares. */
    const float af = iron_bf16_to_float(iron_bf16_from_float((float)a));
    for (int64_t i = 0; i < n; i++) {
        float p = af * iron_bf16_to_float(xv[i]);
        iron_bf16 want = iron_bf16_from_float(p + iron_bf16_to_float(yv[i]));
        if (zv[i] != want)
            TEST_FAIL_("saxpy bf16 a=%g [%lld]: 0x%04x (%g), want 0x%04x "
                       "(%g)",
                       a, (long long)i, zv[i], iron_bf16_to_float(zv[i]),
                       want, iron_bf16_to_float(want));
    }
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(z);
}

TEST(e2e_saxpy_bfloat16)
{
    iron_jit *j = make_jit(saxpy_design, &saxpy_options);
    check_saxpy_bf16(j, 3.0, 4096);
    check_saxpy_bf16(j, 1.3, 4096);   /* rounds: 1.296875 in bfloat16 */
    check_saxpy_bf16(j, -2.75, 512);
    iron_jit_free(j);
}

/* One jit, both dtypes: a type variable specializes per dtype. */
TEST(e2e_saxpy_dtype_specializations)
{
    iron_jit *j = make_jit(saxpy_design, &saxpy_options);
    check_saxpy_f32(j, 3.0, 0);
    check_saxpy_bf16(j, 3.0, 4096);
    check_saxpy_f32(j, 3.0, 0);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 2);
    ASSERT_EQ(st.memory_hits, 1);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Integer scalars of several widths; the constant is a compile-time int
 * parameter that must not collide across values.
 * ------------------------------------------------------------------------ */

static const char add_const_t_src[] =
    "#include <stdint.h>\n"
    "void add_t(const T *in, T *out, T c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = (T)(in[i] + c);\n"
    "}\n";

static int add_const_design(iron_design *d, void *user)
{
    (void)user;
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t c = iron_design_param_int(d, "c");
    static const char *const ctype[IRON_DTYPE_COUNT_] = {
        [IRON_INT8] = "int8_t",   [IRON_UINT8] = "uint8_t",
        [IRON_INT16] = "int16_t", [IRON_UINT16] = "uint16_t",
        [IRON_INT32] = "int32_t", [IRON_UINT32] = "uint32_t",
        [IRON_INT64] = "int64_t", [IRON_UINT64] = "uint64_t",
    };
    if ((int)dt >= IRON_DTYPE_COUNT_ || !ctype[dt])
        return iron_design_fail(d, IRON_EDTYPE, "add_const: %s",
                                iron_dtype_name(dt));
    char types[96];
    const char *nm = iron_dtype_name(dt);
    snprintf(types, sizeof types, "%s*, %s*, %s, int32", nm, nm, nm);
    iron_kernel *k = iron_kernel_new(d, "add_t", add_const_t_src, types);
    iron_kernel_define(k, "T", ctype[dt]);
    iron_fifo *a = iron_fifo_new(d, "a", dt, IRON_SHAPE(32), 2);
    iron_fifo *b = iron_fifo_new(d, "b", dt, IRON_SHAPE(32), 2);
    iron_worker_new(d, "add", k, n / 32,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(c), iron_arg_int(32)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static const iron_jit_options add_const_options = {
    .size = sizeof(iron_jit_options),
    .name = "add_const",
    .args = "in a: T[N], out b: T[N]",
    .params = "c: int",
};

static void check_add_const(iron_jit *j, iron_dtype dt, int64_t c,
                            int64_t lo, int64_t hi)
{
    const int64_t n = 256;
    iron_tensor *a = randint_1d(dt, n, lo, hi, 91);
    iron_tensor *b = zeros_1d(dt, n);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("c", c)), a, b));
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *xa = iron_tensor_data(a), *xb = iron_tensor_data(b);
        int64_t x = 0, y = 0;
        switch (dt) {
        case IRON_INT16: {
            int16_t u, v;
            memcpy(&u, xa + i * 2, 2);
            memcpy(&v, xb + i * 2, 2);
            ASSERT_EQ(v, (int16_t)(uint16_t)((uint16_t)u + (uint16_t)c));
            continue;
        }
        case IRON_INT64:
            memcpy(&x, xa + i * 8, 8);
            memcpy(&y, xb + i * 8, 8);
            ASSERT_EQ(y, x + c);
            continue;
        case IRON_UINT8:
            ASSERT_EQ(xb[i], (uint8_t)(xa[i] + (uint8_t)c));
            continue;
        default:
            break;
        }
        int32_t u, v;
        memcpy(&u, xa + i * 4, 4);
        memcpy(&v, xb + i * 4, 4);
        ASSERT_EQ(v, (int32_t)((uint32_t)u + (uint32_t)c));
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
}

TEST(e2e_int_scalars)
{
    iron_jit *j = make_jit(add_const_design, &add_const_options);
    check_add_const(j, IRON_INT32, 5, -1000, 1000);
    check_add_const(j, IRON_INT32, -3, -1000, 1000);   /* no collision */
    check_add_const(j, IRON_INT32, 5, -1000, 1000);
    check_add_const(j, IRON_INT16, -7, -30000, 30000);
    check_add_const(j, IRON_INT16, 300, 32000, 32767); /* wraps */
    check_add_const(j, IRON_INT64, (int64_t)1 << 40, -1000000, 1000000);
    check_add_const(j, IRON_UINT8, 200, 0, 256);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 6);
    ASSERT_EQ(st.memory_hits, 1);
    ASSERT_EQ(st.specializations, 6);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Several jit objects alive at once, interleaved
 * ------------------------------------------------------------------------ */

TEST(e2e_interleaved_jits)
{
    iron_jit *add = make_jit(vector_op_design, &vector_op_options);
    iron_jit *bump = make_jit(bump_design, &bump_options);
    iron_jit *pt = make_jit(passthrough_design, &passthrough_options);
    for (int round = 0; round < 3; round++) {
        check_vector_op(add, 512, round % 2 ? "-" : "+", 16, 1);
        check_bump(bump, 64, 1 + 4 * round);
        iron_tensor *in = randint_1d(IRON_UINT8, 1024, 0, 256,
                                     (uint64_t)round);
        iron_tensor *out = zeros_1d(IRON_UINT8, 1024);
        ASSERT_OK(IRON_CALL(pt, in, out));
        ASSERT_EQ(memcmp(iron_tensor_data(in), iron_tensor_data(out), 1024),
                  0);
        iron_tensor_free(in);
        iron_tensor_free(out);
    }
    ASSERT_EQ(test_stats(add).builds, 2);
    ASSERT_EQ(test_stats(bump).builds, 1);
    ASSERT_EQ(test_stats(pt).builds, 1);
    iron_jit_free(pt);
    iron_jit_free(bump);
    iron_jit_free(add);
}

/* Many warm calls of one specialization: FIFO positions carry over from
 * call to call (depth 3 pools, 5 objects per call), results stay right. */
static int depth3_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 3);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 3);
    iron_kernel *k = iron_kernel_new(d, "add_const", add_const_i32_src,
                                     "int32*, int32*, int32, int32");
    iron_worker_new(d, "add", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(7), iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(e2e_warm_calls_keep_fifo_positions)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "depth3",
        .args = "in a: int32[N], out b: int32[N]",
    };
    iron_jit *j = make_jit(depth3_design, &o);
    for (int k = 0; k < 50; k++) {
        iron_tensor *a = randint_1d(IRON_INT32, 5 * OBJ, -99, 99,
                                    (uint64_t)k);
        iron_tensor *b = zeros_1d(IRON_INT32, 5 * OBJ);
        ASSERT_OK(IRON_CALL(j, a, b));
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        for (int i = 0; i < 5 * OBJ; i++)
            ASSERT_EQ(y[i], x[i] + 7);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.memory_hits, 49);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * inout arguments, several ops on one FIFO, many specializations
 * ------------------------------------------------------------------------ */

static const char *const add_const_i32_types = "int32*, int32*, int32, int32";

/* x += 5 in place: fill from and drain into the same inout argument. */
static int inplace_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "add_const", add_const_i32_src,
                                     add_const_i32_types);
    iron_worker_new(d, "add", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(5), iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 0, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(e2e_inout_in_place)
{
    iron_jit_options o = {
        .size = sizeof o, .name = "inplace", .args = "inout x: int32[N]"
    };
    iron_jit *j = make_jit(inplace_design, &o);
    iron_tensor *x = NULL;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, -100, 156, 1, &x));
    ASSERT_OK(IRON_CALL(j, x));
    ASSERT_OK(IRON_CALL(j, x));
    const int32_t *v = iron_tensor_data(x);
    for (int i = 0; i < 256; i++)
        ASSERT_EQ(v[i], -100 + i + 10);
    iron_tensor_free(x);
    iron_jit_free(j);
}

/* Two fills on one producer and two drains on one consumer, served in
 * sequence order: the fills send the second half first, so the output
 * holds the halves swapped. */
static int swap_halves_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), h = n / 2;
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "add_const", add_const_i32_src,
                                     add_const_i32_types);
    iron_worker_new(d, "pass", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(0), iron_arg_int(OBJ)));
    iron_handle *ap = iron_fifo_prod(a), *bc = iron_fifo_cons(b);
    const int64_t sz[] = { h }, st[] = { 1 };
    iron_rt_fill(d, ap, 0, iron_tap_make(h, 1, sz, st));
    iron_rt_fill(d, ap, 0, iron_tap_make(0, 1, sz, st));
    iron_rt_drain(d, bc, 1, iron_tap_make(0, 1, sz, st), IRON_NOWAIT);
    iron_rt_drain(d, bc, 1, iron_tap_make(h, 1, sz, st), IRON_WAIT);
    return 0;
}

TEST(e2e_several_ops_on_one_fifo)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "swap",
        .args = "in a: int32[N], out b: int32[N]",
    };
    iron_jit *j = make_jit(swap_halves_design, &o);
    for (int round = 0; round < 2; round++) {
        iron_tensor *a = randint_1d(IRON_INT32, 128, -500, 500,
                                    (uint64_t)round);
        iron_tensor *b = zeros_1d(IRON_INT32, 128);
        ASSERT_OK(IRON_CALL(j, a, b));
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        for (int i = 0; i < 128; i++)
            ASSERT_EQ(y[i], x[(i + 64) % 128]);
        iron_tensor_free(a);
        iron_tensor_free(b);
    }
    iron_jit_free(j);
}

/* Enough specializations to grow the jit's table several times; every
 * one is found again afterwards and still computes its own result. */
TEST(e2e_many_specializations)
{
    iron_jit *j = make_jit(add_const_design, &add_const_options);
    const int count = 24;
    for (int round = 0; round < 2; round++)
        for (int c = 0; c < count; c++)
            check_add_const(j, IRON_INT32, c * 1000 - 7, -100, 100);
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, count);
    ASSERT_EQ(st.specializations, count);
    ASSERT_EQ(st.memory_hits, count);
    iron_jit_free(j);
}

/* bool, dtype and float parameters reach the design and key the cache. */
static const char convert_src[] =
    "#include <stdint.h>\n"
    "void convert(const int32_t *in, OT *out, double scale, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++) {\n"
    "        int32_t v = in[i];\n"
    "        if (RELU && v < 0)\n"
    "            v = 0;\n"
    "        out[i] = (OT)(v * scale);\n"
    "    }\n"
    "}\n";

static int convert_design(iron_design *d, void *user)
{
    (void)user;
    int relu = iron_design_param_bool(d, "relu");
    iron_dtype ot = iron_design_param_dtype(d, "OT");
    double scale = iron_design_param_float(d, "scale");
    int64_t n = iron_design_arg_numel(d, 0);
    if (iron_design_arg_dtype(d, 1) != ot)
        return iron_design_fail(d, IRON_EDTYPE,
                                "convert: OT=%s but the output is %s",
                                iron_dtype_name(ot),
                                iron_dtype_name(iron_design_arg_dtype(d, 1)));
    const char *ct = ot == IRON_INT16 ? "int16_t"
                     : ot == IRON_FLOAT32 ? "float"
                                          : "int32_t";
    char types[64];
    snprintf(types, sizeof types, "int32*, %s*, float64, int32",
             iron_dtype_name(ot));
    iron_kernel *k = iron_kernel_new(d, "convert", convert_src, types);
    iron_kernel_define(k, "OT", ct);
    iron_kernel_define_int(k, "RELU", relu);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", ot, IRON_SHAPE(OBJ), 2);
    iron_worker_new(d, "convert", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_float(scale), iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(e2e_bool_dtype_float_params)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "convert",
        .args = "in a: int32[N], out b: U[N]",
        .params = "relu: bool = false, OT: dtype = int32, scale: float = 1",
    };
    iron_jit *j = make_jit(convert_design, &o);
    iron_tensor *a = NULL;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, -32, 32, 1, &a));
    iron_tensor *b32 = zeros_1d(IRON_INT32, 64);
    iron_tensor *b16 = zeros_1d(IRON_INT16, 64);
    iron_tensor *bf = zeros_1d(IRON_FLOAT32, 64);

    ASSERT_OK(IRON_CALL(j, a, b32));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(((const int32_t *)iron_tensor_data(b32))[i], i - 32);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_bool("relu", 1)), a,
                             b32));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(((const int32_t *)iron_tensor_data(b32))[i],
                  i < 32 ? 0 : i - 32);
    ASSERT_OK(IRON_CALL_WITH(j,
                             IRON_PARAMS(iron_param_dtype("OT", IRON_INT16),
                                         iron_param_float("scale", 3)),
                             a, b16));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(((const int16_t *)iron_tensor_data(b16))[i], 3 * (i - 32));
    ASSERT_OK(IRON_CALL_WITH(j,
                             IRON_PARAMS(iron_param_dtype("OT", IRON_FLOAT32),
                                         iron_param_bool("relu", 7),
                                         iron_param_float("scale", 0.5)),
                             a, bf));
    for (int i = 0; i < 64; i++)
        ASSERT_DBL_NEAR(((const float *)iron_tensor_data(bf))[i],
                        i < 32 ? 0.0 : (i - 32) * 0.5, 0);
    /* relu=7 is relu=true: the same specialization. */
    ASSERT_OK(IRON_CALL_WITH(j,
                             IRON_PARAMS(iron_param_dtype("OT", IRON_FLOAT32),
                                         iron_param_bool("relu", 1),
                                         iron_param_float("scale", 0.5)),
                             a, bf));
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 4);
    ASSERT_EQ(st.memory_hits, 1);
    /* The design's own check: OT must match the output's dtype. */
    iron_status s = IRON_CALL_WITH(
        j, IRON_PARAMS(iron_param_dtype("OT", IRON_FLOAT32)), a, b16);
    ASSERT_EQ(s, IRON_EDTYPE);
    ASSERT_CONTAINS(iron_last_error(), "OT=float32 but the output is int16");
    ASSERT_CONTAINS(iron_last_error(), "OT=float32");
    iron_tensor_free(a);
    iron_tensor_free(b32);
    iron_tensor_free(b16);
    iron_tensor_free(bf);
    iron_jit_free(j);
}

/* A bound string is copied: changing the caller's buffer afterwards does
 * not change the bound value. */
TEST(e2e_bind_copies_strings)
{
    iron_jit *j = make_jit(vector_op_design, &vector_op_options);
    char op[2] = "-";
    ASSERT_OK(iron_jit_bind(j, IRON_PARAMS(iron_param_str("op", op))));
    op[0] = '*';
    check_vector_op(j, 256, "-", 16, 0);
    iron_jit_free(j);
}

/* Broadcast between workers: A adds 1 and its output FIFO is consumed by
 * both B (x2 -> y) and C (x3 -> z). */
static int worker_broadcast_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *x = iron_fifo_new(d, "x", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *mid = iron_fifo_new(d, "mid", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *y = iron_fifo_new(d, "y", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *z = iron_fifo_new(d, "z", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *ka = iron_kernel_new(d, "add_const", add_const_i32_src,
                                      add_const_i32_types);
    iron_kernel *km = iron_kernel_new(d, "mul_const", mul_const_i32_src,
                                      add_const_i32_types);
    iron_worker_new(d, "A", ka, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                              iron_arg_fifo(iron_fifo_prod(mid)),
                              iron_arg_int(1), iron_arg_int(OBJ)));
    iron_worker_new(d, "B", km, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(mid)),
                              iron_arg_fifo(iron_fifo_prod(y)),
                              iron_arg_int(2), iron_arg_int(OBJ)));
    iron_worker_new(d, "C", km, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(mid)),
                              iron_arg_fifo(iron_fifo_prod(z)),
                              iron_arg_int(3), iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(x), 0, iron_tap_linear(n));
    /* Only the last drain waits: outside task groups a drain is awaited
     * where it stands, and z's producer would stall x's broadcast while
     * the sequence waited for y before issuing z's drain. */
    iron_rt_drain(d, iron_fifo_cons(y), 1, iron_tap_linear(n), IRON_NOWAIT);
    iron_rt_drain(d, iron_fifo_cons(z), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(e2e_broadcast_between_workers)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "wbcast",
        .args = "in x: int32[N], out y: int32[N], out z: int32[N]",
    };
    iron_jit *j = make_jit(worker_broadcast_design, &o);
    const int cols[] = { 0, 1, 2 };
    for (int t = 0; t < 3; t++) {
        iron_tensor *x = randint_1d(IRON_INT32, 512, -999, 999, 101);
        iron_tensor *y = zeros_1d(IRON_INT32, 512);
        iron_tensor *z = zeros_1d(IRON_INT32, 512);
        iron_launch_config cfg = { .size = sizeof cfg, .cols = cols[t] };
        ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(x, y, z)));
        const int32_t *xv = iron_tensor_data(x), *yv = iron_tensor_data(y),
                      *zv = iron_tensor_data(z);
        for (int i = 0; i < 512; i++) {
            ASSERT_EQ(yv[i], (xv[i] + 1) * 2);
            ASSERT_EQ(zv[i], (xv[i] + 1) * 3);
        }
        iron_tensor_free(x);
        iron_tensor_free(y);
        iron_tensor_free(z);
    }
    iron_jit_free(j);
}

/* A worker with no input: a generator whose kernel numbers its objects.
 * It runs ahead into its FIFO's buffers at the end of a call; the next
 * call drains those first, so the sequence continues without a gap. */
static const char iota_src[] =
    "#include <stdint.h>\n"
    "void iota(int32_t *out, int32_t n)\n"
    "{\n"
    "    static int32_t next;\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = next++;\n"
    "}\n";

static int generator_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *o = iron_fifo_new(d, "o", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "iota", iota_src, "int32*, int32");
    iron_worker_new(
        d, "gen", k, n / OBJ,
        IRON_ARGS(iron_arg_fifo(iron_fifo_prod(o)), iron_arg_int(OBJ)));
    iron_rt_drain(d, iron_fifo_cons(o), 0, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(e2e_generator_worker_persists)
{
    iron_jit_options o = {
        .size = sizeof o, .name = "gen", .args = "out o: int32[N]"
    };
    iron_jit *j = make_jit(generator_design, &o);
    iron_tensor *t = zeros_1d(IRON_INT32, 64);
    for (int call = 0; call < 3; call++) {
        ASSERT_OK(IRON_CALL(j, t));
        const int32_t *v = iron_tensor_data(t);
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(v[i], call * 64 + i);
    }
    iron_tensor_free(t);
    iron_jit_free(j);
}

/* The emulator runs independent task groups on a thread pool; results do
 * not depend on how many threads it may use. */
TEST(e2e_thread_counts_agree)
{
    const char *counts[] = { "1", "2", "8" };
    for (int c = 0; c < 3; c++) {
        ASSERT_EQ(setenv("IRON_THREADS", counts[c], 1), 0);
        probe pr = { 0 };
        iron_jit_options o = {
            .size = sizeof o,
            .name = "parallel",
            .args = "in a: int32[N], out b: int32[N]",
            .params = "per_col: int = 1",
            .user = &pr,
        };
        iron_jit *j = make_jit(parallel_design, &o);
        for (int k = 0; k < 3; k++)
            check_parallel(j, &pr, 8, 1, 2048);
        check_parallel(j, &pr, 4, 2, 2048);
        iron_jit_free(j);
        iron_jit *wb = NULL;
        iron_jit_options ob = {
            .size = sizeof ob,
            .name = "wbcast",
            .args = "in x: int32[N], out y: int32[N], out z: int32[N]",
        };
        ASSERT_OK(iron_jit_create(worker_broadcast_design, &ob, &wb));
        iron_tensor *x = randint_1d(IRON_INT32, 256, -99, 99, 7);
        iron_tensor *y = zeros_1d(IRON_INT32, 256);
        iron_tensor *z = zeros_1d(IRON_INT32, 256);
        ASSERT_OK(IRON_CALL(wb, x, y, z));
        const int32_t *xv = iron_tensor_data(x), *yv = iron_tensor_data(y),
                      *zv = iron_tensor_data(z);
        for (int i = 0; i < 256; i++) {
            ASSERT_EQ(yv[i], (xv[i] + 1) * 2);
            ASSERT_EQ(zv[i], (xv[i] + 1) * 3);
        }
        iron_tensor_free(x);
        iron_tensor_free(y);
        iron_tensor_free(z);
        iron_jit_free(wb);
    }
}
