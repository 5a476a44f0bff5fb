/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * env.c - the one table of IRON_* environment variables and their strict
 * reading (see env.h).  A new variable is one row here and one id in
 * env.h; `iron --help` prints the rows, and docs/architecture.md
 * ("Environment"), docs/cli.md and README.md list them, so the meaning and
 * the accepted values are written once (test_env.c fails when a list in
 * the documents misses a row).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"
#include "core/env.h"
#include "core/log.h"

/* ---- the table ------------------------------------------------------- */

#define INT_ROW(lo, hi, d) iron__env_parse_int, (lo), (hi), { .i = (d) }

/* Every on/off variable takes the same spellings, read by the one parser
 * (iron__env_parse_flag), so that what one accepts the others do. */
#define FLAG_ACCEPTS "1, yes, true or on; 0, no, false or off (in any case)"

static const iron__env_var table[IRON__ENV_COUNT] = {
    [IRON__ENV_DEVICE] = {
        "IRON_DEVICE",
        "the device used when no scope or default device is set",
        "npu2", "a device name (`iron devices` lists them); an unknown "
        "name fails the call with IRON_EDEVICE",
        "at each call that needs a device", iron__env_parse_text, 0, 0,
        { 0 } },
    [IRON__ENV_TIMEOUT_MS] = {
        "IRON_TIMEOUT_MS",
        "how long one run may take before it is stopped, in milliseconds",
        "60000", "an integer from 1 to 2147483647",
        "once per process, at the first run", INT_ROW(1, INT32_MAX, 60000) },
    [IRON__ENV_THREADS] = {
        "IRON_THREADS",
        "host threads the emulator runs one design on (automatic: a "
        "specialization's first calls are timed on the number of CPUs and "
        "on one thread, and the faster is kept)",
        "automatic", "an integer from 1 to 1024",
        "once per process, at the first run", INT_ROW(1, 1024, 0) },
    [IRON__ENV_CHECK] = {
        "IRON_CHECK",
        "on runs every call in checked mode (kernels may touch only the "
        "objects they hold)",
        "0", FLAG_ACCEPTS, "once per process, at the first run",
        iron__env_parse_flag, 0, 1, { .i = 0 } },
    [IRON__ENV_TRACE] = {
        "IRON_TRACE",
        "writes the timeline of every call of the process into this one "
        "file, each call its own group of tracks (Perfetto / "
        "chrome://tracing JSON)",
        "none", "a file path", "once per process, at the first run",
        iron__env_parse_text, 0, 0, { 0 } },
    [IRON__ENV_LOG] = {
        "IRON_LOG",
        "debug log topics, printed to stderr",
        "none", "topics jit, cache, emu or all, separated by commas",
        "once per process, at the first log line", iron__log_parse_topics,
        0, 0, { .i = 0 } },
    [IRON__ENV_CC] = {
        "IRON_CC",
        "the C compiler command for kernels (split on blanks)",
        "cc", "a command, with arguments if needed", "at each compile",
        iron__env_parse_text, 0, 0, { .s = "cc" } },
    [IRON__ENV_CXX] = {
        "IRON_CXX",
        "the C++ compiler command for C++ kernels (split on blanks)",
        "c++", "a command, with arguments if needed", "at each compile",
        iron__env_parse_text, 0, 0, { .s = "c++" } },
    [IRON__ENV_CACHE] = {
        "IRON_CACHE",
        "off turns the disk cache of compiled kernels off (a jit's "
        "disk_cache option wins)",
        "1", FLAG_ACCEPTS, "at each jit creation", iron__env_parse_flag, 0,
        1, { .i = 1 } },
    [IRON__ENV_CACHE_DIR] = {
        "IRON_CACHE_DIR",
        "the disk cache's folder (created if missing)",
        "$XDG_CACHE_HOME/iron, else ~/.cache/iron", "a folder path",
        "when a disk cache is opened", iron__env_parse_text, 0, 0, { 0 } },
    [IRON__ENV_CACHE_MAX] = {
        "IRON_CACHE_MAX",
        "the disk cache's size cap (256 MiB); adding an entry evicts the "
        "least recently used beyond it",
        "268435456", "a byte count: digits with an optional K, M or G "
        "suffix (0 is the default)",
        "when a disk cache is opened", iron__env_parse_bytes, 0, -1,
        { .u = 256ull << 20 } },
    [IRON__ENV_RESIDENT_MAX] = {
        "IRON_RESIDENT_MAX",
        "how many specializations one jit keeps loaded (a jit's "
        "max_resident option wins)",
        "256", "an integer from 1 to 1048576", "at each jit creation",
        INT_ROW(1, 1 << 20, 256) },
    [IRON__ENV_LAUNCH_THREADS] = {
        "IRON_LAUNCH_THREADS",
        "at most this many threads run asynchronous runs (iron_jit_start) "
        "in the background (automatic: the number of CPUs, at least 4)",
        "automatic", "an integer from 1 to 1024",
        "once per process, at the first asynchronous start",
        INT_ROW(1, 1024, 0) },
    [IRON__ENV_TIMING] = {
        "IRON_TIMING",
        "on gives every call a modelled NPU time (cycles, busy and stalled "
        "cycles per worker, DMA channel and fifo; docs/timing.md)",
        "0", FLAG_ACCEPTS, "once per process, at the first call",
        iron__env_parse_flag, 0, 1, { .i = 0 } },
    [IRON__ENV_CLOCK_MHZ] = {
        "IRON_CLOCK_MHZ",
        "the NPU clock the timing model converts cycles to seconds at "
        "(automatic: npu1 1000, npu2 1800); outside the device's range a "
        "timed call fails",
        "automatic", "an integer from 1 to 100000 (MHz)", "at each call",
        INT_ROW(1, 100000, 0) },
};

