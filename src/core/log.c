/*
 * log.c - the debug log.  Topics are read from IRON_LOG once per process
 * ("jit,cache", "all"); a handler set by the user receives each line
 * instead of stderr.  Thread-safe: the topic mask is set once and the
 * handler is read atomically.
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
static _Atomic(iron_log_fn) handler;
static void *_Atomic handler_ctx;

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
    return (topics & (int)t) != 0 || atomic_load(&handler) != NULL;
}

/* Formats one line and hands it to the handler, or prints it to stderr
 * with `prefix` ("iron[jit] ", "iron: warning: "). */
static void emit(const char *topic, const char *prefix, const char *fmt,
                 va_list ap)
{
    char line[2048];
    vsnprintf(line, sizeof line, fmt, ap);
    iron_log_fn fn = atomic_load(&handler);
    if (fn)
        fn(topic, line, atomic_load(&handler_ctx));
    else
        fprintf(stderr, "%s%s\n", prefix, line);
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
    atomic_store(&handler_ctx, ctx);
    atomic_store(&handler, fn);
}
