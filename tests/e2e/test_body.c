/*
 * test_body.c - described core bodies (iron_body_*) running on the
 * emulator: each gives the same results as the equivalent core body
 * written in C, through loops, while, if, element loads and stores,
 * kernel calls with scalars, buffer reads, barrier waits and
 * multi-object acquires; identical bodies share one compiled object.
 */
#include "test.h"

enum { N = 16 };

static iron_val cidx(iron_body *b, int64_t v)
{
    return iron_body_const_int(b, IRON_BT_INDEX, v);
}

static iron_val ci32(iron_body *b, int64_t v)
{
    return iron_body_const_int(b, IRON_BT_I32, v);
}

/* for (;;) { acquire in, out; body(x, y); release } as upstream's
 * while_true Worker.  Returns the loop's objects in *x, *y. */
static void forever(iron_body *b, iron_val in, iron_val out, iron_val *x,
                    iron_val *y)
{
    iron_body_for(b, cidx(b, 0), cidx(b, INT64_MAX), cidx(b, 1), 0, NULL,
                  NULL);
    *x = iron_body_object(b, iron_body_acquire(b, in, 1), 0);
    *y = iron_body_object(b, iron_body_acquire(b, out, 1), 0);
}

static void forever_end(iron_body *b, iron_val in, iron_val out)
{
    iron_body_release(b, in, 1);
    iron_body_release(b, out, 1);
    iron_body_end_for(b, 0, NULL, NULL);
}

/* y[i] = x[i] * 3 + 1 over every object. */
static int affine_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *fi = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(N), 2);
    iron_fifo *fo = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(N), 2);
    iron_body *b = iron_body_new(d, "affine");
    iron_val in = iron_body_fifo(b, iron_fifo_cons(fi));
    iron_val out = iron_body_fifo(b, iron_fifo_prod(fo));
    iron_val x, y;
    forever(b, in, out, &x, &y);
    iron_val i = iron_body_for(b, cidx(b, 0), cidx(b, N), cidx(b, 1), 0,
                               NULL, NULL);
    iron_val v = iron_body_load(b, x, 1, &i);
    v = iron_body_arith(b, IRON_ARITH_MULI, v, ci32(b, 3));
    v = iron_body_arith(b, IRON_ARITH_ADDI, v, ci32(b, 1));
    iron_body_store(b, v, y, 1, &i);
    iron_body_end_for(b, 0, NULL, NULL);
    forever_end(b, in, out);
    iron_worker_new_body(d, "w", b);
    iron_rt_fill(d, iron_fifo_prod(fi), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(fo), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

TEST(body_e2e_affine_loop)
{
    iron_jit *j = test_jit(affine_design, "affine", "in a, out b");
    iron_tensor *a = test_arange(IRON_INT32, 64);
    iron_tensor *b = test_zeros(IRON_INT32, 64);
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(test_launch(j, 0, 2, (iron_tensor *const[]){ a, b }));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(test_at(b, i), i * 3 + 1);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}
