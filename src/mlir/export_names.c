/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_names.c - names as the exported MLIR writes them: identifiers
 * made of a design's free-form names, and the sets that keep symbols and
 * SSA names unique.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mlir/export.h"

static int ident_char(char c, int first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
        return 1;
    return !first && ((c >= '0' && c <= '9') || c == '$' || c == '.');
}

char *iron__mlx_ident(const char *name)
{
    if (!name)
        name = "";
    size_t n = strlen(name);
    char *out = iron__malloc(n + 3);
    if (!out)
        return NULL;
    size_t k = 0;
    if (n == 0 || !ident_char(name[0], 1)) {
        if (n > 0 && name[0] >= '0' && name[0] <= '9')
            out[k++] = '_';
        else if (n == 0)
            out[k++] = 'x';
    }
    for (size_t i = 0; i < n; i++) {
        out[k] = ident_char(name[i], k == 0) ? name[i] : '_';
        k++;
    }
    out[k] = '\0';
    return out;
}

static int taken(const iron__mlx_names *set, const char *name)
{
    for (int i = 0; i < set->n; i++)
        if (strcmp(set->v[i], name) == 0)
            return 1;
    return 0;
}

static int add(iron__mlx_names *set, char *name)
{
    if (set->n == set->cap) {
        int cap = set->cap ? set->cap * 2 : 32;
        char **v = iron__realloc(set->v, (size_t)cap * sizeof *v);
        if (!v) {
            iron__free(name);
            set->oom = 1;
            return 0;
        }
        set->v = v;
        set->cap = cap;
    }
    set->v[set->n++] = name;
    return 1;
}

const char *iron__mlx_take(iron__mlx_names *set, const char *base)
{
    char *id = iron__mlx_ident(base);
    if (!id) {
        set->oom = 1;
        return NULL;
    }
    if (!taken(set, id))
        return add(set, id) ? id : NULL;
    size_t len = strlen(id) + 24;
    char *alt = iron__malloc(len);
    if (!alt) {
        iron__free(id);
        set->oom = 1;
        return NULL;
    }
    for (int k = 1;; k++) {
        snprintf(alt, len, "%s_%d", id, k);
        if (!taken(set, alt))
            break;
    }
    iron__free(id);
    return add(set, alt) ? alt : NULL;
}

int iron__mlx_reserve(iron__mlx_names *set, const char *name)
{
    if (taken(set, name))
        return 0;
    char *copy = iron__strdup(name);
    if (!copy) {
        set->oom = 1;
        return 0;
    }
    return add(set, copy);
}

const char *iron__mlx_keep(iron__mlx_names *set, char *owned)
{
    if (!owned) {
        set->oom = 1;
        return NULL;
    }
    return add(set, owned) ? owned : NULL;
}

const char *iron__mlx_keepf(iron__mlx_names *set, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    iron__str s = { 0 };
    iron__str_vprintf(&s, fmt, ap);
    va_end(ap);
    return iron__mlx_keep(set, iron__str_take(&s));
}

void iron__mlx_names_free(iron__mlx_names *set)
{
    for (int i = 0; i < set->n; i++)
        iron__free(set->v[i]);
    iron__free(set->v);
    memset(set, 0, sizeof *set);
}
