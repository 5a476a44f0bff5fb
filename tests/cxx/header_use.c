/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * header_use.c - every macro and helper (iron_arg_*, iron_param_*, the
 * inline ones of iron_kernel.h ...) of the public headers (iron.h,
 * iron_kernel.h, iron_driver.h) used as a program uses them, and the
 * versioned structs filled by designated initializers.
 * `make test` builds it as C11 and, with each C++ compiler found, as
 * C++17 and C++20; test_tutorial.c runs every build and wants the C++
 * builds to print what the C build prints, line for line.  So it is
 * written in the common subset of the two languages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iron/iron.h>
#include <iron/iron_driver.h>
#include <iron/iron_kernel.h>

static int checks, failed;

#define CHECK(cond) check_((cond) ? 1 : 0, #cond, __LINE__)

static void check_(int good, const char *what, int line)
{
    checks++;
    if (!good) {
        failed++;
        printf("FAILED at line %d: %s\n", line, what);
    }
}

/* Exits when a call that must work does not. */
static void ok(iron_status s, const char *what)
{
    if (s == IRON_OK)
        return;
    printf("%s: %s: %s\n", what, iron_status_name(s), iron_last_error());
    exit(1);
}

/* Counts its calls: macros must evaluate each element once. */
static int64_t counted(int *calls, int64_t v)
{
    (*calls)++;
    return v;
}

/* ---- version, status table, dtypes ------------------------------------- */

#define STATUS_ROW(name, code, text) { IRON_##name, "IRON_" #name, text },
static const struct {
    iron_status s;
    const char *name, *text;
} status_rows[] = { IRON_STATUS_MAP(STATUS_ROW) };
#undef STATUS_ROW

static void show_tables(void)
{
    printf("version %d.%d.%d (%s), library %s\n", IRON_VERSION_MAJOR,
           IRON_VERSION_MINOR, IRON_VERSION_PATCH, IRON_VERSION_STRING,
           iron_version());
    CHECK(strcmp(IRON_VERSION_STRING, iron_version()) == 0);
    int n = (int)(sizeof status_rows / sizeof status_rows[0]);
    CHECK(n == IRON_STATUS_COUNT_);
    for (int i = 0; i < n; i++) {
        CHECK(strcmp(iron_status_name(status_rows[i].s), status_rows[i].name)
              == 0);
        CHECK(strcmp(iron_status_message(status_rows[i].s),
                     status_rows[i].text) == 0);
    }
    printf("statuses: %d, last %s\n", n, status_rows[n - 1].name);
    printf("dtypes:");
    for (int i = 0; i < IRON_DTYPE_COUNT_; i++) {
        iron_dtype dt = (iron_dtype)i;
        printf(" %s/%zu", iron_dtype_name(dt), iron_dtype_size(dt));
    }
    printf("\n");
}

/* ---- IRON_SHAPE ---------------------------------------------------------- */

static void show_shape(const char *what, iron_shape s)
{
    printf("%s: ndim %d:", what, s.ndim);
    for (int i = 0; i < s.ndim; i++)
        printf(" %lld", (long long)s.dims[i]);
    printf("\n");
}

static void shapes(void)
{
    show_shape("IRON_SHAPE(7)", IRON_SHAPE(7));
    iron_shape six = IRON_SHAPE(1, 2, 3, 4, 5, 6);
    CHECK(six.ndim == IRON_MAX_DIMS);
    show_shape("IRON_SHAPE(1, 2, 3, 4, 5, 6)", six);
    size_t rows = 3;
    uint64_t cols = 5;
    short depth = 2;
    show_shape("IRON_SHAPE(size_t, uint64_t, short)",
               IRON_SHAPE(rows, cols, depth));
    int calls = 0;
    iron_shape s = IRON_SHAPE(counted(&calls, 4), counted(&calls, 4));
    CHECK(calls == 2 && s.ndim == 2 && s.dims[0] == 4 && s.dims[1] == 4);
    iron_shape grid[2];
    grid[1] = IRON_SHAPE(8, 8);
    CHECK(grid[1].ndim == 2);
    iron_tensor *t = NULL;
    ok(iron_tensor_zeros(IRON_FLOAT32, IRON_SHAPE(2, 3), &t), "zeros");
    CHECK(iron_tensor_numel(t) == 6);
    CHECK((uintptr_t)iron_tensor_data(t) % IRON_TENSOR_ALIGN == 0);
    iron_tensor_free(t);
}

/* ---- IRON_WITH_DEVICE ---------------------------------------------------- */

