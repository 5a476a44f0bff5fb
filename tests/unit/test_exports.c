/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_exports.c - the value builders (iron_arg_*, iron_param_*,
 * iron_tap_linear, iron_scalar_value) and the body IR's name functions
 * are exported functions: called through function pointers they give
 * what C callers always got, and libiron.so exports each by name, so
 * that FFI callers (ctypes, other languages) find them.  Also
 * iron_fifo_name, which bindings read a link's default names with.
 */
#include <dlfcn.h>

#include "design/design.h"
#include "test.h"

/* Taking the address of each builder compiles only if it is a function
 * the library defines; the calls go through the pointers. */
TEST(exports_arg_builders_through_pointers)
{
    iron_arg (*fifo)(iron_handle *) = iron_arg_fifo;
    iron_arg (*fifo_acquire)(iron_handle *, int) = iron_arg_fifo_acquire;
    iron_arg (*arg_int)(int64_t) = iron_arg_int;
    iron_arg (*arg_float)(double) = iron_arg_float;
    iron_arg (*rtp)(iron_rtp *) = iron_arg_rtp;
    iron_arg (*barrier)(iron_barrier *) = iron_arg_barrier;
    iron_arg (*kernel)(iron_kernel *) = iron_arg_kernel;

    /* The pointers are only carried, never dereferenced: any address
     * serves. */
    static char hmem, rmem, bmem, kmem;
    iron_handle *h = (iron_handle *)(void *)&hmem;
    iron_rtp *r = (iron_rtp *)(void *)&rmem;
    iron_barrier *b = (iron_barrier *)(void *)&bmem;
    iron_kernel *k = (iron_kernel *)(void *)&kmem;

    iron_arg a = fifo(h);
    ASSERT_EQ(a.kind, IRON_ARG_HANDLE);
    ASSERT(a.handle == h);
    ASSERT_EQ(a.i, 0);
    ASSERT(!a.rtp && !a.barrier && !a.kernel);

    a = fifo_acquire(h, 3);
    ASSERT_EQ(a.kind, IRON_ARG_HANDLE);
    ASSERT(a.handle == h);
    ASSERT_EQ(a.i, 3);

    a = arg_int(-1234567890123LL);
    ASSERT_EQ(a.kind, IRON_ARG_INT);
    ASSERT_EQ(a.i, -1234567890123LL);
    ASSERT(!a.handle);

    a = arg_float(2.5);
    ASSERT_EQ(a.kind, IRON_ARG_FLOAT);
    ASSERT_DBL_NEAR(a.f, 2.5, 0);
    ASSERT_EQ(a.i, 0);

    a = rtp(r);
    ASSERT_EQ(a.kind, IRON_ARG_RTP);
    ASSERT(a.rtp == r && !a.handle && !a.barrier);

    a = barrier(b);
    ASSERT_EQ(a.kind, IRON_ARG_BARRIER);
    ASSERT(a.barrier == b && !a.rtp && !a.kernel);

    a = kernel(k);
    ASSERT_EQ(a.kind, IRON_ARG_KERNEL);
    ASSERT(a.kernel == k && !a.handle);
}

TEST(exports_param_builders_through_pointers)
{
    iron_param (*p_int)(const char *, int64_t) = iron_param_int;
    iron_param (*p_float)(const char *, double) = iron_param_float;
    iron_param (*p_bool)(const char *, int) = iron_param_bool;
    iron_param (*p_str)(const char *, const char *) = iron_param_str;
    iron_param (*p_dtype)(const char *, iron_dtype) = iron_param_dtype;
    iron_param (*p_kernel)(const char *, const iron_kernel_ref *) =
        iron_param_kernel;

    iron_param p = p_int("tile", INT64_MIN);
    ASSERT_STR_EQ(p.name, "tile");
    ASSERT_EQ(p.type, IRON_PARAM_INT);
    ASSERT(p.i == INT64_MIN);
    ASSERT(!p.s && !p.kernel);

    p = p_float("scale", -0.125);
    ASSERT_EQ(p.type, IRON_PARAM_FLOAT);
    ASSERT_DBL_NEAR(p.f, -0.125, 0);

    p = p_bool("relu", 7);          /* any non-zero is true: 1 */
    ASSERT_EQ(p.type, IRON_PARAM_BOOL);
    ASSERT_EQ(p.i, 1);
    ASSERT_EQ(p_bool("relu", 0).i, 0);

    const char *op = "+";
    p = p_str("op", op);
    ASSERT_EQ(p.type, IRON_PARAM_STR);
    ASSERT(p.s == op);              /* borrowed, not copied */

    p = p_dtype("OT", IRON_BFLOAT16);
    ASSERT_EQ(p.type, IRON_PARAM_DTYPE);
    ASSERT_EQ(p.dtype, IRON_BFLOAT16);

    static const iron_kernel_ref ref = { "f", "void f(void) {}", "" };
    p = p_kernel("f", &ref);
    ASSERT_EQ(p.type, IRON_PARAM_KERNEL);
    ASSERT(p.kernel == &ref);
}

