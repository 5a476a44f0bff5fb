/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * builtin.c - the table of drivers built into the library (device layer).
 * Adding a backend (real hardware through XRT, say) is one line here.
 */
#include "core/core.h"
#include "device/builtin.h"

const iron__builtin_driver iron__builtin_drivers[] = {
    { "emulator", iron__emu_register },
};

const int iron__nbuiltin_drivers = (int)IRON__COUNT_OF(iron__builtin_drivers);
