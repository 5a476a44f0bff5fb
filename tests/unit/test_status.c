/*
 * test_status.c - the status table (names, descriptions) and the
 * per-thread last-error message.
 */
#include <pthread.h>

#include "test.h"

TEST(status_names_cover_every_code)
{
    static const struct {
        iron_status s;
        const char *name, *text;
    } table[] = {
        { IRON_OK, "IRON_OK", "success" },
        { IRON_EINVAL, "IRON_EINVAL", "invalid argument" },
        { IRON_ENOMEM, "IRON_ENOMEM", "out of memory" },
        { IRON_EDTYPE, "IRON_EDTYPE", "wrong or unsupported dtype" },
        { IRON_ESHAPE, "IRON_ESHAPE", "wrong or unsupported shape" },
        { IRON_EDEVICE, "IRON_EDEVICE", "unknown or unusable device" },
        { IRON_EPARAM, "IRON_EPARAM", "bad compile-time parameter" },
        { IRON_EARG, "IRON_EARG", "call arguments do not match the design" },
        { IRON_EDESIGN, "IRON_EDESIGN", "malformed design" },
        { IRON_EBOUNDS, "IRON_EBOUNDS", "access pattern goes out of bounds" },
        { IRON_ERESOURCE, "IRON_ERESOURCE", "design does not fit the device" },
        { IRON_ECOMPILE, "IRON_ECOMPILE", "kernel compilation failed" },
        { IRON_ELOAD, "IRON_ELOAD", "loading a compiled object failed" },
        { IRON_EDEADLOCK, "IRON_EDEADLOCK",
          "the design stopped making progress" },
        { IRON_ETIMEOUT, "IRON_ETIMEOUT", "the run did not finish in time" },
        { IRON_ERUNTIME, "IRON_ERUNTIME", "run-time error on the device" },
        { IRON_EIO, "IRON_EIO", "input/output error" },
        { IRON_ESTATE, "IRON_ESTATE", "call not valid in this state" },
        { IRON_ENOTSUP, "IRON_ENOTSUP", "not supported" },
        { IRON_EKERNEL, "IRON_EKERNEL", "a kernel or core body faulted" },
        { IRON_EPENDING, "IRON_EPENDING", "the run is still going on" },
    };
    ASSERT_EQ(sizeof table / sizeof table[0], IRON_STATUS_COUNT_);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        ASSERT_EQ(table[i].s, i);
        ASSERT_STR_EQ(iron_status_name(table[i].s), table[i].name);
        ASSERT_STR_EQ(iron_strerror(table[i].s), table[i].text);
    }
}

TEST(status_unknown_values)
{
    ASSERT_STR_EQ(iron_status_name(IRON_STATUS_COUNT_), "IRON_UNKNOWN");
    ASSERT_STR_EQ(iron_status_name((iron_status)-1), "IRON_UNKNOWN");
    ASSERT_STR_EQ(iron_status_name((iron_status)1000), "IRON_UNKNOWN");
    ASSERT_STR_EQ(iron_strerror((iron_status)-1), "unknown status");
    ASSERT_STR_EQ(iron_strerror((iron_status)1000), "unknown status");
}

TEST(status_version)
{
    ASSERT_STR_EQ(iron_version(), IRON_VERSION_STRING);
    ASSERT_STR_EQ(IRON_VERSION_STRING, "0.1.0");
}

TEST(status_last_error_starts_empty)
{
    ASSERT_STR_EQ(iron_last_error(), "");
}

TEST(status_last_error_after_failure)
{
    iron_device *d = (iron_device *)&d;
    ASSERT_EQ(iron_device_get("npu9", &d), IRON_EDEVICE);
    ASSERT(d == NULL);
    ASSERT_CONTAINS(iron_last_error(), "unknown device 'npu9'");
    ASSERT_CONTAINS(iron_last_error(), "npu2_7col");

    /* A later failure replaces the message. */
    iron_dtype dt;
    ASSERT_EQ(iron_dtype_parse("complex64", &dt), IRON_EDTYPE);
    ASSERT_CONTAINS(iron_last_error(), "complex64");
    ASSERT(strstr(iron_last_error(), "npu9") == NULL);
}

static void *other_thread_error(void *arg)
{
    /* The main thread failed; this thread has seen no failure. */
    return strcmp(iron_last_error(), "") == 0 ? NULL : arg;
}

TEST(status_last_error_is_per_thread)
{
    iron_tensor *t;
    ASSERT_EQ(iron_tensor_zeros(&t, IRON_INT32, IRON_SHAPE(0)), IRON_ESHAPE);
    ASSERT_CONTAINS(iron_last_error(), "dim 0 is 0");
    pthread_t th;
    static int token;
    void *res = &token;
    ASSERT_EQ(pthread_create(&th, NULL, other_thread_error, &token), 0);
    ASSERT_EQ(pthread_join(th, &res), 0);
    ASSERT(res == NULL);
    ASSERT_CONTAINS(iron_last_error(), "dim 0 is 0");
}