static const char *current_device(void)
{
    iron_device *dev = NULL;
    ok(iron_device_get_current(&dev), "iron_device_get_current");
    return iron_device_name(dev);
}

static void devices(void)
{
    const char *outside = current_device();
    IRON_WITH_DEVICE("npu1") {
        printf("IRON_WITH_DEVICE: %s", current_device());
        IRON_WITH_DEVICE("npu2_2col") {
            printf(", nested %s", current_device());
        }
        printf(", back to %s\n", current_device());
    }
    CHECK(strcmp(current_device(), outside) == 0);
    iron_device_info info = { .size = sizeof info };
    ok(iron_device_get_info(iron_device_default(), &info), "get_info");
    printf("iron_device_info: %s, %s, %d columns, %d compute tiles\n",
           info.name, info.arch, info.columns, info.compute_tiles);
}

/* ---- the value helpers and the list macros ------------------------------- */

static const char *arg_kind_name(iron_arg_kind k)
{
    static const char *const names[] = { "handle", "int",     "float",
                                         "rtp",    "barrier", "kernel" };
    return names[k];
}

static void show_args(int n, const iron_arg *a)
{
    printf("IRON_ARGS: %d:", n);
    for (int i = 0; i < n; i++)
        printf(" %s/%lld/%g", arg_kind_name(a[i].kind), (long long)a[i].i,
               a[i].f);
    printf("\n");
}

static void show_params(const char *what, int n, const iron_param *p)
{
    printf("%s: %d:", what, n);
    for (int i = 0; i < n; i++) {
        printf(" %s=", p[i].name);
        switch (p[i].type) {
        case IRON_PARAM_INT:
        case IRON_PARAM_BOOL:
            printf("%lld", (long long)p[i].i);
            break;
        case IRON_PARAM_FLOAT:
            printf("%g", p[i].f);
            break;
        case IRON_PARAM_STR:
            printf("'%s'", p[i].s);
            break;
        case IRON_PARAM_DTYPE:
            printf("%s", iron_dtype_name(p[i].dtype));
            break;
        case IRON_PARAM_KERNEL:
            printf("kernel %s", p[i].kernel->entry);
            break;
        }
    }
    printf("\n");
}

static void show_scalars(const char *what, int n, const iron_scalar *s)
{
    printf("%s: %d:", what, n);
    for (int i = 0; i < n; i++)
        printf(" %s=%lld", s[i].name, (long long)s[i].value);
    printf("\n");
}

static int count_tensors(int n, iron_tensor *const *t)
{
    int non_null = 0;
    for (int i = 0; i < n; i++)
        non_null += t[i] != NULL;
    return n * 10 + non_null;
}

/* The kernel a `kernel` parameter passes: y = x * scale + OFFSET. */
static const char scale_src[] =
    "#include <stdint.h>\n"
    "void scale(const int32_t *x, int32_t *y, int32_t n, float s)\n"
    "{ for (int32_t i = 0; i < n; i++) y[i] = (int32_t)(x[i] * s) OP OFFSET; }\n";
static const iron_kernel_ref scale_ref = { "scale", scale_src,
                                           "int32*, int32*, int32, float32" };

