/*
 * dump.c - `iron dump`: loads a shared library holding a design function
 * NAME_design and its options NAME_options, specializes it for the given
 * tensor types, parameters, device and columns without running it, and
 * prints the placed design: what placement did.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iron/iron.h"

#define MAX_ITEMS 32

static const char dump_usage[] =
    "usage: iron dump LIB.so NAME --args TYPES [--params P] [--device D]\n"
    "                 [--cols N] [--taps]\n"
    "  LIB.so   a shared library exporting NAME_design (an iron_design_fn)\n"
    "           and NAME_options (its iron_jit_options)\n"
    "  TYPES    the tensors, in order: \"int32[4096], int32[4096]\"\n"
    "  P        compile-time values: \"tile=16, op='-'\" (integers, numbers,\n"
    "           true/false, dtype names; quote a value to make it a string)\n"
    "  --taps   after the dump, draw each fill's and drain's access pattern\n"
    "           over its tensor (2-D tensors; see iron tap)\n"
    "  example: iron dump build/libiron-examples.so vector_op \\\n"
    "               --args \"int32[4096], int32[4096], int32[4096]\"\n";

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

/* Splits at top-level commas (not inside brackets or quotes). */
static int split_items(char *text, char **items, int max)
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
            items[n++] = trim(start);
            if (end)
                break;
            start = p + 1;
        }
    }
    return n;
}

/* "int32[64, 64]" -> a zeroed tensor of that type. */
static iron_status make_tensor(char *spec, iron_tensor **out)
{
    char *open = strchr(spec, '[');
    char *close = open ? strchr(open, ']') : NULL;
    if (!open || !close) {
        fprintf(stderr, "iron dump: '%s': expected DTYPE[DIMS]\n", spec);
        return IRON_EINVAL;
    }
    *open = '\0';
    iron_dtype dt;
    iron_status s = iron_dtype_parse(trim(spec), &dt);
    if (s != IRON_OK) {
        fprintf(stderr, "iron dump: %s\n", iron_last_error());
        return s;
    }
    iron_shape shape = { 0, { 0 } };
    *close = '\0';
    for (char *tok = strtok(open + 1, ","); tok; tok = strtok(NULL, ",")) {
        if (shape.ndim == IRON_MAX_DIMS) {
            fprintf(stderr, "iron dump: more than %d dims\n", IRON_MAX_DIMS);
            return IRON_EINVAL;
        }
        char *end;
        long long v = strtoll(tok, &end, 10);
        if (end == tok || *trim(end)) {
            fprintf(stderr, "iron dump: dimension '%s' is not a number\n",
                    tok);
            return IRON_EINVAL;
        }
        shape.dims[shape.ndim++] = v;
    }
    s = iron_tensor_zeros(out, dt, shape);
    if (s != IRON_OK)
        fprintf(stderr, "iron dump: %s\n", iron_last_error());
    return s;
}

/* "name=value" with the value's type guessed from its spelling. */
static int make_param(char *item, iron_param *p)
{
    char *eq = strchr(item, '=');
    if (!eq) {
        fprintf(stderr, "iron dump: parameter '%s': expected NAME=VALUE\n",
                item);
        return -1;
    }
    *eq = '\0';
    char *name = trim(item), *value = trim(eq + 1);
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

int cli_dump(int argc, char **argv)
{
    if (argc < 4)
        return fputs(dump_usage, stderr), EXIT_USAGE;
    const char *lib = argv[2], *name = argv[3];
    char *args = NULL, *params = NULL;
    const char *device = NULL;
    int cols = 0, taps = 0;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "--taps") == 0) {
            taps = 1;
            continue;
        }
        if (i + 1 >= argc)
            return fputs(dump_usage, stderr), EXIT_USAGE;
        if (strcmp(argv[i], "--args") == 0)
            args = argv[++i];
        else if (strcmp(argv[i], "--params") == 0)
            params = argv[++i];
        else if (strcmp(argv[i], "--device") == 0)
            device = argv[++i];
        else if (strcmp(argv[i], "--cols") == 0)
            cols = atoi(argv[++i]);
        else
            return fputs(dump_usage, stderr), EXIT_USAGE;
    }
    if (!args)
        return fputs(dump_usage, stderr), EXIT_USAGE;

    void *dl = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "iron dump: cannot load '%s': %s\n", lib, dlerror());
        return 1;
    }
    char sym[256];
    snprintf(sym, sizeof sym, "%s_design", name);
    void *fn_sym = dlsym(dl, sym);
    snprintf(sym, sizeof sym, "%s_options", name);
    const iron_jit_options *opts = dlsym(dl, sym);
    if (!fn_sym || !opts) {
        fprintf(stderr, "iron dump: '%s' exports no %s_design and %s_options\n",
                lib, name, name);
        dlclose(dl);
        return 1;
    }
    iron_design_fn fn;
    memcpy(&fn, &fn_sym, sizeof fn);

    int rc = 1, nt = 0, np = 0;
    char *items[MAX_ITEMS];
    iron_tensor *tensors[MAX_ITEMS];
    iron_param pvals[MAX_ITEMS];
    iron_jit *j = NULL;
    char *text = NULL;
    int pushed = 0;
    int n = split_items(args, items, MAX_ITEMS);
    for (int i = 0; i < n; i++, nt++)
        if (make_tensor(items[i], &tensors[nt]) != IRON_OK)
            goto done;
    if (params) {
        n = split_items(params, items, MAX_ITEMS);
        for (int i = 0; i < n; i++, np++)
            if (make_param(items[i], &pvals[np]) != 0)
                goto done;
    }
    if (device) {
        pushed = 1;
        if (iron_device_push(device) != IRON_OK) {
            fprintf(stderr, "iron dump: %s\n", iron_last_error());
            goto done;
        }
    }
    iron_launch_config cfg = { .size = sizeof cfg, .cols = cols };
    if (iron_jit_create(&j, fn, opts) != IRON_OK ||
        iron_jit_dump(j, &cfg, np, pvals, nt, tensors, &text) != IRON_OK) {
        fprintf(stderr, "iron dump: %s\n", iron_last_error());
        goto done;
    }
    fputs(text, stdout);
    rc = 0;
    if (taps) {
        iron_shape shapes[MAX_ITEMS];
        for (int i = 0; i < nt; i++)
            shapes[i] = iron_tensor_shape(tensors[i]);
        rc = cli_dump_taps(text, nt, shapes);
    }
done:
    iron_free(text);
    iron_jit_free(j);
    if (pushed)
        iron_device_pop();
    for (int i = 0; i < nt; i++)
        iron_tensor_free(tensors[i]);
    /* The library stays loaded: the jit's design function lived there. */
    return rc;
}
