/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * 02_vector_add.c - tutorial step 2: a worker running a C kernel.  Three
 * ObjectFifos (a, b in; c out), one worker on a compute tile that adds one
 * object of a and one of b into one of c per iteration.  The program shows
 * what the first call does and what later calls skip (the jit's counters),
 * and a design that refuses a shape with its own message.
 */
#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

#include "tutorial.h"

#define TILE 256 /* elements per object */

/* The kernel: plain C, compiled by the system compiler on the first call. */
static const char add_src[] =
    "#include <stdint.h>\n"
    "void add(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

static int vector_add(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    if (n % TILE != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_add: %lld elements are not a "
                                "multiple of %d",
                                (long long)n, TILE);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k = iron_kernel_new(d, "add", add_src,
                                     "int32*, int32*, int32*, int32");
    /* Each iteration acquires one object per fifo argument, calls
     * add(a, b, c, TILE) and releases them. */
    iron_worker *w = iron_worker_new(
        d, "adder", k, n / TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                  iron_arg_fifo(iron_fifo_cons(b)),
                  iron_arg_fifo(iron_fifo_prod(c)), iron_arg_int(TILE)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(b), 1, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

static int check_sum(iron_tensor *a, iron_tensor *b, iron_tensor *c)
{
    const int32_t *x = (const int32_t *)iron_tensor_data(a);
    const int32_t *y = (const int32_t *)iron_tensor_data(b);
    const int32_t *z = (const int32_t *)iron_tensor_data(c);
    for (int64_t i = 0; i < iron_tensor_numel(c); i++)
        if (z[i] != x[i] + y[i]) {
            fprintf(stderr, "c[%lld] = %d, expected %d\n", (long long)i, z[i],
                    x[i] + y[i]);
            return 0;
        }
    return 1;
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "vector_add",
        .args = "in a: int32[N], in b: int32[N], out c: int32[N]",
    };
    ok(iron_jit_create(vector_add, &opts, &j), "iron_jit_create");

    iron_tensor *a = NULL, *b = NULL, *c = NULL;
    ok(iron_tensor_randint(IRON_INT32, IRON_SHAPE(4096), -100, 100, 1, &a),
       "iron_tensor_randint");
    ok(iron_tensor_randint(IRON_INT32, IRON_SHAPE(4096), -100, 100, 2, &b),
       "iron_tensor_randint");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4096), &c),
       "iron_tensor_zeros");

    /* The first call builds; the next two find the specialization. */
    for (int call = 0; call < 3; call++)
        ok(IRON_CALL(j, a, b, c), "vector_add");
    if (!check_sum(a, b, c))
        return 1;

    /* Another length is another signature: one more build, and the
     * kernel, unchanged, is not compiled again. */
    iron_tensor *a2 = NULL, *b2 = NULL, *c2 = NULL;
    ok(iron_tensor_randint(IRON_INT32, IRON_SHAPE(1024), -100, 100, 3, &a2),
       "iron_tensor_randint");
    ok(iron_tensor_randint(IRON_INT32, IRON_SHAPE(1024), -100, 100, 4, &b2),
       "iron_tensor_randint");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), &c2),
       "iron_tensor_zeros");
    ok(IRON_CALL(j, a2, b2, c2), "vector_add (1024)");
    if (!check_sum(a2, b2, c2))
        return 1;

    iron_jit_stats st = jit_stats(j);
    printf("vector_add: %llu calls, %llu builds, %llu found in memory, "
           "%llu design runs\n",
           (unsigned long long)st.calls, (unsigned long long)st.builds,
           (unsigned long long)st.memory_hits,
           (unsigned long long)st.design_runs);

    /* A length the design does not accept: its own message, with the
     * signature the jit adds in front. */
    iron_tensor *a3 = NULL, *b3 = NULL, *c3 = NULL;
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1000), &a3), "zeros");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1000), &b3), "zeros");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1000), &c3), "zeros");
    iron_status s = IRON_CALL(j, a3, b3, c3);
    printf("1000 elements: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_ESHAPE)
        return 1;

    iron_tensor_free(a3);
    iron_tensor_free(b3);
    iron_tensor_free(c3);
    iron_tensor_free(a2);
    iron_tensor_free(b2);
    iron_tensor_free(c2);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    return 0;
}
