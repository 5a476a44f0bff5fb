/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kheader.c - <iron/iron_kernel.h> for kernels, and for C++ kernels the
 * headers of include/iron/kernel/ (the AIE API: <aie_api/aie.hpp>)
 * (compile layer).  The texts are built in (the Makefile turns
 * include/iron/iron_kernel.h into the string literal iron_kernel_h.inc,
 * and every file under include/iron/kernel/ into a row of
 * kernel_headers.inc), so that the headers a kernel gets are the ones
 * matching the library, whether it runs from the build tree or from an
 * installed prefix, and no source tree or include path needs to exist at
 * run time.
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

/* { "aie_api/aie.hpp", "<its text>" }, ...: paths under
 * include/iron/kernel/, which are also the paths under the compile's
 * include folder. */
static const struct {
    const char *path, *text;
} cxx_files[] = {
#include "kernel_headers.inc"
    { NULL, NULL }
};

const char *iron__kheader_text(size_t *len)
{
    *len = sizeof text - 1;
    return text;
}

uint64_t iron__kheader_hash(void)
{
    return XXH3_64bits(text, sizeof text - 1);
}

uint64_t iron__kheader_cxx_hash(void)
{
    /* Chained through the seed, with the NULs: "a" + "bc" never hashes
     * as "ab" + "c". */
    uint64_t h = 0;
    for (size_t i = 0; cxx_files[i].path; i++) {
        h = XXH3_64bits_withSeed(cxx_files[i].path,
                                 strlen(cxx_files[i].path) + 1, h);
        h = XXH3_64bits_withSeed(cxx_files[i].text,
                                 strlen(cxx_files[i].text) + 1, h);
    }
    return h;
}

size_t iron__kheader_cxx_count(void)
{
    return IRON__COUNT_OF(cxx_files) - 1;
}

static iron_status make_dir(const char *path)
{
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return iron__fail(IRON_EIO, "cannot create '%s': %s", path,
                          strerror(errno));
    return IRON_OK;
}

/* Writes "<inc>/<rel>", making the folders of rel that are missing. */
static iron_status write_under(const char *inc, const char *rel,
                               const char *data)
{
    iron__str s = { 0 };
    iron__str_printf(&s, "%s/%s", inc, rel);
    char *path = iron__str_take(&s);
    if (!path)
        return iron__fail(IRON_ENOMEM, "out of memory naming '%s'", rel);
    iron_status st = IRON_OK;
    for (char *p = path + strlen(inc) + 1; st == IRON_OK && *p; p++)
        if (*p == '/') {
            *p = '\0';
            st = make_dir(path);
            *p = '/';
        }
    if (st == IRON_OK)
        st = iron__ktmp_write(path, data, strlen(data));
    iron__free(path);
    return st;
}

iron_status iron__kheader_install(const iron__ktmp *t, int with_cxx,
                                  char **include_dir)
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
    for (size_t i = 0; with_cxx && st == IRON_OK && cxx_files[i].path; i++)
        st = write_under(inc, cxx_files[i].path, cxx_files[i].text);
    iron__free(file);
    iron__free(sub);
    if (st != IRON_OK) {
        iron__free(inc);
        return st;
    }
    *include_dir = inc;
    return IRON_OK;
}
