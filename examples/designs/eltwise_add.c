/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * eltwise_add.c - upstream mlir-aie programming_examples/ml/eltwise_add/
 * eltwise_add.py (IRON, the two-core version with memtile split and join):
 * c = a + b on bfloat16, N = 65536.
 *
 * Kept as upstream:
 *   - inA and inB carry bfloat16[n * n_cores] = [2048] objects (default
 *     depth 2) and are split on a memtile at offsets [0, 1024] into
 *     "memA{i}" / "memB{i}" of bfloat16[1024]; outC (bfloat16[2048]) is
 *     joined the same way from "memC{i}";
 *   - the kernel eltwise_add_bf16_vector (three bfloat16[1024] objects) is
 *     its own kernel, called by two workers (not pinned) whose core body,
 *     described op by op as upstream's core_fn, loops tiles = N / n /
 *     n_cores times: acquire C, then A, then B; call the kernel; release
 *     A, B, C (inside the endless loop of upstream's Worker with
 *     while_true);
 *   - the runtime sequence: fill inA from A, fill inB from B, drain outC
 *     into C (wait), each over the whole tensor.
 * Upstream's trace setup (rt.enable_trace) has no counterpart here.
 * The kernel is upstream's aie_kernels/aie2/add.cc (aie::add on bfloat16
 * vectors) as scalar C: widen both to float, add, round to bfloat16 to
 * nearest even -- what upstream's test computes with std::bfloat16_t.
 * The compile-time parameter `kernel_file` swaps it for a source file
 * with the same entry (kernel_choice.h).
 */
#include <stdio.h>

#include "designs/bodies.h"
#include "designs/kernel_choice.h"
#include "designs/upstream_ml.h"

#define EADD_TILE 1024   /* upstream's n, the kernel's fixed size */
#define EADD_CORES 2

/* aie_kernels/aie2/add.cc: eltwise_add_bf16_vector on 1024 elements. */
static const char add_src[] =
    "#include <iron/iron_kernel.h>\n"
    "void eltwise_add_bf16_vector(const uint16_t *a_in,\n"
    "                             const uint16_t *b_in, uint16_t *c_out)\n"
    "{\n"
    "    for (int i = 0; i < 1024; i++)\n"
    "        c_out[i] = iron_k_bf16_from_float(iron_k_bf16_to_float(a_in[i]) "
    "+\n"
    "                                          "
    "iron_k_bf16_to_float(b_in[i]));\n"
    "}\n";

/* eltwise_add.py's core_fn(of_a, of_b, of_c, eltwise_add) for one
 * worker, in the Worker's endless loop. */
static iron_body *core_fn(iron_design *d, iron_handle *a, iron_handle *b_in,
                          iron_handle *c, iron_kernel *add, int64_t tiles)
{
    iron_body *b = iron_body_new(d, "core_fn");
    iron_val of_a = iron_body_fifo(b, a);
    iron_val of_b = iron_body_fifo(b, b_in);
    iron_val of_c = iron_body_fifo(b, c);
    iron_val eltwise_add = iron_body_kernel(b, add);
    body_forever(b);
    body_for(b, 0, tiles);
    iron_val elem_out = body_acquire1(b, of_c);
    iron_val elem_in_a = body_acquire1(b, of_a);
    iron_val elem_in_b = body_acquire1(b, of_b);
    iron_body_call(b, eltwise_add, 3,
                   (const iron_val[]){ elem_in_a, elem_in_b, elem_out });
    iron_body_release(b, of_a, 1);
    iron_body_release(b, of_b, 1);
    iron_body_release(b, of_c, 1);
    body_end_for(b);
    body_end_for(b);
    return b;
}

int upstream_eltwise_add_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t n = EADD_TILE, n_cores = EADD_CORES;
    int64_t N = iron_design_arg_numel(d, 0);
    if (N % (n * n_cores) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "eltwise_add: %lld elements are not a whole "
                                "number of %lld-element memtile objects",
                                (long long)N, (long long)(n * n_cores));
    const int64_t tiles = N / n / n_cores;

    const char *a_names[EADD_CORES] = { "memA0", "memA1" };
    const char *b_names[EADD_CORES] = { "memB0", "memB1" };
    const char *c_names[EADD_CORES] = { "memC0", "memC1" };
    int64_t offsets[EADD_CORES];
    iron_shape tile_ty[EADD_CORES];
    for (int i = 0; i < n_cores; i++) {
        offsets[i] = (n * n_cores / n_cores) * i;
        tile_ty[i] = IRON_SHAPE(n);
    }

    iron_fifo *inA = iron_fifo_new(d, "inA", IRON_BFLOAT16,
                                   IRON_SHAPE(n * n_cores), 2);
    iron_fifo *inA_fifos[EADD_CORES];
    iron_fifo_split(d, iron_fifo_cons(inA), (int)n_cores, a_names, offsets,
                    tile_ty, NULL, inA_fifos);
    iron_fifo *inB = iron_fifo_new(d, "inB", IRON_BFLOAT16,
                                   IRON_SHAPE(n * n_cores), 2);
    iron_fifo *inB_fifos[EADD_CORES];
    iron_fifo_split(d, iron_fifo_cons(inB), (int)n_cores, b_names, offsets,
                    tile_ty, NULL, inB_fifos);
    iron_fifo *outC = iron_fifo_new(d, "outC", IRON_BFLOAT16,
                                    IRON_SHAPE(n * n_cores), 2);
    iron_fifo *outC_fifos[EADD_CORES];
    iron_fifo_join(d, iron_fifo_prod(outC), (int)n_cores, c_names, offsets,
                   tile_ty, NULL, outC_fifos);

    /* The kernel is compiled for 1024-element tiles, like upstream's. */
    iron_kernel *eltwise_add_bf16_vector = design_kernel(
        d, "eltwise_add_bf16_vector", add_src, "eltwise_add_bf16_vector",
        "bfloat16*, bfloat16*, bfloat16*");
    iron_worker *workers[EADD_CORES];
    for (int i = 0; i < n_cores; i++) {
        char name[24];
        snprintf(name, sizeof name, "add%d", i);
        workers[i] = iron_worker_new_body(
            d, name,
            core_fn(d, iron_fifo_cons(inA_fifos[i]),
                    iron_fifo_cons(inB_fifos[i]),
                    iron_fifo_prod(outC_fifos[i]), eltwise_add_bf16_vector,
                    tiles));
    }
    for (int i = 0; i < n_cores; i++)
        iron_rt_start(d, workers[i]);
    iron_rt_fill(d, iron_fifo_prod(inA), 0, iron_tap_linear(N));
    iron_rt_fill(d, iron_fifo_prod(inB), 1, iron_tap_linear(N));
    iron_rt_drain(d, iron_fifo_cons(outC), 2, iron_tap_linear(N), IRON_WAIT);
    return 0;
}

/* Float add then one rounding: -ffp-contract=off keeps the compiler from
 * fusing anything around it. */
const iron_jit_options upstream_eltwise_add_options = {
    .size = sizeof(iron_jit_options),
    .name = "eltwise_add",
    .args = "in A: bfloat16[N], in B: bfloat16[N], out C: bfloat16[N]",
    .params = KERNEL_FILE_PARAM,
    .cflags = "-O2 -ffp-contract=off",
};
