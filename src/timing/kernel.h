/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kernel.h - kernel time (timing layer): the core's compute constants per
 * AIE generation (core.c) and the accumulator that turns the operations a
 * timed kernel counted in one call (<iron/kernel/iron_count.h>) into the
 * cycles that call takes on the core (kernel.c).  docs/timing.md, "Kernel
 * time", describes the model and every constant's source.
 *
 * The emulator keeps one accumulator per worker: begin when a kernel call
 * starts, add and region as the kernel reports, end when the call returns.
 * None of it takes locks; an accumulator belongs to one thread at a time.
 */
#ifndef IRON_TIMING_KERNEL_H
#define IRON_TIMING_KERNEL_H

#include <stdint.h>

#include "iron/kernel/iron_count.h"

/* One AIE generation's core, per cycle unless said otherwise. */
typedef struct iron__timing_core {
    const char *name;          /* "AIE2 (npu1)" */
    int aie_arch;              /* __AIE_ARCH__: 20, 21 */
    /* VLIW issue slots per cycle. */
    int load_units;            /* vector loads */
    int load_bits;             /* bits one load moves */
    int store_units;
    int store_bits;
    int vector_slots;          /* vector MAC / ALU operations */
    int move_slots;            /* shuffle / convert operations */
    int scalar_slots;
    /* Multiply-accumulates per cycle: mmul_rate[k] for kind
     * IRON_COUNT_MMUL_I8 + k, emul_rate[k] (lanes) for
     * IRON_COUNT_EMUL_I8 + k. */
    int mmul_rate[5];
    int emul_rate[5];
    /* Cycles from issue to a dependent use, for code not pipelined. */
    int lat_load, lat_store, lat_mac, lat_alu, lat_shuffle, lat_convert,
        lat_scalar;
    /* A pipelined loop's fill and drain (prologue and epilogue). */
    int pipe_fill;
    /* Entering and leaving a kernel call. */
    int call;
    /* A basic block of scalar code when the call counted no AIE API
     * operation: a guess (docs/timing.md). */
    int block;
} iron__timing_core;

/* The core of __AIE_ARCH__ aie_arch (20: AIE2, npu1; 21: AIE2P, npu2);
 * NULL for any other. */
const iron__timing_core *iron__timing_core_for(int aie_arch);

/* Where a call's cycles came from. */
enum {
    IRON__KSRC_NONE = 0,       /* nothing counted: an untimed build */
    IRON__KSRC_COUNTED = 1,    /* AIE API operations (blocks ignored) */
    IRON__KSRC_BLOCKS = 2      /* scalar blocks only: a guess */
};

/* Resource use of a run of pipelined code, in operations. */
typedef struct iron__kcount_run {
    uint64_t load_acc, store_acc;   /* port accesses */
    uint64_t valu, move, scalar;    /* operations */
    double mac;                     /* cycles of the multiplier */
    uint64_t loops;                 /* pipelined loops started (fills) */
} iron__kcount_run;

typedef struct iron__kcount {
    const iron__timing_core *core;
    uint64_t blocks;           /* scalar blocks seen */
    uint64_t ops;              /* AIE API operations seen */
    double serial;             /* cycles of code outside pipelined loops */
    double piped;              /* cycles of finished pipelined runs */
    iron__kcount_run run;      /* the pipelined run under way */
    int depth;                 /* pipelined regions open */
    int other_depth;           /* regions open that are not pipelined */
    /* The last region event closed a pipelined region at this depth, with
     * no operation since: a begin at the same depth is the same loop's
     * next iteration. */
    int closed_depth;
} iron__kcount;

/* A kernel call starts on `core` (NULL: no model; every call then ends
 * with 0 cycles and IRON__KSRC_NONE). */
void iron__kcount_begin(iron__kcount *k, const iron__timing_core *core);
/* The kernel counted n of `kind` (enum iron_count_kind); unknown kinds
 * are ignored. */
void iron__kcount_add(iron__kcount *k, int kind, uint64_t n);
/* A region opens (begin 1) or closes (begin 0); pipelined 1 for a loop
 * marked for pipelining.  A close with no region open is ignored. */
void iron__kcount_region(iron__kcount *k, int begin, int pipelined);
/* The call's cycles; *source (may be NULL) says where they came from
 * (IRON__KSRC_*).  The accumulator then needs a begin again. */
uint64_t iron__kcount_end(iron__kcount *k, int *source);

#endif
