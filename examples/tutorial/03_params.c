/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * 03_params.c - tutorial step 3: one design, several programs.  A
 * compile-time parameter `op` makes the same design add or subtract (each
 * value is its own specialization, built once), `tile` sets the object
 * size, and a dispatch-time scalar `bias` changes what the compiled design
 * does per call without a rebuild: the runtime sequence writes it into a
 * run-time parameter buffer the kernel reads.
 */
#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

#include "tutorial.h"

/* OP comes from the design (-DOP=+); bias from a run-time parameter. */
static const char eltwise_src[] =
    "#include <stdint.h>\n"
    "void eltwise(const int32_t *a, const int32_t *b, int32_t *c,\n"
    "             const int32_t *bias, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        c[i] = (a[i] OP b[i]) + bias[0];\n"
    "}\n";

static int vector_op(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t tile = iron_design_param_int(d, "tile");
    const char *op = iron_design_param_str(d, "op");
    if (tile < 1 || n % tile != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "%lld elements are not a multiple of "
                                "tile=%lld",
                                (long long)n, (long long)tile);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(tile), 2);
    iron_kernel *k = iron_kernel_new(d, "eltwise", eltwise_src,
                                     "int32*, int32*, int32*, int32*, int32");
    iron_kernel_define(k, "OP", op);
    iron_rtp *bias = iron_rtp_new(d, "bias", IRON_INT32, 1);
    iron_worker *w =
        iron_worker_new(d, "eltwise", k, n / tile,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                                  iron_arg_fifo(iron_fifo_cons(b)),
                                  iron_arg_fifo(iron_fifo_prod(c)),
                                  iron_arg_rtp(bias), iron_arg_int(tile)));
    iron_rt_start(d, w);
    /* Before any data moves, this call's value of the scalar `bias`. */
    iron_rt_set_rtp_scalar(d, bias, 0, iron_design_scalar_index(d, "bias"));
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    iron_rt_fill(d, iron_fifo_prod(b), 1, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(c), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* c == a op b + bias everywhere? */
static int check(iron_tensor *a, iron_tensor *b, iron_tensor *c, char op,
                 int32_t bias)
{
    const int32_t *x = (const int32_t *)iron_tensor_data(a);
    const int32_t *y = (const int32_t *)iron_tensor_data(b);
    const int32_t *z = (const int32_t *)iron_tensor_data(c);
    for (int64_t i = 0; i < iron_tensor_numel(c); i++) {
        int32_t want = (op == '+' ? x[i] + y[i] : x[i] - y[i]) + bias;
        if (z[i] != want) {
            fprintf(stderr, "op %c bias %d: c[%lld] = %d, expected %d\n", op,
                    bias, (long long)i, z[i], want);
            return 0;
        }
    }
    return 1;
}

static uint64_t builds(iron_jit *j)
{
    return jit_stats(j).builds;
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "vector_op",
        .args = "in a: int32[N], in b: int32[N], out c: int32[N]",
        .params = "tile: int = 64, op: str = '+'",
        .scalars = "bias = 0",
    };
    ok(iron_jit_create(vector_op, &opts, &j), "iron_jit_create");

    iron_tensor *a = NULL, *b = NULL, *c = NULL;
    ok(iron_tensor_randint(IRON_INT32, IRON_SHAPE(8192), -50, 50, 1, &a),
       "iron_tensor_randint");
    ok(iron_tensor_randint(IRON_INT32, IRON_SHAPE(8192), -50, 50, 2, &b),
       "iron_tensor_randint");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(8192), &c),
       "iron_tensor_zeros");

    /* Defaults: op '+', bias 0. */
    ok(IRON_CALL(j, a, b, c), "add");
    if (!check(a, b, c, '+', 0))
        return 1;
    printf("add:           builds so far %llu\n",
           (unsigned long long)builds(j));

    /* A compile-time value: a second specialization. */
    ok(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "-")), a, b, c),
       "sub");
    if (!check(a, b, c, '-', 0))
        return 1;
    printf("sub:           builds so far %llu\n",
           (unsigned long long)builds(j));

    /* A dispatch-time scalar: the compiled add runs again, no build. */
    ok(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                       IRON_SCALARS(iron_scalar_value("bias", 1000)),
                       IRON_TENSORS(a, b, c)),
       "add + 1000");
    if (!check(a, b, c, '+', 1000))
        return 1;
    printf("add, bias 1000: builds so far %llu\n",
           (unsigned long long)builds(j));

    /* Pre-bound values apply to every call that does not give its own. */
    ok(iron_jit_bind(j, IRON_PARAMS(iron_param_str("op", "-"))), "bind");
    ok(IRON_CALL(j, a, b, c), "bound sub");
    if (!check(a, b, c, '-', 0))
        return 1;
    printf("bound sub:     builds so far %llu\n",
           (unsigned long long)builds(j));

    /* Mistake 1: a misspelt parameter. */
    iron_status s = IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("tlie", 32)),
                                   a, b, c);
    printf("misspelt: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_EPARAM)
        return 1;

    /* Mistake 2: objects too big for a compute tile's 64 KiB. */
    s = IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("tile", 4096)), a, b, c);
    printf("too big: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_ERESOURCE)
        return 1;

    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    return 0;
}
