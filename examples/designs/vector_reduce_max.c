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
 * a one-element tmp buffer, with reduce_max_vector and compute_max
 * (aie_kernels/aie2/reduce_max.cc, as scalar C).  Workers 0, 2 and 3 (the
 * start_core_body) acquire their one-element output "memC<i>" first and
 * write their running max into it after the loop; worker 1 (core_body)
 * then acquires its output and the three partials (memC0, memC2, memC3 in
 * that order), folds the first two into its running max and writes
 * max(memC3, running max) into memC1, which the runtime drains.  Placed
 * (0,2) .. (0,5), workers 0 and 2 are worker 1's memory neighbours, so
 * memC0 and memC2 go through shared memory and memC3 through DMA, as on
 * hardware.
 *
 * As upstream's Buffer(initial_value=min) the running maxima are set once,
 * when the design is loaded, and never reset: a later call on the same
 * specialization reports the maximum over every call so far (upstream's
 * test runs once).  The output has 4 bytes: one int32, or two bfloat16 of
 * which only the first is written (upstream's out_size = 4).
 *
 * Differences kept: the element type is the tensors' dtype (upstream: the
 * dtype_str compile-time parameter); N is the input's length and must be a
 * multiple of 2048 (upstream's in1_size is in bytes, default 524288: 131072
 * int32); upstream's trace option has no counterpart.
 */
#include <stdint.h>
#include <stdio.h>

#include "designs/upstream_basic.h"

#define REDUCE_MAX_CORES 4
#define REDUCE_MAX_MEM_ELEMS 2048

