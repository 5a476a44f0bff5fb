/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * log.c - the debug log.  Topics are read from IRON_LOG once per process
 * ("jit,cache", "all"; an unknown topic is a warning that suggests the
 * closest); a handler set by the user receives each line
 * instead of stderr.  Thread-safe: the topic mask is set once; the
 * handler and its context are one pair, read and swapped under one lock
 * that is held while the handler runs, so a line never meets a new
 * function with an old context, and once iron_log_set_handler returns no
 * thread is still inside the old handler.  The lock is recursive: a
 * handler may log or set the handler itself.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "core/log.h"

static int topics;
static pthread_once_t topics_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t handler_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static iron_log_fn handler;          /* under handler_lock */
static void *handler_ctx;            /* under handler_lock */
static atomic_int handler_set;       /* for iron__log_on without the lock */

static const struct {
    const char *name;
    int bits;
} topic_names[] = { { "jit", IRON__LOG_JIT },
                    { "cache", IRON__LOG_CACHE },
                    { "emu", IRON__LOG_EMU },
                    { "all",
                      IRON__LOG_JIT | IRON__LOG_CACHE | IRON__LOG_EMU } };

/* The topic nearest to an unknown one, if it is close (a typo). */
static const char *closest_topic(const char *p, size_t n)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < IRON__COUNT_OF(topic_names); i++) {
        size_t d = iron__edit_distance(p, n, topic_names[i].name,
                                       strlen(topic_names[i].name));
        if (d < best_d) {
            best_d = d;
            best = topic_names[i].name;
        }
    }
    return best;
}

int iron__log_parse_topics(const iron__env_var *v, const char *text,
                           iron__env_value *out, char *why, size_t why_len)
{
    (void)v;
    iron__str unknown = { 0 };
    int bad = 0;
    out->i = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, ",; ");
        int found = n == 0;
        for (size_t i = 0; !found && i < IRON__COUNT_OF(topic_names); i++)
            if (strlen(topic_names[i].name) == n &&
                strncmp(p, topic_names[i].name, n) == 0) {
                out->i |= topic_names[i].bits;
                found = 1;
            }
        if (!found) {
            const char *near = closest_topic(p, n);
            iron__str_printf(&unknown, "%s'%.*s'", bad++ ? ", " : "",
                             (int)n, p);
            if (near)
                iron__str_printf(&unknown, " (did you mean '%s'?)", near);
        }
        p += n;
        if (*p)
            p++;
    }
    if (!bad) {
        iron__str_free(&unknown);
        return 0;
    }
    iron__str_append(&unknown, "; known topics: ");
    for (size_t i = 0; i < IRON__COUNT_OF(topic_names); i++)
        iron__str_printf(&unknown, "%s%s", i ? ", " : "",
                         topic_names[i].name);
    snprintf(why, why_len, "names unknown %s %s; %s",
             bad == 1 ? "topic" : "topics", iron__str_get(&unknown),
             bad == 1 ? "ignoring it" : "ignoring them");
    iron__str_free(&unknown);
    return 1;
}

static void read_topics(void)
{
    topics = (int)iron__env_get_int(IRON__ENV_LOG);
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

IRON_API void iron_log_set_handler(iron_log_fn fn, void *ctx)
{
    pthread_mutex_lock(&handler_lock);
    handler = fn;
    handler_ctx = fn ? ctx : NULL;
    atomic_store(&handler_set, fn != NULL);
    pthread_mutex_unlock(&handler_lock);
}
