/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_core_state.c - each worker is a core with its own data memory: a
 * kernel's static variables are per worker even when two workers run the
 * same kernel, and they persist from one call to the next.
 */
#include "test.h"

static const char counting_src[] =
    "#include <stdint.h>\n"
    "static int32_t objects_seen;\n"
    "void add_count(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + objects_seen;\n"
    "    objects_seen++;\n"
    "}\n";

enum { TILE = 8 };

/* Two independent pipelines in -> w<k> -> out<k>, same kernel. */
static int two_counters(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_kernel *k = iron_kernel_new(d, "add_count", counting_src,
                                     "int32*, int32*, int32");
    for (int p = 0; p < 2; p++) {
        char nin[16], nout[16], nw[16];
        snprintf(nin, sizeof nin, "in%d", p);
        snprintf(nout, sizeof nout, "out%d", p);
        snprintf(nw, sizeof nw, "w%d", p);
        iron_fifo *in = iron_fifo_new(d, nin, IRON_INT32, IRON_SHAPE(TILE), 2);
        iron_fifo *out = iron_fifo_new(d, nout, IRON_INT32, IRON_SHAPE(TILE),
                                       2);
        iron_worker_new(d, nw, k, n / TILE,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                                  iron_arg_fifo(iron_fifo_prod(out)),
                                  iron_arg_int(TILE)));
        iron_rt_fill(d, iron_fifo_prod(in), p, iron_tap_linear(n));
        iron_rt_drain(d, iron_fifo_cons(out), 2 + p, iron_tap_linear(n),
                      IRON_WAIT);
    }
    return 0;
}

TEST(e2e_core_static_state_is_per_worker_and_persists)
{
    const int64_t n = 64;
    iron_jit *j;
    iron_jit_options o = { .size = sizeof o,
                           .name = "two_counters",
                           .args = "in a, in b, out x, out y" };
    ASSERT_OK(iron_jit_create(two_counters, &o, &j));
    iron_tensor *a, *b, *x, *y;
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &a));
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(n), 1000, &b));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &x));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(n), &y));
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(IRON_CALL(j, a, b, x, y));
        const int32_t *px = iron_tensor_data(x), *py = iron_tensor_data(y);
        for (int64_t i = 0; i < n; i++) {
            int32_t seen = (int32_t)(call * (n / TILE) + i / TILE);
            ASSERT_EQ(px[i], seen);
            ASSERT_EQ(py[i], 1000 + seen);
        }
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}
