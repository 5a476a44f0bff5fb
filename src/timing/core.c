/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * core.c - the compute tile's core, one row per AIE generation (timing
 * layer): what kernel.c needs to turn counted operations into cycles.
 * Every constant says where it comes from: [AM020] AMD's AIE-ML
 * architecture manual, [AM027] its AIE-ML v2 manual, [guide] upstream's
 * IRON programming guide, section 4c (its trace-measured kernels on
 * npu1), [fit] fitted to those measurements, [assumed] no published
 * figure found: a stated assumption.  docs/timing.md's "Kernel time"
 * table repeats them; keep the two together.
 */
#include <stddef.h>

#include "timing/kernel.h"

/* mmul_rate / emul_rate columns: int8, int16, int32, bfloat16, float. */
static const iron__timing_core cores[] = {
    {
        .name = "AIE2 (npu1)",
        .aie_arch = 20,
        /* [AM020] "Functional Overview": two 256-bit load units and one
         * 256-bit store unit; one vector, one scalar instruction per
         * VLIW word.  The shift/shuffle/SRS path runs beside the MAC
         * datapath [guide] ("runs in parallel with the main integer
         * vector datapath"): one move slot. */
        .load_units = 2, .load_bits = 256,
        .store_units = 1, .store_bits = 256,
        .vector_slots = 1, .move_slots = 1, .scalar_slots = 1,
        /* Matrix MACs per cycle: int8 256, bf16 128 [AM020] "AIE-ML
         * Processor" (256 8b x 8b MACs, 128 bfloat16 MACs); int16 64
         * [guide] (16-bit x 16-bit: 64 MACs per cycle); int32 16
         * [assumed] (no native 32 x 32 multiply [AM020]: emulated with
         * four 16-bit products); float 42 [assumed] (fp32 emulated with
         * three bfloat16 products). */
        .mmul_rate = { 256, 64, 16, 128, 42 },
        /* Elementwise lanes per cycle: int16 32 [guide] (32 accumulator
         * lanes for eltwise operations); int8 32 [assumed] (the same 32
         * lanes); int32 8, bf16 16, float 5 [assumed]. */
        .emul_rate = { 32, 32, 8, 16, 5 },
        /* Latencies [assumed], except scalar 1 [AM020] "Arithmetic Logic
         * Unit" (add, compare, shift: one cycle).  Together they give the
         * unpipelined vector_scalar_mul iteration the 15 cycles [guide]
         * counts in its microcode: load 6 + mul 4 + srs 3 + store 2 (two
         * 256-bit accesses, the first with latency 1). */
        .lat_load = 6, .lat_store = 1, .lat_mac = 4, .lat_alu = 2,
        .lat_shuffle = 2, .lat_convert = 3, .lat_scalar = 1,
        /* [fit] The pipelined vector_scalar_mul: 72 cycles measured
         * [guide] for a 64-cycle store bound -- 8 cycles of loop preamble,
         * postamble and function entry and exit, split 4 + 4. */
        .pipe_fill = 4,
        .call = 4,
        /* [fit], a guess: the scalar vector_scalar_mul (one basic block
         * per element, 1024 elements) takes ~10,250 cycles [guide]:
         * about 10 per block. */
        .block = 10,
    },
    {
        .name = "AIE2P (npu2)",
        .aie_arch = 21,
        /* [AM027] "AIE-ML v2 Interfaces": two 512-bit loads and one
         * 512-bit store per cycle; the same VLIW slots as AIE2. */
        .load_units = 2, .load_bits = 512,
        .store_units = 1, .store_bits = 512,
        .vector_slots = 1, .move_slots = 1, .scalar_slots = 1,
        /* int8 512 (one 8x8x8 VMAC per cycle; AMD's 50 TOPS for 32 cores
         * at 1.8 GHz); int16 128 [assumed] (the 4x4x8 shape upstream's
         * kernels use, one per cycle); int32 32 [assumed] (four 16-bit
         * products); bf16 128 [assumed] (AIE2P's fast path for bfloat16
         * is block floating point, which the host AIE API does not
         * implement); float 42 [assumed] (as AIE2). */
        .mmul_rate = { 512, 128, 32, 128, 42 },
        /* [assumed] twice AIE2's lanes: AIE2P's accumulator registers
         * are 2048 bits [AM027], 64 lanes of 32 bits. */
        .emul_rate = { 64, 64, 16, 32, 10 },
        /* [assumed] AIE2's; scalar 1 [AM027] "Arithmetic Logic Unit". */
        .lat_load = 6, .lat_store = 1, .lat_mac = 4, .lat_alu = 2,
        .lat_shuffle = 2, .lat_convert = 3, .lat_scalar = 1,
        /* [assumed] AIE2's fits. */
        .pipe_fill = 4,
        .call = 4,
        .block = 10,
    },
};

const iron__timing_core *iron__timing_core_for(int aie_arch)
{
    for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++)
        if (cores[i].aie_arch == aie_arch)
            return &cores[i];
    return NULL;
}
