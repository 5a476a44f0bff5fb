/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * 06_timing.c - tutorial step 6: how fast would it run?  The timing model
 * gives a call the NPU's modelled time beside the emulation: cycles and
 * seconds at the device's clock, per worker and DMA channel the share of
 * time busy, stalled and idle, and the sentence naming what bounds the
 * design.  upstream's vector_scalar_mul on an npu1, three ways: the
 * kernel in plain C (its scalar loop is the bottleneck), the same with
 * the cost a vectorized kernel would have declared (now the DMA is), and
 * that on an npu2 (streams twice as wide, a faster clock).  The second
 * call writes a trace whose modelled timeline opens in Perfetto.
 */
#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

#include "tutorial.h"

/* c = a * factor, one element at a time: what a first port looks like. */
static const char scale_src[] =
    "#include <stdint.h>\n"
    "void scale(const int16_t *a, int16_t *c, int32_t factor, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = (int16_t)(a[i] * factor);\n"
    "}\n";

static int vector_scalar_mul(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t tile = iron_design_param_int(d, "tile");
    int64_t vectorized = iron_design_param_bool(d, "vectorized");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT16, IRON_SHAPE(tile), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT16, IRON_SHAPE(tile), 2);
    /* Naming the parameters lets a declared cost use them. */
    iron_kernel *k = iron_kernel_new(d, "scale", scale_src,
                                     "int16* a, int16* c, int32 factor, "
                                     "int32 n");
    /* What a vectorized, pipelined kernel costs per call: two cycles per
     * 32 lanes (one 512-bit store through a 256-bit port) and 8 to start
     * (upstream measured 72 cycles for 1024 elements). */
    if (vectorized)
        ok(iron_kernel_set_cycles(k, "n / 32 * 2 + 8"),
           "iron_kernel_set_cycles");
    iron_worker_new(d, "scale", k, n / tile,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(3), iron_arg_int(tile)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* One timed call; prints the modelled summary. */
static void timed_call(iron_jit *j, iron_tensor *a, iron_tensor *c,
                       int vectorized, const char *trace)
{
    iron_param p[] = { iron_param_int("tile", 1024),
                       iron_param_bool("vectorized", vectorized) };
    iron_launch_config cfg = { .size = sizeof cfg, .trace = trace,
                               .timing = 1 };
    ok(iron_jit_launch(j, &cfg, IRON_PARAMS(p[0], p[1]), IRON_NO_SCALARS,
                       IRON_TENSORS(a, c)),
       "vector_scalar_mul");
    const iron_run_counters *cn = NULL;
    ok(iron_jit_get_counters(j, &cn), "iron_jit_get_counters");
    iron_device *dev = NULL;
    ok(iron_device_get_current(&dev), "iron_device_get_current");
    printf("--- %s, %s kernel: %.2f us, %.2f cycles per element\n",
           iron_device_name(dev),
           vectorized ? "vectorized" : "scalar", cn->seconds * 1e6,
           (double)cn->cycles / (double)iron_tensor_numel(a));
    fputs(cn->summary, stdout);
}

int main(int argc, char **argv)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "vector_scalar_mul",
        .args = "in a: int16[N], out c: int16[N]",
        .params = "tile: int = 1024, vectorized: bool = false",
    };
    ok(iron_jit_create(vector_scalar_mul, &opts, &j), "iron_jit_create");
    iron_tensor *a = NULL, *c = NULL;
    ok(iron_tensor_randint(IRON_INT16, IRON_SHAPE(16384), -100, 100, 1, &a),
       "iron_tensor_randint");
    ok(iron_tensor_zeros(IRON_INT16, IRON_SHAPE(16384), &c),
       "iron_tensor_zeros");
    char trace[1024];
    snprintf(trace, sizeof trace, "%s", argc > 1 ? argv[1] : "timing.json");
    IRON_WITH_DEVICE("npu1")
    {
        timed_call(j, a, c, 0, NULL);
        timed_call(j, a, c, 1, trace);
    }
    IRON_WITH_DEVICE("npu2")
    {
        timed_call(j, a, c, 1, NULL);
    }
    printf("trace with the modelled timeline: %s\n", trace);
    iron_tensor_free(a);
    iron_tensor_free(c);
    iron_jit_free(j);
    return 0;
}
