/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kheader.c - <iron/iron_kernel.h> for kernels (compile layer).  The text
 * is built in (the Makefile turns include/iron/iron_kernel.h into the
 * string literal iron_kernel_h.inc), so that the header a kernel gets is
 * the one matching the library, whether it runs from the build tree or
 * from an installed prefix, and no source tree or include path needs to
 * exist at run time.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "compile/kheader.h"
#include "core/core.h"

static const char text[] =
#include "iron_kernel_h.inc"
    ;

const char *iron__kheader_text(size_t *len)
{
    *len = sizeof text - 1;
    return text;
}

uint64_t iron__kheader_hash(void)
{
    return XXH3_64bits(text, sizeof text - 1);
}

static iron_status make_dir(const char *path)
{
    if (mkdir(path, 0700) != 0)
        return iron__fail(IRON_EIO, "cannot create '%s': %s", path,
                          strerror(errno));
    return IRON_OK;
}

iron_status iron__kheader_install(const iron__ktmp *t, char **include_dir)
{
    *include_dir = NULL;
    char *inc = iron__ktmp_path(t, "include");
    char *sub = inc ? iron__ktmp_path(t, "include/iron") : NULL;
    char *file = sub ? iron__ktmp_path(t, "include/iron/iron_kernel.h")
                     : NULL;
    iron_status st = file ? IRON_OK
                          : iron__fail(IRON_ENOMEM, "out of memory naming "
                                       "the kernel header's folder");
    if (st == IRON_OK)
        st = make_dir(inc);
    if (st == IRON_OK)
        st = make_dir(sub);
    if (st == IRON_OK)
        st = iron__ktmp_write(file, text, sizeof text - 1);
    iron__free(file);
    iron__free(sub);
    if (st != IRON_OK) {
        iron__free(inc);
        return st;
    }
    *include_dir = inc;
    return IRON_OK;
}
