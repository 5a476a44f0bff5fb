/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * known.c - the tables of known.h: inherent attributes of the ops the
 * MLIR parser normalises, and the enums' integers.  The device integers
 * are upstream's current AIEDevice table (npu2 = 8: an older table had
 * npu1_4col = 8 and npu2 = 9: text of that era reads npu1_4col as npu2).
 */
#include <string.h>

#include "mlir/known.h"

typedef struct inherent {
    const char *op;
    const char *const *attrs;   /* NULL-terminated */
} inherent;

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const inherent tables[] = {
    { "builtin.module", LIST("sym_name", "sym_visibility") },
    { "aie.device", LIST("device", "sym_name") },
    { "aie.tile", LIST("col", "row", "allocation_scheme", "controller_id") },
    { "aie.objectfifo",
      LIST("sym_name", "elemNumber", "elemType", "dimensionsToStream",
           "dimensionsFromStreamPerConsumer", "via_DMA", "plio",
           "disable_synchronization", "repeat_count", "initValues",
           "padDimensions") },
    { "aie.objectfifo.link",
      LIST("fifoIns", "fifoOuts", "src_offsets", "dst_offsets") },
    { "aie.objectfifo.acquire", LIST("port", "objFifo_name", "size") },
    { "aie.objectfifo.release", LIST("port", "objFifo_name", "size") },
    { "aie.objectfifo.subview.access", LIST("index") },
    { "aie.core", LIST("stack_size", "link_with", "elf_file",
                       "dynamic_objfifo_lowering") },
    { "aie.buffer", LIST("sym_name", "address", "initial_value",
                         "mem_bank") },
    { "aie.lock", LIST("lockID", "init", "sym_name") },
    { "aie.use_lock", LIST("action", "value", "blocking", "acq_en") },
    { "aie.end", LIST("") },
    { "aie.runtime_sequence", LIST("sym_name") },
    { "aiex.runtime_sequence", LIST("sym_name") },
    { "aie.dma_bd", LIST("offset", "len", "dimensions", "pad_dimensions",
                         "pad_value", "bd_id", "packet", "burst_length",
                         "next_bd_id") },
    { "aiex.npu.dma_memcpy_nd",
      LIST("static_offsets", "static_sizes", "static_strides", "packet",
           "metadata", "id", "issue_token", "d0_zero_before",
           "d1_zero_before", "d2_zero_before", "d0_zero_after",
           "d1_zero_after", "d2_zero_after", "burst_length", "x", "y",
           "operandSegmentSizes") },
    { "aiex.npu.dma_wait", LIST("symbol") },
    { "aiex.npu.rtp_write",
      LIST("buffer_sym_name", "index", "value", "col", "row") },
    { "aiex.npu.sync", LIST("column", "row", "direction", "channel",
                            "column_num", "row_num") },
    { "aiex.npu.write32", LIST("address", "value", "buffer", "column",
                               "row") },
    { "aiex.npu.maskwrite32", LIST("address", "value", "mask", "buffer",
                                   "column", "row") },
    { "aiex.npu.address_patch", LIST("addr", "arg_idx", "arg_plus") },
    { "aiex.set_lock", LIST("value") },
    { "aiex.dma_configure_task_for",
      LIST("tile", "issue_token", "repeat_count") },
    { "aiex.dma_configure_task",
      LIST("direction", "channel", "issue_token", "repeat_count") },
    { "aiex.dma_start_task", LIST("") },
    { "aiex.dma_await_task", LIST("") },
    { "aiex.dma_free_task", LIST("") },
    { "func.func", LIST("sym_name", "function_type", "sym_visibility",
                        "arg_attrs", "res_attrs") },
    { "func.call", LIST("callee", "arg_attrs", "res_attrs", "no_inline") },
    { "func.return", LIST("") },
    { "arith.constant", LIST("value") },
    { "arith.cmpi", LIST("predicate") },
    { "arith.cmpf", LIST("predicate", "fastmath") },
    { "arith.addi", LIST("overflowFlags") },
    { "arith.subi", LIST("overflowFlags") },
    { "arith.muli", LIST("overflowFlags") },
    { "arith.shli", LIST("overflowFlags") },
    { "arith.addf", LIST("fastmath") },
    { "arith.subf", LIST("fastmath") },
    { "arith.mulf", LIST("fastmath") },
    { "arith.divf", LIST("fastmath") },
    { "arith.maximumf", LIST("fastmath") },
    { "arith.minimumf", LIST("fastmath") },
    { "arith.negf", LIST("fastmath") },
    { "memref.load", LIST("nontemporal") },
    { "memref.store", LIST("nontemporal") },
    { "scf.for", LIST("") },
    { "scf.while", LIST("") },
    { "scf.if", LIST("") },
    { "scf.yield", LIST("") },
    { "scf.condition", LIST("") },
};

/* arith ops without inherent attributes */
static const char *const plain_arith[] = {
    "arith.divsi", "arith.divui", "arith.ceildivsi", "arith.floordivsi",
    "arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori",
    "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.minsi",
    "arith.maxui", "arith.minui", "arith.select", "arith.extsi",
    "arith.extui", "arith.trunci", "arith.sitofp", "arith.uitofp",
    "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf",
    "arith.index_cast", "arith.index_castui", "arith.bitcast",
};