TEST(exports_tap_linear_and_scalar_value_through_pointers)
{
    iron_tap (*linear)(int64_t) = iron_tap_linear;
    iron_scalar (*value)(const char *, int64_t) = iron_scalar_value;

    iron_tap t = linear(4096);
    ASSERT_EQ(t.offset, 0);
    ASSERT_EQ(t.ndim, 1);
    ASSERT_EQ(t.sizes[0], 4096);
    ASSERT_EQ(t.strides[0], 1);
    for (int i = 1; i < IRON_TAP_MAX_DIMS; i++) {
        ASSERT_EQ(t.sizes[i], 0);
        ASSERT_EQ(t.strides[i], 0);
    }
    ASSERT_EQ(iron_tap_count(&t), 4096);
    ASSERT_OK(iron_tap_check(&t, 4096));

    iron_scalar s = value("offset", -64);
    ASSERT_STR_EQ(s.name, "offset");
    ASSERT_EQ(s.value, -64);
}

/* The MLIR names, every value of each enum, and NULL outside. */
TEST(exports_body_enum_names)
{
    const char *(*type_name)(iron_body_type) = iron_body_type_name;
    const char *(*arith_name)(iron_arith) = iron_arith_name;
    const char *(*cmp_name)(iron_cmp) = iron_cmp_name;

    static const char *const types[IRON_BT_COUNT_] = {
        "i1", "i8", "i16", "i32", "i64", "index", "bf16", "f32", "f64",
        "memref", "handle",
    };
    for (int t = 0; t < IRON_BT_COUNT_; t++)
        ASSERT_STR_EQ(type_name((iron_body_type)t), types[t]);
    ASSERT(type_name(IRON_BT_COUNT_) == NULL);
    ASSERT(type_name((iron_body_type)-1) == NULL);

    for (int op = 0; op < IRON_ARITH_COUNT_; op++) {
        const char *n = arith_name((iron_arith)op);
        ASSERT(n != NULL);
        ASSERT(strncmp(n, "arith.", 6) == 0 && n[6] != '\0');
        for (int other = 0; other < op; other++)   /* all distinct */
            ASSERT(strcmp(n, arith_name((iron_arith)other)) != 0);
    }
    ASSERT_STR_EQ(arith_name(IRON_ARITH_ADDI), "arith.addi");
    ASSERT_STR_EQ(arith_name(IRON_ARITH_FLOORDIVSI), "arith.floordivsi");
    ASSERT_STR_EQ(arith_name(IRON_ARITH_NEGF), "arith.negf");
    ASSERT_STR_EQ(arith_name(IRON_ARITH_INDEX_CAST), "arith.index_cast");
    ASSERT_STR_EQ(arith_name(IRON_ARITH_BITCAST), "arith.bitcast");
    ASSERT(arith_name(IRON_ARITH_COUNT_) == NULL);
    ASSERT(arith_name((iron_arith)-1) == NULL);

    for (int p = 0; p < IRON_CMP_COUNT_; p++)
        ASSERT(cmp_name((iron_cmp)p) != NULL);
    ASSERT_STR_EQ(cmp_name(IRON_CMP_EQ), "eq");
    ASSERT_STR_EQ(cmp_name(IRON_CMP_SLT), "slt");
    ASSERT_STR_EQ(cmp_name(IRON_CMP_UGE), "uge");
    ASSERT_STR_EQ(cmp_name(IRON_CMP_OEQ), "oeq");
    ASSERT_STR_EQ(cmp_name(IRON_CMP_UNO), "uno");
    /* The float unordered predicates print as arith.cmpf writes them. */
    ASSERT_STR_EQ(cmp_name(IRON_CMP_UGTF), "ugt");
    ASSERT_STR_EQ(cmp_name(IRON_CMP_ULEF), "ule");
    ASSERT(cmp_name(IRON_CMP_COUNT_) == NULL);
    ASSERT(cmp_name((iron_cmp)-1) == NULL);
}

