/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * kernel.c - declaring compute kernels: C or C++ source (given as text
 * or read from a file, with the folders its includes are searched in),
 * the entry's argument types, and per-kernel defines, flags and language.
 * Compilation happens later, in the jit's compile stage.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file.h"
#include "design/design.h"
#include "design/vec.h"

/* ---- argument names ------------------------------------------------------
 * A declaration may name its parameters as C does ("int16* in, int16* out,
 * int32 n"), so that a declared cost (iron_kernel_set_cycles) reads "n"
 * rather than "$2".  The names are taken off here; what is left is the
 * list of types the type parser has always read, so every kernel and
 * every message about types is as before. */

static int is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The end of the top-level item starting at s: the next comma outside
 * parentheses (a core body's kernel(...) argument), or the NUL. */
static const char *item_end(const char *s)
{
    for (int depth = 0; *s && (*s != ',' || depth > 0); s++)
        depth += (*s == '(') - (*s == ')');
    return s;
}

iron_status iron__kernel_split_names(const char *decl, char **types,
                                    char *names[IRON__MAX_KARGS])
{
    *types = NULL;
    for (int i = 0; i < IRON__MAX_KARGS; i++)
        names[i] = NULL;
    iron__str out = { 0 };
    int n = 0;
    iron_status s = IRON_OK;
    for (const char *item = decl; s == IRON_OK; n++) {
        const char *stop = item_end(item);
        const char *a = item, *q = stop;
        while (a < q && isspace((unsigned char)*a))
            a++;
        while (q > a && isspace((unsigned char)q[-1]))
            q--;
        const char *w = q;
        while (w > a && is_name_char(w[-1]))
            w--;
        /* A name follows the type: a word that is not the item's first
         * (there are too many items for names: the type parser says so). */
        int named = w > a && w < q && n < IRON__MAX_KARGS &&
                    !isdigit((unsigned char)*w) &&
                    (isspace((unsigned char)w[-1]) || w[-1] == '*' ||
                     w[-1] == ')');
        const char *type_end = named ? w : q;
        if (named) {
            const char *t = type_end;
            while (t > a && isspace((unsigned char)t[-1]))
                t--;
            const char *v = t;
            while (v > a && is_name_char(v[-1]))
                v--;
            if (v > a && v < t && isspace((unsigned char)v[-1]))
                s = iron__fail(IRON_EINVAL, "argument %d '%.*s': one name "
                               "at most after the type, as in 'int32 n'",
                               n + 1, (int)(q - a), a);
            for (int j = 0; s == IRON_OK && j < n; j++)
                if (names[j] && strlen(names[j]) == (size_t)(q - w) &&
                    memcmp(names[j], w, (size_t)(q - w)) == 0)
                    s = iron__fail(IRON_EINVAL, "arguments %d and %d are "
                                   "both named '%s'", j + 1, n + 1,
                                   names[j]);
            if (s == IRON_OK) {
                names[n] = iron__malloc((size_t)(q - w) + 1);
                if (!names[n])
                    s = iron__fail(IRON_ENOMEM, "out of memory");
                else {
                    memcpy(names[n], w, (size_t)(q - w));
                    names[n][q - w] = '\0';
                }
            }
        }
        iron__str_printf(&out, "%s%.*s", n ? "," : "",
                         (int)(type_end - item), item);
        if (!*stop)
            break;
        item = stop + 1;
    }
    if (s == IRON_OK && out.oom)
        s = iron__fail(IRON_ENOMEM, "out of memory");
    if (s != IRON_OK) {
        for (int i = 0; i < IRON__MAX_KARGS; i++) {
            iron__free(names[i]);
            names[i] = NULL;
        }
        iron__str_free(&out);
        return s;
    }
    *types = iron__str_take(&out);
    return IRON_OK;
}

static iron_kernel *kernel_new(iron_design *d, const char *entry,
                               const char *source, const char *arg_types,
                               int is_core)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    if (!iron__kis_ident(entry)) {
        iron__design_fail(d, IRON_EINVAL,
                          "iron_kernel_new: entry %s%s%s is not a C "
                          "identifier",
                          entry ? "'" : "", entry ? entry : "NULL",
                          entry ? "'" : "");
        return NULL;
    }
    if (!source || !*source) {
        iron__design_fail(d, IRON_EINVAL,
                          "kernel '%s': source is %s", entry,
                          source ? "empty" : "NULL");
        return NULL;
    }
    if (!arg_types) {
        iron__design_fail(d, IRON_EINVAL, "kernel '%s': arg_types is NULL",
                          entry);
        return NULL;
    }
    iron_kernel *k = iron__calloc(1, sizeof *k);
    if (!k) {
        iron__design_fail(d, IRON_ENOMEM, "out of memory building kernel '%s'",
                          entry);
        return NULL;
    }
    char *types = NULL;
    iron_status s = iron__kernel_split_names(arg_types, &types, k->argnames);
    if (s == IRON_OK)
        s = iron__ktypes_parse(types, k->args, IRON__MAX_KARGS, &k->nargs);
    iron__free(types);
    if (s != IRON_OK) {
        for (int i = 0; i < IRON__MAX_KARGS; i++)
            iron__free(k->argnames[i]);
        iron__free(k);
        iron__design_fail(d, s, "kernel '%s': arg_types \"%s\": %s", entry,
                          arg_types, iron_last_error());
        return NULL;
    }
    for (int i = 0; !is_core && i < k->nargs; i++)
        if (k->args[i].handle != IRON__KH_NONE) {
            /* The message reads k: free it after. */
            iron__design_fail(
                d, IRON_EDESIGN,
                "kernel '%s': argument %d is declared '%s', "
                "which only core bodies take (iron_kernel_new_core); "
                "a kernel in the standard loop receives object "
                "pointers such as int32*",
                entry, i,
                k->args[i].handle == IRON__KH_FIFO ? "fifo" : "barrier");
            for (int j = 0; j < k->nargs; j++)
                iron__free(k->argnames[j]);
            iron__free(k);
            return NULL;
        }
    k->d = d;
    k->is_core = is_core;
    k->entry = iron__strdup(entry);
    k->source = iron__strdup(source);
    if (!k->entry || !k->source || !IRON__VEC_PUSH(d->kernels, k)) {
        iron__free(k->entry);
        iron__free(k->source);
        for (int i = 0; i < k->nargs; i++)
            iron__free(k->argnames[i]);
        iron__free(k);
        iron__design_fail(d, IRON_ENOMEM, "out of memory building kernel '%s'",
                          entry);
        return NULL;
    }
    k->index = d->kernels.n - 1;
    return k;
}

