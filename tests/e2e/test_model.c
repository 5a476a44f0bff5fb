/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_model.c - the IRON model's constructs end to end with the exact
 * values of upstream's reference designs: split/join through a memtile, a layout
 * transform on a joined fifo, a core body with cumulative acquire.
 */
#include "test.h"

static const char add1_src[] =
    "#include <stdint.h>\n"
    "void add1(const int32_t *in, int32_t *out, int32_t n)\n"
    "{\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = in[i] + 1;\n"
    "}\n";

/* int32[48]; 24-element objects split at 0, 8, 16 to three workers that
 * add 1, joined back. */
static int split_join(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(24), 2);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(24), 2);
    const char *in_names[3] = { "in0", "in1", "in2" };
    const char *out_names[3] = { "out0", "out1", "out2" };
    const int64_t offsets[3] = { 0, 8, 16 };
    const iron_shape shapes[3] = { IRON_SHAPE(8), IRON_SHAPE(8),
                                   IRON_SHAPE(8) };
    iron_fifo *parts_in[3], *parts_out[3];
    iron_fifo_split(d, iron_fifo_cons(in), 3, in_names, offsets, shapes, NULL,
                    parts_in);
    iron_fifo_join(d, iron_fifo_prod(out), 3, out_names, offsets, shapes,
                   NULL, parts_out);
    iron_kernel *k = iron_kernel_new(d, "add1", add1_src,
                                     "int32*, int32*, int32");
    for (int w = 0; w < 3; w++) {
        char name[16];
        snprintf(name, sizeof name, "w%d", w);
        iron_worker_new(d, name, k, 2,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_cons(parts_in[w])),
                                  iron_arg_fifo(iron_fifo_prod(parts_out[w])),
                                  iron_arg_int(8)));
    }
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(48));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(48), IRON_WAIT);
    return 0;
}

TEST(model_split_join_through_memtile)
{
    iron_jit *j;
    iron_jit_options o = { .size = sizeof o, .name = "split_join",
                           .args = "in a: int32[48], out b: int32[48]" };
    ASSERT_OK(iron_jit_create(split_join, &o, &j));
    iron_tensor *a, *b;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 48, 1, &a));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(48), &b));
    for (int call = 0; call < 2; call++) {
        ASSERT_OK(IRON_CALL(j, a, b));
        for (int i = 0; i < 48; i++)
            ASSERT_EQ(((int32_t *)iron_tensor_data(b))[i], i + 1);
    }
    char *text = NULL;
    ASSERT_OK(iron_jit_dump(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(a, b),
                            &text));
    ASSERT_CONTAINS(text, "split on memtile (0,1)");
    ASSERT_CONTAINS(text, "join on memtile (0,1)");
    iron_free(text);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

static const char fill_src[] =
    "#include <stdint.h>\n"
    "void fill_obj(int32_t *out, int32_t n, int32_t w)\n"
    "{\n"
    "    static int32_t j;\n"
    "    for (int32_t i = 0; i < n; i++)\n"
    "        out[i] = j + 1 + w;\n"
    "    j = (j + 1) % 2;\n"
    "}\n";

/* out fifo of 24 int32, depth 2, dims_to_stream [(8, 1), (3, 8)], joined
 * from three 8-element fifos; worker w fills its object j (j = 0, 1) with
 * j + 1 + w. */
static int layout_join(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(24), 2);
    const char *names[3] = { "p0", "p1", "p2" };
    const int64_t offsets[3] = { 0, 8, 16 };
    const iron_shape shapes[3] = { IRON_SHAPE(8), IRON_SHAPE(8),
                                   IRON_SHAPE(8) };
    iron_fifo *parts[3];
    iron_fifo_join(d, iron_fifo_prod(out), 3, names, offsets, shapes, NULL,
                   parts);
    const int64_t sizes[2] = { 8, 3 }, strides[2] = { 1, 8 };
    iron_handle_set_dims(iron_fifo_prod(out), 2, sizes, strides);
    iron_kernel *k = iron_kernel_new(d, "fill_obj", fill_src,
                                     "int32*, int32, int32");
    for (int w = 0; w < 3; w++) {
        char name[16];
        snprintf(name, sizeof name, "w%d", w);
        iron_worker_new(d, name, k, 2,
                        IRON_ARGS(iron_arg_fifo(iron_fifo_prod(parts[w])),
                                  iron_arg_int(8), iron_arg_int(w)));
    }
    iron_rt_drain(d, iron_fifo_cons(out), 0, iron_tap_linear(48), IRON_WAIT);
    return 0;
}

TEST(model_layout_transform_on_joined_fifo)
{
    iron_jit *j;
    iron_jit_options o = { .size = sizeof o, .name = "layout_join",
                           .args = "out c: int32[48]" };
    ASSERT_OK(iron_jit_create(layout_join, &o, &j));
    iron_tensor *c;
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(48), &c));
    ASSERT_OK(IRON_CALL(j, c));
    const int32_t *v = iron_tensor_data(c);
    for (int i = 0; i < 48; i++)
        ASSERT_EQ(v[i], i < 24 ? i % 3 + 1 : i % 3 + 2);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* A core body: a 3-wide sliding window (cumulative acquire, release 1). */
