/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * loader.c - the loaded kernel object (compile layer): dlopen, dlsym of
 * the entry wrapper, dlclose.
 */
#include <dlfcn.h>
#include <string.h>

#include "compile/loader.h"
#include "compile/rt.h"
#include "compile/srcline.h"
#include "compile/wrapper.h"
#include "core/core.h"

struct iron__kobj {
    int refs;                  /* iron__kobj_ref / iron__kobj_free */
    void *dl;
    iron__kernel_fn fn;
    char *image;               /* the shared object's bytes, for clones */
    size_t image_len;
    char **deps;               /* included files, from -MD */
    int ndeps;
};

/* dlsym returns an object pointer; POSIX guarantees it converts to a
 * function pointer, and memcpy says so without a cast warning. */
_Static_assert(sizeof(void *) == sizeof(iron__kernel_fn),
               "function and object pointers differ in size");

/* Points the object's runtime shim (wrapper.c) at the host, before
 * anything can call the kernel.  An object without one (from an older
 * artifact) loads all the same: its output and exits are libc's. */
static void bind_runtime(void *dl)
{
    void *sym = dlsym(dl, "iron__rt_bind");
    if (!sym)
        return;
    void (*bind)(const iron__rt_api *);
    memcpy(&bind, &sym, sizeof bind);
    bind(iron__rt_table());
}

iron_status iron__kobj_load(const char *so_path, const char *label,
                            iron__kobj **out)
{
    *out = NULL;
    /* Allocate before dlopen so an allocation failure has nothing to
     * undo. */
    iron__kobj *o = iron__calloc(1, sizeof *o);
    if (!o)
        return iron__fail(IRON_ENOMEM,
                          "%.200s: out of memory loading the kernel", label);

    dlerror();
    o->dl = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    if (!o->dl) {
        const char *e = dlerror();
        iron__free(o);
        return iron__fail(IRON_ELOAD,
                          "%.200s: cannot load the compiled kernel: %.1000s",
                          label, e ? e : "unknown dlopen error");
    }
    bind_runtime(o->dl);
    void *sym = dlsym(o->dl, IRON__KWRAP_SYMBOL);
    if (!sym) {
        const char *e = dlerror();
        iron_status st = iron__fail(
            IRON_ELOAD,
            "%.200s: the compiled kernel has no " IRON__KWRAP_SYMBOL
            " (were the visibility flags overridden?): %.1000s",
            label, e ? e : "symbol is NULL");
        dlclose(o->dl);
        iron__free(o);
        return st;
    }
    memcpy(&o->fn, &sym, sizeof o->fn);
    o->refs = 1;
    *out = o;
    return IRON_OK;
}

void iron__kobj_ref(iron__kobj *o)
{
    o->refs++;
}

int iron__kobj_refs(const iron__kobj *o)
{
    return o->refs;
}

void (*iron__kobj_raw_entry(const iron__kobj *o))(void)
{
    void (*fn)(void) = NULL;
    void *at = o ? dlsym(o->dl, "iron__kentry") : NULL;
    if (at)
        memcpy(&fn, at, sizeof fn);
    return fn;
}

iron__kernel_fn iron__kobj_entry(const iron__kobj *o)
{
    return o ? o->fn : NULL;
}

/* Any address inside the object (for srcline's registry). */
static const void *kobj_addr(const iron__kobj *o)
{
    const void *at;
    memcpy(&at, &o->fn, sizeof at);
    return at;
}

void iron__kobj_free(iron__kobj *o)
{
    if (!o || --o->refs > 0)
        return;
    if (o->image)
        iron__srcline_forget(kobj_addr(o));
    dlclose(o->dl);
    iron__free(o->image);
    for (int i = 0; i < o->ndeps; i++)
        iron__free(o->deps[i]);
    iron__free(o->deps);
    iron__free(o);
}

void iron__kobj_set_image(iron__kobj *o, char *image, size_t len)
{
    if (o->image)
        iron__srcline_forget(kobj_addr(o));
    iron__free(o->image);
    o->image = image;
    o->image_len = len;
    /* Its file is deleted after loading: fault messages read the debug
     * information from these bytes. */
    if (image)
        iron__srcline_remember(kobj_addr(o), image, len);
}

const char *iron__kobj_image(const iron__kobj *o, size_t *len)
{
    *len = o ? o->image_len : 0;
    return o ? o->image : NULL;
}

iron_status iron__kobj_bind_core(iron__kobj *o, const iron__core_api *api)
{
    if (!o || !api)
        return iron__fail(IRON_EINVAL, "core bind: %s is NULL",
                          o ? "api" : "object");
    void *sym = dlsym(o->dl, "iron__core_bind");
    if (!sym)
        return iron__fail(IRON_ELOAD,
                          "the compiled object is not a core body (no "
                          "iron__core_bind)");
    void (*bind)(const iron__core_api *);
    memcpy(&bind, &sym, sizeof bind);
    bind(api);
    return IRON_OK;
}

const char *const *iron__kobj_deps(const iron__kobj *o, int *n)
{
    *n = o ? o->ndeps : 0;
    return o ? (const char *const *)o->deps : NULL;
}

/* Make's dependency syntax: "target: dep dep \<newline> dep"; blanks in
 * names are escaped with a backslash. */
iron_status iron__kobj_set_deps(iron__kobj *o, const char *text, size_t len,
                                const char *tmp_dir)
{
    size_t tmp_len = strlen(tmp_dir);
    const char *p = memchr(text, ':', len);
    if (!p)
        return IRON_OK;
    const char *end = text + len;
    p++;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
                           *p == '\r' || (*p == '\\' && p + 1 < end &&
                                           (p[1] == '\n' || p[1] == '\r'))))
            p++;
        if (p >= end)
            break;
        char word[4096];
        size_t n = 0;
        while (p < end && *p != ' ' && *p != '\t' && *p != '\n' &&
               *p != '\r') {
            if (*p == '\\' && p + 1 < end && p[1] == ' ')
                p++;
            if (n + 1 < sizeof word)
                word[n++] = *p;
            p++;
        }
        word[n] = '\0';
        if (n == 0 || word[n - 1] == ':' ||
            (strncmp(word, tmp_dir, tmp_len) == 0 && word[tmp_len] == '/'))
            continue;
        char **v = iron__realloc(o->deps, (size_t)(o->ndeps + 1) * sizeof *v);
        if (!v)
            return iron__fail(IRON_ENOMEM, "out of memory listing headers");
        o->deps = v;
        if (!(o->deps[o->ndeps] = iron__strdup(word)))
            return iron__fail(IRON_ENOMEM, "out of memory listing headers");
        o->ndeps++;
    }
    return IRON_OK;
}
