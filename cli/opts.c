/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * opts.c - option parsing for the subcommands, and the "did you mean"
 * hints every usage error gives.  The closeness rule is the library's
 * (the one behind its messages about parameter and scalar names), with
 * a case-insensitive match first so that NPU1 finds npu1.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

const char *cli_closest(const char *word, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(word, names[i]) == 0)
            return names[i];
    return iron_closest_name(word, names, n);
}

void cli_suggest(FILE *f, const char *word, const char *const *names, int n)
{
    const char *near = cli_closest(word, names, n);
    if (near)
        fprintf(f, "; did you mean '%s'?", near);
    fputc('\n', f);
}

static const cli_opt *find(const char *word, size_t len, const cli_opt *opts,
                           int nopts)
{
    for (int i = 0; i < nopts; i++)
        if (strlen(opts[i].name) == len &&
            strncmp(opts[i].name, word, len) == 0)
            return &opts[i];
    return NULL;
}

static int unknown(const char *cmd, const char *word, const cli_opt *opts,
                   int nopts)
{
    const char *names[64];
    int n = 0;
    for (int i = 0; i < nopts && n < 64; i++)
        names[n++] = opts[i].name;
    char base[256];
    snprintf(base, sizeof base, "%s", word);
    char *eq = strchr(base, '=');
    if (eq)
        *eq = '\0';
    fprintf(stderr, "iron %s: unknown option '%s'", cmd, base);
    cli_suggest(stderr, base, names, n);
    fprintf(stderr, "(iron %s --help lists the options)\n", cmd);
    return EXIT_USAGE;
}

int cli_parse(const char *cmd, int argc, char **argv, int first,
              const cli_opt *opts, int nopts, cli_list *positional)
{
    positional->n = 0;
    int only_words = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (only_words || a[0] != '-' || a[1] == '\0') {
            if (positional->n == CLI_MAX_ITEMS) {
                fprintf(stderr, "iron %s: more than %d arguments\n", cmd,
                        CLI_MAX_ITEMS);
                return EXIT_USAGE;
            }
            positional->v[positional->n++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_words = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const cli_opt *o = find(a, len, opts, nopts);
        if (!o)
            return unknown(cmd, a, opts, nopts);
        if (o->kind == CLI_FLAG) {
            if (eq) {
                fprintf(stderr, "iron %s: option '%s' takes no value\n", cmd,
                        o->name);
                return EXIT_USAGE;
            }
            *(int *)o->dest = 1;
            continue;
        }
        const char *value = eq ? eq + 1 : NULL;
        if (!value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "iron %s: option '%s' needs a value\n", cmd,
                        o->name);
                return EXIT_USAGE;
            }
            value = argv[++i];
        }
        if (o->kind == CLI_VALUE) {
            *(const char **)o->dest = value;
        } else {
            cli_list *l = o->dest;
            if (l->n == CLI_MAX_ITEMS) {
                fprintf(stderr, "iron %s: '%s' given more than %d times\n",
                        cmd, o->name, CLI_MAX_ITEMS);
                return EXIT_USAGE;
            }
            l->v[l->n++] = value;
        }
    }
    return 0;
}
