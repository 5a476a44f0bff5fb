/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kernel.c - a kernel call's counted operations -> the core's cycles
 * (timing layer; see kernel.h and docs/timing.md, "Kernel time").
 *
 * Code inside a loop marked for pipelining is costed as the scheduler
 * would overlap it: a run of such code (one loop, all its iterations,
 * with the pipelined loops nested in it) costs its resource bound -- the
 * busiest of the load ports, the store port, the vector slot (MACs and
 * ALU operations), the move slot (shuffles and conversions) and the
 * scalar slot -- plus a fill and drain per loop started.  Every other
 * operation costs its latency, as if each waited for the one before:
 * code the scheduler was not asked to pipeline.  When the call counted
 * no AIE API operation at all (scalar code), its basic blocks times a
 * per-block guess stand in.
 */
#include <math.h>
#include <string.h>

#include "timing/kernel.h"

void iron__kcount_begin(iron__kcount *k, const iron__timing_core *core)
{
    if (!k)
        return;
    memset(k, 0, sizeof *k);
    k->core = core;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? a / b + (a % b != 0) : a;
}

/* Multiplier cycles of n MACs (or lanes) of a multiply kind; -1 for any
 * other kind. */
static double mac_cycles(const iron__timing_core *c, int kind, uint64_t n)
{
    int rate = 0;
    if (kind >= IRON_COUNT_MMUL_I8 && kind <= IRON_COUNT_MMUL_F32)
        rate = c->mmul_rate[kind - IRON_COUNT_MMUL_I8];
    else if (kind >= IRON_COUNT_EMUL_I8 && kind <= IRON_COUNT_EMUL_F32)
        rate = c->emul_rate[kind - IRON_COUNT_EMUL_I8];
    else
        return -1;
    return (double)n / (rate > 0 ? rate : 1);
}

/* The cost of one operation outside pipelined code: its latency, plus
 * one cycle per extra issue it needs (a 512-bit store through a 256-bit
 * port issues twice). */
static double serial_cost(const iron__timing_core *c, int kind, uint64_t n)
{
    if (n == 0)
        return 0;
    uint64_t acc;
    switch (kind) {
    case IRON_COUNT_VLOAD:
        acc = ceil_div(n, (uint64_t)c->load_bits);
        return c->lat_load + (double)ceil_div(acc, (uint64_t)c->load_units) - 1;
    case IRON_COUNT_VSTORE:
        acc = ceil_div(n, (uint64_t)c->store_bits);
        return c->lat_store + (double)ceil_div(acc, (uint64_t)c->store_units) - 1;
    case IRON_COUNT_VALU:
        return c->lat_alu + (double)n - 1;
    case IRON_COUNT_VSHUFFLE:
        return c->lat_shuffle + (double)n - 1;
    case IRON_COUNT_VCONVERT:
        return c->lat_convert + (double)n - 1;
    case IRON_COUNT_SCALAR:
        return c->lat_scalar + (double)n - 1;
    default: {
        double m = mac_cycles(c, kind, n);
        return m < 0 ? 0 : c->lat_mac + ceil(m) - 1;
    }
    }
}

static void run_add(iron__kcount_run *r, const iron__timing_core *c, int kind,
                    uint64_t n)
{
    switch (kind) {
    case IRON_COUNT_VLOAD:
        if (n)
            r->load_acc += ceil_div(n, (uint64_t)c->load_bits);
        break;
    case IRON_COUNT_VSTORE:
        if (n)
            r->store_acc += ceil_div(n, (uint64_t)c->store_bits);
        break;
    case IRON_COUNT_VALU:
        r->valu += n;
        break;
    case IRON_COUNT_VSHUFFLE:
    case IRON_COUNT_VCONVERT:
        r->move += n;
        break;
    case IRON_COUNT_SCALAR:
        r->scalar += n;
        break;
    default: {
        double m = mac_cycles(c, kind, n);
        if (m > 0)
            r->mac += m;
    }
    }
}

static double slot_cycles(double ops, int slots)
{
    return ops / (slots > 0 ? slots : 1);
}

/* The run's resource bound plus its loops' fills; the run is emptied. */
static double run_flush(iron__kcount *k)
{
    const iron__timing_core *c = k->core;
    iron__kcount_run *r = &k->run;
    double bound = ceil(slot_cycles((double)r->load_acc, c->load_units));
    double v = ceil(slot_cycles((double)r->store_acc, c->store_units));
    bound = v > bound ? v : bound;
    v = ceil(slot_cycles(r->mac + (double)r->valu, c->vector_slots));
    bound = v > bound ? v : bound;
    v = ceil(slot_cycles((double)r->move, c->move_slots));
    bound = v > bound ? v : bound;
    v = ceil(slot_cycles((double)r->scalar, c->scalar_slots));
    bound = v > bound ? v : bound;
    double cost = bound + (double)r->loops * c->pipe_fill;
    memset(r, 0, sizeof *r);
    return cost;
}

void iron__kcount_add(iron__kcount *k, int kind, uint64_t n)
{
    if (!k || !k->core || kind < 0 || kind >= IRON_COUNT_KINDS)
        return;
    if (kind == IRON_COUNT_BLOCK) {
        k->blocks += n;
        return;
    }
    k->ops++;
    k->closed_depth = 0;
    if (k->depth > 0) {
        run_add(&k->run, k->core, kind, n);
        return;
    }
    /* Leaving pipelined code: its run is over. */
    k->piped += run_flush(k);
    k->serial += serial_cost(k->core, kind, n);
}

void iron__kcount_region(iron__kcount *k, int begin, int pipelined)
{
    if (!k || !k->core)
        return;
    if (!pipelined) {
        if (begin)
            k->other_depth++;
        else if (k->other_depth > 0)
            k->other_depth--;
        return;
    }
    if (begin) {
        k->depth++;
        /* The next iteration of the loop whose iteration just closed at
         * this depth, or a loop starting: a fill. */
        if (k->closed_depth != k->depth)
            k->run.loops++;
        k->closed_depth = 0;
    } else if (k->depth > 0) {
        k->closed_depth = k->depth--;
    }
}

uint64_t iron__kcount_end(iron__kcount *k, int *source)
{
    int src = IRON__KSRC_NONE;
    double cycles = 0;
    if (k && k->core) {
        const iron__timing_core *c = k->core;
        if (k->ops > 0) {
            src = IRON__KSRC_COUNTED;
            cycles = k->serial + k->piped + run_flush(k) + c->call;
        } else if (k->blocks > 0) {
            src = IRON__KSRC_BLOCKS;
            cycles = (double)k->blocks * c->block + c->call;
        }
    }
    if (k)
        memset(k, 0, sizeof *k);
    if (source)
        *source = src;
    /* Saturates far beyond any real call (2^63 cycles). */
    cycles = ceil(cycles);
    return cycles >= 9.2e18 ? (uint64_t)9200000000000000000ull
                            : (uint64_t)cycles;
}
