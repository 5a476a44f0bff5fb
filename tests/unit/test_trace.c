/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_trace.c - the run timeline (src/emu/trace.c): the trace-event JSON
 * read back with jansson and checked field by field (groups, tracks,
 * spans, instants, arguments, times from 0), empty traces, growth, events
 * and tracks lost to failed allocations, failed and atomic writes, and
 * the wait-for graph in DOT with its escaping.  Every test works in its
 * own mkdtemp folder.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "emu/trace.h"
#include "test.h"

/* ---- helpers ---------------------------------------------------------- */

static const char *temp_dir(void)
{
    return test_temp_dir("trace");
}

static void done_dir(const char *dir)
{
    test_remove_dir(dir);
}

static const char *path_in(const char *dir, const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static iron__trace *new_trace(void)
{
    iron__trace *t = NULL;
    ASSERT_OK(iron__trace_new(&t));
    ASSERT(t != NULL);
    return t;
}

/* The written file parsed; fails the test when it is not JSON. */
static json_t *load(const char *path)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root)
        TEST_FAIL_("%s: line %d: %s", path, err.line, err.text);
    ASSERT(json_is_object(root));
    return root;
}

static json_t *events_of(const json_t *root)
{
    json_t *ev = json_object_get(root, "traceEvents");
    ASSERT(json_is_array(ev));
    return ev;
}

static const char *str_field(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        TEST_FAIL_("field \"%s\" is not a string", key);
    return json_string_value(v);
}

static long long int_field(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        TEST_FAIL_("field \"%s\" is not an integer", key);
    return (long long)json_integer_value(v);
}

static double real_field(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_real(v))
        TEST_FAIL_("field \"%s\" is not a real", key);
    return json_real_value(v);
}

/* The first event with phase `ph` and name `name`; fails if none. */
static json_t *find_event(const json_t *root, const char *ph,
                          const char *name)
{
    const json_t *ev = events_of(root);
    size_t i;
    json_t *e;
    json_array_foreach(ev, i, e) {
        if (strcmp(str_field(e, "ph"), ph) == 0 &&
            strcmp(str_field(e, "name"), name) == 0)
            return e;
    }
    TEST_FAIL_("no event ph=%s name=%s", ph, name);
}

/* The value of a metadata event's args (name or sort_index), or NULL. */
static json_t *meta_arg(const json_t *root, const char *name, int pid,
                        int tid, const char *key)
{
    const json_t *ev = events_of(root);
    size_t i;
    json_t *e;
    json_array_foreach(ev, i, e) {
        if (strcmp(str_field(e, "ph"), "M") == 0 &&
            strcmp(str_field(e, "name"), name) == 0 &&
            int_field(e, "pid") == pid && int_field(e, "tid") == tid)
            return json_object_get(json_object_get(e, "args"), key);
    }
    return NULL;
}

static int count_phase(const json_t *root, const char *ph)
{
    const json_t *ev = events_of(root);
    size_t i;
    json_t *e;
    int n = 0;
    json_array_foreach(ev, i, e)
        n += strcmp(str_field(e, "ph"), ph) == 0;
    return n;
}

/* The whole file as a string (free it). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    ASSERT(f != NULL);
    char *buf = malloc(1 << 16);
    ASSERT(buf != NULL);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Entries of a folder other than . and .. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ASSERT(d != NULL);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return n;
}

static char warnings[4096];

static void capture(const char *topic, const char *line, void *ctx)
{
    (void)ctx;
    size_t n = strlen(warnings);
    snprintf(warnings + n, sizeof warnings - n, "[%s] %s\n", topic, line);
}

/* ---- trace-event JSON --------------------------------------------------- */

/* Host times start far from 0, as CLOCK_MONOTONIC does. */
#define T0 5000000000ull

