/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mlir_import_errors.c - what the MLIR-AIE importer refuses, and
 * how it says so: ops outside the subset (IRON_ENOTSUP), undefined
 * symbols and wrong types (IRON_EDESIGN), placements the device cannot
 * hold, missing or unused kernel sources (IRON_EINVAL) and a source
 * whose function disagrees with its declaration (at the first call);
 * every message names the file, line and column of the op.  Nothing
 * runs on error.
 */
#include "mlir/import.h"
#include "test.h"

/* A small add-nothing module with three holes, each one line (or lines
 * at the end of their block): DEV after the fifos (line 7), CORE in the
 * core's body (line 16), SEQ the whole runtime sequence (from line 22).
 * With the defaults it imports. */
static char text[16384];

static const char *module(const char *dev, const char *core, const char *seq)
{
    snprintf(text, sizeof text,
             "module {\n"
             "  aie.device(npu1_1col) {\n"
             "    %%t00 = aie.tile(0, 0)\n"
             "    %%t02 = aie.tile(0, 2)\n"
             "    aie.objectfifo @in(%%t00, {%%t02}, 2 : i32) : "
             "!aie.objectfifo<memref<16xi32>>\n"
             "    aie.objectfifo @out(%%t02, {%%t00}, 2 : i32) : "
             "!aie.objectfifo<memref<16xi32>>\n"
             "%s"                                              /* 7 */
             "    aie.core(%%t02) {\n"
             "      %%c0 = arith.constant 0 : index\n"
             "      %%c1 = arith.constant 1 : index\n"
             "      %%c16 = arith.constant 16 : index\n"
             "      %%a = aie.objectfifo.acquire @in(Consume, 1) : "
             "!aie.objectfifosubview<memref<16xi32>>\n"
             "      %%x = aie.objectfifo.subview.access %%a[0] : "
             "!aie.objectfifosubview<memref<16xi32>> -> memref<16xi32>\n"
             "      %%b = aie.objectfifo.acquire @out(Produce, 1) : "
             "!aie.objectfifosubview<memref<16xi32>>\n"
             "      %%y = aie.objectfifo.subview.access %%b[0] : "
             "!aie.objectfifosubview<memref<16xi32>> -> memref<16xi32>\n"
             "%s"                                              /* 16 */
             "      aie.objectfifo.release @in(Consume, 1)\n"
             "      aie.objectfifo.release @out(Produce, 1)\n"
             "      aie.end\n"
             "    }\n"
             "    aie.runtime_sequence(%%i: memref<16xi32>, %%o: "
             "memref<16xi32>) {\n"
             "%s"                                              /* 22 */
             "    }\n"
             "  }\n"
             "}\n",
             dev ? dev : "    // no device-level extra\n",
             core ? core : "      // no body\n",
             seq ? seq
                 : "      aiex.npu.dma_memcpy_nd(%i[0, 0, 0, 0][1, 1, 1, "
                   "16][0, 0, 0, 1]) {id = 0 : i64, metadata = @in} : "
                   "memref<16xi32>\n"
                   "      aiex.npu.dma_memcpy_nd(%o[0, 0, 0, 0][1, 1, 1, "
                   "16][0, 0, 0, 1]) {id = 1 : i64, metadata = @out, "
                   "issue_token = true} : memref<16xi32>\n"
                   "      aiex.npu.dma_wait {symbol = @out}\n");
    return text;
}

/* Imports t as "e.mlir" with kernels; the message stays in test_errmsg. */
static iron_status import_k(const char *t, int nk, const iron_mlir_kernel *k)
{
    iron_mlir *m = NULL;
    iron_status s = test_keep(iron_mlir_design(t, strlen(t), "e.mlir", nk, k,
                                               &m));
    if (s != IRON_OK && m != NULL)
        TEST_FAIL_("a failed import gave a module");
    iron_mlir_free(m);
    return s;
}

static iron_status import(const char *t)
{
    return import_k(t, 0, NULL);
}

static const char kdecl[] =
    "    func.func private @k(memref<16xi32>, i32)\n";
static const char ksrc[] =
    "#include <stdint.h>\n"
    "void k(const int32_t *x, int32_t n) { (void)x; (void)n; }\n";

TEST(mlir_import_errors_base_module_imports)
{
    ASSERT_STATUS(import(module(NULL, NULL, NULL)), IRON_OK);
}

/* ---- outside the subset: IRON_ENOTSUP naming the op --------------------- */

/* dev, core and seq (module()'s holes) import to IRON_ENOTSUP with a
 * message containing msg; the message, whole, into out. */
static void refused(const char *dev, const char *core, const char *seq,
                    const char *msg, char *out, size_t len)
{
    ASSERT_STATUS(import(module(dev, core, seq)), IRON_ENOTSUP);
    ASSERT_MSG(msg);
    size_t n = strlen(test_errmsg);
    ASSERT(n < len);
    memcpy(out, test_errmsg, n + 1);
}

/* The op written in the generic form and in its custom form (which the
 * parser does not know: an opaque op) is one refusal, word for word. */