static const char window_src[] =
    "#include <stdint.h>\n"
    "void window(iron_objfifo *in, iron_objfifo *out, int32_t n,\n"
    "            int32_t objs)\n"
    "{\n"
    "    for (;;) {\n"
    "        /* prime: hold the first two */\n"
    "        iron_acquire(in, 2);\n"
    "        for (int32_t o = 0; o < objs - 2; o++) {\n"
    "            int32_t **w = (int32_t **)iron_acquire(in, 3);\n"
    "            int32_t *y = (int32_t *)iron_acquire(out, 1)[0];\n"
    "            for (int32_t i = 0; i < n; i++)\n"
    "                y[i] = w[0][i] + w[1][i] + w[2][i];\n"
    "            iron_release(out, 1);\n"
    "            iron_release(in, 1);\n"
    "        }\n"
    "        iron_release(in, 2);\n"
    "    }\n"
    "}\n";

static int window_design(iron_design *d, void *user)
{
    (void)user;
    int64_t n = iron_design_arg_numel(d, 0);
    int64_t objs = n / 8;
    iron_fifo *in = iron_fifo_new(d, "in", IRON_INT32, IRON_SHAPE(8), 3);
    iron_fifo *out = iron_fifo_new(d, "out", IRON_INT32, IRON_SHAPE(8), 2);
    iron_kernel *k = iron_kernel_new_core(d, "window", window_src,
                                          "fifo, fifo, int32, int32");
    iron_worker_new(d, "win", k, 1,
                    IRON_ARGS(iron_arg_fifo_acquire(iron_fifo_cons(in), 3),
                              iron_arg_fifo(iron_fifo_prod(out)),
                              iron_arg_int(8), iron_arg_int(objs)));
    iron_rt_fill(d, iron_fifo_prod(in), 0, iron_tap_linear(n));
    iron_rt_drain(d, iron_fifo_cons(out), 1, iron_tap_linear(n - 16),
                  IRON_WAIT);
    return 0;
}

TEST(model_core_body_sliding_window)
{
    iron_jit *j;
    iron_jit_options o = { .size = sizeof o, .name = "window",
                           .args = "in a, out b" };
    ASSERT_OK(iron_jit_create(window_design, &o, &j));
    iron_tensor *a, *b;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 80, 1, &a));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(64), &b));
    for (int call = 0; call < 3; call++) {
        ASSERT_OK(IRON_CALL(j, a, b));
        const int32_t *x = iron_tensor_data(a), *y = iron_tensor_data(b);
        for (int o2 = 0; o2 < 8; o2++)
            for (int i = 0; i < 8; i++)
                ASSERT_EQ(y[o2 * 8 + i], x[o2 * 8 + i] + x[(o2 + 1) * 8 + i] +
                                             x[(o2 + 2) * 8 + i]);
    }
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* iron_design_dump inside a design function: the text of what has been
 * built so far, allocated for the caller. */
static char *g_dump_text;
static int dump_midway(iron_design *d, void *user)
{
    (void)user;
    iron_fifo *f = iron_fifo_new(d, "probe", IRON_INT32, IRON_SHAPE(16), 2);
    ASSERT_OK(iron_design_dump(d, &g_dump_text));
    ASSERT_FAILS(iron_design_dump(d, NULL), IRON_EINVAL,
                 "iron_design_dump: out is NULL");
    iron_fifo *g = iron_fifo_forward(d, iron_fifo_cons(f), "out", 0);
    iron_rt_fill(d, iron_fifo_prod(f), 0, iron_tap_linear(16));
    iron_rt_drain(d, iron_fifo_cons(g), 1, iron_tap_linear(16), IRON_WAIT);
    return 0;
}

TEST(model_design_dump_inside_the_design)
{
    iron_jit *j;
    ASSERT_OK(iron_jit_create(dump_midway, &(iron_jit_options){
        .size = sizeof(iron_jit_options), .name = "dump_midway",
        .args = "in a: int32[16], out b: int32[16]" }, &j));
    iron_tensor *a, *b;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 16, 1, &a));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(16), &b));
    ASSERT_OK(IRON_CALL(j, a, b));
    ASSERT(g_dump_text != NULL);
    ASSERT_CONTAINS(g_dump_text, "fifos (1):\n  probe: int32[16]");
    ASSERT(strstr(g_dump_text, "  out: ") == NULL);  /* not built yet */
    for (int i = 0; i < 16; i++) {
        double v;
        ASSERT_OK(iron_tensor_get_element(b, i, &v));
        ASSERT_EQ((int)v, i);
    }
    iron_free(g_dump_text);
    char *text = (char *)&a;
    ASSERT_FAILS(iron_design_dump(NULL, &text), IRON_EINVAL,
                 "iron_design_dump: design is NULL");
    ASSERT(text == NULL);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}
