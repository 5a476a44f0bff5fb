/*
 * kernel.c - declaring compute kernels: C source, the entry's argument
 * types, and per-kernel defines and flags.  Compilation happens later, in
 * the jit's compile stage.
 */
#include <stdio.h>
#include <string.h>

#include "design/design.h"
#include "design/vec.h"

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
    iron_status s = iron__ktypes_parse(arg_types, k->args, IRON__MAX_KARGS,
                                       &k->nargs);
    if (s != IRON_OK) {
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
    char *f = iron__strdup(flags);
    if (!f)
        return iron__design_fail(k->d, IRON_ENOMEM, "out of memory");
    iron__free(k->cflags);
    k->cflags = f;
    return iron__public_result(IRON_OK);
}
