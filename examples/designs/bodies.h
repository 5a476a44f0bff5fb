/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bodies.h - the few shapes the reference designs' described core bodies
 * (iron.h, "Described core bodies") are made of, as upstream IRON's core
 * functions write them: `for _ in range_(lo, hi)`, the endless loop a
 * Worker runs its function in, and `elem = fifo.acquire(1)`.  Each helper
 * is a few builder calls; errors stay sticky on the design as for every
 * builder call, so a design checks once, at the end.
 *
 * The designs add one op per C statement (never two in the arguments of
 * one call, which C evaluates in no set order), so that a body's ops come
 * in the same order whichever compiler built the design.
 */
#ifndef IRON_EXAMPLES_BODIES_H
#define IRON_EXAMPLES_BODIES_H

#include <stdint.h>

#include <iron/iron.h>

/* An index constant (loop bounds, element indexes). */
static inline iron_val body_index(iron_body *b, int64_t v)
{
    return iron_body_const_int(b, IRON_BT_INDEX, v);
}

/* An i32 constant (a kernel's int32 argument). */
static inline iron_val body_i32(iron_body *b, int64_t v)
{
    return iron_body_const_int(b, IRON_BT_I32, v);
}

/* `for i in range_(lo, hi)`: opens the loop (step 1, nothing carried)
 * and gives its induction variable; body_end_for closes it. */
static inline iron_val body_for(iron_body *b, int64_t lo, int64_t hi)
{
    /* One op per statement: arguments are evaluated in no set order, and
     * the body's text (its C, its MLIR) should not depend on the C
     * compiler that built the design. */
    iron_val lb = body_index(b, lo);
    iron_val ub = body_index(b, hi);
    iron_val step = body_index(b, 1);
    return iron_body_for(b, lb, ub, step, 0, NULL, NULL);
}

static inline iron_status body_end_for(iron_body *b)
{
    return iron_body_end_for(b, 0, NULL, NULL);
}

/* The loop upstream's Worker (while_true=True) wraps its core function
 * in: a for from 0 to INT64_MAX, as the exporter expects it.  Closed
 * with body_end_for. */
static inline iron_val body_forever(iron_body *b)
{
    return body_for(b, 0, INT64_MAX);
}

/* `elem = fifo.acquire(1)`: the one object acquired, a memref. */
static inline iron_val body_acquire1(iron_body *b, iron_val fifo)
{
    return iron_body_object(b, iron_body_acquire(b, fifo, 1), 0);
}

/* The values a matmul core function works on, its parameters in
 * upstream's order: the A and B fifos it reads, the C fifo it writes,
 * then the zero and matmul kernels. */
typedef struct body_mm {
    iron_val a, b, c, zero, matmul;
} body_mm;

static inline body_mm body_mm_params(iron_body *b, iron_handle *a,
                                     iron_handle *b_in, iron_handle *c,
                                     iron_kernel *zero, iron_kernel *matmul)
{
    body_mm mm;
    mm.a = iron_body_fifo(b, a);
    mm.b = iron_body_fifo(b, b_in);
    mm.c = iron_body_fifo(b, c);
    mm.zero = iron_body_kernel(b, zero);
    mm.matmul = iron_body_kernel(b, matmul);
    return mm;
}

/* One C tile of a matmul core function: zero it, then accumulate the
 * products of ksteps A and B tiles into it. */
static inline void body_mm_tile(iron_body *b, const body_mm *mm,
                                int64_t ksteps)
{
    iron_val elem_c = body_acquire1(b, mm->c);
    iron_body_call(b, mm->zero, 1, &elem_c);
    body_for(b, 0, ksteps);
    iron_val elem_a = body_acquire1(b, mm->a);
    iron_val elem_b = body_acquire1(b, mm->b);
    iron_body_call(b, mm->matmul, 3,
                   (const iron_val[]){ elem_a, elem_b, elem_c });
    iron_body_release(b, mm->a, 1);
    iron_body_release(b, mm->b, 1);
    body_end_for(b);
    iron_body_release(b, mm->c, 1);
}

#endif
