/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * version.h - upstream's MLIR-AIE syntax by version: the syntax changes
 * upstream made, each with its date and pull request (version.c's one
 * table), and the export targets named by upstream version.  A target
 * prints exactly what upstream accepted at that version: the exporter
 * asks which changes a target has (where a change decides what to
 * build), and iron__mlir_lower rewrites a tree in the newest spelling
 * into the target's just before it is printed.  The parser reads every
 * spelling and makes the newest (ops.c, forms_*.c).
 */
#ifndef IRON_MLIR_VERSION_H
#define IRON_MLIR_VERSION_H

#include "core/core.h"
#include "iron/iron.h"
#include "mlir/ast.h"

/* The syntax changes a target may have (bits). */
enum {
    IRON__SYN_NPU1_4COL = 1 << 0,     /* #2397: npu1 is the 4-column
                                         device, the device enum
                                         renumbered */
    IRON__SYN_AIE_SEQUENCE = 1 << 1,  /* #2708: aie.runtime_sequence */
    IRON__SYN_FUNC_LINK = 1 << 2,     /* #2922: link_with on func.func */
    IRON__SYN_SSA_VALUES = 1 << 3,    /* #3225 / #3308: rtp_write's and
                                         use_lock's value an i32 operand */
    IRON__SYN_BD_KEYWORDS = 1 << 4    /* #3306: dma_bd's keyword form */
};

typedef struct iron__mlir_target {
    const char *name;                 /* "2025-04", "latest" */
    const char *commit;               /* the upstream commit it matches */
    const char *date;                 /* that commit's: the changes
                                         merged by then are the target's */
} iron__mlir_target;

/* The target called name (NULL: the newest, "latest"); IRON_EINVAL
 * listing the targets there are. */
iron_status iron__mlir_target_find(const char *name,
                                   const iron__mlir_target **out);
int iron__mlir_target_has(const iron__mlir_target *t, unsigned syntax);
/* Row i of the syntax-change table (0 past the end): its date, pull
 * request and what changed (for docs and their test). */
int iron__mlir_syntax_change(int i, const char **date, const char **pr,
                             const char **what);

/* Rewrites m (the newest spelling, as the parser and the exporter make
 * it) into target t's, for printing in the generic form (generic = 1:
 * enums as t numbers them) or the custom one.  IRON_ENOMEM. */
iron_status iron__mlir_lower(iron__mlir_module *m,
                             const iron__mlir_target *t, int generic);

/* The device's integer in t's AIEDevice enum for the generic form, or
 * -1 when t has no such device (the caller prints the registry's). */
int iron__mlir_target_device_value(const iron__mlir_target *t,
                                   const char *name);

#endif