static void refused_both(int hole, const char *generic, const char *custom,
                         const char *msg)
{
    char a[1024], b[1024];
    const char *g[3] = { NULL, NULL, NULL }, *c[3] = { NULL, NULL, NULL };
    g[hole] = generic;
    c[hole] = custom;
    refused(g[0], g[1], g[2], msg, a, sizeof a);
    refused(c[0], c[1], c[2], msg, b, sizeof b);
    ASSERT_STR_EQ(b, a);
}

TEST(mlir_import_errors_unknown_device_level_op)
{
    refused_both(0,
                 "    \"aie.flow\"(%t00, %t02) <{dest_bundle = 1 : i32, "
                 "dest_channel = 0 : i32, source_bundle = 1 : i32, "
                 "source_channel = 0 : i32}> : (index, index) -> ()\n",
                 "    aie.flow(%t00, DMA : 0, %t02, DMA : 0)\n",
                 "e.mlir:7:5: aie.flow: outside the imported subset "
                 "(routing: ");
    refused_both(0,
                 "    \"memref.global\"() <{sym_name = \"g\", sym_visibility "
                 "= \"public\", type = memref<16xi32>}> : () -> ()\n",
                 "    memref.global \"public\" @g : memref<16xi32>\n",
                 "e.mlir:7:5: memref.global: outside the imported subset "
                 "(global memory symbols: ");
    refused_both(0,
                 "    %lt = \"aie.logical_tile\"() <{tile_type = 2 : i32}> : "
                 "() -> index\n",
                 "    %lt = aie.logical_tile<CoreTile>(?, ?)\n",
                 "e.mlir:7:11: aie.logical_tile: outside the imported "
                 "subset (a tile left for upstream's compiler to place");
    refused_both(0,
                 "    \"aie.shim_dma_allocation\"(%t00) <{sym_name = "
                 "\"in_alloc\", channel_dir = 1 : i32, channel_index = 0 : "
                 "i64}> : (index) -> ()\n",
                 "    aie.shim_dma_allocation @in_alloc(%t00, MM2S, 0)\n",
                 "e.mlir:7:5: aie.shim_dma_allocation: outside the imported "
                 "subset (what upstream's object-fifo lowering writes");
    /* an op with a region, its blocks and a trailing attribute
     * dictionary: skipped whole, refused at its name */
    refused_both(0,
                 "    %m = \"aie.mem\"(%t02) ({\n"
                 "      \"aie.end\"() : () -> ()\n"
                 "    }) : (index) -> index\n",
                 "    %m = aie.mem(%t02) {\n"
                 "      %s = aie.dma_start(S2MM, 0, ^bd0, ^end)\n"
                 "    ^bd0:\n"
                 "      aie.use_lock(%l, AcquireGreaterEqual, 1)\n"
                 "      aie.dma_bd(%b : memref<16xi32>, 0, 16)\n"
                 "      aie.next_bd ^bd0\n"
                 "    ^end:\n"
                 "      aie.end\n"
                 "    } {sym_name = \"m\"}\n",
                 "e.mlir:7:10: aie.mem: outside the imported subset (a "
                 "hand-written DMA program");
    refused_both(0,
                 "    \"aie.packet_flow\"() <{ID = 1 : i8}> ({\n"
                 "      \"aie.end\"() : () -> ()\n"
                 "    }) : () -> ()\n",
                 "    aie.packet_flow(0x1) { aie.packet_source<%t00, DMA : "
                 "0> aie.packet_dest<%t02, DMA : 0> }\n",
                 "e.mlir:7:5: aie.packet_flow: outside the imported subset "
                 "(routing: ");
    /* a name no table knows */
    refused_both(0, "    \"aie.frob\"() : () -> ()\n",
                 "    aie.frob @x [1, 2]\n",
                 "e.mlir:7:5: aie.frob: outside the imported subset (no op "
                 "of this name is read; docs/mlir.md, \"The imported "
                 "subset\")");
}

TEST(mlir_import_errors_unknown_core_op)
{
    refused_both(1, "      %r = \"math.absi\"(%c1) : (index) -> index\n",
                 "      %r = math.absi %c1 : index\n",
                 "e.mlir:16:12: math.absi: outside the imported subset (the "
                 "math dialect: ");
    refused_both(1,
                 "      \"memref.copy\"(%x, %y) : (memref<16xi32>, "
                 "memref<16xi32>) -> ()\n",
                 "      memref.copy %x, %y : memref<16xi32> to "
                 "memref<16xi32>\n",
                 "e.mlir:16:7: memref.copy: outside the imported subset (a "
                 "whole-memref copy: write it as a loop of memref.load and "
                 "memref.store");
    refused_both(1,
                 "      %v = \"vector.load\"(%x, %c0) : (memref<16xi32>, "
                 "index) -> vector<16xi32>\n",
                 "      %v = vector.load %x[%c0] : memref<16xi32>, "
                 "vector<16xi32>\n",
                 "e.mlir:16:12: vector.load: outside the imported subset (the "
                 "vector dialect: ");
    /* an arith op the body does not have: the same words, either form */
    refused_both(1, "      %r = \"arith.addui_extended\"(%c1, %c1) : (index, "
                    "index) -> index\n",
                 "      %r = arith.addui_extended %c1, %c1 : index\n",
                 "e.mlir:16:12: arith.addui_extended: outside the imported "
                 "subset (an arith op core bodies do not have");
}

