/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_device.c - the built-in device models, lookup, the default device,
 * per-thread scopes, $IRON_DEVICE, driver registration and the driver
 * wrappers.
 */
#include <pthread.h>

#include "core/core.h"
#include "device/builtin.h"
#include "device/device.h"
#include "iron/iron_driver.h"
#include "test.h"

static const char *const builtin_names[] = {
    "npu1",      "npu1_1col", "npu1_2col", "npu1_3col",
    "npu2",      "npu2_1col", "npu2_2col", "npu2_3col",
    "npu2_4col", "npu2_5col", "npu2_6col", "npu2_7col",
};
static const int builtin_columns[] = { 4, 1, 2, 3, 8, 1, 2, 3, 4, 5, 6, 7 };
#define NBUILTIN ((int)(sizeof builtin_names / sizeof builtin_names[0]))

static const char known_list[] =
    "known devices: npu1, npu1_1col, npu1_2col, npu1_3col, npu2, "
    "npu2_1col, npu2_2col, npu2_3col, npu2_4col, npu2_5col, npu2_6col, "
    "npu2_7col";

static const char *current_name(void)
{
    iron_device *d = NULL;
    ASSERT_OK(iron_device_get_current(&d));
    return iron_device_name(d);
}

static void check_tile(const iron_tile_info *t, uint32_t mem, uint32_t stack,
                       int locks, int bds, int in, int out)
{
    ASSERT_EQ(t->memory_bytes, mem);
    ASSERT_EQ(t->stack_bytes, stack);
    ASSERT_EQ(t->locks, locks);
    ASSERT_EQ(t->buffer_descriptors, bds);
    ASSERT_EQ(t->dma_in, in);
    ASSERT_EQ(t->dma_out, out);
}

/* ------------------------------------------------------------------------
 * Built-in models and lookup
 * ------------------------------------------------------------------------ */

TEST(device_builtin_models)
{
    ASSERT_EQ(iron_device_count(), NBUILTIN);
    for (int i = 0; i < NBUILTIN; i++) {
        iron_device *d = NULL;
        iron_device_info info;
        memset(&info, 0xAB, sizeof info);
        info.size = sizeof info;
        ASSERT_OK(iron_device_get(builtin_names[i], &d));
        ASSERT(d == iron_device_at(i));
        ASSERT_STR_EQ(iron_device_name(d), builtin_names[i]);
        ASSERT_OK(iron_device_get_info(d, &info));
        ASSERT_EQ(info.size, sizeof info);
        ASSERT_STR_EQ(info.name, builtin_names[i]);
        int npu1 = builtin_names[i][3] == '1';
        ASSERT_STR_EQ(info.arch, npu1 ? "aie2" : "aie2p");
        ASSERT_STR_EQ(info.family, npu1 ? "npu1" : "npu2");
        ASSERT_STR_EQ(info.driver, "emulator");
        ASSERT_EQ(info.columns, builtin_columns[i]);
        ASSERT_EQ(info.rows, 6);
        ASSERT_EQ(info.compute_rows, 4);
        ASSERT_EQ(info.compute_tiles, 4 * builtin_columns[i]);
        ASSERT_EQ(info.lock_max_value, 63);
        check_tile(&info.compute, 64 * 1024, 1024, 16, 16, 2, 2);
        check_tile(&info.memtile, 512 * 1024, 0, 64, 48, 6, 6);
        check_tile(&info.shim, 0, 0, 16, 16, 2, 2);
    }
    ASSERT(iron_device_at(-1) == NULL);
    ASSERT(iron_device_at(NBUILTIN) == NULL);
    ASSERT(iron_device_name(NULL) == NULL);
}

/* The registry knows built-in drivers only through the table; the
 * emulator registers its devices as any driver would. */
TEST(device_builtin_driver_table)
{
    ASSERT_EQ(iron__nbuiltin_drivers, 1);
    ASSERT_STR_EQ(iron__builtin_drivers[0].name, "emulator");
    ASSERT(iron__builtin_drivers[0].register_fn != NULL);
    ASSERT_EQ(iron_device_count(), NBUILTIN);
    /* Registering again finds every name taken and adds nothing. */
    ASSERT_FAILS(iron__builtin_drivers[0].register_fn(), IRON_EINVAL,
                 "emulator: device 'npu1': iron_driver_register: device "
                 "name 'npu1' is already taken");
    ASSERT_EQ(iron_device_count(), NBUILTIN);
}

