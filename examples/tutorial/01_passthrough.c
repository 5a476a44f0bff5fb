/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * 01_passthrough.c - tutorial step 1: the smallest design.  One ObjectFifo
 * carries the input from the host into a memtile and on to the output, with
 * no worker at all: the runtime sequence fills it and drains it.  Then two
 * mistakes a newcomer makes, and the sentences the library answers with.
 */
#include <stdio.h>
#include <stdlib.h>

#include <iron/iron.h>

#include "tutorial.h"

/* The design: runs on the first call of each signature, sees shapes and
 * parameters, never data. */
static int passthrough(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t obj = iron_design_param_int(d, "obj");
    int depth = (int)iron_design_param_int(d, "depth");
    /* A parameter only so that this program can show mistake 3. */
    int wait = iron_design_param_bool(d, "wait");
    /* Host -> memtile: objects of `obj` bytes, `depth` buffers. */
    iron_fifo *in = iron_fifo_new(d, "in", IRON_UINT8, IRON_SHAPE(obj), depth);
    /* Memtile -> host: a second fifo fed by a link on the memtile. */
    iron_fifo *out = iron_fifo_forward(d, iron_fifo_cons(in), "out", 0);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n),
                  wait ? IRON_WAIT : IRON_NOWAIT);
    return 0;
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "passthrough",
        .args = "in input: uint8[N], out output: uint8[N]",
        .params = "obj: int = 64, depth: int = 2, wait: bool = true",
    };
    ok(iron_jit_create(passthrough, &opts, &j), "iron_jit_create");

    iron_tensor *in = NULL, *out = NULL;
    ok(iron_tensor_randint(IRON_UINT8, IRON_SHAPE(1024), 0, 256, 1, &in),
       "iron_tensor_randint");
    ok(iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(1024), &out),
       "iron_tensor_zeros");

    /* First call: design, verify, place, compile, load, run. */
    ok(IRON_CALL(j, in, out), "first call");
    const uint8_t *x = (const uint8_t *)iron_tensor_data(in);
    const uint8_t *y = (const uint8_t *)iron_tensor_data(out);
    for (int i = 0; i < 1024; i++)
        if (x[i] != y[i]) {
            fprintf(stderr, "element %d: %d, expected %d\n", i, y[i], x[i]);
            return 1;
        }
    printf("passthrough: 1024 bytes copied through a memtile\n");

    /* Mistake 1: an output smaller than the input.  The argument list
     * says both are uint8[N]; the call is refused before anything runs. */
    iron_tensor *small = NULL;
    ok(iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(512), &small),
       "iron_tensor_zeros");
    iron_status s = IRON_CALL(j, in, small);
    printf("too small: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_EARG)
        return 1;

    /* Mistake 2: more buffers than a FIFO may have.  The builder's error
     * is sticky; the jit reports it with the call's signature. */
    s = IRON_CALL_WITH(j, IRON_PARAMS(iron_param_int("depth", 32)), in, out);
    printf("too deep: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_EDESIGN && s != IRON_EINVAL)
        return 1;

    /* Mistake 3: no drain the call waits for.  The design builds, but
     * verification refuses it: the call would not know when it is done. */
    s = IRON_CALL_WITH(j, IRON_PARAMS(iron_param_bool("wait", 0)), in, out);
    printf("no wait: %s: %s\n", iron_status_name(s), iron_last_error());
    if (s != IRON_EDESIGN)
        return 1;

    iron_tensor_free(small);
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
    return 0;
}
