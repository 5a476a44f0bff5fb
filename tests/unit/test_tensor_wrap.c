/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_tensor_wrap.c - tensors over the caller's memory: zero-copy, the
 * release callback's timing, every refusal (alignment, size, a driver
 * that cannot take host memory) and a jit call on wrapped memory.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/core.h"
#include "designs/designs.h"
#include "iron/iron_driver.h"
#include "test.h"

typedef struct released {
    int calls;
    void *data;
} released;

static void on_release(void *ctx, void *data)
{
    released *r = ctx;
    r->calls++;
    r->data = data;
}

TEST(tensor_wrap_shares_memory)
{
    int32_t *buf = aligned_alloc(IRON_TENSOR_ALIGN, 32 * sizeof *buf);
    for (int i = 0; i < 32; i++)
        buf[i] = i;
    released r = { 0, NULL };
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_wrap(buf, 32 * sizeof *buf, IRON_INT32,
                               IRON_SHAPE(4, 8), on_release, &r, &t));
    ASSERT(iron_tensor_data(t) == buf);
    ASSERT_EQ(iron_tensor_is_wrapped(t), 1);
    ASSERT_EQ(iron_tensor_numel(t), 32);
    ASSERT_EQ(iron_tensor_nbytes(t), 128);
    ASSERT_EQ(test_at(t, 17), 17);
    ASSERT_OK(iron_tensor_set_element(t, 3, -7));
    ASSERT_EQ(buf[3], -7);
    buf[5] = 99;
    ASSERT_EQ(test_at(t, 5), 99);
    ASSERT_EQ(r.calls, 0);
    iron_tensor_free(t);
    ASSERT_EQ(r.calls, 1);
    ASSERT(r.data == buf);
    /* The memory was never the library's: still the caller's to read. */
    ASSERT_EQ(buf[3], -7);
    free(buf);
}

TEST(tensor_wrap_larger_memory_and_no_release)
{
    /* More bytes than needed are fine; without a callback nothing runs. */
    double *buf = aligned_alloc(64, 1024);
    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_wrap(buf, 1024, IRON_FLOAT64, IRON_SHAPE(10), NULL,
                               NULL, &t));
    ASSERT_EQ(iron_tensor_nbytes(t), 80);
    ASSERT_EQ(iron_tensor_is_wrapped(t), 1);
    iron_tensor_free(t);
    free(buf);

    iron_tensor *own = test_zeros(IRON_INT8, 4);
    ASSERT_EQ(iron_tensor_is_wrapped(own), 0);
    ASSERT_EQ(iron_tensor_is_wrapped(NULL), 0);
    iron_tensor_free(own);
}

TEST(tensor_wrap_misaligned)
{
    uint8_t *buf = aligned_alloc(64, 256);
    released r = { 0, NULL };
    iron_tensor *t = (iron_tensor *)buf;
    char want[160];
    snprintf(want, sizeof want, "data %p is not aligned to 4 bytes (the "
             "size of int32; it is 2 bytes past a multiple)", buf + 2);
    ASSERT_FAILS(iron_tensor_wrap(buf + 2, 128, IRON_INT32, IRON_SHAPE(8),
                                  on_release, &r, &t),
                 IRON_EINVAL, want);
    ASSERT_CONTAINS(iron_last_error(),
                    "64-byte alignment (IRON_TENSOR_ALIGN) is recommended");
    ASSERT(t == NULL);
    snprintf(want, sizeof want, "data %p is not aligned to 8 bytes (the "
             "size of float64", buf + 4);
    ASSERT_FAILS(iron_tensor_wrap(buf + 4, 128, IRON_FLOAT64, IRON_SHAPE(8),
                                  on_release, &r, &t),
                 IRON_EINVAL, want);
    /* bfloat16 needs 2, int8 nothing. */
    ASSERT_FAILS(iron_tensor_wrap(buf + 1, 128, IRON_BFLOAT16,
                                  IRON_SHAPE(8), on_release, &r, &t),
                 IRON_EINVAL, "is not aligned to 2 bytes");
    ASSERT_OK(iron_tensor_wrap(buf + 1, 8, IRON_INT8, IRON_SHAPE(8),
                               on_release, &r, &t));
    iron_tensor_free(t);
    ASSERT_EQ(r.calls, 1);  /* only the successful wrap's */
    free(buf);
}

