/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * color_threshold.c - port of upstream mlir-aie
 * programming_examples/vision/color_threshold/color_threshold.py: an
 * int8 buffer of width * height bytes is read as RGBA lines of 4 * width
 * uint8 (fifo "inOOB_L3L2"); a memtile splits each line at 0, W, 2W, 3W
 * into four W-byte lines ("inOOB_L2L1_0..3"), four workers threshold one
 * each into "outOOB_L1L2_0..3", and a memtile joins them back at the same
 * offsets into "outOOB_L2L3", drained to the host.  Each worker has its own
 * run-time parameter buffer (int32[16], "rtp0..3") and its own barrier; its
 * core body is described op by op as upstream's core_fn: every iteration
 * of the Worker's endless loop it waits for the barrier to hold 1, loads
 * threshold value, max value and type from the RTP (truncated to i16,
 * i16, i8 with arith.trunci, as upstream), acquires one line in and one
 * out, calls the kernel thresholdLine(in, out, width, value, max, type)
 * and releases both.  The
 * runtime sequence writes 50, 255, 0 into every RTP, sets every barrier to
 * 1, starts the workers, then fills and drains.
 *
 * thresholdLine is aie_kernels/aie2/threshold.cc at BIT_WIDTH=8 (uint8
 * pixels; the entry takes the three values as int16, int16, int8, as
 * upstream's Kernel declares them, and uses them as uint8), as scalar C,
 * a kernel of its own: with t the threshold, m
 * the max and x a pixel, binary gives t < x ? m : 0, binary inverted
 * t < x ? 0 : m, to-zero t < x ? x : 0, to-zero inverted t < x ? 0 : x,
 * and truncate (and any other type) min(t, x).
 *
 * Differences kept: the three RTP values are compile-time parameters whose
 * defaults are upstream's constants (so other threshold types can be
 * tried); each set of values is its own specialization.  They are not
 * dispatch-time scalars on purpose: the barrier stays at 1 once set, so a
 * loaded worker has already passed it and read its RTP for its next line
 * when a call ends -- new values written by the next call would reach
 * each worker one line late (upstream's structure behaves so on hardware
 * too; its test writes the same values every run).  Upstream's aiecc
 * flag --alloc-scheme=basic-sequential has no counterpart.  The buffer must
 * be width * height bytes and a whole number of 4 * width lines, as
 * upstream's sizes (1920 x 1080: 270 lines) are.
 */
#include <stdio.h>

#include "designs/bodies.h"
#include "designs/upstream_basic.h"

#define COLOR_THRESHOLD_CHANNELS 4
#define COLOR_THRESHOLD_RTP 16

static const char threshold_src[] =
    "#include <stdint.h>\n"
    "\n"
    "enum {\n"
    "    XF_THRESHOLD_TYPE_BINARY = 0,\n"
    "    XF_THRESHOLD_TYPE_BINARY_INV = 1,\n"
    "    XF_THRESHOLD_TYPE_TRUNC = 2,\n"
    "    XF_THRESHOLD_TYPE_TOZERO = 3,\n"
    "    XF_THRESHOLD_TYPE_TOZERO_INV = 4\n"
    "};\n"
    "\n"
    "void thresholdLine(const uint8_t *in, uint8_t *out, int32_t lineWidth,\n"
    "                   int16_t thresholdValue, int16_t maxValue,\n"
    "                   int8_t thresholdType)\n"
    "{\n"
    "    const uint8_t t = (uint8_t)thresholdValue;\n"
    "    const uint8_t m = (uint8_t)maxValue;\n"
    "    for (int32_t j = 0; j < lineWidth; j++) {\n"
    "        const uint8_t x = in[j];\n"
    "        switch ((uint8_t)thresholdType) {\n"
    "        case XF_THRESHOLD_TYPE_BINARY:\n"
    "            out[j] = t < x ? m : 0;\n"
    "            break;\n"
    "        case XF_THRESHOLD_TYPE_BINARY_INV:\n"
    "            out[j] = t < x ? 0 : m;\n"
    "            break;\n"
    "        case XF_THRESHOLD_TYPE_TOZERO:\n"
    "            out[j] = t < x ? x : 0;\n"
    "            break;\n"
    "        case XF_THRESHOLD_TYPE_TOZERO_INV:\n"
    "            out[j] = t < x ? 0 : x;\n"
    "            break;\n"
    "        default: /* XF_THRESHOLD_TYPE_TRUNC and anything else */\n"
    "            out[j] = x < t ? x : t;\n"
    "            break;\n"
    "        }\n"
    "    }\n"
    "}\n";

/* color_threshold.py's core_fn(of_in, of_out, my_rtp, threshold_fn,
 * barrier) for one worker, in the Worker's endless loop. */