TEST(trace_json_structure)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    int tile = iron__trace_track(t, IRON__TRACE_TILES, "worker (0,2)");
    int dma = iron__trace_track(t, IRON__TRACE_DMA, "shim 0 mm2s 0");
    int seq = iron__trace_track(t, IRON__TRACE_SEQUENCE, "sequence");
    ASSERT_EQ(tile, 0);
    ASSERT_EQ(dma, 1);
    ASSERT_EQ(seq, 2);

    iron__trace_arg kargs[] = { { "kernel", "vadd", 0 },
                                { "iteration", NULL, 7 } };
    iron__trace_span(t, tile, "vadd", T0 + 1500, T0 + 4000, 2, kargs);
    iron__trace_span(t, tile, "wait in0", T0 + 1000, T0 + 1500, 0, NULL);
    iron__trace_span(t, tile, "acquire wait", T0 + 4000, T0 + 4100, 0, NULL);
    iron__trace_span(t, tile, "wait_kernel", T0 + 4100, T0 + 4200, 0, NULL);
    iron__trace_arg rargs[] = { { "fifo", "out", 0 } };
    iron__trace_instant(t, tile, "release out", T0 + 4000, 1, rargs);
    iron__trace_arg dargs[] = { { "bytes", NULL, -4096 } };
    iron__trace_span(t, dma, "fill in0", T0 + 250, T0 + 1250, 1, dargs);
    /* The earliest event is on the last track. */
    iron__trace_span(t, seq, "sequence", T0, T0 + 9999, 0, NULL);
    iron__trace_instant(t, seq, "barrier set", T0 + 123456789, 0, NULL);
    ASSERT_OK(iron__trace_append(t, path_in(dir, "run.json"), NULL));
    iron__trace_free(t);

    json_t *root = load(path_in(dir, "run.json"));
    ASSERT_STR_EQ(str_field(root, "displayTimeUnit"), "ns");
    ASSERT_STR_EQ(str_field(json_object_get(root, "otherData"), "producer"),
                  "iron emulator");
    ASSERT(json_object_get(json_object_get(root, "otherData"),
                           "dropped_events") == NULL);

    /* The call is process 1 ("call 1", no label given), its tracks are
     * threads numbered from 1 in creation order. */
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "process_name", 1, 0,
                                             "name")), "call 1");
    /* Calls sort by 2 * number: a call's modelled timeline (a process
     * of its own) sorts right after it. */
    ASSERT_EQ(json_integer_value(meta_arg(root, "process_sort_index", 1, 0,
                                          "sort_index")), 2);
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "thread_name", 1, 1,
                                             "name")), "worker (0,2)");
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "thread_name", 1, 2,
                                             "name")), "shim 0 mm2s 0");
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "thread_name", 1, 3,
                                             "name")), "sequence");
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(json_integer_value(meta_arg(root, "thread_sort_index", 1,
                                              i + 1, "sort_index")),
                  i);
    ASSERT_EQ(count_phase(root, "M"), 2 + 3 * 2);
    ASSERT_EQ(count_phase(root, "X"), 6);
    ASSERT_EQ(count_phase(root, "i"), 2);
    ASSERT_EQ(int_field(json_object_get(root, "otherData"), "calls"), 1);

    /* A span: microseconds since the earliest event, as reals. */
    json_t *k = find_event(root, "X", "vadd");
    ASSERT_STR_EQ(str_field(k, "cat"), "kernel");
    ASSERT_EQ(int_field(k, "pid"), 1);
    ASSERT_EQ(int_field(k, "tid"), 1);
    ASSERT_DBL_NEAR(real_field(k, "ts"), 1.5, 1e-12);
    ASSERT_DBL_NEAR(real_field(k, "dur"), 2.5, 1e-12);
    json_t *a = json_object_get(k, "args");
    ASSERT_EQ(json_object_size(a), 2);
    ASSERT_STR_EQ(str_field(a, "kernel"), "vadd");
    ASSERT_EQ(int_field(a, "iteration"), 7);
    ASSERT(json_object_get(k, "s") == NULL);

    json_t *w = find_event(root, "X", "wait in0");
    ASSERT_STR_EQ(str_field(w, "cat"), "wait");
    ASSERT_DBL_NEAR(real_field(w, "ts"), 1.0, 1e-12);
    ASSERT_DBL_NEAR(real_field(w, "dur"), 0.5, 1e-12);
    ASSERT(json_object_get(w, "args") == NULL);

    /* The category follows the name: "wait" as a word is a wait, a
     * kernel's entry point never is. */
    ASSERT_STR_EQ(str_field(find_event(root, "X", "acquire wait"), "cat"),
                  "wait");
    ASSERT_STR_EQ(str_field(find_event(root, "X", "wait_kernel"), "cat"),
                  "kernel");

    json_t *d = find_event(root, "X", "fill in0");
    ASSERT_STR_EQ(str_field(d, "cat"), "dma");
    ASSERT_EQ(int_field(d, "pid"), 1);
    ASSERT_EQ(int_field(d, "tid"), 2);
    ASSERT_DBL_NEAR(real_field(d, "ts"), 0.25, 1e-12);
    ASSERT_DBL_NEAR(real_field(d, "dur"), 1.0, 1e-12);
    ASSERT_EQ(int_field(json_object_get(d, "args"), "bytes"), -4096);

    json_t *sq = find_event(root, "X", "sequence");
    ASSERT_STR_EQ(str_field(sq, "cat"), "sequence");
    ASSERT_EQ(int_field(sq, "pid"), 1);
    ASSERT_EQ(int_field(sq, "tid"), 3);
    ASSERT_DBL_NEAR(real_field(sq, "ts"), 0.0, 0);
    ASSERT_DBL_NEAR(real_field(sq, "dur"), 9.999, 1e-12);

    /* Instants: thread scoped, no duration. */
    json_t *r = find_event(root, "i", "release out");
    ASSERT_STR_EQ(str_field(r, "cat"), "release");
    ASSERT_STR_EQ(str_field(r, "s"), "t");
    ASSERT_DBL_NEAR(real_field(r, "ts"), 4.0, 1e-12);
    ASSERT(json_object_get(r, "dur") == NULL);
    ASSERT_STR_EQ(str_field(json_object_get(r, "args"), "fifo"), "out");
    json_t *b = find_event(root, "i", "barrier set");
    ASSERT_STR_EQ(str_field(b, "cat"), "sequence");
    ASSERT_DBL_NEAR(real_field(b, "ts"), 123456.789, 1e-9);

    /* The earliest event is at 0 and none is before it. */
    size_t i;
    json_t *e;
    double min_ts = 1e300;
    json_array_foreach(events_of(root), i, e) {
        if (strcmp(str_field(e, "ph"), "M") != 0) {
            ASSERT(json_object_get(e, "cat") != NULL);
            if (real_field(e, "ts") < min_ts)
                min_ts = real_field(e, "ts");
        }
    }
    ASSERT_DBL_NEAR(min_ts, 0.0, 0);
    json_decref(root);
    ASSERT_EQ(count_entries(dir), 1);  /* no temporary file left */
    done_dir(dir);
}

