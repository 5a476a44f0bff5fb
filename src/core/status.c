/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * status.c - the status table (names, descriptions), the names of run
 * states, and the per-thread last-error message: set by a failure,
 * cleared by a successful public call (iron__public_result).
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

#define MSG_MAX IRON__MSG_MAX

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

static const char *const run_state_names[] = {
#define XX(name, code) [code] = "IRON_RUN_" #name,
    IRON_RUN_STATE_MAP(XX)
#undef XX
};

IRON_API const char *iron_run_state_name(enum iron_run_state s)
{
    if ((int)s < 0 || (size_t)s >= IRON__COUNT_OF(run_state_names) ||
        !run_state_names[s])
        return "IRON_RUN_UNKNOWN";
    return run_state_names[s];
}

IRON_API const char *iron_last_error(void)
{
    return last_msg;
}

/* Makes text (len bytes, may be longer than the message) the message.  A
 * text too long keeps its whole lines that fit and says how many it left
 * out; one line too long, or a text that is not whole (cut already), is
 * cut at a word and ends in "...".  text may be the current message. */
static void store(const char *text, size_t len, int whole)
{
    char note[48];
    int left = 0;
    if (len < MSG_MAX && whole) {
        memmove(last_msg, text, len);
        last_msg[len] = '\0';
        return;
    }
    size_t keep =
        whole ? iron__lines_fit(text, len, MSG_MAX - sizeof note, &left) : 0;
    if (keep > 0) {
        snprintf(note, sizeof note, "\n... and %d more line%s", left,
                 left == 1 ? "" : "s");
    } else {
        size_t max = MSG_MAX - sizeof note;
        keep = max;
        while (keep > 0 && text[keep] != ' ')
            keep--;
        if (keep == 0)
            keep = max;
        snprintf(note, sizeof note, " ...");
    }
    memmove(last_msg, text, keep);
    memcpy(last_msg + keep, note, strlen(note) + 1);
}

iron_status iron__vfail(iron_status s, const char *fmt, va_list ap)
{
    IRON__ASSERT(s != IRON_OK,
                 "a message is a failure's: success leaves it empty "
                 "(iron__public_result)");
    /* Formats through a scratch buffer, as callers may pass the current
     * message (iron_last_error()) as an argument to wrap it; a message
     * longer than that is formatted on the heap to be cut at its lines
     * (without memory, at its bytes). */
    char msg[MSG_MAX];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    if (n >= (int)sizeof msg) {
        char *big = iron__malloc((size_t)n + 1);
        if (big) {
            vsnprintf(big, (size_t)n + 1, fmt, ap2);
            store(big, (size_t)n, 1);
            iron__free(big);
            va_end(ap2);
            return s;
        }
    }
    va_end(ap2);
    store(msg, n < 0 ? 0 : strlen(msg), n < (int)sizeof msg);
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
    /* The context (at most 511 bytes) in front of the whole message, then
     * cut as one: the front matters most. */
    char both[512 + 2 + MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(both, 512, fmt, ap);
    va_end(ap);
    size_t n = strlen(both);
    memcpy(both + n, ": ", 2);
    size_t m = strlen(last_msg);
    memcpy(both + n + 2, last_msg, m + 1);
    store(both, n + 2 + m, 1);
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
