/*
 * joined_layout.c - the layout-transform-on-a-joined-FIFO reference
 * design: three workers each produce 8-element objects, a memtile joins one
 * from each into a 24-element object, and the joined FIFO's producer (the
 * memtile's DMA) reads that object out with dims_to_stream [(8, 1), (3, 8)]
 * -- element i of every piece in turn -- so the three workers' values come
 * out interleaved.
 */
#include <stdio.h>

#include "designs/designs.h"

#define JOINED_PARTS 3
#define JOINED_PART 8
#define JOINED_OBJ (JOINED_PARTS * JOINED_PART)

/* A core body rather than a kernel with static state: it says in one
 * place that worker w writes j + 1 + w into its object j of each pair. */
static const char fill_pair_src[] =
    "#include <stdint.h>\n"
    "void fill_pair(iron_objfifo *out, int32_t n, int32_t w)\n"
    "{\n"
    "    for (;;)\n"
    "        for (int32_t j = 0; j < 2; j++) {\n"
    "            int32_t *o = iron_acquire(out, 1)[0];\n"
    "            for (int32_t i = 0; i < n; i++)\n"
    "                o[i] = j + 1 + w;\n"
    "            iron_release(out, 1);\n"
    "        }\n"
    "}\n";

int joined_layout_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    /* Whole pairs of joined objects, so that every call starts at j = 0
     * in every worker and the expected values are the same each call. */
    if (n % (2 * JOINED_OBJ) != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "joined_layout: %lld elements are not a "
                                "whole number of pairs of %d-element "
                                "objects",
                                (long long)n, JOINED_OBJ);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32,
                                   IRON_SHAPE(JOINED_OBJ), 2);
    const char *names[JOINED_PARTS] = { "part0", "part1", "part2" };
    int64_t offsets[JOINED_PARTS];
    iron_shape shapes[JOINED_PARTS];
    for (int p = 0; p < JOINED_PARTS; p++) {
        offsets[p] = (int64_t)JOINED_PART * p;
        shapes[p] = IRON_SHAPE(JOINED_PART);
    }
    iron_fifo *parts[JOINED_PARTS];
    iron_fifo_join(d, iron_fifo_prod(out), JOINED_PARTS, names, offsets,
                   shapes, NULL, parts);
    /* The memtile reads the joined object column-wise: for each i < 8,
     * element i of piece 0, 1, 2. */
    const int64_t sizes[2] = { JOINED_PART, JOINED_PARTS };
    const int64_t strides[2] = { 1, JOINED_PART };
    iron_handle_set_dims(iron_fifo_prod(out), 2, sizes, strides);
    iron_kernel *k = iron_kernel_new_core(d, "fill_pair", fill_pair_src,
                                          "fifo, int32, int32");
    for (int p = 0; p < JOINED_PARTS; p++) {
        char name[24];
        snprintf(name, sizeof name, "fill%d", p);
        iron_worker *w = iron_worker_new(
            d, name, k, 1,
            IRON_ARGS(iron_arg_fifo(iron_fifo_prod(parts[p])),
                      iron_arg_int(JOINED_PART), iron_arg_int(p)));
        iron_rt_start(d, w);
    }
    iron_rt_drain(d, iron_fifo_cons(out), 0, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

const iron_jit_options joined_layout_options = {
    .size = sizeof(iron_jit_options),
    .name = "joined_layout",
    .args = "out output: int32[N]",
};
