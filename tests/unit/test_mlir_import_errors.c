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

TEST(mlir_import_errors_unknown_device_level_op)
{
    ASSERT_STATUS(import(module("    \"aie.flow\"(%t00, %t02) <{dest_bundle = "
                                "1 : i32, dest_channel = 0 : i32, "
                                "source_bundle = 1 : i32, source_channel = "
                                "0 : i32}> : (index, index) -> ()\n",
                                NULL, NULL)),
                  IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:7:5: aie.flow: not in the imported subset");
}

TEST(mlir_import_errors_unknown_core_op)
{
    ASSERT_STATUS(import(module(NULL,
                                "      %r = \"math.absi\"(%c1) : (index) -> "
                                "index\n",
                                NULL)),
                  IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:16:12: math.absi: not in the imported subset of core "
               "bodies");
}

TEST(mlir_import_errors_unknown_sequence_op)
{
    ASSERT_STATUS(import(module(NULL, NULL,
                                "      aiex.npu.write32 {address = 1 : ui32, "
                                "value = 2 : ui32}\n")),
                  IRON_ENOTSUP);
    ASSERT_MSG("e.mlir:22:7: aiex.npu.write32: not in the imported subset of "
               "the runtime sequence");
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
    ASSERT_CONTAINS(out, "aie.dma_bd(%arg0 : memref<4096xi32>, 0, 1024, "
                         "[<size = 2, stride = 2048>, <size = 1, stride = "
                         "0>, <size = 1, stride = 0>, <size = 1024, stride = "
                         "1>])");
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
