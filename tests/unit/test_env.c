/*
 * test_env.c - strict reading of IRON_* variables: a value the variable
 * does not accept is a warning naming it, never half-read.
 */
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "designs/designs.h"
#include "test.h"

TEST(env_parse_int_strict)
{
    int64_t v = 0;
    ASSERT_EQ(iron__parse_int("1000", 1, 5000, &v), 0);
    ASSERT_EQ(v, 1000);
    ASSERT_EQ(iron__parse_int("-3", -5, 5, &v), 0);
    ASSERT_EQ(v, -3);
    const char *bad[] = { "1e3", "", " 5", "5 ", "12abc", "0x10", "5000.0",
                          "99999999999999999999", "6000", "0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (iron__parse_int(bad[i], 1, 5000, &v) == 0)
            TEST_FAIL_("'%s' was accepted as %lld", bad[i], (long long)v);
}

TEST(env_parse_bytes_strict)
{
    uint64_t v = 0;
    ASSERT_EQ(iron__parse_bytes("4096", UINT64_MAX, &v), 0);
    ASSERT_EQ(v, 4096);
    ASSERT_EQ(iron__parse_bytes("64M", UINT64_MAX, &v), 0);
    ASSERT_EQ(v, 64ull << 20);
    ASSERT_EQ(iron__parse_bytes("2g", UINT64_MAX, &v), 0);
    ASSERT_EQ(v, 2ull << 30);
    const char *bad[] = { "1e400", "1e3", "-5", "", "M", "5MB", "1.5G",
                          "18446744073709551616", "17179869184G", "nan",
                          "inf" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (iron__parse_bytes(bad[i], UINT64_MAX, &v) == 0)
            TEST_FAIL_("'%s' was accepted as %llu", bad[i],
                       (unsigned long long)v);
}


TEST(env_bad_value_warns_and_defaults)
{
    test_catch_warnings();
    setenv("IRON_TIMEOUT_MS", "1e3", 1);
    ASSERT_EQ(iron__env_int("IRON_TIMEOUT_MS", 1, 1000000, 60000), 60000);
    ASSERT_CONTAINS(test_warning, "IRON_TIMEOUT_MS='1e3' is not an integer");
    ASSERT_CONTAINS(test_warning, "using 60000");
    test_warning[0] = '\0';
    setenv("IRON_CACHE_MAX", "1e400", 1);
    ASSERT_EQ(iron__env_bytes("IRON_CACHE_MAX", UINT64_MAX, 123), 123);
    ASSERT_CONTAINS(test_warning, "IRON_CACHE_MAX='1e400' is not a byte count");
    setenv("IRON_TIMEOUT_MS", "250", 1);
    ASSERT_EQ(iron__env_int("IRON_TIMEOUT_MS", 1, 1000000, 60000), 250);
    iron_set_log_handler(NULL, NULL);
}

/* atoi read "1e3" as 1 ms: a call of a few ms timed out. */
TEST(env_timeout_1e3_is_not_one_ms)
{
    setenv("IRON_TIMEOUT_MS", "1e3", 1);
    test_catch_warnings();
    iron_jit *j;
    iron_jit_options o = vector_op_options;
    o.disk_cache = -1;
    ASSERT_OK(iron_jit_create(&j, vector_op_design, &o));
    const int64_t n = 1 << 20;
    iron_tensor *a, *b, *c;
    ASSERT_OK(iron_tensor_randint(&a, IRON_INT32, IRON_SHAPE(n), -9, 9, 1));
    ASSERT_OK(iron_tensor_randint(&b, IRON_INT32, IRON_SHAPE(n), -9, 9, 2));
    ASSERT_OK(iron_tensor_zeros(&c, IRON_INT32, IRON_SHAPE(n)));
    for (int call = 0; call < 3; call++)
        ASSERT_OK(iron_jit_launch(j, NULL, IRON_NO_PARAMS, IRON_NO_SCALARS,
                                  IRON_TENSORS(a, b, c)));
    ASSERT_CONTAINS(test_warning, "IRON_TIMEOUT_MS='1e3'");
    iron_set_log_handler(NULL, NULL);
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_tensor_free(c);
    iron_jit_free(j);
}
