/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * edge_detect.c - upstream mlir-aie programming_examples/vision/
 * edge_detect/edge_detect.py (IRON): edge detection on an RGBA image, one
 * line at a time, 1920 x 1080 by upstream's Makefile.
 *
 *   I --fill--> inOF_L3L2 (uint8[4W], depth 2) --+--> rgba2gray
 *                                                 '--> memtile (depth 7)
 *                  forward --> inOF_L2L1 (depth 7) --> gray2rgba_addWeighted
 *   rgba2gray --OF_2to3 (uint8[W], depth 4)--> filter2d
 *   filter2d  --OF_3to4 (depth 2)--> threshold --OF_4to5 (depth 2)-->
 *   gray2rgba_addWeighted: gray2rgba into OF_local (uint8[4W], depth 1,
 *     its own producer and consumer), then addWeighted(OF_local, the
 *     original line) --> outOF_L1L2 (depth 2) --memtile forward-->
 *     outOF_L2L3 --drain--> O
 *
 * Kept as upstream: the FIFOs above with their names, object types and
 * depths (the memtile consumer of inOF_L3L2 declared with depth 7, the
 * forward's new fifo with depth 7; outOF_L2L3 takes outOF_L1L2's depth);
 * the five kernels as their own objects with upstream's entry names and
 * argument types (line pointers, int32 widths, the threshold's int16,
 * int16, int8 and addWeighted's int16, int16, int8 scalars), called by
 * four unpinned workers whose core bodies are described op by op as
 * upstream's task functions, each in the Worker's endless loop:
 *   rgba2gray_fn, threshold_fn: acquire one input and one output line,
 *     call the kernel (threshold with the constants 10, 255, binary),
 *     release both;
 *   filter_fn (upstream's while_true=False with its own endless loop):
 *     per image it acquires 2 lines for the top border (line 0 twice),
 *     then for each of the H - 2 middle lines acquires 3 (cumulatively:
 *     one new) and releases 1, then acquires 2 for the bottom border (the
 *     last line twice) and releases 2; its largest acquire, 3, is the
 *     input's max acquire (as upstream reads it from the core's code);
 *     the 3x3 coefficients are upstream's LocalBuffer "kernel" on its
 *     tile, int16 {0, 4096, 0; 4096, -16384, 4096; 0, 4096, 0} at load,
 *     passed to the kernel as a memref;
 *   gray2rgba_addWeight_fn: gray2rgba into OF_local, then addWeighted of
 *     OF_local and the forwarded original line on 4W bytes with alpha =
 *     beta = 16384, gamma = 0, into outOF_L1L2.
 * The sequence takes upstream's three arguments, int8[4WH], int32[16, 16]
 * (unused, as upstream's) and int8[4WH]: one fill of the whole image and
 * one drain (wait).  The FIFOs carry uint8 lines and the tensors are int8
 * (upstream's tensor_ty): the shim moves bytes.
 * The image size comes from the parameters width and height (upstream's
 * command line), since the flat tensors do not carry it; the design
 * checks that the tensors hold width x height RGBA pixels.
 *
 * The kernels are upstream's aie_kernels/aie2 (BIT_WIDTH 8) as scalar C
 * with their arithmetic:
 *   rgba2gray:   Y = (9798 R + 19235 G + 3736 B + 2^14) >> 15 (the weights
 *                are round(0.299, 0.587, 0.114 x 2^15));
 *   filter2d:    coefficients (int8)(k >> 8), the sum over the 3 x 3
 *                window (columns replicated at both ends) shifted right by
 *                SRS_SHIFT - 8 = 4 and saturated to uint8;
 *   threshold:   binary: x > thresh ? max : 0 (and upstream's other four
 *                types);
 *   gray2rgba:   (Y, Y, Y, 255);
 *   addWeighted: (gamma + alpha a + beta b) >> 14, saturated to uint8.
 * Shifts round toward minus infinity (the AIE's default rounding mode).
 */
#include "designs/bodies.h"
#include "designs/upstream_ml.h"

/* --- Kernels: aie_kernels/aie2 (BIT_WIDTH 8), each its own object ---- */

static const char rgba2gray_src[] =
    "#include <stdint.h>\n"
    "void rgba2grayLine(const uint8_t *in, uint8_t *out, int32_t lineWidth)\n"
    "{\n"
    "    /* round(0.299, 0.587, 0.114 * 2^15), and 2^14 to round */\n"
    "    const int32_t wr = 9798, wg = 19235, wb = 3736, rnd = 1 << 14;\n"
    "    for (int32_t j = 0; j < lineWidth; j++) {\n"
    "        int32_t acc = rnd + wr * in[4 * j] + wg * in[4 * j + 1] +\n"
    "                      wb * in[4 * j + 2];\n"
    "        int32_t y = acc >> 15;\n"
    "        out[j] = (uint8_t)(y > 255 ? 255 : y);\n"
    "    }\n"
    "}\n";

static const char filter2d_src[] =
    "#include <stdint.h>\n"
    "#define SRS_SHIFT 12\n"
    "/* x >> s rounding toward minus infinity, for any sign */\n"
    "static int32_t floor_shift(int32_t x, int s)\n"
    "{\n"
    "    return x >= 0 ? x >> s : -((-x + (1 << s) - 1) >> s);\n"
    "}\n"
    "void filter2dLine(const uint8_t *lineIn0, const uint8_t *lineIn1,\n"
    "                  const uint8_t *lineIn2, uint8_t *out,\n"
    "                  int32_t lineWidth, const int16_t *filterKernel)\n"
    "{\n"
    "    const uint8_t *line[3] = { lineIn0, lineIn1, lineIn2 };\n"
    "    int8_t coeff[3][3];\n"
    "    for (int r = 0; r < 3; r++)\n"
    "        for (int c = 0; c < 3; c++)   /* int16 to int8 */\n"
    "            coeff[r][c] = (int8_t)(filterKernel[r * 3 + c] >> 8);\n"
    "    for (int32_t x = 0; x < lineWidth; x++) {\n"
    "        int32_t acc = 0;\n"
    "        for (int r = 0; r < 3; r++)\n"
    "            for (int c = 0; c < 3; c++) {\n"
    "                int32_t at = x - 1 + c;   /* ends replicated */\n"
    "                if (at < 0)\n"
    "                    at = 0;\n"
    "                if (at > lineWidth - 1)\n"
    "                    at = lineWidth - 1;\n"
    "                acc += coeff[r][c] * line[r][at];\n"
    "            }\n"
    "        int32_t v = floor_shift(acc, SRS_SHIFT - 8);\n"
    "        out[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);\n"
    "    }\n"
    "}\n";

static const char threshold_src[] =
    "#include <stdint.h>\n"
    "enum { BINARY = 0, BINARY_INV = 1, TRUNC = 2, TOZERO = 3,\n"
    "       TOZERO_INV = 4 };\n"
    "void thresholdLine(const uint8_t *in, uint8_t *out, int32_t lineWidth,\n"
    "                   int16_t thresholdValue, int16_t maxValue,\n"
    "                   int8_t thresholdType)\n"
    "{\n"
    "    /* upstream's entry takes these three as uint8_t */\n"
    "    const uint8_t thr = (uint8_t)thresholdValue;\n"
    "    const uint8_t max = (uint8_t)maxValue;\n"
    "    const uint8_t type = (uint8_t)thresholdType;\n"
    "    for (int32_t j = 0; j < lineWidth; j++) {\n"
    "        const uint8_t x = in[j];\n"
    "        const int above = thr < x;\n"
    "        switch (type) {\n"
    "        case BINARY: out[j] = above ? max : 0; break;\n"
    "        case BINARY_INV: out[j] = above ? 0 : max; break;\n"
    "        case TOZERO: out[j] = above ? x : 0; break;\n"
    "        case TOZERO_INV: out[j] = above ? 0 : x; break;\n"
    "        default: out[j] = above ? thr : x; break;   /* TRUNC */\n"
    "        }\n"
    "    }\n"
    "}\n";

static const char gray2rgba_src[] =
    "#include <stdint.h>\n"
    "void gray2rgbaLine(const uint8_t *in, uint8_t *out, int32_t lineWidth)\n"
    "{\n"
    "    for (int32_t j = 0; j < lineWidth; j++) {\n"
    "        out[4 * j] = out[4 * j + 1] = out[4 * j + 2] = in[j];\n"
    "        out[4 * j + 3] = 255;\n"
    "    }\n"
    "}\n";

static const char add_weighted_src[] =
    "#include <stdint.h>\n"
    "#define SRS_SHIFT 14\n"
    "static int32_t floor_shift(int32_t x, int s)\n"
    "{\n"
    "    return x >= 0 ? x >> s : -((-x + (1 << s) - 1) >> s);\n"
    "}\n"
    "void addWeightedLine(const uint8_t *in1, const uint8_t *in2,\n"
    "                     uint8_t *out, int32_t lineWidth, int16_t alpha,\n"
    "                     int16_t beta, int8_t gamma_in)\n"
    "{\n"
    "    /* upstream's entry takes gamma as uint8_t; the accumulator starts\n"
    "     * at gamma and the products add on, then one shift */\n"
    "    const uint8_t gamma = (uint8_t)gamma_in;\n"
    "    for (int32_t j = 0; j < lineWidth; j++) {\n"
    "        int32_t acc = gamma + alpha * in1[j] + beta * in2[j];\n"
    "        int32_t v = floor_shift(acc, SRS_SHIFT);\n"
    "        out[j] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);\n"
    "    }\n"
    "}\n";

/* --- Core bodies: edge_detect.py's four task functions ----------------- */

/* rgba2gray_fn(of_in, of_out, rgba2gray_line) and threshold_fn(of_in,
 * of_out, threshold_line): one line in, one line out, the kernel between;
 * `nconst` constant scalars of `const_types` after the width (threshold's
 * value, max and type). */
static iron_body *line_fn(iron_design *d, const char *name, iron_handle *in,
                          iron_handle *out, iron_kernel *k, int64_t width,
                          int nconst, const iron_body_type *const_types,
                          const int64_t *consts)
{
    iron_body *b = iron_body_new(d, name);
    iron_val of_in = iron_body_fifo(b, in);
    iron_val of_out = iron_body_fifo(b, out);
    iron_val line_kernel = iron_body_kernel(b, k);
    body_forever(b);
    iron_val args[6];
    args[0] = body_acquire1(b, of_in);
    args[1] = body_acquire1(b, of_out);
    args[2] = body_i32(b, width);
    for (int i = 0; i < nconst; i++)
        args[3 + i] = iron_body_const_int(b, const_types[i], consts[i]);
    iron_body_call(b, line_kernel, 3 + nconst, args);
    iron_body_release(b, of_in, 1);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    return b;
}

/* filter2dLine on lines l[0], l[1], l[2] of acquisition `acq` into a
 * newly acquired output line (released by the caller). */
static void filter_line(iron_body *b, iron_val filter2d, iron_val acq,
                        const int l[3], iron_val of_out, iron_val width,
                        iron_val coeffs)
{
    iron_val args[6];
    for (int i = 0; i < 3; i++)
        args[i] = iron_body_object(b, acq, l[i]);
    args[3] = body_acquire1(b, of_out);
    args[4] = width;
    args[5] = coeffs;
    iron_body_call(b, filter2d, 6, args);
}

/* filter_fn(of_in, of_out, kernel, filter2d_line): its own endless loop
 * over images of `height` lines. */
static iron_body *filter_fn(iron_design *d, iron_handle *in,
                            iron_handle *out, iron_rtp *kernel,
                            iron_kernel *k, int64_t width, int64_t height)
{
    iron_body *b = iron_body_new(d, "filter_fn");
    iron_val of_in = iron_body_fifo(b, in);
    iron_val of_out = iron_body_fifo(b, out);
    iron_val coeffs = iron_body_rtp(b, kernel);
    iron_val filter2d = iron_body_kernel(b, k);
    static const int top[3] = { 0, 0, 1 }, mid[3] = { 0, 1, 2 },
                     bottom[3] = { 0, 1, 1 };
    body_forever(b);
    iron_val lw = body_i32(b, width);
    /* Preamble: top border */
    filter_line(b, filter2d, iron_body_acquire(b, of_in, 2), top, of_out, lw,
                coeffs);
    iron_body_release(b, of_out, 1);
    /* Steady state: middle */
    body_for(b, 1, height - 1);
    filter_line(b, filter2d, iron_body_acquire(b, of_in, 3), mid, of_out, lw,
                coeffs);
    iron_body_release(b, of_in, 1);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    /* Postamble: bottom border */
    filter_line(b, filter2d, iron_body_acquire(b, of_in, 2), bottom, of_out,
                lw, coeffs);
    iron_body_release(b, of_in, 2);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    return b;
}

/* gray2rgba_addWeight_fn(of_in, of_in2, of_out_self, of_in_self, of_out,
 * gray2rgba_line, add_weighted_line) */
static iron_body *gray2rgba_add_weight_fn(
    iron_design *d, iron_handle *in, iron_handle *in2, iron_handle *out_self,
    iron_handle *in_self, iron_handle *out, iron_kernel *gray2rgba,
    iron_kernel *add_weighted, int64_t width)
{
    iron_body *b = iron_body_new(d, "gray2rgba_addWeight_fn");
    iron_val of_in = iron_body_fifo(b, in);
    iron_val of_in2 = iron_body_fifo(b, in2);
    iron_val of_out_self = iron_body_fifo(b, out_self);
    iron_val of_in_self = iron_body_fifo(b, in_self);
    iron_val of_out = iron_body_fifo(b, out);
    iron_val gray2rgba_line = iron_body_kernel(b, gray2rgba);
    iron_val add_weighted_line = iron_body_kernel(b, add_weighted);
    body_forever(b);
    iron_val elem_in = body_acquire1(b, of_in);
    iron_val elem_out = body_acquire1(b, of_out_self);
    iron_body_call(b, gray2rgba_line, 3,
                   (const iron_val[]){ elem_in, elem_out,
                                       body_i32(b, width) });
    iron_body_release(b, of_in, 1);
    iron_body_release(b, of_out_self, 1);

    iron_val elem_in1 = body_acquire1(b, of_in_self);
    iron_val elem_in2 = body_acquire1(b, of_in2);
    iron_val elem_out2 = body_acquire1(b, of_out);
    iron_val alpha = iron_body_const_int(b, IRON_BT_I16, 16384);
    iron_val beta = iron_body_const_int(b, IRON_BT_I16, 16384);
    iron_val gamma = iron_body_const_int(b, IRON_BT_I8, 0);
    iron_body_call(b, add_weighted_line, 7,
                   (const iron_val[]){ elem_in1, elem_in2, elem_out2,
                                       body_i32(b, width * 4), alpha, beta,
                                       gamma });
    iron_body_release(b, of_in_self, 1);
    iron_body_release(b, of_in2, 1);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    return b;
}

int upstream_edge_detect_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t width = iron_design_param_int(d, "width");
    const int64_t height = iron_design_param_int(d, "height");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    const int64_t lineWidth = width, lineWidthInBytes = width * 4;
    const int64_t tensorSize = width * height * 4;
    /* uint8 lines must be whole 32-bit words for the DMAs; the filter
     * needs a top and a bottom line. */
    if (width < 4 || width % 4 != 0 || height < 2)
        return iron_design_fail(d, IRON_EPARAM,
                                "edge_detect: %lld x %lld; the width must be "
                                "a multiple of 4 and the height at least 2",
                                (long long)width, (long long)height);
    for (int a = 0; a < 3; a += 2)
        if (iron_design_arg_numel(d, a) != tensorSize)
            return iron_design_fail(d, IRON_ESHAPE,
                                    "edge_detect: argument %d has %lld "
                                    "bytes; a %lld x %lld RGBA image has "
                                    "%lld",
                                    a, (long long)iron_design_arg_numel(d, a),
                                    (long long)width, (long long)height,
                                    (long long)tensorSize);

    const iron_shape line_bytes_ty = IRON_SHAPE(lineWidthInBytes);
    const iron_shape line_ty = IRON_SHAPE(lineWidth);

    /* Input: the shim's fifo, whose memtile consumer (depth 7) forwards
     * every line to the last worker. */
    iron_fifo *inOF_L3L2 = iron_fifo_new(d, "inOF_L3L2", IRON_UINT8,
                                         line_bytes_ty, 2);
    iron_handle *in_mem = iron_fifo_cons(inOF_L3L2);
    iron_handle_set_depth(in_mem, 7);
    iron_fifo *inOF_L2L1 = iron_fifo_forward(d, in_mem, "inOF_L2L1", 7);

    /* Output */
    iron_fifo *outOF_L1L2 = iron_fifo_new(d, "outOF_L1L2", IRON_UINT8,
                                          line_bytes_ty, 2);
    iron_fifo *outOF_L2L3 = iron_fifo_forward(d, iron_fifo_cons(outOF_L1L2),
                                              "outOF_L2L3", 0);

    /* Intermediate */
    const int depths[3] = { 4, 2, 2 };
    const char *const names[3] = { "OF_2to3", "OF_3to4", "OF_4to5" };
    iron_fifo *of_intermediates[3];
    for (int i = 0; i < 3; i++)
        of_intermediates[i] = iron_fifo_new(d, names[i], IRON_UINT8, line_ty,
                                            depths[i]);
    iron_fifo *of_local = iron_fifo_new(d, "OF_local", IRON_UINT8,
                                        line_bytes_ty, 1);

    /* AIE Core Function declarations (upstream's Kernel objects); each
     * worker's body below calls the ones its task function calls. */
    iron_kernel *rgba2gray_line_kernel = iron_kernel_new(
        d, "rgba2grayLine", rgba2gray_src, "uint8*, uint8*, int32");
    iron_kernel *filter2d_line_kernel = iron_kernel_new(
        d, "filter2dLine", filter2d_src,
        "uint8*, uint8*, uint8*, uint8*, int32, int16*");
    iron_kernel *threshold_line_kernel = iron_kernel_new(
        d, "thresholdLine", threshold_src,
        "uint8*, uint8*, int32, int16, int16, int8");
    iron_kernel *gray2rgba_line_kernel = iron_kernel_new(
        d, "gray2rgbaLine", gray2rgba_src, "uint8*, uint8*, int32");
    iron_kernel *add_weighted_line_kernel = iron_kernel_new(
        d, "addWeightedLine", add_weighted_src,
        "uint8*, uint8*, uint8*, int32, int16, int16, int8");

    iron_worker *workers[4];

    workers[0] = iron_worker_new_body(
        d, "rgba2gray",
        line_fn(d, "rgba2gray_fn", iron_fifo_cons(inOF_L3L2),
                iron_fifo_prod(of_intermediates[0]), rgba2gray_line_kernel,
                lineWidth, 0, NULL, NULL));

    /* The filter's 3x3 coefficients: upstream's LocalBuffer "kernel" on
     * the worker's tile, with its initial value. */
    const int16_t v0 = 0, v1 = 4096, v_minus4 = -16384;
    const int16_t coeffs[9] = { v0, v1, v0, v1, v_minus4, v1, v0, v1, v0 };
    iron_rtp *kernel = iron_rtp_new(d, "kernel", IRON_INT16, 9);
    iron_rtp_set_initial(kernel, coeffs);
    workers[1] = iron_worker_new_body(
        d, "filter2d",
        filter_fn(d, iron_fifo_cons(of_intermediates[0]),
                  iron_fifo_prod(of_intermediates[1]), kernel,
                  filter2d_line_kernel, lineWidth, height));

    /* thresholdValue 10, maxValue 255, thresholdType binary (0) */
    const iron_body_type thr_types[3] = { IRON_BT_I16, IRON_BT_I16,
                                          IRON_BT_I8 };
    const int64_t thr_values[3] = { 10, 255, 0 };
    workers[2] = iron_worker_new_body(
        d, "threshold",
        line_fn(d, "threshold_fn", iron_fifo_cons(of_intermediates[1]),
                iron_fifo_prod(of_intermediates[2]), threshold_line_kernel,
                lineWidth, 3, thr_types, thr_values));

    workers[3] = iron_worker_new_body(
        d, "gray2rgba_addWeighted",
        gray2rgba_add_weight_fn(
            d, iron_fifo_cons(of_intermediates[2]), iron_fifo_cons(inOF_L2L1),
            iron_fifo_prod(of_local), iron_fifo_cons(of_local),
            iron_fifo_prod(outOF_L1L2), gray2rgba_line_kernel,
            add_weighted_line_kernel, lineWidth));

    for (int w = 0; w < 4; w++)
        iron_rt_start(d, workers[w]);
    iron_rt_fill(d, iron_fifo_prod(inOF_L3L2), 0, iron_tap_linear(tensorSize));
    iron_rt_drain(d, iron_fifo_cons(outOF_L2L3), 2,
                  iron_tap_linear(tensorSize), IRON_WAIT);
    return 0;
}

const iron_jit_options upstream_edge_detect_options = {
    .size = sizeof(iron_jit_options),
    .name = "edge_detect",
    .args = "in I: int8[S], in B: int32[16, 16], out O: int8[S]",
    .params = "width: int = 1920, height: int = 1080",
};