/* A test's allocation fault injection never reaches the one-time
 * registration of the built-in drivers, and does not count it. */
TEST(device_builtins_ignore_alloc_fault_injection)
{
    iron__alloc_fail_at(1);
    int n = iron_device_count();   /* the registry's first use */
    long allocs = iron__alloc_fail_at(0);
    ASSERT_EQ(n, NBUILTIN);
    ASSERT_EQ(allocs, 0);
    ASSERT_STR_EQ(iron_device_name(iron_device_at(0)), "npu1");
}

TEST(device_whole_arrays)
{
    iron_device *d;
    iron_device_info info = { .size = sizeof info };
    ASSERT_OK(iron_device_get("npu1", &d));
    ASSERT_OK(iron_device_get_info(d, &info));
    ASSERT_EQ(info.compute_tiles, 16);
    ASSERT_OK(iron_device_get("npu2", &d));
    ASSERT_OK(iron_device_get_info(d, &info));
    ASSERT_EQ(info.compute_tiles, 32);
}

TEST(device_unknown_name_lists_known)
{
    iron_device *d = (iron_device *)(uintptr_t)1;
    ASSERT_FAILS(iron_device_get("npu3", &d), IRON_EDEVICE,
                 "unknown device 'npu3'; ");
    ASSERT_CONTAINS(iron_last_error(), known_list);
    ASSERT(d == NULL);
    ASSERT_FAILS(iron_device_get("", &d), IRON_EDEVICE, "unknown device ''");
    ASSERT_FAILS(iron_device_get("NPU1", &d), IRON_EDEVICE, "'NPU1'");
    ASSERT_FAILS(iron_device_get(NULL, &d), IRON_EINVAL, "name is NULL");
    ASSERT_FAILS(iron_device_get("npu1", NULL), IRON_EINVAL, "out is NULL");
}

TEST(device_query_errors)
{
    iron_device *d;
    iron_device_info info = { .size = sizeof info - 1 };
    ASSERT_OK(iron_device_get("npu1", &d));
    ASSERT_FAILS(iron_device_get_info(d, &info), IRON_EINVAL,
                 "info->size is");
    info.size = 0;
    ASSERT_FAILS(iron_device_get_info(d, &info), IRON_EINVAL,
                 "info->size is 0");
    info.size = sizeof info;
    ASSERT_FAILS(iron_device_get_info(NULL, &info), IRON_EINVAL,
                 "device is NULL");
    ASSERT_FAILS(iron_device_get_info(d, NULL), IRON_EINVAL, "info is NULL");
}

/* ------------------------------------------------------------------------
 * Default device and $IRON_DEVICE
 * ------------------------------------------------------------------------ */

TEST(device_default_set_get)
{
    unsetenv("IRON_DEVICE");
    ASSERT_STR_EQ(iron_device_name(iron_device_default()), "npu2");
    ASSERT_STR_EQ(current_name(), "npu2");
    ASSERT_OK(iron_device_set_default("npu1_1col"));
    ASSERT_STR_EQ(iron_device_name(iron_device_default()), "npu1_1col");
    ASSERT_STR_EQ(current_name(), "npu1_1col");
    /* A bad name fails and leaves the default alone. */
    ASSERT_FAILS(iron_device_set_default("tpu"), IRON_EDEVICE,
                 "unknown device 'tpu'");
    ASSERT_CONTAINS(iron_last_error(), "iron_device_set_default");
    ASSERT_STR_EQ(current_name(), "npu1_1col");
    /* NULL clears it. */
    ASSERT_OK(iron_device_set_default(NULL));
    ASSERT_STR_EQ(current_name(), "npu2");
    ASSERT_FAILS(iron_device_get_current(NULL), IRON_EINVAL, "out is NULL");
}

