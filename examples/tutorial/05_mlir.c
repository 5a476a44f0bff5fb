/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * 05_mlir.c - tutorial step 5: the bridge to upstream's toolchain.  A
 * worker whose core body is *described* op by op (the core-body IR)
 * instead of written as C: it adds one to every element itself and calls
 * a C kernel to scale the result.  The program runs it on the emulator,
 * exports it as MLIR-AIE for aiecc.py (a folder with aie.mlir, the kernel,
 * a Makefile and an XRT host program), then imports that aie.mlir back
 * and runs it again: the results agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iron/iron.h>

#include "tutorial.h"

#define TILE 64 /* elements per object */

static const char scale_src[] =
    "#include <stdint.h>\n"
    "void scale(int32_t *x, int32_t n, int32_t factor)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        x[i] *= factor;\n"
    "}\n";

static int add_one_scale(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(TILE), 2);
    iron_kernel *k =
        iron_kernel_new(d, "scale", scale_src, "int32*, int32, int32");

    /* The core function, as upstream writes it in Python:
     *   for _ in range_(sys.maxsize):
     *       x = of_in.acquire(1); y = of_out.acquire(1)
     *       for i in range_(TILE): y[i] = x[i] + 1
     *       scale(y, TILE, 3)
     *       of_in.release(1); of_out.release(1)                         */
    iron_body *b = iron_body_new(d, "add_one_scale");
    iron_val fin = iron_body_fifo(b, iron_fifo_cons(in));
    iron_val fout = iron_body_fifo(b, iron_fifo_prod(out));
    iron_val kv = iron_body_kernel(b, k);
    iron_val c0 = iron_body_const_int(b, IRON_BT_INDEX, 0);
    iron_val c1 = iron_body_const_int(b, IRON_BT_INDEX, 1);
    iron_val forever = iron_body_const_int(b, IRON_BT_INDEX, INT64_MAX);
    iron_val tile = iron_body_const_int(b, IRON_BT_INDEX, TILE);
    iron_body_for(b, c0, forever, c1, 0, NULL, NULL);
    iron_val x = iron_body_object(b, iron_body_acquire(b, fin, 1), 0);
    iron_val y = iron_body_object(b, iron_body_acquire(b, fout, 1), 0);
    iron_val i = iron_body_for(b, c0, tile, c1, 0, NULL, NULL);
    iron_val v = iron_body_load(b, x, 1, &i);
    iron_val one = iron_body_const_int(b, IRON_BT_I32, 1);
    iron_body_store(b, iron_body_arith(b, IRON_ARITH_ADDI, v, one), y, 1, &i);
    iron_body_end_for(b, 0, NULL, NULL);
    iron_val args[3] = { y, iron_body_const_int(b, IRON_BT_I32, TILE),
                         iron_body_const_int(b, IRON_BT_I32, 3) };
    iron_body_call(b, kv, 3, args);
    iron_body_release(b, fin, 1);
    iron_body_release(b, fout, 1);
    iron_body_end_for(b, 0, NULL, NULL);
    iron_worker *w = iron_worker_new_body(d, "worker", b);

    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

/* Reads a whole file (NUL-terminated); exits on failure. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = (char *)malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size)
        exit(1);
    text[size] = '\0';
    fclose(f);
    *len = (size_t)size;
    return text;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "add_one_scale.mlir.d";
    iron_jit *j = NULL;
    iron_jit_options opts = {
        .size = sizeof(iron_jit_options),
        .name = "add_one_scale",
        .args = "in x: int32[N], out y: int32[N]",
    };
    ok(iron_jit_create(add_one_scale, &opts, &j), "iron_jit_create");
    iron_tensor *x = NULL, *y = NULL, *y2 = NULL;
    ok(iron_tensor_arange(IRON_INT32, 0, 1024, 1, &x), "arange");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), &y), "zeros");
    ok(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), &y2), "zeros");
    ok(IRON_CALL(j, x, y), "call");
    printf("emulator: y[10] = %d\n", ((int32_t *)iron_tensor_data(y))[10]);

    /* Export: the specialization this call would use, as MLIR-AIE. */
    ok(iron_jit_export_mlir(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(x, y), NULL,
                            dir),
       "iron_jit_export_mlir");
    printf("exported to %s: aie.mlir, kernels/scale.c, Makefile, "
           "README.md, host.cpp\n", dir);

    /* Import: upstream MLIR (here, our own export) with the C source of
     * each external function it declares. */
    char path[1024];
    snprintf(path, sizeof path, "%s/aie.mlir", dir);
    size_t len = 0;
    char *text = slurp(path, &len);
    iron_mlir_kernel kernels[] = {
        { .name = "scale", .source = scale_src, .lang = IRON_KERNEL_LANG_C },
    };
    iron_mlir *m = NULL;
    ok(iron_mlir_design(text, len, path, 1, kernels, &m), "iron_mlir_design");
    printf("imported: device %s, arguments \"%s\"\n", iron_mlir_device(m),
           iron_mlir_args(m));
    iron_jit *j2 = NULL;
    ok(iron_mlir_jit_create(m, NULL, &j2), "iron_mlir_jit_create");
    ok(IRON_CALL(j2, x, y2), "call the imported module");
    int same = memcmp(iron_tensor_data(y), iron_tensor_data(y2),
                      iron_tensor_nbytes(y)) == 0;
    printf("imported module: %s\n", same ? "same results" : "DIFFERENT");

    iron_jit_free(j2);
    iron_mlir_free(m);
    free(text);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_tensor_free(y2);
    iron_jit_free(j);
    return same ? 0 : 1;
}
