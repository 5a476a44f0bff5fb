/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * tap.c - `iron tap`: draws an access pattern over a 2-D tensor (upstream
 * taplib's visualize, in text) and lists its access order; and the
 * pictures `iron dump --taps` adds for a design's fills and drains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "iron/iron.h"

static const char tap_usage[] =
    "usage: iron tap --shape RxC [--offset O] --sizes A,B,.. --strides "
    "A,B,..\n"
    "                [--order]\n"
    "  draws the pattern over a row-major R x C tensor: each element shows\n"
    "  the step of its last visit ('.' never, '*' more than once); bigger\n"
    "  tensors are drawn in blocks.  --order also lists, element by\n"
    "  element, the step that visits it last (-1: never), as taplib's\n"
    "  access_order.\n"
    "  example: iron tap --shape 4x4 --sizes 2,2,2,2 --strides 8,2,4,1\n";

/* "2,2,4" -> up to max numbers; the count, or -1. */
static int parse_list(const char *s, int64_t *v, int max)
{
    int n = 0;
    while (*s) {
        char *end;
        long long x = strtoll(s, &end, 10);
        if (end == s || n == max)
            return -1;
        v[n++] = x;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

/* Prints the picture of `tap` over rows x cols (with a heading). */
static int show(const iron_tap *tap, int64_t rows, int64_t cols)
{
    char *text;
    if (iron_tap_visualize(tap, rows, cols, &text) != IRON_OK) {
        fprintf(stderr, "iron tap: %s\n", iron_last_error());
        return 1;
    }
    fputs(text, stdout);
    iron_free(text);
    return 0;
}

static int show_order(const iron_tap *tap, int64_t numel)
{
    int64_t *order = malloc((size_t)numel * sizeof *order);
    if (!order) {
        fputs("iron tap: out of memory\n", stderr);
        return 1;
    }
    if (iron_tap_access_order(tap, numel, order) != IRON_OK) {
        fprintf(stderr, "iron tap: %s\n", iron_last_error());
        free(order);
        return 1;
    }
    fputs("access order:", stdout);
    for (int64_t i = 0; i < numel; i++)
        printf("%s%lld", i ? " " : " ", (long long)order[i]);
    fputs("\n", stdout);
    free(order);
    return 0;
}

int cli_tap(int argc, char **argv)
{
    long long rows = 0, cols = 0, offset = 0;
    int64_t sizes[IRON_TAP_MAX_DIMS], strides[IRON_TAP_MAX_DIMS];
    int nsizes = -1, nstrides = -1, order = 0;
    const char *shape = NULL, *off = NULL, *sz = NULL, *st = NULL;
    const cli_opt opts[] = {
        { "--shape", CLI_VALUE, &shape },   { "--offset", CLI_VALUE, &off },
        { "--sizes", CLI_VALUE, &sz },      { "--strides", CLI_VALUE, &st },
        { "--order", CLI_FLAG, &order },
    };
    cli_list pos;
    int rc = cli_parse("tap", argc, argv, 2, opts, 5, &pos);
    if (rc == 1)
        return fputs(tap_usage, stdout), 0;
    if (rc)
        return rc;
    if (pos.n) {
        fprintf(stderr, "iron tap: unexpected argument '%s'\n", pos.v[0]);
        return EXIT_USAGE;
    }
    char x, rest;
    if (shape && (sscanf(shape, "%lld%c%lld%c", &rows, &x, &cols, &rest) != 3
                  || x != 'x')) {
        fprintf(stderr, "iron tap: --shape '%s': expected RxC, e.g. 4x8\n",
                shape);
        return EXIT_USAGE;
    }
    if (off) {
        char *end;
        offset = strtoll(off, &end, 10);
        if (end == off || *end) {
            fprintf(stderr, "iron tap: --offset '%s': expected a number\n",
                    off);
            return EXIT_USAGE;
        }
    }
    if (sz && (nsizes = parse_list(sz, sizes, IRON_TAP_MAX_DIMS)) < 0)
        return fprintf(stderr, "iron tap: --sizes '%s': expected numbers "
                               "A,B,.. (1 to %d)\n", sz, IRON_TAP_MAX_DIMS),
               EXIT_USAGE;
    if (st && (nstrides = parse_list(st, strides, IRON_TAP_MAX_DIMS)) < 0)
        return fprintf(stderr, "iron tap: --strides '%s': expected numbers "
                               "A,B,.. (1 to %d)\n", st, IRON_TAP_MAX_DIMS),
               EXIT_USAGE;
    if (rows <= 0 || cols <= 0 || nsizes < 1 || nsizes != nstrides) {
        fputs("iron tap: give --shape RxC and as many --sizes as --strides "
              "(1 to 4)\n",
              stderr);
        return fputs(tap_usage, stderr), EXIT_USAGE;
    }
    iron_tap tap = iron_tap_make(offset, nsizes, sizes, strides);
    rc = show(&tap, rows, cols);
    if (rc == 0 && order)
        rc = show_order(&tap, rows * cols);
    return rc;
}

/* One sequence line of a dump: "  3 fill fifo 'a' (producer) from argument
 * 0 ('a') offset 0 sizes [64, 64] strides [1, 64] ...".  Fills *arg and
 * *tap; 0 if the line is not a fill or drain. */
static int parse_op(const char *line, int *arg, iron_tap *tap)
{
    const char *a = strstr(line, " argument ");
    const char *o = strstr(line, " offset ");
    if (!a || !o || (!strstr(line, " fill ") && !strstr(line, " drain ")))
        return 0;
    long long off;
    if (sscanf(a, " argument %d", arg) != 1 ||
        sscanf(o, " offset %lld", &off) != 1)
        return 0;
    const char *sz = strstr(o, "sizes ["), *st = strstr(o, "strides [");
    if (!sz || !st)
        return 0;
    int64_t sizes[IRON_TAP_MAX_DIMS], strides[IRON_TAP_MAX_DIMS];
    int n = 0, m = 0;
    for (const char *p = sz + 7; *p && *p != ']' && n < IRON_TAP_MAX_DIMS;) {
        char *end;
        sizes[n++] = strtoll(p, &end, 10);
        p = end;
        while (*p == ',' || *p == ' ')
            p++;
    }
    for (const char *p = st + 9; *p && *p != ']' && m < IRON_TAP_MAX_DIMS;) {
        char *end;
        strides[m++] = strtoll(p, &end, 10);
        p = end;
        while (*p == ',' || *p == ' ')
            p++;
    }
    if (n < 1 || n != m)
        return 0;
    *tap = iron_tap_make(off, n, sizes, strides);
    return 1;
}

int cli_dump_taps(const char *text, int nargs, const iron_shape *shapes)
{
    int rc = 0;
    const char *seq = strstr(text, "\nsequence (");
    for (const char *line = seq; line && *line && rc == 0;) {
        const char *end = strchr(line + 1, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];
        if (len >= sizeof buf)
            len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        int arg;
        iron_tap tap;
        if (parse_op(buf, &arg, &tap) && arg >= 0 && arg < nargs &&
            shapes[arg].ndim == 2) {
            printf("\n%s\n", buf + 1);
            rc = show(&tap, shapes[arg].dims[0], shapes[arg].dims[1]);
        }
        if (!end || strncmp(end, "\ndma (", 6) == 0)
            break;
        line = end;
    }
    return rc;
}
