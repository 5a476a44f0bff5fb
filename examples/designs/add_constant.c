/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * add_constant.c - the add-constant reference design: out = in + c, with
 * the length n and the constant c as compile-time parameters.  c becomes a
 * #define in the kernel, so each value is its own specialization (and its
 * own compiled object), never a run-time argument.
 */
#include <stdint.h>

#include "designs/designs.h"

/* Objects of 16 elements, as the vector add's. */
#define ADD_CONSTANT_OBJ 16

/* The sum wraps in unsigned arithmetic: a constant near INT32_MAX must
 * give the two's-complement result, not signed overflow. */
static const char add_constant_src[] =
    "#include <stdint.h>\n"
    "void add_constant(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = (int32_t)((uint32_t)in[i] + (uint32_t)(ADD_C));\n"
    "}\n";

int add_constant_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t obj = ADD_CONSTANT_OBJ;
    int64_t numel = iron_design_arg_numel(d, 0);
    int64_t n = iron_design_param_int(d, "n");
    int64_t c = iron_design_param_int(d, "c");
    if (iron_design_status(d) != IRON_OK)
        return iron_design_status(d);
    /* n is what the caller promises; the tensors must keep the promise,
     * or the specialization for n would run on the wrong length. */
    if (n != numel)
        return iron_design_fail(d, IRON_ESHAPE,
                                "add_constant: parameter n = %lld but the "
                                "tensors have %lld elements",
                                (long long)n, (long long)numel);
    if (n < obj || n % obj != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "add_constant: n = %lld is not a positive "
                                "multiple of the %lld-element object",
                                (long long)n, (long long)obj);
    if (c < INT32_MIN || c > INT32_MAX)
        return iron_design_fail(d, IRON_EPARAM,
                                "add_constant: c = %lld does not fit int32",
                                (long long)c);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(obj), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(obj), 2);
    iron_kernel *k = iron_kernel_new(d, "add_constant", add_constant_src,
                                     "int32*, int32*, int32");
    iron_kernel_define_int(k, "ADD_C", c);
    iron_worker *w = iron_worker_new(
        d, "add_constant", k, n / obj,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(obj)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

const iron_jit_options add_constant_options = {
    .size = sizeof(iron_jit_options),
    .name = "add_constant",
    .args = "in input: int32[N], out output: int32[N]",
    .params = "n: int, c: int = 1",
};