TEST(device_env_fallback)
{
    setenv("IRON_DEVICE", "npu1_3col", 1);
    ASSERT_STR_EQ(current_name(), "npu1_3col");
    ASSERT_STR_EQ(iron_device_name(iron_device_default()), "npu1_3col");

    /* The explicit default wins over the environment, a scope over both. */
    ASSERT_OK(iron_device_set_default("npu2_2col"));
    ASSERT_STR_EQ(current_name(), "npu2_2col");
    ASSERT_OK(iron_device_push("npu1"));
    ASSERT_STR_EQ(current_name(), "npu1");
    ASSERT_OK(iron_device_pop());
    ASSERT_OK(iron_device_set_default(NULL));

    setenv("IRON_DEVICE", "gpu0", 1);
    iron_device *d = (iron_device *)(uintptr_t)1;
    ASSERT_FAILS(iron_device_get_current(&d), IRON_EDEVICE,
                 "$IRON_DEVICE is 'gpu0', which is not a known device");
    ASSERT_CONTAINS(iron_last_error(), known_list);
    ASSERT(d == NULL);
    ASSERT(iron_device_default() == NULL);
    iron_tensor *t = (iron_tensor *)(uintptr_t)1;
    ASSERT_FAILS(iron_tensor_zeros(IRON_INT32, IRON_SHAPE(4), &t),
                 IRON_EDEVICE, "iron_tensor_zeros: $IRON_DEVICE is 'gpu0'");
    ASSERT(t == NULL);

    /* Empty means unset. */
    setenv("IRON_DEVICE", "", 1);
    ASSERT_STR_EQ(current_name(), "npu2");
}

/* ------------------------------------------------------------------------
 * Scopes
 * ------------------------------------------------------------------------ */

TEST(device_scope_nesting)
{
    unsetenv("IRON_DEVICE");
    ASSERT_OK(iron_device_push("npu1"));
    ASSERT_STR_EQ(current_name(), "npu1");
    ASSERT_OK(iron_device_push("npu2_3col"));
    ASSERT_STR_EQ(current_name(), "npu2_3col");
    ASSERT_OK(iron_device_pop());
    ASSERT_STR_EQ(current_name(), "npu1");
    ASSERT_OK(iron_device_pop());
    ASSERT_STR_EQ(current_name(), "npu2");
    ASSERT_FAILS(iron_device_pop(), IRON_ESTATE, "no device scope is open");
}

TEST(device_scope_macro)
{
    unsetenv("IRON_DEVICE");
    IRON_WITH_DEVICE("npu1_2col") {
        ASSERT_STR_EQ(current_name(), "npu1_2col");
        IRON_WITH_DEVICE("npu2_5col") {
            ASSERT_STR_EQ(current_name(), "npu2_5col");
        }
        ASSERT_STR_EQ(current_name(), "npu1_2col");
    }
    ASSERT_STR_EQ(current_name(), "npu2");
}

TEST(device_scope_bad_name)
{
    unsetenv("IRON_DEVICE");
    ASSERT_OK(iron_device_set_default("npu1"));
    ASSERT_FAILS(iron_device_push("xyz"), IRON_EDEVICE,
                 "unknown device 'xyz'");
    /* Calls inside the bad scope fail instead of running on the default. */
    iron_device *d = (iron_device *)(uintptr_t)1;
    ASSERT_FAILS(iron_device_get_current(&d), IRON_EDEVICE,
                 "scoped device 'xyz' is unknown; known devices: npu1");
    ASSERT(d == NULL);
    iron_tensor *t;
    ASSERT_FAILS(iron_tensor_ones(IRON_INT8, IRON_SHAPE(2), &t), IRON_EDEVICE,
                 "scoped device 'xyz' is unknown");
    /* A good scope inside a bad one is fine; popping it exposes the bad. */
    ASSERT_OK(iron_device_push("npu2_1col"));
    ASSERT_STR_EQ(current_name(), "npu2_1col");
    ASSERT_OK(iron_device_pop());
    ASSERT_EQ(iron_device_get_current(&d), IRON_EDEVICE);
    /* The bad push still pairs with a pop. */
    ASSERT_OK(iron_device_pop());
    ASSERT_STR_EQ(current_name(), "npu1");
    ASSERT_EQ(iron_device_pop(), IRON_ESTATE);

    ASSERT_FAILS(iron_device_push(NULL), IRON_EINVAL, "name is NULL");
    ASSERT_FAILS(iron_device_get_current(&d), IRON_EDEVICE,
                 "scoped device '(null)'");
    ASSERT_OK(iron_device_pop());
}

