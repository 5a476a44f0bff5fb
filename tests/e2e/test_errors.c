/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_errors.c - every way a call can fail, end to end: jit options and
 * declarations, compile-time parameters, tensor arguments, devices and
 * launch configurations, design-function mistakes (builder, verify and
 * place), kernel compilation, deadlocks at run time, and allocation
 * failures.  Each test checks the status and that the message names the
 * thing at fault; a failed build must leave nothing cached.
 */
#include <stdio.h>

#include "core/core.h"
#include "designs/designs.h"
#include "design/design.h"
#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

#define OBJ 16







static const char copy_src[] =
    "#include <stdint.h>\n"
    "void copy_i32(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "}\n";

/* A jit over the vector_op reference design, and three int32 tensors. */
typedef struct vcall {
    iron_jit *j;
    iron_tensor *a, *b, *c;
} vcall;

static vcall vcall_new(int64_t n)
{
    vcall v = { 0 };
    ASSERT_OK(iron_jit_create(vector_op_design, &vector_op_options, &v.j));
    v.a = test_zeros(IRON_INT32, n);
    v.b = test_zeros(IRON_INT32, n);
    v.c = test_zeros(IRON_INT32, n);
    return v;
}

static void vcall_free(vcall *v)
{
    iron_tensor_free(v->a);
    iron_tensor_free(v->b);
    iron_tensor_free(v->c);
    iron_jit_free(v->j);
}

/* ------------------------------------------------------------------------
 * iron_jit_create: NULLs, options, declarations
 * ------------------------------------------------------------------------ */

TEST(err_create_nulls)
{
    iron_jit *j = (iron_jit *)(uintptr_t)1;
    iron_jit_options o = { .size = sizeof o, .name = "x", .args = "in a" };
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, NULL), IRON_EINVAL,
                 "out is NULL");
    ASSERT_FAILS(iron_jit_create(NULL, &o, &j), IRON_EINVAL,
                 "design function is NULL");
    ASSERT(j == NULL);
    j = (iron_jit *)(uintptr_t)1;
    ASSERT_FAILS(iron_jit_create(passthrough_design, NULL, &j), IRON_EINVAL,
                 "options are NULL");
    ASSERT(j == NULL);
    o.name = NULL;
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "options.name is NULL");
    o.name = "";
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "options.name is empty");
    o.name = "nameless";
    o.args = NULL;
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "jit 'nameless': options.args is NULL");
    ASSERT(j == NULL);
}

/* The layout before max_resident was added is accepted; any other size
 * short of the current one is not. */
TEST(err_create_options_older_size)
{
    iron_jit *j = NULL;
    iron_jit_options o = passthrough_options;
    o.size = offsetof(iron_jit_options, max_resident);
    o.max_resident = -5;  /* beyond the caller's struct: not read */
    ASSERT_OK(iron_jit_create(passthrough_design, &o, &j));
    iron_jit_free(j);
    o.size = sizeof o;
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "options.max_resident is -5");
    ASSERT(j == NULL);
}

TEST(err_create_options_size)
{
    iron_jit *j = NULL;
    /* Smaller than the first version: refused, naming the sizes. */
    iron_jit_options o = { .size = offsetof(iron_jit_options, cache_max_bytes),
                           .name = "x", .args = "in a" };
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "options.size is");
    ASSERT_CONTAINS(iron_last_error(), "expected at least");
    ASSERT_CONTAINS(iron_last_error(), "sizeof(iron_jit_options)");
    /* Larger than ours (a newer header): read up to what we know. */
    struct {
        iron_jit_options o;
        char newer[16];
    } big = { .o = passthrough_options };
    big.o.size = sizeof big;
    ASSERT_OK(iron_jit_create(passthrough_design, &big.o, &j));
    iron_jit_free(j);
    j = NULL;
    o.size = 0;
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "options.size is 0");
    ASSERT(j == NULL);
}

static void create_fails(const char *args, const char *params,
                         const char *needle)
{
    iron_jit *j = (iron_jit *)(uintptr_t)1;
    iron_jit_options o = {
        .size = sizeof o, .name = "decl", .args = args, .params = params
    };
    iron_status s = iron_jit_create(passthrough_design, &o, &j);
    if (s != IRON_EINVAL)
        TEST_FAIL_("args \"%s\" params \"%s\": expected IRON_EINVAL, got %s "
                   "(%s)",
                   args, params ? params : "(null)", iron_status_name(s),
                   iron_last_error());
    ASSERT(j == NULL);
    ASSERT_CONTAINS(iron_last_error(), needle);
    ASSERT_CONTAINS(iron_last_error(), "jit 'decl'");
}

TEST(err_args_spec_syntax)
{
    create_fails("", NULL, "the list is empty");
    create_fails("   ", NULL, "the list is empty");
    create_fails("inn a, out b", NULL, "role 'inn'");
    create_fails("in a, output b", NULL, "role 'output'");
    create_fails("in a; out b", NULL, "expected ',' or the end at column 5");
}

TEST(err_args_spec_missing_name)
{
    create_fails("in , out b", NULL, "expected an argument name");
    create_fails("in a, out", NULL, "expected an argument name");
    create_fails("in a,, out b", NULL, "a role (in, out, inout)");
    create_fails("in a out b", NULL, "expected ',' or the end");
}

TEST(err_args_spec_duplicate_name)
{
    create_fails("in a, out a", NULL, "'a' is declared twice");
    create_fails("in x: int32[N], inout y, out x: int32[N]", NULL,
                 "'x' is declared twice");
}

TEST(err_args_spec_bad_dims)
{
    create_fails("in a: int32[0], out b", NULL, "a dimension >= 1");
    create_fails("in a: int32[N, 0], out b", NULL, "a dimension >= 1");
    create_fails("in a: int32[N, out b", NULL, "',' or ']'");
    create_fails("in a: int32[], out b", NULL,
                 "a dimension (integer or size variable)");
    create_fails("in a: int32[-3], out b", NULL, "a dimension");
    create_fails("in a: int32[1,2,3,4,5,6,7], out b", NULL, "at most 6 dims");
    create_fails("in a: [N], out b", NULL, "a dtype or type variable");
}

TEST(err_params_spec_unknown_type)
{
    create_fails("in a", "tile: integer = 3", "parameter 'tile' has type "
                                              "'integer'");
    create_fails("in a", "tile int = 3", "':' and a type");
    create_fails("in a", "tile:", "a type (int, float, bool, str, dtype, "
                                  "kernel)");
    create_fails("in a", "tile = 3", "':' and a type (int, float, bool, str, "
                                     "dtype, kernel)");
    /* The hints name every type there is. */
    for (int t = 0; t <= (int)IRON_PARAM_KERNEL; t++) {
        create_fails("in a", "tile:", "a type (");
        ASSERT_CONTAINS(iron_last_error(),
                        iron__param_type_name((iron_param_type)t));
        create_fails("in a", "tile: integer", "expected one of");
        ASSERT_CONTAINS(iron_last_error(),
                        iron__param_type_name((iron_param_type)t));
    }
}

TEST(err_params_spec_bad_default)
{
    create_fails("in a", "tile: int = x", "an integer default");
    create_fails("in a", "tile: int = 99999999999999999999",
                 "an integer default");
    create_fails("in a", "scale: float = fast", "a number default");
    create_fails("in a", "relu: bool = yes", "true or false");
    create_fails("in a", "op: str = +", "a quoted string default");
    create_fails("in a", "op: str = '+", "a closing quote");
    create_fails("in a", "T: dtype = int33", "a dtype name");
    create_fails("in a", "tile: int = 16 17", "',' or the end");
}

TEST(err_params_spec_duplicate)
{
    create_fails("in a", "tile: int = 16, tile: int = 32",
                 "'tile' is declared twice");
    create_fails("in a", "tile: int = 16, op: str = '+', tile: str",
                 "'tile' is declared twice");
}

/* ------------------------------------------------------------------------
 * Compile-time parameters at call time
 * ------------------------------------------------------------------------ */

TEST(err_param_unknown_suggests)
{
    vcall v = vcall_new(64);
    ASSERT_STATUS(IRON_CALL_WITH(v.j, IRON_PARAMS(iron_param_int("tlie", 32)),
                                 v.a, v.b, v.c),
                  IRON_EPARAM);
    ASSERT_MSG("vector_op");
    ASSERT_MSG("unknown parameter 'tlie' (did you mean 'tile'?)");
    ASSERT_MSG("declared: tile: int, op: str");
    ASSERT_STATUS(IRON_CALL_WITH(v.j,
                                 IRON_PARAMS(iron_param_str("zzzzzz", "+")),
                                 v.a, v.b, v.c),
                  IRON_EPARAM);
    ASSERT_MSG("unknown parameter 'zzzzzz'; declared");
    ASSERT(strstr(test_errmsg, "did you mean") == NULL);
    ASSERT_EQ(test_stats(v.j).specializations, 0);
    vcall_free(&v);
}

TEST(err_param_wrong_type)
{
    vcall v = vcall_new(64);
    ASSERT_STATUS(IRON_CALL_WITH(v.j,
                                 IRON_PARAMS(iron_param_str("tile", "16")),
                                 v.a, v.b, v.c),
                  IRON_EPARAM);
    ASSERT_MSG("parameter 'tile' is declared int, got a str value");
    ASSERT_STATUS(IRON_CALL_WITH(v.j, IRON_PARAMS(iron_param_int("op", 1)),
                                 v.a, v.b, v.c),
                  IRON_EPARAM);
    ASSERT_MSG("parameter 'op' is declared str, got a int value");
    ASSERT_STATUS(IRON_CALL_WITH(v.j,
                                 IRON_PARAMS(iron_param_str("op", NULL)),
                                 v.a, v.b, v.c),
                  IRON_EPARAM);
    ASSERT_MSG("parameter 'op' (str) is NULL");
    ASSERT_STATUS(IRON_CALL_WITH(v.j,
                                 IRON_PARAMS(iron_param_int(NULL, 1)),
                                 v.a, v.b, v.c),
                  IRON_EPARAM);
    ASSERT_MSG("NULL name");
    vcall_free(&v);
}