const iron__env_var *iron__env_var_of(iron__env_id id)
{
    return (int)id >= 0 && id < IRON__ENV_COUNT ? &table[id] : NULL;
}

/* The table for tools (the `iron` command's help). */
IRON_API int iron_env_count(void)
{
    return IRON__ENV_COUNT;
}

IRON_API iron_status iron_env_get_info(int i, iron_env_info *info)
{
    if (!info)
        return iron__fail(IRON_EINVAL, "iron_env_get_info: info is NULL");
    if (info->size < sizeof *info)
        return iron__fail(IRON_EINVAL,
                          "iron_env_get_info: info->size is %zu; expected "
                          "at least sizeof(iron_env_info) = %zu",
                          info->size, sizeof *info);
    if (i < 0 || i >= IRON__ENV_COUNT)
        return iron__fail(IRON_EINVAL,
                          "iron_env_get_info: variable %d; expected 0 .. %d",
                          i, IRON__ENV_COUNT - 1);
    const iron__env_var *v = &table[i];
    info->name = v->name;
    info->meaning = v->meaning;
    info->default_value = v->def;
    info->accepts = v->accepts;
    info->read = v->read;
    return iron__public_result(IRON_OK);
}

/* ---- parsers ----------------------------------------------------------- */

int iron__parse_int(const char *text, int64_t min, int64_t max, int64_t *out)
{
    if (!text || *text == '\0' || *text == ' ' || *text == '\t')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end != '\0' || v < min || v > max)
        return -1;
    *out = (int64_t)v;
    return 0;
}

