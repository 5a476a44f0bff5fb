/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * envhelp.c - the environment section of `iron --help`, printed from the
 * library's one table of IRON_* variables (src/core/env.c), so the help
 * cannot drift from what the library reads.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Prints words wrapped before column 79, continuing at column `indent`;
 * the cursor is at column `at`. */
static void print_wrapped(FILE *f, const char *words, int at, int indent)
{
    int col = at, first = 1;
    for (const char *p = words; *p; first = 0) {
        size_t n = strcspn(p, " ");
        if (!first && col + 1 + (int)n > 79) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)n, p);
        col += (int)n;
        p += n;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

/* The environment section of the help: the library's table of IRON_*
 * variables (src/core/env.c), so the help cannot drift from it.  The
 * text column starts two blanks after the longest name, so that a new,
 * longer name never runs into its text. */
void cli_print_env_help(FILE *f)
{
    int width = 0, count = iron_env_count();
    for (int i = 0; i < count; i++) {
        iron_env_info v = { .size = sizeof v };
        if (iron_env_get_info(i, &v) != IRON_OK)
            continue;
        int n = (int)strlen(v.name);
        width = n > width ? n : width;
    }
    int col = 2 + width + 2;
    fputs("\nenvironment (a value a variable does not accept is a warning, "
          "and the\ndefault applies; empty means unset):\n", f);
    for (int i = 0; i < count; i++) {
        iron_env_info v = { .size = sizeof v };
        if (iron_env_get_info(i, &v) != IRON_OK)
            continue;
        char more[512];
        fprintf(f, "  %-*s  ", width, v.name);
        print_wrapped(f, v.meaning, col, col);
        snprintf(more, sizeof more, "default %s; accepts %s; read %s",
                 v.default_value, v.accepts, v.read);
        fprintf(f, "%*s", col, "");
        print_wrapped(f, more, col, col);
    }
}