IRON_API iron_kernel *iron_kernel_new(iron_design *d, const char *entry,
                                      const char *source,
                                      const char *arg_types)
{
    return kernel_new(d, entry, source, arg_types, 0);
}

IRON_API iron_kernel *iron_kernel_new_core(iron_design *d, const char *entry,
                                           const char *source,
                                           const char *arg_types)
{
    return kernel_new(d, entry, source, arg_types, 1);
}

/* ---- kernels from files ------------------------------------------------ */

/* A kernel file larger than this is surely not one. */
#define KERNEL_FILE_MAX (16u << 20)
#define KERNEL_INCLUDE_DIRS_MAX 64

/* The whole regular file at path as a string (iron__malloc'd) into *out;
 * a failure is recorded on d, naming the kernel and the file.  Opened as
 * core/file.h opens what it reads: a FIFO or a device is refused before
 * it is opened, and nothing blocks. */
static iron_status read_source(iron_design *d, const char *entry,
                               const char *path, char **out)
{
    *out = NULL;
    struct stat st;
    int err;
    char why[IRON__FILE_WHY_MAX];
    /* No size limit here: a file too large is refused below, as an
     * invalid argument rather than an unreadable file. */
    int fd = iron__file_open(AT_FDCWD, path, 0, IRON__OWNER_ANY, UINT64_MAX,
                             &st, &err, why, sizeof why);
    if (fd < 0)
        return err ? iron__design_fail(d, IRON_EIO, "kernel '%s': cannot "
                                       "read '%s': %s", entry, path,
                                       strerror(err))
                   : iron__design_fail(d, IRON_EIO, "kernel '%s': '%s' is "
                                       "%s", entry, path, why);
    iron_status s = IRON_OK;
    size_t size = (size_t)st.st_size;
    char *buf = NULL;
    if ((uint64_t)st.st_size > KERNEL_FILE_MAX)
        s = iron__design_fail(d, IRON_EINVAL, "kernel '%s': '%s' has %lld "
                              "bytes; a kernel file may have at most %u",
                              entry, path, (long long)st.st_size,
                              KERNEL_FILE_MAX);
    else if (!(buf = iron__malloc(size + 1)))
        s = iron__design_fail(d, IRON_ENOMEM, "out of memory reading '%s'",
                              path);
    ptrdiff_t n = s == IRON_OK ? iron__file_read(fd, buf, size) : 0;
    int e = errno;
    close(fd);
    if (s == IRON_OK && (n < 0 || (size_t)n != size))
        s = iron__design_fail(d, IRON_EIO, "kernel '%s': reading '%s': %s",
                              entry, path,
                              n < 0 ? strerror(e) : "it got shorter");
    if (s == IRON_OK && size == 0)
        s = iron__design_fail(d, IRON_EINVAL, "kernel '%s': '%s' is empty",
                              entry, path);
    if (s == IRON_OK && memchr(buf, '\0', size))
        s = iron__design_fail(d, IRON_EINVAL, "kernel '%s': '%s' holds a NUL "
                              "byte (at offset %zu): not C source",
                              entry, path,
                              (size_t)((char *)memchr(buf, '\0', size) - buf));
    if (s != IRON_OK) {
        iron__free(buf);
        return s;
    }
    buf[size] = '\0';
    *out = buf;
    return IRON_OK;
}

