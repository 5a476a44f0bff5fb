/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * rates.c - the data-movement constants of each NPU generation (timing
 * layer): one row per generation, every number with where it comes from.
 * docs/timing.md lists the same rows; test_timing.c holds the two
 * together.  The clock a run uses is chosen here too.
 *
 * Sources, by the short names the comments use:
 *   AM020    AMD, "Versal Adaptive SoC AIE-ML Architecture Manual" (AM020,
 *            rev. 1.5): AIE2, the compute array of npu1.
 *   AM027    AMD, "Versal Adaptive SoC AIE-ML v2 Architecture Manual"
 *            (AM027, rev. 1.1): AIE2P, the compute array of npu2.
 *   amdxdna  the Linux driver's clock tables (drivers/accel/amdxdna,
 *            npu1_regs.c and npu4_regs.c): the H-clock steps per chip.
 *   Taka     Taka et al., "Striking the Balance: GEMM on AMD NPUs",
 *            arXiv 2512.13282, sec. 5.2.1: effective DDR bandwidth measured
 *            with a GEMM-like micro-benchmark, and the clocks their
 *            measurements ran at.
 *   xdna-emu an open emulator of these chips calibrated against hardware
 *            traces (model_builder.rs): the shim's per-task overhead and
 *            the stream switch hop; measured, not specified by AMD.
 */
#include <math.h>
#include <string.h>

#include "core/env.h"
#include "timing/timing.h"

static const iron__timing_rates rows[] = {
    {
        .arch = "aie2",
        .chips = "Phoenix, Hawk Point (npu1)",
        /* 1.0 GHz: the clock Taka's Phoenix measurements ran at and
         * the AIE frequency shipped designs declare; the driver's
         * steps run from 800 to 1600 MHz (amdxdna). */
        .clock_mhz = 1000,
        .clock_min_mhz = 800,
        .clock_max_mhz = 1600,
        /* 32-bit streams: one word per cycle per DMA channel on every
         * tile kind (AM020, "AXI4-Stream Interconnect"; the shim's
         * channels "sustain 4 bytes per cycle", "Array Interface DMA
         * Memory Mapped AXI4 Master Interface"). */
        .stream_bytes = { 4, 4, 4 },
        /* ~15 GB/s the NPU reaches in DDR on a Phoenix laptop with
         * DDR5-5600 (Taka). */
        .ddr_bytes_per_ns = 15,
        /* Per task (buffer descriptor) a shim channel serves: 325
         * cycles reading, 179 writing (xdna-emu, fitted to hardware). */
        .shim_mm2s_task = 325,
        .shim_s2mm_task = 179,
        /* A switch's slave port is 2 cycles and its master 1; about 4
         * per switch crossed with the FIFOs (AM020, "Stream Switch
         * Buffering and Latency"); xdna-emu measures 2-4. */
        .hop_cycles = 3,
        /* BD fetch 4 + channel start 2 + memory latency 5 (xdna-emu's
         * model, not measured). */
        .dma_start_cycles = 11,
        /* Not documented; one cycle each, as aie-rt's polling implies
         * (xdna-emu). */
        .lock_cycles = 1,
    },
    {
        .arch = "aie2p",
        .chips = "Strix, Strix Halo, Krackan (npu2)",
        /* 1.8 GHz: the top step of the driver's table (amdxdna) and
         * the clock of Taka's Krackan measurements. */
        .clock_mhz = 1800,
        .clock_min_mhz = 792,
        .clock_max_mhz = 1800,
        /* 64-bit streams: DMA sources and destinations run at a full
         * 64 bits per cycle (AM027, "AXI4-Stream Interconnect", "AIE-ML
         * v2 Memory Tile Features"). */
        .stream_bytes = { 8, 8, 8 },
        /* ~50 GB/s measured on Krackan (Taka); memcpy designs reach
         * 55-67 GB/s on Strix-class parts. */
        .ddr_bytes_per_ns = 50,
        /* Not measured on AIE2P: AIE2's figures. */
        .shim_mm2s_task = 325,
        .shim_s2mm_task = 179,
        .hop_cycles = 3,
        .dma_start_cycles = 11,
        .lock_cycles = 1,
    },
};

const iron__timing_rates *iron__timing_rates_for(const char *arch)
{
    for (size_t i = 0; arch && i < IRON__COUNT_OF(rows); i++)
        if (strcmp(rows[i].arch, arch) == 0)
            return &rows[i];
    return NULL;
}

const iron__timing_rates *iron__timing_rates_all(int *n)
{
    *n = (int)IRON__COUNT_OF(rows);
    return rows;
}

iron_status iron__timing_clock(const iron__timing_rates *r, double asked,
                               const char *device, double *mhz)
{
    double f = asked;
    const char *from = "the launch configuration's clock_mhz";
    if (!(f > 0)) {
        f = (double)iron__env_get_int(IRON__ENV_CLOCK_MHZ);
        from = "IRON_CLOCK_MHZ";
    }
    if (!(f > 0)) {
        *mhz = r->clock_mhz;
        return IRON_OK;
    }
    if (!isfinite(f) || f < r->clock_min_mhz || f > r->clock_max_mhz)
        return iron__fail(IRON_EINVAL,
                          "%s: %g MHz is outside device '%s''s clock range "
                          "(%s: %g to %g MHz)",
                          from, f, device, r->chips, r->clock_min_mhz,
                          r->clock_max_mhz);
    *mhz = f;
    return IRON_OK;
}
