/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ktypes.c - parses a kernel's declared argument types ("int32*, int32")
 * into iron__ktype values (compile layer).  Allocates nothing.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compile/compile.h"
#include "core/core.h"

/* Longer names cannot be dtypes; they are reported as unknown. */
#define NAME_MAX_LEN 63

static const char *skip_space(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

static int is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The known dtype names, for the "unknown dtype" message.  Written into a
 * caller buffer so that parsing stays allocation-free. */
static const char *known_dtypes(char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int dt = 0; dt < IRON_DTYPE_COUNT_; dt++) {
        const char *name = iron_dtype_name((iron_dtype)dt);
        if (!name || len + strlen(name) + 3 >= cap)
            continue;
        len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                len ? ", " : "", name);
    }
    return buf;
}

/*
 * One item, [item, end), is "NAME" or "NAME *" with optional spaces around.
 * `index` is 1-based, as the user counts.  On failure the message quotes
 * the item without its surrounding spaces.
 */
static iron_status parse_item(const char *item, const char *end, int index,
                              iron__ktype *type)
{
    const char *p = skip_space(item, end);
    const char *q = end;
    while (q > p && isspace((unsigned char)q[-1]))
        q--;
    int text_len = (int)(q - p);
    const char *text = p;

    if (p == q)
        return iron__fail(IRON_EINVAL,
                          "argument %d '': empty item (expected a dtype such "
                          "as int32, or int32* for a pointer)", index);

    const char *name = p;
    while (p < q && is_name_char(*p))
        p++;
    size_t name_len = (size_t)(p - name);
    if (name_len == 0)
        return iron__fail(IRON_EINVAL,
                          "argument %d '%.*s': expected a dtype name first",
                          index, text_len, text);

    p = skip_space(p, q);
    if (name_len == 6 && memcmp(name, "kernel", 6) == 0) {
        /* kernel(TYPES): a kernel a core body calls; TYPES are its
         * declared arguments, as for iron_kernel_new. */
        if (p >= q || *p != '(' || q[-1] != ')')
            return iron__fail(IRON_EINVAL,
                              "argument %d '%.*s': a kernel argument is "
                              "written kernel(TYPES), e.g. 'kernel(int32*, "
                              "int32)', with the called kernel's argument "
                              "types",
                              index, text_len, text);
        char inner[512];
        size_t len = (size_t)(q - 1 - (p + 1));
        if (len >= sizeof inner)
            return iron__fail(IRON_EINVAL,
                              "argument %d: kernel(...) is too long", index);
        memcpy(inner, p + 1, len);
        inner[len] = '\0';
        if (strchr(inner, '('))
            return iron__fail(IRON_EINVAL,
                              "argument %d '%.*s': a called kernel cannot "
                              "itself take a kernel",
                              index, text_len, text);
        iron__ktype sub[IRON__KSUB_MAX];
        int n = 0;
        iron_status st = iron__ktypes_parse(inner, sub, IRON__KSUB_MAX, &n);
        if (st != IRON_OK)
            return iron__fail_context(st, "argument %d ('kernel(...)')",
                                      index);
        for (int i = 0; i < n; i++) {
            if (sub[i].handle != IRON__KH_NONE)
                return iron__fail(IRON_EINVAL,
                                  "argument %d '%.*s': a called kernel takes "
                                  "objects and scalars, not handles",
                                  index, text_len, text);
            type->kdtype[i] = sub[i].dtype;
            type->kptr[i] = (unsigned char)sub[i].is_ptr;
        }
        type->knargs = n;
        type->dtype = IRON_INT8;
        type->is_ptr = 0;
        type->handle = IRON__KH_KERNEL;
        return IRON_OK;
    }
    int is_ptr = 0;
    if (p < q && *p == '*') {
        is_ptr = 1;
        p = skip_space(p + 1, q);
        if (p < q && *p == '*')
            return iron__fail(IRON_EINVAL,
                              "argument %d '%.*s': pointers to pointers are "
                              "not supported (one '*' at most)",
                              index, text_len, text);
    }
    if (p < q)
        return iron__fail(IRON_EINVAL,
                          "argument %d '%.*s': unexpected '%.*s' after the "
                          "dtype (write only the type, e.g. 'int32*', no "
                          "parameter name)",
                          index, text_len, text, (int)(q - p), p);

    /* Handle kinds of core bodies: pointers to opaque types. */
    type->handle = IRON__KH_NONE;
    type->knargs = 0;
    if (!is_ptr && ((name_len == 4 && memcmp(name, "fifo", 4) == 0) ||
                    (name_len == 7 && memcmp(name, "barrier", 7) == 0))) {
        type->dtype = IRON_INT8;
        type->is_ptr = 1;
        type->handle = name_len == 4 ? IRON__KH_FIFO : IRON__KH_BARRIER;
        return IRON_OK;
    }
    /* A name too long for the buffer cannot be a dtype. */
    char buf[NAME_MAX_LEN + 1];
    iron_dtype dt = IRON_INT8;
    iron_status parsed = IRON_EINVAL;
    if (name_len <= NAME_MAX_LEN) {
        memcpy(buf, name, name_len);
        buf[name_len] = '\0';
        parsed = iron_dtype_parse(buf, &dt);
    }
    if (parsed != IRON_OK) {
        char known[256];
        return iron__fail(IRON_EINVAL,
                          "argument %d '%.*s': unknown dtype (known: %s)",
                          index, text_len, text,
                          known_dtypes(known, sizeof known));
    }
    type->dtype = dt;
    type->is_ptr = is_ptr;
    return IRON_OK;
}

