/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_timing.c - the timing model end to end (docs/timing.md): off by
 * default, on by the launch configuration or IRON_TIMING; the modelled
 * time of a DMA-bound stream is its bytes over the stream's rate per
 * object; what a call computes and its modelled time do not depend on the
 * model, the host threads or the call; the clock and its errors; the
 * summary, the trace's modelled process, and a worker that never stops.
 */
#include <jansson.h>
#include <stdlib.h>

#include "designs/designs.h"
#include "test.h"

static int64_t g_obj = 1024;   /* int16 elements per object */
/* The copy's declared cost: a vector copy's, so that the stream, not the
 * kernel, is what the tests time (timing_declared_cost_below_zero_...
 * declares one that goes negative). */
static const char *g_cost = "n / 32 + 8";

static const char copy_src[] =
    "#include <stdint.h>\n"
    "void copy16(const int16_t *in, int16_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++) out[i] = in[i];\n"
    "}\n";

/* shim -> compute tile -> shim, one object at a time: the simplest
 * stream, as upstream's vector_scalar_mul moves its data. */
static int stream_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT16, IRON_SHAPE(g_obj), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT16, IRON_SHAPE(g_obj),
                                   2);
    iron_kernel *k = iron_kernel_new(d, "copy16", copy_src,
                                     "int16* in, int16* out, int32 n");
    iron_kernel_set_cycles(k, g_cost);
    iron_worker_new(d, "copy", k, n / g_obj,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(g_obj)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* One call of the stream design on n elements; checks the copy and
 * returns the counters. */
static const iron_run_counters *stream_call(iron_jit *j, int64_t n,
                                            const iron_launch_config *cfg)
{
    iron_tensor *a = test_arange(IRON_INT16, n), *b = test_zeros(IRON_INT16, n);
    ASSERT_OK(iron_jit_launch(j, cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    for (int64_t i = 0; i < n; i += 97)
        ASSERT_EQ(test_at(b, i), (double)(int16_t)i);
    iron_tensor_free(a);
    iron_tensor_free(b);
    const iron_run_counters *c = NULL;
    ASSERT_OK(iron_jit_get_counters(j, &c));
    return c;
}

static const iron_launch_config timed_cfg = {
    .size = sizeof(iron_launch_config), .timing = 1
};

TEST(timing_is_off_by_default)
{
    iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
    const iron_run_counters *c = stream_call(j, 4096, NULL);
    ASSERT_EQ(c->timed, 0);
    ASSERT_EQ(c->cycles, 0);
    ASSERT(c->summary == NULL);
    ASSERT(c->worker_time == NULL);
    iron_jit_free(j);
}

/* A stream the DMA bounds: each more object costs its bytes over the
 * stream's rate -- 2 KiB at 4 bytes per cycle on npu1 (512 cycles, as
 * upstream's programming guide measures vector_scalar_mul), at 8 on
 * npu2.  The difference of two lengths leaves the fixed costs (the
 * shim's per-task overhead, the pipeline's fill) out. */
static uint64_t cycles_per_object(const char *device)
{
    uint64_t t[2];
    IRON_WITH_DEVICE(device)
    {
        iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
        for (int k = 0; k < 2; k++)
            t[k] = stream_call(j, g_obj * 16 * (k + 1), &timed_cfg)->cycles;
        iron_jit_free(j);
    }
    return (t[1] - t[0]) / 16;
}

TEST(timing_dma_bound_stream_at_the_stream_rate)
{
    ASSERT_EQ(cycles_per_object("npu1"), 512);
    ASSERT_EQ(cycles_per_object("npu2"), 256);
}

TEST(timing_counters_and_summary)
{
    iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
    IRON_WITH_DEVICE("npu1")
    {
        const iron_run_counters *c = stream_call(j, 16 * g_obj, &timed_cfg);
        ASSERT_EQ(c->timed, 1);
        ASSERT_GT(c->cycles, 16 * 512);
        ASSERT_LT(c->cycles, 18 * 512 + 1000);
        ASSERT_DBL_NEAR(c->clock_mhz, 1000, 0);
        ASSERT_DBL_NEAR(c->seconds, (double)c->cycles * 1e-9, 1e-12);
        ASSERT_EQ(c->unbounded, 0);
        /* Every participant's cycles add up to the span. */
        for (int i = 0; i < c->nworkers; i++) {
            const iron_time_counters *w = &c->worker_time[i];
            ASSERT_EQ(w->busy + w->stall_in + w->stall_out + w->idle,
                      c->cycles);
            ASSERT_STR_EQ(w->kernel_time, "declared");
            ASSERT_EQ(w->calls, 16);
            ASSERT_EQ(w->kernel, 16 * (1024 / 32 + 8));
            ASSERT_LE(w->kernel, w->busy);
            /* The rest is a lock acquire and release per handle. */
            ASSERT_EQ(w->busy - w->kernel, 16 * 4);
        }
        for (int i = 0; i < c->ndma; i++) {
            const iron_time_counters *d = &c->dma_time[i];
            ASSERT_EQ(d->busy + d->stall_in + d->stall_out + d->idle,
                      c->cycles);
            /* Each channel moves 16 objects of 512 cycles. */
            ASSERT_GE(d->busy, 16 * 512);
            ASSERT(d->kernel_time == NULL);
        }
        /* The copy waits for its input: its consumer endpoint of 'in'. */
        uint64_t waited = 0;
        for (int i = 0; i < c->nendpoints; i++)
            if (strcmp(c->endpoints[i].by, "copy") == 0 &&
                c->endpoints[i].writes == 0)
                waited = c->endpoint_time[i].stall_in;
        ASSERT_EQ(waited, c->worker_time[0].stall_in);
        ASSERT_GT(waited, 0);
        ASSERT_CONTAINS(c->summary, "modelled NPU time: ");
        ASSERT_CONTAINS(c->summary, "at 1000 MHz");
        ASSERT_CONTAINS(c->bottleneck, "data movement bounds the design");
        ASSERT_CONTAINS(c->summary, c->bottleneck);
        ASSERT_CONTAINS(c->summary, "worker 'copy' compute tile (0,2)");
    }
    iron_jit_free(j);
}

/* The model never changes what a design computes, and its time does not
 * depend on the host: the same on one thread and two, call after call,
 * profiled or checked. */
TEST(timing_is_deterministic)
{
    iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
    uint64_t first = stream_call(j, 8 * g_obj, &timed_cfg)->cycles;
    for (int threads = 1; threads <= 2; threads++) {
        iron_launch_config cfg = timed_cfg;
        cfg.threads = threads;
        for (int k = 0; k < 3; k++)
            ASSERT_EQ(stream_call(j, 8 * g_obj, &cfg)->cycles, first);
    }
    /* Profiled and checked calls take the one-object-at-a-time paths;
     * the model sees the same. */
    iron_launch_config cfg = timed_cfg;
    cfg.profile = 1;
    ASSERT_EQ(stream_call(j, 8 * g_obj, &cfg)->cycles, first);
    cfg.profile = 0;
    cfg.check = 1;
    ASSERT_EQ(stream_call(j, 8 * g_obj, &cfg)->cycles, first);
    iron_jit_free(j);
}

/* A timed call has a specialization of its own (its kernels count what
 * they issue), named so in its signature; untimed calls keep theirs. */
TEST(timing_has_its_own_specialization)
{
    iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
    stream_call(j, 4 * g_obj, NULL);
    stream_call(j, 4 * g_obj, &timed_cfg);
    stream_call(j, 4 * g_obj, NULL);
    stream_call(j, 4 * g_obj, &timed_cfg);
    ASSERT_EQ(test_stats(j).builds, 2);
    iron_tensor *a = test_zeros(IRON_INT16, 4 * g_obj),
                *b = test_zeros(IRON_INT16, 4 * g_obj);
    iron_spec *sp = NULL;
    ASSERT_OK(iron_jit_specialize(j, &timed_cfg, IRON_NO_PARAMS,
                                  IRON_TENSORS(a, b), &sp));
    ASSERT_CONTAINS(iron_spec_signature(sp), "columns, timed)");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

TEST(timing_from_the_environment)
{
    iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
    setenv("IRON_TIMING", "1", 1);
    setenv("IRON_CLOCK_MHZ", "1200", 1);
    IRON_WITH_DEVICE("npu1")
    {
        const iron_run_counters *c = stream_call(j, 4 * g_obj, NULL);
        ASSERT_EQ(c->timed, 1);
        ASSERT_DBL_NEAR(c->clock_mhz, 1200, 0);
        ASSERT_DBL_NEAR(c->seconds, (double)c->cycles / 1.2e9, 1e-12);
        /* The configuration wins over the environment. */
        iron_launch_config cfg = { .size = sizeof cfg, .timing = -1 };
        ASSERT_EQ(stream_call(j, 4 * g_obj, &cfg)->timed, 0);
        cfg.timing = 1;
        cfg.clock_mhz = 800;
        ASSERT_DBL_NEAR(stream_call(j, 4 * g_obj, &cfg)->clock_mhz, 800, 0);
    }
    unsetenv("IRON_TIMING");
    unsetenv("IRON_CLOCK_MHZ");
    iron_jit_free(j);
}

TEST(timing_clock_errors)
{
    iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
    iron_tensor *a = test_zeros(IRON_INT16, g_obj),
                *b = test_zeros(IRON_INT16, g_obj);
    iron_launch_config cfg = timed_cfg;
    IRON_WITH_DEVICE("npu1")
    {
        cfg.clock_mhz = 500;
        ASSERT_FAILS(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                     IRON_TENSORS(a, b)),
                     IRON_EINVAL,
                     "clock_mhz: 500 MHz is outside device 'npu1''s clock "
                     "range (Phoenix, Hawk Point (npu1): 800 to 1600 MHz)");
        cfg.clock_mhz = -1;
        ASSERT_FAILS(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                     IRON_TENSORS(a, b)),
                     IRON_EINVAL,
                     "clock_mhz is -1; expected 0 (the default) or a clock");
        setenv("IRON_CLOCK_MHZ", "2000", 1);
        ASSERT_FAILS(iron_jit_launch(j, &timed_cfg, IRON_NO_PARAMS,
                                     IRON_NO_SCALARS, IRON_TENSORS(a, b)),
                     IRON_EINVAL, "IRON_CLOCK_MHZ: 2000 MHz is outside");
        unsetenv("IRON_CLOCK_MHZ");
        /* After a refused clock the next call runs. */
        ASSERT_OK(iron_jit_launch(j, &timed_cfg, IRON_NO_PARAMS,
                                  IRON_NO_SCALARS, IRON_TENSORS(a, b)));
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* A traced timed call: the modelled timeline is a process of its own
 * beside the call's, with the kernel calls and the transfers on it. */
TEST(timing_trace_has_the_modelled_process)
{
    const char *dir = test_temp_dir("timing-trace");
    char path[512];
    snprintf(path, sizeof path, "%s/t.json", dir);
    iron_jit *j = test_jit(stream_design, "stream", "in a, out b");
    iron_launch_config cfg = timed_cfg;
    cfg.trace = path;
    stream_call(j, 4 * g_obj, &cfg);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    ASSERT(root != NULL);
    json_t *events = json_object_get(root, "traceEvents");
    int named = 0, transfers = 0, kernels = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        json_int_t pid = json_integer_value(json_object_get(e, "pid"));
        const char *name = json_string_value(json_object_get(e, "name"));
        const char *cat = json_string_value(json_object_get(e, "cat"));
        if (pid != 1 + 1000000)
            continue;
        if (strcmp(name, "process_name") == 0) {
            const char *title = json_string_value(json_object_get(
                json_object_get(e, "args"), "name"));
            ASSERT_CONTAINS(title, "modelled NPU time");
            named++;
        } else if (cat && strcmp(cat, "model") == 0) {
            transfers += strcmp(name, "transfer") == 0;
            kernels += strcmp(name, "copy16") == 0;
        }
    }
    ASSERT_EQ(named, 1);
    ASSERT_EQ(transfers, 8);   /* 4 objects in, 4 out */
    ASSERT_EQ(kernels, 4);
    json_decref(root);
    iron_jit_free(j);
    test_remove_dir(dir);
}

/* A worker pair that passes objects forever, beside the call's own
 * stream: their time has no end; the call's is counted to the sequence's
 * end, and says so. */
static const char bump_src[] =
    "#include <stdint.h>\n"
    "void bump(const int32_t *in, int32_t *out) { out[0] = in[0] + 1; }\n"
    "void tick(int32_t *out) { out[0]++; }\n"
    "void tock(const int32_t *in) { (void)in; }\n";

static int forever_design(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *ping = iron_fifo_new(d, "ping", IRON_INT32, IRON_SHAPE(1), 2);
    iron_fifo *pong = iron_fifo_new(d, "pong", IRON_INT32, IRON_SHAPE(1), 2);
    iron_fifo *pp = iron_fifo_new(d, "pp", IRON_INT32, IRON_SHAPE(1), 2);
    iron_kernel *k = iron_kernel_new(d, "bump", bump_src, "int32*, int32*");
    iron_kernel *tick = iron_kernel_new(d, "tick", bump_src, "int32*");
    iron_kernel *tock = iron_kernel_new(d, "tock", bump_src, "int32*");
    iron_worker_new(d, "ticker", tick, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_prod(pp))));
    iron_worker_new(d, "tocker", tock, 0,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(pp))));
    iron_worker_new(d, "copier", k, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(ping)),
                              iron_arg_fifo(iron_fifo_prod(pong))));
    iron_rt_fill(d, iron_fifo_prod(ping), 0, iron_tap_linear(1));
    iron_rt_drain(d, iron_fifo_cons(pong), 1, iron_tap_linear(1), IRON_WAIT);
    return 0;
}

