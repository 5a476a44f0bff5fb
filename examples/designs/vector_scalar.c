/*
 * vector_scalar.c - the vector x scalar reference design: int16 data times
 * a factor that arrives as its own one-element int32 tensor through its own
 * FIFO.  A custom core body acquires the factor once and holds it while
 * the four data objects of a call stream past, the way upstream IRON's
 * vector_scalar_mul does; the standard loop could not, since it acquires
 * one object of every FIFO per iteration.
 */
#include "designs/designs.h"

/* Each call brings one factor and N/4 * 4 data elements; the body runs
 * once per call forever, like a core.  The product wraps to int16 in
 * unsigned arithmetic so that no factor makes it undefined. */
static const char vector_scalar_src[] =
    "#include <stdint.h>\n"
    "void vector_scalar(iron_objfifo *in, iron_objfifo *factor,\n"
    "                   iron_objfifo *out, int32_t n, int32_t objs)\n"
    "{\n"
    "    for (;;) {\n"
    "        const int32_t *f = iron_acquire(factor, 1)[0];\n"
    "        const uint32_t scale = (uint32_t)f[0];\n"
    "        for (int32_t o = 0; o < objs; o++) {\n"
    "            const int16_t *x = iron_acquire(in, 1)[0];\n"
    "            int16_t *y = iron_acquire(out, 1)[0];\n"
    "            for (int32_t i = 0; i < n; i++)\n"
    "                y[i] = (int16_t)(uint16_t)((uint32_t)x[i] * scale);\n"
    "            iron_release(in, 1);\n"
    "            iron_release(out, 1);\n"
    "        }\n"
    "        iron_release(factor, 1);\n"
    "    }\n"
    "}\n";

int vector_scalar_design(iron_design *d, void *user)
{
    (void)user;
    const int64_t objs = 4;
    int64_t n = iron_design_arg_numel(d, 0);
    if (n < 512 || n % 64 != 0)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_scalar: %lld elements; expected at "
                                "least 512 and a multiple of 64",
                                (long long)n);
    if (iron_design_arg_numel(d, 1) != 1)
        return iron_design_fail(d, IRON_ESHAPE,
                                "vector_scalar: the factor has %lld "
                                "elements; expected 1",
                                (long long)iron_design_arg_numel(d, 1));
    int64_t obj = n / objs;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT16, IRON_SHAPE(obj), 2);
    /* One buffer is enough: the factor is taken once per call. */
    iron_fifo *factor = iron_fifo_new(d, "factor", IRON_INT32, IRON_SHAPE(1),
                                      1);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT16, IRON_SHAPE(obj), 2);
    iron_kernel *k =
        iron_kernel_new_core(d, "vector_scalar", vector_scalar_src,
                             "fifo, fifo, fifo, int32, int32");
    iron_worker *w = iron_worker_new(
        d, "scale", k, 1,
        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                  iron_arg_fifo(iron_fifo_cons(factor)),
                  iron_arg_fifo(iron_fifo_prod(out)), iron_arg_int(obj),
                  iron_arg_int(objs)));
    iron_rt_start(d, w);
    iron_rt_fill(d, iron_fifo_prod(factor), 1, iron_tap_linear(1));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 2, iron_tap_linear(n), IRON_WAIT);
    return 0;
}

const iron_jit_options vector_scalar_options = {
    .size = sizeof(iron_jit_options),
    .name = "vector_scalar",
    .args = "in input: int16[N], in factor: int32[1], out output: int16[N]",
};
