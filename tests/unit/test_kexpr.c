/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_kexpr.c - declared kernel costs (src/kexpr): the expression
 * language's values, its compile-time errors with their columns, and
 * the per-call evaluation with its run-time refusals.
 */
#include "kexpr/kexpr.h"
#include "test.h"

/* A kernel "scale" declared "int16* in, int16* out, int32 n, int16 k,
 * float32 f, uint8" (the last unnamed). */
static const iron__kexpr_param params[] = {
    { "in", IRON_INT16, 1, NULL },
    { "out", IRON_INT16, 1, NULL },
    { "n", IRON_INT32, 0, NULL },
    { "k", IRON_INT16, 0, NULL },
    { "f", IRON_FLOAT32, 0, NULL },
    { NULL, IRON_UINT8, 0, NULL },
};
#define NPARAMS 6

/* The value of text with n, k and $5 given. */
static int64_t value_of(const char *text, int64_t n, int64_t k, int64_t u8)
{
    iron__kexpr *e = NULL;
    iron_status s = iron__kexpr_compile(text, "scale", NPARAMS, params, &e);
    if (s != IRON_OK)
        TEST_FAIL_("cycles \"%s\": %s", text, iron_last_error());
    iron_kernel_value v[NPARAMS] = { { 0 } };
    v[2].i = n;
    v[3].i = k;
    v[5].i = u8;
    int64_t c = -1;
    s = iron__kexpr_eval(e, v, &c);
    if (s != IRON_OK)
        TEST_FAIL_("cycles \"%s\" evaluated: %s", text, iron_last_error());
    iron__kexpr_free(e);
    return c;
}

TEST(kexpr_values_follow_c_arithmetic)
{
    ASSERT_EQ(value_of("5000", 0, 0, 0), 5000);
    ASSERT_EQ(value_of("  7 ", 0, 0, 0), 7);
    ASSERT_EQ(value_of("100 + 3 * n", 10, 0, 0), 130);
    ASSERT_EQ(value_of("(100 + 3) * n", 10, 0, 0), 1030);
    ASSERT_EQ(value_of("n / 16 * 9 + n % 16", 1030, 0, 0), 64 * 9 + 6);
    ASSERT_EQ(value_of("n - k - 1", 10, 3, 0), 6);     /* left to right */
    ASSERT_EQ(value_of("n / k / 2", 100, 5, 0), 10);
    ASSERT_EQ(value_of("-k + n", 10, 3, 0), 7);
    ASSERT_EQ(value_of("- -n", 10, 0, 0), 10);
    ASSERT_EQ(value_of("min(n, 64) * 2 + max(k, 1)", 100, 0, 0), 129);
    ASSERT_EQ(value_of("max (n,k)", 3, 9, 0), 9);
    ASSERT_EQ(value_of("$2 * $3 + $5", 4, 5, 6), 26);
    ASSERT_EQ(value_of("n*$2", 12, 0, 0), 144);
    /* Arguments read as their declared types: k is int16, $5 uint8. */
    ASSERT_EQ(value_of("k", 0, 70000, 0), 70000 - 65536);
    ASSERT_EQ(value_of("$5", 0, 0, 257), 1);
    /* A constant subformula folds, one with an argument does not. */
    iron__kexpr *e = NULL;
    ASSERT_OK(iron__kexpr_compile("(2 + 3) * 4 - min(10, 8)", "scale",
                                  NPARAMS, params, &e));
    int64_t v = 0;
    ASSERT_EQ(iron__kexpr_is_constant(e, &v), 1);
    ASSERT_EQ(v, 12);
    ASSERT_STR_EQ(iron__kexpr_text(e), "(2 + 3) * 4 - min(10, 8)");
    iron__kexpr *c = iron__kexpr_copy(e);
    ASSERT(c != NULL);
    iron__kexpr_free(e);
    ASSERT_EQ(iron__kexpr_is_constant(c, &v), 1);
    ASSERT_EQ(v, 12);
    iron__kexpr_free(c);
    ASSERT_OK(iron__kexpr_compile("n * 0", "scale", NPARAMS, params, &e));
    ASSERT_EQ(iron__kexpr_is_constant(e, NULL), 0);
    iron__kexpr_free(e);
}

