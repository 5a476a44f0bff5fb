/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * ops.c - the op registry (ops.h): one entry per op the MLIR bridge
 * reads and writes.  The format strings are the custom forms upstream
 * prints; the attribute lists are the ops' inherent attributes
 * (upstream's properties, <{...}> in the generic form) with their enums
 * and the values the custom forms leave out.
 *
 * The device integers are upstream's current AIEDevice enum (npu2 = 8);
 * a target that prints an older numbering maps them (version.c).
 */
#include <string.h>

#include "mlir/ops.h"

/* --- enums ------------------------------------------------------------ */

#define CASES(...) ((const iron__mlir_enum_case[]){ __VA_ARGS__ })
#define ENUM(what, width, ...)                                              \
    {                                                                       \
        what, CASES(__VA_ARGS__),                                           \
            (int)(sizeof CASES(__VA_ARGS__) /                               \
                  sizeof(iron__mlir_enum_case)),                            \
            width                                                           \
    }

static const iron__mlir_enumdef devices = ENUM(
    "a device name (npu1_1col, ...)", 32, { "xcvc1902", 1 },
    { "xcve2302", 2 }, { "xcve2802", 3 }, { "npu1", 4 }, { "npu1_1col", 5 },
    { "npu1_2col", 6 }, { "npu1_3col", 7 }, { "npu2", 8 },
    { "npu2_1col", 9 }, { "npu2_2col", 10 }, { "npu2_3col", 11 },
    { "npu2_4col", 12 }, { "npu2_5col", 13 }, { "npu2_6col", 14 },
    { "npu2_7col", 15 });
static const iron__mlir_enumdef ports =
    ENUM("Produce or Consume", 32, { "Produce", 0 }, { "Consume", 1 });
static const iron__mlir_enumdef actions =
    ENUM("a lock action (Acquire, AcquireGreaterEqual, Release)", 32,
         { "Acquire", 0 }, { "Release", 1 }, { "AcquireGreaterEqual", 2 });
static const iron__mlir_enumdef blocking =
    ENUM("a value or Blocking", 32, { "NonBlocking", 0 }, { "Blocking", 1 });
static const iron__mlir_enumdef directions =
    ENUM("MM2S or S2MM", 32, { "S2MM", 0 }, { "MM2S", 1 });
static const iron__mlir_enumdef cmpi = ENUM(
    "a predicate (slt, eq, ...)", 64, { "eq", 0 }, { "ne", 1 }, { "slt", 2 },
    { "sle", 3 }, { "sgt", 4 }, { "sge", 5 }, { "ult", 6 }, { "ule", 7 },
    { "ugt", 8 }, { "uge", 9 });
static const iron__mlir_enumdef cmpf = ENUM(
    "a predicate (olt, oeq, ...)", 64, { "false", 0 }, { "oeq", 1 },
    { "ogt", 2 }, { "oge", 3 }, { "olt", 4 }, { "ole", 5 }, { "one", 6 },
    { "ord", 7 }, { "ueq", 8 }, { "ugt", 9 }, { "uge", 10 }, { "ult", 11 },
    { "ule", 12 }, { "une", 13 }, { "uno", 14 }, { "true", 15 });

/* --- attribute lists -------------------------------------------------- */

#define ATTRS(...) \
    ((const iron__mlir_attrdef[]){ __VA_ARGS__, { NULL, NULL, NULL, NULL } })
#define A(name) { name, NULL, NULL, NULL }
#define A_ENUM(name, e) { name, &e, NULL, NULL }
#define A_DEFAULT(name, v) { name, NULL, v, NULL }
#define A_GENERIC(name, g) { name, NULL, NULL, g }

#define ISO IRON__OPF_ISOLATED
#define ONE IRON__OPF_ONE_BLOCK
#define TERM IRON__OPF_TERMINATOR
#define IDX IRON__OPF_INDEX

/* Binary arith ops: %a, %b [flags] : T. */
#define BINARY(name, flags)                                                 \
    { name, "%0:r , %1:r @arith_flags attrs : rtype", flags, 0, NULL, NULL, \
      NULL }
#define OVERFLOW ATTRS(A("overflowFlags"))
#define FASTMATH ATTRS(A("fastmath"))
#define CAST(name)                                                          \
    { name, "%0 attrs : type(%0) 'to' rtype", NULL, 0, NULL, NULL, NULL }
#define ATTRS_ONLY(name, attrs) { name, "attrs", attrs, 0, NULL, NULL, NULL }

static const iron__mlir_opdef ops[] = {
    /* --- builtin, func ------------------------------------------------ */
    { "builtin.module", "?( $sym_name:sym )? attributes region",
      ATTRS(A("sym_name"), A("sym_visibility")), ISO | ONE, NULL, "module",
      NULL },
    { "builtin.unrealized_conversion_cast", "%0 : type(%0) 'to' rtype attrs",
      NULL, 0, NULL, NULL, NULL },
    { "func.func", "@func",
      ATTRS(A("sym_name"), A("function_type"), A("sym_visibility"),
            A("arg_attrs"), A("res_attrs")),
      ISO, NULL, "func", NULL },
    { "func.call", "$callee:ref ( %0* ) attrs : @functional",
      ATTRS(A("callee"), A("arg_attrs"), A("res_attrs"), A("no_inline")), 0,
      NULL, "call", NULL },
    { "func.return", "attrs ?( %0* : type(%0*) )?", NULL, TERM, NULL,
      "return", NULL },

    /* --- aie ---------------------------------------------------------- */
    { "aie.device", "( $device:kw ) ?( $sym_name:sym )? region attrs",
      ATTRS(A_ENUM("device", devices), A("sym_name")), ISO | ONE, "aie.end",
      NULL, NULL },
    { "aie.tile", "( $col:i32 , $row:i32 ) attrs",
      ATTRS(A("col"), A("row"), A("allocation_scheme"), A("controller_id")),
      IDX, NULL, NULL, NULL },
    { "aie.objectfifo",
      "$sym_name:sym ( @fifo_ends , $elemNumber:attr ) attrs "
      ": $elemType:type @fifo_init",
      ATTRS(A("sym_name"), A("elemNumber"), A("elemType"),
            A("dimensionsToStream"), A("dimensionsFromStreamPerConsumer"),
            A_DEFAULT("via_DMA", "false"), A_DEFAULT("plio", "false"),
            A_DEFAULT("disable_synchronization", "false"), A("repeat_count"),
            A("initValues"), A("padDimensions")),
      0, NULL, NULL, iron__mlir_norm_objectfifo },
    { "aie.objectfifo.link", "$fifoIns:refs -> $fifoOuts:refs @link_offsets attrs",
      ATTRS(A("fifoIns"), A("fifoOuts"), A("src_offsets"), A("dst_offsets")),
      0, NULL, NULL, iron__mlir_norm_link },
    { "aie.objectfifo.acquire",
      "attrs $objFifo_name:ref ( ?( $port:kw , )? $size:i32 ) : rtypes",
      ATTRS(A_ENUM("port", ports), A("objFifo_name"), A("size")), 0, NULL,
      NULL, iron__mlir_norm_acquire },
    { "aie.objectfifo.release",
      "attrs $objFifo_name:ref ( ?( $port:kw , )? $size:i32 )",
      ATTRS(A_ENUM("port", ports), A("objFifo_name"), A("size")), 0, NULL,
      NULL, NULL },
    { "aie.objectfifo.subview.access",
      "%0 [ $index:i32 ] attrs : type(%0) -> rtype", ATTRS(A("index")), 0,
      NULL, NULL, NULL },
    { "aie.core", "( %0:index ) region attrs",
      ATTRS(A_DEFAULT("stack_size", "1024"), A("link_with"), A("elf_file"),
            A("dynamic_objfifo_lowering")),
      IDX, NULL, NULL, NULL },
    { "aie.buffer", "( %0:index ) attrs : rtype @buffer_init",
      ATTRS(A("sym_name"), A("address"), A("initial_value"), A("mem_bank")),
      0, NULL, NULL, NULL },
    { "aie.lock", "( %0:index ?( , $lockID:i32 )? ) attrs",
      ATTRS(A("lockID"), A("init"), A("sym_name")), IDX, NULL, NULL, NULL },
    { "aie.use_lock",
      "( %0:index , $action:kw ?( , $value:i32 )? ?( , %1 )? "
      "?( , $blocking:kw )? ) attrs",
      ATTRS(A_ENUM("action", actions), A("value"),
            A_ENUM("blocking", blocking), A("acq_en")),
      0, NULL, NULL, iron__mlir_norm_use_lock },
    { "aie.end", "attrs", NULL, 0, NULL, NULL, NULL },
    { "aie.runtime_sequence", "?( $sym_name:sym )? @seq_args attributes region",
      ATTRS(A("sym_name")), ONE, NULL, NULL, NULL },
    { "aie.dma_bd", "( @bd_body ) attrs",
      ATTRS(A("offset"), A("len"), A("dimensions"), A("pad_dimensions"),
            A("pad_value"), A("bd_id"), A("packet"), A("burst_length"),
            A("next_bd_id"), A("static_offset"), A("static_len"),
            A("static_sizes"), A("static_strides"), A("iteration"),
            A("operandSegmentSizes")),
      0, NULL, NULL, iron__mlir_norm_dma_bd },

    /* --- aiex --------------------------------------------------------- */
    { "aiex.runtime_sequence",
      "?( $sym_name:sym )? @seq_args attributes region", ATTRS(A("sym_name")),
      ONE, NULL, NULL, iron__mlir_norm_sequence },
    { "aiex.npu.dma_memcpy_nd", "( @memcpy_body ) attrs : type(%0)",
      ATTRS(A("static_offsets"), A("static_sizes"), A("static_strides"),
            A("packet"), A("metadata"), A("id"), A("issue_token"),
            A("d0_zero_before"), A("d1_zero_before"), A("d2_zero_before"),
            A("d0_zero_after"), A("d1_zero_after"), A("d2_zero_after"),
            A("burst_length"), A("x"), A("y"), A("operandSegmentSizes")),
      0, NULL, NULL, iron__mlir_norm_memcpy },
    ATTRS_ONLY("aiex.npu.dma_wait", ATTRS(A("symbol"))),
    { "aiex.npu.rtp_write", "( @rtp_args ) attrs ?( : type(%0) )?",
      ATTRS(A_GENERIC("buffer_sym_name", "buffer"), A("index"), A("value"),
            A("col"), A("row")),
      0, NULL, NULL, iron__mlir_norm_rtp_write },
    ATTRS_ONLY("aiex.npu.sync",
               ATTRS(A("column"), A("row"), A("direction"), A("channel"),
                     A("column_num"), A("row_num"))),
    ATTRS_ONLY("aiex.npu.write32",
               ATTRS(A("address"), A("value"), A("buffer"), A("column"),
                     A("row"))),
    ATTRS_ONLY("aiex.npu.maskwrite32",
               ATTRS(A("address"), A("value"), A("mask"), A("buffer"),
                     A("column"), A("row"))),
    ATTRS_ONLY("aiex.npu.writebd", NULL),
    ATTRS_ONLY("aiex.npu.address_patch",
               ATTRS(A("addr"), A("arg_idx"), A("arg_plus"))),
    ATTRS_ONLY("aiex.npu.preempt", NULL),
    ATTRS_ONLY("aiex.npu.load_pdi", NULL),
    { "aiex.set_lock", "( %0:index , $value:i32 ) attrs", ATTRS(A("value")),
      0, NULL, NULL, NULL },
    { "aiex.dma_configure_task_for", "$tile:ref region attrs",
      ATTRS(A_GENERIC("tile", "alloc"), A("issue_token"), A("repeat_count")),
      IDX, NULL, NULL, NULL },
    { "aiex.dma_configure_task",
      "( %0:index , $direction:kw , $channel:i32 ) region attrs",
      ATTRS(A_ENUM("direction", directions), A("channel"), A("issue_token"),
            A("repeat_count")),
      IDX, NULL, NULL, NULL },
    { "aiex.dma_start_task", "( %0:index ) attrs", NULL, 0, NULL, NULL,
      NULL },
    { "aiex.dma_await_task", "( %0:index ) attrs", NULL, 0, NULL, NULL,
      NULL },
    { "aiex.dma_free_task", "( %0:index ) attrs", NULL, 0, NULL, NULL, NULL },

    /* --- arith -------------------------------------------------------- */
    { "arith.constant", "attrs @const_value", ATTRS(A("value")), 0, NULL,
      NULL, NULL },
    { "arith.cmpi", "$predicate:kw , %0 , %1 @arith_flags attrs : @cmp_type",
      ATTRS(A_ENUM("predicate", cmpi)), 0, NULL, NULL, NULL },
    { "arith.cmpf", "$predicate:kw , %0 , %1 @arith_flags attrs : @cmp_type",
      ATTRS(A_ENUM("predicate", cmpf), A("fastmath")), 0, NULL, NULL, NULL },
    { "arith.select", "%0 , %1 , %2 attrs : @select_type", NULL, 0, NULL,
      NULL, NULL },
    { "arith.negf", "%0:r @arith_flags attrs : rtype", FASTMATH, 0, NULL,
      NULL, NULL },
    BINARY("arith.addi", OVERFLOW), BINARY("arith.subi", OVERFLOW),
    BINARY("arith.muli", OVERFLOW), BINARY("arith.shli", OVERFLOW),
    BINARY("arith.divsi", NULL), BINARY("arith.divui", NULL),
    BINARY("arith.ceildivsi", NULL), BINARY("arith.floordivsi", NULL),
    BINARY("arith.remsi", NULL), BINARY("arith.remui", NULL),
    BINARY("arith.andi", NULL), BINARY("arith.ori", NULL),
    BINARY("arith.xori", NULL), BINARY("arith.shrsi", NULL),
    BINARY("arith.shrui", NULL), BINARY("arith.maxsi", NULL),
    BINARY("arith.minsi", NULL), BINARY("arith.maxui", NULL),
    BINARY("arith.minui", NULL), BINARY("arith.addf", FASTMATH),
    BINARY("arith.subf", FASTMATH), BINARY("arith.mulf", FASTMATH),
    BINARY("arith.divf", FASTMATH), BINARY("arith.maximumf", FASTMATH),
    BINARY("arith.minimumf", FASTMATH), BINARY("arith.maxnumf", FASTMATH),
    BINARY("arith.minnumf", FASTMATH), BINARY("arith.remf", FASTMATH),
    CAST("arith.extsi"), CAST("arith.extui"), CAST("arith.trunci"),
    CAST("arith.sitofp"), CAST("arith.uitofp"), CAST("arith.fptosi"),
    CAST("arith.fptoui"), CAST("arith.extf"), CAST("arith.truncf"),
    CAST("arith.index_cast"), CAST("arith.index_castui"),
    CAST("arith.bitcast"),

    /* --- memref, scf -------------------------------------------------- */
    { "memref.load", "%0 [ %1* ] attrs : @load_type", ATTRS(A("nontemporal")),
      0, NULL, NULL, NULL },
    { "memref.store", "%0 , %1 [ %2* ] attrs : @store_type",
      ATTRS(A("nontemporal")), 0, NULL, NULL, NULL },
    { "scf.for", "@for", NULL, 0, NULL, NULL, NULL },
    { "scf.while", "@while", NULL, 0, NULL, NULL, NULL },
    { "scf.if", "@if", NULL, 0, NULL, NULL, NULL },
    { "scf.yield", "attrs ?( %0* : type(%0*) )?", NULL, TERM, NULL, NULL,
      NULL },
    { "scf.condition", "( %0:i1 ) attrs ?( %1* : type(%1*) )?", NULL, TERM,
      NULL, NULL, NULL },
};

const iron__mlir_opdef *iron__mlir_opdef_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < IRON__COUNT_OF(ops); i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

const char *iron__mlir_op_unalias(const char *word, size_t n)
{
    for (size_t i = 0; i < IRON__COUNT_OF(ops); i++)
        if (ops[i].alias && strlen(ops[i].alias) == n &&
            memcmp(ops[i].alias, word, n) == 0)
            return ops[i].name;
    return NULL;
}

const iron__mlir_attrdef *iron__mlir_attrdef_find(const iron__mlir_opdef *d,
                                                  const char *attr)
{
    for (const iron__mlir_attrdef *a = d && attr ? d->attrs : NULL;
         a && a->name; a++)
        if (strcmp(a->name, attr) == 0)
            return a;
    return NULL;
}

int iron__mlir_inherent(const char *op, const char *attr)
{
    const iron__mlir_opdef *d = iron__mlir_opdef_find(op);
    if (!d)
        return -1;
    return iron__mlir_attrdef_find(d, attr) != NULL;
}

int iron__mlir_enum_value(const char *op, const char *attr, const char *word,
                          int64_t *v, int *width)
{
    const iron__mlir_attrdef *a =
        iron__mlir_attrdef_find(iron__mlir_opdef_find(op), attr);
    if (!a || !a->e || !word)
        return 0;
    for (int i = 0; i < a->e->n; i++)
        if (strcmp(a->e->cases[i].name, word) == 0) {
            *v = a->e->cases[i].value;
            *width = a->e->width;
            return 1;
        }
    return 0;
}

const char *iron__mlir_generic_attr_name(const iron__mlir_op *op,
                                         const char *attr)
{
    const iron__mlir_attrdef *a =
        iron__mlir_attrdef_find(iron__mlir_opdef_find(op->name), attr);
    /* the 2024 rtp_write (col, row) named its buffer buffer_sym_name */
    if (!a || !a->generic ||
        (strcmp(op->name, "aiex.npu.rtp_write") == 0 &&
         iron__mlir_attr_get(op, "col")))
        return attr;
    return a->generic;
}