TEST(tensor_wrap_too_small_and_bad_input)
{
    int32_t *buf = aligned_alloc(64, 256);
    released r = { 0, NULL };
    iron_tensor *t = NULL;
    ASSERT_FAILS(iron_tensor_wrap(buf, 100, IRON_INT32, IRON_SHAPE(4, 8),
                                  on_release, &r, &t),
                 IRON_ESHAPE, "iron_tensor_wrap: bytes is 100, too small "
                 "for int32 x 32 elements: expected at least 128");
    ASSERT_FAILS(iron_tensor_wrap(NULL, 100, IRON_INT32, IRON_SHAPE(4),
                                  on_release, &r, &t),
                 IRON_EINVAL, "iron_tensor_wrap: data is NULL");
    ASSERT_FAILS(iron_tensor_wrap(buf, 256, IRON_INT32, IRON_SHAPE(4),
                                  on_release, &r, NULL),
                 IRON_EINVAL, "iron_tensor_wrap: out is NULL");
    ASSERT_FAILS(iron_tensor_wrap(buf, 256, (iron_dtype)99, IRON_SHAPE(4),
                                  on_release, &r, &t),
                 IRON_EDTYPE, "dtype 99 is not an iron_dtype");
    ASSERT_FAILS(iron_tensor_wrap(buf, 256, IRON_INT32, IRON_SHAPE(4, 0),
                                  on_release, &r, &t),
                 IRON_ESHAPE, "shape dim 1 is 0");
    ASSERT_EQ(r.calls, 0);  /* a failed wrap leaves the memory alone */
    free(buf);
}

/* ------------------------------------------------------------------------
 * Drivers that cannot take host memory
 * ------------------------------------------------------------------------ */

static iron_status nowrap_alloc(iron_driver *drv, size_t nbytes, void **host,
                                void **handle)
{
    (void)drv;
    *host = calloc(1, nbytes);
    *handle = *host;
    return *host ? IRON_OK : IRON_ENOMEM;
}

static void nowrap_free(iron_driver *drv, void *host, void *handle)
{
    (void)drv, (void)handle;
    free(host);
}

static iron_status nowrap_sync(iron_driver *drv, void *host, void *handle,
                               size_t nbytes, iron_sync_dir dir)
{
    (void)drv, (void)host, (void)handle, (void)nbytes, (void)dir;
    return IRON_OK;
}

static iron_status nowrap_load(iron_driver *drv, const iron_device_info *dev,
                               const iron_program *prog, void **loaded)
{
    (void)drv, (void)dev, (void)prog;
    *loaded = drv;
    return IRON_OK;
}

static iron_status nowrap_run(iron_driver *drv, void *loaded,
                              const iron_run_args *args,
                              enum iron_run_state *state)
{
    (void)drv, (void)loaded, (void)args;
    *state = IRON_RUN_COMPLETED;
    return IRON_OK;
}

static void nowrap_unload(iron_driver *drv, void *loaded)
{
    (void)drv, (void)loaded;
}

static iron_driver nowrap_driver(const char *drv_name, size_t size)
{
    iron_driver d = {
        .abi_version = IRON_DRIVER_ABI,
        .size = size,
        .name = drv_name,
        .buf_alloc = nowrap_alloc,
        .buf_free = nowrap_free,
        .buf_sync = nowrap_sync,
        .load = nowrap_load,
        .run = nowrap_run,
        .unload = nowrap_unload,
    };
    return d;
}

static iron_device_info nowrap_info(const char *dev_name)
{
    iron_device_info info = {
        .size = sizeof info,
        .name = dev_name,
        .arch = "aie2",
        .family = "fake",
        .columns = 1,
        .rows = 6,
        .compute_rows = 4,
        .lock_max_value = 63,
    };
    return info;
}

