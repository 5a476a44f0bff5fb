/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dma_transpose.c - port of upstream mlir-aie
 * programming_examples/basic/dma_transpose/dma_transpose.py (the IRON
 * design, formerly dma_transpose_iron.py): a transpose done by the shim
 * DMA alone.  One fifo carries the whole M x K int32 matrix as a single
 * object; its consumer is forwarded through a compute tile no worker uses
 * (upstream's forward(AnyComputeTile)) to a fifo drained in order.  The
 * fill reads the host matrix with the pattern of
 * TensorTiler2D.simple_tiler((M, K), tile_col_major=True)[0] -- column by
 * column, i.e. upstream's sizes [1, 1, K, M] strides [0, 0, 1, K] -- so
 * the object holds A transposed: C[j * M + i] = A[i * K + j].
 *
 * Differences kept: the tiler here drops upstream's two size-1 leading
 * dimensions (its pattern is sizes [K, M] strides [1, K]); the order of
 * the elements visited is the same.  M and K come from the tensors' shape
 * (upstream: compile-time parameters, default 64 x 64, sizing the same
 * tensor type).
 */
#include "designs/upstream_basic.h"

int dma_transpose_design(iron_design *d, void *user)
{
    (void)user;
    iron_shape s = iron_design_arg_shape(d, 0);
    if (s.ndim != 2)
        return iron_design_fail(d, IRON_ESHAPE,
                                "dma_transpose: the input has %d "
                                "dimensions; expected a 2-D M x K matrix",
                                s.ndim);
    const int64_t m = s.dims[0], k = s.dims[1];
    iron_tiler2d tiler = { .size = sizeof tiler, .rows = m, .cols = k,
                           .tile_rows = m, .tile_cols = k,
                           .tile_col_major = 1 };
    iron_tap tap_in;
    iron_status st = iron_tiler2d_tap(&tiler, 0, &tap_in);
    if (st != IRON_OK)
        return iron_design_fail(d, st, "dma_transpose: %s",
                                iron_last_error());
    iron_fifo *of_in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(m, k),
                                     2);
    const iron_link_options on_compute = {
        .size = sizeof on_compute, .place = IRON_LINK_ANY_COMPUTE
    };
    iron_fifo *of_out = iron_fifo_forward_with(d, iron_fifo_cons(of_in), NULL,
                                               0, &on_compute);
    iron_rt_fill(d, iron_fifo_prod(of_in), 0, tap_in);
    iron_rt_drain(d, iron_fifo_cons(of_out), 2, iron_tap_linear(m * k),
                  IRON_WAIT);
    return 0;
}

const iron_jit_options dma_transpose_options = {
    .size = sizeof(iron_jit_options),
    .name = "dma_transpose",
    .args = "in a_in: int32[M, K], in b_unused: int32[M, K], "
            "out c_out: int32[M, K]",
};
