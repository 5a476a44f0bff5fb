/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * vector_reduce_max.c - port of upstream mlir-aie
 * programming_examples/basic/vector_reduce_max/single_column_designs/
 * vector_reduce_max_shared.py (the column-wide design upstream's README
 * prefers): out[0] = max(in) over int32 or bfloat16.
 *
 * The input streams as 2048-element objects (fifo "of_in", depth 2) that a
 * memtile splits at 0, 512, 1024, 1536 into four 512-element fifos
 * "memA0..3".  Four workers, placed in order on one column, each reduce
 * num_iter = N / 2048 of their pieces into a running maximum (upstream's
 * nextC buffer, starting at the type's minimum: INT32_MIN or -inf) through
 * a tmp buffer, calling the kernels reduce_max_vector(in, tmp, 512) and
 * compute_max(a, b, out) (aie_kernels/aie2/reduce_max.cc, as scalar C).
 * The core bodies are described op by op as upstream's two core
 * functions, each in the Worker's endless loop.  Workers 0, 2 and 3
 * (start_core_body) acquire their output "memC<i>" first and, after the
 * loop, copy their running max into it (a memref load and store in the
 * body, as upstream's elem_out[0] = nextC_buffer[0]); worker 1
 * (core_body) then acquires its output and the three partials (memC0,
 * memC2, memC3 in that order), folds the first two into its running max
 * and writes max(memC3, running max) into memC1, which the runtime
 * drains.  Placed
 * (0,2) .. (0,5), workers 0 and 2 are worker 1's memory neighbours, so
 * memC0 and memC2 go through shared memory and memC3 through DMA, as on
 * hardware.
 *
 * As upstream's Buffer(initial_value=min) the running maxima are set once,
 * when the design is loaded, and never reset: a later call on the same
 * specialization reports the maximum over every call so far (upstream's
 * test runs once).  The output has 4 bytes: one int32, or two bfloat16 of
 * which only the first is written (upstream's out_size = 4); the buffers
 * have as many elements as the output, as upstream's, of which only the
 * first is used.
 *
 * The compile-time parameter `kernel_file` swaps the C kernels for a
 * source file holding upstream's entries: reduce_max_vector and
 * compute_max for int32, reduce_max_vector_bfloat16 and
 * compute_max_bfloat16 for bfloat16 (kernel_choice.h).
 *
 * Differences kept: the element type is the tensors' dtype (upstream: the
 * dtype_str compile-time parameter); N is the input's length and must be a
 * multiple of 2048 (upstream's in1_size is in bytes, default 524288: 131072
 * int32); upstream's trace option has no counterpart.
 */
#include <stdint.h>
#include <stdio.h>

#include "designs/bodies.h"
#include "designs/kernel_choice.h"
#include "designs/upstream_basic.h"

#define REDUCE_MAX_CORES 4
#define REDUCE_MAX_MEM_ELEMS 2048

/* T is int32_t or the bfloat16 bit pattern (uint16_t); GT compares two
 * values of T; LOWEST is numeric_limits<T>::lowest().  Two kernels of one
 * source, as upstream's reduce_max and compute_max factories share
 * reduce_max.cc. */
static const char reduce_max_src[] =
    "#include <iron/iron_kernel.h>\n"
    "\n"
    "#if REDUCE_MAX_BF16\n"
    "typedef iron_bf16 T;\n"
    "#define GT(a, b) (iron_k_bf16_to_float(a) > iron_k_bf16_to_float(b))\n"
    "#define LOWEST ((T)0xff7fu)\n"
    "#else\n"
    "typedef int32_t T;\n"
    "#define GT(a, b) ((a) > (b))\n"
    "#define LOWEST INT32_MIN\n"
    "#endif\n"
    "\n"
    "void reduce_max_vector(const T *in, T *out, int32_t input_size)\n"
    "{\n"
    "    T running_max = LOWEST;\n"
    "    for (int32_t i = 0; i < input_size; i++)\n"
    "        if (GT(in[i], running_max))\n"
    "            running_max = in[i];\n"
    "    *out = running_max;\n"
    "}\n"
    "\n"
    "void compute_max(const T *in1, const T *in2, T *out)\n"
    "{\n"
    "    *out = GT(*in1, *in2) ? *in1 : *in2;\n"
    "}\n";

/* What both core functions start with: the worker's input, its two
 * buffers and the two kernels. */
typedef struct reduce_max_ops {
    iron_val of_in, next_c, tmp, reduce_max_vector, compute_max;
} reduce_max_ops;

/* `for _ in range_(num_iter)`: reduce one piece of the input into tmp and
 * fold tmp into the running maximum. */
static void reduce_pieces(iron_body *b, const reduce_max_ops *o,
                          int64_t num_iter, int64_t elems_per_core)
{
    body_for(b, 0, num_iter);
    iron_val elem_in = body_acquire1(b, o->of_in);
    iron_body_call(b, o->reduce_max_vector, 3,
                   (const iron_val[]){ elem_in, o->tmp,
                                       body_i32(b, elems_per_core) });
    iron_body_call(b, o->compute_max, 3,
                   (const iron_val[]){ o->next_c, o->tmp, o->next_c });
    iron_body_release(b, o->of_in, 1);
    body_end_for(b);
}

/* start_core_body(of_in, of_out, nextC_buffer, tmp_buffer,
 * reduce_max_vector, compute_max) */
static iron_body *start_core_body(iron_design *d, iron_handle *in,
                                  iron_handle *out, iron_rtp *next_c,
                                  iron_rtp *tmp, iron_kernel *reduce,
                                  iron_kernel *max, int64_t num_iter,
                                  int64_t elems_per_core)
{
    iron_body *b = iron_body_new(d, "start_core_body");
    reduce_max_ops o;
    o.of_in = iron_body_fifo(b, in);
    iron_val of_out = iron_body_fifo(b, out);
    o.next_c = iron_body_rtp(b, next_c);
    o.tmp = iron_body_rtp(b, tmp);
    o.reduce_max_vector = iron_body_kernel(b, reduce);
    o.compute_max = iron_body_kernel(b, max);
    body_forever(b);
    iron_val elem_out = body_acquire1(b, of_out);
    reduce_pieces(b, &o, num_iter, elems_per_core);
    iron_val zero = body_index(b, 0);
    iron_body_store(b, iron_body_load(b, o.next_c, 1, &zero), elem_out, 1,
                    &zero);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    return b;
}

/* core_body(of_in, of_out, *in_fifos, nextC_buffer, tmp_buffer,
 * reduce_max_vector, compute_max): the gathering worker, with the other
 * workers' partials on `partial`. */
static iron_body *gather_core_body(iron_design *d, iron_handle *in,
                                   iron_handle *out,
                                   iron_handle *const *partial, int npartial,
                                   iron_rtp *next_c, iron_rtp *tmp,
                                   iron_kernel *reduce, iron_kernel *max,
                                   int64_t num_iter, int64_t elems_per_core)
{
    iron_body *b = iron_body_new(d, "core_body");
    reduce_max_ops o;
    iron_val in_fifos[REDUCE_MAX_CORES - 1], inputs[REDUCE_MAX_CORES - 1];
    o.of_in = iron_body_fifo(b, in);
    iron_val of_out = iron_body_fifo(b, out);
    for (int f = 0; f < npartial; f++)
        in_fifos[f] = iron_body_fifo(b, partial[f]);
    o.next_c = iron_body_rtp(b, next_c);
    o.tmp = iron_body_rtp(b, tmp);
    o.reduce_max_vector = iron_body_kernel(b, reduce);
    o.compute_max = iron_body_kernel(b, max);
    body_forever(b);
    reduce_pieces(b, &o, num_iter, elems_per_core);
    iron_val elem_out = body_acquire1(b, of_out);
    for (int f = 0; f < npartial; f++)
        inputs[f] = body_acquire1(b, in_fifos[f]);
    for (int f = 0; f < npartial - 1; f++)
        iron_body_call(b, o.compute_max, 3,
                       (const iron_val[]){ inputs[f], o.next_c, o.next_c });
    iron_body_call(b, o.compute_max, 3,
                   (const iron_val[]){ inputs[npartial - 1], o.next_c,
                                       elem_out });
    for (int f = 0; f < npartial; f++)
        iron_body_release(b, in_fifos[f], 1);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    return b;
}

int vector_reduce_max_design(iron_design *d, void *user)
{
    (void)user;
    enum { NCORES = REDUCE_MAX_CORES };
    const int64_t n_mem_elems = REDUCE_MAX_MEM_ELEMS;
    const int64_t elems_per_core = n_mem_elems / NCORES;
    const iron_dtype dt = iron_design_arg_dtype(d, 0);
    if (dt != IRON_INT32 && dt != IRON_BFLOAT16)
        return iron_design_fail(d, IRON_EDTYPE,
                                "vector_reduce_max: %s elements; expected "
                                "int32 or bfloat16",
                                iron_dtype_name(dt));
    const int64_t in_tensor_size = iron_design_arg_numel(d, 0);
    const int64_t out_tensor_size = 4 / (int64_t)iron_dtype_size(dt);
    if (in_tensor_size % n_mem_elems != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_reduce_max: %lld elements are not a "
                                "whole number of %lld-element objects",
                                (long long)in_tensor_size,
                                (long long)n_mem_elems);
    if (iron_design_arg_numel(d, 1) != out_tensor_size)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_reduce_max: the output has %lld "
                                "elements; 4 bytes of %s are %lld",
                                (long long)iron_design_arg_numel(d, 1),
                                iron_dtype_name(dt),
                                (long long)out_tensor_size);
    const int64_t num_iter = in_tensor_size / n_mem_elems;

    iron_fifo *of_in = iron_fifo_new(d, "of_in", dt, IRON_SHAPE(n_mem_elems),
                                     2);
    char a_names[NCORES][32], c_names[NCORES][32];
    const char *a_name_v[NCORES];
    int64_t offsets[NCORES];
    iron_shape shapes[NCORES];
    for (int i = 0; i < NCORES; i++) {
        snprintf(a_names[i], sizeof a_names[i], "memA%d", i);
        snprintf(c_names[i], sizeof c_names[i], "memC%d", i);
        a_name_v[i] = a_names[i];
        offsets[i] = elems_per_core * i;
        shapes[i] = IRON_SHAPE(elems_per_core);
    }
    iron_fifo *in_fifos[NCORES], *out_fifos[NCORES];
    iron_fifo_split(d, iron_fifo_cons(of_in), NCORES, a_name_v, offsets,
                    shapes, NULL, in_fifos);
    for (int i = 0; i < NCORES; i++)
        out_fifos[i] = iron_fifo_new(d, c_names[i], dt,
                                     IRON_SHAPE(out_tensor_size), 2);

    /* Upstream's per-worker Buffers of the output's type: the running
     * maximum and a scratch, both starting at the type's minimum once, at
     * load (each worker that takes a buffer has its own copy). */
    const int32_t int_min[2] = { INT32_MIN, INT32_MIN };
    const uint16_t bf16_min[2] = { 0xff80u, 0xff80u }; /* -inf */
    iron_rtp *next_c = iron_rtp_new(d, "nextC_buffer", dt, out_tensor_size);
    iron_rtp *tmp = iron_rtp_new(d, "tmp_buffer", dt, out_tensor_size);
    const void *min_val = dt == IRON_BFLOAT16 ? (const void *)bf16_min
                                              : (const void *)int_min;
    iron_rtp_set_initial(next_c, min_val);
    iron_rtp_set_initial(tmp, min_val);
    char vec_types[64], max_types[64];
    snprintf(vec_types, sizeof vec_types, "%s*, %s*, int32",
             iron_dtype_name(dt), iron_dtype_name(dt));
    snprintf(max_types, sizeof max_types, "%s*, %s*, %s*",
             iron_dtype_name(dt), iron_dtype_name(dt), iron_dtype_name(dt));
    const int bf16 = dt == IRON_BFLOAT16;
    iron_kernel *reduce_max_vector = design_kernel(
        d, "reduce_max_vector", reduce_max_src,
        bf16 ? "reduce_max_vector_bfloat16" : "reduce_max_vector", vec_types);
    iron_kernel *compute_max = design_kernel(
        d, "compute_max", reduce_max_src,
        bf16 ? "compute_max_bfloat16" : "compute_max", max_types);
    iron_kernel_define_int(reduce_max_vector, "REDUCE_MAX_BF16",
                           dt == IRON_BFLOAT16);
    iron_kernel_define_int(compute_max, "REDUCE_MAX_BF16",
                           dt == IRON_BFLOAT16);
    for (int i = 0; i < NCORES; i++) {
        char name[32];
        snprintf(name, sizeof name, "reduce%d", i);
        iron_body *b;
        if (i == 1) {
            /* The other cores' partials, in upstream's order: j < i
             * first, then the ones after i. */
            iron_handle *partial[NCORES - 1];
            for (int j = 0; j < NCORES - 1; j++)
                partial[j] = iron_fifo_cons(out_fifos[j < i ? j : j + 1]);
            b = gather_core_body(d, iron_fifo_cons(in_fifos[i]),
                                 iron_fifo_prod(out_fifos[i]), partial,
                                 NCORES - 1, next_c, tmp, reduce_max_vector,
                                 compute_max, num_iter, elems_per_core);
        } else {
            b = start_core_body(d, iron_fifo_cons(in_fifos[i]),
                                iron_fifo_prod(out_fifos[i]), next_c, tmp,
                                reduce_max_vector, compute_max, num_iter,
                                elems_per_core);
        }
        iron_worker_new_body(d, name, b);
    }
    /* Upstream's Program(..., workers=workers) starts every worker; none
     * is named here, which starts them all in creation order. */
    iron_rt_fill(d, iron_fifo_prod(of_in), 0, iron_tap_linear(in_tensor_size));
    iron_rt_drain(d, iron_fifo_cons(out_fifos[1]), 1,
                  iron_tap_linear(out_tensor_size), IRON_WAIT);
    return 0;
}

const iron_jit_options vector_reduce_max_options = {
    .size = sizeof(iron_jit_options),
    .name = "vector_reduce_max",
    .args = "in a_in: T[N], out c_out: T[M]",
    .params = KERNEL_FILE_PARAM,
};
