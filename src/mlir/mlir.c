/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * mlir.c - the public face of the MLIR-AIE importer: iron_mlir_design
 * parses a module, reads it (import.c, import_seq.c) and tries its design
 * function once on the module's own device -- design, verification and
 * placement, no compiler -- so that a file that cannot run fails here,
 * before anything is built or run; the design function rebuilds it for
 * each specialization (import_build.c).
 */
#include <stdio.h>
#include <string.h>

#include "core/struct.h"
#include "device/device.h"
#include "mlir/import.h"
#include "place/place.h"
#include "program/program.h"

IRON_API void iron_mlir_free(iron_mlir *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nkernels; i++) {
        iron__free(m->kernels[i].name);
        iron__free(m->kernels[i].source);
    }
    iron__free(m->kernels);
    for (int i = 0; m->bufs && i < m->nbufs; i++) {
        iron__free(m->bufs[i].name);
        iron__free(m->bufs[i].initial);
    }
    for (int i = 0; m->locks && i < m->nlocks; i++)
        iron__free(m->locks[i].name);
    for (int i = 0; m->funcs && i < m->nfuncs; i++)
        iron__free(m->funcs[i].arg_types);
    for (int i = 0; m->args && i < m->nargs; i++)
        iron__free(m->args[i].name);
    iron__free(m->fifos);
    iron__free(m->links);
    iron__free(m->cores);
    iron__free(m->bufs);
    iron__free(m->locks);
    iron__free(m->funcs);
    iron__free(m->args);
    iron__free(m->items);
    iron__free(m->args_decl);
    iron__free(m->tile_col);
    iron__free(m->tile_row);
    iron__free(m->buf_of);
    iron__free(m->lock_of);
    iron__free(m->jit_name);
    iron__free(m->want_device);
    iron__free(m->file);
    iron__mlir_module_free(m->mod);
    iron__free(m);
}

static iron_status copy_kernels(iron_mlir *m, int n,
                                const iron_mlir_kernel *k)
{
    if (n < 0 || n > 4096 || (n > 0 && !k))
        return iron__fail(IRON_EINVAL,
                          "iron_mlir_design: %d kernels%s; expected 0 to "
                          "4096 and a table when there are any",
                          n, n > 0 && !k ? " but kernels is NULL" : "");
    m->kernels = iron__calloc((size_t)n + 1, sizeof *m->kernels);
    if (!m->kernels)
        return iron__fail(IRON_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        if (!k[i].name || !k[i].name[0] || !k[i].source)
            return iron__fail(IRON_EINVAL,
                              "iron_mlir_design: kernel %d has %s", i,
                              !k[i].name || !k[i].name[0]
                                  ? "no name"
                                  : "no source (NULL)");
        for (int j = 0; j < i; j++)
            if (strcmp(k[j].name, k[i].name) == 0)
                return iron__fail(IRON_EINVAL,
                                  "iron_mlir_design: kernel '%s' is given "
                                  "twice (entries %d and %d)",
                                  k[i].name, j, i);
        m->kernels[i].name = iron__strdup(k[i].name);
        m->kernels[i].source = iron__strdup(k[i].source);
        m->kernels[i].lang = k[i].lang;
        m->nkernels = i + 1;
        if (!m->kernels[i].name || !m->kernels[i].source)
            return iron__fail(IRON_ENOMEM, "out of memory");
    }
    return IRON_OK;
}

/* Design, verification and placement on the module's own device with
 * tensors of the sequence's types: what a first call would do before
 * compiling. */
static iron_status dry_run(iron_mlir *m)
{
    iron_device *dev = NULL;
    iron_status s = iron_device_get(m->device_name, &dev);
    if (s != IRON_OK)
        return s;
    iron__argsig *sig = iron__calloc((size_t)m->nargs, sizeof *sig);
    if (!sig)
        return iron__fail(IRON_ENOMEM, "out of memory");
    for (int i = 0; i < m->nargs; i++) {
        const iron__imp_arg *a = &m->args[i];
        sig[i].name = a->name;
        sig[i].role = a->reads && a->writes ? IRON__ROLE_INOUT
                      : a->writes           ? IRON__ROLE_OUT
                                            : IRON__ROLE_IN;
        sig[i].dtype = a->dtype;
        sig[i].shape = a->shape;
        sig[i].numel = 1;
        for (int k = 0; k < a->shape.ndim; k++)
            sig[i].numel *= a->shape.dims[k];
    }
    iron__place_request rq = {
        .name = m->jit_name,
        .nargs = m->nargs,
        .args = sig,
        .cols = dev->info.columns,
        .dev = &dev->info,
        .fn = iron_mlir_design_fn,
        .user = m,
    };
    iron__place_outcome how;
    iron_program *p = NULL;
    s = iron__place_design(&rq, &p, &how);
    if (s != IRON_OK && strcmp(how.stage, "verify") == 0)
        s = iron__fail_context(s, "%s (on %s)", m->file ? m->file : "<mlir>",
                               m->device_name);
    else if (s != IRON_OK && strcmp(how.stage, "place") == 0)
        s = iron__fail_context(s, "%s (placed on %s)",
                               m->file ? m->file : "<mlir>", m->device_name);
    iron__program_free(p);
    iron__free(sig);
    return s;
}

