/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * joined_layout.c - the layout-transform-on-a-joined-FIFO reference
 * design: three workers each produce 8-element objects, a memtile joins one
 * from each into a 24-element object, and the joined FIFO's producer (the
 * memtile's DMA) reads that object out with dims_to_stream [(8, 1), (3, 8)]
 * -- element i of every piece in turn -- so the three workers' values come
 * out interleaved.
 */
#include <stdio.h>

#include "designs/bodies.h"
#include "designs/designs.h"

#define JOINED_PARTS 3
#define JOINED_PART 8
#define JOINED_OBJ (JOINED_PARTS * JOINED_PART)

/* Worker w's core body, described op by op: in the Worker's endless loop,
 * for each object j of a pair, acquire it, store j + 1 + w into each of
 * its n elements (arith and memref.store in the body itself: no kernel),
 * release it.  A body rather than a kernel with static state: it says in
 * one place which object gets which value. */
static iron_body *fill_pair(iron_design *d, iron_handle *h, int64_t n,
                            int w)
{
    iron_body *b = iron_body_new(d, "fill_pair");
    iron_val out = iron_body_fifo(b, h);
    body_forever(b);
    iron_val j = body_for(b, 0, 2);
    iron_val o = body_acquire1(b, out);
    iron_val j32 = iron_body_cast(b, IRON_ARITH_INDEX_CAST, j, IRON_BT_I32);
    iron_val v = iron_body_arith(b, IRON_ARITH_ADDI, j32, body_i32(b, 1 + w));
    iron_val i = body_for(b, 0, n);
    iron_body_store(b, v, o, 1, &i);
    body_end_for(b);
    iron_body_release(b, out, 1);
    body_end_for(b);
    body_end_for(b);
    return b;
}

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
    for (int p = 0; p < JOINED_PARTS; p++) {
        char name[24];
        snprintf(name, sizeof name, "fill%d", p);
        iron_worker *w = iron_worker_new_body(
            d, name, fill_pair(d, iron_fifo_prod(parts[p]), JOINED_PART, p));
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
