/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * recipe_probe.c - cookbook: see what flows through a FIFO between two
 * workers.  The design is a two-stage pipeline, x -> inc -> mid -> twice
 * -> y.  A second consumer on `mid`, drained by the runtime sequence into
 * an extra output tensor, shows every object the first worker produced:
 * consumers of one fifo each see every object (a broadcast).
 */
#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

#include "tutorial.h"

#define TILE 64

static const char stages_src[] =
    "#include <stdint.h>\n"
    "void inc(const int32_t *x, int32_t *y, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) y[i] = x[i] + 1; }\n"
    "void twice(const int32_t *x, int32_t *y, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) y[i] = 2 * x[i]; }\n";

static int pipeline(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *mid = iron_fifo_new(d, "mid", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k1 = iron_kernel_new(d, "inc", stages_src,
                                      "int32*, int32*, int32");
    iron_kernel *k2 = iron_kernel_new(d, "twice", stages_src,
                                      "int32*, int32*, int32");
    iron_worker *w1 = iron_worker_new(
        d, "inc", k1, n / TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(mid)), iron_arg_int(TILE)));
    iron_worker *w2 = iron_worker_new(
        d, "twice", k2, n / TILE,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(mid)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(TILE)));
    iron_rt_start(d, w1);
    iron_rt_start(d, w2);
    /* The probe: one more consumer of `mid`, drained to argument 2. */
    iron_handle *probe = iron_fifo_cons(mid);
    iron_rt_task_group_begin(d);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    iron_rt_drain(d, probe, 2, iron_tap_linear(n), IRON_WAIT);
    iron_rt_task_group_end(d);
    return 0;
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "pipeline",
        .args = "in x: int32[N], out y: int32[N], out mid: int32[N]",
    };
    ok(iron_jit_create(pipeline, &opts, &j), "iron_jit_create");

    iron_tensor *x = NULL, *y = NULL, *mid = NULL;
    ok(iron_tensor_arange(IRON_INT32, 0, 1024, 1, &x),
       "iron_tensor_arange");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), &y),
       "iron_tensor_zeros");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), &mid),
       "iron_tensor_zeros");
    ok(IRON_CALL(j, x, y, mid), "pipeline");

    const int32_t *xv = (const int32_t *)iron_tensor_data(x);
    const int32_t *yv = (const int32_t *)iron_tensor_data(y);
    const int32_t *mv = (const int32_t *)iron_tensor_data(mid);
    for (int i = 0; i < 1024; i++)
        if (mv[i] != xv[i] + 1 || yv[i] != 2 * (xv[i] + 1)) {
            fprintf(stderr, "element %d: mid %d y %d\n", i, mv[i], yv[i]);
            return 1;
        }
    printf("mid[0..3] = %d %d %d %d; y[0..3] = %d %d %d %d\n", mv[0], mv[1],
           mv[2], mv[3], yv[0], yv[1], yv[2], yv[3]);

    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(mid);
    iron_jit_free(j);
    return 0;
}