IRON_API iron_status iron_mlir_design(const char *text, size_t len,
                                      const char *file, int nkernels,
                                      const iron_mlir_kernel *kernels,
                                      iron_mlir **out)
{
    return iron__public_result(iron_mlir_design_with(text, len, file,
                                                     nkernels, kernels, NULL,
                                                     out));
}

IRON_API iron_status iron_mlir_design_with(
    const char *text, size_t len, const char *file, int nkernels,
    const iron_mlir_kernel *kernels, const iron_mlir_import_options *opts,
    iron_mlir **out)
{
    if (out)
        *out = NULL;
    if (!out)
        return iron__fail(IRON_EINVAL, "iron_mlir_design: out is NULL");
    if (!text && len > 0)
        return iron__fail(IRON_EINVAL,
                          "iron_mlir_design: text is NULL (len %zu)", len);
    iron_status cs =
        opts ? iron__struct_check(
                   "iron_mlir_design_with: options",
                   "iron_mlir_import_options", opts->size,
                   IRON__FIRST_SIZE(iron_mlir_import_options, device_name),
                   sizeof *opts)
             : IRON_OK;
    if (cs != IRON_OK)
        return cs;
    const char *want = opts && opts->device_name && opts->device_name[0]
                           ? opts->device_name
                           : NULL;
    iron_mlir *m = iron__calloc(1, sizeof *m);
    if (!m)
        return iron__fail(IRON_ENOMEM, "out of memory");
    iron_status s = IRON_OK;
    m->file = iron__strdup(file ? file : "<mlir>");
    if (want && m->file)
        m->want_device = iron__strdup(want);
    if (!m->file || (want && !m->want_device))
        s = iron__fail(IRON_ENOMEM, "out of memory");
    if (s == IRON_OK)
        s = copy_kernels(m, nkernels, kernels);
    if (s == IRON_OK)
        s = iron__mlir_parse(text ? text : "", len, m->file, &m->mod);
    if (s == IRON_OK)
        s = iron__imp_analyze(m);
    if (s == IRON_OK)
        s = iron__imp_sequence(m);
    if (s == IRON_OK)
        s = dry_run(m);
    if (s != IRON_OK) {
        iron_mlir_free(m);
        return s;
    }
    *out = m;
    return iron__public_result(IRON_OK);
}

IRON_API int iron_mlir_design_fn(iron_design *d, void *user)
{
    if (!d)
        return iron__fail(IRON_EINVAL, "iron_mlir_design_fn: design is NULL"),
               1;
    if (!user)
        return iron__design_fail(d, IRON_EINVAL,
                                 "iron_mlir_design_fn: user is NULL; pass "
                                 "the iron_mlir (iron_jit_options.user)"),
               1;
    return iron__imp_build(user, d) == IRON_OK ? 0 : 1;
}

IRON_API const char *iron_mlir_args(const iron_mlir *m)
{
    return m ? m->args_decl : NULL;
}

IRON_API const char *iron_mlir_device(const iron_mlir *m)
{
    return m ? m->device_name : NULL;
}

IRON_API iron_status iron_mlir_jit_create(iron_mlir *m, const char *name,
                                          iron_jit **out)
{
    if (out)
        *out = NULL;
    if (!m || !out)
        return iron__fail(IRON_EINVAL, "iron_mlir_jit_create: %s is NULL",
                          !m ? "the module" : "out");
    iron_jit_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.name = name ? name : m->jit_name;
    o.args = m->args_decl;
    o.user = m;
    return iron__public_result(iron_jit_create(iron_mlir_design_fn, &o, out));
}