static int needs_n_design(iron_design *d, void *user)
{
    (void)user;
    iron_design_param_int(d, "n");
    return iron_design_fail(d, IRON_ENOTSUP, "not reached in these tests");
}

TEST(err_param_missing_no_default)
{
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "needs_n",
        .args = "in a",
        .params = "tile: int = 16, n: int, scale: float = 1.5",
    };
    ASSERT_OK(iron_jit_create(needs_n_design, &o, &j));
    iron_tensor *a = test_zeros(IRON_INT32, 16);
    ASSERT_STATUS(IRON_CALL(j, a), IRON_EPARAM);
    ASSERT_MSG("needs_n: parameter 'n' (int) has no default and was not "
               "given");
    ASSERT_MSG("declared: tile: int, n: int, scale: float");
    /* Given, the design function runs (and fails on its own terms). */
    ASSERT_STATUS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("n", 3)), a),
                  IRON_ENOTSUP);
    /* Bound, too. */
    ASSERT_OK(iron_jit_bind(j, IRON_PARAMS(iron_param_int("n", 4))));
    ASSERT_STATUS(IRON_CALL(j, a), IRON_ENOTSUP);
    ASSERT_EQ(test_stats(j).specializations, 0);
    ASSERT_EQ(test_stats(j).design_runs, 2);
    iron_tensor_free(a);
    iron_jit_free(j);
}

TEST(err_param_given_twice)
{
    vcall v = vcall_new(64);
    ASSERT_STATUS(IRON_CALL_WITH(v.j,
                                 IRON_PARAMS(iron_param_int("tile", 16),
                                             iron_param_str("op", "+"),
                                             iron_param_int("tile", 32)),
                                 v.a, v.b, v.c),
                  IRON_EPARAM);
    ASSERT_MSG("parameter 'tile' is given twice");
    vcall_free(&v);
}

TEST(err_bind_checked_like_calls)
{
    vcall v = vcall_new(64);
    ASSERT_STATUS(iron_jit_bind(v.j, IRON_PARAMS(iron_param_int("tlie", 3))),
                  IRON_EPARAM);
    ASSERT_MSG("did you mean 'tile'");
    ASSERT_STATUS(iron_jit_bind(v.j, IRON_PARAMS(iron_param_float("tile", 3))),
                  IRON_EPARAM);
    ASSERT_MSG("declared int, got a float value");
    /* A failed bind changes nothing: the next call uses the defaults. */
    ASSERT_STATUS(iron_jit_bind(v.j, IRON_PARAMS(iron_param_str("op", "-"),
                                                 iron_param_int("nope", 1))),
                  IRON_EPARAM);
    int32_t *a = iron_tensor_data(v.a), *b = iron_tensor_data(v.b);
    for (int i = 0; i < 64; i++) {
        a[i] = i;
        b[i] = 1000;
    }
    ASSERT_OK(IRON_CALL(v.j, v.a, v.b, v.c));
    const int32_t *c = iron_tensor_data(v.c);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(c[i], i + 1000);
    ASSERT_STATUS(iron_jit_bind(NULL, IRON_NO_PARAMS), IRON_EINVAL);
    ASSERT_MSG("jit is NULL");
    vcall_free(&v);
}

/* ------------------------------------------------------------------------
 * Tensor arguments
 * ------------------------------------------------------------------------ */

TEST(err_launch_null_jit)
{
    iron_tensor *a = test_zeros(IRON_INT32, 16);
    ASSERT_FAILS(IRON_CALL(NULL, a), IRON_EINVAL, "jit is NULL");
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_FAILS(iron_jit_get_stats(NULL, &st), IRON_EINVAL, "jit is NULL");
    ASSERT_EQ(iron_jit_last_state(NULL), IRON_RUN_ERROR);
    iron_jit_free(NULL);
    iron_tensor_free(a);
}

TEST(err_wrong_tensor_count)
{
    vcall v = vcall_new(64);
    ASSERT_STATUS(IRON_CALL(v.j, v.a, v.b), IRON_EARG);
    ASSERT_MSG("vector_op: 2 tensor arguments given, expected 3 (in a, in b, "
               "out c)");
    ASSERT_STATUS(IRON_CALL(v.j, v.a), IRON_EARG);
    ASSERT_MSG("1 tensor argument given, expected 3");
    ASSERT_STATUS(IRON_CALL(v.j, v.a, v.b, v.c, v.c), IRON_EARG);
    ASSERT_MSG("4 tensor arguments given");
    ASSERT_STATUS(iron_jit_launch(v.j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  0, NULL),
                  IRON_EARG);
    ASSERT_MSG("0 tensor arguments given");
    ASSERT_STATUS(iron_jit_launch(v.j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  3, NULL),
                  IRON_EARG);
    ASSERT_MSG("3 tensor arguments announced but the argument array is "
               "NULL");
    iron_jit_stats st = test_stats(v.j);
    ASSERT_EQ(st.calls, 5);
    ASSERT_EQ(st.design_runs, 0);
    vcall_free(&v);
}

TEST(err_null_tensor)
{
    vcall v = vcall_new(64);
    ASSERT_STATUS(IRON_CALL(v.j, v.a, NULL, v.c), IRON_EARG);
    ASSERT_MSG("vector_op: argument 1 ('b') is NULL");
    ASSERT_STATUS(IRON_CALL(v.j, NULL, v.b, v.c), IRON_EARG);
    ASSERT_MSG("argument 0 ('a') is NULL");
    vcall_free(&v);
}

TEST(err_dtype_mismatch)
{
    vcall v = vcall_new(64);
    iron_tensor *f = test_zeros(IRON_FLOAT32, 64);
    ASSERT_STATUS(IRON_CALL(v.j, f, v.b, v.c), IRON_EARG);
    ASSERT_MSG("argument 0 ('a'): expected int32[N], got float32[64]");
    ASSERT_MSG("compile-time: tile=16, op='+'");
    ASSERT_STATUS(IRON_CALL_WITH(v.j, IRON_PARAMS(iron_param_str("op", "-")),
                                 v.a, f, v.c),
                  IRON_EARG);
    ASSERT_MSG("argument 1 ('b'): expected int32[64], got float32[64]");
    ASSERT_MSG("op='-'");
    ASSERT_EQ(test_stats(v.j).design_runs, 0);
    iron_tensor_free(f);
    vcall_free(&v);
}

TEST(err_shape_mismatch_bound_by_other_arg)
{
    vcall v = vcall_new(64);
    iron_tensor *s = test_zeros(IRON_INT32, 32);
    ASSERT_STATUS(IRON_CALL(v.j, v.a, s, v.c), IRON_EARG);
    ASSERT_MSG("argument 1 ('b'): expected int32[64], got int32[32]");
    ASSERT_MSG("N bound by argument 0 ('a')");
    iron_tensor *m = NULL;
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(8, 8), &m));
    ASSERT_STATUS(IRON_CALL(v.j, v.a, v.b, m), IRON_EARG);
    ASSERT_MSG("argument 2 ('c'): expected int32[64], got int32[8, 8]");
    iron_tensor_free(m);
    iron_tensor_free(s);
    vcall_free(&v);
}

/* A mismatch found within the first argument's own dims. */
TEST(err_shape_mismatch_within_one_arg)
{
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o, .name = "square", .args = "in a: T[N, N], out b"
    };
    ASSERT_OK(iron_jit_create(needs_n_design, &o, &j));
    iron_tensor *a = NULL;
    ASSERT_OK(iron_tensor_zeros(IRON_INT16, IRON_SHAPE(3, 4), &a));
    ASSERT_STATUS(IRON_CALL(j, a, a), IRON_EARG);
    ASSERT_MSG("square: argument 0 ('a'): expected int16[3, 3], got "
               "int16[3, 4]");
    /* Nothing about other arguments, and balanced parentheses. */
    ASSERT(strstr(test_errmsg, "bound by") == NULL);
    int depth = 0;
    for (const char *p = test_errmsg; *p; p++) {
        depth += *p == '(';
        depth -= *p == ')';
        ASSERT_GE(depth, 0);
    }
    ASSERT_EQ(depth, 0);
    iron_tensor_free(a);
    iron_jit_free(j);
}

TEST(err_same_tensor_in_and_out)
{
    vcall v = vcall_new(64);
    ASSERT_STATUS(IRON_CALL(v.j, v.a, v.b, v.a), IRON_EARG);
    ASSERT_MSG("argument 2 ('c') is the same tensor as argument 0 ('a')");
    /* The same tensor for two inputs is fine. */
    ASSERT_OK(IRON_CALL(v.j, v.a, v.a, v.c));
    vcall_free(&v);
}

/* ------------------------------------------------------------------------
 * Devices and launch configuration
 * ------------------------------------------------------------------------ */