TEST(mlir_import_errors_unknown_sequence_op)
{
    refused_both(2,
                 "      \"aiex.npu.write32\"() <{address = 1 : ui32, value = 2 "
                 ": ui32}> : () -> ()\n",
                 "      aiex.npu.write32 {address = 1 : ui32, value = 2 : "
                 "ui32}\n",
                 "e.mlir:22:7: aiex.npu.write32: outside the imported subset "
                 "(raw register programming");
}

/* An op the importer reads, in a place where it does not: refused
 * naming the place. */
TEST(mlir_import_errors_op_in_the_wrong_place)
{
    char got[1024];
    refused("    aie.objectfifo.release @in(Consume, 1)\n", NULL, NULL,
            "e.mlir:7:5: aie.objectfifo.release: not read at device level",
            got, sizeof got);
    refused(NULL, "      %t = aie.tile(0, 3)\n", NULL,
            "e.mlir:16:12: aie.tile: not read in a core body", got,
            sizeof got);
    refused("    %l = aie.lock(%t02, 0)\n", NULL,
            "      aie.use_lock(%l, Release, 1)\n",
            "e.mlir:22:7: aie.use_lock: not read in the runtime sequence",
            got, sizeof got);
}

/* Each op the table refuses, written in the generic form at device level,
 * is refused with its own reason; each op the importer reads is no
 * refusal of the subset check. */
TEST(mlir_import_errors_every_outside_op_has_its_reason)
{
    for (int i = 0; i < iron__imp_noutside_ops; i++) {
        const iron__imp_outside_op *o = &iron__imp_outside_ops[i];
        char name[96], dev[256], want[1024];
        size_t n = strlen(o->name);
        snprintf(name, sizeof name, "%s%s", o->name,
                 o->name[n - 1] == '.' ? "op" : "");
        snprintf(dev, sizeof dev, "    \"%s\"() : () -> ()\n", name);
        snprintf(want, sizeof want, "e.mlir:7:5: %s: outside the imported "
                 "subset (%s; docs/mlir.md", name, o->reason);
        char got[1024];
        refused(dev, NULL, NULL, want, got, sizeof got);
        ASSERT(iron__imp_outside_reason(name) == o->reason);
        ASSERT(!iron__imp_reads_op(name));
    }
    for (int i = 0; i < iron__imp_nread_ops; i++) {
        ASSERT(iron__imp_reads_op(iron__imp_read_ops[i].name));
        ASSERT(iron__imp_outside_reason(iron__imp_read_ops[i].name) == NULL);
    }
    ASSERT(iron__imp_reads_op("arith.addi"));
    ASSERT(iron__imp_reads_op("arith.index_castui"));
    ASSERT(!iron__imp_reads_op("arith.addi_extended"));
}

/* docs/mlir.md's "The imported subset" names every op of both tables
 * (a dialect as `vector.*`), so the two cannot drift apart. */
TEST(mlir_import_errors_docs_list_the_subset)
{
    size_t len;
    char *doc = (char *)test_slurp("docs/mlir.md", &len);
    char *sec = strstr(doc, "\n### The imported subset");
    ASSERT(sec != NULL);
    char *next = strstr(sec + 5, "\n### ");
    if (next)
        *next = '\0';
    char want[128];
    for (int i = 0; i < iron__imp_nread_ops; i++) {
        snprintf(want, sizeof want, "`%s`", iron__imp_read_ops[i].name);
        ASSERT_CONTAINS(sec, want);
    }
    for (int i = 0; i < iron__imp_noutside_ops; i++) {
        const char *o = iron__imp_outside_ops[i].name;
        size_t n = strlen(o);
        snprintf(want, sizeof want, "`%s%s`", o, o[n - 1] == '.' ? "*" : "");
        ASSERT_CONTAINS(sec, want);
    }
    free(doc);
}

/* Outside the device: a func.func declaration is read (see the e2e
 * test), a function with a body and any other op are refused. */
TEST(mlir_import_errors_beside_the_device)
{
    char t[16384];
    const char *inner = strstr(module(NULL, NULL, NULL), "  aie.device");
    ASSERT(inner != NULL);
    snprintf(t, sizeof t,
             "module {\n  func.func @helper(%%a: i32) {\n    return\n  }\n"
             "%s", inner);
    ASSERT_STATUS(import(t), IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:2:3: func.func: a function with a body outside "
               "aie.device");
    snprintf(t, sizeof t, "module {\n  memref.global \"private\" @g : "
             "memref<4xi32>\n%s", inner);
    ASSERT_STATUS(import(t), IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:2:3: memref.global: outside the imported subset "
               "(global memory symbols: ");
    snprintf(t, sizeof t, "module {\n  %%t = aie.tile(0, 2)\n%s", inner);
    ASSERT_STATUS(import(t), IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:2:8: aie.tile: outside aie.device: a module holds "
               "aie.device ops and func.func declarations");
    /* a declaration beside and one inside: one function, twice */
    inner = strstr(module(kdecl, NULL, NULL), "  aie.device");
    snprintf(t, sizeof t, "module {\n  func.func private @k(memref<16xi32>, "
             "i32)\n%s", inner);
    ASSERT_STATUS(import(t), IRON_EDESIGN);
    ASSERT_MSG("e.mlir:8:5: func.func: function @k is declared twice");
}

