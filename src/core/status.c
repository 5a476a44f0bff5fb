/*
 * status.c - the status table (names, descriptions) and the per-thread
 * last-error message: set by a failure, cleared by a successful public
 * call (iron__public_result).
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

#define MSG_MAX 4096

static _Thread_local char last_msg[MSG_MAX];

static const char *const status_names[] = {
#define XX(name, code, text) [code] = "IRON_" #name,
    IRON_STATUS_MAP(XX)
#undef XX
};

static const char *const status_texts[] = {
#define XX(name, code, text) [code] = text,
    IRON_STATUS_MAP(XX)
#undef XX
};

IRON_API const char *iron_status_name(iron_status s)
{
    if ((int)s < 0 || (size_t)s >= IRON__COUNT_OF(status_names))
        return "IRON_UNKNOWN";
    return status_names[s];
}

IRON_API const char *iron_status_message(iron_status s)
{
    if ((int)s < 0 || (size_t)s >= IRON__COUNT_OF(status_texts))
        return "unknown status";
    return status_texts[s];
}

IRON_API const char *iron_last_error(void)
{
    return last_msg;
}

/* Formats through a scratch buffer: callers may pass the current message
 * (iron_last_error()) as an argument to wrap it. */
iron_status iron__vfail(iron_status s, const char *fmt, va_list ap)
{
    char msg[MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    memcpy(last_msg, msg, sizeof last_msg);
    return s;
}

iron_status iron__fail(iron_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    iron__vfail(s, fmt, ap);
    va_end(ap);
    return s;
}

iron_status iron__fail_context(iron_status s, const char *fmt, ...)
{
    char prefix[512], old[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, last_msg, sizeof old);
    /* Truncation is fine here: the message stays NUL-terminated and the
     * context at its front is what matters most. */
    size_t n = strlen(prefix);
    if (n > sizeof last_msg - 3)
        n = sizeof last_msg - 3;
    memcpy(last_msg, prefix, n);
    memcpy(last_msg + n, ": ", 2);
    size_t rest = sizeof last_msg - n - 3;
    size_t m = strlen(old);
    if (m > rest)
        m = rest;
    memcpy(last_msg + n + 2, old, m);
    last_msg[n + 2 + m] = '\0';
    return s;
}

void iron__clear_error(void)
{
    last_msg[0] = '\0';
}

iron_status iron__public_result(iron_status s)
{
    if (s == IRON_OK)
        last_msg[0] = '\0';
    return s;
}

IRON_API const char *iron_version(void)
{
    return IRON_VERSION_STRING;
}

const char *iron__plural(int64_t n, const char *word, const char *words)
{
    return n == 1 ? word : words;
}
