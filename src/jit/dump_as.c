/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dump_as.c - iron_jit_dump_as: the placed design in a chosen form.
 * "text" is iron_jit_dump (a full build: it also shows the tiles' memory
 * with the kernels' data); "json", "dot", "grid" and the MLIR-AIE forms
 * "mlir" and "mlir-generic" (src/mlir/export*.c, target "latest") stop after
 * placement, so they need no C compiler.
 */
#include <string.h>

#include "design/design.h"
#include "dump/dump.h"
#include "jit/jit.h"
#include "mlir/export.h"

typedef iron_status (*formatter)(const iron_design *d,
                                 const struct iron_program *p,
                                 const char *signature, iron__str *s);

typedef struct dump_ctx {
    formatter fn;
    iron__str out;
} dump_ctx;

static iron_status format_placed(const iron_program *p, const char *signature,
                                 void *ctx)
{
    dump_ctx *c = ctx;
    return c->fn(p->d, p, signature, &c->out);
}

/* The MLIR forms (the text of iron_jit_export_mlir's aie.mlir, with the
 * default options).  The signature is not part of the text: it must
 * stay what upstream's tools read. */
static iron_status mlir_pretty(const iron_design *d,
                               const struct iron_program *p,
                               const char *signature, iron__str *s)
{
    (void)d;
    (void)signature;
    const iron__mlir_target *latest;
    iron_status st = iron__mlir_target_find(NULL, &latest);
    return st == IRON_OK ? iron__mlir_export_text(p, latest, 0, s) : st;
}

static iron_status mlir_generic(const iron_design *d,
                                const struct iron_program *p,
                                const char *signature, iron__str *s)
{
    (void)d;
    (void)signature;
    const iron__mlir_target *latest;
    iron_status st = iron__mlir_target_find(NULL, &latest);
    return st == IRON_OK ? iron__mlir_export_text(p, latest, 1, s) : st;
}

IRON_API iron_status iron_jit_dump_as(iron_jit *j,
                                      const iron_launch_config *config,
                                      int nparams, const iron_param *params,
                                      int nargs, iron_tensor *const *args,
                                      const char *format, char **text)
{
    if (!text)
        return iron__fail(IRON_EINVAL, "iron_jit_dump_as: text is NULL");
    *text = NULL;
    if (!j)
        return iron__fail(IRON_EINVAL, "iron_jit_dump_as: jit is NULL");
    if (!format || strcmp(format, "text") == 0)
        return iron__public_result(
            iron_jit_dump(j, config, nparams, params, nargs, args, text));
    dump_ctx c = { NULL, { 0 } };
    if (strcmp(format, "json") == 0)
        c.fn = iron__dump_json;
    else if (strcmp(format, "dot") == 0)
        c.fn = iron__dump_dot;
    else if (strcmp(format, "grid") == 0)
        c.fn = iron__dump_grid;
    else if (strcmp(format, "mlir") == 0)
        c.fn = mlir_pretty;
    else if (strcmp(format, "mlir-generic") == 0)
        c.fn = mlir_generic;
    else
        return iron__fail(IRON_EINVAL,
                          "iron_jit_dump_as: format '%s'; expected text, "
                          "json, dot, grid, mlir or mlir-generic",
                          format);
    iron_status s = iron__jit_place_only(j, config, nparams, params, nargs,
                                         args, format_placed, &c);
    if (s != IRON_OK) {
        iron__str_free(&c.out);
        return iron__public_result(s);
    }
    *text = iron__str_take(&c.out);
    return iron__public_result(*text ? IRON_OK
                 : iron__fail(IRON_ENOMEM, "iron_jit_dump_as: out of memory"));
}