static iron_body *core_fn(iron_design *d, iron_handle *in, iron_handle *out,
                          iron_rtp *rtp, iron_kernel *threshold_line,
                          iron_barrier *bar, int64_t line_width)
{
    iron_body *b = iron_body_new(d, "core_fn");
    iron_val of_in = iron_body_fifo(b, in);
    iron_val of_out = iron_body_fifo(b, out);
    iron_val my_rtp = iron_body_rtp(b, rtp);
    iron_val threshold_fn = iron_body_kernel(b, threshold_line);
    iron_val barrier = iron_body_barrier(b, bar);
    body_forever(b);
    /* RTPs written by the runtime sequence are read once it has set the
     * barrier. */
    iron_body_barrier_wait(b, barrier, 1);
    iron_val rtp_at[3];
    for (int i = 0; i < 3; i++) {
        iron_val idx = body_index(b, i);
        rtp_at[i] = iron_body_load(b, my_rtp, 1, &idx);
    }
    iron_val threshold_value =
        iron_body_cast(b, IRON_ARITH_TRUNCI, rtp_at[0], IRON_BT_I16);
    iron_val max_value =
        iron_body_cast(b, IRON_ARITH_TRUNCI, rtp_at[1], IRON_BT_I16);
    iron_val threshold_type =
        iron_body_cast(b, IRON_ARITH_TRUNCI, rtp_at[2], IRON_BT_I8);
    iron_val elem_in = body_acquire1(b, of_in);
    iron_val elem_out = body_acquire1(b, of_out);
    iron_body_call(b, threshold_fn, 6,
                   (const iron_val[]){ elem_in, elem_out,
                                       body_i32(b, line_width),
                                       threshold_value, max_value,
                                       threshold_type });
    iron_body_release(b, of_in, 1);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    return b;
}

int color_threshold_design(iron_design *d, void *user)
{
    (void)user;
    enum { NCH = COLOR_THRESHOLD_CHANNELS };
    const int64_t width = iron_design_param_int(d, "width");
    const int64_t height = iron_design_param_int(d, "height");
    const int64_t line_width = width;
    const int64_t line_width_channels = width * NCH;
    const int64_t tensor_size = width * height;
    const int64_t n = iron_design_arg_numel(d, 0);
    if (width < 1 || height < 1 || n != tensor_size ||
        tensor_size % line_width_channels != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "color_threshold: the buffer has %lld bytes; "
                                "width %lld x height %lld needs %lld, a whole "
                                "number of %lld-byte RGBA lines",
                                (long long)n, (long long)width,
                                (long long)height, (long long)tensor_size,
                                (long long)line_width_channels);

    iron_fifo *in_l3l2 = iron_fifo_new(d, "inOOB_L3L2", IRON_UINT8,
                                       IRON_SHAPE(line_width_channels), 2);
    iron_fifo *out_l2l3 = iron_fifo_new(d, "outOOB_L2L3", IRON_UINT8,
                                        IRON_SHAPE(line_width_channels), 2);
    char in_names[NCH][32], out_names[NCH][32];
    const char *in_name_v[NCH], *out_name_v[NCH];
    int64_t offsets[NCH];
    iron_shape shapes[NCH];
    for (int i = 0; i < NCH; i++) {
        snprintf(in_names[i], sizeof in_names[i], "inOOB_L2L1_%d", i);
        snprintf(out_names[i], sizeof out_names[i], "outOOB_L1L2_%d", i);
        in_name_v[i] = in_names[i];
        out_name_v[i] = out_names[i];
        offsets[i] = line_width * i;
        shapes[i] = IRON_SHAPE(line_width);
    }
    iron_fifo *in_l2l1[NCH], *out_l1l2[NCH];
    iron_fifo_split(d, iron_fifo_cons(in_l3l2), NCH, in_name_v, offsets,
                    shapes, NULL, in_l2l1);
    iron_fifo_join(d, iron_fifo_prod(out_l2l3), NCH, out_name_v, offsets,
                   shapes, NULL, out_l1l2);

    iron_rtp *rtps[NCH];
    iron_barrier *barriers[NCH];
    for (int i = 0; i < NCH; i++) {
        char name[32];
        snprintf(name, sizeof name, "rtp%d", i);
        rtps[i] = iron_rtp_new(d, name, IRON_INT32, COLOR_THRESHOLD_RTP);
        snprintf(name, sizeof name, "barrier%d", i);
        barriers[i] = iron_barrier_new(d, name);
    }

    iron_kernel *threshold_line = iron_kernel_new(
        d, "thresholdLine", threshold_src,
        "uint8*, uint8*, int32, int16, int16, int8");
    iron_worker *workers[NCH];
    for (int i = 0; i < NCH; i++) {
        char name[32];
        snprintf(name, sizeof name, "threshold%d", i);
        workers[i] = iron_worker_new_body(
            d, name,
            core_fn(d, iron_fifo_cons(in_l2l1[i]), iron_fifo_prod(out_l1l2[i]),
                    rtps[i], threshold_line, barriers[i], line_width));
    }

    /* upstream's rt.inline_ops(set_rtps, rtps) */
    const double thresh = (double)iron_design_param_int(d, "threshold_value");
    const double maxv = (double)iron_design_param_int(d, "max_value");
    const double type = (double)iron_design_param_int(d, "threshold_type");
    for (int i = 0; i < NCH; i++) {
        iron_rt_set_rtp(d, rtps[i], 0, thresh);
        iron_rt_set_rtp(d, rtps[i], 1, maxv);
        iron_rt_set_rtp(d, rtps[i], 2, type);
    }
    for (int i = 0; i < NCH; i++)
        iron_rt_set_barrier(d, barriers[i], 1);
    for (int i = 0; i < NCH; i++)
        iron_rt_start(d, workers[i]);
    iron_rt_fill(d, iron_fifo_prod(in_l3l2), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out_l2l3), 2, iron_tap_linear(n),
                  IRON_WAIT);
    return 0;
}

const iron_jit_options color_threshold_options = {
    .size = sizeof(iron_jit_options),
    .name = "color_threshold",
    .args = "in in_tensor: int8[N], in b_unused: int32[32], "
            "out out_tensor: int8[N]",
    .params = "width: int = 1920, height: int = 1080, "
              "threshold_value: int = 50, max_value: int = 255, "
              "threshold_type: int = 0",
};