/* text must fail to compile, with `needle` in the message. */
static void refused(const char *text, const char *needle)
{
    iron__kexpr *e = (iron__kexpr *)1;
    iron_status s = iron__kexpr_compile(text, "scale", NPARAMS, params, &e);
    if (s != IRON_EINVAL)
        TEST_FAIL_("cycles \"%s\": expected IRON_EINVAL, got %s (%s)", text,
                   iron_status_name(s), iron_last_error());
    ASSERT(e == NULL);
    ASSERT_CONTAINS(iron_last_error(), needle);
}

TEST(kexpr_refuses_bad_text_naming_the_column)
{
    refused("", "cycles \"\": empty");
    refused("   ", "empty");
    refused("-5", "cycles \"-5\" is -5; a declared cost is at least 0");
    refused("10 - 20", "is -10; a declared cost is at least 0");
    refused("3 +", "column 4: expected a number, an argument, '(' or min");
    refused("3 + * n", "column 5: expected a number");
    refused("(n + 1", "column 7: expected ')' to close the '(' at column 1, "
                      "got the end");
    refused("n )", "column 3: expected an operator (+ - * / %) or the end, "
                   "got ')'");
    refused("n 5", "column 3: expected an operator");
    refused("12abc", "column 3: expected an operator after the number, got "
                     "'abc'");
    refused("n # 2", "column 3: expected an operator");
    refused("min(n)", "column 6: expected ',' between min's two operands");
    refused("max(n, 2", "column 9: expected ')' to close the max( at "
                        "column 1");
    refused("$", "column 1: expected an argument's position after '$'");
    refused("$9", "column 1: $9: kernel 'scale' has 6 arguments ($0 .. $5)");
    /* Names: unknown (with the known ones and the closest), pointers,
     * floats. */
    refused("2 * m", "column 5: 'm' is not an argument of kernel 'scale' "
                     "(its named arguments: in, out, n, k, f; did you mean "
                     "'n'?)");
    refused("length", "'length' is not an argument of kernel 'scale' (its "
                     "named arguments: in, out, n, k, f)");
    refused("n + in", "column 5: argument 'in' ($0) is declared 'int16*', "
                      "not a scalar");
    refused("$1", "column 1: argument $1 ('out') is declared 'int16*', not "
                  "a scalar");
    refused("f * 2", "column 1: argument 'f' ($4) is declared 'float32', a "
                     "float");
    /* A handle is named as declared (no '*', though it is passed as a
     * pointer). */
    static const iron__kexpr_param handles[] = {
        { "f", IRON_INT8, 1, "fifo" }, { NULL, IRON_INT8, 0, "kernel(...)" },
    };
    iron__kexpr *e = (iron__kexpr *)1;
    ASSERT_FAILS(iron__kexpr_compile("f", "body", 2, handles, &e),
                 IRON_EINVAL, "column 1: argument 'f' ($0) is declared "
                              "'fifo', not a scalar");
    ASSERT_FAILS(iron__kexpr_compile("1 + $1", "body", 2, handles, &e),
                 IRON_EINVAL, "column 5: argument $1 is declared "
                              "'kernel(...)', not a scalar");
    ASSERT(e == NULL);
    ASSERT_FAILS(iron__kexpr_compile("n * 2", "noargs", 0, NULL, &e),
                 IRON_EINVAL, "column 1: 'n': kernel 'noargs' takes no "
                              "arguments, so its cost is a count");
    ASSERT_FAILS(iron__kexpr_compile("$0", "noargs", 0, NULL, &e),
                 IRON_EINVAL, "column 1: $0: kernel 'noargs' has 0 "
                              "arguments");
    /* Overflow and constant zero divisors. */
    refused("9223372036854775808", "column 1: the number overflows 64 bits");
}

TEST(kexpr_refuses_overflow_and_constant_zero_divisors)
{
    iron__kexpr *e = NULL;
    ASSERT_OK(iron__kexpr_compile("9223372036854775807", "scale", NPARAMS,
                                  params, &e));
    iron__kexpr_free(e);
    refused("n / 0", "column 3: division by a constant zero");
    refused("n % (2 - 2)", "column 3: remainder by a constant zero");
    refused("4611686018427387904 * 2", "column 21: 4611686018427387904 * "
                                       "2 overflows 64 bits");
}

