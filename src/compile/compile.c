/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compile.c - iron__kernel_compile (compile layer): checks the kernel
 * description, then generate -> write -> cc (or c++) -> dlopen in a
 * private temporary directory that is removed whatever happens.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "compile/cc.h"
#include "compile/compile.h"
#include "compile/kheader.h"
#include "compile/loader.h"
#include "compile/shim.h"
#include "compile/tmpdir.h"
#include "compile/wrapper.h"
#include "core/core.h"

/* Numbers the shared objects of this process.  dlopen returns the already
 * loaded object when a path repeats, even if the file behind it is new;
 * temporary directory names can repeat once removed, this counter cannot. */
static atomic_ulong build_seq;

/* Checks every field of k the generator relies on; messages start with
 * the label and name the field. */
static iron_status check_src(const iron__kernel_src *k, const char *label)
{
    if (!iron__kis_ident(k->entry))
        return iron__fail(IRON_EINVAL,
                          "%s: entry '%.100s' is not a C identifier",
                          label, k->entry);
    if (strncmp(k->entry, "iron__", 6) == 0)
        return iron__fail(IRON_EINVAL,
                          "%s: entry '%.100s': names starting with 'iron__' "
                          "are reserved for the generated wrapper",
                          label, k->entry);
    if (!k->source)
        return iron__fail(IRON_EINVAL, "%s: source is NULL", label);
    if (k->nargs < 0)
        return iron__fail(IRON_EINVAL, "%s: nargs is %d (must be >= 0)",
                          label, k->nargs);
    if (k->nargs > 0 && !k->args)
        return iron__fail(IRON_EINVAL, "%s: args is NULL but nargs is %d",
                          label, k->nargs);
    for (int i = 0; i < k->nargs; i++)
        if ((int)k->args[i].dtype < 0 ||
            (int)k->args[i].dtype >= IRON_DTYPE_COUNT_)
            return iron__fail(IRON_EINVAL,
                              "%s: argument %d has dtype %d, outside "
                              "iron_dtype", label, i + 1,
                              (int)k->args[i].dtype);
    if (k->ninclude_dirs < 0 || k->ninclude_dirs > IRON__KSRC_INCLUDE_MAX ||
        (k->ninclude_dirs > 0 && !k->include_dirs))
        return iron__fail(IRON_EINVAL, "%s: %d include folders (expected 0 "
                          "to %d, with an array for more than 0)", label,
                          k->ninclude_dirs, IRON__KSRC_INCLUDE_MAX);
    for (int i = 0; i < k->ninclude_dirs; i++)
        if (!k->include_dirs[i])
            return iron__fail(IRON_EINVAL, "%s: include folder %d is NULL",
                              label, i);
    if (k->is_cxx && k->is_core)
        return iron__fail(IRON_EINVAL, "%s: a core body's source is C, not "
                          "C++", label);
    if (k->timed != 0 && k->timed != 1)
        return iron__fail(IRON_EINVAL, "%s: timed is %d (expected 0 or 1)",
                          label, k->timed);
    if (k->ndefines < 0)
        return iron__fail(IRON_EINVAL, "%s: ndefines is %d (must be >= 0)",
                          label, k->ndefines);
    if (k->ndefines > 0 && !k->define_names)
        return iron__fail(IRON_EINVAL,
                          "%s: define_names is NULL but ndefines is %d",
                          label, k->ndefines);
    return IRON_OK;
}