/* Times print as exact short decimals, not 17-digit noise. */
TEST(trace_json_times_are_short_decimals)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    int tr = iron__trace_track(t, IRON__TRACE_TILES, "w");
    iron__trace_span(t, tr, "k", T0, T0 + 1, 0, NULL);
    iron__trace_span(t, tr, "k2", T0 + 1234567, T0 + 1234567 + 1001, 0,
                     NULL);
    ASSERT_OK(iron__trace_append(t, path_in(dir, "t.json"), NULL));
    iron__trace_free(t);
    char *text = read_text(path_in(dir, "t.json"));
    ASSERT_CONTAINS(text, "\"ts\":1234.567");
    ASSERT_CONTAINS(text, "\"dur\":1.001");
    ASSERT_CONTAINS(text, "\"dur\":0.001");
    ASSERT(strstr(text, "0000000") == NULL);
    ASSERT(strstr(text, "9999999") == NULL);
    free(text);
    done_dir(dir);
}

TEST(trace_empty_writes_only_metadata)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    ASSERT_EQ(iron__trace_track(t, IRON__TRACE_TILES, "worker a"), 0);
    ASSERT_EQ(iron__trace_track(t, IRON__TRACE_DMA, "mover b"), 1);
    ASSERT_OK(iron__trace_append(t, path_in(dir, "empty.json"), "e (x)"));
    iron__trace_free(t);

    json_t *root = load(path_in(dir, "empty.json"));
    json_t *ev = events_of(root);
    ASSERT_EQ(json_array_size(ev), 2 + 2 * 2);
    ASSERT_EQ(count_phase(root, "M"), (int)json_array_size(ev));
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "process_name", 1, 0,
                                             "name")), "call 1: e (x)");
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "thread_name", 1, 2,
                                             "name")), "mover b");
    json_decref(root);
    done_dir(dir);
}

TEST(trace_without_tracks_writes_only_the_call)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    ASSERT_OK(iron__trace_append(t, path_in(dir, "none.json"), NULL));
    iron__trace_free(t);
    json_t *root = load(path_in(dir, "none.json"));
    ASSERT_EQ(json_array_size(events_of(root)), 2);
    ASSERT_STR_EQ(str_field(json_object_get(root, "otherData"), "producer"),
                  "iron emulator");
    json_decref(root);
    done_dir(dir);
}

