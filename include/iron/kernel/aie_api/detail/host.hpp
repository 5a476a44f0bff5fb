// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// host.hpp - the two functions the host AIE API needs from whatever runs
// the kernel: the running core's control words (its rounding and
// saturation modes) and the fault exit.  The emulator's kernel runtime
// shim defines them per core; unit-test programs define their own.
#pragma once

extern "C" {
/* The running core's control words: [0] rounding mode, [1] saturation mode
 * (the numeric values of aie::rounding_mode / aie::saturation_mode), [2],
 * [3] reserved.  All 0 when the core is reset -- the design loaded, or
 * reset after a fault -- and kept from one call of the design to the next,
 * as a running core keeps its control register; a kernel that needs a mode
 * sets it.  Never NULL.  Outside the emulator: a per-thread array. */
unsigned *iron__aie_ctl(void);
/* Ends the running kernel's call as a kernel fault with `what` and the
 * kernel's file:line; outside the emulator prints and aborts. */
[[noreturn]] void iron__aie_fault(const char *what, const char *file,
                                  unsigned line);
}
