/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * models.c - the device models the emulator emulates (their limits:
 * docs/emulator.md, "What placement rejects"): Phoenix (npu1, AIE2) and Strix/Krackan (npu2, AIE2P), whole
 * arrays and their column partitions, and the emulator's registration of
 * its driver for them through iron_driver_register, the path every driver
 * takes (the built-in driver table, src/device/builtin.c, calls it).
 */
#include <string.h>

#include "emu/emu.h"

/* Every column is a shim tile (row 0), a memtile (row 1) and four compute
 * tiles (rows 2-5); the tile kinds are the same on both generations. */
#define ROWS 6
#define COMPUTE_ROWS 4
#define LOCK_MAX 63

static const iron_tile_info compute_tile = {
    .memory_bytes = 64 * 1024,
    .stack_bytes = 1024,
    .locks = 16,
    .buffer_descriptors = 16,
    .dma_in = 2,
    .dma_out = 2,
};

static const iron_tile_info mem_tile = {
    .memory_bytes = 512 * 1024,
    .stack_bytes = 0,
    .locks = 64,
    .buffer_descriptors = 48,
    .dma_in = 6,
    .dma_out = 6,
};

/* The shim tile has no data memory of its own: it moves host memory. */
static const iron_tile_info shim_tile = {
    .memory_bytes = 0,
    .stack_bytes = 0,
    .locks = 16,
    .buffer_descriptors = 16,
    .dma_in = 2,
    .dma_out = 2,
};

/* In registry order: each family's whole array first, then its partitions
 * from narrowest to widest, which is also the order `iron devices` prints. */
static const struct {
    const char *name, *arch, *family;
    int columns;
} models[] = {
    { "npu1", "aie2", "npu1", 4 },
    { "npu1_1col", "aie2", "npu1", 1 },
    { "npu1_2col", "aie2", "npu1", 2 },
    { "npu1_3col", "aie2", "npu1", 3 },
    { "npu2", "aie2p", "npu2", 8 },
    { "npu2_1col", "aie2p", "npu2", 1 },
    { "npu2_2col", "aie2p", "npu2", 2 },
    { "npu2_3col", "aie2p", "npu2", 3 },
    { "npu2_4col", "aie2p", "npu2", 4 },
    { "npu2_5col", "aie2p", "npu2", 5 },
    { "npu2_6col", "aie2p", "npu2", 6 },
    { "npu2_7col", "aie2p", "npu2", 7 },
};

iron_status iron__emu_register(void)
{
    /* Kernels that run on the emulator's lanes print and stop through it. */
    iron__program_kernel_host(&iron__emu_kernel_host);
    for (size_t i = 0; i < IRON__COUNT_OF(models); i++) {
        iron_device_info info;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        info.name = models[i].name;
        info.arch = models[i].arch;
        info.family = models[i].family;
        info.driver = iron__emu_driver.name;
        info.columns = models[i].columns;
        info.rows = ROWS;
        info.compute_rows = COMPUTE_ROWS;
        info.compute_tiles = models[i].columns * COMPUTE_ROWS;
        info.lock_max_value = LOCK_MAX;
        info.compute = compute_tile;
        info.memtile = mem_tile;
        info.shim = shim_tile;
        iron_status s = iron_driver_register(&iron__emu_driver, &info);
        if (s != IRON_OK)
            return iron__fail_context(s, "emulator: device '%s'",
                                      models[i].name);
    }
    return IRON_OK;
}
