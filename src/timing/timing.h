/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * timing.h - the cycle-approximate timing model (timing layer): the
 * architecture's documented rates per generation, and how a run's
 * modelled time is told (the summary and its bottleneck sentence).  The
 * emulator keeps the clocks (src/emu/timing.c); this module knows the
 * chip.  Kernel time from counted operations is kernel.h's.
 *
 * The model in one paragraph: every worker core and every DMA mover has a
 * clock in cycles; every buffer of every pool records when it was last
 * filled and last freed.  Taking a buffer waits (in modelled time) until
 * it was filled (a reader) or freed (a writer); a kernel call advances its
 * core's clock by the kernel's cost, an object moved advances its DMA's
 * clock by its bytes over the path's rate and lands a latency later.  The
 * order of events is the functional emulation's own, so the model never
 * changes what a design computes, and a design's modelled time does not
 * depend on the host or its threads.
 */
#ifndef IRON_TIMING_TIMING_H
#define IRON_TIMING_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* Where a DMA's end sits; selects its stream rate. */
typedef enum iron__timing_tile {
    IRON__TT_SHIM,
    IRON__TT_MEMTILE,
    IRON__TT_COMPUTE
} iron__timing_tile;

/* One generation's data-movement constants (rates.c, one row per
 * generation, each number with its source). */
typedef struct iron__timing_rates {
    const char *arch;              /* "aie2", "aie2p" */
    const char *chips;             /* "Phoenix, Hawk Point" */
    double clock_mhz;              /* default clock */
    double clock_min_mhz, clock_max_mhz;  /* the range a clock may take */
    /* Bytes per cycle of one DMA channel's stream, per tile kind. */
    double stream_bytes[3];        /* by iron__timing_tile */
    double ddr_bytes_per_ns;       /* the device's DDR cap, all shims */
    int shim_mm2s_task, shim_s2mm_task;  /* per-task overhead, cycles */
    int hop_cycles;                /* per stream switch crossed */
    int dma_start_cycles;          /* BD fetch + channel start + memory */
    int lock_cycles;               /* an acquire or a release */
} iron__timing_rates;

/* The row for an architecture name ("aie2", "aie2p"); NULL if none. */
const iron__timing_rates *iron__timing_rates_for(const char *arch);

/* Every row, for the docs test: *n rows. */
const iron__timing_rates *iron__timing_rates_all(int *n);

/* The clock a run uses: `asked` MHz when > 0, else IRON_CLOCK_MHZ when
 * set, else the generation's default; IRON_EINVAL naming the value and
 * the range when it is outside [clock_min_mhz, clock_max_mhz]. */
iron_status iron__timing_clock(const iron__timing_rates *r, double asked,
                               const char *device, double *mhz);

/* part of whole in whole percent, rounded (0 of nothing). */
static inline int iron__timing_percent(uint64_t part, uint64_t whole)
{
    return whole ? (int)((part * 100 + whole / 2) / whole) : 0;
}

/* Cycles to nanoseconds at `mhz`. */
static inline double iron__timing_ns(uint64_t cycles, double mhz)
{
    return (double)cycles * 1000.0 / mhz;
}

/* One participant's time in a run, for the summary (report.c). */
typedef struct iron__timing_row {
    const char *kind;              /* "worker", "DMA" */
    const char *name;              /* "'mm' (0,2)", "fifo 'a': shim (0,0)
                                      -> compute (0,2)" */
    uint64_t busy, stall_in, stall_out;   /* cycles in the run */
    /* For a worker: its input or output fifo that stalled it most, and
     * whether its inputs were never empty. */
    const char *worst_fifo;
    int worst_is_input;
    uint64_t worst_cycles;
    const char *kernel_source;     /* how its kernel time was found:
                                      "counted", "declared", "guess", "none",
                                      or NULL for a DMA */
} iron__timing_row;

/* The one sentence naming what bounds the run ("worker 'mm' (0,2) is busy
 * 91% of the time; its input fifo 'A' is never empty"), written to out. */
void iron__timing_bottleneck(const iron__timing_row *rows, int n,
                             uint64_t span, char *out, size_t len);

#endif
