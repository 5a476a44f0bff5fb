/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* kernel.c - PLACEHOLDER until the kcount branch lands. */
#include <stddef.h>

#include "timing/kernel.h"

const iron__timing_core *iron__timing_core_for(int aie_arch)
{
    (void)aie_arch;
    return NULL;
}

void iron__kcount_begin(iron__kcount *k, const iron__timing_core *core)
{
    (void)core;
    k->n = 0;
}

void iron__kcount_add(iron__kcount *k, int kind, uint64_t n)
{
    (void)kind;
    k->n += n;
}

void iron__kcount_region(iron__kcount *k, int begin, int pipelined)
{
    (void)k;
    (void)begin;
    (void)pipelined;
}

uint64_t iron__kcount_end(iron__kcount *k, int *source)
{
    (void)k;
    *source = IRON__KSRC_NONE;
    return 0;
}