int iron__mlir_inherent(const char *op, const char *attr)
{
    if (!op || !attr)
        return -1;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (strcmp(tables[i].op, op) != 0)
            continue;
        for (const char *const *a = tables[i].attrs; *a; a++)
            if (**a && strcmp(*a, attr) == 0)
                return 1;
        return 0;
    }
    for (size_t i = 0; i < sizeof plain_arith / sizeof plain_arith[0]; i++)
        if (strcmp(plain_arith[i], op) == 0)
            return 0;
    return -1;
}

typedef struct enum_case {
    const char *name;
    int value;
} enum_case;

typedef struct enum_table {
    const char *op, *attr;
    const enum_case *cases;
    int n, width;
} enum_table;

static const enum_case devices[] = {
    { "xcvc1902", 1 }, { "xcve2302", 2 }, { "xcve2802", 3 }, { "npu1", 4 },
    { "npu1_1col", 5 }, { "npu1_2col", 6 }, { "npu1_3col", 7 },
    { "npu2", 8 }, { "npu2_1col", 9 }, { "npu2_2col", 10 },
    { "npu2_3col", 11 }, { "npu2_4col", 12 }, { "npu2_5col", 13 },
    { "npu2_6col", 14 }, { "npu2_7col", 15 },
};
static const enum_case ports[] = { { "Produce", 0 }, { "Consume", 1 } };
static const enum_case actions[] = {
    { "Acquire", 0 }, { "Release", 1 }, { "AcquireGreaterEqual", 2 },
};
static const enum_case blocking[] = { { "NonBlocking", 0 },
                                      { "Blocking", 1 } };
static const enum_case directions[] = { { "S2MM", 0 }, { "MM2S", 1 } };
static const enum_case cmpi[] = {
    { "eq", 0 }, { "ne", 1 }, { "slt", 2 }, { "sle", 3 }, { "sgt", 4 },
    { "sge", 5 }, { "ult", 6 }, { "ule", 7 }, { "ugt", 8 }, { "uge", 9 },
};
static const enum_case cmpf[] = {
    { "false", 0 }, { "oeq", 1 }, { "ogt", 2 }, { "oge", 3 }, { "olt", 4 },
    { "ole", 5 }, { "one", 6 }, { "ord", 7 }, { "ueq", 8 }, { "ugt", 9 },
    { "uge", 10 }, { "ult", 11 }, { "ule", 12 }, { "une", 13 },
    { "uno", 14 }, { "true", 15 },
};

#define TABLE(op, attr, cases, width) \
    { op, attr, cases, (int)(sizeof cases / sizeof cases[0]), width }

static const enum_table enums[] = {
    TABLE("aie.device", "device", devices, 32),
    TABLE("aie.objectfifo.acquire", "port", ports, 32),
    TABLE("aie.objectfifo.release", "port", ports, 32),
    TABLE("aie.use_lock", "action", actions, 32),
    TABLE("aie.use_lock", "blocking", blocking, 32),
    TABLE("aiex.dma_configure_task", "direction", directions, 32),
    TABLE("arith.cmpi", "predicate", cmpi, 64),
    TABLE("arith.cmpf", "predicate", cmpf, 64),
};

static const enum_table *find_enum(const char *op, const char *attr)
{
    if (!op || !attr)
        return NULL;
    for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++)
        if (strcmp(enums[i].op, op) == 0 && strcmp(enums[i].attr, attr) == 0)
            return &enums[i];
    return NULL;
}

int iron__mlir_is_enum(const char *op, const char *attr)
{
    return find_enum(op, attr) != NULL;
}

int iron__mlir_enum_value(const char *op, const char *attr, const char *word,
                          int64_t *v, int *width)
{
    const enum_table *t = find_enum(op, attr);
    if (!t || !word)
        return 0;
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->cases[i].name, word) == 0) {
            *v = t->cases[i].value;
            *width = t->width;
            return 1;
        }
    return 0;
}

const char *iron__mlir_enum_name(const char *op, const char *attr,
                                 int64_t v)
{
    const enum_table *t = find_enum(op, attr);
    if (!t)
        return NULL;
    for (int i = 0; i < t->n; i++)
        if (t->cases[i].value == v)
            return t->cases[i].name;
    return NULL;
}

/* --- arith ops of the shared custom forms ------------------------------- */

static const char *const binaries[] = {
    "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
    "arith.ceildivsi", "arith.floordivsi", "arith.remsi", "arith.remui",
    "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrsi",
    "arith.shrui", "arith.maxsi", "arith.minsi", "arith.maxui",
    "arith.minui", "arith.addf", "arith.subf", "arith.mulf", "arith.divf",
    "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf",
    "arith.remf",
};

static const char *const casts[] = {
    "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp",
    "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.extf",
    "arith.truncf", "arith.index_cast", "arith.index_castui",
    "arith.bitcast",
};

int iron__mlir_arith_form(const char *op)
{
    for (size_t i = 0; i < sizeof binaries / sizeof binaries[0]; i++)
        if (strcmp(binaries[i], op) == 0)
            return IRON__MLIR_ARITH_BINARY;
    for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
        if (strcmp(casts[i], op) == 0)
            return IRON__MLIR_ARITH_CAST;
    return IRON__MLIR_ARITH_OTHER;
}
