/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_model_errors.c - one test per rule of the IRON model (iron.h,
 * docs/emulator.md) that a design can break: ObjectFifo depths and the core
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


/* What a test tells its design: each test fills its own and hands it to
 * the jit as the design function's user pointer (iron_jit_options.user),
 * so a design reads only what its test gave it.  Each design's comment
 * says which fields it reads. */
typedef struct knobs {
    int which;                 /* the variant of the design */
    int64_t x, y;              /* depths, sizes, counts, barrier values */
    int nd;                    /* a layout transform: dims, sizes, strides */
    int64_t sz[5], st[5];
    iron_tap tap;              /* an access pattern for a fill */
    int pin[24][2];            /* worker i's tile; column -1: not pinned */
    int init;                  /* a barrier's initial value */
} knobs;

static iron_tensor *arange(iron_dtype dt, int64_t n)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_arange(dt, 0, n, 1, &t));
    return t;
}

static iron_tensor *sentinel(iron_dtype dt, int64_t n)
{
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_full(dt, IRON_SHAPE(n), SENTINEL, &t));
    return t;
}

static double at(const iron_tensor *t, int64_t i)
{
    double v = 0;
    ASSERT_OK(iron_tensor_get_element(t, i, &v));
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
    ASSERT_OK(iron_jit_create(fn, &o, &j));
    return j;
}

/* A jit whose design reads kn (which stays the caller's, and must live
 * as long as the jit). */
static iron_jit *jit_for(knobs *kn, iron_design_fn fn, const char *name,
                         const char *args, const char *params)
{
    iron_jit *j = NULL;
    iron_jit_options o = { .size = sizeof o, .name = name, .args = args,
                           .params = params, .user = kn };
    ASSERT_OK(iron_jit_create(fn, &o, &j));
    return j;
}

/* One launch with `cols` columns (0 = all) and a timeout (0 = default). */
static iron_status launch(iron_jit *j, int cols, int timeout_ms, int nparams,
                          const iron_param *params, int nargs,
                          iron_tensor *const *args)
{
    iron_launch_config c = { .size = sizeof c, .cols = cols,
                             .timeout_ms = timeout_ms };
    return test_keep(iron_jit_launch(j, &c, nparams, params, IRON_NO_SCALARS,
                                     nargs, args));
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

static const char add1_src[] =
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
 * of 'in' gets depth kn->x (and the producer of 'out' depth kn->y). */
static int depth_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *ic = iron_fifo_cons(in), *op = iron_fifo_prod(out);
    iron_status s = iron_handle_set_depth(ic, (int)kn->x);
    if (kn->x < 1 || kn->x > 16) {
        ASSERT_EQ(s, IRON_EINVAL);
        ASSERT_CONTAINS(iron_last_error(), "fifo 'in' (consumer): depth");
    }
    iron_handle_set_depth(op, (int)kn->y);
    iron_worker_new(
        d, "copy", copy_kernel(d, IRON_INT32), 1,
        IRON_ARGS(iron_arg_fifo(ic), iron_arg_fifo(op), iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_fifo_endpoint_depth_range)
{
    knobs kn = { 0 };
    iron_jit *j = jit_for(&kn, depth_design, "depth",
                          "in a: int32[N], out b: int32[N]", NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    kn.x = 0;
    kn.y = 2;
    ASSERT_STATUS(launch(j, 1, 0, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
                  IRON_EINVAL);
    ASSERT_MSG("fifo 'in' (consumer): depth 0; expected 1 to 16");
    ASSERT_MSG("depth (a: int32[64]");
    assert_rejected_before_run(j, b);
    kn.x = 17;
    ASSERT_STATUS(launch(j, 1, 0, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
                  IRON_EINVAL);
    ASSERT_MSG("fifo 'in' (consumer): depth 17; expected 1 to 16");
    assert_rejected_before_run(j, b);
    kn.x = 2;
    kn.y = -1;
    ASSERT_STATUS(launch(j, 1, 0, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
                  IRON_EINVAL);
    ASSERT_MSG("fifo 'out' (producer): depth -1; expected 1 to 16");
    assert_rejected_before_run(j, b);
    /* In range, and different per endpoint (1 + 15 buffers: the tile's
     * 16 buffer descriptors). */
    kn.x = 1;
    kn.y = 15;
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
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 4);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *ic = iron_fifo_cons(in);
    iron_handle_set_depth(ic, 2);
    iron_kernel *k = iron_kernel_new_core(d, "acq", acq_src,
                                          "fifo, fifo, int32, int32, int32");
    iron_worker_new(d, "greedy", k, 1,
                    IRON_ARGS(iron_arg_fifo_acquire(ic, 2),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(kn->x), iron_arg_int(kn->y),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1,
                  iron_tap_linear(iron_design_arg_numel(d, 1)), IRON_WAIT);
    return 0;
}

static iron_jit *acq_jit(knobs *kn)
{
    return jit_for(kn, acq_design, "acq", "in a: int32[N], out b: int32[M]",
                   NULL);
}

TEST_TIMEOUT(rule_core_acquire_more_than_endpoint_depth, 20)
{
    knobs kn = { 0 };
    iron_jit *j = acq_jit(&kn);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    kn.x = 3; /* > the consumer endpoint's 2 buffers (the fifo has 4) */
    kn.y = 1;
    for (int call = 0; call < 2; call++) {
        ASSERT_STATUS(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
               IRON_ERUNTIME);
        ASSERT_MSG("worker 'greedy' on tile (0,2): acquire(3) on fifo 'in' "
            "(consumer); the endpoint has 2 buffers (1 <= n <= depth)");
        ASSERT_MSG("acq (a: int32[64]");
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    }
    ASSERT_EQ(stats(j).builds, 1);
    /* acquire(0) is outside 1..depth too. */
    iron_jit_free(j);
    j = acq_jit(&kn);
    kn.x = 0;
    ASSERT_STATUS(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
           IRON_ERUNTIME);
    ASSERT_MSG(
        "worker 'greedy' on tile (0,2): acquire(0) on fifo 'in' (consumer)");
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    /* Taking exactly the endpoint's depth is fine: two objects in, the
     * first of each pair out. */
    iron_jit_free(j);
    j = acq_jit(&kn);
    kn.x = 2;
    kn.y = 2;
    iron_tensor *c = sentinel(IRON_INT32, 32);
    ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, c)));
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(at(c, i), i < 16 ? i : i + 16);
    iron_tensor_free(c);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    test_assert_no_leaks();
}

TEST_TIMEOUT(rule_core_release_more_than_held, 20)
{
    knobs kn = { 0 };
    iron_jit *j = acq_jit(&kn);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    kn.x = 1;
    kn.y = 2; /* holds 1, releases 2 */
    for (int call = 0; call < 2; call++) {
        ASSERT_STATUS(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
               IRON_ERUNTIME);
        ASSERT_MSG("worker 'greedy' on tile (0,2): release(2) on fifo 'in' "
            "(consumer), which holds 1");
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    }
    iron_jit_free(j);
    j = acq_jit(&kn);
    kn.y = -1;
    ASSERT_STATUS(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
           IRON_ERUNTIME);
    ASSERT_MSG("release(-1) on fifo 'in' (consumer), which holds 1");
    /* The run stopped before anything reached the output. */
    assert_untouched(b);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    test_assert_no_leaks();
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
    /* Per-endpoint depths, so the consumer gets exactly its 2 (one depth
     * would give it max acquire + 1 = 3). */
    iron_handle_set_depth(iron_fifo_prod(in), 3);
    iron_kernel *k =
        iron_kernel_new_core(d, "probe", probe_src, "fifo, fifo, int32");
    iron_worker_new(d, "probe", k, 1,
                    IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(in), 2),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(OBJ)));
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
    iron_kernel *k = iron_kernel_new_core(d, "pairs", pairs_src,
                                          "fifo, fifo, int32, int32");
    iron_worker_new(d, "win", k, 1,
                    IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(in), 2),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(8), iron_arg_int(objs)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n - 8),
                  IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(rule_core_sliding_window_order, 20)
{
    iron_jit *j = jit(pairs_design, "pairs", "in a, out b", NULL);
    iron_tensor *a = NULL, *b = sentinel(IRON_INT32, 56);
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(64), &a));
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
 * loop and reads it back to emit 2x + 1.  With kn->which set, a layout
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
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *lo = iron_fifo_new(d, "loop", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *lp = iron_fifo_prod(lo), *lc = iron_fifo_cons(lo);
    const int64_t sizes[2] = { 4, 4 }, strides[2] = { 1, 4 };
    if (kn->which == LOOP_DIMS_FROM)
        ASSERT_OK(iron_handle_set_dims(lc, 2, sizes, strides));
    if (kn->which == LOOP_DIMS_TO)
        ASSERT_OK(iron_handle_set_dims(lp, 2, sizes, strides));
    iron_kernel *k = iron_kernel_new_core(d, "loopback", loop_src,
                                          "fifo, fifo, fifo, fifo, int32");
    iron_worker_new(d, "both", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_fifo(lp), iron_arg_fifo(lc),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(rule_core_producer_and_consumer_on_one_tile, 20)
{
    knobs kn = { 0 };
    kn.which = LOOP_PLAIN;
    iron_jit *j = jit_for(&kn, loop_design, "loop", "in a, out b", NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(at(b, i), 2 * i + 1);
    }
    char *text = dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "loop: int32[16] x 2\n"
                          "    producer: worker 'both' @(0,2) buffers 2 "
                          "(declared depth 2, shared memory on compute tile "
                          "(0,2))\n"
                          "    consumer 0: worker 'both' @(0,2) buffers 2 "
                          "(declared depth 2, shared memory on compute tile "
                          "(0,2))");
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
    L_SPLIT_DEPTH_NEG,
    L_SPLIT_DEPTH_17,
    L_FORWARD_DEPTH_NEG,
};

/* int32[48] in objects of 24; each case makes one mistake with a link and
 * asserts the builder call's own status and message where it fails. */
static int link_design(iron_design *d, void *user)
{
    const knobs *kn = user;
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
    switch (kn->which) {
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
                        IRON_ARGS(iron_arg_fifo(ic),
                                  iron_arg_fifo(iron_fifo_prod(out)),
                                  iron_arg_int(24)));
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
    case L_SPLIT_DEPTH_NEG:
        s = iron_fifo_split(d, ic, 3, names, off, sh,
                            (const int[]){ 2, -1, 2 }, parts);
        break;
    case L_SPLIT_DEPTH_17:
        s = iron_fifo_split(d, ic, 3, names, off, sh,
                            (const int[]){ 0, 0, 17 }, parts);
        break;
    case L_FORWARD_DEPTH_NEG:
        if (!iron_fifo_forward(d, ic, "fwd", -2))
            s = iron_design_status(d);
        break;
    case L_SPLIT_UNCONSUMED_OUTPUT: {
        /* Three pieces, but only two ever get a consumer. */
        ASSERT_OK(iron_fifo_split(d, ic, 3, names, off, sh, NULL, parts));
        iron_fifo *outs[3];
        ASSERT_OK(iron_fifo_join(d, iron_fifo_prod(out), 3,
                                 (const char *const[]){ "q0", "q1", "q2" },
                                 off, sh, NULL, outs));
        for (int w = 0; w < 2; w++) {
            char nm[16];
            snprintf(nm, sizeof nm, "w%d", w);
            iron_worker_new(d, nm, k, 1,
                            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(parts[w])),
                                      iron_arg_fifo(iron_fifo_prod(outs[w])),
                                      iron_arg_int(8)));
        }
        iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(48));
        iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(48),
                      IRON_WAIT);
        return 0;
    }
    case L_FORWARD_UNUSED_CONSUMER: {
        iron_fifo *f = iron_fifo_forward(d, ic, "fwd", 0);
        iron_worker_new(d, "copy", k, 1,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f)),
                                  iron_arg_fifo(iron_fifo_prod(out)),
                                  iron_arg_int(24)));
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
    snprintf(test_errmsg, sizeof test_errmsg, "%s", iron_last_error());
    return 0;
}

