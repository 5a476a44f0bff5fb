/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * main.c - a program built against an installed libiron, the way the
 * README's "Install" section shows (CMakeLists.txt next to it, or
 * pkg-config).  It prints the library's version and runs one small
 * design on the emulated NPU: bytes stream through one worker whose
 * kernel adds 100 with saturation, using <iron/iron_kernel.h> from the
 * library.  Exits 0 when every byte is right.
 */
#include <stdio.h>

#include <iron/iron.h>

static const char add_src[] =
    "#include <iron/iron_kernel.h>\n"
    "void add_100(const uint8_t *in, uint8_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = iron_k_add_sat_u8(in[i], 100);\n"
    "}\n";

/* in -> worker (add_100 on each object of 256 bytes) -> out */
static int design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0), obj = 256;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_UINT8, IRON_SHAPE(obj), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_UINT8, IRON_SHAPE(obj), 2);
    iron_kernel *k = iron_kernel_new(d, "add_100", add_src,
                                     "uint8*, uint8*, int32");
    iron_worker *w = iron_worker_new(
        d, "w", k, n / obj,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(obj)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

int main(void)
{
    const int64_t n = 1024;
    iron_jit_options opts = { .size = sizeof opts, .name = "add_100",
                              .args = "in x: uint8[N], out y: uint8[N]" };
    iron_jit *j = NULL;
    iron_tensor *x = NULL, *y = NULL;
    int bad = -1;

    printf("iron %s\n", iron_version());
    iron_status s = iron_jit_create(design, &opts, &j);
    if (s == IRON_OK)
        s = iron_tensor_randint(IRON_UINT8, IRON_SHAPE(n), 0, 256, 1, &x);
    if (s == IRON_OK)
        s = iron_tensor_zeros(IRON_UINT8, IRON_SHAPE(n), &y);
    if (s == IRON_OK)
        s = IRON_CALL(j, x, y);
    if (s == IRON_OK) {
        const uint8_t *in = iron_tensor_data(x), *out = iron_tensor_data(y);
        bad = 0;
        for (int64_t i = 0; i < n; i++)
            bad += out[i] != (in[i] > 155 ? 255 : in[i] + 100);
        printf("add_100 on the emulated NPU: %s\n",
               bad ? "WRONG RESULT" : "ok");
    } else {
        printf("failed: %s\n", iron_last_error());
    }
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
    return s == IRON_OK && bad == 0 ? 0 : 1;
}