/* Every call added to one path stays in the file, each its own process
 * with threads numbered past the calls before; the file is whole JSON
 * after each call, and on one time axis (IRON_TRACE kept only the last
 * call of a process). */
TEST(trace_calls_to_one_path_are_all_kept)
{
    const char *dir = temp_dir();
    const char *path = path_in(dir, "all.json");
    char keep[256];
    snprintf(keep, sizeof keep, "%s", path);
    for (int call = 1; call <= 3; call++) {
        iron__trace *t = new_trace();
        int a = iron__trace_track(t, IRON__TRACE_TILES, "tile");
        int b = iron__trace_track(t, IRON__TRACE_SEQUENCE, "seq");
        uint64_t at = T0 + (uint64_t)call * 1000000;
        iron__trace_span(t, a, "kernel", at, at + 500, 0, NULL);
        iron__trace_instant(t, b, "op", at + 100, 0, NULL);
        char label[64];
        snprintf(label, sizeof label, "jit%d (x)", call);
        ASSERT_OK(iron__trace_append(t, keep, label));
        iron__trace_free(t);

        json_t *root = load(keep);
        ASSERT_EQ(int_field(json_object_get(root, "otherData"), "calls"),
                  call);
        ASSERT_EQ(count_phase(root, "X"), call);
        ASSERT_EQ(count_phase(root, "i"), call);
        ASSERT_EQ(count_phase(root, "M"), call * (2 + 2 * 2));
        for (int c = 1; c <= call; c++) {
            char want[64];
            snprintf(want, sizeof want, "call %d: jit%d (x)", c, c);
            ASSERT_STR_EQ(json_string_value(meta_arg(root, "process_name",
                                                     c, 0, "name")), want);
            /* Threads go on numbering: call c has 2c-1 and 2c. */
            ASSERT_STR_EQ(json_string_value(meta_arg(
                              root, "thread_name", c, 2 * c - 1, "name")),
                          "tile");
            ASSERT_STR_EQ(json_string_value(meta_arg(
                              root, "thread_name", c, 2 * c, "name")),
                          "seq");
        }
        /* One time axis: the first call's earliest event is 0, a later
         * call's kernel is a millisecond per call later. */
        size_t i;
        json_t *e;
        json_array_foreach(events_of(root), i, e) {
            if (strcmp(str_field(e, "ph"), "X") != 0)
                continue;
            int c = (int)int_field(e, "pid");
            ASSERT_EQ(int_field(e, "tid"), 2 * c - 1);
            ASSERT_DBL_NEAR(real_field(e, "ts"), 1000.0 * (c - 1), 1e-9);
        }
        json_decref(root);
        ASSERT_EQ(count_entries(dir), 1);  /* no temporary file left */
    }
    /* Removed between calls: the next call starts a new file. */
    ASSERT_EQ(unlink(keep), 0);
    iron__trace *t = new_trace();
    iron__trace_span(t, iron__trace_track(t, IRON__TRACE_TILES, "w"), "k",
                     T0, T0 + 1, 0, NULL);
    ASSERT_OK(iron__trace_append(t, keep, "again"));
    iron__trace_free(t);
    json_t *root = load(keep);
    ASSERT_EQ(int_field(json_object_get(root, "otherData"), "calls"), 1);
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "process_name", 1, 0,
                                             "name")), "call 1: again");
    json_decref(root);
    done_dir(dir);
}

static void add_call(const char *path, const char *label)
{
    iron__trace *t = new_trace();
    iron__trace_span(t, iron__trace_track(t, IRON__TRACE_TILES, "w"), "k",
                     T0, T0 + 1, 0, NULL);
    ASSERT_OK(iron__trace_append(t, path, label));
    iron__trace_free(t);
}

static long long calls_in(const char *path)
{
    json_t *root = load(path);
    long long n = int_field(json_object_get(root, "otherData"), "calls");
    json_decref(root);
    return n;
}

/* A child made by fork() writes its parent's trace paths as PATH.<pid>,
 * so that the two processes never write into one file. */
