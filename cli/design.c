/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * design.c - what `iron dump`, `iron check` and `iron run` share: a
 * shared library holding a design function NAME_design and its options
 * NAME_options, the jit made from them, the compile-time parameters, the
 * device and columns given on the command line, and tensor types written
 * as "int32[64, 64]".
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iron/iron.h"

char *cli_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

int cli_split_items(char *text, char **items, int max)
{
    int n = 0, depth = 0;
    char quote = 0;
    char *start = text;
    for (char *p = text;; p++) {
        if (quote) {
            if (*p == quote)
                quote = 0;
            if (*p)
                continue;
        }
        if (*p == '\'' || *p == '"')
            quote = *p;
        else if (*p == '[')
            depth++;
        else if (*p == ']')
            depth--;
        if ((*p == ',' && depth == 0) || !*p) {
            int end = !*p;
            *p = '\0';
            if (n == max)
                return -1;
            items[n++] = cli_trim(start);
            if (end)
                break;
            start = p + 1;
        }
    }
    return n;
}

int cli_parse_type(const char *cmd, char *spec, iron_dtype *dt,
                   iron_shape *shape)
{
    char *open = strchr(spec, '[');
    char *close = open ? strchr(open, ']') : NULL;
    if (!open || !close || *cli_trim(close + 1)) {
        fprintf(stderr, "iron %s: '%s': expected DTYPE[DIMS], e.g. "
                        "int32[64, 64]\n", cmd, spec);
        return EXIT_USAGE;
    }
    *open = '\0';
    if (iron_dtype_parse(cli_trim(spec), dt) != IRON_OK) {
        fprintf(stderr, "iron %s: %s\n", cmd, iron_last_error());
        return EXIT_USAGE;
    }
    shape->ndim = 0;
    *close = '\0';
    for (char *tok = strtok(open + 1, ","); tok; tok = strtok(NULL, ",")) {
        if (shape->ndim == IRON_MAX_DIMS) {
            fprintf(stderr, "iron %s: more than %d dims\n", cmd,
                    IRON_MAX_DIMS);
            return EXIT_USAGE;
        }
        char *end;
        errno = 0;
        long long v = strtoll(tok, &end, 10);
        if (end == tok || *cli_trim(end) || errno) {
            fprintf(stderr, "iron %s: dimension '%s' is not a number\n", cmd,
                    cli_trim(tok));
            return EXIT_USAGE;
        }
        shape->dims[shape->ndim++] = v;
    }
    return 0;
}

int cli_make_tensors(const char *cmd, char *types, iron_tensor **out, int *n)
{
    char *items[CLI_MAX_ITEMS];
    *n = 0;
    int m = cli_split_items(types, items, CLI_MAX_ITEMS);
    if (m < 0) {
        fprintf(stderr, "iron %s: more than %d tensors\n", cmd,
                CLI_MAX_ITEMS);
        return EXIT_USAGE;
    }
    for (int i = 0; i < m; i++) {
        iron_dtype dt;
        iron_shape sh;
        char spec[256];
        snprintf(spec, sizeof spec, "%s", items[i]);
        int rc = cli_parse_type(cmd, items[i], &dt, &sh);
        if (rc)
            return rc;
        iron_status s = iron_tensor_zeros(dt, sh, &out[*n]);
        if (s != IRON_OK) {
            /* A shape the library refuses (a dimension of 0) is the
             * text's fault; running out of memory is not. */
            fprintf(stderr, "iron %s: '%s': %s\n", cmd, spec,
                    iron_last_error());
            return s == IRON_ENOMEM ? 1 : EXIT_USAGE;
        }
        (*n)++;
    }
    return 0;
}

/* "name=value" with the value's type guessed from its spelling. */
static int make_param(const char *cmd, char *item, iron_param *p)
{
    char *eq = strchr(item, '=');
    if (!eq) {
        fprintf(stderr, "iron %s: parameter '%s': expected NAME=VALUE\n",
                cmd, item);
        return -1;
    }
    *eq = '\0';
    char *name = cli_trim(item), *value = cli_trim(eq + 1);
    size_t n = strlen(value);
    char *end;
    iron_dtype dt;
    if (n >= 2 && (value[0] == '\'' || value[0] == '"') &&
        value[n - 1] == value[0]) {
        value[n - 1] = '\0';
        *p = iron_param_str(name, value + 1);
    } else if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0) {
        *p = iron_param_bool(name, value[0] == 't');
    } else if (strtoll(value, &end, 0), *value && !*end) {
        *p = iron_param_int(name, strtoll(value, NULL, 0));
    } else if (strtod(value, &end), *value && !*end) {
        *p = iron_param_float(name, strtod(value, NULL));
    } else if (iron_dtype_parse(value, &dt) == IRON_OK) {
        *p = iron_param_dtype(name, dt);
    } else {
        *p = iron_param_str(name, value);
    }
    return 0;
}

