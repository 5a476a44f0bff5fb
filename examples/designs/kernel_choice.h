/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kernel_choice.h - how a reference design lets its caller swap its
 * built-in C kernel for a kernel source file: the compile-time parameter
 * `kernel_file` (a path; '' keeps the C port).  The file may be C or C++
 * (by its extension), so the AIE API kernels of examples/kernels/aie/ run
 * in the same designs as the C ports they stand for.
 */
#ifndef IRON_EXAMPLES_KERNEL_CHOICE_H
#define IRON_EXAMPLES_KERNEL_CHOICE_H

#include <iron/iron.h>

/* The parameter declarations a design adds to its `params` to take a
 * file: the path, and (for designs with one kernel) the entry to call in
 * it, defaulting to upstream's name for the kernel. */
#define KERNEL_FILE_PARAM "kernel_file: str = ''"
#define KERNEL_ENTRY_PARAM(dflt) "kernel_entry: str = '" dflt "'"

/* The kernel a design calls, with arg_types: the C port (entry c_entry,
 * source c_src) when the call leaves `kernel_file` empty, else the file's
 * entry file_entry.  Errors are the builders' (sticky on the design): an
 * unreadable file, a missing entry, a compile error naming the file. */
iron_kernel *design_kernel(iron_design *d, const char *c_entry,
                           const char *c_src, const char *file_entry,
                           const char *arg_types);

/* The `kernel_entry` parameter's value (designs that declare it). */
const char *design_kernel_entry(iron_design *d);

#endif
