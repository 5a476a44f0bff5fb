/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_observe.c - what a call leaves to look at: counters through
 * iron_jit_get_counters and IRON_LOG=emu, the trace-event JSON (checked with
 * jansson, as Perfetto would read it), and the wait-for graph of a
 * deadlock written beside the trace.
 */
#include <jansson.h>

#include "test.h"

enum { TILE = 16, N = 256 };

static const char twice_src[] =
    "#include <stdint.h>\n"
    "void twice(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++) out[i] = 2 * in[i];\n"
    "}\n";

static int g_stall;   /* 1: the drain reads a fifo nobody fills */

static int twice_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k = iron_kernel_new(d, "twice", twice_src,
                                     "int32*, int32*, int32");
    iron_worker_new(d, "w0", k, n / TILE,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(TILE)));
    /* Stalling: only half the input arrives. */
    iron_rt_fill(d, iron_fifo_prod(in), 0,
                 iron_tap_linear(g_stall ? n / 2 : n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static iron_jit *make(void)
{
    return test_jit(twice_design, "twice", "in a, out b");
}

static iron_status call(iron_jit *j, const iron_launch_config *cfg)
{
    iron_tensor *a = test_arange(IRON_INT32, N),
                *b = test_zeros(IRON_INT32, N);
    iron_status s = test_keep(iron_jit_launch(
        j, cfg, IRON_NO_PARAMS, IRON_NO_SCALARS, IRON_TENSORS(a, b)));
    if (s == IRON_OK)
        for (int i = 0; i < N; i++)
            ASSERT_EQ(test_at(b, i), 2 * i);
    iron_tensor_free(a);
    iron_tensor_free(b);
    return s;
}

static const iron_endpoint_counters *endpoint(const iron_run_counters *c,
                                              const char *label,
                                              const char *by)
{
    for (int i = 0; i < c->nendpoints; i++)
        if (strcmp(c->endpoints[i].endpoint, label) == 0 &&
            strcmp(c->endpoints[i].by, by) == 0)
            return &c->endpoints[i];
    TEST_FAIL_("no endpoint %s", label);
}

TEST(counters_after_each_call)
{
    iron_jit *j = make();
    const iron_run_counters *c;
    ASSERT_FAILS(iron_jit_get_counters(j, &c), IRON_ESTATE, "no call has run");
    ASSERT_FAILS(iron_jit_get_counters(j, NULL), IRON_EINVAL, "out is NULL");
    ASSERT_OK(call(j, NULL));
    ASSERT_OK(iron_jit_get_counters(j, &c));
    ASSERT_EQ(c->size, sizeof *c);
    ASSERT_EQ(c->profiled, 0);
    ASSERT_EQ(c->nworkers, 1);
    ASSERT_STR_EQ(c->workers[0].worker, "w0");
    ASSERT_EQ(c->workers[0].col, 0);
    ASSERT_EQ(c->workers[0].row, 2);
    ASSERT_EQ(c->workers[0].iterations, N / TILE);
    ASSERT_EQ(c->workers[0].kernel_ns, 0);   /* not profiled */
    const iron_endpoint_counters *e =
        endpoint(c, "fifo 'in' (consumer)", "w0");
    ASSERT_STR_EQ(e->fifo, "in");
    ASSERT_EQ(e->writes, 0);
    ASSERT_EQ(e->col, 0);
    ASSERT_EQ(e->row, 2);
    ASSERT_EQ(e->objects, N / TILE);
    ASSERT_EQ(e->bytes, N * 4);
    ASSERT_GE(e->peak, 1);
    ASSERT_LE(e->peak, e->depth);
    ASSERT_EQ(c->ndma, 2);
    for (int i = 0; i < c->ndma; i++) {
        ASSERT_EQ(c->dma[i].objects, N / TILE);
        ASSERT_EQ(c->dma[i].bytes, N * 4);
    }
    /* Per call, not cumulative. */
    ASSERT_OK(call(j, NULL));
    ASSERT_OK(iron_jit_get_counters(j, &c));
    ASSERT_EQ(c->workers[0].iterations, N / TILE);
    /* Profiled: times. */
    iron_launch_config cfg = { .size = sizeof cfg, .profile = 1 };
    ASSERT_OK(call(j, &cfg));
    ASSERT_OK(iron_jit_get_counters(j, &c));
    ASSERT_EQ(c->profiled, 1);
    ASSERT_GT(c->workers[0].kernel_ns, 0);
    ASSERT_GT(c->wall_ns, c->workers[0].kernel_ns);
    uint64_t busy = 0;
    for (int i = 0; i < c->ndma; i++)
        busy += c->dma[i].busy_ns;
    ASSERT_GT(busy, 0);
    iron_jit_free(j);
}

static char lines[16384];

static void on_log(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    if (strcmp(topic, "emu") != 0)
        return;
    size_t n = strlen(lines);
    snprintf(lines + n, sizeof lines - n, "%s\n", line);
}

TEST(counters_log_emu_summary)
{
    setenv("IRON_LOG", "emu", 1);
    iron_log_set_handler(on_log, NULL);
    iron_jit *j = make();
    ASSERT_OK(call(j, NULL));
    iron_log_set_handler(NULL, NULL);
    ASSERT_CONTAINS(lines, "run: ");
    ASSERT_CONTAINS(lines, "worker 'w0' (0,2): 16 iterations, ");
    ASSERT_CONTAINS(lines, "ms in kernels");
    ASSERT_CONTAINS(lines, "fifo 'out' (producer) on (0,2) used by w0: 16 "
                           "objects, 1024 bytes, peak ");
    ASSERT_CONTAINS(lines, "DMA ");
    ASSERT(strstr(lines, "not profiled") == NULL);   /* IRON_LOG=emu */
    iron_jit_free(j);
}

/* A stall's report goes to the log whole, a line each, and to the
 * counters; the message of the call says the same. */
TEST(counters_log_emu_stall_report)
{
    setenv("IRON_LOG", "emu", 1);
    iron_log_set_handler(on_log, NULL);
    g_stall = 1;
    iron_jit *j = make();
    ASSERT_STATUS(call(j, NULL), IRON_EDEADLOCK);
    iron_log_set_handler(NULL, NULL);
    ASSERT_CONTAINS(lines, "stall: no task can make progress with 1 awaited "
                           "drain");
    ASSERT_CONTAINS(lines, "\nstall: worker 'w0' on tile (0,2) after 8 "
                           "iterations waits to acquire 1 filled buffer of "
                           "fifo 'in' (consumer)");
    ASSERT_CONTAINS(lines, "\nstall: DMA fifo 'out': compute tile (0,2) -> "
                           "shim (0,0) (drain of argument 1 'b': 128 of 256 "
                           "elements moved)");
    const iron_run_counters *c;
    ASSERT_OK(iron_jit_get_counters(j, &c));
    ASSERT(c->report != NULL);
    ASSERT_CONTAINS(test_errmsg, c->report);
    iron_jit_free(j);
}

static char dir[128];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "%s", test_temp_dir("observe"));
}

