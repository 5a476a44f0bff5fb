/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * trace.h - a run's timeline as trace events (emulator layer), written as
 * the trace-event JSON that Perfetto and chrome://tracing open: every
 * call a process traces to one path goes into one file, each call its
 * own group of tracks.
 *
 * Tracks are created before a run; each track is then appended to by one
 * thread at a time (a track belongs to one task, a task to one lane), so
 * recording takes no lock.  Event names and string argument values are
 * not copied: they must stay valid until the trace is written or freed
 * (names of fifos, workers and kernels live as long as the design).
 * Timestamps are host nanoseconds (CLOCK_MONOTONIC).
 */
#ifndef IRON_EMU_TRACE_H
#define IRON_EMU_TRACE_H

#include <stdint.h>

#include "core/atomic.h"
#include "iron/iron.h"

typedef struct iron__trace iron__trace;

/* Which group a track is shown under. */
typedef enum iron__trace_group {
    IRON__TRACE_TILES,     /* one track per compute tile (its worker) */
    IRON__TRACE_DMA,       /* one track per DMA channel (mover) */
    IRON__TRACE_SEQUENCE,  /* the runtime sequence */
    IRON__TRACE_MODEL      /* the timing model's timeline (workers and DMA
                              channels in modelled time): a process of its
                              own beside the call's */
} iron__trace_group;

/* The pid of a call's modelled timeline: the call's own plus this, so
 * that the two never meet whatever the number of calls in a file. */
#define IRON__TRACE_MODEL_PID 1000000

/* One argument of an event: a string when s is non-NULL, else i. */
typedef struct iron__trace_arg {
    const char *key;
    const char *s;
    int64_t i;
} iron__trace_arg;

#define IRON__TRACE_MAX_ARGS 4

iron_status iron__trace_new(iron__trace **out);
void iron__trace_free(iron__trace *t);

/* A new track; returns its id (>= 0), or -1 when out of memory (later
 * records on -1 are dropped).  The name is copied. */
int iron__trace_track(iron__trace *t, iron__trace_group g, const char *name);

/* An interval [t0, t1] on a track (a kernel call, a wait, a transfer). */
void iron__trace_span(iron__trace *t, int track, const char *name,
                      uint64_t t0_ns, uint64_t t1_ns, int nargs,
                      const iron__trace_arg *args);

/* A point event on a track (a release, a barrier set). */
void iron__trace_instant(iron__trace *t, int track, const char *name,
                         uint64_t t_ns, int nargs,
                         const iron__trace_arg *args);

/* Adds every event recorded so far to the process's trace file at
 * `path` as one call, shown as its own group of tracks named "call N:
 * label" (label may be NULL), N counting the calls of the file in the
 * order they are added.  The first call this process adds to a path
 * creates the file (replacing one there, atomically: temp file and
 * rename); later calls are appended in place, and the file is whole JSON
 * after each.  When the path no longer names the file (it was removed or
 * replaced), a new file is started.  Thread-safe: calls of several jits
 * and threads are added one at a time.  IRON_EIO naming the path on
 * failure (trace_file.c). */
iron_status iron__trace_append(const iron__trace *t, const char *path,
                               const char *label);

/* trace.c, for trace_file.c: where one call goes in a file (its pid, the
 * tids before its own, its label and the file's time base), its events
 * encoded (each one after ",\n", but the file's first after "\n";
 * *count counts the file's events), and the file's end (after the last
 * event). */
typedef struct iron__trace_call {
    int pid, tid0;
    const char *label;
    uint64_t base;
} iron__trace_call;
iron_status iron__trace_encode(const iron__trace *t, iron__atomic_out *k,
                               const char *path, const iron__trace_call *c,
                               long *count);
iron_status iron__trace_encode_end(iron__atomic_out *k, const char *path,
                                   int calls, size_t dropped);
/* The base a file starting with this trace takes: its earliest event, or
 * the creation of the process's first trace when that is earlier. */
uint64_t iron__trace_base(const iron__trace *t);
int iron__trace_ntracks(const iron__trace *t);
/* Events and tracks lost to failed allocations. */
size_t iron__trace_dropped(const iron__trace *t);
int iron__trace_lost_tracks(const iron__trace *t);

/* A wait-for graph: an edge from the task that waits to the task (or the
 * runtime sequence) that would have to move for it to go on. */
typedef struct iron__dot_edge {
    const char *from, *to, *label;
} iron__dot_edge;

/* Writes the graph as Graphviz DOT to `path` (atomically); nodes are the
 * distinct endpoint names.  IRON_EIO naming the path on failure. */
iron_status iron__dot_write(const char *path, const char *title, int nedges,
                            const iron__dot_edge *edges);

#endif
