/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * srcline.h - names the source line of a code address in this process
 * ("vadd at vadd.c:12"), for messages about a fault inside a kernel.
 * elfutils' libdwfl reads the debug information; this module only finds
 * the loaded object and hands it over.
 */
#ifndef IRON_COMPILE_SRCLINE_H
#define IRON_COMPILE_SRCLINE_H

#include <stddef.h>

#include "core/core.h"

/* Describes code address `pc` of this process for a fault message:
 * "kernel_fn at vadd.c:12" when the line is known, "kernel_fn (+0x1c) in
 * libfoo.so" when only the symbol is, "" when nothing is.  Writes at most
 * len bytes (NUL-terminated, truncated).  Returns 1 when file:line was
 * found, 0 otherwise.  Not async-signal-safe: call it after leaving the
 * signal handler.  Thread-safe (serialise internally with a mutex).
 *
 * The object holding pc must stay loaded during the call.  Its file may
 * already be deleted (kernels are loaded from temporary folders): then
 * the bytes remembered for it (iron__srcline_remember) are read, or else
 * the mapping itself through /proc/self/map_files, which the kernel
 * allows only with CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN; failing both,
 * only the exported symbol is named.  pc is used as is: pass the faulting
 * pc, or a return address minus one for a caller's line. */
int iron__srcline(const void *pc, char *buf, size_t len);

/* The file image of the loaded object that holds `addr` (any address in
 * it), for when its file is gone.  The image is not copied: it must stay
 * valid until iron__srcline_forget(addr), called before the object is
 * unloaded.  Out of memory: not remembered (lines are then unknown). */
void iron__srcline_remember(const void *addr, const void *image,
                            size_t len);
void iron__srcline_forget(const void *addr);

#endif
