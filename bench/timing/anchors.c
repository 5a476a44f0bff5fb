/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * anchors.c - the timing model against published measurements (the
 * `timing` group of make bench; docs/timing.md, "How close it lands"):
 * each anchor a design run at the published configuration with the model
 * on, its modelled figure reported beside the measured one as a row
 * `timing_<anchor>_ratio` (value = modelled, baseline = measured, ratio =
 * modelled / measured) and said to be inside or outside its tolerance;
 * and the model's cost, `timing_overhead_ratio_*` (a call with the model
 * on over the same call with it off).
 *
 * The anchors, each with its source:
 *   vsm_dma     upstream mlir-aie's programming guide, section 4c
 *               (vector_scalar_mul on npu1, int16, 1024 elements per
 *               object): the design is bound by its data movement at 512
 *               cycles per object (2 KiB at 4 bytes per cycle).  +-20%.
 *   gemm_*      Taka et al., "Striking the Balance: GEMM on AMD NPUs"
 *               (arXiv 2512.13282), Tables 2 and 3: whole-array GEMM,
 *               wall clock averaged over 100 runs at the stated clocks.
 *               Phoenix (4 x 4 cores, 1.0 GHz): int8 4032^3 with a
 *               112 x 112 x 112 kernel 6.52 TOPS; bf16 4224 x 4032 x 4224
 *               with 96 x 56 x 96 1.0 3.12 TOPS.  Krackan (4 x 8 cores,
 *               1.8 GHz): int8 4032 x 4320 x 4608 with 144 x 72 x 144
 *               37.35 TOPS; bf16 4032 x 4224 x 4608 with 112 x 48 x 96
 *               14.52 TOPS.  +-25%.  Their kernels' rates (the same
 *               tables: 212.5, 99.8, 343 and 137.2 MACs per cycle) are
 *               declared as the kernels' cost (iron_kernel_set_cycles):
 *               what the anchor checks is the array around them -- the
 *               DMAs, the DDR cap, the overlap of transfers and compute.
 *               The sizes run at full scale (tens of GMACs on the host).
 */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "designs/designs.h"

/* One anchor's row, and whether it lands inside its tolerance. */
static void report(const char *name, double modelled, double measured,
                   const char *unit, double tol, const char *what)
{
    char row[64];
    snprintf(row, sizeof row, "timing_%s_ratio", name);
    double r = modelled / measured;
    emit((bench_row){ row, unit, modelled, measured, 0 },
         "%s; modelled / measured %.3f, tolerance +-%.0f%%: %s", what, r,
         tol * 100, fabs(r - 1) <= tol ? "inside" : "OUTSIDE");
}

static const iron_run_counters *counters_of(iron_jit *j)
{
    const iron_run_counters *c = NULL;
    CHECK(iron_jit_get_counters(j, &c));
    if (!c->timed)
        fail("timing: the call was not timed");
    return c;
}

/* ---- vector_scalar_mul: the stream's rate ---------------------------------- */

static const char scale_src[] =
    "#include <stdint.h>\n"
    "void scale16(const int16_t *a, int16_t *c, int32_t f, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++) c[i] = (int16_t)(a[i] * f);\n"
    "}\n";

enum { VSM_OBJ = 1024 };

/* vector_scalar_mul's dataflow: int16 objects of 1024 from the shim to a
 * core and back, depth 2 each side. */
static int vsm_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT16, IRON_SHAPE(VSM_OBJ), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT16, IRON_SHAPE(VSM_OBJ),
                                   2);
    iron_kernel *k = iron_kernel_new(d, "scale16", scale_src,
                                     "int16*, int16*, int32, int32");
    iron_worker_new(d, "scale", k, n / VSM_OBJ,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(3), iron_arg_int(VSM_OBJ)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static const iron_jit_options vsm_options = {
    .size = sizeof(iron_jit_options),
    .name = "vector_scalar_mul",
    .args = "in a: int16[N], out c: int16[N]",
};

static uint64_t vsm_cycles(iron_jit *j, int64_t objects)
{
    iron_tensor *a, *c;
    CHECK(iron_tensor_randint(IRON_INT16, IRON_SHAPE(objects * VSM_OBJ),
                              -100, 100, 1, &a));
    CHECK(iron_tensor_zeros(IRON_INT16, IRON_SHAPE(objects * VSM_OBJ), &c));
    iron_launch_config cfg = { .size = sizeof cfg, .timing = 1 };
    CHECK(iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                          IRON_TENSORS(a, c)));
    uint64_t cycles = counters_of(j)->cycles;
    iron_tensor_free(a);
    iron_tensor_free(c);
    return cycles;
}

/* Cycles per object in the steady state: the difference of two lengths,
 * so that the fixed costs (the shim's per-task overhead, filling and
 * draining the pipeline) drop out. */
static void anchor_vsm_dma(void)
{
    iron_jit *j = jit_new(vsm_design, &vsm_options);
    double per = 0;
    IRON_WITH_DEVICE("npu1")
    {
        uint64_t t16 = vsm_cycles(j, 16), t32 = vsm_cycles(j, 32);
        per = (double)(t32 - t16) / 16;
    }
    report("vsm_dma", per, 512, "cyc", 0.20,
           "vector_scalar_mul npu1 int16, 1024 per object: cycles per "
           "object in the steady state (guide 4c: 512, DMA-bound)");
    iron_jit_free(j);
}

/* ---- whole-array GEMM ------------------------------------------------------ */

typedef struct gemm_anchor {
    const char *name, *device, *what;
    int bf16;
    int64_t M, K, N, m, k, n;
    double macs_per_cycle;   /* the kernel's, measured (declared) */
    double tops;             /* the array's, measured */
} gemm_anchor;

