/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * export_generic.c - the generic form of the exported text: the pretty
 * text read back by src/mlir's parser and printed with every op generic
 * (what `mlir-opt --mlir-print-op-generic` prints), so that one printer
 * decides how each op's generic form looks for export and import alike.
 */
#include "mlir/ast.h"
#include "mlir/export.h"

iron_status iron__mlir_export_generic(const char *pretty, iron__str *out)
{
    iron__mlir_module *m = NULL;
    size_t len = 0;
    while (pretty[len])
        len++;
    iron_status s = iron__mlir_parse(pretty, len, "<export>", &m);
    if (s != IRON_OK)
        return iron__fail_context(s, "MLIR export: the exported text does "
                                     "not parse back (an exporter bug)");
    s = iron__mlir_print(m, 1, out);
    iron__mlir_module_free(m);
    if (s == IRON_OK && out->oom)
        s = iron__fail(IRON_ENOMEM, "MLIR export: out of memory");
    return s;
}
