/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * trace_file.c - the process's trace files (emulator layer): every call
 * traced to one path goes into one trace-event JSON file, each call its
 * own group of tracks, so that the calls of several jits and threads are
 * seen side by side on one time axis.
 *
 * The first call written to a path publishes the file atomically (a
 * temporary file renamed over the name) and keeps a descriptor of it;
 * each later call overwrites the file's end ("],...}") with its events
 * and a new end, so the file is whole JSON after every call and writing a
 * call costs that call's events only.  The calls are written one at a
 * time under one lock (writing is the slow part of tracing anyway).  When
 * the name no longer leads to the file (removed, or replaced by another
 * process), the next call starts a new file.  A child made by fork()
 * writes the paths its parent was writing as "PATH.<child's pid>", so
 * that the two never write into one file.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/log.h"
#include "emu/trace.h"

typedef struct tfile {
    struct tfile *next;
    char *path;            /* as the caller gave it */
    char *name;            /* the file written: path, or path.<pid> after a
                              fork; NULL until the first call */
    int inherited;         /* a fork's child: path was its parent's */
    int fd;                /* the published file, or -1 */
    dev_t dev;
    ino_t ino;
    off_t end_at;          /* where the file's end starts */
    int calls, tids;
    long events;
    size_t dropped;
    uint64_t base;
} tfile;

static pthread_mutex_t files_mu = PTHREAD_MUTEX_INITIALIZER;
static tfile *files;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* fork(): the lock is held across it, so the list is whole in the child;
 * there every file becomes its parent's (inherited) and is let go. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&files_mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&files_mu);
}

static void fork_child(void)
{
    pthread_mutex_init(&files_mu, NULL);
    for (tfile *f = files; f; f = f->next) {
        if (f->fd >= 0)
            close(f->fd);
        f->fd = -1;
        f->inherited = 1;
        iron__free(f->name);
        f->name = NULL;
    }
}

static void register_fork(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static tfile *find(const char *path)
{
    for (tfile *f = files; f; f = f->next)
        if (strcmp(f->path, path) == 0)
            return f;
    tfile *f = iron__calloc(1, sizeof *f);
    char *copy = iron__strdup(path);
    if (!f || !copy) {
        iron__free(f);
        iron__free(copy);
        return NULL;
    }
    f->path = copy;
    f->fd = -1;
    f->next = files;
    files = f;
    return f;
}

/* Whether the file's name still leads to the file written. */
static int still_there(const tfile *f)
{
    struct stat st;
    return stat(f->name, &st) == 0 && st.st_dev == f->dev &&
           st.st_ino == f->ino;
}

static void forget(tfile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    f->calls = f->tids = 0;
    f->events = 0;
    f->dropped = 0;
}

typedef struct first_call {
    tfile *f;
    const iron__trace *t;
    const iron__trace_call *c;
} first_call;

static iron_status write_first(iron__atomic_out *o, void *ctx)
{
    first_call *fc = ctx;
    long count = 0;
    iron__atomic_puts(o, "{\"traceEvents\":[");
    iron_status s = iron__trace_encode(fc->t, o, fc->f->name, fc->c, &count);
    if (s != IRON_OK)
        return s;
    fflush(o->f);
    fc->f->end_at = ftello(o->f);
    fc->f->events = count;
    return iron__trace_encode_end(o, fc->f->name, 1,
                                  fc->f->dropped +
                                      iron__trace_dropped(fc->t));
}

/* A new file holding this one call. */
static iron_status start_file(tfile *f, const iron__trace *t,
                              const char *label)
{
    forget(f);
    f->base = iron__trace_base(t);
    iron__trace_call c = { 1, 0, label, f->base };
    first_call fc = { f, t, &c };
    int fd = -1;
    iron__atomic_file a = { .dirfd = AT_FDCWD, .name = f->name,
                             .what = "trace", .mode = 0644, .keep_fd = &fd };
    iron_status s = iron__atomic_write(&a, write_first, &fc);
    if (s != IRON_OK)
        return s;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return iron__fail(IRON_EIO, "cannot write the trace '%s': fstat "
                          "failed: %s", f->name, strerror(errno));
    }
    f->fd = fd;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->calls = 1;
    f->tids = iron__trace_ntracks(t);
    f->dropped += iron__trace_dropped(t);
    return IRON_OK;
}

