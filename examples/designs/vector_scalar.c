/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * vector_scalar.c - the vector x scalar reference design: int16 or int32
 * data times a factor that arrives as its own one-element int32 tensor
 * through its own FIFO.  The core body, described op by op as upstream IRON's
 * vector_scalar_mul writes its core_body, acquires the factor once and
 * holds it while the four data objects of a call stream past, calling the
 * kernel vector_scalar_mul_int16(in, out, factor, n) (_int32 for int32
 * data) on each; the standard loop could not, since it acquires one
 * object of every FIFO per iteration.  The compile-time parameter
 * `kernel_file` swaps the C kernel for a source file, whose entry is
 * `kernel_entry` (by default upstream's vector_scalar_mul_<type>_vector).
 */
#include <stdio.h>

#include "designs/bodies.h"
#include "designs/designs.h"
#include "designs/kernel_choice.h"

/* Upstream's aie_kernels/aie2/scale.cc entry (a_in, c_out, factor, N),
 * as scalar C, for int16 data (int32 with SCALE_INT32 = 1).  The product
 * wraps to the element type in unsigned arithmetic so that no factor
 * makes it undefined. */
static const char scale_src[] =
    "#include <stdint.h>\n"
    "#if SCALE_INT32\n"
    "typedef int32_t T;\n"
    "typedef uint32_t U;\n"
    "#define ENTRY vector_scalar_mul_int32\n"
    "#else\n"
    "typedef int16_t T;\n"
    "typedef uint16_t U;\n"
    "#define ENTRY vector_scalar_mul_int16\n"
    "#endif\n"
    "void ENTRY(const T *a_in, T *c_out, const int32_t *factor, int32_t n)\n"
    "{\n"
    "    const uint32_t scale = (uint32_t)factor[0];\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c_out[i] = (T)(U)((uint32_t)a_in[i] * scale);\n"
    "}\n";

int vector_scalar_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t objs = 4;
    int64_t n = iron_design_arg_numel(d, 0);
    const iron_dtype dt = iron_design_arg_dtype(d, 0);
    if (dt != IRON_INT16 && dt != IRON_INT32)
        return iron_design_fail(d, IRON_EDTYPE,
                                "vector_scalar: %s data; expected int16 or "
                                "int32",
                                iron_dtype_name(dt));
    if (n < 512 || n % 64 != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_scalar: %lld elements; expected at "
                                "least 512 and a multiple of 64",
                                (long long)n);
    if (iron_design_arg_numel(d, 1) != 1)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_scalar: the factor has %lld "
                                "elements; expected 1",
                                (long long)iron_design_arg_numel(d, 1));
    int64_t obj = n / objs;
    iron_fifo *in = iron_fifo_new(d, "in", dt, IRON_SHAPE(obj), 2);
    /* One buffer is enough: the factor is taken once per call. */
    iron_fifo *factor = iron_fifo_new(d, "factor", IRON_INT32, IRON_SHAPE(1),
                                      1);
    iron_fifo *out = iron_fifo_new(d, "out", dt, IRON_SHAPE(obj), 2);
    const char *type = iron_dtype_name(dt);
    char c_entry[48], file_entry[64], arg_types[48];
    snprintf(c_entry, sizeof c_entry, "vector_scalar_mul_%s", type);
    snprintf(arg_types, sizeof arg_types, "%s*, %s*, int32*, int32", type,
             type);
    const char *entry = design_kernel_entry(d);
    if (*entry)
        snprintf(file_entry, sizeof file_entry, "%s", entry);
    else
        snprintf(file_entry, sizeof file_entry, "vector_scalar_mul_%s_vector",
                 type);
    iron_kernel *scale = design_kernel(d, c_entry, scale_src, file_entry,
                                       arg_types);
    iron_kernel_define_int(scale, "SCALE_INT32", dt == IRON_INT32);

    /* core_body(of_in, of_factor, of_out, scale_fn), in the Worker's
     * endless loop: one factor per call, then its `objs` objects. */
    iron_body *b = iron_body_new(d, "core_body");
    iron_val of_in = iron_body_fifo(b, iron_fifo_cons(in));
    iron_val of_factor = iron_body_fifo(b, iron_fifo_cons(factor));
    iron_val of_out = iron_body_fifo(b, iron_fifo_prod(out));
    iron_val scale_fn = iron_body_kernel(b, scale);
    body_forever(b);
    iron_val elem_factor = body_acquire1(b, of_factor);
    body_for(b, 0, objs);
    iron_val elem_in = body_acquire1(b, of_in);
    iron_val elem_out = body_acquire1(b, of_out);
    iron_body_call(b, scale_fn, 4,
                   (const iron_val[]){ elem_in, elem_out, elem_factor,
                                       body_i32(b, obj) });
    iron_body_release(b, of_in, 1);
    iron_body_release(b, of_out, 1);
    body_end_for(b);
    iron_body_release(b, of_factor, 1);
    body_end_for(b);

    iron_worker *w = iron_worker_new_body(d, "scale", b);
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(factor), 1, iron_tap_linear(1));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

const iron_jit_options vector_scalar_options = {
    .size = sizeof(iron_jit_options),
    .name = "vector_scalar",
    .args = "in input: T[N], in factor: int32[1], out output: T[N]",
    .params = KERNEL_FILE_PARAM ", " KERNEL_ENTRY_PARAM(""),
};