static void values(void)
{
    iron_arg h = iron_arg_fifo(NULL);
    CHECK(h.kind == IRON_ARG_HANDLE && h.handle == NULL && h.i == 0);
    iron_arg ha = iron_arg_fifo_acquire(NULL, 3);
    CHECK(ha.kind == IRON_ARG_HANDLE && ha.i == 3);
    CHECK(iron_arg_int(-5).i == -5 && iron_arg_int(-5).kind == IRON_ARG_INT);
    CHECK(iron_arg_float(2.5).f == 2.5);
    CHECK(iron_arg_rtp(NULL).kind == IRON_ARG_RTP);
    CHECK(iron_arg_barrier(NULL).kind == IRON_ARG_BARRIER);
    CHECK(iron_arg_kernel(NULL).kind == IRON_ARG_KERNEL);
    int calls = 0;
    show_args(IRON_ARGS(iron_arg_int(counted(&calls, 1)), iron_arg_float(0.5),
                        ha, iron_arg_rtp(NULL), iron_arg_barrier(NULL),
                        iron_arg_kernel(NULL)));
    CHECK(calls == 1);
    show_args(IRON_ARGS(iron_arg_int(9)));

    show_params("IRON_PARAMS",
                IRON_PARAMS(iron_param_int("tile", 16),
                            iron_param_float("scale", 0.5),
                            iron_param_bool("neg", 7),
                            iron_param_str("op", "-"),
                            iron_param_dtype("T", IRON_INT16),
                            iron_param_kernel("f", &scale_ref)));
    show_params("IRON_NO_PARAMS", IRON_NO_PARAMS);
    show_scalars("IRON_SCALARS",
                 IRON_SCALARS(iron_scalar_value("offset", 64), { "k", -3 }));
    show_scalars("IRON_NO_SCALARS", IRON_NO_SCALARS);

    iron_tensor *a = NULL;
    ok(iron_tensor_zeros(IRON_INT8, IRON_SHAPE(4), &a), "zeros");
    printf("IRON_TENSORS: %d %d\n", count_tensors(IRON_TENSORS(a)),
           count_tensors(IRON_TENSORS(a, NULL, a)));
    iron_tensor_free(a);

    iron_tap tap = iron_tap_linear(48);
    printf("iron_tap_linear(48): offset %lld, ndim %d, sizes[0] %lld, "
           "strides[0] %lld, count %lld\n",
           (long long)tap.offset, tap.ndim, (long long)tap.sizes[0],
           (long long)tap.strides[0], (long long)iron_tap_count(&tap));
    CHECK(IRON_TAP_MAX_DIMS == 4 && tap.sizes[1] == 0);
    iron_val none = IRON_VAL_NONE;
    CHECK(none < 0);
    CHECK(IRON_WAIT == 1 && IRON_NOWAIT == 0);

    iron_tiler2d tiler = { .size = sizeof tiler, .rows = 4, .cols = 4,
                           .tile_rows = 2, .tile_cols = 2 };
    int64_t groups = 0;
    ok(iron_tiler2d_count(&tiler, &groups), "iron_tiler2d_count");
    ok(iron_tiler2d_tap(&tiler, 1, &tap), "iron_tiler2d_tap");
    printf("iron_tiler2d: %lld groups; group 1 at offset %lld\n",
           (long long)groups, (long long)tap.offset);
}

/* ---- a jit using every kind of argument and parameter ------------------- */

/* The core body: waits for the barrier, then for each object adds the
 * run-time parameter buffer's first element to the kernel's result. */
static const char body_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "void body(iron_objfifo *in, iron_objfifo *out, int32_t *add,\n"
    "          iron_barrier *go,\n"
    "          void (*k)(int32_t *, int32_t *, int32_t, float),\n"
    "          int32_t n, float s)\n"
    "{\n"
    "    iron_barrier_wait(go, 1);\n"
    "    printf(\"body: n = %d, s = %g\\n\", (int)n, (double)s);\n"
    "    for (;;) {\n"
    "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        k(x, y, n, s);\n"
    "        for (int32_t i = 0; i < n; i++) y[i] += add[0];\n"
    "        iron_release(in, 1);\n"
    "        iron_release(out, 1);\n"
    "    }\n"
    "}\n";

static int all_kinds(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t tile = iron_design_param_int(d, "tile");
    iron_dtype dt = iron_design_param_dtype(d, "dt");
    iron_fifo *in = iron_fifo_new(d, "in", dt, IRON_SHAPE(tile), 2);
    iron_link_options lo = { .size = sizeof lo,
                             .place = IRON_LINK_ANY_MEMTILE };
    iron_fifo *fwd = iron_fifo_forward_with(d, iron_fifo_cons(in), NULL, 2,
                                            &lo);
    iron_fifo *out = iron_fifo_new(d, "out", dt, IRON_SHAPE(tile), 2);
    const iron_kernel_ref *f = iron_design_param_kernel(d, "f");
    iron_kernel *k = iron_kernel_new(d, f->entry, f->source, f->arg_types);
    iron_kernel_define(k, "OP", iron_design_param_bool(d, "neg") ? "-" : "+");
    iron_kernel_define(k, "OFFSET", iron_design_param_str(d, "offset"));
    iron_kernel *body = iron_kernel_new_core(
        d, "body", body_src,
        "fifo, fifo, int32*, barrier, kernel(int32*, int32*, int32, float32), "
        "int32, float32");
    iron_rtp *add = iron_rtp_new(d, "add", IRON_INT32, 1);
    iron_barrier *go = iron_barrier_new(d, "go");
    iron_worker *w = iron_worker_new(
        d, "w", body, 0,
        IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(fwd), 1),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_rtp(add),
                  iron_arg_barrier(go), iron_arg_kernel(k),
                  iron_arg_int(tile),
                  iron_arg_float(iron_design_param_float(d, "scale"))));
    iron_worker_set_stack(w, 8192); /* printf */
    iron_rt_start(d, w);
    iron_rt_set_rtp_scalar(d, add, 0, iron_design_scalar_index(d, "add"));
    iron_rt_set_barrier(d, go, 1);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static void show_y(const char *what, iron_tensor *y)
{
    const int32_t *v = (const int32_t *)iron_tensor_data(y);
    printf("%s: y = %d %d %d ... %d\n", what, (int)v[0], (int)v[1],
           (int)v[2], (int)v[31]);
}