static void link_case(knobs *kn, int which, iron_status want)
{
    kn->which = which;
    iron_jit *j = jit_for(kn, link_design, "links",
                          "in a: int32[48], out b: int32[48]", NULL);
    iron_tensor *a = arange(IRON_INT32, 48), *b = sentinel(IRON_INT32, 48);
    test_errmsg[0] = '\0';
    char inside[sizeof test_errmsg];
    iron_status s = iron_jit_launch(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                    IRON_TENSORS(a, b));
    snprintf(inside, sizeof inside, "%s", test_errmsg);
    ASSERT_STATUS(s, want);
    /* The builder call's own message is the one the jit reports. */
    if (inside[0])
        ASSERT_CONTAINS(test_errmsg, inside);
    assert_rejected_before_run(j, b);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(rule_link_split_sizes_must_tile_the_object)
{
    knobs kn = { 0 };
    link_case(&kn, L_SPLIT_SUM_SMALL, IRON_EDESIGN);
    ASSERT_MSG("split of fifo 'in': the pieces' sizes sum to 16 elements, the "
        "object has 24");
    link_case(&kn, L_SPLIT_OVERLAP, IRON_EDESIGN);
    ASSERT_MSG("split of fifo 'in': pieces 0 [0, 8) and 1 [4, 12) overlap");
    link_case(&kn, L_SPLIT_OUT_OF_RANGE, IRON_EDESIGN);
    ASSERT_MSG(
        "split of fifo 'in': piece 2 covers elements [20, 28), outside the "
        "24-element object");
    link_case(&kn, L_JOIN_SUM_LARGE, IRON_EDESIGN);
    ASSERT_MSG(
        "join of fifo 'out': piece 3 covers elements [24, 32), outside the "
        "24-element object");
    link_case(&kn, L_SPLIT_TOO_MANY, IRON_EDESIGN);
    ASSERT_MSG("split of fifo 'in' (consumer): 9 pieces; expected 1 to 8");
    test_assert_no_leaks();
}

TEST(rule_link_output_depths_in_range)
{
    knobs kn = { 0 };
    link_case(&kn, L_SPLIT_DEPTH_NEG, IRON_EINVAL);
    ASSERT_MSG(
        "split of fifo 'in' (consumer): piece 1's depth is -1; expected 0 "
        "(the handle's, 2) or 1 to 16");
    link_case(&kn, L_SPLIT_DEPTH_17, IRON_EINVAL);
    ASSERT_MSG("fifo 'p2': depth 17; expected 1 to 16");
    link_case(&kn, L_FORWARD_DEPTH_NEG, IRON_EINVAL);
    ASSERT_MSG("forward of fifo 'in' (consumer): piece 0's depth is -2");
    test_assert_no_leaks();
}

TEST(rule_link_split_takes_consumer_join_takes_producer)
{
    knobs kn = { 0 };
    link_case(&kn, L_SPLIT_PRODUCER, IRON_EDESIGN);
    ASSERT_MSG(
        "split of fifo 'in' (producer): a split takes a consumer handle");
    ASSERT_MSG("a producer handle cannot be split");
    link_case(&kn, L_JOIN_CONSUMER, IRON_EDESIGN);
    ASSERT_MSG(
        "join into fifo 'out' (consumer): a join takes the producer handle");
    ASSERT_MSG("a consumer handle cannot be joined");
}

TEST(rule_link_handle_already_used)
{
    knobs kn = { 0 };
    link_case(&kn, L_SPLIT_WORKER_HANDLE, IRON_EDESIGN);
    ASSERT_MSG("split of fifo 'in' (consumer): the handle is already used by "
        "worker 'copy'");
    link_case(&kn, L_FORWARD_RUNTIME_HANDLE, IRON_EDESIGN);
    ASSERT_MSG(
        "forward of fifo 'out' (consumer): the handle is already used by "
        "the runtime sequence");
    link_case(&kn, L_FORWARD_LINKED_HANDLE, IRON_EDESIGN);
    ASSERT_MSG(
        "forward of fifo 'in' (consumer): the handle is already used by a "
        "memtile link");
    link_case(&kn, L_FILL_LINKED_HANDLE, IRON_EDESIGN);
    ASSERT_MSG(
        "fill of fifo 'fwd' (producer): the handle is already used by a "
        "memtile link");
    test_assert_no_leaks();
}

TEST(rule_link_output_needs_a_consumer)
{
    knobs kn = { 0 };
    link_case(&kn, L_SPLIT_UNCONSUMED_OUTPUT, IRON_EDESIGN);
    ASSERT_MSG("links (a: int32[48], b: int32[48]; npu2, 8 columns): verify");
    ASSERT_MSG("fifo 'p2' has no consumer");
    link_case(&kn, L_FORWARD_UNUSED_CONSUMER, IRON_EDESIGN);
    ASSERT_MSG("fifo 'fwd' (consumer 1) is never used");
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
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(t)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(32)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_link_forward_changes_layout)
{
    iron_jit *j = jit(transpose_design, "transpose", "in a, out b", NULL);
    iron_tensor *a = arange(IRON_INT32, 96), *b = sentinel(IRON_INT32, 96);
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(IRON_CALL(j, a, b));
        for (int o = 0; o < 3; o++)
            for (int r = 0; r < 8; r++)
                for (int c = 0; c < 4; c++)
                    ASSERT_EQ(at(b, o * 32 + r * 4 + c), o * 32 + c * 8 + r);
    }
    char *text = dump(j, 0, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "forward on memtile (0,1): 'in' -> 't'");
    ASSERT_CONTAINS(text, "producer: memtile link 0 @(0,1) buffers 2 "
                          "(declared depth 2 on the memtile (0,1)) "
                          "dims_to_stream [(8, 1), (4, 8)]");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* ========================================================================
 * 3. Data layout transforms
 * ======================================================================== */

enum {
    D_WORKER_CONS,   /* dims_from_stream on the worker's input (compute) */
    D_WORKER_PROD,   /* dims_to_stream on the worker's output (compute) */
    D_FILL_PROD,     /* on the endpoint the runtime fills */
    D_DRAIN_CONS,    /* on the endpoint the runtime drains */
    D_MEMTILE_PROD,  /* on a forward's producer (memtile) */
};

static void set_dims(knobs *kn, int nd, const int64_t *sz,
                     const int64_t *st)
{
    kn->nd = nd;
    for (int i = 0; i < nd; i++) {
        kn->sz[i] = sz[i];
        kn->st[i] = st[i];
    }
}

/* T[n] -> (forward) -> worker 'copy' -> T[n], objects of 32 elements,
 * the transform kn->sz/kn->st on the endpoint kn->which names. */
static int dims_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", dt, IRON_SHAPE(32), 2);
    iron_fifo *out = iron_fifo_new(d, "out", dt, IRON_SHAPE(32), 2);
    iron_handle *fill = iron_fifo_prod(in), *src = iron_fifo_cons(in);
    iron_handle *drain = iron_fifo_cons(out), *op = iron_fifo_prod(out);
    iron_handle *on = kn->which == D_WORKER_CONS   ? src
                      : kn->which == D_WORKER_PROD ? op
                      : kn->which == D_FILL_PROD   ? fill
                      : kn->which == D_DRAIN_CONS  ? drain
                                                : NULL;
    if (kn->which == D_MEMTILE_PROD) {
        iron_fifo *fw = iron_fifo_forward(d, src, "fwd", 0);
        on = iron_fifo_prod(fw);
        src = iron_fifo_cons(fw);
    }
    iron_status s = iron_handle_set_dims(on, kn->nd, kn->sz, kn->st);
    if (kn->nd > IRON_TAP_MAX_DIMS) {
        /* Rejected where it is made: no tile has more than 4. */
        ASSERT_EQ(s, IRON_EDESIGN);
        snprintf(test_errmsg, sizeof test_errmsg, "%s", iron_last_error());
    } else {
        ASSERT_OK(s);  /* checked at verification, on its tile */
    }
    iron_worker_new(
        d, "copy", copy_kernel(d, dt), 1,
        IRON_ARGS(iron_arg_fifo(src), iron_arg_fifo(op), iron_arg_int(32)));
    iron_rt_fill(d, fill, 0, iron_tap_linear(n));
    iron_rt_drain(d, drain, 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* Runs dims_design on T[64] with the transform on endpoint `where`;
 * returns the status, with `out` left for checks (freed by the caller). */
static iron_status dims_run(knobs *kn, int where, iron_dtype dt,
                            iron_tensor **out, iron_jit **jout)
{
    kn->which = where;
    char args[64];
    snprintf(args, sizeof args, "in a: %s[64], out b: %s[64]",
             iron_dtype_name(dt), iron_dtype_name(dt));
    iron_jit *j = jit_for(kn, dims_design, "dims", args, NULL);
    iron_tensor *a = arange(dt, 64), *b = sentinel(dt, 64);
    iron_status s = launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b));
    if (s != IRON_OK)
        assert_rejected_before_run(j, b);
    iron_tensor_free(a);
    if (out)
        *out = b;
    else
        iron_tensor_free(b);
    if (jout)
        *jout = j;
    else
        iron_jit_free(j);
    return s;
}

