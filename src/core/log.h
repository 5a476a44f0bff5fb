/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * log.h - the debug log: IRON_LOG=jit,cache (or all) selects topics; lines
 * go to stderr, or to the handler set with iron_log_set_handler.
 */
#ifndef IRON_CORE_LOG_H
#define IRON_CORE_LOG_H

#include "core/core.h"
#include "core/env.h"

typedef enum iron__log_topic {
    IRON__LOG_JIT = 1,
    IRON__LOG_CACHE = 2,
    IRON__LOG_EMU = 4
} iron__log_topic;

/* The parser of IRON_LOG's row in the environment table (core/env.h):
 * the topics' mask; unknown topics are warned about (with the closest
 * known one) and skipped, the others apply. */
iron__env_parse_fn iron__log_parse_topics;

/* Whether a topic is on (reads IRON_LOG once; cheap afterwards). */
int iron__log_on(iron__log_topic t);

/* Whether IRON_LOG itself names the topic (a handler aside): for costs
 * only worth paying when the user asked for the topic. */
int iron__log_selected(iron__log_topic t);

/* Emits one line "iron[topic] ..." when the topic is on. */
void iron__log(iron__log_topic t, const char *fmt, ...) IRON__PRINTF(2, 3);

/* A warning the user should see whatever IRON_LOG says (to stderr, or
 * the handler with topic "warning"). */
void iron__warn(const char *fmt, ...) IRON__PRINTF(1, 2);

#endif