static int lines_seen;
static char last_line[256];

static void keep_line(const iron_output_line *line, void *ctx)
{
    (void)ctx;
    lines_seen++;
    snprintf(last_line, sizeof last_line, "%s (%d,%d) #%llu: %s",
             line->worker, line->col, line->row,
             (unsigned long long)line->iteration, line->text);
}

static void release_buffer(void *ctx, void *data)
{
    (*(int *)ctx)++;
    free(data);
}

static void jit_calls(void)
{
    iron_jit_options opts = {
        .size = sizeof opts,
        .name = "all_kinds",
        .args = "in x: int32[N], out y: int32[N]",
        .params = "tile: int = 8, scale: float = 2.0, neg: bool = false, "
                  "offset: str = '0', dt: dtype = int32, f: kernel",
        .scalars = "add = 0",
    };
    iron_jit *j = NULL;
    ok(iron_jit_create(all_kinds, &opts, &j), "iron_jit_create");
    ok(iron_jit_bind(j, IRON_PARAMS(iron_param_kernel("f", &scale_ref))),
       "iron_jit_bind");

    iron_tensor *x = NULL, *y = NULL;
    ok(iron_tensor_arange(IRON_INT32, 0, 32, 1, &x), "arange");
    int released = 0;
    int32_t *mem = (int32_t *)aligned_alloc(IRON_TENSOR_ALIGN, 32 * 4);
    ok(iron_tensor_wrap(mem, 32 * 4, IRON_INT32, IRON_SHAPE(32),
                        release_buffer, &released, &y),
       "iron_tensor_wrap");

    iron_output_set_handler(keep_line, NULL);
    ok(IRON_CALL(j, x, y), "IRON_CALL");
    show_y("IRON_CALL", y);
    ok(IRON_CALL_WITH(j,
                      IRON_PARAMS(iron_param_int("tile", 16),
                                  iron_param_bool("neg", 1),
                                  iron_param_str("offset", "100")),
                      x, y),
       "IRON_CALL_WITH");
    show_y("IRON_CALL_WITH tile 16, neg, offset 100", y);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1,
                               .timeout_ms = 30000 };
    IRON_WITH_DEVICE("npu1_1col") {
        ok(iron_jit_launch(j, &cfg,
                           IRON_PARAMS(iron_param_float("scale", 3.0)),
                           IRON_SCALARS(iron_scalar_value("add", 1000)),
                           IRON_TENSORS(x, y)),
           "iron_jit_launch");
    }
    show_y("iron_jit_launch on npu1_1col, scale 3, add 1000", y);
    iron_run *run = NULL;
    ok(iron_jit_start(j, NULL, IRON_NO_PARAMS,
                      IRON_SCALARS({ "add", 7 }), IRON_TENSORS(x, y), &run),
       "iron_jit_start");
    ok(iron_run_wait(run, -1), "iron_run_wait");
    enum iron_run_state state = iron_run_state(run);
    CHECK(state == IRON_RUN_COMPLETED);
    iron_run_free(run);
    show_y("iron_jit_start, add 7", y);
    iron_output_set_handler(NULL, NULL);
    printf("output lines: %d; last: %s\n", lines_seen, last_line);

    const iron_run_counters *rc = NULL;
    ok(iron_jit_get_counters(j, &rc), "iron_jit_get_counters");
    printf("iron_run_counters: %d worker(s), '%s' ran %llu time(s)\n",
           rc->nworkers, rc->workers[0].worker,
           (unsigned long long)rc->workers[0].iterations);
    iron_jit_stats st = { .size = sizeof st };
    ok(iron_jit_get_stats(j, &st), "iron_jit_get_stats");
    printf("iron_jit_stats: %llu calls, %llu builds\n",
           (unsigned long long)st.calls, (unsigned long long)st.builds);

    iron_status s = IRON_CALL(j, x, x);
    printf("IRON_CALL(j, x, x): %s: %s\n", iron_status_name(s),
           iron_last_error());
    s = IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("tlie", 4)), x, y);
    printf("unknown parameter: %s\n", iron_last_error());
    iron_mlir_options mo = { .size = sizeof mo, .upstream = "2025-04" };
    s = iron_jit_export_mlir(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(x, y),
                             &mo, "/nonexistent/iron-header-use");
    printf("export: %s\n", iron_status_name(s));

    iron_print_options po = { .size = sizeof po, .threshold = 4,
                              .edgeitems = 1 };
    char *text = NULL;
    ok(iron_tensor_format(x, &po, &text), "iron_tensor_format");
    printf("iron_tensor_format: %s\n", text);
    iron_free(text);

    iron_tensor_free(x);
    iron_tensor_free(y);
    CHECK(released == 1);
    iron_jit_free(j);
}