/* Writes at the file's end: this call's events (unless t is NULL) and a
 * new end.  A stdio stream of its own over a copy of the descriptor, so
 * that closing it leaves the file open. */
static iron_status write_end(tfile *f, const iron__trace *t,
                             const iron__trace_call *c, int calls,
                             size_t dropped, off_t *end_at, long *events)
{
    int fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
    iron__atomic_out o = { fd >= 0 ? fdopen(fd, "w") : NULL, 0 };
    if (!o.f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return iron__fail(IRON_EIO, "cannot add a call to the trace '%s': "
                          "%s", f->name, strerror(e));
    }
    iron_status s = IRON_OK;
    if (fseeko(o.f, f->end_at, SEEK_SET) != 0)
        o.err = errno;
    if (t && !o.err)
        s = iron__trace_encode(t, &o, f->name, c, events);
    if (s == IRON_OK && !o.err && fflush(o.f) != 0)
        o.err = errno ? errno : EIO;
    *end_at = ftello(o.f);
    if (s == IRON_OK && !o.err)
        s = iron__trace_encode_end(&o, f->name, calls, dropped);
    if (s == IRON_OK && !o.err && fflush(o.f) != 0)
        o.err = errno ? errno : EIO;
    if (s == IRON_OK && !o.err && ftruncate(fd, ftello(o.f)) != 0)
        o.err = errno;
    if (fclose(o.f) != 0 && !o.err && s == IRON_OK)
        o.err = errno ? errno : EIO;
    if (s == IRON_OK && o.err)
        s = iron__fail(IRON_EIO, "cannot add call %d to the trace '%s': %s",
                       calls, f->name, strerror(o.err));
    return s;
}

static iron_status append_call(tfile *f, const iron__trace *t,
                               const char *label)
{
    iron__trace_call c = { f->calls + 1, f->tids, label, f->base };
    size_t dropped = f->dropped + iron__trace_dropped(t);
    off_t end_at = f->end_at;
    long events = f->events;
    iron_status s =
        write_end(f, t, &c, c.pid, dropped, &end_at, &events);
    if (s != IRON_OK) {
        /* Put the old end back, so the calls before stay readable; if
         * even that fails, the next call starts a new file. */
        off_t ignored_at;
        long ignored_events = f->events;
        char keep[IRON__MSG_MAX];
        snprintf(keep, sizeof keep, "%s", iron_last_error());
        if (write_end(f, NULL, NULL, f->calls, f->dropped, &ignored_at,
                      &ignored_events) != IRON_OK)
            forget(f);
        return iron__fail(s, "%s (the file keeps the calls before)", keep);
    }
    f->calls = c.pid;
    f->tids += iron__trace_ntracks(t);
    f->dropped = dropped;
    f->end_at = end_at;
    f->events = events;
    return IRON_OK;
}

static iron_status add(const iron__trace *t, const char *path,
                       const char *label)
{
    tfile *f = find(path);
    if (!f)
        return iron__fail(IRON_ENOMEM, "out of memory for the trace '%s'",
                          path);
    if (!f->name) {
        iron__str n = { 0 };
        if (f->inherited)
            iron__str_printf(&n, "%s.%ld", path, (long)getpid());
        else
            iron__str_append(&n, path);
        if (!(f->name = iron__str_take(&n)))
            return iron__fail(IRON_ENOMEM, "out of memory for the trace "
                              "'%s'", path);
    }
    if (f->fd >= 0 && still_there(f))
        return append_call(f, t, label);
    return start_file(f, t, label);
}

iron_status iron__trace_append(const iron__trace *t, const char *path,
                               const char *label)
{
    if (!t || !path || !*path)
        return iron__fail(IRON_EINVAL, "iron__trace_append: %s is %s",
                          t ? "path" : "trace",
                          t && path ? "empty" : "NULL");
    pthread_once(&fork_once, register_fork);
    pthread_mutex_lock(&files_mu);
    iron_status s = add(t, path, label);
    pthread_mutex_unlock(&files_mu);
    size_t dropped = iron__trace_dropped(t);
    int lost = iron__trace_lost_tracks(t);
    if (dropped)
        iron__warn("trace '%s' misses %zu event%s: out of memory while "
                   "recording", path, dropped, dropped == 1 ? "" : "s");
    if (lost)
        iron__warn("trace '%s' misses %d track%s: out of memory while "
                   "creating them", path, lost, lost == 1 ? "" : "s");
    return s;
}