/* The name functions leave the last call's message as it was (a binding
 * names an op in the message of the call that failed). */
TEST(exports_names_keep_last_error)
{
    iron_dtype dt;
    ASSERT_EQ(iron_dtype_parse("nope", &dt), IRON_EDTYPE);
    char before[512];
    snprintf(before, sizeof before, "%s", iron_last_error());
    ASSERT(before[0] != '\0');
    (void)iron_body_type_name(IRON_BT_I32);
    (void)iron_arith_name(IRON_ARITH_ADDI);
    (void)iron_cmp_name((iron_cmp)99);
    ASSERT_STR_EQ(iron_last_error(), before);
}

/* libiron.so exports every one of them by name (what ctypes looks up). */
TEST(exports_shared_library_has_the_symbols)
{
    const char *build = getenv("IRON_BUILD");
    if (!build || !build[0])
        TEST_FAIL_("IRON_BUILD is not set (run through `make test`)");
    char path[1024];
    snprintf(path, sizeof path, "%s/libiron.so", build);
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl)
        TEST_FAIL_("dlopen(%s): %s", path, dlerror());
    static const char *const names[] = {
        "iron_arg_fifo",     "iron_arg_fifo_acquire", "iron_arg_int",
        "iron_arg_float",    "iron_arg_rtp",          "iron_arg_barrier",
        "iron_arg_kernel",   "iron_param_int",        "iron_param_float",
        "iron_param_bool",   "iron_param_str",        "iron_param_dtype",
        "iron_param_kernel", "iron_tap_linear",       "iron_scalar_value",
        "iron_body_type_name", "iron_arith_name",     "iron_cmp_name",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!dlsym(dl, names[i]))
            TEST_FAIL_("libiron.so does not export %s", names[i]);
    /* Called through the shared library's own copy. */
    iron_tap (*linear)(int64_t);
    *(void **)&linear = dlsym(dl, "iron_tap_linear");
    iron_tap t = linear(12);
    ASSERT_EQ(t.ndim, 1);
    ASSERT_EQ(t.sizes[0], 12);
    const char *(*cmp)(iron_cmp);
    *(void **)&cmp = dlsym(dl, "iron_cmp_name");
    ASSERT_STR_EQ(cmp(IRON_CMP_SGE), "sge");
    dlclose(dl);
}

/* iron_fifo_name: the given name, and the defaults links give. */
TEST(exports_fifo_name)
{
    iron_design *d;
    ASSERT_OK(iron__design_new(&d, "t", 0, NULL, 0, NULL, 1,
                               test_npu2_info(), NULL, 0, NULL));
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    ASSERT_STR_EQ(iron_fifo_name(in), "in");
    iron_fifo *fwd = iron_fifo_forward(d, iron_fifo_cons(in), NULL, 0);
    ASSERT_STR_EQ(iron_fifo_name(fwd), "in_fwd");
    iron_fifo *parts[2];
    static const int64_t offsets[2] = { 0, 8 };
    const iron_shape shapes[2] = { IRON_SHAPE(8), IRON_SHAPE(8) };
    ASSERT_OK(iron_fifo_split(d, iron_fifo_cons(fwd), 2, NULL, offsets,
                              shapes, NULL, parts));
    ASSERT_STR_EQ(iron_fifo_name(parts[1]), "in_fwd_split1");
    ASSERT(iron_fifo_name(NULL) == NULL);
    ASSERT_OK(iron_design_status(d));
    iron__design_free(d);
}
