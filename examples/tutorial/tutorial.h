/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tutorial.h - the few helpers every tutorial and cookbook program shares,
 * so that each program shows only its own design and calls.
 */
#ifndef IRON_TUTORIAL_H
#define IRON_TUTORIAL_H

#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

/* Exits with the library's message when a call fails: a tutorial program
 * has nothing sensible to do after an unexpected error. */
static inline void ok(iron_status s, const char *what)
{
    if (s == IRON_OK)
        return;
    fprintf(stderr, "%s: %s: %s\n", what, iron_status_name(s),
            iron_last_error());
    exit(1);
}

/* The jit's counters (calls, builds, cache hits ...). */
static inline iron_jit_stats jit_stats(iron_jit *j)
{
    iron_jit_stats st = { .size = sizeof st };
    ok(iron_jit_get_stats(j, &st), "iron_jit_get_stats");
    return st;
}

#endif
