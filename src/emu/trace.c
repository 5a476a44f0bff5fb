/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * trace.c - records a run's timeline per track without locks and encodes
 * it as one call of a trace-event JSON file (Perfetto, chrome://tracing;
 * trace_file.c keeps the files); also writes wait-for graphs as Graphviz
 * DOT.
 *
 * Recording only stores pointers and numbers in the track's own growable
 * arrays: no lock, no syscall, no string copy, no JSON.  All the encoding
 * (with jansson, one event object at a time so that memory stays bounded
 * however long the trace) happens when the call is added to its file.
 *
 * Mapping to the trace-event format:
 *   call  -> "pid" (its number in the file), named by "process_name"
 *            metadata ("call 2: vadd (a: int32[4096], ...)") and ordered
 *            by "process_sort_index";
 *   track -> "tid" (numbered through the whole file, so that no two calls
 *            share one), named by "thread_name" metadata and ordered by
 *            "thread_sort_index" (creation order: tiles, DMA channels,
 *            the runtime sequence);
 *   span  -> ph "X" with "ts" and "dur", instant -> ph "i" with "s":"t";
 *   times are microseconds (floating point) since the file's base: the
 *   earliest event of its first call, or the creation of the process's
 *   first trace if that is earlier, so that every call of the process
 *   lands on one time axis and none before 0.
 * The category ("cat") is derived from the track's group, not recorded,
 * to keep the API small: every event on a DMA track is "dma", on the
 * sequence track "sequence"; on a tile track an instant is a "release", a
 * span whose name has the word "wait" in it ("acquire wait") is a "wait",
 * and any other span a "kernel" call (named by its entry point: a C
 * identifier, which cannot contain that word on its own).
 */
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/atomic.h"
#include "core/core.h"
#include "core/log.h"
#include "emu/trace.h"

#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#else
#define COLD
#endif

/* First capacities: most tracks of a short run never grow. */
#define EVENTS_START 256
#define ARGS_START 256

/* One recorded event (32 bytes); its arguments are in the track's `args`
 * array from index arg0 on, so that events without arguments cost no room
 * for them. */
struct event {
    const char *name;
    uint64_t t0, t1;       /* t1 == t0 for an instant */
    uint32_t arg0;
    uint8_t nargs;
    uint8_t strmask;       /* bit i set: argument i is a string */
    uint8_t instant;
};

struct arg {
    const char *key;
    union {
        const char *s;
        int64_t i;
    } v;
};

/* Tracks of different lanes are appended to at the same time: each is
 * allocated on its own cache lines so that their counters do not share
 * one (false sharing would make every record a cache miss). */
struct track {
    _Alignas(64) struct event *ev;
    size_t nev, evcap;
    struct arg *args;
    size_t nargs, argcap;
    uint64_t t_min;        /* earliest timestamp on the track */
    size_t dropped;        /* events lost to a failed allocation */
    /* Set at creation, only read afterwards. */
    iron__trace_group group;
    char *name;
};

struct iron__trace {
    struct track **tracks;
    int ntracks, cap;
    int lost_tracks;       /* iron__trace_track calls that ran out of memory */
};

/* ---- recording ---------------------------------------------------------- */

/* When the process's first trace was made: no event of any trace is
 * earlier. */
static uint64_t epoch_ns;

iron_status iron__trace_new(iron__trace **out)
{
    uint64_t zero = 0, now = iron__now_ns();
    __atomic_compare_exchange_n(&epoch_ns, &zero, now, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
    *out = iron__calloc(1, sizeof **out);
    if (!*out)
        return iron__fail(IRON_ENOMEM, "out of memory for a trace");
    return IRON_OK;
}

void iron__trace_free(iron__trace *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ntracks; i++) {
        struct track *tr = t->tracks[i];
        iron__free(tr->ev);
        iron__free(tr->args);
        iron__free(tr->name);
        iron__free_aligned(tr);
    }
    iron__free(t->tracks);
    iron__free(t);
}

