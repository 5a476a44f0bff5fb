/*
 * vision_passthrough.c - port of upstream mlir-aie
 * programming_examples/vision/vision_passthrough/vision_passthrough.py:
 * an 8-bit width x height image (an int8 tensor) streams as uint8 lines of
 * `width` through fifo "in" to one worker, which copies each line into
 * fifo "out" with passThroughLine (aie_kernels/generic/passThrough.cc,
 * BIT_WIDTH=8; here a scalar byte copy).  The worker's body is upstream's
 * passthrough_fn: acquire out, acquire in, copy, release in, release out.
 * The runtime sequence takes three tensors as upstream's does (input, an
 * unused one, output) and starts the worker before the fill and drain.
 *
 * Differences kept: none in structure.  Upstream's aiecc flag
 * --alloc-scheme=basic-sequential (buffer addresses) has no counterpart.
 * The tensor length must be width * height.
 */
#include "designs/upstream_basic.h"

static const char vision_passthrough_src[] =
    "#include <stdint.h>\n"
    "\n"
    "static void passThroughLine(const uint8_t *in, uint8_t *out,\n"
    "                            int32_t lineWidth)\n"
    "{\n"
    "    for (int32_t i = 0; i < lineWidth; i++)\n"
    "        out[i] = in[i];\n"
    "}\n"
    "\n"
    "void passthrough_fn(iron_objfifo *of_in, iron_objfifo *of_out,\n"
    "                    int32_t width)\n"
    "{\n"
    "    for (;;) {\n"
    "        uint8_t *elem_out = iron_acquire(of_out, 1)[0];\n"
    "        const uint8_t *elem_in = iron_acquire(of_in, 1)[0];\n"
    "        passThroughLine(elem_in, elem_out, width);\n"
    "        iron_release(of_in, 1);\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
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
    iron_kernel *k = iron_kernel_new_core(d, "passthrough_fn",
                                          vision_passthrough_src,
                                          "fifo, fifo, int32");
    iron_worker *w = iron_worker_new(
        d, "passthrough", k, 0,
        IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(of_in), 1),
                  iron_arg_fifo_acquire(iron_fifo_prod(of_out), 1),
                  iron_arg_int(width)));
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
