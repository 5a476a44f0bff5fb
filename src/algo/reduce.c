/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * reduce.c - the reduce algorithm: the whole input handed to one kernel
 * call that writes a (usually smaller) output, as upstream's reduce.  A
 * reduction keeps state across all the elements, so the input is not
 * tiled: it travels as one object and must fit one compute tile.
 */
#include <stdio.h>

#include "algo/algo.h"

/* One buffer each way is enough: each call moves one object through each
 * fifo, and a single buffer lets the largest input fit. */
static iron_status check_fits(iron_design *d, const char *algo)
{
    int64_t nx = iron_design_arg_numel(d, 0), ny = iron_design_arg_numel(d, 1);
    int64_t bx = nx * (int64_t)iron_dtype_size(iron_design_arg_dtype(d, 0));
    int64_t by = ny * (int64_t)iron_dtype_size(iron_design_arg_dtype(d, 1));
    int64_t room = iron__algo_room(d);
    int64_t need = iron__algo_buffer_bytes(bx) + iron__algo_buffer_bytes(by);
    if (need <= room && nx <= INT32_MAX)
        return IRON_OK;
    char x[128], y[128];
    const iron_device_info *info = iron_design_device(d);
    return iron_design_fail(d, IRON_ERESOURCE,
                            "%s: the whole input is one kernel call's "
                            "object, so it must fit one compute tile: "
                            "argument 0 ('%s') %s is %lld bytes and "
                            "argument 1 ('%s') %s %lld, together %lld "
                            "bytes (aligned), over the %lld the tile has "
                            "beside the stack (%u of %u bytes)",
                            algo, iron__algo_arg_name(d, 0),
                            iron__algo_describe(d, 0, x, sizeof x),
                            (long long)bx, iron__algo_arg_name(d, 1),
                            iron__algo_describe(d, 1, y, sizeof y),
                            (long long)by, (long long)need, (long long)room,
                            info->compute.stack_bytes,
                            info->compute.memory_bytes);
}

IRON_API int iron_algo_reduce(iron_design *d, void *user)
{
    (void)user;
    const char *algo = "reduce";
    if (iron__algo_check_nargs(d, algo, 2) != IRON_OK)
        return iron_design_status(d);
    iron_dtype tx = iron_design_arg_dtype(d, 0);
    iron_dtype ty = iron_design_arg_dtype(d, 1);
    const iron__algo_call call = { 3, { tx, ty, IRON_INT32 }, { 1, 1, 0 },
                                   "f(const T *in, U *out, int32_t n)" };
    const iron_kernel_ref *f = iron__algo_kernel(d, algo, &call);
    if (!f || check_fits(d, algo) != IRON_OK ||
        iron__algo_check_words(d, algo, 0, iron_design_arg_numel(d, 0),
                               "the whole tensor") != IRON_OK ||
        iron__algo_check_words(d, algo, 1, iron_design_arg_numel(d, 1),
                               "the whole tensor") != IRON_OK)
        return iron_design_status(d);

    int64_t nx = iron_design_arg_numel(d, 0), ny = iron_design_arg_numel(d, 1);
    iron_kernel *k = iron_kernel_new(d, f->entry, f->source, f->arg_types);
    iron_fifo *in = iron_fifo_new(d, "in", tx, IRON_SHAPE(nx), 1);
    iron_fifo *out = iron_fifo_new(d, "out", ty, IRON_SHAPE(ny), 1);
    iron_worker *w = iron_worker_new(
        d, "reduce", k, 1,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(nx)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(nx));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(ny), IRON_WAIT);
    return iron_design_status(d);
}