/* The absolute form of a folder the compiler is to search (so that the
 * headers it records name the same files from any working folder). */
static iron_status absolute_dir(iron_design *d, const char *entry,
                                const char *dir, char **out)
{
    *out = NULL;
    char *abs = realpath(dir, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) != 0 || !S_ISDIR(st.st_mode)) {
        int e = errno;
        free(abs);
        return iron__design_fail(d, IRON_EINVAL, "kernel '%s': include "
                                 "folder '%s': %s", entry, dir,
                                 abs ? "not a folder" : strerror(e));
    }
    *out = iron__strdup(abs);
    free(abs);
    return *out ? IRON_OK
                : iron__design_fail(d, IRON_ENOMEM, "out of memory");
}

IRON_API iron_kernel *iron_kernel_new_file(iron_design *d, const char *entry,
                                           const char *path,
                                           const char *arg_types,
                                           int ninclude_dirs,
                                           const char *const *include_dirs)
{
    if (!d || d->status != IRON_OK)
        return NULL;
    const char *name = iron__kis_ident(entry) ? entry : "?";
    if (!path) {
        iron__design_fail(d, IRON_EINVAL, "kernel '%s': path is NULL", name);
        return NULL;
    }
    if (ninclude_dirs < 0 || ninclude_dirs > KERNEL_INCLUDE_DIRS_MAX ||
        (ninclude_dirs > 0 && !include_dirs)) {
        iron__design_fail(d, IRON_EINVAL, "kernel '%s': %d include folders%s "
                          "(expected 0 to %d, and an array for more than 0)",
                          name, ninclude_dirs,
                          include_dirs ? "" : " and no array",
                          KERNEL_INCLUDE_DIRS_MAX);
        return NULL;
    }
    for (int i = 0; i < ninclude_dirs; i++)
        if (!include_dirs[i]) {
            iron__design_fail(d, IRON_EINVAL, "kernel '%s': include folder "
                              "%d is NULL", name, i);
            return NULL;
        }
    char *src = NULL, *abs = NULL, *dir = NULL;
    char **inc = NULL;
    int ninc = 0;
    iron_kernel *k = NULL;
    if (read_source(d, name, path, &src) != IRON_OK)
        goto fail;
    abs = realpath(path, NULL);
    if (!abs) {
        iron__design_fail(d, IRON_EIO, "kernel '%s': '%s': %s", name, path,
                          strerror(errno));
        goto fail;
    }
    const char *slash = strrchr(abs, '/');
    dir = iron__strdup(abs);
    inc = iron__calloc((size_t)ninclude_dirs + 1, sizeof *inc);
    if (!dir || !inc) {
        iron__design_fail(d, IRON_ENOMEM, "out of memory");
        goto fail;
    }
    dir[slash > abs ? slash - abs : 1] = '\0';
    for (; ninc < ninclude_dirs; ninc++)
        if (absolute_dir(d, name, include_dirs[ninc], &inc[ninc]) != IRON_OK)
            goto fail;
    if (!(k = kernel_new(d, entry, src, arg_types, 0)))
        goto fail;
    k->path = iron__strdup(abs);
    if (!k->path) {
        iron__design_fail(d, IRON_ENOMEM, "out of memory");
        goto fail;
    }
    k->path_dir = dir;
    k->incdirs = inc;
    k->nincdirs = ninc;
    free(abs);
    iron__free(src);
    return k;

fail:
    /* A kernel made already belongs to the design, which frees it. */
    for (int i = 0; i < ninc; i++)
        iron__free(inc[i]);
    iron__free(inc);
    iron__free(dir);
    free(abs);
    iron__free(src);
    return NULL;
}