TEST(err_scoped_unknown_device)
{
    vcall v = vcall_new(64);
    iron_status pushed = IRON_OK;
    IRON_WITH_DEVICE("npu9")
    {
        ASSERT_STATUS(IRON_CALL(v.j, v.a, v.b, v.c), IRON_EDEVICE);
        iron_device *dev = (iron_device *)(uintptr_t)1;
        pushed = iron_device_get_current(&dev);
        ASSERT(dev == NULL);
    }
    ASSERT_EQ(pushed, IRON_EDEVICE);
    ASSERT_MSG("vector_op");
    ASSERT_MSG("'npu9'");
    ASSERT_MSG("npu1_1col");   /* the known devices are listed */
    ASSERT_EQ(test_stats(v.j).design_runs, 0);
    /* The scope is closed: calls run on the default device again. */
    ASSERT_OK(IRON_CALL(v.j, v.a, v.b, v.c));
    /* A bad inner scope is not rescued by a good outer one. */
    IRON_WITH_DEVICE("npu1")
    {
        IRON_WITH_DEVICE("npu9_9col")
        {
            ASSERT_STATUS(IRON_CALL(v.j, v.a, v.b, v.c), IRON_EDEVICE);
            ASSERT_MSG("npu9_9col");
        }
        ASSERT_OK(IRON_CALL(v.j, v.a, v.b, v.c));
    }
    vcall_free(&v);
}

TEST(err_launch_cols_exceed_device)
{
    vcall v = vcall_new(64);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 5 };
    IRON_WITH_DEVICE("npu1")
    {
        ASSERT_STATUS(iron_jit_launch(v.j, &cfg, IRON_NO_PARAMS,
                                      IRON_NO_SCALARS,
                                      IRON_TENSORS(v.a, v.b, v.c)),
                      IRON_ERESOURCE);
    }
    ASSERT_MSG("vector_op");
    ASSERT_MSG("5 columns");
    ASSERT_MSG("device 'npu1' has 4");
    cfg.cols = 9;
    ASSERT_STATUS(iron_jit_launch(v.j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(v.a, v.b, v.c)),
                  IRON_ERESOURCE);
    ASSERT_MSG("9 columns; device 'npu2' has 8");
    cfg.cols = -1;
    ASSERT_STATUS(iron_jit_launch(v.j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(v.a, v.b, v.c)),
                  IRON_ERESOURCE);
    ASSERT_MSG("-1");
    ASSERT_EQ(test_stats(v.j).design_runs, 0);
    vcall_free(&v);
}

TEST(err_launch_config_size)
{
    vcall v = vcall_new(64);
    iron_launch_config cfg = { .size = 4, .cols = 1 };
    ASSERT_STATUS(iron_jit_launch(v.j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(v.a, v.b, v.c)),
                  IRON_EINVAL);
    ASSERT_MSG("launch config.size is 4; expected at least");
    vcall_free(&v);
}

/* ------------------------------------------------------------------------
 * Design-function errors: one design with a switch of mistakes
 * ------------------------------------------------------------------------ */

enum {
    E_NONE,
    E_FAIL,
    E_RETURN,
    E_DEPTH0,
    E_DEPTH17,
    E_DUP_FIFO,
    E_FIFO_NAME,
    E_BAD_SHAPE,
    E_NDIM0,
    E_FIFO_DTYPE_ENUM,
    E_KTYPES_PTRPTR,
    E_KTYPES_UNKNOWN,
    E_KTYPES_NAME,
    E_KTYPES_EMPTY_ITEM,
    E_KERNEL_ENTRY,
    E_KERNEL_SRC_EMPTY,
    E_KERNEL_DEFINE,
    E_KERNEL_RESERVED,
    E_ARGC,
    E_HANDLE_FOR_SCALAR,
    E_SCALAR_FOR_PTR,
    E_FIFO_DTYPE,
    E_FLOAT_FOR_INT,
    E_SAME_HANDLE_TWICE,
    E_SHARED_HANDLE,
    E_ITER0,
    E_DUP_WORKER,
    E_WORKER_NULL_KERNEL,
    E_FILL_FROM_OUT,
    E_DRAIN_INTO_IN,
    E_FILL_WITH_CONS,
    E_DRAIN_WITH_PROD,
    E_FILL_WORKER_HANDLE,
    E_FILL_ARG_RANGE,
    E_FILL_DTYPE,
    E_TAP_OOB,
    E_TAP_NEG,
    E_TAP_ZERO,
    E_TAP_NEG_STRIDE,
    E_TAP_NDIM,
    E_TAP_NOT_WHOLE,
    E_NO_AWAIT,
    E_UNUSED_CONS,
    E_NO_PRODUCER,
    E_NO_CONSUMER,
    E_WORKER_NO_HANDLE,
    E_NO_WORKER,
    E_NOT_STARTED,
    E_HOST_TO_HOST,
    E_PARAM_UNDECLARED,
    E_PARAM_WRONG_TYPE,
    E_ARG_INDEX,
    E_STICKY,
    E_COMPILE,
    E_CONFLICT,
    E_DEADLOCK,
};

static int sticky_checked;

static const char bad_src[] =
    "#include <stdint.h>\n"
    "void copy_i32(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + undefined_thing;\n"
    "}\n";

static int err_design(iron_design *d, void *user)
{
    const int which = *(const int *)user;
    const int64_t n = iron_design_arg_numel(d, 0);
    const int64_t m = iron_design_arg_numel(d, 1);
    switch (which) {
    case E_FAIL:
        iron_design_fail(d, IRON_ESHAPE, "custom failure: %lld elements",
                         (long long)n);
        return 1;
    case E_RETURN:
        return 3;
    case E_NO_WORKER:
        return 0;
    case E_PARAM_UNDECLARED:
        iron_design_param_int(d, "nope");
        break;
    case E_PARAM_WRONG_TYPE:
        iron_design_param_str(d, "tile");
        break;
    case E_ARG_INDEX:
        iron_design_arg_numel(d, 5);
        break;
    default:
        break;
    }

    int depth = which == E_DEPTH0 ? 0 : which == E_DEPTH17 ? 17 : 2;
    iron_shape obj = IRON_SHAPE(OBJ);
    if (which == E_BAD_SHAPE)
        obj = IRON_SHAPE(4, 0);
    if (which == E_NDIM0)
        obj.ndim = 0;
    iron_dtype adt = which == E_FIFO_DTYPE ? IRON_INT16
                     : which == E_FIFO_DTYPE_ENUM ? (iron_dtype)99
                                                  : IRON_INT32;
    iron_fifo *fa = iron_fifo_new(d, which == E_FIFO_NAME ? "a b" : "a", adt,
                                  obj, depth);
    if (which == E_STICKY) {
        /* The first failure sticks: later builder calls do nothing and
         * return NULL or the first status. */
        iron_fifo *bad = iron_fifo_new(d, "z", IRON_INT32, IRON_SHAPE(OBJ), 0);
        iron_fifo *again = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ),
                                         2);
        iron_status later = iron_rt_fill(d, NULL, 9, iron_tap_linear(1));
        sticky_checked = fa != NULL && bad == NULL && again == NULL &&
                         iron_fifo_prod(fa) == NULL &&
                         iron_fifo_cons(fa) == NULL && later == IRON_EINVAL &&
                         iron_design_status(d) == IRON_EINVAL;
    }
    iron_fifo *fb = iron_fifo_new(d, which == E_DUP_FIFO ? "a" : "b",
                                  IRON_INT32, IRON_SHAPE(OBJ), 2);

    const char *types = "int32*, int32*, int32";
    if (which == E_KTYPES_PTRPTR)
        types = "int32*, int32**, int32";
    else if (which == E_KTYPES_UNKNOWN)
        types = "int32*, int33*, int32";
    else if (which == E_KTYPES_NAME)
        types = "int32*, int32* out extra, int32";
    else if (which == E_KTYPES_EMPTY_ITEM)
        types = "int32*, , int32";
    else if (which == E_CONFLICT)
        types = "int32*, int32*, int64";
    const char *entry = which == E_KERNEL_ENTRY      ? "2copy"
                        : which == E_KERNEL_RESERVED ? "iron__copy"
                                                     : "copy_i32";
    const char *src = which == E_COMPILE            ? bad_src
                      : which == E_KERNEL_SRC_EMPTY ? ""
                                                    : copy_src;
    iron_kernel *k = iron_kernel_new(d, entry, src, types);
    if (which == E_KERNEL_DEFINE)
        iron_kernel_define(k, "NOT VALID", "1");

    iron_handle *ac = iron_fifo_cons(fa), *bp = iron_fifo_prod(fb);
    iron_arg args[3] = { iron_arg_fifo(ac), iron_arg_fifo(bp),
                         iron_arg_int(OBJ) };
    int nargs = 3;
    if (which == E_ARGC)
        nargs = 2;
    if (which == E_HANDLE_FOR_SCALAR) {
        iron_fifo *fc = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(OBJ), 2);
        args[2] = iron_arg_fifo(iron_fifo_cons(fc));
    }
    if (which == E_SCALAR_FOR_PTR)
        args[0] = iron_arg_int(5);
    if (which == E_FLOAT_FOR_INT)
        args[2] = iron_arg_float(1.5);
    if (which == E_SAME_HANDLE_TWICE)
        args[1] = iron_arg_fifo(ac);
    iron_worker *w = iron_worker_new(d, "copy",
                                     which == E_WORKER_NULL_KERNEL ? NULL : k,
                                     which == E_ITER0 ? -1 : n / OBJ, nargs,
                                     args);
    if (which == E_SHARED_HANDLE || which == E_DUP_WORKER) {
        iron_fifo *fc = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(OBJ), 2);
        iron_worker_new(d, which == E_DUP_WORKER ? "copy" : "copy2", k,
                        n / OBJ,
                        IRON_ARGS(iron_arg_fifo(which == E_SHARED_HANDLE
                                                    ? ac
                                                    : iron_fifo_cons(fa)),
                                  iron_arg_fifo(iron_fifo_prod(fc)),
                                  iron_arg_int(OBJ)));
    }
    if (which == E_WORKER_NO_HANDLE) {
        iron_kernel *nop = iron_kernel_new(
            d, "nop", "void nop(int32_t n) { (void)n; }\n", "int32");
        iron_worker_new(d, "idle", nop, 1, IRON_ARGS(iron_arg_int(1)));
    }
    if (which == E_NOT_STARTED) {
        iron_fifo *fc = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(OBJ), 2);
        iron_fifo *fd = iron_fifo_new(d, "d", IRON_INT32, IRON_SHAPE(OBJ), 2);
        iron_worker_new(d, "lazy", k, 1,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(fc)),
                                  iron_arg_fifo(iron_fifo_prod(fd)),
                                  iron_arg_int(OBJ)));
        iron_rt_fill(d, iron_fifo_prod(fc), 0, iron_tap_linear(OBJ));
        iron_rt_drain(d, iron_fifo_cons(fd), 1, iron_tap_linear(OBJ),
                      IRON_NOWAIT);
    }
    iron_rt_start(d, w);

    iron_tap fill_tap = iron_tap_linear(n);
    if (which == E_TAP_OOB)
        fill_tap = iron_tap_linear(n + OBJ);
    if (which == E_TAP_NEG)
        fill_tap.offset = -OBJ;
    if (which == E_TAP_ZERO)
        fill_tap = iron_tap_make(0, 2, (const int64_t[]){ 0, OBJ },
                                 (const int64_t[]){ OBJ, 1 });
    if (which == E_TAP_NEG_STRIDE)
        fill_tap = iron_tap_make(n - 1, 1, (const int64_t[]){ n },
                                 (const int64_t[]){ -1 });
    if (which == E_TAP_NDIM)
        fill_tap = iron_tap_make(0, 5, (const int64_t[]){ 1, 1, 1, 1, n },
                                 (const int64_t[]){ 0, 0, 0, 0, 1 });
    if (which == E_TAP_NOT_WHOLE)
        fill_tap = iron_tap_linear(n - 8);
    int fill_arg = which == E_FILL_FROM_OUT    ? 1
                   : which == E_FILL_ARG_RANGE ? 7
                                               : 0;
    iron_handle *fill_h = iron_fifo_prod(fa);
    if (which == E_FILL_WITH_CONS)
        fill_h = iron_fifo_cons(fa);
    if (which == E_FILL_WORKER_HANDLE)
        fill_h = bp;
    iron_rt_fill(d, fill_h, fill_arg, fill_tap);

    iron_handle *drain_h =
        which == E_DRAIN_WITH_PROD ? bp : iron_fifo_cons(fb);
    iron_rt_drain(d, drain_h, which == E_DRAIN_INTO_IN ? 0 : 1,
                  iron_tap_linear(which == E_DEADLOCK ? m : n),
                  which == E_NO_AWAIT ? IRON_NOWAIT : IRON_WAIT);

    if (which == E_UNUSED_CONS)
        iron_fifo_cons(fb);
    if (which == E_NO_PRODUCER)
        iron_fifo_cons(iron_fifo_new(d, "orphan", IRON_INT32,
                                     IRON_SHAPE(OBJ), 2));
    if (which == E_NO_CONSUMER) {
        iron_fifo *fc = iron_fifo_new(d, "sink", IRON_INT32, IRON_SHAPE(OBJ),
                                      2);
        iron_rt_fill(d, iron_fifo_prod(fc), 0, iron_tap_linear(OBJ));
    }
    if (which == E_HOST_TO_HOST) {
        iron_fifo *fc = iron_fifo_new(d, "direct", IRON_INT32,
                                      IRON_SHAPE(OBJ), 2);
        iron_rt_fill(d, iron_fifo_prod(fc), 0, iron_tap_linear(OBJ));
        iron_rt_drain(d, iron_fifo_cons(fc), 1, iron_tap_linear(OBJ),
                      IRON_NOWAIT);
    }
    if (which == E_FILL_DTYPE) {
        /* The DMA moves bytes, so int32 into float32 would be fine;
         * 6-byte objects are not whole int32 elements. */
        iron_fifo *fc = iron_fifo_new(d, "shorts", IRON_INT16,
                                      IRON_SHAPE(3), 2);
        iron_rt_fill(d, iron_fifo_prod(fc), 0, iron_tap_linear(OBJ));
    }
    return 0;
}