TEST(rule_dims_at_most_3_on_compute_4_on_memtile)
{
    knobs kn = { 0 };
    const int64_t sz4[4] = { 2, 2, 2, 4 }, st4[4] = { 16, 8, 4, 1 };
    set_dims(&kn, 4, sz4, st4);
    /* Four on a compute tile's consumer: rejected at verification. */
    ASSERT_STATUS(dims_run(&kn, D_WORKER_CONS, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG(
        "dims (a: int32[64], b: int32[64]; npu2, 1 column): place: fifo "
        "'in' (consumer) on compute tile (0,2): dims_from_stream has 4 "
        "dimensions; at most 3 on this tile");
    ASSERT_STATUS(dims_run(&kn, D_WORKER_PROD, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG(
        "fifo 'out' (producer) on compute tile (0,2): dims_to_stream has 4 "
        "dimensions; at most 3 on this tile");
    /* Four on a memtile are fine, and run. */
    iron_tensor *b = NULL;
    ASSERT_OK(dims_run(&kn, D_MEMTILE_PROD, IRON_INT32, &b, NULL));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(at(b, i), i);
    iron_tensor_free(b);
    /* Five: no tile takes them, rejected by iron_handle_set_dims. */
    const int64_t sz5[5] = { 2, 2, 2, 2, 2 }, st5[5] = { 16, 8, 4, 2, 1 };
    set_dims(&kn, 5, sz5, st5);
    ASSERT_STATUS(dims_run(&kn, D_MEMTILE_PROD, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG(
        "fifo 'fwd' (producer): dims_to_stream has 5 dimensions; expected 1 "
        "to 4");
    ASSERT_MSG("dims (a: int32[64], b: int32[64]; npu2, 1 column): design");
}

TEST(rule_dims_visit_exactly_one_object)
{
    knobs kn = { 0 };
    /* 16 of the object's 32 elements. */
    set_dims(&kn, 2, (const int64_t[]){ 4, 4 }, (const int64_t[]){ 8, 1 });
    ASSERT_STATUS(dims_run(&kn, D_WORKER_CONS, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG(
        "fifo 'in' (consumer) on compute tile (0,2): dims_from_stream visits "
        "16 elements; an object has 32");
    /* 64 visits of a 32-element object, on a memtile. */
    set_dims(&kn, 2, (const int64_t[]){ 2, 32 }, (const int64_t[]){ 0, 1 });
    ASSERT_STATUS(dims_run(&kn, D_MEMTILE_PROD, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG(
        "fifo 'fwd' (producer) on memtile (0,1): dims_to_stream visits 64 "
        "elements; an object has 32");
    /* Reaching past the object: 3 * 9 + 7 = 34. */
    set_dims(&kn, 2, (const int64_t[]){ 4, 8 }, (const int64_t[]){ 9, 1 });
    ASSERT_STATUS(dims_run(&kn, D_WORKER_PROD, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG("fifo 'out' (producer) on compute tile (0,2): dims_to_stream "
        "dimension 0 (size 4, stride 9) reaches element 34; the object has "
        "32");
    /* Negative stride and zero size. */
    set_dims(&kn, 2, (const int64_t[]){ 4, 8 }, (const int64_t[]){ -8, 1 });
    ASSERT_STATUS(dims_run(&kn, D_WORKER_CONS, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG("dims_from_stream dimension 0 has stride -8");
    set_dims(&kn, 2, (const int64_t[]){ 0, 8 }, (const int64_t[]){ 8, 1 });
    ASSERT_STATUS(dims_run(&kn, D_WORKER_CONS, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG("dims_from_stream dimension 0 has size 0");
}

TEST(rule_dims_32bit_granularity)
{
    knobs kn = { 0 };
    /* int16: a transpose moves single 2-byte elements. */
    set_dims(&kn, 2, (const int64_t[]){ 16, 2 }, (const int64_t[]){ 1, 16 });
    ASSERT_STATUS(dims_run(&kn, D_WORKER_CONS, IRON_INT16, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG("fifo 'in' (consumer) on compute tile (0,2): dims_from_stream: "
        "int16 innermost stride is 16; with 2-byte elements it must be 1 "
        "(DMA addresses count 32-bit words)");
    /* int8: runs of 2 bytes, 4 bytes apart. */
    set_dims(&kn, 3, (const int64_t[]){ 2, 8, 2 },
             (const int64_t[]){ 2, 4, 1 });
    ASSERT_STATUS(dims_run(&kn, D_MEMTILE_PROD, IRON_INT8, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG("fifo 'fwd' (producer) on memtile (0,1): dims_to_stream: int8 "
        "innermost run is 2 elements (2 bytes); with 1-byte elements it must "
        "be a whole number of 4-byte words");
    /* int16 with a whole-word run and word strides is fine: swap the two
     * 16-element halves in runs of 4 elements (8 bytes). */
    set_dims(&kn, 3, (const int64_t[]){ 4, 2, 4 },
             (const int64_t[]){ 4, 16, 1 });
    iron_tensor *b = NULL;
    ASSERT_OK(dims_run(&kn, D_MEMTILE_PROD, IRON_INT16, &b, NULL));
    for (int o = 0; o < 2; o++)
        for (int r = 0; r < 4; r++)
            for (int h = 0; h < 2; h++)
                for (int e = 0; e < 4; e++)
                    ASSERT_EQ(at(b, o * 32 + r * 8 + h * 4 + e),
                              o * 32 + h * 16 + r * 4 + e);
    iron_tensor_free(b);
    /* For 4-byte types any innermost stride is a whole word. */
    set_dims(&kn, 2, (const int64_t[]){ 16, 2 }, (const int64_t[]){ 1, 16 });
    ASSERT_OK(dims_run(&kn, D_WORKER_CONS, IRON_INT32, &b, NULL));
    iron_tensor_free(b);
}

TEST(rule_dims_not_on_runtime_endpoints)
{
    knobs kn = { 0 };
    set_dims(&kn, 2, (const int64_t[]){ 8, 4 }, (const int64_t[]){ 1, 8 });
    ASSERT_STATUS(dims_run(&kn, D_FILL_PROD, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG("fifo 'in' (producer): a layout transform on an endpoint the "
        "runtime sequence uses; give the order with the fill's access "
        "pattern");
    ASSERT_STATUS(dims_run(&kn, D_DRAIN_CONS, IRON_INT32, NULL, NULL),
                  IRON_EDESIGN);
    ASSERT_MSG("fifo 'out' (consumer): a layout transform on an endpoint the "
        "runtime sequence uses; give the order with the drain's access "
        "pattern");
}

/* As upstream's lowering: a layout transform forces a DMA even between
 * two ends on one tile (requiresDMAs), so the consumer gets buffers of its
 * own instead of sharing the producer's. */
TEST(rule_dims_force_a_dma_on_one_tile)
{
    knobs kn = { 0 };
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    const int cases[] = { LOOP_DIMS_FROM, LOOP_DIMS_TO };
    for (int c = 0; c < 2; c++) {
        kn.which = cases[c];
        iron_jit *j = jit_for(&kn, loop_design, "loop", "in a, out b", NULL);
        char *text = NULL;
        ASSERT_OK(iron_jit_dump(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(a, b),
                                &text));
        ASSERT_CONTAINS(text, "fifo 'loop': compute tile (0,2) -> compute "
                              "tile (0,2)");
        ASSERT_CONTAINS(text, "buffers 2 (max acquire 1 + 1; declared "
                              "depth 2)");
        iron_free(text);
        ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_COMPLETED);
        iron_jit_free(j);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    test_assert_no_leaks();
}

/* ========================================================================
 * 4. Access patterns and the shim DMA's limits
 * ======================================================================== */

/* T[n] filled through kn->tap into objects of kn->x elements, copied by a
 * worker, drained linearly into the output (as many elements as the fill
 * moves).  The fill's own status and message are checked in place. */
static int tap_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", dt, IRON_SHAPE(kn->x), 2);
    iron_fifo *out = iron_fifo_new(d, "out", dt, IRON_SHAPE(kn->x), 2);
    iron_worker_new(d, "copy", copy_kernel(d, dt), 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(kn->x)));
    if (iron_rt_fill(d, iron_fifo_prod(in), 0, kn->tap) != IRON_OK) {
        snprintf(test_errmsg, sizeof test_errmsg, "%s", iron_last_error());
        return 0;
    }
    iron_rt_drain(d, iron_fifo_cons(out), 1,
                  iron_tap_linear(iron_design_arg_numel(d, 1)), IRON_WAIT);
    return 0;
}

/* Fills T[n_in] through `tap` (objects of obj); on success checks that
 * the output holds the tensor's elements in the pattern's order. */
static iron_status tap_run(knobs *kn, iron_dtype dt, int64_t n_in,
                           int64_t obj, iron_tap tap)
{
    kn->tap = tap;
    kn->x = obj;
    int64_t n_out = iron_tap_count(&tap);
    char args[96];
    snprintf(args, sizeof args, "in a: %s[%lld], out b: %s[%lld]",
             iron_dtype_name(dt), (long long)n_in, iron_dtype_name(dt),
             (long long)n_out);
    iron_jit *j = jit_for(kn, tap_design, "tap", args, NULL);
    iron_tensor *a = NULL, *b = sentinel(dt, n_out);
    ASSERT_OK(iron_tensor_arange(dt, 0, n_in, 1, &a));
    test_errmsg[0] = '\0';
    char inside[sizeof test_errmsg];
    iron_status s = iron_jit_launch(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                    IRON_TENSORS(a, b));
    snprintf(inside, sizeof inside, "%s", test_errmsg);
    test_keep(s);
    if (s != IRON_OK) {
        /* The fill's own message is what the jit reports. */
        ASSERT(inside[0] != '\0');
        ASSERT_CONTAINS(test_errmsg, inside);
        assert_rejected_before_run(j, b);
    } else {
        /* Element k of the output is the k-th element the pattern visits
         * (dtype wrap-around aside, the arange values are the indices). */
        int64_t idx[IRON_TAP_MAX_DIMS] = { 0 };
        for (int64_t k = 0; k < n_out; k++) {
            int64_t off = tap.offset;
            for (int dd = 0; dd < tap.ndim; dd++)
                off += idx[dd] * tap.strides[dd];
            double want = 0;
            ASSERT_OK(iron_tensor_get_element(a, off, &want));
            if (at(b, k) != want)
                TEST_FAIL_("element %lld: %g, expected %g", (long long)k,
                           at(b, k), want);
            for (int dd = tap.ndim - 1; dd >= 0; dd--) {
                if (++idx[dd] < tap.sizes[dd])
                    break;
                idx[dd] = 0;
            }
        }
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    return s;
}

static iron_tap tap4(int64_t off, int nd, const int64_t *sz, const int64_t *st)
{
    return iron_tap_make(off, nd, sz, st);
}

TEST(rule_tap_repeat_at_most_64)
{
    knobs kn = { 0 };
    /* Four dimensions: the outermost is the BD's repeat count. */
    const int64_t st[4] = { 0, 16, 4, 1 };
    ASSERT_STATUS(tap_run(&kn, IRON_INT32, 64, 8,
                   tap4(0, 4, (const int64_t[]){ 65, 2, 2, 2 }, st)),
           IRON_EBOUNDS);
    ASSERT_MSG(
        "fill of fifo 'in' (producer) from argument 0 ('a'): access pattern "
        "dimension 0 repeats 65 times; the shim DMA repeats at most 64");
    ASSERT_MSG("tap (a: int32[64], b: int32[520]");
    ASSERT_OK(tap_run(&kn, IRON_INT32, 64, 8,
                      tap4(0, 4, (const int64_t[]){ 64, 2, 2, 2 }, st)));
    /* Upstream's verifier: only the iteration dimension (d3) may have
     * stride 0, so a repeat is a repeat however many dimensions the
     * pattern has ... */
    ASSERT_STATUS(tap_run(&kn, IRON_INT32, 64, 4,
                          tap4(0, 3, (const int64_t[]){ 65, 2, 2 },
                               (const int64_t[]){ 0, 4, 1 })),
                  IRON_EBOUNDS);
    ASSERT_MSG("access pattern dimension 0 repeats 65 times; the shim DMA "
               "repeats at most 64");
    /* ... while a strided outermost loop of three goes to d2, which has
     * no size limit. */
    ASSERT_OK(tap_run(&kn, IRON_INT32, 260, 4,
                      tap4(0, 3, (const int64_t[]){ 65, 2, 2 },
                           (const int64_t[]){ 4, 2, 1 })));
}

TEST(rule_tap_strided_sizes_at_most_1023)
{
    knobs kn = { 0 };
    /* Innermost size 1024 with stride 2. */
    ASSERT_STATUS(tap_run(&kn, IRON_INT32, 2048, 16,
                   tap4(0, 2, (const int64_t[]){ 2, 1024 },
                        (const int64_t[]){ 1, 2 })),
           IRON_EBOUNDS);
    ASSERT_MSG(
        "fill of fifo 'in' (producer) from argument 0 ('a'): access pattern "
        "dimension 1 has size 1024 with stride 2; strided sizes are at most "
        "1023");
    ASSERT_OK(tap_run(&kn, IRON_INT32, 2048, 1023,
                      tap4(0, 2, (const int64_t[]){ 2, 1023 },
                           (const int64_t[]){ 1, 2 })));
    /* The second-innermost too (d1), once a third loop takes d2. */
    ASSERT_STATUS(tap_run(&kn, IRON_INT32, 270000, 16,
                   tap4(0, 3, (const int64_t[]){ 65, 1024, 2 },
                        (const int64_t[]){ 4100, 4, 1 })),
           IRON_EBOUNDS);
    ASSERT_MSG("size 1024 with stride 4; strided sizes are at most 1023");
    /* Two loops of 1024 x 2: upstream reads them right-aligned, as
     * [1, 1, 1024, 2], so the 1024 is d1 and too many; written with a
     * size-1 dimension between them it is d2, which has no limit. */
    ASSERT_STATUS(tap_run(&kn, IRON_INT32, 4096, 16,
                          tap4(0, 2, (const int64_t[]){ 1024, 2 },
                               (const int64_t[]){ 4, 1 })),
                  IRON_EBOUNDS);
    ASSERT_MSG("access pattern dimension 0 has size 1024 with stride 4; "
               "strided sizes are at most 1023 in the shim DMA's dimension "
               "d1");
    ASSERT_MSG("written with size-1 dimensions as [1, 1024, 1, 2]");
    ASSERT_OK(tap_run(&kn, IRON_INT32, 4096, 16,
                      tap4(0, 3, (const int64_t[]){ 1024, 1, 2 },
                           (const int64_t[]){ 4, 0, 1 })));
    /* A contiguous innermost run counts 32-bit words: 4100 int8 = 1025,
     * too many once the transfer is not one linear run. */
    ASSERT_STATUS(tap_run(&kn, IRON_INT8, 60000, 4100,
                   tap4(0, 3, (const int64_t[]){ 2, 2, 4100 },
                        (const int64_t[]){ 20000, 8192, 1 })),
           IRON_EBOUNDS);
    ASSERT_MSG("has size 4100 with stride 1 (1025 32-bit words of int8); "
               "strided sizes are at most 1023 words");
    /* One contiguous run is a plain length: no limit. */
    ASSERT_OK(tap_run(&kn, IRON_INT32, 4096, 16, iron_tap_linear(4096)));
}

TEST(rule_tap_stride_at_most_2_20_words)
{
    knobs kn = { 0 };
    const int64_t big = ((int64_t)1 << 20) + 16;
    ASSERT_STATUS(tap_run(&kn, IRON_INT32, big + 16, 16,
                   tap4(0, 2, (const int64_t[]){ 2, 16 },
                        (const int64_t[]){ big, 1 })),
           IRON_EBOUNDS);
    ASSERT_MSG(
        "fill of fifo 'in' (producer) from argument 0 ('a'): access pattern "
        "stride 1048592 words exceeds 2^20 (dimension 0: stride 1048592 "
        "int32 elements)");
    /* 2^20 words exactly is the limit, and runs. */
    ASSERT_OK(tap_run(&kn, IRON_INT32, big + 16, 16,
                      tap4(0, 2, (const int64_t[]){ 2, 16 },
                           (const int64_t[]){ (int64_t)1 << 20, 1 })));
}

TEST(rule_tap_offsets_in_whole_words)
{
    knobs kn = { 0 };
    ASSERT_STATUS(tap_run(&kn, IRON_INT8, 128, 64,
                   tap4(3, 1, (const int64_t[]){ 64 },
                        (const int64_t[]){ 1 })),
           IRON_EBOUNDS);
    ASSERT_MSG(
        "fill of fifo 'in' (producer) from argument 0 ('a'): access pattern "
        "offset of 3 bytes is not a multiple of 4 (offset 3 int8 elements)");
    ASSERT_STATUS(tap_run(&kn, IRON_INT16, 128, 32,
                   tap4(1, 1, (const int64_t[]){ 64 },
                        (const int64_t[]){ 1 })),
           IRON_EBOUNDS);
    ASSERT_MSG(
        "access pattern offset of 2 bytes is not a multiple of 4 (offset 1 "
        "int16 elements)");
    /* Byte strides in whole words as well: int16 rows 3 elements apart. */
    ASSERT_STATUS(tap_run(&kn, IRON_INT16, 128, 32,
                   tap4(0, 2, (const int64_t[]){ 8, 4 },
                        (const int64_t[]){ 3, 1 })),
           IRON_EBOUNDS);
    ASSERT_MSG("stride of 6 bytes is not a multiple of 4");
    /* Whole words run: int16 offset 2, int8 offset 4. */
    ASSERT_OK(tap_run(&kn, IRON_INT16, 128, 32,
                      tap4(2, 1, (const int64_t[]){ 64 },
                           (const int64_t[]){ 1 })));
    ASSERT_OK(tap_run(&kn, IRON_INT8, 128, 64,
                      tap4(4, 1, (const int64_t[]){ 64 },
                           (const int64_t[]){ 1 })));
}

TEST(rule_tap_tiler_inputs_and_limits)
{
    knobs kn = { 0 };
    iron_tiler2d t = { .size = sizeof t, .rows = 8, .cols = 12,
                       .tile_rows = 2, .tile_cols = 3, .group_rows = 1,
                       .group_cols = 2 };
    iron_tap tap;
    int64_t count = 0;
    /* Invalid inputs. */
    t.tile_rows = 3;
    ASSERT_FAILS(iron_tiler2d_count(&t, &count), IRON_EINVAL,
                 "iron_tiler2d.tile_rows (3) does not divide rows (8)");
    t.tile_rows = 2;
    t.group_cols = 3;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL,
                 "iron_tiler2d.group_cols (3) does not divide the 4 tile "
                 "columns");
    t.group_cols = 2;
    t.repeat = -1;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL,
                 "iron_tiler2d.repeat is -1");
    t.repeat = 0;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 8, &tap), IRON_EINVAL,
                 "group index 8 is outside 0 to 7");
    t.group_rows = 2;
    t.repeat = 2;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_ENOTSUP,
                 "an access pattern has at most 4");
    /* The tiler refuses a repeat the shim cannot do (65) at once; a
     * pattern made by hand meets the same limit when it is used. */
    t.group_rows = 1;
    t.repeat = 65;
    ASSERT_FAILS(iron_tiler2d_tap(&t, 0, &tap), IRON_EINVAL,
                 "iron_tiler2d.repeat is 65; expected 0 (meaning 1) to 64");
    t.repeat = 64;
    ASSERT_OK(iron_tiler2d_tap(&t, 0, &tap));
    ASSERT_EQ(tap.ndim, 4);
    tap.sizes[0] = 65;
    ASSERT_STATUS(tap_run(&kn, IRON_INT32, 96, 12, tap), IRON_EBOUNDS);
    ASSERT_MSG(
        "access pattern dimension 0 repeats 65 times; the shim DMA repeats "
        "at most 64");
    /* 64 repeats run, in the tiler's order. */
    t.repeat = 64;
    ASSERT_OK(iron_tiler2d_tap(&t, 1, &tap));
    ASSERT_OK(tap_run(&kn, IRON_INT32, 96, 12, tap));
}

/* ========================================================================
 * 5. Workers: placement, barriers, kernel kinds
 * ======================================================================== */

/* A chain of kn->x workers each adding 1; worker i is pinned to the tile
 * in kn->pin[i] when its column is >= 0. */
static void no_pins(knobs *kn)
{
    for (int i = 0; i < 24; i++)
        kn->pin[i][0] = kn->pin[i][1] = -1;
}

static int chain_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    iron_fifo *f[25];
    for (int s = 0; s <= kn->x; s++) {
        char nm[16];
        snprintf(nm, sizeof nm, "f%d", s);
        f[s] = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
    }
    for (int s = 0; s < kn->x; s++) {
        char nm[16];
        snprintf(nm, sizeof nm, "w%d", s);
        iron_worker *w =
            iron_worker_new(d, nm, k, 1,
                            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f[s])),
                                      iron_arg_fifo(iron_fifo_prod(f[s + 1])),
                                      iron_arg_int(OBJ)));
        if (kn->pin[s][0] >= 0 &&
            iron_worker_place(w, kn->pin[s][0], kn->pin[s][1]) != IRON_OK) {
            snprintf(test_errmsg, sizeof test_errmsg, "%s", iron_last_error());
            return 0;
        }
    }
    iron_rt_fill(d, iron_fifo_prod(f[0]), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(f[kn->x]), 1, iron_tap_linear(n),
                  IRON_WAIT);
    return 0;
}

/* Runs a chain of `workers` on `cols` columns of the current device. */
static iron_status chain_run(knobs *kn, int workers, int cols, char **text)
{
    kn->x = workers;
    iron_jit *j = jit_for(kn, chain_design, "chain",
                      "in a: int32[N], out b: int32[N]", NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    test_errmsg[0] = '\0';
    char inside[sizeof test_errmsg];
    iron_launch_config c = { .size = sizeof c, .cols = cols };
    iron_status s = iron_jit_launch(j, &c, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                    IRON_TENSORS(a, b));
    snprintf(inside, sizeof inside, "%s", test_errmsg);
    test_keep(s);
    if (s == IRON_OK) {
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(at(b, i), i + workers);
        if (text)
            *text = dump(j, cols, IRON_TENSORS(a, b));
    } else {
        if (inside[0])
            ASSERT_CONTAINS(test_errmsg, inside);
        assert_rejected_before_run(j, b);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    return s;
}

TEST(rule_worker_pinned_inside_the_granted_compute_tiles)
{
    knobs kn = { 0 };
    no_pins(&kn);
    kn.pin[0][0] = 1; /* column 1 of a 1-column launch */
    kn.pin[0][1] = 2;
    ASSERT_STATUS(chain_run(&kn, 1, 1, NULL), IRON_ERESOURCE);
    ASSERT_MSG(
        "worker 'w0': tile (1,2) is not a compute tile of the granted array "
        "(columns 0..0, compute rows 2..5)");
    ASSERT_MSG("chain (a: int32[64], b: int32[64]; npu2, 1 column): design");
    kn.pin[0][0] = 0;
    kn.pin[0][1] = 1; /* the memtile row */
    ASSERT_STATUS(chain_run(&kn, 1, 1, NULL), IRON_ERESOURCE);
    ASSERT_MSG("worker 'w0': tile (0,1) is not a compute tile");
    kn.pin[0][1] = 0; /* the shim */
    ASSERT_STATUS(chain_run(&kn, 1, 2, NULL), IRON_ERESOURCE);
    ASSERT_MSG(
        "worker 'w0': tile (0,0) is not a compute tile of the granted array "
        "(columns 0..1, compute rows 2..5)");
    kn.pin[0][1] = 6; /* past the last compute row */
    ASSERT_STATUS(chain_run(&kn, 1, 1, NULL), IRON_ERESOURCE);
    ASSERT_MSG("tile (0,6) is not a compute tile");
    no_pins(&kn);
    kn.pin[0][0] = 3;
    kn.pin[0][1] = 5;
    ASSERT_OK(chain_run(&kn, 1, 4, NULL)); /* the corner of a 4-column grant */
    IRON_WITH_DEVICE("npu1_2col")
    {
        ASSERT_STATUS(chain_run(&kn, 1, 0, NULL), IRON_ERESOURCE);
    }
    ASSERT_MSG(
        "worker 'w0': tile (3,5) is not a compute tile of the granted array "
        "(columns 0..1");
}

TEST(rule_worker_two_pinned_on_one_tile)
{
    knobs kn = { 0 };
    no_pins(&kn);
    kn.pin[0][0] = kn.pin[2][0] = 0;
    kn.pin[0][1] = kn.pin[2][1] = 3;
    ASSERT_STATUS(chain_run(&kn, 3, 1, NULL), IRON_ERESOURCE);
    ASSERT_MSG("worker 'w2': tile (0,3) is already taken by worker 'w0'");
}

TEST(rule_worker_unplaced_avoid_pinned_tiles)
{
    knobs kn = { 0 };
    no_pins(&kn);
    kn.pin[1][0] = 0; /* the middle worker takes the first tile */
    kn.pin[1][1] = 2;
    kn.pin[3][0] = 0;
    kn.pin[3][1] = 3;
    char *text = NULL;
    ASSERT_OK(chain_run(&kn, 4, 1, &text));
    ASSERT_CONTAINS(text, "w0: kernel 'add1' x 1 on tile (0,4)\n");
    ASSERT_CONTAINS(text, "w1: kernel 'add1' x 1 on tile (0,2) (pinned)\n");
    ASSERT_CONTAINS(text, "w2: kernel 'add1' x 1 on tile (0,5)\n");
    ASSERT_CONTAINS(text, "w3: kernel 'add1' x 1 on tile (0,3) (pinned)\n");
    iron_free(text);
    /* Over two columns the others still fill column 0 first, around
     * the pin (upstream's SequentialPlacer order). */
    no_pins(&kn);
    kn.pin[2][0] = 0;
    kn.pin[2][1] = 2;
    ASSERT_OK(chain_run(&kn, 3, 2, &text));
    ASSERT_CONTAINS(text, "w0: kernel 'add1' x 1 on tile (0,3)\n");
    ASSERT_CONTAINS(text, "w1: kernel 'add1' x 1 on tile (0,4)\n");
    ASSERT_CONTAINS(text, "w2: kernel 'add1' x 1 on tile (0,2) (pinned)\n");
    iron_free(text);
}

/* iron_worker_place(w, col, -1): the placer picks the row in that
 * column (upstream places a tile given by its column alone); column
 * pins take their column's free tiles before unpinned workers are
 * placed (it was refused). */
TEST(rule_worker_pinned_to_a_column_only)
{
    knobs kn = { 0 };
    no_pins(&kn);
    kn.pin[2][0] = 1;
    kn.pin[2][1] = -1;
    char *text = NULL;
    ASSERT_OK(chain_run(&kn, 3, 2, &text));
    ASSERT_CONTAINS(text, "w0: kernel 'add1' x 1 on tile (0,2)\n");
    ASSERT_CONTAINS(text, "w1: kernel 'add1' x 1 on tile (0,3)\n");
    ASSERT_CONTAINS(text, "w2: kernel 'add1' x 1 on tile (1,2) (pinned to "
                          "its column)\n");
    iron_free(text);
    /* Column pins come before the unpinned workers, from row 2 up, and
     * around a worker pinned to a tile of the column. */
    no_pins(&kn);
    kn.pin[4][0] = kn.pin[5][0] = 0;
    kn.pin[4][1] = kn.pin[5][1] = -1;
    kn.pin[3][0] = 0;
    kn.pin[3][1] = 2;
    ASSERT_OK(chain_run(&kn, 6, 2, &text));
    ASSERT_CONTAINS(text, "w3: kernel 'add1' x 1 on tile (0,2) (pinned)\n");
    ASSERT_CONTAINS(text, "w4: kernel 'add1' x 1 on tile (0,3) (pinned to "
                          "its column)\n");
    ASSERT_CONTAINS(text, "w5: kernel 'add1' x 1 on tile (0,4) (pinned to "
                          "its column)\n");
    ASSERT_CONTAINS(text, "w0: kernel 'add1' x 1 on tile (0,5)\n");
    ASSERT_CONTAINS(text, "w1: kernel 'add1' x 1 on tile (1,2)\n");
    ASSERT_CONTAINS(text, "w2: kernel 'add1' x 1 on tile (1,3)\n");
    iron_free(text);
}

TEST(rule_worker_column_pin_outside_or_full)
{
    knobs kn = { 0 };
    no_pins(&kn);
    /* A column outside the grant names the granted columns. */
    kn.pin[0][0] = 2;
    kn.pin[0][1] = -1;
    ASSERT_STATUS(chain_run(&kn, 1, 2, NULL), IRON_ERESOURCE);
    ASSERT_MSG("worker 'w0': column 2 is not a column of the granted array "
               "(columns 0..1)");
    /* Any other negative row is not a row. */
    kn.pin[0][0] = 0;
    kn.pin[0][1] = -2;
    ASSERT_STATUS(chain_run(&kn, 1, 2, NULL), IRON_ERESOURCE);
    ASSERT_MSG("worker 'w0': tile (0,-2) is not a compute tile of the "
               "granted array (columns 0..1, compute rows 2..5); row -1 pins "
               "the column only");
    /* A fifth worker pinned to a column of four compute tiles names the
     * four, and the columns with tiles free. */
    no_pins(&kn);
    for (int i = 0; i < 4; i++) {
        kn.pin[i][0] = 0;
        kn.pin[i][1] = i == 1 ? 3 : -1;
    }
    kn.pin[4][0] = 0;
    kn.pin[4][1] = -1;
    ASSERT_STATUS(chain_run(&kn, 5, 2, NULL), IRON_ERESOURCE);
    ASSERT_MSG("worker 'w4': column 0 is full: its 4 compute tiles (rows "
               "2..5) are held by the workers pinned to it, 'w0' (column 0), "
               "'w1' (0,3), 'w2' (column 0), and 'w3' (column 0); columns "
               "with a compute tile free: 1 (4 free)");
    /* A tile pin into a column its column pins fill: the same. */
    kn.pin[4][1] = 5;
    ASSERT_STATUS(chain_run(&kn, 5, 1, NULL), IRON_ERESOURCE);
    ASSERT_MSG("worker 'w4': column 0 is full");
    ASSERT_MSG("columns with a compute tile free: none");
}

/* A core body that waits on barrier 'go' for kn->x, then moves one object
 * per call adding kn->x; the sequence sets the barrier to kn->y first (kn->y
 * < 0: never). */
static const char gated_src[] =
    "#include <stdint.h>\n"
    "void gated(iron_objfifo *in, iron_objfifo *out, iron_barrier *go,\n"
    "           int32_t need, int32_t n)\n"
    "{\n"
    "    for (;;) {\n"
    "        iron_barrier_wait(go, need);\n"
    "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        for (int32_t i = 0; i < n; i++)\n"
    "            y[i] = x[i] + need;\n"
    "        iron_release(out, 1);\n"
    "        iron_release(in, 1);\n"
    "    }\n"
    "}\n";

static int gated_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_barrier *go = iron_barrier_new(d, "go");
    if (kn->init)
        iron_barrier_set_initial(go, kn->init);
    iron_kernel *k = iron_kernel_new_core(d, "gated", gated_src,
                                          "fifo, fifo, barrier, int32, int32");
    iron_worker_new(d, "gated", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_barrier(go), iron_arg_int(kn->x),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(OBJ));
    if (kn->y >= 0)
        iron_rt_set_barrier(d, go, (int)kn->y);
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(OBJ),
                  IRON_WAIT);
    return 0;
}

static iron_status gated_run(knobs *kn, int need, int set, int calls)
{
    kn->x = need;
    kn->y = set;
    iron_jit *j = jit_for(kn, gated_design, "gated",
                      "in a: int32[16], out b: int32[16]", NULL);
    iron_tensor *a = arange(IRON_INT32, OBJ), *b = sentinel(IRON_INT32, OBJ);
    iron_status s = IRON_OK;
    for (int c = 0; c < calls && s == IRON_OK; c++) {
        s = launch(j, 1, 3000, IRON_NO_PARAMS, IRON_TENSORS(a, b));
        if (s == IRON_OK)
            for (int i = 0; i < OBJ; i++)
                ASSERT_EQ(at(b, i), i + need);
        else
            ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    }
    if (s == IRON_OK)
        ASSERT_EQ(stats(j).builds, 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    return s;
}

TEST_TIMEOUT(rule_core_barrier_never_set_deadlocks, 20)
{
    knobs kn = { 0 };
    ASSERT_STATUS(gated_run(&kn, 1, -1, 1), IRON_EDEADLOCK);
    ASSERT_MSG(
        "gated (a: int32[16], b: int32[16]; npu2, 1 column): no task can "
        "make progress");
    ASSERT_MSG(
        "worker 'gated' on tile (0,2) waits for barrier 'go' to hold 1 (it "
        "holds 0)");
    ASSERT_MSG("1 awaited drain");
    /* Set, but below what the body waits for. */
    ASSERT_STATUS(gated_run(&kn, 63, 62, 1), IRON_EDEADLOCK);
    ASSERT_MSG("waits for barrier 'go' to hold 63 (it holds 62)");
    /* Acquire-equal (upstream's wait_for_value): more is not enough. */
    ASSERT_STATUS(gated_run(&kn, 5, 63, 1), IRON_EDEADLOCK);
    ASSERT_MSG("waits for barrier 'go' to hold 5 (it holds 63)");
    test_assert_no_leaks();
}

TEST_TIMEOUT(rule_barrier_gates_a_core_body, 30)
{
    knobs kn = { 0 };
    /* Values 0..63: the body goes once the sequence sets what it waits
     * for, call after call (the sequence sets it again each call). */
    ASSERT_OK(gated_run(&kn, 0, 0, 2));
    ASSERT_OK(gated_run(&kn, 1, 1, 3));
    ASSERT_OK(gated_run(&kn, 63, 63, 3));
    /* The wait leaves the lock as it is: with the barrier's initial value
     * 1 and no set_barrier at all, the body passes every iteration of
     * every call (upstream's wait_for_value(1) in a while_true loop). */
    kn.init = 1;
    ASSERT_OK(gated_run(&kn, 1, -1, 3));
    kn.init = 0;
}

TEST(rule_barrier_initial_value_range)
{
    knobs kn = { 0 };
    const int bad[] = { 64, -1 };
    iron_tensor *a = arange(IRON_INT32, OBJ), *b = sentinel(IRON_INT32, OBJ);
    for (int i = 0; i < 2; i++) {
        kn.init = bad[i];
        kn.x = 1;
        kn.y = -1;
        iron_jit *j = jit_for(&kn, gated_design, "gated",
                          "in a: int32[16], out b: int32[16]", NULL);
        ASSERT_STATUS(launch(j, 1, 3000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
                      IRON_EINVAL);
        char want[96];
        snprintf(want, sizeof want,
                 "barrier 'go': initial value %d; a lock holds 0..63", bad[i]);
        ASSERT_MSG(want);
        assert_rejected_before_run(j, b);
        iron_jit_free(j);
    }
    kn.init = 0;
    ASSERT_STATUS(iron_barrier_set_initial(NULL, 1), IRON_EINVAL);
    ASSERT_MSG("iron_barrier_set_initial: barrier is NULL");
    iron_tensor_free(a);
    iron_tensor_free(b);
}

/* A core body that waits for or releases an out-of-range value. */
static const char bad_barrier_src[] =
    "#include <stdint.h>\n"
    "void bad_barrier(iron_objfifo *in, iron_objfifo *out,\n"
    "                 iron_barrier *go, int32_t wait, int32_t add)\n"
    "{\n"
    "    iron_barrier_release(go, add);\n"
    "    iron_barrier_wait(go, wait);\n"
    "    for (;;) {\n"
    "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        y[0] = x[0];\n"
    "        iron_release(out, 1);\n"
    "        iron_release(in, 1);\n"
    "    }\n"
    "}\n";

static int bad_barrier_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(1), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(1), 2);
    iron_barrier *go = iron_barrier_new(d, "go");
    iron_kernel *k = iron_kernel_new_core(d, "bad_barrier", bad_barrier_src,
                                          "fifo, fifo, barrier, int32, int32");
    iron_worker_new(d, "bb", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_barrier(go), iron_arg_int(kn->x),
                              iron_arg_int(kn->y)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(4));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(4), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(rule_core_barrier_values_0_to_63, 20)
{
    knobs kn = { 0 };
    iron_tensor *a = arange(IRON_INT32, 4), *b = sentinel(IRON_INT32, 4);
    kn.x = 64;
    kn.y = 0;
    iron_jit *j = jit_for(&kn, bad_barrier_design, "bb", "in a, out b", NULL);
    ASSERT_STATUS(launch(j, 1, 3000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
           IRON_ERUNTIME);
    ASSERT_MSG(
        "worker 'bb' on tile (0,2): waits for value 64 on barrier 'go'; a "
        "lock holds 0..63");
    ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    iron_jit_free(j);
    kn.x = 0;
    kn.y = 64;
    j = jit_for(&kn, bad_barrier_design, "bb", "in a, out b", NULL);
    ASSERT_STATUS(launch(j, 1, 3000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
           IRON_ERUNTIME);
    ASSERT_MSG(
        "worker 'bb' on tile (0,2): releasing 64 on barrier 'go' (at 0) "
        "passes the lock's maximum 63");
    iron_jit_free(j);
    /* 63 released and 63 waited for is fine. */
    kn.x = 63;
    kn.y = 63;
    j = jit_for(&kn, bad_barrier_design, "bb", "in a, out b", NULL);
    ASSERT_OK(launch(j, 1, 3000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(at(b, i), i);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    test_assert_no_leaks();
}

/* A core body that returns after one object while the sequence awaits
 * two: the report says it has returned. */
static const char once_src[] =
    "#include <stdint.h>\n"
    "void once(iron_objfifo *in, iron_objfifo *out, int32_t n)\n"
    "{\n"
    "    int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "    int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = x[i];\n"
    "    iron_release(out, 1);\n"
    "    iron_release(in, 1);\n"
    "}\n";

static int once_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k =
        iron_kernel_new_core(d, "once", once_src, "fifo, fifo, int32");
    iron_worker_new(d, "once", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(rule_core_body_that_returns_is_reported, 20)
{
    iron_jit *j = jit(once_design, "once", "in a, out b", NULL);
    iron_tensor *a = arange(IRON_INT32, 2 * OBJ);
    iron_tensor *b = sentinel(IRON_INT32, 2 * OBJ);
    for (int call = 0; call < 2; call++) {
        ASSERT_STATUS(launch(j, 1, 3000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
               IRON_EDEADLOCK);
        ASSERT_MSG(
            "worker 'once' on tile (0,2) has returned from its core body");
        ASSERT_MSG("drain of argument 1 'b': 16 of 32 elements moved");
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_ERROR);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

enum { K_FIFO_IN_KERNEL, K_BARRIER_IN_KERNEL, K_BARRIER_TO_KERNEL,
       K_SCALAR_TO_FIFO, K_RTP_TO_FIFO, K_HANDLE_TO_BARRIER };

static const char scale_src[] = "#include <stdint.h>\n"
                                "void scale(const int32_t *in, int32_t *out, "
                                "const int32_t *f, int32_t n)\n"
                                "{\n"
                                "    for (int32_t i = 0; i < n; i++)\n"
                                "        out[i] = in[i] * f[0];\n"
                                "}\n";

static int kinds_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *ic = iron_fifo_cons(in), *op = iron_fifo_prod(out);
    iron_barrier *go = iron_barrier_new(d, "go");
    iron_rtp *r = iron_rtp_new(d, "factor", IRON_INT32, 1);
    switch (kn->which) {
    case K_FIFO_IN_KERNEL:
        ASSERT(iron_kernel_new(d, "gated", gated_src,
                               "fifo, fifo, barrier, int32, int32") == NULL);
        break;
    case K_BARRIER_IN_KERNEL:
        ASSERT(iron_kernel_new(d, "scale", scale_src,
                               "int32*, int32*, barrier, int32") == NULL);
        break;
    case K_BARRIER_TO_KERNEL: {
        iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                         "int32*, int32*, int32*, int32");
        ASSERT(iron_worker_new(d, "scale", k, 1,
                               IRON_ARGS(iron_arg_fifo(ic), iron_arg_fifo(op),
                                         iron_arg_barrier(go),
                                         iron_arg_int(OBJ))) == NULL);
        break;
    }
    case K_SCALAR_TO_FIFO:
    case K_RTP_TO_FIFO:
    case K_HANDLE_TO_BARRIER: {
        iron_kernel *k = iron_kernel_new_core(
            d, "gated", gated_src, "fifo, fifo, barrier, int32, int32");
        iron_arg a0 = kn->which == K_SCALAR_TO_FIFO ? iron_arg_int(3)
                      : kn->which == K_RTP_TO_FIFO  ? iron_arg_rtp(r)
                                                 : iron_arg_fifo(ic);
        iron_arg a2 = kn->which == K_HANDLE_TO_BARRIER
                          ? iron_arg_fifo(iron_fifo_cons(in))
                          : iron_arg_barrier(go);
        ASSERT(iron_worker_new(d, "gated", k, 1,
                               IRON_ARGS(a0, iron_arg_fifo(op), a2,
                                         iron_arg_int(1),
                                         iron_arg_int(OBJ))) == NULL);
        break;
    }
    }
    snprintf(test_errmsg, sizeof test_errmsg, "%s", iron_last_error());
    return 0;
}

static void kinds_case(knobs *kn, int which, iron_status want)
{
    kn->which = which;
    iron_jit *j = jit_for(kn, kinds_design, "kinds",
                      "in a: int32[16], out b: int32[16]", NULL);
    iron_tensor *a = arange(IRON_INT32, OBJ), *b = sentinel(IRON_INT32, OBJ);
    char inside[sizeof test_errmsg];
    test_errmsg[0] = '\0';
    iron_status s = IRON_CALL(j, a, b);
    snprintf(inside, sizeof inside, "%s", test_errmsg);
    ASSERT_STATUS(s, want);
    ASSERT(inside[0] != '\0');
    ASSERT_CONTAINS(test_errmsg, inside);
    assert_rejected_before_run(j, b);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(rule_worker_fifo_and_barrier_only_in_core_bodies)
{
    knobs kn = { 0 };
    kinds_case(&kn, K_FIFO_IN_KERNEL, IRON_EDESIGN);
    ASSERT_MSG(
        "kernel 'gated': argument 0 is declared 'fifo', which only core "
        "bodies take (iron_kernel_new_core)");
    kinds_case(&kn, K_BARRIER_IN_KERNEL, IRON_EDESIGN);
    ASSERT_MSG(
        "kernel 'scale': argument 2 is declared 'barrier', which only core "
        "bodies take");
    kinds_case(&kn, K_BARRIER_TO_KERNEL, IRON_EDESIGN);
    ASSERT_MSG(
        "worker 'scale': argument 2 is barrier 'go', but 'scale' declares "
        "int32* there (only core bodies take barriers)");
    kinds_case(&kn, K_SCALAR_TO_FIFO, IRON_EDESIGN);
    ASSERT_MSG("worker 'gated': argument 0 is a scalar, but core body 'gated' "
        "declares fifo there (pass a fifo handle)");
    kinds_case(&kn, K_RTP_TO_FIFO, IRON_EDTYPE);
    ASSERT_MSG(
        "worker 'gated': argument 0 is run-time parameter buffer 'factor' "
        "of int32, but 'gated' declares fifo there");
    kinds_case(&kn, K_HANDLE_TO_BARRIER, IRON_EDESIGN);
    ASSERT_MSG(
        "worker 'gated': argument 2 is fifo 'in' (consumer 1), but core "
        "body 'gated' declares barrier there (declare 'fifo' for a handle)");
    test_assert_no_leaks();
}

/* ========================================================================
 * 6. The runtime sequence: task groups, run-time parameters, barriers
 * ======================================================================== */

enum {
    S_GROUP_OPEN,
    S_GROUP_NESTED,
    S_GROUP_FINISH_UNOPENED,
    S_RTP_INDEX_HIGH,
    S_RTP_INDEX_NEG,
    S_BARRIER_HIGH,
    S_BARRIER_NEG,
    S_RTP_UNUSED,
    S_BARRIER_UNUSED,
};

/* in -> worker 'scale' (out = in * factor[0]) -> out, with one mistake in
 * the sequence per case. */
static int seq_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_rtp *r = iron_rtp_new(d, "factor", IRON_INT32, 4);
    iron_rtp *spare = iron_rtp_new(d, "spare", IRON_INT32, 1);
    iron_barrier *go = iron_barrier_new(d, "go");
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int32*, int32*, int32*, int32");
    iron_worker_new(d, "scale", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_rtp(r), iron_arg_int(OBJ)));
    iron_status s = IRON_OK;
    switch (kn->which) {
    case S_GROUP_NESTED:
        ASSERT_OK(iron_rt_task_group_begin(d));
        s = iron_rt_task_group_begin(d);
        break;
    case S_GROUP_FINISH_UNOPENED:
        ASSERT_OK(iron_rt_task_group_begin(d));
        ASSERT_OK(iron_rt_task_group_end(d));
        s = iron_rt_task_group_end(d);
        break;
    case S_RTP_INDEX_HIGH:
        s = iron_rt_set_rtp(d, r, 4, 1.0);
        break;
    case S_RTP_INDEX_NEG:
        s = iron_rt_set_rtp(d, r, -1, 1.0);
        break;
    case S_BARRIER_HIGH:
        s = iron_rt_set_barrier(d, go, 64);
        break;
    case S_BARRIER_NEG:
        s = iron_rt_set_barrier(d, go, -1);
        break;
    case S_RTP_UNUSED:
        ASSERT_OK(iron_rt_set_rtp(d, spare, 0, 2.0));
        break;
    case S_BARRIER_UNUSED:
        ASSERT_OK(iron_rt_set_barrier(d, go, 1));
        break;
    }
    if (s != IRON_OK)
        snprintf(test_errmsg, sizeof test_errmsg, "%s", iron_last_error());
    iron_rt_set_rtp(d, r, 0, 2.0);
    if (kn->which == S_GROUP_OPEN)
        iron_rt_task_group_begin(d);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static void seq_case(knobs *kn, int which, iron_status want)
{
    kn->which = which;
    iron_jit *j = jit_for(kn, seq_design, "seq",
                          "in a: int32[64], out b: int32[64]", NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    char inside[sizeof test_errmsg];
    test_errmsg[0] = '\0';
    iron_status s = IRON_CALL(j, a, b);
    snprintf(inside, sizeof inside, "%s", test_errmsg);
    ASSERT_STATUS(s, want);
    if (inside[0])
        ASSERT_CONTAINS(test_errmsg, inside);
    assert_rejected_before_run(j, b);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(rule_seq_task_groups_open_once_and_close)
{
    knobs kn = { 0 };
    seq_case(&kn, S_GROUP_OPEN, IRON_EDESIGN);
    ASSERT_MSG(
        "seq (a: int32[64], b: int32[64]; npu2, 8 columns): verify: task "
        "group 1, opened at sequence op 1, is never finished "
        "(iron_rt_task_group_finish)");
    /* Several groups may be open at once (upstream's ping-pong); the
     * inner one is left open here. */
    seq_case(&kn, S_GROUP_NESTED, IRON_EDESIGN);
    ASSERT_MSG("verify: task group 1, opened at sequence op 0, is never "
        "finished");
    seq_case(&kn, S_GROUP_FINISH_UNOPENED, IRON_EDESIGN);
    ASSERT_MSG("finish task group: no group is open (open one with "
        "iron_rt_task_group_begin)");
    test_assert_no_leaks();
}

TEST(rule_seq_set_rtp_index_in_range)
{
    knobs kn = { 0 };
    seq_case(&kn, S_RTP_INDEX_HIGH, IRON_EBOUNDS);
    ASSERT_MSG("set_rtp of 'factor': index 4; the buffer has 4 elements");
    seq_case(&kn, S_RTP_INDEX_NEG, IRON_EBOUNDS);
    ASSERT_MSG("set_rtp of 'factor': index -1; the buffer has 4 elements");
}

TEST(rule_seq_set_barrier_value_0_to_63)
{
    knobs kn = { 0 };
    seq_case(&kn, S_BARRIER_HIGH, IRON_EINVAL);
    ASSERT_MSG("set_barrier of 'go': value 64; a lock holds 0..63");
    seq_case(&kn, S_BARRIER_NEG, IRON_EINVAL);
    ASSERT_MSG("set_barrier of 'go': value -1; a lock holds 0..63");
}

TEST(rule_seq_sets_only_what_a_worker_takes)
{
    knobs kn = { 0 };
    seq_case(&kn, S_RTP_UNUSED, IRON_EDESIGN);
    ASSERT_MSG(
        "verify: the sequence sets run-time parameter buffer 'spare', which "
        "no worker takes as an argument");
    seq_case(&kn, S_BARRIER_UNUSED, IRON_EDESIGN);
    ASSERT_MSG(
        "verify: the sequence sets barrier 'go', which no worker takes as an "
        "argument");
}

/* The kernel reads factor[0] on every object; the sequence writes it
 * between task groups, so each half of the tensor sees its own value,
 * call after call, from one build. */
static int rtp_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), half = n / 2;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_rtp *r = iron_rtp_new(d, "factor", IRON_INT32, 1);
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int32*, int32*, int32*, int32");
    iron_worker_new(d, "scale", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_rtp(r), iron_arg_int(OBJ)));
    iron_handle *fill = iron_fifo_prod(in), *drain = iron_fifo_cons(out);
    for (int h = 0; h < 2; h++) {
        iron_tap t = iron_tap_make(h * half, 1, (const int64_t[]){ half },
                                   (const int64_t[]){ 1 });
        iron_rt_set_rtp(d, r, 0, h == 0 ? 2.0 : 5.0);
        iron_rt_task_group_begin(d);
        iron_rt_fill(d, fill, 0, t);
        iron_rt_drain(d, drain, 1, t, IRON_WAIT);
        iron_rt_task_group_end(d);
    }
    return 0;
}

TEST(rule_rtp_read_by_a_kernel)
{
    iron_jit *j = jit(rtp_design, "rtp", "in a: int32[N], out b: int32[N]",
                      NULL);
    iron_tensor *a = arange(IRON_INT32, 128), *b = sentinel(IRON_INT32, 128);
    for (int call = 0; call < 3; call++) {
        ASSERT_OK(launch(j, 1, 5000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
        for (int i = 0; i < 128; i++)
            ASSERT_EQ(at(b, i), i * (i < 64 ? 2 : 5));
    }
    iron_jit_stats st = stats(j);
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.calls, 3);
    char *text = dump(j, 1, IRON_TENSORS(a, b));
    ASSERT_CONTAINS(text, "set_rtp 'factor'[0] = 2");
    ASSERT_CONTAINS(text, "set_rtp 'factor'[0] = 5");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* The same kernel with factor[0] written from a dispatch-time scalar:
 * the value changes from call to call, the build does not. */
static int rtp_scalar_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_rtp *r = iron_rtp_new(d, "factor", IRON_INT32, 1);
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int32*, int32*, int32*, int32");
    iron_worker_new(d, "scale", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_rtp(r), iron_arg_int(OBJ)));
    iron_rt_set_rtp_scalar(d, r, 0, iron_design_scalar_index(d, "factor"));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_rtp_value_per_call_without_rebuild)
{
    iron_jit *j = NULL;
    iron_jit_options o = { .size = sizeof o, .name = "rtp_scalar",
                           .args = "in a: int32[N], out b: int32[N]",
                           .scalars = "factor" };
    ASSERT_OK(iron_jit_create(rtp_scalar_design, &o, &j));
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    const int64_t factors[4] = { 3, -2, 7, 0 };
    for (int call = 0; call < 4; call++) {
        ASSERT_OK(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                                  IRON_SCALARS(iron_scalar_value(
                                      "factor", factors[call])),
                                  IRON_TENSORS(a, b)));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(at(b, i), i * factors[call]);
    }
    ASSERT_EQ(stats(j).builds, 1);
    ASSERT_EQ(stats(j).kernel_compiles <= 1, 1);
    /* A scalar without a default must be given, before anything runs. */
    iron_tensor *c = sentinel(IRON_INT32, 64);
    ASSERT_STATUS(iron_jit_launch(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                        IRON_TENSORS(a, c)),
           IRON_EPARAM);
    ASSERT_MSG(
        "dispatch-time scalar 'factor' has no default and was not given");
    assert_untouched(c);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* A fill whose offset is a dispatch-time scalar: each call's moved
 * pattern must meet the same rules as a fixed one. */
static int fill_at_design(iron_design *d, void *user)
{
    (void)user;
    iron_dtype dt = iron_design_arg_dtype(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", dt, IRON_SHAPE(64), 2);
    iron_fifo *out = iron_fifo_new(d, "out", dt, IRON_SHAPE(64), 2);
    iron_worker_new(d, "copy", copy_kernel(d, dt), 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(64)));
    iron_rt_fill_offset_scalar(d, iron_fifo_prod(in), 0, iron_tap_linear(64),
                               iron_design_scalar_index(d, "at"));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(64), IRON_WAIT);
    return 0;
}

TEST(rule_tap_moved_by_a_scalar_checked_per_call)
{
    iron_jit *j = NULL;
    iron_jit_options o = { .size = sizeof o, .name = "fill_at",
                           .args = "in a: int8[256], out b: int8[64]",
                           .scalars = "at = 0" };
    ASSERT_OK(iron_jit_create(fill_at_design, &o, &j));
    iron_tensor *a = arange(IRON_INT8, 256), *b = sentinel(IRON_INT8, 64);
    ASSERT_OK(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                              IRON_SCALARS(iron_scalar_value("at", 64)),
                              IRON_TENSORS(a, b)));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(at(b, i), 64 + i);
    iron_tensor_free(b);
    b = sentinel(IRON_INT8, 64);
    /* Past the end. */
    ASSERT_STATUS(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                        IRON_SCALARS(iron_scalar_value("at", 200)),
                        IRON_TENSORS(a, b)),
           IRON_EBOUNDS);
    ASSERT_MSG("fill of argument 0 ('a') moved by scalar 'at' = 200");
    assert_untouched(b);
    /* Not a whole number of 32-bit words from the start. */
    ASSERT_STATUS(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                        IRON_SCALARS(iron_scalar_value("at", 3)),
                        IRON_TENSORS(a, b)),
           IRON_EBOUNDS);
    ASSERT_MSG("moved by scalar 'at' = 3");
    ASSERT_MSG("offset of 3 bytes is not a multiple of 4");
    assert_untouched(b);
    ASSERT_EQ(stats(j).builds, 1);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    test_assert_no_leaks();
}

/* ========================================================================
 * 7. Resources of the device model (docs/emulator.md, "What placement
 *    rejects")
 *
 * Each over-limit design is rejected at placement, before any kernel is
 * compiled or anything runs, with the tile, the resource, the demand and
 * the limit; each has a neighbour just inside the limit that runs.
 * ======================================================================== */

/* Runs `fn` on int32 in a[n_in] -> b[n_out] with `cols` columns; on
 * failure checks nothing ran, on success leaves b for the caller. */
static iron_status res_run(knobs *kn, iron_design_fn fn, const char *name,
                           int64_t n_in, int64_t n_out, int cols,
                           iron_tensor **out)
{
    char args[96];
    snprintf(args, sizeof args, "in a: int32[%lld], out b: int32[%lld]",
             (long long)n_in, (long long)n_out);
    iron_jit *j = jit_for(kn, fn, name, args, NULL);
    iron_tensor *a = arange(IRON_INT32, n_in),
                *b = sentinel(IRON_INT32, n_out);
    iron_status s = launch(j, cols, 10000, IRON_NO_PARAMS, IRON_TENSORS(a, b));
    if (s != IRON_OK) {
        if (!strstr(test_errmsg, ": place: "))
            TEST_FAIL_("not rejected at placement: %s", test_errmsg);
        assert_rejected_before_run(j, b);
    }
    iron_tensor_free(a);
    iron_jit_free(j);
    if (out && s == IRON_OK)
        *out = b;
    else
        iron_tensor_free(b);
    return s;
}

/* One worker: 'in' (4096 int32 = 16 KiB objects) with kn->x buffers on its
 * consumer endpoint, 'out' with 1 on its producer, and a 256-element
 * run-time parameter buffer. */
static int mem_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(4096), 4);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(4096), 4);
    iron_handle *ic = iron_fifo_cons(in), *op = iron_fifo_prod(out);
    iron_handle_set_depth(ic, (int)kn->x);
    iron_handle_set_depth(op, 1);
    iron_rtp *r = iron_rtp_new(d, "factor", IRON_INT32, 256);
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int32*, int32*, int32*, int32");
    iron_worker_new(d, "big", k, 1,
                    IRON_ARGS(iron_arg_fifo(ic), iron_arg_fifo(op),
                              iron_arg_rtp(r), iron_arg_int(4096)));
    iron_rt_set_rtp(d, r, 0, 3);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_res_compute_tile_memory_64k)
{
    knobs kn = { 0 };
    /* 3 x 16 KiB + 16 KiB + 1 KiB rtp + 1 KiB stack = 67584 > 65536. */
    kn.x = 3;
    ASSERT_STATUS(res_run(&kn, mem_design, "mem", 8192, 8192, 1, NULL),
                  IRON_ERESOURCE);
    ASSERT_MSG("mem (a: int32[8192], b: int32[8192]; npu2, 1 column): place: "
        "compute tile (0,2) (worker 'big'): data memory needs 67584 bytes, "
        "the tile has 65536 (2048 over): fifo 'in' (consumer) 3 x 16384 B "
        "(per-endpoint depth 3), fifo 'out' (producer) 1 x 16384 B "
        "(per-endpoint depth 1), rtp 'factor' 1024 B, stack 1024 B");
    /* Two buffers on the consumer fit (51200 bytes) and run. */
    kn.x = 2;
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, mem_design, "mem", 8192, 8192, 1, &b));
    for (int i = 0; i < 8192; i += 97)
        ASSERT_EQ(at(b, i), 3 * i);
    iron_tensor_free(b);
}

/* A forward of 256 KiB objects through a memtile with kn->x buffers there
 * (the forwarded fifo's consumer endpoint), beside a small worker. */
static int memtile_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *big = iron_fifo_new(d, "big", IRON_INT32, IRON_SHAPE(65536), 1);
    iron_handle *bc = iron_fifo_cons(big);
    iron_handle_set_depth(bc, (int)kn->x);
    iron_fifo *fw = iron_fifo_forward(d, bc, "through", 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_worker_new(d, "copy", copy_kernel(d, IRON_INT32), 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(big), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(OBJ));
    iron_rt_drain(d, iron_fifo_cons(fw), 1, iron_tap_linear(n), IRON_WAIT);
    iron_rt_drain(d, iron_fifo_cons(out), 1,
                  iron_tap_make(n, 1, (const int64_t[]){ OBJ },
                                (const int64_t[]){ 1 }),
                  IRON_WAIT);
    return 0;
}

TEST(rule_res_memtile_memory_512k)
{
    knobs kn = { 0 };
    const int64_t n = 2 * 65536;
    kn.x = 3; /* 3 x 256 KiB */
    ASSERT_STATUS(res_run(&kn, memtile_design, "memtile", n, n + OBJ, 1, NULL),
           IRON_ERESOURCE);
    ASSERT_MSG("memtile (a: int32[131072], b: int32[131088]; npu2, 1 column): "
        "place: memtile (0,1): data memory needs 786432 bytes, the tile has "
        "524288 (262144 over): link 0 forward of fifo 'big' 3 x 262144 B "
        "(declared depth 3 on the memtile (0,1))");
    kn.x = 2; /* exactly 512 KiB */
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, memtile_design, "memtile", n, n + OBJ, 1, &b));
    for (int64_t i = 0; i < n; i += 1031)
        ASSERT_EQ(at(b, i), i);
    for (int i = 0; i < OBJ; i++)
        ASSERT_EQ(at(b, n + i), i);
    iron_tensor_free(b);
}

/* One core body with 'in' and 'out' (2 pools, 4 locks), five fifos it
 * both produces and consumes on its own tile (5 pools, 10 locks) and
 * kn->x barriers (1 lock each). */
static const char locks_src[] =
    "#include <stdint.h>\n"
    "void many(iron_objfifo *in, iron_objfifo *out,\n"
    "          iron_objfifo *p0, iron_objfifo *c0, iron_objfifo *p1,\n"
    "          iron_objfifo *c1, iron_objfifo *p2, iron_objfifo *c2,\n"
    "          iron_objfifo *p3, iron_objfifo *c3, iron_objfifo *p4,\n"
    "          iron_objfifo *c4, iron_barrier *b0, iron_barrier *b1\n"
    "          EXTRA)\n"
    "{\n"
    "    (void)p0; (void)c0; (void)p1; (void)c1; (void)p2; (void)c2;\n"
    "    (void)p3; (void)c3; (void)p4; (void)c4; (void)b0; (void)b1;\n"
    "    for (;;) {\n"
    "        int32_t *x = (int32_t *)iron_acquire(in, 1)[0];\n"
    "        int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "        for (int32_t i = 0; i < 16; i++)\n"
    "            y[i] = x[i];\n"
    "        iron_release(out, 1);\n"
    "        iron_release(in, 1);\n"
    "    }\n"
    "}\n";

static int locks_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_arg args[15];
    int na = 0;
    args[na++] = iron_arg_fifo(iron_fifo_cons(in));
    args[na++] = iron_arg_fifo(iron_fifo_prod(out));
    for (int i = 0; i < 5; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "l%d", i);
        iron_fifo *l = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 1);
        args[na++] = iron_arg_fifo(iron_fifo_prod(l));
        args[na++] = iron_arg_fifo(iron_fifo_cons(l));
    }
    for (int i = 0; i < kn->x; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "b%d", i);
        args[na++] = iron_arg_barrier(iron_barrier_new(d, nm));
    }
    iron_kernel *k = iron_kernel_new_core(
        d, "many", locks_src,
        kn->x == 3 ? "fifo, fifo, fifo, fifo, fifo, fifo, fifo, fifo, fifo, "
                   "fifo, fifo, fifo, barrier, barrier, barrier"
                 : "fifo, fifo, fifo, fifo, fifo, fifo, fifo, fifo, fifo, "
                   "fifo, fifo, fifo, barrier, barrier");
    iron_kernel_define(k, "EXTRA", kn->x == 3 ? ", iron_barrier *b2" : "");
    iron_worker_new(d, "many", k, 1, na, args);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_res_compute_tile_locks_16)
{
    knobs kn = { 0 };
    kn.x = 3; /* 4 + 10 + 3 = 17 */
    ASSERT_STATUS(res_run(&kn, locks_design, "locks", 64, 64, 1, NULL),
                  IRON_ERESOURCE);
    ASSERT_MSG(
        "locks (a: int32[64], b: int32[64]; npu2, 1 column): place: compute "
        "tile (0,2) (worker 'many'): needs 17 locks (2 per buffer pool, 1 "
        "per barrier), the tile has 16");
    kn.x = 2; /* 16 */
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, locks_design, "locks", 64, 64, 1, &b));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(at(b, i), i);
    iron_tensor_free(b);
    test_assert_no_leaks();
}