int iron__trace_track(iron__trace *t, iron__trace_group g, const char *name)
{
    if (!t || (int)g < IRON__TRACE_TILES || (int)g > IRON__TRACE_MODEL)
        return -1;
    if (t->ntracks == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        struct track **p = iron__realloc(t->tracks, (size_t)cap * sizeof *p);
        if (!p) {
            t->lost_tracks++;
            return -1;
        }
        t->tracks = p;
        t->cap = cap;
    }
    struct track *tr = iron__aligned_alloc(_Alignof(struct track),
                                           sizeof *tr);
    char *copy = iron__strdup(name ? name : "");
    if (!tr || !copy) {
        iron__free_aligned(tr);
        iron__free(copy);
        t->lost_tracks++;
        return -1;
    }
    memset(tr, 0, sizeof *tr);
    tr->t_min = UINT64_MAX;
    tr->group = g;
    tr->name = copy;
    t->tracks[t->ntracks] = tr;
    return t->ntracks++;
}

/* The array p grown to twice its capacity (to `start` when empty), or
 * NULL when out of memory (p left as it was).  Kept out of line: it runs
 * log(n) times, the record path n times. */
static COLD void *grow(void *p, size_t *cap, size_t size, size_t start)
{
    size_t n = *cap ? 2 * *cap : start;
    if (n > SIZE_MAX / size)
        return NULL;
    void *q = iron__realloc(p, n * size);
    if (q)
        *cap = n;
    return q;
}

/* Whether the track can take one more event with nargs arguments. */
static int room(struct track *tr, int nargs)
{
    if (tr->nev == tr->evcap) {
        struct event *ev = grow(tr->ev, &tr->evcap, sizeof *ev,
                                EVENTS_START);
        if (!ev)
            return 0;
        tr->ev = ev;
    }
    if (nargs == 0)
        return 1;
    /* arg0 is 32 bits to keep events at 32 bytes. */
    if (tr->nargs > UINT32_MAX - IRON__TRACE_MAX_ARGS)
        return 0;
    if (tr->nargs + (size_t)nargs > tr->argcap) {
        struct arg *args = grow(tr->args, &tr->argcap, sizeof *args,
                                ARGS_START);
        if (!args)
            return 0;
        tr->args = args;
    }
    return 1;
}

/* Records on an unknown track (-1 from a failed iron__trace_track, or a
 * NULL trace when tracing is off) are ignored; arguments past
 * IRON__TRACE_MAX_ARGS are cut. */
static void record(iron__trace *t, int track, const char *name, uint64_t t0,
                   uint64_t t1, int instant, int nargs,
                   const iron__trace_arg *args)
{
    if (!t || track < 0 || track >= t->ntracks)
        return;
    struct track *tr = t->tracks[track];
    if (nargs < 0 || !args)
        nargs = 0;
    if (nargs > IRON__TRACE_MAX_ARGS)
        nargs = IRON__TRACE_MAX_ARGS;
    if (!room(tr, nargs)) {
        tr->dropped++;
        return;
    }
    struct event *e = &tr->ev[tr->nev++];
    e->name = name;
    e->t0 = t0;
    e->t1 = t1;
    e->arg0 = (uint32_t)tr->nargs;
    e->nargs = (uint8_t)nargs;
    e->instant = (uint8_t)instant;
    unsigned mask = 0;
    for (int i = 0; i < nargs; i++) {
        struct arg *a = &tr->args[tr->nargs++];
        a->key = args[i].key;
        if (args[i].s) {
            a->v.s = args[i].s;
            mask |= 1u << i;
        } else {
            a->v.i = args[i].i;
        }
    }
    e->strmask = (uint8_t)mask;
    if (t0 < tr->t_min)
        tr->t_min = t0;
}

void iron__trace_span(iron__trace *t, int track, const char *name,
                      uint64_t t0_ns, uint64_t t1_ns, int nargs,
                      const iron__trace_arg *args)
{
    record(t, track, name, t0_ns, t1_ns, 0, nargs, args);
}

void iron__trace_instant(iron__trace *t, int track, const char *name,
                         uint64_t t_ns, int nargs,
                         const iron__trace_arg *args)
{
    record(t, track, name, t_ns, t_ns, 1, nargs, args);
}

/* ---- atomic file writing ------------------------------------------------ */

/* The file being written (core/atomic.h): a FILE that remembers the
 * errno of its first failed write. */
typedef iron__atomic_out sink;

static void put(sink *k, const char *p, size_t n)
{
    iron__atomic_put(k, p, n);
}

static void puts_(sink *k, const char *s)
{
    iron__atomic_puts(k, s);
}

typedef iron_status (*body_fn)(sink *k, const char *path, const void *ctx);

typedef struct body_call {
    body_fn body;
    const char *path;
    const void *ctx;
} body_call;

static iron_status call_body(iron__atomic_out *o, void *ctx)
{
    const body_call *c = ctx;
    return c->body(o, c->path, c->ctx);
}