/* The events of `track` (a thread_name) with `name`, counted. */
static int count_events(json_t *events, const char *track, const char *name,
                        const char *ph)
{
    json_int_t tid = -1, pid = -1;
    size_t i;
    json_t *ev;
    json_array_foreach(events, i, ev) {
        const char *n = json_string_value(json_object_get(ev, "name"));
        json_t *args = json_object_get(ev, "args");
        const char *tn = json_string_value(json_object_get(args, "name"));
        if (n && strcmp(n, "thread_name") == 0 && tn &&
            strstr(tn, track)) {
            tid = json_integer_value(json_object_get(ev, "tid"));
            pid = json_integer_value(json_object_get(ev, "pid"));
        }
    }
    ASSERT(tid >= 0);
    int found = 0;
    json_array_foreach(events, i, ev) {
        const char *n = json_string_value(json_object_get(ev, "name"));
        const char *p = json_string_value(json_object_get(ev, "ph"));
        if (json_integer_value(json_object_get(ev, "tid")) == tid &&
            json_integer_value(json_object_get(ev, "pid")) == pid && n &&
            strcmp(n, name) == 0 && p && strcmp(p, ph) == 0)
            found++;
    }
    return found;
}

TEST(trace_of_a_call_opens_as_trace_events)
{
    make_dir();
    char path[192];
    snprintf(path, sizeof path, "%s/call.json", dir);
    iron_jit *j = make();
    iron_launch_config cfg = { .size = sizeof cfg, .trace = path };
    ASSERT_OK(call(j, &cfg));
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root)
        TEST_FAIL_("%s: %s (line %d)", path, err.text, err.line);
    json_t *events = json_object_get(root, "traceEvents");
    ASSERT(json_is_array(events));
    /* A kernel span per iteration, with its iteration. */
    ASSERT_EQ(count_events(events, "compute tile (0,2): worker 'w0'",
                           "twice", "X"), N / TILE);
    size_t i;
    json_t *ev;
    int last_iter = -1, waits = 0, releases = 0, transfers = 0, fills = 0;
    json_array_foreach(events, i, ev) {
        const char *n = json_string_value(json_object_get(ev, "name"));
        json_t *args = json_object_get(ev, "args");
        if (!n)
            continue;
        if (strcmp(n, "twice") == 0) {
            int it = (int)json_integer_value(json_object_get(args,
                                                             "iteration"));
            ASSERT_EQ(it, last_iter + 1);
            last_iter = it;
            ASSERT(json_number_value(json_object_get(ev, "dur")) >= 0);
        } else if (strcmp(n, "acquire wait") == 0) {
            ASSERT(json_string_value(json_object_get(args, "fifo")) != NULL);
            waits++;
        } else if (strcmp(n, "release") == 0) {
            releases++;
        } else if (strcmp(n, "transfer") == 0) {
            ASSERT_EQ(json_integer_value(json_object_get(args, "bytes")),
                      TILE * 4);
            transfers++;
        } else if (strcmp(n, "fill") == 0) {
            ASSERT_STR_EQ(json_string_value(json_object_get(args, "op")),
                          "in");
            fills++;
        }
    }
    ASSERT_EQ(releases, 2 * N / TILE);
    ASSERT_EQ(transfers, 2 * N / TILE);
    ASSERT_EQ(fills, 1);
    ASSERT_GE(waits, 1);
    ASSERT_EQ(count_events(events, "runtime sequence", "drain", "i"), 1);
    json_decref(root);
    iron_jit_free(j);
    test_remove_dir(dir);
}