iron_status iron__kernel_compile(const iron__kernel_src *k, iron__kobj **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "kernel compile: out is NULL");
    *out = NULL;
    if (!k)
        return iron__fail(IRON_EINVAL,
                          "kernel compile: the kernel description is NULL");
    if (!k->entry)
        return iron__fail(IRON_EINVAL, "%s: entry is NULL",
                          k->label ? k->label : "kernel compile");

    char default_label[160];
    const char *label = k->label;
    if (!label) {
        snprintf(default_label, sizeof default_label, "kernel '%.100s'",
                 k->entry);
        label = default_label;
    }
    iron_status st = check_src(k, label);
    if (st != IRON_OK)
        return st;

    iron__str text = { 0 };
    iron__ktmp tmp = { 0 };
    char *src = NULL, *so = NULL, *log = NULL, *deps = NULL, *inc = NULL,
         *shim_path = NULL;

    /* The runtime shim is linked as the library's prebuilt object when
     * the compiler can link it, else compiled from its text behind the
     * kernel.  A compiler that cannot be asked gets the text; the compile
     * then says what is wrong with it. */
    char identity[512];
    size_t shim_len = 0;
    const void *shim = NULL;
    st = iron__compiler_identity(k->is_cxx, identity, sizeof identity);
    if (st == IRON_ENOMEM) {
        iron__fail_context(st, "%.200s", label);
        return st;
    }
    if (st == IRON_OK)
        shim = iron__shim_object(identity, k->cflags, &shim_len);
    st = iron__kwrap_generate(k, shim == NULL, &text);
    if (st != IRON_OK) {
        iron__fail_context(st, "%.200s", label);
        goto done;
    }
    st = iron__ktmp_create(&tmp);
    if (st == IRON_OK)
        st = iron__kheader_install(&tmp, k->is_cxx, &inc);
    if (st != IRON_OK) {
        iron__fail_context(st, "%.200s", label);
        goto done;
    }

    char name[48];
    unsigned long seq = atomic_fetch_add(&build_seq, 1) + 1;
    /* The ending tells the compiler driver the language. */
    snprintf(name, sizeof name, "k%lu.%s", seq, k->is_cxx ? "cc" : "c");
    src = iron__ktmp_path(&tmp, name);
    snprintf(name, sizeof name, "k%lu.so", seq);
    so = src ? iron__ktmp_path(&tmp, name) : NULL;
    log = so ? iron__ktmp_path(&tmp, "cc.log") : NULL;
    deps = log ? iron__ktmp_path(&tmp, "deps.d") : NULL;
    if (deps && shim)
        shim_path = iron__ktmp_path(&tmp, "kernel_rt.o");
    if (!deps || (shim && !shim_path)) {
        st = iron__fail(IRON_ENOMEM, "%.200s: out of memory naming "
                        "temporary files", label);
        goto done;
    }

    st = iron__ktmp_write(src, text.p, text.len);
    if (st == IRON_OK && shim)
        st = iron__ktmp_write(shim_path, shim, shim_len);
    if (st != IRON_OK) {
        iron__fail_context(st, "%.200s", label);
        goto done;
    }
    iron__cc_job job = { label, k->cflags, src, so, log, deps, inc,
                         shim_path, shim != NULL, k->quote_dir,
                         k->ninclude_dirs, k->include_dirs, k->is_cxx,
                         k->aie_arch, k->timed };
    st = iron__compile_cc(&job);
    char *image = NULL, *dtext = NULL;
    size_t image_len = 0, dlen = 0;
    if (st == IRON_OK)
        st = iron__ktmp_read(so, &image, &image_len);
    if (st == IRON_OK)
        st = iron__ktmp_read(deps, &dtext, &dlen);
    if (st == IRON_OK)
        st = iron__kobj_load(so, label, out);
    if (st == IRON_OK) {
        iron__kobj_set_image(*out, image, image_len);
        st = iron__kobj_set_deps(*out, dtext, dlen, tmp.dir);
        if (st != IRON_OK) {
            iron__kobj_free(*out);
            *out = NULL;
        }
    } else {
        iron__free(image);
    }
    iron__free(dtext);

done:
    iron__ktmp_remove(&tmp);
    iron__free(shim_path);
    iron__free(inc);
    iron__free(deps);
    iron__free(log);
    iron__free(so);
    iron__free(src);
    iron__str_free(&text);
    return st;
}

iron_status iron__kobj_load_image(const void *image, size_t len,
                                 const char *label, iron__kobj **out)
{
    if (!out)
        return iron__fail(IRON_EINVAL, "kernel load: out is NULL");
    *out = NULL;
    if (!image || len == 0)
        return iron__fail(IRON_EINVAL, "%s: no image to load",
                          label ? label : "kernel load");
    iron__ktmp tmp = { 0 };
    char *so = NULL, *copy = iron__malloc(len);
    iron_status st = copy ? iron__ktmp_create(&tmp)
                          : iron__fail(IRON_ENOMEM, "out of memory");
    if (st == IRON_OK) {
        char name[48];
        /* A fresh name: dlopen of a path it has seen may return the old
         * handle instead of a new instance. */
        snprintf(name, sizeof name, "k%lu.so",
                 atomic_fetch_add(&build_seq, 1) + 1);
        so = iron__ktmp_path(&tmp, name);
        st = so ? iron__ktmp_write(so, image, len)
                : iron__fail(IRON_ENOMEM, "out of memory");
    }
    if (st == IRON_OK)
        st = iron__kobj_load(so, label ? label : "kernel load", out);
    if (st == IRON_OK) {
        memcpy(copy, image, len);
        iron__kobj_set_image(*out, copy, len);
        copy = NULL;
    }
    iron__ktmp_remove(&tmp);
    iron__free(so);
    iron__free(copy);
    return st;
}

iron_status iron__kobj_clone(const iron__kobj *o, const char *label,
                             iron__kobj **out)
{
    size_t len;
    const char *image = iron__kobj_image(o, &len);
    return iron__kobj_load_image(image, len, label ? label : "kernel clone",
                                 out);
}
