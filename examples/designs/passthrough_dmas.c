/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * passthrough_dmas.c - port of upstream mlir-aie
 * programming_examples/basic/passthrough_dmas/passthrough_dmas.py (the
 * IRON design): no compute at all.  The input streams in 1024-element
 * int32 lines through fifo "in", whose consumer is forwarded on a memtile
 * (upstream's of_in.cons().forward(), default placement and depth) to a
 * new fifo drained back to the host.  The runtime sequence takes three
 * tensors as upstream's does (a_in, an unused one, c_out).
 *
 * Differences kept: none in structure.  Upstream's N is a compile-time
 * parameter (default 4096) that sizes the tensors; here it is the tensors'
 * length, checked to be a whole number of lines as upstream's test does.
 */
#include "designs/upstream_basic.h"

#define PASSTHROUGH_DMAS_LINE 1024

int passthrough_dmas_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t line = PASSTHROUGH_DMAS_LINE;
    int64_t n = iron_design_arg_numel(d, 0);
    if (n % line != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "passthrough_dmas: %lld elements are not a "
                                "whole number of %lld-element lines",
                                (long long)n, (long long)line);
    iron_fifo *of_in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(line), 2);
    iron_fifo *of_out = iron_fifo_forward(d, iron_fifo_cons(of_in), NULL, 0);
    iron_rt_fill(d, iron_fifo_prod(of_in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(of_out), 2, iron_tap_linear(n),
                  IRON_WAIT);
    return 0;
}

const iron_jit_options passthrough_dmas_options = {
    .size = sizeof(iron_jit_options),
    .name = "passthrough_dmas",
    .args = "in a_in: int32[N], in b_unused: int32[N], out c_out: int32[N]",
};