/* ---- iron_kernel.h ------------------------------------------------------- */

#define SHOW(expr) printf("%s = %lld\n", #expr, (long long)(expr))
#define SHOWF(expr) printf("%s = %g\n", #expr, (double)(expr))

static void kernel_helpers(void)
{
    const float fs[] = { 1.0f, -2.5f, 3.14159f, 1e-40f, 65504.0f };
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        CHECK(iron_k_bf16_from_float(fs[i]) == iron_bf16_from_float(fs[i]));
    SHOW(iron_k_bf16_from_float(3.14159f));
    SHOWF(iron_k_bf16_to_float(iron_k_bf16_from_float(3.14159f)));
    SHOW(iron_k_sat_i8(300));
    SHOW(iron_k_sat_u8(-4));
    SHOW(iron_k_sat_i16(-40000));
    SHOW(iron_k_sat_u16(70000));
    SHOW(iron_k_sat_i32(INT64_C(5000000000)));
    SHOW(iron_k_sat_u32(-1));
    SHOW(iron_k_add_sat_i8(100, 100));
    SHOW(iron_k_sub_sat_i8(-100, 100));
    SHOW(iron_k_mul_sat_i8(-16, 16));
    SHOW(iron_k_add_sat_u8(200, 100));
    SHOW(iron_k_sub_sat_u8(3, 5));
    SHOW(iron_k_mul_sat_u8(20, 20));
    SHOW(iron_k_add_sat_i16(30000, 30000));
    SHOW(iron_k_sub_sat_i16(-30000, 30000));
    SHOW(iron_k_mul_sat_i16(300, -300));
    SHOW(iron_k_add_sat_u16(60000, 6000));
    SHOW(iron_k_sub_sat_u16(5, 6));
    SHOW(iron_k_mul_sat_u16(300, 300));
    SHOW(iron_k_add_sat_i32(INT32_MAX, 1));
    SHOW(iron_k_sub_sat_i32(INT32_MIN, 1));
    SHOW(iron_k_mul_sat_i32(65536, 65536));
    SHOW(iron_k_add_sat_u32(UINT32_MAX, 1));
    SHOW(iron_k_sub_sat_u32(0, 1));
    SHOW(iron_k_mul_sat_u32(65536, 65536));
    SHOW(iron_k_shift_round(-7, 1));
    SHOW(iron_k_shift_round(5, 1));
    SHOW(iron_k_srs_i8(1000, 2));
    SHOW(iron_k_srs_u8(-1000, 2));
    SHOW(iron_k_srs_i16(1 << 20, 3));
    SHOW(iron_k_srs_i32(INT64_C(1) << 40, 4));
    SHOW(iron_k_min_i32(-3, 2));
    SHOW(iron_k_max_i32(-3, 2));
    SHOW(iron_k_clamp_i32(9, 0, 5));
    SHOW(iron_k_min_i64(-3, 2));
    SHOW(iron_k_max_i64(-3, 2));
    SHOW(iron_k_clamp_i64(-9, 0, 5));
    SHOWF(iron_k_min_f32(-0.5f, 2.0f));
    SHOWF(iron_k_max_f32(-0.5f, 2.0f));
    SHOWF(iron_k_clamp_f32(7.5f, 0.0f, 1.0f));
    SHOW(iron_k_abs_sat_i8(-128));
    SHOW(iron_k_abs_sat_i16(-32768));
    SHOW(iron_k_abs_sat_i32(INT32_MIN));
}

/* ---- iron_driver.h ------------------------------------------------------- */