TEST(trace_fork_child_writes_its_own_file)
{
    const char *dir = temp_dir();
    char path[256], child[300];
    snprintf(path, sizeof path, "%s", path_in(dir, "f.json"));
    add_call(path, "parent");
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        add_call(path, "child");
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    add_call(path, "parent again");
    ASSERT_EQ(calls_in(path), 2);
    snprintf(child, sizeof child, "%s.%ld", path, (long)pid);
    ASSERT_EQ(calls_in(child), 1);
    done_dir(dir);
}

/* Enough events to grow the arrays many times, on interleaved tracks. */
TEST(trace_many_events_grow)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    int a = iron__trace_track(t, IRON__TRACE_TILES, "a");
    int b = iron__trace_track(t, IRON__TRACE_DMA, "b");
    enum { N = 20000 };
    for (int i = 0; i < N; i++) {
        iron__trace_arg arg = { "i", NULL, i };
        iron__trace_span(t, a, "k", T0 + 10u * (unsigned)i,
                         T0 + 10u * (unsigned)i + 5, 1, &arg);
        if (i % 2 == 0)
            iron__trace_instant(t, b, "r", T0 + 10u * (unsigned)i, 0, NULL);
    }
    ASSERT_OK(iron__trace_append(t, path_in(dir, "big.json"), NULL));
    iron__trace_free(t);

    json_t *root = load(path_in(dir, "big.json"));
    ASSERT_EQ(count_phase(root, "X"), N);
    ASSERT_EQ(count_phase(root, "i"), N / 2);
    /* Per track, events are in recording order. */
    json_t *ev = events_of(root);
    json_t *last = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(ev, i, e)
        if (strcmp(str_field(e, "ph"), "X") == 0)
            last = e;
    ASSERT(last != NULL);
    ASSERT_DBL_NEAR(real_field(last, "ts"), (N - 1) * 0.01, 1e-9);
    ASSERT_EQ(int_field(json_object_get(last, "args"), "i"), N - 1);
    json_decref(root);
    done_dir(dir);
}

/* Arguments past the maximum are cut, a NULL key gets a name, a
 * non-UTF-8 string keeps its ASCII, and quotes are escaped by jansson. */
TEST(trace_args_edge_cases)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    int tr = iron__trace_track(t, IRON__TRACE_TILES, "caf\xe9 \"q\"");
    iron__trace_arg args[IRON__TRACE_MAX_ARGS + 2];
    static const char *keys[] = { "a", "b", NULL, "d", "e", "f" };
    for (int i = 0; i < IRON__TRACE_MAX_ARGS + 2; i++)
        args[i] = (iron__trace_arg){ keys[i], NULL, i };
    args[1].s = "x\"y\\z\n";
    iron__trace_span(t, tr, "k\xff", T0, T0 + 1000, IRON__TRACE_MAX_ARGS + 2,
                     args);
    /* A span that ends before it starts is shown with no duration. */
    iron__trace_span(t, tr, "backwards", T0 + 500, T0 + 100, 0, NULL);
    ASSERT_OK(iron__trace_append(t, path_in(dir, "edge.json"), NULL));
    iron__trace_free(t);

    json_t *root = load(path_in(dir, "edge.json"));
    ASSERT_STR_EQ(json_string_value(meta_arg(root, "thread_name", 1, 1,
                                             "name")), "caf? \"q\"");
    json_t *k = find_event(root, "X", "k?");
    json_t *a = json_object_get(k, "args");
    ASSERT_EQ(json_object_size(a), IRON__TRACE_MAX_ARGS);
    ASSERT_EQ(int_field(a, "a"), 0);
    ASSERT_STR_EQ(str_field(a, "b"), "x\"y\\z\n");
    ASSERT_EQ(int_field(a, "arg2"), 2);
    ASSERT_EQ(int_field(a, "d"), 3);
    ASSERT(json_object_get(a, "e") == NULL);
    ASSERT_DBL_NEAR(real_field(find_event(root, "X", "backwards"), "dur"),
                    0.0, 0);
    json_decref(root);
    done_dir(dir);
}

/* Records on a NULL trace or a track that does not exist do nothing. */
TEST(trace_unknown_tracks_are_ignored)
{
    iron__trace_span(NULL, 0, "k", 1, 2, 0, NULL);
    iron__trace_instant(NULL, 0, "k", 1, 0, NULL);
    iron__trace *t = new_trace();
    iron__trace_span(t, -1, "k", 1, 2, 0, NULL);
    iron__trace_span(t, 0, "k", 1, 2, 0, NULL);
    ASSERT_EQ(iron__trace_track(t, (iron__trace_group)7, "bad"), -1);
    ASSERT_EQ(iron__trace_track(NULL, IRON__TRACE_TILES, "x"), -1);
    iron__trace_free(t);
    iron__trace_free(NULL);
}

