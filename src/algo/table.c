/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * table.c - the algorithms by kind: each one's name, design function and
 * the exact argument and parameter declarations it expects, and the
 * one-call constructor of a jit running it.
 */
#include <stddef.h>

#include "algo/algo.h"
#include "core/core.h"

typedef struct algo_entry {
    const char *name;
    iron_design_fn design;
    const char *args;
    const char *params;
} algo_entry;

/* tile = 64: large enough that the per-object cost (a DMA transfer, two
 * lock hand-offs and a kernel call) stops dominating -- upstream's 16 is
 * about twice as slow per element on the emulator -- and small enough
 * that tensors of a few hundred elements split over 8 columns still cut
 * evenly and every dtype fits a compute tile many times over. */
static const algo_entry table[IRON_ALGO_COUNT_] = {
    [IRON_ALGO_TRANSFORM] = {
        "transform", iron_algo_transform,
        "in x: T, out y: T", "f: kernel, tile: int = 64" },
    [IRON_ALGO_TRANSFORM_BINARY] = {
        "transform_binary", iron_algo_transform_binary,
        "in a: T, in b: T, out c: T", "f: kernel, tile: int = 64" },
    [IRON_ALGO_TRANSFORM_PARALLEL] = {
        "transform_parallel", iron_algo_transform_parallel,
        "in x: T, out y: T", "f: kernel, tile: int = 64, workers: int = 0" },
    [IRON_ALGO_TRANSFORM_PARALLEL_BINARY] = {
        "transform_parallel_binary", iron_algo_transform_parallel_binary,
        "in a: T, in b: T, out c: T",
        "f: kernel, tile: int = 64, workers: int = 0" },
    [IRON_ALGO_FOR_EACH] = {
        "for_each", iron_algo_for_each,
        "inout x: T", "f: kernel, tile: int = 64" },
    [IRON_ALGO_REDUCE] = {
        "reduce", iron_algo_reduce,
        "in x: T, out y: U", "f: kernel" },
};

static const algo_entry *entry(iron_algo kind)
{
    return (int)kind >= 0 && kind < IRON_ALGO_COUNT_ ? &table[kind] : NULL;
}

IRON_API const char *iron_algo_name(iron_algo kind)
{
    const algo_entry *e = entry(kind);
    return e ? e->name : NULL;
}

IRON_API iron_design_fn iron_algo_design(iron_algo kind)
{
    const algo_entry *e = entry(kind);
    return e ? e->design : NULL;
}

IRON_API const char *iron_algo_args(iron_algo kind)
{
    const algo_entry *e = entry(kind);
    return e ? e->args : NULL;
}

IRON_API const char *iron_algo_params(iron_algo kind)
{
    const algo_entry *e = entry(kind);
    return e ? e->params : NULL;
}

IRON_API iron_status iron_algo_jit_create(iron_algo kind, const char *name,
                                          iron_jit **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_algo_jit_create: out is NULL");
    *out = NULL;
    const algo_entry *e = entry(kind);
    if (!e)
        return iron__fail(IRON_EINVAL,
                          "iron_algo_jit_create: kind %d is no algorithm; "
                          "expected an iron_algo, 0 .. %d",
                          (int)kind, IRON_ALGO_COUNT_ - 1);
    iron_jit_options o = { .size = sizeof o,
                           .name = name ? name : e->name,
                           .args = e->args,
                           .params = e->params };
    return iron__public_result(iron_jit_create(e->design, &o, out));
}