TEST(device_scope_overflow)
{
    unsetenv("IRON_DEVICE");
    char name[16];
    for (int i = 0; i < 16; i++) {
        snprintf(name, sizeof name, "npu2_%dcol", 1 + i % 7);
        ASSERT_OK(iron_device_push(name));
    }
    ASSERT_STR_EQ(current_name(), "npu2_2col");   /* 1 + 15 % 7 */
    ASSERT_FAILS(iron_device_push("npu1"), IRON_ESTATE,
                 "nest at most 16 deep");
    iron_device *d;
    ASSERT_FAILS(iron_device_get_current(&d), IRON_ESTATE, "nested 17 deep");
    /* The failed push is still popped, and the 16 below it survive. */
    ASSERT_OK(iron_device_pop());
    ASSERT_STR_EQ(current_name(), "npu2_2col");
    for (int i = 0; i < 16; i++)
        ASSERT_OK(iron_device_pop());
    ASSERT_STR_EQ(current_name(), "npu2");
    ASSERT_EQ(iron_device_pop(), IRON_ESTATE);
}

typedef struct thread_view {
    char before[32], inside[32];
} thread_view;

static void *scope_thread(void *arg)
{
    thread_view *v = arg;
    iron_device *d = NULL;
    if (iron_device_get_current(&d) == IRON_OK)
        snprintf(v->before, sizeof v->before, "%s", iron_device_name(d));
    if (iron_device_push("npu2_6col") == IRON_OK &&
        iron_device_get_current(&d) == IRON_OK)
        snprintf(v->inside, sizeof v->inside, "%s", iron_device_name(d));
    iron_device_pop();
    return NULL;
}

