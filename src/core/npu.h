/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * npu.h - the array's coordinates and the model's fixed limits (base
 * layer): shared by the design IR, the program and every driver, so that
 * none of them needs another's header for a tile or a bound.
 */
#ifndef IRON_CORE_NPU_H
#define IRON_CORE_NPU_H

#define IRON__MAX_CONS 8      /* consumer handles per FIFO */
#define IRON__MAX_DEPTH 16    /* buffers per endpoint */
#define IRON__MAX_KARGS 16    /* kernel arguments */

/* Rows of the array: 0 the shim, 1 the memtile, 2.. compute tiles. */
#define IRON__ROW_SHIM 0
#define IRON__ROW_MEMTILE 1
#define IRON__ROW_COMPUTE 2

/* Where a thing sits on the array: column and row (row 0 shim, 1 memtile,
 * 2.. compute). */
typedef struct iron__tile {
    int col, row;
} iron__tile;

#endif
