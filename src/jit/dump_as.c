/*
 * dump_as.c - iron_jit_dump_as: the placed design in a chosen form.
 * "text" is iron_jit_dump (a full build: it also shows the tiles' memory
 * with the kernels' data); "json", "dot" and "grid" stop after placement,
 * so they need no C compiler.
 */
#include <string.h>

#include "design/design.h"
#include "jit/jit.h"

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
        c.fn = iron__design_dump_json;
    else if (strcmp(format, "dot") == 0)
        c.fn = iron__design_dump_dot;
    else if (strcmp(format, "grid") == 0)
        c.fn = iron__design_dump_grid;
    else
        return iron__fail(IRON_EINVAL,
                          "iron_jit_dump_as: format '%s'; expected text, "
                          "json, dot or grid",
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