/* Runs err_design case `which` on int32 a[n_in] -> b[n_out]; returns the
 * status with the message kept in test_errmsg, and checks that a failure left
 * nothing cached. */
static iron_status run_case_cfg(int which, int64_t n_in, int64_t n_out,
                                const iron_launch_config *cfg)
{
    static int which_store;
    which_store = which;
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "errjit",
        .args = "in a: int32[N], out b: int32[M]",
        .params = "tile: int = 16",
        .user = &which_store,
    };
    ASSERT_OK(iron_jit_create(err_design, &o, &j));
    iron_tensor *a = test_zeros(IRON_INT32, n_in);
    iron_tensor *b = test_zeros(IRON_INT32, n_out);
    iron_status s = test_keep(iron_jit_launch(j, cfg, IRON_NO_PARAMS,
                                         IRON_NO_SCALARS, IRON_TENSORS(a, b)));
    iron_jit_stats st = test_stats(j);
    if (s != IRON_OK && s != IRON_EDEADLOCK && st.specializations != 0)
        TEST_FAIL_("case %d failed (%s) but left %llu specializations",
                   which, test_errmsg, (unsigned long long)st.specializations);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    return s;
}

static iron_status run_case(int which)
{
    return run_case_cfg(which, 64, 64, NULL);
}

#define CASE_FAILS(which, status, needle)                                     \
    do {                                                                      \
        ASSERT_STATUS(run_case(which), status);                               \
        ASSERT_MSG(needle);                                                   \
    } while (0)

TEST(err_design_baseline_works)
{
    ASSERT_OK(run_case(E_NONE));
}

TEST(err_design_fail_propagates)
{
    CASE_FAILS(E_FAIL, IRON_ESHAPE, "custom failure: 64 elements");
    /* The jit's name, the signature in force and the stage come first. */
    ASSERT_MSG("errjit (a: int32[64], b: int32[64]; tile=16; npu2, "
               "8 columns): design: custom failure");
}

TEST(err_design_returns_nonzero_silently)
{
    CASE_FAILS(E_RETURN, IRON_EDESIGN, "returned 3 without recording");
    ASSERT_MSG("errjit (a: int32[64]");
    ASSERT_MSG("iron_design_fail");
}

TEST(err_fifo_depth)
{
    CASE_FAILS(E_DEPTH0, IRON_EINVAL, "fifo 'a': depth 0; expected 1 to 16");
    CASE_FAILS(E_DEPTH17, IRON_EINVAL, "fifo 'a': depth 17; expected 1 to 16");
}

TEST(err_fifo_duplicate_name)
{
    CASE_FAILS(E_DUP_FIFO, IRON_EINVAL, "a fifo named 'a' already exists");
    CASE_FAILS(E_FIFO_NAME, IRON_EINVAL, "name 'a b' is not valid");
}

TEST(err_fifo_bad_object)
{
    CASE_FAILS(E_BAD_SHAPE, IRON_ESHAPE,
               "fifo 'a': object shape dim 1 is 0; dims must be >= 1");
    CASE_FAILS(E_NDIM0, IRON_ESHAPE,
               "fifo 'a': object shape has 0 dimensions");
    CASE_FAILS(E_FIFO_DTYPE_ENUM, IRON_EDTYPE,
               "fifo 'a': dtype 99 is not a valid iron_dtype");
}

TEST(err_kernel_arg_types_syntax)
{
    CASE_FAILS(E_KTYPES_PTRPTR, IRON_EINVAL, "kernel 'copy_i32': arg_types");
    ASSERT_MSG("pointers to pointers");
    CASE_FAILS(E_KTYPES_UNKNOWN, IRON_EINVAL, "'int33*': unknown dtype");
    /* One name may follow a type (for iron_kernel_set_cycles); two may
     * not. */
    CASE_FAILS(E_KTYPES_NAME, IRON_EINVAL, "argument 2 'int32* out extra': "
                                           "one name at most after the type");
    CASE_FAILS(E_KTYPES_EMPTY_ITEM, IRON_EINVAL, "argument 2 '': empty item");
}

TEST(err_kernel_declaration)
{
    CASE_FAILS(E_KERNEL_ENTRY, IRON_EINVAL, "entry '2copy' is not a C "
                                            "identifier");
    CASE_FAILS(E_KERNEL_SRC_EMPTY, IRON_EINVAL, "kernel 'copy_i32': source "
                                                "is empty");
    CASE_FAILS(E_KERNEL_DEFINE, IRON_EINVAL, "define name 'NOT VALID'");
    CASE_FAILS(E_KERNEL_RESERVED, IRON_EINVAL, "'iron__copy'");
    ASSERT_MSG("reserved");
}

TEST(err_worker_arg_count)
{
    CASE_FAILS(E_ARGC, IRON_EDESIGN,
               "worker 'copy': 2 arguments given, kernel 'copy_i32' "
               "declares 3");
}

TEST(err_worker_handle_for_scalar)
{
    CASE_FAILS(E_HANDLE_FOR_SCALAR, IRON_EDESIGN,
               "worker 'copy': argument 2 is fifo 'c' (consumer), but kernel "
               "'copy_i32' declares a scalar int32 there");
}

