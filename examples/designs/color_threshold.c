/*
 * color_threshold.c - port of upstream mlir-aie
 * programming_examples/vision/color_threshold/color_threshold.py: an
 * int8 buffer of width * height bytes is read as RGBA lines of 4 * width
 * uint8 (fifo "inOOB_L3L2"); a memtile splits each line at 0, W, 2W, 3W
 * into four W-byte lines ("inOOB_L2L1_0..3"), four workers threshold one
 * each into "outOOB_L1L2_0..3", and a memtile joins them back at the same
 * offsets into "outOOB_L2L3", drained to the host.  Each worker has its own
 * run-time parameter buffer (int32[16], "rtp0..3") and its own barrier; its
 * body is upstream's core_fn: every iteration it waits for the barrier to
 * hold 1, reads threshold value, max value and type from the RTP
 * (truncated to int16, int16, int8 as upstream's arith.trunci), acquires
 * one line in and one out, runs thresholdLine and releases both.  The
 * runtime sequence writes 50, 255, 0 into every RTP, sets every barrier to
 * 1, starts the workers, then fills and drains.
 *
 * thresholdLine is aie_kernels/aie2/threshold.cc at BIT_WIDTH=8 (uint8
 * pixels, uint8 threshold/max/type), as scalar C: with t the threshold, m
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

#include "designs/upstream_basic.h"

#define COLOR_THRESHOLD_CHANNELS 4
#define COLOR_THRESHOLD_RTP 16

static const char color_threshold_src[] =
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
    "static void thresholdLine(const uint8_t *in, uint8_t *out,\n"
    "                          int32_t lineWidth, uint8_t thresholdValue,\n"
    "                          uint8_t maxValue, uint8_t thresholdType)\n"
    "{\n"
    "    const uint8_t t = thresholdValue, m = maxValue;\n"
    "    for (int32_t j = 0; j < lineWidth; j++) {\n"
    "        const uint8_t x = in[j];\n"
    "        switch (thresholdType) {\n"
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
    "}\n"
    "\n"
    "void core_fn(iron_objfifo *of_in, iron_objfifo *of_out,\n"
    "             const int32_t *my_rtp, iron_barrier *barrier,\n"
    "             int32_t line_width)\n"
    "{\n"
    "    for (;;) {\n"
    "        iron_barrier_wait(barrier, 1);\n"
    "        const int16_t threshold_value = (int16_t)my_rtp[0];\n"
    "        const int16_t max_value = (int16_t)my_rtp[1];\n"
    "        const int8_t threshold_type = (int8_t)my_rtp[2];\n"
    "        const uint8_t *elem_in = iron_acquire(of_in, 1)[0];\n"
    "        uint8_t *elem_out = iron_acquire(of_out, 1)[0];\n"
    "        thresholdLine(elem_in, elem_out, line_width,\n"
    "                      (uint8_t)threshold_value, (uint8_t)max_value,\n"
    "                      (uint8_t)threshold_type);\n"
    "        iron_release(of_in, 1);\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
    "}\n";

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

    iron_kernel *k =
        iron_kernel_new_core(d, "core_fn", color_threshold_src,
                             "fifo, fifo, int32*, barrier, int32");
    iron_worker *workers[NCH];
    for (int i = 0; i < NCH; i++) {
        char name[32];
        snprintf(name, sizeof name, "threshold%d", i);
        workers[i] = iron_worker_new(
            d, name, k, 0,
            IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(in_l2l1[i]), 1),
                      iron_arg_fifo_acquire(iron_fifo_prod(out_l1l2[i]), 1),
                      iron_arg_rtp(rtps[i]), iron_arg_barrier(barriers[i]),
                      iron_arg_int(line_width)));
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