static void driver_table(void)
{
    iron_run_args ra = { .size = sizeof ra, .nargs = 0, .timeout_ms = 1 };
    CHECK(ra.flags == 0 && ra.trace_path == NULL && ra.threads == 0);
    CHECK((IRON_RUN_CHECK | IRON_RUN_PROFILE) == 3u);
    CHECK(IRON_DRIVER_SIZE_V1 < sizeof(iron_driver));
    iron_driver drv = { .abi_version = IRON_DRIVER_ABI + 1,
                        .size = sizeof drv, .name = "header_use" };
    CHECK(drv.buf_alloc == NULL && drv.buf_unwrap == NULL);
    iron_device_info info = { .size = sizeof info, .name = "header_use" };
    iron_status s = iron_driver_register(&drv, &info);
    printf("iron_driver_register (ABI %d): %s\n", drv.abi_version,
           iron_status_name(s));
}

/* ---- C++ only: owners, a lambda design, a vector of tensors -------------
 * Quoted by docs/cpp.md.  It prints only failures, so that every build
 * prints the same. */
#ifdef __cplusplus
#include <memory>
#include <stdexcept>
#include <vector>

/* Owners that free the library's objects when they go. */
struct jit_free {
    void operator()(iron_jit *j) const { iron_jit_free(j); }
};
struct tensor_free {
    void operator()(iron_tensor *t) const { iron_tensor_free(t); }
};
using jit_ptr = std::unique_ptr<iron_jit, jit_free>;
using tensor_ptr = std::unique_ptr<iron_tensor, tensor_free>;

static tensor_ptr arange(int64_t n, double start, double step)
{
    iron_tensor *t = nullptr;
    ok(iron_tensor_arange(IRON_INT32, start, start + (double)n * step, step,
                          &t),
       "iron_tensor_arange");
    return tensor_ptr(t);
}

static void cxx_only()
{
    /* A design function may be a lambda without captures.  No exception
     * may leave it (the library is C): it becomes the design's error. */
    iron_design_fn copy = [](iron_design *d, void *user) -> int {
        try {
            if (user != nullptr)
                throw std::runtime_error("asked to fail");
            int64_t n = iron_design_arg_numel(d, 0);
            iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32,
                                          IRON_SHAPE(n / 4), 2);
            iron_fifo *out = iron_fifo_forward(d, iron_fifo_cons(in), "out", 0);
            iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
            iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n),
                          IRON_WAIT);
            return 0;
        } catch (const std::exception &e) {
            iron_design_fail(d, IRON_EDESIGN, "%s", e.what());
            return 1;
        }
    };
    iron_jit_options opts = { .size = sizeof opts, .name = "copy",
                              .args = "in x: int32[N], out y: int32[N]" };
    iron_jit *raw = nullptr;
    ok(iron_jit_create(copy, &opts, &raw), "iron_jit_create");
    jit_ptr j(raw);

    /* Tensors from a container: the count and the array, as
     * IRON_TENSORS gives them. */
    std::vector<tensor_ptr> owned;
    owned.push_back(arange(64, 0, 1));
    owned.push_back(arange(64, 63, -1));
    std::vector<iron_tensor *> args;
    for (const tensor_ptr &t : owned)
        args.push_back(t.get());
    ok(iron_jit_launch(j.get(), nullptr, IRON_NO_PARAMS, IRON_NO_SCALARS,
                       static_cast<int>(args.size()), args.data()),
       "iron_jit_launch");
    auto y = static_cast<const int32_t *>(iron_tensor_data(args[1]));
    if (y[63] != 63) {
        failed++;
        printf("FAILED (C++): y[63] = %d\n", static_cast<int>(y[63]));
    }

    /* The exception, as the call's error. */
    int fail = 1;
    opts.user = &fail;
    ok(iron_jit_create(copy, &opts, &raw), "iron_jit_create");
    jit_ptr failing(raw);
    iron_status s = IRON_CALL(failing.get(), args[0], args[1]);
    if (s != IRON_EDESIGN || !strstr(iron_last_error(), "asked to fail")) {
        failed++;
        printf("FAILED (C++): %s: %s\n", iron_status_name(s),
               iron_last_error());
    }
}
#endif

int main(void)
{
    show_tables();
    shapes();
    devices();
    values();
    jit_calls();
    kernel_helpers();
    driver_table();
#ifdef __cplusplus
    cxx_only();
#endif
    if (failed) {
        printf("header_use: %d of %d checks failed\n", failed, checks);
        return 1;
    }
    printf("header_use: all %d checks passed\n", checks);
    return 0;
}