static const char add2_src[] =
    "#include <stdint.h>\n"
    "void add2(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

/* c = a + a through two inputs and one output, all with kn->x buffers. */
static int bds_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *x = iron_fifo_new(d, "x", IRON_INT32, IRON_SHAPE(OBJ),
                                 (int)kn->x);
    iron_fifo *y = iron_fifo_new(d, "y", IRON_INT32, IRON_SHAPE(OBJ),
                                 (int)kn->x);
    iron_fifo *z = iron_fifo_new(d, "z", IRON_INT32, IRON_SHAPE(OBJ),
                                 (int)kn->x);
    iron_kernel *k = iron_kernel_new(d, "add2", add2_src,
                                     "int32*, int32*, int32*, int32");
    /* Per-endpoint depths (the host ends 2), so that each compute-tile
     * end gets exactly kn->x buffers: one depth would give it max acquire
     * + 1 = 2. */
    iron_handle *zc = iron_fifo_cons(z);
    iron_handle_set_depth(iron_fifo_prod(x), 2);
    iron_handle_set_depth(iron_fifo_prod(y), 2);
    iron_handle_set_depth(zc, 2);
    iron_worker_new(d, "add", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(x)),
                              iron_arg_fifo(iron_fifo_cons(y)),
                              iron_arg_fifo(iron_fifo_prod(z)),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(x), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(y), 0, iron_tap_linear(n));
    iron_rt_drain(d, zc, 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_res_compute_tile_buffer_descriptors_16)
{
    knobs kn = { 0 };
    kn.x = 6; /* 3 DMA'd pools x 6 buffers */
    ASSERT_STATUS(res_run(&kn, bds_design, "bds", 64, 64, 1, NULL),
                  IRON_ERESOURCE);
    ASSERT_MSG(
        "bds (a: int32[64], b: int32[64]; npu2, 1 column): place: compute "
        "tile (0,2) (worker 'add'): needs 18 buffer descriptors (1 per "
        "buffer a DMA touches), the tile has 16");
    kn.x = 5; /* 15 */
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, bds_design, "bds", 64, 64, 1, &b));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(at(b, i), 2 * i);
    iron_tensor_free(b);
}

