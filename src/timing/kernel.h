/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kernel.h - a kernel call's cycles from the operations it issued (timing
 * layer).  PLACEHOLDER until the kcount branch lands: counts nothing.
 */
#ifndef IRON_TIMING_KERNEL_H
#define IRON_TIMING_KERNEL_H

#include <stdint.h>

typedef struct iron__timing_core iron__timing_core;

enum { IRON__KSRC_NONE, IRON__KSRC_BLOCKS, IRON__KSRC_COUNTED };

typedef struct iron__kcount {
    uint64_t n;
} iron__kcount;

const iron__timing_core *iron__timing_core_for(int aie_arch);
void iron__kcount_begin(iron__kcount *k, const iron__timing_core *core);
void iron__kcount_add(iron__kcount *k, int kind, uint64_t n);
void iron__kcount_region(iron__kcount *k, int begin, int pipelined);
uint64_t iron__kcount_end(iron__kcount *k, int *source);

#endif
