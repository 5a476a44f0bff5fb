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
 * int16, int8 and addWeighted's int16, int16, int8 scalars), passed to
 * four unpinned workers whose core bodies are upstream's task functions:
 *   rgba2gray_fn, threshold_fn: acquire one input and one output line,
 *     call the kernel (threshold with 10, 255, binary), release both;
 *   filter_fn (upstream's while_true=False with its own endless loop):
 *     per image it acquires 2 lines for the top border (line 0 twice),
 *     then for each of the H - 2 middle lines acquires 3 (cumulatively: one
 *     new) and releases 1, then acquires 2 for the bottom border (the last
 *     line twice) and releases 2; it declares that max acquire of 3 on its
 *     input (iron_arg_fifo_acquire), which upstream reads from the core's code;
 *     the 3x3 coefficients are upstream's LocalBuffer "kernel" on its tile,
 *     int16 {0, 4096, 0; 4096, -16384, 4096; 0, 4096, 0} at load;
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

static const char rgba2gray_fn_src[] =
    "#include <stdint.h>\n"
    "void rgba2gray_fn(iron_objfifo *of_in, iron_objfifo *of_out,\n"
    "                  void (*rgba2gray_line)(uint8_t *, uint8_t *, "
    "int32_t),\n"
    "                  int32_t lineWidth)\n"
    "{\n"
    "    for (;;) {\n"
    "        uint8_t *elem_in = iron_acquire(of_in, 1)[0];\n"
    "        uint8_t *elem_out = iron_acquire(of_out, 1)[0];\n"
    "        rgba2gray_line(elem_in, elem_out, lineWidth);\n"
    "        iron_release(of_in, 1);\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
    "}\n";

static const char filter_fn_src[] =
    "#include <stdint.h>\n"
    "typedef void (*filter_t)(uint8_t *, uint8_t *, uint8_t *, uint8_t *,\n"
    "                         int32_t, int16_t *);\n"
    "void filter_fn(iron_objfifo *of_in, iron_objfifo *of_out,\n"
    "               filter_t filter2d_line, int16_t *kernel,\n"
    "               int32_t lineWidth, int32_t height)\n"
    "{\n"
    "    for (;;) {\n"
    "        /* Preamble: top border */\n"
    "        void **elems_in_pre = iron_acquire(of_in, 2);\n"
    "        uint8_t *elem_pre_out = iron_acquire(of_out, 1)[0];\n"
    "        filter2d_line(elems_in_pre[0], elems_in_pre[0], "
    "elems_in_pre[1],\n"
    "                      elem_pre_out, lineWidth, kernel);\n"
    "        iron_release(of_out, 1);\n"
    "        /* Steady state: middle */\n"
    "        for (int32_t i = 1; i < height - 1; i++) {\n"
    "            void **elems_in = iron_acquire(of_in, 3);\n"
    "            uint8_t *elem_out = iron_acquire(of_out, 1)[0];\n"
    "            filter2d_line(elems_in[0], elems_in[1], elems_in[2],\n"
    "                          elem_out, lineWidth, kernel);\n"
    "            iron_release(of_in, 1);\n"
    "            iron_release(of_out, 1);\n"
    "        }\n"
    "        /* Postamble: bottom border */\n"
    "        void **elems_in_post = iron_acquire(of_in, 2);\n"
    "        uint8_t *elem_post_out = iron_acquire(of_out, 1)[0];\n"
    "        filter2d_line(elems_in_post[0], elems_in_post[1],\n"
    "                      elems_in_post[1], elem_post_out, lineWidth, "
    "kernel);\n"
    "        iron_release(of_in, 2);\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
    "}\n";

static const char threshold_fn_src[] =
    "#include <stdint.h>\n"
    "void threshold_fn(iron_objfifo *of_in, iron_objfifo *of_out,\n"
    "                  void (*threshold_line)(uint8_t *, uint8_t *, int32_t,\n"
    "                                         int16_t, int16_t, int8_t),\n"
    "                  int32_t lineWidth)\n"
    "{\n"
    "    const int16_t v_thr = 10, v_max = 255;\n"
    "    const int8_t v_typ = 0;\n"
    "    for (;;) {\n"
    "        uint8_t *elem_in = iron_acquire(of_in, 1)[0];\n"
    "        uint8_t *elem_out = iron_acquire(of_out, 1)[0];\n"
    "        threshold_line(elem_in, elem_out, lineWidth, v_thr, v_max, "
    "v_typ);\n"
    "        iron_release(of_in, 1);\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
    "}\n";

static const char gray2rgba_add_weight_fn_src[] =
    "#include <stdint.h>\n"
    "typedef void (*gray2rgba_t)(uint8_t *, uint8_t *, int32_t);\n"
    "typedef void (*add_weighted_t)(uint8_t *, uint8_t *, uint8_t *, "
    "int32_t,\n"
    "                               int16_t, int16_t, int8_t);\n"
    "void gray2rgba_addWeight_fn(iron_objfifo *of_in, iron_objfifo *of_in2,\n"
    "                            iron_objfifo *of_out_self,\n"
    "                            iron_objfifo *of_in_self,\n"
    "                            iron_objfifo *of_out,\n"
    "                            gray2rgba_t gray2rgba_line,\n"
    "                            add_weighted_t add_weighted_line,\n"
    "                            int32_t lineWidth)\n"
    "{\n"
    "    const int32_t lineWidthInBytes = lineWidth * 4;\n"
    "    for (;;) {\n"
    "        uint8_t *elem_in = iron_acquire(of_in, 1)[0];\n"
    "        uint8_t *elem_out = iron_acquire(of_out_self, 1)[0];\n"
    "        gray2rgba_line(elem_in, elem_out, lineWidth);\n"
    "        iron_release(of_in, 1);\n"
    "        iron_release(of_out_self, 1);\n"
    "\n"
    "        uint8_t *elem_in1 = iron_acquire(of_in_self, 1)[0];\n"
    "        uint8_t *elem_in2 = iron_acquire(of_in2, 1)[0];\n"
    "        uint8_t *elem_out2 = iron_acquire(of_out, 1)[0];\n"
    "        const int16_t alpha = 16384, beta = 16384;\n"
    "        const int8_t gamma = 0;\n"
    "        add_weighted_line(elem_in1, elem_in2, elem_out2,\n"
    "                          lineWidthInBytes, alpha, beta, gamma);\n"
    "        iron_release(of_in_self, 1);\n"
    "        iron_release(of_in2, 1);\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
    "}\n";

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
     * worker below gets the ones its task function calls. */
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

    iron_kernel *rgba2gray_fn = iron_kernel_new_core(
        d, "rgba2gray_fn", rgba2gray_fn_src,
        "fifo, fifo, kernel(uint8*, uint8*, int32), int32");
    workers[0] = iron_worker_new(
        d, "rgba2gray", rgba2gray_fn, height,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(inOF_L3L2)),
                  iron_arg_fifo(iron_fifo_prod(of_intermediates[0])),
                  iron_arg_kernel(rgba2gray_line_kernel),
                  iron_arg_int(lineWidth)));

    /* The filter's 3x3 coefficients: upstream's LocalBuffer "kernel" on
     * the worker's tile, with its initial value. */
    const int16_t v0 = 0, v1 = 4096, v_minus4 = -16384;
    const int16_t coeffs[9] = { v0, v1, v0, v1, v_minus4, v1, v0, v1, v0 };
    iron_rtp *kernel = iron_rtp_new(d, "kernel", IRON_INT16, 9);
    iron_rtp_set_initial(kernel, coeffs);
    iron_kernel *filter_fn = iron_kernel_new_core(
        d, "filter_fn", filter_fn_src,
        "fifo, fifo, kernel(uint8*, uint8*, uint8*, uint8*, int32, int16*), "
        "int16*, int32, int32");
    workers[1] = iron_worker_new(
        d, "filter2d", filter_fn, 0,
        IRON_ARGS(
            iron_arg_fifo_acquire(iron_fifo_cons(of_intermediates[0]), 3),
            iron_arg_fifo(iron_fifo_prod(of_intermediates[1])),
            iron_arg_kernel(filter2d_line_kernel), iron_arg_rtp(kernel),
            iron_arg_int(lineWidth), iron_arg_int(height)));

    iron_kernel *threshold_fn = iron_kernel_new_core(
        d, "threshold_fn", threshold_fn_src,
        "fifo, fifo, kernel(uint8*, uint8*, int32, int16, int16, int8), "
        "int32");
    workers[2] = iron_worker_new(
        d, "threshold", threshold_fn, height,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(of_intermediates[1])),
                  iron_arg_fifo(iron_fifo_prod(of_intermediates[2])),
                  iron_arg_kernel(threshold_line_kernel),
                  iron_arg_int(lineWidth)));

    iron_kernel *gray2rgba_add_weight_fn = iron_kernel_new_core(
        d, "gray2rgba_addWeight_fn", gray2rgba_add_weight_fn_src,
        "fifo, fifo, fifo, fifo, fifo, kernel(uint8*, uint8*, int32), "
        "kernel(uint8*, uint8*, uint8*, int32, int16, int16, int8), int32");
    workers[3] = iron_worker_new(
        d, "gray2rgba_addWeighted", gray2rgba_add_weight_fn, height,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(of_intermediates[2])),
                  iron_arg_fifo(iron_fifo_cons(inOF_L2L1)),
                  iron_arg_fifo(iron_fifo_prod(of_local)),
                  iron_arg_fifo(iron_fifo_cons(of_local)),
                  iron_arg_fifo(iron_fifo_prod(outOF_L1L2)),
                  iron_arg_kernel(gray2rgba_line_kernel),
                  iron_arg_kernel(add_weighted_line_kernel),
                  iron_arg_int(lineWidth)));

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
