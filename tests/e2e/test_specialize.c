/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_specialize.c - building ahead of the first call, running the
 * compiled handle directly, and dumping a signature without running.
 */
#include "designs/designs.h"
#include "test.h"

TEST(spec_warm_up_then_direct_runs)
{
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &vector_op_options, &j));
    iron_tensor *a, *b, *c, *wrong;
    ASSERT_OK(iron_tensor_arange(IRON_INT32, 0, 1024, 1, &a));
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(1024), 5, &b));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(1024), &c));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(2048), &wrong));
    iron_spec *sp;
    ASSERT_OK(iron_jit_specialize(j, NULL,
                                  IRON_PARAMS(iron_param_str("op", "-")),
                                  IRON_TENSORS(a, b, c), &sp));
    ASSERT_CONTAINS(iron_spec_signature(sp), "op='-'");
    iron_jit_stats st = { .size = sizeof st };
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.calls, 0);  /* built, nothing run */
    for (int i = 0; i < 3; i++)
        ASSERT_OK(
            iron_spec_launch(sp, IRON_NO_SCALARS, IRON_TENSORS(a, b, c)));
    for (int i = 0; i < 1024; i++)
        ASSERT_EQ(((int32_t *)iron_tensor_data(c))[i], i - 5);
    /* The jit's own call finds the warmed-up specialization. */
    ASSERT_OK(IRON_CALL_WITH(j, IRON_PARAMS(iron_param_str("op", "-")), a, b,
                             c));
    ASSERT_OK(iron_jit_get_stats(j, &st));
    ASSERT_EQ(st.builds, 1);
    ASSERT_EQ(st.memory_hits, 1);
    ASSERT_FAILS(iron_spec_launch(sp, IRON_NO_SCALARS, IRON_TENSORS(a, b)),
                 IRON_EARG, "2 tensor arguments given, the specialization "
                            "takes 3");
    ASSERT_FAILS(
        iron_spec_launch(sp, IRON_NO_SCALARS, IRON_TENSORS(a, b, wrong)),
        IRON_EARG, "argument 2 ('c') is int32[2048]");
    ASSERT_FAILS(
        iron_spec_launch(NULL, IRON_NO_SCALARS, IRON_TENSORS(a, b, c)),
        IRON_EINVAL, "spec is NULL");
    ASSERT_FAILS(iron_jit_specialize(j, NULL, IRON_NO_PARAMS,
                                     IRON_TENSORS(a, b, c), NULL),
                 IRON_EINVAL, "out is NULL");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_tensor_free(wrong);
    iron_jit_free(j);
}

TEST(spec_dump_without_running)
{
    iron_jit *j;
    ASSERT_OK(iron_jit_create(vector_op_design, &vector_op_options, &j));
    iron_tensor *a, *b, *c;
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(64), &a));
    ASSERT_OK(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(64), &b));
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(64), 9, &c));
    char *text = NULL;
    iron_launch_config cfg = { .size = sizeof cfg, .cols = 1 };
    ASSERT_OK(iron_jit_dump(j, &cfg, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                            &text));
    ASSERT_CONTAINS(text, "design 'vector_op' on npu2, 1 column");
    ASSERT_CONTAINS(text, "eltwise: kernel 'eltwise' x 4 on tile (0,2)");
    ASSERT_CONTAINS(text, "compute tile (0,2):");
    iron_free(text);
    /* Nothing ran: c is untouched. */
    ASSERT_EQ(((int32_t *)iron_tensor_data(c))[0], 9);
    ASSERT_FAILS(iron_jit_dump(j, NULL, IRON_NO_PARAMS, IRON_TENSORS(a, b, c),
                               NULL),
                 IRON_EINVAL, "text is NULL");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}
