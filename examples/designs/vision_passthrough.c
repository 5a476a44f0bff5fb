/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * vision_passthrough.c - port of upstream mlir-aie
 * programming_examples/vision/vision_passthrough/vision_passthrough.py:
 * an 8-bit width x height image (an int8 tensor) streams as uint8 lines of
 * `width` through fifo "in" to one worker, which copies each line into
 * fifo "out" with passThroughLine (aie_kernels/generic/passThrough.cc,
 * BIT_WIDTH=8; here a scalar byte copy), a kernel of its own.  The
 * worker's core body is described op by op as upstream's passthrough_fn:
 * in the Worker's endless loop, acquire out, acquire in, call
 * passThroughLine(in, out, width), release in, release out.
 * The runtime sequence takes three tensors as upstream's does (input, an
 * unused one, output) and starts the worker before the fill and drain.
 *
 * Differences kept: none in structure.  Upstream's aiecc flag
 * --alloc-scheme=basic-sequential (buffer addresses) has no counterpart.
 * The tensor length must be width * height.
 */
#include "designs/bodies.h"
#include "designs/upstream_basic.h"

static const char pass_through_line_src[] =
    "#include <stdint.h>\n"
    "void passThroughLine(const uint8_t *in, uint8_t *out,\n"
    "                     int32_t lineWidth)\n"
    "{\n"
    "    for (int32_t i = 0; i < lineWidth; i++)\n"
    "        out[i] = in[i];\n"
    "}\n";

int vision_passthrough_design(iron_design *d, void *user)
{
    (void)user;
    int64_t width = iron_design_param_int(d, "width");
    int64_t height = iron_design_param_int(d, "height");
    int64_t n = iron_design_arg_numel(d, 0);
    if (width < 1 || height < 1 || n != width * height)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vision_passthrough: the image has %lld "
                                "bytes; width %lld x height %lld needs %lld",
                                (long long)n, (long long)width,
                                (long long)height,
                                (long long)(width * height));
    iron_fifo *of_in = iron_fifo_new(d, "in", IRON_UINT8, IRON_SHAPE(width),
                                     2);
    iron_fifo *of_out = iron_fifo_new(d, "out", IRON_UINT8,
                                      IRON_SHAPE(width), 2);
    iron_kernel *pass_through_line = iron_kernel_new(
        d, "passThroughLine", pass_through_line_src, "uint8*, uint8*, int32");

    /* passthrough_fn(of_in, of_out, passThroughLine) */
    iron_body *b = iron_body_new(d, "passthrough_fn");
    iron_val in = iron_body_fifo(b, iron_fifo_cons(of_in));
    iron_val out = iron_body_fifo(b, iron_fifo_prod(of_out));
    iron_val line_fn = iron_body_kernel(b, pass_through_line);
    body_forever(b);
    iron_val elem_out = body_acquire1(b, out);
    iron_val elem_in = body_acquire1(b, in);
    iron_body_call(b, line_fn, 3,
                   (const iron_val[]){ elem_in, elem_out,
                                       body_i32(b, width) });
    iron_body_release(b, in, 1);
    iron_body_release(b, out, 1);
    body_end_for(b);
    iron_worker *w = iron_worker_new_body(d, "passthrough", b);
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(of_in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(of_out), 2, iron_tap_linear(n),
                  IRON_WAIT);
    return 0;
}

const iron_jit_options vision_passthrough_options = {
    .size = sizeof(iron_jit_options),
    .name = "vision_passthrough",
    .args = "in in_tensor: int8[N], in unused: int8[N], "
            "out out_tensor: int8[N]",
    .params = "width: int = 1920, height: int = 1080",
};
