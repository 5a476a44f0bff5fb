/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * relu.c - upstream mlir-aie programming_examples/ml/relu/relu.py (IRON):
 * ReLU on bfloat16, spread over cols x chans workers (4 x 2 by upstream's
 * Makefile, length 16384).
 *
 * Kept as upstream:
 *   - one in and one out ObjectFifo per worker, "in{i}_{j}" / "out{i}_{j}",
 *     bfloat16[1024] objects, default depth 2;
 *   - the kernel bf16_relu (two bfloat16[1024] objects) is its own kernel,
 *     called from each worker's core body, described op by op as
 *     upstream's core_fn: in the Worker's endless loop it acquires the
 *     output object, then the input object, calls the kernel and releases
 *     the input, then the output; the workers are not pinned (upstream
 *     leaves them to the placer);
 *   - worker (i, j)'s fill and drain use the same access pattern: the
 *     contiguous chunk at chunk * (i * chans + j), chunk = N / cols / chans
 *     (upstream's TensorAccessPattern sizes [1, 1, 1, chunk], strides
 *     [0, 0, 0, 1]);
 *   - every fill and every drain (wait) in one task group, then
 *     finish_task_group.
 * The kernel is upstream's aie_kernels/aie2/relu.cc (bf16_relu: max with a
 * vector of zeros, 1024 elements) as scalar C: x > 0 ? x : +0.  NaN inputs
 * give +0 here; the vector max's NaN result is unspecified and upstream's
 * test skips NaN inputs.  The compile-time parameter `kernel_file` swaps
 * the C port for a source file with the same entry (kernel_choice.h).
 */
#include <stdio.h>

#include "designs/bodies.h"
#include "designs/kernel_choice.h"
#include "designs/upstream_ml.h"

#define RELU_LINE 1024
#define RELU_MAX_WORKERS 16

/* aie_kernels/aie2/relu.cc: bf16_relu on a 1024-element line.  bfloat16
 * travels as its bits; widening to float is exact, and the result is
 * either the input's bits or +0, so no rounding happens. */
static const char relu_src[] =
    "#include <iron/iron_kernel.h>\n"
    "static void relu(const uint16_t *a, uint16_t *c, const int TILE_SIZE)\n"
    "{\n"
    "    for (int i = 0; i < TILE_SIZE; i++)\n"
    "        c[i] = iron_k_bf16_to_float(a[i]) > 0.0f ? a[i] : (uint16_t)0;\n"
    "}\n"
    "void bf16_relu(const uint16_t *a_in, uint16_t *c_out)\n"
    "{\n"
    "    relu(a_in, c_out, 1024);\n"
    "}\n";

/* relu.py's core_fn(of_in, of_out, reluLine) for one worker, in the
 * Worker's endless loop. */
static iron_body *core_fn(iron_design *d, iron_handle *in, iron_handle *out,
                          iron_kernel *relu_line)
{
    iron_body *b = iron_body_new(d, "core_fn");
    iron_val of_in = iron_body_fifo(b, in);
    iron_val of_out = iron_body_fifo(b, out);
    iron_val relu = iron_body_kernel(b, relu_line);
    body_forever(b);
    iron_val elem_out = body_acquire1(b, of_out);
    iron_val elem_in = body_acquire1(b, of_in);
    iron_body_call(b, relu, 2, (const iron_val[]){ elem_in, elem_out });
    iron_body_release(b, of_in, 1);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    return b;
}

int upstream_relu_design(iron_design *d, void *user)
{
    (void)user;
    int64_t size = iron_design_arg_numel(d, 0);
    int64_t cols = iron_design_param_int(d, "cols");
    int64_t chans = iron_design_param_int(d, "chans");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    if (chans < 1 || chans > 2 || cols < 1 ||
        cols * chans > RELU_MAX_WORKERS)
        return iron_design_fail(d, IRON_EPARAM,
                                "relu: %lld columns x %lld channels; "
                                "channels must be 1 or 2 and at most %d "
                                "workers",
                                (long long)cols, (long long)chans,
                                RELU_MAX_WORKERS);
    if (size % (cols * chans * RELU_LINE) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "relu: %lld elements do not split into %lld "
                                "columns x %lld channels of whole %d-element "
                                "lines",
                                (long long)size, (long long)cols,
                                (long long)chans, RELU_LINE);
    const int64_t chunk = size / cols / chans;
    const int nw = (int)(cols * chans);

    /* The kernel is compiled for 1024-element lines, like upstream's. */
    iron_kernel *relu_fcn = design_kernel(d, "bf16_relu", relu_src,
                                          "bf16_relu",
                                          "bfloat16*, bfloat16*");

    iron_fifo *of_ins[RELU_MAX_WORKERS], *of_outs[RELU_MAX_WORKERS];
    iron_worker *workers[RELU_MAX_WORKERS];
    for (int i = 0; i < cols; i++)
        for (int j = 0; j < chans; j++) {
            int w = i * (int)chans + j;
            char name[32];
            snprintf(name, sizeof name, "in%d_%d", i, j);
            of_ins[w] = iron_fifo_new(d, name, IRON_BFLOAT16,
                                      IRON_SHAPE(RELU_LINE), 2);
            snprintf(name, sizeof name, "out%d_%d", i, j);
            of_outs[w] = iron_fifo_new(d, name, IRON_BFLOAT16,
                                       IRON_SHAPE(RELU_LINE), 2);
        }
    for (int w = 0; w < nw; w++) {
        char name[32];
        snprintf(name, sizeof name, "relu%d_%d", w / (int)chans,
                 w % (int)chans);
        workers[w] = iron_worker_new_body(
            d, name,
            core_fn(d, iron_fifo_cons(of_ins[w]), iron_fifo_prod(of_outs[w]),
                    relu_fcn));
    }
    for (int w = 0; w < nw; w++)
        iron_rt_start(d, workers[w]);

    /* Worker w's chunk: upstream's taps[i * chans + j]. */
    iron_tap taps[RELU_MAX_WORKERS];
    for (int w = 0; w < nw; w++) {
        const int64_t sizes[4] = { 1, 1, 1, chunk };
        const int64_t strides[4] = { 0, 0, 0, 1 };
        taps[w] = iron_tap_make(chunk * w, 4, sizes, strides);
    }
    iron_task_group *tg = iron_rt_task_group_new(d);
    for (int w = 0; w < nw; w++)
        iron_rt_fill(d, iron_fifo_prod(of_ins[w]), 0, taps[w]);
    for (int w = 0; w < nw; w++)
        iron_rt_drain(d, iron_fifo_cons(of_outs[w]), 1, taps[w], IRON_WAIT);
    iron_rt_task_group_finish(d, tg);
    return 0;
}

const iron_jit_options upstream_relu_options = {
    .size = sizeof(iron_jit_options),
    .name = "relu",
    .args = "in a_in: bfloat16[N], out b_out: bfloat16[N]",
    .params = "cols: int = 4, chans: int = 2, " KERNEL_FILE_PARAM,
};
