/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * driver.c - the only calls through a driver table (like SQLite's os.c):
 * arguments are checked here, driver failures get the device's name, and
 * this is where a tracing or fault-injection shim would hook in.
 */
#include "core/core.h"
#include "device/device.h"

/* Each wrapper checks what the library itself passes, so that a bug in a
 * caller surfaces as IRON_EINVAL naming the op rather than as a crash in a
 * driver.  No lock is held across any call (see iron_driver.h). */

iron_status iron__drv_buf_alloc(iron_device *dev, size_t nbytes, void **host,
                                void **handle)
{
    if (host)
        *host = NULL;
    if (handle)
        *handle = NULL;
    if (!dev || !host || !handle)
        return iron__fail(IRON_EINVAL, "buf_alloc: %s is NULL",
                          !dev ? "device" : !host ? "host" : "handle");
    if (nbytes == 0)
        return iron__fail(IRON_EINVAL, "device '%s': buf_alloc of 0 bytes",
                          dev->info.name);
    iron_status s = dev->drv->buf_alloc(dev->drv, nbytes, host, handle);
    if (s != IRON_OK) {
        *host = *handle = NULL;
        return iron__fail_context(s, "device '%s': allocating %zu bytes",
                                  dev->info.name, nbytes);
    }
    if (!*host) {
        dev->drv->buf_free(dev->drv, *host, *handle);
        *handle = NULL;
        return iron__fail(IRON_ERUNTIME,
                          "device '%s': driver '%s' reported success "
                          "allocating %zu bytes but gave no host pointer",
                          dev->info.name, dev->drv->name, nbytes);
    }
    return IRON_OK;
}

/* Freeing nothing is not an error: destructors accept NULL. */
void iron__drv_buf_free(iron_device *dev, void *host, void *handle)
{
    if (!dev || (!host && !handle))
        return;
    dev->drv->buf_free(dev->drv, host, handle);
}

/* Refused with the driver's name when its table has no buf_wrap: one of
 * the first version, or one that cannot reach host memory. */
iron_status iron__drv_buf_wrap(iron_device *dev, void *host, size_t nbytes,
                               void **handle)
{
    if (handle)
        *handle = NULL;
    if (!dev || !host || !handle)
        return iron__fail(IRON_EINVAL, "buf_wrap: %s is NULL",
                          !dev ? "device" : !host ? "host" : "handle");
    if (dev->drv->size < sizeof *dev->drv || !dev->drv->buf_wrap)
        return iron__fail(IRON_ENOTSUP,
                          "device '%s': driver '%s' cannot use caller "
                          "memory (it has no buf_wrap op); allocate the "
                          "tensor with iron_tensor_empty and copy the data "
                          "in instead", dev->info.name, dev->drv->name);
    iron_status s = dev->drv->buf_wrap(dev->drv, host, nbytes, handle);
    if (s != IRON_OK) {
        *handle = NULL;
        return iron__fail_context(s, "device '%s': wrapping %zu bytes at %p",
                                  dev->info.name, nbytes, host);
    }
    return IRON_OK;
}

void iron__drv_buf_unwrap(iron_device *dev, void *host, void *handle)
{
    if (!dev || !host || dev->drv->size < sizeof *dev->drv ||
        !dev->drv->buf_unwrap)
        return;
    dev->drv->buf_unwrap(dev->drv, host, handle);
}

iron_status iron__drv_buf_sync(iron_device *dev, void *host, void *handle,
                               size_t nbytes, iron_sync_dir dir)
{
    if (!dev || !host)
        return iron__fail(IRON_EINVAL, "buf_sync: %s is NULL",
                          !dev ? "device" : "host");
    if (dir != IRON_SYNC_TO_DEVICE && dir != IRON_SYNC_TO_HOST)
        return iron__fail(IRON_EINVAL, "device '%s': buf_sync direction %d",
                          dev->info.name, (int)dir);
    iron_status s = dev->drv->buf_sync(dev->drv, host, handle, nbytes, dir);
    if (s != IRON_OK)
        return iron__fail_context(s, "device '%s': syncing %zu bytes %s",
                                  dev->info.name, nbytes,
                                  dir == IRON_SYNC_TO_DEVICE ? "to the device"
                                                             : "to the host");
    return IRON_OK;
}

iron_status iron__drv_load(iron_device *dev, const iron_program *prog,
                           void **loaded)
{
    if (loaded)
        *loaded = NULL;
    if (!dev || !prog || !loaded)
        return iron__fail(IRON_EINVAL, "load: %s is NULL",
                          !dev ? "device" : !prog ? "program" : "loaded");
    iron_status s = dev->drv->load(dev->drv, &dev->info, prog, loaded);
    if (s != IRON_OK) {
        *loaded = NULL;
        return s;
    }
    return IRON_OK;
}

/* The driver's message is passed on unchanged: it already says who waited
 * on what, and the jit adds the design's name in front. */
iron_status iron__drv_run(iron_device *dev, void *loaded,
                          const iron_run_args *args,
                          enum iron_run_state *state)
{
    if (state)
        *state = IRON_RUN_ERROR;
    if (!dev || !loaded || !args || !state)
        return iron__fail(IRON_EINVAL, "run: %s is NULL",
                          !dev ? "device" : !loaded ? "loaded program"
                                          : !args ? "args" : "state");
    if (args->size < sizeof *args)
        return iron__fail(IRON_EINVAL,
                          "run: args->size is %zu; expected at least %zu",
                          args->size, sizeof *args);
    if (args->nargs < 0 ||
        (args->nargs > 0 && (!args->host || !args->handle || !args->nbytes)))
        return iron__fail(IRON_EINVAL,
                          "run: nargs is %d but the host, handle or nbytes "
                          "array is missing", args->nargs);
    if (args->timeout_ms <= 0)
        return iron__fail(IRON_EINVAL, "run: timeout_ms is %d; must be > 0",
                          args->timeout_ms);
    return dev->drv->run(dev->drv, loaded, args, state);
}

void iron__drv_unload(iron_device *dev, void *loaded)
{
    if (!dev || !loaded)
        return;
    dev->drv->unload(dev->drv, loaded);
}

const iron_run_counters *iron__drv_counters(iron_device *dev, void *loaded)
{
    if (!dev || !loaded || !dev->drv->counters)
        return NULL;
    return dev->drv->counters(dev->drv, loaded);
}