TEST(device_scope_is_per_thread)
{
    unsetenv("IRON_DEVICE");
    thread_view v = { "", "" };
    pthread_t th;
    ASSERT_OK(iron_device_push("npu1"));
    ASSERT_EQ(pthread_create(&th, NULL, scope_thread, &v), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    /* The other thread did not see npu1, and its scope did not leak here. */
    ASSERT_STR_EQ(v.before, "npu2");
    ASSERT_STR_EQ(v.inside, "npu2_6col");
    ASSERT_STR_EQ(current_name(), "npu1");
    ASSERT_OK(iron_device_pop());
}

TEST(device_default_is_process_wide)
{
    unsetenv("IRON_DEVICE");
    thread_view v = { "", "" };
    pthread_t th;
    ASSERT_OK(iron_device_set_default("npu1_3col"));
    ASSERT_EQ(pthread_create(&th, NULL, scope_thread, &v), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_STR_EQ(v.before, "npu1_3col");
}

static void *lookup_thread(void *arg)
{
    iron_device **out = arg;
    for (int i = 0; i < 1000; i++)
        if (iron_device_get("npu2_4col", out) != IRON_OK)
            return (void *)1;
    return NULL;
}

/* First use from many threads at once: the built-ins appear exactly once. */
TEST(device_concurrent_first_use)
{
    enum { N = 8 };
    pthread_t th[N];
    iron_device *got[N] = { 0 };
    for (int i = 0; i < N; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, lookup_thread, &got[i]), 0);
    for (int i = 0; i < N; i++) {
        void *res = (void *)2;
        ASSERT_EQ(pthread_join(th[i], &res), 0);
        ASSERT(res == NULL);
        ASSERT(got[i] != NULL && got[i] == got[0]);
    }
    ASSERT_EQ(iron_device_count(), NBUILTIN);
}

/* ------------------------------------------------------------------------
 * Registering a driver
 * ------------------------------------------------------------------------ */

static struct {
    int allocs, frees, syncs;
    size_t last_nbytes;
    int fail_alloc;
    unsigned char mem[4096];
} fake;

static iron_status fake_buf_alloc(iron_driver *drv, size_t nbytes,
                                  void **host, void **handle)
{
    (void)drv;
    if (fake.fail_alloc || nbytes > sizeof fake.mem)
        return iron__fail(IRON_ENOMEM, "fake: no room for %zu bytes", nbytes);
    fake.allocs++;
    fake.last_nbytes = nbytes;
    memset(fake.mem, 0, nbytes);
    *host = fake.mem;
    *handle = &fake;
    return IRON_OK;
}

static void fake_buf_free(iron_driver *drv, void *host, void *handle)
{
    (void)drv;
    if (host == fake.mem && handle == &fake)
        fake.frees++;
}

static iron_status fake_buf_sync(iron_driver *drv, void *host, void *handle,
                                 size_t nbytes, iron_sync_dir dir)
{
    (void)drv, (void)host, (void)handle, (void)nbytes, (void)dir;
    fake.syncs++;
    return IRON_OK;
}

static iron_status fake_load(iron_driver *drv, const iron_device_info *dev,
                             const iron_program *prog, void **loaded)
{
    (void)drv, (void)dev, (void)prog;
    *loaded = &fake;
    return IRON_OK;
}

static iron_status fake_run(iron_driver *drv, void *loaded,
                            const iron_run_args *args,
                            enum iron_run_state *state)
{
    (void)drv, (void)loaded, (void)args;
    *state = IRON_RUN_COMPLETED;
    return IRON_OK;
}

static void fake_unload(iron_driver *drv, void *loaded)
{
    (void)drv, (void)loaded;
}

static iron_driver fake_driver(void)
{
    iron_driver d = {
        .abi_version = IRON_DRIVER_ABI,
        .size = sizeof(iron_driver),
        .name = "fakedrv",
        .buf_alloc = fake_buf_alloc,
        .buf_free = fake_buf_free,
        .buf_sync = fake_buf_sync,
        .load = fake_load,
        .run = fake_run,
        .unload = fake_unload,
    };
    return d;
}

static iron_device_info fake_info(const char *name)
{
    iron_device_info info = {
        .size = sizeof(iron_device_info),
        .name = name,
        .arch = "aie2",
        .family = "fake",
        .driver = "ignored",
        .columns = 2,
        .rows = 6,
        .compute_rows = 4,
        .compute_tiles = 999,   /* recomputed by the registry */
        .lock_max_value = 63,
    };
    return info;
}

TEST(driver_register_validation)
{
    static iron_driver drv;
    iron_device_info info = fake_info("fake1");

    ASSERT_FAILS(iron_driver_register(NULL, &info), IRON_EINVAL,
                 "drv is NULL");
    drv = fake_driver();
    drv.abi_version = 3;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "drv->abi_version is 3; this library speaks "
                 "IRON_DRIVER_ABI 2");
    /* A driver of ABI 1 reports the states' old numbers. */
    drv.abi_version = 1;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "drv->abi_version is 1; this library speaks "
                 "IRON_DRIVER_ABI 2 (since 0.4 a run's state has XRT's "
                 "numbers: rebuild the driver against this iron_driver.h)");
    drv = fake_driver();
    drv.size = 8;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "drv.size is 8; expected at least");
    drv = fake_driver();
    drv.name = NULL;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "drv->name is NULL");
    drv = fake_driver();
    drv.name = "";
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "drv->name is empty");

    static const char *const ops[] = { "buf_alloc", "buf_free", "buf_sync",
                                       "load", "run", "unload" };
    for (int k = 0; k < 6; k++) {
        drv = fake_driver();
        switch (k) {
        case 0: drv.buf_alloc = NULL; break;
        case 1: drv.buf_free = NULL; break;
        case 2: drv.buf_sync = NULL; break;
        case 3: drv.load = NULL; break;
        case 4: drv.run = NULL; break;
        default: drv.unload = NULL; break;
        }
        char needle[64];
        snprintf(needle, sizeof needle, "drv->%s is NULL", ops[k]);
        ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL, needle);
        ASSERT_CONTAINS(iron_last_error(), "driver 'fakedrv'");
    }

    drv = fake_driver();
    ASSERT_FAILS(iron_driver_register(&drv, NULL), IRON_EINVAL,
                 "info is NULL");
    info.size = 4;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "info->size is 4");
    info = fake_info(NULL);
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "info->name is NULL");
    info = fake_info("has space");
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "info->name 'has space' has ' ' at position 3");
    info = fake_info("a,b");
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL, "',' at");
    info = fake_info("npu1");
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "device name 'npu1' is already taken");
    info = fake_info("fake1");
    info.columns = 0;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "device 'fake1': columns is 0");
    info = fake_info("fake1");
    info.compute_rows = 7;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "compute_rows is 7 with rows 6");
    info = fake_info("fake1");
    info.lock_max_value = 0;
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "lock_max_value is 0");
    ASSERT_EQ(iron_device_count(), NBUILTIN);
}

