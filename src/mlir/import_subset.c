/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import_subset.c - the imported subset as two tables: the ops the
 * importer reads, and the ops upstream writes that it does not, each
 * with the reason.  Before anything else of the selected device is read,
 * every op in it is checked against them, so an op outside the subset
 * is one message -- "FILE:LINE:COL: OP: outside the imported subset
 * (REASON)" -- whether it was written in the generic form or in a custom
 * form the parser does not know (an opaque op, ast.h).  docs/mlir.md
 * ("The imported subset") lists the same ops; a test keeps them equal.
 */
#include <string.h>

#include "mlir/import.h"

/* Where each op is read (docs/mlir.md's rows); the importer's files
 * check each op against its place. */
const iron__imp_read_op iron__imp_read_ops[] = {
    { "builtin.module", "module" },
    { "aie.device", "module" },
    { "func.func", "module, device" },
    { "aie.tile", "device" },
    { "aie.objectfifo", "device" },
    { "aie.objectfifo.link", "device" },
    { "aie.core", "device" },
    { "aie.buffer", "device" },
    { "aie.lock", "device" },
    { "aie.end", "device, core, sequence" },
    { "aie.objectfifo.acquire", "core" },
    { "aie.objectfifo.subview.access", "core" },
    { "aie.objectfifo.release", "core" },
    { "aie.use_lock", "core" },
    { "func.call", "core" },
    { "memref.load", "core" },
    { "memref.store", "core" },
    { "scf.for", "core" },
    { "scf.while", "core" },
    { "scf.if", "core" },
    { "scf.yield", "core" },
    { "scf.condition", "core" },
    { "arith.constant", "device, core, sequence" },
    { "aie.runtime_sequence", "device" },
    { "aiex.runtime_sequence", "device" },
    { "func.return", "sequence" },
    { "aiex.end", "sequence" },
    { "aiex.npu.dma_memcpy_nd", "sequence" },
    { "aiex.npu.dma_wait", "sequence" },
    { "aiex.npu.sync", "sequence" },
    { "aiex.npu.rtp_write", "sequence" },
    { "aiex.set_lock", "sequence" },
    { "aiex.dma_configure_task_for", "sequence" },
    { "aie.dma_bd", "sequence" },
    { "aiex.dma_start_task", "sequence" },
    { "aiex.dma_await_task", "sequence" },
    { "aiex.dma_free_task", "sequence" },
};
const int iron__imp_nread_ops = (int)IRON__COUNT_OF(iron__imp_read_ops);

/* Reasons shared by several ops. */
#define ROUTING                                                              \
    "routing: the stream switches and flows between tiles are placement's " \
    "here, made from the object fifos"
#define DMA_PROGRAM                                                          \
    "a hand-written DMA program (channels, buffer descriptors, locks) "     \
    "below the object-fifo level; placement makes the DMAs here from the "  \
    "object fifos"
#define CASCADE "cascade streams between neighbouring cores: not modelled"
#define NPU_REGS                                                             \
    "raw register programming of the instruction stream: the emulator "     \
    "runs the sequence's transfers, not register writes"
#define MEMREF_VIEW                                                          \
    "memref allocation, views and casts: a core body reads and writes "     \
    "elements of fifo objects and aie.buffer memories only (memref.load, "  \
    "memref.store)"
#define OBJFIFO_LOWERED                                                      \
    "what upstream's object-fifo lowering writes for a fifo's shim end "    \
    "(buffers and channels by name); here the object fifos are read "       \
    "unlowered and placement allocates the channels"

#define GLOBAL                                                               \
    "global memory symbols: upstream's object-fifo lowering and "           \
    "hand-written physical designs name the shim DMAs' buffers with "       \
    "them, register writes their constant data; object fifos are read "     \
    "unlowered here, and core bodies use fifo objects and aie.buffer"

