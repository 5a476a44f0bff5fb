/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kheader.h - the kernel-side headers as the library carries them:
 * <iron/iron_kernel.h> (built in from include/iron/iron_kernel.h) for
 * every kernel, the files of include/iron/kernel/ (the AIE API) for C++
 * kernels, and where one kernel build puts them for the compiler to
 * find.
 */
#ifndef IRON_COMPILE_KHEADER_H
#define IRON_COMPILE_KHEADER_H

#include <stddef.h>
#include <stdint.h>

#include "compile/tmpdir.h"
#include "iron/iron.h"

/* The header's text (NUL-terminated, *len bytes without the NUL); static
 * storage. */
const char *iron__kheader_text(size_t *len);

/* XXH3-64 of the text: kernel cache keys include it, so kernels compiled
 * against another version of the header are not reused. */
uint64_t iron__kheader_hash(void);

/* XXH3-64 of the C++ kernels' headers (paths and texts): C++ kernels'
 * cache keys include it, as the headers live in the build's temporary
 * folder, which the recorded dependencies leave out. */
uint64_t iron__kheader_cxx_hash(void);
/* How many files those are. */
size_t iron__kheader_cxx_count(void);

/* Writes the header as "<t->dir>/include/iron/iron_kernel.h" (with_cxx:
 * and every C++ kernel header as "<t->dir>/include/<its path>", so
 * <aie_api/aie.hpp> resolves there) and sets *include_dir to
 * "<t->dir>/include" (iron__malloc), the folder the compiler gets with
 * -I.  IRON_EIO naming the path and the system's reason; IRON_ENOMEM.
 * *include_dir is NULL on failure. */
iron_status iron__kheader_install(const iron__ktmp *t, int with_cxx,
                                  char **include_dir);

#endif