TEST(err_worker_scalar_for_pointer)
{
    CASE_FAILS(E_SCALAR_FOR_PTR, IRON_EDESIGN,
               "worker 'copy': argument 0 is a scalar, but kernel 'copy_i32' "
               "declares int32* there");
    CASE_FAILS(E_FLOAT_FOR_INT, IRON_EDTYPE,
               "argument 2 is a float scalar, but kernel 'copy_i32' declares "
               "int32");
}

TEST(err_worker_fifo_dtype)
{
    CASE_FAILS(E_FIFO_DTYPE, IRON_EDTYPE,
               "worker 'copy': argument 0 is fifo 'a' (consumer) of int16 "
               "objects, but kernel 'copy_i32' declares int32*");
}

TEST(err_worker_handle_reuse)
{
    CASE_FAILS(E_SHARED_HANDLE, IRON_EDESIGN,
               "worker 'copy2': fifo 'a' (consumer) is already used by "
               "worker 'copy'");
    CASE_FAILS(E_SAME_HANDLE_TWICE, IRON_EDESIGN,
               "worker 'copy': arguments 0 and 1 are the same handle");
}

TEST(err_worker_misc)
{
    CASE_FAILS(E_ITER0, IRON_EINVAL,
               "worker 'copy': iterations is -1; expected >= 0 (0: runs "
               "forever, as upstream's while_true)");
    CASE_FAILS(E_DUP_WORKER, IRON_EINVAL, "a worker named 'copy' already "
                                          "exists");
    CASE_FAILS(E_WORKER_NULL_KERNEL, IRON_EINVAL, "worker 'copy': kernel is "
                                                  "NULL");
    CASE_FAILS(E_WORKER_NO_HANDLE, IRON_EDESIGN,
               "worker 'idle': no fifo handle among its arguments");
}

TEST(err_fill_drain_roles)
{
    CASE_FAILS(E_FILL_FROM_OUT, IRON_EARG,
               "fill of fifo 'a' (producer) reads argument 1 ('b'), which is "
               "declared out");
    CASE_FAILS(E_DRAIN_INTO_IN, IRON_EARG,
               "drain of fifo 'b' (consumer) writes argument 0 ('a'), which "
               "is declared in");
    CASE_FAILS(E_FILL_ARG_RANGE, IRON_EARG,
               "argument 7 does not exist; the jit declares 2 arguments");
    CASE_FAILS(E_FILL_DTYPE, IRON_EDTYPE,
               "argument 0 ('a') is int32 (4 bytes an element), the fifo "
               "carries int16 objects of 6 bytes: not a whole number of the "
               "tensor's elements");
}

TEST(err_fill_drain_handles)
{
    CASE_FAILS(E_FILL_WITH_CONS, IRON_EDESIGN,
               "a fill needs the producer handle (iron_fifo_prod)");
    ASSERT_MSG("fifo 'a' (consumer 1)");
    CASE_FAILS(E_DRAIN_WITH_PROD, IRON_EDESIGN,
               "drain of fifo 'b' (producer): a drain needs a consumer "
               "handle");
    CASE_FAILS(E_FILL_WORKER_HANDLE, IRON_EDESIGN, "fifo 'b' (producer)");
    ASSERT_MSG("already used by worker 'copy'");
}

TEST(err_tap_bounds)
{
    CASE_FAILS(E_TAP_OOB, IRON_EBOUNDS, "out of bounds");
    ASSERT_MSG("reaches element 79, the tensor has 64");
    ASSERT_MSG("fill of fifo 'a' (producer) from argument 0 ('a', 64 "
               "elements)");
    CASE_FAILS(E_TAP_NEG, IRON_EBOUNDS, "offset is -16");
    CASE_FAILS(E_TAP_ZERO, IRON_EBOUNDS, "size[0] is 0");
    CASE_FAILS(E_TAP_NEG_STRIDE, IRON_EBOUNDS, "stride[0] is -1");
    CASE_FAILS(E_TAP_NDIM, IRON_EBOUNDS, "5 dimensions");
}

TEST(err_tap_not_whole_objects)
{
    CASE_FAILS(E_TAP_NOT_WHOLE, IRON_EDESIGN,
               "moves 56 elements, not a whole number of 16-element "
               "objects");
}

TEST(err_verify_structure)
{
    CASE_FAILS(E_NO_AWAIT, IRON_EDESIGN, "awaits no drain");
    ASSERT_MSG("verify");
    CASE_FAILS(E_UNUSED_CONS, IRON_EDESIGN,
               "fifo 'b' (consumer 1) is never used");
    CASE_FAILS(E_NO_PRODUCER, IRON_EDESIGN, "fifo 'orphan' has no producer");
    CASE_FAILS(E_NO_CONSUMER, IRON_EDESIGN, "fifo 'sink' has no consumer");
    CASE_FAILS(E_NO_WORKER, IRON_EDESIGN, "the design has no worker");
    CASE_FAILS(E_NOT_STARTED, IRON_EDESIGN, "worker 'lazy' is never started");
    CASE_FAILS(E_HOST_TO_HOST, IRON_EDESIGN,
               "fifo 'direct' is filled and drained by the runtime");
}

TEST(err_design_queries)
{
    CASE_FAILS(E_PARAM_UNDECLARED, IRON_EPARAM,
               "design asked for parameter 'nope', which the jit does not "
               "declare (declared: tile)");
    CASE_FAILS(E_PARAM_WRONG_TYPE, IRON_EPARAM,
               "design reads parameter 'tile' as str, but it is declared "
               "int");
    CASE_FAILS(E_ARG_INDEX, IRON_EARG,
               "design asked for argument 5; the jit declares 2 arguments");
}

TEST(err_design_sticky_first_error)
{
    sticky_checked = 0;
    CASE_FAILS(E_STICKY, IRON_EINVAL, "fifo 'z': depth 0");
    ASSERT(strstr(test_errmsg, "already exists") == NULL);
    ASSERT(strstr(test_errmsg, "argument 9") == NULL);
    ASSERT_EQ(sticky_checked, 1);
}

/* ------------------------------------------------------------------------
 * Placement: resources of the device
 * ------------------------------------------------------------------------ */

static const char add1_src[] =
    "#include <stdint.h>\n"
    "void add1(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + 1;\n"
    "}\n";

/* `workers` workers in a chain, each adding 1. */
static int chain_design(iron_design *d, void *user)
{
    const int workers = *(const int *)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_fifo *f[17];
    for (int s = 0; s <= workers; s++) {
        char nm[16];
        snprintf(nm, sizeof nm, "f%d", s);
        f[s] = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
    }
    for (int s = 0; s < workers; s++) {
        char nm[16];
        snprintf(nm, sizeof nm, "w%d", s);
        iron_worker_new(d, nm, k, n / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f[s])),
                                  iron_arg_fifo(iron_fifo_prod(f[s + 1])),
                                  iron_arg_int(OBJ)));
    }
    iron_rt_fill(d, iron_fifo_prod(f[0]), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(f[workers]), 1, iron_tap_linear(n),
                  IRON_WAIT);
    return 0;
}

static iron_status run_chain(int workers, int cols)
{
    static int w_store;
    w_store = workers;
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "chain",
        .args = "in a: int32[N], out b: int32[N]",
        .user = &w_store,
    };
    ASSERT_OK(iron_jit_create(chain_design, &o, &j));
    iron_tensor *a = NULL, *b = test_zeros(IRON_INT32, 64);
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 64, 1, &a));
    iron_launch_config cfg = { .size = sizeof cfg, .cols = cols };
    iron_status s = test_keep(iron_jit_launch(j, &cfg, IRON_NO_PARAMS,
                                         IRON_NO_SCALARS, IRON_TENSORS(a, b)));
    if (s == IRON_OK) {
        const int32_t *y = iron_tensor_data(b);
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(y[i], i + workers);
    } else {
        ASSERT_EQ(test_stats(j).specializations, 0);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    return s;
}

TEST(err_too_many_workers_for_columns)
{
    ASSERT_OK(run_chain(4, 1));
    ASSERT_STATUS(run_chain(5, 1), IRON_ERESOURCE);
    ASSERT_MSG("the design has 5 workers; the launch grants 1 column x 4 "
               "compute tiles = 4");
    ASSERT_MSG("chain (");
    ASSERT_MSG("place");
    ASSERT_OK(run_chain(5, 2));
    ASSERT_STATUS(run_chain(9, 2), IRON_ERESOURCE);
    ASSERT_MSG("2 columns x 4 compute tiles = 8");
    IRON_WITH_DEVICE("npu1_1col")
    {
        ASSERT_STATUS(run_chain(5, 0), IRON_ERESOURCE);
    }
    ASSERT_MSG("npu1_1col, 1 column");
}