TEST(tensor_wrap_refused_by_driver_without_wrap)
{
    static iron_driver full, v1;
    full = nowrap_driver("nowrapdrv", sizeof(iron_driver));
    iron_device_info info = nowrap_info("nowrap_dev");
    ASSERT_OK(iron_driver_register(&full, &info));
    /* A table of the first version (before buf_wrap) still registers. */
    v1 = nowrap_driver("v1drv", IRON_DRIVER_SIZE_V1);
    info = nowrap_info("v1_dev");
    ASSERT_OK(iron_driver_register(&v1, &info));
    int32_t *buf = aligned_alloc(64, 64);
    released r = { 0, NULL };
    iron_tensor *t = NULL;
    IRON_WITH_DEVICE("nowrap_dev")
    {
        ASSERT_FAILS(iron_tensor_wrap(buf, 64, IRON_INT32, IRON_SHAPE(16),
                                      on_release, &r, &t),
                     IRON_ENOTSUP, "device 'nowrap_dev': driver 'nowrapdrv' "
                     "cannot use caller memory (it has no buf_wrap op)");
        ASSERT(t == NULL);
        /* Its own memory still works. */
        iron_tensor *own = test_zeros(IRON_INT32, 16);
        ASSERT_EQ(iron_tensor_is_wrapped(own), 0);
        iron_tensor_free(own);
    }
    IRON_WITH_DEVICE("v1_dev")
    ASSERT_FAILS(iron_tensor_wrap(buf, 64, IRON_INT32, IRON_SHAPE(16),
                                  on_release, &r, &t),
                 IRON_ENOTSUP, "driver 'v1drv' cannot use caller memory");
    ASSERT_EQ(r.calls, 0);
    free(buf);
}

static iron_status half_wrap(iron_driver *drv, void *host, size_t nbytes,
                             void **handle)
{
    (void)drv, (void)nbytes;
    *handle = host;
    return IRON_OK;
}

TEST(tensor_wrap_driver_needs_both_ops)
{
    static iron_driver d;
    d = nowrap_driver("halfdrv", sizeof(iron_driver));
    d.buf_wrap = half_wrap;
    iron_device_info info = nowrap_info("half_dev");
    ASSERT_FAILS(iron_driver_register(&d, &info), IRON_EINVAL,
                 "driver 'halfdrv' has buf_wrap but no buf_unwrap; give "
                 "both ops or neither");
    ASSERT_FAILS(iron_driver_register(&(iron_driver){
                                          .abi_version = IRON_DRIVER_ABI,
                                          .size = 12 },
                                      &info),
                 IRON_EINVAL, "drv.size is 12; expected at least");
}

/* ------------------------------------------------------------------------
 * A jit call on wrapped memory
 * ------------------------------------------------------------------------ */

TEST(tensor_wrap_jit_call_writes_caller_memory)
{
    enum { N = 1024 };
    int32_t *a = aligned_alloc(64, N * 4), *b = aligned_alloc(64, N * 4);
    int32_t *c = aligned_alloc(64, N * 4);
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1000 * i;
        c[i] = -1;
    }
    released r = { 0, NULL };
    iron_tensor *ta, *tb, *tc;
    ASSERT_OK(iron_tensor_wrap(a, N * 4, IRON_INT32, IRON_SHAPE(N), NULL,
                               NULL, &ta));
    ASSERT_OK(iron_tensor_wrap(b, N * 4, IRON_INT32, IRON_SHAPE(N), NULL,
                               NULL, &tb));
    ASSERT_OK(iron_tensor_wrap(c, N * 4, IRON_INT32, IRON_SHAPE(N),
                               on_release, &r, &tc));
    iron_jit *j = test_new_jit(vector_op_design, &vector_op_options);
    ASSERT_OK(IRON_CALL(j, ta, tb, tc));
    for (int i = 0; i < N; i++)
        if (c[i] != 1001 * i)
            TEST_FAIL_("c[%d] is %d; expected %d", i, c[i], 1001 * i);
    iron_tensor_free(ta);
    iron_tensor_free(tb);
    iron_tensor_free(tc);
    ASSERT_EQ(r.calls, 1);
    iron_jit_free(j);
    free(a);
    free(b);
    free(c);
}

/* ------------------------------------------------------------------------
 * Allocation failures: fail the 1st, 2nd, ... allocation until the call
 * succeeds; each failure is a clean IRON_ENOMEM, *out NULL, and the
 * caller's memory untouched (no release call).
 * ------------------------------------------------------------------------ */

static int32_t wrap_mem[64] __attribute__((aligned(64)));
static released loop_released;
static iron_tensor *loop_base;

static iron_status make_wrap(iron_tensor **t)
{
    return iron_tensor_wrap(wrap_mem, sizeof wrap_mem, IRON_INT32,
                            IRON_SHAPE(8, 8), on_release, &loop_released, t);
}

static iron_status make_view(iron_tensor **t)
{
    return iron_tensor_view(loop_base, 1, IRON_SHAPE(4),
                            (const int64_t[]){ 2 }, t);
}

