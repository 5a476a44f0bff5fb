/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * device.h - devices and the calls through their drivers.  Devices are
 * created once through iron_driver_register (the built-in drivers' at the
 * registry's first use, see builtin.h) and never freed.
 */
#ifndef IRON_DEVICE_DEVICE_H
#define IRON_DEVICE_DEVICE_H

#include "iron/iron_driver.h"

struct iron_device {
    iron_device_info info;     /* names point into storage owned here */
    iron_driver *drv;
    int index;                 /* position in the registry */
};

/* Most devices the registry holds (built-in and registered together). */
#define IRON__MAX_DEVICES 64

/* The driver wrappers: the only place that calls through iron_driver. */
iron_status iron__drv_buf_alloc(iron_device *dev, size_t nbytes, void **host,
                                void **handle);
void iron__drv_buf_free(iron_device *dev, void *host, void *handle);
/* Caller memory as a buffer (IRON_ENOTSUP when the driver cannot). */
iron_status iron__drv_buf_wrap(iron_device *dev, void *host, size_t nbytes,
                               void **handle);
void iron__drv_buf_unwrap(iron_device *dev, void *host, void *handle);
iron_status iron__drv_buf_sync(iron_device *dev, void *host, void *handle,
                               size_t nbytes, iron_sync_dir dir);
iron_status iron__drv_load(iron_device *dev, const iron_program *prog,
                           void **loaded);
iron_status iron__drv_run(iron_device *dev, void *loaded,
                          const iron_run_args *args,
                          enum iron_run_state *state);
void iron__drv_unload(iron_device *dev, void *loaded);
/* The last run's counters, or NULL when the driver keeps none. */
const iron_run_counters *iron__drv_counters(iron_device *dev, void *loaded);

#endif
