/*
 * test_model_errors.c - one test per rule of the IRON model (IRON-MODEL.md
 * §2-3, iron.h) that a design can break: ObjectFifo depths and the core
 * body's acquire/release protocol, memtile links, layout transforms, shim
 * access patterns, workers and placement, the runtime sequence, and every
 * per-tile resource of the device model.  Each rule is violated on purpose
 * and the test asserts the status and that the message names the tile,
 * FIFO or worker, the resource, the demand and the limit.  Where a rule
 * has a positive side (cumulative acquire, release order, barriers, RTPs,
 * pinned placement) it is run and its values checked.
 *
 * Over-limit designs must be rejected before anything runs: those tests
 * assert that no specialization was kept, no kernel was compiled, the
 * output tensor still holds its sentinel and the jit's run state did not
 * change.  Run-time misuse must end a call with a status, never a crash or
 * a hang: those tests run with a short launch timeout and a test limit.
 */
#include <stdio.h>
#include <string.h>

#include "test.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

#define SENTINEL (-7.0)
#define OBJ 16

static char errmsg[8192];

/* Per-test knobs read by the design functions (each test runs in its own
 * child process). */
static int g_case;
static int64_t g_x, g_y;

static iron_status keep(iron_status s)
{
    snprintf(errmsg, sizeof errmsg, "%s",
             s == IRON_OK ? "" : iron_last_error());
    return s;
}

#define EXPECT(expr, status)                                                  \
    do {                                                                      \
        iron_status st_ = keep(expr);                                         \
        if (st_ != (status))                                                  \
            TEST_FAIL_("%s: expected %s, got %s (%s)", #expr,                 \
                       iron_status_name(status), iron_status_name(st_),       \
                       errmsg);                                               \
    } while (0)

#define MSG(needle) ASSERT_CONTAINS(errmsg, needle)

static iron_tensor *arange(iron_dtype dt, int64_t n)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_arange(&t, dt, IRON_SHAPE(n), 0, 1));
    return t;
}

static iron_tensor *sentinel(iron_dtype dt, int64_t n)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_full(&t, dt, IRON_SHAPE(n), SENTINEL));
    return t;
}

static double at(const iron_tensor *t, int64_t i)
{
    double v = 0;
    ASSERT_OK(iron_tensor_get(t, i, &v));
    return v;
}

static void assert_untouched(const iron_tensor *t)
{
    int64_t n = iron_tensor_numel(t);
    for (int64_t i = 0; i < n; i++)
        if (at(t, i) != SENTINEL)
            TEST_FAIL_("output element %lld is %g: the rejected design ran",
                       (long long)i, at(t, i));
}

static iron_jit_stats stats(const iron_jit *j)
{
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    return st;
}

/* A design rejected before it reached the device: nothing kept, nothing
 * compiled, the output untouched, the run state unchanged. */
static void assert_rejected_before_run(const iron_jit *j,
                                       const iron_tensor *out)
{
    iron_jit_stats st = stats(j);
    ASSERT_EQ(st.specializations, 0);
    ASSERT_EQ(st.kernel_compiles, 0);
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
    if (out)
        assert_untouched(out);
}

static iron_jit *jit(iron_design_fn fn, const char *name, const char *args,
                     const char *params)
{
    iron_jit *j = NULL;
    iron_jit_options o = { .size = sizeof o, .name = name, .args = args,
                           .params = params };
    ASSERT_OK(iron_jit_create(&j, fn, &o));
    return j;
}

/* One launch with `cols` columns (0 = all) and a timeout (0 = default). */
static iron_status launch(iron_jit *j, int cols, int timeout_ms, int nparams,
                          const iron_param *params, int nargs,
                          iron_tensor *const *args)
{
    iron_launch_config c = { .size = sizeof c, .cols = cols,
                             .timeout_ms = timeout_ms };
    return keep(iron_jit_launch(j, &c, nparams, params, nargs, args));
}

static char *dump(iron_jit *j, int cols, int nargs, iron_tensor *const *args)
{
    char *text = NULL;
    iron_launch_config c = { .size = sizeof c, .cols = cols };
    ASSERT_OK(iron_jit_dump(j, &c, IRON_NO_PARAMS, nargs, args, &text));
    return text;
}