static iron_status make_copy(iron_tensor **t)
{
    return iron_tensor_copy(loop_base, t);
}

static iron_status make_format(iron_tensor **t)
{
    char *text = NULL;
    iron_status s = iron_tensor_format(loop_base, NULL, &text);
    if (s == IRON_OK) {
        ASSERT_STR_EQ(text, "array([[0, 1, 2, 3],\n       [4, 5, 6, 7]], "
                            "dtype=int32)");
        iron_free(text);
        *t = iron_tensor_view(loop_base, 0, IRON_SHAPE(1), NULL, t) ==
                     IRON_OK ? *t : NULL;
    } else {
        ASSERT(text == NULL);
        *t = NULL;
    }
    return s;
}

static void alloc_failure_loop(iron_status (*make)(iron_tensor **))
{
    long n;
    for (n = 1; n < 100; n++) {
        iron_tensor *t = (iron_tensor *)wrap_mem;
        loop_released.calls = 0;
        iron__alloc_fail_at(n);
        iron_status s = make(&t);
        iron__alloc_fail_at(0);
        if (s == IRON_OK) {
            iron_tensor_free(t);
            break;
        }
        if (s != IRON_ENOMEM)
            TEST_FAIL_("allocation %ld failing gave %s: %s", n,
                       iron_status_name(s), iron_last_error());
        ASSERT(t == NULL);
        ASSERT_EQ(loop_released.calls, 0);
    }
    ASSERT_LT(n, 100);
    ASSERT_GT(n, 1);
}

TEST(tensor_wrap_views_alloc_failure_loop)
{
    alloc_failure_loop(make_wrap);
    loop_base = test_arange_shape(IRON_INT32, IRON_SHAPE(2, 4), 0, 1);
    alloc_failure_loop(make_view);
    alloc_failure_loop(make_copy);
    alloc_failure_loop(make_format);
    iron_tensor_free(loop_base);
}

/* ------------------------------------------------------------------------
 * The release callback waits for a running call
 * ------------------------------------------------------------------------ */

/* At release time the call must be over: every output element written. */
typedef struct check_release {
    int64_t n;
    int calls, complete;
} check_release;

static void release_checks_output(void *ctx, void *data)
{
    check_release *cr = ctx;
    const int32_t *c = data;
    cr->calls++;
    cr->complete = 1;
    for (int64_t i = 0; i < cr->n; i++)
        if (c[i] != 3)
            cr->complete = 0;
}

TEST_TIMEOUT(tensor_wrap_release_waits_for_running_call, 60)
{
    const int64_t n = 4 << 20;  /* tens of ms on the emulator */
    size_t bytes = (size_t)n * 4;
    test_slow_call sc = {
        .j = test_new_jit(vector_op_design, &vector_op_options)
    };
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(n), 1, &sc.a));
    ASSERT_OK(iron_tensor_full(IRON_INT32, IRON_SHAPE(n), 2, &sc.b));
    int32_t *mem = aligned_alloc(64, bytes);
    check_release cr = { .n = n };
    /* Built first: a call holds its tensors from the run on, and the free
     * below must come while the run goes, not while the design builds. */
    iron_tensor *warm = test_zeros(IRON_INT32, n);
    ASSERT_OK(IRON_CALL(sc.j, sc.a, sc.b, warm));
    iron_tensor_free(warm);
    test_count_wait_lines();
    for (int round = 0; round < 50 && !test_wait_lines(); round++) {
        memset(mem, 0, bytes);
        cr.calls = cr.complete = 0;
        ASSERT_OK(iron_tensor_wrap(mem, bytes, IRON_INT32, IRON_SHAPE(n),
                                   release_checks_output, &cr, &sc.c));
        pthread_t th;
        test_slow_call_start(&sc, &th);
        usleep(5000);
        int before = test_wait_lines();
        iron_tensor_free(sc.c);  /* waits while the call uses it */
        ASSERT_EQ(cr.calls, 1);
        /* When this free found the call running (it says so in the log),
         * the release came after the call's last write. */
        if (test_wait_lines() > before)
            ASSERT_EQ(cr.complete, 1);
        pthread_join(th, NULL);
        ASSERT_OK(sc.status);
    }
    iron_log_set_handler(NULL, NULL);
    ASSERT_GT(test_wait_lines(), 0);
    free(mem);
    iron_tensor_free(sc.a);
    iron_tensor_free(sc.b);
    iron_jit_free(sc.j);
}
