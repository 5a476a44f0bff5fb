/*
 * trace.h - a run's timeline as trace events (emulator layer), written as
 * the trace-event JSON that Perfetto and chrome://tracing open.
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

#include "iron/iron.h"

typedef struct iron__trace iron__trace;

/* Which group a track is shown under. */
typedef enum iron__trace_group {
    IRON__TRACE_TILES,     /* one track per compute tile (its worker) */
    IRON__TRACE_DMA,       /* one track per DMA channel (mover) */
    IRON__TRACE_SEQUENCE   /* the runtime sequence */
} iron__trace_group;

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

/* Writes every event recorded so far to `path` (replacing it atomically:
 * temp file and rename).  IRON_EIO naming the path on failure. */
iron_status iron__trace_write(const iron__trace *t, const char *path);

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