TEST(driver_register_and_allocate)
{
    static iron_driver drv;
    drv = fake_driver();
    char name[] = "fake0";
    iron_device_info info = fake_info(name);
    ASSERT_OK(iron_driver_register(&drv, &info));
    /* The registry copied the name. */
    name[0] = 'X';
    ASSERT_EQ(iron_device_count(), NBUILTIN + 1);
    iron_device *dev = iron_device_at(NBUILTIN);
    ASSERT_STR_EQ(iron_device_name(dev), "fake0");
    iron_device *got;
    ASSERT_OK(iron_device_get("fake0", &got));
    ASSERT(got == dev);
    iron_device_info q = { .size = sizeof q };
    ASSERT_OK(iron_device_get_info(dev, &q));
    ASSERT_STR_EQ(q.driver, "fakedrv");
    ASSERT_STR_EQ(q.family, "fake");
    ASSERT_EQ(q.compute_tiles, 8);
    ASSERT_EQ(q.columns, 2);

    /* The listed names now include it. */
    ASSERT_EQ(iron_device_get("nope", &got), IRON_EDEVICE);
    ASSERT_CONTAINS(iron_last_error(), "npu2_7col, fake0");

    iron_device_info again = fake_info("fake0");
    ASSERT_FAILS(iron_driver_register(&drv, &again), IRON_EINVAL,
                 "'fake0' is already taken");
    ASSERT_EQ(iron_device_count(), NBUILTIN + 1);

    iron_tensor *t = NULL;
    IRON_WITH_DEVICE("fake0") {
        t = test_arange_shape(IRON_INT32, IRON_SHAPE(8, 2), 0, 1);
    }
    ASSERT(iron_tensor_device(t) == dev);
    ASSERT_EQ(fake.allocs, 1);
    ASSERT_EQ(fake.last_nbytes, 64);
    ASSERT(iron_tensor_data(t) == (void *)fake.mem);
    int32_t v15;
    memcpy(&v15, fake.mem + 60, 4);
    ASSERT_EQ(v15, 15);
    ASSERT_OK(iron_tensor_sync(t, IRON_SYNC_TO_DEVICE));
    ASSERT_EQ(fake.syncs, 1);
    iron_tensor_free(t);
    ASSERT_EQ(fake.frees, 1);

    /* A driver's allocation failure reaches the caller with the device's
     * name in front of the driver's own message. */
    fake.fail_alloc = 1;
    IRON_WITH_DEVICE("fake0") {
        t = (iron_tensor *)(uintptr_t)1;
        ASSERT_FAILS(iron_tensor_zeros(IRON_INT8, IRON_SHAPE(16), &t),
                     IRON_ENOMEM,
                     "iron_tensor_zeros: device 'fake0': allocating 16 "
                     "bytes: fake: no room for 16 bytes");
        ASSERT(t == NULL);
    }
    ASSERT_EQ(fake.frees, 1);
}

