/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kheader.h - the kernel-side header <iron/iron_kernel.h> as the library
 * carries it: its text, built in from include/iron/iron_kernel.h, and
 * where one kernel build puts it for the compiler to find.
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

/* Writes the header as "<t->dir>/include/iron/iron_kernel.h" and sets
 * *include_dir to "<t->dir>/include" (iron__malloc), the folder the
 * compiler gets with -I.  IRON_EIO naming the path and the system's
 * reason; IRON_ENOMEM.  *include_dir is NULL on failure. */
iron_status iron__kheader_install(const iron__ktmp *t, char **include_dir);

#endif
