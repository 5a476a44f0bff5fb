/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kernel_choice.c - a design's kernel: its C port, or the source file the
 * call names (kernel_choice.h).
 */
#include "designs/kernel_choice.h"

iron_kernel *design_kernel(iron_design *d, const char *c_entry,
                           const char *c_src, const char *file_entry,
                           const char *arg_types)
{
    const char *path = iron_design_param_str(d, "kernel_file");
    if (!path || !*path)
        return iron_kernel_new(d, c_entry, c_src, arg_types);
    return iron_kernel_new_file(d, file_entry, path, arg_types, 0, NULL);
}

const char *design_kernel_entry(iron_design *d)
{
    return iron_design_param_str(d, "kernel_entry");
}