static const char *ctype(iron_dtype dt)
{
    switch (dt) {
    case IRON_INT8: return "int8_t";
    case IRON_UINT8: return "uint8_t";
    case IRON_INT16: return "int16_t";
    case IRON_UINT16: return "uint16_t";
    default: return "int32_t";
    }
}

static const char copy_src[] =
    "#include <stdint.h>\n"
    "void copy(const ELEM *in, ELEM *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i];\n"
    "}\n";

static iron_kernel *copy_kernel(iron_design *d, iron_dtype dt)
{
    char types[64];
    snprintf(types, sizeof types, "%s*, %s*, int32", iron_dtype_name(dt),
             iron_dtype_name(dt));
    iron_kernel *k = iron_kernel_new(d, "copy", copy_src, types);
    iron_kernel_define(k, "ELEM", ctype(dt));
    return k;
}

static const char add1_src[] __attribute__((unused)) =
    "#include <stdint.h>\n"
    "void add1(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + 1;\n"
    "}\n";

/* ========================================================================
 * 1. ObjectFifos: depth per endpoint, and the core body's acquire/release
 * ======================================================================== */

/* in -> worker 'copy' -> out, objects of OBJ int32; the consumer endpoint
 * of 'in' gets depth g_x (and the producer of 'out' depth g_y). */