/* A failed growth drops that event only; the writer warns and notes the
 * count in otherData. */
TEST(trace_dropped_events_are_reported)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    int tr = iron__trace_track(t, IRON__TRACE_TILES, "w");
    iron__alloc_fail_at(1);  /* the first event array */
    iron__trace_span(t, tr, "lost", T0, T0 + 1, 0, NULL);
    iron__alloc_fail_at(0);
    iron__trace_span(t, tr, "kept", T0 + 5000, T0 + 6000, 0, NULL);
    /* Arguments need their own array: failing it drops the event too. */
    iron__trace_arg arg = { "n", NULL, 1 };
    iron__alloc_fail_at(1);
    iron__trace_span(t, tr, "lost too", T0 + 7000, T0 + 8000, 1, &arg);
    iron__alloc_fail_at(0);

    warnings[0] = '\0';
    iron_log_set_handler(capture, NULL);
    iron_status s = iron__trace_append(t, path_in(dir, "d.json"), NULL);
    iron_log_set_handler(NULL, NULL);
    ASSERT_OK(s);
    iron__trace_free(t);
    ASSERT_CONTAINS(warnings, "[warning]");
    ASSERT_CONTAINS(warnings, "misses 2 events");
    ASSERT_CONTAINS(warnings, "d.json");

    json_t *root = load(path_in(dir, "d.json"));
    ASSERT_EQ(count_phase(root, "X"), 1);
    json_t *k = find_event(root, "X", "kept");
    ASSERT_DBL_NEAR(real_field(k, "ts"), 0.0, 0);
    ASSERT_EQ(int_field(json_object_get(root, "otherData"),
                        "dropped_events"), 2);
    json_decref(root);
    done_dir(dir);
}

/* Each allocation of track creation failing in turn: -1, no leak, a
 * warning at write time, and the trace stays usable. */
TEST(trace_track_out_of_memory)
{
    const char *dir = temp_dir();
    for (long n = 1;; n++) {
        iron__trace *t = new_trace();
        iron__alloc_fail_at(n);
        int tr = iron__trace_track(t, IRON__TRACE_DMA, "m");
        iron__alloc_fail_at(0);
        if (tr >= 0) {
            iron__trace_free(t);
            ASSERT_GT(n, 1);
            break;
        }
        iron__trace_span(t, tr, "k", 1, 2, 0, NULL);
        warnings[0] = '\0';
        iron_log_set_handler(capture, NULL);
        iron_status s = iron__trace_append(t, path_in(dir, "oom.json"), NULL);
        iron_log_set_handler(NULL, NULL);
        ASSERT_OK(s);
        ASSERT_CONTAINS(warnings, "misses 1 track");
        iron__trace_free(t);
        ASSERT_LT(n, 10);
    }
    iron__trace *t = NULL;
    iron__alloc_fail_at(1);
    ASSERT_FAILS(iron__trace_new(&t), IRON_ENOMEM, "trace");
    iron__alloc_fail_at(0);
    ASSERT(t == NULL);
    done_dir(dir);
    test_assert_no_leaks();
}