/* T is int32_t or the bfloat16 bit pattern (uint16_t); GT compares two
 * values of T; LOWEST is numeric_limits<T>::lowest(); the buffers start at the
 * type's minimum (-inf for bfloat16), set by the design. */
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
    "static void reduce_max_vector(const T *in, T *out, int32_t input_size)\n"
    "{\n"
    "    T running_max = LOWEST;\n"
    "    for (int32_t i = 0; i < input_size; i++)\n"
    "        if (GT(in[i], running_max))\n"
    "            running_max = in[i];\n"
    "    *out = running_max;\n"
    "}\n"
    "\n"
    "static void compute_max(const T *in1, const T *in2, T *out)\n"
    "{\n"
    "    *out = GT(*in1, *in2) ? *in1 : *in2;\n"
    "}\n"
    "\n"
    "void start_core_body(iron_objfifo *of_in, iron_objfifo *of_out,\n"
    "                     T *nextC_buffer, T *tmp_buffer,\n"
    "                     int32_t num_iter, int32_t elems_per_core)\n"
    "{\n"
    "    for (;;) {\n"
    "        T *elem_out = iron_acquire(of_out, 1)[0];\n"
    "        for (int32_t it = 0; it < num_iter; it++) {\n"
    "            const T *elem_in = iron_acquire(of_in, 1)[0];\n"
    "            reduce_max_vector(elem_in, tmp_buffer, elems_per_core);\n"
    "            compute_max(nextC_buffer, tmp_buffer, nextC_buffer);\n"
    "            iron_release(of_in, 1);\n"
    "        }\n"
    "        elem_out[0] = nextC_buffer[0];\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
    "}\n"
    "\n"
    "void core_body(iron_objfifo *of_in, iron_objfifo *of_out,\n"
    "               iron_objfifo *in0, iron_objfifo *in1, iron_objfifo *in2,\n"
    "               T *nextC_buffer, T *tmp_buffer,\n"
    "               int32_t num_iter, int32_t elems_per_core)\n"
    "{\n"
    "    iron_objfifo *in_fifos[3] = { in0, in1, in2 };\n"
    "    for (;;) {\n"
    "        for (int32_t it = 0; it < num_iter; it++) {\n"
    "            const T *elem_in = iron_acquire(of_in, 1)[0];\n"
    "            reduce_max_vector(elem_in, tmp_buffer, elems_per_core);\n"
    "            compute_max(nextC_buffer, tmp_buffer, nextC_buffer);\n"
    "            iron_release(of_in, 1);\n"
    "        }\n"
    "        T *elem_out = iron_acquire(of_out, 1)[0];\n"
    "        const T *inputs[3];\n"
    "        for (int f = 0; f < 3; f++)\n"
    "            inputs[f] = iron_acquire(in_fifos[f], 1)[0];\n"
    "        for (int f = 0; f < 2; f++)\n"
    "            compute_max(inputs[f], nextC_buffer, nextC_buffer);\n"
    "        compute_max(inputs[2], nextC_buffer, elem_out);\n"
    "        for (int f = 0; f < 3; f++)\n"
    "            iron_release(in_fifos[f], 1);\n"
    "        iron_release(of_out, 1);\n"
    "    }\n"
    "}\n";

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

    /* Upstream's per-worker Buffers: the running maximum and a
     * one-element scratch, both starting at the type's minimum once, at
     * load (each worker that takes a buffer has its own copy). */
    const int32_t int_min = INT32_MIN;
    const uint16_t bf16_min = 0xff80u; /* -inf */
    iron_rtp *next_c = iron_rtp_new(d, "nextC_buffer", dt, 1);
    iron_rtp *tmp = iron_rtp_new(d, "tmp_buffer", dt, 1);
    const void *min_val = dt == IRON_BFLOAT16 ? (const void *)&bf16_min
                                              : (const void *)&int_min;
    iron_rtp_set_initial(next_c, min_val);
    iron_rtp_set_initial(tmp, min_val);
    char start_types[64], gather_types[96];
    snprintf(start_types, sizeof start_types, "fifo, fifo, %s*, %s*, int32, "
             "int32", iron_dtype_name(dt), iron_dtype_name(dt));
    snprintf(gather_types, sizeof gather_types, "fifo, fifo, fifo, fifo, "
             "fifo, %s*, %s*, int32, int32", iron_dtype_name(dt),
             iron_dtype_name(dt));
    iron_kernel *start_body = iron_kernel_new_core(
        d, "start_core_body", reduce_max_src, start_types);
    iron_kernel *gather_body =
        iron_kernel_new_core(d, "core_body", reduce_max_src, gather_types);
    iron_kernel_define_int(start_body, "REDUCE_MAX_BF16",
                           dt == IRON_BFLOAT16);
    iron_kernel_define_int(gather_body, "REDUCE_MAX_BF16",
                           dt == IRON_BFLOAT16);
    for (int i = 0; i < NCORES; i++) {
        char name[32];
        snprintf(name, sizeof name, "reduce%d", i);
        if (i == 1) {
            /* The other cores' partials, in upstream's order: j < i
             * first, then the ones after i. */
            iron_handle *partial[NCORES - 1];
            for (int j = 0; j < NCORES - 1; j++)
                partial[j] = iron_fifo_cons(out_fifos[j < i ? j : j + 1]);
            iron_worker_new(
                d, name, gather_body, 0,
                IRON_ARGS(
                    iron_arg_fifo_acquire(iron_fifo_cons(in_fifos[i]), 1),
                    iron_arg_fifo_acquire(iron_fifo_prod(out_fifos[i]), 1),
                    iron_arg_fifo_acquire(partial[0], 1),
                    iron_arg_fifo_acquire(partial[1], 1),
                    iron_arg_fifo_acquire(partial[2], 1), iron_arg_rtp(next_c),
                    iron_arg_rtp(tmp), iron_arg_int(num_iter),
                    iron_arg_int(elems_per_core)));
        } else {
            iron_worker_new(
                d, name, start_body, 0,
                IRON_ARGS(
                    iron_arg_fifo_acquire(iron_fifo_cons(in_fifos[i]), 1),
                    iron_arg_fifo_acquire(iron_fifo_prod(out_fifos[i]), 1),
                    iron_arg_rtp(next_c), iron_arg_rtp(tmp),
                    iron_arg_int(num_iter), iron_arg_int(elems_per_core)));
        }
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
};