IRON_API iron_status iron_kernel_define(iron_kernel *k, const char *name,
                                        const char *value)
{
    if (!k)
        return iron__fail(IRON_EINVAL, "iron_kernel_define: kernel is NULL");
    iron_design *d = k->d;
    if (d->status != IRON_OK)
        return d->status;
    if (!iron__kis_ident(name))
        return iron__design_fail(d, IRON_EINVAL,
                                 "kernel '%s': define name %s%s%s is not a C "
                                 "identifier",
                                 k->entry, name ? "'" : "",
                                 name ? name : "NULL", name ? "'" : "");
    if (!value)
        value = "";
    if (strchr(value, '\n'))
        return iron__design_fail(d, IRON_EINVAL,
                                 "kernel '%s': define %s has a newline in "
                                 "its value",
                                 k->entry, name);
    for (int i = 0; i < k->ndefines; i++)
        if (strcmp(k->defines[i].name, name) == 0)
            return iron__design_fail(d, IRON_EINVAL,
                                     "kernel '%s': %s is defined twice",
                                     k->entry, name);
    iron__define *nd =
        iron__realloc(k->defines, (size_t)(k->ndefines + 1) * sizeof *nd);
    if (!nd)
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    k->defines = nd;
    char *n = iron__strdup(name), *v = iron__strdup(value);
    if (!n || !v) {
        iron__free(n);
        iron__free(v);
        return iron__design_fail(d, IRON_ENOMEM, "out of memory");
    }
    nd[k->ndefines].name = n;
    nd[k->ndefines].value = v;
    k->ndefines++;
    return iron__public_result(IRON_OK);
}

IRON_API iron_status iron_kernel_define_int(iron_kernel *k, const char *name,
                                            int64_t value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)value);
    return iron__public_result(iron_kernel_define(k, name, buf));
}

IRON_API iron_status iron_kernel_add_cflags(iron_kernel *k, const char *flags)
{
    if (!k)
        return iron__fail(IRON_EINVAL,
                          "iron_kernel_add_cflags: kernel is NULL");
    if (k->d->status != IRON_OK)
        return k->d->status;
    if (!flags)
        return iron__design_fail(k->d, IRON_EINVAL,
                                 "kernel '%s': flags are NULL", k->entry);
    /* Appended: several calls add up, as the name says. */
    iron__str s = { 0 };
    if (k->cflags)
        iron__str_printf(&s, "%s ", k->cflags);
    iron__str_append(&s, flags);
    char *f = iron__str_take(&s);
    if (!f)
        return iron__design_fail(k->d, IRON_ENOMEM, "out of memory");
    iron__free(k->cflags);
    k->cflags = f;
    return iron__public_result(IRON_OK);
}