/* ---- several devices: one chosen by its symbol name --------------------- */

/* module()'s device named `sym` ("": unnamed), then an npu1 device
 * @other holding `other` (ops outside the subset are fine there unless
 * it is chosen). */
static const char *two_devices(const char *sym, const char *other)
{
    static char t2[20000];
    const char *inner = strstr(module(NULL, NULL, NULL), "  aie.device");
    ASSERT(inner != NULL);
    size_t n = strlen(inner) - strlen("}\n");   /* without the module's } */
    char head[64] = "";
    if (*sym)
        snprintf(head, sizeof head, " @%s", sym);
    const char *brace = strstr(inner, ") {");
    snprintf(t2, sizeof t2, "module {\n%.*s%s%.*s  aie.device(npu1) @other "
             "{\n%s  }\n}\n",
             (int)(brace + 1 - inner), inner, head,
             (int)(n - (size_t)(brace + 1 - inner)), brace + 1, other);
    return t2;
}

static iron_status import_named(const char *t, const char *name)
{
    iron_mlir_import_options o = { .size = sizeof o, .device_name = name };
    iron_mlir *m = (iron_mlir *)&m;
    iron_status s = test_keep(iron_mlir_design_with(t, strlen(t), "d.mlir", 0,
                                                    NULL, &o, &m));
    if (s != IRON_OK && m != NULL)
        TEST_FAIL_("a failed import gave a module");
    if (s == IRON_OK) {
        ASSERT_STR_EQ(iron_mlir_device(m), "npu1_1col");
        ASSERT_STR_EQ(iron_mlir_args(m), "in i: int32[16], out o: "
                                         "int32[16]");
    }
    iron_mlir_free(m);
    return s;
}

TEST(mlir_import_errors_device_by_name)
{
    /* an unchosen device may hold anything the parser reads: it is not
     * read */
    const char *physical =
        "    %a = aie.tile(0, 0)\n"
        "    %b = aie.tile(0, 2)\n"
        "    aie.flow(%a, DMA : 0, %b, DMA : 0)\n"
        "    memref.global \"public\" @g : memref<4xi32>\n"
        "    %lt = aie.logical_tile<CoreTile>(?, ?)\n"
        "    %m = aie.mem(%b) {\n"
        "      aie.end\n"
        "    }\n";
    const char *t = two_devices("dev", physical);
    ASSERT_STATUS(import_named(t, "dev"), IRON_OK);
    /* chosen, it is refused at its first op outside the subset */
    ASSERT_STATUS(import_named(t, "other"), IRON_ENOTSUP);
    ASSERT_MSG("d.mlir:30:5: aie.flow: outside the imported subset");
    /* no name: the devices listed */
    ASSERT_STATUS(import_named(t, NULL), IRON_EINVAL);
    ASSERT_MSG("d.mlir: the module holds 2 devices: @dev (2:3), @other "
               "(27:3); choose one by its symbol name");
    ASSERT_STATUS(import_named(t, ""), IRON_EINVAL);
    /* a name no device has: the ones there are */
    ASSERT_STATUS(import_named(t, "main"), IRON_EINVAL);
    ASSERT_MSG("d.mlir: no aie.device is named @main; the module's devices: "
               "@dev (2:3), @other (27:3)");
    /* an unnamed device is @main, upstream's default name */
    t = two_devices("", physical);
    ASSERT_STATUS(import_named(t, "main"), IRON_OK);
    ASSERT_STATUS(import_named(t, NULL), IRON_EINVAL);
    ASSERT_MSG("@main (unnamed, 2:3), @other (27:3)");
    /* one device: no name needed, and a wrong one still refused */
    const char *one = module(NULL, NULL, NULL);
    ASSERT_STATUS(import_named(one, NULL), IRON_OK);
    ASSERT_STATUS(import_named(one, "main"), IRON_OK);
    ASSERT_STATUS(import_named(one, "dev"), IRON_EINVAL);
    ASSERT_MSG("d.mlir: no aie.device is named @dev; the module's device: "
               "@main (unnamed, 2:3)");
    /* a name two devices have */
    t = two_devices("other", "");
    ASSERT_STATUS(import_named(t, "other"), IRON_EDESIGN);
    ASSERT_MSG("d.mlir: 2 devices are named @other: @other (2:3), @other "
               "(27:3)");
    /* the options' size */
    iron_mlir_import_options bad = { .size = 4, .device_name = "dev" };
    iron_mlir *m = (iron_mlir *)&m;
    ASSERT_STATUS(iron_mlir_design_with(one, strlen(one), NULL, 0, NULL, &bad,
                                        &m),
                  IRON_EINVAL);
    ASSERT(m == NULL);
    ASSERT_MSG("iron_mlir_import_options");
}