static const gemm_anchor gemms[] = {
    { "gemm_phoenix_int8", "npu1", "Phoenix int8 4032^3, 112x112x112", 0,
      4032, 4032, 4032, 112, 112, 112, 212.5, 6.52 },
    { "gemm_phoenix_bf16", "npu1", "Phoenix bf16 4224x4032x4224, 96x56x96",
      1, 4224, 4032, 4224, 96, 56, 96, 99.8, 3.12 },
    { "gemm_krackan_int8", "npu2", "Krackan int8 4032x4320x4608, 144x72x144",
      0, 4032, 4320, 4608, 144, 72, 144, 343.0, 37.35 },
    { "gemm_krackan_bf16", "npu2", "Krackan bf16 4032x4224x4608, 112x48x96",
      1, 4032, 4224, 4608, 112, 48, 96, 137.2, 14.52 },
};

/* One call of a GEMM anchor's design, timed or not; its host seconds. */
static double gemm_call(iron_jit *j, const gemm_anchor *g, iron_tensor *a,
                        iron_tensor *b, iron_tensor *c, int timed)
{
    int64_t kcycles = (int64_t)ceil((double)(g->m * g->k * g->n) /
                                    g->macs_per_cycle);
    iron_param p[] = { iron_param_int("m", g->m), iron_param_int("k", g->k),
                       iron_param_int("n", g->n),
                       iron_param_int("c_depth", 1),
                       iron_param_int("kernel_cycles", kcycles) };
    iron_launch_config cfg = { .size = sizeof cfg, .timing = timed ? 1 : -1 };
    double t0 = now_s();
    CHECK(iron_jit_launch(j, &cfg, IRON_PARAMS(p[0], p[1], p[2], p[3], p[4]),
                          IRON_NO_SCALARS, IRON_TENSORS(a, b, c)));
    return now_s() - t0;
}

static void anchor_gemm(const gemm_anchor *g, int overhead)
{
    iron_dtype dt = g->bf16 ? IRON_BFLOAT16 : IRON_INT8;
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_randint(dt, IRON_SHAPE(g->M, g->K), -4, 4, 1, &a));
    CHECK(iron_tensor_randint(dt, IRON_SHAPE(g->K, g->N), -4, 4, 2, &b));
    CHECK(iron_tensor_zeros(dt, IRON_SHAPE(g->M, g->N), &c));
    iron_jit *j = g->bf16 ? jit_new(matmul_whole_bf16_design,
                                    &matmul_whole_bf16_options)
                          : jit_new(matmul_whole_i8_design,
                                    &matmul_whole_i8_options);
    IRON_WITH_DEVICE(g->device)
    {
        double timed = gemm_call(j, g, a, b, c, 1);
        const iron_run_counters *cn = counters_of(j);
        double tops = 2.0 * (double)g->M * (double)g->K * (double)g->N /
                      cn->seconds / 1e12;
        char what[256];
        snprintf(what, sizeof what, "%s: modelled %.3f ms at %g MHz; %s", g->what,
                 cn->seconds * 1e3, cn->clock_mhz, cn->bottleneck);
        report(g->name, tops, g->tops, "TOPS", 0.25, what);
        if (overhead) {
            /* Warm both specializations, then the best of three each. */
            double off = gemm_call(j, g, a, b, c, 0), on = timed;
            for (int r = 0; r < 2; r++) {
                double t = gemm_call(j, g, a, b, c, 0);
                off = t < off ? t : off;
                t = gemm_call(j, g, a, b, c, 1);
                on = t < on ? t : on;
            }
            emit((bench_row){ "timing_overhead_ratio_matmul", "s", on, off,
                              0 },
                 "%s: a call with the timing model on over the same call "
                 "with it off (bar: <= 2x)", g->what);
        }
    }
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

/* ---- the model's cost on a vector add -------------------------------------- */

static void overhead_vadd(void)
{
    const int64_t n = 4 << 20;
    iron_tensor *a, *b, *c;
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -100, 100, 3, &a));
    CHECK(iron_tensor_randint(IRON_INT32, IRON_SHAPE(n), -100, 100, 4, &b));
    CHECK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &c));
    iron_jit *j = jit_new(vector_op_design, &vector_op_options);
    iron_param p = iron_param_int("tile", 1024);
    iron_launch_config on = { .size = sizeof on, .timing = 1 },
                       off = { .size = sizeof off, .timing = -1 };
    double t_on = 1e30, t_off = 1e30;
    for (int r = 0; r < 7; r++) {
        double t0 = now_s();
        CHECK(iron_jit_launch(j, &off, IRON_PARAMS(p), IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, c)));
        double t1 = now_s();
        CHECK(iron_jit_launch(j, &on, IRON_PARAMS(p), IRON_NO_SCALARS,
                              IRON_TENSORS(a, b, c)));
        double t2 = now_s();
        /* The first round builds both specializations. */
        if (r > 0) {
            t_off = t1 - t0 < t_off ? t1 - t0 : t_off;
            t_on = t2 - t1 < t_on ? t2 - t1 : t_on;
        }
    }
    emit((bench_row){ "timing_overhead_ratio_vadd", "ms", t_on * 1e3,
                      t_off * 1e3, 0 },
         "vector add int32 4 Mi, 1024-element objects: a call with the "
         "timing model on over the same call with it off (bar: <= 2x)");
    iron_jit_free(j);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
}

void bench_timing(void)
{
    anchor_vsm_dma();
    for (size_t i = 0; i < sizeof gemms / sizeof gemms[0]; i++)
        anchor_gemm(&gemms[i], i == 0);
    overhead_vadd();
}