/* One worker with a `words`-element int32 object in and out, depth 2. */
static int big_design(iron_design *d, void *user)
{
    (void)user;
    int64_t words = iron_design_param_int(d, "words");
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(words), 2);
    iron_fifo *b = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(words), 2);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "big", k, n / words,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(words)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(err_compute_tile_memory_overflow)
{
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "big",
        .args = "in a: int32[N], out b: int32[N]",
        .params = "words: int",
    };
    ASSERT_OK(iron_jit_create(big_design, &o, &j));
    iron_tensor *a = test_zeros(IRON_INT32, 8192);
    iron_tensor *b = test_zeros(IRON_INT32, 8192);
    /* 16 KiB objects: 4 buffers = 64 KiB, plus the 1 KiB stack. */
    ASSERT_STATUS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("words", 4096)),
                                 a, b),
                  IRON_ERESOURCE);
    ASSERT_MSG("compute tile (0,2)");
    ASSERT_MSG("worker 'big'");
    ASSERT_MSG("data memory needs 66560 bytes, the tile has 65536");
    ASSERT_MSG("fifo 'in' (consumer) 2 x 16384 B");
    ASSERT_MSG("stack 1024 B");
    ASSERT_EQ(test_stats(j).specializations, 0);
    ASSERT_EQ(test_stats(j).kernel_compiles, 0);  /* placement comes first */
    /* Just under the limit fits: 4 x 16128 + 1024 = 65536. */
    iron_tensor_free(a);
    iron_tensor_free(b);
    a = test_zeros(IRON_INT32, 2 * 4032);
    b = test_zeros(IRON_INT32, 2 * 4032);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("words", 4032)),
                             a, b));
    ASSERT_EQ(test_stats(j).specializations, 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);

    /* The passthrough reference design over 64 KiB does not fit either. */
    ASSERT_OK(iron_jit_create(passthrough_design, &passthrough_options, &j));
    a = test_zeros(IRON_UINT8, 65536);
    b = test_zeros(IRON_UINT8, 65536);
    ASSERT_STATUS(IRON_CALL(j, a, b), IRON_ERESOURCE);
    ASSERT_MSG("passthrough (input: uint8[65536]");
    ASSERT_MSG("data memory");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* Three independent workers, each filled and drained over a third of the
 * tensors: three MM2S and three S2MM shim channels. */
static int thirds_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), third = n / 3;
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    for (int w = 0; w < 3; w++) {
        char nm[16];
        snprintf(nm, sizeof nm, "in%d", w);
        iron_fifo *a = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
        snprintf(nm, sizeof nm, "out%d", w);
        iron_fifo *b = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
        snprintf(nm, sizeof nm, "w%d", w);
        iron_worker_new(d, nm, k, third / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                                  iron_arg_fifo(iron_fifo_prod(b)),
                                  iron_arg_int(OBJ)));
        iron_tap t = iron_tap_make(third * w, 1, (const int64_t[]){ third },
                                   (const int64_t[]){ 1 });
        iron_rt_fill(d, iron_fifo_prod(a), 0, t);
        iron_rt_drain(d, iron_fifo_cons(b), 1, t, IRON_WAIT);
    }
    return 0;
}

TEST(err_too_many_shim_channels)
{
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "thirds",
        .args = "in a: int32[N], out b: int32[N]",
    };
    ASSERT_OK(iron_jit_create(thirds_design, &o, &j));
    iron_tensor *a = NULL, *b = test_zeros(IRON_INT32, 96);
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 5, 293, 3, &a));
    iron_launch_config one = { .size = sizeof one, .cols = 1 };
    ASSERT_STATUS(iron_jit_launch(j, &one, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b)),
                  IRON_ERESOURCE);
    ASSERT_MSG("shim DMA");
    ASSERT_MSG("fifo 'in2' needs an MM2S");
    ASSERT_MSG("the design needs 3, the 1 granted column has 1 x 2");
    ASSERT_EQ(test_stats(j).specializations, 0);
    /* Two columns have four MM2S channels: it fits and runs. */
    iron_launch_config two = { .size = sizeof two, .cols = 2 };
    ASSERT_OK(iron_jit_launch(j, &two, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
    for (int i = 0; i < 96; i++)
        ASSERT_EQ(y[i], x[i] + 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Kernel compilation
 * ------------------------------------------------------------------------ */

TEST(err_kernel_does_not_compile)
{
    CASE_FAILS(E_COMPILE, IRON_ECOMPILE, "undefined_thing");
    ASSERT_MSG("kernel 'copy_i32'");
    ASSERT_MSG("errjit (a: int32[64]");
    ASSERT_MSG("compile");
    ASSERT_MSG("error");
}

TEST(err_kernel_types_conflict_with_source)
{
    CASE_FAILS(E_CONFLICT, IRON_ECOMPILE, "conflicting types for copy_i32");
    ASSERT_MSG("int32*, int32*, int64");
}

/* Nothing half-built is cached: after a failed build the jit holds no
 * specialization, and a later call with a valid value builds and runs. */
static const char op_src[] =
    "#include <stdint.h>\n"
    "void op(const int32_t *a, int32_t *c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = a[i] OP 3;\n"
    "}\n";

static int op_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "op", op_src, "int32*, int32*, int32");
    iron_kernel_define(k, "OP", iron_design_param_str(d, "op"));
    iron_worker_new(d, "op", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(c)),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(err_failed_build_caches_nothing)
{
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "opjit",
        .args = "in a: int32[N], out c: int32[N]",
        .params = "op: str = '+'",
    };
    ASSERT_OK(iron_jit_create(op_design, &o, &j));
    iron_tensor *a = NULL, *c = test_zeros(IRON_INT32, 64);
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 64, 1, &a));
    ASSERT_STATUS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "@")), a,
                                 c),
                  IRON_ECOMPILE);
    ASSERT_MSG("opjit (a: int32[64], c: int32[64]; op='@'");
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.specializations, 0);
    ASSERT_EQ(st.builds, 0);
    ASSERT_EQ(st.design_runs, 1);
    ASSERT_EQ(st.kernel_compiles, 0);  /* counts kernels built, not attempts */
    /* The same bad value again: built again (not cached), fails again. */
    ASSERT_STATUS(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "@")), a,
                                 c),
                  IRON_ECOMPILE);
    ASSERT_EQ(test_stats(j).design_runs, 2);
    ASSERT_EQ(test_stats(j).memory_hits, 0);
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "*")), a, c));
    const int32_t *y = iron_tensor_data(c);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(y[i], i * 3);
    st = test_stats(j);
    ASSERT_EQ(st.specializations, 1);
    ASSERT_EQ(st.builds, 1);
    iron_tensor_free(a);
    iron_tensor_free(c);
    iron_jit_free(j);
    test_assert_no_leaks();
}

/* ------------------------------------------------------------------------
 * Run time: deadlock and timeout
 * ------------------------------------------------------------------------ */

TEST(err_deadlock_drain_expects_more)
{
    /* fill N, drain 2N: the drain waits forever for objects never made. */
    static int which = E_DEADLOCK;
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "stuck",
        .args = "in a: int32[N], out b: int32[M]",
        .params = "tile: int = 16",
        .user = &which,
    };
    ASSERT_OK(iron_jit_create(err_design, &o, &j));
    iron_tensor *a = test_zeros(IRON_INT32, 64);
    iron_tensor *b = test_zeros(IRON_INT32, 128);
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
    ASSERT_STATUS(IRON_CALL(j, a, b), IRON_EDEADLOCK);
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    ASSERT_MSG("stuck (a: int32[64], b: int32[128]");
    ASSERT_MSG("1 awaited drain");
    ASSERT_MSG("worker 'copy'");
    ASSERT_MSG("waits to acquire 1 filled buffer of fifo 'a' (consumer)");
    ASSERT_MSG("drain of argument 1 'b': 64 of 128 elements moved");
    /* The specialization itself is fine and cached; calling it again
     * resets the array and reports the same stall. */
    ASSERT_EQ(test_stats(j).specializations, 1);
    ASSERT_STATUS(IRON_CALL(j, a, b), IRON_EDEADLOCK);
    ASSERT_MSG("64 of 128 elements moved");
    ASSERT_EQ(test_stats(j).builds, 1);
    /* The same jit with a shape that matches runs fine. */
    int32_t *x = iron_tensor_data(a);
    for (int i = 0; i < 64; i++)
        x[i] = 3 * i;
    iron_tensor *c = test_zeros(IRON_INT32, 64);
    ASSERT_OK(IRON_CALL(j, a, c));
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
    ASSERT_EQ(memcmp(iron_tensor_data(a), iron_tensor_data(c), 64 * 4), 0);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    test_assert_no_leaks();
}

TEST(err_deadlock_then_other_jit_works)
{
    ASSERT_STATUS(run_case_cfg(E_DEADLOCK, 64, 128, NULL), IRON_EDEADLOCK);
    ASSERT_MSG("errjit (a: int32[64], b: int32[128]");
    ASSERT_MSG("worker 'copy'");
    /* A new jit on the same thread and device runs normally. */
    vcall v = vcall_new(1024);
    int32_t *a = iron_tensor_data(v.a), *b = iron_tensor_data(v.b);
    for (int i = 0; i < 1024; i++) {
        a[i] = i;
        b[i] = -2 * i;
    }
    ASSERT_OK(IRON_CALL(v.j, v.a, v.b, v.c));
    ASSERT_EQ(iron_jit_last_state(v.j), IRON_RUN_COMPLETED);
    const int32_t *c = iron_tensor_data(v.c);
    for (int i = 0; i < 1024; i++)
        ASSERT_EQ(c[i], -i);
    vcall_free(&v);
}

/* Sixteen workers in a chain whose drain wants twice what the fill gives:
 * every worker and the drain wait, and the report has a line for each. */
static int stuck_chain_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), m = iron_design_arg_numel(d, 1);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_fifo *f[17];
    for (int s = 0; s <= 16; s++) {
        char nm[32];
        snprintf(nm, sizeof nm, "stage_%02d_results", s);
        f[s] = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
    }
    for (int s = 0; s < 16; s++) {
        char nm[32];
        snprintf(nm, sizeof nm, "adder_number_%02d", s);
        iron_worker_new(d, nm, k, m / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f[s])),
                                  iron_arg_fifo(iron_fifo_prod(f[s + 1])),
                                  iron_arg_int(OBJ)));
    }
    iron_rt_fill(d, iron_fifo_prod(f[0]), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(f[16]), 1, iron_tap_linear(m),
                  IRON_WAIT);
    return 0;
}

