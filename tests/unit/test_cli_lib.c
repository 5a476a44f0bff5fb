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
    ASSERT_MSG("tile=1000, op='+'; npu2, 1 column): design: vector_op: "
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
