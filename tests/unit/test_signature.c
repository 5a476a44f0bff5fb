/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_signature.c - parsing a jit's argument and parameter declarations
 * (the parsed form, read through the internal header).
 */
#include "jit/jit.h"
#include "test.h"

static int noop_design(iron_design *d, void *user)
{
    (void)d;
    (void)user;
    return 0;
}

static iron_status make(iron_jit **j, const char *args, const char *params)
{
    iron_jit_options o = { .size = sizeof o, .name = "sig", .args = args,
                           .params = params };
    return iron_jit_create(noop_design, &o, j);
}

TEST(signature_args_roles_and_types)
{
    iron_jit *j;
    ASSERT_OK(make(&j, " in a : T[N] ,inout b: int16[4, M], out c", NULL));
    ASSERT_EQ(j->nargs, 3);
    ASSERT_STR_EQ(j->args[0].name, "a");
    ASSERT_EQ(j->args[0].role, IRON__ROLE_IN);
    ASSERT_STR_EQ(j->args[0].dtype_var, "T");
    ASSERT_EQ(j->args[0].ndims, 1);
    ASSERT_EQ(j->args[0].dims[0].is_var, 1);
    ASSERT_STR_EQ(j->args[0].dims[0].var, "N");
    ASSERT_EQ(j->args[1].role, IRON__ROLE_INOUT);
    ASSERT(j->args[1].dtype_var == NULL);
    ASSERT_EQ(j->args[1].dtype, IRON_INT16);
    ASSERT_EQ(j->args[1].ndims, 2);
    ASSERT_EQ(j->args[1].dims[0].value, 4);
    ASSERT_STR_EQ(j->args[1].dims[1].var, "M");
    ASSERT_EQ(j->args[2].role, IRON__ROLE_OUT);
    ASSERT_EQ(j->args[2].has_type, 0);
    ASSERT_EQ(j->args[2].ndims, -1);
    ASSERT_EQ(j->nparams, 0);
    iron_jit_free(j);
}

TEST(signature_params_types_and_defaults)
{
    iron_jit *j;
    ASSERT_OK(make(&j, "in a",
                   "n: int, tile: int = 0x10, scale: float = -1.5e2, "
                   "relu: bool = true, op: str = \"-\", name: str = '', "
                   "T: dtype = bf16"));
    ASSERT_EQ(j->nparams, 7);
    ASSERT_EQ(j->params[0].has_default, 0);
    ASSERT_EQ(j->params[1].def.i, 16);
    ASSERT_DBL_NEAR(j->params[2].def.f, -150.0, 0);
    ASSERT_EQ(j->params[3].def.i, 1);
    ASSERT_STR_EQ(j->params[4].def.s, "-");
    ASSERT_STR_EQ(j->params[5].def.s, "");
    ASSERT_EQ(j->params[6].type, IRON_PARAM_DTYPE);
    ASSERT_EQ(j->params[6].def.dtype, IRON_BFLOAT16);
    iron__str s = { 0 };
    for (int i = 1; i < 7; i++) {
        iron__pval_format(&j->params[i].def, &s);
        iron__str_append(&s, "|");
    }
    ASSERT_STR_EQ(iron__str_get(&s), "16|-150|true|'-'|''|bfloat16|");
    iron__str_free(&s);
    iron_jit_free(j);
}

TEST(signature_errors_name_the_item)
{
    iron_jit *j;
    ASSERT_FAILS(make(&j, "", NULL), IRON_EINVAL, "empty");
    ASSERT_FAILS(make(&j, "input a", NULL), IRON_EINVAL,
                 "role 'input'; expected in, out or inout");
    ASSERT_FAILS(make(&j, "in", NULL), IRON_EINVAL, "an argument name");
    ASSERT_FAILS(make(&j, "in a, out a", NULL), IRON_EINVAL,
                 "'a' is declared twice");
    ASSERT_FAILS(make(&j, "in a: int32[0]", NULL), IRON_EINVAL,
                 "a dimension >= 1");
    ASSERT_FAILS(make(&j, "in a: int32[4", NULL), IRON_EINVAL, "']'");
    ASSERT_FAILS(make(&j, "in a: [4]", NULL), IRON_EINVAL,
                 "a dtype or type variable");
    ASSERT_FAILS(make(&j, "in a b", NULL), IRON_EINVAL, "',' or the end");
    ASSERT_FAILS(make(&j, "in a", "n: integer"), IRON_EINVAL,
                 "type 'integer'");
    ASSERT_FAILS(make(&j, "in a", "n int"), IRON_EINVAL, "':'");
    ASSERT_FAILS(make(&j, "in a", "n: int = x"), IRON_EINVAL,
                 "an integer default");
    ASSERT_FAILS(make(&j, "in a", "b: bool = yes"), IRON_EINVAL,
                 "true or false");
    ASSERT_FAILS(make(&j, "in a", "s: str = 'open"), IRON_EINVAL,
                 "closing quote");
    ASSERT_FAILS(make(&j, "in a", "t: dtype = int33"), IRON_EINVAL,
                 "a dtype name");
    ASSERT_FAILS(make(&j, "in a", "n: int, n: float"), IRON_EINVAL,
                 "'n' is declared twice");
    ASSERT(j == NULL);
}

TEST(signature_alloc_failures_are_clean)
{
    for (long n = 1; n < 500; n++) {
        iron_jit *j = (iron_jit *)1;
        iron__alloc_fail_at(n);
        iron_status s = make(&j, "in a: T[N], out b: T[N]",
                             "tile: int = 16, op: str = '+'");
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            iron_jit_free(j);
            return;
        }
        ASSERT_EQ(s, IRON_ENOMEM);
        ASSERT(j == NULL);
    }
    TEST_FAIL_("iron_jit_create never succeeded");
}
