/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * dump.c - `iron dump` and `iron check`: load a design from a shared
 * library (design.c), specialize it for the given tensor types,
 * parameters, device and columns without running it, and print the
 * placed design in one of four forms (dump) or a one-line verdict
 * (check: design, verification and placement, no compiler).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "iron/iron.h"

static const char dump_usage[] =
    "usage: iron dump LIB.so NAME --args TYPES [--params P] [--device D]\n"
    "                 [--cols N] [--format F] [--taps]\n"
    "  LIB.so    a shared library exporting NAME_design (an iron_design_fn)\n"
    "            and NAME_options (its iron_jit_options)\n"
    "  TYPES     the tensors, in order: \"int32[4096], int32[4096]\"\n"
    "  P         compile-time values: \"tile=16, op='-'\" (integers, "
    "numbers,\n"
    "            true/false, dtype names; quote a value to make it a string)\n"
    "  --format  text (default): the placed design, built as a call would\n"
    "            build it; json: the same for tools; dot: the FIFO graph for\n"
    "            Graphviz (dot -Tsvg); grid: a picture of the array's tiles;\n"
    "            mlir, mlir-generic: MLIR-AIE for upstream's aiecc.py (see\n"
    "            iron export).  All but text stop after placement (no\n"
    "            compiler)\n"
    "  --taps    after a text dump, draw each fill's and drain's access\n"
    "            pattern over its tensor (2-D tensors; see iron tap)\n"
    "  example: iron dump build/libiron-examples.so vector_op \\\n"
    "               --args \"int32[4096], int32[4096], int32[4096]\"\n";

static const char check_usage[] =
    "usage: iron check LIB.so NAME --args TYPES [--params P] [--device D]\n"
    "                  [--cols N]\n"
    "  runs the design function, verification and placement (no compiler,\n"
    "  nothing cached) and prints one line: workers, fifos, links, tiles,\n"
    "  shim channels and columns used; or the error, with exit status 1.\n"
    "  The arguments are those of iron dump (iron dump --help).\n";

typedef struct design_args {
    const char *args, *params, *device, *cols, *format;
    int taps;
    cli_list pos;
} design_args;

/* Parses the shared options; 0, or the exit status to return. */
static int parse(const char *cmd, const char *usage, int argc, char **argv,
                 int with_format, design_args *a)
{
    memset(a, 0, sizeof *a);
    const cli_opt opts[] = {
        { "--args", CLI_VALUE, &a->args },
        { "--params", CLI_VALUE, &a->params },
        { "--device", CLI_VALUE, &a->device },
        { "--cols", CLI_VALUE, &a->cols },
        { "--format", CLI_VALUE, &a->format },
        { "--taps", CLI_FLAG, &a->taps },
    };
    int n = with_format ? 6 : 4;
    int rc = cli_parse(cmd, argc, argv, 2, opts, n, &a->pos);
    if (rc == 1)
        return fputs(usage, stdout), -1;
    if (rc)
        return rc;
    if (a->pos.n < 2) {
        fprintf(stderr, "iron %s: missing %s\n\n", cmd,
                a->pos.n ? "the design's NAME" : "LIB.so and NAME");
        return fputs(usage, stderr), EXIT_USAGE;
    }
    if (a->pos.n > 2) {
        fprintf(stderr, "iron %s: unexpected argument '%s'\n", cmd,
                a->pos.v[2]);
        return EXIT_USAGE;
    }
    if (!a->args) {
        fprintf(stderr, "iron %s: missing --args TYPES (the tensors, e.g. "
                        "\"int32[64], int32[64]\")\n", cmd);
        return EXIT_USAGE;
    }
    return 0;
}

const char *const cli_dump_formats[] = { "text", "json",  "dot",
                                         "grid", "mlir", "mlir-generic" };
const int cli_dump_nformats =
    (int)(sizeof cli_dump_formats / sizeof cli_dump_formats[0]);

static int run(const char *cmd, design_args *a, int check)
{
    const char *format = a->format ? a->format : "text";
    int known = 0;
    for (int i = 0; i < cli_dump_nformats; i++)
        known |= strcmp(format, cli_dump_formats[i]) == 0;
    if (!known) {
        fprintf(stderr, "iron %s: unknown format '%s' (", cmd, format);
        for (int i = 0; i < cli_dump_nformats; i++)
            fprintf(stderr, "%s%s", i == 0 ? ""
                                    : i + 1 < cli_dump_nformats ? ", "
                                                                : " or ",
                    cli_dump_formats[i]);
        fputc(')', stderr);
        cli_suggest(stderr, format, cli_dump_formats, cli_dump_nformats);
        return EXIT_USAGE;
    }
    if (a->taps && strcmp(format, "text") != 0) {
        fprintf(stderr, "iron %s: --taps goes with --format text\n", cmd);
        return EXIT_USAGE;
    }
    char args[4096], params[4096];
    snprintf(args, sizeof args, "%s", a->args);
    snprintf(params, sizeof params, "%s", a->params ? a->params : "");
    cli_design cd;
    iron_tensor *tensors[CLI_MAX_ITEMS];
    int nt = 0;
    int rc = cli_design_open(&cd, cmd, a->pos.v[0], a->pos.v[1],
                             a->params ? params : NULL, a->device, a->cols);
    char *text = NULL;
    if (rc == 0)
        rc = cli_make_tensors(cmd, args, tensors, &nt);
    if (rc == 0) {
        iron_status s =
            check ? iron_jit_check(cd.jit, &cd.cfg, cd.nparams, cd.params, nt,
                                   tensors, &text)
                  : iron_jit_dump_as(cd.jit, &cd.cfg, cd.nparams, cd.params,
                                     nt, tensors, format, &text);
        if (s != IRON_OK) {
            fprintf(stderr, "iron %s: %s\n", cmd, iron_last_error());
            rc = 1;
        } else {
            fputs(text, stdout);
            if (check)
                fputc('\n', stdout);
        }
    }
    if (rc == 0 && a->taps) {
        iron_shape shapes[CLI_MAX_ITEMS];
        for (int i = 0; i < nt; i++)
            shapes[i] = iron_tensor_shape(tensors[i]);
        rc = cli_dump_taps(text, nt, shapes);
    }
    iron_free(text);
    cli_design_close(&cd);
    for (int i = 0; i < nt; i++)
        iron_tensor_free(tensors[i]);
    return rc;
}

int cli_dump(int argc, char **argv)
{
    design_args a;
    int rc = parse("dump", dump_usage, argc, argv, 1, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    return run("dump", &a, 0);
}

int cli_check(int argc, char **argv)
{
    design_args a;
    int rc = parse("check", check_usage, argc, argv, 0, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    return run("check", &a, 1);
}