static int depth_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *ic = iron_fifo_cons(in), *op = iron_fifo_prod(out);
    iron_status s = iron_handle_set_depth(ic, (int)g_x);
    if (g_x < 1 || g_x > 16) {
        ASSERT_EQ(s, IRON_EINVAL);
        ASSERT_CONTAINS(iron_last_error(), "fifo 'in' (consumer): depth");
    }
    iron_handle_set_depth(op, (int)g_y);
    iron_worker_new(d, "copy", copy_kernel(d, IRON_INT32), 1,
                    IRON_ARGS(iron_use(ic), iron_use(op), iron_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_fifo_endpoint_depth_range)
{
    iron_jit *j = jit(depth_design, "depth", "in a: int32[N], out b: int32[N]",
                      NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    g_x = 0;
    g_y = 2;
    EXPECT(launch(j, 1, 0, IRON_NO_PARAMS, IRON_TENSORS(a, b)), IRON_EINVAL);
    MSG("fifo 'in' (consumer): depth 0; expected 1 to 16");
    MSG("depth (a: int32[64]");
    assert_rejected_before_run(j, b);
    g_x = 17;
    EXPECT(launch(j, 1, 0, IRON_NO_PARAMS, IRON_TENSORS(a, b)), IRON_EINVAL);
    MSG("fifo 'in' (consumer): depth 17; expected 1 to 16");
    assert_rejected_before_run(j, b);
    g_x = 2;
    g_y = -1;
    EXPECT(launch(j, 1, 0, IRON_NO_PARAMS, IRON_TENSORS(a, b)), IRON_EINVAL);
    MSG("fifo 'out' (producer): depth -1; expected 1 to 16");
    assert_rejected_before_run(j, b);
    /* In range, and different per endpoint (1 + 15 buffers: the tile's
     * 16 buffer descriptors). */
    g_x = 1;
    g_y = 15;
    ASSERT_OK(launch(j, 1, 0, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(at(b, i), i);
    char *text = dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "consumer 0: worker 'copy' @(0,2) depth 1");
    ASSERT_CONTAINS(text, "producer: worker 'copy' @(0,2) depth 15");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* A core body that acquires `take` objects of `in`, then releases `give`,
 * then passes one object through (so a correct design makes progress). */
static const char acq_src[] =
    "#include <stdint.h>\n"
    "void acq(iron_objfifo *in, iron_objfifo *out, int32_t take,\n"
    "         int32_t give, int32_t n)\n"
    "{\n"
    "    for (;;) {\n"
    "        int32_t **x = (int32_t **)iron_acquire(in, take);\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        for (int32_t i = 0; i < n; i++)\n"
    "            y[i] = x[0][i];\n"
    "        iron_release(out, 1);\n"
    "        iron_release(in, give);\n"
    "    }\n"
    "}\n";

/* 'in' has depth 4 but its consumer endpoint only 2 buffers: the limit
 * for acquire is the endpoint's depth. */
static int acq_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 4);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *ic = iron_fifo_cons(in);
    iron_handle_set_depth(ic, 2);
    iron_kernel *k = iron_core_new(d, "acq", acq_src,
                                   "fifo, fifo, int32, int32, int32");
    iron_worker_new(d, "greedy", k, 1,
                    IRON_ARGS(iron_use(ic), iron_use(iron_fifo_prod(out)),
                              iron_int(g_x), iron_int(g_y), iron_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1,
                  iron_tap_linear(iron_design_arg_numel(d, 1)), IRON_WAIT);
    return 0;
}

static iron_jit *acq_jit(void)
{
    return jit(acq_design, "acq", "in a: int32[N], out b: int32[M]", NULL);
}

TEST_TIMEOUT(rule_core_acquire_more_than_endpoint_depth, 20)
{
    iron_jit *j = acq_jit();
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    g_x = 3; /* > the consumer endpoint's 2 buffers (the fifo has 4) */
    g_y = 1;
    for (int call = 0; call < 2; call++) {
        EXPECT(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
               IRON_ERUNTIME);
        MSG("worker 'greedy' on tile (0,2): acquire(3) on fifo 'in' "
            "(consumer); the endpoint has 2 buffers (1 <= n <= depth)");
        MSG("acq (a: int32[64]");
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    }
    ASSERT_EQ(stats(j).builds, 1);
    /* acquire(0) is outside 1..depth too. */
    iron_jit_free(j);
    j = acq_jit();
    g_x = 0;
    EXPECT(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
           IRON_ERUNTIME);
    MSG("worker 'greedy' on tile (0,2): acquire(0) on fifo 'in' (consumer)");
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    /* Taking exactly the endpoint's depth is fine: two objects in, the
     * first of each pair out. */
    iron_jit_free(j);
    j = acq_jit();
    g_x = 2;
    g_y = 2;
    iron_tensor *c = sentinel(IRON_INT32, 32);
    ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, c)));
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(at(c, i), i < 16 ? i : i + 16);
    iron_tensor_free(c);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST_TIMEOUT(rule_core_release_more_than_held, 20)
{
    iron_jit *j = acq_jit();
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    g_x = 1;
    g_y = 2; /* holds 1, releases 2 */
    for (int call = 0; call < 2; call++) {
        EXPECT(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
               IRON_ERUNTIME);
        MSG("worker 'greedy' on tile (0,2): release(2) on fifo 'in' "
            "(consumer), which holds 1");
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    }
    iron_jit_free(j);
    j = acq_jit();
    g_y = -1;
    EXPECT(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
           IRON_ERUNTIME);
    MSG("release(-1) on fifo 'in' (consumer), which holds 1");
    /* The run stopped before anything reached the output. */
    assert_untouched(b);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* Probes acquire/release semantics on pairs of input objects and writes
 * what it saw into one output object:
 *   y[0] acquire(1) twice gives the same object
 *   y[1] holding 1, acquire(2) keeps it as index 0 (cumulative)
 *   y[2], y[3] the first elements of the two held objects, oldest first
 *   y[4] after release(1), index 0 is the newer object
 *   y[5] the two held objects are distinct buffers */
static const char probe_src[] =
    "#include <stdint.h>\n"
    "void probe(iron_objfifo *in, iron_objfifo *out, int32_t n)\n"
    "{\n"
    "    for (;;) {\n"
    "        int32_t *first = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t *again = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t **two = (int32_t **)iron_acquire(in, 2);\n"
    "        int32_t same1 = again == first, same2 = two[0] == first;\n"
    "        int32_t v0 = two[0][0], v1 = two[1][0];\n"
    "        int32_t distinct = two[0] != two[1];\n"
    "        iron_release(in, 1);\n"
    "        int32_t v2 = ((int32_t **)iron_acquire(in, 1))[0][0];\n"
    "        iron_release(in, 1);\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        for (int32_t i = 0; i < n; i++)\n"
    "            y[i] = 0;\n"
    "        y[0] = same1; y[1] = same2; y[2] = v0; y[3] = v1; y[4] = v2;\n"
    "        y[5] = distinct;\n"
    "        iron_release(out, 1);\n"
    "    }\n"
    "}\n";

/* The consumer endpoint has exactly 2 buffers: if acquire(2) while holding
 * 1 waited for 2 more objects, it would wait forever. */
static int probe_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_core_new(d, "probe", probe_src, "fifo, fifo, int32");
    iron_worker_new(d, "probe", k, 1,
                    IRON_ARGS(iron_use(iron_fifo_cons(in)),
                              iron_use(iron_fifo_prod(out)), iron_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0,
                 iron_tap_linear(iron_design_arg_numel(d, 0)));
    iron_rt_drain(d, iron_fifo_cons(out), 1,
                  iron_tap_linear(iron_design_arg_numel(d, 1)), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(rule_core_acquire_cumulative_and_release_oldest, 20)
{
    iron_jit *j = jit(probe_design, "probe",
                      "in a: int32[N], out b: int32[M]", NULL);
    /* 8 objects in: 4 rounds of 2. */
    iron_tensor *a = arange(IRON_INT32, 8 * OBJ);
    iron_tensor *b = sentinel(IRON_INT32, 4 * OBJ);
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
        for (int r = 0; r < 4; r++) {
            const int64_t y = r * OBJ, first = 2 * r * OBJ;
            ASSERT_EQ(at(b, y + 0), 1);            /* same object */
            ASSERT_EQ(at(b, y + 1), 1);            /* cumulative */
            ASSERT_EQ(at(b, y + 2), first);        /* oldest at index 0 */
            ASSERT_EQ(at(b, y + 3), first + OBJ);
            ASSERT_EQ(at(b, y + 4), first + OBJ);  /* the oldest went */
            ASSERT_EQ(at(b, y + 5), 1);            /* two buffers */
        }
    }
    ASSERT_EQ(stats(j).builds, 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* A sliding window of two: hold the newest object across iterations and
 * emit newer - older for each consecutive pair. */
static const char pairs_src[] =
    "#include <stdint.h>\n"
    "void pairs(iron_objfifo *in, iron_objfifo *out, int32_t n,\n"
    "           int32_t objs)\n"
    "{\n"
    "    for (;;) {\n"
    "        iron_acquire(in, 1);\n"
    "        for (int32_t o = 0; o < objs - 1; o++) {\n"
    "            int32_t **w = (int32_t **)iron_acquire(in, 2);\n"
    "            int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "            for (int32_t i = 0; i < n; i++)\n"
    "                y[i] = w[1][i] - w[0][i];\n"
    "            iron_release(out, 1);\n"
    "            iron_release(in, 1);\n"
    "        }\n"
    "        iron_release(in, 1);\n"
    "    }\n"
    "}\n";

static int pairs_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), objs = n / 8;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(8), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(8), 2);
    iron_kernel *k = iron_core_new(d, "pairs", pairs_src,
                                   "fifo, fifo, int32, int32");
    iron_worker_new(d, "win", k, 1,
                    IRON_ARGS(iron_use(iron_fifo_cons(in)),
                              iron_use(iron_fifo_prod(out)), iron_int(8),
                              iron_int(objs)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n - 8),
                  IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(rule_core_sliding_window_order, 20)
{
    iron_jit *j = jit(pairs_design, "pairs", "in a, out b", NULL);
    iron_tensor *a = NULL, *b = sentinel(IRON_INT32, 56);
    ASSERT_OK(iron_tensor_zeros(&a, IRON_INT32, IRON_SHAPE(64)));
    int32_t *x = iron_tensor_data(a);
    for (int i = 0; i < 64; i++)
        x[i] = i * i;  /* differences tell every pair apart */
    for (int call = 0; call < 3; call++) {
        ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
        for (int o = 0; o < 7; o++)
            for (int i = 0; i < 8; i++)
                ASSERT_EQ(at(b, o * 8 + i),
                          x[(o + 1) * 8 + i] - x[o * 8 + i]);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* One core body using both ends of fifo 'loop': it writes 2x into the
 * loop and reads it back to emit 2x + 1.  With g_case set, a layout
 * transform is put on one end of the loop, which has no DMA. */
static const char loop_src[] =
    "#include <stdint.h>\n"
    "void loopback(iron_objfifo *in, iron_objfifo *out, iron_objfifo *lp,\n"
    "              iron_objfifo *lc, int32_t n)\n"
    "{\n"
    "    for (;;) {\n"
    "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t *t = (int32_t *)iron_acquire(lp, 1)[0];\n"
    "        for (int32_t i = 0; i < n; i++)\n"
    "            t[i] = 2 * x[i];\n"
    "        iron_release(lp, 1);\n"
    "        iron_release(in, 1);\n"
    "        int32_t *u = (int32_t *)iron_acquire(lc, 1)[0];\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        for (int32_t i = 0; i < n; i++)\n"
    "            y[i] = u[i] + 1;\n"
    "        iron_release(out, 1);\n"
    "        iron_release(lc, 1);\n"
    "    }\n"
    "}\n";

enum { LOOP_PLAIN, LOOP_DIMS_FROM, LOOP_DIMS_TO };

static int loop_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *lo = iron_fifo_new(d, "loop", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *lp = iron_fifo_prod(lo), *lc = iron_fifo_cons(lo);
    const int64_t sizes[2] = { 4, 4 }, strides[2] = { 1, 4 };
    if (g_case == LOOP_DIMS_FROM)
        ASSERT_OK(iron_handle_set_dims(lc, 2, sizes, strides));
    if (g_case == LOOP_DIMS_TO)
        ASSERT_OK(iron_handle_set_dims(lp, 2, sizes, strides));
    iron_kernel *k = iron_core_new(d, "loopback", loop_src,
                                   "fifo, fifo, fifo, fifo, int32");
    iron_worker_new(d, "both", k, 1,
                    IRON_ARGS(iron_use(iron_fifo_cons(in)),
                              iron_use(iron_fifo_prod(out)), iron_use(lp),
                              iron_use(lc), iron_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(rule_core_producer_and_consumer_on_one_tile, 20)
{
    g_case = LOOP_PLAIN;
    iron_jit *j = jit(loop_design, "loop", "in a, out b", NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(at(b, i), 2 * i + 1);
    }
    char *text = dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "loop: int32[16] x 2\n"
                          "    producer: worker 'both' @(0,2)\n"
                          "    consumer 0: worker 'both' @(0,2)");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* ========================================================================
 * 2. Links through a memtile
 * ======================================================================== */

enum {
    L_SPLIT_SUM_SMALL,
    L_SPLIT_OVERLAP,
    L_SPLIT_OUT_OF_RANGE,
    L_JOIN_SUM_LARGE,
    L_SPLIT_PRODUCER,
    L_JOIN_CONSUMER,
    L_SPLIT_WORKER_HANDLE,
    L_FORWARD_RUNTIME_HANDLE,
    L_FORWARD_LINKED_HANDLE,
    L_FILL_LINKED_HANDLE,
    L_SPLIT_TOO_MANY,
    L_SPLIT_UNCONSUMED_OUTPUT,
    L_FORWARD_UNUSED_CONSUMER,
};

/* int32[48] in objects of 24; each case makes one mistake with a link and
 * asserts the builder call's own status and message where it fails. */
static int link_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(24), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(24), 2);
    iron_kernel *k = copy_kernel(d, IRON_INT32);
    const char *names[9] = { "p0", "p1", "p2", "p3", "p4",
                             "p5", "p6", "p7", "p8" };
    int64_t off[9] = { 0, 8, 16, 0, 0, 0, 0, 0, 0 };
    iron_shape sh[9];
    for (int i = 0; i < 9; i++)
        sh[i] = IRON_SHAPE(8);
    iron_fifo *parts[9] = { 0 };
    iron_handle *ic = iron_fifo_cons(in);
    iron_status s = IRON_OK;
    switch (g_case) {
    case L_SPLIT_SUM_SMALL:
        s = iron_fifo_split(d, ic, 2, names, off, sh, NULL, parts);
        break;
    case L_SPLIT_OVERLAP:
        off[1] = 4;
        s = iron_fifo_split(d, ic, 3, names, off, sh, NULL, parts);
        break;
    case L_SPLIT_OUT_OF_RANGE:
        off[2] = 20;
        s = iron_fifo_split(d, ic, 3, names, off, sh, NULL, parts);
        break;
    case L_JOIN_SUM_LARGE:
        off[3] = 24;
        s = iron_fifo_join(d, iron_fifo_prod(out), 4, names, off, sh, NULL,
                           parts);
        break;
    case L_SPLIT_PRODUCER:
        s = iron_fifo_split(d, iron_fifo_prod(in), 3, names, off, sh, NULL,
                            parts);
        break;
    case L_JOIN_CONSUMER:
        s = iron_fifo_join(d, iron_fifo_cons(out), 3, names, off, sh, NULL,
                           parts);
        break;
    case L_SPLIT_WORKER_HANDLE:
        iron_worker_new(d, "copy", k, 1,
                        IRON_ARGS(iron_use(ic),
                                  iron_use(iron_fifo_prod(out)),
                                  iron_int(24)));
        s = iron_fifo_split(d, ic, 3, names, off, sh, NULL, parts);
        break;
    case L_FORWARD_RUNTIME_HANDLE: {
        iron_handle *oc = iron_fifo_cons(out);
        iron_rt_drain(d, oc, 1, iron_tap_linear(48), IRON_WAIT);
        if (!iron_fifo_forward(d, oc, "again", 0))
            s = iron_design_status(d);
        break;
    }
    case L_FORWARD_LINKED_HANDLE:
        iron_fifo_forward(d, ic, "fwd", 0);
        if (!iron_fifo_forward(d, ic, "fwd2", 0))
            s = iron_design_status(d);
        break;
    case L_FILL_LINKED_HANDLE: {
        iron_fifo *f = iron_fifo_forward(d, ic, "fwd", 0);
        s = iron_rt_fill(d, iron_fifo_prod(f), 0, iron_tap_linear(48));
        break;
    }
    case L_SPLIT_TOO_MANY:
        for (int i = 0; i < 9; i++) {
            off[i] = 0;
            sh[i] = IRON_SHAPE(1);
        }
        s = iron_fifo_split(d, ic, 9, names, off, sh, NULL, parts);
        break;
    case L_SPLIT_UNCONSUMED_OUTPUT: {
        /* Three pieces, but only two ever get a consumer. */
        ASSERT_OK(iron_fifo_split(d, ic, 3, names, off, sh, NULL, parts));
        iron_fifo *outs[3];
        ASSERT_OK(iron_fifo_join(d, iron_fifo_prod(out), 3,
                                 (const char *const[]){ "q0", "q1", "q2" },
                                 off, sh, NULL, outs));
        for (int w = 0; w < 2; w++) {
            char nm[8];
            snprintf(nm, sizeof nm, "w%d", w);
            iron_worker_new(d, nm, k, 1,
                            IRON_ARGS(iron_use(iron_fifo_cons(parts[w])),
                                      iron_use(iron_fifo_prod(outs[w])),
                                      iron_int(8)));
        }
        iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(48));
        iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(48),
                      IRON_WAIT);
        return 0;
    }
    case L_FORWARD_UNUSED_CONSUMER: {
        iron_fifo *f = iron_fifo_forward(d, ic, "fwd", 0);
        iron_worker_new(d, "copy", k, 1,
                        IRON_ARGS(iron_use(iron_fifo_cons(f)),
                                  iron_use(iron_fifo_prod(out)),
                                  iron_int(24)));
        iron_fifo_cons(f); /* a second consumer nobody uses */
        iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(48));
        iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(48),
                      IRON_WAIT);
        return 0;
    }
    }
    /* Every builder case fails where the mistake is made, saying why on
     * this thread, and the failure sticks to the design. */
    ASSERT(s != IRON_OK);
    ASSERT_EQ(iron_design_status(d), s);
    snprintf(errmsg, sizeof errmsg, "%s", iron_last_error());
    return 0;
}

static void link_case(int which, iron_status want)
{
    g_case = which;
    iron_jit *j = jit(link_design, "links", "in a: int32[48], out b: int32[48]",
                      NULL);
    iron_tensor *a = arange(IRON_INT32, 48), *b = sentinel(IRON_INT32, 48);
    errmsg[0] = '\0';
    char inside[sizeof errmsg];
    iron_status s = iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                                    IRON_TENSORS(a, b));
    snprintf(inside, sizeof inside, "%s", errmsg);
    EXPECT(s, want);
    /* The builder call's own message is the one the jit reports. */
    if (inside[0])
        ASSERT_CONTAINS(errmsg, inside);
    assert_rejected_before_run(j, b);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(rule_link_split_sizes_must_tile_the_object)
{
    link_case(L_SPLIT_SUM_SMALL, IRON_EDESIGN);
    MSG("split of fifo 'in': the pieces' sizes sum to 16 elements, the "
        "object has 24");
    link_case(L_SPLIT_OVERLAP, IRON_EDESIGN);
    MSG("split of fifo 'in': pieces 0 [0, 8) and 1 [4, 12) overlap");
    link_case(L_SPLIT_OUT_OF_RANGE, IRON_EDESIGN);
    MSG("split of fifo 'in': piece 2 covers elements [20, 28), outside the "
        "24-element object");
    link_case(L_JOIN_SUM_LARGE, IRON_EDESIGN);
    MSG("join of fifo 'out': piece 3 covers elements [24, 32), outside the "
        "24-element object");
    link_case(L_SPLIT_TOO_MANY, IRON_EDESIGN);
    MSG("split of fifo 'in' (consumer): 9 pieces; expected 1 to 8");
}

TEST(rule_link_split_takes_consumer_join_takes_producer)
{
    link_case(L_SPLIT_PRODUCER, IRON_EDESIGN);
    MSG("split of fifo 'in' (producer): a split takes a consumer handle");
    MSG("a producer handle cannot be split");
    link_case(L_JOIN_CONSUMER, IRON_EDESIGN);
    MSG("join into fifo 'out' (consumer): a join takes the producer handle");
    MSG("a consumer handle cannot be joined");
}

TEST(rule_link_handle_already_used)
{
    link_case(L_SPLIT_WORKER_HANDLE, IRON_EDESIGN);
    MSG("split of fifo 'in' (consumer): the handle is already used by "
        "worker 'copy'");
    link_case(L_FORWARD_RUNTIME_HANDLE, IRON_EDESIGN);
    MSG("forward of fifo 'out' (consumer): the handle is already used by "
        "the runtime sequence");
    link_case(L_FORWARD_LINKED_HANDLE, IRON_EDESIGN);
    MSG("forward of fifo 'in' (consumer): the handle is already used by a "
        "memtile link");
    link_case(L_FILL_LINKED_HANDLE, IRON_EDESIGN);
    MSG("fill of fifo 'fwd' (producer): the handle is already used by a "
        "memtile link");
}

TEST(rule_link_output_needs_a_consumer)
{
    link_case(L_SPLIT_UNCONSUMED_OUTPUT, IRON_EDESIGN);
    MSG("links (a: int32[48], b: int32[48]; npu2, 8 columns): verify");
    MSG("fifo 'p2' has no consumer");
    link_case(L_FORWARD_UNUSED_CONSUMER, IRON_EDESIGN);
    MSG("fifo 'fwd' (consumer 1) is never used");
}

/* A forward through a memtile that transposes each 4 x 8 object into
 * 8 x 4 with dims_to_stream on the memtile's producer handle. */
static int transpose_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(4, 8), 2);
    iron_fifo *t = iron_fifo_forward(d, iron_fifo_cons(in), "t", 0);
    const int64_t sizes[2] = { 8, 4 }, strides[2] = { 1, 8 };
    ASSERT_OK(iron_handle_set_dims(iron_fifo_prod(t), 2, sizes, strides));
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(32), 2);
    iron_worker_new(d, "copy", copy_kernel(d, IRON_INT32), 1,
                    IRON_ARGS(iron_use(iron_fifo_cons(t)),
                              iron_use(iron_fifo_prod(out)), iron_int(32)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_link_forward_changes_layout)
{
    iron_jit *j = jit(transpose_design, "transpose", "in a, out b", NULL);
    iron_tensor *a = arange(IRON_INT32, 96), *b = sentinel(IRON_INT32, 96);
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(iron_call(j, a, b));
        for (int o = 0; o < 3; o++)
            for (int r = 0; r < 8; r++)
                for (int c = 0; c < 4; c++)
                    ASSERT_EQ(at(b, o * 32 + r * 4 + c), o * 32 + c * 8 + r);
    }
    char *text = dump(j, 0, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "forward on memtile (0,1): 'in' -> 't'");
    ASSERT_CONTAINS(text, "producer: memtile link 0 @(0,1) dims_to_stream "
                          "[(8, 1), (4, 8)]");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}