TEST(kexpr_refuses_what_passes_the_limits)
{
    char text[IRON__KEXPR_TEXT_MAX + 2];
    memset(text, '1', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    refused(text, "characters; a declared cost has at most 1024");
    char deep[200] = "";
    for (int i = 0; i < 40; i++)
        strcat(deep, "(");
    strcat(deep, "n");
    refused(deep, "column 33: nested more than 32 deep");
    refused("n\n+ 1", "column 2: a line break");
    /* The stack, not the parentheses: 1+(1+(1+ ... 33 values pending. */
    char wide[400] = "";
    for (int i = 0; i < 33; i++)
        strcat(wide, "n+(");
    strcat(wide, "n");
    for (int i = 0; i < 33; i++)
        strcat(wide, ")");
    refused(wide, "nested more than 32 deep");
    iron__kexpr *e = (iron__kexpr *)1;
    ASSERT_FAILS(iron__kexpr_compile(NULL, "scale", 0, NULL, &e),
                 IRON_EINVAL, "text, kernel and out must be set");
    ASSERT(e == NULL);
}

/* text evaluated with n and k must be refused with needle. */
static void refused_at_run_time(const char *text, int64_t n, int64_t k,
                                const char *needle)
{
    iron__kexpr *e = NULL;
    ASSERT_OK(iron__kexpr_compile(text, "scale", NPARAMS, params, &e));
    iron_kernel_value v[NPARAMS] = { { 0 } };
    v[2].i = n;
    v[3].i = k;
    int64_t c = 42;
    iron_status s = iron__kexpr_eval(e, v, &c);
    iron__kexpr_free(e);
    if (s != IRON_EINVAL)
        TEST_FAIL_("cycles \"%s\" with n = %lld, k = %lld: expected "
                   "IRON_EINVAL, got %s (%lld)", text, (long long)n,
                   (long long)k, iron_status_name(s), (long long)c);
    ASSERT_EQ(c, 0);
    ASSERT_CONTAINS(iron_last_error(), needle);
}

TEST(kexpr_eval_refuses_negative_overflowing_and_zero_divisions)
{
    refused_at_run_time("100 - n", 128, 0,
                        "kernel 'scale': declared cycles \"100 - n\" is "
                        "-28, below 0, for this call (n = 128)");
    refused_at_run_time("n * k * 2", -3, 4, "is -24, below 0, for this call "
                                             "(n = -3, k = 4)");
    refused_at_run_time("n / k", 7, 0, "declared cycles \"n / k\" divides "
                                       "by zero for this call (n = 7, "
                                       "k = 0)");
    refused_at_run_time("n % $3", 7, 0, "takes a remainder by zero for this "
                                        "call (n = 7, k = 0)");
    refused_at_run_time("n + 9223372036854775807 + 1", 0, 0,
                        "overflows 64 bits (at 9223372036854775807 + 1) for "
                        "this call (n = 0)");
    refused_at_run_time("n * n * n * n", 2000000, 0, "overflows 64 bits (at "
                        "8000000000000000000 * 2000000)");
    int64_t c = 1;
    ASSERT_FAILS(iron__kexpr_eval(NULL, NULL, &c), IRON_EINVAL,
                 "the expression is NULL");
    ASSERT_EQ(c, 0);
}

/* Every prefix of valid formulas is refused or accepted without reading
 * past the text's end (ASan checks: each prefix is its own allocation). */
TEST(kexpr_prefixes_stay_inside_the_text)
{
    static const char *const whole[] = {
        "n * (2 + k) - min(n, max(k, 3)) / $2 % (1 + -k)",
        "((n))+$5*(k-(1))", "max ( n , ( k ) )",
    };
    for (size_t w = 0; w < sizeof whole / sizeof whole[0]; w++)
        for (size_t len = 0; len <= strlen(whole[w]); len++) {
            char *t = malloc(len + 1);
            ASSERT(t != NULL);
            memcpy(t, whole[w], len);
            t[len] = '\0';
            iron__kexpr *e = NULL;
            iron_status s = iron__kexpr_compile(t, "scale", NPARAMS, params,
                                                &e);
            ASSERT(s == IRON_OK || s == IRON_EINVAL);
            ASSERT((s == IRON_OK) == (e != NULL));
            iron__kexpr_free(e);
            free(t);
        }
}
