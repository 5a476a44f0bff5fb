/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_scalars.c - dispatch-time scalars: per-call integers that move a
 * fill's offset and feed a run-time parameter, without a rebuild.
 */
#include "test.h"

static const char addk_src[] =
    "#include <stdint.h>\n"
    "void addk(const int32_t *x, int32_t *y, const int32_t *k, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        y[i] = x[i] + k[0];\n"
    "}\n";

/* y[0..16) = x[offset .. offset+16) + k, with offset and k per call. */
static int window_add(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(16), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(16), 2);
    iron_rtp *k = iron_rtp_new(d, "k", IRON_INT32, 1);
    iron_kernel *kern = iron_kernel_new(d, "addk", addk_src,
                                        "int32*, int32*, int32*, int32");
    iron_worker_new(d, "w", kern, 1,
                    IRON_ARGS(iron_arg_fifo(iron_fifo_cons(in)),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_rtp(k), iron_arg_int(16)));
    iron_rt_set_rtp_scalar(d, k, 0, iron_design_scalar_index(d, "k"));
    iron_rt_fill_offset_scalar(d, iron_fifo_prod(in), 0, iron_tap_linear(16),
                               iron_design_scalar_index(d, "offset"));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(16), IRON_WAIT);
    return 0;
}

static const iron_jit_options window_options = {
    .size = sizeof(iron_jit_options),
    .name = "window_add",
    .args = "in x: int32[N], out y: int32[16]",
    .scalars = "offset, k = 0",
    .disk_cache = -1,  /* counts compiles */
};

TEST(scalars_change_behaviour_without_rebuild)
{
    iron_jit *j;
    ASSERT_OK(iron_jit_create(window_add, &window_options, &j));
    iron_tensor *x, *y;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 256, 1, &x));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(16), &y));
    for (int64_t off = 0; off <= 240; off += 16) {
        for (int64_t k = -2; k <= 2; k += 2) {
            ASSERT_OK(
                iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                                IRON_SCALARS(iron_scalar_value("offset", off),
                                             iron_scalar_value("k", k)),
                                IRON_TENSORS(x, y)));
            for (int i = 0; i < 16; i++)
                ASSERT_EQ(((int32_t *)iron_tensor_data(y))[i], off + i + k);
        }
    }
    /* k has a default. */
    ASSERT_OK(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                              IRON_SCALARS(iron_scalar_value("offset", 5)),
                              IRON_TENSORS(x, y)));
    ASSERT_EQ(((int32_t *)iron_tensor_data(y))[0], 5);
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.kernel_compiles, 1);
    ASSERT_EQ(st.calls, 16 * 3 + 1);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}

TEST(scalars_errors)
{
    iron_jit *j;
    ASSERT_OK(iron_jit_create(window_add, &window_options, &j));
    iron_tensor *x, *y;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 256, 1, &x));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(16), &y));
    ASSERT_FAILS(IRON_CALL(j, x, y), IRON_EPARAM,
                 "dispatch-time scalar 'offset' has no default and was not "
                 "given");
    ASSERT_FAILS(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                                 IRON_SCALARS(iron_scalar_value("ofset", 1)),
                                 IRON_TENSORS(x, y)),
                 IRON_EPARAM, "unknown dispatch-time scalar 'ofset' (did you "
                              "mean 'offset'?); declared: offset, k");
    ASSERT_FAILS(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                                 IRON_SCALARS(iron_scalar_value("offset", 1),
                                              iron_scalar_value("offset", 2)),
                                 IRON_TENSORS(x, y)),
                 IRON_EPARAM, "scalar 'offset' is given twice");
    /* 250 + 16 > 256: checked before anything runs. */
    ((int32_t *)iron_tensor_data(y))[0] = -7;
    ASSERT_FAILS(
        iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                        IRON_SCALARS(iron_scalar_value("offset", 250)),
                        IRON_TENSORS(x, y)),
        IRON_EBOUNDS,
        "fill of argument 0 ('x') moved by scalar "
        "'offset' = 250");
    ASSERT_EQ(((int32_t *)iron_tensor_data(y))[0], -7);
    ASSERT_FAILS(iron_jit_launch(j, NULL, IRON_NO_PARAMS,
                                 IRON_SCALARS(iron_scalar_value("offset", -1)),
                                 IRON_TENSORS(x, y)),
                 IRON_EBOUNDS, "offset is -1");
    iron_jit *bad;
    iron_jit_options o = window_options;
    o.scalars = "a, a";
    ASSERT_FAILS(iron_jit_create(window_add, &o, &bad), IRON_EINVAL,
                 "'a' is declared twice");
    o.scalars = "a = x";
    ASSERT_FAILS(iron_jit_create(window_add, &o, &bad), IRON_EINVAL,
                 "an integer default");
    o.scalars = "k";
    ASSERT_OK(iron_jit_create(window_add, &o, &bad));
    ASSERT_FAILS(iron_jit_launch(bad, NULL, IRON_NO_PARAMS,
                                 IRON_SCALARS(iron_scalar_value("k", 1)),
                                 IRON_TENSORS(x, y)),
                 IRON_EPARAM, "dispatch-time scalar 'offset', which the jit "
                              "does not declare (declared: k)");
    iron_jit_free(bad);
    iron_tensor_free(x);
    iron_tensor_free(y);
    iron_jit_free(j);
}