int cli_device_exists(const char *cmd, const char *name)
{
    iron_device *dev;
    if (iron_device_get(name, &dev) == IRON_OK)
        return 1;
    const char *names[64];
    int n = iron_device_count();
    for (int i = 0; i < n && i < 64; i++)
        names[i] = iron_device_name(iron_device_at(i));
    fprintf(stderr, "iron %s: unknown device '%s'", cmd, name);
    cli_suggest(stderr, name, names, n < 64 ? n : 64);
    return 0;
}

/* After "'lib' has no design 'NAME' (...)": the suggestion, and the
 * designs the library does export, wrapped. */
static void unknown_design(const char *cmd, const char *path,
                           const char *name)
{
    char **names = NULL;
    int n = cli_library_designs(path, &names);
    cli_suggest(stderr, name, (const char *const *)names, n > 0 ? n : 0);
    if (n < 0) {
        fprintf(stderr, "iron %s: (its symbol table could not be read)\n",
                cmd);
        return;
    }
    if (n == 0) {
        fprintf(stderr, "iron %s: it exports no design: a design NAME is a "
                        "function NAME_design and its iron_jit_options "
                        "NAME_options\n", cmd);
        return;
    }
    int col = fprintf(stderr, "iron %s: its designs:", cmd);
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(names[i]) + (i + 1 < n ? 1 : 0);
        if (col + 1 + len > 79) {
            fputs("\n   ", stderr);
            col = 3;
        }
        col += fprintf(stderr, " %s%s", names[i], i + 1 < n ? "," : "");
    }
    fputc('\n', stderr);
    cli_free_names(names, n);
}

int cli_design_open(cli_design *cd, const char *cmd, const char *lib,
                    const char *name, char *params, const char *device,
                    const char *cols)
{
    memset(cd, 0, sizeof *cd);
    cd->cmd = cmd;
    cd->cfg.size = sizeof cd->cfg;
    if (cols) {
        char *end;
        errno = 0;
        long v = strtol(cols, &end, 10);
        if (end == cols || *end || errno || v < 1 || v > 1024) {
            fprintf(stderr, "iron %s: --cols '%s': expected a positive "
                            "number of columns\n", cmd, cols);
            return EXIT_USAGE;
        }
        cd->cfg.cols = (int)v;
    }
    if (device && !cli_device_exists(cmd, device))
        return EXIT_USAGE;
    /* dlopen searches the library path for a name without a slash; on
     * the command line such a name is a file here, as for any command. */
    char path[4096];
    snprintf(path, sizeof path, "%s%s", strchr(lib, '/') ? "" : "./", lib);
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "iron %s: cannot load '%s': %s\n", cmd, lib,
                dlerror());
        return 1;
    }
    char sym[256];
    snprintf(sym, sizeof sym, "%s_design", name);
    void *fn_sym = dlsym(dl, sym);
    snprintf(sym, sizeof sym, "%s_options", name);
    cd->opts = dlsym(dl, sym);
    if (!fn_sym || !cd->opts) {
        fprintf(stderr, "iron %s: '%s' has no design '%s' (it exports no "
                        "%s_design and %s_options)", cmd, lib, name, name,
                name);
        dlclose(dl);
        unknown_design(cmd, path, name);
        return EXIT_USAGE;
    }
    /* The library stays loaded: the jit's design function lives there. */
    memcpy(&cd->fn, &fn_sym, sizeof cd->fn);
    if (params) {
        char *items[CLI_MAX_ITEMS];
        int n = cli_split_items(params, items, CLI_MAX_ITEMS);
        if (n < 0) {
            fprintf(stderr, "iron %s: more than %d parameters\n", cmd,
                    CLI_MAX_ITEMS);
            return EXIT_USAGE;
        }
        for (int i = 0; i < n; i++, cd->nparams++)
            if (make_param(cmd, items[i], &cd->params[cd->nparams]) != 0)
                return EXIT_USAGE;
    }
    if (device) {
        cd->pushed = 1;
        if (iron_device_push(device) != IRON_OK) {
            fprintf(stderr, "iron %s: %s\n", cmd, iron_last_error());
            return 1;
        }
    }
    if (iron_jit_create(cd->fn, cd->opts, &cd->jit) != IRON_OK) {
        fprintf(stderr, "iron %s: %s\n", cmd, iron_last_error());
        return 1;
    }
    return 0;
}

void cli_design_close(cli_design *cd)
{
    iron_jit_free(cd->jit);
    cd->jit = NULL;
    if (cd->pushed)
        iron_device_pop();
    cd->pushed = 0;
}
