/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * builtin.h - the drivers built into the library (device layer): one table
 * the registry calls through when it starts, like PoCL's list of built-in
 * device types.  Each entry registers its driver and its devices with
 * iron_driver_register, the path external drivers use; the registry knows
 * nothing else about them.
 */
#ifndef IRON_DEVICE_BUILTIN_H
#define IRON_DEVICE_BUILTIN_H

#include "iron/iron_driver.h"

typedef struct iron__builtin_driver {
    const char *name;                  /* the driver's name: "emulator" */
    iron_status (*register_fn)(void);  /* registers it and its devices */
} iron__builtin_driver;

/* In registration order, which is the order of the devices. */
extern const iron__builtin_driver iron__builtin_drivers[];
extern const int iron__nbuiltin_drivers;

/* The built-in drivers' registration functions (each in its module). */
iron_status iron__emu_register(void);

#endif
