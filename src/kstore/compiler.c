/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compiler.c - the kernel store's call into the compiler (src/compile):
 * one kernel into one shared object, with the jit's flags and the
 * kernel's own, in the kernel's language and for the device's AIE
 * architecture.
 */
#include <string.h>

#include "design/design.h"
#include "kstore/store.h"

int iron__kstore_same_kernel(const iron_kernel *a, const iron_kernel *b)
{
    if (a->is_core != b->is_core ||
        iron__kernel_is_cxx(a) != iron__kernel_is_cxx(b) ||
        strcmp(a->entry, b->entry) ||
        strcmp(a->source, b->source) ||
        a->nargs != b->nargs || a->ndefines != b->ndefines ||
        (a->cflags == NULL) != (b->cflags == NULL) ||
        (a->cflags && strcmp(a->cflags, b->cflags)))
        return 0;
    if (memcmp(a->args, b->args, (size_t)a->nargs * sizeof a->args[0]))
        return 0;
    if ((a->path == NULL) != (b->path == NULL) ||
        (a->path && strcmp(a->path, b->path)) || a->nincdirs != b->nincdirs)
        return 0;
    for (int i = 0; i < a->nincdirs; i++)
        if (strcmp(a->incdirs[i], b->incdirs[i]))
            return 0;
    for (int i = 0; i < a->ndefines; i++)
        if (strcmp(a->defines[i].name, b->defines[i].name) ||
            strcmp(a->defines[i].value, b->defines[i].value))
            return 0;
    return 1;
}

iron_status iron__kstore_compile(iron__kstore *ks, const iron_kernel *k,
                                 const char *label, int aie_arch, int timed,
                                 iron__kobj **out)
{
    *out = NULL;
    const char *names[64], *values[64];
    if (k->ndefines > 64)
        return iron__fail(IRON_EINVAL, "kernel '%s': more than 64 defines",
                          k->entry);
    for (int m = 0; m < k->ndefines; m++) {
        names[m] = k->defines[m].name;
        values[m] = k->defines[m].value;
    }
    iron__str flags = { 0 };
    iron__str_printf(&flags, "%s %s", ks->cflags ? ks->cflags : "-O2",
                     k->cflags ? k->cflags : "");
    iron__kernel_src src = {
        .label = label,
        .entry = k->entry,
        .source = k->source,
        .nargs = k->nargs,
        .args = k->args,
        .ndefines = k->ndefines,
        .define_names = names,
        .define_values = values,
        .cflags = iron__str_get(&flags),
        .is_core = k->is_core,
        .source_name = k->path,
        .quote_dir = k->path_dir,
        .ninclude_dirs = k->nincdirs,
        .include_dirs = (const char *const *)k->incdirs,
        .is_cxx = iron__kernel_is_cxx(k),
        .aie_arch = aie_arch,
        .timed = timed,
    };
    iron_status s = flags.oom
                        ? iron__fail(IRON_ENOMEM, "out of memory")
                        : iron__kernel_compile(&src, out);
    iron__str_free(&flags);
    if (s == IRON_OK)
        ks->stats->kernel_compiles++;
    return s;
}