static const char sum3_src[] =
    "#include <stdint.h>\n"
    "void sum3(const int32_t *a, const int32_t *b, const int32_t *c,\n"
    "          int32_t *d, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        d[i] = a[i] + b[i] + c[i];\n"
    "}\n";

static const char tee3_src[] =
    "#include <stdint.h>\n"
    "void tee3(const int32_t *a, int32_t *b, int32_t *c, int32_t *d,\n"
    "          int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        b[i] = c[i] = d[i] = a[i];\n"
    "}\n";

/* kn->which 0: three streams into one worker; 1: three out of it. */
static int channels_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    int64_t n = iron_design_arg_numel(d, 0), third = n / 3;
    iron_fifo *f[4];
    const char *names[4] = { "f0", "f1", "f2", "f3" };
    for (int i = 0; i < 4; i++)
        f[i] = iron_fifo_new(d, names[i], IRON_INT32, IRON_SHAPE(OBJ), 2);
    if (kn->which == 0) {
        iron_kernel *k = iron_kernel_new(d, "sum3", sum3_src,
                                         "int32*, int32*, int32*, int32*, "
                                         "int32");
        iron_worker_new(d, "sum3", k, 1,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f[0])),
                                  iron_arg_fifo(iron_fifo_cons(f[1])),
                                  iron_arg_fifo(iron_fifo_cons(f[2])),
                                  iron_arg_fifo(iron_fifo_prod(f[3])),
                                  iron_arg_int(OBJ)));
        for (int i = 0; i < 3; i++)
            iron_rt_fill(d, iron_fifo_prod(f[i]), 0, iron_tap_linear(n));
        iron_rt_drain(d, iron_fifo_cons(f[3]), 1, iron_tap_linear(n),
                      IRON_WAIT);
    } else {
        iron_kernel *k = iron_kernel_new(d, "tee3", tee3_src,
                                         "int32*, int32*, int32*, int32*, "
                                         "int32");
        iron_worker_new(d, "tee3", k, 1,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(f[0])),
                                  iron_arg_fifo(iron_fifo_prod(f[1])),
                                  iron_arg_fifo(iron_fifo_prod(f[2])),
                                  iron_arg_fifo(iron_fifo_prod(f[3])),
                                  iron_arg_int(OBJ)));
        iron_rt_fill(d, iron_fifo_prod(f[0]), 0, iron_tap_linear(third));
        for (int i = 1; i < 4; i++)
            iron_rt_drain(d, iron_fifo_cons(f[i]), 1,
                          iron_tap_make((i - 1) * third, 1,
                                        (const int64_t[]){ third },
                                        (const int64_t[]){ 1 }),
                          IRON_WAIT);
    }
    return 0;
}

