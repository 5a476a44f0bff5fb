/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * recipe_printf.c - cookbook: printf in a kernel.  Each line a kernel
 * prints is tagged with its worker, tile and iteration; a handler set with
 * iron_output_set_handler receives the lines instead, here to count them
 * and keep the last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iron/iron.h>

#include "tutorial.h"

static const char sum_src[] =
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "void copy_sum(const int32_t *x, int32_t *y, int32_t n)\n"
    "{\n"
    "    int64_t sum = 0;\n"
    "    for (int32_t i = 0; i < n; i++) {\n"
    "        y[i] = x[i];\n"
    "        sum += x[i];\n"
    "    }\n"
    "    printf(\"sum = %lld\\n\", (long long)sum);\n"
    "}\n";

static int copy_sum(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(4), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(4), 2);
    iron_kernel *k = iron_kernel_new(d, "copy_sum", sum_src,
                                     "int32*, int32*, int32");
    iron_worker *w = iron_worker_new(
        d, "summer", k, n / 4,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(4)));
    /* printf needs a few KiB of stack; a core's default is 1 KiB. */
    iron_worker_set_stack(w, 8192);
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* What the handler keeps. */
typedef struct captured {
    int lines;
    char last[128];
} captured;

static void keep_line(const iron_output_line *line, void *ctx)
{
    captured *c = (captured *)ctx;
    c->lines++;
    snprintf(c->last, sizeof c->last, "%s (%d,%d) #%llu fd %d: %s",
             line->worker, line->col, line->row,
             (unsigned long long)line->iteration, line->fd, line->text);
}

int main(void)
{
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "copy_sum",
        .args = "in x: int32[N], out y: int32[N]",
    };
    ok(iron_jit_create(copy_sum, &opts, &j), "iron_jit_create");
    iron_tensor *x = NULL, *y = NULL;
    ok(iron_tensor_arange(IRON_INT32, 1, 13, 1, &x),
       "iron_tensor_arange");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(12), &y),
       "iron_tensor_zeros");

    /* Default: tagged lines on the program's stdout. */
    ok(IRON_CALL(j, x, y), "copy_sum");
    fflush(stdout);

    /* Captured: nothing is printed; the handler sees each line. */
    captured cap = { 0, "" };
    iron_output_set_handler(keep_line, &cap);
    ok(IRON_CALL(j, x, y), "copy_sum (captured)");
    iron_output_set_handler(NULL, NULL);
    printf("captured %d lines; last: %s\n", cap.lines, cap.last);
    if (cap.lines != 3 || strstr(cap.last, "sum = 42") == NULL)
        return 1;

    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    return 0;
}
