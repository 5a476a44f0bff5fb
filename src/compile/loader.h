/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * loader.h - loads a compiled kernel object with dlopen and finds its
 * uniform entry wrapper.
 */
#ifndef IRON_COMPILE_LOADER_H
#define IRON_COMPILE_LOADER_H

#include "compile/compile.h"

/* Loads so_path (RTLD_NOW | RTLD_LOCAL, so every symbol is resolved now
 * and kernels cannot see each other) and looks up iron__entry_wrapper.
 * IRON_ELOAD with the dlerror() text; IRON_ENOMEM.  The file may be
 * unlinked once this returns.  *out is NULL on failure. */
iron_status iron__kobj_load(const char *so_path, const char *label,
                            iron__kobj **out);

/* Gives the object its shared-object bytes (taken over; freed with it). */
void iron__kobj_set_image(iron__kobj *o, char *image, size_t len);

/* Parses make-style dependency text ("out: a.c b.h \\\n c.h") into the
 * object's list of included files, leaving out those inside the build's
 * temporary folder `tmp_dir`: the kernel's own source and the library's
 * <iron/iron_kernel.h> (keyed by its text instead), which are gone once
 * the build ends. */
iron_status iron__kobj_set_deps(iron__kobj *o, const char *text, size_t len,
                                const char *tmp_dir);

#endif
