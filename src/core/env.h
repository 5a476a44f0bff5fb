/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * env.h - the IRON_* environment variables, all declared in one table
 * (env.c) and read only through it.  A value that is not exactly what the
 * variable accepts is a warning naming the variable, the value and what
 * is accepted, and the default applies; each bad value is warned about
 * once per process.  "1e3" is not an integer and "1e400" is not a size,
 * so neither is half-read.  Empty means unset.
 *
 * The getters read the environment when called, so a variable set with
 * setenv takes effect at the next read; when that read happens (once per
 * process, at each jit creation, at each call) is the caller's choice and
 * is written in the table's `read` column.
 */
#ifndef IRON_CORE_ENV_H
#define IRON_CORE_ENV_H

#include <stddef.h>
#include <stdint.h>

typedef enum iron__env_id {
    IRON__ENV_DEVICE,
    IRON__ENV_TIMEOUT_MS,
    IRON__ENV_THREADS,
    IRON__ENV_CHECK,
    IRON__ENV_TRACE,
    IRON__ENV_LOG,
    IRON__ENV_CC,
    IRON__ENV_CXX,
    IRON__ENV_CACHE,
    IRON__ENV_CACHE_DIR,
    IRON__ENV_CACHE_MAX,
    IRON__ENV_RESIDENT_MAX,
    IRON__ENV_LAUNCH_THREADS,
    IRON__ENV_TIMING,
    IRON__ENV_CLOCK_MHZ,
    IRON__ENV_COUNT
} iron__env_id;

/* A parsed value: `i` for integers, flags and topic masks, `u` for byte
 * counts, `s` for text (the environment's own string). */
typedef struct iron__env_value {
    int64_t i;
    uint64_t u;
    const char *s;
} iron__env_value;

struct iron__env_var;

/* Parses text (non-empty) into *out.  Returns 0 when accepted, -1 when
 * rejected (the default applies) and 1 when accepted in part (*out holds
 * the usable part).  Unless 0, writes into why the words that follow
 * "NAME='value' " in the warning: "is not 0 or 1". */
typedef int iron__env_parse_fn(const struct iron__env_var *v,
                               const char *text, iron__env_value *out,
                               char *why, size_t why_len);

typedef struct iron__env_var {
    const char *name;     /* "IRON_TIMEOUT_MS" */
    const char *meaning;  /* one line */
    const char *def;      /* the default as text; also the warning's "using" */
    const char *accepts;  /* what is accepted */
    const char *read;     /* when the library reads it */
    iron__env_parse_fn *parse;
    int64_t min, max;     /* integers: the range; byte counts: max */
    iron__env_value def_value;
} iron__env_var;

/* The table row of a variable; NULL outside [0, IRON__ENV_COUNT). */
const iron__env_var *iron__env_var_of(iron__env_id id);

/* Reads and parses the variable now (warning about a bad value once).
 * Returns 1 when the variable is set to an accepted value, else 0 with
 * the default in *out. */
int iron__env_get(iron__env_id id, iron__env_value *out);

/* Typed shortcuts over iron__env_get: the value, or the default. */
int64_t iron__env_get_int(iron__env_id id);     /* integers, flags, masks */
uint64_t iron__env_get_bytes(iron__env_id id);  /* byte counts */
const char *iron__env_get_text(iron__env_id id);/* text, or the default */

/* The parsers of the table, for the rows and for values that do not come
 * from the environment (CLI options). */
iron__env_parse_fn iron__env_parse_int, iron__env_parse_bytes,
    iron__env_parse_flag, iron__env_parse_text;

/* The plain parsers behind them; 0 on success. */
int iron__parse_int(const char *text, int64_t min, int64_t max, int64_t *out);
int iron__parse_bytes(const char *text, uint64_t max, uint64_t *out);

#endif