/* A sixteen-worker deadlock's report is longer than the message: the
 * message keeps whole lines and says how many more there are and where
 * they are; the counters hold the whole report (it was cut at 1536
 * characters mid-word, with no marker). */
TEST(err_deadlock_report_of_sixteen_workers)
{
    iron_jit *j = test_jit(stuck_chain_design, "chain16",
                           "in a: int32[N], out b: int32[M]");
    iron_tensor *a = test_zeros(IRON_INT32, 64);
    iron_tensor *b = test_zeros(IRON_INT32, 128);
    ASSERT_STATUS(IRON_CALL(j, a, b), IRON_EDEADLOCK);
    ASSERT_LT(strlen(test_errmsg), IRON__MSG_MAX);
    ASSERT_MSG("chain16 (a: int32[64], b: int32[128]");
    ASSERT_MSG("unfinished (on hardware this hangs until the timeout):\n"
               "worker 'adder_number_00' on tile");
    const char *note = strstr(test_errmsg, "\n... and ");
    ASSERT(note != NULL);
    int left = atoi(note + 9);
    ASSERT_GT(left, 0);
    ASSERT_CONTAINS(note, "more lines (the whole report: the report field "
                          "of iron_jit_get_counters, or IRON_LOG=emu)");

    const iron_run_counters *c = NULL;
    ASSERT_OK(iron_jit_get_counters(j, &c));
    ASSERT(c->size > offsetof(iron_run_counters, report));
    ASSERT(c->report != NULL);
    /* The report: why, then one line per worker and per DMA channel (the
     * three between columns and the drain). */
    int lines = 1;
    for (const char *p = c->report; *p; p++)
        lines += *p == '\n';
    ASSERT_EQ(lines, 1 + 16 + 4);
    for (int w = 0; w < 16; w++) {
        char want[96];
        snprintf(want, sizeof want, "\nworker 'adder_number_%02d' on tile", w);
        ASSERT_CONTAINS(c->report, want);
    }
    ASSERT_CONTAINS(c->report, "\nDMA fifo 'stage_16_results'");
    /* Each line the message kept is a whole line of the report, in order,
     * and the note counts the others. */
    const char *from = strstr(test_errmsg, "no task can make progress");
    ASSERT(from != NULL);
    size_t kept = (size_t)(note - from);
    ASSERT_EQ(strncmp(c->report, from, kept), 0);
    ASSERT_EQ(c->report[kept], '\n');
    int kept_lines = 1;
    for (size_t i = 0; i < kept; i++)
        kept_lines += c->report[i] == '\n';
    ASSERT_EQ(kept_lines + left, lines);

    /* A call that completes has no report. */
    iron_tensor *b64 = test_zeros(IRON_INT32, 64);
    ASSERT_OK(IRON_CALL(j, a, b64));
    ASSERT_OK(iron_jit_get_counters(j, &c));
    ASSERT(c->report == NULL);
    ASSERT_EQ(test_at(b64, 5), 16);
    iron_tensor_free(b64);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* A deadlocked specialization, warm, followed by calls on another jit and
 * back on the stuck one after a good call. */
TEST(err_deadlock_recovery_sequence)
{
    static int which = E_DEADLOCK;
    iron_jit *stuck = NULL, *good = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "stuck",
        .args = "in a: int32[N], out b: int32[M]",
        .params = "tile: int = 16",
        .user = &which,
    };
    ASSERT_OK(iron_jit_create(err_design, &o, &stuck));
    ASSERT_OK(iron_jit_create(vector_op_design, &vector_op_options, &good));
    iron_tensor *a = NULL, *b = test_zeros(IRON_INT32, 128);
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 1, 129, 2, &a));
    iron_tensor *c = test_zeros(IRON_INT32, 64);
    for (int round = 0; round < 3; round++) {
        ASSERT_STATUS(IRON_CALL(stuck, a, b), IRON_EDEADLOCK);
        ASSERT_EQ(iron_jit_last_state(stuck), IRON_RUN_ERROR);
        ASSERT_OK(IRON_CALL(good, a, a, c));
        ASSERT_EQ(iron_jit_last_state(good), IRON_RUN_COMPLETED);
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(c);
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(y[i], 2 * x[i]);
    }
    /* The stuck jit's state stays its own. */
    ASSERT_EQ(iron_jit_last_state(stuck), IRON_RUN_ERROR);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(stuck);
    iron_jit_free(good);
}

/* Two workers that feed each other forever (a source and a sink beside
 * the real path): as on hardware, the call completes when its runtime ops
 * are done; the free-running pair does not hold it up. */
static const char src_src[] =
    "#include <stdint.h>\n"
    "void produce(int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = i;\n"
    "}\n";
static const char sink_src[] =
    "#include <stdint.h>\n"
    "void consume(const int32_t *in, int32_t n)\n"
    "{\n"
    "    (void)in;\n"
    "    (void)n;\n"
    "}\n";

static int livelock_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *loop = iron_fifo_new(d, "loop", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_kernel *kp = iron_kernel_new(d, "produce", src_src, "int32*, int32");
    iron_kernel *kc = iron_kernel_new(d, "consume", sink_src, "int32*, int32");
    iron_worker_new(d, "add1", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(OBJ)));
    iron_worker_new(
        d, "source", kp, 1,
        IRON_ARGS(iron_arg_fifo(iron_fifo_prod(loop)), iron_arg_int(OBJ)));
    iron_worker_new(
        d, "sink", kc, 1,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(loop)), iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(err_free_running_workers_do_not_block_a_call, 20)
{
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "livelock",
        .args = "in a: int32[N], out b: int32[N]",
    };
    ASSERT_OK(iron_jit_create(livelock_design, &o, &j));
    iron_tensor *a = test_zeros(IRON_INT32, 64);
    iron_tensor *b = test_zeros(IRON_INT32, 64);
    iron_launch_config cfg = { .size = sizeof cfg, .timeout_ms = 2000 };
    for (int call = 0; call < 3; call++) {
        ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b)));
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(((int32_t *)iron_tensor_data(b))[i], 1);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* ------------------------------------------------------------------------
 * Allocation failures: every failure is a clean IRON_ENOMEM
 * ------------------------------------------------------------------------ */

TEST(err_alloc_fail_jit_create)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "alloc",
        .args = "in a: T[N, M], in b: T[N, M], out c: int32[N, 4]",
        .params = "tile: int = 16, op: str = '+', scale: float = 1.5, "
                  "relu: bool = false, OT: dtype = int32, n: int",
        .cflags = "-O1",
    };
    long n;
    int ok = 0;
    for (n = 1; n < 5000 && !ok; n++) {
        iron_jit *j = (iron_jit *)(uintptr_t)1;
        iron__alloc_fail_at(n);
        iron_status s = iron_jit_create(passthrough_design, &o, &j);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            ok = 1;
            ASSERT(j != NULL);
        } else {
            if (s != IRON_ENOMEM)
                TEST_FAIL_("allocation %ld failing gave %s: %s", n,
                           iron_status_name(s), iron_last_error());
            ASSERT(j == NULL);
            ASSERT_CONTAINS(iron_last_error(), "alloc");
        }
        iron_jit_free(j);
    }
    ASSERT(ok);
    ASSERT_GT(n, 5);   /* the loop really went through failures */
    test_assert_no_leaks();
}

static void alloc_fail_first_call(iron_design_fn fn,
                                  const iron_jit_options *o, int nt,
                                  iron_tensor *const *t,
                                  const iron_launch_config *cfg, int np,
                                  const iron_param *p)
{
    iron_jit *j = NULL;
    ASSERT_OK(iron_jit_create(fn, o, &j));
    long n;
    int ok = 0;
    for (n = 1; n < 5000 && !ok; n++) {
        iron__alloc_fail_at(n);
        iron_status s = iron_jit_launch(j, cfg, np, p, IRON_NO_SCALARS, nt, t);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            ok = 1;
            break;
        }
        if (s != IRON_ENOMEM)
            TEST_FAIL_("allocation %ld failing gave %s: %s", n,
                       iron_status_name(s), iron_last_error());
        /* A failed build caches nothing; a build that succeeded and then
         * failed to run (queueing DMA ops) is a good specialization. */
        iron_jit_stats st = test_stats(j);
        if (st.specializations > st.builds || st.specializations > 1)
            TEST_FAIL_("allocation %ld failing left %llu specializations "
                       "after %llu builds (%s)",
                       n, (unsigned long long)st.specializations,
                       (unsigned long long)st.builds, iron_last_error());
    }
    ASSERT(ok);
    ASSERT_GT(n, 10);
    ASSERT_EQ(test_stats(j).specializations, 1);
    /* Warm calls under the same injection: success or clean ENOMEM. */
    for (n = 1; n < 50; n++) {
        iron__alloc_fail_at(n);
        iron_status s = iron_jit_launch(j, cfg, np, p, IRON_NO_SCALARS, nt, t);
        iron__alloc_fail_at(0);
        if (s != IRON_OK && s != IRON_ENOMEM)
            TEST_FAIL_("warm call, allocation %ld failing gave %s: %s", n,
                       iron_status_name(s), iron_last_error());
    }
    ASSERT_OK(iron_jit_launch(j, cfg, np, p, IRON_NO_SCALARS, nt, t));
    iron_jit_free(j);
}

TEST_TIMEOUT(err_alloc_fail_first_call_vector_op, 60)
{
    const int64_t n = 256;
    iron_tensor *a = NULL, *b = NULL, *c = test_zeros(IRON_INT32, n);
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, n, 1, &a));
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 7, 7 + 2 * n, 2, &b));
    alloc_fail_first_call(vector_op_design, &vector_op_options,
                          IRON_TENSORS(a, b, c), NULL,
                          IRON_PARAMS(iron_param_str("op", "-")));
    const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b),
                  *z = iron_tensor_data(c);
    for (int64_t i = 0; i < n; i++)
        ASSERT_EQ(z[i], x[i] - y[i]);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    test_assert_no_leaks();
}

