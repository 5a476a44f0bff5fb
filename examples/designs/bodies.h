/*
 * bodies.h - the few shapes the reference designs' described core bodies
 * (iron.h, "Described core bodies") are made of, as upstream IRON's core
 * functions write them: `for _ in range_(lo, hi)`, the endless loop a
 * Worker runs its function in, and `elem = fifo.acquire(1)`.  Each helper
 * is one or two builder calls; errors stay sticky on the design as for
 * every builder call, so a design checks once, at the end.
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
    return iron_body_for(b, body_index(b, lo), body_index(b, hi),
                         body_index(b, 1), 0, NULL, NULL);
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

#endif
