/*
 * log.c - the debug log.  Topics are read from IRON_LOG once per process
 * ("jit,cache", "all"); a handler set by the user receives each line
 * instead of stderr.  Thread-safe: the topic mask is set once; the
 * handler and its context are one pair, read and swapped under one lock
 * that is held while the handler runs, so a line never meets a new
 * function with an old context, and once iron_set_log_handler returns no
 * thread is still inside the old handler.  The lock is recursive: a
 * handler may log or set the handler itself.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

static int topics;
static pthread_once_t topics_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t handler_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static iron_log_fn handler;          /* under handler_lock */
static void *handler_ctx;            /* under handler_lock */
static atomic_int handler_set;       /* for iron__log_on without the lock */

static void read_topics(void)
{
    const char *e = getenv("IRON_LOG");
    if (!e)
        return;
    static const struct {
        const char *name;
        int bit;
    } names[] = { { "jit", IRON__LOG_JIT },
                  { "cache", IRON__LOG_CACHE },
                  { "emu", IRON__LOG_EMU },
                  { "all", IRON__LOG_JIT | IRON__LOG_CACHE | IRON__LOG_EMU } };
    for (const char *p = e; *p;) {
        size_t n = strcspn(p, ",; ");
        for (size_t i = 0; i < IRON__COUNT_OF(names); i++)
            if (strlen(names[i].name) == n && strncmp(p, names[i].name, n) == 0)
                topics |= names[i].bit;
        p += n;
        if (*p)
            p++;
    }
}

int iron__log_selected(iron__log_topic t)
{
    pthread_once(&topics_once, read_topics);
    return (topics & (int)t) != 0;
}

int iron__log_on(iron__log_topic t)
{
    pthread_once(&topics_once, read_topics);
    return (topics & (int)t) != 0 ||
           atomic_load_explicit(&handler_set, memory_order_relaxed);
}

/* Formats one line and hands it to the handler, or prints it to stderr
 * with `prefix` ("iron[jit] ", "iron: warning: "). */
static void emit(const char *topic, const char *prefix, const char *fmt,
                 va_list ap)
{
    char line[2048];
    vsnprintf(line, sizeof line, fmt, ap);
    pthread_mutex_lock(&handler_lock);
    if (handler)
        handler(topic, line, handler_ctx);
    else
        fprintf(stderr, "%s%s\n", prefix, line);
    pthread_mutex_unlock(&handler_lock);
}

void iron__warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit("warning", "iron: warning: ", fmt, ap);
    va_end(ap);
}

static const char *topic_name(iron__log_topic t)
{
    return t == IRON__LOG_JIT ? "jit" : t == IRON__LOG_CACHE ? "cache" : "emu";
}

void iron__log(iron__log_topic t, const char *fmt, ...)
{
    if (!iron__log_on(t))
        return;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "iron[%s] ", topic_name(t));
    va_list ap;
    va_start(ap, fmt);
    emit(topic_name(t), prefix, fmt, ap);
    va_end(ap);
}

IRON_API void iron_set_log_handler(iron_log_fn fn, void *ctx)
{
    pthread_mutex_lock(&handler_lock);
    handler = fn;
    handler_ctx = fn ? ctx : NULL;
    atomic_store(&handler_set, fn != NULL);
    pthread_mutex_unlock(&handler_lock);
}
