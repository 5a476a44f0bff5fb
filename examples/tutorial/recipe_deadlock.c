/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * recipe_deadlock.c - cookbook: reading a deadlock report.  The design
 * below is vector add with one mistake: the runtime sequence waits for the
 * drain of c before it fills b.  The worker needs an object of b to make
 * one of c, so nothing can move.  On hardware this would hang until the
 * timeout; the emulator stops at once and says who waits on what, and
 * with a trace asked for it writes the wait-for graph beside it (.dot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <iron/iron.h>

#include "tutorial.h"

static const char add_src[] =
    "#include <stdint.h>\n"
    "void add(const int32_t *a, const int32_t *b, int32_t *c, int32_t n)\n"
    "{ for (int32_t i = 0; i < n; i++) c[i] = a[i] + b[i]; }\n";

static int stuck_add(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *a = iron_fifo_new(d, "a", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *b = iron_fifo_new(d, "b", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *c = iron_fifo_new(d, "c", IRON_INT32, IRON_SHAPE(16), 2);
    iron_kernel *k = iron_kernel_new(d, "add", add_src,
                                     "int32*, int32*, int32*, int32");
    iron_worker *w = iron_worker_new(
        d, "adder", k, n / 16,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                  iron_arg_fifo(iron_fifo_cons(b)),
                  iron_arg_fifo(iron_fifo_prod(c)), iron_arg_int(16)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(a), 0, iron_tap_linear(n));
    /* The mistake: waiting here, before b's fill is issued. */
    iron_rt_drain(d, iron_fifo_cons(c), 2, iron_tap_linear(n), IRON_WAIT);
    iron_rt_fill(d, iron_fifo_prod(b), 1, iron_tap_linear(n));
    return 0;
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "stuck_add",
        .args = "in a: int32[N], in b: int32[N], out c: int32[N]",
    };
    ok(iron_jit_create(stuck_add, &opts, &j), "iron_jit_create");
    iron_tensor *a = NULL, *b = NULL, *c = NULL;
    ok(iron_tensor_ones(IRON_INT32, IRON_SHAPE(256), &a), "iron_tensor_ones");
    ok(iron_tensor_ones(IRON_INT32, IRON_SHAPE(256), &b), "iron_tensor_ones");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(256), &c),
       "iron_tensor_zeros");

    /* A trace file makes the emulator write the wait-for graph to
     * TRACE.dot when the call deadlocks (IRON_TRACE=FILE does the same). */
    char trace[64], dot[80];
    snprintf(trace, sizeof trace, "/tmp/iron-deadlock-%ld.json",
             (long)getpid());
    snprintf(dot, sizeof dot, "%s.dot", trace);
    iron_launch_config cfg = { .size = sizeof cfg, .trace = trace };
    iron_status s = iron_jit_launch(j, &cfg, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                    IRON_TENSORS(a, b, c));
    printf("status: %s\n%s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_EDEADLOCK || iron_jit_last_state(j) != IRON_RUN_ERROR)
        return 1;

    FILE *f = fopen(dot, "r");
    if (!f) {
        fprintf(stderr, "no wait-for graph at %s\n", dot);
        return 1;
    }
    printf("--- %s ---\n", dot);
    char line[512];
    while (fgets(line, sizeof line, f))
        fputs(line, stdout);
    fclose(f);
    remove(dot);
    remove(trace);

    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
    return 0;
}