TEST(trace_from_the_environment)
{
    /* IRON_TRACE does the same for calls that name no trace. */
    make_dir();
    char path[192];
    snprintf(path, sizeof path, "%s/env.json", dir);
    setenv("IRON_TRACE", path, 1);
    iron_jit *j = make();
    ASSERT_OK(call(j, NULL));
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    ASSERT(root != NULL);
    ASSERT(json_array_size(json_object_get(root, "traceEvents")) > 0);
    json_decref(root);
    iron_jit_free(j);
    test_remove_dir(dir);
}

/* Every call of the process goes into the one IRON_TRACE file, each its
 * own process named after its jit: two calls of one jit, one of another,
 * and two runs of two jits on launcher threads at once (each call used to
 * rewrite the file, so only the last one remained). */
TEST(trace_from_the_environment_keeps_every_call)
{
    make_dir();
    char path[192];
    snprintf(path, sizeof path, "%s/all.json", dir);
    setenv("IRON_TRACE", path, 1);
    iron_jit *j1 = make();
    iron_jit *j2 = test_jit(twice_design, "second", "in a, out b");
    iron_jit *j3 = test_jit(twice_design, "third", "in a, out b");
    ASSERT_OK(call(j1, NULL));
    ASSERT_OK(call(j1, NULL));
    ASSERT_OK(call(j2, NULL));
    iron_tensor *a = test_arange(IRON_INT32, N), *b = test_zeros(IRON_INT32, N);
    iron_tensor *c = test_arange(IRON_INT32, N), *d = test_zeros(IRON_INT32, N);
    iron_run *r2 = NULL, *r3 = NULL;
    ASSERT_OK(iron_jit_start(j2, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(a, b), &r2));
    ASSERT_OK(iron_jit_start(j3, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                             IRON_TENSORS(c, d), &r3));
    ASSERT_OK(iron_run_wait(r2, -1));
    ASSERT_OK(iron_run_wait(r3, -1));
    iron_run_free(r2);
    iron_run_free(r3);

    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root)
        TEST_FAIL_("%s: %s (line %d)", path, err.text, err.line);
    ASSERT_EQ(json_integer_value(json_object_get(
                  json_object_get(root, "otherData"), "calls")), 5);
    json_t *events = json_object_get(root, "traceEvents");
    /* Five processes, one per call, named "call N: <signature>". */
    int named[6] = { 0 }, by_jit[3] = { 0 };
    size_t i;
    json_t *ev;
    json_array_foreach(events, i, ev) {
        const char *n = json_string_value(json_object_get(ev, "name"));
        if (!n || strcmp(n, "process_name") != 0)
            continue;
        int pid = (int)json_integer_value(json_object_get(ev, "pid"));
        ASSERT_GE(pid, 1);
        ASSERT_LE(pid, 5);
        named[pid]++;
        const char *pn = json_string_value(
            json_object_get(json_object_get(ev, "args"), "name"));
        char want[16];
        snprintf(want, sizeof want, "call %d: ", pid);
        ASSERT_EQ(strncmp(pn, want, strlen(want)), 0);
        ASSERT_CONTAINS(pn, " (a: int32[256], b: int32[256]; npu2");
        const char *jit = pn + strlen(want);
        by_jit[strncmp(jit, "twice ", 6) == 0    ? 0
               : strncmp(jit, "second ", 7) == 0 ? 1
                                                 : 2]++;
    }
    for (int p = 1; p <= 5; p++)
        ASSERT_EQ(named[p], 1);
    ASSERT_EQ(by_jit[0], 2);
    ASSERT_EQ(by_jit[1], 2);
    ASSERT_EQ(by_jit[2], 1);
    /* Each call has its kernel spans, on a thread of its own. */
    json_int_t tids[6] = { 0 };
    int kernels[6] = { 0 };
    json_array_foreach(events, i, ev) {
        const char *n = json_string_value(json_object_get(ev, "name"));
        if (!n || strcmp(n, "twice") != 0)
            continue;
        int pid = (int)json_integer_value(json_object_get(ev, "pid"));
        json_int_t tid = json_integer_value(json_object_get(ev, "tid"));
        if (kernels[pid]++ == 0)
            tids[pid] = tid;
        ASSERT_EQ(tid, tids[pid]);
    }
    for (int p = 1; p <= 5; p++) {
        ASSERT_EQ(kernels[p], N / TILE);
        for (int q = 1; q < p; q++)
            ASSERT_NE(tids[p], tids[q]);
    }
    json_decref(root);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(d);
    iron_jit_free(j1);
    iron_jit_free(j2);
    iron_jit_free(j3);
    test_remove_dir(dir);
}

TEST(trace_of_a_deadlock_has_its_wait_for_graph)
{
    make_dir();
    char path[192], dot[224], text[8192];
    snprintf(path, sizeof path, "%s/stall.json", dir);
    snprintf(dot, sizeof dot, "%s.dot", path);
    g_stall = 1;
    iron_jit *j = make();
    iron_launch_config cfg = { .size = sizeof cfg, .trace = path };
    ASSERT_STATUS(call(j, &cfg), IRON_EDEADLOCK);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    ASSERT(root != NULL);
    json_decref(root);
    FILE *f = fopen(dot, "r");
    ASSERT(f != NULL);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ASSERT_CONTAINS(text, "digraph");
    /* The worker waits for input that the fill's DMA no longer brings. */
    ASSERT_CONTAINS(text, "\"w0\" -> ");
    ASSERT_CONTAINS(text, "1 filled of fifo 'in' (consumer)");
    iron_jit_free(j);
    test_remove_dir(dir);
}

TEST(trace_write_failure_keeps_the_call_result)
{
    iron_jit *j = make();
    iron_launch_config cfg = { .size = sizeof cfg,
                               .trace = "/nonexistent-folder/t.json" };
    ASSERT_OK(call(j, &cfg));
    iron_jit_free(j);
}
