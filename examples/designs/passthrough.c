/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * passthrough.c - the passthrough reference design: the input streams
 * through one worker that copies each object to the output FIFO.  The
 * copy is a C kernel, or the file named by `kernel_file` (entry
 * `kernel_entry`, upstream's passThroughLine by default).
 */
#include "designs/designs.h"
#include "designs/kernel_choice.h"

static const char copy_src[] =
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "void copy_bytes(const uint8_t *in, uint8_t *out, int32_t n)\n"
    "{\n"
    "    memcpy(out, in, (size_t)n);\n"
    "}\n";

int passthrough_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t obj = iron_design_param_int(d, "obj");
    if (obj == 0)
        obj = n / 4;
    if (obj < 1 || n % obj != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "passthrough: %lld elements do not split "
                                "into objects of %lld",
                                (long long)n, (long long)obj);
    iron_fifo *in = iron_fifo_new(d, "in", IRON_UINT8, IRON_SHAPE(obj), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_UINT8, IRON_SHAPE(obj), 2);
    iron_kernel *k = design_kernel(d, "copy_bytes", copy_src,
                                   design_kernel_entry(d),
                                   "uint8*, uint8*, int32");
    iron_handle *in_c = iron_fifo_cons(in), *out_p = iron_fifo_prod(out);
    iron_worker *w =
        iron_worker_new(d, "copy", k, n / obj,
                        IRON_ARGS(iron_arg_fifo(in_c), iron_arg_fifo(out_p),
                                  iron_arg_int(obj)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

const iron_jit_options passthrough_options = {
    .size = sizeof(iron_jit_options),
    .name = "passthrough",
    .args = "in input: uint8[N], out output: uint8[N]",
    .params = "obj: int = 0, " KERNEL_FILE_PARAM ", "
              KERNEL_ENTRY_PARAM("passThroughLine"),
};