/* A richer build: three workers, six fifos, launch config, several
 * consumers of nothing shared. */
TEST_TIMEOUT(err_alloc_fail_first_call_multi_worker, 60)
{
    iron_jit_options o = {
        .size = sizeof o,
        .name = "thirds",
        .args = "in a: int32[N], out b: int32[N]",
    };
    iron_tensor *a = NULL, *b = test_zeros(IRON_INT32, 96);
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 96, 1, &a));
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 3 };
    alloc_fail_first_call(thirds_design, &o, IRON_TENSORS(a, b), &cfg,
                          IRON_NO_PARAMS);
    const int32_t *y = iron_tensor_data(b);
    for (int i = 0; i < 96; i++)
        ASSERT_EQ(y[i], i + 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    test_assert_no_leaks();
}

/* Failures of builds are freed too: leak check after error paths. */
TEST(err_error_paths_do_not_leak)
{
    const int cases[] = { E_FAIL,      E_DUP_FIFO,       E_SHARED_HANDLE,
                          E_TAP_OOB,   E_UNUSED_CONS,    E_KTYPES_UNKNOWN,
                          E_COMPILE,   E_KERNEL_RESERVED, E_NOT_STARTED,
                          E_PARAM_UNDECLARED };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ASSERT_NE(run_case(cases[i]), IRON_OK);
    ASSERT_STATUS(run_chain(5, 1), IRON_ERESOURCE);
    test_assert_no_leaks();
}

/* ------------------------------------------------------------------------
 * Limits and odd designs
 * ------------------------------------------------------------------------ */

TEST(err_create_too_many_declared)
{
    char args[1024] = "", params[1024] = "";
    for (int i = 0; i < 33; i++) {
        char item[32];
        snprintf(item, sizeof item, "%sin a%d", i ? ", " : "", i);
        strcat(args, item);
        snprintf(item, sizeof item, "%sp%d: int = %d", i ? ", " : "", i, i);
        strcat(params, item);
    }
    iron_jit *j = NULL;
    iron_jit_options o = { .size = sizeof o, .name = "wide", .args = args };
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "33 arguments and 0 parameters declared; at most 32");
    o.args = "in a";
    o.params = params;
    ASSERT_FAILS(iron_jit_create(passthrough_design, &o, &j), IRON_EINVAL,
                 "1 arguments and 33 parameters declared");
    ASSERT(j == NULL);
    /* A string default may hold the list's separators. */
    o.params = "sep: str = ',', eq: str = \"=\", n: int = 0x10";
    ASSERT_OK(iron_jit_create(passthrough_design, &o, &j));
    iron_jit_free(j);
}

typedef struct limit_case {
    int which;
} limit_case;

static const char many_args_src[] =
    "#include <stdint.h>\n"
    "void many(int32_t *o, int32_t a, int32_t b, int32_t c, int32_t d,\n"
    "          int32_t e, int32_t f, int32_t g, int32_t h, int32_t i,\n"
    "          int32_t j, int32_t k, int32_t l, int32_t m, int32_t n,\n"
    "          int32_t p, int32_t q)\n"
    "{ (void)o; }\n";

static int limits_design(iron_design *d, void *user)
{
    const limit_case *lc = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new(d, "copy_i32", copy_src,
                                     "int32*, int32*, int32");
    switch (lc->which) {
    case 0: /* nine consumer handles */
        for (int c = 0; c < 9; c++)
            iron_fifo_cons(a);
        break;
    case 1: /* seventeen kernel arguments */
        iron_kernel_new(d, "many", many_args_src,
                        "int32*, int32, int32, int32, int32, int32, int32, "
                        "int32, int32, int32, int32, int32, int32, int32, "
                        "int32, int32, int32");
        break;
    case 2: /* iron_design_fail with IRON_OK still fails */
        iron_design_fail(d, IRON_OK, "no status given");
        break;
    case 3: /* a define value with a newline */
        iron_kernel_define(k, "OP", "+\n-");
        break;
    case 4: /* args NULL with nargs > 0 */
        iron_worker_new(d, "w", k, 1, 3, NULL);
        break;
    case 5: /* a worker that consumes its own output: stalls at once */
    {
        iron_fifo *self = iron_fifo_new(d, "self", IRON_INT32,
                                        IRON_SHAPE(OBJ), 2);
        iron_kernel *k2 = iron_kernel_new(
            d, "loop2",
            "#include <stdint.h>\n"
            "void loop2(const int32_t *a, const int32_t *s, int32_t *s2,\n"
            "           int32_t *b, int32_t n)\n"
            "{ (void)s; (void)s2; for (int32_t i = 0; i < n; i++)\n"
            "  b[i] = a[i]; }\n",
            "int32*, int32*, int32*, int32*, int32");
        iron_worker_new(d, "ouroboros", k2, n / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                                  iron_arg_fifo(iron_fifo_cons(self)),
                                  iron_arg_fifo(iron_fifo_prod(self)),
                                  iron_arg_fifo(iron_fifo_prod(b)),
                                  iron_arg_int(OBJ)));
        iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
        iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n),
                      IRON_WAIT);
        return 0;
    }
    default:
        break;
    }
    iron_worker_new(d, "copy", k, n / OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                              iron_arg_fifo(iron_fifo_prod(b)),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(b), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_status run_limit(int which)
{
    limit_case lc = { which };
    iron_jit *j = NULL;
    iron_jit_options o = {
        .size = sizeof o,
        .name = "limits",
        .args = "in a: int32[N], out b: int32[N]",
        .user = &lc,
    };
    ASSERT_OK(iron_jit_create(limits_design, &o, &j));
    iron_tensor *a = test_zeros(IRON_INT32, 64),
                *b = test_zeros(IRON_INT32, 64);
    iron_status s = test_keep(IRON_CALL(j, a, b));
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    return s;
}

TEST(err_design_limits)
{
    ASSERT_STATUS(run_limit(0), IRON_ERESOURCE);
    ASSERT_MSG("fifo 'a': more than 8 consumer handles");
    ASSERT_STATUS(run_limit(1), IRON_EINVAL);
    ASSERT_MSG("kernel 'many'");
    ASSERT_MSG("17 declared, at most 16");
    ASSERT_STATUS(run_limit(2), IRON_EDESIGN);
    ASSERT_MSG("no status given");
    ASSERT_STATUS(run_limit(3), IRON_EINVAL);
    ASSERT_MSG("define OP has a newline");
    ASSERT_STATUS(run_limit(4), IRON_EINVAL);
    ASSERT_MSG("worker 'w': args is NULL");
}

TEST(err_worker_feeding_itself_stalls)
{
    ASSERT_STATUS(run_limit(5), IRON_EDEADLOCK);
    ASSERT_MSG("worker 'ouroboros'");
    ASSERT_MSG("waits to acquire 1 filled buffer of fifo 'self'");
}

/* Two independent paths (separate emulator lanes); only the second one
 * stalls, and the report names it. */
static int two_paths_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), m = iron_design_arg_numel(d, 2);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    for (int p = 0; p < 2; p++) {
        char nm[16];
        snprintf(nm, sizeof nm, "in%d", p);
        iron_fifo *a = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
        snprintf(nm, sizeof nm, "out%d", p);
        iron_fifo *b = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
        snprintf(nm, sizeof nm, "path%d", p);
        iron_worker_new(d, nm, k, n / OBJ,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                                  iron_arg_fifo(iron_fifo_prod(b)),
                                  iron_arg_int(OBJ)));
        iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
        iron_rt_drain(d, iron_fifo_cons(b), 1 + p,
                      iron_tap_linear(p ? m : n), IRON_WAIT);
    }
    return 0;
}

TEST(err_deadlock_in_one_of_two_paths)
{
    const char *counts[] = { "1", "4" };
    for (int c = 0; c < 2; c++) {
        ASSERT_EQ(setenv("IRON_THREADS", counts[c], 1), 0);
        iron_jit *j = NULL;
        iron_jit_options o = {
            .size = sizeof o,
            .name = "paths",
            .args = "in a: int32[N], out b: int32[N], out c: int32[M]",
        };
        ASSERT_OK(iron_jit_create(two_paths_design, &o, &j));
        iron_tensor *a = test_zeros(IRON_INT32, 64);
        iron_tensor *b = test_zeros(IRON_INT32, 64);
        iron_tensor *cc = test_zeros(IRON_INT32, 96);
        ASSERT_STATUS(IRON_CALL(j, a, b, cc), IRON_EDEADLOCK);
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
        ASSERT_MSG("worker 'path1'");
        ASSERT_MSG("drain of argument 2 'c': 64 of 96 elements moved");
        ASSERT(strstr(test_errmsg, "drain of argument 1") == NULL);
        /* Matching sizes: both paths complete, on the same jit. */
        iron_tensor *c2 = test_zeros(IRON_INT32, 64);
        int32_t *x = iron_tensor_data(a);
        for (int i = 0; i < 64; i++)
            x[i] = i;
        ASSERT_OK(IRON_CALL(j, a, b, c2));
        const int32_t *y = iron_tensor_data(b), *z = iron_tensor_data(c2);
        for (int i = 0; i < 64; i++) {
            ASSERT_EQ(y[i], i + 1);
            ASSERT_EQ(z[i], i + 1);
        }
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_tensor_free(cc);
        iron_tensor_free(c2);
        iron_jit_free(j);
    }
}
