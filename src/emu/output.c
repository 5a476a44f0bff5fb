/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * output.c - what kernels print (emulator layer).  The runtime shim sends
 * a kernel's stdout and stderr text here (rt_host.c); each worker keeps
 * the line it is printing per stream and hands every complete line,
 * tagged with the worker, its tile and iteration, to the output handler.
 *
 * Threads: a worker's buffer is touched only by the thread running its
 * lane, or by the driver between runs, so it takes no lock.  The handler
 * is process-wide: see deliver() for how it is called and swapped.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/trap.h"

/* A line longer than this without a newline goes out in pieces of this
 * size, so one endless line cannot grow without bound. */
#define OUT_CHUNK 4096

/* The line being printed on one stream. */
typedef struct out_line {
    size_t len;
    uint64_t iteration;    /* when the line began */
    char text[OUT_CHUNK + 1];
} out_line;

struct emu_outbuf {
    out_line line[2];      /* stdout, stderr */
};

/*
 * The handler and its context are read and swapped under one lock, held
 * while the handler runs.  So a line never meets a new function with an
 * old context; once iron_output_set_handler returns, no other thread is
 * still inside the old handler (its context may be freed); and lines
 * arrive one at a time, so a handler needs no lock of its own.  The lock
 * is recursive: a handler may itself call iron_output_set_handler (or run
 * kernels that print) on its own thread.  What it must not do is wait for
 * another thread that prints or sets the handler -- that thread waits for
 * the lock it holds.  Output is far from the hot path: one uncontended
 * lock per line costs nothing next to formatting it.
 */
static pthread_mutex_t handler_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static iron_output_fn handler;        /* NULL: default_handler */
static void *handler_ctx;

static void default_handler(const iron_output_line *l, void *ctx)
{
    (void)ctx;
    fprintf(l->fd == 2 ? stderr : stdout, "[%s (%d,%d) #%llu] %s\n",
            l->worker, l->col, l->row, (unsigned long long)l->iteration,
            l->text);
}

IRON_API void iron_output_set_handler(iron_output_fn fn, void *ctx)
{
    pthread_mutex_lock(&handler_lock);
    handler = fn;
    handler_ctx = fn ? ctx : NULL;
    pthread_mutex_unlock(&handler_lock);
}

static void deliver(const emu_worker *ew, int fd, const char *text,
                    uint64_t iteration)
{
    const iron__prog_worker *w = ew->w;
    iron_output_line line = {
        .size = sizeof line,
        .worker = w->name ? w->name : "?",
        .col = w->tile.col,
        .row = w->tile.row,
        .iteration = iteration,
        .fd = fd,
        .text = text,
    };
    pthread_mutex_lock(&handler_lock);
    if (handler)
        handler(&line, handler_ctx);
    else
        default_handler(&line, NULL);
    pthread_mutex_unlock(&handler_lock);
}

static void emit(const emu_worker *ew, int fd, out_line *l)
{
    l->text[l->len] = '\0';
    l->len = 0;
    deliver(ew, fd, l->text, l->iteration);
}

/* Appends n bytes, emitting each line as its newline arrives. */
static void put(const emu_worker *ew, int fd, out_line *l, const char *buf,
                size_t n)
{
    while (n > 0) {
        if (l->len == 0)
            l->iteration = ew->iterations;
        const char *nl = memchr(buf, '\n', n);
        size_t take = nl ? (size_t)(nl - buf) : n;
        size_t room = OUT_CHUNK - l->len;
        if (take > room) {
            /* Full without a newline: this much goes out as a line. */
            memcpy(l->text + l->len, buf, room);
            l->len += room;
            buf += room;
            n -= room;
            emit(ew, fd, l);
            continue;
        }
        memcpy(l->text + l->len, buf, take);
        l->len += take;
        buf += take;
        n -= take;
        if (nl) {
            buf++;
            n--;
            emit(ew, fd, l);
        }
    }
}

/* Without memory for a buffer the text still goes out, a piece per line
 * or per sizeof piece bytes: a line may then arrive split. */
static void put_unbuffered(const emu_worker *ew, int fd, const char *buf,
                           size_t n)
{
    char piece[256];
    while (n > 0) {
        const char *nl = memchr(buf, '\n', n);
        size_t take = nl ? (size_t)(nl - buf) : n;
        take = IRON__MIN(take, sizeof piece - 1);
        memcpy(piece, buf, take);
        piece[take] = '\0';
        buf += take;
        n -= take;
        if (n > 0 && *buf == '\n') {
            buf++;
            n--;
        }
        deliver(ew, fd, piece, ew->iterations);
    }
}

/* The watchdog interrupts a kernel that overruns its call by a signal
 * whose handler jumps out of the kernel.  Landing in here, it would leave
 * the handler lock, stdio's lock or malloc's held for good; blocked, it
 * arrives as soon as this is done and stops the kernel there instead. */
static void hold_watchdog(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, iron__emu_watch_signal());
    pthread_sigmask(SIG_BLOCK, &s, old);
}

static void release_watchdog(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

void iron__emu_output_write(emu_worker *ew, int fd, const char *buf,
                            size_t n)
{
    if (!ew || !buf || n == 0)
        return;
    fd = fd == 2 ? 2 : 1;
    sigset_t old;
    hold_watchdog(&old);
    if (!ew->out)
        ew->out = iron__calloc(1, sizeof *ew->out);
    if (ew->out)
        put(ew, fd, &ew->out->line[fd - 1], buf, n);
    else
        put_unbuffered(ew, fd, buf, n);
    release_watchdog(&old);
}

void iron__emu_output_flush(emu_worker *ew)
{
    if (!ew || !ew->out)
        return;
    sigset_t old;
    hold_watchdog(&old);
    for (int i = 0; i < 2; i++)
        if (ew->out->line[i].len > 0)
            emit(ew, i + 1, &ew->out->line[i]);
    release_watchdog(&old);
}

/* What is left unflushed is dropped: the driver flushes after every run,
 * and at teardown the worker's design may already be gone. */
void iron__emu_output_free(emu_worker *ew)
{
    if (!ew)
        return;
    iron__free(ew->out);
    ew->out = NULL;
}
