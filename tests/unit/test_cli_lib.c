/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cli_lib.c - the library entries behind `iron check` and `iron dump
 * --format`: iron_jit_check and iron_jit_dump_as, called directly.
 */
#include <jansson.h>

#include "designs/designs.h"
#include "test.h"

static iron_jit *vop(void)
{
    return test_new_jit(vector_op_design, &vector_op_options);
}

TEST(jit_check_summarizes_without_building)
{
    iron_jit *j = vop();
    iron_tensor *a = test_zeros(IRON_INT32, 1024), *b = test_zeros(IRON_INT32,
                                                                   1024),
                *c = test_zeros(IRON_INT32, 1024);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1 };
    char *s = NULL;
    ASSERT_OK(iron_jit_check(j, &cfg, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                             &s));
    ASSERT_CONTAINS(s, "vector_op (a: int32[1024]");
    ASSERT_CONTAINS(s, ": ok: 1 worker, 3 fifos, 0 links, 1 tile");
    ASSERT_CONTAINS(s, "columns used 1 of 1");
    iron_free(s);
    /* Nothing was built: no specialization, no compile. */
    iron_jit_stats st = test_stats(j);
    ASSERT_EQ(st.builds, 0);
    ASSERT_EQ(st.kernel_compiles, 0);
    ASSERT_EQ(st.specializations, 0);
    ASSERT_EQ(st.design_runs, 1);
    /* Failures: the call's own checks and messages. */
    s = (char *)1;
    ASSERT_STATUS(iron_jit_check(j, &cfg, IRON_NO_PARAMS,
                                 IRON_TENSORS(a, b), &s),
                  IRON_EARG);
    ASSERT(s == NULL);
    ASSERT_MSG("2 tensor arguments given, expected 3");
    cfg.cols = 99;
    ASSERT_STATUS(iron_jit_check(j, &cfg, IRON_NO_PARAMS,
                                 IRON_TENSORS(a, b, c), &s),
                  IRON_ERESOURCE);
    ASSERT_MSG("asks for 99 columns");
    cfg.cols = 1;
    ASSERT_STATUS(iron_jit_check(j, &cfg,
                                 IRON_PARAMS(iron_param_int("tile", 1000)),
                                 IRON_TENSORS(a, b, c), &s),
                  IRON_ESHAPE);
    ASSERT_MSG("tile=1000, op='+', kernel_file='', kernel_entry='eltwise'; "
               "npu2, 1 column): design: vector_op: "
               "1024 elements are not a multiple of tile=1000");
    ASSERT_STATUS(iron_jit_check(j, &cfg,
                                 IRON_PARAMS(iron_param_int("tyle", 16)),
                                 IRON_TENSORS(a, b, c), &s),
                  IRON_EPARAM);
    ASSERT_MSG("tile");
    ASSERT_STATUS(iron_jit_check(NULL, &cfg, IRON_NO_PARAMS,
                                 IRON_TENSORS(a, b, c), &s),
                  IRON_EINVAL);
    ASSERT_STATUS(iron_jit_check(j, &cfg, IRON_NO_PARAMS,
                                 IRON_TENSORS(a, b, c), NULL),
                  IRON_EINVAL);
    iron_launch_config old = { .size = 4 };
    ASSERT_STATUS(iron_jit_check(j, &old, IRON_NO_PARAMS,
                                 IRON_TENSORS(a, b, c), &s),
                  IRON_EINVAL);
    ASSERT_MSG("launch config.size is 4");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

TEST(jit_dump_as_formats)
{
    iron_jit *j = vop();
    iron_tensor *a = test_zeros(IRON_INT32, 256), *b = test_zeros(IRON_INT32,
                                                                  256),
                *c = test_zeros(IRON_INT32, 256);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1 };
    char *s = NULL;
    ASSERT_OK(iron_jit_dump_as(j, &cfg, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                               "json", &s));
    json_t *r = json_loads(s, 0, NULL);
    ASSERT(r != NULL);
    ASSERT_EQ(json_array_size(json_object_get(r, "fifos")), 3);
    json_decref(r);
    iron_free(s);
    ASSERT_OK(iron_jit_dump_as(j, &cfg, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                               "dot", &s));
    ASSERT_CONTAINS(s, "digraph design {");
    iron_free(s);
    ASSERT_OK(iron_jit_dump_as(j, &cfg, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                               "grid", &s));
    ASSERT_CONTAINS(s, "row   2  | eltwise ");
    iron_free(s);
    ASSERT_EQ(test_stats(j).builds, 0);
    /* text is iron_jit_dump: a full build. */
    ASSERT_OK(iron_jit_dump_as(j, &cfg, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                               "text", &s));
    ASSERT_CONTAINS(s, "fifos (3):");
    iron_free(s);
    ASSERT_EQ(test_stats(j).builds, 1);
    s = (char *)1;
    ASSERT_STATUS(iron_jit_dump_as(j, &cfg, IRON_NO_PARAMS,
                                   IRON_TENSORS(a, b, c), "yaml", &s),
                  IRON_EINVAL);
    ASSERT(s == NULL);
    ASSERT_MSG("format 'yaml'; expected text, json, dot, grid, mlir or "
              "mlir-generic");
    ASSERT_STATUS(iron_jit_dump_as(NULL, &cfg, IRON_NO_PARAMS,
                                   IRON_TENSORS(a, b, c), "json", &s),
                  IRON_EINVAL);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}

