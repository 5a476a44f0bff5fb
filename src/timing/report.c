/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * report.c - the sentence naming what bounds a timed run (timing layer):
 * the busiest participant, and for a worker whether its fifos held it
 * back.
 */
#include <stdio.h>

#include "timing/timing.h"

/* Below this share of the span nothing is called a bottleneck: the time
 * goes to latency (filling and draining the pipeline, per-task costs). */
#define SATURATED_PERCENT 50

void iron__timing_bottleneck(const iron__timing_row *rows, int n,
                             uint64_t span, char *out, size_t len)
{
    const iron__timing_row *top = NULL;
    for (int i = 0; i < n; i++)
        if (!top || rows[i].busy > top->busy)
            top = &rows[i];
    if (!top || span == 0) {
        snprintf(out, len, "nothing ran in modelled time");
        return;
    }
    int busy = iron__timing_percent(top->busy, span);
    if (busy < SATURATED_PERCENT) {
        snprintf(out, len, "nothing is busy most of the time (the busiest, "
                 "%s %s, %d%%): the time goes to latency -- filling and "
                 "draining the pipeline, the shim's cost per transfer",
                 top->kind, top->name, busy);
        return;
    }
    if (!top->kernel_source) {
        snprintf(out, len, "%s %s is busy %d%% of the time: data movement "
                 "bounds the design", top->kind, top->name, busy);
        return;
    }
    if (!top->worst_fifo) {
        snprintf(out, len, "%s %s is busy %d%% of the time: its kernel "
                 "bounds the design", top->kind, top->name, busy);
        return;
    }
    if (top->worst_cycles == 0)
        snprintf(out, len, "%s %s is busy %d%% of the time: its kernel "
                 "bounds the design; its %s fifo '%s' is never %s",
                 top->kind, top->name, busy,
                 top->worst_is_input ? "input" : "output", top->worst_fifo,
                 top->worst_is_input ? "empty" : "full");
    else
        snprintf(out, len, "%s %s is busy %d%% of the time: its kernel "
                 "bounds the design; it waits on its %s fifo '%s' %d%% of "
                 "the time", top->kind, top->name, busy,
                 top->worst_is_input ? "input" : "output", top->worst_fifo,
                 iron__timing_percent(top->worst_cycles, span));
}