/* Writes `path` with the library's one atomic write: a temporary file in
 * the same folder, synced and renamed over it, so that a reader (or a
 * crash) never sees half a file. */
static iron_status write_atomic(const char *what, const char *path,
                                body_fn body, const void *ctx)
{
    body_call c = { body, path, ctx };
    iron__atomic_file a = { .dirfd = AT_FDCWD, .name = path, .what = what,
                             .mode = 0644 };
    return iron__atomic_write(&a, call_body, &c);
}

/* ---- trace-event JSON --------------------------------------------------- */

/* 15 significant digits print every microsecond value with nanosecond
 * resolution exactly (up to 11 days) and without the noise of 17
 * ("1.2344999999999999"). */
#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

static double us(uint64_t ns)
{
    return (double)ns / 1000.0;
}

/* A JSON string; jansson refuses invalid UTF-8 (a name in a design may be
 * Latin-1), so such a string keeps its ASCII and gets '?' for the rest. */
static json_t *jstr(const char *s)
{
    if (!s)
        s = "";
    json_t *v = json_string(s);
    if (v)
        return v;
    size_t n = strlen(s);
    char *c = iron__malloc(n + 1);
    if (!c)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        c[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
    v = json_string(c);
    iron__free(c);
    return v;
}

/* Whether a name has "wait" as a space-separated word. */
static int names_a_wait(const char *name)
{
    for (const char *p = name; p && (p = strstr(p, "wait")) != NULL; p++)
        if ((p == name || p[-1] == ' ') && (p[4] == '\0' || p[4] == ' '))
            return 1;
    return 0;
}

static const char *category(const struct track *tr, const struct event *e)
{
    switch (tr->group) {
    case IRON__TRACE_DMA:
        return "dma";
    case IRON__TRACE_SEQUENCE:
        return "sequence";
    case IRON__TRACE_MODEL:
        return "model";
    default:
        if (e->instant)
            return "release";
        return names_a_wait(e->name) ? "wait" : "kernel";
    }
}

static json_t *args_json(const struct track *tr, const struct event *e)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    for (int i = 0; i < e->nargs; i++) {
        const struct arg *a = &tr->args[e->arg0 + (uint32_t)i];
        json_t *v = e->strmask & (1u << i) ? jstr(a->v.s)
                                           : json_integer(a->v.i);
        /* set_new takes v even when it fails; a NULL key has no name to
         * show, so it becomes "arg<i>". */
        char key[16];
        if (!a->key)
            snprintf(key, sizeof key, "arg%d", i);
        bad |= json_object_set_new(o, a->key ? a->key : key, v);
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The fields every event has; NULL when out of memory. */
static json_t *event_base(const char *name, const char *cat, const char *ph,
                          int pid, int tid)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = json_object_set_new(o, "name", jstr(name));
    bad |= json_object_set_new(o, "cat", json_string(cat));
    bad |= json_object_set_new(o, "ph", json_string(ph));
    bad |= json_object_set_new(o, "pid", json_integer(pid));
    bad |= json_object_set_new(o, "tid", json_integer(tid));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *event_json(const struct track *tr, int pid, int tid,
                          const struct event *e, uint64_t base)
{
    json_t *o = event_base(e->name, category(tr, e), e->instant ? "i" : "X",
                           pid, tid);
    if (!o)
        return NULL;
    int bad = json_object_set_new(o, "ts", json_real(us(e->t0 - base)));
    if (e->instant)
        bad |= json_object_set_new(o, "s", json_string("t"));
    else
        bad |= json_object_set_new(
            o, "dur", json_real(us(e->t1 > e->t0 ? e->t1 - e->t0 : 0)));
    if (e->nargs)
        bad |= json_object_set_new(o, "args", args_json(tr, e));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* A metadata event (ph "M") whose args hold the one pair key: value;
 * takes `value`. */
static json_t *meta_json(const char *name, int pid, int tid, const char *key,
                         json_t *value)
{
    json_t *args = json_object();
    if (!args) {
        json_decref(value);
        return NULL;
    }
    if (json_object_set_new(args, key, value) != 0) {
        json_decref(args);
        return NULL;
    }
    json_t *o = event_base(name, "__metadata", "M", pid, tid);
    if (!o) {
        json_decref(args);
        return NULL;
    }
    if (json_object_set_new(o, "args", args) != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* Streams the events: one jansson object at a time, encoded into a
 * reusable buffer, between framing written by the caller. */
typedef struct writer {
    sink *k;
    const char *path;
    char *buf;
    size_t cap;
    long *count;
} writer;

/* Writes `sep` and then `o` encoded; takes `o`. */
static iron_status emit(writer *w, json_t *o, const char *sep)
{
    if (!o)
        return iron__fail(IRON_ENOMEM, "out of memory writing trace '%s'",
                          w->path);
    size_t n = json_dumpb(o, w->buf, w->cap, JSON_FLAGS);
    if (n > w->cap) {
        char *b = iron__realloc(w->buf, n);
        if (b) {
            w->buf = b;
            w->cap = n;
            n = json_dumpb(o, w->buf, w->cap, JSON_FLAGS);
        } else {
            n = 0;
        }
    }
    json_decref(o);
    if (n == 0 || n > w->cap)
        return iron__fail(IRON_ENOMEM, "out of memory writing trace '%s'",
                          w->path);
    puts_(w->k, sep);
    put(w->k, w->buf, n);
    return IRON_OK;
}

/* One element of traceEvents, one per line. */
static iron_status emit_event(writer *w, json_t *o)
{
    return emit(w, o, (*w->count)++ ? ",\n" : "\n");
}

/* The process a track's events go to: the call's, or for the timing
 * model's tracks the call's modelled timeline. */
static int track_pid(const struct track *tr, const iron__trace_call *c)
{
    return tr->group == IRON__TRACE_MODEL ? c->pid + IRON__TRACE_MODEL_PID
                                          : c->pid;
}

static iron_status write_metadata(writer *w, const iron__trace *t,
                                  const iron__trace_call *c)
{
    char title[1024];
    if (c->label)
        snprintf(title, sizeof title, "call %d: %s", c->pid, c->label);
    else
        snprintf(title, sizeof title, "call %d", c->pid);
    iron_status s = emit_event(w, meta_json("process_name", c->pid, 0, "name",
                                            jstr(title)));
    if (!s)
        s = emit_event(w, meta_json("process_sort_index", c->pid, 0,
                                    "sort_index",
                                    json_integer(2 * c->pid)));
    int modelled = 0;
    for (int i = 0; i < t->ntracks && !s; i++) {
        const struct track *tr = t->tracks[i];
        int pid = track_pid(tr, c);
        modelled |= pid != c->pid;
        s = emit_event(w, meta_json("thread_name", pid, c->tid0 + i + 1,
                                    "name", jstr(tr->name)));
        if (!s)
            s = emit_event(w, meta_json("thread_sort_index", pid,
                                        c->tid0 + i + 1, "sort_index",
                                        json_integer(i)));
    }
    if (modelled && !s) {
        /* Right after the call's own process, under the same title. */
        int pid = c->pid + IRON__TRACE_MODEL_PID;
        char mt[1100];
        snprintf(mt, sizeof mt, "%s, modelled NPU time", title);
        s = emit_event(w, meta_json("process_name", pid, 0, "name",
                                    jstr(mt)));
        if (!s)
            s = emit_event(w, meta_json("process_sort_index", pid, 0,
                                        "sort_index",
                                        json_integer(2 * c->pid + 1)));
    }
    return s;
}

size_t iron__trace_dropped(const iron__trace *t)
{
    size_t n = 0;
    for (int i = 0; i < t->ntracks; i++)
        n += t->tracks[i]->dropped;
    return n;
}

int iron__trace_ntracks(const iron__trace *t)
{
    return t->ntracks;
}

int iron__trace_lost_tracks(const iron__trace *t)
{
    return t->lost_tracks;
}

uint64_t iron__trace_base(const iron__trace *t)
{
    uint64_t base = __atomic_load_n(&epoch_ns, __ATOMIC_RELAXED);
    if (!base)
        base = UINT64_MAX;
    for (int i = 0; i < t->ntracks; i++)
        base = IRON__MIN(base, t->tracks[i]->t_min);
    return base == UINT64_MAX ? 0 : base;
}

iron_status iron__trace_encode(const iron__trace *t, sink *k,
                               const char *path, const iron__trace_call *c,
                               long *count)
{
    writer w = { k, path, iron__malloc(1024), 1024, count };
    if (!w.buf)
        return iron__fail(IRON_ENOMEM, "out of memory writing trace '%s'",
                          path);
    iron_status s = write_metadata(&w, t, c);
    for (int i = 0; i < t->ntracks && !s; i++) {
        const struct track *tr = t->tracks[i];
        for (size_t j = 0; j < tr->nev && !s; j++)
            s = emit_event(&w, event_json(tr, track_pid(tr, c),
                                          c->tid0 + i + 1,
                                          &tr->ev[j], c->base));
    }
    iron__free(w.buf);
    return s;
}

iron_status iron__trace_encode_end(sink *k, const char *path, int calls,
                                   size_t dropped)
{
    json_t *other = json_pack("{s:s,s:i}", "producer", "iron emulator",
                              "calls", calls);
    if (other && dropped &&
        json_object_set_new(other, "dropped_events",
                            json_integer((json_int_t)dropped)) != 0) {
        json_decref(other);
        other = NULL;
    }
    long none = 0;
    writer w = { k, path, iron__malloc(256), 256, &none };
    if (!w.buf) {
        json_decref(other);
        return iron__fail(IRON_ENOMEM, "out of memory writing trace '%s'",
                          path);
    }
    puts_(k, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":");
    iron_status s = emit(&w, other, "");
    puts_(k, "}\n");
    iron__free(w.buf);
    return s;
}

/* ---- Graphviz DOT ------------------------------------------------------- */

/* A DOT quoted string: `"` and `\` are escaped (a lone backslash would
 * start an escape sequence in a label), a newline becomes \n. */
static void dot_quoted(sink *k, const char *s)
{
    puts_(k, "\"");
    for (const char *p = s;; p++) {
        size_t n = strcspn(p, "\"\\\n");
        put(k, p, n);
        p += n;
        if (!*p)
            break;
        puts_(k, *p == '"' ? "\\\"" : *p == '\\' ? "\\\\" : "\\n");
    }
    puts_(k, "\"");
}

typedef struct dot_graph {
    const char *title;
    int nedges;
    const iron__dot_edge *edges;
} dot_graph;

/* Whether endpoint `name` (of edge e, `to` side when to) was seen before.
 * Quadratic, which suits wait-for graphs (one edge per blocked task). */
static int seen_before(const dot_graph *g, int e, int to, const char *name)
{
    for (int i = 0; i <= e; i++) {
        if (strcmp(g->edges[i].from, name) == 0 && (i < e || to))
            return 1;
        if (i < e && strcmp(g->edges[i].to, name) == 0)
            return 1;
    }
    return 0;
}

static iron_status write_dot_body(sink *k, const char *path, const void *ctx)
{
    (void)path;
    const dot_graph *g = ctx;
    puts_(k, "digraph ");
    dot_quoted(k, g->title);
    puts_(k, " {\n    label=");
    dot_quoted(k, g->title);
    puts_(k, ";\n    labelloc=t;\n    rankdir=LR;\n    node [shape=box];\n");
    /* Nodes in order of first appearance, so that the layout follows the
     * order of the edges rather than Graphviz's own. */
    for (int e = 0; e < g->nedges; e++)
        for (int to = 0; to <= 1; to++) {
            const char *name = to ? g->edges[e].to : g->edges[e].from;
            if (seen_before(g, e, to, name))
                continue;
            puts_(k, "    ");
            dot_quoted(k, name);
            puts_(k, ";\n");
        }
    for (int e = 0; e < g->nedges; e++) {
        const iron__dot_edge *d = &g->edges[e];
        puts_(k, "    ");
        dot_quoted(k, d->from);
        puts_(k, " -> ");
        dot_quoted(k, d->to);
        if (d->label) {
            puts_(k, " [label=");
            dot_quoted(k, d->label);
            puts_(k, "]");
        }
        puts_(k, ";\n");
    }
    puts_(k, "}\n");
    return IRON_OK;
}

iron_status iron__dot_write(const char *path, const char *title, int nedges,
                            const iron__dot_edge *edges)
{
    if (!path || !*path || nedges < 0 || (nedges > 0 && !edges))
        return iron__fail(IRON_EINVAL, "iron__dot_write: %s",
                          !path || !*path ? "no path" : "bad edge list");
    for (int i = 0; i < nedges; i++)
        if (!edges[i].from || !edges[i].to)
            return iron__fail(IRON_EINVAL,
                              "iron__dot_write: edge %d has no '%s' end", i,
                              edges[i].from ? "to" : "from");
    dot_graph g = { title ? title : "wait-for graph", nedges, edges };
    return write_atomic("graph", path, write_dot_body, &g);
}