TEST(rule_res_compute_tile_dma_channels_2_in_2_out)
{
    knobs kn = { 0 };
    kn.which = 0;
    ASSERT_STATUS(res_run(&kn, channels_design, "in3", 48, 48, 0, NULL),
                  IRON_ERESOURCE);
    ASSERT_MSG(
        "in3 (a: int32[48], b: int32[48]; npu2, 8 columns): place: compute "
        "tile (0,2) (worker 'sum3'): needs 3 input (S2MM) DMA channels (1 "
        "per stream into the tile), the tile has 2");
    kn.which = 1;
    ASSERT_STATUS(res_run(&kn, channels_design, "out3", 48, 48, 0, NULL),
                  IRON_ERESOURCE);
    ASSERT_MSG("compute tile (0,2) (worker 'tee3'): needs 3 output (MM2S) DMA "
        "channels (1 per stream out of the tile), the tile has 2");
}

/* Each 8 * kn->x-element object is split on a memtile into kn->x pieces, one
 * per worker, each drained to its place. */
static int split_n_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    const int parts = (int)kn->x;
    int64_t n = iron_design_arg_numel(d, 0), objs = n / (8 * parts);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32,
                                  IRON_SHAPE(8 * parts), 2);
    const char *names[8] = { "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7" };
    int64_t off[8];
    iron_shape sh[8];
    for (int i = 0; i < parts; i++) {
        off[i] = 8 * i;
        sh[i] = IRON_SHAPE(8);
    }
    iron_fifo *piece[8];
    iron_handle *ic = iron_fifo_cons(in);
    if (kn->y > 0)
        iron_handle_set_depth(ic, (int)kn->y); /* buffers on the memtile */
    iron_fifo_split(d, ic, parts, names, off, sh, (const int[]){ 2, 2, 2, 2,
                                                                 2, 2, 2, 2 },
                    piece);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_kernel *k = copy_kernel(d, IRON_INT32);
    for (int i = 0; i < parts; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "o%d", i);
        iron_fifo *o = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(8), 2);
        snprintf(nm, sizeof nm, "w%d", i);
        iron_worker_new(d, nm, k, 1,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(piece[i])),
                                  iron_arg_fifo(iron_fifo_prod(o)),
                                  iron_arg_int(8)));
        /* Piece i of object j goes back to where it came from. */
        iron_rt_drain(d, iron_fifo_cons(o), 1,
                      iron_tap_make(8 * i, 2,
                                    (const int64_t[]){ objs, 8 },
                                    (const int64_t[]){ 8 * parts, 1 }),
                      IRON_WAIT);
    }
    return 0;
}

