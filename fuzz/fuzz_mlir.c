/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * fuzz_mlir.c - libFuzzer target for the MLIR parser and printers
 * (src/mlir): the input is MLIR text, parsed in whatever form it is
 * written; a module that parses is printed in both forms and as the
 * mlir-opt test's cores-as-functions text, unless it holds an opaque op
 * (a custom form the parser does not know, ast.h), which no printer is
 * given.
 * Properties (a violation aborts):
 *   - no crash, no undefined behaviour, no leak; every failure leaves a
 *     message, and a failed parse returns no module;
 *   - the printers succeed on every parsed module;
 *   - what they print parses again and prints the same (for both forms):
 *     parse(print(parse(x))) == print(parse(x)).
 *
 * FUZZ_MLIR_VERBOSE=1 prints each parse's outcome.
 *
 * Run: make fuzz-mlir (or build-fuzz/fuzz_mlir -dict=fuzz/fuzz_mlir.dict).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "iron/iron.h"
#include "mlir/ast.h"

static int verbose;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *v = getenv("FUZZ_MLIR_VERBOSE");
    verbose = v && *v && strcmp(v, "0") != 0;
    return 0;
}

/* text printed by the printer: parses, and prints as itself */
static void reprints(const char *text, size_t len, int generic)
{
    iron__mlir_module *m = NULL;
    iron_status st = iron__mlir_parse(text, len, "printed.mlir", &m);
    FUZZ_CHECK(st == IRON_OK, "the %s form does not parse again: %s\n%s",
               generic ? "generic" : "custom", iron_last_error(), text);
    iron__str again = { 0 };
    st = iron__mlir_print(m, generic, &again);
    FUZZ_CHECK(st == IRON_OK, "printing again failed");
    FUZZ_CHECK(again.len == len && memcmp(iron__str_get(&again), text,
                                          len) == 0,
               "the %s form does not round-trip:\n%s\n-- prints as --\n%s",
               generic ? "generic" : "custom", text, iron__str_get(&again));
    iron__str_free(&again);
    iron__mlir_module_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    iron__mlir_module *m = (iron__mlir_module *)1;
    iron_status st = iron__mlir_parse((const char *)data, size, "fuzz.mlir",
                                      &m);
    FUZZ_FAILED_WITH_MESSAGE(st, "iron__mlir_parse");
    FUZZ_CHECK((st == IRON_OK) == (m != NULL),
               "iron__mlir_parse returned %s with module %p",
               iron_status_name(st), (void *)m);
    if (verbose)
        fprintf(stderr, "fuzz_mlir: %s\n",
                st == IRON_OK ? "parsed" : iron_last_error());
    if (st != IRON_OK)
        return 0;
    const iron__mlir_op *opq = iron__mlir_find_opaque(m->top);
    if (opq) {
        FUZZ_CHECK(opq->name && strchr(opq->name, '.') && !opq->nregions &&
                       !opq->noperands && !opq->nattrs,
                   "an opaque op with more than a name");
        iron__mlir_module_free(m);
        return 0;
    }
    for (int generic = 0; generic < 2; generic++) {
        iron__str s = { 0 };
        st = iron__mlir_print(m, generic, &s);
        FUZZ_CHECK(st == IRON_OK, "iron__mlir_print failed: %s",
                   iron_last_error());
        reprints(iron__str_get(&s), s.len, generic);
        iron__str_free(&s);
    }
    iron__str c = { 0 };
    st = iron__mlir_print_cores_as_funcs(m, &c);
    FUZZ_CHECK(st == IRON_OK, "iron__mlir_print_cores_as_funcs failed");
    iron__mlir_module *cm = NULL;
    st = iron__mlir_parse(iron__str_get(&c), c.len, "cores.mlir", &cm);
    FUZZ_CHECK(st == IRON_OK, "the cores text does not parse: %s\n%s",
               iron_last_error(), iron__str_get(&c));
    iron__mlir_module_free(cm);
    iron__str_free(&c);
    iron__mlir_module_free(m);
    return 0;
}