TEST(trace_write_missing_folder_fails)
{
    const char *dir = temp_dir();
    iron__trace *t = new_trace();
    int tr = iron__trace_track(t, IRON__TRACE_TILES, "w");
    iron__trace_span(t, tr, "k", T0, T0 + 1, 0, NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/no/such/folder/run.json", dir);
    ASSERT_FAILS(iron__trace_append(t, path, NULL), IRON_EIO, path);
    ASSERT_CONTAINS(iron_last_error(), strerror(ENOENT));
    ASSERT_FAILS(iron__trace_append(t, "", NULL), IRON_EINVAL, "path");
    iron__trace_free(t);
    ASSERT_EQ(count_entries(dir), 0);
    done_dir(dir);
}

/* The rename fails (the path is a folder): the temporary file is removed
 * and the folder left as it was. */
TEST(trace_write_failure_removes_temp_file)
{
    const char *dir = temp_dir();
    char inside[256];
    snprintf(inside, sizeof inside, "%s/taken/inside", dir);
    ASSERT_EQ(mkdir(path_in(dir, "taken"), 0755), 0);
    ASSERT_EQ(mkdir(inside, 0755), 0);
    iron__trace *t = new_trace();
    iron__trace_track(t, IRON__TRACE_TILES, "w");
    ASSERT_FAILS(iron__trace_append(t, path_in(dir, "taken"), NULL), IRON_EIO,
                 "taken");
    iron__trace_free(t);
    ASSERT_EQ(count_entries(dir), 1);
    done_dir(dir);
}

/* Writing again replaces the file whole. */
TEST(trace_write_replaces_file)
{
    const char *dir = temp_dir();
    const char *path = path_in(dir, "r.json");
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs("old content that is not json", f);
    fclose(f);
    iron__trace *t = new_trace();
    int tr = iron__trace_track(t, IRON__TRACE_SEQUENCE, "seq");
    iron__trace_instant(t, tr, "start", T0, 0, NULL);
    ASSERT_OK(iron__trace_append(t, path_in(dir, "r.json"), NULL));
    iron__trace_free(t);
    json_t *root = load(path_in(dir, "r.json"));
    ASSERT_EQ(count_phase(root, "i"), 1);
    json_decref(root);
    ASSERT_EQ(count_entries(dir), 1);
    done_dir(dir);
}

/* ---- DOT ---------------------------------------------------------------- */

TEST(trace_dot_edges_and_escaping)
{
    const char *dir = temp_dir();
    iron__dot_edge edges[] = {
        { "worker \"a\"", "mover b", "acquire in0 (0 of 2 filled)" },
        { "mover b", "runtime sequence", NULL },
        { "runtime sequence", "back\\slash", "barrier \"go\"" },
    };
    ASSERT_OK(iron__dot_write(path_in(dir, "wait.dot"), "stall \"1\"", 3,
                              edges));
    char *text = read_text(path_in(dir, "wait.dot"));
    ASSERT_CONTAINS(text, "digraph \"stall \\\"1\\\"\" {\n");
    ASSERT_CONTAINS(text, "    label=\"stall \\\"1\\\"\";\n");
    ASSERT_CONTAINS(text, "    rankdir=LR;\n");
    ASSERT_CONTAINS(text, "    node [shape=box];\n");
    ASSERT_CONTAINS(text, "    \"worker \\\"a\\\"\" -> \"mover b\" "
                          "[label=\"acquire in0 (0 of 2 filled)\"];\n");
    ASSERT_CONTAINS(text, "    \"mover b\" -> \"runtime sequence\";\n");
    ASSERT_CONTAINS(text, "    \"runtime sequence\" -> \"back\\\\slash\" "
                          "[label=\"barrier \\\"go\\\"\"];\n");
    /* Each distinct endpoint declared once, including a `to`-only one. */
    ASSERT_CONTAINS(text, "    \"back\\\\slash\";\n");
    char *p = strstr(text, "    \"mover b\";\n");
    ASSERT(p != NULL);
    ASSERT(strstr(p + 1, "    \"mover b\";\n") == NULL);
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    ASSERT_EQ(lines, 1 + 4 + 4 + 3 + 1);
    ASSERT(text[strlen(text) - 2] == '}');
    free(text);
    ASSERT_EQ(count_entries(dir), 1);
    done_dir(dir);
}

TEST(trace_dot_failures)
{
    const char *dir = temp_dir();
    iron__dot_edge e = { "a", "b", "l" };
    char path[256];
    snprintf(path, sizeof path, "%s/missing/g.dot", dir);
    ASSERT_FAILS(iron__dot_write(path, "g", 1, &e), IRON_EIO, path);
    iron__dot_edge bad = { "a", NULL, NULL };
    ASSERT_FAILS(iron__dot_write(path_in(dir, "g.dot"), "g", 1, &bad),
                 IRON_EINVAL, "edge 0");
    ASSERT_EQ(count_entries(dir), 0);
    /* No edges: an empty graph is still a graph. */
    ASSERT_OK(iron__dot_write(path_in(dir, "g.dot"), NULL, 0, NULL));
    char *text = read_text(path_in(dir, "g.dot"));
    ASSERT_CONTAINS(text, "digraph \"wait-for graph\" {\n");
    ASSERT_CONTAINS(text, "}\n");
    free(text);
    done_dir(dir);
}
