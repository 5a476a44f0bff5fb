/*
 * env.h - reading IRON_* environment variables strictly: a value that is
 * not exactly what the variable accepts is a warning naming the variable,
 * the value and what is accepted, and the default applies.  "1e3" is not
 * an integer and "1e400" is not a size, so neither is half-read.
 */
#ifndef IRON_CORE_ENV_H
#define IRON_CORE_ENV_H

#include <stdint.h>

/* A decimal integer in [min, max]; unset or empty gives def. */
int64_t iron__env_int(const char *name, int64_t min, int64_t max,
                      int64_t def);

/* A byte count: a decimal integer with an optional K, M or G suffix
 * (binary units), at most max; unset or empty gives def. */
uint64_t iron__env_bytes(const char *name, uint64_t max, uint64_t def);

/* The parsers behind them, for values that do not come from the
 * environment (CLI options); 0 on success. */
int iron__parse_int(const char *text, int64_t min, int64_t max, int64_t *out);
int iron__parse_bytes(const char *text, uint64_t max, uint64_t *out);

#endif