/* Two copies pinned to columns 1 and 2 of a 4-column grant. */
static int pinned_copies_design(iron_design *d, void *user)
{
    (void)user;
    static const char src[] =
        "#include <stdint.h>\n"
        "void copy(const int32_t *x, int32_t *y, int32_t n)\n"
        "{ for (int32_t i = 0; i < n; i++) y[i] = x[i]; }\n";
    int64_t n = iron_design_arg_numel(d, 0);
    iron_kernel *k = iron_kernel_new(d, "copy", src, "int32*, int32*, int32");
    for (int w = 0; w < 2; w++) {
        char in[16], out[16], name[16];
        snprintf(in, sizeof in, "in%d", w);
        snprintf(out, sizeof out, "out%d", w);
        snprintf(name, sizeof name, "w%d", w + 1);
        iron_fifo *a = iron_fifo_new(d, in, IRON_INT32, IRON_SHAPE(16), 2);
        iron_fifo *b = iron_fifo_new(d, out, IRON_INT32, IRON_SHAPE(16), 2);
        iron_worker *wk = iron_worker_new(
            d, name, k, n / 16,
            IRON_ARGS(iron_arg_fifo(iron_fifo_cons(a)),
                      iron_arg_fifo(iron_fifo_prod(b)), iron_arg_int(16)));
        iron_worker_place(wk, w + 1, 2);
        iron_rt_start(d, wk);
        iron_rt_fill(d, iron_fifo_prod(a), 2 * w, iron_tap_linear(n));
        iron_rt_drain(d, iron_fifo_cons(b), 2 * w + 1, iron_tap_linear(n),
                      IRON_WAIT);
    }
    return 0;
}

/* The grid draws the columns the design uses, and says which: a
 * one-column design on npu2 was once 8 columns (180 characters) wide. */
TEST(jit_dump_grid_draws_the_used_columns)
{
    iron_tensor *t[4];
    for (int i = 0; i < 4; i++)
        t[i] = test_zeros(IRON_INT32, 64);
    iron_jit_options o = { .size = sizeof o, .name = "pinned",
                           .args = "in a: int32[N], out b: int32[N], "
                                   "in c: int32[N], out d: int32[N]" };
    iron_jit *j = test_new_jit(pinned_copies_design, &o);
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 4 };
    char *s = NULL;
    IRON_WITH_DEVICE("npu1") {
        ASSERT_OK(iron_jit_dump_as(j, &cfg, IRON_NO_PARAMS, 4, t, "grid",
                                   &s));
    }
    ASSERT_CONTAINS(s, "; npu1, 4 columns)\ncolumns 1-2 of 4 (the others "
                       "are unused)\n           col 1 ");
    ASSERT_CONTAINS(s, "row   2  | w1 ");
    ASSERT_CONTAINS(s, "| w2 ");
    ASSERT_CONTAINS(s, "shim  0  | in0:in0 out0:out0 |");
    ASSERT(strstr(s, "col 0") == NULL);
    ASSERT(strstr(s, "col 3") == NULL);
    ASSERT(strstr(s, " \n") == NULL);   /* no trailing blanks */
    iron_free(s);
    iron_jit_free(j);

    /* One column on npu2's eight: one column drawn, every line short. */
    j = vop();
    cfg.cols = 0;
    ASSERT_OK(iron_jit_dump_as(j, &cfg, IRON_NO_PARAMS,
                               IRON_TENSORS(t[0], t[1], t[2]), "grid", &s));
    ASSERT_CONTAINS(s, "; npu2, 8 columns)\ncolumn 0 of 8 (the others are "
                       "unused)\n           col 0\n");
    ASSERT(strstr(s, "col 1") == NULL);
    for (const char *p = strchr(s, '\n') + 1; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > 79)
            TEST_FAIL_("a grid line of %zu columns: '%.*s'", n, (int)n, p);
        p += n + (p[n] != '\0');
    }
    iron_free(s);
    iron_jit_free(j);
    for (int i = 0; i < 4; i++)
        iron_tensor_free(t[i]);
}