TEST(rule_res_memtile_dma_channels_6)
{
    knobs kn = { 0 };
    kn.y = 0;
    kn.x = 7;
    ASSERT_STATUS(res_run(&kn, split_n_design, "split7", 112, 112, 0, NULL),
           IRON_ERESOURCE);
    ASSERT_MSG(
        "split7 (a: int32[112], b: int32[112]; npu2, 8 columns): place: "
        "link 0 (1 in, 7 out): no memtile from column 0 to 7 has the DMA "
        "channels left (6 in + 6 out each)");
    kn.x = 6;
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, split_n_design, "split6", 96, 96, 0, &b));
    for (int i = 0; i < 96; i++)
        ASSERT_EQ(at(b, i), i);
    iron_tensor_free(b);
}

/* kn->x workers each fill one 8-element piece of a joined object on a
 * memtile. */
static int join_n_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    const int parts = (int)kn->x;
    int64_t n = iron_design_arg_numel(d, 0), objs = n / (8 * parts);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32,
                                   IRON_SHAPE(8 * parts), 2);
    const char *names[8] = { "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7" };
    int64_t off[8];
    iron_shape sh[8];
    for (int i = 0; i < parts; i++) {
        off[i] = 8 * i;
        sh[i] = IRON_SHAPE(8);
    }
    iron_fifo *piece[8];
    iron_fifo_join(d, iron_fifo_prod(out), parts, names, off, sh, NULL,
                   piece);
    iron_kernel *k = copy_kernel(d, IRON_INT32);
    for (int i = 0; i < parts; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "i%d", i);
        iron_fifo *in = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(8), 2);
        snprintf(nm, sizeof nm, "w%d", i);
        iron_worker_new(d, nm, k, 1,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                                  iron_arg_fifo(iron_fifo_prod(piece[i])),
                                  iron_arg_int(8)));
        iron_rt_fill(d, iron_fifo_prod(in), 0,
                     iron_tap_make(8 * i, 2, (const int64_t[]){ objs, 8 },
                                   (const int64_t[]){ 8 * parts, 1 }));
    }
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(rule_res_memtile_join_dma_channels_6)
{
    knobs kn = { 0 };
    kn.x = 7;
    ASSERT_STATUS(res_run(&kn, join_n_design, "join7", 112, 112, 0, NULL),
           IRON_ERESOURCE);
    ASSERT_MSG("join7 (a: int32[112], b: int32[112]; npu2, 8 columns): place: "
        "link 0 (7 in, 1 out): no memtile from column 0 to 7 has the DMA "
        "channels left (6 in + 6 out each)");
    kn.x = 6;
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, join_n_design, "join6", 96, 96, 0, &b));
    for (int i = 0; i < 96; i++)
        ASSERT_EQ(at(b, i), i);
    iron_tensor_free(b);
}