TEST(timing_of_a_worker_that_never_stops)
{
    iron_jit *j = test_jit(forever_design, "forever", "in a, out b");
    iron_tensor *a = test_arange(IRON_INT32, 1), *b = test_zeros(IRON_INT32, 1);
    ASSERT_OK(iron_jit_launch(j, &timed_cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    ASSERT_EQ(test_at(b, 0), 1);
    const iron_run_counters *c = NULL;
    ASSERT_OK(iron_jit_get_counters(j, &c));
    ASSERT_EQ(c->unbounded, 1);
    ASSERT_CONTAINS(c->summary, "a worker still runs when the sequence "
                                "completes");
    for (int i = 0; i < c->nworkers; i++) {
        const iron_time_counters *w = &c->worker_time[i];
        ASSERT_EQ(w->busy + w->stall_in + w->stall_out + w->idle, c->cycles);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* Across columns: the whole-array matmul's broadcasts are shared pools
 * on several lanes, stamped with atomic maxima; its modelled time is the
 * same on 1, 2 and 3 threads. */
TEST_TIMEOUT(timing_whole_array_on_any_thread_count, 120)
{
    const int64_t M = 256, K = 128, N = 256;
    iron_tensor *a = test_randint(IRON_INT16, IRON_SHAPE(M, K), -300, 300, 1);
    iron_tensor *b = test_randint(IRON_INT16, IRON_SHAPE(K, N), -300, 300, 2);
    iron_tensor *c = test_zeros_shape(IRON_INT32, IRON_SHAPE(M, N));
    iron_jit *j = test_new_jit(matmul_whole_design, &matmul_whole_options);
    ASSERT_OK(iron_device_push("npu2"));
    uint64_t first = 0;
    for (int threads = 1; threads <= 3; threads++) {
        iron_launch_config cfg = timed_cfg;
        cfg.threads = threads;
        ASSERT_OK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b, c)));
        const iron_run_counters *cn = NULL;
        ASSERT_OK(iron_jit_get_counters(j, &cn));
        ASSERT_EQ(cn->timed, 1);
        if (threads == 1)
            first = cn->cycles;
        ASSERT_EQ(cn->cycles, first);
        ASSERT_EQ(cn->nworkers, 32);
    }
    ASSERT_OK(iron_device_pop());
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

/* The GEMMs the model is calibrated on (bench/timing) compute the
 * product: int8 modulo 2^8, bfloat16 through float; A per row from a shim
 * of its own, C buffered once. */
TEST_TIMEOUT(timing_gemm_designs_compute_the_product, 120)
{
    const int64_t M = 128, K = 64, N = 128;
    for (int bf = 0; bf < 2; bf++) {
        iron_dtype dt = bf ? IRON_BFLOAT16 : IRON_INT8;
        iron_tensor *a = test_randint(dt, IRON_SHAPE(M, K), -4, 4, 5);
        iron_tensor *b = test_randint(dt, IRON_SHAPE(K, N), -4, 4, 6);
        iron_tensor *c = test_zeros_shape(dt, IRON_SHAPE(M, N));
        iron_jit *j = bf ? test_new_jit(matmul_whole_bf16_design,
                                        &matmul_whole_bf16_options)
                         : test_new_jit(matmul_whole_i8_design,
                                        &matmul_whole_i8_options);
        iron_param p[] = { iron_param_int("m", 32), iron_param_int("k", 32),
                           iron_param_int("n", 32),
                           iron_param_int("c_depth", 1) };
        IRON_WITH_DEVICE("npu1")
        {
            ASSERT_OK(iron_jit_launch(j, &timed_cfg,
                                      IRON_PARAMS(p[0], p[1], p[2], p[3]),
                                      IRON_NO_SCALARS, IRON_TENSORS(a, b, c)));
        }
        for (int64_t i = 0; i < M; i += 7)
            for (int64_t jj = 0; jj < N; jj += 5) {
                double s = 0;
                for (int64_t k = 0; k < K; k++)
                    s += test_at(a, i * K + k) * test_at(b, k * N + jj);
                double got = test_at(c, i * N + jj);
                if (bf)
                    ASSERT_DBL_NEAR(got, s, 0);   /* small integers: exact */
                else
                    ASSERT_EQ((int8_t)got, (int8_t)(int64_t)s);
            }
        iron_jit_free(j);
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_tensor_free(c);
    }
}

/* Where a worker's kernel cycles come from: declared wins; a kernel with
 * the AIE API counts its operations; plain C code is a guess per basic
 * block.  bench/timing/calib.cc's kernels, as make bench's anchors. */
static const char *g_entry = "vsm_pipelined";

static int calib_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT16, IRON_SHAPE(1024), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT16, IRON_SHAPE(1024), 2);
    iron_kernel *k = iron_kernel_new_file(d, g_entry, "bench/timing/calib.cc",
                                          "int16*, int16*, int32, int32", 0,
                                          NULL);
    iron_worker_new(d, "vsm", k, n / 1024,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(3), iron_arg_int(1024)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST_TIMEOUT(timing_kernel_sources, 120)
{
    static const struct {
        const char *entry, *source;
        uint64_t per_call;
    } cases[] = {
        { "vsm_pipelined", "counted", 72 },
        { "vsm_scalar", "guess", 10284 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        g_entry = cases[c].entry;
        iron_jit *j = test_jit(calib_design, "calib", "in a, out b");
        iron_tensor *a = test_arange(IRON_INT16, 4096),
                    *b = test_zeros(IRON_INT16, 4096);
        IRON_WITH_DEVICE("npu1")
        {
            ASSERT_OK(iron_jit_launch(j, &timed_cfg, IRON_NO_PARAMS,
                                      IRON_NO_SCALARS, IRON_TENSORS(a, b)));
        }
        for (int i = 0; i < 4096; i += 13)
            ASSERT_EQ(test_at(b, i), (double)(int16_t)(3 * i));
        const iron_run_counters *cn = NULL;
        ASSERT_OK(iron_jit_get_counters(j, &cn));
        ASSERT_STR_EQ(cn->worker_time[0].kernel_time, cases[c].source);
        ASSERT_EQ(cn->worker_time[0].calls, 4);
        ASSERT_EQ(cn->worker_time[0].kernel, 4 * cases[c].per_call);
        if (strcmp(cases[c].source, "guess") == 0)
            ASSERT_CONTAINS(cn->summary, "kernel time 'guess'");
        iron_tensor_free(a);
        iron_tensor_free(b);
        iron_jit_free(j);
    }
}

/* A declared cost that cannot be evaluated for a call stops the call,
 * naming the worker, the kernel, the formula and the value. */
TEST(timing_declared_cost_below_zero_stops_the_call)
{
    g_cost = "100 - n";
    iron_jit *j = test_jit(stream_design, "negative", "in a, out b");
    iron_tensor *a = test_arange(IRON_INT16, 4 * g_obj),
                *b = test_zeros(IRON_INT16, 4 * g_obj);
    /* Untimed, the cost is never evaluated. */
    ASSERT_OK(iron_jit_launch(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    ASSERT_FAILS(iron_jit_launch(j, &timed_cfg, IRON_NO_PARAMS,
                                 IRON_NO_SCALARS, IRON_TENSORS(a, b)),
                 IRON_EINVAL,
                 "worker 'copy' on compute tile (0,2) at iteration 0: "
                 "kernel 'copy16': declared cycles \"100 - n\" is -924");
    /* The next call runs again. */
    ASSERT_OK(iron_jit_launch(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                              IRON_TENSORS(a, b)));
    g_cost = "n / 32 + 8";
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* A kernel a core body calls: its declared cost is charged per call (the
 * body's calls are bracketed in a timed build), beside the body's own
 * code, a guess. */
TEST_TIMEOUT(timing_declared_cost_in_a_core_body, 120)
{
    const int64_t M = 128, K = 64, N = 128;
    iron_tensor *a = test_randint(IRON_INT8, IRON_SHAPE(M, K), -4, 4, 5);
    iron_tensor *b = test_randint(IRON_INT8, IRON_SHAPE(K, N), -4, 4, 6);
    iron_tensor *c = test_zeros_shape(IRON_INT8, IRON_SHAPE(M, N));
    iron_jit *j = test_new_jit(matmul_whole_i8_design,
                               &matmul_whole_i8_options);
    iron_param p[] = { iron_param_int("m", 32), iron_param_int("k", 32),
                       iron_param_int("n", 32), iron_param_int("c_depth", 1),
                       iron_param_int("kernel_cycles", 1000) };
    IRON_WITH_DEVICE("npu1")
    {
        ASSERT_OK(iron_jit_launch(j, &timed_cfg,
                                  IRON_PARAMS(p[0], p[1], p[2], p[3], p[4]),
                                  IRON_NO_SCALARS, IRON_TENSORS(a, b, c)));
    }
    const iron_run_counters *cn = NULL;
    ASSERT_OK(iron_jit_get_counters(j, &cn));
    ASSERT_EQ(cn->nworkers, 16);
    for (int i = 0; i < cn->nworkers; i++) {
        const iron_time_counters *w = &cn->worker_time[i];
        ASSERT_STR_EQ(w->kernel_time, "declared+guess");
        /* Each core: one C tile of K/k = 2 products, 1000 cycles each,
         * and its own code besides. */
        ASSERT_GE(w->kernel, 2 * 1000);
        ASSERT_LT(w->kernel, 2 * 1000 + 1000);
        ASSERT_EQ(w->calls, 0);
    }
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}