TEST(mlir_import_errors_lock_patterns)
{
    const char *lock = "    %l = aie.lock(%t02, 0) {init = 0 : i32}\n";
    ASSERT_STATUS(import(module(lock,
                                "      aie.use_lock(%l, AcquireGreaterEqual, "
                                "1)\n",
                                NULL)),
                  IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:16:7: aie.use_lock: action AcquireGreaterEqual");
    const char *far = "    %l = aie.lock(%t00, 0)\n";
    ASSERT_STATUS(import(module(far, "      aie.use_lock(%l, Acquire, 1)\n",
                                NULL)),
                  IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:16:7: aie.use_lock: lock l is on tile (0,0), not the "
               "core's (0,2)");
}

TEST(mlir_import_errors_aie1_device)
{
    ASSERT_STATUS(import("module {\n  aie.device(xcvc1902) {\n  }\n}\n"),
                  IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:2:3: aie.device: device xcvc1902 is an AIE1 / Versal "
               "part");
}

/* ---- undefined symbols and wrong types: IRON_EDESIGN -------------------- */

TEST(mlir_import_errors_undefined_fifo)
{
    ASSERT_STATUS(import(module(NULL,
                                "      %z = aie.objectfifo.acquire @nope("
                                "Consume, 1) : !aie.objectfifosubview<"
                                "memref<16xi32>>\n",
                                NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:16:12: aie.objectfifo.acquire: @nope is not an object "
               "fifo of the module");
    ASSERT_STATUS(import(module(NULL, NULL,
                                "      aiex.npu.dma_wait {symbol = @nope}\n")),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:22:7: aiex.npu.dma_wait: symbol: @nope is not an "
               "object fifo");
    ASSERT_STATUS(import(module("    aie.objectfifo.link [@in] -> [@nope] "
                                "([] [])\n",
                                NULL, NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:7:5: aie.objectfifo.link: fifoOuts: @nope is not an "
               "object fifo");
}

TEST(mlir_import_errors_undefined_function_and_buffer)
{
    ASSERT_STATUS(import(module(NULL,
                                "      func.call @nope(%x) : (memref<16xi32>) "
                                "-> ()\n",
                                NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:16:7: func.call: @nope is not a function the module "
               "declares");
    ASSERT_STATUS(import(module(NULL, NULL,
                                "      aiex.npu.rtp_write(@nope, 0, 1)\n")),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:22:7: aiex.npu.rtp_write: @nope is not an aie.buffer");
}

TEST(mlir_import_errors_acquire_type)
{
    ASSERT_STATUS(import(module(NULL,
                                "      %z = aie.objectfifo.acquire @in("
                                "Consume, 1) : !aie.objectfifosubview<"
                                "memref<8xi32>>\n",
                                NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:16:12: aie.objectfifo.acquire: acquires objects of "
               "memref<8xi32> from @in, which carries memref<16xi32>");
}

TEST(mlir_import_errors_acquire_wrong_side)
{
    ASSERT_STATUS(import(module(NULL,
                                "      %z = aie.objectfifo.acquire @out("
                                "Consume, 1) : !aie.objectfifosubview<"
                                "memref<16xi32>>\n",
                                NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:16:12: aie.objectfifo.acquire: the core on tile (0,2) "
               "consumes @out, which does not reach that tile");
}

TEST(mlir_import_errors_call_arity_and_types)
{
    iron_mlir_kernel k = { .name = "k", .source = ksrc };
    ASSERT_STATUS(import_k(module(kdecl,
                                  "      func.call @k(%x) : (memref<16xi32>) "
                                  "-> ()\n",
                                  NULL),
                           1, &k),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:16:7: func.call: @k takes 2 arguments (declared at "
               "7:5); the call passes 1");
    ASSERT_STATUS(import_k(module(kdecl,
                                  "      func.call @k(%x, %c16) : (memref<"
                                  "16xi32>, index) -> ()\n",
                                  NULL),
                           1, &k),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:16:7: func.call: argument 1 of @k is index; the "
               "declaration (7:5) says i32");
}

TEST(mlir_import_errors_sequence_awaits_nothing)
{
    ASSERT_STATUS(import(module(NULL, NULL,
                                "      aiex.npu.dma_memcpy_nd(%i[0, 0, 0, 0]"
                                "[1, 1, 1, 16][0, 0, 0, 1]) {id = 0 : i64, "
                                "metadata = @in} : memref<16xi32>\n"
                                "      aiex.npu.dma_memcpy_nd(%o[0, 0, 0, 0]"
                                "[1, 1, 1, 16][0, 0, 0, 1]) {id = 1 : i64, "
                                "metadata = @out} : memref<16xi32>\n")),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:21:5: aie.runtime_sequence: the runtime sequence "
               "awaits no drain");
}

TEST(mlir_import_errors_unused_endpoints)
{
    ASSERT_STATUS(import(module("    aie.objectfifo @extra(%t00, {%t02}, 2 : "
                                "i32) : !aie.objectfifo<memref<16xi32>>\n",
                                NULL, NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:7:5: aie.objectfifo: fifo @extra: its producer on shim "
               "(0,0) is never used: the runtime sequence never fills it");
    ASSERT_STATUS(import(module("    %t03 = aie.tile(0, 3)\n"
                                "    aie.objectfifo @lost(%t02, {%t03}, 2 : "
                                "i32) : !aie.objectfifo<memref<16xi32>>\n",
                                NULL, NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:8:5: aie.objectfifo: fifo @lost: its consumer on tile "
               "(0,3) has no user: no aie.core and no link on that tile");
}

TEST(mlir_import_errors_no_device)
{
    ASSERT_STATUS(import("module {\n}\n"), IRON_EDESIGN);
    ASSERT_MSG("e.mlir: the module has no aie.device");
}

TEST(mlir_import_errors_syntax)
{
    ASSERT_STATUS(import("module {\n  aie.device(npu1_1col) {\n    %t = "
                         "aie.tile(0, \n"),
                  IRON_ESYNTAX);
    ASSERT_MSG("e.mlir:");
}

/* An index of dma_memcpy_nd given by a value must be an integer
 * arith.constant (upstream's %c0 spelling); anything else is named. */
TEST(mlir_import_errors_memcpy_index_not_constant)
{
    ASSERT_STATUS(
        import(module(NULL, NULL,
                      "      %n = arith.addi %i0, %i0 : i64\n"
                      "      aiex.npu.dma_memcpy_nd(%i[0, 0, 0, 0][1, 1, 1, "
                      "%n][0, 0, 0, 1]) {id = 0 : i64, metadata = @in} : "
                      "memref<16xi32>\n")),
        IRON_ESYNTAX);
    ASSERT_MSG("undefined value %i0");
    ASSERT_STATUS(
        import(module(NULL, NULL,
                      "      %k = arith.constant 16 : i64\n"
                      "      %n = arith.addi %k, %k : i64\n"
                      "      aiex.npu.dma_memcpy_nd(%i[0, 0, 0, 0][1, 1, 1, "
                      "%n][0, 0, 0, 1]) {id = 0 : i64, metadata = @in} : "
                      "memref<16xi32>\n")),
        IRON_ESYNTAX);
    ASSERT_MSG("e.mlir:24:54: static_sizes: %n is not an integer "
               "arith.constant");
}

/* ---- placement against the device --------------------------------------- */

TEST(mlir_import_errors_tile_outside_device)
{
    ASSERT_STATUS(import(module("    %t12 = aie.tile(1, 2)\n", NULL, NULL)),
                  IRON_ERESOURCE);
    ASSERT_MSG("e.mlir:7:12: aie.tile: tile (1,2) is outside npu1_1col: "
               "columns 0..0");
    ASSERT_STATUS(import(module("    %t06 = aie.tile(0, 6)\n", NULL, NULL)),
                  IRON_ERESOURCE);
    ASSERT_MSG("e.mlir:7:12: aie.tile: tile (0,6) is outside npu1_1col");
}

TEST(mlir_import_errors_core_on_memtile_and_shim)
{
    ASSERT_STATUS(import(module("    %t01 = aie.tile(0, 1)\n"
                                "    aie.core(%t01) {\n      aie.end\n    }\n",
                                NULL, NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:8:5: aie.core: a core on tile (0,1), a memtile: cores "
               "run on compute tiles (rows 2..5)");
    ASSERT_STATUS(import(module("    aie.core(%t00) {\n      aie.end\n    }\n",
                                NULL, NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:7:5: aie.core: a core on tile (0,0), a shim tile");
}

TEST(mlir_import_errors_two_cores_on_one_tile)
{
    ASSERT_STATUS(import(module("    aie.core(%t02) {\n      aie.end\n    }\n",
                                NULL, NULL)),
                  IRON_EDESIGN);
    ASSERT_MSG("e.mlir:10:5: aie.core: tile (0,2) already has the core at "
               "7:5; one core per tile");
}

TEST(mlir_import_errors_interleaved_task_groups)
{
    const char *seq =
        "      %0 = aiex.dma_configure_task_for @in {\n"
        "        aie.dma_bd(%i : memref<16xi32>, 0, 16)\n"
        "        aie.end\n"
        "      }\n"
        "      %1 = aiex.dma_configure_task_for @out {\n"
        "        aie.dma_bd(%o : memref<16xi32>, 0, 16)\n"
        "        aie.end\n"
        "      } {issue_token = true}\n"
        "      %2 = aiex.dma_configure_task_for @in {\n"
        "        aie.dma_bd(%i : memref<16xi32>, 0, 16)\n"
        "        aie.end\n"
        "      }\n"
        "      aiex.dma_start_task(%0)\n"
        "      aiex.dma_start_task(%2)\n"
        "      aiex.dma_start_task(%1)\n"
        "      aiex.dma_await_task(%1)\n"
        "      aiex.dma_free_task(%0)\n"
        "      aiex.npu.rtp_write(@p, 0, 1)\n"
        "      aiex.dma_free_task(%2)\n";
    ASSERT_STATUS(import(module("    %p = aie.buffer(%t02) {sym_name = \"p\"} "
                                ": memref<4xi32>\n",
                                NULL, seq)),
                  IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:27:9: aie.dma_bd: this transfer belongs to task "
               "group 1 (finished by the sequence's 1st run of waits), but "
               "group 2 was opened after it and is still open");
}

/* ---- external kernels: IRON_EINVAL, and the compiler at the first call -- */

TEST(mlir_import_errors_missing_kernel_source)
{
    ASSERT_STATUS(import(module(kdecl,
                                "      func.call @k(%x, %n) : (memref<"
                                "16xi32>, i32) -> ()\n",
                                NULL)),
                  IRON_ESYNTAX);   /* %n is undefined: the parser says so */
    ASSERT_STATUS(import(module("    func.func private @k(memref<16xi32>, "
                                "index)\n",
                                "      func.call @k(%x, %c16) : (memref<"
                                "16xi32>, index) -> ()\n",
                                NULL)),
                  IRON_EINVAL);
    ASSERT_MSG("e.mlir:16:7: func.call: no C source was given for @k, "
               "declared at 7:5");
}

TEST(mlir_import_errors_unused_kernel_source)
{
    iron_mlir_kernel k[2] = { { .name = "k", .source = ksrc },
                              { .name = "ghost", .source = ksrc } };
    ASSERT_STATUS(import_k(module(kdecl, NULL, NULL), 2, k), IRON_EINVAL);
    ASSERT_MSG("e.mlir: a C source is given for 'ghost', which the module "
               "does not declare (its external functions: @k)");
}

/* A source whose function disagrees with the declaration imports (the
 * text is not C-checked then) and fails at the first call, in the C
 * compiler, naming the function. */
TEST_TIMEOUT(mlir_import_errors_kernel_disagrees, 60)
{
    static const char bad[] =
        "#include <stdint.h>\n"
        "void k(const int16_t *x, int32_t n) { (void)x; (void)n; }\n";
    iron_mlir_kernel k = { .name = "k", .source = bad };
    const char *t = module("    %n = arith.constant 16 : i32\n" /* 7 */
                           "    func.func private @k(memref<16xi32>, i32)\n",
                           "      func.call @k(%x, %n) : (memref<16xi32>, "
                           "i32) -> ()\n",
                           NULL);
    iron_mlir *m = NULL;
    ASSERT_OK(iron_mlir_design(t, strlen(t), "e.mlir", 1, &k, &m));
    iron_jit *j = NULL;
    ASSERT_OK(iron_mlir_jit_create(m, NULL, &j));
    iron_tensor *in = test_zeros(IRON_INT32, 16), *out = test_zeros(IRON_INT32,
                                                                    16);
    iron_status s = IRON_OK;
    IRON_WITH_DEVICE("npu1_1col")
    {
        s = test_launch(j, 0, 2, (iron_tensor *const[]){ in, out });
    }
    ASSERT_EQ(s, IRON_ECOMPILE);
    ASSERT_MSG("kernel 'k': C compiler failed");
    ASSERT_MSG("conflicting types for k: the declared argument types "
               "(int32*, int32)");
    iron_tensor_free(in);
    iron_tensor_free(out);
    iron_jit_free(j);
    iron_mlir_free(m);
}

/* ---- the API's own arguments -------------------------------------------- */

TEST(mlir_import_errors_api_arguments)
{
    iron_mlir *m = (iron_mlir *)&m;
    const char *t = module(NULL, NULL, NULL);
    ASSERT_STATUS(iron_mlir_design(t, strlen(t), NULL, 0, NULL, NULL),
                  IRON_EINVAL);
    ASSERT_MSG("out is NULL");
    ASSERT_STATUS(iron_mlir_design(NULL, 5, NULL, 0, NULL, &m), IRON_EINVAL);
    ASSERT(m == NULL);
    ASSERT_STATUS(iron_mlir_design(t, strlen(t), NULL, 1, NULL, &m),
                  IRON_EINVAL);
    ASSERT_MSG("kernels is NULL");
    iron_mlir_kernel twice[2] = { { .name = "k", .source = ksrc },
                                  { .name = "k", .source = ksrc } };
    ASSERT_STATUS(iron_mlir_design(t, strlen(t), NULL, 2, twice, &m),
                  IRON_EINVAL);
    ASSERT_MSG("kernel 'k' is given twice");
    iron_mlir_kernel nosrc = { .name = "k", .source = NULL };
    ASSERT_STATUS(iron_mlir_design(t, strlen(t), NULL, 1, &nosrc, &m),
                  IRON_EINVAL);
    ASSERT_MSG("kernel 0 has no source");
    /* no file name: "<mlir>" */
    ASSERT_STATUS(iron_mlir_design("module {\n}\n", 11, NULL, 0, NULL, &m),
                  IRON_EDESIGN);
    ASSERT_MSG("<mlir>: the module has no aie.device");
    iron_jit *j = (iron_jit *)&j;
    ASSERT_STATUS(iron_mlir_jit_create(NULL, NULL, &j), IRON_EINVAL);
    ASSERT(j == NULL);
    ASSERT(iron_mlir_args(NULL) == NULL);
    ASSERT(iron_mlir_device(NULL) == NULL);
    iron_mlir_free(NULL);
}

/* The design function with no module as its user is a design error. */
TEST(mlir_import_errors_design_fn_without_module)
{
    iron_jit *j = test_jit(iron_mlir_design_fn, "nomodule",
                           "in a: int32[16], out b: int32[16]");
    iron_tensor *a = test_zeros(IRON_INT32, 16), *b = test_zeros(IRON_INT32,
                                                                 16);
    ASSERT_STATUS(test_launch(j, 0, 2, (iron_tensor *const[]){ a, b }),
                  IRON_EINVAL);
    ASSERT_MSG("user is NULL");
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
}

/* A transfer keeps its inner size-1 dimensions: upstream reads
 * [2, 1, 1, 1024] with strides [2048, 0, 0, 1] as two iterations of a
 * linear run and accepts it, so it imports (and exports as written); the
 * same elements as [1, 1, 2, 1024] put 1024 words in d0, which upstream
 * refuses, and so does the import, naming the op's line. */
static const char *wide_module(const char *fill)
{
    snprintf(text, sizeof text,
             "module {\n"
             "  aie.device(npu1_1col) {\n"
             "    %%t00 = aie.tile(0, 0)\n"
             "    %%t02 = aie.tile(0, 2)\n"
             "    aie.objectfifo @in(%%t00, {%%t02}, 2 : i32) : "
             "!aie.objectfifo<memref<1024xi32>>\n"
             "    aie.objectfifo @out(%%t02, {%%t00}, 2 : i32) : "
             "!aie.objectfifo<memref<1024xi32>>\n"
             "    aie.core(%%t02) {\n"
             "      %%a = aie.objectfifo.acquire @in(Consume, 1) : "
             "!aie.objectfifosubview<memref<1024xi32>>\n"
             "      %%b = aie.objectfifo.acquire @out(Produce, 1) : "
             "!aie.objectfifosubview<memref<1024xi32>>\n"
             "      aie.objectfifo.release @in(Consume, 1)\n"
             "      aie.objectfifo.release @out(Produce, 1)\n"
             "      aie.end\n"
             "    }\n"
             "    aie.runtime_sequence(%%i: memref<4096xi32>, %%o: "
             "memref<2048xi32>) {\n"
             "      aiex.npu.dma_memcpy_nd(%%i[0, 0, 0, 0]%s) {id = 0 : "
             "i64, metadata = @in} : memref<4096xi32>\n"
             "      aiex.npu.dma_memcpy_nd(%%o[0, 0, 0, 0][1, 1, 1, 2048]"
             "[0, 0, 0, 1]) {id = 1 : i64, metadata = @out, issue_token = "
             "true} : memref<2048xi32>\n"
             "      aiex.npu.dma_wait {symbol = @out}\n"
             "    }\n"
             "  }\n"
             "}\n",
             fill);
    return text;
}

static iron_status dump_wide(const char *fill, char **out)
{
    iron_mlir *m = NULL;
    const char *t = wide_module(fill);
    iron_status s = test_keep(iron_mlir_design(t, strlen(t), "w.mlir", 0,
                                               NULL, &m));
    if (s != IRON_OK)
        return s;
    iron_jit *j = NULL;
    ASSERT_OK(iron_mlir_jit_create(m, "wide", &j));
    iron_tensor *a = NULL, *b = NULL;
    ASSERT_OK(iron_device_push("npu1_1col"));
    a = test_zeros(IRON_INT32, 4096);
    b = test_zeros(IRON_INT32, 2048);
    s = test_keep(iron_jit_dump_as(j, NULL, IRON_NO_PARAMS,
                                   IRON_TENSORS(a, b), "mlir", out));
    iron_device_pop();
    iron_tensor_free(a);
    iron_tensor_free(b);
    iron_jit_free(j);
    iron_mlir_free(m);
    return s;
}

TEST(mlir_import_keeps_inner_size1_dimensions)
{
    char *out = NULL;
    ASSERT_OK(dump_wide("[2, 1, 1, 1024][2048, 0, 0, 1]", &out));
    ASSERT_CONTAINS(out, "aie.dma_bd(%arg0 : memref<4096xi32> offset = 0 "
                         "len = 1024 sizes = [2, 1, 1, 1024] strides = "
                         "[2048, 0, 0, 1])");
    ASSERT_CONTAINS(out, "repeat_count = 1 : i32");
    iron_free(out);
    out = NULL;
    ASSERT_STATUS(dump_wide("[1, 1, 2, 1024][0, 0, 2048, 1]", &out),
                  IRON_EBOUNDS);
    ASSERT_MSG("w.mlir:15:7: aiex.npu.dma_memcpy_nd: fill of fifo 'in' "
               "(producer) from argument 0 ('i'): access pattern dimension 1 "
               "has size 1024 with stride 1; strided sizes are at most 1023");
    ASSERT(out == NULL);
}