int iron__parse_bytes(const char *text, uint64_t max, uint64_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (*end != '\0' || v > (max >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

int iron__env_parse_int(const iron__env_var *v, const char *text,
                        iron__env_value *out, char *why, size_t why_len)
{
    if (iron__parse_int(text, v->min, v->max, &out->i) == 0)
        return 0;
    snprintf(why, why_len, "is not an integer from %" PRId64 " to %" PRId64,
             v->min, v->max);
    return -1;
}

/* The row's max is read as unsigned: -1 is UINT64_MAX. */
int iron__env_parse_bytes(const iron__env_var *v, const char *text,
                          iron__env_value *out, char *why, size_t why_len)
{
    uint64_t max = (uint64_t)v->max;
    if (iron__parse_bytes(text, max, &out->u) == 0)
        return 0;
    snprintf(why, why_len, "is not a byte count (digits with an optional "
             "K, M or G suffix, at most %" PRIu64 ")", max);
    return -1;
}

int iron__env_parse_flag(const iron__env_var *v, const char *text,
                         iron__env_value *out, char *why, size_t why_len)
{
    (void)v;
    static const char *const on[] = { "1", "yes", "true", "on" };
    static const char *const off[] = { "0", "no", "false", "off" };
    for (size_t i = 0; i < IRON__COUNT_OF(on); i++) {
        if (strcasecmp(text, on[i]) == 0) {
            out->i = 1;
            return 0;
        }
        if (strcasecmp(text, off[i]) == 0) {
            out->i = 0;
            return 0;
        }
    }
    snprintf(why, why_len, "is not on or off: %s", FLAG_ACCEPTS);
    return -1;
}

/* Any text but blanks (a blank IRON_CC would run no compiler at all). */
int iron__env_parse_text(const iron__env_var *v, const char *text,
                         iron__env_value *out, char *why, size_t why_len)
{
    (void)v;
    for (const char *p = text; *p; p++)
        if (!isspace((unsigned char)*p)) {
            out->s = text;
            return 0;
        }
    snprintf(why, why_len, "is only blanks");
    return -1;
}

/* ---- warning once per value ------------------------------------------ */

#define SEEN_MAX 8
#define SEEN_LEN 96

static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static char seen[IRON__ENV_COUNT][SEEN_MAX][SEEN_LEN];  /* under seen_lock */
static int nseen[IRON__ENV_COUNT];                      /* under seen_lock */

/* Whether this bad value of the variable is new to this process (and
 * remembers it).  A process that sees more than SEEN_MAX bad values of
 * one variable is changing it on purpose: it hears about each. */
static int first_time(iron__env_id id, const char *text)
{
    int fresh = 1;
    pthread_mutex_lock(&seen_lock);
    for (int i = 0; i < nseen[id] && fresh; i++)
        if (strncmp(seen[id][i], text, SEEN_LEN - 1) == 0)
            fresh = 0;
    if (fresh && nseen[id] < SEEN_MAX)
        snprintf(seen[id][nseen[id]++], SEEN_LEN, "%s", text);
    pthread_mutex_unlock(&seen_lock);
    return fresh;
}

/* ---- getters ----------------------------------------------------------- */

int iron__env_get(iron__env_id id, iron__env_value *out)
{
    const iron__env_var *v = iron__env_var_of(id);
    iron__env_value val = { 0 };
    if (!v) {
        *out = val;
        return 0;
    }
    *out = v->def_value;
    const char *text = getenv(v->name);
    if (!text || !*text)
        return 0;
    char why[512];
    int r = v->parse(v, text, &val, why, sizeof why);
    if (r != 0 && first_time(id, text)) {
        if (r < 0)
            iron__warn("%s='%s' %s; using %s", v->name, text, why, v->def);
        else
            iron__warn("%s='%s' %s", v->name, text, why);
    }
    if (r < 0)
        return 0;
    *out = val;
    return 1;
}

int64_t iron__env_get_int(iron__env_id id)
{
    iron__env_value v;
    iron__env_get(id, &v);
    return v.i;
}

uint64_t iron__env_get_bytes(iron__env_id id)
{
    iron__env_value v;
    iron__env_get(id, &v);
    return v.u;
}

const char *iron__env_get_text(iron__env_id id)
{
    iron__env_value v;
    iron__env_get(id, &v);
    return v.s;
}
