/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * split_join.c - the split-and-join reference design: each 24-element
 * object goes to a memtile, is cut into three 8-element pieces (offsets 0,
 * 8, 16) for three workers that add 1, and their results are assembled
 * back into 24-element objects on a memtile.  Shows that split and join
 * keep the pieces in place: out = in + 1, element for element.
 */
#include <stdio.h>

#include "designs/designs.h"

#define SPLIT_JOIN_OBJ 24
#define SPLIT_JOIN_PARTS 3

static const char add_one_src[] =
    "#include <stdint.h>\n"
    "void add_one(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = (int32_t)((uint32_t)in[i] + 1u);\n"
    "}\n";

int split_join_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t obj = SPLIT_JOIN_OBJ, part = obj / SPLIT_JOIN_PARTS;
    int64_t n = iron_design_arg_numel(d, 0);
    if (n % obj != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "split_join: %lld elements are not a whole "
                                "number of %lld-element objects",
                                (long long)n, (long long)obj);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(obj), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(obj), 2);
    const char *in_names[SPLIT_JOIN_PARTS] = { "in0", "in1", "in2" };
    const char *out_names[SPLIT_JOIN_PARTS] = { "out0", "out1", "out2" };
    int64_t offsets[SPLIT_JOIN_PARTS];
    iron_shape shapes[SPLIT_JOIN_PARTS];
    for (int p = 0; p < SPLIT_JOIN_PARTS; p++) {
        offsets[p] = part * p;
        shapes[p] = IRON_SHAPE(part);
    }
    iron_fifo *parts_in[SPLIT_JOIN_PARTS], *parts_out[SPLIT_JOIN_PARTS];
    iron_fifo_split(d, iron_fifo_cons(in), SPLIT_JOIN_PARTS, in_names,
                    offsets, shapes, NULL, parts_in);
    iron_fifo_join(d, iron_fifo_prod(out), SPLIT_JOIN_PARTS, out_names,
                   offsets, shapes, NULL, parts_out);
    iron_kernel *k = iron_kernel_new(d, "add_one", add_one_src,
                                     "int32*, int32*, int32");
    for (int p = 0; p < SPLIT_JOIN_PARTS; p++) {
        char name[24];
        snprintf(name, sizeof name, "add%d", p);
        iron_worker *w = iron_worker_new(
            d, name, k, n / obj,
            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(parts_in[p])),
                      iron_arg_fifo(iron_fifo_prod(parts_out[p])),
                      iron_arg_int(part)));
        iron_rt_start(d, w);
    }
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

const iron_jit_options split_join_options = {
    .size = sizeof(iron_jit_options),
    .name = "split_join",
    .args = "in input: int32[N], out output: int32[N]",
};
