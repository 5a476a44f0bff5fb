/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * recipe_checked.c - cookbook: checked mode catching an out-of-bounds
 * write.  The kernel ends its output with a terminator one element past
 * the object, as if it were a string.  A plain run lets it through: the
 * extra element lands in tile memory next to the object, and the result
 * looks right.  A checked run (iron_launch_config.check = 1, or IRON_CHECK=1) stops at the
 * faulty store and names the object, the FIFO and the source line.
 */
#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

#include "tutorial.h"

static const char negate_src[] =
    "#include <stdint.h>\n"
    "void negate(const int32_t *x, int32_t *y, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = -x[i];\n"
    "    y[n] = 0; /* bug: one past the object */\n"
    "}\n";

static int negate(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(32), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(32), 2);
    iron_kernel *k = iron_kernel_new(d, "negate", negate_src,
                                     "int32*, int32*, int32");
    iron_worker *w = iron_worker_new(
        d, "negate", k, n / 32,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(32)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "negate",
        .args = "in x: int32[N], out y: int32[N]",
    };
    ok(iron_jit_create(negate, &opts, &j), "iron_jit_create");
    iron_tensor *x = NULL, *y = NULL;
    ok(iron_tensor_arange(IRON_INT32, 0, 256, 1, &x),
       "iron_tensor_arange");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(256), &y),
       "iron_tensor_zeros");

    /* Plain run: the bug goes unnoticed. */
    iron_launch_config plain = { .size = sizeof plain, .check = -1 };
    ok(iron_jit_launch(j, &plain, IRON_NO_PARAMS, IRON_NO_SCALARS,
                       IRON_TENSORS(x, y)),
       "plain run");
    double y5 = 0;
    ok(iron_tensor_get_element(y, 5, &y5), "iron_tensor_get_element");
    printf("plain run: IRON_OK, y[5] = %g\n", y5);

    /* Checked run: the store past the object faults and is named. */
    iron_launch_config checked = { .size = sizeof checked, .check = 1 };
    iron_status s = iron_jit_launch(j, &checked, IRON_NO_PARAMS,
                                    IRON_NO_SCALARS, IRON_TENSORS(x, y));
    printf("checked run: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_EKERNEL)
        return 1;

    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    return 0;
}