/* The end of the item starting at s: the next comma outside parentheses
 * (those of a kernel(...) item), or the terminating NUL. */
static const char *item_end(const char *s)
{
    for (int depth = 0; *s && (*s != ',' || depth > 0); s++)
        depth += (*s == '(') - (*s == ')');
    return s;
}

/*
 * Parses a comma-separated declaration into types[0 .. *n).  An empty or
 * all-blank declaration is zero arguments.  On failure *n is 0 and the
 * message names the 1-based item and quotes its text; types may have been
 * partly written.
 */
iron_status iron__ktypes_parse(const char *decl, iron__ktype *types, int max,
                               int *n)
{
    if (n)
        *n = 0;
    if (!n)
        return iron__fail(IRON_EINVAL, "kernel argument types: n is NULL");
    if (!decl)
        return iron__fail(IRON_EINVAL,
                          "kernel argument types: the declaration is NULL");
    if (max < 0 || (max > 0 && !types))
        return iron__fail(IRON_EINVAL,
                          "kernel argument types: bad output array (max %d, "
                          "types %s)", max, types ? "set" : "NULL");

    const char *end = decl + strlen(decl);
    if (skip_space(decl, end) == end)
        return IRON_OK;

    /* Count first so that "too many" is reported with the full count
     * rather than at the first item past the limit. */
    int count = 1;
    for (const char *c = item_end(decl); *c; c = item_end(c + 1))
        count++;
    if (count > max)
        return iron__fail(IRON_EINVAL,
                          "kernel argument types '%.200s': too many arguments: "
                          "%d declared, at most %d supported",
                          decl, count, max);

    const char *item = decl;
    for (int i = 0; i < count; i++) {
        const char *stop = item_end(item);
        iron_status st = parse_item(item, stop, i + 1, &types[i]);
        if (st != IRON_OK)
            return st;
        item = stop + 1;
    }
    *n = count;
    return IRON_OK;
}

void iron__ktypes_format(const iron__ktype *types, int n, iron__str *s)
{
    for (int i = 0; i < n; i++) {
        const iron__ktype *t = &types[i];
        const char *name = t->handle == IRON__KH_FIFO      ? "fifo"
                           : t->handle == IRON__KH_BARRIER ? "barrier"
                           : t->handle == IRON__KH_KERNEL  ? "kernel(...)"
                                                           : iron_dtype_name(t->dtype);
        iron__str_printf(s, "%s%s%s", i ? ", " : "", name ? name : "?",
                         t->is_ptr && !t->handle ? "*" : "");
    }
}
