/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export.c - `iron export`: loads a design from a shared library (as
 * `iron dump` does), specializes it for the given tensor types,
 * parameters, device and columns without running or compiling it, and
 * writes it as an MLIR-AIE project for upstream's toolchain: aie.mlir,
 * its kernels, a Makefile (aiecc.py + Peano), a README and an XRT host
 * program (iron_jit_export_mlir).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "iron/iron.h"

static const char export_usage[] =
    "usage: iron export LIB.so NAME --args TYPES [--params P] [--device D]\n"
    "                   [--cols N] [--upstream VERSION] [--generic] -o DIR\n"
    "  writes the design as the objectfifo-level MLIR-AIE that upstream\n"
    "  IRON emits, for upstream's aiecc.py and the Peano compiler:\n"
    "    DIR/aie.mlir        the design\n"
    "    DIR/kernels/K.c     each kernel, its defines as #define lines\n"
    "    DIR/Makefile        kernels with Peano, the xclbin with aiecc.py\n"
    "    DIR/README.md       how to build and run it on an NPU\n"
    "    DIR/host.cpp        an XRT host program, one buffer per argument\n"
    "  Nothing is run or compiled here (design, verification and\n"
    "  placement only).  The arguments are those of iron dump (iron dump\n"
    "  --help).\n"
    "  --upstream VERSION  the upstream mlir-aie version whose syntax to\n"
    "             write: 2025-04, 2025-06, 2025-11, 2026-03 or latest\n"
    "             (the default); docs/mlir.md says what each prints\n"
    "  --generic  every op in MLIR's generic form\n"
    "  example: iron export build/libiron-examples.so vector_op \\\n"
    "               --args \"int32[4096], int32[4096], int32[4096]\" -o out\n";

/* An unknown --upstream lists the targets (the library's) and suggests
 * the nearest. */
static int check_upstream(const char *v)
{
    const char *names[16];
    int n = 0;
    while (n < 16 && (names[n] = iron_mlir_upstream(n)) != NULL) {
        if (strcmp(names[n], v) == 0)
            return 0;
        n++;
    }
    fprintf(stderr, "iron export: unknown upstream version '%s'; expected "
                    "one of", v);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s %s", i ? "," : "", names[i]);
    cli_suggest(stderr, v, names, n);
    return 1;
}

int cli_export(int argc, char **argv)
{
    const char *args = NULL, *params = NULL, *device = NULL, *cols = NULL;
    const char *upstream = NULL, *dir = NULL;
    int generic = 0;
    cli_list pos;
    const cli_opt opts[] = {
        { "--args", CLI_VALUE, &args },
        { "--params", CLI_VALUE, &params },
        { "--device", CLI_VALUE, &device },
        { "--cols", CLI_VALUE, &cols },
        { "--upstream", CLI_VALUE, &upstream },
        { "--generic", CLI_FLAG, &generic },
        { "-o", CLI_VALUE, &dir },
    };
    int rc = cli_parse("export", argc, argv, 2, opts,
                       (int)(sizeof opts / sizeof opts[0]), &pos);
    if (rc == 1)
        return fputs(export_usage, stdout), 0;
    if (rc)
        return rc;
    if (pos.n < 2) {
        fprintf(stderr, "iron export: missing %s\n\n",
                pos.n ? "the design's NAME" : "LIB.so and NAME");
        return fputs(export_usage, stderr), EXIT_USAGE;
    }
    if (pos.n > 2) {
        fprintf(stderr, "iron export: unexpected argument '%s'\n",
                pos.v[2]);
        return EXIT_USAGE;
    }
    if (!args) {
        fputs("iron export: missing --args TYPES (the tensors, e.g. "
              "\"int32[64], int32[64]\")\n", stderr);
        return EXIT_USAGE;
    }
    if (!dir || !dir[0]) {
        fputs("iron export: missing -o DIR (the folder to write)\n", stderr);
        return EXIT_USAGE;
    }
    if (upstream && check_upstream(upstream) != 0)
        return EXIT_USAGE;
    char argbuf[4096], parambuf[4096];
    snprintf(argbuf, sizeof argbuf, "%s", args);
    snprintf(parambuf, sizeof parambuf, "%s", params ? params : "");
    cli_design cd;
    iron_tensor *tensors[CLI_MAX_ITEMS];
    int nt = 0;
    rc = cli_design_open(&cd, "export", pos.v[0], pos.v[1],
                         params ? parambuf : NULL, device, cols);
    if (rc == 0)
        rc = cli_make_tensors("export", argbuf, tensors, &nt);
    if (rc == 0) {
        iron_mlir_options mo = { .size = sizeof mo, .upstream = upstream,
                                 .generic = generic };
        if (iron_jit_export_mlir(cd.jit, &cd.cfg, cd.nparams, cd.params, nt,
                                 tensors, &mo, dir) != IRON_OK) {
            fprintf(stderr, "iron export: %s\n", iron_last_error());
            rc = 1;
        } else {
            char mlir[4096];
            if (cli_path_join(mlir, sizeof mlir, dir, "aie.mlir") != 0)
                snprintf(mlir, sizeof mlir, "%s", dir);
            printf("iron export: wrote %s, kernels, Makefile, README.md and "
                   "host.cpp\n", mlir);
        }
    }
    cli_design_close(&cd);
    for (int i = 0; i < nt; i++)
        iron_tensor_free(tensors[i]);
    return rc;
}