/* Names ending in '.' are dialect prefixes. */
const iron__imp_outside_op iron__imp_outside_ops[] = {
    { "aie.flow", ROUTING },
    { "aie.packet_flow", ROUTING },
    { "aie.packet_source", ROUTING },
    { "aie.packet_dest", ROUTING },
    { "aie.switchbox", ROUTING },
    { "aie.shim_switchbox", ROUTING },
    { "aie.shim_mux", ROUTING },
    { "aie.connect", ROUTING },
    { "aie.wire", ROUTING },
    { "aie.masterset", ROUTING },
    { "aie.packet_rules", ROUTING },
    { "aie.amsel", ROUTING },
    { "aie.mem", DMA_PROGRAM },
    { "aie.memtile_dma", DMA_PROGRAM },
    { "aie.shim_dma", DMA_PROGRAM },
    { "aie.dma", DMA_PROGRAM },
    { "aie.dma_start", DMA_PROGRAM },
    { "aie.next_bd", DMA_PROGRAM },
    { "aie.dma_bd_packet", DMA_PROGRAM },
    { "aiex.dma_configure_task", DMA_PROGRAM },
    { "aie.shim_dma_allocation", OBJFIFO_LOWERED },
    { "memref.global", GLOBAL },
    { "memref.get_global", GLOBAL },
    { "aie.external_buffer",
      "a buffer in host memory that hand-written shim DMA programs "
      "address; host memory is the runtime sequence's arguments here" },
    { "aie.logical_tile",
      "a tile left for upstream's compiler to place; the importer runs a "
      "placed module, its tiles written aie.tile(col, row)" },
    { "aie.objectfifo.register_external_buffers",
      "fifo ends in host buffers given by hand, below the runtime "
      "sequence" },
    { "aie.objectfifo.register_process",
      "a fifo process description; core bodies acquire and release "
      "themselves here" },
    { "aie.cascade_flow", CASCADE },
    { "aie.configure_cascade", CASCADE },
    { "aie.put_cascade", CASCADE },
    { "aie.get_cascade", CASCADE },
    { "memref.copy",
      "a whole-memref copy: write it as a loop of memref.load and "
      "memref.store" },
    { "memref.alloc", MEMREF_VIEW },
    { "memref.alloca", MEMREF_VIEW },
    { "memref.dealloc", MEMREF_VIEW },
    { "memref.subview", MEMREF_VIEW },
    { "memref.view", MEMREF_VIEW },
    { "memref.cast", MEMREF_VIEW },
    { "memref.reinterpret_cast", MEMREF_VIEW },
    { "memref.collapse_shape", MEMREF_VIEW },
    { "memref.expand_shape", MEMREF_VIEW },
    { "memref.assume_alignment", MEMREF_VIEW },
    { "aiex.npu.write32", NPU_REGS },
    { "aiex.npu.maskwrite32", NPU_REGS },
    { "aiex.npu.blockwrite", NPU_REGS },
    { "aiex.npu.writebd", NPU_REGS },
    { "aiex.npu.address_patch", NPU_REGS },
    { "aiex.npu.push_queue", NPU_REGS },
    { "aiex.npu.load_pdi", NPU_REGS },
    { "aiex.npu.preempt", NPU_REGS },
    { "aiex.configure",
      "a runlist reconfiguring the array between devices: run each device "
      "on its own (choose it by its symbol name)" },
    { "aiex.run",
      "a runlist reconfiguring the array between devices: run each device "
      "on its own (choose it by its symbol name)" },
    { "vector.", "the vector dialect: core bodies are scalar" },
    { "aievec.", "AIE vector intrinsics: core bodies are scalar" },
    { "math.", "the math dialect: core bodies have arith only" },
    { "cf.",
      "unstructured control flow: core bodies have scf.for, scf.while and "
      "scf.if" },
    { "affine.", "affine loops and maps: write them as scf.for" },
    { "llvm.", "the LLVM dialect: below the level core bodies describe" },
};
const int iron__imp_noutside_ops = (int)IRON__COUNT_OF(iron__imp_outside_ops);

int iron__imp_reads_op(const char *name)
{
    if (strncmp(name, "arith.", 6) == 0 && iron__imp_arith_reads(name + 6))
        return 1;
    for (int i = 0; i < iron__imp_nread_ops; i++)
        if (strcmp(iron__imp_read_ops[i].name, name) == 0)
            return 1;
    return 0;
}

const char *iron__imp_outside_reason(const char *name)
{
    for (int i = 0; i < iron__imp_noutside_ops; i++) {
        const char *o = iron__imp_outside_ops[i].name;
        size_t n = strlen(o);
        if (o[n - 1] == '.' ? strncmp(name, o, n) == 0
                            : strcmp(name, o) == 0)
            return iron__imp_outside_ops[i].reason;
    }
    return NULL;
}

iron_status iron__imp_outside(const iron_mlir *m, const iron__mlir_op *op)
{
    const char *why = iron__imp_outside_reason(op->name);
    if (!why && op->opaque && iron__imp_reads_op(op->name))
        why = "this custom form of it is not one the parser knows: write "
              "it in the generic form";
    if (!why && strncmp(op->name, "arith.", 6) == 0)
        why = "an arith op core bodies do not have";
    if (!why)
        why = "no op of this name is read";
    return iron__imp_fail(m, IRON_ENOTSUP, op,
                          "outside the imported subset (%s; docs/mlir.md, "
                          "\"The imported subset\")",
                          why);
}

iron_status iron__imp_check_subset(const iron_mlir *m,
                                   const iron__mlir_op *op)
{
    if (op->opaque || !iron__imp_reads_op(op->name))
        return iron__imp_outside(m, op);
    for (int r = 0; r < op->nregions; r++)
        for (int b = 0; b < op->regions[r]->nblocks; b++) {
            const iron__mlir_block *blk = op->regions[r]->blocks[b];
            for (int i = 0; i < blk->nops; i++) {
                iron_status s = iron__imp_check_subset(m, blk->ops[i]);
                if (s != IRON_OK)
                    return s;
            }
        }
    return IRON_OK;
}