/* The endings gcc and clang both take as C++ source on every system. */
static int cxx_file_name(const char *path)
{
    static const char *const ext[] = { ".cc", ".cpp", ".cxx", ".C", ".c++" };
    size_t n = strlen(path);
    for (size_t i = 0; i < IRON__COUNT_OF(ext); i++) {
        size_t e = strlen(ext[i]);
        if (n > e && strcmp(path + n - e, ext[i]) == 0 &&
            path[n - e - 1] != '/')
            return 1;
    }
    return 0;
}

int iron__kernel_is_cxx(const iron_kernel *k)
{
    if (k->lang != IRON_KERNEL_LANG_AUTO)
        return k->lang == IRON_KERNEL_LANG_CXX;
    return !k->is_core && k->path && cxx_file_name(k->path);
}

IRON_API iron_status iron_kernel_set_lang(iron_kernel *k,
                                          iron_kernel_lang lang)
{
    if (!k)
        return iron__fail(IRON_EINVAL, "iron_kernel_set_lang: kernel is NULL");
    if (k->d->status != IRON_OK)
        return k->d->status;
    if ((int)lang < IRON_KERNEL_LANG_AUTO || (int)lang > IRON_KERNEL_LANG_CXX)
        return iron__design_fail(k->d, IRON_EINVAL,
                                 "kernel '%s': language %d is not one of "
                                 "IRON_KERNEL_LANG_AUTO (0), _C (1) or "
                                 "_CXX (2)", k->entry, (int)lang);
    if (k->is_core && lang == IRON_KERNEL_LANG_CXX)
        return iron__design_fail(k->d, IRON_EINVAL,
                                 "core body '%s': a core body's source is C "
                                 "(its FIFO API is declared for C); write "
                                 "the C++ part as a kernel the body calls",
                                 k->entry);
    k->lang = lang;
    return iron__public_result(IRON_OK);
}

/* ---- declared cost ----------------------------------------------------- */

IRON_API iron_status iron_kernel_set_cycles(iron_kernel *k,
                                            const char *cycles)
{
    if (!k)
        return iron__fail(IRON_EINVAL,
                          "iron_kernel_set_cycles: kernel is NULL");
    iron_design *d = k->d;
    if (d->status != IRON_OK)
        return d->status;
    if (!cycles)
        return iron__design_fail(d, IRON_EINVAL, "kernel '%s': cycles is "
                                 "NULL (expected a count such as \"5000\" "
                                 "or a formula of the kernel's scalar "
                                 "arguments)", k->entry);
    if (k->is_core)
        return iron__design_fail(d, IRON_EINVAL, "core body '%s': a core "
                                 "body runs once and is never called, so "
                                 "it has no cost per call; declare the cost "
                                 "of the kernels it calls", k->entry);
    iron__kexpr_param params[IRON__MAX_KARGS];
    for (int i = 0; i < k->nargs; i++)
        params[i] = (iron__kexpr_param){
            k->argnames[i], k->args[i].dtype, k->args[i].is_ptr,
            k->args[i].handle == IRON__KH_FIFO      ? "fifo"
            : k->args[i].handle == IRON__KH_BARRIER ? "barrier"
            : k->args[i].handle == IRON__KH_KERNEL  ? "kernel(...)"
                                                    : NULL
        };
    iron__kexpr *e = NULL;
    iron_status s = iron__kexpr_compile(cycles, k->entry, k->nargs, params,
                                        &e);
    if (s != IRON_OK)
        return iron__design_fail(d, s, "kernel '%s': %s", k->entry,
                                 iron_last_error());
    /* A later declaration replaces an earlier one, as set_lang's does. */
    iron__kexpr_free(k->cycles);
    k->cycles = e;
    return iron__public_result(IRON_OK);
}
