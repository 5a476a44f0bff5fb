/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * check.c - the checks every algorithm makes before it builds anything:
 * the declared arguments, their dtypes and shapes, the kernel parameter
 * against the algorithm's calling convention, the tile size, and what
 * fits in a compute tile.  Each names the argument or parameter and gives
 * expected vs got.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "algo/algo.h"
#include "compile/compile.h"
#include "design/design.h"
#include "program/program.h"

const char *iron__algo_arg_name(const iron_design *d, int arg)
{
    return arg >= 0 && arg < d->nargs ? d->args[arg].name : "";
}

const char *iron__algo_describe(const iron_design *d, int arg, char *buf,
                                size_t len)
{
    iron_shape sh = iron_design_arg_shape(d, arg);
    int n = snprintf(buf, len, "%s[",
                     iron_dtype_name(iron_design_arg_dtype(d, arg)));
    for (int i = 0; i < sh.ndim && n > 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, "%s%lld", i ? ", " : "",
                      (long long)sh.dims[i]);
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "]");
    return buf;
}

iron_status iron__algo_check_nargs(iron_design *d, const char *algo, int want)
{
    int got = iron_design_nargs(d);
    if (got == want)
        return IRON_OK;
    return iron_design_fail(d, IRON_EDESIGN,
                            "%s: the jit declares %d tensor argument%s, the "
                            "algorithm takes %d (declare them with "
                            "iron_algo_args)",
                            algo, got, got == 1 ? "" : "s", want);
}

static int same_shape(iron_shape a, iron_shape b)
{
    if (a.ndim != b.ndim)
        return 0;
    for (int i = 0; i < a.ndim; i++)
        if (a.dims[i] != b.dims[i])
            return 0;
    return 1;
}

iron_status iron__algo_check_alike(iron_design *d, const char *algo,
                                   int first, int last)
{
    iron_dtype dt = iron_design_arg_dtype(d, first);
    iron_shape sh = iron_design_arg_shape(d, first);
    for (int i = first + 1; i <= last; i++) {
        iron_dtype got_dt = iron_design_arg_dtype(d, i);
        int shape_ok = same_shape(iron_design_arg_shape(d, i), sh);
        if (got_dt == dt && shape_ok)
            continue;
        char want[128], got[128];
        return iron_design_fail(d, got_dt != dt ? IRON_EDTYPE : IRON_ESHAPE,
                                "%s: argument %d ('%s') is %s; expected the "
                                "%s of argument %d ('%s'), %s",
                                algo, i, iron__algo_arg_name(d, i),
                                iron__algo_describe(d, i, got, sizeof got),
                                got_dt != dt ? "dtype" : "shape", first,
                                iron__algo_arg_name(d, first),
                                iron__algo_describe(d, first, want,
                                                    sizeof want));
    }
    return IRON_OK;
}

iron_status iron__algo_check_words(iron_design *d, const char *algo, int arg,
                                   int64_t elems, const char *what)
{
    iron_dtype dt = iron_design_arg_dtype(d, arg);
    int64_t bytes = elems * (int64_t)iron_dtype_size(dt);
    if (bytes % 4 == 0)
        return IRON_OK;
    char got[128];
    return iron_design_fail(d, IRON_ESHAPE,
                            "%s: argument %d ('%s') %s: %s is %lld %s "
                            "element%s = %lld byte%s, not a whole number "
                            "of the 4-byte words the shim DMA moves",
                            algo, arg, iron__algo_arg_name(d, arg),
                            iron__algo_describe(d, arg, got, sizeof got),
                            what, (long long)elems, iron_dtype_name(dt),
                            elems == 1 ? "" : "s", (long long)bytes,
                            bytes == 1 ? "" : "s");
}

/* "int32*, int32*, int32": the types the convention expects. */
static void expected_text(const iron__algo_call *call, char *buf, size_t len)
{
    int n = 0;
    buf[0] = '\0';
    for (int i = 0; i < call->ntypes && n >= 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, "%s%s%s", i ? ", " : "",
                      iron_dtype_name(call->dtypes[i]),
                      call->is_ptr[i] ? "*" : "");
}

static int matches(const iron__algo_call *call, const iron__ktype *t, int n)
{
    if (n != call->ntypes)
        return 0;
    for (int i = 0; i < n; i++)
        if (t[i].handle != IRON__KH_NONE || t[i].dtype != call->dtypes[i] ||
            t[i].is_ptr != call->is_ptr[i])
            return 0;
    return 1;
}

const iron_kernel_ref *iron__algo_kernel(iron_design *d, const char *algo,
                                         const iron__algo_call *call)
{
    const iron_kernel_ref *f = iron_design_param_kernel(d, "f");
    if (iron_design_status(d) != IRON_OK)
        return NULL;
    char want[160];
    expected_text(call, want, sizeof want);
    iron__ktype types[IRON__KSUB_MAX];
    int n = 0;
    /* Read as iron_kernel_new reads it, parameter names and all. */
    char *names[IRON__MAX_KARGS], *bare = NULL;
    iron_status s = iron__kernel_split_names(f->arg_types, &bare, names);
    if (s == IRON_OK) {
        for (int i = 0; i < IRON__MAX_KARGS; i++)
            iron__free(names[i]);
        s = iron__ktypes_parse(bare, types, IRON__KSUB_MAX, &n);
        iron__free(bare);
    }
    if (s != IRON_OK) {
        iron_design_fail(d, IRON_EPARAM,
                         "%s: parameter 'f' (kernel '%s'): arg_types \"%s\": "
                         "%s; expected \"%s\"",
                         algo, f->entry, f->arg_types, iron_last_error(),
                         want);
        return NULL;
    }
    if (!matches(call, types, n)) {
        iron_design_fail(d, IRON_EPARAM,
                         "%s: parameter 'f' (kernel '%s') declares \"%s\"; "
                         "%s calls it as %s, so expected \"%s\"",
                         algo, f->entry, f->arg_types, algo, call->text,
                         want);
        return NULL;
    }
    return f;
}

int64_t iron__algo_tile(iron_design *d, const char *algo)
{
    int64_t tile = iron_design_param_int(d, "tile");
    if (iron_design_status(d) != IRON_OK)
        return 0;
    if (tile < 1 || tile > INT32_MAX) {
        iron_design_fail(d, IRON_EPARAM,
                         "%s: parameter 'tile' = %lld: expected 1 .. %d "
                         "elements an object (the kernel receives it as "
                         "int32)",
                         algo, (long long)tile, INT32_MAX);
        return 0;
    }
    return tile;
}

int64_t iron__algo_buffer_bytes(int64_t obj_bytes)
{
    return (obj_bytes + IRON__BUF_ALIGN - 1) /
           IRON__BUF_ALIGN * IRON__BUF_ALIGN;
}

int64_t iron__algo_room(const iron_design *d)
{
    const iron_device_info *info = iron_design_device(d);
    return (int64_t)info->compute.memory_bytes -
           (int64_t)info->compute.stack_bytes;
}

int64_t iron__algo_max_object(const iron_design *d, int nbufs)
{
    return iron__algo_room(d) / nbufs / IRON__BUF_ALIGN * IRON__BUF_ALIGN;
}