TEST(driver_register_alloc_failure)
{
    static iron_driver drv;
    drv = fake_driver();
    iron_device_info info = fake_info("fake2");
    iron__alloc_fail_at(1);
    iron_status s = iron_driver_register(&drv, &info);
    iron__alloc_fail_at(0);
    ASSERT_EQ(s, IRON_ENOMEM);
    ASSERT_CONTAINS(iron_last_error(), "out of memory for device 'fake2'");
    ASSERT_EQ(iron_device_count(), NBUILTIN);
    ASSERT_OK(iron_driver_register(&drv, &info));
    ASSERT_EQ(iron_device_count(), NBUILTIN + 1);
}

TEST(driver_register_table_full)
{
    static iron_driver drv;
    drv = fake_driver();
    char name[32];
    int room = IRON__MAX_DEVICES - NBUILTIN;
    for (int i = 0; i < room; i++) {
        snprintf(name, sizeof name, "many%d", i);
        iron_device_info info = fake_info(name);
        ASSERT_OK(iron_driver_register(&drv, &info));
    }
    iron_device_info info = fake_info("onemore");
    ASSERT_FAILS(iron_driver_register(&drv, &info), IRON_EINVAL,
                 "device table is full");
    ASSERT_EQ(iron_device_count(), IRON__MAX_DEVICES);
}

/* ------------------------------------------------------------------------
 * The driver wrappers
 * ------------------------------------------------------------------------ */

TEST(driver_wrappers_check_arguments)
{
    static iron_driver drv;
    drv = fake_driver();
    iron_device_info info = fake_info("fake3");
    ASSERT_OK(iron_driver_register(&drv, &info));
    iron_device *dev;
    ASSERT_OK(iron_device_get("fake3", &dev));

    void *host = &host, *handle = &handle, *loaded = &loaded;
    ASSERT_FAILS(iron__drv_buf_alloc(NULL, 8, &host, &handle), IRON_EINVAL,
                 "device is NULL");
    ASSERT(host == NULL && handle == NULL);
    ASSERT_FAILS(iron__drv_buf_alloc(dev, 0, &host, &handle), IRON_EINVAL,
                 "buf_alloc of 0 bytes");
    ASSERT_FAILS(iron__drv_buf_alloc(dev, 8, NULL, &handle), IRON_EINVAL,
                 "host is NULL");
    ASSERT_FAILS(iron__drv_buf_sync(dev, NULL, NULL, 8, IRON_SYNC_TO_HOST),
                 IRON_EINVAL, "host is NULL");
    iron__drv_buf_free(dev, NULL, NULL);
    iron__drv_buf_free(NULL, fake.mem, &fake);
    ASSERT_EQ(fake.frees, 0);

    ASSERT_FAILS(iron__drv_load(dev, NULL, &loaded), IRON_EINVAL,
                 "program is NULL");
    ASSERT(loaded == NULL);

    enum iron_run_state st = IRON_RUN_COMPLETED;
    void *hosts[1] = { fake.mem }, *handles[1] = { &fake };
    size_t sizes[1] = { 16 };
    iron_run_args args = { .size = sizeof args, .nargs = 1, .host = hosts,
                           .handle = handles, .nbytes = sizes,
                           .timeout_ms = 1000 };
    ASSERT_FAILS(iron__drv_run(dev, NULL, &args, &st), IRON_EINVAL,
                 "loaded program is NULL");
    ASSERT_EQ(st, IRON_RUN_ERROR);
    args.timeout_ms = 0;
    ASSERT_FAILS(iron__drv_run(dev, &fake, &args, &st), IRON_EINVAL,
                 "timeout_ms is 0");
    args.timeout_ms = 1000;
    args.size = 4;
    ASSERT_FAILS(iron__drv_run(dev, &fake, &args, &st), IRON_EINVAL,
                 "args->size is 4");
    args.size = sizeof args;
    args.host = NULL;
    ASSERT_FAILS(iron__drv_run(dev, &fake, &args, &st), IRON_EINVAL,
                 "nargs is 1 but");
    args.host = hosts;
    ASSERT_OK(iron__drv_run(dev, &fake, &args, &st));
    ASSERT_EQ(st, IRON_RUN_COMPLETED);
    iron__drv_unload(dev, NULL);
    iron__drv_unload(NULL, &fake);
}