TEST(rule_res_memtile_buffer_descriptors_48)
{
    knobs kn = { 0 };
    /* 6 pieces: the split's input and its 6 outputs each touch all of
     * the memtile's 8 buffers: 56 BDs. */
    kn.x = 6;
    kn.y = 8;
    ASSERT_STATUS(res_run(&kn, split_n_design, "split_bds", 96, 96, 0, NULL),
           IRON_ERESOURCE);
    ASSERT_MSG(
        "memtile (0,1): needs 56 buffer descriptors (1 per buffer a DMA "
        "touches), the tile has 48");
    kn.y = 6; /* 42 */
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, split_n_design, "split_bds", 96, 96, 0, &b));
    for (int i = 0; i < 96; i++)
        ASSERT_EQ(at(b, i), i);
    iron_tensor_free(b);
}

/* One fill broadcast to three workers, each drained on its own: one MM2S
 * and three S2MM channels on the shims. */
static int three_drains_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = copy_kernel(d, IRON_INT32);
    iron_handle *ic[3];
    for (int i = 0; i < 3; i++)
        ic[i] = iron_fifo_cons(in);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    for (int i = 0; i < 3; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "o%d", i);
        iron_fifo *o = iron_fifo_new(d, nm, IRON_INT32, IRON_SHAPE(OBJ), 2);
        snprintf(nm, sizeof nm, "w%d", i);
        iron_worker_new(d, nm, k, 1,
                        IRON_ARGS(iron_arg_fifo(ic[i]),
                                  iron_arg_fifo(iron_fifo_prod(o)),
                                  iron_arg_int(OBJ)));
        /* Awaited where it stands: only the last drain waits. */
        iron_rt_drain(d, iron_fifo_cons(o), 1,
                      iron_tap_make(i * n, 1, (const int64_t[]){ n },
                                    (const int64_t[]){ 1 }),
                      i == 2 ? IRON_WAIT : IRON_NOWAIT);
    }
    return 0;
}

TEST(rule_res_shim_channels_2_in_2_out)
{
    knobs kn = { 0 };
    /* Three S2MM on one column's two. */
    ASSERT_STATUS(res_run(&kn, three_drains_design, "drains", 32, 96, 1, NULL),
           IRON_ERESOURCE);
    ASSERT_MSG(
        "drains (a: int32[32], b: int32[96]; npu2, 1 column): place: shim "
        "DMA: fifo 'o2' needs an S2MM (array-to-host) channel on a shim from "
        "column 0 eastwards, and none is left; the design needs 3, the 1 "
        "granted column has 1 x 2");
    /* Two columns have four. */
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, three_drains_design, "drains", 32, 96, 2, &b));
    for (int i = 0; i < 96; i++)
        ASSERT_EQ(at(b, i), i % 32);
    iron_tensor_free(b);
}

TEST(rule_res_workers_within_granted_compute_tiles)
{
    knobs kn = { 0 };
    no_pins(&kn);
    IRON_WITH_DEVICE("npu1")
    {
        ASSERT_STATUS(chain_run(&kn, 17, 0, NULL), IRON_ERESOURCE);
        ASSERT_MSG(
            "chain (a: int32[64], b: int32[64]; npu1, 4 columns): place: the "
            "design has 17 workers; the launch grants 4 columns x 4 compute "
            "tiles = 16");
        ASSERT_STATUS(chain_run(&kn, 9, 2, NULL), IRON_ERESOURCE);
        ASSERT_MSG("the design has 9 workers; the launch grants 2 columns x 4 "
            "compute tiles = 8");
        ASSERT_OK(chain_run(&kn, 16, 0, NULL));
    }
}

/* kn->x fills of one object each and as many drains, all on one shim, in
 * one task group (kn->which 0) or split over two groups (kn->which 1). */
static int tasks_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_worker_new(d, "copy", copy_kernel(d, IRON_INT32), 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(OBJ)));
    iron_handle *dr = iron_fifo_cons(out);
    iron_rt_task_group_begin(d);
    for (int i = 0; i < kn->x; i++) {
        if (kn->which == 1 && i == kn->x / 2) {
            iron_rt_task_group_end(d);
            iron_rt_task_group_begin(d);
        }
        iron_tap t = iron_tap_make(i * OBJ, 1, (const int64_t[]){ OBJ },
                                   (const int64_t[]){ 1 });
        iron_rt_fill(d, iron_fifo_prod(in), 0, t);
        iron_rt_drain(d, dr, 1, t, IRON_WAIT);
    }
    iron_rt_task_group_end(d);
    return 0;
}

TEST(rule_res_shim_tasks_per_task_group_16)
{
    knobs kn = { 0 };
    kn.x = 9; /* 18 tasks on shim (0,0) */
    kn.which = 0;
    ASSERT_STATUS(
        res_run(&kn, tasks_design, "tasks", 9 * OBJ, 9 * OBJ, 1, NULL),
        IRON_ERESOURCE);
    ASSERT_MSG(
        "tasks (a: int32[144], b: int32[144]; npu2, 1 column): place: shim "
        "(0,0): sequence op 17 (fill of fifo 'in') is the 17th DMA task in "
        "flight on it; the tile has 16 buffer descriptors (finish a task "
        "group to free its tasks' descriptors)");
    kn.x = 8; /* 16: fits */
    iron_tensor *b = NULL;
    ASSERT_OK(res_run(&kn, tasks_design, "tasks", 8 * OBJ, 8 * OBJ, 1, &b));
    for (int i = 0; i < 8 * OBJ; i++)
        ASSERT_EQ(at(b, i), i);
    iron_tensor_free(b);
    /* 18 over two groups of 8 and 10 fit too. */
    kn.x = 9;
    kn.which = 1;
    ASSERT_OK(res_run(&kn, tasks_design, "tasks", 9 * OBJ, 9 * OBJ, 1, &b));
    for (int i = 0; i < 9 * OBJ; i++)
        ASSERT_EQ(at(b, i), i);
    iron_tensor_free(b);
}

/* ========================================================================
 * Run-time misuse ends a call with a status, never a hang
 * ======================================================================== */

/* A core body that spins on its own loop fifo and never touches 'in' or
 * 'out': on hardware the call hangs until the timeout; here too, but the
 * timeout must be honoured although the body never has to wait. */
static const char spin_src[] =
    "#include <stdint.h>\n"
    "void spin(iron_objfifo *in, iron_objfifo *out, iron_objfifo *lp,\n"
    "          iron_objfifo *lc, int32_t n)\n"
    "{\n"
    "    (void)in; (void)out; (void)n;\n"
    "    for (;;) {\n"
    "        iron_acquire(lp, 1);\n"
    "        iron_release(lp, 1);\n"
    "        iron_acquire(lc, 1);\n"
    "        iron_release(lc, 1);\n"
    "    }\n"
    "}\n";

static int spin_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *lo = iron_fifo_new(d, "loop", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_kernel *k = iron_kernel_new_core(d, "spin", spin_src,
                                          "fifo, fifo, fifo, fifo, int32");
    iron_worker_new(d, "spin", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_fifo(iron_fifo_prod(lo)),
                              iron_arg_fifo(iron_fifo_cons(lo)),
                              iron_arg_int(OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* Alone: as lanes_timeout_stops_every_lane, the report names a runnable
 * worker only if the lane thread gets the CPU within the watchdog's tick
 * after the deadline. */
TEST_ALONE(rule_core_body_spinning_times_out, 15,
           "the timeout's report depends on the lane thread getting the CPU")
{
    iron_jit *j = jit(spin_design, "spin", "in a, out b", NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    /* 1 s: on a loaded machine the fill must get its turn before the
     * worker spins (the report says how far it got). */
    for (int call = 0; call < 2; call++) {
        ASSERT_STATUS(launch(j, 1, 1000, IRON_NO_PARAMS, IRON_TENSORS(a, b)),
               IRON_ETIMEOUT);
        ASSERT_MSG(
            "spin (a: int32[64], b: int32[64]; npu2, 1 column): the run did "
            "not finish within 1000 ms");
        ASSERT_MSG("worker 'spin' on tile (0,2) is runnable");
        ASSERT_MSG("fill of argument 0 'a': 32 of 64 elements moved");
        ASSERT_MSG("drain of argument 1 'b': 0 of 64 elements moved");
        ASSERT_EQ(iron_jit_last_state(j), IRON_RUN_TIMEOUT);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    test_assert_no_leaks();
}

/* One worker output drained into three tensors: the three drains are one
 * stream out of the tile (broadcast by the switch), so they use one MM2S
 * channel there, and the three S2MM channels they need at the shim spill
 * to the next column. */
static int one_output_three_drains(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_worker_new(d, "copy", copy_kernel(d, IRON_INT32), 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(OBJ)));
    /* Three fills, then three drains through iron_fifo_cons(out) taken
     * anew each time: as upstream's Runtime.sequence(), the runtime's
     * consumers of one fifo are one endpoint, so the drains take the
     * objects in turn (tile after tile), not each a broadcast copy. */
    for (int k = 0; k < 3; k++)
        iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(64));
    for (int k = 0; k < 3; k++)
        iron_rt_drain(d, iron_fifo_cons(out), 1 + k, iron_tap_linear(64),
                      k == 2 ? IRON_WAIT : IRON_NOWAIT);
    return 0;
}

TEST(rule_runtime_consumers_of_one_fifo_are_one_endpoint)
{
    iron_jit *j = jit(one_output_three_drains, "drains",
                      "in a: int32[64], out x: int32[64], out y: int32[64], "
                      "out z: int32[64]",
                      NULL);
    iron_tensor *a = arange(IRON_INT32, 64), *x = sentinel(IRON_INT32, 64);
    iron_tensor *y = sentinel(IRON_INT32, 64), *z = sentinel(IRON_INT32, 64);
    ASSERT_OK(launch(j, 2, 0, IRON_NO_PARAMS, IRON_TENSORS(a, x, y, z)));
    for (int i = 0; i < 64; i++) {
        ASSERT_EQ(at(x, i), i);
        ASSERT_EQ(at(y, i), i);
        ASSERT_EQ(at(z, i), i);
    }
    char *text = dump(j, 2, IRON_TENSORS(a, x, y, z));
    ASSERT_CONTAINS(text, "DMA 1 in + 1 out");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(z);
    iron_jit_free(j);
}

/* A consumer on its producer's tile reads the producer's buffers. */
static const char both_ends_src[] =
    "#include <stdint.h>\n"
    "void both(iron_objfifo *in, iron_objfifo *loop_p, iron_objfifo *loop_c,\n"
    "          iron_objfifo *out)\n"
    "{\n"
    "    for (;;) {\n"
    "        int32_t *x = iron_acquire(in, 1)[0];\n"
    "        int32_t *l = iron_acquire(loop_p, 1)[0];\n"
    "        for (int i = 0; i < 16; i++) l[i] = x[i] * 2;\n"
    "        iron_release(loop_p, 1);\n"
    "        iron_release(in, 1);\n"
    "        int32_t *r = iron_acquire(loop_c, 1)[0];\n"
    "        int32_t *y = iron_acquire(out, 1)[0];\n"
    "        for (int i = 0; i < 16; i++) y[i] = r[i] + 1;\n"
    "        iron_release(out, 1);\n"
    "        iron_release(loop_c, 1);\n"
    "    }\n"
    "}\n";

static int shared_depth_design(iron_design *d, void *user)
{
    const knobs *kn = user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *lp = iron_fifo_new(d, "loop", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(OBJ), 2);
    iron_handle *lc = iron_fifo_cons(lp);
    if (kn->which == 1)
        iron_handle_set_depth(lc, 3);
    iron_kernel *k = iron_kernel_new_core(d, "both", both_ends_src,
                                          "fifo, fifo, fifo, fifo");
    iron_worker_new(d, "both", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(lp)),
                              iron_arg_fifo(lc),
                              iron_arg_fifo(iron_fifo_prod(out))));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(64));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(64), IRON_WAIT);
    return 0;
}

TEST(rule_fifo_shared_memory_uses_the_producers_depth)
{
    knobs kn = { 0 };
    iron_tensor *a = arange(IRON_INT32, 64), *b = sentinel(IRON_INT32, 64);
    kn.which = 0;
    iron_jit *j = jit_for(&kn, shared_depth_design, "shared", "in a, out b",
                          NULL);
    ASSERT_OK(launch(j, 1, 2000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(at(b, i), 2 * i + 1);
    iron_jit_free(j);
    /* Upstream's lowering gives a fifo in shared memory its producer's
     * depth; the consumer's own depth does not apply, and the dump says
     * where the buffers are and why. */
    kn.which = 1;
    j = jit_for(&kn, shared_depth_design, "shared", "in a, out b", NULL);
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(a, b),
                            &text));
    ASSERT_CONTAINS(text, "depth 3 buffers 2 (declared depth 2, shared "
                          "memory on compute tile (0,2))");
    iron_free(text);
    ASSERT_OK(launch(j, 1, 2000, IRON_NO_PARAMS, IRON_TENSORS(a, b)));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(at(b, i), 2 * i + 1);
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
}
